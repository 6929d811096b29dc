"""ifxwire, pure or accelerated.

The flavour is chosen by the environment before ``ifxwire`` is imported (``IFXWIRE_PURE=1``
forces the pure-Python codecs); the worker sets it, this adapter checks it took effect.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from .base import Adapter, DriverUnavailable


def accelerator_state(module: Any) -> bool:
    """Is the compiled accelerator active in this process? (absent attribute: no)"""
    flag = getattr(module, "accelerated", None)
    if flag is None:
        probe = getattr(module, "accelerator_available", None)
        flag = probe() if callable(probe) else False
    return bool(flag)


def _options(host: str, port: int, database: str | None, autocommit: bool) -> dict[str, Any]:
    return {
        "host": host,
        "port": port,
        "user": "informix",
        "password": "in4mix",
        "database": database,
        "autocommit": autocommit,
    }


class IfxwireAdapter(Adapter):
    def __init__(self, accelerated: bool) -> None:
        import ifxwire

        self._mod = ifxwire
        self.name = "ifxwire-accel" if accelerated else "ifxwire"
        self.version = ifxwire.__version__
        active = accelerator_state(ifxwire)
        if accelerated and not active:
            raise DriverUnavailable("ifxwire.accelerated is absent or false (no accelerator built)")
        if not accelerated and active and os.environ.get("IFXWIRE_PURE") != "1":
            raise DriverUnavailable("the accelerator is active although the pure run was asked for")

    def connect(self, host: str, port: int, database: str | None, autocommit: bool) -> Any:
        return self._mod.connect(**_options(host, port, database, autocommit))

    def stream_arrow(self, conn: Any, sql: str, progress: list[int] | None = None) -> int:
        """execute + ``fetch_record_batch``, each batch dropped once counted (issue 25's
        10M-row peak-RSS figure)."""
        cur = conn.cursor()
        n = 0
        try:
            cur.execute(sql)
            for batch in cur.fetch_record_batch():
                n += batch.num_rows
                if progress is not None:
                    progress[0] = n
        except KeyboardInterrupt:
            if progress is not None:
                progress[0] = n
            raise
        cur.close()
        return n

    def aio_unavailable(self) -> str | None:
        return None

    async def aio_connect(
        self, host: str, port: int, database: str | None, autocommit: bool
    ) -> Any:
        import ifxwire.aio

        return await ifxwire.aio.connect(**_options(host, port, database, autocommit))

    async def aio_fetch_all(self, conn: Any, sql: str, params: Sequence[object] | None) -> int:
        cur = conn.cursor()
        await cur.execute(sql, tuple(params) if params else None)
        n = len(await cur.fetchall())
        await cur.close()
        return n

    def pool_unavailable(self) -> str | None:
        for name in ("create_pool", "ConnectionPool", "Pool"):
            if hasattr(self._mod, name):
                return None
        return "ifxwire has no connection pool yet"

    def make_pool(
        self, host: str, port: int, database: str | None, size: int
    ) -> tuple[Any, Callable[[], Any], Callable[[Any], None]]:
        # ifxwire.create_pool(**connect kwargs, min_size=, max_size=): the same call shape as
        # informix-driver's, so both pools hold one connection opened up front.
        create = getattr(self._mod, "create_pool", None)
        if create is None:
            raise DriverUnavailable("ifxwire has no connection pool yet")
        pool = create(**_options(host, port, database, True), min_size=size, max_size=size)
        return pool, pool.acquire, pool.release
