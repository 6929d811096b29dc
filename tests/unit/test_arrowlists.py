"""The pure path's stride runs (ifxwire/arrowlists.py) on crafted SQ_TUPLE runs, against the
column walker (fetchall's own pure decoding, arrowtuples.column_walker).

The integration tests (tests/integration/test_arrow_lists.py) compare with fetchall over the
real server; these cover what it does not send: a collection element equal to its type's
NULL sentinel (Informix collection elements are NOT NULL), another type table in the middle
of a run, a data size that is not whole elements, runs cut at any byte.
"""

from __future__ import annotations

import struct
from typing import Any

import pytest

from ifxwire import arrowlists as al
from ifxwire import arrowtuples as at
from ifxwire.arrow import _Plan
from ifxwire.protocol.codes import TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.errors import CodecError

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")

_T = TypeCode
ENC = "iso-8859-1"


def _tuple(payload: bytes) -> bytes:
    return struct.pack(">HhI", 14, 0, len(payload)) + payload + b"\x00" * (len(payload) & 1)


def _list_value(text: str, value: Any) -> bytes:
    from ifxwire.types.complextype import parse_type_name
    from ifxwire.types.composite import encode_complex

    return encode_complex(parse_type_name(text), value)


COLS = [ColumnDesc("k", _T.INTEGER, 4),
        ColumnDesc("a", _T.LIST, 0, type_name="LIST(integer not null)"),
        ColumnDesc("f", _T.FLOAT, 8),
        ColumnDesc("b", _T.MULTISET, 0, type_name="MULTISET(smallint not null)")]


def _payload(k: int, a: Any, b: Any) -> bytes:
    return (struct.pack(">i", k) + (a if isinstance(a, bytes) else
                                    _list_value("LIST(integer not null)", a))
            + struct.pack(">d", k / 4) + _list_value("MULTISET(smallint not null)", b))


@pytest.fixture(params=["numpy", "pyarrow"], autouse=True)
def cut(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test twice: the stride runs' columns cut with numpy (when it can be imported)
    and with pyarrow.compute alone (numpy absent)."""
    if request.param == "numpy":
        pytest.importorskip("numpy")
    else:
        monkeypatch.setattr(al, "_numpy", lambda: None)
    return str(request.param)


def _tables(data: bytes, chunks: list[int], cols: list[ColumnDesc] = COLS,
            ) -> tuple[Any, Any, list[Any]]:
    """(table by ListRuns, table by the walker alone, the items ListRuns made), the data
    handed over in the given chunks (as receives would: each call sees what has arrived)."""
    plan = _Plan(pa, cols)

    def walker() -> at.ColumnRuns:
        return at.ColumnRuns(at.column_walker(tuple(cols), ENC, False), len(cols))

    shape = al.list_shape(cols, ENC)
    assert shape is not None
    runs = al.ListRuns(pa, pc, shape, walker())
    out = []
    for decoder in (runs, walker()):
        items: list[Any] = []
        buf = bytearray()
        pos = 0
        for size in [*chunks, len(data)]:
            buf += data[len(buf) : size]
            pos, err = decoder.decode_tuples(buf, pos, len(buf), items)
            if err is not None:  # the row decoder's error (the rest is not compared then)
                raise err
        assert pos == len(data)
        if decoder is runs:
            batches = al.batches(pa, pc, plan.schema, plan.converters, runs, items)
            made = items
        else:
            batches = [at.column_batch(pa, plan.schema, plan.converters, items,
                                       decoder.walk.raw)]  # type: ignore[attr-defined]
        out.append(pa.Table.from_batches(batches, schema=plan.schema))
    return out[0], out[1], made


def test_stride_runs_equal_the_walker() -> None:
    """Stretches of one size, other sizes between them, NULL and empty lists, boundaries,
    NULL numerics; handed over whole and in chunks cut at odd bytes."""
    payloads = []
    for k in range(300):
        n = 10 if k < 200 else k % 4
        a = None if k % 41 == 3 else [k, -(2**31) + 1, 2**31 - 1][: 3 if k % 29 else 2] * n
        b = [k % 100, -32767, 32767] if k < 250 else []
        payloads.append(_payload(k, a, b))
    payloads[17] = struct.pack(">I", 0x80000000) + payloads[17][4:]  # a NULL INTEGER
    data = b"".join(_tuple(p) for p in payloads)
    for chunks in ([], [5000, 5001, 20000], list(range(997, len(data), 997))):
        by_stride, by_walker, items = _tables(data, chunks)
        assert by_stride.equals(by_walker)
        assert by_stride.column("k").to_pylist()[17] is None
        if not chunks:  # stretches of 13 to 28 rows between the odd ones, in the first 200
            assert sum(i.ntuples for i in items if type(i) is al.StrideRun) > 100


def test_a_null_sentinel_element_sends_the_run_to_the_walker() -> None:
    """An element equal to INTEGER's NULL (the C decoder refuses it too): the run holding it
    is walked whole, so the value is the row decoder's; the runs around it stay strided."""
    good = _list_value("LIST(integer not null)", [1, 2, 3])
    with_null = good[:-4] + struct.pack(">I", 0x80000000)
    payloads = [_payload(k, with_null if k == 55 else good, [k]) for k in range(100)]
    data = b"".join(_tuple(p) for p in payloads)
    by_stride, by_walker, items = _tables(data, [len(data) // 2])
    assert by_stride.equals(by_walker)
    assert sum(type(i) is al.StrideRun for i in items) >= 1
    assert sum(i.ntuples for i in items if type(i) is at.ColumnRun) >= 1


def test_another_table_or_ragged_size_is_walked() -> None:
    """A value with another type table, or a data size that is not whole elements, inside a
    stretch of one size: the stretch stops before it, the walker decodes it as fetchall."""
    good = _list_value("LIST(integer not null)", [7, 8])
    other = _list_value("LIST(bigint not null)", [7])  # same byte length is not required
    ragged = bytearray(good)
    ragged[-16:-12] = struct.pack(">i", 7)
    for odd in (other, bytes(ragged)):
        payloads = [_payload(k, odd if k == 40 else good, [1, 2]) for k in range(90)]
        data = b"".join(_tuple(p) for p in payloads)
        try:
            by_stride, by_walker, _ = _tables(data, [])
        except CodecError as exc:  # the ragged value: the row decoder's own error, as fetchall
            with pytest.raises(CodecError) as walked:
                _tables_walker_only(data)
            assert str(walked.value) == str(exc)
            continue
        assert by_stride.equals(by_walker)


def _tables_walker_only(data: bytes) -> None:
    w = at.ColumnRuns(at.column_walker(tuple(COLS), ENC, False), len(COLS))
    items: list[Any] = []
    _, err = w.decode_tuples(bytearray(data), 0, len(data), items)
    if err is not None:
        raise err
    plan = _Plan(pa, COLS)
    at.column_batch(pa, plan.schema, plan.converters, items, w.walk.raw)  # type: ignore[attr-defined]


def test_list_shape_takes_only_numerics_and_integer_collections() -> None:
    assert al.list_shape(COLS, ENC) is not None
    assert al.list_shape(COLS[:1] + COLS[2:3], ENC) is None  # no collection: arrowcols' job
    assert al.list_shape([*COLS, ColumnDesc("v", _T.VARCHAR, 20)], ENC) is None
    assert al.list_shape([ColumnDesc("s", _T.SET, 0, type_name="SET(integer not null)")],
                         ENC) is None


LEAD = [ColumnDesc("a", _T.LIST, 0, type_name="LIST(bigint not null)"),
        ColumnDesc("s", _T.SMALLINT, 2),
        ColumnDesc("b", _T.MULTISET, 0, type_name="MULTISET(smallint not null)")]


def _lead_payload(a: Any, s: int | None, b: Any) -> bytes:
    return ((a if isinstance(a, bytes) else _list_value("LIST(bigint not null)", a))
            + struct.pack(">h", -32768 if s is None else s)
            + (b if isinstance(b, bytes) else _list_value("MULTISET(smallint not null)", b)))


def test_a_leading_collection_golden_values(cut: str) -> None:
    """A collection first (its prefix compared together with the tuple header): BIGINT and
    SMALLINT boundaries, a NULL SMALLINT, NULL and empty collections, a row of another
    length and one whose header's ignored i16 is not 0 breaking the runs, elements equal
    to BIGINT's and SMALLINT's NULL sentinels (walked), over chunks cut at odd bytes; the
    values are the expected ones, and the walker's."""
    big, small = 2**63 - 1, 32767
    rows: list[tuple[Any, Any, Any]] = []
    for k in range(240):
        a: Any = [big, -big, k]
        s: Any = k - 120
        b: Any = [small, -small, k % 50]
        if k == 30:
            a = None
        elif k == 31:
            b = []
        elif k == 60:
            a = [1, 2]  # another length: the run stops before it
        elif k == 90:
            s = None
        elif k == 150:
            a = bytearray(_list_value("LIST(bigint not null)", [k, 0, k]))
            a[-16:-8] = struct.pack(">Q", 1 << 63)  # BIGINT's NULL sentinel: walked
            a = bytes(a)
        elif k == 200:
            b = _list_value("MULTISET(smallint not null)", [0])[:-2] + b"\x80\x00"
        rows.append((a, s, b))
    tuples = [_tuple(_lead_payload(*r)) for r in rows]
    tuples[120] = tuples[120][:2] + b"\x00\x07" + tuples[120][4:]  # the ignored i16
    data = b"".join(tuples)
    for chunks in ([], [3333, 3334, 77777], list(range(1001, len(data), 1001))):
        by_stride, by_walker, items = _tables(data, chunks, LEAD)
        assert by_stride.equals(by_walker)
        got = by_stride.to_pylist()
        assert got[0] == {"a": [big, -big, 0], "s": -120, "b": [small, -small, 0]}
        assert got[30]["a"] is None and got[31]["b"] == [] and got[60]["a"] == [1, 2]
        assert got[90]["s"] is None and got[239] == {"a": [big, -big, 239], "s": 119,
                                                      "b": [small, -small, 39]}
        assert got[120]["s"] == 0
        if not chunks:
            assert sum(i.ntuples for i in items if type(i) is al.StrideRun) > 100


def test_runs_of_later_receives_reuse_the_layout() -> None:
    """A reply arriving in many receives: each receive's run after the first recognises the
    layout by its prefixes (ListRuns.last) and still equals the walker."""
    payloads = [_payload(k, [k, k + 1, k + 2], [k % 7]) for k in range(400)]
    data = b"".join(_tuple(p) for p in payloads)
    by_stride, by_walker, items = _tables(data, list(range(2000, len(data), 2000)))
    assert by_stride.equals(by_walker)
    assert sum(type(i) is al.StrideRun for i in items) > 20
