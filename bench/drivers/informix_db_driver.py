"""informix-driver (PyPI, import name ``informix_db``): the rival pure-Python driver."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import Adapter, DriverUnavailable

EXPECTED_VERSION = "2026.9.3"


def _options(host: str, port: int, database: str | None, autocommit: bool) -> dict[str, Any]:
    return {
        "host": host,
        "port": port,
        "user": "informix",
        "password": "in4mix",
        "database": database,
        "server": "informix",
        "autocommit": autocommit,
    }


class InformixDbAdapter(Adapter):
    name = "informix-driver"

    def __init__(self) -> None:
        try:
            import informix_db
        except ImportError as exc:
            raise DriverUnavailable(f"informix-driver is not installed: {exc}") from None
        from importlib.metadata import version

        self._mod = informix_db
        self.version = version("informix-driver")
        if self.version != EXPECTED_VERSION:
            raise DriverUnavailable(
                f"informix-driver {self.version} installed; the bench pins {EXPECTED_VERSION}"
            )

    def connect(self, host: str, port: int, database: str | None, autocommit: bool) -> Any:
        return self._mod.connect(**_options(host, port, database, autocommit))

    def aio_unavailable(self) -> str | None:
        return None

    async def aio_connect(
        self, host: str, port: int, database: str | None, autocommit: bool
    ) -> Any:
        # informix_db.aio runs the sync driver on one thread per connection (asyncio.to_thread
        # style): that is what its asyncio users get.
        from informix_db import aio

        return await aio.connect(**_options(host, port, database, autocommit))

    async def aio_fetch_all(self, conn: Any, sql: str, params: Sequence[object] | None) -> int:
        cur = await conn.cursor()
        await cur.execute(sql, tuple(params) if params else None)
        n = len(await cur.fetchall())
        await cur.close()
        return n

    def pool_unavailable(self) -> str | None:
        return None

    def make_pool(
        self, host: str, port: int, database: str | None, size: int
    ) -> tuple[Any, Callable[[], Any], Callable[[Any], None]]:
        pool = self._mod.create_pool(
            **_options(host, port, database, True), min_size=size, max_size=size
        )
        return pool, pool.acquire, pool.release


__all__ = ["DriverUnavailable", "InformixDbAdapter"]
