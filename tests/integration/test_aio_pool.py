"""ifxwire.aio.create_pool against the real server (and the scripted fake for hangs).

The load test runs 1000 concurrent tasks through a pool of ten connections and expects no
error at all; the others pin down each rule of the sync pool's semantics under asyncio,
cancellation included. The rules that need no second task are test_pool.py's, which runs
on both drivers (the argument checks, sizing, timeouts, eviction, reset on release).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

import ifxwire
import ifxwire.aio as aio

T = TypeVar("T")


def run(coro_fn: Callable[[], Awaitable[T]], limit: float = 120) -> T:
    async def main() -> T:
        return await asyncio.wait_for(coro_fn(), limit)

    return asyncio.run(main())


@pytest.fixture(scope="module")
def kw(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE stock (id INTEGER PRIMARY KEY, qty INTEGER)")
        c.cursor().executemany("INSERT INTO stock VALUES (?, 0)", [(i,) for i in range(10)])
    return {**connect_kwargs, "database": dbname}


def test_thousand_concurrent_tasks_without_an_error(kw: dict[str, Any], server: Any) -> None:
    async def go() -> None:
        async def wait_for_locks(conn: aio.AsyncConnection) -> None:
            await conn.execute("SET LOCK MODE TO WAIT 30")  # writers queue, as in production

        pool = await aio.create_pool(**kw, min_size=2, max_size=10, timeout=60,
                                     configure=wait_for_locks)
        assert pool.size == 2

        async def task(i: int) -> int:
            async with pool.connection() as conn:
                cur = await conn.execute("SELECT qty FROM stock WHERE id = ?", (i % 10,))
                row = await cur.fetchone()
                await cur.close()
                if i % 50 == 0:  # some tasks write and commit
                    await conn.execute("UPDATE stock SET qty = qty + 1 WHERE id = ?",
                                       (i % 10,))
                    await conn.commit()
                return int(row[0])

        results = await asyncio.gather(*(task(i) for i in range(1000)), return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert errors == []
        stats = pool.stats()
        assert stats["acquired"] == stats["released"] == 1000
        assert stats["opened"] <= 10 and pool.size <= 10
        assert stats["waited"] > 0 and stats["max_waiting"] > 100
        assert stats["in_use"] == 0 and stats["timeouts"] == 0
        await pool.close()
        async with await aio.connect(**kw) as c:
            cur = await c.execute("SELECT SUM(qty) FROM stock")
            assert (await cur.fetchone())[0] == 20

    run(go)


def test_acquire_timeout_and_cancelled_waiters_leak_nothing(kw: dict[str, Any]) -> None:
    async def go() -> None:
        pool = await aio.create_pool(**kw, max_size=2, timeout=5)
        a = await pool.acquire()
        b = await pool.acquire()
        with pytest.raises(aio.PoolTimeout):
            await pool.acquire(timeout=0.1)
        assert issubclass(aio.PoolTimeout, ifxwire.OperationalError)
        waiter = asyncio.ensure_future(pool.acquire())
        await asyncio.sleep(0.05)
        assert pool.waiting == 1
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert pool.waiting == 0
        # A waiter that is cancelled the moment a connection is handed to it passes it on.
        w1 = asyncio.ensure_future(pool.acquire())
        w2 = asyncio.ensure_future(pool.acquire())
        await asyncio.sleep(0.05)
        # The race, staged in one step of the loop: a goes to w1, which is cancelled before
        # it runs again; w2 must get a.
        entry = pool._in_use.pop(id(a))
        pool._hand_over(entry)
        w1.cancel()
        got = await asyncio.wait_for(w2, 5)
        with pytest.raises(asyncio.CancelledError):
            await w1
        assert got is a
        await pool.release(got)
        await pool.release(b)
        assert (pool.size, pool.in_use_count, pool.idle_count) == (2, 0, 2)
        await pool.close()

    run(go)


def test_a_task_cancelled_mid_query_gives_back_a_usable_connection(
    kw: dict[str, Any]
) -> None:
    """``asyncio.wait_for`` around a pooled query that would run for minutes: the server stops
    the statement (cancel, not a broken socket), so the same connection goes back to the pool
    and serves the next task."""
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.execute("CREATE TABLE thousand (i INTEGER)")
        c.cursor().executemany("INSERT INTO thousand VALUES (?)", [(i,) for i in range(1000)])

    async def go() -> None:
        pool = await aio.create_pool(**kw, max_size=1)

        async def long_query() -> None:
            async with pool.connection() as conn:
                await conn.execute("SELECT COUNT(*) FROM thousand a, thousand b, thousand c, "
                                   "thousand d")

        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(long_query(), 0.3)
        assert (pool.size, pool.in_use_count) == (1, 0)
        async with pool.connection() as conn:
            cur = await conn.execute("SELECT COUNT(*) FROM thousand")
            assert await cur.fetchone() == (1000,)
            await cur.close()
        stats = pool.stats()
        assert stats["opened"] == 1 and stats["dropped"] == 0
        await pool.close()

    run(go)


def test_release_rolls_back_and_restores_autocommit(kw: dict[str, Any], server: Any) -> None:
    async def go() -> None:
        pool = await aio.create_pool(**kw, max_size=1)
        async with pool.connection() as conn:
            await conn.execute("UPDATE stock SET qty = -100 WHERE id = 1")
            assert conn.in_transaction
            await conn.set_autocommit(True)  # commits? no: set_autocommit commits first
        async with pool.connection() as conn:
            assert conn.autocommit is False
            cur = await conn.execute("SELECT qty FROM stock WHERE id = 1")
            qty = (await cur.fetchone())[0]
            await cur.close()
            await conn.execute("UPDATE stock SET qty = -999 WHERE id = 1")
        async with pool.connection() as conn:
            cur = await conn.execute("SELECT qty FROM stock WHERE id = 1")
            assert (await cur.fetchone())[0] == qty  # the uncommitted -999 was rolled back
            await cur.close()
            await conn.rollback()
            groups = server.request_groups
        assert server.request_groups == groups  # nothing open: release costs no round trip
        with pytest.raises(ifxwire.InterfaceError):
            await pool.release(conn)  # released twice
        await pool.close()

    run(go)


def test_broken_expired_and_pinged_connections_are_replaced(kw: dict[str, Any]) -> None:
    async def go() -> None:
        pool = await aio.create_pool(**kw, max_size=1, ping_after=0.05, max_lifetime=60)
        conn = await pool.acquire()
        conn._core._fail(ifxwire.OperationalError("simulated wire failure"))
        await pool.release(conn)  # dropped
        assert pool.size == 0
        c2 = await pool.acquire()
        assert c2 is not conn and not c2.broken
        await pool.release(c2)
        await asyncio.sleep(0.1)  # idle past ping_after: the next acquire pings
        c3 = await pool.acquire()
        assert c3 is c2 and pool.stats()["pings"] == 1
        await pool.release(c3)
        pool.max_lifetime = 0.01
        await asyncio.sleep(0.05)
        c4 = await pool.acquire()  # too old: closed and replaced
        assert c4 is not c3
        await pool.release(c4)
        pool.max_lifetime, pool.max_idle, pool.min_size = None, 0.01, 0
        await asyncio.sleep(0.05)
        c5 = await pool.acquire()  # the idle one expired (max_idle)
        assert c5 is not c4
        await pool.release(c5)
        assert pool.stats()["opened"] == 4
        await pool.close()

    run(go)


def test_close_drain_configure_and_closed_errors(kw: dict[str, Any]) -> None:
    configured: list[Any] = []

    async def configure(conn: aio.AsyncConnection) -> None:
        await conn.execute("SET LOCK MODE TO WAIT 2")
        configured.append(conn)

    async def go() -> None:
        pool = await aio.create_pool(**kw, min_size=1, max_size=1, configure=configure)
        assert len(configured) == 1
        held = await pool.acquire()
        waiter = asyncio.ensure_future(pool.acquire())
        await asyncio.sleep(0.05)
        drained = asyncio.ensure_future(pool.drain(timeout=5))
        with pytest.raises(aio.PoolClosed):
            await waiter
        await asyncio.sleep(0.05)
        assert not drained.done()  # waits for the connection in use
        await pool.release(held)
        assert await drained is True
        assert held.closed and pool.closed and pool.size == 0
        with pytest.raises(aio.PoolClosed):
            await pool.acquire()

    run(go)


def test_acquire_timeout_holds_while_the_server_hangs(fake: Any) -> None:
    async def go() -> None:
        fake.silent = True
        pool = aio.AsyncConnectionPool(**fake.kwargs(), max_size=1, connect_timeout=30)
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(aio.PoolTimeout):
            await pool.acquire(timeout=0.3)
        assert loop.time() - started < 5
        assert pool.size == 0  # the cancelled connect gave its slot back
        with pytest.raises(aio.PoolTimeout):
            await aio.create_pool(**fake.kwargs(), min_size=1, timeout=0.3)
        await pool.close()

    run(go)
