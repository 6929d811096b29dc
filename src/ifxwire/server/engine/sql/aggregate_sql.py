"""The aggregates COUNT, SUM, AVG, MIN and MAX as SQL functions: their Informix result types
and the SQLite form each becomes.

``functions_sql.translate_function`` hands an aggregate here; the refusals (-1201 for SUM or
AVG of a DATE difference, -561 for a DATETIME, -1260 for a type with no sum) are Informix's.
Apart from functions_sql.py so that file holds the other built-in functions (the ~800-line
rule); the aggregates' run-time classes are in aggregates.py.
"""

from __future__ import annotations

from sqlglot import exp

from ....protocol.codes import TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from .exprs import ExprTranslator, func, ty, typed
from .exprtypes import COUNT_TYPE

T = TypeCode


def _aggregate(tx: ExprTranslator, node: exp.Expr, kind: str) -> exp.Expr:
    arg = node.args.get("this")
    distinct = isinstance(arg, exp.Distinct)
    inner = arg.expressions[0] if distinct and isinstance(arg, exp.Distinct) else arg
    if kind == "count":
        if isinstance(inner, exp.Star):
            return typed(_as_text(node), COUNT_TYPE)
        assert isinstance(inner, exp.Expr)
        new = tx.tx(inner)
        if distinct:
            assert isinstance(arg, exp.Distinct)
            arg.set("expressions", [new])
        else:
            node.set("this", new)
        return typed(_as_text(node), COUNT_TYPE)
    assert isinstance(inner, exp.Expr)
    new = tx.tx(inner)
    t = ty(new)
    if t.code == -1:
        raise EngineError(sc.SYNTAX)
    if kind in ("sum", "avg") and _date_difference(new):
        # ids_sqs_1576: "For SUM and AVG, you cannot use the difference between two DATE
        # values directly as the argument to an aggregate"; AVG(ship_date - order_date)
        # "returns error -1201", AVG((ship_date - order_date)*1) is valid.
        raise EngineError(sc.DATE_DIFF_AGGREGATE)
    if distinct:
        assert isinstance(arg, exp.Distinct)
        arg.set("expressions", [new])
        call_arg: exp.Expr = arg
    else:
        node.set("this", new)
        call_arg = new
    if kind in ("min", "max"):
        if t.is_decimal:
            node.set("this", exp.Collate(this=call_arg, expression=exp.Var(this="IFXDEC")))
        return typed(node, t.nullable())
    if t.code == T.DATETIME:
        # -561 "Sums and averages cannot be computed on datetime values." (the message
        # catalogue in IBM's JDBC jar); a DATETIME is a point in time, INTERVAL the span
        raise EngineError(sc.DATETIME_AGGREGATE)
    if not t.is_numeric and t.code != T.INTERVAL:
        raise EngineError(sc.NO_CONVERSION)
    if t.code == T.INTERVAL:
        if kind == "sum":
            return typed(node, it.interval_type(t.start, t.end, 9))
        return typed(func("ifx_ivavg", call_arg), it.interval_type(t.start, t.end, 9))
    if t.code in it.FLOAT_CODES:
        return typed(node, it.FLOAT)
    if kind == "sum":
        res = it.decimal(32, t.scale) if t.is_decimal and not t.floating else it.DECIMAL32
        if t.is_integer:
            return typed(_as_text(node), it.decimal(32, 0))
        name = "ifx_fdsum" if t.is_decimal and t.floating else "ifx_dsum"
    else:
        res = it.DECIMAL32
        name = "ifx_davg"
    out = exp.Anonymous(this=name, expressions=[call_arg])
    return typed(out, res)


def _date_difference(node: exp.Expr) -> bool:
    """``node`` (translated, parentheses aside) is DATE − DATE."""
    while isinstance(node, exp.Paren):
        node = node.this
    return (isinstance(node, exp.Sub) and ty(node.this).code == T.DATE
            and ty(node.expression).code == T.DATE)


def _as_text(node: exp.Expr) -> exp.Expr:
    """An integer aggregate typed DECIMAL must hold DECIMAL's storage form (text) so that
    comparisons under the IFXDEC collation and decimal arithmetic see a decimal."""
    return exp.Cast(this=node, to=exp.DataType.build("TEXT"))
