"""Session features, measured: cancel latency, scroll round trips, the asyncio pool.

    python bench/session_bench.py            # a few seconds
    python bench/session_bench.py --runs 20
    python bench/session_bench.py --smoke    # what scripts/test.sh runs: 2 cancels, 200 tasks

Not a timed test: a measurement against an in-process ifxwire-server on loopback.

* **cancel latency**: a query that would run for hours is cancelled after 0.3 s
  (``Connection.cancel()`` from a timer thread, ``asyncio.wait_for``, ``task.cancel()``);
  reported is the time from the cancel to the -213 (TimeoutError, CancelledError) reaching
  the caller, median and max.
* **scroll round trips**: request groups the server answered for a scroll cursor's walks over
  1000 rows (forward with fetchone, backward with fetch_prior, 100 random absolute jumps),
  next to what one SFETCH per row would cost.
* **asyncio pool**: 1000 tasks, each acquiring a connection, running a one-row SELECT and
  releasing it, through a pool of 10: wall time and tasks per second.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import threading
import time
from typing import Any

import ifxwire
import ifxwire.aio as aio
from ifxwire.server import Server

LONG_QUERY = "SELECT COUNT(*) FROM n a, n b, n c, n d"


def _prepare(srv: Server) -> dict[str, Any]:
    kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.execute("CREATE DATABASE bench_sessions WITH LOG")
        c.execute("CREATE TABLE n (i INTEGER, pad CHAR(100))")
        c.cursor().executemany("INSERT INTO n VALUES (?, 'x')", [(i,) for i in range(1000)])
    return {**kw, "database": "bench_sessions"}


def cancel_latency(kw: dict[str, Any], runs: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"sync cancel()": [], "asyncio wait_for": [],
                                   "asyncio task.cancel()": []}
    with ifxwire.connect(**kw, autocommit=True) as c:
        for _ in range(runs):
            sent: list[float] = []

            def fire(conn: ifxwire.Connection = c, at: list[float] = sent) -> None:
                at.append(time.perf_counter())
                conn.cancel()

            threading.Timer(0.3, fire).start()
            try:
                c.execute(LONG_QUERY)
            except ifxwire.OperationalError:
                out["sync cancel()"].append(time.perf_counter() - sent[0])

    async def go() -> None:
        c = await aio.connect(**kw, autocommit=True)
        try:
            for _ in range(runs):
                started = time.perf_counter()
                try:
                    await asyncio.wait_for(c.execute(LONG_QUERY), 0.3)
                except asyncio.TimeoutError:
                    out["asyncio wait_for"].append(time.perf_counter() - started - 0.3)
            for _ in range(runs):
                task = asyncio.ensure_future(c.execute(LONG_QUERY))
                await asyncio.sleep(0.3)
                started = time.perf_counter()
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    out["asyncio task.cancel()"].append(time.perf_counter() - started)
        finally:
            await c.close()

    asyncio.run(go())
    return out


def scroll_round_trips(srv: Server, kw: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    with ifxwire.connect(**kw, autocommit=True) as c:
        cur = c.cursor(scrollable=True)
        cur.execute("SELECT i, pad FROM n ORDER BY i")
        before = srv.request_groups
        while cur.fetchone() is not None:
            pass
        out["forward over 1000 rows"] = srv.request_groups - before
        before = srv.request_groups
        while cur.fetch_prior() is not None:
            pass
        out["backward over 1000 rows"] = srv.request_groups - before
        rnd = random.Random(1)
        before = srv.request_groups
        for _ in range(100):
            cur.fetch_absolute(rnd.randrange(1000))
        out["100 random jumps"] = srv.request_groups - before
    return out


def pool_throughput(kw: dict[str, Any], tasks: int) -> tuple[float, int]:
    async def go() -> float:
        pool = await aio.create_pool(**kw, max_size=10, timeout=60)
        started = time.perf_counter()

        async def one(i: int) -> None:
            async with pool.connection() as conn:
                cur = await conn.execute("SELECT i FROM n WHERE i = ?", (i % 1000,))
                await cur.fetchone()
                await cur.close()

        await asyncio.gather(*(one(i) for i in range(tasks)))
        elapsed = time.perf_counter() - started
        await pool.close()
        return elapsed

    return asyncio.run(go()), tasks


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--tasks", type=int, default=1000)
    p.add_argument("--smoke", action="store_true", help="2 cancels of each kind, 200 tasks")
    args = p.parse_args(argv)
    if args.smoke:
        args.runs, args.tasks = 2, 200
    with Server(port=0, statement_timeout=120) as srv:
        kw = _prepare(srv)
        print("cancel latency (cancel sent -> error raised), ms")
        for name, times in cancel_latency(kw, args.runs).items():
            ms = [t * 1000 for t in times]
            print(f"  {name:22} median {statistics.median(ms):7.1f}  max {max(ms):7.1f}"
                  f"  ({len(ms)} runs)")
        print("scroll cursor request groups (one SFETCH per row would be 1000 / 1000 / 100)")
        for name, groups in scroll_round_trips(srv, kw).items():
            print(f"  {name:26} {groups:5d}")
        elapsed, tasks = pool_throughput(kw, args.tasks)
        print(f"asyncio pool: {tasks} tasks through 10 connections in {elapsed:.2f} s "
              f"({tasks / elapsed:.0f} tasks/s)")


if __name__ == "__main__":
    main()
