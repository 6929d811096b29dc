"""The server's DECIMAL bind decoding and storing on the pure path (issue 25, ingest14):
``numeric.decode_decimal``'s one-``translate`` shortcut for positive values and
``values.fit_decimal``'s shared context give exactly what the digit loop and a context per
call gave: the same Decimal (digits and exponent), the same error on malformed bytes, the same
rounding and the same -1226."""

from __future__ import annotations

import decimal
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ifxwire.server.engine.core import values as v
from ifxwire.server.engine.core.errors import EngineError
from ifxwire.types import numeric as n
from ifxwire.types.errors import CodecError


def reference(buf: bytearray, offset: int, width: int, scale: int) -> Decimal | None:
    """decode_decimal spelled the long way: base100_decode, then the digits pair by pair."""
    parts = n.base100_decode(buf, offset, width)
    if parts is None:
        return None
    negative, exp, digits = parts
    return n._spelled("-" if negative else "", "".join(f"{d:02d}" for d in digits),
                      2 * (exp - len(digits)), scale)


def outcome(fn: object, *args: object) -> object:
    try:
        value = fn(*args)  # type: ignore[operator]
    except CodecError as exc:
        return ("error", type(exc), str(exc))
    return ("value", None if value is None else (str(value), value.as_tuple()))


@settings(max_examples=400, deadline=None)
@given(data=st.binary(max_size=22), offset=st.integers(0, 3), width=st.integers(1, 21),
       scale=st.sampled_from([255, 0, 2, 5, 16, 32]))
def test_any_bytes_decode_as_the_digit_loop(data: bytes, offset: int, width: int,
                                            scale: int) -> None:
    buf = bytearray(b"\x07" * offset + data)
    assert outcome(n.decode_decimal, buf, offset, width, scale) == outcome(
        reference, buf, offset, width, scale)


GOLDEN = [  # (bind bytes after the u16 length: encode_decimal_bind's, value; None: refused)
    ("c301172d43", "12345.67"), ("c101", "1"), ("c100", "0"), ("8000", "0"),
    ("3f63", "-0.01"), ("3e63", "-1"), ("c0323c", "0.506"), ("d001", "1E+30"),
    ("9101", "1E-96"), ("3557412b150957412b150958", "-12345678901234567890.12"),
    ("d063636363636363636363636363636363", "9" * 32),
    ("c164", None), ("3e64", None),  # a digit of 100: refused, positive or negative
]


@pytest.mark.parametrize(("hexed", "text"), GOLDEN)
def test_golden_bind_bytes(hexed: str, text: str | None) -> None:
    raw = bytearray.fromhex(hexed)
    if text is None and max(raw[1:]) > 99:
        with pytest.raises(CodecError, match="bad base-100 digit"):
            n.decode_decimal(raw, 0, len(raw))
        return
    got = n.decode_decimal(raw, 0, len(raw))
    assert got is not None
    if text is not None:
        assert got == Decimal(text)
    assert outcome(n.decode_decimal, raw, 0, len(raw), 255) == outcome(
        reference, raw, 0, len(raw), 255)


def test_a_value_cut_short_is_still_a_codec_error() -> None:
    with pytest.raises(CodecError, match="needs 4 bytes, has 2"):
        n.decode_decimal(bytearray.fromhex("c301"), 0, 4)


def _fit_reference(d: Decimal, prec: int, scale: int) -> Decimal | str:
    q = d.quantize(Decimal(1).scaleb(-scale), rounding=decimal.ROUND_HALF_UP,
                   context=decimal.Context(prec=80))
    if q.adjusted() >= prec - scale and not q.is_zero():
        return "-1226"
    return q


def _fit(d: Decimal, prec: int, scale: int) -> object:
    try:
        return v.fit_decimal(d, prec, scale)
    except EngineError as exc:
        return str(exc.sqlcode)


@settings(max_examples=400, deadline=None)
@given(d=st.decimals(allow_nan=False, allow_infinity=False, places=None,
                     min_value=Decimal("-1E40"), max_value=Decimal("1E40")),
       prec=st.integers(1, 32), data=st.data())
def test_fit_decimal_rounds_and_refuses_as_before(d: Decimal, prec: int,
                                                  data: st.DataObject) -> None:
    scale = data.draw(st.integers(0, prec))
    got, want = _fit(d, prec, scale), _fit_reference(d, prec, scale)
    assert got == want
    if isinstance(got, Decimal):
        assert isinstance(want, Decimal) and got.as_tuple() == want.as_tuple()


@pytest.mark.parametrize(("value", "prec", "scale", "want"), [
    ("12345.675", 12, 2, "12345.68"), ("-12345.675", 12, 2, "-12345.68"),
    ("0.005", 5, 2, "0.01"), ("-0.004", 5, 2, "0.00"), ("9999999999.995", 12, 2, "-1226"),
    ("1E+3", 6, 2, "1000.00"), ("123", 3, 0, "123"), ("1000", 3, 0, "-1226"),
])
def test_fit_decimal_golden(value: str, prec: int, scale: int, want: str) -> None:
    got = _fit(Decimal(value), prec, scale)
    assert (v.dec_text(got) if isinstance(got, Decimal) else got) == want


# --- purerun.decimal_text: the pure server's DECIMAL bind made the column's text directly ----


def _stored(buf: bytearray, width: int, prec: int, scale: int) -> object:
    """What the column's storer makes of the decoded bind (None, the text, or the error)."""
    from ifxwire.server.engine.core.convert import storer
    from ifxwire.server.engine.core.ifxtypes import IfxType

    try:
        return storer(IfxType(5, prec=prec, scale=scale))(n.decode_decimal(buf, 0, width))
    except EngineError as exc:
        return exc.sqlcode


@settings(max_examples=600, deadline=None)
@given(data=st.binary(min_size=1, max_size=18), prec=st.integers(1, 32), draw=st.data())
def test_decimal_text_is_the_storers_text_or_leaves_it_to_the_storer(
        data: bytes, prec: int, draw: st.DataObject) -> None:
    from ifxwire.server import purerun

    scale = draw.draw(st.integers(0, prec))
    buf = bytearray(data)
    got = purerun.decimal_text(buf, 0, len(buf), prec, scale)
    if got is purerun.MISS:
        return
    assert got == _stored(buf, len(buf), prec, scale)


@pytest.mark.parametrize(("hexed", "prec", "scale", "want"), [
    ("c301172d43", 12, 2, "12345.67"), ("c301172d43", 7, 2, "12345.67"),
    ("c301172d43", 6, 2, "MISS"),  # too large: the storer's -1226
    ("c301172d43", 12, 1, "MISS"),  # rounding: the storer's
    ("c301172d43", 12, 4, "12345.6700"), ("c101", 5, 0, "1"), ("c100", 5, 2, "0.00"),
    ("8000", 5, 2, "0.00"), ("0000", 5, 2, None), ("c0323c", 5, 3, "0.506"),
    ("c0323c", 3, 3, "0.506"), ("c0323c", 5, 4, "0.5060"), ("d001", 32, 1, "1" + "0" * 30 + ".0"),
    ("3e63", 5, 0, "-1"), ("3f63", 5, 2, "-0.01"), ("3f63", 5, 1, "MISS"),  # negative
    ("3c624c3621", 12, 2, "-12345.67"), ("3d5a", 6, 0, "-1000"), ("405a", 5, 3, "-0.001"),
    ("405a", 5, 2, "MISS"),  # -0.001 into a scale of 2: the storer rounds it
    ("c164", 5, 0, "MISS"),  # a digit of 100: the decoder's error, by the storer's path
    ("c20100", 5, 0, "100"), ("c00a", 5, 2, "0.10"), ("bf0a", 5, 3, "0.001"),
    ("bf0a", 5, 2, "MISS"), ("be01", 6, 6, "0.000001"),
])
def test_decimal_text_golden(hexed: str, prec: int, scale: int, want: str | None) -> None:
    from ifxwire.server import purerun

    buf = bytearray.fromhex(hexed)
    got = purerun.decimal_text(buf, 0, len(buf), prec, scale)
    assert ("MISS" if got is purerun.MISS else got) == want
    if want not in ("MISS", None):
        assert got == _stored(buf, len(buf), prec, scale)
