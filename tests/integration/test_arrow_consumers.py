"""The Arrow consumers issue 25 names, over the whole type matrix, against ``fetchall``.

test_arrow.py proves ``fetch_arrow_table`` equal to ``fetchall`` column for column over
every type; here every other way a user reaches the same rows is held to the same values:
``fetch_df`` (pandas, with and without ``types_mapper``), ``polars.from_arrow(cur)`` and
``duckdb.from_arrow(cur)`` as the issue spells them (both read the cursor's
``__arrow_c_stream__``), a DuckDB SQL query over the stream, ``polars.read_database(query,
connection=conn)``, and ``pyarrow.RecordBatchReader.from_stream(cur)``. Each consumer's
result is compared with the Arrow table of the same query, which test_arrow.py ties to
``fetchall``, and where the consumer hands back Python values, with ``fetchall`` itself.

The matrix: every scalar type with its boundaries and NULL, the SERIAL family (SERIAL8 and
BIGSERIAL too), DATETIME and INTERVAL qualifiers that map to each Arrow kind, BYTE, TEXT,
BLOB and CLOB, ROW and the three collections. The sync driver and the asyncio one
(``both_drivers``) for what has an asyncio spelling; the stream protocol is synchronous by
its nature (``__arrow_c_stream__`` is a plain call), so those consumers run on the sync
cursor only.
"""

from __future__ import annotations

import datetime as dt
import decimal
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

pa = pytest.importorskip("pyarrow")  # the [test] extra installs these: never skipped in CI
pd = pytest.importorskip("pandas")
polars = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

pytestmark = pytest.mark.both_drivers

SCALARS = (
    "k SERIAL, s8 SERIAL8, a SMALLINT, b INTEGER, c BIGINT, d INT8, e FLOAT, f SMALLFLOAT, "
    "g DECIMAL(10,2), h MONEY(8,2), i DECIMAL(10), l CHAR(5), m VARCHAR(20), n NCHAR(4), "
    "o NVARCHAR(9), p LVARCHAR(200), q BOOLEAN, r DATE, s DECIMAL(32,6), "
    "t1 DATETIME YEAR TO SECOND, t2 DATETIME YEAR TO FRACTION(3), t3 DATETIME YEAR TO DAY, "
    "t4 DATETIME HOUR TO SECOND, v1 INTERVAL DAY(5) TO SECOND, v2 INTERVAL YEAR(4) TO MONTH")
SCALAR_NAMES = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "l", "m", "n", "o", "p", "q", "r",
                "s", "t1", "t2", "t3", "t4", "v1", "v2")
SCALAR_ROWS = [
    (-32767, -2**31 + 1, -2**63 + 1, -2**63 + 1, -1e300, -3.4e38, Decimal("-99999999.99"),
     Decimal("-999999.99"), Decimal("-1.5e-100"), "a", "", "ü", "x", "l" * 200, False,
     dt.date(1, 1, 1), Decimal("-" + "9" * 26 + ".999999"),
     dt.datetime(1, 1, 1, 0, 0, 0), dt.datetime(2024, 2, 29, 23, 59, 59, 999000),
     dt.date(1999, 12, 31), dt.time(0, 0, 1), dt.timedelta(days=-99999, seconds=1),
     None),
    (32767, 2**31 - 1, 2**63 - 1, 2**63 - 1, 1e300, 3.4e38, Decimal("99999999.99"),
     Decimal("999999.99"), Decimal("1.25"), "abcde", "v" * 20, "ñ", "nvarchar", "", True,
     dt.date(9999, 12, 31), Decimal("0.000001"), dt.datetime(9999, 12, 31, 23, 59, 59),
     dt.datetime(1970, 1, 1, 0, 0, 0, 1000), dt.date(2000, 2, 29), dt.time(23, 59, 59),
     dt.timedelta(days=99999, seconds=86399), None),
    (None,) * 23,
]
QUERY = "SELECT * FROM cm ORDER BY k"


@pytest.fixture()
def matrix(conn: ifxwire.Connection) -> list[tuple[Any, ...]]:
    """The scalar matrix table ``cm``; returns what ``fetchall`` reads of it."""
    cur = conn.cursor()
    cur.execute(f"CREATE TEMP TABLE cm ({SCALARS})")
    marks = ", ".join("?" * len(SCALAR_NAMES))
    cur.executemany(f"INSERT INTO cm ({', '.join(SCALAR_NAMES)}) VALUES ({marks})", SCALAR_ROWS)
    # An INTERVAL YEAR TO MONTH through SQL (its Python value type is the driver's own)
    cur.execute("UPDATE cm SET v2 = INTERVAL(-123-4) YEAR(4) TO MONTH WHERE b = ?",
                (-2**31 + 1,))
    cur.execute("UPDATE cm SET v2 = INTERVAL(9999-11) YEAR(4) TO MONTH WHERE b = ?",
                (2**31 - 1,))
    cur.execute(QUERY)
    rows: list[tuple[Any, ...]] = cur.fetchall()
    assert len(rows) == 3
    return rows


def _plain(table: Any) -> Any:
    """A table without the field metadata (consumers drop or keep it as they like)."""
    return pa.table(table.columns, names=table.column_names)


def _arrow_of(conn: ifxwire.Connection, sql: str = QUERY) -> Any:
    cur = conn.cursor()
    cur.execute(sql)
    return cur.fetch_arrow_table()


def test_fetch_df_with_arrow_dtypes_holds_the_arrow_values(
    conn: ifxwire.Connection, matrix: list[tuple[Any, ...]]
) -> None:
    """``types_mapper=pd.ArrowDtype`` keeps every column an Arrow array: back to Arrow it is
    the very table ``fetch_arrow_table`` gives (docs/ARROW.md: the documented way to keep
    DECIMAL, nullable integers and the Informix qualifiers exact in pandas)."""
    want = _arrow_of(conn)
    cur = conn.cursor()
    cur.execute(QUERY)
    df = cur.fetch_df(types_mapper=pd.ArrowDtype)
    assert list(df.columns) == want.column_names and len(df) == len(matrix)
    back = pa.Table.from_pandas(df, preserve_index=False)
    assert _plain(back).equals(_plain(want))
    assert str(df.dtypes["g"]) == "decimal128(10, 2)[pyarrow]"
    assert str(df.dtypes["c"]) == "int64[pyarrow]"


def test_fetch_df_default_dtypes_hold_fetchalls_values(
    conn: ifxwire.Connection, matrix: list[tuple[Any, ...]]
) -> None:
    """Without ``types_mapper`` pandas picks its own dtypes (int64 with NULL becomes float64,
    timestamps become datetime64): each cell still says what ``fetchall`` says."""
    cur = conn.cursor()
    cur.execute(QUERY)
    df = cur.fetch_df()
    names = [d[0] for d in cur.description or ()]
    assert list(df.columns) == names
    for r, row in enumerate(matrix):
        for c, name in enumerate(names):
            got = df[name].iloc[r]
            want = row[c]
            if want is None:
                assert pd.isna(got), (name, r)
                continue
            if name == "v2":  # month_day_nano_interval: pandas keeps Arrow's triple
                assert (got.months, got.days, got.nanoseconds) == (want.months, 0, 0), name
            elif name in ("t1", "t2"):
                assert pd.Timestamp(want) == got, name
            elif name == "v1":
                assert pd.Timedelta(want) == got, name
            elif name in ("a", "b", "c", "d", "k", "s8") and isinstance(got, float):
                assert got == float(want), name  # a NULL in the column made it float64
            elif name == "i":
                assert got == float(want), name  # floating DECIMAL(10): float64
            else:
                assert got == want, (name, got, want)


#: The matrix without INTERVAL YEAR TO MONTH, for polars: polars 2 cannot import Arrow's
#: month_day_nano_interval ("could not import from `month_day_nano_interval` type", unless
#: its unstable POLARS_IMPORT_INTERVAL_AS_STRUCT is set; docs/ARROW.md).
POLARS_QUERY = ("SELECT k, s8, a, b, c, d, e, f, g, h, i, l, m, n, o, p, q, r, s, t1, t2, t3, "
                "t4, v1 FROM cm ORDER BY k")


@pytest.mark.one_driver  # the stream protocol is a plain call: sync cursors (module docstring)
def test_polars_and_duckdb_read_the_cursor_itself(
    conn: ifxwire.Connection, matrix: list[tuple[Any, ...]]
) -> None:
    want = _plain(_arrow_of(conn, POLARS_QUERY))
    cur = conn.cursor()
    cur.execute(POLARS_QUERY)
    got = polars.from_arrow(cur)  # the spelling: the cursor, not a table
    # polars reads any Arrow stream as one struct Series; unnested, it is the frame that
    # polars.DataFrame(cur) gives at once (test_arrow.py)
    frame = got.struct.unnest() if isinstance(got, polars.Series) else got
    assert frame.columns == want.column_names
    assert _plain(frame.to_arrow()).cast(want.schema).equals(want)

    want = _plain(_arrow_of(conn))
    cur.execute(QUERY)
    rel = duckdb.from_arrow(cur)  # the spelling
    table = rel.arrow()
    table = table.read_all() if hasattr(table, "read_all") else table
    # DuckDB has one INTERVAL type: the duration column (INTERVAL DAY TO SECOND) comes back
    # as month_day_nano_interval, the same span
    durations = want.column("v1").to_pylist()
    spans = [None if v is None else dt.timedelta(days=v.days, microseconds=v.nanoseconds // 1000)
             + dt.timedelta(days=30 * v.months) for v in table.column("v1").to_pylist()]
    assert spans == durations
    rest = [n for n in want.column_names if n != "v1"]
    assert _plain(table.select(rest)).cast(want.select(rest).schema).equals(want.select(rest))

    cur.execute(QUERY)
    stream = pa.RecordBatchReader.from_stream(cur)
    assert _plain(stream.read_all()).equals(want)


@pytest.mark.one_driver  # the stream protocol is a plain call: sync cursors (module docstring)
def test_a_duckdb_query_over_the_stream_equals_fetchall(
    conn: ifxwire.Connection, matrix: list[tuple[Any, ...]]
) -> None:
    """SQL in DuckDB over the cursor's stream: the rows DuckDB hands back are
    ``fetchall``'s (DuckDB's own Python types: DECIMAL as Decimal, the interval as its
    timedelta-like value, checked against the driver's by value)."""
    cur = conn.cursor()
    cur.execute(QUERY)
    db = duckdb.connect()
    db.register("ifx", cur)
    got = db.sql("SELECT k, s8, a, b, c, d, e, g, h, l, m, n, o, p, q, r, s, t1, t3 "
                 "FROM ifx ORDER BY k").fetchall()
    cols = [0, 1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21]
    want = [tuple(row[c] for c in cols) for row in matrix]
    assert got == want
    # the stream is the cursor's one result: a second query over it sees no rows left
    assert db.sql("SELECT count(*) FROM ifx").fetchall() == [(0,)]
    # the 128-bit DECIMAL(32,6) and the sums DuckDB makes over it, from a new execute
    cur.execute(QUERY)
    total = db.sql("SELECT sum(s), count(*), count(s) FROM ifx").fetchall()[0]
    with decimal.localcontext() as exact:
        exact.prec = 40  # Python's default 28 digits would round the 32-digit sum
        assert total == (sum(r[18] for r in matrix if r[18] is not None), 3, 2)


@pytest.mark.one_driver  # polars.read_database drives the DB-API itself: the sync driver
def test_polars_read_database_equals_fetchall(
    conn: ifxwire.Connection, matrix: list[tuple[Any, ...]]
) -> None:
    """polars reads a DB-API connection it does not know through ``cursor.fetchall`` and
    builds its frame from the Python values: the frame's rows are ``fetchall``'s. The
    INTERVAL YEAR TO MONTH column is left out: its Python value is the driver's own
    ``IntervalYM``, which polars cannot type (it would be an object column); so is the
    floating DECIMAL(10) holding -1.5E-100, whose ``Decimal`` polars 2.1's row reader cannot
    take (it panics: "index out of bounds: the len is 39 but the index is 99", its
    powers-of-ten table ends at 38 digits of scale)."""
    sql = POLARS_QUERY.replace(" i,", "")
    got = polars.read_database(sql, connection=conn, infer_schema_length=None)
    want = conn.cursor().execute(sql).fetchall()
    assert got.columns == [d.strip() for d in sql[7:sql.index(" FROM")].split(",")]
    assert got.rows() == want


def test_large_objects_and_composites_through_every_consumer(conn: ifxwire.Connection) -> None:
    """BYTE, TEXT, BLOB and CLOB come out as large_binary/large_string with the bytes
    ``fetchall`` reads; ROW and collections as struct and list, the same through pandas."""
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE cl (k INTEGER, b BYTE, t TEXT, bl BLOB, cl CLOB, "
                "r ROW(x INT, y VARCHAR(9)), l LIST(INT NOT NULL))")
    big = bytes(range(256)) * 300  # 76,800 bytes: more than one fetch reply's worth
    cur.execute("INSERT INTO cl VALUES (1, ?, ?, ?, ?, ROW(1, 'one'), LIST{1, 2, 3})",
                (big, "text é" * 1000, big[::-1], "clob ü" * 1000))
    cur.execute("INSERT INTO cl (k) VALUES (2)")
    sql = "SELECT * FROM cl ORDER BY k"
    cur.execute(sql)
    rows = cur.fetchall()
    cur.execute(sql)
    table = cur.fetch_arrow_table()
    types = {f.name: str(f.type) for f in table.schema}
    assert types["b"] == types["bl"] == "large_binary"
    assert types["t"] == types["cl"] == "large_string"

    def read(v: Any) -> Any:
        reader = getattr(v, "read", None)
        return v if reader is None else reader()

    for c, name in enumerate(("k", "b", "t", "bl", "cl")):
        assert table.column(name).to_pylist() == [read(r[c]) for r in rows], name
    assert table.column("bl").to_pylist()[0] == big[::-1]
    assert table.column("cl").to_pylist()[0] == "clob ü" * 1000
    assert table.column("r").to_pylist() == [{"x": 1, "y": "one"}, None]
    assert table.column("l").to_pylist() == [[1, 2, 3], None]

    cur.execute(sql)
    df = cur.fetch_df(types_mapper=pd.ArrowDtype)
    assert _plain(pa.Table.from_pandas(df, preserve_index=False)).equals(_plain(table))
    cur.execute(sql)
    batches = list(cur.fetch_record_batch(rows_per_batch=1))
    assert [b.num_rows for b in batches] == [1, 1]
    assert _plain(pa.Table.from_batches(batches)).equals(_plain(table))
