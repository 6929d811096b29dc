"""OLAP window expressions (HCL Informix Guide to SQL: Syntax, "OLAP window expressions",
``ids_sqs_2583`` and the pages it links): the rules a real server enforces before it runs one,
and how each becomes a SQLite window function.

The rules are the OVER clause's syntax (``ids_sqs_2584``): a ranking function (RANK,
DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD) needs a window ORDER clause and, like
ROW_NUMBER, takes no window frame; a frame needs an ORDER clause; offsets are unsigned integer
literals; a DISTINCT aggregate takes neither ORDER nor frame (``ids_sqs_2580``). The sqlcodes
are those the Informix message catalogue (IBM JDBC 4.50.12) gives for each (-25850 to -25862);
docs/SERVER.md, "OLAP window expressions, ninth round", records which case gets which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from .exprs import func, ty, typed

if TYPE_CHECKING:
    from .exprs import ExprTranslator

#: Functions whose OVER clause is "OVER clause for ranking functions": ORDER required.
_RANKING = (exp.Rank, exp.DenseRank, exp.PercentRank, exp.CumeDist, exp.Ntile, exp.Lag,
            exp.Lead)
#: Functions that take RESPECT NULLS / IGNORE NULLS (ids_sqs_1513, ids_sqs_2593, ids_sqs_2594).
_NULLS_OPTION = (exp.Lag, exp.Lead, exp.FirstValue, exp.LastValue)
_AGGREGATES = (exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Stddev, exp.Variance)


def _named(node: exp.Expr, *names: str) -> bool:
    return isinstance(node, exp.Anonymous) and str(node.this).upper() in names


def _is_distinct(fn: exp.Expr) -> bool:
    if isinstance(fn, _AGGREGATES):
        return isinstance(fn.this, exp.Distinct)
    if _named(fn, "RANGE"):
        return bool(fn.expressions) and isinstance(fn.expressions[0], exp.Distinct)
    return False


def _unsigned(node: object) -> int | None:
    """The value of an unsigned integer literal, else None."""
    if isinstance(node, exp.Literal) and not node.is_string and node.this.isdigit():
        return int(node.this)
    return None


def _check_frame(spec: exp.WindowSpec) -> None:
    """The Window Frame clause of ids_sqs_2584: bounds are UNBOUNDED, CURRENT ROW or an
    unsigned integer literal; a single bound cannot be FOLLOWING (-25851, our pick between
    -25851 and -201); BETWEEN cannot start after its end (-25852)."""
    def bound(value: object, side: object) -> tuple[int, int]:
        """(rank of the bound's position, offset): UNBOUNDED PRECEDING < n PRECEDING <
        CURRENT ROW < n FOLLOWING < UNBOUNDED FOLLOWING."""
        if value == "CURRENT ROW":
            return 2, 0
        following = str(side or "").upper() == "FOLLOWING"
        if value == "UNBOUNDED":
            return (4 if following else 0), 0
        n = _unsigned(value)
        if n is None:
            raise EngineError(sc.OLAP_FRAME_VALUE)
        return (3, n) if following else (1, -n)

    start = bound(spec.args.get("start"), spec.args.get("start_side"))
    if spec.args.get("end") is None:
        if start[0] > 2:
            raise EngineError(sc.OLAP_FRAME_VALUE)
        return
    end = bound(spec.args.get("end"), spec.args.get("end_side"))
    if start[0] == 4 or end[0] == 0 or start > end:
        raise EngineError(sc.OLAP_FRAME_BETWEEN)


def check_window(node: exp.Window) -> None:
    """Refuse, with Informix's code, an OLAP window expression a real server refuses."""
    inner = node.this
    nulls = isinstance(inner, (exp.IgnoreNulls, exp.RespectNulls))
    fn = inner.this if nulls else inner
    order = node.args.get("order")
    spec = node.args.get("spec")
    ranking = isinstance(fn, _RANKING)
    if ranking and order is None:
        raise EngineError(sc.OLAP_NEEDS_ORDER)
    if (ranking or isinstance(fn, exp.RowNumber)) and spec is not None:
        raise EngineError(sc.OLAP_NO_FRAME)
    if isinstance(spec, exp.WindowSpec):
        if order is None:
            raise EngineError(sc.OLAP_FRAME_NEEDS_ORDER)
        _check_frame(spec)
    if isinstance(fn, exp.Expr) and _is_distinct(fn) and (order is not None or spec is not None):
        raise EngineError(sc.OLAP_DISTINCT_ORDER)
    if nulls and not isinstance(fn, _NULLS_OPTION):
        raise EngineError(sc.OLAP_OPTION)
    if isinstance(fn, exp.Ntile):
        n = _unsigned(fn.this)
        if n is None or n == 0:  # "Cannot be zero", a literal integer (ids_sqs_2590)
            raise EngineError(sc.OLAP_NTILE_ARG)
    if isinstance(fn, (exp.Lag, exp.Lead)):
        offset = fn.args.get("offset")
        if offset is not None and _unsigned(offset) is None:  # ids_sqs_1513
            raise EngineError(sc.OLAP_OFFSET)


def offset_fn(tx: ExprTranslator, node: exp.Expr) -> exp.Expr:
    """LAG/LEAD(expr [, offset [, default]]) and FIRST_VALUE/LAST_VALUE(expr): a value of
    another row of the window, of expr's type; a default that cannot become that type is
    -25861 ("The types of default expression and expression of LEAD, LAG are not
    compatible")."""
    value = tx.tx(node.this)
    t = ty(value)
    node.set("this", value)
    offset = node.args.get("offset")
    if isinstance(offset, exp.Expr):
        node.set("offset", tx.convert(tx.tx(offset), it.INTEGER))
    default = node.args.get("default")
    if isinstance(default, exp.Expr):
        try:
            node.set("default", tx.convert(tx.tx(default), t))
        except EngineError:
            raise EngineError(sc.OLAP_DEFAULT_TYPE) from None
    return typed(node, t.nullable())


def _ignore_nulls(tx: ExprTranslator, node: exp.Window, fn: exp.Expr) -> exp.Expr:
    """FIRST_VALUE/LAST_VALUE/LAG/LEAD ... IGNORE NULLS: SQLite has no such option, so the
    n-th non-NULL value of a frame is the engine's window function ifx_nonnull
    (aggregates.NonNull) (first or last
    n-th); LAG reads the rows before the current row, LEAD those after, FIRST_VALUE and
    LAST_VALUE the window's own frame."""
    value = tx.tx(fn.this)
    t = ty(value)
    window = node.copy()
    if isinstance(fn, (exp.FirstValue, exp.LastValue)):
        from_end = isinstance(fn, exp.LastValue)
        window.set("this", func("ifx_nonnull", value, exp.Literal.number(1),
                                exp.Literal.number(int(from_end)), exp.Literal.number(0)))
        _refuse_empty_frames(window)
        return typed(_translate_over(tx, window), t.nullable())
    offset = fn.args.get("offset")
    n = _unsigned(offset) if offset is not None else 1
    assert n is not None  # check_window
    default = fn.args.get("default")
    if n == 0:
        return value
    lag = isinstance(fn, exp.Lag)
    # The rows before (LAG) or after (LEAD) the current one, through a frame that holds the
    # current row too and skips it (an empty first frame would crash: PY_WINDOWS).
    window.set("this", func("ifx_nonnull", value, exp.Literal.number(n),
                            exp.Literal.number(int(lag)), exp.Literal.number(1)))
    window.set("spec", exp.WindowSpec(
        kind="ROWS", start="UNBOUNDED" if lag else "CURRENT ROW",
        start_side="PRECEDING" if lag else None,
        end="CURRENT ROW" if lag else "UNBOUNDED",
        end_side=None if lag else "FOLLOWING"))
    out = typed(_translate_over(tx, window), t.nullable())
    if isinstance(default, exp.Expr):
        d = tx.tx(default)
        try:
            d = tx.convert(d, t)
        except EngineError:
            raise EngineError(sc.OLAP_DEFAULT_TYPE) from None
        out = typed(exp.Coalesce(this=out, expressions=[d]), t.nullable())
    return out


#: The engine's own (Python) window functions (functions.register). Python 3.11's sqlite3
#: crashes the process when SQLite asks such a function for the value of a frame that is
#: empty before any row entered it: a frame ending "n PRECEDING" (n > 0) on a partition's
#: first row. Those frames are refused for these functions (-999) rather than run.
PY_WINDOWS = frozenset({"ifx_dsum", "ifx_fdsum", "ifx_davg", "ifx_ivavg", "ifx_stdev",
                        "ifx_variance", "ifx_nonnull"})


def _refuse_empty_frames(node: exp.Window) -> None:
    spec = node.args.get("spec")
    if not isinstance(spec, exp.WindowSpec) or str(spec.args.get("end_side") or "").upper(
            ) != "PRECEDING" or not _unsigned(spec.args.get("end")):
        return
    if any(isinstance(n, exp.Anonymous) and str(n.this).lower() in PY_WINDOWS
           for n in node.this.walk()):
        raise not_implemented("a window frame ending before the current row, of this "
                              "aggregate (DECIMAL, MONEY, INTERVAL, STDEV or VARIANCE values)")


def _ratio_to_report(tx: ExprTranslator, node: exp.Window, arg: exp.Expr) -> exp.Expr:
    """RATIO_TO_REPORT(x) OVER (...): x divided by SUM(x) over the same window, as DECIMAL
    division. ids_sqs_2595: PARTITION, ORDER and frame are all optional ("If a window Frame
    clause is also specified, then the calculated ratio applies to all rows from the current
    window frame"); an argument that is not numeric is -25862."""
    if not ty(tx.tx(arg.copy())).is_numeric:
        raise EngineError(sc.OLAP_RATIO_ARG)
    total = node.copy()
    total.set("this", exp.Sum(this=arg.copy()))
    return tx.tx(exp.Div(this=arg.copy(), expression=total))


def _range_window(tx: ExprTranslator, node: exp.Window, arg: exp.Expr) -> exp.Expr:
    """RANGE(x) OVER (…): MAX(x) OVER (…) - MIN(x) OVER (…)."""
    def over(agg: exp.Expr) -> exp.Window:
        w = node.copy()
        w.set("this", agg)
        return w
    return tx.tx(exp.Sub(this=over(exp.Max(this=arg.copy())),
                         expression=over(exp.Min(this=arg.copy()))))


def _translate_over(tx: ExprTranslator, node: exp.Window) -> exp.Window:
    """The window's PARTITION BY and ORDER BY expressions translated in place."""
    parts = node.args.get("partition_by") or []
    node.set("partition_by", [tx.tx(p) for p in parts])
    order = node.args.get("order")
    if isinstance(order, exp.Order):
        for o in order.expressions:
            o.set("this", tx.tx(o.this))
    return node


def _distinct_window(agg: object) -> exp.Expr:
    """A translated DISTINCT aggregate (``COUNT(DISTINCT x)``, ``IFX_DAVG(DISTINCT x)``, ...)
    as the engine's window function ifx_distinct(kind, x) (aggregates.DistinctWindow):
    allowed OVER (PARTITION BY ...) alone (ids_sqs_2580), where SQLite has no DISTINCT
    window."""
    if isinstance(agg, (exp.Count, exp.Sum)) and isinstance(agg.this, exp.Distinct):
        kind, arg = type(agg).__name__.lower(), agg.this.expressions[0]
    elif isinstance(agg, exp.Anonymous) and agg.expressions and isinstance(
            agg.expressions[0], exp.Distinct) and str(agg.this).lower() in (
            "ifx_dsum", "ifx_fdsum", "ifx_davg", "ifx_ivavg"):
        kind, arg = str(agg.this).lower(), agg.expressions[0].expressions[0]
    else:
        raise not_implemented("this DISTINCT aggregate OVER (PARTITION BY ...)")
    return func("ifx_distinct", exp.Literal.string(kind), arg)


def window(tx: ExprTranslator, node: exp.Window) -> exp.Expr:
    """An OLAP function: ROW_NUMBER/RANK/DENSE_RANK/NTILE/CUME_DIST/PERCENT_RANK, LAG/LEAD/
    FIRST_VALUE/LAST_VALUE (all SQLite window functions) or an aggregate OVER (PARTITION BY …
    ORDER BY … [frame]). The aggregates are the same (window-capable) SQLite functions as
    without OVER; one typed DECIMAL by a cast keeps the cast outside the OVER."""
    check_window(node)
    inner = node.this
    if isinstance(inner, exp.IgnoreNulls):
        return _ignore_nulls(tx, node, inner.this)
    if isinstance(inner, exp.RespectNulls):  # the default
        inner = inner.this
        node.set("this", inner)
    if _named(inner, "RATIO_TO_REPORT", "RANGE"):
        assert isinstance(inner, exp.Anonymous)
        args = inner.expressions
        if len(args) != 1:
            raise EngineError(sc.NO_ROUTINE, near=str(inner.this).lower())
        arg = args[0].expressions[0] if isinstance(args[0], exp.Distinct) else args[0]
        if str(inner.this).upper() == "RANGE":
            return _range_window(tx, node, arg)
        return _ratio_to_report(tx, node, arg)
    distinct = isinstance(inner, exp.Expr) and _is_distinct(inner)
    if distinct and isinstance(inner, (exp.Min, exp.Max)):
        inner = inner.copy()  # MIN/MAX of the distinct values are those of all values
        inner.set("this", inner.this.expressions[0])
        distinct = False
    new = tx.tx(inner) if isinstance(inner, exp.Expr) else inner
    outer_cast = isinstance(new, exp.Cast)
    if outer_cast:
        assert isinstance(new, exp.Cast)
        node.set("this", _distinct_window(new.this) if distinct else new.this)
    else:
        node.set("this", _distinct_window(new) if distinct else new)
    _refuse_empty_frames(node)
    _translate_over(tx, node)
    t = ty(new) if isinstance(new, exp.Expr) else it.INTEGER
    if outer_cast:
        return typed(exp.Cast(this=node, to=exp.DataType.build("TEXT")), t)
    return typed(node, t)


__all__ = ["check_window", "offset_fn", "window"]
