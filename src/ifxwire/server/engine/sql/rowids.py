"""ROWID: the hidden column every row of a nonfragmented table has.

Guide to SQL: Syntax, "Using Rowids" (ids_sqs_1440): "you can use the rowid column that is
associated with a table row as a property of the row. The rowid column is essentially a
hidden column in nonfragmented tables"; the page's examples are ``SELECT *, ROWID FROM
customer``, ``SELECT fname, ROWID FROM customer ORDER BY ROWID`` and ``SELECT HEX(rowid) FROM
customer WHERE customer_num = 106``, and the Tutorial's ``SELECT rowid, * FROM manufact``
(Guide to SQL: Tutorial, "Using rowid values in SELECT statements"). An INTEGER (4GL and
ESQL/C keep it in an int; ``sqlca.sqlerrd[5]`` holds the last one written).

Here a table's rows are SQLite rows, whose rowid no table of ours aliases: ``ROWID`` (or
``t.ROWID``), when no column of that name is in scope, becomes an ``IfxRowid`` node naming
the table's alias, typed INTEGER and written as ``alias.rowid`` (ExprTranslator.rowid). Not
a column, so ``*`` never lists it. A view or a derived table has none: -205, the catalogue's
text "you cannot use ROWID for views with union, intersect, minus, aggregates, group by,
multiple tables, or derived tables" [jcat; a simple single-table view, which that text
allows, is refused too here: a known difference]. The system catalog tables have rowids as
any table (``SELECT rowid, tabname FROM systables``); its views (sysindexes, sysdomains) not. An
unqualified ROWID in a query of several tables is -324, as any column two tables could own.
"You cannot use the ROWID keyword in the select list of the Projection clause of a query that
contains an aggregate function" (ids_sqs_1440): -205 too [inference: the page names no code,
and -205's text names aggregates].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..schema.catalog_tables import CATALOG_VIEWS

if TYPE_CHECKING:
    from ..schema.catalog import TableInfo


# the catalogue's own views (sysindexes, sysdomains) have no rows of their own
_CATALOG_VIEW_NAMES = frozenset(name for name, _, _, _ in CATALOG_VIEWS.values())


class IfxRowid(exp.Expression):
    """``ROWID`` of the table whose alias is ``this`` (a string)."""

    arg_types: ClassVar[dict[str, bool]] = {"this": True}


def _sources(sel: exp.Select) -> list[tuple[str, exp.Expr]]:
    """(alias, source) of each FROM/JOIN item of ``sel``: a Table or a Subquery."""
    out: list[tuple[str, exp.Expr]] = []
    items: list[exp.Expr] = []
    frm = sel.args.get("from_") or sel.args.get("from")
    if isinstance(frm, exp.From):
        items.append(frm.this)
    items.extend(j.this for j in sel.args.get("joins") or [])
    for item in items:
        if isinstance(item, (exp.Table, exp.Subquery)):
            out.append((item.alias_or_name, item))
    return out


def _owns_rowid_column(source: exp.Expr) -> bool:
    """A table with a column named rowid, or a derived table with an output of that name."""
    if isinstance(source, exp.Subquery):
        inner = source.unnest()
        if isinstance(inner, exp.Query):
            return any(n.lower() == "rowid" for n in inner.named_selects)
        return False
    info: TableInfo | None = source.meta.get("ifx_table")
    return info is not None and "rowid" in info.by_name


def bind(ast: exp.Expr) -> None:
    """Replace each use of ROWID by an IfxRowid of its table (module docstring). Runs after
    the tables are resolved (each Table carries its TableInfo as ``ifx_table``)."""
    for col in list(ast.find_all(exp.Column)):
        if col.name.lower() != "rowid" or col.this.quoted:
            continue
        sel = col.find_ancestor(exp.Select)
        qualifier = col.table
        while sel is not None:
            sources = _sources(sel)
            if qualifier:
                hits = [(a, s) for a, s in sources if a.lower() == qualifier.lower()]
            else:
                hits = sources
            if hits:
                break
            sel = sel.find_ancestor(exp.Select)  # a correlated ROWID of an outer query
        if sel is None or not hits:
            continue  # nothing of that name: the ordinary -217
        if any(_owns_rowid_column(s) for _, s in hits):
            continue  # a real column called rowid is that column
        if len(hits) > 1:
            raise EngineError(sc.AMBIGUOUS_COLUMN, near="rowid")
        alias, source = hits[0]
        info: TableInfo | None = source.meta.get("ifx_table")
        if (not isinstance(source, exp.Table) or info is None or info.kind not in ("T", "S")
                or (info.kind == "S" and info.name in _CATALOG_VIEW_NAMES)):
            raise EngineError(sc.ROWID_NOT_ALLOWED, near="rowid")
        _no_aggregate_beside(col)
        if isinstance(col.parent, exp.Select) and col.arg_key == "expressions":
            # a projection item of its own is described by its name, as a column is
            col.replace(exp.Alias(this=IfxRowid(this=alias), alias=exp.to_identifier("rowid")))
        else:
            col.replace(IfxRowid(this=alias))


def _no_aggregate_beside(col: exp.Column) -> None:
    """-205 for a ROWID in the projection of a query that has an aggregate (ids_sqs_1440).
    A ROWID an aggregate reads is not one in the select list: ``SELECT MIN(rowid) FROM t
    GROUP BY k`` is the well-known way to keep one row of each duplicate set [inference:
    the page speaks of the ROWID keyword beside an aggregate]."""
    home = col.find_ancestor(exp.Select)
    if home is None:
        return
    agg = col.find_ancestor(exp.AggFunc)
    if agg is not None and agg.find_ancestor(exp.Select) is home:
        return
    item: exp.Expr | None = col
    while item is not None and item.parent is not home:
        item = item.parent
    if item is None or item.arg_key != "expressions":
        return
    for agg in home.find_all(exp.AggFunc):
        if agg.find_ancestor(exp.Select) is home and not isinstance(agg.parent, exp.Window):
            raise EngineError(sc.ROWID_NOT_ALLOWED, near="rowid")
