"""arrowtext.text_list_array (arrow14): a batch of text-form collections read by pyarrow.compute
kernels must equal the row path's array (each text decoded by types/compositetext.py, then
``pyarrow.array`` with the column's converter), or go value by value: never another value.
The texts are the server's spelling (docs/PROTOCOL.md §13: ``LIST{10,20,30}``), written here
as literals, plus the spellings the kernels must leave to the per-value path."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ifxwire import arrowtext
from ifxwire.protocol.codes import TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.compositetext import text_collection_decoder, text_form_columns
from ifxwire.types.errors import CodecDataError

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")
CODES = {"LIST": TypeCode.LIST, "MULTISET": TypeCode.MULTISET, "SET": TypeCode.SET}
OPENERS = {"LIST": b"LIST{", "MULTISET": b"MULTISET{", "SET": b"SET{"}


def _setup(text: str) -> tuple[Any, Any, Any, bytes]:
    from ifxwire import arrow as ifx_arrow

    word = text.split("(")[0]
    col = text_form_columns([ColumnDesc("l", CODES[word], 0, type_name=text)])[0]
    plan = ifx_arrow._Plan(pa, [col])
    return plan.schema.field(0), plan.converters[0], text_collection_decoder(col, "utf-8"), \
        OPENERS[word]


def _row_path(values: list[bytes | None], field: Any, conv: Any, decode: Any) -> Any:
    rows = [None if v is None else decode(v) for v in values]
    return pa.array([None if r is None else (r if conv is None else conv(r)) for r in rows],
                    type=field.type)


def _bits(arr: Any) -> list[Any]:
    return [None if v is None else [x.hex() if isinstance(x, float) else x for x in v]
            for v in arr.to_pylist()]


CASES = [
    ("LIST(integer not null)", [b"LIST{1,-2,2147483647}", None, b"LIST{}", b"LIST{007,-0}"]),
    ("MULTISET(bigint not null)", [b"MULTISET{9223372036854775807,-9223372036854775807}",
                                   b"MULTISET{}", None]),
    ("LIST(smallint not null)", [b"LIST{}", b"LIST{}", b"LIST{32767,-32767}"]),
    ("SET(integer not null)", [b"SET{5,-3,2}", b"SET{}", None, b"SET{9,1}"]),
    ("LIST(float not null)", [b"LIST{1.5,-0.0,1e+300,-5e-324,0.1,inf}", None]),
    ("SET(float not null)", [b"SET{2.5,-1E3,7}", b"SET{-0.0}"]),
    ("MULTISET(smallfloat not null)", [b"MULTISET{1.100000023841858,3.4028234663852886e+38}"]),
    ("LIST(decimal(8,2) not null)", [b"LIST{1.25,-0.5,0,123456.78,-0.00,1.250}", None]),
    ("MULTISET(money(12,2) not null)", [b"MULTISET{9999999999.99,-1.5}", b"MULTISET{}"]),
    ("LIST(decimal(10) not null)", [b"LIST{1.5,-2E+3}", None]),
    ("LIST(integer not null)", [None, None]),
    ("LIST(integer not null)", []),
]


@pytest.mark.parametrize(("text", "values"), CASES)
def test_kernels_give_the_row_path_array(text: str, values: list[bytes | None],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's spellings are read by the kernels (the per-value path is not taken) into
    the row path's very array (floats bit for bit, SETs sorted as arrow.py sorts them)."""
    field, conv, decode, opener = _setup(text)

    def per_value(v: bytes) -> Any:
        raise AssertionError("the batch went value by value")

    got = arrowtext.text_list_array(pa, pc, values, field, conv, opener, per_value)
    want = _row_path(values, field, conv, decode)
    assert got.type == want.type and _bits(got) == _bits(want)
    assert got.null_count == want.null_count and got.validate(full=True) is None


@pytest.mark.parametrize(("text", "values"), [
    ("LIST(integer not null)", [b"LIST{1}", b"LIST{1,NULL,3}"]),  # a NULL element: None
    ("LIST(integer not null)", [b"LIST{ 1 , 2 }"]),  # blanks
    ("LIST(integer not null)", [b"LIST{+1}"]),
    ("SET(float not null)", [b"SET{nan,1}"]),  # no order
    ("SET(integer not null)", [b"SET{2,2,3}"]),  # a Set keeps one
    ("SET(float not null)", [b"SET{0.0,-0.0}"]),
    ("SET(decimal(8,2) not null)", [b"SET{1.5,2.5}"]),  # the row path's frozenset order
    ("LIST(decimal(20) not null)", [b"LIST{1.5}"]),  # strings in Arrow
    ("LIST(integer not null)", [b"LIST{1}", [7, 8]]),  # a value decode_row redid
])
def test_what_the_kernels_leave_goes_value_by_value(text: str, values: list[Any]) -> None:
    field, conv, decode, opener = _setup(text)
    got = arrowtext.text_list_array(pa, pc, values, field, conv, opener, decode)
    rows = [v if not isinstance(v, bytes) else decode(v) for v in values]
    want = pa.array([r if conv is None else conv(r) for r in rows], type=field.type)
    assert got.to_pylist() == want.to_pylist() or any(
        isinstance(x, float) and math.isnan(x) for r in got.to_pylist() for x in r)


@pytest.mark.parametrize("wire", [b"LIST{1,x}", b"SET{1}", b"LIST{1,,2}", b"LIST{1,}",
                                  b"LIST{1.5}", b"LIST1}", b"LIST{\xff}"])
def test_malformed_text_is_the_row_path_error(wire: bytes) -> None:
    """Malformed text goes value by value, where it is CodecDataError naming the column."""
    field, conv, decode, opener = _setup("LIST(integer not null)")
    with pytest.raises(CodecDataError, match=r"column 'l' \(list\(integer"):
        arrowtext.text_list_array(pa, pc, [b"LIST{1}", wire], field, conv, opener, decode)


def test_out_of_range_is_the_row_path_error() -> None:
    """A number the element type cannot hold: the kernels' cast refuses, and the row path
    raises what it raised before (pyarrow's overflow)."""
    field, conv, decode, opener = _setup("LIST(smallint not null)")
    with pytest.raises(pa.ArrowInvalid):
        arrowtext.text_list_array(pa, pc, [b"LIST{32768}"], field, conv, opener, decode)


def test_the_walker_keeps_each_text() -> None:
    """The pure column walker keeps a text-form collection's text (bytes, None for the NULL
    collection, flag 1 with its length) inline, not through decode_row: three golden tuples
    of docs/PROTOCOL.md §13's envelope, the INTEGER beside it in place."""
    import struct

    from ifxwire import arrowtuples as at

    cols = tuple([ColumnDesc("a", TypeCode.INTEGER, 4), *text_form_columns(
        [ColumnDesc("l", TypeCode.LIST, 0, type_name="LIST(integer not null)")])])
    walk = at.column_walker(cols, "iso-8859-1", False)
    assert walk.raw == {1: (at.RAW_TEXT, 0)}
    payloads = [bytes.fromhex("00000007 00 0000000e") + b"LIST{10,20,30}",
                bytes.fromhex("00000008 01 00000000"),
                bytes.fromhex("00000009 00 00000006") + b"LIST{}"]
    buf = bytearray(b"".join(struct.pack(">HhI", 14, 0, len(p)) + p + b"\x00" * (len(p) & 1)
                             for p in payloads) + b"\x00\x0c")  # (a receive buffer)

    out: list[list[object]] = [[], []]
    nxt, count, err = walk(buf, 0, len(buf), out)
    assert (count, err, nxt) == (3, None, len(buf) - 2)
    assert out == [[7, 8, 9], [b"LIST{10,20,30}", None, b"LIST{}"]]
