"""The text form of numeric collections (``cursor.collections = "text"``) on golden bytes.

Each tuple is written byte by byte from docs/PROTOCOL.md §13's text form: the UDT envelope
``u8 flag, u32 len, text`` holding the server's literal (``LIST{10,20,30}``, as P§3.2 quotes a
real 12.10/14.10/15 server's), the NULL collection ``01 00000000``. The row decoder (pure) and
the C column decoder (_arrowdec.c A_TLIST) must give the binary path's values; malformed text
raises CodecDataError naming the column in the row decoder, and the C decoder refuses the run
(the row decoder then decides), never a wrong value.
"""

from __future__ import annotations

import struct
from decimal import Decimal
from typing import Any

import pytest

from ifxwire import arrowtuples as at
from ifxwire.protocol.codes import TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.compositetext import (
    TextFormColumn,
    text_form_applies,
    text_form_columns,
)
from ifxwire.types.compositevalues import List, Multiset, Set
from ifxwire.types.errors import CodecDataError
from ifxwire.types.rowcodec import build_row_decoder

_T = TypeCode
ENC = "iso-8859-1"
CODES = {"LIST": _T.LIST, "MULTISET": _T.MULTISET, "SET": _T.SET}


def _col(text: str, name: str = "l") -> ColumnDesc:
    return ColumnDesc(name, CODES[text.split("(")[0]], 0, type_name=text)


def _text_col(text: str, name: str = "l") -> ColumnDesc:
    out = text_form_columns([_col(text, name)])[0]
    assert isinstance(out, TextFormColumn)
    return out


def _env(text: bytes | None) -> bytes:
    if text is None:
        return b"\x01\x00\x00\x00\x00"
    return b"\x00" + struct.pack(">I", len(text)) + text


def _row(text: str, value: bytes | None) -> Any:
    """INTEGER 7, the collection, INTEGER 9: the collection must not shift its neighbours."""
    cols = [ColumnDesc("a", _T.INTEGER, 4), _text_col(text), ColumnDesc("b", _T.INTEGER, 4)]
    payload = b"\x00\x00\x00\x07" + _env(value) + b"\x00\x00\x00\x09"
    row = build_row_decoder(cols, ENC)(payload, 0, len(payload))
    assert row[0] == 7 and row[2] == 9
    return row[1]


def test_golden_witnessed_list() -> None:
    """P§3.2's real-server value, byte for byte: 00 0000000e 'LIST{10,20,30}'."""
    payload = bytes.fromhex("00000007 00 0000000e") + b"LIST{10,20,30}" + bytes.fromhex("00000009")
    cols = [ColumnDesc("a", _T.INTEGER, 4), _text_col("LIST(integer not null)"),
            ColumnDesc("b", _T.INTEGER, 4)]
    row = build_row_decoder(cols, ENC)(payload, 0, len(payload))
    assert row == (7, [10, 20, 30], 9)
    assert type(row[1]) is List and row[1].element_type == "integer not null"  # as binary


@pytest.mark.parametrize(("text", "wire", "want", "kind"), [
    ("LIST(integer not null)", b"LIST{-2147483647,0,2147483647}",
     [-2147483647, 0, 2147483647], List),
    ("LIST(smallint not null)", b"LIST{-32767,32767}", [-32767, 32767], List),
    ("MULTISET(bigint not null)", b"MULTISET{9223372036854775807,-9223372036854775807,1,1}",
     [9223372036854775807, -9223372036854775807, 1, 1], Multiset),
    ("MULTISET(int8 not null)", b"MULTISET{5}", [5], Multiset),
    ("SET(integer not null)", b"SET{3,-1,2}", {3, -1, 2}, Set),
    ("LIST(float not null)", b"LIST{1.7976931348623157e+308,-5e-324,-0.0,1.5}",
     [1.7976931348623157e308, -5e-324, -0.0, 1.5], List),
    ("LIST(smallfloat not null)", b"LIST{3.4028234663852886e+38,-1.401298464324817e-45}",
     [3.4028234663852886e38, -1.401298464324817e-45], List),
    ("LIST(decimal(16,4) not null)", b"LIST{123456789012.3456,-0.0001,0}",
     [Decimal("123456789012.3456"), Decimal("-0.0001"), Decimal(0)], List),
    ("SET(money(12,2) not null)", b"SET{9999999999.99,-1.50}",
     {Decimal("9999999999.99"), Decimal("-1.50")}, Set),
    ("LIST(integer)", b"LIST{1,NULL,3}", [1, None, 3], List),
    ("LIST(integer not null)", b"LIST{}", [], List),
    ("SET(float not null)", b"SET{}", set(), Set),
    ("LIST(integer not null)", b"LIST{ 1 , 2 }", [1, 2], List),
])
def test_values(text: str, wire: bytes, want: Any, kind: type) -> None:
    got = _row(text, wire)
    assert type(got) is kind and got == want
    assert [x.hex() if isinstance(x, float) else x for x in sorted(got, key=repr)] == \
        [x.hex() if isinstance(x, float) else x for x in sorted(want, key=repr)]


def test_null_collection_keeps_its_length() -> None:
    """Flag 1 with its 4-byte length still present: None, the next column in place."""
    assert _row("LIST(integer not null)", None) is None


@pytest.mark.parametrize("wire", [
    b"LIST{1,,2}", b"LIST{1", b"LIST1,2}", b"SET{1,2}", b"LIST{1.5}", b"LIST{a}",
    b"LIST{1,2,}", b"LIST{0x10}", b"{1,2}", b"", b"LIST{1e3}", b"LIST{\xff}",
])
def test_malformed_text_is_a_typed_error(wire: bytes) -> None:
    with pytest.raises(CodecDataError, match=r"column 'l' \(list\(integer"):
        _row("LIST(integer not null)", wire)


def test_text_past_the_tuple_is_an_error() -> None:
    cols = [_text_col("LIST(integer not null)")]
    payload = b"\x00\x00\x00\x00\x40" + b"LIST{1}"
    with pytest.raises(Exception, match=r"past|expected|size"):
        build_row_decoder(cols, ENC)(payload, 0, len(payload))


def test_applies_only_to_numeric_collections() -> None:
    num = _col("LIST(integer not null)")
    assert text_form_applies([ColumnDesc("a", _T.INTEGER, 4), num, _col("SET(decimal(5,2))")])
    assert not text_form_applies([ColumnDesc("a", _T.INTEGER, 4)])
    for other in ("LIST(varchar(10) not null)", "SET(date not null)",
                  "LIST(LIST(integer not null) not null)", "MULTISET(boolean not null)"):
        assert not text_form_applies([num, _col(other)]), other
    row = ColumnDesc("r", _T.ROW, 0, type_name="ROW(a integer)")
    assert not text_form_applies([num, row])


# ------------------------------------------------------------------ C decoder (A_TLIST)

dec = at._arrowdec
needs_c = pytest.mark.skipif(dec is None, reason="the C column decoder is not built")


def _tuple(payload: bytes) -> bytes:
    return struct.pack(">HhI", 14, 0, len(payload)) + payload + b"\x00" * (len(payload) & 1)


def _c_decode(text: str, values: list[bytes | None]) -> Any:
    cols = [_text_col(text)]
    plan = at.tuple_plan(cols, ENC, False)
    assert plan is not None and plan[0][0] == at.A_TLIST
    run = b"".join(_tuple(_env(v)) for v in values)
    return dec.decode(run, len(values), at.c_plan(plan, cols, ENC), 1, False)


@needs_c
@pytest.mark.parametrize(("text", "values", "data", "offsets"), [
    ("LIST(integer not null)", [b"LIST{1,-1,2147483647,-2147483647}", b"LIST{}", None],
     bytes.fromhex("01000000 ffffffff ffffff7f 01000080"), [0, 4, 4, 4]),
    ("MULTISET(bigint not null)", [b"MULTISET{256,-9223372036854775807}", b"MULTISET{}", None],
     bytes.fromhex("0001000000000000 0100000000000080"), [0, 2, 2, 2]),
    ("LIST(smallint not null)", [b"LIST{32767,-32767,5,5}", b"LIST{}", None],
     bytes.fromhex("ff7f 0180 0500 0500"), [0, 4, 4, 4]),
    ("SET(integer not null)", [b"SET{5,-3,2}", b"SET{}", None],  # sorted, as A_LIST
     bytes.fromhex("fdffffff 02000000 05000000"), [0, 3, 3, 3]),
    ("LIST(integer not null)", [b"LIST{10,20,30}", b"LIST{10,20,30}", b"LIST{10,20,30}"],
     bytes.fromhex("0a000000 14000000 1e000000") * 3, [0, 3, 6, 9]),
])
def test_c_golden(text: str, values: list[bytes | None], data: bytes,
                  offsets: list[int]) -> None:
    out = _c_decode(text, values)
    assert out is not None
    nulls, validity, buf, offs = out[0]
    assert buf == data
    assert list(struct.unpack(f"<{len(offsets)}i", offs)) == offsets
    if values[-1] is None:
        assert nulls == 1 and validity[0] & 0b111 == 0b011
    else:
        assert nulls == 0


@needs_c
@pytest.mark.parametrize("wire", [
    b"LIST{1,NULL}", b"LIST{ 1}", b"LIST{+1}", b"LIST{1,}", b"LIST{,1}", b"LIST{-}",
    b"LIST{2147483648}", b"LIST{-2147483648}", b"LIST{1.0}", b"LIST{1e3}", b"LIST{1",
    b"{1}", b"LIST{99999999999999999999}",
])
def test_c_refuses_what_it_cannot_vouch_for(wire: bytes) -> None:
    """None: the run goes to the row decoder, which gives the value or the typed error."""
    assert _c_decode("LIST(integer not null)", [b"LIST{1}", wire]) is None


@needs_c
def test_c_bounds_of_each_width() -> None:
    assert _c_decode("LIST(smallint not null)", [b"LIST{32768}"]) is None
    assert _c_decode("LIST(bigint not null)", [b"LIST{9223372036854775808}"]) is None
    assert _c_decode("LIST(bigint not null)", [b"LIST{-9223372036854775808}"]) is None
    out = _c_decode("LIST(bigint not null)", [b"LIST{9223372036854775807}"])
    assert out is not None and out[0][2] == struct.pack("<q", 2**63 - 1)


# ------------------------------------------------- arrow14: floats and decimals in C, text_value

def _f64(*xs: float) -> bytes:
    return struct.pack(f"<{len(xs)}d", *xs)


def _d128(*unscaled: int) -> bytes:
    return b"".join(u.to_bytes(16, "little", signed=True) for u in unscaled)


@needs_c
@pytest.mark.parametrize(("text", "values", "data", "offsets"), [
    ("LIST(float not null)",
     [b"LIST{1.5,-0.0,1e+300,-5e-324,0.1}", b"LIST{}", None],
     _f64(1.5, -0.0, 1e300, -5e-324, 0.1), [0, 5, 5, 5]),
    ("SET(float not null)", [b"SET{2.5,-1E3,7}", b"SET{}", None],  # sorted, as A_LIST
     _f64(-1000.0, 2.5, 7.0), [0, 3, 3, 3]),
    # SMALLFLOAT: the double of the text, then float32 (what pyarrow makes of the row's float)
    ("MULTISET(smallfloat not null)",
     [b"MULTISET{1.100000023841858,3.4028234663852886e+38,-1.401298464324817e-45}",
      b"MULTISET{}", None],
     struct.pack("<3f", 1.100000023841858, 3.4028234663852886e38, -1.401298464324817e-45),
     [0, 3, 3, 3]),
    ("LIST(decimal(8,2) not null)", [b"LIST{1.25,-0.5,0,123456.78,-0.00}", b"LIST{}", None],
     _d128(125, -50, 0, 12345678, 0), [0, 5, 5, 5]),
    ("MULTISET(money(12,2) not null)", [b"MULTISET{9999999999.99,-1.5}", b"MULTISET{}", None],
     _d128(999999999999, -150), [0, 2, 2, 2]),
    ("LIST(decimal(32,10) not null)",
     [b"LIST{-1234567890123456789012.0000000001}", b"LIST{}", None],
     _d128(-12345678901234567890120000000001), [0, 1, 1, 1]),
    ("LIST(decimal(10) not null)", [b"LIST{1.5,-2E+3}", b"LIST{}", None],  # floating: float64
     _f64(1.5, -2000.0), [0, 2, 2, 2]),
])
def test_c_golden_floats_and_decimals(text: str, values: list[bytes | None], data: bytes,
                                      offsets: list[int]) -> None:
    """A_TLIST LK_FLOAT / LK_DEC buffers, and the same values as the row decoder's."""
    test_c_golden(text, values, data, offsets)
    from ifxwire import arrow as ifx_arrow
    pa = pytest.importorskip("pyarrow")
    plan = ifx_arrow._Plan(pa, [_text_col(text)])  # the row path's Arrow values
    field, conv = plan.schema.field(0), plan.converters[0]
    rows = [_row(text, v) for v in values[:1]]
    want = pa.array([r if conv is None else conv(r) for r in rows], type=field.type).values
    got = pa.Array.from_buffers(field.type.value_type, offsets[1], [None, pa.py_buffer(data)])
    assert got.equals(want) if "float" in text or "(10)" in text else got.to_pylist() == \
        want.to_pylist()


@needs_c
@pytest.mark.parametrize(("text", "wire"), [
    ("LIST(float not null)", b"LIST{inf}"), ("LIST(float not null)", b"LIST{nan}"),
    ("LIST(float not null)", b"LIST{.5}"), ("LIST(float not null)", b"LIST{+1.5}"),
    ("LIST(float not null)", b"LIST{1.5e}"), ("LIST(float not null)", b"LIST{1,NULL}"),
    ("LIST(float not null)", b"LIST{ 1.5}"), ("LIST(float not null)", b"LIST{1_0}"),
    ("LIST(float not null)", b"LIST{" + b"1" * 81 + b"}"),
    ("SET(float not null)", b"SET{0.0,-0.0}"),  # equal: a Set makes them one
    ("LIST(decimal(8,2) not null)", b"LIST{1.255}"),  # more digits than the scale
    ("LIST(decimal(8,2) not null)", b"LIST{1234567.00}"),  # more than the precision
    ("LIST(decimal(8,2) not null)", b"LIST{1E+2}"), ("LIST(decimal(8,2) not null)", b"LIST{1.}"),
    ("LIST(decimal(8,2) not null)", b"LIST{.5}"), ("LIST(decimal(8,2) not null)", b"LIST{NULL}"),
    ("LIST(decimal(8,2) not null)", b"MULTISET{1}"),  # another collection's opener
])
def test_c_refuses_other_float_and_decimal_spellings(text: str, wire: bytes) -> None:
    good = b"LIST{1}" if text.startswith("LIST") else b"SET{1}"
    assert _c_decode(text, [good, wire]) is None


def test_c_plan_kinds_of_text_collections() -> None:
    """Which text-form collections the C decoder takes (A_TLIST) and how: SET of DECIMAL
    and a DECIMAL wider than decimal128's 38 digits' share stay values for Python (A_RAW)."""
    def kind(text: str) -> tuple[int, int, int]:
        plan = at.tuple_plan([_text_col(text)], ENC, False)
        assert plan is not None
        return plan[0][0], plan[0][1], plan[0][2]

    assert kind("LIST(float not null)") == (at.A_TLIST, 8, at.LK_FLOAT)
    assert kind("SET(smallfloat not null)") == (at.A_TLIST, 4, at.LK_FLOAT | at.LK_SET)
    assert kind("MULTISET(int8 not null)") == (at.A_TLIST, 8, at.LK_INT)
    assert kind("LIST(decimal(16,4) not null)") == (at.A_TLIST, 16, (16 << 16) | (4 << 8) | 2)
    assert kind("LIST(money(12,2) not null)") == (at.A_TLIST, 16, (12 << 16) | (2 << 8) | 2)
    assert kind("SET(decimal(16,4) not null)")[0] == at.A_RAW
    assert kind("LIST(decimal(20) not null)")[0] == at.A_RAW  # floating, p > 15: strings


_C_TEXT = [
    ("LIST(integer not null)", b"LIST{1,-2,300000}"), ("SET(bigint not null)", b"SET{5,-7}"),
    ("MULTISET(smallint not null)", b"MULTISET{}"), ("LIST(float not null)", b"LIST{1e-5,-0.0}"),
    ("SET(smallfloat not null)", b"SET{1.5,2}"),
    ("LIST(integer not null)", b"LIST{1,NULL,3}"),  # the Python reader's: None inside
    ("LIST(bigint not null)", b"LIST{9223372036854775807}"),  # 19 digits: Python
    ("LIST(float not null)", b"LIST{ 1.5 , inf}"),
]


@pytest.mark.parametrize(("text", "wire"), _C_TEXT)
def test_c_text_value_equals_the_python_reader(text: str, wire: bytes,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """fetchall's C reader (``_arrowdec.text_value``) gives the Python reader's value, type
    and element_type, or leaves the text to it; its next offset is the envelope's end."""
    from ifxwire.types import compositetext

    if compositetext._c_text_value() is None:
        pytest.skip("the C accelerator is not in use")
    col = _text_col(text)
    buf = b"xyz" + _env(wire) + b"\x00"
    c_value, c_end = compositetext.envelope_text_decoder(col, ENC)(buf, 3)
    monkeypatch.setattr(compositetext, "_c_text_value", lambda: None)
    p_value, p_end = compositetext.envelope_text_decoder(col, ENC)(buf, 3)
    assert (type(c_value), c_value, c_value.element_type, c_end) == \
        (type(p_value), p_value, p_value.element_type, p_end) and c_end == len(buf) - 1
    assert [type(x) for x in c_value] == [type(x) for x in p_value]


@pytest.mark.parametrize("wire", [b"LIST{1,x}", b"SET{1}", b"LIST{1.5}", b"LIST{1,,2}"])
def test_malformed_text_is_a_data_error_with_the_c_reader(wire: bytes) -> None:
    """The C reader leaves malformed text to the Python reader: CodecDataError (DataError at
    the application) naming the column, accelerated or not."""
    with pytest.raises(CodecDataError, match=r"column 'l' \(list\(integer"):
        _row("LIST(integer not null)", wire)


def test_c_text_value_direct() -> None:
    """The envelope's framing in C: NULL (flag 1), past the buffer (left to Python)."""
    if dec is None or not hasattr(dec, "text_value"):
        pytest.skip("the C column decoder is not built")
    buf = b"\x00" + _env(b"LIST{7,8}")
    assert dec.text_value(buf, 1, b"LIST{", 0, List, "integer") == (List([7, 8]), len(buf))
    assert dec.text_value(b"\x01\x00\x00\x00\x00", 0, b"LIST{", 0, List, "x") == (None, 5)
    assert dec.text_value(buf[:-1], 1, b"LIST{", 0, List, "x") == (NotImplemented, 1)
    got = dec.text_value(_env(b"SET{2,1}"), 0, b"SET{", 0, Set, "integer")[0]
    assert isinstance(got, Set) and got == {1, 2} and got.element_type == "integer"
    assert isinstance(dec.text_value(_env(b"MULTISET{1}"), 0, b"MULTISET{", 1, Multiset,
                                     "float")[0][0], float)
