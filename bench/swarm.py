"""Many connections at once: the ``swarm`` scenarios (200 connections, short queries).

Each of ``n`` connections runs its share of a round's queries and times every query on its
own, so a round yields the throughput (queries / wall) and the latency distribution under
load. Two flavours:

* threads: one OS thread per connection, started at setup and parked on a barrier between
  rounds, so no thread is born inside a measured round;
* asyncio (``aio``): one task per connection on one event loop in the worker's main thread
  (``ifxwire.aio``; informix-driver's ``informix_db.aio`` wraps its sync driver in a thread per
  connection, which is what its users get).

Every connection is opened at setup (untimed) and closed at teardown.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.drivers import Adapter

BARRIER_TIMEOUT = 600.0


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of an ascending sequence."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def latency_summary(lat: list[float]) -> dict[str, float]:
    lat.sort()
    return {"p50": percentile(lat, 50), "p99": percentile(lat, 99), "max": lat[-1]}


class Swarm:
    def __init__(
        self, a: Adapter, host: str, port: int, db: str | None, n: int, aio: bool
    ) -> None:
        self.a = a
        self.n = n
        self.aio = aio
        self.loop: asyncio.AbstractEventLoop | None = None
        self.threads: list[threading.Thread] = []
        self.conns: list[Any] = []
        self.job: tuple[str, list[int], int] = ("", [], 0)
        self.stop = False
        self.lat: list[list[float]] = [[] for _ in range(n)]
        self.rows = [0] * n
        self.errors: list[BaseException] = []
        if aio:
            why = a.aio_unavailable()
            if why is not None:
                raise Unsupported(why)
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)

            async def connect_all() -> list[Any]:
                return list(
                    await asyncio.gather(*(a.aio_connect(host, port, db, True) for _ in range(n)))
                )

            self.conns = self.loop.run_until_complete(connect_all())
            return
        self.conns = [a.connect(host, port, db, True) for _ in range(n)]
        self.start = threading.Barrier(n + 1)
        self.done = threading.Barrier(n + 1)
        for k in range(n):
            t = threading.Thread(target=self._serve, args=(k,), daemon=True)
            t.start()
            self.threads.append(t)

    # ---------------------------------------------------------------- threads

    def _serve(self, k: int) -> None:
        conn = self.conns[k]
        fetch = self.a.fetch_all
        clock = time.perf_counter
        while True:
            self.start.wait(BARRIER_TIMEOUT)
            if self.stop:
                return
            sql, params, per = self.job
            lat = self.lat[k]
            try:
                for _ in range(per):
                    t0 = clock()
                    self.rows[k] += fetch(conn, sql, params)
                    lat.append(clock() - t0)
            except BaseException as exc:  # reported by the round, not swallowed
                self.errors.append(exc)
            self.done.wait(BARRIER_TIMEOUT)

    # ---------------------------------------------------------------- asyncio

    async def _task(self, k: int, sql: str, params: list[int], per: int) -> None:
        conn = self.conns[k]
        fetch = self.a.aio_fetch_all
        clock = time.perf_counter
        lat = self.lat[k]
        for _ in range(per):
            t0 = clock()
            self.rows[k] += await fetch(conn, sql, params)
            lat.append(clock() - t0)

    async def _all(self, sql: str, params: list[int], per: int) -> None:
        await asyncio.gather(*(self._task(k, sql, params, per) for k in range(self.n)))

    # ---------------------------------------------------------------- rounds

    def body(self, sql: str, params: list[int], inner: int) -> Callable[[], dict[str, Any]]:
        per = max(1, inner // self.n)

        def run() -> dict[str, Any]:
            self.lat = [[] for _ in range(self.n)]
            self.rows = [0] * self.n
            self.errors = []
            if self.loop is not None:
                self.loop.run_until_complete(self._all(sql, params, per))
            else:
                self.job = (sql, params, per)
                self.start.wait(BARRIER_TIMEOUT)
                self.done.wait(BARRIER_TIMEOUT)
            if self.errors:
                raise self.errors[0]
            lat = [x for part in self.lat for x in part]
            return {"ops": per * self.n, "rows": sum(self.rows), **latency_summary(lat)}

        return run

    def close(self) -> None:
        if self.loop is not None:
            loop, self.loop = self.loop, None
            conns, close = self.conns, self.a.aio_close

            async def close_all() -> None:
                await asyncio.gather(*(close(c) for c in conns), return_exceptions=True)

            try:
                loop.run_until_complete(close_all())
            finally:
                asyncio.set_event_loop(None)
                loop.close()
            self.conns = []
            return
        self.stop = True
        if self.threads:
            self.start.wait(BARRIER_TIMEOUT)
            for t in self.threads:
                t.join(10)
            self.threads = []
        for c in self.conns:
            self.a.close(c)
        self.conns = []


class Unsupported(RuntimeError):
    """This driver has no flavour for the requested swarm (reported as *unsupported*)."""
