"""Arrow fetch (issue 25): fetch_arrow_table, fetch_record_batch, __arrow_c_stream__, fetch_df.

Every check compares with what ``fetchall`` returns for the same query on the real server, so
the Arrow path can only be as right as the row path. Both Arrow paths are covered: results of
fixed-width numeric columns only (the columnar path, ifxwire/arrowcols.py) and everything else
(rows decoded per fetch reply, then converted column by column). The suite runs pure and
accelerated (``IFXWIRE_PURE``) like the rest.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sys
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire import arrow as ifx_arrow
from ifxwire.types.values import DateTimeFields, IntervalYM

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI
pytestmark = pytest.mark.both_drivers  # sync and asyncio (tests/integration/_aio_facade.py)

NUMERIC_ROWS = 8_000  # several fetch replies (64 KiB each) of 34-byte tuples


def _expected(t: Any, v: Any) -> Any:
    """A fetchall value as the Arrow column of type ``t`` gives it back in to_pylist()."""
    if v is None:
        return None
    if pa.types.is_struct(t):
        return {f.name: _expected(f.type, x) for f, x in zip(t, v, strict=True)}
    if pa.types.is_list(t):
        return [_expected(t.value_type, x) for x in v]
    if isinstance(v, IntervalYM):
        return (v.months, 0, 0)
    if isinstance(v, DateTimeFields):
        return ifx_arrow._fields_text(v)
    if isinstance(v, Decimal) and pa.types.is_floating(t):
        return float(v)
    if isinstance(v, Decimal) and pa.types.is_string(t):
        return str(v)
    return v


def _normal(t: Any, v: Any) -> Any:
    """to_pylist() values made comparable (MonthDayNano as a plain tuple, SET order)."""
    if v is None:
        return None
    if pa.types.is_interval(t):
        return (v.months, v.days, v.nanoseconds)
    if pa.types.is_struct(t):
        return {f.name: _normal(f.type, v[f.name]) for f in t}
    if pa.types.is_list(t):
        return [_normal(t.value_type, x) for x in v]
    return v


def _check_same(conn: ifxwire.Connection, sql: str) -> Any:
    """fetch_arrow_table equals fetchall, column for column; returns the table."""
    cur = conn.cursor()
    cur.execute(sql)
    rows = cur.fetchall()
    cur.execute(sql)
    table = cur.fetch_arrow_table()
    assert cur.rowcount == len(rows) == table.num_rows
    assert table.column_names == [d[0] for d in cur.description or ()]
    for i, field in enumerate(table.schema):
        got = [_normal(field.type, v) for v in table.column(i).to_pylist()]
        want = [_expected(field.type, r[i]) for r in rows]
        if "set(" in field.metadata[ifx_arrow.METADATA_KEY].decode().lower():
            got = [None if g is None else sorted(g, key=repr) for g in got]
            want = [None if w is None else sorted(w, key=repr) for w in want]
        assert got == want, field.name
    return table


def _types(table: Any) -> dict[str, tuple[str, str]]:
    return {f.name: (str(f.type), f.metadata[ifx_arrow.METADATA_KEY].decode())
            for f in table.schema}


def spy_columnar(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The row counts of the batches the columnar paths make (strided gather, tuple runs)."""
    from ifxwire import arrowcols, arrowtuples

    runs: list[int] = []
    for mod, name in ((arrowcols, "run_batch"), (arrowtuples, "run_batch"),
                      (arrowtuples, "columns_batch"), (arrowtuples, "column_batch")):
        real = getattr(mod, name)

        def spy(*args: Any, _real: Any = real) -> Any:
            batch = _real(*args)
            runs.append(batch.num_rows)
            return batch

        monkeypatch.setattr(mod, name, spy)
    return runs


# ------------------------------------------------------------------------------------------
# Types
# ------------------------------------------------------------------------------------------


def test_scalar_type_matrix_with_boundaries_and_nulls(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(
        "CREATE TEMP TABLE am (k SERIAL, a SMALLINT, b INTEGER, c BIGINT, d INT8, e FLOAT, "
        "f SMALLFLOAT, g DECIMAL(10,2), h MONEY(8,2), i DECIMAL(10), j DECIMAL(20), "
        "l CHAR(5), m VARCHAR(20), n NCHAR(4), o NVARCHAR(9), p LVARCHAR(200), q BOOLEAN, "
        "r DATE, s DECIMAL(32,6))")
    values = [
        (-32767, -2**31 + 1, -2**63 + 1, -2**63 + 1, -1e300, -3.4e38,
         Decimal("-99999999.99"), Decimal("-999999.99"), Decimal("-1.5e-100"),
         Decimal("-12345678901234567890"), "a", "", "ü", "x", "l" * 200, False,
         dt.date(1, 1, 1), Decimal("-" + "9" * 26 + ".999999")),
        (32767, 2**31 - 1, 2**63 - 1, 2**63 - 1, 1e300, 3.4e38, Decimal("99999999.99"),
         Decimal("999999.99"), Decimal("1.25"), Decimal("1e120"), "abcde", "v" * 20, "ñ",
         "nvarchar", "", True, dt.date(9999, 12, 31), Decimal("0.000001")),
        (None,) * 18,
    ]
    cur.executemany("INSERT INTO am (a,b,c,d,e,f,g,h,i,j,l,m,n,o,p,q,r,s) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", values)
    table = _check_same(conn, "SELECT * FROM am ORDER BY k")
    types = _types(table)
    assert types["k"] == ("int32", "serial")
    assert types["a"] == ("int16", "smallint")
    assert types["c"] == ("int64", "bigint") and types["d"] == ("int64", "int8")
    assert types["e"] == ("double", "float") and types["f"] == ("float", "smallfloat")
    assert types["g"] == ("decimal128(10, 2)", "decimal(10,2)")
    assert types["h"] == ("decimal128(8, 2)", "money(8,2)")
    assert types["s"] == ("decimal128(32, 6)", "decimal(32,6)")
    # Floating DECIMAL(p): float64 up to 15 digits, the exact text beyond (docs/ARROW.md).
    assert types["i"] == ("double", "decimal(10)") and types["j"] == ("string", "decimal(20)")
    assert types["l"] == ("string", "char(5)") and types["p"][0] == "string"
    assert types["q"] == ("bool", "boolean") and types["r"] == ("date32[day]", "date")
    assert not table.schema.field("k").nullable and table.schema.field("a").nullable
    assert table.column("l").to_pylist()[0] == cur.execute(
        "SELECT l FROM am ORDER BY k").fetchone()[0]  # CHAR padding as fetchall gives it


DATETIMES = [
    ("year to year", "string", None), ("year to month", "string", None),
    ("year to day", "date32[day]", None), ("year to hour", "timestamp[s]", None),
    ("year to minute", "timestamp[s]", None), ("year to second", "timestamp[s]", None),
    ("year to fraction(1)", "timestamp[ms]", None), ("year to fraction(3)", "timestamp[ms]", None),
    ("year to fraction(5)", "timestamp[us]", None), ("month to day", "string", None),
    ("day to hour", "string", None), ("hour to hour", "time64[us]", None),
    ("hour to second", "time64[us]", None), ("minute to fraction(2)", "time64[us]", None),
    ("second to fraction(5)", "time64[us]", None),
]  # FRACTION TO FRACTION: the embedded server refuses it (-201), so it is not tested here
INTERVALS = [
    ("year to year", "month_day_nano_interval"), ("year(4) to month", "month_day_nano_interval"),
    ("month(5) to month", "month_day_nano_interval"), ("day to day", "duration[us]"),
    ("day(5) to second", "duration[us]"), ("hour to minute", "duration[us]"),
    ("minute to fraction(3)", "duration[us]"), ("second(6) to fraction(5)", "duration[us]"),
]


def test_every_datetime_and_interval_qualifier(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    dcols = [f"d{i} DATETIME {q}" for i, (q, _, _) in enumerate(DATETIMES)]
    icols = [f"i{i} INTERVAL {q}" for i, (q, _) in enumerate(INTERVALS)]
    cur.execute(f"CREATE TEMP TABLE aq (k INTEGER, {', '.join(dcols + icols)})")
    names = [c.split()[0] for c in dcols + icols]
    cur.execute(f"INSERT INTO aq (k, {', '.join(names)}) SELECT 1, "
                + ", ".join(["CURRENT"] * len(dcols) + ["NULL"] * len(icols))
                + " FROM systables WHERE tabid = 1")
    cur.execute("INSERT INTO aq (k) VALUES (2)")
    ivals = [IntervalYM(-123), IntervalYM(1234 * 12 + 5), IntervalYM(99999),
             dt.timedelta(days=-7), dt.timedelta(days=99999, seconds=86399),
             dt.timedelta(hours=23, minutes=59), dt.timedelta(minutes=-5, microseconds=123000),
             dt.timedelta(seconds=999999, microseconds=12340)]
    marks = ", ".join("?" * len(icols))
    cur.execute(f"INSERT INTO aq (k, {', '.join(n for n in names if n[0] == 'i')}) "
                f"VALUES (3, {marks})", ivals)
    table = _check_same(conn, "SELECT * FROM aq ORDER BY k")
    types = _types(table)
    for i, (q, arrow_type, _) in enumerate(DATETIMES):
        assert types[f"d{i}"][0].startswith(arrow_type), q
        assert types[f"d{i}"][1] == f"datetime {q}"
    for i, (q, arrow_type) in enumerate(INTERVALS):
        assert types[f"i{i}"][0] == arrow_type, q


def test_byte_text_and_composites(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE ac (k INTEGER, b BYTE, t TEXT, r ROW(x INT, y VARCHAR(9), "
                "z DATE), s SET(INT NOT NULL), m MULTISET(VARCHAR(5) NOT NULL), "
                "l LIST(DECIMAL(6,2) NOT NULL), n LIST(ROW(a INT, b LIST(SMALLINT NOT NULL)) "
                "NOT NULL))")
    cur.execute("INSERT INTO ac VALUES (1, ?, ?, ROW(7, 'seven', '2024-02-29'), SET{3, 1, 2}, "
                "MULTISET{'a', 'a', 'b'}, LIST{1.25, -3.5}, "
                "LIST{ROW(1, LIST{1, 2}), ROW(2, LIST{})})", (b"\x00\xffbytes", "text é"))
    cur.execute("INSERT INTO ac (k) VALUES (2)")
    table = _check_same(conn, "SELECT * FROM ac ORDER BY k")
    types = _types(table)
    assert types["b"][0] == "large_binary" and types["t"][0] == "large_string"
    assert types["r"][0] == "struct<x: int32, y: string, z: date32[day]>"
    assert types["s"][0] == "list<item: int32 not null>"
    assert types["l"][0] == "list<item: decimal128(6, 2) not null>"
    assert types["n"][0].startswith("list<item: struct<a: int32, b: list<item: int16")
    assert table.column("s").to_pylist()[0] is not None


def test_numeric_columnar_path_equals_fetchall(
    conn: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = spy_columnar(monkeypatch)
    conn.autocommit = True  # the server's executemany of these rows is ~10x slower in a txn
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE an (k SERIAL, a SMALLINT, b INTEGER, c BIGINT, d FLOAT, "
                "e SMALLFLOAT, f DATE)")
    base = dt.date(1900, 1, 1)
    rows = [(i % 100 - 50 if i % 7 else None, i if i % 5 else None,
             i * 10**12 if i % 3 else None, i / 3 if i % 11 else None,
             i / 4 if i % 13 else None, base + dt.timedelta(days=i) if i % 17 else None)
            for i in range(NUMERIC_ROWS)]
    rows.append((-32767, -2**31 + 1, -2**63 + 1, -1e300, -3.4e38, dt.date(1, 1, 1)))
    rows.append((32767, 2**31 - 1, 2**63 - 1, 1e300, 3.4e38, dt.date(9999, 12, 31)))
    rows.append((0, 0, 0, -0.0, 0.0, dt.date(1899, 12, 31)))
    cur.executemany("INSERT INTO an (a,b,c,d,e,f) VALUES (?,?,?,?,?,?)", rows)
    table = _check_same(conn, "SELECT * FROM an ORDER BY k")
    assert _types(table)["f"] == ("date32[day]", "date")
    # The columnar path took the later replies (the first comes with OPEN, decoded as rows).
    assert len(runs) >= 1 and sum(runs) < len(rows)
    cur.execute("SELECT a, b FROM an ORDER BY k")
    assert cur.fetchone() is not None
    rest = cur.fetch_arrow_table()
    assert rest.num_rows == len(rows) - 1 and cur.rowcount == len(rows)
    # The row path is unaffected afterwards (the raw decoder is set only around Arrow fetches).
    cur.execute("SELECT a, b FROM an ORDER BY k")
    assert len(cur.fetchall()) == len(rows)


def test_fixed_layout_with_decoded_columns_equals_fetchall(
    conn: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CHAR, DECIMAL, MONEY, INT8, DATETIME, INTERVAL in a fixed layout: columnar gathering for
    the integers, per-value decoding at fixed offsets for the rest (arrowcols "decode")."""
    runs = spy_columnar(monkeypatch)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE af (k SERIAL, a INT8, b DECIMAL(10,2), c MONEY(8,2), "
                "d CHAR(5), e DATETIME YEAR TO SECOND, f INTERVAL DAY TO SECOND, g DECIMAL(10), "
                "h DATETIME HOUR TO FRACTION(3), i NCHAR(3))")
    base = dt.datetime(2000, 1, 1)
    rows: list[tuple[Any, ...]] = [
        (i * 10**10, Decimal(i) / 100, Decimal(-i) / 4, f"c{i % 999}",
         base + dt.timedelta(seconds=i * 977), dt.timedelta(seconds=i * 13),
         Decimal(i) / 8, dt.time(i % 24, i % 60, i % 60, (i % 1000) * 1000), "n")
        if i % 9 else (None,) * 9 for i in range(3000)]
    rows.append((-(2**63) + 1, Decimal("-99999999.99"), Decimal("999999.99"), "abcde",
                 dt.datetime(1, 1, 1), -dt.timedelta(days=99, seconds=86399), Decimal("1e-30"),
                 dt.time(23, 59, 59, 999000), "ñ"))
    cur.executemany("INSERT INTO af (a,b,c,d,e,f,g,h,i) VALUES (?,?,?,?,?,?,?,?,?)", rows)
    table = _check_same(conn, "SELECT * FROM af ORDER BY k")
    assert runs and sum(runs) < len(rows)
    assert _types(table)["b"] == ("decimal128(10, 2)", "decimal(10,2)")


# ------------------------------------------------------------------------------------------
# Streaming and the interfaces other libraries use
# ------------------------------------------------------------------------------------------


@pytest.fixture()
def big(conn: ifxwire.Connection) -> int:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE ab (k INTEGER, v VARCHAR(30), f FLOAT)")
    cur.executemany("INSERT INTO ab VALUES (?, ?, ?)",
                    [(i, f"row {i}", i / 2) for i in range(NUMERIC_ROWS)])
    return NUMERIC_ROWS


def test_record_batch_reader_streams_in_bounded_batches(
    conn: ifxwire.Connection, big: int
) -> None:
    cur = conn.cursor()
    for sql in ("SELECT k, f FROM ab ORDER BY k", "SELECT * FROM ab ORDER BY k"):
        cur.execute(sql)
        reader = cur.fetch_record_batch(rows_per_batch=1000)
        assert isinstance(reader, pa.RecordBatchReader)
        sizes = []
        first = None
        for batch in reader:
            sizes.append(batch.num_rows)
            first = batch if first is None else first
            # Streaming: the cursor holds one fetch reply, never the whole result.
            assert cur.batch_size < big
        assert sum(sizes) == big and max(sizes) <= 1000 and len(sizes) >= big // 1000
        assert first is not None and first.column(0).to_pylist()[:3] == [0, 1, 2]
        assert cur.rowcount == big
        # Without a size: one batch per fetch reply, so several for a large result.
        cur.execute(sql)
        assert len(list(cur.fetch_record_batch())) > 1


def test_arrow_fetch_ignores_the_row_factory(conn: ifxwire.Connection, big: int) -> None:
    """A cursor whose rows are dicts: Arrow reads the decoded tuples under them, in the row
    path (VARCHAR) and the columnar one (fixed-width), the first reply and the later ones."""
    from ifxwire.rows import dict_row

    for sql in ("SELECT * FROM ab ORDER BY k", "SELECT k, f FROM ab ORDER BY k"):
        plain = conn.cursor()
        plain.execute(sql)
        want = plain.fetch_arrow_table()
        cur = conn.cursor(row_factory=dict_row)
        cur.execute(sql)
        first = cur.fetchone()
        assert isinstance(first, dict) and first["k"] == 0
        rest = cur.fetch_arrow_table()
        assert rest.num_rows == big - 1 and rest.equals(want.slice(1))


@pytest.mark.one_driver  # sync only (see _aio_facade.py)
def test_arrow_c_stream_from_stream_polars_duckdb(conn: ifxwire.Connection, big: int) -> None:
    cur = conn.cursor()
    cur.execute("SELECT k, v, f FROM ab ORDER BY k")
    table = pa.RecordBatchReader.from_stream(cur).read_all()
    assert table.num_rows == big and table.column("v")[5].as_py() == "row 5"

    polars = pytest.importorskip("polars")  # in the [test] extra: never skipped in CI
    cur.execute("SELECT k, v, f FROM ab ORDER BY k")
    df = polars.from_arrow(cur.fetch_arrow_table())
    assert df.height == big and df["f"].sum() == sum(i / 2 for i in range(big))
    cur.execute("SELECT k, v, f FROM ab ORDER BY k")
    df = polars.DataFrame(cur)  # via __arrow_c_stream__
    assert df.height == big and df["k"].to_list()[-1] == big - 1

    # polars.read_database takes the connection itself (it reads it through the DB-API rows,
    # not Arrow: polars only knows the Arrow methods of drivers it recognises by module).
    got = polars.read_database("SELECT k, v, f FROM ab ORDER BY k", connection=conn)
    assert got.rows() == conn.cursor().execute("SELECT k, v, f FROM ab ORDER BY k").fetchall()

    duckdb = pytest.importorskip("duckdb")  # in the [test] extra: never skipped in CI
    cur.execute("SELECT k, v, f FROM ab ORDER BY k")
    db = duckdb.connect()
    db.register("ifx", cur.fetch_record_batch())
    got = db.sql("SELECT count(*), sum(k), max(v) FROM ifx").fetchall()[0]
    assert got == (big, sum(range(big)), max(f"row {i}" for i in range(big)))


def test_fetch_df_matches_fetchall(conn: ifxwire.Connection) -> None:
    pd = pytest.importorskip("pandas")
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE ad (a INTEGER, b DECIMAL(8,3), c VARCHAR(5), d DATE)")
    rows = [(1, Decimal("1.500"), "x", dt.date(2024, 2, 29)), (None, None, None, None)]
    cur.executemany("INSERT INTO ad VALUES (?, ?, ?, ?)", rows)
    cur.execute("SELECT * FROM ad ORDER BY a")
    df = cur.fetch_df(types_mapper=pd.ArrowDtype)
    got = [tuple(None if pd.isna(v) else v for v in r) for r in df.itertuples(index=False)]
    assert sorted(got, key=repr) == sorted(rows, key=repr)
    assert str(df.dtypes["b"]) == "decimal128(8, 3)[pyarrow]"
    cur.execute("SELECT * FROM ad ORDER BY a")
    plain = cur.fetch_df()
    assert list(plain.columns) == ["a", "b", "c", "d"] and len(plain) == 2


def test_arguments_errors_and_missing_pyarrow(
    conn: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.ProgrammingError):
        cur.fetch_arrow_table()  # no result yet
    cur.execute("SELECT tabid FROM systables WHERE tabid < 3")
    with pytest.raises(ifxwire.ProgrammingError):
        cur.fetch_record_batch(rows_per_batch=0)
    assert cur.fetch_arrow_table().column(0).to_pylist() == [1, 2]
    assert cur.fetch_arrow_table().num_rows == 0  # nothing remains: empty, same schema
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    cur.execute("SELECT tabid FROM systables WHERE tabid < 3")
    with pytest.raises(ImportError, match=r'pip install "ifxwire\[arrow\]"'):
        cur.fetch_arrow_table()
    assert cur.fetchall() == [(1,), (2,)]  # nothing was consumed


# ------------------------------------------------------------------------------------------
# asyncio
# ------------------------------------------------------------------------------------------


def test_aio_arrow_fetches(connect_kwargs: dict[str, Any], dbname: str) -> None:
    async def go() -> None:
        async with await aio.connect(**connect_kwargs, database=dbname) as c:
            cur = c.cursor()
            await cur.execute("CREATE TEMP TABLE aa (k INTEGER, f FLOAT, v VARCHAR(9), t TEXT)")
            await cur.executemany("INSERT INTO aa (k, f, v) VALUES (?, ?, ?)",
                                  [(i, i / 4, str(i)) for i in range(NUMERIC_ROWS)])
            await cur.execute("INSERT INTO aa VALUES (-1, NULL, NULL, ?)", ("some text",))
            for sql in ("SELECT k, f FROM aa ORDER BY k", "SELECT * FROM aa ORDER BY k"):
                await cur.execute(sql)
                rows = await cur.fetchall()
                await cur.execute(sql)
                table = await cur.fetch_arrow_table()
                assert [tuple(r.values()) for r in table.to_pylist()] == rows
                assert cur.rowcount == len(rows)
                await cur.execute(sql)
                sizes = [b.num_rows async for b in cur.fetch_record_batches(rows_per_batch=999)]
                assert sum(sizes) == len(rows) and max(sizes) <= 999 and len(sizes) > 1
                await cur.execute(sql)
                df = await cur.fetch_df()
                assert len(df) == len(rows)

    asyncio.run(asyncio.wait_for(go(), 60))


# ------------------------------------------------------------------------------------------
# adbc_ingest
# ------------------------------------------------------------------------------------------


def test_adbc_ingest_modes_round_trip(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    data = pa.table({
        "i": pa.array([1, None, -(2**31) + 1], pa.int32()),
        "b": pa.array([2**62, 0, None], pa.int64()),
        "f": pa.array([1.5, None, -2.25], pa.float64()),
        "d": pa.array([Decimal("1.50"), None, Decimal("-9.99")], pa.decimal128(6, 2)),
        "s": pa.array(["x", "", None], pa.string()),
        "ok": pa.array([True, False, None], pa.bool_()),
        "day": pa.array([dt.date(2024, 2, 29), None, dt.date(1, 1, 1)], pa.date32()),
        "ts": pa.array([dt.datetime(2024, 1, 2, 3, 4, 5, 123000), None,
                        dt.datetime(1999, 12, 31)], pa.timestamp("ms")),
    })
    assert cur.adbc_ingest("ing", data) == 3
    cur.execute("SELECT * FROM ing")
    assert sorted(cur.fetchall(), key=repr) == sorted(
        [tuple(r.values()) for r in data.to_pylist()], key=repr)
    cur.execute("SELECT * FROM ing")
    back = cur.fetch_arrow_table()
    assert back.schema.field("d").type == pa.decimal128(6, 2)
    assert back.schema.field("ts").type == pa.timestamp("ms")
    with pytest.raises(ifxwire.ProgrammingError, match="already exists"):
        cur.adbc_ingest("ing", data, mode="create")
    assert cur.adbc_ingest("ing", data.to_reader(), mode="append") == 3
    assert cur.execute("SELECT count(*) FROM ing").fetchone() == (6,)
    assert cur.adbc_ingest("ing", data.slice(0, 1), mode="replace") == 1
    assert cur.execute("SELECT count(*) FROM ing").fetchone() == (1,)
    assert cur.adbc_ingest("ing", data, mode="create_append") == 3
    with pytest.raises(ifxwire.ProgrammingError, match="does not exist"):
        cur.adbc_ingest("nosuch", data, mode="append")
    with pytest.raises(ifxwire.ProgrammingError, match="mode"):
        cur.adbc_ingest("ing", data, mode="upsert")
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"k": [1, 2], "v": ["a", "b"]})
    assert cur.adbc_ingest("ing_pd", frame) == 2
    polars = pytest.importorskip("polars")
    assert cur.adbc_ingest("ing_pl", polars.DataFrame({"k": [3]})) == 1  # __arrow_c_stream__
    assert cur.execute("SELECT k FROM ing_pl").fetchall() == [(3,)]
