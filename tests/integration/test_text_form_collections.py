"""``cursor.collections = "text"`` (issue 25): numeric collections fetched in the text form
(``LIST{10,20,30}``, no SQ_RET_TYPE, docs/PROTOCOL.md §13) over the real server.

Every check compares with the binary form of the same query on the same connection: fetchall
gives the same Python values (List/Multiset/Set, element types, SET order aside), and
fetch_arrow_table the same table, on the C and the pure decoder. A spy on the requests shows
which form was asked for: no SQ_RET_TYPE for numeric collections, SQ_RET_TYPE kept for a
string collection or a ROW beside them (the opt-in then quietly falls back to binary).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from test_arrow_collections import COLUMNS, _bits, _use, coll  # noqa: F401 (fixture)
from test_arrow_tuples import _tuple_runs

import ifxwire
from ifxwire.protocol import requests as _req

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI
pytestmark = pytest.mark.both_drivers  # sync and asyncio (tests/integration/_aio_facade.py)


def _normal(v: Any) -> Any:
    """A fetched value comparable across forms: SETs as sorted lists, floats bit for bit."""
    if v is None:
        return None
    out = [x.hex() if isinstance(x, float) else x for x in v]
    if isinstance(v, (set, frozenset)):
        out = sorted(out, key=repr)
    return (type(v).__name__, getattr(v, "element_type", None), out)


@pytest.fixture()
def ret_types(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per cursor OPEN: whether it carried an SQ_RET_TYPE."""
    seen: list[bool] = []
    real = _req.query_open_group

    def spy(stmt_id: int, name: bytes, bind: bytes, ret_type: bytes, fetch_size: int) -> bytes:
        seen.append(bool(ret_type))
        return real(stmt_id, name, bind, ret_type, fetch_size)

    monkeypatch.setattr(_req, "query_open_group", spy)
    import ifxwire.client.cursor as _cur
    monkeypatch.setattr(_cur, "query_open_group", spy)
    return seen


def _fetch(conn: Any, sql: str, form: str) -> tuple[list[Any], Any]:
    cur = conn.cursor()
    cur.collections = form
    cur.execute(sql)
    rows = cur.fetchall()
    cur.execute(sql)
    return rows, cur.fetch_arrow_table()


@pytest.mark.parametrize("decoder", ["c", "pure"])
def test_text_form_equals_binary(coll: Any, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
                                 ret_types: list[bool], decoder: str) -> None:
    """Every LIST/SET/MULTISET of SMALLINT/INTEGER/BIGINT/FLOAT/SMALLFLOAT (boundaries, empty
    and NULL collections, negatives, exponents): fetchall and fetch_arrow_table in the text
    form equal the binary form's, and the text form was asked for without SQ_RET_TYPE."""
    _use(decoder, monkeypatch)
    sql = "SELECT * FROM tcoll ORDER BY k"
    rows_b, tab_b = _fetch(coll, sql, "binary")
    assert ret_types == [True, True]
    rows_t, tab_t = _fetch(coll, sql, "text")
    assert ret_types == [True, True, False, False]
    assert len(rows_t) == len(rows_b) == 400
    for rb, rt in zip(rows_b, rows_t, strict=True):
        assert rb[0] == rt[0]
        assert [_normal(v) for v in rt[1:]] == [_normal(v) for v in rb[1:]]
    assert tab_t.schema == tab_b.schema
    for name, text, _, _ in COLUMNS:
        got = [_bits(v) for v in tab_t.column(name).to_pylist()]
        want = [_bits(v) for v in tab_b.column(name).to_pylist()]
        assert got == want, text


def test_decimal_and_money_collections(driver: Any, connect_kwargs: dict[str, Any],
                                       dbname: str, ret_types: list[bool]) -> None:
    """DECIMAL and MONEY elements (digits, negatives, scale) in the text form equal the
    binary form's Decimals, in fetchall and fetch_arrow_table."""
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE tdec (k INTEGER, ld LIST(DECIMAL(16,4) NOT NULL), "
                    "sm SET(MONEY(12,2) NOT NULL), md MULTISET(DECIMAL(32,10) NOT NULL))")
        vals = [
            (1, ifxwire.List([Decimal("123456789012.3456"), Decimal("-0.0001"), Decimal(0)],
                             "decimal(16,4)"),
             ifxwire.Set([Decimal("9999999999.99"), Decimal("-1.50")], "money(12,2)"),
             ifxwire.Multiset([Decimal("1.0000000001"), Decimal("-12345678901234.5")],
                              "decimal(32,10)")),
            (2, ifxwire.List([], "decimal(16,4)"), None,
             ifxwire.Multiset([Decimal("0.5")] * 3, "decimal(32,10)")),
            (3, None, ifxwire.Set([], "money(12,2)"), None),
        ]
        cur.executemany("INSERT INTO tdec VALUES (?, ?, ?, ?)", vals)
        sql = "SELECT * FROM tdec ORDER BY k"
        del ret_types[:]
        rows_b, tab_b = _fetch(c, sql, "binary")
        rows_t, tab_t = _fetch(c, sql, "text")
        assert ret_types == [True, True, False, False]
        assert [[_normal(v) for v in r[1:]] for r in rows_t] == \
            [[_normal(v) for v in r[1:]] for r in rows_b]
        assert rows_t[0][1] == [Decimal("123456789012.3456"), Decimal("-0.0001"), Decimal(0)]
        assert tab_t.equals(tab_b)
    finally:
        c.close()


def test_string_collection_stays_binary(coll: Any, ret_types: list[bool]) -> None:  # noqa: F811
    """A LIST of VARCHAR (text rules not witnessed) keeps the whole statement binary, also
    beside numeric collections: SQ_RET_TYPE is sent and the values are right."""
    cur = coll.cursor()
    cur.execute("CREATE TEMP TABLE tstr (k INTEGER, ls LIST(VARCHAR(10) NOT NULL), "
                "li LIST(INTEGER NOT NULL))")
    cur.execute("INSERT INTO tstr VALUES (1, LIST{'a','it''s'}, LIST{1,2})")
    del ret_types[:]
    cur.collections = "text"
    cur.execute("SELECT ls, li FROM tstr")
    assert cur.fetchall() == [(["a", "it's"], [1, 2])]
    assert ret_types == [True]
    cur.execute("SELECT li FROM tstr")
    assert cur.fetchall() == [([1, 2],)]
    assert ret_types == [True, False]


def test_opt_in_is_checked_and_per_cursor(coll: Any, ret_types: list[bool]) -> None:  # noqa: F811
    """Only 'binary' and 'text' are taken; the default is binary; another cursor of the same
    connection keeps the binary form after one asked for text (the statements are apart)."""
    a, b = coll.cursor(), coll.cursor()
    assert a.collections == "binary"
    with pytest.raises(ifxwire.ProgrammingError, match="collections"):
        a.collections = "json"
    a.collections = "text"
    sql = "SELECT li FROM tcoll WHERE k < 20 ORDER BY k"
    a.execute(sql)
    ra = a.fetchall()
    b.execute(sql)
    rb = b.fetchall()
    a.execute(sql)
    assert a.fetchall() == ra == rb
    assert ret_types == [False, True, False]



def test_c_decoder_takes_text_runs(coll: Any, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
                                   ret_types: list[bool]) -> None:
    """The integer collections' text form goes through the C decoder (A_TLIST) without a
    refused run (the spy fails on one), table and stream, equal to the binary table."""
    _use("c", monkeypatch)
    sql = "SELECT k, li, si, mi, lb, sb, mb, ls, ss, ms FROM tcoll ORDER BY k"
    cur = coll.cursor()
    cur.execute(sql)
    binary = cur.fetch_arrow_table()
    runs = _tuple_runs(monkeypatch)
    cur.collections = "text"
    cur.execute(sql)
    table = cur.fetch_arrow_table()
    assert table.num_rows == 400 and sum(runs) > 300  # (the first reply's rows: as rows)
    assert table.equals(binary)
    cur.execute(sql)
    got = [v for batch in cur.fetch_record_batch(rows_per_batch=37)
           for v in batch.column("si").to_pylist()]
    assert got == binary.column("si").to_pylist()
    assert ret_types[-2:] == [False, False]


def _columns_rows(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Rows of the batches made from columns the C decoder was fed (``columns_batch``): a
    result with an A_RAW column (values left to Python) never feeds any."""
    from ifxwire import arrowtuples

    rows: list[int] = []
    real = arrowtuples.columns_batch

    def spy(*args: Any) -> Any:
        batch = real(*args)
        rows.append(batch.num_rows)
        return batch

    monkeypatch.setattr(arrowtuples, "columns_batch", spy)
    return rows


def test_c_decoder_takes_float_text_runs(coll: Any, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
                                         ret_types: list[bool]) -> None:
    """arrow14: FLOAT and SMALLFLOAT collections' text form (boundaries, -5e-324, exponents)
    is decoded by the C decoder (A_TLIST LK_FLOAT, fed columns, no refused run), bit for bit
    the binary form's table, SETs sorted as there."""
    _use("c", monkeypatch)
    sql = "SELECT k, lf, sf, mf, lr, sr FROM tcoll ORDER BY k"
    cur = coll.cursor()
    cur.execute(sql)
    binary = cur.fetch_arrow_table()
    fed = _columns_rows(monkeypatch)
    _tuple_runs(monkeypatch)  # fails the test on a refused run
    cur.collections = "text"
    cur.execute(sql)
    table = cur.fetch_arrow_table()
    assert table.num_rows == 400 and sum(fed) > 300
    assert table.schema == binary.schema
    for name in ("lf", "sf", "mf", "lr", "sr"):
        assert [_bits(v) for v in table.column(name).to_pylist()] == \
            [_bits(v) for v in binary.column(name).to_pylist()], name
    assert ret_types[-1] is False


def test_c_decoder_takes_decimal_text_runs(driver: Any, connect_kwargs: dict[str, Any],
                                           dbname: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """arrow14: LIST/MULTISET of DECIMAL(p,s)/MONEY in the text form go through the C
    decoder (A_TLIST LK_DEC: decimal128 straight from the digits), equal to the binary form's
    table and to fetchall's Decimals, over enough rows that most are fed columns."""
    _use("c", monkeypatch)
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True,
                       fetch_buffer_size=2048)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE tdc (k INTEGER, ld LIST(DECIMAL(16,4) NOT NULL), "
                    "mm MULTISET(MONEY(12,2) NOT NULL), md MULTISET(DECIMAL(32,10) NOT NULL))")
        rows = []
        for k in range(300):
            ld = [Decimal(k * 7919 - 1000000) / 10000, Decimal("123456789012.3456"),
                  Decimal("-0.0001")][: k % 4]
            mm = [Decimal(k * 31 - 4000) / 100, Decimal("9999999999.99"), Decimal("-1.5")][
                : (k + 1) % 4]
            md = [Decimal("1.0000000001"), Decimal(-k) / 3 if k % 5 == 0 else Decimal(k)]
            rows.append((k, None if k % 9 == 4 else ifxwire.List(ld, "decimal(16,4)"),
                         ifxwire.Multiset(mm, "money(12,2)"),
                         None if k % 7 == 2 else ifxwire.Multiset(md, "decimal(32,10)")))
        cur.executemany("INSERT INTO tdc VALUES (?, ?, ?, ?)", rows)
        sql = "SELECT * FROM tdc ORDER BY k"
        rows_b, tab_b = _fetch(c, sql, "binary")
        fed = _columns_rows(monkeypatch)
        _tuple_runs(monkeypatch)
        rows_t, tab_t = _fetch(c, sql, "text")
        assert sum(fed) > 200
        assert tab_t.equals(tab_b)
        assert [(r[0], [_normal(v) for v in r[1:]]) for r in rows_t] == \
            [(r[0], [_normal(v) for v in r[1:]]) for r in rows_b]
    finally:
        c.close()


@pytest.mark.parametrize("reader", ["c", "python"])
def test_fetchall_text_reader(coll: Any, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
                              reader: str) -> None:
    """arrow14: fetchall of the integer and float collections' text form through the C
    reader (``_arrowdec.text_value``, accelerated) and the Python one: the same values as
    the binary form, and the C reader is the one used when it is there."""
    from ifxwire import _accel
    from ifxwire.types import compositetext, rowcodec

    calls = [0]
    if reader == "c":
        if not _accel.accelerated:
            pytest.skip("the C accelerator is not in use")
        real = compositetext._c_text_value()
        assert real is not None

        def counted(*args: Any) -> Any:
            calls[0] += 1
            return real(*args)

        monkeypatch.setattr(compositetext, "_c_text_value", lambda: counted)
    else:
        monkeypatch.setattr(compositetext, "_c_text_value", lambda: None)
    rowcodec._build_row_decoder.cache_clear()
    monkeypatch.setattr(rowcodec, "_build_row_decoder", rowcodec._build_row_decoder)
    sql = "SELECT * FROM tcoll ORDER BY k"
    cur = coll.cursor()
    cur.execute(sql)
    binary = cur.fetchall()
    cur.collections = "text"
    cur.execute(sql)
    text = cur.fetchall()
    rowcodec._build_row_decoder.cache_clear()
    assert [(r[0], [_normal(v) for v in r[1:]]) for r in text] == \
        [(r[0], [_normal(v) for v in r[1:]]) for r in binary]
    assert (calls[0] > 1000) if reader == "c" else calls[0] == 0


def test_pure_reader_reads_batches_with_kernels(coll: Any,  # noqa: F811
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """arrow14: with no C decoder, the text form's fetch_arrow_table reads each batch's texts
    with pyarrow.compute (arrowtext.py): every collection column of every batch by the
    kernels (none value by value), bit for bit the binary form's table."""
    from ifxwire import arrowtext

    _use("pure", monkeypatch)
    outcomes: list[bool] = []
    real = arrowtext._vectorised

    def spy(*args: Any) -> Any:
        try:
            out = real(*args)
        except Exception:
            outcomes.append(False)
            raise
        outcomes.append(True)
        return out

    monkeypatch.setattr(arrowtext, "_vectorised", spy)
    sql = "SELECT * FROM tcoll ORDER BY k"
    cur = coll.cursor()
    cur.execute(sql)
    binary = cur.fetch_arrow_table()
    cur.collections = "text"
    cur.execute(sql)
    table = cur.fetch_arrow_table()
    assert outcomes and all(outcomes) and len(outcomes) >= len(COLUMNS)
    assert table.schema == binary.schema
    for name, *_ in COLUMNS:
        assert [_bits(v) for v in table.column(name).to_pylist()] == \
            [_bits(v) for v in binary.column(name).to_pylist()], name
