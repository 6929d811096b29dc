"""Combined queries: UNION [ALL], INTERSECT, MINUS/EXCEPT (docs/SERVER.md "Set operators").

Two jobs SQLite leaves to us:

* **Parenthesised operands.** ``(SELECT …) UNION (SELECT …)`` is an ordinary Informix query
  (informix-driver's test_statement_classification.py runs it on real servers), but SQLite's
  compound SELECT takes no parentheses round its operands. A plain parenthesised SELECT is
  unwrapped; one with its own FIRST/ORDER BY, or a combined query nested on the right, becomes
  a derived table (``SELECT cols FROM (…)``) so it keeps its meaning.
* **The result type.** Informix types each column of a combined query from every branch (the
  Guide to SQL: Syntax, "Restrictions on a Combined SELECT": the corresponding items must have
  compatible data types), so ``'TABLE' … UNION … 'SYNONYM'`` is CHAR(7), not the first
  branch's CHAR(5) (IBM JDBC's DatabaseMetaData.getTableTypes sends exactly that). The
  common type follows the rule CASE uses (exprtypes.common_of), and every branch whose values are
  stored in another form is converted to it, so SQLite compares and returns one form.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import IfxType
from . import udt_casts
from .exprs import ExprTranslator, ty
from .exprtypes import UNKNOWN, common_of
from .functions_sql import result_name

if TYPE_CHECKING:
    from .translate import Compiler

_NAMES = itertools.count(1)


def unwrap_operands(ast: exp.Expr) -> None:
    """Turn parenthesised operands of set operations into forms SQLite accepts."""
    for node in list(ast.find_all(exp.SetOperation)):
        for key in ("this", "expression"):
            operand = node.args.get(key)
            while isinstance(operand, exp.Subquery) and not operand.alias:
                inner = operand.this
                own = any(inner.args.get(k) is not None for k in ("order", "limit", "offset"))
                if (isinstance(inner, exp.Select) and not own) or (
                        isinstance(inner, exp.SetOperation) and key == "this" and not own):
                    # Left-nested combined queries mean the same unparenthesised: SQLite
                    # evaluates a compound SELECT from the left.
                    node.set(key, inner)
                    operand = inner
                    continue
                if isinstance(inner, (exp.Select, exp.SetOperation)):
                    node.set(key, _derived(inner))
                break


def _derived(query: exp.Select | exp.SetOperation) -> exp.Select:
    """``SELECT <each column> FROM (query) AS _ifx_setN``, each column keeping the name
    Informix gives the query's own projection (its first branch's)."""
    name = f"_ifx_set{next(_NAMES)}"
    first: exp.Expr = query
    while isinstance(first, (exp.SetOperation, exp.Subquery)):
        first = first.left if isinstance(first, exp.SetOperation) else first.this
    if not isinstance(first, exp.Select):
        raise EngineError(sc.SYNTAX)
    outer: list[exp.Expr] = []
    projections = []
    for i, proj in enumerate(first.expressions):
        if isinstance(proj, exp.Star) or (isinstance(proj, exp.Column) and isinstance(
                proj.this, exp.Star)):  # qualify_columns expands * before we run
            raise not_implemented("* in a parenthesised operand of a set operation")
        value = proj.this if isinstance(proj, exp.Alias) else proj
        # The operand's own alias stays (its ORDER BY may name it); the name the client sees
        # is the one Informix gives the projection (prepare_query put it in meta).
        label = proj.alias if isinstance(proj, exp.Alias) else f"_ifx_c{i}"
        shown = value.meta.pop("ifx_name", None) or (
            proj.alias if isinstance(proj, exp.Alias) else result_name(proj))
        projections.append(exp.alias_(value, label))
        column = exp.column(label, name)
        column.meta["ifx_name"] = shown
        outer.append(exp.alias_(column, label))
    first.set("expressions", projections)
    alias = exp.TableAlias(this=exp.to_identifier(name))
    return exp.select(*outer).from_(exp.Subquery(this=query, alias=alias))


def leaves(node: exp.Expr) -> list[exp.Select]:
    """The SELECTs a combined query is made of, left to right."""
    while isinstance(node, exp.Subquery):
        node = node.this
    if isinstance(node, exp.SetOperation):
        return leaves(node.left) + leaves(node.right)
    if isinstance(node, exp.Select):
        return [node]
    raise EngineError(sc.SYNTAX)


def type_set_operation(compiler: Compiler, node: exp.SetOperation) -> None:
    """The output columns of a combined query: names from the first branch, each type the one
    that holds every branch's values; branches stored otherwise are converted."""
    branches = leaves(node)
    outs = [compiler.outputs.get(id(b)) for b in branches]
    if any(o is None for o in outs):
        raise EngineError(sc.SYNTAX)
    columns = [o for o in outs if o is not None]
    width = len(columns[0])
    if any(len(o) != width for o in columns):
        raise EngineError(sc.UNION_COLUMNS)
    result: list[tuple[str, IfxType]] = []
    tx = ExprTranslator(compiler.ctx, lambda c: UNKNOWN, lambda s: UNKNOWN)
    find = compiler.cast_finder()
    for i in range(width):
        types = [o[i][1] for o in columns]
        _distinct_compatible(find, branches, types, i)
        common = common_of([t for t in types if t.code != -1]) if len(set(types)) > 1 \
            else types[0]
        if any(not t.notnull for t in types):
            common = common.nullable()
        if common.code != -1:
            for branch, t in zip(branches, types, strict=True):
                if t.nullable() != common.nullable():
                    _convert_projection(tx, branch, i, common)
        result.append((columns[0][i][0], common))
    compiler.outputs[id(node)] = result
    compiler._pinned.append(node)  # the id() stays this node's (translate.Compiler)


def _distinct_compatible(find: udt_casts.CastFinder | None, branches: list[exp.Select],
                         types: list[IfxType], i: int) -> None:
    """-308 when the ``i``-th columns of the branches mix a DISTINCT type with a type it is
    not compatible with (``udt_casts.compatible``: the same type or an implicit cast;
    fidelity48 [inferred from ids_sqr_116 and the -308 text]). NULL, ``?`` and a quoted
    string pass."""
    if find is None or not any(udt_casts.is_udt(t) for t in types):
        return
    known: list[IfxType] = []
    for branch, t in zip(branches, types, strict=True):
        proj = branch.expressions[i] if i < len(branch.expressions) else None
        if isinstance(proj, exp.Alias):
            proj = proj.this
        if proj is not None and "t" in proj.meta and udt_casts.passes_freely(proj):
            continue
        known.append(t)
    if any(not udt_casts.compatible(find, known[0], t) for t in known[1:]):
        raise EngineError(sc.UNION_TYPES)


def _convert_projection(tx: ExprTranslator, branch: exp.Select, i: int, dst: IfxType) -> None:
    proj = branch.expressions[i]
    value = proj.this if isinstance(proj, exp.Alias) else proj
    if isinstance(value, exp.Collate) and value.expression.name == "IFXDEC":
        value = value.this
    if ty(value).code == -1 and not value.meta.get("null"):
        return
    new = tx.unify(value, dst)
    if dst.is_decimal and not isinstance(new, (exp.Column, exp.Collate)):
        new = exp.Collate(this=new, expression=exp.Var(this="IFXDEC"))
    if isinstance(proj, exp.Alias):
        proj.set("this", new)
    else:
        branch.expressions[i].replace(new)
