"""SET/MULTISET/LIST of SMALLINT/INTEGER/BIGINT/SMALLFLOAT/FLOAT through the Arrow paths,
against fetchall, over the real server (golden bytes of the C decoder:
tests/unit/test_arrowdec_collections.py).

``c``: the C column decoder (list arrays straight from the tuple bytes, _arrowdec.c A_LIST);
``pure``: the Python paths (stride runs for integer LIST/MULTISET, the column walker and the
row codec for the rest). Both must give the same table, equal to fetchall (a SET's Arrow list
is sorted on every path: a Set keeps no order). NULL collections, empty ones and boundaries
are in every column; NULL elements cannot be stored (Informix collections' elements are NOT
NULL, and the driver refuses to bind one), which the last test checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_arrow import _check_same  # tests/integration is on sys.path
from test_arrow_tuples import _tuple_runs

import ifxwire
from ifxwire import _accel, arrowtuples

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI
pytestmark = pytest.mark.both_drivers  # sync and asyncio (tests/integration/_aio_facade.py)

COLUMNS = [
    ("li", "LIST(INTEGER NOT NULL)", ifxwire.List, "integer"),
    ("si", "SET(INTEGER NOT NULL)", ifxwire.Set, "integer"),
    ("mi", "MULTISET(INTEGER NOT NULL)", ifxwire.Multiset, "integer"),
    ("lb", "LIST(BIGINT NOT NULL)", ifxwire.List, "bigint"),
    ("sb", "SET(BIGINT NOT NULL)", ifxwire.Set, "bigint"),
    ("mb", "MULTISET(BIGINT NOT NULL)", ifxwire.Multiset, "bigint"),
    ("ls", "LIST(SMALLINT NOT NULL)", ifxwire.List, "smallint"),
    ("ss", "SET(SMALLINT NOT NULL)", ifxwire.Set, "smallint"),
    ("ms", "MULTISET(SMALLINT NOT NULL)", ifxwire.Multiset, "smallint"),
    ("lf", "LIST(FLOAT NOT NULL)", ifxwire.List, "float"),
    ("sf", "SET(FLOAT NOT NULL)", ifxwire.Set, "float"),
    ("mf", "MULTISET(FLOAT NOT NULL)", ifxwire.Multiset, "float"),
    ("lr", "LIST(SMALLFLOAT NOT NULL)", ifxwire.List, "smallfloat"),
    ("sr", "SET(SMALLFLOAT NOT NULL)", ifxwire.Set, "smallfloat"),
]
BOUNDS = {"integer": (2**31 - 1, -(2**31) + 1), "bigint": (2**63 - 1, -(2**63) + 1),
          "smallint": (32767, -32767), "float": (1.7976931348623157e308, -5e-324),
          "smallfloat": (3.4028234663852886e38, -1.401298464324817e-45)}


def _elements(k: int, etype: str) -> list[Any]:
    """Row k's elements: k % 6 of them (0: empty), boundaries every 5th row, no duplicates."""
    n = k % 6
    if etype in ("float", "smallfloat"):
        out: list[Any] = [(k * 7 + j) * (-0.5 if j % 2 else 0.25) for j in range(n)]
    else:
        out = [(k * 7 + j) * (-1 if j % 2 else 1) % 30000 - 15000 * (j % 2) for j in range(n)]
    if k % 5 == 0 and n:
        out[-1:] = list(BOUNDS[etype])
    return out


@pytest.fixture()
def coll(driver: Any, connect_kwargs: dict[str, Any], dbname: str) -> Iterator[Any]:
    c = driver.connect(**connect_kwargs, database=dbname, fetch_buffer_size=2048,
                       autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE tcoll (k INTEGER, "
                    + ", ".join(f"{n} {t}" for n, t, _, _ in COLUMNS) + ")")
        rows = []
        for k in range(400):
            row: list[Any] = [k]
            for i, (_, _, wrap, etype) in enumerate(COLUMNS):
                row.append(None if (k + i) % 11 == 3 else wrap(_elements(k, etype), etype))
            rows.append(tuple(row))
        cur.executemany(f"INSERT INTO tcoll VALUES ({', '.join('?' * (len(COLUMNS) + 1))})",
                        rows)
        yield c
    finally:
        c.close()


def _use(decoder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if decoder == "c":
        if not _accel.available:
            pytest.skip("the C accelerator is not built in this environment")
        assert arrowtuples._arrowdec is not None, "_speedups built but not _arrowdec"
        monkeypatch.setattr(arrowtuples, "c_decoder", lambda: arrowtuples._arrowdec)
    else:
        monkeypatch.setattr(arrowtuples, "c_decoder", lambda: None)


def _bits(v: Any) -> Any:
    if v is None:
        return None
    return [x.hex() if isinstance(x, float) else x for x in v]


def _table(conn: Any, decoder: str, monkeypatch: pytest.MonkeyPatch, sql: str) -> Any:
    with monkeypatch.context() as m:
        _use(decoder, m)
        return _check_same(conn, sql)


def test_collections_equal_fetchall_on_both_decoders(
    coll: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every column equals fetchall on the C and the pure decoder (SETs as sets), and the two
    tables are the same, value for value (SETs sorted, floats bit for bit)."""
    sql = "SELECT * FROM tcoll ORDER BY k"
    tables = {d: _table(coll, d, monkeypatch, sql) for d in ("c", "pure")}
    c_tab, p_tab = tables["c"], tables["pure"]
    assert c_tab.schema == p_tab.schema
    for name, text, _, etype in COLUMNS:
        want_type = {"integer": pa.int32(), "bigint": pa.int64(), "smallint": pa.int16(),
                     "float": pa.float64(), "smallfloat": pa.float32()}[etype]
        assert c_tab.schema.field(name).type == pa.list_(
            pa.field("item", want_type, nullable=False)), text
        got_c = [_bits(v) for v in c_tab.column(name).to_pylist()]
        assert got_c == [_bits(v) for v in p_tab.column(name).to_pylist()], text
        if text.startswith("SET"):
            assert all(v is None or v == sorted(v) for v in c_tab.column(name).to_pylist())
    cur = coll.cursor()
    cur.execute(sql)
    rows = cur.fetchall()
    assert [r[2] for r in rows] == [None if v is None else set(v)
                                    for v in c_tab.column("si").to_pylist()]


def test_c_decoder_takes_every_collection_run(
    coll: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the C decoder no run of these rows is refused (the spy fails on a refusal),
    table and stream alike, the stream cut in batches of 37 rows."""
    _use("c", monkeypatch)
    runs = _tuple_runs(monkeypatch)
    cur = coll.cursor()
    cur.execute("SELECT * FROM tcoll ORDER BY k")
    table = cur.fetch_arrow_table()
    assert table.num_rows == 400 and sum(runs) > 300
    cur.execute("SELECT sf, mi, k FROM tcoll ORDER BY k")
    got = [v for batch in cur.fetch_record_batch(rows_per_batch=37)
           for v in batch.column(0).to_pylist()]
    assert [_bits(v) for v in got] == [_bits(v) for v in table.column("sf").to_pylist()]


def test_null_elements_are_refused_on_bind(coll: Any) -> None:
    """Informix collection elements are NOT NULL: binding a NULL element is refused, so no
    such value reaches a fetch (the decoders' handling of the NULL form on the wire is in the
    unit tests)."""
    cur = coll.cursor()
    for wrap, etype in ((ifxwire.List, "integer"), (ifxwire.Multiset, "float"),
                        (ifxwire.Set, "smallint")):
        with pytest.raises(ifxwire.Error, match="NULL"):
            cur.execute("INSERT INTO tcoll (k, li) VALUES (?, ?)"
                        if etype == "integer" else
                        f"INSERT INTO tcoll (k, {'mf' if etype == 'float' else 'ss'}) "
                        "VALUES (?, ?)", (1000, wrap([1, None], etype)))


BIG = 1.7976931348623157e308


def test_float_specials_in_lists(coll: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """-0.0, the largest and the smallest floats in LIST/MULTISET; -0.0 beside others in a
    SET (the driver refuses infinities and NaN on bind)."""
    cur = coll.cursor()
    cur.execute("INSERT INTO tcoll (k, lf, mf, sf, lr) VALUES (?, ?, ?, ?, ?)",
                (5000, ifxwire.List([BIG, -0.0, -BIG, 5e-324], "float"),
                 ifxwire.Multiset([-0.0, -0.0], "float"), ifxwire.Set([-0.0, 3.5], "float"),
                 ifxwire.List([-0.0, 3.4028234663852886e38], "smallfloat")))
    sql = "SELECT k, lf, mf, sf, lr FROM tcoll WHERE k >= 390 ORDER BY k"
    tables = {d: _table(coll, d, monkeypatch, sql) for d in ("c", "pure")}
    for name in ("lf", "mf", "sf", "lr"):
        assert [_bits(v) for v in tables["c"].column(name).to_pylist()] == \
            [_bits(v) for v in tables["pure"].column(name).to_pylist()], name
    assert _bits(tables["c"].column("lf").to_pylist()[-1]) == _bits(
        [BIG, -0.0, -BIG, 5e-324])


def _pump_spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows each call of the C receive loop (TupleRuns.pump) fed."""
    fed: list[int] = []
    real = arrowtuples.TupleRuns.pump

    def spy(self: Any, t: Any, reply: Any, fd: int, ms: int) -> tuple[int, int]:
        before = sum(r.ntuples for r in reply.rows if type(r) is arrowtuples.FedRun)
        out = real(self, t, reply, fd, ms)
        fed.append(sum(r.ntuples for r in reply.rows if type(r) is arrowtuples.FedRun)
                   - before)
        return out

    monkeypatch.setattr(arrowtuples.TupleRuns, "pump", spy)
    return fed


@pytest.mark.parametrize(("fetch_buffer_size", "n"), [(1024, 300), (40000, 3000)])
def test_c_receive_loop_feeds_the_fetch(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, coll: Any,
    monkeypatch: pytest.MonkeyPatch, fetch_buffer_size: int, n: int,
) -> None:
    """The sync driver's columnar fetch replies are received and decoded by the C receive
    loop (Columns.pump), which feeds nearly every row (those of the first reply, with the
    OPEN, are decoded as rows): table and stream equal fetchall, the rows of a table and a
    stream of 7-row batches, 1 KiB replies (a tuple per reply, the pump stopping at each
    SQ_DONE) and larger ones (40000 bytes: the columnar fetch then asks for 16 MiB; the
    OPEN's reply then holds the first ~400 rows, hence 3000). The asyncio driver keeps its
    own receive loop (no pump)."""
    _use("c", monkeypatch)
    fed = _pump_spy(monkeypatch)
    c = driver.connect(**connect_kwargs, database=dbname,
                       fetch_buffer_size=fetch_buffer_size, autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE tpump (k INTEGER, l LIST(INTEGER NOT NULL))")
        cur.executemany("INSERT INTO tpump VALUES (?, ?)", [
            (k, None if k % 9 == 4 else ifxwire.List(list(range(k % 5)), "integer"))
            for k in range(n)])
        sql = "SELECT k, l FROM tpump ORDER BY k"
        table = _check_same(c, sql)
        assert table.num_rows == n and table.column(1).null_count == (n + 4) // 9
        took_table = sum(fed)
        cur.execute(sql)
        rows = [r for b in cur.fetch_record_batch(rows_per_batch=7) for r in b.to_pylist()]
        assert rows == table.to_pylist()
    finally:
        c.close()
    if driver.is_async:
        assert fed == []
    else:
        assert took_table > n * 2 // 3 and sum(fed) - took_table > n * 2 // 3, fed


def test_fetches_cut_short_leave_the_connection_usable(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stream left after 3 of its batches (its cursor closed with replies unread), a
    statement failing at OPEN (a division by zero), a fetch whose receive loop stopped at
    each reply's SQ_DONE: the connection goes on, and the next table is whole and equal to
    fetchall."""
    _use("c", monkeypatch)
    fed = _pump_spy(monkeypatch)
    c = driver.connect(**connect_kwargs, database=dbname, fetch_buffer_size=4096,
                       autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE terr (k INTEGER, l LIST(INTEGER NOT NULL))")
        cur.executemany("INSERT INTO terr VALUES (?, ?)", [
            (k, ifxwire.List([k, k + 1], "integer")) for k in range(300)])
        cur.execute("SELECT l FROM terr ORDER BY k")
        batches = iter(cur.fetch_record_batch(rows_per_batch=7))
        first = [next(batches) for _ in range(3)]
        assert [b.num_rows for b in first] == [5, 5, 5]  # ~5 rows a 4 KiB reply
        cur.close()
        cur = c.cursor()
        with pytest.raises(ifxwire.DataError):
            cur.execute("SELECT l, 10 / (k - 150) FROM terr ORDER BY k")
        table = _check_same(c, "SELECT l, k FROM terr ORDER BY k")
        assert table.num_rows == 300
        assert table.column(0)[299].as_py() == [299, 300]
    finally:
        c.close()
    assert driver.is_async or sum(fed) > 250
