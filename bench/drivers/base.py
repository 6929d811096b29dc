"""The interface every Python driver adapter implements (plain PEP 249 plus pools)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Row = Sequence[object]


class DriverUnavailable(RuntimeError):
    """The driver (or the requested flavour of it) is not installed or not built."""


class Adapter:
    """PEP 249 calls shared by every driver; subclasses fill in connect() and pools."""

    #: Name used in reports ("ifxwire", "informix-driver", ...).
    name = "?"
    #: Version string shown in the report.
    version = "?"

    def connect(self, host: str, port: int, database: str | None, autocommit: bool) -> Any:
        raise NotImplementedError

    # ---------------------------------------------------------------- bodies' building blocks

    def fetch_rows(self, conn: Any, sql: str, params: Sequence[object] | None) -> list[Any]:
        """execute + fetchall on a fresh cursor; returns the rows."""
        cur = conn.cursor()
        if params:
            cur.execute(sql, tuple(params))
        else:
            cur.execute(sql)
        rows: list[Any] = cur.fetchall()
        cur.close()
        return rows

    def fetch_all(self, conn: Any, sql: str, params: Sequence[object] | None) -> int:
        """execute + fetchall on a fresh cursor; returns the number of rows."""
        return len(self.fetch_rows(conn, sql, params))

    def stream(self, conn: Any, sql: str, progress: list[int] | None = None) -> int:
        """execute + iterate without keeping rows (the streaming-memory body). When stopped
        (KeyboardInterrupt from the worker's RSS guard), ``progress[0]`` is the rows seen."""
        cur = conn.cursor()
        n = 0
        try:
            cur.execute(sql)
            for _ in cur:
                n += 1
        except KeyboardInterrupt:
            if progress is not None:
                progress[0] = n
            raise
        cur.close()
        return n

    def execute(self, conn: Any, sql: str, params: Sequence[object]) -> None:
        cur = conn.cursor()
        cur.execute(sql, tuple(params))
        cur.close()

    def executemany(self, conn: Any, sql: str, rows: Sequence[Row]) -> None:
        cur = conn.cursor()
        cur.executemany(sql, rows)
        cur.close()

    def commit(self, conn: Any) -> None:
        conn.commit()

    def close(self, conn: Any) -> None:
        conn.close()

    # ---------------------------------------------------------------- asyncio (swarm)

    def aio_unavailable(self) -> str | None:
        """Why this driver has no asyncio API, or None when it has one."""
        return "no asyncio API"

    async def aio_connect(
        self, host: str, port: int, database: str | None, autocommit: bool
    ) -> Any:
        raise NotImplementedError

    async def aio_fetch_all(self, conn: Any, sql: str, params: Sequence[object] | None) -> int:
        """await execute + fetchall on a fresh cursor; returns the number of rows."""
        raise NotImplementedError

    async def aio_close(self, conn: Any) -> None:
        await conn.close()

    # ---------------------------------------------------------------- pools

    def pool_unavailable(self) -> str | None:
        """Why this driver has no connection pool, or None when it has one."""
        return "no pool"

    def make_pool(
        self, host: str, port: int, database: str | None, size: int
    ) -> tuple[Any, Callable[[], Any], Callable[[Any], None]]:
        """(pool, acquire, release) for a pool of ``size`` connections."""
        raise NotImplementedError

    def close_pool(self, pool: Any) -> None:
        pool.close()
