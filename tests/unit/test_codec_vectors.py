"""Golden byte vectors for every scalar and bind codec.

Each vector names its source: "jdbc 4.4" is /work/shared/reference/jdbc-protocol.md section 4.4
(observed on the wire with the IBM JDBC driver), "peer 3.3" is peer-informix-driver.md section
3.3 (informix-driver's encoder, verified against real servers). Vectors marked "derived" follow
from a quoted rule and are there to pin boundaries.
"""

from __future__ import annotations

import struct
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal

import pytest

from ifxwire.protocol.codes import TimeUnit as TU
from ifxwire.types import numeric as num
from ifxwire.types import temporal as tmp
from ifxwire.types import text as txt
from ifxwire.types.bind import BindValue, decode_bind_values, encode_bind_params, encode_bind_value
from ifxwire.types.errors import CodecDataError, CodecError, CodecNotSupported
from ifxwire.types.values import DateTimeFields, IntervalYM

H = bytes.fromhex


def dec_enclen(p: int, s: int) -> int:
    return (p << 8) | s


# ------------------------------------------------------------------------------------ integers


@pytest.mark.parametrize(
    ("encode", "decode", "value", "wire"),
    [
        # jdbc 4.1: SMALLINT i16, NULL 0x8000
        (num.encode_smallint, num.decode_smallint, None, "8000"),
        (num.encode_smallint, num.decode_smallint, 32767, "7fff"),
        (num.encode_smallint, num.decode_smallint, -32767, "8001"),
        (num.encode_smallint, num.decode_smallint, 0, "0000"),
        # jdbc 4.1: INTEGER i32, NULL 0x80000000
        (num.encode_integer, num.decode_integer, None, "80000000"),
        (num.encode_integer, num.decode_integer, 2147483647, "7fffffff"),
        (num.encode_integer, num.decode_integer, -2147483647, "80000001"),
        (num.encode_integer, num.decode_integer, 42, "0000002a"),
        # jdbc 4.1: BIGINT i64, NULL 0x8000000000000000
        (num.encode_bigint, num.decode_bigint, None, "8000000000000000"),
        (num.encode_bigint, num.decode_bigint, 2**63 - 1, "7fffffffffffffff"),
        (num.encode_bigint, num.decode_bigint, -(2**63) + 1, "8000000000000001"),
        # jdbc 4.2: INT8 sign, low word, high word
        (num.encode_int8, num.decode_int8, -1234567890123, "ffff71fb04cb0000011f"),
        # peer 3.2: INT8 vectors
        (num.encode_int8, num.decode_int8, 123456789012, "0001be991a140000001c"),
        (num.encode_int8, num.decode_int8, -123456789012, "ffffbe991a140000001c"),
        (num.encode_int8, num.decode_int8, 42, "00010000002a00000000"),
        (num.encode_int8, num.decode_int8, None, "00000000000000000000"),
        (num.encode_int8, num.decode_int8, 1 << 32, "00010000000000000001"),
        # derived (jdbc 4.1 layout): zero must not use sign 0 (that is NULL); INT8 extremes
        (num.encode_int8, num.decode_int8, 0, "00010000000000000000"),
        (num.encode_int8, num.decode_int8, 2**63 - 1, "0001ffffffff7fffffff"),
        (num.encode_int8, num.decode_int8, -(2**63) + 1, "ffffffffffff7fffffff"),
    ],
)
def test_integer_vectors(encode, decode, value, wire):  # type: ignore[no-untyped-def]
    assert encode(value) == H(wire)
    assert decode(b"\xaa" + H(wire), 1) == value


@pytest.mark.parametrize(
    ("encode", "value"),
    [
        # The NULL sentinel itself is not a value (jdbc 4.1), so ranges are symmetric.
        (num.encode_smallint, -32768),
        (num.encode_smallint, 32768),
        (num.encode_integer, -(2**31)),
        (num.encode_integer, 2**31),
        (num.encode_bigint, -(2**63)),
        (num.encode_bigint, 2**63),
        (num.encode_int8, 2**63),
        (num.encode_int8, -(2**63)),
    ],
)
def test_integer_out_of_range(encode, value):  # type: ignore[no-untyped-def]
    with pytest.raises(CodecDataError):
        encode(value)


def test_integer_rejects_float() -> None:
    with pytest.raises(CodecError):
        num.encode_integer(1.5)


# -------------------------------------------------------------------------------------- floats


def test_float_vectors() -> None:
    # jdbc 4.1 / 4.2: IEEE big-endian, NULL all 0xFF
    assert num.encode_float(1.5) == H("3ff8000000000000")
    assert num.encode_float(None) == b"\xff" * 8
    assert num.decode_float(b"\xff" * 8, 0) is None
    assert num.decode_float(H("3ff8000000000000"), 0) == 1.5
    assert num.encode_smallfloat(0.25) == H("3e800000")
    assert num.encode_smallfloat(None) == b"\xff" * 4
    assert num.decode_smallfloat(b"\xff" * 4, 0) is None
    assert num.decode_smallfloat(H("3e800000"), 0) == 0.25
    # A NaN that is not the all-0xFF pattern is a value, not NULL (derived).
    nan = num.decode_float(H("7ff8000000000000"), 0)
    assert nan is not None and nan != nan


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_float_rejects_non_finite(value: float) -> None:
    with pytest.raises(CodecDataError):
        num.encode_float(value)


def test_smallfloat_overflow() -> None:
    with pytest.raises(CodecDataError):
        num.encode_smallfloat(1e39)


# ------------------------------------------------------------------------------------- decimal


@pytest.mark.parametrize(
    ("enclen", "width"),
    [
        (dec_enclen(10, 2), 6),  # jdbc 4.3: decimal(10,2) is 6 bytes
        (dec_enclen(8, 2), 5),  # jdbc 4.3: money(8,2) is 5 bytes
        (dec_enclen(16, 255), 10),  # peer 3.2: unscaled DECIMAL(16) is 10 bytes
        (dec_enclen(4, 1), 4),  # other-sources A: DECLEN(4,1) = 4
        (dec_enclen(32, 0), 17),  # derived from (p + (s & 1) + 3) // 2
        (dec_enclen(32, 31), 18),
    ],
)
def test_decimal_width(enclen: int, width: int) -> None:
    assert num.decimal_width(enclen) == width


def test_decimal_tuple_vectors() -> None:
    # jdbc 4.4
    assert num.encode_decimal(Decimal("123456.78"), dec_enclen(10, 2)) == H("c30c22384e00")
    assert num.encode_decimal(Decimal("99.50"), dec_enclen(8, 2)) == H("c163320000")
    assert num.decode_decimal(H("c30c22384e00"), 0, 6, 2) == Decimal("123456.78")
    money = num.decode_decimal(H("c163320000"), 0, 5, 2)
    assert money == Decimal("99.50") and str(money) == "99.50"
    # jdbc 4.4: NULL is 00 00
    assert num.encode_decimal(None, dec_enclen(10, 2)) == bytes(6)
    assert num.decode_decimal(bytes(6), 0, 6, 2) is None


@pytest.mark.parametrize(
    ("value", "wire", "prec"),
    [
        ("-123.45", "00043d624c37", 2),  # jdbc 4.4 (bind, prec = scale per jdbc 3.4)
        ("1234.56", "0004c20c2238", 2),  # peer 3.3
        ("-1234.56", "00043d57412c", 2),  # peer 3.3
        ("0.5", "0002c032", 1),  # peer 3.3
        ("0.001", "0002bf0a", 3),  # peer 3.3
        # jdbc 4.4: the JDBC driver binds 0 as C1 00; peer 3.3: informix-driver binds 0 as c1 00.
        ("0", "0002c100", 0),
    ],
)
def test_decimal_bind_vectors(value: str, wire: str, prec: int) -> None:
    assert num.encode_decimal_bind(Decimal(value)) == (prec, H(wire))
    decoded, end = num.decode_decimal_bind(H(wire), 0)
    assert decoded == Decimal(value) and end == len(H(wire))


@pytest.mark.parametrize(
    ("wire", "value"),
    [
        # jdbc 4.4: what the JDBC driver binds, not normalised
        ("c100", "0"),
        ("c000", "0"),
        ("c10005", "0.05"),
        ("3e63", "-1"),
        ("3e635f", "-0.05"),
        # peer 3.3
        ("c20c2238", "1234.56"),
        ("3d57412c", "-1234.56"),
        ("c032", "0.5"),
        ("bf0a", "0.001"),
    ],
)
def test_decimal_decode_non_normalised(wire: str, value: str) -> None:
    assert num.decode_decimal(H(wire), 0, len(H(wire))) == Decimal(value)


def test_decimal_floating_presentation() -> None:
    # Floating DECIMAL: no trailing fraction zeros, no exponent notation for integers.
    assert str(num.decode_decimal(H("c032"), 0, 2)) == "0.5"
    assert str(num.decode_decimal(H("c20100"), 0, 3)) == "100"
    assert str(num.decode_decimal(H("c000"), 0, 2, 2)) == "0.00"
    # Zero in a tuple is 80 00 …: JDBC 15.0.0.1 and 4.50.10 both fail on C0 00 at scale 0
    # (tests/interop select_zero_values), and 80 keeps the format memcmp-sortable.
    assert num.encode_decimal(Decimal(0), dec_enclen(5, 2)) == H("80000000")
    assert str(num.decode_decimal(H("80000000"), 0, 4, 2)) == "0.00"


def test_decimal_rounds_half_up() -> None:
    e = dec_enclen(5, 2)
    assert num.decode_decimal(num.encode_decimal(Decimal("1.005"), e), 0, 4, 2) == Decimal("1.01")
    assert num.decode_decimal(num.encode_decimal(Decimal("1.004"), e), 0, 4, 2) == Decimal("1.00")
    assert num.decode_decimal(num.encode_decimal(Decimal("-1.005"), e), 0, 4, 2) == Decimal("-1.01")
    assert num.decode_decimal(num.encode_decimal(Decimal("0.125"), dec_enclen(4, 255)), 0, 4) == (
        Decimal("0.125")
    )


def test_decimal_32_digits() -> None:
    big = Decimal("9" * 32)
    wire = num.encode_decimal(big, dec_enclen(32, 0))
    assert wire == H("d0") + bytes([99] * 16)
    assert num.decode_decimal(wire, 0, 17, 0) == big
    neg = Decimal("-" + "9" * 32)  # not -big: unary minus rounds to the 28-digit context
    assert num.decode_decimal(num.encode_decimal(neg, dec_enclen(32, 0)), 0, 17, 0) == neg
    tiny = Decimal("0." + "1" * 31)
    assert num.decode_decimal(num.encode_decimal(tiny, dec_enclen(32, 31)), 0, 18, 31) == tiny
    prec, data = num.encode_decimal_bind(Decimal("1." + "2" * 31))
    assert prec == 31 and num.decode_decimal_bind(data, 0)[0] == Decimal("1." + "2" * 31)


@pytest.mark.parametrize(
    ("value", "enclen"),
    [
        (Decimal("1E32"), dec_enclen(32, 0)),
        (Decimal("1000"), dec_enclen(5, 2)),
        (Decimal("999.995"), dec_enclen(5, 2)),  # rounds up to 1000.00
        (Decimal("NaN"), dec_enclen(5, 2)),
        (Decimal("Infinity"), dec_enclen(5, 2)),
        (Decimal("1E200"), dec_enclen(5, 255)),
    ],
)
def test_decimal_does_not_fit(value: Decimal, enclen: int) -> None:
    with pytest.raises(CodecDataError):
        num.encode_decimal(value, enclen)


@pytest.mark.parametrize("value", ["1." + "1" * 32, "NaN", "-Infinity", "1E+200"])
def test_decimal_bind_does_not_fit(value: str) -> None:
    with pytest.raises(CodecDataError):
        num.encode_decimal_bind(Decimal(value))


def test_decimal_bad_digit() -> None:
    with pytest.raises(CodecError):
        num.decode_decimal(H("c1ff"), 0, 2)


# ------------------------------------------------------------------------------------- DATE


@pytest.mark.parametrize(
    ("value", "wire"),
    [
        (date(2024, 2, 29), struct.pack(">i", 45350)),  # jdbc 4.1
        (date(1899, 12, 31), struct.pack(">i", 0)),  # jdbc 4.1: the epoch is day 0
        (date(1, 1, 1), H("fff56aa6")),  # derived: -693594
        (date(9999, 12, 31), H("002d2480")),  # derived: 2958464
        (None, H("80000000")),  # jdbc 4.1
    ],
)
def test_date_vectors(value: date | None, wire: bytes) -> None:
    assert tmp.encode_date(value) == wire
    assert tmp.decode_date(wire, 0) == value


def test_date_out_of_range() -> None:
    with pytest.raises(CodecDataError):
        tmp.decode_date(struct.pack(">i", 2958465), 0)
    with pytest.raises(CodecDataError):
        tmp.encode_date(datetime(2024, 1, 1, 12))


# ---------------------------------------------------------------------------- DATETIME/INTERVAL


def test_qualifiers() -> None:
    # jdbc 4.5
    assert tmp.datetime_qualifier(TU.YEAR, TU.SECOND) == 0x0E0A
    assert tmp.datetime_qualifier(TU.YEAR, TU.FRACTION3) == 0x110D
    assert tmp.datetime_qualifier(TU.YEAR, TU.SECOND, 3) == 0x110D
    assert tmp.interval_qualifier(TU.DAY, TU.SECOND, 3) == 0x094A
    assert tmp.parse_qualifier(0x094A) == (9, TU.DAY, TU.SECOND)
    assert tmp.qualifier(9, TU.DAY, TU.SECOND) == 0x094A
    # jdbc 3.4 / peer 3.4: bind qualifiers
    assert tmp.datetime_qualifier(TU.YEAR, TU.FRACTION5) == 0x130F
    assert tmp.interval_qualifier(TU.DAY, TU.FRACTION5, 9) == 0x144F
    assert tmp.interval_qualifier(TU.YEAR, TU.MONTH, 9) == 0x0B02
    assert tmp.datetime_qualifier(TU.HOUR, TU.FRACTION5) == tmp.TIME_BIND_QUALIFIER
    # jdbc 4.3 widths: Y-S 8, Y-F3 10, D(3)-S 6; peer 3.2: Y-F5 11
    assert [tmp.qualifier_width(q) for q in (0x0E0A, 0x110D, 0x094A, 0x130F)] == [8, 10, 6, 11]


@pytest.mark.parametrize(
    ("q", "value", "wire"),
    [
        (0x0E0A, datetime(2024, 2, 29, 13, 45, 59), "c71418021d0d2d3b"),  # jdbc 4.5
        (0x110D, datetime(2024, 2, 29, 13, 45, 59, 123000), "c71418021d0d2d3b0c1e"),  # jdbc 4.5
        # derived from jdbc 4.5 (canonical exponent 7 for YEAR-start, fields from the start)
        (tmp.datetime_qualifier(TU.YEAR, TU.DAY), date(2024, 2, 29), "c71418021d"),
        (tmp.datetime_qualifier(TU.HOUR, TU.SECOND), time(0, 5, 6), "c3000506"),
        (0x130F, datetime(2024, 2, 29, 0, 0, 0, 999990), "c71418021d00000063635a"),
        (tmp.datetime_qualifier(TU.YEAR, TU.HOUR), datetime(2024, 2, 29, 13), "c71418021d0d"),
        (0x0E0A, None, "0000000000000000"),  # jdbc 4.1: NULL is 00 00 …
    ],
)
def test_datetime_vectors(q: int, value: object, wire: str) -> None:
    assert tmp.encode_datetime(value, q) == H(wire)
    assert tmp.decode_datetime(H(wire), 0, q) == value


def test_datetime_fraction5_resolution() -> None:
    # peer 3.4 / 4: FRACTION(5) keeps 10 µs; 999999 µs is stored as .99999
    wire = tmp.encode_datetime(datetime(2024, 1, 1, 0, 0, 0, 999999), 0x130F)
    assert tmp.decode_datetime(wire, 0, 0x130F) == datetime(2024, 1, 1, 0, 0, 0, 999990)


def test_datetime_decodes_normalised_and_shifted_forms() -> None:
    hts = tmp.datetime_qualifier(TU.HOUR, TU.SECOND)
    # peer 3.4 [inference]: a server that drops leading zero pairs; we locate fields by exponent
    assert tmp.decode_datetime(H("c2050600"), 0, hts) == time(0, 5, 6)
    assert tmp.decode_datetime(H("c1060000"), 0, hts) == time(0, 0, 6)
    assert tmp.decode_datetime(H("c0000000"), 0, hts) == time(0, 0, 0)


def test_datetime_other_qualifiers_give_fields() -> None:
    md = tmp.datetime_qualifier(TU.MONTH, TU.DAY)
    value = DateTimeFields(TU.MONTH, TU.DAY, month=2, day=29)
    wire = tmp.encode_datetime(value, md)
    assert wire == H("c5021d")  # derived: point after seconds, so exponent 5
    assert tmp.decode_datetime(wire, 0, md) == value
    ym = tmp.datetime_qualifier(TU.YEAR, TU.MONTH)
    assert tmp.decode_datetime(tmp.encode_datetime(date(2024, 2, 1), ym), 0, ym) == (
        DateTimeFields(TU.YEAR, TU.MONTH, year=2024, month=2)
    )


def test_datetime_refuses_time_zones_and_missing_fields() -> None:
    with pytest.raises(CodecError):
        tmp.encode_datetime(datetime(2024, 1, 1, tzinfo=timezone.utc), 0x0E0A)
    with pytest.raises(CodecError):
        tmp.encode_datetime(time(1, 2, 3), 0x0E0A)


@pytest.mark.parametrize(
    ("q", "value", "wire"),
    [
        # jdbc 4.5
        (0x094A, timedelta(days=12, hours=3, minutes=4, seconds=5), "c5000c030405"),
        # derived: negative uses the DECIMAL negative form (jdbc 4.5 / 4.4)
        (0x094A, -timedelta(days=12, hours=3), "3a6357610000"),
        # derived: INTERVAL leading precision 9
        (0x144F, timedelta(days=999999999), "c80963636363000000000000"),
        (0x0B02, IntervalYM.of(5, 3), "ca000000000503"),
        (0x0B02, IntervalYM(-63), "35636363635e61"),
        (0x094A, None, "000000000000"),
    ],
)
def test_interval_vectors(q: int, value: object, wire: str) -> None:
    assert tmp.encode_interval(value, q) == H(wire)
    assert tmp.decode_interval(H(wire), 0, q) == value


def test_interval_leading_precision_overflow() -> None:
    with pytest.raises(CodecDataError):
        tmp.encode_interval(timedelta(days=1000), 0x094A)
    with pytest.raises(CodecDataError):
        tmp.encode_interval(IntervalYM.of(1_000_000_000), 0x0B02)


def test_interval_class_mismatch() -> None:
    with pytest.raises(CodecError):
        tmp.encode_interval(IntervalYM(1), 0x094A)
    with pytest.raises(CodecError):
        tmp.encode_interval(timedelta(1), 0x0B02)


def test_temporal_bind_vectors() -> None:
    # peer 3.4: 2026-08-31 12:30:15 as YEAR TO SECOND, and with .12 as YEAR TO FRACTION(5)
    assert tmp.encode_datetime_bind(datetime(2026, 8, 31, 12, 30, 15), 0x0E0A) == (
        0x0E0A,
        H("0008c7141a081f0c1e0f"),
    )
    assert tmp.encode_datetime_bind(datetime(2026, 8, 31, 12, 30, 15, 120000)) == (
        0x130F,
        H("000bc7141a081f0c1e0f0c0000"),
    )
    # peer 3.4: 3 d 04:05:06 as DAY(9) TO FRACTION(5)
    assert tmp.encode_interval_bind(timedelta(days=3, hours=4, minutes=5, seconds=6)) == (
        0x144F,
        H("000cc80000000003040506000000"),
    )
    value, end = tmp.decode_interval_bind(H("000cc80000000003040506000000"), 0, 0x144F)
    assert value == timedelta(days=3, hours=4, minutes=5, seconds=6) and end == 14


# -------------------------------------------------------------------------------------- text


def test_char_vectors() -> None:
    # jdbc 4.1 / peer 3.2: blank padded, NULL = first byte 0x00 (peer: 00 20 20 …)
    assert txt.encode_char("abc", 5, "ascii") == b"abc  "
    assert txt.encode_char(None, 5, "ascii") == H("0020202020")
    assert txt.encode_char("", 3, "ascii") == b"   "
    assert txt.decode_char(b"abc  ", 0, 5, "ascii") == "abc"
    assert txt.decode_char(b"abc  ", 0, 5, "ascii", keep_padding=True) == "abc  "
    assert txt.decode_char(b"   ", 0, 3, "ascii") == ""
    assert txt.decode_char(H("0020202020"), 0, 5, "ascii") is None
    # lengths are bytes of the connection encoding
    assert txt.encode_char("é", 2, "utf-8") == H("c3a9")
    with pytest.raises(CodecDataError):
        txt.encode_char("é", 1, "utf-8")
    assert txt.encode_char("é", 1, "iso-8859-1") == H("e9")
    with pytest.raises(CodecDataError):
        txt.encode_char("abcdef", 5, "ascii")
    with pytest.raises(CodecDataError):
        txt.encode_char("\x00a", 5, "ascii")
    with pytest.raises(CodecDataError):
        txt.encode_char("€", 5, "iso-8859-1")


def test_varchar_vectors() -> None:
    # jdbc 4.1: u8 length + bytes, NULL 01 00, empty 00
    assert txt.encode_varchar("abc", 10, "ascii") == H("03616263")
    assert txt.encode_varchar(None, 10, "ascii") == H("0100")
    assert txt.encode_varchar("", 10, "ascii") == H("00")
    assert txt.decode_varchar(H("0100"), 0, "ascii") == (None, 2)
    assert txt.decode_varchar(H("00"), 0, "ascii") == ("", 1)
    assert txt.decode_varchar(H("03616263"), 0, "ascii") == ("abc", 4)
    assert txt.encode_varchar("x" * 255, 255, "ascii")[0] == 255
    with pytest.raises(CodecDataError):
        txt.encode_varchar("x" * 256, 255, "ascii")
    with pytest.raises(CodecDataError):
        txt.encode_varchar("abc", 2, "ascii")
    with pytest.raises(CodecDataError):
        txt.encode_varchar("\x00", 2, "ascii")


def test_lvarchar_vectors() -> None:
    # peer 3.2: [ind][int32 len][bytes], no pad; NULL keeps its length (5 bytes)
    assert txt.encode_lvarchar("abc", "ascii") == H("0000000003616263")
    assert txt.encode_lvarchar(None, "ascii") == H("0100000000")
    assert txt.encode_lvarchar("", "ascii") == H("0000000000")
    assert txt.decode_lvarchar(H("0000000003616263"), 0, "ascii") == ("abc", 8)
    assert txt.decode_lvarchar(H("0100000000"), 0, "ascii") == (None, 5)
    # jdbc 4.3: one trailing NUL is dropped
    assert txt.decode_lvarchar(H("000000000461626300"), 0, "ascii") == ("abc", 9)
    with pytest.raises(CodecDataError):
        txt.encode_lvarchar("abc", "ascii", max_len=2)


def test_boolean_vectors() -> None:
    # jdbc 4.1: u8 flag, i32 1, u8 value 1/0; NULL flag 1 (5 bytes, peer 3.2)
    assert txt.encode_boolean(True) == H("000000000101")
    assert txt.encode_boolean(False) == H("000000000100")
    assert txt.encode_boolean(None) == H("0100000000")
    assert txt.decode_boolean(H("000000000101"), 0) == (True, 6)
    assert txt.decode_boolean(H("000000000100"), 0) == (False, 6)
    assert txt.decode_boolean(H("0100000000"), 0) == (None, 5)
    # peer 3.2: 't'/'f' content bytes
    assert txt.decode_boolean(H("000000000174"), 0) == (True, 6)
    assert txt.decode_boolean(H("000000000166"), 0) == (False, 6)
    # JDBC IfxBoolean.fromIfx (bytecode): content 0xFF (IFX_BOOL_NULL) is NULL
    assert txt.decode_boolean(H("0000000001ff"), 0) == (None, 6)
    with pytest.raises(CodecError):
        txt.decode_boolean(H("000000000107"), 0)


# ------------------------------------------------------------------------------------- binds


@pytest.mark.parametrize(
    ("value", "wire"),
    [
        (None, "0000ffff0000"),  # jdbc 3.4 layout: CHAR, indicator -1, no data
        (True, "00000000000000017400"),  # peer 3.5: CHAR 't'
        (False, "00000000000000016600"),  # peer 3.5: CHAR 'f'
        (42, "000200000a000000002a"),  # jdbc 3.4 setInt: type 2, prec 0x0A00
        (2**40, "0034000013000000010000000000"),  # jdbc 3.4 setLong(BIGINT): 52, 0x1300
        (-(2**31), "003400001300ffffffff80000000"),  # INTEGER NULL sentinel → BIGINT
        (1.5, "0003000000003ff8000000000000"),  # jdbc 3.4 setDouble: type 3, prec 0
        (Decimal("-123.45"), "00050000000200043d624c37"),  # jdbc 3.4 + 4.4
        ("abc", "000000000000000361626300"),  # jdbc 3.4 setString: CHAR, u16 len, pad
        (date(2024, 2, 29), "0007000000000000b126"),  # jdbc 3.4 setDate
        # jdbc 3.4 setTimestamp: YEAR TO FRACTION(5) prec 0x130F, u16 len + digits
        (datetime(2026, 8, 31, 12, 30, 15, 120000), "000a0000130f000bc7141a081f0c1e0f0c000000"),
        # derived: time as HOUR TO FRACTION(5)
        (time(1, 2, 3, 456780), "000a00000b6f0007c30102032d435000"),
        # peer 3.4: timedelta as DAY(9) TO FRACTION(5)
        (
            timedelta(days=3, hours=4, minutes=5, seconds=6),
            "000e0000144f000cc80000000003040506000000",
        ),
        (IntervalYM.of(5, 3), "000e00000b020007ca00000000050300"),  # peer 3.4 qualifier
    ],
)
def test_bind_encode_vectors(value: object, wire: str) -> None:
    assert encode_bind_value(value, "utf-8") == H(wire)
    (decoded,), end = decode_bind_values(H(wire), 0, 1, "utf-8")
    assert end == len(H(wire))
    expected = {True: "t", False: "f"}.get(value, value) if isinstance(value, bool) else value
    assert decoded.value == expected


def test_bind_long_string_is_lvarchar() -> None:
    # jdbc 3.4: LVARCHAR bind = 43, owner "", name "", then u32 len + bytes
    s = "x" * 40000
    wire = encode_bind_value(s, "ascii")
    assert wire[:14] == H("002b000000000000000000009c40")
    (bv,), end = decode_bind_values(wire, 0, 1, "ascii")
    assert bv == BindValue(43, 0, 0, s) and end == len(wire)


def test_bind_refusals() -> None:
    with pytest.raises(CodecError):
        encode_bind_value(complex(1, 2), "ascii")
    with pytest.raises(CodecDataError):
        encode_bind_value(2**63, "ascii")
    with pytest.raises(CodecError):
        encode_bind_value(datetime(2024, 1, 1, tzinfo=timezone.utc), "ascii")
    with pytest.raises(CodecError):
        encode_bind_value(object(), "ascii")
    with pytest.raises(CodecDataError):
        encode_bind_value(Decimal("NaN"), "ascii")


def test_bind_decode_jdbc_shapes() -> None:
    """The items jdbc 3.4 lists for the standard setters, as a server receives them."""
    wire = b"".join(
        [
            H("0001 0000 0500 0007".replace(" ", "")),  # setShort: 1, prec 0x0500
            H("0011 0000 1300 ffff71fb04cb0000011f".replace(" ", "")),  # setLong(INT8) jdbc 4.2
            H("0004 0000 0000 3e800000".replace(" ", "")),  # setFloat
            # setBoolean: 45, owner "", name "boolean", prec 1, u32 1 + 01, pad
            H("002d 0000 0007 626f6f6c65616e00 0000 0001 00000001 01 00".replace(" ", "")),
            H("0005 0000 0002 0002 c100".replace(" ", "")),  # setBigDecimal(0): C1 00
            H("0005 0000 0002 0003 c10005 00".replace(" ", "")),  # 0.05 → C1 00 05 (+pad)
            H("0002 ffff 0000".replace(" ", "")),  # setNull(INTEGER)
            # setString on an LVARCHAR parameter: 43, "", "", u32 len + bytes, pad
            H("002b 0000 0000 0000 0000 00000003 616263 00".replace(" ", "")),
        ]
    )
    values, end = decode_bind_values(b"\x00\x08" + wire, 2, 8, "ascii")
    assert end == len(wire) + 2
    assert [v.value for v in values] == [
        7,
        -1234567890123,
        0.25,
        True,
        Decimal("0"),
        Decimal("0.05"),
        None,
        "abc",
    ]
    assert values[6] == BindValue(2, -1, 0, None)
    assert values[3].type == 45 and values[3].prec == 1


def test_bind_params_body() -> None:
    body = encode_bind_params([1, None], "ascii")
    assert body == H("0002000200000a00000000010000ffff0000")


def test_bind_decode_errors_name_the_offset() -> None:
    with pytest.raises(CodecError, match="offset 2"):
        decode_bind_values(H("00000002000000"), 2, 1, "ascii")
    with pytest.raises(CodecError, match="indicator"):
        decode_bind_values(H("00020005000000000001"), 0, 1, "ascii")
    with pytest.raises(CodecNotSupported):
        decode_bind_values(H("00180000000000000000"), 0, 1, "ascii")  # ROWREF
    with pytest.raises(CodecError, match="parameter 1"):  # a SET with no value bytes
        decode_bind_values(H("00130000000000000000"), 0, 1, "ascii")
