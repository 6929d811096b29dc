"""informix-driver (PyPI, import name ``informix_db``): the rival pure-Python driver."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Adapter, DriverUnavailable

EXPECTED_VERSION = "2026.9.3"


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
        return self._mod.connect(
            host=host,
            port=port,
            user="informix",
            password="in4mix",
            database=database,
            server="informix",
            autocommit=autocommit,
        )

    def pool_unavailable(self) -> str | None:
        return None

    def make_pool(
        self, host: str, port: int, database: str | None, size: int
    ) -> tuple[Any, Callable[[], Any], Callable[[Any], None]]:
        pool = self._mod.create_pool(
            host=host,
            port=port,
            user="informix",
            password="in4mix",
            database=database,
            server="informix",
            min_size=size,
            max_size=size,
            autocommit=True,
        )
        return pool, pool.acquire, pool.release


__all__ = ["DriverUnavailable", "InformixDbAdapter"]
