"""More Informix built-in functions: date arithmetic by months, numeric and bit helpers.

Each entry gives the SQL side (argument conversions and the Informix result type, used by
``functions_sql.py``) and the Python side (run by SQLite through one ``ifx_fn`` function), so a
function is one entry here. Dates arrive as Informix day numbers and DATETIMEs as their text
(``values.py``); results are returned in the storage form of the result type.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
from collections.abc import Callable
from decimal import Decimal
from typing import Any, cast

from ....protocol.codes import TimeUnit, TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core import values as vals
from ..core.errors import EngineError
from ..core.ifxtypes import IfxType
from ..core.money import DEFAULT_MONEY, MoneyFormat, read_monetary

T = TypeCode
_DAYS = {"SUN": 6, "MON": 0, "TUE": 1, "WED": 2, "THU": 3, "FRI": 4, "SAT": 5}


def _date(v: object) -> dt.date:
    return vals.date_from_number(int(v))  # type: ignore[call-overload]


def _add_months(d: dt.date, n: int) -> dt.date:
    """Informix ADD_MONTHS: the same day n months on, or that month's last day."""
    months = d.year * 12 + d.month - 1 + n
    year, month = divmod(months, 12)
    if not 1 <= year <= 9999:
        raise EngineError(sc.DT_RANGE)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(d.day, last))


def add_months(v: object, n: object) -> object:
    return vals.date_number(_add_months(_date(v), int(n)))  # type: ignore[call-overload]


def months_between(a: object, b: object) -> object:
    """Whole months when both dates fall on the same day of the month or both on the last
    day of their month; otherwise the difference counts 31-day months (as Informix and
    Oracle define it)."""
    d1, d2 = _date(a), _date(b)
    months = (d1.year - d2.year) * 12 + (d1.month - d2.month)
    last1 = d1.day == calendar.monthrange(d1.year, d1.month)[1]
    last2 = d2.day == calendar.monthrange(d2.year, d2.month)[1]
    if d1.day == d2.day or (last1 and last2):
        return vals.dec_text(Decimal(months))
    frac = (Decimal(d1.day - d2.day) / Decimal(31))
    return vals.dec_text(vals.DEC_CONTEXT.plus(Decimal(months) + frac))


def last_day(v: object) -> object:
    d = _date(v)
    return vals.date_number(d.replace(day=calendar.monthrange(d.year, d.month)[1]))


def next_day(v: object, day: object) -> object:
    target = _DAYS.get(str(day).strip().upper()[:3])
    if target is None:
        raise EngineError(sc.NO_CONVERSION)
    d = _date(v)
    ahead = (target - d.weekday() - 1) % 7 + 1
    return vals.date_number(d + dt.timedelta(days=ahead))


def quarter(v: object) -> object:
    return (_date(v).month - 1) // 3 + 1


def to_number(v: object, money: MoneyFormat = DEFAULT_MONEY) -> object:
    """TO_NUMBER (ids_sqs_1544): ``TO_NUMBER('$100.00')`` is 100, "the currency symbol is
    discarded". The symbol and the decimal separator are the session's DBMONEY
    (core/money.py; ids_gug_060: DBMONEY first, then the locale, then ``$,.``): under
    ``DM,`` ``TO_NUMBER('DM100,50')`` is 100.5 [inference from those pages]. A thousands
    separator is not discarded: the page says nothing of one [inference]."""
    if isinstance(v, str):
        return vals.dec_text(vals.parse_decimal(read_monetary(v, money, thousands=False)))
    return vals.dec_text(vals.to_decimal(v))


def root(x: object, n: object = 2) -> object:
    value, degree = float(x), float(n)  # type: ignore[arg-type]
    if degree == 0:
        raise EngineError(sc.DIVIDE_BY_ZERO)
    if value < 0:
        if degree % 2 != 1:
            raise EngineError(sc.NO_CONVERSION)
        return -((-value) ** (1.0 / degree))
    return value ** (1.0 / degree)


def _bits(op: Callable[[int, int], int]) -> Callable[..., object]:
    def fn(a: object, b: object) -> object:
        return op(int(a), int(b))  # type: ignore[call-overload]
    return fn


# --- DATETIME forms of the month functions (ADD_MONTHS/LAST_DAY/NEXT_DAY of a DATETIME) --------
# The argument arrives as DATETIME YEAR TO FRACTION(5) text; the time of day is kept, as the
# Guide to SQL: Syntax documents for ADD_MONTHS ("with the same values for time units smaller
# than day as in the first argument").
U = TimeUnit
Y2F5 = it.datetime_type(U.YEAR, U.FRACTION5)


def _dt(text: object) -> tuple[dt.datetime, int]:
    f = vals.parse_dt_text(str(text), U.YEAR, U.FRACTION5)
    return dt.datetime(f[0] or 1, f[1] or 1, f[2] or 1, f[3] or 0, f[4] or 0, f[5] or 0), (
        f[6] or 0)


def _dt_text(d: dt.datetime, frac: int) -> str:
    return vals.format_dt([d.year, d.month, d.day, d.hour, d.minute, d.second, frac],
                          U.YEAR, U.FRACTION5)


def _on_date(fn: Callable[[dt.date], dt.date]) -> Callable[[dt.datetime, int], str]:
    def apply(d: dt.datetime, frac: int) -> str:
        day = fn(d.date())
        return _dt_text(dt.datetime.combine(day, d.time()), frac)
    return apply


def add_months_dt(v: object, n: object) -> object:
    return _on_date(lambda d: _add_months(d, int(n)))(*_dt(v))  # type: ignore[call-overload]


def last_day_dt(v: object) -> object:
    return _on_date(lambda d: d.replace(day=calendar.monthrange(d.year, d.month)[1]))(*_dt(v))


def months_between_dt(a: object, b: object) -> object:
    """MONTHS_BETWEEN when an argument is a DATETIME: "This fractional part can also include
    the difference in hour, minute, and second time units, unless both arguments are DATE
    expressions" (Guide to SQL: Syntax, MONTHS_BETWEEN Function, ids_sqs_1537). The whole
    months rule (same day, or both last days) is the DATE form's; a DATE argument arrives
    here as midnight."""
    (d1, f1), (d2, f2) = _dt(a), _dt(b)
    months = (d1.year - d2.year) * 12 + (d1.month - d2.month)
    last1 = d1.day == calendar.monthrange(d1.year, d1.month)[1]
    last2 = d2.day == calendar.monthrange(d2.year, d2.month)[1]
    if d1.day == d2.day or (last1 and last2):
        return vals.dec_text(Decimal(months))

    def micro(d: dt.datetime, frac: int) -> int:
        return ((d.hour * 60 + d.minute) * 60 + d.second) * 1_000_000 + frac * 10
    days = Decimal(d1.day - d2.day) + Decimal(micro(d1, f1) - micro(d2, f2)) / Decimal(
        86_400_000_000)
    return vals.dec_text(vals.DEC_CONTEXT.plus(Decimal(months) + days / Decimal(31)))


def next_day_dt(v: object, day: object) -> object:
    d, frac = _dt(v)
    shifted = vals.date_from_number(int(next_day(vals.date_number(d.date()), day)))  # type: ignore[call-overload]
    return _dt_text(dt.datetime.combine(shifted, d.time()), frac)


# --- ROUND / TRUNC of a DATE or DATETIME with a format ----------------------------------------
# Formats (Guide to SQL: Syntax, ROUND Function): DATE 'YEAR', 'MONTH', 'DAY', 'DD'; DATETIME
# also 'HH' and 'MI'. A unit rounds up from its half: a year from July 1, a month from the 16th,
# a day from noon, an hour from 30 minutes, a minute from 30 seconds [I: the rules of the
# Oracle-compatible functions Informix added them as]. 'DAY' truncates to the Sunday that
# starts the week; ROUND(…, 'DAY') is refused (-999): where the week's half falls is unknown.
DATE_FORMATS = ("YEAR", "MONTH", "DAY", "DD")
DATETIME_FORMATS = (*DATE_FORMATS, "HH", "MI")


def _round_fields(d: dt.datetime, frac: int, fmt: str, trunc: bool) -> tuple[dt.datetime, int]:
    fmt = fmt.strip().upper()
    if fmt == "YEAR":
        base = dt.datetime(d.year, 1, 1)
        up = not trunc and (d.month, d.day) >= (7, 1)
        return (base.replace(year=d.year + 1) if up else base), 0
    if fmt == "MONTH":
        base = dt.datetime(d.year, d.month, 1)
        if not trunc and d.day >= 16:
            base = dt.datetime(d.year + d.month // 12, d.month % 12 + 1, 1)
        return base, 0
    if fmt == "DAY":
        if not trunc:
            raise EngineError(sc.NOT_IMPLEMENTED)
        start = d.date() - dt.timedelta(days=(d.weekday() + 1) % 7)
        return dt.datetime.combine(start, dt.time()), 0
    step = {"DD": dt.timedelta(days=1), "HH": dt.timedelta(hours=1),
            "MI": dt.timedelta(minutes=1)}.get(fmt)
    if step is None:
        raise EngineError(sc.BAD_FUNCTION_ARG, near=fmt.lower())
    epoch = dt.datetime(1, 1, 1)
    elapsed = d - epoch + dt.timedelta(microseconds=frac * 10)
    whole = elapsed // step
    if not trunc and elapsed - whole * step >= step / 2:
        whole += 1
    return epoch + whole * step, 0


def round_date(v: object, fmt: object, trunc: object) -> object:
    if str(fmt).strip().upper() not in DATE_FORMATS:
        raise EngineError(sc.BAD_FUNCTION_ARG, near=str(fmt).strip().lower())
    d = dt.datetime.combine(_date(v), dt.time())
    out, _ = _round_fields(d, 0, str(fmt), bool(trunc))
    return vals.date_number(out.date())


def round_dt(v: object, fmt: object, trunc: object) -> object:
    if str(fmt).strip().upper() not in DATETIME_FORMATS:
        raise EngineError(sc.BAD_FUNCTION_ARG, near=str(fmt).strip().lower())
    d, frac = _dt(v)
    try:
        out, f = _round_fields(d, frac, str(fmt), bool(trunc))
    except OverflowError:
        raise EngineError(sc.DT_RANGE) from None
    if out.year > 9999:
        raise EngineError(sc.DT_RANGE)
    return _dt_text(out, f)


# --- strings -----------------------------------------------------------------------------------
def left(s: object, n: object) -> object:
    k = int(n)  # type: ignore[call-overload]
    return str(s)[:k] if k > 0 else ""


def right(s: object, n: object) -> object:
    k = int(n)  # type: ignore[call-overload]
    return str(s)[-k:] if k > 0 else ""


def substring_index(s: object, delim: object, count: object) -> object:
    """The text before the count-th delimiter (after the count-th from the end when count is
    negative); the whole string when it has fewer; NULL for a count of 0."""
    text, d, n = str(s), str(delim), int(count)  # type: ignore[call-overload]
    if n == 0:
        return None
    if not d:
        return ""
    parts = text.split(d)
    if abs(n) >= len(parts):
        return text
    return d.join(parts[:n]) if n > 0 else d.join(parts[n:])


def space(n: object) -> object:
    k = int(n)  # type: ignore[call-overload]
    if k < 1:
        return None
    if k > 32739:
        raise EngineError(sc.BAD_FUNCTION_ARG, near="space")
    return " " * k


def instr(s: object, sub: object, start: object = 1, occurrence: object = 1) -> object:
    """The position of the occurrence-th ``sub`` at or after ``start`` (1-based; a start
    below 1 searches from the first character, as CHARINDEX documents), 0 when absent."""
    text, target = str(s), str(sub)
    pos = max(int(start), 1) - 1  # type: ignore[call-overload]
    found = -1
    for _ in range(max(int(occurrence), 1)):  # type: ignore[call-overload]
        found = text.find(target, pos)
        if found < 0:
            return 0
        pos = found + 1
    return found + 1


def instr_ifx(s: object, sub: object, start: object = 1, occurrence: object = 1) -> object:
    """INSTR as the Guide to SQL: Syntax, "INSTR function" (ids_sqs_2336) words it: NULL
    when count is 0 or less, or when source_string or substring is of zero length (CHARINDEX,
    sharing the search, has no such rule on its page)."""
    if int(occurrence) <= 0 or str(s) == "" or str(sub) == "":  # type: ignore[call-overload]
        return None
    return instr(s, sub, start, occurrence)


def substrb(encoding: str, s: object, start: object, length: object = None) -> object:
    """SUBSTRB (Guide to SQL: Syntax, "SUBSTRB function", ids_sqs_1985): SUBSTR counted in
    bytes of the database code set. No length, or one past the end, takes the bytes up to
    the end; a length of 0 or less gives NULL ("a NULL string"). A start before the first
    byte has no documented result and is refused (-999), as SUBSTR's negative length is; a
    start past the end leaves no bytes (''). A character the cut splits is dropped whole,
    not returned as a broken byte sequence (no page shows that case)."""
    if s is None or start is None:
        return None
    first = int(cast(Any, start))
    if first < 1:
        raise EngineError(sc.NOT_IMPLEMENTED, near=f"SUBSTRB start {first}")
    if length is not None and int(cast(Any, length)) <= 0:
        return None
    data = str(s).encode(encoding, "replace")
    end = len(data) if length is None else first - 1 + int(cast(Any, length))
    return data[first - 1:end].decode(encoding, "ignore")


# FORMAT_UNITS (Guide to SQL: Syntax, "FORMAT_UNITS Function", ids_sqs_1569): each unit's
# power of two; 'P' alone is a page (the base page size, 2 KB here as sysdbspaces.pagesize
# shows), 'PB' a petabyte. Results climb to the largest unit under 1024 of it.
_UNIT_POWER = {"B": 0, "K": 10, "M": 20, "G": 30, "T": 40, "PB": 50}
_LABELS = ("B", "KB", "MB", "GB", "TB", "PB")
_PAGE_BYTES = 2048


def _unit_bytes(units: str) -> float:
    """The bytes in one ``units``: its first letter decides, the rest is ignored, except
    that 'PB' is petabytes while any other word starting with 'P' is pages (ids_sqs_1569)."""
    word = units.strip().upper()
    if word.startswith("PB"):
        return float(2 ** _UNIT_POWER["PB"])
    if word.startswith("P"):
        return float(_PAGE_BYTES)
    if word[:1] in _UNIT_POWER:
        return float(2 ** _UNIT_POWER[word[:1]])
    raise EngineError(sc.BAD_FUNCTION_ARG, near=f"format_units: units {units!r}")


def _float_arg(v: object) -> float:
    try:
        number = float(str(v).strip()) if isinstance(v, str) else float(cast(Any, v))
    except ValueError:
        raise EngineError(sc.CHAR_TO_NUM) from None
    if not math.isfinite(number):
        raise EngineError(sc.CHAR_TO_NUM)
    return number


def _significant(value: float, digits: int) -> str:
    """``value`` to ``digits`` significant digits with its trailing zeros kept (1.00, 97.7,
    500): the page's "precision 3" counts significant digits ("Integer number of
    significant digits to return from number"). A whole part longer than that is printed
    whole, rounded to units, rather than in exponent form."""
    if value == 0:
        return f"{0:.{max(digits - 1, 0)}f}"
    whole = math.floor(math.log10(abs(value))) + 1
    text = f"{value:.{max(digits - whole, 0)}f}"
    # Rounding may add a whole digit (9.996 to 3 digits is 10.00): one decimal less, 10.0.
    rounded = float(text)
    if rounded != 0 and math.floor(math.log10(abs(rounded))) + 1 > whole:
        text = f"{value:.{max(digits - whole - 1, 0)}f}"
    return text


def format_units(*args: object) -> object:
    """FORMAT_UNITS('number units') / (number, 'units' [, precision]) (ids_sqs_1569): the
    size in bytes shown in the largest unit of which it is at least one (B, KB, MB, GB, TB,
    PB; powers of 1024), to ``precision`` significant digits, 3 by default, followed by a
    blank and the unit's label: FORMAT_UNITS('1024 M') is '1.00 GB'. A NULL argument gives
    NULL. An unknown unit letter or a precision outside 1..32 is -717; a number that does
    not read as a FLOAT is -1213."""
    if any(a is None for a in args):
        return None
    if len(args) == 1:
        text = str(args[0]).strip()
        split = len(text)
        while split and not (text[split - 1].isdigit() or text[split - 1] == "."):
            split -= 1
        number, units = _float_arg(text[:split]), text[split:].strip() or "B"
    else:
        number, units = _float_arg(args[0]), str(args[1]).strip() or "B"
    digits = 3
    if len(args) == 3:
        precision = _float_arg(args[2])
        if precision != int(precision) or not 1 <= precision <= 32:
            raise EngineError(sc.BAD_FUNCTION_ARG, near=f"format_units: precision {args[2]}")
        digits = int(precision)
    size = number * _unit_bytes(units)
    level = 0
    while level < len(_LABELS) - 1 and abs(float(_significant(size, digits))) >= 1024:
        size /= 1024  # climbs on what is printed: 1023.99 KB is 1.00 MB, not 1024 KB
        level += 1
    return f"{_significant(size, digits)} {_LABELS[level]}"


# name -> (argument types (None: any), result type (None: the first argument's), implementation)
Entry = tuple[list[IfxType | None], IfxType | None, Callable[..., object]]
FUNCTIONS: dict[str, Entry] = {
    "ADD_MONTHS": ([it.DATE, it.INTEGER], it.DATE, add_months),
    "MONTHS_BETWEEN": ([it.DATE, it.DATE], it.DECIMAL32, months_between),
    "LAST_DAY": ([it.DATE], it.DATE, last_day),
    "NEXT_DAY": ([it.DATE, it.varchar(16)], it.DATE, next_day),
    "QUARTER": ([it.DATE], it.SMALLINT, quarter),
    "TO_NUMBER": ([None], it.DECIMAL32, to_number),
    "ROOT": ([it.FLOAT, it.FLOAT], it.FLOAT, root),
    # "returns a string of the same data type as its source_string argument", of "the same
    # length" (ids_sqs_0573): a CHAR(n) source is reversed with its padding, so its blanks
    # lead; it was a VARCHAR(255) of the trimmed value.
    "REVERSE": ([None], None, lambda s: str(s)[::-1]),
    "BITAND": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a & b)),
    "BITOR": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a | b)),
    "BITXOR": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a ^ b)),
    "BITANDNOT": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a & ~b)),
    "BITNOT": ([it.BIGINT], it.BIGINT, lambda a: ~int(a)),
    "DEGREES": ([it.FLOAT], it.FLOAT, lambda x: math.degrees(float(x))),
    "RADIANS": ([it.FLOAT], it.FLOAT, lambda x: math.radians(float(x))),
    "LEFT": ([None, it.INTEGER], None, left),
    "RIGHT": ([None, it.INTEGER], None, right),
    "SUBSTRING_INDEX": ([None, it.varchar(255), it.INTEGER], None, substring_index),
    "SPACE": ([it.INTEGER], IfxType(T.LVARCHAR, size=32739), space),
    # ids_sqs_1985; the caller (functions.ifx_fn) puts the database code set first.
    "SUBSTRB": ([None, it.INTEGER, it.INTEGER], None, substrb),
    # ids_sqs_1569: "The returned value is a character string"; its declared type is not
    # printed, a VARCHAR(255) is our choice [inference]. The number may be a number or a
    # quoted string, so the arguments reach the function as they are.
    "FORMAT_UNITS": ([None, None, None], it.varchar(255), format_units),
}
# Helpers the translator calls for Informix functions; not names SQL may call.
INTERNAL: dict[str, Entry] = {
    "ADD_MONTHS_DT": ([Y2F5, it.INTEGER], Y2F5, add_months_dt),
    "LAST_DAY_DT": ([Y2F5], Y2F5, last_day_dt),
    "NEXT_DAY_DT": ([Y2F5, it.varchar(16)], Y2F5, next_day_dt),
    "MONTHS_BETWEEN_DT": ([Y2F5, Y2F5], it.DECIMAL32, months_between_dt),
    "ROUND_DATE": ([it.DATE, None, it.INTEGER], it.DATE, round_date),
    "ROUND_DT": ([Y2F5, None, it.INTEGER], Y2F5, round_dt),
    "INSTR_AT": ([None, None, it.INTEGER, it.INTEGER], it.INTEGER, instr),
    "INSTR_IFX": ([None, None, it.INTEGER, it.INTEGER], it.INTEGER, instr_ifx),
}
# Functions whose last argument may be left out.
OPTIONAL_LAST = {"ROOT", "SUBSTRB"}
# Functions that take fewer arguments still: the least they take.
MIN_ARGS = {"FORMAT_UNITS": 1}
# Month functions whose DATETIME argument is handled by the NAME_DT entry (a DATETIME YEAR TO
# FRACTION(5) result; LAST_DAY's is then cast back to the argument's own type).
DATETIME_FORMS = {"ADD_MONTHS", "LAST_DAY", "NEXT_DAY"}
# Functions whose DATETIME form is taken when any argument is a DATETIME.
DATETIME_ANY_ARG = {"MONTHS_BETWEEN"}


def call(name: str, *args: object) -> object:
    if any(a is None for a in args):
        return None
    entry = FUNCTIONS.get(name) or INTERNAL[name]
    return entry[2](*args)
