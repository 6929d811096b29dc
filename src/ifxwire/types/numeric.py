"""Numeric value codecs: SMALLINT, INTEGER, BIGINT, INT8, FLOAT, SMALLFLOAT, DECIMAL and MONEY.

Every function here is used on both sides of the wire: the driver decodes what a server sends and
encodes binds, the embedded server does the reverse. The byte layouts come from
``jdbc-protocol.md`` 4.1, 4.2 and 4.4 and ``peer-informix-driver.md`` 3.2 and 3.3; the vectors in
``tests/unit/test_codec_vectors.py`` quote them.

The base-100 helpers at the bottom are shared with :mod:`ifxwire.types.temporal`, because
DATETIME and INTERVAL values are DECIMALs whose digits happen to be calendar fields.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from functools import lru_cache
from numbers import Real
from struct import Struct
from struct import error as struct_error
from typing import TypeAlias

from .errors import CodecDataError, CodecError

__all__ = [
    "BIGINT_NULL",
    "DECIMAL_FLOATING_SCALE",
    "INTEGER_NULL",
    "SMALLINT_NULL",
    "Buffer",
    "base100_decode",
    "base100_digits_str",
    "base100_encode",
    "decimal_width",
    "decode_bigint",
    "decode_decimal",
    "decode_decimal_bind",
    "decode_float",
    "decode_int8",
    "decode_integer",
    "decode_smallfloat",
    "decode_smallint",
    "encode_bigint",
    "encode_decimal",
    "encode_decimal_bind",
    "encode_float",
    "encode_int8",
    "encode_integer",
    "encode_smallfloat",
    "encode_smallint",
]

#: Anything the decoders read from: a whole reply buffer or a view of it (never copied).
Buffer: TypeAlias = bytes | bytearray | memoryview

I16 = Struct(">h")
U16 = Struct(">H")
I32 = Struct(">i")
U32 = Struct(">I")
I64 = Struct(">q")
F64 = Struct(">d")
F32 = Struct(">f")
#: INT8 / SERIAL8: sign word, low 32 bits, high 32 bits of the magnitude (jdbc 4.1, 4.2).
INT8 = Struct(">hII")

#: In-band NULL sentinels. Each is the most negative value of its width, so the usable range is
#: symmetric: SMALLINT is -32767..32767, not -32768..32767.
SMALLINT_NULL = -0x8000
INTEGER_NULL = -0x80000000
BIGINT_NULL = -0x8000000000000000
INT8_MAX = 2**63 - 1

_SMALLINT_NULL_BYTES = I16.pack(SMALLINT_NULL)
_INTEGER_NULL_BYTES = I32.pack(INTEGER_NULL)
_BIGINT_NULL_BYTES = I64.pack(BIGINT_NULL)
_INT8_NULL_BYTES = bytes(10)
_FLOAT_NULL_BYTES = b"\xff" * 8
_SMALLFLOAT_NULL_BYTES = b"\xff" * 4

#: The scale byte of a floating-point DECIMAL(p) (enclen ``(p << 8) | 255``).
DECIMAL_FLOATING_SCALE = 255
#: DECIMAL precision is at most 32 digits; binds hold at most that many significant digits.
DECIMAL_MAX_DIGITS = 32
#: The base-100 exponent lives in 7 bits with a bias of 64.
_EXP_MIN = -64
_EXP_MAX = 63

#: Arithmetic on DECIMAL(32) values must not be cut to the default 28-digit context.
_WIDE = Context(prec=80, rounding=ROUND_HALF_UP, Emax=999_999, Emin=-999_999)

_PAIRS = tuple(f"{i:02d}" for i in range(100))
#: Byte translation for the "99 - d" part of the 100-complement of negative DECIMALs.
_NINES = bytes((99 - i) & 0xFF for i in range(256))


# ---------------------------------------------------------------------------------------------
# Integers and floats
# ---------------------------------------------------------------------------------------------


def _as_int(value: object, type_name: str) -> int:
    """Accept exactly the integer-like values (bool, int, numpy ints); never truncate a float."""
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise CodecError(
            f"{type_name} needs an int, got {type(value).__name__}: {value!r}"
        ) from None


def _check_range(v: int, limit: int, type_name: str) -> None:
    if not -limit <= v <= limit:
        raise CodecDataError(f"{type_name} value {v} is outside -{limit}..{limit}")


def encode_smallint(value: object) -> bytes:
    """SMALLINT: big-endian i16; NULL is 0x8000."""
    if value is None:
        return _SMALLINT_NULL_BYTES
    v = _as_int(value, "SMALLINT")
    _check_range(v, 0x7FFF, "SMALLINT")
    return I16.pack(v)


def decode_smallint(buf: Buffer, offset: int) -> int | None:
    v: int = I16.unpack_from(buf, offset)[0]
    return None if v == SMALLINT_NULL else v


def encode_integer(value: object) -> bytes:
    """INTEGER / SERIAL / DATE payload: big-endian i32; NULL is 0x80000000."""
    if value is None:
        return _INTEGER_NULL_BYTES
    v = _as_int(value, "INTEGER")
    _check_range(v, 0x7FFFFFFF, "INTEGER")
    return I32.pack(v)


def decode_integer(buf: Buffer, offset: int) -> int | None:
    v: int = I32.unpack_from(buf, offset)[0]
    return None if v == INTEGER_NULL else v


def encode_bigint(value: object) -> bytes:
    """BIGINT / BIGSERIAL: big-endian i64; NULL is INT64_MIN."""
    if value is None:
        return _BIGINT_NULL_BYTES
    v = _as_int(value, "BIGINT")
    _check_range(v, INT8_MAX, "BIGINT")
    return I64.pack(v)


def decode_bigint(buf: Buffer, offset: int) -> int | None:
    v: int = I64.unpack_from(buf, offset)[0]
    return None if v == BIGINT_NULL else v


def encode_int8(value: object) -> bytes:
    """INT8 / SERIAL8: 10-byte sign-magnitude; NULL is sign 0, so zero is sent with sign +1."""
    if value is None:
        return _INT8_NULL_BYTES
    v = _as_int(value, "INT8")
    _check_range(v, INT8_MAX, "INT8")
    mag = -v if v < 0 else v
    return INT8.pack(-1 if v < 0 else 1, mag & 0xFFFFFFFF, mag >> 32)


def decode_int8(buf: Buffer, offset: int) -> int | None:
    sign, low, high = INT8.unpack_from(buf, offset)
    if sign == 0:
        return None
    mag: int = (high << 32) | low
    return -mag if sign < 0 else mag


def _as_finite_float(value: object, type_name: str) -> float:
    if not isinstance(value, (Real, Decimal)):
        raise CodecError(f"{type_name} needs a float, got {type(value).__name__}: {value!r}")
    try:
        f = float(value)
    except OverflowError:
        raise CodecDataError(f"{type_name} cannot hold {value!r}") from None
    if not math.isfinite(f):
        # A NaN could collide with the all-0xFF NULL pattern, and Informix rejects both.
        raise CodecDataError(f"{type_name} cannot hold {f!r}")
    return f


def encode_float(value: object) -> bytes:
    """FLOAT: IEEE binary64 big-endian; NULL is eight 0xFF bytes."""
    if value is None:
        return _FLOAT_NULL_BYTES
    return F64.pack(_as_finite_float(value, "FLOAT"))


def decode_float(buf: Buffer, offset: int) -> float | None:
    v: float = F64.unpack_from(buf, offset)[0]
    if v != v and bytes(buf[offset : offset + 8]) == _FLOAT_NULL_BYTES:
        return None
    return v


def encode_smallfloat(value: object) -> bytes:
    """SMALLFLOAT: IEEE binary32 big-endian; NULL is four 0xFF bytes."""
    if value is None:
        return _SMALLFLOAT_NULL_BYTES
    f = _as_finite_float(value, "SMALLFLOAT")
    try:
        return F32.pack(f)
    except OverflowError:
        raise CodecDataError(f"SMALLFLOAT cannot hold {f!r}") from None


def decode_smallfloat(buf: Buffer, offset: int) -> float | None:
    v: float = F32.unpack_from(buf, offset)[0]
    if v != v and bytes(buf[offset : offset + 4]) == _SMALLFLOAT_NULL_BYTES:
        return None
    return v


# ---------------------------------------------------------------------------------------------
# Base-100 machinery shared by DECIMAL, MONEY, DATETIME and INTERVAL
# ---------------------------------------------------------------------------------------------


def _complement(digits: bytes) -> bytes:
    """100-complement of base-100 digits (jdbc 4.4); applying it twice gives the input back.

    From the right: trailing zero digits stay 0, the last non-zero digit d becomes 100 - d and
    every earlier digit 99 - d. Equivalent to ``100**n - D`` on the digit string.
    """
    stripped = digits.rstrip(b"\x00")
    if not stripped:
        return digits
    last = len(stripped) - 1
    return (
        stripped[:last].translate(_NINES) + bytes((100 - stripped[last],)) + digits[len(stripped) :]
    )


def base100_encode(negative: bool, exponent: int, digits: bytes, width: int | None = None) -> bytes:
    """Pack an exponent and base-100 digits into the Informix head-byte form.

    ``digits`` are the magnitude's digits (0..99), most significant first; ``width`` pads with
    zero digits to a tuple column's fixed width (head byte included).
    """
    if not _EXP_MIN <= exponent <= _EXP_MAX:
        raise CodecDataError(f"DECIMAL exponent 100**{exponent} is outside 100**-64..100**63")
    if width is not None:
        if len(digits) + 1 > width:
            raise CodecDataError(f"{len(digits)} base-100 digits do not fit a {width}-byte value")
        digits = digits + bytes(width - 1 - len(digits))
    if negative and digits.strip(b"\x00"):
        out = bytes(((exponent + 64) ^ 0x7F,)) + _complement(digits)
        if out[0] == 0 and len(out) > 1 and out[1] == 0:
            raise CodecDataError("value would be encoded as the DECIMAL NULL marker 00 00")
        return out
    return bytes((0x80 | (exponent + 64),)) + digits


def base100_decode(buf: Buffer, offset: int, width: int) -> tuple[bool, int, bytes] | None:
    """Unpack ``width`` bytes into (negative, exponent, magnitude digits); None for NULL.

    Accepts non-normalised input (leading or trailing zero digits), as the JDBC driver sends.
    """
    if width < 1:
        raise CodecError(f"base-100 value of width {width} at offset {offset}")
    end = offset + width
    raw = bytes(buf[offset:end])
    if len(raw) != width:
        raise CodecError(f"base-100 value at offset {offset} needs {width} bytes, has {len(raw)}")
    head = raw[0]
    if head == 0 and (width == 1 or raw[1] == 0):
        return None
    digits = raw[1:]
    if digits and max(digits) > 99:
        raise CodecError(f"bad base-100 digit in {raw.hex()} at offset {offset}")
    if head & 0x80:
        return False, (head & 0x7F) - 64, digits
    negative = bool(digits.strip(b"\x00"))
    return negative, ((head ^ 0x7F) & 0x7F) - 64, _complement(digits)


BCD_TO_BINARY = _BCD_TO_BINARY = bytes(
    (b >> 4) * 10 + (b & 0xF) if b >> 4 < 10 and b & 0xF < 10 else 0 for b in range(256))


def base100_digits_str(digits: bytes) -> str:
    """Base-100 digits as their decimal digit string, two characters per digit."""
    return "".join(map(_PAIRS.__getitem__, digits))


# ---------------------------------------------------------------------------------------------
# DECIMAL / MONEY
# ---------------------------------------------------------------------------------------------


def decimal_width(enclen: int) -> int:
    """Bytes of a DECIMAL(p,s) / MONEY(p,s) in a tuple: ``(p + (s & 1) + 3) // 2`` (jdbc 4.1).

    ``s == 255`` (floating DECIMAL(p)) is odd, which is why unscaled DECIMAL(16) is 10 bytes.
    """
    p = enclen >> 8
    s = enclen & 0xFF
    return (p + (s & 1) + 3) // 2


def decode_decimal(
    buf: Buffer, offset: int, width: int, scale: int = DECIMAL_FLOATING_SCALE
) -> Decimal | None:
    """Decode a DECIMAL/MONEY of ``width`` bytes; NULL (first two bytes 00 00) gives None.

    With a fixed ``scale`` the result carries exactly that many fraction digits (99.50 stays
    ``Decimal('99.50')``; digits beyond the scale, which a correct sender never sends, are
    truncated). A floating DECIMAL (scale 255) is returned without trailing fraction zeros and
    never in exponent notation for whole numbers (``Decimal('0.5')``, ``Decimal('100')``).
    """
    if width > 1:
        # A positive value (the head byte's sign bit set), the common case, in one
        # ``translate`` and ``hex`` (as decimal_decoder): no digit loop, no complement. A digit
        # above 99 becomes FF and falls through to base100_decode, which reports it; so does a
        # value cut short. Why: the server's pure bulk insert decodes every DECIMAL bind here
        # (about a quarter of its CPU per row of issue 25's mixed shape; docs/SERVER.md).
        head = buf[offset] if offset < len(buf) else 0
        if head & 0x80:
            t = bytes(buf[offset + 1 : offset + width]).translate(_BCD)
            if len(t) == width - 1 and 0xFF not in t:
                return _spelled("", t.hex(), 2 * ((head & 0x7F) - 64 - len(t)), scale)
    parts = base100_decode(buf, offset, width)
    if parts is None:
        return None
    negative, exp, digits = parts
    sign = "-" if negative else ""
    return _spelled(sign, digits.translate(_BCD).hex(), 2 * (exp - len(digits)), scale)


def _spelled(sign: str, s: str, e10: int, scale: int) -> Decimal:
    """The Decimal of decimal digits ``s`` times 10**e10: with exactly ``scale`` fraction
    digits, or for a floating DECIMAL without trailing fraction zeros (decode_decimal)."""
    if scale == DECIMAL_FLOATING_SCALE:
        if not s.strip("0"):
            # zero, whatever its exponent: the server's zero (80 00 …, exponent -64) would
            # otherwise read as Decimal('0E-128')
            return Decimal(0)
        if e10 < 0:
            keep = len(s.rstrip("0"))
            drop = min(len(s) - keep, -e10)
            s = s[: len(s) - drop]
            e10 += drop
        elif e10 > 0:
            s += "0" * e10
            e10 = 0
        return Decimal(f"{sign}{s or '0'}E{e10}")
    k = e10 + scale
    if k > 0:
        s += "0" * k
    elif k < 0:
        s = s[:k]
    return Decimal(f"{sign}{s or '0'}E-{scale}")


#: Base-100 digit -> its two decimal digits as one BCD byte (so ``.hex()`` spells them);
#: a byte above 99 (not a digit) becomes FF, which no digit gives.
BCD_DIGITS = _BCD = bytes(((d // 10) << 4 | d % 10) if d < 100 else 0xFF for d in range(256))


def decimal_decoder(width: int, scale: int) -> Callable[[Buffer, int], Decimal | None]:
    """``decode_decimal(buf, offset, width, scale)`` for one column, faster: positive values
    (the head byte's sign bit set) are decoded with one ``translate`` and ``hex`` instead of a
    digit loop; NULL, negative, short or malformed values go to decode_decimal itself, so the
    result (and every error) is the same (tests/unit/test_decimal_decoder.py)."""
    ndigits = width - 1

    def decode(buf: Buffer, offset: int) -> Decimal | None:
        try:
            head = buf[offset] if width > 1 else 0
        except IndexError:
            head = 0  # decode_decimal reports the truncation
        if head & 0x80:
            t = bytes(buf[offset + 1 : offset + width]).translate(_BCD)
            if len(t) == ndigits and 0xFF not in t:
                return _spelled("", t.hex(), 2 * ((head & 0x7F) - 64 - ndigits), scale)
        return decode_decimal(buf, offset, width, scale)

    return decode


def _coerce_decimal(value: object, type_name: str) -> Decimal:
    if isinstance(value, Decimal):
        d = value
    elif isinstance(value, int):
        d = Decimal(value)
    elif isinstance(value, float):
        # repr() is the shortest string that round-trips, so 0.1 becomes Decimal('0.1') rather
        # than its 55-digit binary expansion.
        d = Decimal(repr(value))
    else:
        raise CodecError(f"{type_name} needs a Decimal, got {type(value).__name__}: {value!r}")
    if not d.is_finite():
        raise CodecDataError(f"{type_name} cannot hold {value!r}")
    return d


def _decimal_parts(d: Decimal) -> tuple[bool, int, bytes]:
    """(negative, base-100 exponent, normalised digits) of a finite Decimal.

    Digits are aligned so the decimal point falls between base-100 digits; leading and trailing
    zero digits are dropped. Zero is returned as exponent 0 with no digits.
    """
    negative, exponent, digits, _, _ = _decimal_layout(d)
    return negative, exponent, digits


def _decimal_layout(d: Decimal) -> tuple[bool, int, bytes, int, int]:
    """``_decimal_parts`` plus the scale (fraction digits of ``d`` as written, never < 0) and
    the number of significant decimal digits.

    Works on the fixed-point text, built in C: cheaper than ``as_tuple()`` and a str per digit.
    """
    text = format(d, "f")
    negative = text[0] == "-"
    whole, _, fraction = text.lstrip("-").partition(".")
    scale = len(fraction)
    whole = whole.lstrip("0")
    if len(whole) & 1:
        whole = "0" + whole
    if len(fraction) & 1:
        fraction += "0"
    ds = whole + fraction
    exponent = len(whole) // 2
    stripped = ds.lstrip("0")
    if not stripped:  # zero, of any sign or scale
        return False, 0, b"", scale, 0
    lead = (len(ds) - len(stripped)) // 2  # whole zero pairs before the first digit
    ds = ds[2 * lead :].rstrip("0")
    if len(ds) & 1:
        ds += "0"
    # Each pair of decimal digits read as hex is a BCD byte; the table turns it into 0..99.
    digits = bytes.fromhex(ds).translate(_BCD_TO_BINARY)
    return negative, exponent - lead, digits, scale, len(stripped.rstrip("0"))


def floating_pairs(precision: int) -> int:
    """Base-100 digit pairs a floating DECIMAL(p) holds: its field is ``(p + 4) // 2`` bytes
    (decimal_width with scale 255), one of them the sign-and-exponent head, and a decimal
    has at most 16 pairs (``dec_t``'s ``DECSIZE``, ESQL/C "The decimal structure"). So
    DECIMAL(16), the type of a DECIMAL declared without precision, keeps 9 pairs: 17 or 18
    significant digits as the value's first digit falls, enough for every double's shortest
    form (17 digits), which a real server returns as written (issue 23)."""
    return min(DECIMAL_MAX_DIGITS // 2, (precision + 2) // 2)


def round_floating(d: Decimal, precision: int) -> Decimal:
    """``d`` rounded (half up) to what a floating DECIMAL(p) field holds: floating_pairs(p)
    base-100 pairs counted from the pair of its first digit, pairs aligned on the decimal
    point (the storage form, 100**exponent)."""
    if not d:
        return d
    first = d.adjusted() // 2  # the pair of the first digit: 100**first
    lowest = 2 * (first - floating_pairs(precision) + 1)
    if d.as_tuple().exponent >= lowest:  # type: ignore[operator]
        return d
    return d.quantize(Decimal(1).scaleb(lowest), rounding=ROUND_HALF_UP, context=_WIDE)


@lru_cache(maxsize=64)
def _quantum(scale: int) -> Decimal:
    return Decimal(1).scaleb(-scale)


def encode_decimal(value: object, enclen: int) -> bytes:
    """Encode a DECIMAL(p,s)/MONEY(p,s) tuple field of exactly :func:`decimal_width` bytes.

    Fixed scale: the value is rounded to ``s`` fraction digits with ROUND_HALF_UP (what Informix
    does on assignment) and must then have at most ``p - s`` integer digits. Floating DECIMAL(p):
    rounded to the base-100 pairs its field holds (round_floating). Anything that does not
    fit raises CodecDataError; None gives the NULL form (00 00 …).
    """
    width = decimal_width(enclen)
    if value is None:
        return bytes(width)
    p = enclen >> 8
    s = enclen & 0xFF
    name = f"DECIMAL({p},{s})" if s != DECIMAL_FLOATING_SCALE else f"DECIMAL({p})"
    if not 1 <= p <= DECIMAL_MAX_DIGITS or (s != DECIMAL_FLOATING_SCALE and s > p):
        raise CodecError(f"bad DECIMAL enclen 0x{enclen:04x}")
    d = _coerce_decimal(value, name)
    try:
        if s == DECIMAL_FLOATING_SCALE:
            q = round_floating(d, p)
        else:
            q = d.quantize(_quantum(s), rounding=ROUND_HALF_UP, context=_WIDE)
            if q and q.adjusted() >= p - s:
                raise CodecDataError(f"{name} cannot hold {value!r}: too many integer digits")
    except InvalidOperation:
        raise CodecDataError(f"{name} cannot hold {value!r}") from None
    negative, exp, digits = _decimal_parts(q)
    if not digits:
        # Zero is 80 00 …: the format sorts with memcmp (negatives below 0x80, positives
        # 0x80 | (exp + 64) above), so zero takes the lowest positive head with no digits.
        # Both JDBC jars fail to decode C0 00 at scale 0 (tests/interop select_zero_values).
        return b"\x80" + bytes(width - 1)
    try:
        return base100_encode(negative, exp, digits, width)
    except CodecDataError as exc:
        raise CodecDataError(f"{name} cannot hold {value!r}: {exc}") from None


def decimal_encoder(enclen: int) -> Callable[[object], bytes]:
    """``encode_decimal(value, enclen)`` for one column, with what depends only on the column
    worked out once (its width, quantum and integer-digit limit). The server encodes every
    DECIMAL of every row it sends (SELECT results, CDC records: issue 27's benchmark found
    this the largest part of rendering a record), nearly all of them Decimals of a
    fixed-scale column: those take the short way here, with the same bytes; anything else
    (a floating DECIMAL(p), an int or float, NaN, a value that does not fit and its error)
    goes to ``encode_decimal``."""
    p, s = enclen >> 8, enclen & 0xFF
    if s == DECIMAL_FLOATING_SCALE or not 1 <= p <= DECIMAL_MAX_DIGITS or s > p:
        return lambda v: encode_decimal(v, enclen)
    width = decimal_width(enclen)
    null = bytes(width)
    zero = b"\x80" + bytes(width - 1)
    quantum = _quantum(s)
    limit = p - s
    pairs = (s + 1) // 2  # base-100 fraction digits: the scale rounded up to whole pairs
    odd = "0" if s & 1 else ""
    pad = [bytes(n) for n in range(width)]
    slow = encode_decimal

    def encode(v: object) -> bytes:
        if v is None:
            return null
        if v.__class__ is not Decimal or not v.is_finite() or v.adjusted() >= limit:
            # (too many integer digits before rounding too: quantize would raise
            # InvalidOperation for 1E+100, where encode_decimal names the column's type)
            return slow(v, enclen)
        q = v.quantize(quantum, ROUND_HALF_UP, _WIDE)
        if not q:
            return zero
        if q.adjusted() >= limit:
            return slow(v, enclen)  # raises, naming the column's type
        text = format(q, "f")
        negative = text[0] == "-"
        # the unscaled digits (exactly ``s`` after the point: q is quantized), one more zero
        # for an odd scale, then whole pairs from the left
        ds = text.lstrip("-").replace(".", "").lstrip("0") + odd
        if len(ds) & 1:
            ds = "0" + ds
        exponent = len(ds) // 2 - pairs
        ds = ds.rstrip("0")
        if len(ds) & 1:
            ds += "0"
        digits = bytes.fromhex(ds).translate(_BCD_TO_BINARY)
        if len(digits) >= width:
            return slow(v, enclen)
        if negative:
            return base100_encode(True, exponent, digits, width)
        return bytes((0xC0 + exponent,)) + digits + pad[width - 1 - len(digits)]

    return encode


def stored_decimal_encoder(enclen: int, load: Callable[[object], object]
                           ) -> Callable[[object], bytes]:
    """``decimal_encoder(enclen)(load(v))`` for a value ``v`` as the server's SQLite file
    stores a fixed-scale DECIMAL(p,s)/MONEY(p,s): the text of the value with exactly ``s``
    fraction digits ("12.50", "0.00", "-3.00"). Such a text of a value that is not negative
    is encoded from its digits without making a Decimal (the value is already at the
    column's scale: quantize would not change it): the same bytes, a third of the time (CDC
    records, issue 27's benchmark: the DECIMAL was the largest part of rendering one). Any
    other value (negative, another scale, not text, NULL) takes ``load`` and the encoder."""
    enc = decimal_encoder(enclen)
    p, s = enclen >> 8, enclen & 0xFF
    if s == DECIMAL_FLOATING_SCALE or not 1 <= p <= DECIMAL_MAX_DIGITS or s > p:
        return lambda v: enc(load(v))
    width = decimal_width(enclen)
    zero = b"\x80" + bytes(width - 1)
    limit = p - s
    pairs = (s + 1) // 2
    odd = "0" if s & 1 else ""
    pad = [bytes(n) for n in range(width)]

    def encode(v: object) -> bytes:
        if v.__class__ is not str:
            return enc(load(v))
        whole, dot, frac = v.partition(".")
        ds = whole + frac
        if (len(frac) != s or (s and not dot) or not ds.isdigit() or not ds.isascii()
                or len(whole.lstrip("0")) > limit):
            return enc(load(v))  # (too many integer digits: the encoder's error)
        ds = ds.lstrip("0")
        if not ds:
            return zero
        ds += odd
        if len(ds) & 1:
            ds = "0" + ds
        exponent = len(ds) // 2 - pairs
        ds = ds.rstrip("0")
        if len(ds) & 1:
            ds += "0"
        digits = bytes.fromhex(ds).translate(_BCD_TO_BINARY)
        if len(digits) >= width:
            return enc(load(v))
        return bytes((0xC0 + exponent,)) + digits + pad[width - 1 - len(digits)]

    return encode


def encode_decimal_bind(value: object) -> tuple[int, bytes]:
    """The SQ_BIND form of a DECIMAL: ``(prec, data)`` (jdbc 3.4 and 4.4).

    ``prec`` is the value's scale, as the JDBC driver's setBigDecimal sends it; ``data`` is
    ``u16 length`` + head byte + the minimal base-100 digits (zero is ``C1 00``, as both the JDBC
    driver and informix-driver bind it against real servers). The value is sent
    exactly: more than 32 significant digits raises CodecDataError instead of rounding.
    """
    d = _coerce_decimal(value, "DECIMAL")
    negative, exp, digits, scale, significant = _decimal_layout(d)
    if not digits:
        body = b"\xc1\x00"
    else:
        if significant > DECIMAL_MAX_DIGITS:
            raise CodecDataError(
                f"DECIMAL bind of {value!r} has {significant} significant digits; at most 32 fit"
            )
        body = base100_encode(negative, exp, digits)
    return min(scale, 0x7FFF), U16.pack(len(body)) + body


def decode_decimal_bind(buf: Buffer, offset: int) -> tuple[Decimal | None, int]:
    """Read ``u16 length`` + DECIMAL bytes as sent in SQ_BIND; returns (value, new offset).

    The offset returned is just past the data, before any even-padding of the bind item.
    """
    try:
        (n,) = U16.unpack_from(buf, offset)
    except struct_error as exc:
        raise CodecError(f"truncated DECIMAL bind length at offset {offset}") from exc
    if n == 0:
        raise CodecError(f"empty DECIMAL bind value at offset {offset}")
    return decode_decimal(buf, offset + 2, n), offset + 2 + n
