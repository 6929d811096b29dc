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

from ...protocol.codes import TypeCode
from . import ifxtypes as it
from . import sqlcodes as sc
from . import values as vals
from .errors import EngineError
from .ifxtypes import IfxType

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


def to_number(v: object) -> object:
    return vals.dec_text(vals.parse_decimal(str(v)) if isinstance(v, str) else
                         vals.to_decimal(v))


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


# name -> (argument types (None: any), result type, implementation)
Entry = tuple[list[IfxType | None], IfxType, Callable[..., object]]
FUNCTIONS: dict[str, Entry] = {
    "ADD_MONTHS": ([it.DATE, it.INTEGER], it.DATE, add_months),
    "MONTHS_BETWEEN": ([it.DATE, it.DATE], it.DECIMAL32, months_between),
    "LAST_DAY": ([it.DATE], it.DATE, last_day),
    "NEXT_DAY": ([it.DATE, it.varchar(16)], it.DATE, next_day),
    "QUARTER": ([it.DATE], it.SMALLINT, quarter),
    "TO_NUMBER": ([None], it.DECIMAL32, to_number),
    "ROOT": ([it.FLOAT, it.FLOAT], it.FLOAT, root),
    "REVERSE": ([it.varchar(255)], it.varchar(255), lambda s: str(s)[::-1]),
    "BITAND": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a & b)),
    "BITOR": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a | b)),
    "BITXOR": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a ^ b)),
    "BITANDNOT": ([it.BIGINT, it.BIGINT], it.BIGINT, _bits(lambda a, b: a & ~b)),
    "BITNOT": ([it.BIGINT], it.BIGINT, lambda a: ~int(a)),
    "DEGREES": ([it.FLOAT], it.FLOAT, lambda x: math.degrees(float(x))),
    "RADIANS": ([it.FLOAT], it.FLOAT, lambda x: math.radians(float(x))),
}
# Functions whose last argument may be left out.
OPTIONAL_LAST = {"ROOT"}


def call(name: str, *args: object) -> object:
    if any(a is None for a in args):
        return None
    return FUNCTIONS[name][2](*args)
