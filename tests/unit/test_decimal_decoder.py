"""numeric.decimal_decoder (the pure tuple loop's DECIMAL/MONEY decoder) is decode_decimal:
the same value, the same digits and exponent, the same error on malformed bytes."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ifxwire.types import numeric as n
from ifxwire.types.errors import CodecError

ENCLENS = [
    (12 << 8) | 2, (16 << 8) | 255, (5 << 8) | 5, (32 << 8) | 0, (31 << 8) | 255, (1 << 8) | 0
]


def outcome(fn: object, *args: object) -> object:
    try:
        value = fn(*args)  # type: ignore[operator]
    except CodecError as exc:
        return ("error", type(exc), str(exc))
    return ("value", None if value is None else (str(value), value.as_tuple()))


@pytest.mark.parametrize("enclen", ENCLENS)
@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=20), offset=st.integers(0, 3))
def test_any_bytes_decode_as_decode_decimal(enclen: int, data: bytes, offset: int) -> None:
    width = n.decimal_width(enclen)
    scale = enclen & 0xFF
    buf = bytearray(b"\x00" * offset + data)
    fast = n.decimal_decoder(width, scale)
    assert outcome(fast, buf, offset) == outcome(n.decode_decimal, buf, offset, width, scale)


def _fitting() -> list[tuple[int, str]]:
    values = ["0", "0.00", "1", "-1", "99.50", "12345678.91", "-0.01", "0.5", "100", "1E+20"]
    cases = []
    for enclen in ENCLENS:
        for value in values:
            try:
                n.encode_decimal(Decimal(value), enclen)
            except CodecError:
                continue  # does not fit this column
            cases.append((enclen, value))
    return cases


@pytest.mark.parametrize(("enclen", "value"), _fitting())
def test_encoded_values_decode_as_decode_decimal(enclen: int, value: str) -> None:
    width = n.decimal_width(enclen)
    scale = enclen & 0xFF
    buf = bytearray(n.encode_decimal(Decimal(value), enclen))
    expected = n.decode_decimal(buf, 0, width, scale)
    got = n.decimal_decoder(width, scale)(buf, 0)
    assert expected is not None and got is not None
    assert (str(got), got.as_tuple()) == (str(expected), expected.as_tuple())


@pytest.mark.parametrize("head", [0x80, 0xC0, 0xC1, 0xFF])
@pytest.mark.parametrize("enclen", [(16 << 8) | 255, (32 << 8) | 255, (1 << 8) | 255])
def test_floating_zero_is_plain_zero_whatever_its_exponent(enclen: int, head: int) -> None:
    """The server sends zero as 80 00 … (exponent -64, encode_decimal says why); a floating
    DECIMAL read it back as Decimal('0E-128'), equal to 0 but printed so. Golden bytes; the
    C decoder's agreement is test_accel's property test."""
    width = n.decimal_width(enclen)
    raw = bytes([head]) + bytes(width - 1)
    for got in (n.decode_decimal(raw, 0, width, 255), n.decimal_decoder(width, 255)(raw, 0)):
        assert got == 0 and str(got) == "0" and got.as_tuple() == Decimal(0).as_tuple()
    assert str(n.decode_decimal(n.encode_decimal(Decimal("0.000"), enclen), 0, width, 255)) == "0"
    # a fixed scale keeps its fraction digits: DECIMAL(16,2) zero is 0.00
    assert str(n.decode_decimal(raw, 0, width, 2)) == "0.00"
