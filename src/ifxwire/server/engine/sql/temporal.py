"""DATE / DATETIME / INTERVAL arithmetic: result types per Informix and their SQLite form.

DATE is a day number, so DATE ± integer and DATE − DATE stay native integer arithmetic.
Everything involving DATETIME or INTERVAL goes through exact Python helpers in
``functions.py`` (``ifx_dtadd``, ``ifx_dtdiff``, ``ifx_ivop``).
"""

from __future__ import annotations

from sqlglot import exp

from ....protocol.codes import TimeUnit, TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.ifxtypes import IfxType
from .exprs import ExprTranslator, func, keylit, ty, typed

T = TypeCode
U = TimeUnit


def _as_datetime(tx: ExprTranslator, node: exp.Expr, t: IfxType, end: int) -> tuple[
        exp.Expr, IfxType]:
    """A DATE operand as DATETIME YEAR TO DAY (extended to ``end``)."""
    target = it.datetime_type(U.YEAR, max(U.DAY, end))
    return tx.convert(node, target, truncate=False), target


def temporal_arith(tx: ExprTranslator, op: str, left: exp.Expr, right: exp.Expr,
                   node: exp.Binary) -> exp.Expr:
    lt, rt = ty(left), ty(right)
    lc, rc = lt.code, rt.code
    numeric_r = rt.is_numeric
    numeric_l = lt.is_numeric

    if lc == T.DATE and (numeric_r or rt.is_string) and op in "+-":
        if not rt.is_integer:
            right = tx.convert(right, it.INTEGER)
        node.set("this", left)
        node.set("expression", right)
        return typed(node, it.DATE)
    if rc == T.DATE and numeric_l and op == "+":
        node.set("this", left)
        node.set("expression", right)
        return typed(node, it.DATE)
    if lc == T.DATE and rc == T.DATE and op == "-":
        node.set("this", left)
        node.set("expression", right)
        return typed(node, it.INTEGER)

    # INTERVAL op number
    # Guide to SQL: Reference, "Multiplying or Dividing INTERVAL Values" (ids_sqr_158): "The
    # result of any calculation has the same precision as the original INTERVAL operand"
    # (was widened to a first field of 9 digits).
    if lc == T.INTERVAL and numeric_r and op in "*/":
        res = lt.nullable()
        return typed(func("ifx_ivop", exp.Literal.string(op), left, right, keylit(res)), res)
    if rc == T.INTERVAL and numeric_l and op == "*":
        res = rt.nullable()
        return typed(func("ifx_ivop", exp.Literal.string(op), right, left, keylit(res)), res)

    # INTERVAL ± INTERVAL
    if lc == T.INTERVAL and rc == T.INTERVAL and op in "+-":
        if lt.is_ym_interval != rt.is_ym_interval:
            raise EngineError(sc.DT_INCOMPATIBLE)
        res = it.interval_type(min(lt.start, rt.start), max(lt.end, rt.end), 9)
        node.set("this", left)
        node.set("expression", right)
        return typed(node, res)

    # DATETIME/DATE ± INTERVAL
    if rc == T.INTERVAL and lc in (T.DATETIME, T.DATE) and op in "+-":
        _check_fields(lt, rt, right)
        if lc == T.DATE:
            left, lt = _as_datetime(tx, left, lt, rt.end)
        res = lt.nullable()
        return typed(func("ifx_dtadd", left, keylit(res), right, keylit(rt.nullable()),
                          exp.Literal.number(1 if op == "+" else -1)), res)
    if lc == T.INTERVAL and rc in (T.DATETIME, T.DATE) and op == "+":
        _check_fields(rt, lt, left)
        if rc == T.DATE:
            right, rt = _as_datetime(tx, right, rt, lt.end)
        res = rt.nullable()
        return typed(func("ifx_dtadd", right, keylit(res), left, keylit(lt.nullable()),
                          exp.Literal.number(1)), res)

    # DATETIME − DATETIME (DATE counts as YEAR TO DAY)
    if lc in (T.DATETIME, T.DATE) and rc in (T.DATETIME, T.DATE) and op == "-":
        if lc == T.DATE:
            left, lt = _as_datetime(tx, left, lt, U.DAY)
        if rc == T.DATE:
            right, rt = _as_datetime(tx, right, rt, U.DAY)
        # "The first DATETIME value determines the precision of the result, which includes
        # the same time units as the first operand": a second operand with fewer fields is
        # extended to the first's, one with more has them "ignored in the calculation"
        # ("Manipulating DATETIME Values", ids_sqr_154; a DATE is first made a DATETIME YEAR
        # TO DAY, ids_sqr_156). So the second is EXTENDed to the first's qualifier, and the
        # INTERVAL ends where the first ends: YEAR TO HOUR - YEAR TO MINUTE is DAY TO HOUR,
        # HOUR TO MINUTE - HOUR TO MINUTE is HOUR TO MINUTE (both were cut or widened by the
        # finer or larger operand). ESQL/C's dtsub() "extends d2 to match the qualifier for
        # d1" too. The first field's precision, 9, is ours: no page prints it.
        if (rt.start, rt.end) != (lt.start, lt.end):
            rt = it.datetime_type(lt.start, lt.end)
            right = tx.convert(right, rt, truncate=False)
        if lt.end <= U.MONTH:
            res = it.interval_type(lt.start, lt.end, 9)
        else:
            res = it.interval_type(max(lt.start, U.DAY), lt.end, 9)
        return typed(func("ifx_dtdiff", left, keylit(lt.nullable()), right,
                          keylit(rt.nullable()), keylit(res)), res)

    # string literals meet temporal values: convert to the temporal type and retry
    if lt.is_string and rc in (T.DATETIME, T.DATE, T.INTERVAL) and tx.is_const(left):
        return temporal_arith(tx, op, tx.convert(left, rt), right, node)
    if rt.is_string and lc in (T.DATETIME, T.INTERVAL) and tx.is_const(right):
        target = rt if rc == T.INTERVAL else (
            it.interval_type(U.DAY, U.FRACTION5, 9) if op in "+-" and lc == T.DATETIME else lt)
        converted = tx.convert(right, target)
        converted.meta["ifx_from_string"] = True
        return temporal_arith(tx, op, left, converted, node)
    raise EngineError(sc.DT_INCOMPATIBLE)


def _check_fields(dtt: IfxType, ivt: IfxType, interval: exp.Expr) -> None:
    """"If the INTERVAL value you are adding or subtracting has fields that are not included
    in the DATETIME value, you must use the EXTEND function" (Guide to SQL: Reference,
    "Manipulating DATETIME with INTERVAL Values": an INTERVAL MINUTE TO MINUTE cannot be
    subtracted from a DATETIME YEAR TO DAY): an interval ending in a smaller unit than the
    DATETIME is refused as incompatible (-1266). A DATE operand is widened as before, and
    a quoted string read as an interval is fitted, not refused."""
    if dtt.code == T.DATETIME and ivt.end > dtt.end and not interval.meta.get(
            "ifx_from_string"):
        raise EngineError(sc.DT_INCOMPATIBLE)
