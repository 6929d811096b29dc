"""Scroll cursors and hold cursors against the real server, sync and asyncio.

The central property: any sequence of moves on a scroll cursor returns what the same moves
return on a Python list of the same rows (hypothesis draws the sequences). Rows are 100-byte
wide and the fetch buffer small, so a result spans many windows and the moves cross them in
both directions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ifxwire
import ifxwire.aio as aio

pytestmark = pytest.mark.both_drivers

SIZES = (0, 1, 2, 5, 50, 300)
FETCH_BUFFER = 1024  # about nine 108-byte rows per SFETCH reply


@pytest.fixture(scope="module")
def kw(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE sr (i INTEGER, pad CHAR(100))")
        c.cursor().executemany("INSERT INTO sr VALUES (?, ?)",
                               [(i, f"row {i}") for i in range(max(SIZES))])
    return {**connect_kwargs, "database": dbname, "fetch_buffer_size": FETCH_BUFFER}


@pytest.fixture(scope="module")
def conn(kw: dict[str, Any]) -> Iterator[ifxwire.Connection]:
    with ifxwire.connect(**kw, autocommit=True) as c:
        yield c


class ListModel:
    """What each move means, on a Python list (PEP 249 positions; Python indexing)."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows
        self.next = 0

    def at(self, i: int) -> tuple[Any, ...] | None:
        n = len(self.rows)
        if i < 0:
            self.next = 0
            return None
        if i >= n:
            self.next = n
            return None
        self.next = i + 1
        return self.rows[i]

    def apply(self, op: str, arg: int) -> object:
        n = len(self.rows)
        if op == "fetchone":
            return self.at(self.next) if self.next < n else None
        if op == "fetchmany":
            out = self.rows[self.next : self.next + arg]
            self.next += len(out)
            return out
        if op == "first":
            return self.at(0)
        if op == "last":
            return self.at(n - 1)
        if op == "prior":
            return self.at(self.next - 2)
        if op == "absolute":
            return self.at(arg + n if arg < 0 else arg)
        if op == "relative":
            return self.at(self.next - 1 + arg)
        target = self.next + arg if op == "scroll_relative" else arg
        if not 0 <= target <= n:
            return IndexError
        self.next = target
        return None


def _apply(cur: Any, op: str, arg: int) -> object:
    try:
        if op == "fetchone":
            return cur.fetchone()
        if op == "fetchmany":
            return cur.fetchmany(arg)
        if op == "first":
            return cur.fetch_first()
        if op == "last":
            return cur.fetch_last()
        if op == "prior":
            return cur.fetch_prior()
        if op == "absolute":
            return cur.fetch_absolute(arg)
        if op == "relative":
            return cur.fetch_relative(arg)
        cur.scroll(arg, "relative" if op == "scroll_relative" else "absolute")
        return None
    except IndexError:
        return IndexError


OPS = st.lists(
    st.tuples(
        st.sampled_from(["fetchone", "fetchmany", "first", "last", "prior", "absolute",
                         "relative", "scroll_relative", "scroll_absolute"]),
        st.integers(-320, 320),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.sampled_from(SIZES), ops=OPS)
def test_random_moves_match_list_indexing(
    conn: ifxwire.Connection, size: int, ops: list[tuple[str, int]]
) -> None:
    cur = conn.cursor(scrollable=True)
    cur.execute("SELECT i FROM sr WHERE i < ? ORDER BY i", (size,))
    model = ListModel([(i,) for i in range(size)])
    for step, (op, arg) in enumerate(ops):
        if op == "fetchmany":
            arg = abs(arg) % 20
        got = _apply(cur, op, arg)
        want = model.apply(op, arg)
        assert got == want, (step, op, arg, ops[: step + 1])
        assert cur.rownumber == model.next, (step, op, arg, ops[: step + 1])
    cur.close()


def test_moves_inside_the_window_cost_no_round_trip(
    conn: ifxwire.Connection, server: Any
) -> None:
    cur = conn.cursor(scrollable=True)
    cur.execute("SELECT i, pad FROM sr ORDER BY i")
    assert cur.fetch_absolute(100)[0] == 100  # ABSOLUTE + NEXT: a window from row 100
    before = server.request_groups
    assert [cur.fetch_relative(1)[0] for _ in range(5)] == [101, 102, 103, 104, 105]
    assert [cur.fetch_prior()[0] for _ in range(5)] == [104, 103, 102, 101, 100]
    assert server.request_groups == before
    # Walking back from row 100 to 0 asks for one window per buffer, not one per row.
    for i in range(99, -1, -1):
        assert cur.fetch_prior()[0] == i
    assert 0 < server.request_groups - before < 40
    assert cur.fetch_last()[0] == 299
    assert cur.rowcount == 300
    cur.close()


def test_fetchall_from_the_middle_and_pep249_scroll(conn: ifxwire.Connection) -> None:
    cur = conn.cursor(scrollable=True)
    cur.execute("SELECT i FROM sr ORDER BY i")
    cur.scroll(250, "absolute")
    assert cur.rownumber == 250
    rest = cur.fetchall()
    assert [r[0] for r in rest] == list(range(250, 300))
    assert cur.fetchone() is None
    cur.scroll(-300)
    assert cur.fetchone() == (0,)
    with pytest.raises(IndexError):
        cur.scroll(-2)
    assert cur.rownumber == 1  # unchanged by the refused move
    with pytest.raises(IndexError):
        cur.scroll(301, "absolute")
    cur.scroll(300, "absolute")  # just after the last row is a valid position
    assert cur.fetchone() is None
    with pytest.raises(ifxwire.ProgrammingError):
        cur.scroll(1, "sideways")
    # The "current" row is the one before rownumber (the last one returned): here 299.
    assert [r[0] for r in iter(lambda: cur.fetch_prior(), None)][:3] == [298, 297, 296]


def test_forward_cursor_keeps_its_rules(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT i FROM sr ORDER BY i")
    with pytest.raises(ifxwire.NotSupportedError):
        cur.scroll(-1)
    with pytest.raises(AttributeError):
        cur.fetch_last()  # type: ignore[attr-defined]
    with pytest.raises(ifxwire.ProgrammingError):
        conn.cursor(scrollable="yes")  # type: ignore[arg-type]


def test_scroll_then_plain_open_of_the_same_statement(conn: ifxwire.Connection) -> None:
    """The server once kept SQ_SCROLL for every later OPEN of the statement, so a plain
    cursor on the same (cached) statement answered -400."""
    sql = "SELECT i FROM sr WHERE i < 20 ORDER BY i"
    s = conn.cursor(scrollable=True)
    s.execute(sql)
    assert s.fetch_last() == (19,)
    s.close()
    assert [r[0] for r in conn.execute(sql).fetchall()] == list(range(20))
    h = conn.cursor(withhold=True)
    h.execute(sql)
    assert len(h.fetchall()) == 20


def test_hold_cursor_survives_commit(driver: Any, kw: dict[str, Any]) -> None:
    with driver.connect(**kw) as c:
        # Wide rows: the first fetch reply holds a part of the result only.
        plain = c.cursor()
        plain.execute("SELECT i, pad FROM sr ORDER BY i")
        hold = c.cursor(withhold=True)
        hold.execute("SELECT i, pad FROM sr ORDER BY i")
        scroll_hold = c.cursor(scrollable=True, withhold=True)
        scroll_hold.execute("SELECT i FROM sr ORDER BY i")
        assert plain.fetchone()[0] == hold.fetchone()[0] == scroll_hold.fetchone()[0] == 0
        c.execute("UPDATE sr SET pad = pad WHERE i = 0")
        c.commit()
        with pytest.raises(ifxwire.ProgrammingError, match="closed by"):
            plain.fetchall()
        assert len(hold.fetchall()) == 299
        assert scroll_hold.fetch_last() == (299,)
        assert scroll_hold.fetch_first() == (0,)


def test_for_update_scroll_cursor_is_refused(conn: ifxwire.Connection) -> None:
    cur = conn.cursor(scrollable=True)
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("SELECT i FROM sr WHERE i = 1 FOR UPDATE")
    assert info.value.sqlcode == -526
    assert conn.execute("SELECT COUNT(*) FROM sr").fetchone() == (300,)


def test_async_scroll_cursor(kw: dict[str, Any]) -> None:
    async def scenario() -> None:
        c = await aio.connect(**kw, autocommit=True)
        try:
            cur = c.cursor(scrollable=True)
            await cur.execute("SELECT i FROM sr ORDER BY i")
            assert await cur.fetch_last() == (299,)
            assert await cur.fetch_prior() == (298,)
            assert await cur.fetch_absolute(-300) == (0,)
            assert await cur.fetch_relative(150) == (150,)
            assert cur.rownumber == 151
            await cur.scroll(-151)
            assert [r async for r in cur][:3] == [(0,), (1,), (2,)]
            await cur.scroll(10, "absolute")
            assert await cur.fetchmany(2) == [(10,), (11,)]
            with pytest.raises(IndexError):
                await cur.scroll(1000)
            model = ListModel([(i,) for i in range(300)])
            moves = [("absolute", 7, cur.fetch_absolute), ("prior", 0, cur.fetch_prior),
                     ("relative", 40, cur.fetch_relative), ("last", 0, cur.fetch_last),
                     ("relative", -299, cur.fetch_relative), ("absolute", -1,
                                                              cur.fetch_absolute)]
            for op, arg, move in moves:
                got = await (move(arg) if op in ("absolute", "relative") else move())
                assert got == model.apply(op, arg)
            assert await cur.fetchone() == model.apply("fetchone", 0)
            await cur.close()
            hold = c.cursor(withhold=True)
            await hold.execute("SELECT i FROM sr ORDER BY i")
            await hold.scroll(5)
            assert await hold.fetchone() == (5,)
            with pytest.raises(ifxwire.NotSupportedError):
                await hold.scroll(-1)
        finally:
            await c.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_scroll_cursor_refuses_binary_complex_columns_and_reads_text_numbers(
    driver: Any, kw: dict[str, Any]
) -> None:
    """A scroll cursor over ROW/collection columns returned no rows and no error: the server
    sends them to SFETCH in the text form (no SQ_RET_TYPE before SFETCH is witnessed), which
    the binary decoder refused into ``decode_error``, and the window ignored it. Now the
    binary case is refused before anything is sent (the connection stays usable), and with
    ``collections = "text"`` a collection of numbers scrolls like any column."""
    with driver.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE TABLE sr_cx (id INTEGER, l LIST(INTEGER NOT NULL), "
                           "r ROW(a INTEGER, b VARCHAR(10)))")
        try:
            c.cursor().execute("INSERT INTO sr_cx VALUES (1, LIST{1,2,3}, ROW(5,'x'))")
            c.cursor().execute("INSERT INTO sr_cx VALUES (2, LIST{-4}, ROW(6,'y'))")
            s = c.cursor(scrollable=True)
            with pytest.raises(ifxwire.NotSupportedError, match=r"\(l, r\)"):
                s.execute("SELECT id, l, r FROM sr_cx ORDER BY id")
            s.execute("SELECT id FROM sr_cx ORDER BY id")
            assert s.fetchall() == [(1,), (2,)]
            s.collections = "text"
            s.execute("SELECT id, l FROM sr_cx ORDER BY id")
            assert [(i, list(v)) for i, v in s.fetchall()] == [(1, [1, 2, 3]), (2, [-4])]
            s.scroll(0, mode="absolute")
            row = s.fetchone()
            assert row is not None and list(row[1]) == [1, 2, 3]
        finally:
            c.cursor().execute("DROP TABLE sr_cx")
