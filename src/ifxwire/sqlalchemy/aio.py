"""``informix+ifxwire_async://``: the dialect on ``ifxwire.aio`` for SQLAlchemy's asyncio
extension (``create_async_engine``).

SQLAlchemy runs its sync engine code inside a greenlet and awaits the driver's coroutines
through ``await_only``; this module adapts ``AsyncConnection``/``AsyncCursor`` to the PEP 249
shape that code expects. A plain cursor reads its whole result when executed (so it can be
used after the await that ran it), a server-side one (``stream_results``) fetches on demand.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import pool, util
from sqlalchemy.engine import AdaptedConnection

from .base import InformixExecutionContext
from .ifxwire import SESSION_ENV, InformixDialect_ifxwire, connect_url

_await = getattr(util, "await_", None) or util.await_only


def _in_greenlet() -> bool:
    from sqlalchemy.util import concurrency

    check = getattr(concurrency, "in_greenlet", None)
    return bool(check()) if check is not None else True


class AsyncAdapt_ifxwire_cursor:
    server_side = False

    def __init__(self, adapt_connection: AsyncAdapt_ifxwire_connection) -> None:
        self._adapt_connection = adapt_connection
        self._cursor = adapt_connection._connection.cursor()
        self._rows: collections.deque[Any] = collections.deque()
        self._description: Any = None
        self._soft_closed = False
        self.arraysize = 1

    @property
    def description(self) -> Any:
        return self._description if self._soft_closed else self._cursor.description

    @property
    def rowcount(self) -> int:
        return int(self._cursor.rowcount)

    @property
    def lastrowid(self) -> Any:
        return self._cursor.lastrowid

    def close(self) -> None:
        self._rows.clear()
        if self._soft_closed:
            return
        if _in_greenlet():
            _await(self._cursor.close())
        # else: garbage collection outside an await; the driver defers the server-side
        # CLOSE of an abandoned result to the connection's next request.

    async def _async_soft_close(self) -> None:
        """Called by SQLAlchemy's asyncio result before it hands a buffered result to sync
        code: the rows are already here, so the driver cursor can go."""
        if self.server_side or self._soft_closed:
            return
        self._description = self._cursor.description
        self._soft_closed = True
        await self._cursor.close()

    def execute(self, operation: str, parameters: Any = None) -> None:
        _await(self._execute(operation, parameters))

    async def _execute(self, operation: str, parameters: Any) -> None:
        await self._cursor.execute(operation, parameters)
        self._rows.clear()
        if self._cursor.description is not None and not self.server_side:
            self._rows.extend(await self._cursor.fetchall())

    def executemany(self, operation: str, seq_of_parameters: Any) -> None:
        _await(self._cursor.executemany(operation, seq_of_parameters))

    def setinputsizes(self, *inputsizes: Any) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        while self._rows:
            yield self._rows.popleft()

    def fetchone(self) -> Any:
        return self._rows.popleft() if self._rows else None

    def fetchmany(self, size: int | None = None) -> Sequence[Any]:
        size = self.arraysize if size is None else size
        return [self._rows.popleft() for _ in range(min(size, len(self._rows)))]

    def fetchall(self) -> Sequence[Any]:
        rows = list(self._rows)
        self._rows.clear()
        return rows


class AsyncAdapt_ifxwire_ss_cursor(AsyncAdapt_ifxwire_cursor):
    server_side = True

    def __iter__(self) -> Iterator[Any]:
        while True:
            row = self.fetchone()
            if row is None:
                return
            yield row

    def fetchone(self) -> Any:
        return _await(self._cursor.fetchone())

    def fetchmany(self, size: int | None = None) -> Sequence[Any]:
        return _await(self._cursor.fetchmany(self.arraysize if size is None else size))

    def fetchall(self) -> Sequence[Any]:
        return _await(self._cursor.fetchall())


class AsyncAdapt_ifxwire_connection(AdaptedConnection):
    __slots__ = ("__weakref__", "_connection", "dbapi")

    def __init__(self, dbapi: Any, connection: Any) -> None:
        self.dbapi = dbapi
        self._connection = connection

    @property
    def autocommit(self) -> bool:
        return bool(self._connection.autocommit)

    @autocommit.setter
    def autocommit(self, value: bool) -> None:
        _await(self._connection.set_autocommit(value))

    @property
    def closed(self) -> bool:
        return bool(self._connection.closed)

    @property
    def broken(self) -> bool:
        return bool(self._connection.broken)

    @property
    def logging_mode(self) -> str | None:
        mode = self._connection.logging_mode
        return None if mode is None else str(mode)

    @property
    def server_version(self) -> str:
        return str(self._connection.server_version)

    def cursor(self, server_side: bool = False) -> AsyncAdapt_ifxwire_cursor:
        if server_side:
            return AsyncAdapt_ifxwire_ss_cursor(self)
        return AsyncAdapt_ifxwire_cursor(self)

    def commit(self) -> None:
        _await(self._connection.commit())

    def rollback(self) -> None:
        _await(self._connection.rollback())

    def close(self) -> None:
        _await(self._connection.close())

    def terminate(self) -> None:
        self.close()

    def ping(self) -> bool:
        cursor = self.cursor()
        try:
            cursor.execute("SELECT 1 FROM TABLE(SET{1})")
        finally:
            cursor.close()
        return True


class AsyncAdapt_ifxwire_dbapi:
    """The ``ifxwire`` module's PEP 249 names, with a ``connect`` that awaits ``ifxwire.aio``."""

    def __init__(self) -> None:
        import ifxwire
        import ifxwire.aio

        self._aio = ifxwire.aio
        self.paramstyle = ifxwire.paramstyle
        self.apilevel = ifxwire.apilevel
        self.threadsafety = ifxwire.threadsafety
        for name in ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
                     "OperationalError", "IntegrityError", "InternalError",
                     "ProgrammingError", "NotSupportedError", "STRING", "BINARY", "NUMBER",
                     "DATETIME", "ROWID", "BOOLEAN", "Binary", "Date", "Time", "Timestamp"):
            setattr(self, name, getattr(ifxwire, name))

    def connect(self, *args: Any, **kwargs: Any) -> AsyncAdapt_ifxwire_connection:
        kwargs.pop("pipelined_connect", None)  # the asyncio driver always pipelines
        return AsyncAdapt_ifxwire_connection(self, _await(self._aio.connect(*args, **kwargs)))


class InformixExecutionContext_ifxwire_async(InformixExecutionContext):
    def create_server_side_cursor(self) -> Any:
        # fetches on demand, where a plain adapted cursor reads its whole result
        return self._dbapi_connection.cursor(server_side=True)


class InformixDialect_ifxwire_async(InformixDialect_ifxwire):
    driver = "ifxwire_async"
    is_async = True
    supports_statement_cache = True
    execution_ctx_cls = InformixExecutionContext_ifxwire_async

    @classmethod
    def import_dbapi(cls) -> Any:
        return AsyncAdapt_ifxwire_dbapi()

    @classmethod
    def get_pool_class(cls, url: Any) -> type[pool.Pool]:
        return pool.AsyncAdaptedQueuePool

    def create_connect_args(self, url: Any) -> Any:
        return [connect_url(url)], {"env": dict(SESSION_ENV)}

    def do_ping(self, dbapi_connection: Any) -> bool:
        return bool(dbapi_connection.ping())

    def get_driver_connection(self, connection: Any) -> Any:
        return connection._connection


dialect = InformixDialect_ifxwire_async
