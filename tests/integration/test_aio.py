"""ifxwire.aio against the embedded server (and the scripted fake for hangs).

Each test runs its coroutine with ``asyncio.run``; no pytest-asyncio needed.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

import ifxwire
import ifxwire.aio as aio

T = TypeVar("T")


def run(coro_fn: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await asyncio.wait_for(coro_fn(), 20)

    return asyncio.run(main())


@pytest.fixture()
def kw(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    return {**connect_kwargs, "database": dbname}


@pytest.fixture(scope="module", autouse=True)
def table(connect_kwargs: dict[str, Any], dbname: str) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname) as c:
        c.execute("CREATE TABLE items (id SERIAL, name VARCHAR(40), qty INTEGER)")
        c.execute("CREATE UNIQUE INDEX items_name ON items (name)")
        c.execute("CREATE TABLE big (n INTEGER, pad CHAR(100))")
        c.cursor().executemany("INSERT INTO big VALUES (?, 'x')", [(i,) for i in range(5000)])


def test_connect_select_and_metadata(kw: dict[str, Any]) -> None:
    async def go() -> None:
        threads = set(threading.enumerate())
        conn = await aio.connect(**kw)
        try:
            assert isinstance(conn, aio.AsyncConnection)
            assert conn.server_version and conn.logging_mode == "logged"
            assert not conn.autocommit and not conn.in_transaction
            cur = await conn.execute("SELECT tabname, tabid FROM systables WHERE tabid = ?", (1,))
            assert isinstance(cur, aio.AsyncCursor)
            assert [d[0] for d in cur.description or ()] == ["tabname", "tabid"]
            assert await cur.fetchone() == ("systables", 1)
            assert await cur.fetchone() is None
            assert cur.rowcount == 1
            # The driver started no thread of its own. The in-process server may (its accept
            # and interrupt threads), so may asyncio (its default executor resolves the host
            # name: asyncio_N), and earlier tests' threads may still be ending, so the new
            # threads are told apart by name rather than counted.
            others = ("ifxwire-accept", "ifxwire-interrupt", "asyncio_")
            started = [t.name for t in set(threading.enumerate()) - threads
                       if not t.name.startswith(others)]
            assert started == [], started
        finally:
            await conn.close()
        assert conn.closed
        await conn.close()  # idempotent

    run(go)


def test_url_and_login_failure(connect_kwargs: dict[str, Any], dbname: str) -> None:
    url = f"informix://informix:in4mix@{connect_kwargs['host']}:{connect_kwargs['port']}/{dbname}"

    async def go() -> None:
        async with await aio.connect(url) as conn:
            assert conn.database == dbname
        bad = {**connect_kwargs, "password": "nope"}
        with pytest.raises(ifxwire.OperationalError) as info:
            await aio.connect(**bad)
        assert info.value.sqlcode == -951

    run(go)


def test_parameter_styles(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            sql_q = "SELECT tabid FROM systables WHERE tabid = ? OR tabid = ? ORDER BY 1"
            cur = await conn.execute(sql_q, (1, 2))
            assert await cur.fetchall() == [(1,), (2,)]
            cur = await conn.execute("SELECT tabid FROM systables WHERE tabid = :2", (9, 1))
            assert await cur.fetchall() == [(1,)]
            cur = await conn.execute("SELECT tabid FROM systables WHERE tabid = :t", {"t": 2})
            assert await cur.fetchall() == [(2,)]

    run(go)


def test_streaming_iteration_holds_one_batch(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw, fetch_buffer_size=4096) as conn:
            cur = await conn.execute("SELECT n, pad FROM big ORDER BY n")
            assert cur.rowcount == -1
            seen = 0
            biggest = 0
            async for n, pad in cur:
                assert n == seen and pad == "x"
                seen += 1
                biggest = max(biggest, cur.batch_size)
            assert seen == 5000 and cur.rowcount == 5000
            assert 0 < biggest < 100
            cur = await conn.execute("SELECT n FROM big WHERE n < 30 ORDER BY n")
            cur.arraysize = 7
            assert len(await cur.fetchmany()) == 7
            assert await cur.fetchmany(20) == [(i,) for i in range(7, 27)]
            assert await cur.fetchall() == [(27,), (28,), (29,)]

    run(go)


def test_executemany_and_lastrowid(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            cur = conn.cursor()
            await cur.execute("INSERT INTO items (name, qty) VALUES (?, ?)", ("first", 1))
            assert cur.rowcount == 1 and cur.lastrowid is not None
            first_id = cur.lastrowid
            await cur.executemany(
                "INSERT INTO items (name, qty) VALUES (?, ?)",
                ((f"many{i}", i) for i in range(600)),  # a generator, > one chunk
            )
            assert cur.rowcount == 600
            assert cur.lastrowid == first_id + 600
            with pytest.raises(ifxwire.IntegrityError) as info:
                await cur.executemany(
                    "INSERT INTO items (name, qty) VALUES (?, ?)",
                    [("x1", 1), ("many5", 2), ("x2", 3)],
                )
            err: Any = info.value
            assert err.row_index == 1 and [i for i, _ in err.errors] == [1]
            assert err.sqlcode in (-239, -268)
            assert cur.rowcount == 2  # every row attempted
            await conn.rollback()
            cur = await conn.execute("SELECT COUNT(*) FROM items")
            assert (await cur.fetchone()) == (0,)
            with pytest.raises(ifxwire.ProgrammingError):
                await conn.cursor().executemany("SELECT * FROM items WHERE id = ?", [(1,)])

    run(go)


def test_errors_carry_sqlcode_and_leave_the_connection_usable(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            with pytest.raises(ifxwire.ProgrammingError) as info:
                await conn.execute("SELECT * FROM no_such_table")
            assert info.value.sqlcode == -206
            with pytest.raises(ifxwire.ProgrammingError) as info2:
                await conn.execute("SELEKT 1")
            assert info2.value.sqlcode == -201
            assert not conn.broken
            cur = await conn.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
            assert await cur.fetchone() is not None
            with pytest.raises(ifxwire.ProgrammingError):
                await conn.cursor().fetchone()  # no result set

    run(go)


def test_transactions_commit_rollback_autocommit(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("INSERT INTO items (name, qty) VALUES ('gone', 1)")
            assert conn.in_transaction
            await conn.rollback()
            assert not conn.in_transaction
            await conn.execute("INSERT INTO items (name, qty) VALUES ('kept', 2)")
            await conn.commit()
            # Leaving the block normally commits.
            await conn.execute("INSERT INTO items (name, qty) VALUES ('ctx', 3)")
        with pytest.raises(RuntimeError):
            async with await aio.connect(**kw) as conn:
                await conn.execute("INSERT INTO items (name, qty) VALUES ('boom', 4)")
                raise RuntimeError
        async with await aio.connect(**kw) as conn:
            cur = await conn.execute(
                "SELECT name FROM items WHERE name IN ('gone', 'kept', 'ctx', 'boom') ORDER BY 1"
            )
            assert await cur.fetchall() == [("ctx",), ("kept",)]
            await conn.execute("INSERT INTO items (name, qty) VALUES ('auto', 5)")
            with pytest.raises(ifxwire.ProgrammingError):
                conn.autocommit = True  # would need a COMMIT round trip
            await conn.set_autocommit(True)  # commits 'auto'
            assert conn.autocommit and not conn.in_transaction
            await conn.execute("DELETE FROM items WHERE name IN ('kept', 'ctx', 'auto')")
            assert not conn.in_transaction
            conn.autocommit = False  # no I/O needed
        async with await aio.connect(**kw) as conn:
            cur = await conn.execute("SELECT COUNT(*) FROM items WHERE qty IN (2, 3, 5)")
            assert await cur.fetchone() == (0,)

    run(go)


def test_commit_closes_open_results_like_the_sync_driver(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw, fetch_buffer_size=4096) as conn:
            cur = await conn.execute("SELECT n FROM big FOR UPDATE")
            assert conn.in_transaction
            await cur.fetchone()
            await conn.commit()
            with pytest.raises(ifxwire.ProgrammingError, match="closed by commit"):
                await cur.fetchall()

    run(go)


def test_tasks_sharing_a_connection_are_serialised(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw, fetch_buffer_size=4096) as conn:

            async def count(limit: int) -> int:
                cur = await conn.execute("SELECT n FROM big WHERE n < ?", (limit,))
                return sum([1 async for _ in cur])

            results = await asyncio.gather(*(count(k * 500) for k in range(1, 9)))
            assert results == [k * 500 for k in range(1, 9)]

    run(go)


def test_many_connections_concurrently(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async def one(i: int) -> tuple[Any, ...] | None:
            async with await aio.connect(**kw) as conn:
                cur = await conn.execute("SELECT COUNT(*) FROM big WHERE n < ?", (i,))
                return await cur.fetchone()

        got = await asyncio.gather(*(one(i) for i in range(10)))
        assert [int(r[0]) for r in got if r is not None] == list(range(10))

    run(go)


def test_cancel_while_waiting_for_the_lock_is_harmless(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            async with conn._lock:
                task = asyncio.ensure_future(conn.execute("SELECT COUNT(*) FROM big"))
                await asyncio.sleep(0.01)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
            assert not conn.broken
            cur = await conn.execute("SELECT COUNT(*) FROM big")
            assert await cur.fetchone() == (5000,)

    run(go)


def test_cancel_mid_reply_breaks_the_connection_cleanly(
    fake: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cancelled task cancels its statement and waits CANCEL_DRAIN for the replies; a
    server that never answers them gets the connection broken instead."""
    monkeypatch.setattr("ifxwire.client.awaiting.CANCEL_DRAIN", 0.2)

    async def go() -> None:
        conn = await aio.connect(**fake.kwargs())
        fake.silent = True  # the server reads requests and never answers
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(conn.execute("SELECT 1 FROM t"), 0.2)
        assert conn.broken
        with pytest.raises(ifxwire.InterfaceError, match="broken"):
            await conn.execute("SELECT 1 FROM t")
        with pytest.raises(ifxwire.InterfaceError):
            await conn.commit()
        await conn.close()
        assert conn.closed

    run(go)


def test_read_timeout_and_hangup_break_the_connection(fake: Any) -> None:
    async def go() -> None:
        conn = await aio.connect(**fake.kwargs(read_timeout=0.2))
        fake.silent = True
        with pytest.raises(ifxwire.OperationalError, match="timed out"):
            await conn.execute("SELECT 1 FROM t")
        assert conn.broken
        await conn.close()
        fake.silent = False
        conn = await aio.connect(**fake.kwargs())
        fake.hook = lambda group: fake.HANGUP
        with pytest.raises(ifxwire.OperationalError) as info:
            await conn.execute("SELECT 1 FROM t")
        assert info.value.sqlstate == "08006"
        assert conn.broken
        await conn.close()

    run(go)


def test_cursor_close_and_context_manager(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw, fetch_buffer_size=4096) as conn:
            async with conn.cursor() as cur:
                await cur.execute("SELECT n FROM big")
                await cur.fetchone()  # abandoned: CLOSE rides with the next request
            assert cur.closed
            with pytest.raises(ifxwire.InterfaceError):
                await cur.execute("SELECT 1 FROM systables")
            again = await conn.execute("SELECT COUNT(*) FROM big")
            assert await again.fetchone() == (5000,)

    run(go)


def test_round_trips_match_the_sync_driver(kw: dict[str, Any], server: Any) -> None:
    async def go() -> list[int]:
        counts = []
        async with await aio.connect(**kw) as conn:
            for _ in range(2):
                mark = server.request_groups
                cur = await conn.execute("SELECT tabid FROM systables WHERE tabid = ?", (1,))
                await cur.fetchall()
                counts.append(server.request_groups - mark)
            mark = server.request_groups
            await conn.commit()  # nothing open: no round trip
            counts.append(server.request_groups - mark)
        return counts

    assert run(go) == [2, 1, 0]


def test_callproc(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            cur = conn.cursor()
            await cur.execute(
                "CREATE FUNCTION aio_addone(x INTEGER) RETURNING INTEGER; "
                "RETURN x + 1; END FUNCTION"
            )
            assert await cur.callproc("aio_addone", [41]) == [41]
            assert await cur.fetchall() == [(42,)]
            assert cur.nextset() is None
            with pytest.raises(ifxwire.ProgrammingError):
                await cur.callproc("x; DROP TABLE items")

    run(go)


def test_executemany_mixed_shapes_and_a_bad_set(
    kw: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs of one shape are encoded together; a set of another shape, or one that cannot be
    sent, takes the per-row path: every other row is stored, the bad one is reported. Most
    replies are read by the fast path, the rest by the Reply parser, with the same outcome."""
    from ifxwire.client.batch import Pipeline as _Pipeline
    from ifxwire.client.batch import ReplyTally

    fast_rows = []

    def counting(self: Any, conn: Any, limit: int) -> int:
        n = ReplyTally._read_fast(self, conn, limit)
        fast_rows.append(n)
        return n

    monkeypatch.setattr(_Pipeline, "_read_fast", counting)

    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            cur = conn.cursor()
            sets: list[Any] = [(f"m{i}", i) for i in range(300)]
            sets += [("none", None), ("short",)]
            sets += [[f"list{i}", i] for i in range(2)]
            sets += [(f"n{i}", i) for i in range(300)]
            with pytest.raises(ifxwire.ProgrammingError) as info:
                await cur.executemany("INSERT INTO items (name, qty) VALUES (?, ?)", sets)
            err: Any = info.value
            assert err.row_index == 301 and [i for i, _ in err.errors] == [301]
            assert cur.rowcount == len(sets) - 1
            cur = await conn.execute("SELECT name, qty FROM items ORDER BY id")
            stored = await cur.fetchall()
            assert stored == [tuple(s) for i, s in enumerate(sets) if i != 301]
            await conn.rollback()

    run(go)
    assert sum(fast_rows) > 300


def test_executemany_parameters_that_raise_leave_the_connection_usable(
    kw: dict[str, Any],
) -> None:
    """The parameter iterable fails after hundreds of rows went out: the replies already
    asked for are read (as the sync executemany does; the asyncio one used to give the
    connection up), the error reaches the caller, and the sent rows are there."""

    def sets() -> Any:
        for i in range(600):
            yield (f"gen{i}", i)
        raise RuntimeError("boom")

    async def go() -> None:
        async with await aio.connect(**kw, autocommit=True) as conn:
            await conn.execute("DELETE FROM items WHERE name LIKE 'gen%'")
            cur = conn.cursor()
            with pytest.raises(RuntimeError, match="boom"):
                await cur.executemany("INSERT INTO items (name, qty) VALUES (?, ?)", sets())
            assert not conn.broken
            cur = await conn.execute("SELECT COUNT(*) FROM items WHERE name LIKE 'gen%'")
            assert await cur.fetchone() == (600,)

    run(go)
