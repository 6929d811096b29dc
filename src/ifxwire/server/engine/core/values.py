"""Conversions between Python values, Informix literals and the SQLite storage form.

Why this storage (see the table in ``ifxtypes``):

* DECIMAL/MONEY are TEXT holding the canonical decimal (fixed scale: exactly ``s`` fraction digits;
  floating ``DECIMAL(p)``: normalised, no exponent). A double is exact only up to 15 significant
  digits and Informix holds 32, so numbers are never stored as REAL. The column collation
  ``IFXDEC`` compares the text as numbers, so ``=``, ``<``, ORDER BY, MIN/MAX, indexes and UNIQUE
  are exact. Arithmetic on DECIMAL goes through Python ``decimal`` with 32-digit precision
  (``functions.py``), which is what Informix's own decimal library does.
* DATE is the Informix day number, so ``date + 1`` and ``date1 - date2`` are plain integer
  arithmetic and comparisons are numeric.
* DATETIME is the Informix literal text of its qualifier: fixed-width fields, so the text sorts
  in time order, and a DATETIME cast to CHAR is the text itself.
* INTERVAL is an integer count of its class's smallest unit (months, or 10 microseconds =
  FRACTION(5)); DAY(9) TO FRACTION(5) still fits in 64 bits.

Every conversion failure raises the Informix error a real server raises for it. Strings longer
than a CHAR/VARCHAR column are truncated silently in non-ANSI databases, as Informix does
(the driver, not the server, is where "never silently truncate" is enforced); ANSI databases
raise -1279.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from ....protocol.codes import TimeUnit, TypeCode
from ....types.numeric import round_floating
from ....types.values import DateTimeFields, IntervalYM
from . import sqlcodes as sc
from .errors import EngineError
from .ifxtypes import FIELD_WIDTH, FLOATING, INT_RANGE, IfxType
from .money import DEFAULT_MONEY, MoneyFormat

T = TypeCode
U = TimeUnit
Conv = Callable[[object], object]

DEC_CONTEXT = decimal.Context(prec=32, rounding=decimal.ROUND_HALF_UP, Emin=-260, Emax=260)
_WIDE_CONTEXT = decimal.Context(prec=80, rounding=decimal.ROUND_HALF_UP)
#: 10**-s for the scales a fixed-scale DECIMAL(p,s) column can have (fit_decimal's quantum).
_QUANTUM = tuple(Decimal(1).scaleb(-s) for s in range(33))
EPOCH_ORDINAL = dt.date(1899, 12, 31).toordinal()
TICKS_PER_SECOND = 100_000  # INTERVAL day-time storage unit: 10 microseconds (FRACTION(5))
UNIT_TICKS: dict[int, int] = {
    U.DAY: 86400 * TICKS_PER_SECOND,
    U.HOUR: 3600 * TICKS_PER_SECOND,
    U.MINUTE: 60 * TICKS_PER_SECOND,
    U.SECOND: TICKS_PER_SECOND,
}
for _n in range(1, 6):
    UNIT_TICKS[U.SECOND + _n] = 10 ** (5 - _n)


@dataclass(frozen=True, slots=True)
class ConvContext:
    """Session settings that change how strings convert: DBDATE, DBCENTURY, the ANSI flag,
    the client code set (column lengths count bytes of it, as in Informix) and DBMONEY's
    symbols (core/money.py)."""

    dbdate: str = "Y4MD-"
    ansi: bool = False
    encoding: str = "iso-8859-1"
    dbcentury: str = "R"
    money: MoneyFormat = DEFAULT_MONEY


DEFAULT_CTX = ConvContext()


def trunc_div(n: int, d: int) -> int:
    """Integer division truncating toward zero, exact for any size (no float)."""
    q = abs(n) // abs(d)
    return q if (n < 0) == (d < 0) else -q


def fail(code: int, near: str = "") -> EngineError:
    return EngineError(code, near=near)


# --- numbers ----------------------------------------------------------------------------------
def parse_decimal(text: str) -> Decimal:
    """Informix numeric text to Decimal; -1213 if it is not a number."""
    s = text.strip()
    try:
        d = Decimal(s)
    except decimal.InvalidOperation:
        raise fail(sc.CHAR_TO_NUM) from None
    if not d.is_finite() or not s or s[0] in "Nn" or s.lstrip("+-")[:1] in ("I", "i", "N", "n"):
        raise fail(sc.CHAR_TO_NUM)
    return d


def to_decimal(value: object) -> Decimal:
    """Any numeric-ish value to an exact Decimal (floats by their shortest repr)."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise fail(sc.DECIMAL_RANGE)
        return value
    if isinstance(value, bool):
        return Decimal(int(value))
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise fail(sc.DECIMAL_RANGE)
        return Decimal(repr(value))
    if isinstance(value, str):
        return parse_decimal(value)
    if isinstance(value, (bytes, bytearray)):
        return parse_decimal(bytes(value).decode("latin-1"))
    raise fail(sc.NO_CONVERSION)


def dec_text(d: Decimal) -> str:
    """Canonical text: plain notation, no exponent, no negative zero."""
    if d.is_zero():
        d = abs(d)
    return format(d, "f")


def fit_decimal(d: Decimal, prec: int, scale: int) -> Decimal:
    """Round ``d`` into DECIMAL(prec, scale) (or floating DECIMAL(prec)); -1226 if too large."""
    if scale == FLOATING:
        if d.is_zero():
            return Decimal(0)
        # The pairs the column's field holds, not ``prec`` digits (types.numeric).
        r = round_floating(d, prec).normalize(_WIDE_CONTEXT)
        if r.adjusted() > 125 or r.adjusted() < -130:
            raise fail(sc.DECIMAL_RANGE)
        return r
    quantum = _QUANTUM[scale] if 0 <= scale < len(_QUANTUM) else Decimal(1).scaleb(-scale)
    # (_WIDE_CONTEXT, shared: a Context made per call was a third of this function's time,
    # and every DECIMAL a bulk insert binds passes here on the pure path)
    q = d.quantize(quantum, rounding=decimal.ROUND_HALF_UP, context=_WIDE_CONTEXT)
    if q.adjusted() >= prec - scale and not q.is_zero():
        raise fail(sc.DECIMAL_RANGE)
    return q


def to_int(value: object, code: int) -> int:
    """Informix integer conversion: truncate toward zero, range-check by type."""
    if isinstance(value, bool):
        n = int(value)
    elif isinstance(value, int):
        n = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise fail(sc.CHAR_TO_NUM)
        n = int(value)
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise fail(sc.CHAR_TO_NUM)
        n = int(value)
    elif isinstance(value, str):
        s = value.strip()
        try:
            n = int(s)
        except ValueError:
            n = int(parse_decimal(s))
    elif isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        n = value.toordinal() - EPOCH_ORDINAL
    else:
        raise fail(sc.NO_CONVERSION)
    lo, hi = INT_RANGE[code]
    if not lo <= n <= hi:
        if code == T.SMALLINT:
            raise fail(sc.SMALLINT_RANGE)
        if code in (T.INTEGER, T.SERIAL):
            raise fail(sc.INTEGER_RANGE)
        raise fail(sc.INT8_RANGE)
    return n


def to_float(value: object, single: bool) -> float:
    if isinstance(value, (int, float, Decimal)):
        f = float(value)
    elif isinstance(value, str):
        try:
            f = float(value.strip())
        except ValueError:
            raise fail(sc.CHAR_TO_NUM) from None
    else:
        raise fail(sc.NO_CONVERSION)
    if not math.isfinite(f):
        raise fail(sc.CHAR_TO_NUM)
    if single:
        try:
            f = float(struct.unpack("f", struct.pack("f", f))[0])
        except OverflowError:
            raise fail(sc.DECIMAL_RANGE) from None
    return f


# --- dates ------------------------------------------------------------------------------------
def date_number(d: dt.date) -> int:
    return d.toordinal() - EPOCH_ORDINAL


def date_from_number(n: int) -> dt.date:
    try:
        return dt.date.fromordinal(n + EPOCH_ORDINAL)
    except (ValueError, OverflowError):
        raise fail(sc.DT_RANGE) from None


def make_date(year: int, month: int, day: int) -> dt.date:
    """A date from fields with Informix's per-field errors (-1204/-1205/-1206)."""
    if not 1 <= year <= 9999:
        raise fail(sc.BAD_YEAR)
    if not 1 <= month <= 12:
        raise fail(sc.BAD_MONTH)
    try:
        return dt.date(year, month, day)
    except ValueError:
        raise fail(sc.BAD_DAY) from None


def _dbdate_layout(dbdate: str) -> tuple[str, str, int]:
    """DBDATE like 'MDY4/' or 'Y4MD-' -> (field order 'MDY', separator, year digits)."""
    spec = dbdate.strip().upper() or "MDY4/"
    order = ""
    ydigits = 4
    i = 0
    sep = "/"
    while i < len(spec):
        ch = spec[i]
        if ch in "MDY":
            order += ch
            if ch == "Y" and i + 1 < len(spec) and spec[i + 1] in "24":
                ydigits = int(spec[i + 1])
                i += 1
        else:
            sep = "" if ch == "0" else ch
        i += 1
    if sorted(order) != ["D", "M", "Y"]:
        order, sep, ydigits = "MDY", "/", 4
    return order, sep, ydigits


def parse_date(text: str, ctx: ConvContext) -> dt.date:
    """A date string per DBDATE, also accepting ISO 'yyyy-mm-dd' and US 'mm/dd/yyyy'; -1218.

    Whatever DBDATE's separator, '-' and '/' are accepted between its fields: "Independent of
    the DBDATE setting, Informix correctly interprets: Date separator as - or /" (IBM
    InfoSphere DataStage, "DATE considerations using Informix XPS Load stages"), and IfxPy's
    test_113, run on IDS with the default MDY4/, inserts '03-27-1982' and reads 1982-03-27.

    A reading that gives no valid date passes to the next form, and the first one's error
    (-1205/-1206) is raised when none gives a date: the manuals' US dates with a two-digit
    year (`DATE('12/31/07')`, ids_sqs_1532; `'01/01/90'` in ids_dba_192) are read under the
    Y4MD- that ifxwire's driver sends, where they stopped at month 31 or day 90.
    """
    s = text.strip()
    order, sep, _ = _dbdate_layout(ctx.dbdate)
    layouts = [(order, sep), (order, "-"), (order, "/"), ("YMD", "-"), ("MDY", "/")]
    first: EngineError | None = None
    for n, (lay_order, lay_sep) in enumerate(layouts):
        parts = _split_date(s, lay_sep, lay_order)
        if parts is None:
            continue
        fields = dict(zip(lay_order, parts, strict=True))
        if n and (len(fields["M"]) > 2 or len(fields["D"]) > 2):
            continue  # '1982-03-27' under MDY4/ is the ISO form below, not month 1982
        month, day = int(fields["M"]), int(fields["D"])
        digits = fields["Y"]
        year = expand_year(int(digits), len(digits), month, day, ctx.dbcentury)
        try:
            return make_date(year, month, day)
        except EngineError as err:
            first = first or err
    raise first or fail(sc.STRING_TO_DATE)


def expand_year(year: int, digits: int, month: int, day: int, rule: str,
                today: dt.date | None = None) -> int:
    """DBCENTURY: a year written with one or two digits gets a century; longer ones never do.

    The Informix rules (Guide to SQL: Reference, DBCENTURY): R prefixes the current century;
    P takes the latest of 19yy/20yy before today, F the earliest of 20yy/21yy after today, C the
    closest of 19yy/20yy/21yy (relative to the current century). Settings are case sensitive
    and anything else means R. "Pad years earlier than 100 with leading zeros": '0001' is 1.
    """
    if digits > 2:
        return year
    now = today or dt.date.today()
    century = now.year // 100 * 100
    if rule not in ("P", "F", "C"):
        return century + year
    key = (now.year, now.month, now.day)
    if rule == "P":
        past = [c + year for c in (century - 100, century) if (c + year, month, day) < key]
        return max(past)
    if rule == "F":
        future = [c + year for c in (century, century + 100) if (c + year, month, day) > key]
        return min(future)

    def distance(y: int) -> int:
        return abs(_day_count(y, month, day) - now.toordinal())

    return min((c + year for c in (century - 100, century, century + 100)), key=distance)


def _day_count(year: int, month: int, day: int) -> int:
    """An ordinal good enough to compare candidate dates (clamps an invalid day)."""
    year = min(max(year, 1), 9999)
    month = min(max(month, 1), 12)
    for d in (day, 28):
        try:
            return dt.date(year, month, max(d, 1)).toordinal()
        except ValueError:
            continue
    return dt.date(year, month, 1).toordinal()


def _split_date(s: str, sep: str, order: str) -> list[str] | None:
    """The three digit strings of a date (kept as text: the year's digit count matters)."""
    if sep:
        parts = s.split(sep)
    else:
        widths = {"Y": 4, "M": 2, "D": 2}
        parts, pos = [], 0
        for f in order:
            parts.append(s[pos : pos + widths[f]])
            pos += widths[f]
        if pos != len(s):
            return None
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    return parts


def format_date(d: dt.date, ctx: ConvContext) -> str:
    """A DATE as text per DBDATE (what DATE -> CHAR gives)."""
    order, sep, ydigits = _dbdate_layout(ctx.dbdate)
    fields = {"Y": f"{d.year:04d}" if ydigits == 4 else f"{d.year % 100:02d}",
              "M": f"{d.month:02d}", "D": f"{d.day:02d}"}
    return sep.join(fields[f] for f in order)


def to_date_number(value: object, ctx: ConvContext) -> int:
    if isinstance(value, dt.datetime):
        return date_number(value.date())
    if isinstance(value, dt.date):
        return date_number(value)
    if isinstance(value, str):
        return date_number(parse_date(value, ctx))
    if isinstance(value, bool):
        raise fail(sc.NO_CONVERSION)
    if isinstance(value, (int, Decimal, float)):
        n = int(value)
        date_from_number(n)
        return n
    raise fail(sc.NO_CONVERSION)


# --- DATETIME ---------------------------------------------------------------------------------
# A datetime value in flight is a 7-list: year, month, day, hour, minute, second, fraction
# (fraction in units of 10 microseconds, i.e. always 5 digits); None where outside the qualifier.
DTFields = list[int | None]
_SLOTS: dict[int, int] = {U.YEAR: 0, U.MONTH: 1, U.DAY: 2, U.HOUR: 3, U.MINUTE: 4,
                          U.SECOND: 5}
_SEPS: dict[int, str] = {U.MONTH: "-", U.DAY: "-", U.HOUR: " ", U.MINUTE: ":", U.SECOND: ":"}


def _units(start: int, end: int) -> list[int]:
    """The field units of a qualifier; FRACTION(n) is represented by its end code."""
    out = [u for u in range(start, min(end, U.SECOND) + 1, 2)]
    if end > U.SECOND:
        out.append(end)
    return out


def _digits_at(s: str, pos: int) -> tuple[str, int]:
    """The run of digits of a DATETIME/INTERVAL literal's field at ``pos``, and where it
    ends (an empty run at ``pos`` itself)."""
    j = pos
    while j < len(s) and s[j].isdigit():
        j += 1
    return s[pos:j], j


def parse_dt_text(text: str, start: int, end: int, century: str | None = None) -> DTFields:
    """Parse the Informix literal form of a DATETIME start TO end ('2024-02-29 13:45:59.123').

    ``century``: the DBCENTURY rule for a year written with one or two digits, given for
    text a client entered (literals, strings converted to DATETIME); None for stored text,
    whose years always have four digits."""
    s = text.strip()
    fields: DTFields = [None] * 7
    year_digits = 4
    pos = 0
    units = _units(start, end)
    for i, unit in enumerate(units):
        if i:
            want = "." if unit > U.SECOND else _SEPS[unit]
            if pos >= len(s):
                break  # trailing fields omitted: filled below
            if s[pos] != want and not (want == " " and s[pos] == "T"):
                if s[pos].isdigit() or s[pos] in "-: .":
                    raise fail(sc.DT_BAD_FIELD)
                raise fail(sc.DT_NON_NUMERIC)
            pos += 1
        digits, j = _digits_at(s, pos)
        if not digits:
            raise fail(sc.DT_NON_NUMERIC if j < len(s) else sc.DT_BAD_FIELD)
        if unit > U.SECOND:
            fields[6] = int((digits + "00000")[:5])
        else:
            if len(digits) > (4 if unit == U.YEAR else 2) and i == 0 and unit != U.YEAR:
                raise fail(sc.DT_FIRST_FIELD)
            fields[_SLOTS[unit]] = int(digits)
            if unit == U.YEAR:
                year_digits = len(digits)
        pos = j
    if pos != len(s):
        rest = s[pos:]
        raise fail(sc.DT_EXTRA if rest[0] in "-: ." else sc.DT_NON_NUMERIC)
    for unit in units:
        slot = 6 if unit > U.SECOND else _SLOTS[unit]
        if fields[slot] is None:
            fields[slot] = 1 if slot in (1, 2) else 0
    if century is not None and year_digits <= 2 and fields[0] is not None:
        fields[0] = expand_year(fields[0], year_digits, fields[1] or 1, fields[2] or 1, century)
    check_dt_fields(fields)
    return fields


def check_dt_fields(f: DTFields) -> None:
    year, month, day, hour, minute, second, _ = f
    if year is not None and not 1 <= year <= 9999:
        raise fail(sc.DT_BAD_FIELD)
    if month is not None and not 1 <= month <= 12:
        raise fail(sc.DT_BAD_FIELD)
    if day is not None:
        y = year if year is not None else 2000
        m = month if month is not None else 1
        try:
            dt.date(y, m, day)
        except ValueError:
            raise fail(sc.DT_BAD_FIELD) from None
    if hour is not None and not 0 <= hour <= 23:
        raise fail(sc.DT_BAD_FIELD)
    if minute is not None and not 0 <= minute <= 59:
        raise fail(sc.DT_BAD_FIELD)
    if second is not None and not 0 <= second <= 59:
        raise fail(sc.DT_BAD_FIELD)


def format_dt(f: DTFields, start: int, end: int) -> str:
    """The canonical storage text of a DATETIME start TO end."""
    out = []
    for i, unit in enumerate(_units(start, end)):
        if unit > U.SECOND:
            n = unit - U.SECOND
            frac = f[6] or 0
            out.append(("." if i else "") + f"{frac:05d}"[:n])
            continue
        v = f[_SLOTS[unit]]
        v = 0 if v is None else v
        if i:
            out.append(_SEPS[unit])
        out.append(f"{v:04d}" if unit == U.YEAR else f"{v:02d}")
    return "".join(out)


def dt_fields_of(value: object, start: int, end: int) -> DTFields:
    """Fields of a Python value for a DATETIME start TO end; missing leading fields come from
    the current time, as Informix EXTEND fills them."""
    now = dt.datetime.now()
    full: DTFields
    if isinstance(value, dt.datetime):
        full = [value.year, value.month, value.day, value.hour, value.minute, value.second,
                value.microsecond // 10]
    elif isinstance(value, dt.date):
        full = [value.year, value.month, value.day, 0, 0, 0, 0]
    elif isinstance(value, dt.time):
        full = [now.year, now.month, now.day, value.hour, value.minute, value.second,
                value.microsecond // 10]
    elif isinstance(value, DateTimeFields):
        full = [value.year, value.month, value.day, value.hour, value.minute, value.second,
                None if value.microsecond is None else value.microsecond // 10]
        defaults = [now.year, now.month, now.day, 0, 0, 0, 0]
        full = [d if v is None else v for v, d in zip(full, defaults, strict=True)]
    else:
        raise fail(sc.NO_CONVERSION)
    out: DTFields = [None] * 7
    for unit in _units(start, end):
        slot = 6 if unit > U.SECOND else _SLOTS[unit]
        out[slot] = full[slot]
    if end > U.SECOND and out[6] is not None:
        keep = 10 ** (5 - (end - U.SECOND))
        out[6] = out[6] // keep * keep
    return out


def extend_fields(f: DTFields, start: int, end: int) -> DTFields:
    """EXTEND: keep the fields of the new qualifier, fill new leading fields from CURRENT and
    new trailing fields with their lowest value."""
    now = dt.datetime.now()
    defaults = [now.year, now.month, now.day, 0, 0, 0, 0]
    out: DTFields = [None] * 7
    lowest = [1, 1, 1, 0, 0, 0, 0]
    have_any_before = False
    for unit in _units(start, end):
        slot = 6 if unit > U.SECOND else _SLOTS[unit]
        v = f[slot]
        if v is None:
            v = lowest[slot] if have_any_before else defaults[slot]
        else:
            have_any_before = True
        out[slot] = v
    if end > U.SECOND and out[6] is not None:
        keep = 10 ** (5 - (end - U.SECOND))
        out[6] = out[6] // keep * keep
    return out


def dt_from_text_any(text: str, century: str | None = None) -> tuple[DTFields, int, int]:
    """Parse a DATETIME text whose qualifier is unknown: infer it from the shape
    (``century``: as for parse_dt_text)."""
    s = text.strip()
    for start, end in _SHAPES:
        try:
            return parse_dt_text(s, start, end, century), start, end
        except EngineError:
            continue
    raise fail(sc.DT_NON_NUMERIC)


_SHAPES = [(U.YEAR, U.FRACTION5), (U.YEAR, U.SECOND), (U.YEAR, U.MINUTE), (U.YEAR, U.DAY),
           (U.HOUR, U.FRACTION5), (U.HOUR, U.SECOND)]


def to_dt_text(value: object, t: IfxType, century: str | None = None) -> str:
    """A value as the stored text of DATETIME ``t``; ``century``: DBCENTURY for a string's
    one- or two-digit year (parse_dt_text)."""
    if isinstance(value, str):
        s = value.strip()
        try:
            f = parse_dt_text(s, t.start, t.end, century)
        except EngineError as first:
            # A longer literal (a full timestamp into YEAR TO DAY) is read in its own shape
            # and cut to the column's qualifier; anything else keeps the first error.
            if t.start != U.YEAR or len(s) <= len(format_dt([2000, 1, 1, 0, 0, 0, 0],
                                                            t.start, t.end)):
                raise
            try:
                f2, _, _ = dt_from_text_any(s, century)
            except EngineError:
                raise first from None
            f = extend_fields(f2, t.start, t.end)
        return format_dt(f, t.start, t.end)
    return format_dt(dt_fields_of(value, t.start, t.end), t.start, t.end)


def dt_python(text: str, t: IfxType) -> object:
    """Stored DATETIME text to the Python value the brief specifies for its qualifier."""
    f = parse_dt_text(text, t.start, t.end)
    micro = (f[6] or 0) * 10
    if t.start == U.YEAR and t.end >= U.HOUR:
        return dt.datetime(f[0] or 1, f[1] or 1, f[2] or 1, f[3] or 0, f[4] or 0, f[5] or 0,
                           micro)
    if t.start == U.YEAR and t.end == U.DAY:
        return dt.date(f[0] or 1, f[1] or 1, f[2] or 1)
    if t.start >= U.HOUR:
        return dt.time(f[3] or 0, f[4] or 0, f[5] or 0, micro)
    return DateTimeFields(t.start, t.end, f[0], f[1], f[2], f[3], f[4], f[5],
                          None if f[6] is None else micro)


# --- INTERVAL ---------------------------------------------------------------------------------
def interval_limit(t: IfxType) -> int:
    """Exclusive bound of the stored integer for INTERVAL t (leading field has ``lead`` digits)."""
    if t.is_ym_interval:
        return int(10**t.lead) * (12 if t.start == U.YEAR else 1)
    return int(10**t.lead) * UNIT_TICKS[t.start]


def fit_interval(n: int, t: IfxType, code: int = sc.DT_FIRST_FIELD) -> int:
    """Truncate to the qualifier's last field and check the leading precision: past it, -1261
    for a value written or converted, ``code`` (-1265) for the result of an operation."""
    if not t.is_ym_interval:
        step = UNIT_TICKS[t.end]
        n = -((-n) // step * step) if n < 0 else n // step * step
    elif t.end == U.YEAR:
        n = -((-n) // 12 * 12) if n < 0 else n // 12 * 12
    if abs(n) >= interval_limit(t):
        raise fail(code)
    return n


def parse_interval_text(text: str, t: IfxType) -> int:
    """Informix interval literal text ('-5 12:30:00.5', '2-06') to the stored integer."""
    s = text.strip()
    neg = s.startswith("-")
    if neg or s.startswith("+"):
        s = s[1:].lstrip()
    units = _units(t.start, t.end)
    values: list[int] = []
    pos = 0
    for i, unit in enumerate(units):
        if i:
            if pos >= len(s):
                raise fail(sc.DT_BAD_FIELD)
            want = "." if unit > U.SECOND else ("-" if unit == U.MONTH else
                                                " " if unit == U.HOUR else ":")
            if s[pos] != want:
                raise fail(sc.DT_NON_NUMERIC if not s[pos].isdigit() else sc.DT_BAD_FIELD)
            pos += 1
        digits, j = _digits_at(s, pos)
        if not digits:
            raise fail(sc.DT_NON_NUMERIC)
        if unit > U.SECOND:
            values.append(int((digits + "00000")[:5]))
        else:
            v = int(digits)
            if i == 0 and len(digits.lstrip("0")) > t.lead:
                raise fail(sc.DT_FIRST_FIELD)
            if i and v >= (12 if unit == U.MONTH else 24 if unit == U.HOUR else 60):
                raise fail(sc.DT_BAD_FIELD)
            values.append(v)
        pos = j
    if pos != len(s):
        raise fail(sc.DT_EXTRA)
    if t.is_ym_interval:
        total = 0
        for unit, v in zip(units, values, strict=True):
            total += v * 12 if unit == U.YEAR else v
    else:
        total = 0
        for unit, v in zip(units, values, strict=True):
            total += v if unit > U.SECOND else v * UNIT_TICKS[unit]
    return fit_interval(-total if neg else total, t)


def to_interval(value: object, t: IfxType) -> int:
    if isinstance(value, str):
        return parse_interval_text(value, t)
    if isinstance(value, IntervalYM):
        if not t.is_ym_interval:
            raise fail(sc.DT_INCOMPATIBLE)
        return fit_interval(value.months, t)
    if isinstance(value, dt.timedelta):
        if t.is_ym_interval:
            raise fail(sc.DT_INCOMPATIBLE)
        micro = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
        ticks = -((-micro) // 10) if micro < 0 else micro // 10
        return fit_interval(ticks, t)
    raise fail(sc.NO_CONVERSION)


def interval_python(n: int, t: IfxType) -> object:
    if t.is_ym_interval:
        return IntervalYM(int(n))
    return dt.timedelta(microseconds=int(n) * 10)


def format_interval(n: int, t: IfxType) -> str:
    """Interval text as Informix prints it (leading field unpadded)."""
    neg = n < 0
    n = abs(int(n))
    parts: list[str] = []
    if t.is_ym_interval:
        if t.start == U.YEAR:
            parts.append(str(n // 12))
            if t.end == U.MONTH:
                parts.append(f"-{n % 12:02d}")
        else:
            parts.append(str(n))
    else:
        rest = n
        for i, unit in enumerate(_units(t.start, t.end)):
            if unit > U.SECOND:
                frac = rest % TICKS_PER_SECOND
                parts.append("." + f"{frac:05d}"[: unit - U.SECOND])
                continue
            size = UNIT_TICKS[unit]
            v = rest // size
            rest -= v * size
            sep = "" if not i else (" " if unit == U.HOUR else ":")
            parts.append(sep + (str(v) if not i else f"{v:02d}"))
    return ("-" if neg else "") + "".join(parts)


# --- BOOLEAN ----------------------------------------------------------------------------------
def to_bool(value: object) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and value in (0, 1):
        return value
    if isinstance(value, str):
        s = value.strip().lower()
        if s in ("t", "1"):
            return 1
        if s in ("f", "0"):
            return 0
    raise fail(sc.NO_CONVERSION)


# --- strings ----------------------------------------------------------------------------------
def to_text(value: object, src: IfxType | None, ctx: ConvContext) -> str:
    """Any value as Informix renders it in a character context."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "t" if value else "f"
    if src is not None and value is not None:
        code = src.code
        if code == T.DATE and isinstance(value, int):
            return format_date(date_from_number(value), ctx)
        if code == T.INTERVAL and isinstance(value, int):
            return format_interval(value, src)
        if code == T.BOOLEAN and isinstance(value, int):
            return "t" if value else "f"
    if isinstance(value, dt.datetime):
        return format_dt(dt_fields_of(value, U.YEAR, U.FRACTION5), U.YEAR, U.FRACTION5)
    if isinstance(value, dt.date):
        return format_date(value, ctx)
    if isinstance(value, Decimal):
        return dec_text(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise fail(sc.NO_CONVERSION)
    return str(value)


def fit_string(s: str, t: IfxType, ctx: ConvContext) -> str:
    """Apply a character column's length: truncate (non-ANSI, as Informix does) or -1279 (ANSI).
    CHAR keeps no trailing blanks in storage: Informix compares CHAR values blank-padded."""
    limit = t.size if t.code not in (T.TEXT,) else 0
    if t.is_char:
        s = s.rstrip(" ")
    if limit and len(s) > limit // 4 and ctx.encoding == "utf-8":
        # Lengths are bytes: cut at the last whole character that fits, as GLS does.
        data = s.encode("utf-8", "surrogatepass")
        if len(data) > limit:
            if ctx.ansi:
                raise fail(sc.STRING_TOO_LONG)
            s = data[:limit].decode("utf-8", "ignore")
            if t.is_char:
                s = s.rstrip(" ")
    elif limit and len(s) > limit:
        if ctx.ansi:
            raise fail(sc.STRING_TOO_LONG)
        s = s[:limit]
        if t.is_char:
            s = s.rstrip(" ")
    return s


def dec_of_storage(v: object) -> Decimal | None:
    """A stored or computed numeric value as Decimal (for exact arithmetic in functions)."""
    if v is None:
        return None
    if isinstance(v, str):
        return parse_decimal(v)
    return to_decimal(v)


def field_width(unit: int) -> int:
    return FIELD_WIDTH.get(unit, 2)


class BlobRef(NamedTuple):
    """A BYTE/TEXT value stored as an object: its id and locator in ``_ifx_lo``
    (features/lobs/lobstore.py keeps them; the core converts columns holding one)."""

    loid: int
    locator: bytes = b""

    def stored(self, text: bool) -> object:
        """What the column holds: the locator in a TEXT column, the id in a BYTE column."""
        return self.locator if text else self.loid
