"""``AsyncConnection`` (the PEP 249 surface over ``client.awaiting.AsyncSession``, the
asyncio loop) and ``connect``; the address loop, the login and the goodbye are the sync
driver's (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .. import connect as _sync_connect
from ..client import goodbye
from ..client.awaiting import AsyncSession, open_session
from ..client.connection import Connection, release_op
from ..client.dsn import Address, ConnectParams, resolve
from ..client.facade import Forward, same_arguments, same_method_arguments
from ..client.failover import connect_calls
from ..client.scroll import ScrollCursor
from ..client.steps import await_each, awaiting_method
from ..errors import Error, ExceptionAttributes
from ..rows import BaseRowFactory, tuple_row
from ..types.adapters import AdaptersMap
from .cursor import AsyncCursor
from .scroll import AsyncScrollCursor

if TYPE_CHECKING:
    from .savepoints import AsyncSavepoint

__all__ = ["AsyncConnection", "connect", "connect_to"]


class AsyncConnection(AsyncSession, ExceptionAttributes):
    """``await aio.connect(...)``: :class:`ifxwire.Connection` with coroutines for what
    talks to the server. Tasks may share it (a lock serialises exchanges)."""

    # The core's state, read (and where plain, set) through it; as on ``Connection``.
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
    server_version_string = Forward[str]("server_version_string")
    server_protocols = Forward[bytes]("server_protocols")
    server_capabilities = Forward[frozenset[int]]("server_capabilities")
    row_factory = Forward[BaseRowFactory]("row_factory", settable=True)
    adapters = Forward[AdaptersMap]("adapters")
    lob_materialize_limit = Forward[int]("lob_materialize_limit", settable=True, cast=int)
    blob_stream = Forward[bool]("blob_stream", settable=True, cast=bool)

    @property
    def autocommit(self) -> bool:
        return self._core.autocommit

    @autocommit.setter
    def autocommit(self, value: bool) -> None:
        """Only without I/O (else ``await conn.set_autocommit(True)``)."""
        self._core.set_autocommit_now(value)

    async def set_autocommit(self, value: bool) -> None:
        """Set autocommit; switching it on inside a transaction commits it (like JDBC)."""
        await self._do(self._core.autocommit_op(value))

    def __repr__(self) -> str:
        return f"<ifxwire AsyncConnection {self._core.state_text()}>"

    # ------------------------------------------------------------------ PEP 249-like API

    @same_method_arguments(Connection.cursor)
    def cursor(self, *args: Any, **kwargs: Any) -> AsyncCursor:
        """As ``Connection.cursor``, which makes the sync cursor this one drives."""
        cur = self._core.cursor(*args, **kwargs)
        if cur.__class__ is not ScrollCursor:
            return AsyncCursor(self, self, cur)
        return AsyncScrollCursor(self, self, cur)

    call_function = awaiting_method(Connection.call_function_op, via="_core")

    def savepoint(self, name: str | None = None) -> AsyncSavepoint:
        """``Connection.savepoint``, set when awaited or entered (``async with``)."""
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

    async def __aenter__(self) -> AsyncConnection:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        """``Connection.leave_op`` (commit, or roll back on an exception), then close."""
        try:
            await self._do(self._core.leave_op(exc_type is not None))
        finally:
            await self.close()

    @staticmethod
    def _connect_at(addr: Address, member: ConnectParams) -> Awaitable[AsyncConnection]:
        """One address of ``client.failover.connect_calls``: ``connect_to``."""
        return connect_to(member, addr)


async def connect_to(params: ConnectParams, addr: Address) -> AsyncConnection:
    """Connect and log in at one address (``connect_calls``' step; ifxwire.otel wraps it)."""
    conn = await open_session(AsyncConnection, params, addr)
    core = conn.session
    if core.release_wanted():
        # (12.10/14.10: asked once here, since a property cannot await)
        with contextlib.suppress(Error):
            async with conn.cursor(row_factory=tuple_row) as cur:
                core.note_release(await cur.run(release_op))
    return conn


_CONNECT_ARGUMENTS = inspect.signature(_sync_connect)
_CONNECT_NAMES = frozenset(_CONNECT_ARGUMENTS.parameters)


@same_arguments(_sync_connect)
async def connect(*args: Any, **kwargs: Any) -> AsyncConnection:
    """Open an asyncio connection; arguments as :func:`ifxwire.connect` (docs/POOL_AND_ASYNC.md:
    ``connect_timeout`` bounds connect, TLS and login together; ``pipelined_connect`` no-op)."""
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
