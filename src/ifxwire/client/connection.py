"""The PEP 249 Connection: login, request/reply exchanges, transactions, statement lifecycle.

Why the exchanges are organised the way they are:

* Every request group gets exactly one reply, and replies come back in order, so several
  groups can go out in one ``send`` and their replies are read one after another. The driver
  uses that only for groupings that are already evidence-backed on their own (see
  docs/PROTOCOL.md): the three post-login groups, an implicit ``BEGIN`` in front of a
  statement, and "deferred" ``ID CLOSE`` / ``ID RELEASE`` / ``CMMTWORK`` groups. Deferred groups
  are queued instead of costing a round trip and ride along with the next request; their
  replies are read first and their errors only logged.
* Replies are always read to their SQ_EOT before any error is raised, so a failed statement
  never leaves unread bytes behind. Only a wire failure (EOF, timeout, unknown message) breaks
  the connection, and then every later call fails fast with InterfaceError.
* One reentrant lock per connection covers each send-and-read, so threads that share a
  connection by accident cannot interleave bytes on the wire.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Generator, Iterator, Sequence
from functools import lru_cache
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from .. import errors as _e
from ..errors import (
    DatabaseError,
    DataError,
    Error,
    ExceptionAttributes,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
)
from ..locales import codec_for_locale
from ..protocol import messages as m
from ..protocol.codes import (
    CLIENT_PROTOCOLS,
    DBFLAG_ANSI,
    DBFLAG_LOGGED,
    Msg,
    StmtType,
    capability_set,
)
from ..protocol.login import ConnectResponse, read_connect_response
from ..protocol.requests import BEGIN_GROUP, COMMIT_GROUP, PING_GROUP, ROLLBACK_GROUP, id_group
from ..protocol.wire import ProtocolViolation, Reader, Writer
from ..rows import BaseRowFactory, tuple_row
from ..types.adapters import AdaptersMap, global_adapters
from ..types.blobs import blob_columns, widen_blob_columns
from ..types.composite import is_complex_column
from ..types.errors import CodecDataError, CodecError, CodecNotSupported
from ..types.rowcodec import build_row_decoder
from . import fastpath as _fastpath
from .cancel import RESEND_INTERVAL, RESEND_LIMIT, TIMER, send_interrupt
from .clientfiles import answer_file_request
from .dsn import ConnectParams
from .failover import Attempts
from .goodbye import CLOSE_TIMEOUT, ack_steps, leave, say_exit, settle
from .handshake import (
    CAP_PAM,
    CAP_TWO_GB_FETCH,
    check_login,
    is_internal_version,
    login_request,
    session_groups,
    version_number,
)
from .lob import lob_columns, params_described
from .pamauth import no_callback, pam_steps
from .placeholders import SqlPlan
from .replies import Reply, UnknownMessage
from .statements import (
    DATABASE_TYPES,
    DDL_TYPES,
    NO_TRANSACTION_TYPES,
    Prepared,
    StatementCache,
    database_name,
    describe_columns,
    flags_from_create,
    returns_rows,
    set_result_limits,
)
from .steps import FLUSH, Op, Steps
from .transport import Transport, open_transport

if TYPE_CHECKING:
    from .cursor import Cursor, CursorOp
    from .routines import OutRoutine
    from .savepoints import Savepoint

__all__ = ["Connection", "Op", "Steps"]

log = logging.getLogger("ifxwire.client")
plog = logging.getLogger("ifxwire.protocol")

_T = TypeVar("_T")


#: Trace lines show at most this many bytes of hex per direction and exchange.
TRACE_HEX_LIMIT = 2048


#: Replies to the session groups already parsed in this process, by their exact bytes (and
#: the connection's encoding and number of groups). The same server answers every connect
#: with the same bytes, and parsing them is a pure function of those bytes, so a connect that
#: finds them again reuses the parsed replies (they are only read afterwards). Only replies
#: without an error are kept; at most _KNOWN_SESSION_MAX. Used by the sync connect with
#: pipelined_connect (the default); readers iterate over a snapshot, writers add one entry.
_KNOWN_SESSION: dict[tuple[bytes, str, int], list[Reply]] = {}
_KNOWN_SESSION_MAX = 8


#: Message layout and BYTE/TEXT descriptor width until SQ_PROTOCOLS is answered (Layout is
#: immutable: one instance serves every connection).
_BASE_LAYOUT = m.Layout()
_BASE_BLOB_WIDTH = m.blob_descriptor_size(_BASE_LAYOUT)



@lru_cache(maxsize=16)
def _negotiate(server_protocols: bytes) -> tuple[frozenset[int], m.Layout, int]:
    """Capabilities, message layout and BYTE/TEXT descriptor width for a server's
    SQ_PROTOCOLS mask; the same server answers every connect with the same mask."""
    layout = m.Layout.negotiate(server_protocols, CLIENT_PROTOCOLS)
    return capability_set(server_protocols), layout, m.blob_descriptor_size(layout)


def codec_error(exc: CodecError) -> DatabaseError:
    """A row or value the driver could not decode, as a PEP 249 error."""
    if isinstance(exc, CodecDataError):
        return DataError(f"cannot decode a value: {exc}", sqlstate="22000")
    if isinstance(exc, CodecNotSupported):
        return NotSupportedError(f"cannot decode this result: {exc}", sqlstate="0A000")
    return InternalError(f"reply does not match its description: {exc}", sqlstate="XX000")


class Connection(ExceptionAttributes):
    """A session with an Informix server (PEP 249 Connection).

    Create it with :func:`ifxwire.connect`. Not safe to use from several threads at once in
    the PEP 249 sense (``threadsafety = 1``), but accidental sharing cannot corrupt the wire.
    """

    # State that starts the same in every connection lives here, on the class, until a
    # connection changes it: a cold connect then stores only what differs (each attribute set
    # in __init__ costs every connect, and connect-and-close is a benchmarked path).
    _closed = False
    _broken: str | None = None
    _layout = _BASE_LAYOUT
    #: BYTE/TEXT descriptor size: 68 bytes once long row ids (bit 70) are negotiated.
    _blob_width = _BASE_BLOB_WIDTH
    _in_txn = False
    _lob_txn = False  # a transaction begun for a statement's new LOBs (_lob_txn_begin)
    _repeatable_read = False
    _logging_mode: str | None = None
    _database: str | None = None
    _epoch = 0
    _cursor_seq = 0
    _client_file: Any = None  # the client file an SQ_FILE exchange has open (lob.py)
    _file_changed: _e.DataError | None = None  # a client file that shrank (clientfiles)
    #: A BYTE/TEXT reader part way through its value (blobstream.py): read out first.
    _active_stream: Any = None
    #: BYTE/TEXT values come as readers (file-like) instead of bytes/str (cursor default).
    blob_stream = False
    #: The version number of the login reply: the release, or (12.10, 14.10) the internal
    #: protocol version (9.56, 9.59); see server_version.
    server_version_internal = ""
    server_version_string = ""
    _server_release: str | None = None
    server_capabilities: frozenset[int] = frozenset()
    server_protocols = b""
    #: The address the login used (see server_name).
    address: tuple[str, int] | None = None
    _cursor_timeout: float | None = None
    _in_flight = False  # a request is out and its reply not read yet
    _timed_out = 0.0  # the timeout that cancelled the current exchange, if any

    def __init__(self, params: ConnectParams) -> None:
        self._params = params
        self._lock = threading.RLock()
        # SQL text and character values travel in the database locale's code set: DB_LOCALE,
        # which defaults to the client locale (GLS; docs/PROTOCOL.md §2 "Code set").
        self.encoding = codec_for_locale(params.db_locale or params.client_locale)
        self._deferred: list[bytes] = []
        self._cache = StatementCache(params.statement_cache_size)
        self._autocommit = bool(params.autocommit)
        self._open_results: weakref.WeakSet[Cursor] = weakref.WeakSet()
        #: Fast-path routine handles: (database, signature) -> (routine database, handle).
        self._routines: dict[tuple[str | None, str], tuple[bytes, int]] = {}
        #: Routines called with OUT parameters: (database, name, nargs) -> their description.
        self._out_routines: dict[tuple[str | None, str, int], OutRoutine] = {}
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
        self.row_factory: BaseRowFactory = tuple_row
        self._transport = self._open(params)

    # ------------------------------------------------------------------ login

    def _open(self, params: ConnectParams) -> Transport:
        """Connect and log in to the first address that answers (docs/DRIVER.md §16): each
        gets its own connect_timeout and is logged in to with its own server name; the next
        is tried when one cannot be reached or drops the login, never after a refusal."""
        settle()  # the goodbyes of closed connections first: their sessions are gone
        attempts = Attempts(params)
        for addr, member in attempts:
            try:
                t = open_transport(
                    addr.host,
                    addr.port,
                    connect_timeout=params.connect_timeout,
                    read_timeout=params.read_timeout,
                    keepalive=params.keepalive,
                    tls=params.tls or addr.tls,
                    server_hostname=params.tls_server_hostname,
                )
            except OperationalError as exc:
                if not attempts.failed(addr, member, exc):
                    raise
                continue
            try:
                self._login(t, member)
            except BaseException as exc:
                t.close()
                if not attempts.failed(addr, member, exc):
                    raise
                continue
            self.server_name, self.address = member.server, (addr.host, addr.port)
            return t
        raise attempts.error()

    def _login(self, t: Transport, params: ConnectParams) -> None:
        self._transport = t
        self._drive(self._login_steps(params), fail=False)

    def _login_steps(self, params: ConnectParams) -> Generator[Any, Any, None]:
        """The login without I/O (steps as ``_read_steps``), for both drivers: the login
        request, its response, the session groups (pipelined or not, PAM first when asked
        for) and their replies. Sends go through the transport (the asyncio one queues
        them). Wire failures do not mark the connection broken: the caller gives the
        address up and may try the next one."""
        t = self._transport
        started = time.perf_counter()
        packet, user = login_request(params, self.encoding)
        tracing = self._tracing()
        if tracing:
            self._trace_line(
                "send login request: %d bytes, user=%r server=%r (password redacted)",
                len(packet),
                user,
                params.server,
            )
        t.send(packet)
        try:
            resp = read_connect_response((yield from t.login_packet_steps()), self.encoding)
        except ProtocolViolation as exc:
            raise _e.protocol_error(f"login response: {exc}") from None
        self._accepted(resp)
        groups = session_groups(params.database, self.encoding)
        replies: list[Reply] | None = None
        if params.pam_callback is not None:
            # PROTOCOLS alone: its reply says whether a PAM conversation comes before the
            # other session groups (docs/DRIVER.md §17).
            self._send(groups[0])
            first = self._session_reply(0, (yield from self._read_steps(self._reply())))
            if first.error is None and CAP_PAM in self.server_capabilities:
                yield from pam_steps(self, params.pam_callback)
            self._send(b"".join(groups[1:]))
            replies = [first]
            for i in range(1, len(groups)):
                replies.append(
                    self._session_reply(i, (yield from self._read_steps(self._reply()))))
        elif params.pipelined_connect:
            self._send(b"".join(groups))
            yield 0
            if not tracing:  # a trace shows every message as it is parsed
                replies = self._known_session_replies(len(groups))
        if replies is None:
            buf, start = t.buf, t.start
            replies = []
            for i, group in enumerate(groups):
                if not params.pipelined_connect:
                    self._send(group)
                replies.append(
                    self._session_reply(i, (yield from self._read_steps(self._reply()))))
            if params.pipelined_connect:
                self._remember_session_replies(buf, start, replies)
        self._session_ready(params, replies, user, started)

    def _known_session_replies(self, count: int) -> list[Reply] | None:
        """The session replies, if the buffer starts with bytes parsed before (see
        _KNOWN_SESSION); None sends the caller down the general path, which reads from the
        same position."""
        t = self._transport
        # A snapshot: another thread's connect may add an entry meanwhile.
        for (raw, encoding, n), replies in tuple(_KNOWN_SESSION.items()):
            size = len(raw)
            if (n == count and encoding == self.encoding and t.end - t.start >= size
                    and t.buf.startswith(raw, t.start)):
                t.start += size
                for i, reply in enumerate(replies):
                    self._session_reply(i, reply)
                return replies
        return None

    def _remember_session_replies(self, buf: bytearray, start: int, replies: list[Reply]) -> None:
        t = self._transport
        size = sum(r.consumed for r in replies)
        # Same buffer and no compaction in between: the replies are buf[start:start + size].
        if t.buf is not buf or t.start - start != size or len(_KNOWN_SESSION) >= _KNOWN_SESSION_MAX:
            return
        if any(r.error is not None or r.exit or r.names is not None for r in replies):
            return
        _KNOWN_SESSION[(bytes(buf[start : start + size]), self.encoding, len(replies))] = replies

    # Login steps shared with the asyncio connection, which only reads differently.

    def _accepted(self, resp: ConnectResponse) -> None:
        check_login(resp)
        self.server_version_string = resp.version
        self.server_version_internal = version_number(resp.version)

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
        if self._server_release is not None:
            return self._server_release
        internal = self.server_version_internal
        if not is_internal_version(internal):
            return internal
        release = self._lookup_release()
        if release is None:
            return internal
        self._server_release = release
        return release

    def _lookup_release(self) -> str | None:
        if self.closed or self.broken or not self.database:
            return None
        with self.cursor(row_factory=tuple_row) as cur:  # whatever the application's rows are
            return cur.run(release_op)

    def _session_reply(self, index: int, reply: Reply) -> Reply:
        """Take one reply to the session groups; the first (SQ_PROTOCOLS) fixes the layout of
        every later message, so it is parsed before the next reply is read."""
        if index == 0:
            if reply.protocols is None:
                raise _e.protocol_error("the server did not answer SQ_PROTOCOLS")
            self.server_protocols = reply.protocols
            self.server_capabilities, self._layout, self._blob_width = _negotiate(
                reply.protocols
            )
            if CAP_PAM in self.server_capabilities and self._params.pam_callback is None:
                raise no_callback()
            if CAP_TWO_GB_FETCH not in self.server_capabilities:
                # Without bit 63 servers take fetch sizes up to 32767 (FET_BUF_SIZE).
                self.fetch_buffer_size = min(self.fetch_buffer_size, 32767)
        return reply

    def _session_ready(
        self, params: ConnectParams, replies: list[Reply], user: str, started: float
    ) -> None:
        for reply in replies:
            if reply.error is not None:
                raise self._server_error(reply.error)
        self._transport.logged_in(params.read_timeout)
        if params.database:
            done = replies[2].done
            self._set_database(params.database, done.warnings if done else None)
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "connected to %s (%s) as %r in %.1f ms",
                params.server,
                self.server_version_string,
                user,
                (time.perf_counter() - started) * 1000,
            )

    # ------------------------------------------------------------------ properties

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def broken(self) -> bool:
        """True once the wire failed; the connection can only be closed."""
        return self._broken is not None

    @property
    def autocommit(self) -> bool:
        return self._autocommit

    @autocommit.setter
    def autocommit(self, value: bool) -> None:
        with self._lock:
            self._run(self._autocommit_op(value))

    def _autocommit_op(self, value: bool) -> Op[None]:
        """Set autocommit (both drivers run this): switching it on inside a transaction
        commits it first, as JDBC's setAutoCommit does."""
        self._check()
        value = bool(value)
        if value and not self._autocommit:
            self._autocommit = True
            yield from self._end_transaction_op(COMMIT_GROUP, "commit")
        self._autocommit = value

    def _autocommit_commits(self, value: bool) -> bool:
        """Whether setting autocommit to ``value`` must commit an open transaction (I/O the
        asyncio driver's plain attribute setter cannot do)."""
        return bool(value) and not self._autocommit and self._in_txn

    @property
    def logging_mode(self) -> str | None:
        """'unlogged', 'logged' or 'ansi' for the open database; None without one."""
        return self._logging_mode

    @property
    def database(self) -> str | None:
        return self._database

    @property
    def in_transaction(self) -> bool:
        """Whether the driver knows of an open transaction (always True in ANSI databases
        once a statement ran)."""
        return self._in_txn

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
        from .cursor import Cursor

        self._check()
        cur: Cursor
        if scrollable or withhold:
            from .scroll import ScrollCursor

            cur = ScrollCursor(self, scrollable=scrollable, withhold=withhold)
        else:
            cur = Cursor(self)
        if row_factory is not None:
            cur.row_factory = row_factory
        return cur

    def call_function(self, routine: str, *args: object) -> list[Any]:
        """Run a server routine by fast path and return every value it returns.

        ``routine`` is a signature (``"function informix.ifx_lo_close(integer)"``, or
        ``"myfunc(integer, varchar)"``) or a bare name whose argument types are taken from the
        Python values. The routine handle is cached per connection and database, so a
        repeated call is one round trip. See docs/DRIVER.md §13.
        """
        return _fastpath.call(self, _fastpath.signature_of(routine, args), args)

    def savepoint(self, name: str | None = None) -> Savepoint:
        """Set a savepoint in the transaction (``SAVEPOINT name``; a name is made up when
        None) and return it: ``with conn.savepoint("x"):`` releases it at the end of the
        block, or rolls back to it when the block raises (docs/DRIVER.md §5)."""
        from .savepoints import Savepoint, check_savepoint

        sp = Savepoint(self, check_savepoint(name, self.autocommit))
        sp._run("set")
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
            self._check()
            self._end_transaction(COMMIT_GROUP, "commit")

    def rollback(self) -> None:
        """Roll back the open transaction; no-op under the same conditions as commit()."""
        with self._lock:
            self._check()
            self._end_transaction(ROLLBACK_GROUP, "rollback")

    def cancel(self) -> None:
        """Interrupt the statement running on this connection; callable from any thread.

        Sends Informix's out-of-band cancel (docs/PROTOCOL.md, "Cancel"): the waiting call
        then fails with -213 (``OperationalError``), the server has rolled the statement
        back and released its locks, and the connection stays usable. Does nothing when no
        request is waiting for its reply (the statement already finished).
        """
        if self._in_flight and not self._closed and self._broken is None:
            send_interrupt(self._transport.sock)

    def _statement_timed_out(self, timeout: float, resends: list[int]) -> float | None:
        """StatementTimer callback: cancel, and cancel again while the reply is missing."""
        if not self._in_flight or resends[0] >= RESEND_LIMIT:
            return None
        self._timed_out = timeout
        resends[0] += 1
        self.cancel()
        return RESEND_INTERVAL

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
    # applications (they need none of it); stable inside the package.

    @property
    def params(self) -> ConnectParams:
        """The resolved connect parameters of this session."""
        return self._params

    @property
    def epoch(self) -> int:
        """Counts database changes: statements and BYTE/TEXT descriptors of an older epoch
        belong to a database no longer open."""
        return self._epoch

    @property
    def cursor_timeout(self) -> float | None:
        """The statement timeout of the cursor whose request runs now (None: the
        connection's ``statement_timeout`` applies)."""
        return self._cursor_timeout

    @property
    def active_stream(self) -> Any:
        """The BYTE/TEXT reader part way through its value (the next request drains it)."""
        return self._active_stream

    @active_stream.setter
    def active_stream(self, reader: Any) -> None:
        self._active_stream = reader

    @property
    def lob_txn(self) -> bool:
        """Whether a statement storing large objects began the open transaction itself."""
        return self._lob_txn

    def ensure_usable(self) -> None:
        """Raise InterfaceError when the connection is closed or broken."""
        self._check()

    def break_session(self, exc: Exception) -> None:
        """Mark the connection broken (its reply stream can no longer be matched to
        requests) and close the transport."""
        self._fail(exc)

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

    def note_timeout(self, seconds: float) -> None:
        """The running request is being cancelled for taking longer than ``seconds``: its
        -213 says so."""
        self._timed_out = seconds

    def note_release(self, release: str | None) -> None:
        """The server's release, asked for at connect (``server_version``)."""
        self._server_release = release

    def set_autocommit_now(self, value: bool) -> None:
        """Set autocommit where that needs no I/O; a switch that must commit an open
        transaction raises (the asyncio driver's plain attribute)."""
        self._check()
        if self._autocommit_commits(value):
            raise ProgrammingError(
                "switching autocommit on commits the open transaction; "
                "use 'await conn.set_autocommit(True)'"
            )
        self._autocommit = bool(value)

    def begin_exchange(self, groups: Sequence[bytes]) -> list[tuple[bytes, Reply]]:
        """Queue the deferred groups and ``groups`` as one send; the deferred groups with
        the replies to read for them first (an exchange's first half)."""
        self._check()
        deferred, self._deferred = self._deferred, []
        self._send(b"".join([*deferred, *groups]))
        return [(group, self._reply()) for group in deferred]

    def end_exchange(self, deferred: Sequence[tuple[bytes, Reply]]) -> None:
        """After the deferred groups' replies were read: log those that failed (a CLOSE of
        a statement already gone is harmless)."""
        for group, r in deferred:
            if r.error is not None:
                log.debug("deferred %s failed (ignored): %s", self._names(group),
                          self._server_error(r.error))

    def prefix_steps(self, groups: Sequence[bytes]) -> Steps[None]:
        """Send the deferred groups and ``groups``, read only the deferred replies, without
        I/O (the caller reads the rest as it arrives: a BYTE/TEXT reader's start). A
        reader part way through its value is read out first; an interruption once the
        request is sent breaks the session (its replies can no longer be matched)."""
        self._check()
        if self._active_stream is not None:
            yield from self._active_stream.drain_steps()
        deferred = self.begin_exchange(groups)
        try:
            for _, r in deferred:
                yield from self._read_steps(r)
        except BaseException as exc:
            if self._broken is None:
                self._fail(_e.connection_lost(
                    f"an exchange was interrupted ({type(exc).__name__})"))
            raise
        self.end_exchange(deferred)

    def new_reply(self) -> Reply:
        """A reply to fill, in this session's layout and encoding."""
        return self._reply()

    def ping_op(self) -> Op[bool]:
        """One SQ_VERSION round trip (no SQL, no statement, no transaction: the pools' health
        check); True when the server answered without an error."""
        self._check()
        reply = self._reply()
        yield [(PING_GROUP, reply)]
        return reply.error is None

    @contextlib.contextmanager
    def reads_within(self, timeout: float | None) -> Iterator[None]:
        """Receives wait at most ``timeout`` seconds (never longer than ``read_timeout``)
        inside the block (the sync pool's ping; None: unchanged)."""
        if timeout is None:
            yield
            return
        read_timeout = self._params.read_timeout
        self._transport.settimeout(max(min(timeout, read_timeout or timeout), 0.001))
        try:
            yield
        finally:
            if not self._broken:
                self._transport.settimeout(read_timeout)

    def read_steps(self, reply: Reply) -> Steps[Reply]:
        """``_read_steps``: one reply to its SQ_EOT, without I/O."""
        return self._read_steps(reply)

    def login_steps(self) -> Steps[None]:
        """The login (pipelined session groups, PAM), without I/O."""
        return self._login_steps(self._params)

    def prepare_op(self, sql: str, plan: SqlPlan, cache: bool) -> Op[Prepared]:
        return self._prepare_op(sql, plan, cache)

    def statement_op(self, sql: str, plan: SqlPlan) -> Op[tuple[Prepared, bool]]:
        return self._statement_op(sql, plan)

    def end_transaction_op(self, group: bytes, what: str) -> Op[None]:
        return self._end_transaction_op(group, what)

    def leave_op(self, failed: bool) -> Op[None]:
        """Leaving the connection's ``with`` block (both drivers, holding the lock): commit
        after a normal end; after an exception roll back, a failing rollback only logged
        (the block's own exception matters more); nothing once closed or broken."""
        if self._closed or self._broken is not None:
            return
        if not failed:
            yield from self._end_transaction_op(COMMIT_GROUP, "commit")
            return
        try:
            yield from self._end_transaction_op(ROLLBACK_GROUP, "rollback")
        except Error:
            log.debug("rollback on context exit failed", exc_info=True)

    def autocommit_op(self, value: bool) -> Op[None]:
        return self._autocommit_op(value)

    def lob_txn_begin_op(self) -> Op[None]:
        return self._lob_txn_begin_op()

    def lob_txn_end_op(self, commit: bool) -> Op[None]:
        return self._lob_txn_end_op(commit)

    def abandon_lob_txn(self) -> None:
        """A statement was cancelled inside the transaction a LOB statement began: nothing
        may be awaited, and going on in autocommit mode inside it would commit nothing, so
        the connection is given up (the server rolls the transaction back)."""
        if self._lob_txn and self._broken is None:
            self._fail(_e.connection_lost(
                "a statement storing large objects was cancelled inside its transaction"))
        self._lob_txn = False

    # ------------------------------------------------------------------ wire primitives

    def _check(self) -> None:
        if self._closed:
            raise _e.closed_error("connection")
        if self._broken is not None:
            raise InterfaceError(f"the connection is broken ({self._broken}); close it")

    def _fail(self, exc: Exception) -> None:
        """Mark the connection broken after a wire failure; closes the socket."""
        self._broken = str(exc) or type(exc).__name__
        self._transport.close()
        self._cache.drain()
        self._deferred.clear()

    def _tracing(self) -> bool:
        return self._trace or plog.isEnabledFor(logging.DEBUG)

    def _trace_line(self, fmt: str, *args: object) -> None:
        level = logging.DEBUG if plog.isEnabledFor(logging.DEBUG) else logging.INFO
        plog.log(level, fmt, *args)

    def _send(self, data: bytes | bytearray) -> None:
        if self._tracing():
            self._trace_line("send %d bytes: %s | %s", len(data), self._names(data), _hex(data))
        try:
            self._transport.send(data)
        except OperationalError as exc:
            self._fail(exc)
            raise

    def _send_stream(self, messages: Iterator[bytes]) -> None:
        """Send messages made as they are sent (a client file's data, clientfiles.py); the
        asyncio connection sends them between awaits instead."""
        for message in messages:
            self._send(message)

    def _send_parts(self, parts: Sequence[Any]) -> None:
        """Send buffers in order without joining them (large framed data, protocol/gather.py)."""
        if self._tracing():
            self._send(b"".join(parts))
            return
        try:
            self._transport.send_parts(parts)
        except OperationalError as exc:
            self._fail(exc)
            raise

    def _names(self, data: bytes | bytearray) -> str:
        names: list[str] = []
        r = Reader(data)
        try:
            while r.remaining:
                msg = m.read_client_message(r, self._layout)
                names.append(_msg_name(msg.code))
        except Exception:
            names.append("?")
        return " ".join(names)

    def _read(self, reply: Reply) -> Reply:
        """Read one reply to its SQ_EOT from the socket (``_read_steps`` driven by a blocking
        loop: the asyncio connection drives the same steps from its stream). Wire failures
        break the connection."""
        t = self._transport
        try:
            if reply.names is None and not reply.lodata_body:
                # The common case without a generator (a reply that one receive brings
                # whole); what it leaves undone, the steps go on with.
                if t.end - t.start < reply.need:
                    t.fill(reply.need)
                if t.end - t.start >= reply.need:
                    try:
                        t.start = _feed(reply, t.buf, t.start, t.end)
                    except (UnknownMessage, ProtocolViolation) as exc:
                        raise self._parse_failed(exc) from None
                    if reply.complete and not reply.exit:
                        return reply
                    if reply.file_request is not None:
                        answer_file_request(self, reply)
            steps = self._read_steps(reply)
            step = next(steps)
            while True:
                if step.__class__ is int:
                    t.fill(step)
                    step = steps.send(0)
                else:
                    step = steps.send(t.recv_direct(step))  # type: ignore[arg-type]
        except StopIteration:
            return reply
        except OperationalError as exc:
            if self._broken is None:
                self._fail(exc)
            raise
        except Exception:
            raise
        except BaseException:
            # Interrupted half way through a reply (KeyboardInterrupt, ...): the rest of it
            # would be taken for the next request's reply, so the connection cannot go on.
            self._fail(_e.connection_lost("a reply was interrupted while being read"))
            raise

    def _parse_failed(self, exc: Exception) -> _e.Error:
        """A reply the parser refused: the connection is broken; the error to raise."""
        err: _e.Error
        if isinstance(exc, UnknownMessage):
            err = InterfaceError(
                f"protocol error: {exc}; the connection cannot continue and is now closed"
            )
        else:
            err = _e.protocol_error(str(exc))
        self._fail(err)
        return err

    def _read_steps(self, reply: Reply) -> Generator[int | memoryview, int, Reply]:
        """Parse one reply to its SQ_EOT from the receive buffer, without I/O.

        Yields what it lacks: an ``int``, "the buffer must hold this many unparsed bytes"
        (``Transport.fill``; the loop sends back 0), or a ``memoryview``, "receive SQ_LODATA
        data straight into this" (the loop sends back how many bytes arrived). The blocking
        loop is ``_read``, the awaiting one ``AsyncConnection._drive``. Resumable: a loop
        that gives up (an asyncio cancellation) can start new steps on the same ``Reply``,
        which continue where it stopped. Protocol errors break the connection here.
        """
        t = self._transport
        tracing = reply.names is not None
        chunks: list[bytes] = []
        try:
            while True:
                if t.end - t.start >= reply.need:
                    before = t.start
                    t.start = _feed(reply, t.buf, t.start, t.end)
                    if tracing and sum(map(len, chunks)) < TRACE_HEX_LIMIT:
                        chunks.append(bytes(t.view[before : t.start]))
                    if reply.complete:
                        break
                    if reply.file_request is not None:
                        # LOTOFILE/FILETOBLOB with 'client': answer (a write: a batch of its
                        # data), then read on (client/clientfiles.py).
                        answer_file_request(self, reply)
                        continue
                if reply.lodata_body >= _DIRECT and t.start == t.end:
                    # SQ_LODATA data straight into the reader's buffer: one copy, not two.
                    target = reply.direct_target()
                    if target is not None:
                        reply.direct_received((yield target))
                        continue
                yield reply.need
        except (UnknownMessage, ProtocolViolation) as exc:
            raise self._parse_failed(exc) from None
        if tracing:
            self._trace_line(
                "recv %d bytes: %s | %s",
                reply.consumed,
                " ".join(reply.names or ()),
                b"".join(chunks)[:TRACE_HEX_LIMIT].hex(),
            )
        if reply.exit:
            err3 = _e.connection_lost("the server ended the session (SQ_EXIT)")
            self._fail(err3)
            raise err3
        return reply

    def _run(self, op: Op[_T], hooks: object = None) -> _T:
        """Run an operation (``Op``): exchange each list of groups it yields, blocking, and
        return its result; a cursor operation's hook (a tuple, ``(name, *args)``) is
        ``hooks``' method of that name (the cursor's), a Steps generator is driven.
        ``AsyncConnection._run`` is the awaiting twin of this loop. A failed exchange is
        thrown into the operation, so its own clean-up runs."""
        try:
            groups = next(op)
            while True:
                try:
                    if groups.__class__ is list:
                        self._exchange(groups)
                        got = None
                    elif groups.__class__ is tuple:
                        got = getattr(hooks, groups[0])(*groups[1:])
                    else:
                        got = self._drive(groups)
                except BaseException as exc:
                    groups = op.throw(exc)
                else:
                    groups = op.send(got)
        except StopIteration as stop:
            result: _T = stop.value
            return result

    def _exchange(self, groups: Sequence[tuple[bytes, Reply]]) -> None:
        """Send the deferred groups and ``groups`` in one send; read every reply in order.

        The caller holds the lock and inspects each Reply for errors afterwards.
        """
        deferred = self._send_groups([g for g, _ in groups])
        timeout = self._cursor_timeout or self.statement_timeout
        self._timed_out = 0.0
        self._in_flight = True
        timer = None
        if timeout is not None:
            timer = TIMER.arm(timeout, lambda: self._statement_timed_out(timeout, [0]))
        try:
            self._read_deferred(deferred)
            for _, reply in groups:
                self._read(reply)
        finally:
            self._in_flight = False
            if timer is not None:
                timer.cancel()

    def _send_groups(self, groups: Sequence[bytes]) -> list[bytes]:
        """Send the deferred groups, then ``groups``, in one send; returns the deferred groups,
        whose replies come first. A BYTE/TEXT reader part way through its value is read out
        before anything is sent."""
        self._check()
        if self._active_stream is not None:
            self._active_stream._drain()
        # Swap unconditionally: a cursor finalizer may append from another thread at any time.
        deferred, self._deferred = self._deferred, []
        self._send(b"".join([*deferred, *groups]))
        return deferred

    def _drive(self, steps: Generator[Any, Any, _T], fail: bool = True) -> _T:
        """Run I/O-free steps (``_read_steps`` and the readers built on it) to their result
        with blocking receives; the asyncio connection's ``_drive`` awaits the same steps.
        A wire failure breaks the connection (unless ``fail`` is False: the login)."""
        t = self._transport
        try:
            step = next(steps)
            while True:
                try:
                    if step.__class__ is int:
                        t.fill(step)
                        got = 0
                    elif step.__class__ is memoryview:
                        got = t.recv_direct(step)
                    elif step is FLUSH:
                        got = None
                    else:
                        raise InterfaceError(
                            "an application callback returned an awaitable on a sync connection")
                except BaseException as exc:
                    # Into the steps, so that their clean-up runs (executemany reads what
                    # it still can); a wire failure has broken the connection first.
                    if fail and isinstance(exc, OperationalError) and self._broken is None:
                        self._fail(exc)
                    step = steps.throw(exc)
                else:
                    step = steps.send(got)
        except StopIteration as stop:
            result: _T = stop.value
            return result
        except OperationalError as exc:
            if fail and self._broken is None:
                self._fail(exc)
            raise

    def _read_deferred(self, deferred: list[bytes]) -> None:
        for group in deferred:
            r = self._read(Reply(self._layout, self.encoding, trace=self._tracing()))
            if r.error is not None:
                log.debug(
                    "deferred %s failed (ignored): %s",
                    self._names(group),
                    self._server_error(r.error),
                )

    def _reply(self, decoder: Any = None, p: Prepared | None = None, blob_limit: int = 0) -> Reply:
        """A reply to fill; with ``p``, a result's, bounded by the statement's limits."""
        if p is None:
            return Reply(self._layout, self.encoding, decoder, self._tracing(), 0, 0, blob_limit)
        return Reply(
            self._layout, self.encoding, decoder, self._tracing(), p.tuple_limit, p.tuple_budget
        )

    def _server_error(self, err: m.ServerError) -> _e.DatabaseError:
        text = err.text.decode(self.encoding, errors="replace").rstrip("\x00").strip()
        changed, self._file_changed = self._file_changed, None
        if changed is not None and err.sqlcode == -9815:
            # The server refused a client file that shrank while it was sent (clientfiles.py).
            changed.__cause__ = _e.error_from_server(err.sqlcode, err.isamcode, err.offset, text)
            return changed
        if err.sqlcode == -213 and self._timed_out:
            text = text or f"statement_timeout={self._timed_out:g} s reached"
        if err.sqlcode == -937:
            # User/UDR errors carry a whole message rather than a "near" parameter.
            return _e.error_from_server(err.sqlcode, err.isamcode, err.offset, "", text)
        return _e.error_from_server(err.sqlcode, err.isamcode, err.offset, text)

    def _defer(self, group: bytes) -> None:
        self._deferred.append(group)

    # ------------------------------------------------------------------ statements

    def _encode_sql(self, sql: str) -> bytes:
        try:
            data = sql.encode(self.encoding)
        except UnicodeEncodeError as exc:
            raise ProgrammingError(
                f"the SQL text has a character the connection code set ({self.encoding}) "
                f"cannot represent at position {exc.start}: {sql[exc.start : exc.end]!r}",
                sqlstate="42000",
            ) from None
        nul = sql.find("\x00")
        if nul >= 0:
            # Never meaningful SQL: outside a literal it is no token, inside one it makes a
            # character value Informix cannot hold (docs/DRIVER.md "NUL characters").
            raise ProgrammingError(
                f"the SQL text holds a NUL (U+0000) character at position {nul}", sqlstate="42000"
            )
        if len(data) > 0xFFFF and not self._layout.long_sql:
            raise ProgrammingError(
                f"the SQL text is {len(data)} bytes; this server accepts at most 65535",
                sqlstate="54000",
            )
        return data

    def _next_cursor_name(self) -> bytes:
        self._cursor_seq += 1
        n = self._cursor_seq
        digits = []
        for _ in range(13):
            n, d = divmod(n, 36)
            digits.append("0123456789abcdefghijklmnopqrstuvwxyz"[d])
        return ("_ifxc" + "".join(reversed(digits))).encode("ascii")

    def _prepare(self, sql: str, plan: SqlPlan, cache: bool) -> Prepared:
        return self._run(self._prepare_op(sql, plan, cache))

    def _prepare_op(self, sql: str, plan: SqlPlan, cache: bool) -> Op[Prepared]:
        """PREPARE NDESCRIBE WANTDONE EOT: one round trip, plus any deferred groups."""
        group = self._prepare_group(plan)
        yield [group]
        return self._prepared(sql, plan, cache, group[1])

    def _prepare_group(self, plan: SqlPlan) -> tuple[bytes, Reply]:
        """The PREPARE request and the reply to fill (shared with the asyncio connection)."""
        w = Writer()
        m.put_prepare(w, self._encode_sql(plan.sql), plan.nparams, self._layout)
        m.put_eot(w)
        return bytes(w.buf), self._reply()

    def _prepared(self, sql: str, plan: SqlPlan, cache: bool, reply: Reply) -> Prepared:
        """The statement described by a filled PREPARE reply, entered in the cache."""
        if reply.error is not None:
            raise self._server_error(reply.error)
        d = reply.describe
        if d is None:
            raise _e.protocol_error("PREPARE was answered without SQ_DESCRIBE")
        rows = returns_rows(d.stmt_type, len(d.columns))
        p = Prepared(
            sql=sql,
            plan=plan,
            stmt_id=d.stmt_id,
            stmt_type=d.stmt_type,
            columns=widen_blob_columns(d.columns, self._blob_width) if rows else [],
            epoch=self._epoch,
            cursor_name=self._next_cursor_name(),
        )
        if not rows and d.columns:
            # An INSERT describes the column each ``?`` goes into (docs/PROTOCOL.md §5): the
            # parameters are known without an SQ_CIDESCRIBE round trip (client/lob.py).
            params_described(p, d.columns)
        if p.columns:
            p.description = describe_columns(p.columns)
            p.blobs = blob_columns(p.columns)
            p.lobs = lob_columns(p.columns)
            fetch_buffer = self.fetch_buffer_size
            if any(is_complex_column(c) for c in p.columns):
                p.ret_type = m.ret_type_message(p.columns, self.encoding)
                # Every ROW/collection value carries its ~1 KB type table, so such rows are
                # large: ask for 16 times the buffer (when the server takes sizes over 32 KiB)
                # rather than pay a round trip per few dozen rows.
                if fetch_buffer > 32767:
                    fetch_buffer *= 16
            try:
                p.decoder = build_row_decoder(
                    p.columns, self.encoding, keep_char_padding=self.keep_char_padding
                )
            except CodecError as exc:
                self._defer(id_group(p.stmt_id, Msg.RELEASE))
                raise codec_error(exc) from None
            set_result_limits(p, fetch_buffer, d.tuple_size)
        if cache and p.stmt_type not in DDL_TYPES and p.stmt_type not in DATABASE_TYPES:
            for old in self._cache.add(p):
                self._release(old)
        else:
            p.doomed = True
        return p

    def _statement(self, sql: str, plan: SqlPlan) -> tuple[Prepared, bool]:
        return self._run(self._statement_op(sql, plan))

    def _statement_op(self, sql: str, plan: SqlPlan) -> Op[tuple[Prepared, bool]]:
        """A statement ready to run for ``sql``; True when it came from the cache."""
        p = self._cache.get(sql) if self._cache.size else None
        if p is not None and not p.busy and p.epoch == self._epoch:
            return p, True
        return (yield from self._prepare_op(sql, plan, cache=p is None)), False

    def _cached_statement(self, sql: str) -> Prepared | None:
        """The cached statement for ``sql`` if it can run now (``_statement_op`` without a
        generator, for the execute path)."""
        p = self._cache.get(sql) if self._cache.size else None
        if p is not None and not p.busy and p.epoch == self._epoch:
            return p
        return None

    def _release(self, p: Prepared) -> None:
        """Free a statement on the server: now if idle (deferred), else once its cursor ends."""
        if p.epoch != self._epoch:
            return  # the server already forgot it (database changed)
        if p.busy:
            p.doomed = True
            return
        if p.stmt_id >= 0:
            self._defer(id_group(p.stmt_id, Msg.RELEASE))
            p.stmt_id = -1

    def _retire(self, p: Prepared) -> None:
        """A statement finished a use; release it if nobody keeps it."""
        p.busy = False
        if p.doomed or not p.cached:
            self._release(p)

    def _invalidate(self, p: Prepared) -> None:
        """Drop a cached statement whose shape went stale (-710) and release it."""
        self._cache.discard(p)
        self._release(p)

    def _transaction_needed(self) -> bool:
        """Would a transaction-worthy statement need an implicit BEGIN WORK now?

        Only in logged, non-ANSI databases with autocommit off and no transaction open:
        unlogged databases have no transactions, ANSI ones begin implicitly.
        """
        return not (self._autocommit or self._in_txn or self._logging_mode != "logged")

    def _needs_begin(self, p: Prepared) -> bool:
        """Does this statement need an implicit BEGIN WORK first?"""
        if not self._transaction_needed():
            return False
        if p.stmt_type in NO_TRANSACTION_TYPES:
            return False
        if p.stmt_type == StmtType.SELECT and p.columns:
            return p.plan.for_update or self._repeatable_read
        return True

    def _begin_reply(self, p: Prepared, groups: list[tuple[bytes, Reply]]) -> Reply | None:
        if not self._needs_begin(p):
            return None
        reply = self._reply()
        groups.append((BEGIN_GROUP, reply))
        return reply

    def _after_begin(self, reply: Reply | None) -> None:
        if reply is None:
            return
        if reply.error is not None:
            raise self._server_error(reply.error)
        self._in_txn = True

    def _after_statement(self, p: Prepared, done: m.Done | None) -> None:
        """Transaction, isolation, database and cache bookkeeping after a successful run."""
        st = p.stmt_type
        if self._logging_mode == "ansi" and st not in DATABASE_TYPES:
            self._in_txn = st not in (StmtType.COMMIT_WORK, StmtType.ROLLBACK_WORK)
        if st == StmtType.BEGIN_WORK:
            self._in_txn = True
        elif st in (StmtType.COMMIT_WORK, StmtType.ROLLBACK_WORK):
            self._in_txn = False
            self._transaction_ended(
                "COMMIT WORK" if st == StmtType.COMMIT_WORK else "ROLLBACK WORK"
            )
        if p.plan.sets_repeatable_read is not None:
            self._repeatable_read = p.plan.sets_repeatable_read
        if st in DATABASE_TYPES:
            self._database_changed(p, done)
        elif st in DDL_TYPES:
            for old in self._cache.drain():
                self._release(old)

    def _database_changed(self, p: Prepared, done: m.Done | None) -> None:
        # The server forgets statement ids when the database changes: no RELEASE for them.
        self._cache.drain()
        self._epoch += 1
        self._in_txn = False
        self._transaction_ended("a database change", send_close=False)
        st = p.stmt_type
        if st == StmtType.CLOSE_DATABASE:
            self._set_database(None, None)
        elif st == StmtType.DROP_DATABASE:
            pass
        else:
            flags = done.warnings if done is not None else 0
            if st == StmtType.CREATE_DATABASE and not flags & (DBFLAG_LOGGED | DBFLAG_ANSI):
                flags = flags_from_create(p.plan.sql)
            self._set_database(database_name(p.plan.sql), flags)
        # Whether a server keeps this statement's own id is not known (ours does), so release
        # it explicitly; the RELEASE goes out before any new PREPARE could reuse the id.
        if p.stmt_id >= 0:
            self._defer(id_group(p.stmt_id, Msg.RELEASE))
            p.stmt_id = -1

    def _set_database(self, name: str | None, flags: int | None) -> None:
        self._database = name
        self._routines.clear()
        self._out_routines.clear()
        self._repeatable_read = False
        if name is None or flags is None:
            self._logging_mode = None if name is None else "unlogged"
            return
        if flags & DBFLAG_ANSI:
            self._logging_mode = "ansi"
        elif flags & DBFLAG_LOGGED:
            self._logging_mode = "logged"
        else:
            self._logging_mode = "unlogged"

    def _end_transaction(self, group: bytes, what: str) -> None:
        self._run(self._end_transaction_op(group, what))

    def _end_transaction_op(self, group: bytes, what: str) -> Op[None]:
        """COMMIT or ROLLBACK (``group``), when a transaction may be open."""
        mode = self._logging_mode
        if mode is None or mode == "unlogged":
            return
        if mode == "logged" and not self._in_txn:
            return
        reply = self._reply()
        started = time.perf_counter()
        yield [(group, reply)]
        self._in_txn = False
        self._transaction_ended(what)
        log.debug("%s (%.3f ms)", what, (time.perf_counter() - started) * 1000)
        if reply.error is not None:
            raise self._server_error(reply.error)

    def _transaction_ended(self, what: str, send_close: bool = True) -> None:
        """Informix closes every non-hold cursor when a transaction ends."""
        for cur in list(self._open_results):
            cur._result_lost(what, send_close)

    def _ansi_autocommit(self) -> bool:
        return self._autocommit and self._logging_mode == "ansi"

    def _lob_txn_begin(self) -> None:
        """A statement's values go into new smart LOBs (client/lob.py): in autocommit mode on
        a logged database, the objects and the statement become one transaction (``BEGIN
        EOT`` now, ``CMMTWORK EOT`` or ``RBWORK EOT`` after it: ``_lob_txn_end``), as with
        autocommit off. Atomic: a statement that fails leaves no object behind. And one
        commit instead of one per 1 MiB SQ_LODATA write: a server commits each write made
        outside a transaction. Not while a cursor is open: the COMMIT would close it."""
        self._run(self._lob_txn_begin_op())

    def _lob_txn_begin_op(self) -> Op[None]:
        if not (self._autocommit and self._logging_mode == "logged" and not self._in_txn
                and not self._lob_txn and not len(self._open_results)):
            return
        reply = self._reply()
        yield [(BEGIN_GROUP, reply)]
        if reply.error is not None:
            raise self._server_error(reply.error)
        self._in_txn = True
        self._lob_txn = True

    def _lob_txn_end(self, commit: bool) -> None:
        self._run(self._lob_txn_end_op(commit))

    def _lob_txn_end_op(self, commit: bool) -> Op[None]:
        """End the transaction ``_lob_txn_begin`` started, if it did."""
        if not self._lob_txn:
            return
        self._lob_txn = False
        if commit:
            yield from self._end_transaction_op(COMMIT_GROUP, "commit")
            return
        try:
            if not self._closed and self._broken is None:
                yield from self._end_transaction_op(ROLLBACK_GROUP, "rollback")
        except Error:
            pass  # the statement's own error is the one to report
        finally:
            self._in_txn = False


#: SQ_LODATA chunk data of at least this many bytes is received straight into its sink.
_DIRECT = 8192


def _feed(reply: Reply, buf: bytearray, start: int, end: int) -> int:
    """``reply.feed``, with anything but a protocol violation from the parsers (a bug, a
    ``MemoryError``) reported as one, so that only PEP 249 errors leave a read."""
    try:
        return reply.feed(buf, start, end)
    except ProtocolViolation:
        raise
    except Exception as exc:
        raise ProtocolViolation(f"{type(exc).__name__} while parsing the reply: {exc}") from exc


def _msg_name(code: int) -> str:
    try:
        return Msg(code).name
    except ValueError:
        return str(code)


def _hex(data: bytes | bytearray) -> str:
    if len(data) <= TRACE_HEX_LIMIT:
        return data.hex()
    return f"{bytes(data[:TRACE_HEX_LIMIT]).hex()}...(+{len(data) - TRACE_HEX_LIMIT} bytes)"


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
