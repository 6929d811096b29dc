"""The PEP 249 Connection: connect, its public surface, and the session API.

The session is built in layers, each a base class of the next and a module with one job:
client/wire.py (``WireSession``: state, sends, the reply loops, exchanges), lifecycle.py
(``StatementSession``: statements, the statement cache, transactions), login.py
(``LoginSession``: the login steps) and this module (``Connection``: connect, PEP 249
methods, closing, the rest of the session API).
"""

from __future__ import annotations

import logging
import threading
import weakref
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .. import errors as _e
from ..errors import ExceptionAttributes
from ..locales import codec_for_locale
from ..rows import BaseRowFactory, tuple_row
from ..types.adapters import AdaptersMap, global_adapters
from . import fastpath as _fastpath
from .cursor import Cursor, CursorOp
from .dsn import Address, ConnectParams
from .failover import Attempts, connect_calls
from .goodbye import CLOSE_TIMEOUT, ack_steps, leave, say_exit, settle
from .handshake import is_internal_version, version_number
from .login import LoginSession
from .routines import OutRoutine
from .scroll import ScrollCursor
from .statements import StatementCache
from .steps import Op, Steps, blocking_method, call_each
from .transport import Transport, open_transport

if TYPE_CHECKING:
    from .dbapi import DbapiConnection
    from .savepoints import Savepoint

__all__ = ["Connection", "Op", "Steps", "release_op"]

log = logging.getLogger("ifxwire.client")

class Connection(LoginSession, ExceptionAttributes):
    """A session with an Informix server (PEP 249 Connection).

    Create it with :func:`ifxwire.connect`. Not safe to use from several threads at once in
    the PEP 249 sense (``threadsafety = 1``), but accidental sharing cannot corrupt the wire.
    The state every connection starts with is ``WireSession``'s class attributes.
    """

    #: Routines called with OUT parameters: (database, name, nargs) -> their description.
    _out_routines: dict[tuple[str | None, str, int], OutRoutine]

    def __init__(self, params: ConnectParams) -> None:
        self._params = params
        self._lock = threading.RLock()
        # SQL text and character values travel in the database locale's code set: DB_LOCALE,
        # which defaults to the client locale (GLS; docs/PROTOCOL.md §2 "Code set").
        self.encoding = codec_for_locale(params.db_locale or params.client_locale)
        self._deferred = []
        self._cache = StatementCache(params.statement_cache_size)
        self._autocommit = bool(params.autocommit)
        self._open_results = weakref.WeakSet()
        #: Fast-path routine handles: (database, signature) -> (routine database, handle).
        self._routines = {}
        self._out_routines = {}
        #: LOB values up to this many bytes are fetched as bytes/str (0: as Blob/Clob).
        self.lob_materialize_limit = params.lob_materialize_limit
        self._trace = params.trace
        self.fetch_buffer_size = params.fetch_buffer_size
        self.keep_char_padding = params.keep_char_padding
        #: Loaders and dumpers of this connection: a snapshot of ``ifxwire.adapters``.
        self.adapters = AdaptersMap(global_adapters)
        #: The server name the login used (a group member's own).
        self.server_name = params.server
        #: Seconds a request may run before it is cancelled (None: no limit); a cursor's
        #: own ``statement_timeout`` overrides it for that cursor's requests.
        self.statement_timeout = params.statement_timeout
        #: What new cursors' fetches return (``ifxwire.rows``; docs/DRIVER.md, "Row
        #: factories"): cursors take it when they are made.
        self.row_factory = tuple_row
        self._transport = self._open(params)

    # ------------------------------------------------------------------ login

    def _open(self, params: ConnectParams) -> Transport:
        """Connect and log in to the first address that answers (docs/DRIVER.md §16): each
        gets its own connect_timeout and is logged in to with its own server name; the next
        is tried when one cannot be reached or drops the login, never after a refusal."""
        settle()  # the goodbyes of closed connections first: their sessions are gone
        addresses = params.addresses
        if len(addresses) == 1 and addresses[0].server in (None, params.server):
            # One address logged in to with these very parameters (the common connect):
            # tried without ``Attempts`` (member_params' list: three calls a connect,
            # count24) and without the loop's generator; after a failure the loop decides
            # as for any attempt (a redirect is followed).
            try:
                return self._connect_at(addresses[0], params)
            except BaseException as exc:
                attempts = Attempts(params)
                attempts.only()  # (the attempt just made)
                if not attempts.failed(addresses[0], params, exc):
                    raise
        else:
            attempts = Attempts(params)
            one = attempts.only()
            if one is not None:
                # One address with a server name of its own: the same, with its parameters.
                try:
                    return self._connect_at(*one)
                except BaseException as exc:
                    if not attempts.failed(one[0], one[1], exc):
                        raise
        transport: Transport = call_each(connect_calls(params, attempts), self)
        return transport

    def _connect_at(self, addr: Address, member: ConnectParams) -> Transport:
        """Open ``addr`` and log in there with ``member``'s parameters (``connect_calls``
        asks, and decides what a failure means)."""
        t = open_transport(
            addr.host,
            addr.port,
            connect_timeout=member.connect_timeout,
            read_timeout=member.read_timeout,
            keepalive=member.keepalive,
            tls=member.tls or addr.tls,
            server_hostname=member.tls_server_hostname,
        )
        try:
            self._login(t, member)
        except BaseException:
            t.close()
            raise
        self.server_name, self.address = member.server, (addr.host, addr.port)
        return t

    @property
    def server_version(self) -> str:
        """The server's release, e.g. ``"14.10.FC9"``.

        The login reply gives it, except that real 12.10 and 14.10 servers put their internal
        protocol version there (9.56, 9.59: informix-driver CHANGELOG 2026.08.31), which reads
        as a wrong answer (and made version checks, SQLAlchemy's among them, think of a 9.x
        server). For such a server the release is asked for once, on first access, with
        ``DBINFO('version','full')`` (needs an open database; a plain SELECT opens no
        transaction), and cached; without a database, or if that fails, the internal number
        is returned. ``server_version_internal`` is always the login's number.
        """
        if self.release_wanted():
            self._server_release = self._lookup_release()
        return self._server_release or self.server_version_internal

    def _lookup_release(self) -> str | None:
        with self.cursor(row_factory=tuple_row) as cur:  # whatever the application's rows are
            return cur.run(release_op)

    def release_wanted(self) -> bool:
        """Whether the server's release is still to be asked for (``server_version``; the
        asyncio driver asks at connect, a property cannot await): the login gave an internal
        protocol version, and a usable connection has a database to ask in."""
        return (self._server_release is None and is_internal_version(self.server_version_internal)
                and not self._closed and self._broken is None and bool(self._database))


    # ------------------------------------------------------------------ PEP 249 methods

    def cursor(
        self,
        scrollable: bool = False,
        withhold: bool = False,
        *,
        row_factory: BaseRowFactory | None = None,
    ) -> Cursor:
        """A new cursor. ``scrollable=True``: a scroll cursor (moves anywhere in its result,
        docs/DRIVER.md §15); ``withhold=True``: a hold cursor, left open by commit and
        rollback. ``row_factory``: what its fetches return (default: the connection's)."""
        self._check()
        cur: Cursor
        if scrollable or withhold:
            cur = ScrollCursor(self, scrollable=scrollable, withhold=withhold)
        else:
            cur = Cursor(self)
        if row_factory is not None:
            cur.row_factory = row_factory
        return cur

    def call_function_op(self, routine: str, *args: object) -> Op[list[Any]]:
        """Run a server routine by fast path and return every value it returns.

        ``routine`` is a signature (``"function informix.ifx_lo_close(integer)"``, or
        ``"myfunc(integer, varchar)"``) or a bare name whose argument types are taken from the
        Python values. The routine handle is cached per connection and database, so a
        repeated call is one round trip. See docs/DRIVER.md §13.
        """
        # ``call_function`` of both connections (``blocking_method``/``awaiting_method``).
        signature = _fastpath.signature_of(routine, args)
        return (yield from _fastpath.call_op(self, signature, args))

    #: Run an operation holding the lock (the methods made by ``blocking_method``).
    _do = _fastpath.run
    call_function = blocking_method(call_function_op)

    def savepoint(self, name: str | None = None) -> Savepoint:
        """Set a savepoint in the transaction (``SAVEPOINT name``; a name is made up when
        None) and return it: ``with conn.savepoint("x"):`` releases it at the end of the
        block, or rolls back to it when the block raises (docs/DRIVER.md §5)."""
        from .savepoints import Savepoint, check_savepoint

        sp = Savepoint(self, check_savepoint(name, self.autocommit))
        sp._run(lambda cur: sp.action_op(cur, "set"))
        return sp

    def execute(self, sql: str, params: object = None) -> Cursor:
        """Shortcut: a new cursor, executed; iterate it or call fetch*() on it."""
        cur = self.cursor()
        try:
            cur.execute(sql, params)
        except BaseException:
            cur.close()
            raise
        return cur

    def commit(self) -> None:
        """Commit the open transaction.

        A no-op when no transaction is open (logged database), in unlogged databases and
        without a database; always sent in ANSI databases, where a transaction is implicit.
        """
        with self._lock:
            self._run(self.commit_op(True))

    def rollback(self) -> None:
        """Roll back the open transaction; no-op under the same conditions as commit()."""
        with self._lock:
            self._run(self.commit_op(False))

    def close(self, wait: bool = False) -> None:
        """Say goodbye (SQ_EXIT) and close the socket. Idempotent; never hangs.

        An open transaction is rolled back by the server, as PEP 249 requires. The server's
        acknowledgement is read by this process's next connect (or at exit), not here:
        client/goodbye.py says why. ``wait=True`` reads it before returning (at most
        CLOSE_TIMEOUT seconds), for a program that must know the session is gone before
        another process goes on.
        """
        if self._closed:
            return
        got = self._lock.acquire(timeout=CLOSE_TIMEOUT)
        try:
            if self.begin_close(got):
                leave(self._transport, wait)
            self.end_close()
        finally:
            if got:
                self._lock.release()

    def __enter__(self) -> Connection:
        return self

    def __repr__(self) -> str:
        return f"<ifxwire Connection {self.state_text()}>"

    def state_text(self) -> str:
        """What both drivers' connections show of themselves in ``repr``."""
        state = "closed" if self._closed else "broken" if self._broken else "open"
        return (f"{state} server={self.server_name!r} database={self._database!r} "
                f"autocommit={self._autocommit}")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """psycopg 3 semantics: commit on success, roll back on an exception, then close."""
        try:
            with self._lock:
                self._run(self.leave_op(exc_type is not None))
        finally:
            self.close()

    # ------------------------------------------------------------------ session API
    # What the drivers' loops (ifxwire.aio), the LOB objects and the pools use of the
    # session: a small, named surface, so that none of them reads private members. Not for
    # applications (they need none of it); stable inside the package. Its exchange half is
    # WireSession's (ensure_usable, begin_exchange, read_steps, ping_op...), its statement
    # half StatementSession's (statement_op, end_transaction_op, leave_op...).

    @property
    def params(self) -> ConnectParams:
        """The resolved connect parameters of this session."""
        return self._params

    def begin_close(self, can_talk: bool) -> bool:
        """Closed from now on: both drivers' ``close`` start here. When the session is
        healthy and ``can_talk`` (no exchange holds the connection), SQ_EXIT is sent (queued
        on the asyncio transport) and True returned: the caller reads the acknowledgement
        (``goodbye_steps``) now or later. Otherwise the transport is closed."""
        self._closed = True
        t = self._transport
        if can_talk and self._broken is None:
            self._deferred.clear()  # (the server closes every statement with the session)
            return say_exit(t)
        t.close()
        return False

    def goodbye_steps(self) -> Steps[None]:
        """Read the goodbye's acknowledgement, without I/O (``goodbye.ack_steps``)."""
        return ack_steps(self._transport)

    def end_close(self) -> None:
        """The last of ``close``: the statement cache's server ids are gone with the
        session."""
        if len(self._cache):
            self._cache.drain()
        log.debug("connection closed")

    def note_release(self, release: str | None) -> None:
        """The server's release, asked for at connect (``server_version``)."""
        self._server_release = release


if TYPE_CHECKING:
    # A cursor names its connection by the Protocol of client/dbapi.py (cursor.py imports no
    # connection module); this line makes mypy hold Connection to that surface.
    _SURFACE: type[DbapiConnection[Cursor]] = Connection


#: The release of a 12.10/14.10 server (``Connection.server_version``).
RELEASE_SQL = "SELECT FIRST 1 DBINFO('version', 'full') FROM systables"


def release_op(cur: Cursor) -> CursorOp[str | None]:
    """The server's release by ``RELEASE_SQL`` (None when that fails): asked for on first
    use of ``server_version`` by the sync driver, at connect by the asyncio one (a property
    cannot await); ``cur`` makes tuples."""
    try:
        row = yield from cur.query_op(RELEASE_SQL)
    except _e.Error:
        return None
    text = row[0] if row else None
    return version_number(str(text).strip()) if text else None
