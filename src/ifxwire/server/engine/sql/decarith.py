"""Exact DECIMAL and FLOAT arithmetic for the SQL functions, and the IFXDEC collation.

Split from functions.py (the ~800-line rule): the number-crunching that the scalar functions
(``dop``: +, -, *, /, MOD, ROUND, TRUNC) and the aggregates (aggregates.py) share, with no
SQLite connection or session in sight. DECIMAL values travel through SQLite as canonical
texts; ``_dec`` reads one back, ``_result`` fits a result to its Informix type.
"""

from __future__ import annotations

import decimal
import math
from decimal import Decimal
from functools import lru_cache

from ....protocol.codes import TypeCode
from ..core import sqlcodes as sc
from ..core import values as vals
from ..core.errors import EngineError
from ..core.ifxtypes import FLOATING, IfxType, from_key

T = TypeCode
WIDE = decimal.Context(prec=80, rounding=decimal.ROUND_HALF_UP, Emin=-999, Emax=999)


# --- IFXDEC collation ---------------------------------------------------------------------------
@lru_cache(maxsize=65536)
def _dec_key(text: str) -> Decimal | None:
    try:
        d = Decimal(text)
    except decimal.InvalidOperation:
        return None
    return d if d.is_finite() else None


def ifxdec_collation(a: str, b: str) -> int:
    """Compare two canonical decimal texts as numbers (never raises: collations cannot)."""
    if a == b:
        return 0
    da, db = _dec_key(a), _dec_key(b)
    if da is None or db is None:
        return (a > b) - (a < b)
    return (da > db) - (da < db)


# --- conversions ---------------------------------------------------------------------------------
def _dec(v: object) -> Decimal:
    d = vals.dec_of_storage(v)
    assert d is not None
    return d


def _result(value: Decimal | float | int, res: IfxType) -> object:
    if res.code in (T.FLOAT, T.SMALLFLOAT):
        return float(value)
    if res.is_integer:
        return vals.to_int(value, res.code)
    if not isinstance(value, Decimal):
        value = vals.to_decimal(value)
    return vals.dec_text(vals.fit_decimal(value, res.prec, res.scale))


def _float(v: object) -> float:
    if isinstance(v, str):
        return float(vals.parse_decimal(v))
    if isinstance(v, (int, float, Decimal)):
        return float(v)
    raise EngineError(sc.NO_CONVERSION)


def _float_op(op: str, a: object, b: object) -> float:
    x = _float(a)
    y = 0.0 if b is None else _float(b)
    if op in ("div", "mod") and y == 0:
        raise EngineError(sc.DIVIDE_BY_ZERO)
    if op == "add":
        return x + y
    if op == "sub":
        return x - y
    if op == "mul":
        return x * y
    if op == "div":
        return x / y
    if op == "mod":
        return math.fmod(x, y)
    if op == "neg":
        return -x
    if op == "abs":
        return abs(x)
    raise EngineError(sc.NOT_IMPLEMENTED, near=op)


def _dec_op(op: str, x: Decimal, y: Decimal) -> Decimal:
    with decimal.localcontext(WIDE):
        if op == "add":
            return x + y
        if op == "sub":
            return x - y
        if op == "mul":
            return x * y
        if op in ("div", "mod"):
            if y == 0:
                raise EngineError(sc.DIVIDE_BY_ZERO)
            return vals.DEC_CONTEXT.divide(x, y) if op == "div" else x % y
    raise EngineError(sc.NOT_IMPLEMENTED, near=op)


def dop(op: str, a: object, b: object, reskey: str) -> object:
    """Exact arithmetic for DECIMAL-typed results (and MOD/ROUND/TRUNC of any numeric)."""
    res = from_key(reskey)
    if a is None or (b is None and op not in ("neg", "abs", "sign")):
        return None
    if res.code in (T.FLOAT, T.SMALLFLOAT) and op not in ("round", "trunc"):
        return _float_op(op, a, b)
    x = _dec(a)
    if op == "neg":
        return _result(-x, res)
    if op == "abs":
        return _result(abs(x), res)
    if op == "sign":
        return (x > 0) - (x < 0)
    if op in ("round", "trunc"):
        places = vals.to_int(b, T.INTEGER)
        if not -32 <= places <= 32:
            # The factor is "an integer between +32 and -32, inclusive" (Guide to SQL:
            # Syntax, "ROUND Function", "TRUNC Function"); the code a server gives beyond
            # that is not documented, so refused rather than guessed.
            raise EngineError(sc.NOT_IMPLEMENTED, near=f"{op.upper()} factor {places}")
        rounding = decimal.ROUND_HALF_UP if op == "round" else decimal.ROUND_DOWN
        r = x.quantize(Decimal(1).scaleb(-places), rounding=rounding, context=WIDE)
        if res.code in (T.FLOAT, T.SMALLFLOAT):
            return float(r)
        return _result(r, res)
    y = _dec(b)
    if op == "mod":
        # MOD divides the integer parts (Guide to SQL: Syntax, "MOD Function"): MOD(10.7, 3)
        # is 1, and a divisor whose integer part is 0 is the divisor 0 the page forbids.
        x, y = x.to_integral_value(decimal.ROUND_DOWN), y.to_integral_value(decimal.ROUND_DOWN)
    r = _dec_op(op, x, y)
    if res.is_decimal and res.scale == FLOATING and len(r.normalize().as_tuple().digits) > 32:
        r = vals.DEC_CONTEXT.plus(r)
    return _result(r, res)


