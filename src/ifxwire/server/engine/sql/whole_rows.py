"""A table's name or correlation name used as a value: the whole row as a ROW value.

Guide to SQL: Syntax, "Using Dot Notation with Row-Type Expressions" (ids_sqs_1438):
``INSERT INTO tab2 VALUES ((SELECT t FROM tab1 t WHERE part_id = 1).part_id)``, where tab1
is a typed table ``OF TYPE row_t``: ``t`` in the projection is the row, a ``row_t`` value,
and dot notation reads a field of what the subquery returns. It was -217.

``whole_rows`` rewrites such a bare name, before columns are qualified, into ``ROW(t.c1,
t.c2, …)`` marked for ``composite.translate_row``: of the table's named ROW type for a typed
table (a typed table's row "contains an instance of the named row type", ids_ddi_109), and
for an untyped table an unnamed ROW whose fields are the table's columns, named and typed as
they are [inference: no page we read shows an untyped table's row used so; a ROW's fields
are named, so the columns' names are the natural ones, docs/SERVER.md]. A column of that
name wins (Informix resolves column names first), as does a projection's display label of
that name. A view's name is its row too; a derived table's name stays -217 (its columns
are not typed yet when names are resolved).
"""

from __future__ import annotations

from sqlglot import exp

from ..schema.catalog import TableInfo

#: meta keys on the ROW constructor made here (read by composite.translate_row and
#: functions_sql.result_name): the fields' names, the typed table's ROW type, the name
FIELDS = "ifx_row_fields"
ROW_TYPE = "ifx_row_type"
WHOLE_ROW = "ifx_whole_row"


def whole_rows(ast: exp.Expr) -> None:
    """Replace each bare column reference that names no column in scope but names a table
    of its query (or of a query around it) with that table's row as a ROW constructor."""
    names = {t.alias_or_name for t in ast.find_all(exp.Table)}
    names |= {s.alias for s in ast.find_all(exp.Subquery) if s.alias}
    for col in list(ast.find_all(exp.Column)):
        if col.table or col.is_star or not isinstance(col.this, exp.Identifier):
            continue
        name = col.name
        if name not in names:  # the usual case: no table of the statement has that name
            continue
        found = _row_source(col, name)
        if found is None:
            continue
        alias, info = found
        row = exp.Anonymous(this="ROW", expressions=[
            exp.column(c.name, table=exp.to_identifier(alias)) for c in info.columns])
        row.meta[FIELDS] = [c.name for c in info.columns]
        row.meta[ROW_TYPE] = info.type_name
        row.meta[WHOLE_ROW] = name
        col.replace(row)


def _row_source(col: exp.Column, name: str) -> tuple[str, TableInfo] | None:
    """The (alias, table) ``name`` stands for, nearest query first; None when a column (or
    a possible column of a derived table, or a display label) of that name is in scope."""
    match: tuple[str, TableInfo] | None = None
    sel = col.find_ancestor(exp.Select)
    while sel is not None:
        for source in _sources(sel):
            alias = source.alias_or_name
            info = _table_info(source)
            if info is None:
                if _may_have_column(source, name):
                    return None
                continue
            if name in info.by_name:
                return None
            if match is None and alias == name:
                match = (alias, info)
        if any(isinstance(p, exp.Alias) and p.alias == name for p in sel.expressions):
            return None
        sel = sel.find_ancestor(exp.Select)
    return match


def _sources(sel: exp.Select) -> list[exp.Expr]:
    """The tables and derived tables of ``sel``'s own FROM clause and joins."""
    out: list[exp.Expr] = []
    parts = [sel.args.get("from_") or sel.args.get("from")]
    parts += list(sel.args.get("joins") or [])
    for part in parts:
        if part is None:
            continue
        for node in part.find_all(exp.Table, exp.Subquery):
            if node.find_ancestor(exp.Select) is sel and (
                    isinstance(node, exp.Table) or node.alias):
                out.append(node)
    return out


def _table_info(source: exp.Expr) -> TableInfo | None:
    if isinstance(source, exp.Table):
        info = source.meta.get("ifx_table")
        return info if isinstance(info, TableInfo) else None
    tables = source.meta.get("ifx_hierarchy")  # a supertable and its subtables' rows
    return tables[0] if tables and isinstance(tables[0], TableInfo) else None


def _may_have_column(source: exp.Expr, name: str) -> bool:
    """Whether a source that is no catalogued table may have a column ``name``: a derived
    table's column list or projection names it, or ``*`` hides what it has."""
    if not isinstance(source, exp.Subquery):
        return True
    alias = source.args.get("alias")
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return any(c.name == name for c in alias.columns)
    inner = source.this
    while isinstance(inner, exp.Subquery):
        inner = inner.this
    if not isinstance(inner, exp.Select):
        return True
    return any(p.is_star or p.alias_or_name == name for p in inner.expressions)
