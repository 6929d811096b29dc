"""Native asyncio connection: asyncio streams for I/O, the sync driver's logic for the rest.

``AsyncConnection`` is the PEP 249 surface over ``AsyncSession`` (session.py: the awaiting
loops, and what a cancellation does); ``connect`` opens one (the address loop is
``client.failover.connect_calls``, the login ``Connection.login_steps``, both the sync
driver's). How the sync driver is reused without threads: docs/ARCHITECTURE.md, "Sync and
async: one core, two loops".
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from .. import connect as _sync_connect
from ..client import goodbye
from ..client.connection import Connection, release_op
from ..client.dsn import Address, ConnectParams, resolve
from ..client.failover import connect_calls
from ..client.goodbye import CLOSE_TIMEOUT
from ..client.outbox import OutboxTransport, SessionCore
from ..client.scroll import ScrollCursor
from ..client.steps import Forward, await_each, awaiting_method
from ..client.transport import connect_failed, login_timed_out, tls_context, tune
from ..errors import Error, ExceptionAttributes, OperationalError
from ..rows import BaseRowFactory, tuple_row
from ..types.adapters import AdaptersMap
from .cursor import AsyncCursor
from .scroll import AsyncScrollCursor
from .session import READ_SIZE, AsyncSession

if TYPE_CHECKING:
    import ssl

    from .savepoints import AsyncSavepoint

__all__ = ["AsyncConnection", "connect"]

log = logging.getLogger("ifxwire.aio")

_T = TypeVar("_T")
_P = ParamSpec("_P")

class AsyncConnection(AsyncSession, ExceptionAttributes):
    """An asyncio session with an Informix server. Create it with ``await aio.connect(...)``.

    Mirrors :class:`ifxwire.Connection`; methods that talk to the server are coroutines.
    Tasks may share a connection (an ``asyncio.Lock`` serialises exchanges), but a
    transaction is per connection, as with the sync driver.
    """

    # ------------------------------------------------------------------ properties
    # The session's state is the core's: read (and where plain, set) through it.
    #: Seconds a request may run before it is cancelled (-213); None: no limit.
    statement_timeout = Forward[float | None]("statement_timeout", settable=True)
    in_transaction = Forward[bool]("in_transaction")
    database = Forward[str | None]("database")
    logging_mode = Forward[str | None]("logging_mode")
    #: The server name the login used (a group member's own name).
    server_name = Forward[str]("server_name")
    #: The (host, port) connected to.
    address = Forward[tuple[str, int] | None]("address")
    server_version = Forward[str]("server_version")
    server_version_internal = Forward[str]("server_version_internal")
    #: The version text of the login reply and the protocol bit mask the server answered,
    #: as on ``Connection``.
    server_version_string = Forward[str]("server_version_string")
    server_protocols = Forward[bytes]("server_protocols")
    server_capabilities = Forward[frozenset[int]]("server_capabilities")
    #: What new cursors' fetches return, as ``Connection.row_factory``.
    row_factory = Forward[BaseRowFactory]("row_factory", settable=True)
    #: This connection's loaders and dumpers (a snapshot of ``ifxwire.adapters`` taken at
    #: connect), as ``Connection.adapters``: cursors start from it.
    adapters = Forward[AdaptersMap]("adapters")
    #: BLOB/CLOB values up to this many bytes are fetched as bytes/str (0: as
    #: AsyncBlob/AsyncClob objects).
    lob_materialize_limit = Forward[int]("lob_materialize_limit", settable=True, cast=int)
    #: BYTE/TEXT values come as AsyncBlobReader/AsyncTextReader objects when True.
    blob_stream = Forward[bool]("blob_stream", settable=True, cast=bool)

    @property
    def autocommit(self) -> bool:
        return self._core.autocommit

    @autocommit.setter
    def autocommit(self, value: bool) -> None:
        """Allowed when it needs no I/O; switching on inside a transaction commits, which
        needs ``await conn.set_autocommit(True)``."""
        self._core.set_autocommit_now(value)

    async def set_autocommit(self, value: bool) -> None:
        """Set autocommit; switching it on inside a transaction commits it (like JDBC)."""
        await self._do(self._core.autocommit_op(value))

    def __repr__(self) -> str:
        return f"<ifxwire AsyncConnection {self._core.state_text()}>"

    # ------------------------------------------------------------------ PEP 249-like API

    def cursor(
        self,
        scrollable: bool = False,
        withhold: bool = False,
        *,
        row_factory: BaseRowFactory | None = None,
    ) -> AsyncCursor:
        """A new cursor; ``scrollable`` / ``withhold`` / ``row_factory`` as
        ``Connection.cursor``, which makes the sync cursor this one drives."""
        cur = self._core.cursor(scrollable, withhold, row_factory=row_factory)
        if cur.__class__ is not ScrollCursor:
            return AsyncCursor(self, self, cur)
        return AsyncScrollCursor(self, self, cur)

    call_function = awaiting_method(Connection.call_function_op, via="_core")

    def savepoint(self, name: str | None = None) -> AsyncSavepoint:
        """A savepoint in the transaction, set when awaited (``sp = await
        conn.savepoint()``) or entered (``async with conn.savepoint("x"):``, which releases
        it at the end of the block or rolls back to it when the block raises); see
        ``Connection.savepoint``."""
        from .savepoints import AsyncSavepoint

        return AsyncSavepoint(self, name)

    async def execute(self, sql: str, params: object = None) -> AsyncCursor:
        """Shortcut: a new cursor, executed; iterate it with ``async for`` or fetch from it."""
        cur = self.cursor()
        try:
            await cur.execute(sql, params)
        except BaseException:
            await cur.close()
            raise
        return cur

    async def commit(self) -> None:
        """Commit the open transaction (same no-op rules as the sync driver)."""
        async with self._lock:  # (``run`` without its closure: a commit is frequent)
            await self._run(self._core.commit_op(True))

    async def rollback(self) -> None:
        async with self._lock:
            await self._run(self._core.commit_op(False))

    async def close(self) -> None:
        """Say goodbye (SQ_EXIT; its acknowledgement awaited at most CLOSE_TIMEOUT s) and
        close the stream. Idempotent. The goodbye is the sync connection's
        (``begin_close``, ``goodbye_steps``, ``end_close``); only the waits are awaited."""
        core = self._core
        if core.closed:
            return
        try:
            if core.begin_close(not self._lock.locked()):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._drive(core.goodbye_steps()), CLOSE_TIMEOUT)
        finally:
            self._transport.close()
            core.end_close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer.wait_closed(), CLOSE_TIMEOUT)

    async def __aenter__(self) -> AsyncConnection:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Commit on success, roll back on an exception, then close (``Connection.leave_op``,
        as the sync driver)."""
        try:
            await self._do(self._core.leave_op(exc_type is not None))
        finally:
            await self.close()

    @staticmethod
    def _connect_at(addr: Address, member: ConnectParams) -> Awaitable[AsyncConnection]:
        """One address of ``client.failover.connect_calls``: ``_connect_to``."""
        return _connect_to(member, addr)


async def _connect_to(params: ConnectParams, addr: Address) -> AsyncConnection:
    """Connect and log in at one address (``params`` carry its server name): what
    ``connect_calls`` asks for (``AsyncConnection._connect_at``; ifxwire.otel wraps it)."""
    reader, writer, left = await _open_stream(params, addr)
    transport = OutboxTransport(writer.close, writer.get_extra_info("socket"))
    try:
        core = SessionCore(params, transport)
        conn = AsyncConnection(core, reader, writer, transport)
        try:
            # What the TCP connect (and TLS handshake) left of connect_timeout.
            # (the sync connection's login steps, awaited)
            await asyncio.wait_for(conn.drive(core.login_steps()),
                                   None if left is None else max(left, 0.0))
        except asyncio.TimeoutError:
            raise OperationalError(login_timed_out(f"{addr.host}:{addr.port}",
                                                   params.connect_timeout),
                                   sqlstate="08001") from None
    except BaseException:
        transport.close()
        raise
    core.server_name, core.address = params.server, (addr.host, addr.port)
    if core.release_wanted():
        # A 12.10/14.10 server announces its protocol version (9.56/9.59) at login; the
        # release is asked for here, once, since a property cannot await
        # (Connection.server_version).
        with contextlib.suppress(Error):
            async with conn.cursor(row_factory=tuple_row) as cur:
                core.note_release(await cur.run(release_op))
    return conn


async def _open_stream(
    params: ConnectParams, addr: Address
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, float | None]:
    """A stream to ``addr``, with the time left of its ``connect_timeout`` for the login
    (None without a timeout)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    tls = params.tls or addr.tls
    ctx: ssl.SSLContext | None = tls_context(tls) if tls else None
    where = f"{addr.host}:{addr.port}"
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                addr.host,
                addr.port,
                ssl=ctx,
                server_hostname=(params.tls_server_hostname or addr.host) if ctx else None,
                limit=READ_SIZE,
            ),
            params.connect_timeout,
        )
    except (OSError, asyncio.TimeoutError) as exc:
        if isinstance(exc, asyncio.TimeoutError):
            exc = TimeoutError()  # (the same class from Python 3.11 on)
        raise connect_failed(where, exc, params.connect_timeout) from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            tune(sock, params.keepalive)
    timeout = params.connect_timeout
    left = None if timeout is None else timeout - (loop.time() - started)
    return reader, writer, left


def _arguments_of(sync: Callable[_P, object]
                  ) -> Callable[[Callable[..., Awaitable[_T]]], Callable[_P, Awaitable[_T]]]:
    """The asyncio function takes the sync one's arguments: the signature is written once
    (``inspect.signature`` and type checkers read the sync one's)."""

    def same(f: Callable[..., Awaitable[_T]]) -> Callable[_P, Awaitable[_T]]:
        f.__signature__ = inspect.signature(sync).replace(  # type: ignore[attr-defined]
            return_annotation=inspect.signature(f).return_annotation)
        return f

    return same


_CONNECT_ARGUMENTS = inspect.signature(_sync_connect)
_CONNECT_NAMES = frozenset(_CONNECT_ARGUMENTS.parameters)


@_arguments_of(_sync_connect)
async def connect(*args: Any, **kwargs: Any) -> AsyncConnection:
    """Open an asyncio connection; arguments as :func:`ifxwire.connect` (URLs included;
    ``pipelined_connect`` is accepted and has no effect: the session groups always go
    pipelined). ``connect_timeout`` bounds the TCP connect, the TLS handshake and the login
    together (per address tried).
    """
    options = kwargs
    if args or not _CONNECT_NAMES.issuperset(kwargs):  # (bind raises what a wrong call does)
        options = dict(_CONNECT_ARGUMENTS.bind(*args, **kwargs).arguments)
    host = options.pop("host", None)
    row_factory = options.pop("row_factory", None)
    params = resolve(host, options)
    if goodbye.pending():  # as the sync connect: closed sessions first (client/goodbye.py)
        await asyncio.to_thread(goodbye.settle)
    conn: AsyncConnection = await await_each(connect_calls(params), AsyncConnection)
    if row_factory is not None:
        conn.row_factory = row_factory
    return conn
