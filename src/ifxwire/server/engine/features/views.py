"""INSERT, UPDATE and DELETE through a view, as Informix allows them on a "simple" view.

A view is simple (updatable) when its SELECT reads one table (or another simple view) with no
join, UNION, DISTINCT/UNIQUE, GROUP BY, HAVING or aggregate; anything else is -384 "Cannot
modify non simple view." (Guide to SQL: Syntax, CREATE VIEW, "Updating Through Views").
Columns the view computes (``price * 2``) may not be inserted (an INSERT through such a view
is -384) or set by an UPDATE (-384), but a DELETE may name them.

The statement is rewritten into the same statement on the base table: view columns become
the base expressions they stand for, and the view's WHERE is added to the statement's, so
only rows the view shows are changed. The rewritten statement then compiles like any other
(triggers of the base table fire). A view WITH CHECK OPTION also checks every row an INSERT
or UPDATE writes against the view's WHERE — and the WHEREs of the views it is built on — and
refuses the statement with -385 "Data value out of range." if one would not be seen through
the view (``check_rows``, run by the trigger runner under the statement's savepoint).

INSTEAD OF triggers take precedence: a statement on a view that has one for its event is
compiled by ``triggers.compile_instead`` before this module is asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema.catalog import TableInfo, quote
from ..sql.hooks import TRANSLATION
from ..sql.statements import _DIALECTS, CreateView, parse

if TYPE_CHECKING:
    import sqlite3

    from ..sql.translate import Compiler, Plan

_AGGREGATES = (exp.AggFunc, exp.Window)


@dataclass
class Shape:
    """A chain of simple views flattened onto its base table."""

    base: exp.Table  # the base table, with the alias its columns are qualified by
    columns: dict[str, exp.Expr]  # view column -> the base expression it shows
    where: exp.Expr | None = None  # rows the view shows
    check: exp.Expr | None = None  # what rows written through it must satisfy
    tables: set[str] = field(default_factory=set)  # tables the definitions read


def _conj(a: exp.Expr | None, b: exp.Expr | None) -> exp.Expr | None:
    if a is None or b is None:
        return a if b is None else b
    return exp.and_(exp.Paren(this=a.copy()), exp.Paren(this=b.copy()))


def substitute(node: exp.Expr, names: set[str], columns: dict[str, exp.Expr]) -> exp.Expr:
    """``node`` with every reference to a view column replaced by its base expression: a
    column qualified by one of ``names``, or unqualified outside any nested SELECT."""
    root = node.copy()

    def fix(n: exp.Expr) -> exp.Expr:
        if not isinstance(n, exp.Column) or isinstance(n.this, exp.Star):
            return n
        qualifier = n.table.lower() if n.table else ""
        if qualifier and qualifier not in names:
            return n
        if not qualifier and _nested(n, root):
            return n
        name = n.name if n.this.quoted else n.name.lower()
        target = columns.get(name)
        if target is None:
            raise EngineError(sc.NO_COLUMN, near=name)
        return target.copy()

    if isinstance(root, exp.Column):
        return fix(root)
    return root.transform(fix, copy=False)


def _nested(node: exp.Expr, root: exp.Expr) -> bool:
    """Whether ``node`` sits in a SELECT nested inside ``root`` (its own scope's columns)."""
    parent = node.parent
    while parent is not None and parent is not root:
        if isinstance(parent, exp.Select):
            return True
        parent = parent.parent
    return False


def _definition(c: Compiler, info: TableInfo) -> CreateView:
    schema_of = getattr(c.lookup, "current_schema", None)
    text = schema_of().views.get(info.name) if schema_of is not None else None
    if not text:
        raise not_implemented("INSERT/UPDATE/DELETE on this view")
    ast = parse(text, c.delimident)
    spec = ast.meta.get("spec")
    if not isinstance(spec, CreateView):
        raise not_implemented("INSERT/UPDATE/DELETE on this view")
    return spec


def flatten(c: Compiler, info: TableInfo, event: str, depth: int = 0) -> Shape:
    """The view ``info`` as its base table, column map, WHERE and check condition; -384 when
    it is not simple. ``event`` (I, U, D) is the statement's, for views below this one that
    have INSTEAD OF triggers (which a rewrite would bypass: refused)."""
    if depth > 16:
        raise EngineError(sc.NON_SIMPLE_VIEW, near=info.name)
    spec = _definition(c, info)
    query = normalize_identifiers(spec.query.copy(), dialect=_dialect(c))
    source = query.args.get("from_") or query.args.get("from")
    table = source.this if isinstance(source, exp.From) else None
    simple = (
        isinstance(query, exp.Select)
        and isinstance(table, exp.Table)
        and not query.args.get("joins")
        and not query.args.get("distinct")
        and not query.args.get("group")
        and not query.args.get("having")
        and not query.args.get("limit")
        and not query.args.get("with")
        and not any(isinstance(n, _AGGREGATES) for p in query.expressions for n in p.walk())
    )
    if not simple:
        raise EngineError(sc.NON_SIMPLE_VIEW, near=info.name)
    assert isinstance(table, exp.Table)
    owner = table.args.get("db")
    if table.args.get("catalog") is not None:
        raise not_implemented("INSERT/UPDATE/DELETE in another database")
    base_info = c.lookup.resolve(table.name, owner.name if owner else None, None, 0)
    alias = table.alias_or_name.lower()
    tables = {t.name.lower() for t in query.find_all(exp.Table)}
    if base_info.kind == "V":
        schema_of = getattr(c.lookup, "current_schema", None)
        if schema_of is not None and any(
                t.event == event.lower() for t in schema_of().triggers.get(base_info.name, ())):
            raise not_implemented("a view on a view that has an INSTEAD OF trigger")
        inner = flatten(c, base_info, event, depth + 1)
        names, inner_columns = {alias, base_info.name}, inner.columns
        base, tables = inner.base, tables | inner.tables
    elif base_info.kind == "T":
        names, inner = {alias}, None
        inner_columns = {col.name: _column(col.name, alias) for col in base_info.columns}
        base = exp.Table(this=exp.to_identifier(base_info.name, quoted=True),
                         db=exp.to_identifier(base_info.owner, quoted=True)
                         if base_info.owner else None,
                         alias=exp.TableAlias(this=exp.to_identifier(alias)))
    else:
        raise EngineError(sc.NON_SIMPLE_VIEW, near=info.name)
    names.add(table.name.lower())
    view_names = [col.name for col in info.columns]
    projections: list[exp.Expr] = []
    for p in query.expressions:
        if isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star)):
            projections.extend(_column(n, alias) for n in inner_columns)
        else:
            projections.append(p.this if isinstance(p, exp.Alias) else p)
    if len(projections) != len(view_names):
        raise EngineError(sc.NON_SIMPLE_VIEW, near=info.name)
    columns = {n: substitute(p, names, inner_columns) for n, p in zip(view_names, projections,
                                                                      strict=True)}
    where_node = query.args.get("where")
    where = substitute(where_node.this, names, inner_columns) if where_node is not None else None
    shape = Shape(base, columns, _conj(where, inner.where if inner else None), tables=tables)
    shape.check = shape.where if spec.check_option else (inner.check if inner else None)
    return shape


def _dialect(c: Compiler) -> Dialect:
    return _DIALECTS[c.delimident]


def _column(name: str, table: str) -> exp.Column:
    """A reference to a catalog column (exact name, quoted) of the table aliased ``table``."""
    return exp.Column(this=exp.to_identifier(name, quoted=True),
                      table=exp.to_identifier(table))


def is_plain(expr: exp.Expr) -> bool:
    return isinstance(expr, exp.Column) and not isinstance(expr.this, exp.Star)


def rewrite(c: Compiler, ast: exp.Insert | exp.Update | exp.Delete, info: TableInfo,
            target: exp.Table) -> tuple[exp.Expr, Shape]:
    """The statement on the base table that ``ast`` (on the view ``info``) stands for."""
    event = "I" if isinstance(ast, exp.Insert) else ("U" if isinstance(ast, exp.Update) else "D")
    shape = flatten(c, info, event)
    names = {info.name, (target.alias or info.name).lower()}
    if isinstance(ast, exp.Insert):
        if not all(is_plain(e) for e in shape.columns.values()):
            raise EngineError(sc.NON_SIMPLE_VIEW, near=info.name)
        into = ast.this
        wanted = [c._ident(e) for e in into.expressions] if isinstance(into, exp.Schema) else (
            list(shape.columns))
        base_cols = []
        for n in wanted:
            col = shape.columns.get(n)
            if col is None:
                raise EngineError(sc.NO_COLUMN, near=n)
            base_cols.append(exp.to_identifier(col.name, quoted=True))
        table = exp.Table(this=shape.base.this.copy(), db=shape.base.args.get("db"))
        new: exp.Expr = exp.Insert(this=exp.Schema(this=table, expressions=base_cols),
                                   expression=ast.expression.copy())
        return new, shape
    where_node = ast.args.get("where")
    where = substitute(where_node.this, names, shape.columns) if where_node is not None else None
    where = _conj(shape.where, where)
    if isinstance(ast, exp.Delete):
        new = exp.Delete(this=shape.base.copy())
    else:
        sets = []
        for column, value in c.assignments(ast.expressions):
            name = c._ident(column)
            col = shape.columns.get(name)
            if col is None:
                raise EngineError(sc.NO_COLUMN, near=name)
            if not is_plain(col):
                raise EngineError(sc.NON_SIMPLE_VIEW, near=name)
            sets.append(exp.EQ(this=exp.Column(this=exp.to_identifier(col.name, quoted=True)),
                               expression=substitute(value, names, shape.columns)))
        new = exp.Update(this=shape.base.copy(), expressions=sets)
    if where is not None:
        new.set("where", exp.Where(this=where))
    return new, shape


def compile_view_dml(c: Compiler, ast: exp.Insert | exp.Update | exp.Delete, info: TableInfo,
                     target: exp.Table) -> Plan:
    """The plan of a DML statement on the simple view ``info``: the base-table plan, with
    the view named for privileges and, WITH CHECK OPTION, the check of the rows written."""
    c.remember(info)
    direct = {t.name.lower() for t in ast.find_all(exp.Table) if t is not target}
    new, shape = rewrite(c, ast, info, target)
    if isinstance(new, exp.Insert):
        plan = c.compile_insert(new)
    elif isinstance(new, exp.Update):
        plan = c.compile_update(new)
    else:
        assert isinstance(new, exp.Delete)
        plan = c.compile_delete(new)
    plan.view = info.name
    plan.view_tables = shape.tables - direct
    if shape.check is not None and not isinstance(new, exp.Delete):
        base = plan.table
        assert base is not None
        alias = shape.base.alias_or_name
        probe = exp.Select(expressions=[exp.Literal.number(1)]).from_(shape.base.copy()).where(
            shape.check.copy())
        c.compile_query(probe)
        condition = c._last_where
        assert condition is not None
        plan.view_check = (
            f"SELECT 1 FROM {c.table_sql(base)} AS {quote(alias)} WHERE {quote(alias)}.rowid IN "
            f"(SELECT value FROM json_each(?)) AND NOT COALESCE(({c.generate(condition)}), 0) "
            "LIMIT 1")
    return plan


def check_rows(conn: sqlite3.Connection, plan: Plan, rowids: list[object]) -> None:
    """-385 when a row the statement wrote is not one the view shows (WITH CHECK OPTION)."""
    import json

    if not plan.view_check or not rowids:
        return
    if conn.execute(plan.view_check, (json.dumps(rowids),)).fetchone() is not None:
        raise EngineError(sc.VIEW_CHECK, near=plan.view or "")


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.compile_view_dml = compile_view_dml
