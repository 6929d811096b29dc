"""Arrow columns decoded from tuple runs (ifxwire/arrowtuples.py, _arrowdec.c), against fetchall.

Each test runs over both decoders in one process: ``c`` (the C column decoder, when built) and
``pure`` (the Python column walk). ``fetch_buffer_size=1024`` keeps the first reply (decoded
as rows, it comes with OPEN) small, so most rows take the tuple-run path; a spy checks that
they did.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from test_arrow import (  # tests/integration is on sys.path
    _check_same,
    _expected,
    _normal,
    _types,
    spy_columnar,
)

import ifxwire
from ifxwire import _accel, arrowtuples

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI
pytestmark = pytest.mark.both_drivers  # sync and asyncio (tests/integration/_aio_facade.py)


@pytest.fixture(params=["c", "pure"])
def decoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "c":
        if not _accel.available:
            pytest.skip("the C accelerator is not built in this environment")
        assert arrowtuples._arrowdec is not None, "_speedups built but not _arrowdec"
        monkeypatch.setattr(arrowtuples, "c_decoder", lambda: arrowtuples._arrowdec)
    else:
        monkeypatch.setattr(arrowtuples, "c_decoder", lambda: None)
    return str(request.param)


@pytest.fixture()
def small(driver: Any, connect_kwargs: dict[str, Any],
          dbname: str) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, fetch_buffer_size=1024,
                       autocommit=True)
    try:
        yield c
    finally:
        c.close()


def _tuple_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Row counts of the batches made from tuple runs (not from rows or strided gathers);
    a run the C decoder refused (decoded by the row decoder instead) fails the test."""
    runs: list[int] = []

    def refused(*args: Any) -> Any:
        raise AssertionError("the C column decoder refused a run of valid rows")

    monkeypatch.setattr(arrowtuples, "run_rows", refused)
    # the C decoder's (runs copied; columns fed from the receive buffer), the pure walker's
    for name in ("run_batch", "columns_batch", "column_batch"):
        real = getattr(arrowtuples, name)

        def spy(*args: Any, _real: Any = real) -> Any:
            batch = _real(*args)
            runs.append(batch.num_rows)
            return batch

        monkeypatch.setattr(arrowtuples, name, spy)
    return runs


MATRIX = (
    "k SERIAL, a SMALLINT, b INTEGER, c BIGINT, d INT8, e FLOAT, f SMALLFLOAT, "
    "g DECIMAL(10,2), h MONEY(8,2), i DECIMAL(10), j DECIMAL(20), l CHAR(5), m VARCHAR(20), "
    "n NCHAR(4), o NVARCHAR(9), p LVARCHAR(300), q BOOLEAN, r DATE, s DECIMAL(32,6), "
    "t DATETIME YEAR TO SECOND, u DATETIME YEAR TO FRACTION(3), v DATETIME YEAR TO FRACTION(5), "
    "w DATETIME YEAR TO DAY, x DATETIME HOUR TO SECOND, y INTERVAL DAY TO SECOND, "
    "z DATETIME YEAR TO MINUTE"
)
NAMES = "a b c d e f g h i j l m n o p q r s t u v w x y z".split()  # noqa: SIM905


def _matrix_rows(n: int) -> list[tuple[Any, ...]]:
    base = dt.datetime(1999, 12, 31, 23, 59, 58)
    rows: list[tuple[Any, ...]] = []
    for i in range(n):
        ts = base + dt.timedelta(seconds=i * 86_413, microseconds=i * 7_919)
        row = (
            i % 200 - 100, i * 7 - 3000, i * 10**14, -(i * 10**12), i / 3, i / 4,
            Decimal(i * 37 - 9000) / 100, Decimal(-i) / 4, Decimal(i) / 8 - 40,
            Decimal(i * 10**9 + 1) / 1000, f"c{i % 50}", "v" * (i % 21), "ü" + str(i % 9),
            "ñ" * (i % 5), "l" * (i % 300), i % 3 == 0,
            dt.date(1900, 1, 1) + dt.timedelta(days=i * 113),
            Decimal(i * 1234567) / 1000 - 5, ts.replace(microsecond=0),
            ts.replace(microsecond=ts.microsecond // 1000 * 1000),
            ts.replace(microsecond=ts.microsecond // 10 * 10), ts.date(),
            ts.time().replace(microsecond=0), dt.timedelta(seconds=i * 997 - 40_000),
            ts.replace(second=0, microsecond=0),
        )
        # A NULL in a different column each row, and some all-NULL rows.
        if i % 11 == 5:
            row = (None,) * len(row)
        elif i % 2:
            j = i % len(row)
            row = (*row[:j], None, *row[j + 1:])
        rows.append(row)
    rows.append((-32767, -2**31 + 1, -2**63 + 1, -2**63 + 1, -1e300, -3.4e38,
                 Decimal("-99999999.99"), Decimal("-999999.99"), Decimal("-1.5e-100"),
                 Decimal("-12345678901234567890"), "abcde", "", "ÿ", "", "", False,
                 dt.date(1, 1, 1), Decimal("-" + "9" * 26 + ".999999"), dt.datetime(1, 1, 1),
                 dt.datetime(9999, 12, 31, 23, 59, 59, 999000),
                 dt.datetime(2024, 2, 29, 0, 0, 0, 10),
                 dt.date(9999, 12, 31), dt.time(23, 59, 59), -dt.timedelta(days=99, seconds=3),
                 dt.datetime(1, 1, 1)))
    rows.append((32767, 2**31 - 1, 2**63 - 1, 2**63 - 1, 1e300, 3.4e38, Decimal("0.01"),
                 Decimal("0"), Decimal("1e120"), Decimal("1e-120"), " ", " pad ", "a  ",
                 "  ", "x" * 300, True, dt.date(9999, 12, 31), Decimal("0.000001"),
                 dt.datetime(9999, 12, 31, 23, 59, 59), dt.datetime(1, 1, 1),
                 dt.datetime(9999, 12, 31, 23, 59, 59, 999990), dt.date(1, 1, 1), dt.time(0, 0),
                 dt.timedelta(0), dt.datetime(9999, 12, 31, 23, 59)))
    return rows


def test_scalar_matrix_from_tuple_runs_equals_fetchall(
    small: ifxwire.Connection, decoder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _tuple_runs(monkeypatch)
    cur = small.cursor()
    cur.execute(f"CREATE TEMP TABLE tm ({MATRIX})")
    rows = _matrix_rows(400)
    cur.executemany(f"INSERT INTO tm ({', '.join(NAMES)}) VALUES ({', '.join('?' * len(NAMES))})",
                    rows)
    table = _check_same(small, "SELECT * FROM tm ORDER BY k")
    assert runs and sum(runs) > len(rows) // 2, runs  # most rows came from tuple runs
    types = _types(table)
    assert types["m"][0] == "string" and types["q"][0] == "bool"
    assert types["s"][0] == "decimal128(32, 6)" and types["u"][0] == "timestamp[ms]"
    assert types["w"][0] == "date32[day]" and types["z"][0] == "timestamp[s]"
    # Column by column too: each shape alone (a VARCHAR alone, a BOOLEAN with a DATE...).
    for cols in ("m", "q, r", "l, p", "g, h, s", "t, u, v, w, z", "i, j", "n, o, x, y"):
        runs.clear()
        _check_same(small, f"SELECT {cols}, k FROM tm ORDER BY k")


@pytest.mark.parametrize("keep", [False, True])
def test_char_padding_follows_the_connection(
    connect_kwargs: dict[str, Any], dbname: str, decoder: str, keep: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _tuple_runs(monkeypatch)
    with ifxwire.connect(**connect_kwargs, database=dbname, fetch_buffer_size=1024,
                         keep_char_padding=keep, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("CREATE TEMP TABLE tp (k INTEGER, c CHAR(12), v VARCHAR(12))")
        cur.executemany("INSERT INTO tp VALUES (?, ?, ?)",
                        [(i, "é" * (i % 12), "  x  ") for i in range(600)])
        table = _check_same(conn, "SELECT * FROM tp ORDER BY k")
        assert runs
        assert len(table.column("c")[5].as_py()) == (12 if keep else 5)


def test_utf8_database_text(server: Any, decoder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _tuple_runs(monkeypatch)
    kw = {"host": server.host, "port": server.port, "user": "informix", "password": "in4mix",
          "client_locale": "en_US.utf8", "db_locale": "en_US.utf8", "autocommit": True}
    with ifxwire.connect(**kw) as conn:
        conn.cursor().execute(f"CREATE DATABASE at_utf8_{decoder} WITH LOG")
    with ifxwire.connect(**kw, database=f"at_utf8_{decoder}", fetch_buffer_size=1024) as conn:
        assert conn.encoding == "utf-8"
        cur = conn.cursor()
        cur.execute("CREATE TEMP TABLE tu (k INTEGER, c CHAR(10), v VARCHAR(40), "
                    "l LVARCHAR(100))")
        words = ["Ärger", "日本語", "𝄞 clef", "", "ascii", "€uro"]
        cur.executemany("INSERT INTO tu VALUES (?, ?, ?, ?)",
                        [(i, words[i % 6][:3], words[(i + 1) % 6] * 2, words[(i + 2) % 6])
                         for i in range(500)])
        _check_same(conn, "SELECT * FROM tu ORDER BY k")
        assert runs


def test_composites_and_udts_from_tuple_runs(
    small: ifxwire.Connection, decoder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ROW and collection columns go through the driver's own codec per value (A_RAW)."""
    runs = _tuple_runs(monkeypatch)
    cur = small.cursor()
    cur.execute("CREATE TEMP TABLE tc (k INTEGER, r ROW(x INT, y VARCHAR(9)), "
                "s SET(INT NOT NULL), l LIST(DECIMAL(6,2) NOT NULL), v VARCHAR(5))")
    for i in range(120):
        cur.execute(f"INSERT INTO tc VALUES ({i}, ROW({i}, 'r{i}'), SET{{{i}, {i + 1}}}, "
                    f"LIST{{{i}.25, -3.5}}, 'v{i % 10}')")
    cur.execute("INSERT INTO tc (k) VALUES (1000)")
    _check_same(small, "SELECT * FROM tc ORDER BY k")
    assert runs


def test_integer_collections_as_list_arrays(
    small: ifxwire.Connection, decoder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LIST/MULTISET of SMALLINT/INTEGER/BIGINT: list arrays straight from the tuple bytes in
    C (A_LIST), no run refused; empty and NULL lists, boundaries, ~1 KB a row so replies come
    in several receives. The values equal fetchall's."""
    runs = _tuple_runs(monkeypatch)
    cur = small.cursor()
    cur.execute("CREATE TEMP TABLE tl (k INTEGER, a LIST(INTEGER NOT NULL), "
                "b MULTISET(BIGINT NOT NULL), c LIST(SMALLINT NOT NULL), v VARCHAR(5))")
    rows = [(k, None if k % 9 == 4 else ifxwire.List(
                [k * 10 + j for j in range(k % 13)] + ([2**31 - 1, -2**31 + 1] if k % 5 == 0
                                                       else []), "integer"),
             ifxwire.Multiset([k * 2**40, -(2**63) + 1, 2**63 - 1][: k % 4], "bigint"),
             None if k % 7 == 3 else ifxwire.List([k % 300, -32767, 32767], "smallint"),
             f"v{k % 10}") for k in range(1500)]
    cur.executemany("INSERT INTO tl VALUES (?, ?, ?, ?, ?)", rows)
    _check_same(small, "SELECT * FROM tl ORDER BY k")
    cur.execute("SELECT a, k FROM tl ORDER BY k")
    got = cur.fetch_arrow_table()
    assert got.column(0).type == pa.list_(pa.field("item", pa.int32(), nullable=False))
    assert got.column(0).to_pylist() == [None if r[1] is None else list(r[1]) for r in rows]
    assert sum(runs) > 1000


@pytest.mark.parametrize("refuse_every", [2, 3, 5])
def test_refused_runs_keep_row_order_across_replies(
    small: ifxwire.Connection, refuse_every: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Runs fed from the receive buffer, some refused (every n-th feed, as a run the C decoder
    does not take would be): the refused runs go to the row decoder between the Columns fed
    before and after them, within a reply and across replies (fetch_arrow_table keeps its
    Columns open from one reply to the next), so the table and the stream equal fetchall."""
    if arrowtuples._arrowdec is None:  # (the [test] install builds it: not skipped in CI)
        pytest.skip("the C column decoder is not built in this environment")
    monkeypatch.setattr(arrowtuples, "c_decoder", lambda: arrowtuples._arrowdec)
    real = arrowtuples._arrowdec.Columns
    feeds = [0]

    class Refusing:
        def __init__(self, *args: Any) -> None:
            self.cols = real(*args)

        def feed(self, buf: Any, pos: int, end: int, count: int) -> bool:
            feeds[0] += 1
            return feeds[0] % refuse_every != 0 and bool(self.cols.feed(buf, pos, end, count))

        def columns(self) -> Any:
            return self.cols.columns()

        @property
        def rows(self) -> int:
            return int(self.cols.rows)

    monkeypatch.setattr(arrowtuples._arrowdec, "Columns", Refusing)
    cur = small.cursor()
    cur.execute("CREATE TEMP TABLE tr (k INTEGER, a LIST(INTEGER NOT NULL), v VARCHAR(20))")
    cur.executemany("INSERT INTO tr VALUES (?, ?, ?)",
                    [(k, None if k % 7 == 2 else ifxwire.List(list(range(k % 40)), "integer"),
                      f"value {k}") for k in range(600)])
    _check_same(small, "SELECT * FROM tr ORDER BY k")
    assert feeds[0] > 2 * refuse_every  # replies of 1 KiB: many runs, several refused
    cur.execute("SELECT k FROM tr ORDER BY k")
    got = [k for b in cur.fetch_record_batch() for k in b.column(0).to_pylist()]
    assert got == list(range(600)) and cur.rowcount == 600


def test_streaming_counts_and_slices(
    small: ifxwire.Connection, decoder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _tuple_runs(monkeypatch)
    cur = small.cursor()
    cur.execute("CREATE TEMP TABLE ts (k INTEGER, v VARCHAR(30), d DECIMAL(12,2))")
    cur.executemany("INSERT INTO ts VALUES (?, ?, ?)",
                    [(i, f"row {i}", Decimal(i) / 100) for i in range(3000)])
    cur.execute("SELECT * FROM ts ORDER BY k")
    assert cur.fetchone() == (0, "row 0", Decimal("0"))
    reader = cur.fetch_record_batch(rows_per_batch=7)
    got = []
    for batch in reader:
        assert batch.num_rows <= 7
        got.extend(batch.column(0).to_pylist())
    assert got == list(range(1, 3000)) and cur.rowcount == 3000
    assert runs


def test_user_loaders_keep_the_row_path(
    small: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = spy_columnar(monkeypatch)
    cur = small.cursor()
    cur.execute("CREATE TEMP TABLE tl (k INTEGER, v VARCHAR(10))")
    cur.executemany("INSERT INTO tl VALUES (?, ?)", [(i, str(i)) for i in range(300)])
    cur.adapters.register_loader("varchar", lambda v: v.upper())
    cur.execute("SELECT * FROM tl ORDER BY k")
    assert cur.fetch_arrow_table().num_rows == 300
    assert runs == []


def test_aio_fetches_from_tuple_runs(
    connect_kwargs: dict[str, Any], dbname: str, decoder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    import ifxwire.aio as aio

    runs = _tuple_runs(monkeypatch)

    async def go() -> None:
        async with await aio.connect(**connect_kwargs, database=dbname,
                                     fetch_buffer_size=1024) as c:
            cur = c.cursor()
            await cur.execute(f"CREATE TEMP TABLE ta ({MATRIX})")
            rows = _matrix_rows(300)
            await cur.executemany(f"INSERT INTO ta ({', '.join(NAMES)}) "
                                  f"VALUES ({', '.join('?' * len(NAMES))})", rows)
            sql = "SELECT * FROM ta ORDER BY k"
            await cur.execute(sql)
            want = await cur.fetchall()
            await cur.execute(sql)
            table = await cur.fetch_arrow_table()
            assert table.num_rows == len(want) == cur.rowcount
            for i, field in enumerate(table.schema):
                got = [_normal(field.type, v) for v in table.column(i).to_pylist()]
                assert got == [_expected(field.type, r[i]) for r in want], field.name
            await cur.execute(sql)
            sizes = [b.num_rows async for b in cur.fetch_record_batches(rows_per_batch=64)]
            assert sum(sizes) == len(want) and max(sizes) <= 64

    asyncio.run(asyncio.wait_for(go(), 120))
    assert runs


def test_fetch_reply_size_per_columnar_path(conn: ifxwire.Connection, decoder: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The C decoder asks for 1 MiB fetch replies when streaming and 16 MiB for a table (it
    holds no reply, only the columns the table keeps anyway), the pure column walker for
    256 KiB (its columns are Python lists until pyarrow.array: a 1 MiB reply's worth of them
    put the 10M-row stream's peak RSS at 69.6 MB, over issue 25's 64 MB; docs/ARROW.md)."""
    from ifxwire.client import arrowfetch
    from ifxwire.client import cursor as cursor_mod

    sizes: list[int] = []
    real = cursor_mod.nfetch_group

    def spy(stmt_id: int, fetch_size: int) -> bytes:
        sizes.append(fetch_size)
        return real(stmt_id, fetch_size)

    monkeypatch.setattr(cursor_mod, "nfetch_group", spy)
    cur = conn.cursor()
    # (No DATE/DECIMAL binds: the server reloads its catalogue for each into a table made
    # in the open transaction, docs/ARROW.md.)
    cur.execute("CREATE TEMP TABLE replysize (k INTEGER, v VARCHAR(30))")
    cur.executemany("INSERT INTO replysize VALUES (?, ?)", [(i, f"value {i}") for i in range(3000)])
    cur.execute("SELECT * FROM replysize")
    sizes.clear()
    assert cur.fetch_arrow_table().num_rows == 3000
    want = 1 << 24 if decoder == "c" else 1 << 18
    assert (arrowfetch.ARROW_FETCH_SIZE, arrowfetch.WALKER_FETCH_SIZE,
            arrowfetch.TABLE_FETCH_SIZE) == (1 << 20, 1 << 18, 1 << 24)
    assert sizes and set(sizes) == {want}
    cur.execute("SELECT * FROM replysize")
    sizes.clear()
    assert sum(b.num_rows for b in cur.fetch_record_batch()) == 3000
    assert sizes and set(sizes) == {1 << 20 if decoder == "c" else 1 << 18}
