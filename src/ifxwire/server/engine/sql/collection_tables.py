"""Collection-derived tables: ``TABLE(column)``, ``TABLE((SELECT coll …))`` in FROM.

The parser turns ``TABLE(expr) [AS] t [(c1, …)]`` (anything but a collection literal, which
stays a VALUES-like union) into sqlglot's ``Unnest`` with ``meta["ifx_coll"]``, a table-valued
source sqlglot's scoping and column qualification already understand. Here:

* ``name_columns`` (before qualification) gives the table its column names when the statement
  has no derived column list: a ROW element's field names, else ``unnamed_col_1`` — guessed from
  the catalog type of the column the expression reads (a subquery's single projected column
  counts); when that cannot be told the statement needs the column list.
* ``type_table`` (when the scope is typed) types the collection expression, checks it, and
  replaces the ``Unnest`` by SQLite's ``json_each`` over the stored JSON, whose ``value`` is an
  element's storage form; a ROW element's fields are ``json_extract(value, '$[i]')``.

Informix's rules, with the catalogue's codes [jcat]: the expression may use only tables of
enclosing queries, not of its own FROM (-217 as any unknown column); it must be a collection
(-9610), of a known type (a bare ``?``: -9657); a derived column list must match the element
(-9621); a NULL collection is -9976 ("Manipulation of NULL collection disallowed"), not an
empty table; INSERT/UPDATE/DELETE on such a table are -9945 (read-only here).
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from ....protocol.codes import TypeCode
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from .exprs import ExprTranslator, func, ty
from .exprtypes import UNKNOWN
from .hooks import TRANSLATION

T = TypeCode
UNNAMED = "unnamed_col_1"


def is_collection_table(node: object) -> bool:
    return isinstance(node, exp.Unnest) and bool(node.meta.get("ifx_coll"))


def name_columns(ast: exp.Expr) -> None:
    """Give every collection-derived table without a column list its column names."""
    for node in list(ast.find_all(exp.Unnest)):
        if not is_collection_table(node):
            continue
        alias = node.args.get("alias")
        if alias is None:
            alias = exp.TableAlias(this=exp.to_identifier("_collection"))
            node.set("alias", alias)
        if alias.columns:
            continue
        element = _guess_element(ast, node.expressions[0])
        names = [c.field for c in element.children] if (
            element is not None and element.code == T.ROW) else [UNNAMED]
        alias.set("columns", [exp.to_identifier(n) for n in names])


def _guess_element(ast: exp.Expr, expr: exp.Expr) -> Any:
    """The catalog element type of the column ``expr`` reads (or a subquery's one column)."""
    while isinstance(expr, (exp.Subquery, exp.Paren)):
        expr = expr.this
    if isinstance(expr, exp.Select) and len(expr.expressions) == 1:
        expr = expr.expressions[0]
    if not isinstance(expr, exp.Column):
        return None
    for table in ast.find_all(exp.Table):
        info = table.meta.get("ifx_table")
        if info is None or (expr.table and expr.table != table.alias_or_name):
            continue
        for col in info.columns:
            if col.name == expr.name and col.type.cx is not None and col.type.cx.is_collection:
                return col.type.cx.element
    return None


def type_scope(compiler: Any, scope: Any) -> None:
    """Type a collection-derived table's scope for the compiler (translate.py): the
    expression sees the enclosing queries' tables only, never its own FROM clause's."""
    select = scope.parent
    outer = select.parent if select is not None else None

    def column_type(col: exp.Column) -> Any:
        s = outer
        while s is not None:
            for alias, cols in compiler.env_of(s).items():
                if (not col.table or col.table == alias) and col.name in cols:
                    return cols[col.name]
            s = s.parent
        raise EngineError(sc.NO_COLUMN, near=col.name)

    def subquery_type(sub: exp.Expr) -> Any:
        target = sub.this if isinstance(sub, exp.Subquery) else sub
        out = compiler.outputs.get(id(target))
        return out[0][1].nullable() if out else UNKNOWN

    node = scope.expression
    assert isinstance(node, exp.Unnest)
    tx = ExprTranslator(compiler.ctx, column_type, subquery_type)
    tx.named_type = compiler.lookup.named_type
    alias = node.args["alias"].name
    if alias in compiler.collection_columns:
        raise not_implemented("two collection-derived tables with one name")
    columns, sql = type_table(tx, node)
    compiler.outputs[id(node)] = columns
    compiler._pinned.append(node)  # the id() stays this node's (translate.Compiler)
    compiler.collection_columns[alias] = sql


def type_table(tx: Any, node: exp.Unnest) -> tuple[list[tuple[str, Any]], dict[str, exp.Expr]]:
    """Type and rewrite one collection-derived table: its output columns, and the SQL each
    column reference of it becomes."""
    alias = node.args["alias"]
    name = alias.name
    coll = tx.tx(node.expressions[0])
    t = ty(coll)
    if t.code == -1:
        raise EngineError(sc.COLLECTION_TYPE_UNKNOWN)
    if t.cx is None or not t.cx.is_collection:
        raise EngineError(sc.COLLECTION_REQUIRED)
    element = t.cx.element
    fields = list(element.children) if element.code == T.ROW else [element]
    names = [c.name for c in alias.columns]
    if len(names) != len(fields):
        raise EngineError(sc.DERIVED_COLUMN_COUNT)
    value = exp.column("value", table=name)
    columns: list[tuple[str, Any]] = []
    sql: dict[str, exp.Expr] = {}
    for i, (col, field) in enumerate(zip(names, fields, strict=True)):
        ft = (TRANSLATION.complex_type(field) if field.is_complex
              else TRANSLATION.type_of(field).nullable())
        expr: exp.Expr = value if element.code != T.ROW else func(
            "json_extract", value, exp.Literal.string(f"$[{i}]"))
        columns.append((col, ft))
        sql[col] = expr
    checked = exp.Case(ifs=[exp.If(this=exp.Is(this=coll.copy(), expression=exp.Null()),
                                   true=func("ifx_error", exp.Literal.number(sc.NULL_COLLECTION)))],
                       default=coll)
    node.replace(exp.Table(this=exp.Anonymous(this="json_each", expressions=[checked]),
                           alias=exp.TableAlias(this=exp.to_identifier(name))))
    return columns, sql


def refuse_writes(ast: exp.Expr) -> None:
    """INSERT INTO / UPDATE / DELETE FROM a collection-derived table: -9945."""
    target = ast.this if isinstance(ast, (exp.Insert, exp.Update, exp.Delete)) else None
    while isinstance(target, exp.Schema):
        target = target.this
    if is_collection_table(target):
        raise EngineError(sc.READ_ONLY_COLLECTION)
