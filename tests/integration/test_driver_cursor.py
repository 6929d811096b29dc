"""Cursor behaviour: description, values, rowcount/lastrowid, fetch styles, streaming."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire.protocol.codes import TypeCode
from ifxwire.types.values import IntervalYM

# A row of this table is 56 bytes (+8 of SQ_TUPLE header): exactly 64 rows fill a 4096-byte
# fetch reply, so 63/64/65 straddle the first batch boundary.
ROW_TABLE = "fb (a INT, b CHAR(52))"
BATCH = 64

pytestmark = pytest.mark.both_drivers


@pytest.fixture(scope="module")
def filled(connect_kwargs: dict[str, Any], dbname: str) -> str:
    """Tables shared by the module: fb (20000 rows) and big (200000 rows)."""
    c = ifxwire.connect(**connect_kwargs, database=dbname)
    cur = c.cursor()
    cur.execute(f"CREATE TABLE {ROW_TABLE}")
    cur.executemany("INSERT INTO fb VALUES (?, ?)", ((i, f"r{i}") for i in range(20000)))
    cur.execute("CREATE TABLE ten (i INT)")
    cur.executemany("INSERT INTO ten VALUES (?)", [(i,) for i in range(10)])
    cur.execute("CREATE TABLE big (a INT, b INT)")
    cur.execute("INSERT INTO big SELECT f.a + t.i * 20000, t.i FROM fb f, ten t")
    assert cur.rowcount == 200000
    c.commit()
    c.close()
    return dbname


@pytest.fixture()
def small(driver: Any, connect_kwargs: dict[str, Any], filled: str
          ) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=filled, fetch_buffer_size=4096)
    yield c
    c.close()


@pytest.mark.parametrize("n", [0, 1, 2, 63, 64, 65, 1000, 20000])
def test_fetch_styles_exact_counts(small: ifxwire.Connection, n: int) -> None:
    sql = "SELECT a, b FROM fb WHERE a < ? ORDER BY a"
    expected = [(i, f"r{i}") for i in range(n)]
    cur = small.cursor()
    cur.execute(sql, (n,))
    # -1 while rows are still on the server (PEP 249: "cannot be determined").
    assert cur.rowcount == (-1 if n >= BATCH else n)
    assert cur.fetchall() == expected
    assert cur.rowcount == n
    assert cur.fetchall() == []
    assert cur.fetchone() is None

    cur.execute(sql, (n,))
    got = []
    while (row := cur.fetchone()) is not None:
        got.append(row)
    assert got == expected

    for size in (1, 7, BATCH, BATCH + 1):
        cur.execute(sql, (n,))
        got = []
        while chunk := cur.fetchmany(size):
            assert len(chunk) <= size
            got += chunk
        assert got == expected

    cur.arraysize = 5
    cur.execute(sql, (n,))
    assert cur.fetchmany() == expected[:5]
    assert cur.fetchone() == (expected[5] if n > 5 else None)
    cur.execute(sql, (n,))
    assert list(cur) == expected
    # Mixed styles across a batch boundary.
    cur.execute(sql, (n,))
    mixed = cur.fetchmany(BATCH - 1)
    if (one := cur.fetchone()) is not None:
        mixed.append(one)
    mixed += cur.fetchall()
    assert mixed == expected


def test_iteration_mixes_with_fetch_calls_and_follows_the_cursor(
    small: ifxwire.Connection,
) -> None:
    """``for row in cursor`` (a generator, client/rowiter.py) shares the cursor's position with
    fetchone/fetchmany/scroll/rownumber across batch boundaries, and follows the cursor to a
    new result or to its closing instead of serving rows it no longer holds."""
    sql = "SELECT a, b FROM fb WHERE a < ? ORDER BY a"
    expected = [(i, f"r{i}") for i in range(300)]
    cur = small.cursor()
    cur.execute(sql, (300,))
    got = []
    for row in cur:
        got.append(row)
        assert cur.rownumber == len(got)
        if len(got) % 50 == 10:  # every few rows, crossing 64-row batches: other calls
            got += cur.fetchmany(BATCH - 3)
            if (one := cur.fetchone()) is not None:
                got.append(one)
            cur.scroll(2)
            got += expected[len(got) : len(got) + 2]
        elif len(got) % 50 == 30:  # inside a batch
            got.append(cur.fetchone())
    assert got == expected
    assert next(iter(cur), None) is None and next(cur, None) is None

    cur.execute(sql, (300,))
    it = iter(cur)
    assert [next(it) for _ in range(BATCH + 5)] == expected[: BATCH + 5]
    assert next(cur) == expected[BATCH + 5]  # __next__ and the generator agree
    cur.execute(sql + " DESC", (200,))  # a new result while the old iteration is alive
    assert next(it) == (199, "r199")
    assert list(it) == [(i, f"r{i}") for i in range(198, -1, -1)]

    cur.execute(sql, (300,))
    it = iter(cur)
    assert next(it) == expected[0]
    cur.close()
    with pytest.raises(ifxwire.InterfaceError, match="closed"):
        next(it)


def test_streaming_holds_one_batch(driver: Any, connect_kwargs: dict[str, Any],
                                   filled: str) -> None:
    c = driver.connect(**connect_kwargs, database=filled)
    cur = c.execute("SELECT a, b FROM big")
    count = 0
    biggest = 0
    total = 0
    for a, _b in cur:
        count += 1
        total += a
        if cur.batch_size > biggest:
            biggest = cur.batch_size
    assert count == 200000
    assert total == sum(range(200000))
    # 64 KiB per reply and 16 bytes per row on the wire: a batch is a few thousand rows.
    assert 0 < biggest <= 65536 // 16 + 1
    assert cur.rowcount == 200000
    c.close()


def test_description(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(
        "CREATE TABLE descr (id SERIAL NOT NULL, d DECIMAL(12,3), df DECIMAL(10), m MONEY(8,2),"
        " vc VARCHAR(30), c CHAR(5), lv LVARCHAR(2000), b BOOLEAN,"
        " ts DATETIME YEAR TO FRACTION(3), iv INTERVAL DAY(3) TO SECOND, i8 INT8, bi BIGINT,"
        " f FLOAT, dt DATE)"
    )
    cur.execute("SELECT * FROM descr")
    d = {col[0]: col for col in cur.description or ()}
    assert d["id"] == ("id", TypeCode.SERIAL, 11, 4, 10, 0, False)
    assert d["d"] == ("d", TypeCode.DECIMAL, 14, 8, 12, 3, True)
    assert d["df"][1:] == (TypeCode.DECIMAL, 16, 7, 10, None, True)
    assert d["m"][1] == TypeCode.MONEY and d["m"][4:6] == (8, 2)
    assert d["vc"] == ("vc", TypeCode.VARCHAR, 30, 30, None, None, True)
    assert d["c"] == ("c", TypeCode.CHAR, 5, 5, None, None, True)
    assert d["lv"][1] == TypeCode.LVARCHAR and d["lv"][3] == 2000
    assert d["b"][1] == TypeCode.BOOLEAN
    assert d["ts"] == ("ts", TypeCode.DATETIME, 23, 10, 17, 3, True)
    assert d["iv"][1] == TypeCode.INTERVAL and d["iv"][4:6] == (9, 0)
    assert d["i8"][1:5] == (TypeCode.INT8, 20, 10, 19)
    assert d["bi"][1:5] == (TypeCode.BIGINT, 20, 8, 19)
    assert d["f"][1] == TypeCode.FLOAT and d["dt"][1] == TypeCode.DATE
    assert d["vc"][1] == ifxwire.STRING and d["d"][1] == ifxwire.NUMBER
    assert d["ts"][1] == ifxwire.DATETIME and d["id"][1] == ifxwire.ROWID
    cur.execute("INSERT INTO descr (d) VALUES (1)")
    assert cur.description is None


def test_values_round_trip(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(
        "CREATE TABLE vals (si SMALLINT, i INT, bi BIGINT, i8 INT8, f FLOAT, sf SMALLFLOAT,"
        " d DECIMAL(12,3), m MONEY(8,2), dt DATE, ts DATETIME YEAR TO SECOND,"
        " tf DATETIME YEAR TO FRACTION(3), iv INTERVAL DAY(3) TO SECOND, c CHAR(5),"
        " vc VARCHAR(30), lv LVARCHAR(3000), b BOOLEAN)"
    )
    row = (
        -7, 2**31 - 1, -(2**63) + 1, 2**40, 1.25, 2.5, Decimal("-12.345"), Decimal("9.99"),
        dt.date(2024, 2, 29), dt.datetime(2024, 1, 2, 3, 4, 5),
        dt.datetime(2024, 1, 2, 3, 4, 5, 123000), dt.timedelta(days=3, seconds=5),
        "ab", "héllo", "x" * 2500, True,
    )  # fmt: skip
    marks = ", ".join("?" * len(row))
    cur.execute(f"INSERT INTO vals VALUES ({marks})", row)
    cur.execute(f"INSERT INTO vals VALUES ({marks})", (None,) * len(row))
    got = cur.execute("SELECT * FROM vals ORDER BY i").fetchall()
    assert got[0] == (None,) * len(row) or got[1] == (None,) * len(row)
    values = got[0] if got[0][0] is not None else got[1]
    assert values == row


def test_temporal_kinds(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(
        "CREATE TABLE temporal (hm DATETIME HOUR TO MINUTE, ym INTERVAL YEAR TO MONTH,"
        " ds INTERVAL DAY(5) TO FRACTION(3))"
    )
    row = (dt.time(12, 30), IntervalYM(-14), dt.timedelta(days=-2, microseconds=5000))
    cur.execute("INSERT INTO temporal VALUES (?, ?, ?)", row)
    assert cur.execute("SELECT hm, ym, ds FROM temporal").fetchone() == row


def test_char_padding(driver: Any, connect_kwargs: dict[str, Any], dbname: str) -> None:
    for keep, expected in ((False, "ab"), (True, "ab   ")):
        c = driver.connect(**connect_kwargs, database=dbname, keep_char_padding=keep)
        assert c.execute(
            "SELECT CAST('ab' AS CHAR(5)) FROM systables WHERE tabid = 1"
        ).fetchone() == (expected,)
        c.close()


def test_rowcount_and_lastrowid(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE ser (id SERIAL, v INT)")
    cur.execute("CREATE TABLE ser8 (id SERIAL8, v INT)")
    cur.execute("CREATE TABLE bser (id BIGSERIAL, v INT)")
    cur.execute("CREATE TABLE plain (v INT)")
    assert cur.rowcount in (-1, 0)
    for table in ("ser", "ser8", "bser"):
        cur.execute(f"INSERT INTO {table} (v) VALUES (?)", (1,))
        assert cur.rowcount == 1
        assert cur.lastrowid == 1
        cur.execute(f"INSERT INTO {table} (v) VALUES (?)", (2,))
        assert cur.lastrowid == 2
    cur.execute("INSERT INTO plain VALUES (5)")
    assert cur.lastrowid is None
    cur.executemany("INSERT INTO plain VALUES (?)", [(i,) for i in range(10)])
    assert cur.rowcount == 10
    cur.execute("UPDATE plain SET v = v + 1 WHERE v < ?", (5,))
    assert cur.rowcount == 5
    cur.execute("DELETE FROM plain")
    assert cur.rowcount == 11
    cur.execute("SELECT v FROM ser")
    # The whole result came in the first reply, so the count is already known.
    assert cur.rowcount == 2


def test_fetch_without_result_raises(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.ProgrammingError):
        cur.fetchone()
    cur.execute("CREATE TABLE nores (a INT)")
    for call in (cur.fetchone, cur.fetchall, cur.fetchmany):
        with pytest.raises(ifxwire.ProgrammingError):
            call()


def test_closed_cursor(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.close()
    cur.close()
    with pytest.raises(ifxwire.InterfaceError):
        cur.execute("SELECT 1 FROM systables")
    with pytest.raises(ifxwire.InterfaceError):
        cur.fetchone()
    with conn.cursor() as cur2:
        assert cur2.connection is conn
    assert cur2.closed


def test_two_cursors_on_one_statement(small: ifxwire.Connection) -> None:
    sql = "SELECT a FROM fb WHERE a < 300 ORDER BY a"
    c1 = small.execute(sql)
    c2 = small.execute(sql)  # the cached statement is busy: a second one is prepared
    got1, got2 = [], []
    for r1, r2 in zip(c1, c2, strict=True):
        got1.append(r1[0])
        got2.append(r2[0])
    assert got1 == got2 == list(range(300))


def test_abandoned_results_free_the_statement(small: ifxwire.Connection) -> None:
    sql = "SELECT a FROM fb ORDER BY a"
    for _ in range(20):
        cur = small.execute(sql)
        assert cur.fetchone() == (0,)
        cur.close()
    assert len(small.execute(sql).fetchall()) == 20000


def test_scroll_and_rownumber(small: ifxwire.Connection) -> None:
    cur = small.execute("SELECT a FROM fb WHERE a < 200 ORDER BY a")
    assert cur.rownumber == 0
    cur.scroll(70)
    assert cur.fetchone() == (70,)
    assert cur.rownumber == 71
    cur.scroll(100, mode="absolute")
    assert cur.fetchone() == (100,)
    with pytest.raises(ifxwire.NotSupportedError):
        cur.scroll(-1)
    with pytest.raises(IndexError):
        cur.scroll(1000)


def test_nextset_and_sizes(conn: ifxwire.Connection) -> None:
    cur = conn.execute("SELECT tabid FROM systables WHERE tabid = 1")
    cur.setinputsizes([10])
    cur.setoutputsize(10)
    cur.setoutputsize(10, 0)
    assert cur.nextset() is None


def test_callproc(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE FUNCTION addone(x INTEGER) RETURNING INTEGER; RETURN x + 1; END FUNCTION")
    assert cur.callproc("addone", (41,)) == (41,)
    assert cur.fetchall() == [(42,)]
    with pytest.raises(ifxwire.ProgrammingError):
        cur.callproc("x; DROP TABLE y", ())
