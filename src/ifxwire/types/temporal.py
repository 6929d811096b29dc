"""DATE, DATETIME and INTERVAL codecs and the qualifier arithmetic they need.

A DATETIME or INTERVAL value is a DECIMAL (same head byte, base-100 digits and negative
complement as :mod:`ifxwire.types.numeric`) whose decimal digits are the fields of the qualifier
written one after the other, with the decimal point just after SECOND (jdbc-protocol.md 4.5).
Thinking of it that way gives one rule for every qualifier instead of a table per type: the field
digits form an integer N, and the value is ``N * 10**(10 - end)``.

Encoders always produce the *canonical* form: the exponent for the full qualifier and the digits
starting at the first field, zero fields included (``C3 00 05 06`` for HOUR TO SECOND 00:05:06,
``C5 00 0C 03 04 05`` for INTERVAL DAY(3) TO SECOND 12 03:04:05). The JDBC driver decodes that
form [jdbc 4.5, V], and so does a decoder that ignores the exponent. Decoders use the exponent,
so normalised or otherwise shifted input decodes as well.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import TypeAlias, TypeVar

from ..protocol.codes import TimeUnit
from .errors import CodecDataError, CodecError
from .numeric import (
    BCD_TO_BINARY,
    I32,
    INTEGER_NULL,
    U16,
    Buffer,
    base100_decode,
    base100_digits_str,
    base100_encode,
)
from .values import DateTimeFields, IntervalYM

__all__ = [
    "DATETIME_BIND_QUALIFIER",
    "DATE_EPOCH",
    "INTERVAL_DF_BIND_QUALIFIER",
    "INTERVAL_YM_BIND_QUALIFIER",
    "TIME_BIND_QUALIFIER",
    "DateTimeValue",
    "IntervalValue",
    "date_from_days",
    "date_to_days",
    "datetime_decoder",
    "datetime_qualifier",
    "decode_date",
    "decode_datetime",
    "decode_datetime_bind",
    "decode_interval",
    "decode_interval_bind",
    "encode_date",
    "encode_datetime",
    "encode_datetime_bind",
    "encode_interval",
    "encode_interval_bind",
    "interval_decoder",
    "interval_qualifier",
    "parse_qualifier",
    "qualifier",
    "qualifier_width",
]

DateTimeValue: TypeAlias = datetime | date | time | DateTimeFields
IntervalValue: TypeAlias = timedelta | IntervalYM
_V = TypeVar("_V")

#: Day 0 of the DATE type; 2024-02-29 is day 45350 (jdbc 4.1).
DATE_EPOCH = date(1899, 12, 31)
_EPOCH_ORDINAL = DATE_EPOCH.toordinal()
_MIN_DAYS = date.min.toordinal() - _EPOCH_ORDINAL
_MAX_DAYS = date.max.toordinal() - _EPOCH_ORDINAL

_YEAR = int(TimeUnit.YEAR)
_MONTH = int(TimeUnit.MONTH)
_DAY = int(TimeUnit.DAY)
_HOUR = int(TimeUnit.HOUR)
_MINUTE = int(TimeUnit.MINUTE)
_SECOND = int(TimeUnit.SECOND)
_FRACTION5 = int(TimeUnit.FRACTION5)
#: Field units in significance order; FRACTION is represented by the qualifier's end unit.
_WHOLE_UNITS = (_YEAR, _MONTH, _DAY, _HOUR, _MINUTE, _SECOND)
_VALID_UNITS = frozenset(range(_YEAR, _FRACTION5 + 1)) - {1, 3, 5, 7, 9}

_US_PER = {_DAY: 86_400_000_000, _HOUR: 3_600_000_000, _MINUTE: 60_000_000, _SECOND: 1_000_000}
_POW10: tuple[int, ...] = tuple(10**i for i in range(40))
#: Minute/second fillers after the last whole field of a YEAR TO HOUR/MINUTE/SECOND datetime.
_ZERO_FILL = {4: (0, 0), 5: (0,), 6: ()}
_MODULUS = {_HOUR: 24, _MINUTE: 60, _SECOND: 60}
_FIELD_MIN = {_YEAR: 1, _MONTH: 1, _DAY: 1, _HOUR: 0, _MINUTE: 0, _SECOND: 0}
_FIELD_MAX = {_YEAR: 9999, _MONTH: 12, _DAY: 31, _HOUR: 23, _MINUTE: 59, _SECOND: 59}


def qualifier(digits: int, start: int, end: int) -> int:
    """The 16-bit qualifier ``(digits << 8) | (start << 4) | end`` (jdbc 4.5)."""
    if not 0 < digits < 256 or not 0 <= start <= 15 or not 0 <= end <= 15:
        raise CodecError(f"bad qualifier parts digits={digits} start={start} end={end}")
    return (digits << 8) | (start << 4) | end


def parse_qualifier(q: int) -> tuple[int, int, int]:
    """Split a qualifier into (digits, start unit, end unit)."""
    return (q >> 8) & 0xFF, (q >> 4) & 0x0F, q & 0x0F


def _valid_range(start: int, end: int) -> bool:
    """A start unit after SECOND means FRACTION (Informix codes it 12), so it pairs with any
    FRACTION(n) end; whole-unit starts need start <= end."""
    if start not in _VALID_UNITS or end not in _VALID_UNITS:
        return False
    return end > _SECOND if start > _SECOND else start <= end


def _natural_digits(start: int, end: int) -> list[int]:
    """Digits of each field of ``start TO end`` with a 4-digit year and FRACTION(n)."""
    widths = [4 if u == _YEAR else 2 for u in _WHOLE_UNITS if start <= u <= end]
    if end > _SECOND:
        widths.append(end - _SECOND)
    return widths


def datetime_qualifier(start: int, end: int, fraction_digits: int | None = None) -> int:
    """Qualifier of DATETIME ``start TO end``; ``fraction_digits`` builds ``… TO FRACTION(n)``.

    With ``fraction_digits`` given, ``end`` must be SECOND or a FRACTION unit and is replaced by
    FRACTION(n) (n = 0 means SECOND), so callers holding a number need no unit arithmetic.
    """
    if fraction_digits is not None:
        if end < _SECOND or not 0 <= fraction_digits <= 5:
            raise CodecError(f"FRACTION({fraction_digits}) needs an end unit of SECOND or finer")
        end = _SECOND + fraction_digits
    if not _valid_range(start, end):
        raise CodecError(f"bad DATETIME qualifier {start} TO {end}")
    return qualifier(sum(_natural_digits(start, end)), start, end)


def interval_qualifier(start: int, end: int, leading_digits: int) -> int:
    """Qualifier of INTERVAL ``start(leading_digits) TO end``, e.g. DAY(9) TO FRACTION(5)."""
    if not 1 <= leading_digits <= 9:
        raise CodecError(f"INTERVAL leading precision {leading_digits} is outside 1..9")
    rest = _natural_digits(start, end)[1:]
    q = qualifier(leading_digits + sum(rest), start, end)
    _layout(q, True)
    return q


def qualifier_width(q: int) -> int:
    """Bytes of a DATETIME/INTERVAL in a tuple: ``(digits + (end & 1) + 3) // 2`` (jdbc 4.1)."""
    digits, _, end = parse_qualifier(q)
    return (digits + (end & 1) + 3) // 2


_UNIT_WORDS = {_YEAR: "year", _MONTH: "month", _DAY: "day", _HOUR: "hour", _MINUTE: "minute",
               _SECOND: "second"}


def qualifier_text(q: int, interval: bool) -> str:
    """``year to fraction(5)``, ``day(9) to second``: the qualifier as Informix prints it."""
    digits, start, end = parse_qualifier(q)

    def word(unit: int) -> str:
        return f"fraction({unit - _SECOND})" if unit > _SECOND else _UNIT_WORDS[unit]

    first = word(start)
    if interval and start <= _SECOND:
        lead = digits - sum(_natural_digits(start, end)[1:])
        if start == end or lead != (4 if start == _YEAR else 2):
            first = f"{first}({lead})"
    return f"{first} to {word(end)}"


#: What the JDBC driver sends for every Timestamp: DATETIME YEAR TO FRACTION(5) (jdbc 3.4).
DATETIME_BIND_QUALIFIER = 0x130F
#: DATETIME HOUR TO FRACTION(5), used for ``datetime.time`` binds.
TIME_BIND_QUALIFIER = 0x0B6F
#: INTERVAL DAY(9) TO FRACTION(5), used for ``timedelta`` binds (peer 3.4: 0x144F).
INTERVAL_DF_BIND_QUALIFIER = 0x144F
#: INTERVAL YEAR(9) TO MONTH, used for ``IntervalYM`` binds (peer 3.4: 0x0B02).
INTERVAL_YM_BIND_QUALIFIER = 0x0B02


@dataclass(frozen=True, slots=True)
class _Layout:
    """Everything about a qualifier that the codecs would otherwise recompute per value."""

    qualifier: int
    interval: bool
    start: int
    end: int
    units: tuple[int, ...]
    digits: tuple[int, ...]
    width: int
    exponent: int
    lead_pad: bool
    fraction_digits: int
    whole_units: int

    def describe(self) -> str:
        kind = "INTERVAL" if self.interval else "DATETIME"
        return f"{kind} qualifier 0x{self.qualifier:04x}"


@lru_cache(maxsize=256)
def _layout(q: int, interval: bool) -> _Layout:
    total, start, end = parse_qualifier(q)
    kind = "INTERVAL" if interval else "DATETIME"
    if not _valid_range(start, end):
        raise CodecError(f"bad {kind} qualifier 0x{q:04x}")
    units = [u for u in _WHOLE_UNITS if start <= u <= end]
    natural = _natural_digits(start, end)
    if end > _SECOND:
        units.append(end)
    if interval:
        if start <= _MONTH < end:
            raise CodecError(f"INTERVAL qualifier 0x{q:04x} mixes year-month and day-time fields")
        lead = total - sum(natural[1:])
        if not 1 <= lead <= 9 + (end - _SECOND if start > _SECOND else 0):
            raise CodecError(f"INTERVAL qualifier 0x{q:04x} has leading precision {lead}")
        widths = [lead, *natural[1:]]
    else:
        if total != sum(natural):
            raise CodecError(f"DATETIME qualifier 0x{q:04x} should count {sum(natural)} digits")
        widths = natural
    fraction = end - _SECOND if end > _SECOND else 0
    integer_digits = total - fraction + (_SECOND - end if end < _SECOND else 0)
    return _Layout(
        qualifier=q,
        interval=interval,
        start=start,
        end=end,
        units=tuple(units),
        digits=tuple(widths),
        width=qualifier_width(q),
        exponent=(integer_digits + 1) // 2,
        lead_pad=bool(integer_digits % 2),
        fraction_digits=fraction,
        whole_units=sum(1 for u in units if u <= _SECOND),
    )


def _pack(layout: _Layout, negative: bool, values: list[int], sized: bool) -> bytes:
    """Field values (magnitudes) to canonical base-100 bytes; ``sized`` adds the u16 length."""
    # the fields' digits as one integer: a format spec built per field cost ~1 us each
    acc = count = 0
    for v, n in zip(values, layout.digits, strict=True):
        if not 0 <= v < _POW10[n]:
            raise CodecDataError(f"field value {v} does not fit {n} digits of {layout.describe()}")
        acc = acc * _POW10[n] + v
        count += n
    s = str(acc).zfill(count)
    if layout.lead_pad:
        s = "0" + s
    if len(s) % 2:
        s += "0"
    # the decimal digits read as hex are BCD pairs; one translate makes them base-100 digits
    body = base100_encode(negative, layout.exponent, bytes.fromhex(s).translate(BCD_TO_BINARY))
    return U16.pack(len(body)) + body if sized else body


def _unpack(buf: Buffer, offset: int, width: int, layout: _Layout) -> tuple[bool, list[int]] | None:
    """Bytes to (negative, field magnitudes), locating the fields by the exponent."""
    parts = base100_decode(buf, offset, width)
    if parts is None:
        return None
    negative, exp, digits = parts
    n = int(base100_digits_str(digits) or "0")
    shift = 2 * (exp - len(digits)) + layout.end - _SECOND
    n = n * 10**shift if shift >= 0 else n // 10**-shift
    values: list[int] = []
    for width_digits in reversed(layout.digits[1:]):
        n, v = divmod(n, 10**width_digits)
        values.append(v)
    if n >= 10 ** layout.digits[0]:
        raise CodecError(
            f"{layout.describe()} value {bytes(buf[offset : offset + width]).hex()} "
            f"overflows its leading field"
        )
    values.append(n)
    values.reverse()
    return negative, values


def _micro_from_fraction(fraction: int, ndigits: int) -> int:
    return fraction * _POW10[6 - ndigits]


# ---------------------------------------------------------------------------------------------
# DATE
# ---------------------------------------------------------------------------------------------


def date_to_days(value: date) -> int:
    """Day number of a date: days since 1899-12-31."""
    return value.toordinal() - _EPOCH_ORDINAL


def date_from_days(days: int) -> date:
    if not _MIN_DAYS <= days <= _MAX_DAYS:
        raise CodecDataError(f"DATE day number {days} is outside 0001-01-01..9999-12-31")
    return date.fromordinal(days + _EPOCH_ORDINAL)


_DATE_NULL_BYTES = I32.pack(INTEGER_NULL)


def encode_date(value: object) -> bytes:
    """DATE: i32 day number, NULL 0x80000000.

    A ``datetime`` is accepted only at midnight: anything else would lose its time silently.
    """
    if value is None:
        return _DATE_NULL_BYTES
    if isinstance(value, datetime):
        if value.time() != time(0) or value.tzinfo is not None:
            raise CodecDataError(f"DATE cannot hold the time of day in {value!r}")
        value = value.date()
    if not isinstance(value, date):
        raise CodecError(f"DATE needs a date, got {type(value).__name__}: {value!r}")
    return I32.pack(date_to_days(value))


def decode_date(buf: Buffer, offset: int) -> date | None:
    days: int = I32.unpack_from(buf, offset)[0]
    return None if days == INTEGER_NULL else date_from_days(days)


# ---------------------------------------------------------------------------------------------
# DATETIME
# ---------------------------------------------------------------------------------------------


def _datetime_fields(value: object, layout: _Layout) -> list[int]:
    """The field values a DATETIME of ``layout`` needs, taken from a Python value."""
    # (year, month, day, hour, minute, second, microsecond): index = unit // 2 for whole units.
    fields: tuple[int | None, ...]
    if isinstance(value, (datetime, DateTimeFields)):  # DateTimeFields has no tzinfo
        if getattr(value, "tzinfo", None) is not None:
            raise CodecError(f"DATETIME has no time zone; refusing to drop it from {value!r}")
        fields = (
            value.year,
            value.month,
            value.day,
            value.hour,
            value.minute,
            value.second,
            value.microsecond,
        )
    elif isinstance(value, date):
        fields = (value.year, value.month, value.day, 0, 0, 0, 0)
    elif isinstance(value, time):
        if value.tzinfo is not None:
            raise CodecError(f"DATETIME has no time zone; refusing to drop it from {value!r}")
        fields = (None, None, None, value.hour, value.minute, value.second, value.microsecond)
    else:
        raise CodecError(f"DATETIME needs a datetime, date or time, got {type(value).__name__}")
    out: list[int] = []
    for unit in layout.units:
        v = fields[6] if unit > _SECOND else fields[unit // 2]
        if v is None:
            raise CodecError(f"{value!r} has no value for unit {unit} of {layout.describe()}")
        if unit > _SECOND:
            v //= 10 ** (6 - layout.fraction_digits)
        elif not _FIELD_MIN[unit] <= v <= _FIELD_MAX[unit]:
            raise CodecDataError(f"{value!r}: field {unit} value {v} is out of range")
        out.append(v)
    return out


def encode_datetime(value: object, qualifier: int) -> bytes:
    """A DATETIME tuple field of :func:`qualifier_width` bytes; None gives 00 00 ….

    Only the fields the qualifier names are taken; FRACTION(n) keeps the first n digits of the
    microseconds (FRACTION(5) has 10 µs resolution: 999999 µs is stored as .99999).
    """
    layout = _layout(qualifier, False)
    if value is None:
        return bytes(layout.width)
    return _pack(layout, False, _datetime_fields(value, layout), False)


def _datetime_value(layout: _Layout, values: list[int]) -> DateTimeValue:
    f: dict[int, int] = dict(zip(layout.units, values, strict=True))
    micro = (
        _micro_from_fraction(f[layout.end], layout.fraction_digits) if layout.fraction_digits else 0
    )
    start, end = layout.start, layout.end
    try:
        if start == _YEAR and end >= _HOUR:
            return datetime(
                f[_YEAR],
                f[_MONTH],
                f[_DAY],
                f[_HOUR],
                f.get(_MINUTE, 0),
                f.get(_SECOND, 0),
                micro,
            )
        if start == _YEAR and end == _DAY:
            return date(f[_YEAR], f[_MONTH], f[_DAY])
        if start >= _HOUR:
            return time(f.get(_HOUR, 0), f.get(_MINUTE, 0), f.get(_SECOND, 0), micro)
    except ValueError as exc:
        raise CodecDataError(
            f"{layout.describe()} fields {values} are not a valid value: {exc}"
        ) from None
    return DateTimeFields(
        start=start,
        end=end,
        year=f.get(_YEAR),
        month=f.get(_MONTH),
        day=f.get(_DAY),
        hour=f.get(_HOUR),
        minute=f.get(_MINUTE),
        second=f.get(_SECOND),
        microsecond=micro if layout.fraction_digits else None,
    )


def _decode_datetime(buf: Buffer, offset: int, width: int, layout: _Layout) -> DateTimeValue | None:
    # Fast path for the canonical YEAR-start form every encoder sends: head byte C7, digits
    # starting at the year, one byte per field after it, then the fraction pairs.
    if layout.start == _YEAR and width == layout.width and buf[offset] == 0xC7:
        d = bytes(buf[offset + 1 : offset + width])
        if len(d) == width - 1 and max(d) <= 99:
            whole = layout.whole_units
            micro = 0
            if layout.fraction_digits:
                pairs = d[whole + 1 :]
                micro = int(base100_digits_str(pairs)) * _POW10[6 - 2 * len(pairs)]
                micro -= micro % _POW10[6 - layout.fraction_digits]
            if whole >= 4:  # YEAR TO HOUR or finer: a datetime
                f = (*d[2 : whole + 1], *_ZERO_FILL[whole])
                try:
                    return datetime(d[0] * 100 + d[1], f[0], f[1], f[2], f[3], f[4], micro)
                except ValueError as exc:
                    raise CodecDataError(f"{layout.describe()} value {d.hex()}: {exc}") from None
            values = [d[0] * 100 + d[1], *d[2 : whole + 1]]
            if layout.fraction_digits:
                values.append(micro // _POW10[6 - layout.fraction_digits])
            return _datetime_value(layout, values)
    parts = _unpack(buf, offset, width, layout)
    if parts is None:
        return None
    negative, values = parts
    if negative:
        raise CodecError(f"negative {layout.describe()} value at offset {offset}")
    return _datetime_value(layout, values)


def decode_datetime(buf: Buffer, offset: int, qualifier: int) -> DateTimeValue | None:
    """Decode a DATETIME tuple field (width from the qualifier).

    YEAR TO HOUR..FRACTION gives ``datetime`` (absent lower fields are 0), YEAR TO DAY gives
    ``date``, anything starting at HOUR or later gives ``time``; other qualifiers (YEAR TO
    MONTH, MONTH TO DAY, DAY TO HOUR, …) give :class:`DateTimeFields`.
    """
    layout = _layout(qualifier, False)
    return _decode_datetime(buf, offset, layout.width, layout)


def _bound(decode: Callable[[Buffer, int, int, _Layout], _V], qualifier: int, interval: bool
           ) -> Callable[[Buffer, int], _V]:
    """``decode`` bound to one qualifier's layout, so a row decoder resolves it once per
    shape; the bound decoder makes the one call the unbound one makes (no extra per value)."""
    layout = _layout(qualifier, interval)
    width = layout.width

    def bound(buf: Buffer, offset: int) -> _V:
        return decode(buf, offset, width, layout)

    return bound


def datetime_decoder(qualifier: int) -> Callable[[Buffer, int], DateTimeValue | None]:
    """A decoder bound to one qualifier, so a row decoder resolves the layout once per shape."""
    return _bound(_decode_datetime, qualifier, False)


def encode_datetime_bind(
    value: object, qualifier: int = DATETIME_BIND_QUALIFIER
) -> tuple[int, bytes]:
    """SQ_BIND form of a DATETIME: ``(prec = qualifier, u16 length + canonical bytes)``."""
    layout = _layout(qualifier, False)
    return qualifier, _pack(layout, False, _datetime_fields(value, layout), True)


def decode_datetime_bind(
    buf: Buffer, offset: int, qualifier: int
) -> tuple[DateTimeValue | None, int]:
    """Read ``u16 length`` + DATETIME bytes of a bind; returns (value, offset past the data)."""
    layout = _layout(qualifier, False)
    (n,) = U16.unpack_from(buf, offset)
    return _decode_datetime(buf, offset + 2, n, layout), offset + 2 + n


# ---------------------------------------------------------------------------------------------
# INTERVAL
# ---------------------------------------------------------------------------------------------


def _interval_fields(value: object, layout: _Layout) -> tuple[bool, list[int]]:
    """Sign and field magnitudes; lower-order parts the qualifier lacks are truncated."""
    start = layout.start
    if start <= _MONTH:
        if not isinstance(value, IntervalYM):
            raise CodecError(f"{layout.describe()} needs an IntervalYM, got {type(value).__name__}")
        months = value.months
        mag = -months if months < 0 else months
        if start == _YEAR:
            fields = [mag // 12] if layout.end == _YEAR else [mag // 12, mag % 12]
        else:
            fields = [mag]
        return months < 0, fields
    if not isinstance(value, timedelta):
        raise CodecError(f"{layout.describe()} needs a timedelta, got {type(value).__name__}")
    total = value // timedelta(microseconds=1)
    mag = -total if total < 0 else total
    fields = []
    for i, unit in enumerate(layout.units):
        if unit > _SECOND:
            if i == 0 and mag >= 1_000_000:
                raise CodecDataError(f"{value!r} does not fit {layout.describe()}")
            v = (mag % 1_000_000) // 10 ** (6 - layout.fraction_digits)
        elif i == 0:
            v = mag // _US_PER[unit]
        else:
            v = (mag // _US_PER[unit]) % _MODULUS[unit]
        fields.append(v)
    return total < 0, fields


def encode_interval(value: object, qualifier: int) -> bytes:
    """An INTERVAL tuple field; ``timedelta`` for DAY.. qualifiers, IntervalYM for YEAR/MONTH.

    The leading field must fit its precision (CodecDataError otherwise); fields below the
    qualifier's end (e.g. seconds of a DAY TO MINUTE) are truncated toward zero, as Informix
    does when it casts.
    """
    layout = _layout(qualifier, True)
    if value is None:
        return bytes(layout.width)
    negative, fields = _interval_fields(value, layout)
    return _pack(layout, negative, fields, False)


def _interval_value(layout: _Layout, negative: bool, values: list[int]) -> IntervalValue:
    if layout.start <= _MONTH:
        months = values[0] * 12 if layout.start == _YEAR else values[0]
        if layout.start == _YEAR and layout.end == _MONTH:
            months += values[1]
        return IntervalYM(-months if negative else months)
    total = 0
    for unit, v in zip(layout.units, values, strict=True):
        if unit > _SECOND:
            total += _micro_from_fraction(v, layout.fraction_digits)
        else:
            total += v * _US_PER[unit]
    try:
        return timedelta(microseconds=-total if negative else total)
    except OverflowError:
        raise CodecDataError(f"{layout.describe()} value {values} exceeds timedelta") from None


def _decode_interval(buf: Buffer, offset: int, width: int, layout: _Layout) -> IntervalValue | None:
    parts = _unpack(buf, offset, width, layout)
    if parts is None:
        return None
    negative, values = parts
    return _interval_value(layout, negative, values)


def decode_interval(buf: Buffer, offset: int, qualifier: int) -> IntervalValue | None:
    """Decode an INTERVAL tuple field: ``timedelta`` (start ≥ DAY) or ``IntervalYM``."""
    layout = _layout(qualifier, True)
    return _decode_interval(buf, offset, layout.width, layout)


def interval_decoder(qualifier: int) -> Callable[[Buffer, int], IntervalValue | None]:
    """A decoder bound to one qualifier (see :func:`datetime_decoder`)."""
    return _bound(_decode_interval, qualifier, True)


def encode_interval_bind(value: object, qualifier: int | None = None) -> tuple[int, bytes]:
    """SQ_BIND form of an INTERVAL; the default qualifier is DAY(9) TO FRACTION(5) for a
    ``timedelta`` and YEAR(9) TO MONTH for an IntervalYM, the widest of each class."""
    if qualifier is None:
        if isinstance(value, IntervalYM):
            qualifier = INTERVAL_YM_BIND_QUALIFIER
        elif isinstance(value, timedelta):
            qualifier = INTERVAL_DF_BIND_QUALIFIER
        else:
            raise CodecError(
                f"INTERVAL needs a timedelta or IntervalYM, got {type(value).__name__}"
            )
    layout = _layout(qualifier, True)
    negative, fields = _interval_fields(value, layout)
    return qualifier, _pack(layout, negative, fields, True)


def decode_interval_bind(
    buf: Buffer, offset: int, qualifier: int
) -> tuple[IntervalValue | None, int]:
    """Read ``u16 length`` + INTERVAL bytes of a bind; returns (value, offset past the data)."""
    layout = _layout(qualifier, True)
    (n,) = U16.unpack_from(buf, offset)
    return _decode_interval(buf, offset + 2, n, layout), offset + 2 + n
