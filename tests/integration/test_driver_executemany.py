"""Pipelined executemany: volume, per-row failures, generators, what it refuses."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Generator, Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers

_SEQ = itertools.count()


@pytest.fixture()
def table(conn: ifxwire.Connection) -> str:
    name = f"em_{next(_SEQ)}"
    conn.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v VARCHAR(20))")
    conn.commit()
    return name


def test_100k_rows_in_one_transaction(conn: ifxwire.Connection, table: str) -> None:
    cur = conn.cursor()
    n = 100_000
    cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", ((i, f"v{i}") for i in range(n)))
    assert cur.rowcount == n
    assert conn.in_transaction
    conn.commit()
    assert cur.execute(f"SELECT COUNT(*), SUM(id) FROM {table}").fetchone() == (n, n * (n - 1) // 2)


@pytest.mark.parametrize("bad", [[0], [500], [999], [0, 500, 999]])
def test_failing_rows_are_reported_and_others_done(
    conn: ifxwire.Connection, table: str, bad: list[int]
) -> None:
    cur = conn.cursor()
    cur.execute(f"INSERT INTO {table} VALUES (-1, 'dup')")
    rows = [(-1 if i in bad else i, "x") for i in range(1000)]
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", rows)
    e = info.value
    assert e.row_index == bad[0]  # type: ignore[attr-defined]
    assert [i for i, _ in e.errors] == bad  # type: ignore[attr-defined]
    assert all(isinstance(x, ifxwire.IntegrityError) for _, x in e.errors)  # type: ignore[attr-defined]
    assert e.message.startswith(f"executemany row {bad[0]}:")
    assert e.sqlcode is not None and e.sqlcode < 0
    assert cur.rowcount == 1000 - len(bad)
    # The connection is usable and the good rows are there.
    assert cur.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (1001 - len(bad),)


def test_client_side_bad_row(conn: ifxwire.Connection, table: str) -> None:
    cur = conn.cursor()
    rows: list[tuple[Any, ...]] = [(1, "a"), (2, object()), (3, "c"), (4,)]
    with pytest.raises(ifxwire.ProgrammingError) as info:
        cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", rows)
    assert info.value.row_index == 1  # type: ignore[attr-defined]
    assert [i for i, _ in info.value.errors] == [1, 3]  # type: ignore[attr-defined]
    assert cur.rowcount == 2
    assert cur.execute(f"SELECT id FROM {table} ORDER BY id").fetchall() == [(1,), (3,)]


def test_generator_input_and_markers(conn: ifxwire.Connection, table: str) -> None:
    def gen() -> Iterator[dict[str, object]]:
        for i in range(3000):
            yield {"id": i, "v": str(i)}

    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {table} VALUES (:id, :v)", gen())
    assert cur.rowcount == 3000
    cur.executemany(f"UPDATE {table} SET v = :2 WHERE id = :1", [(1, "one"), (2, "two")])
    assert cur.rowcount == 2
    assert cur.execute(f"SELECT v FROM {table} WHERE id = 2").fetchone() == ("two",)


def test_empty_sequence(conn: ifxwire.Connection, table: str) -> None:
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", [])
    assert cur.rowcount == 0


def test_rejects_queries(conn: ifxwire.Connection, table: str) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.ProgrammingError, match="returns rows"):
        cur.executemany(f"SELECT * FROM {table} WHERE id = ?", [(1,), (2,)])
    assert cur.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,)


def test_generator_that_raises(conn: ifxwire.Connection, table: str) -> None:
    def gen() -> Iterator[tuple[int, str]]:
        for i in range(600):
            yield (i, "x")
        raise RuntimeError("boom")

    cur = conn.cursor()
    with pytest.raises(RuntimeError, match="boom"):
        cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", gen())
    assert not conn.broken
    assert cur.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (600,)


def test_autocommit_executemany(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, table: str
) -> None:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    c.cursor().executemany(f"INSERT INTO {table} VALUES (?, ?)", [(i, "a") for i in range(50)])
    assert not c.in_transaction
    c.close()
    c2 = driver.connect(**connect_kwargs, database=dbname)
    assert c2.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (50,)
    c2.close()


# --- the server's batched INSERT path (Session._batch_inserts) --------------------------------


def _batched(server: Any) -> int:
    return int(server.batched_groups)


def test_batched_inserts_store_exactly_what_single_rows_store(
    conn: ifxwire.Connection, server: Any
) -> None:
    conn.execute(
        "CREATE TABLE em_mix (i INT, s SMALLINT, b BIGINT, f FLOAT, v VARCHAR(40), c CHAR(6))"
    )
    rows = [
        (
            i,
            None if i % 7 == 0 else i % 30000 - 15000,
            i * 10**12,
            None if i % 11 == 0 else i / 3,
            f"é{i}" * (i % 5),
            "x" * (i % 7),
        )
        for i in range(3000)
    ]
    before = _batched(server)
    cur = conn.cursor()
    cur.executemany("INSERT INTO em_mix VALUES (?, ?, ?, ?, ?, ?)", rows)
    assert cur.rowcount == len(rows)
    assert _batched(server) - before > 2000  # most rows went through the batch path
    got = cur.execute("SELECT i, s, b, f, v, c FROM em_mix ORDER BY i").fetchall()
    assert got == rows  # CHAR padding is stripped on read (keep_char_padding=False)
    conn.rollback()


# (4,000 rows: between rows 1500 and 3999 there is room for a whole batch of up to
# MAX_IN_FLIGHT = 1,024 groups, wherever the server's batches start)
@pytest.mark.parametrize("bad", [[700], [3, 1500, 3999]])
def test_a_failing_row_inside_a_batch_is_reported_exactly(
    conn: ifxwire.Connection, table: str, server: Any, bad: list[int]
) -> None:
    cur = conn.cursor()
    cur.execute(f"INSERT INTO {table} VALUES (-1, 'dup')")  # takes the write lock: batchable
    before = _batched(server)
    rows = [(-1 if i in bad else i, f"v{i}") for i in range(4000)]
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", rows)
    assert [i for i, _ in info.value.errors] == bad  # type: ignore[attr-defined]
    assert cur.rowcount == 4000 - len(bad)
    assert _batched(server) > before  # the chunks without a bad row were batched
    got = cur.execute(f"SELECT id FROM {table} WHERE id >= 0 ORDER BY id").fetchall()
    assert [r[0] for r in got] == [i for i in range(4000) if i not in bad]
    conn.commit()


def test_a_value_the_column_refuses_is_reported_at_its_row(
    conn: ifxwire.Connection, server: Any
) -> None:
    conn.execute("CREATE TABLE em_small (a SMALLINT)")
    cur = conn.cursor()
    cur.execute("INSERT INTO em_small VALUES (0)")
    rows = [(70000 if i == 321 else i,) for i in range(1000)]
    with pytest.raises(ifxwire.DataError) as info:
        cur.executemany("INSERT INTO em_small VALUES (?)", rows)
    assert info.value.row_index == 321  # type: ignore[attr-defined]
    assert cur.rowcount == 999
    assert cur.execute("SELECT COUNT(*) FROM em_small").fetchone() == (1000,)
    conn.rollback()


def test_date_and_decimal_rows_are_batched_and_stored_as_single_rows_store(
    conn: ifxwire.Connection, server: Any
) -> None:
    """DATE and DECIMAL/MONEY items used to make every row take the single-row path (~15
    times the server's CPU per row: adbc_ingest's wall, issue 25). Now batched, with the
    values the single-row path stores: NULLs, the DATE range's ends, negative and zero
    decimals, more fraction digits than the scale (rounded by the column, as one row is)."""
    conn.execute("CREATE TABLE em_dd (i INT, d DATE, x DECIMAL(12,2), m MONEY(12,3),"
                 " f DECIMAL(16))")
    conn.execute("CREATE TABLE em_dd1 (i INT, d DATE, x DECIMAL(12,2), m MONEY(12,3),"
                 " f DECIMAL(16))")
    days = [dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1899, 12, 31), dt.date(2026, 2, 28)]
    decs = [Decimal("0"), Decimal("-0.01"), Decimal("1234567890.12"), Decimal("-99.995"),
            Decimal("0.5"), Decimal("1E+3"), Decimal("-123456.78")]
    rows = [(i, None if i % 9 == 0 else days[i % 4] + dt.timedelta(days=i % 100 * (i % 4 > 1)),
             None if i % 13 == 0 else decs[i % 7], decs[(i + 1) % 7] / 10,
             None if i % 5 == 0 else Decimal(i).scaleb(-(i % 6))) for i in range(3000)]
    before = _batched(server)
    cur = conn.cursor()
    cur.executemany("INSERT INTO em_dd VALUES (?, ?, ?, ?, ?)", rows)
    assert _batched(server) - before > 2000  # most rows went through the batch path
    one = conn.cursor()
    for row in rows[:300]:  # the same rows one by one: the single-row path's values
        one.execute("INSERT INTO em_dd1 VALUES (?, ?, ?, ?, ?)", row)
    got = cur.execute("SELECT * FROM em_dd ORDER BY i").fetchall()
    assert got[:300] == cur.execute("SELECT * FROM em_dd1 ORDER BY i").fetchall()
    assert [r[:2] for r in got] == [r[:2] for r in rows]
    assert [r[2] for r in got] == [None if x is None else x.quantize(Decimal("0.01"))
                                   for _, _, x, _, _ in rows]
    conn.rollback()


def test_a_decimal_the_column_refuses_is_reported_at_its_row(
    conn: ifxwire.Connection, server: Any
) -> None:
    conn.execute("CREATE TABLE em_dec (a DECIMAL(5,2), d DATE)")
    cur = conn.cursor()
    cur.execute("INSERT INTO em_dec VALUES (0, TODAY)")
    before = _batched(server)
    # (3,000 rows: a whole batch of up to MAX_IN_FLIGHT = 1,024 groups after the bad one's)
    rows = [(Decimal("12345.6") if i == 777 else Decimal(i % 999), dt.date(2000, 1, 1))
            for i in range(3000)]
    with pytest.raises(ifxwire.DataError) as info:
        cur.executemany("INSERT INTO em_dec VALUES (?, ?)", rows)
    assert info.value.row_index == 777  # type: ignore[attr-defined]
    assert cur.rowcount == 2999
    assert _batched(server) > before
    assert cur.execute("SELECT COUNT(*) FROM em_dec").fetchone() == (3000,)
    conn.rollback()


def test_no_batch_in_autocommit_or_for_per_execution_values(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    with driver.connect(**connect_kwargs, database=dbname, autocommit=True) as auto:
        auto.execute("CREATE TABLE em_auto (a INT, t DATETIME YEAR TO FRACTION(5))")
        before = _batched(server)
        auto.cursor().executemany("INSERT INTO em_auto (a) VALUES (?)", [(i,) for i in range(500)])
        assert _batched(server) == before  # every row commits on its own
        auto.autocommit = False
        cur = auto.cursor()
        cur.execute("INSERT INTO em_auto (a) VALUES (-1)")
        cur.executemany(
            "INSERT INTO em_auto VALUES (?, CURRENT YEAR TO FRACTION(5))",
            [(i,) for i in range(500)],
        )
        assert _batched(server) == before  # CURRENT is read per execution
        auto.rollback()


@pytest.mark.one_driver  # patches the sync pipeline's internals
def test_each_reply_is_tried_once_by_the_fast_path(
    conn: ifxwire.Connection, table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reply the fast path did not take goes to the Reply parser without a second look in
    the same buffer: every read_one follows exactly one fast-path call that found nothing
    in a buffer holding bytes (with the buffer empty the pipeline receives instead: see
    test_a_wait_for_replies_parses_no_reply). Failing rows (their replies carry SQ_ERR)
    make the Reply path run."""
    from ifxwire.client.batch import Pipeline, PipelineState

    events: list[str] = []

    def fast(self: Any, c: Any, limit: int) -> int:
        t = c._transport
        empty = t.start == t.end
        n = PipelineState._read_fast(self, c, limit)
        events.append("fast" if n else "empty" if empty else "miss")
        return n

    def read_one(self: Any) -> Generator[Any, Any, None]:
        events.append("slow")
        yield from original(self)

    original = Pipeline.read_one
    monkeypatch.setattr(Pipeline, "_read_fast", fast)
    monkeypatch.setattr(Pipeline, "read_one", read_one)
    cur = conn.cursor()
    cur.execute(f"INSERT INTO {table} VALUES (-1, 'dup')")
    rows = [(-1 if i % 97 == 0 else i, "x") for i in range(3000)]
    with pytest.raises(ifxwire.IntegrityError):
        cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", rows)
    assert cur.rowcount == 3000 - len(range(0, 3000, 97))
    assert events.count("slow") >= len(range(0, 3000, 97))
    assert events.count("fast") > 0
    slow_after = [events[i - 1] for i, e in enumerate(events) if e == "slow"]
    assert slow_after == ["miss"] * len(slow_after)
    assert events.count("miss") == events.count("slow")
    conn.rollback()


@pytest.mark.one_driver  # patches the sync pipeline's internals (the asyncio one is the same)
def test_a_wait_for_replies_parses_no_reply(
    conn: ifxwire.Connection, table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the pipeline must wait for replies and its receive buffer is empty, it receives
    and lets the fast path read what arrived: no row reply goes through the Reply parser
    (``read_one``) in a batch without errors, only the implicit BEGIN's. Before, each wait
    parsed one row reply there (~600 bytecodes a wait, 2-5 waits per 1,000 rows: issue
    24's 3 % check). The first wait is certain: the second chunk goes out before any
    reply was received."""
    from ifxwire.client.batch import Pipeline

    calls: list[str] = []
    original = Pipeline.read_one

    def read_one(self: Any) -> Generator[Any, Any, None]:
        calls.append("row" if type(self.expect[0]) is list else "marker")
        yield from original(self)

    monkeypatch.setattr(Pipeline, "read_one", read_one)
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {table} VALUES (?, ?)", [(i, "x") for i in range(3000)])
    assert cur.rowcount == 3000
    assert calls == ["marker"]  # the implicit BEGIN's reply; no row's
    cur.execute(f"SELECT COUNT(*) FROM {table}")
    assert cur.fetchone() == (3000,)
    conn.rollback()


def test_date_binds_store_the_same_day_numbers_batched_as_one_by_one(
    conn: ifxwire.Connection, server: Any
) -> None:
    """A DATE bind into a DATE column is decoded straight to its day number on the batch path
    (server/bindrun.py, arrow9b). The stored numbers (``d - MDY(12, 31, 1899)``) must be the
    single-row path's at the range's ends, around the epoch and for NULL. The same DATE bound
    into CHAR and DATETIME columns still goes in as a date (its text, its fields)."""
    conn.execute("CREATE TABLE em_days (i INT, d DATE, c CHAR(12), t DATETIME YEAR TO DAY)")
    conn.execute("CREATE TABLE em_days1 (i INT, d DATE, c CHAR(12), t DATETIME YEAR TO DAY)")
    ends = [dt.date(1, 1, 1), dt.date(1899, 12, 31), dt.date(1900, 1, 1), dt.date(9999, 12, 31),
            None]
    rows = [(i, ends[i % 5], ends[(i + 1) % 5], ends[(i + 2) % 5]) for i in range(1000)]
    before = _batched(server)
    cur = conn.cursor()
    cur.executemany("INSERT INTO em_days VALUES (?, ?, ?, ?)", rows)
    assert _batched(server) - before > 900  # the batch path, not the single-row one
    one = conn.cursor()
    for row in rows[:10]:
        one.execute("INSERT INTO em_days1 VALUES (?, ?, ?, ?)", row)
    query = "SELECT i, d - MDY(12, 31, 1899), d, c, t FROM {} WHERE i < 10 ORDER BY i"
    got = cur.execute(query.format("em_days")).fetchall()
    assert got == cur.execute(query.format("em_days1")).fetchall()
    numbers = [-693594, 0, 1, 2958464, None]
    assert [r[1] for r in got] == [numbers[i % 5] for i in range(10)]
    assert [r[2] for r in got] == [ends[i % 5] for i in range(10)]
    everything = cur.execute("SELECT i, d FROM em_days ORDER BY i").fetchall()
    assert everything == [r[:2] for r in rows]
    conn.rollback()
