"""Select triggers: which queries activate them, and their BEFORE, FOR EACH ROW and AFTER
actions around a client's cursor.

Informix (Guide to SQL: Syntax, CREATE TRIGGER, "SELECT Event", "Circumstances When a Select
Trigger Is (Not) Activated", "FOR EACH ROW Actions"; Guide to SQL: Tutorial, "Select
triggers", "Restrictions on execution of Select triggers"): a query activates a Select
trigger of a table it reads when its Projection list references a column of the trigger's
column list (any column without a list; ``*`` references them all), unless the query has a
set operator, DISTINCT/UNIQUE, or an aggregate or OLAP function in its projection, or reads
the table only in a subquery of its WHERE/HAVING clause. The FOR EACH ROW actions run once
for each instance of a row the query returns (a row joined twice runs them twice), after
the row is processed, with REFERENCING OLD naming its column values.

Here only the tables of the query's own FROM clause activate triggers (not tables read
through a view or a derived table: the Tutorial's example ``SELECT a.* FROM (SELECT * FROM
AuditedTable) AS a`` activates nothing; whether a view does is not known to us). A query
with FOR EACH ROW actions carries one hidden trailing rowid column per triggering table
(``Plan.select_rowids``); the cursor strips them and runs the actions as each row is
fetched. BEFORE runs when the cursor opens, AFTER once its last row has been fetched; a
cursor closed early runs no AFTER actions [guess]. Queries that SPL routines run activate
nothing, and scroll cursors (which Informix exempts) are not told apart from others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from ..schema.catalog import TableInfo, quote
from ..sql.hooks import TRANSLATION
from .triggers import _Firing, _guarded

if TYPE_CHECKING:
    from ..session.session import EngineSession
    from ..sql.translate import Compiler, Plan
    from .triggers import Trigger, _Firing

Row = tuple[object, ...]


def prepare(compiler: Compiler, plan: Plan) -> None:
    """Record the Select triggers a compiled query activates (``Plan.select_triggers``) and
    give it a hidden rowid column per table whose triggers have FOR EACH ROW actions."""
    schema_of = getattr(compiler.lookup, "current_schema", None)
    if schema_of is None or not plan.tables:
        return
    triggers = schema_of().triggers
    if not any(t.event == "S" for name in plan.tables for t in triggers.get(name, ())):
        return
    root = compiler._last_root
    if not isinstance(root, exp.Select) or root.args.get("distinct") or any(
            True for p in root.expressions for _ in p.find_all(exp.AggFunc, exp.Window)):
        return
    source = root.args.get("from_")
    nodes = [source.this] if source is not None else []
    nodes += [j.this for j in root.args.get("joins") or ()]
    for node in nodes:
        info = node.meta.get("ifx_table") if isinstance(node, exp.Table) else None
        if not isinstance(info, TableInfo) or info.schema != "main" or info.temp:
            continue
        alias = node.alias_or_name
        projected = {c.name for p in root.expressions for c in p.find_all(exp.Column)
                     if c.table == alias}
        row_actions = False
        for trig in triggers.get(info.name, ()):
            if trig.event != "S" or (trig.columns and not set(trig.columns) & projected):
                continue
            plan.select_triggers.append(trig.name)
            row_actions = row_actions or bool(trig.body().each_row)
        if row_actions:
            root.append("expressions", exp.Column(this=exp.to_identifier("rowid"),
                                                  table=exp.to_identifier(alias)))
            plan.select_rowids.append(info.name)
    if plan.select_rowids:
        plan.sql = compiler.generate(root)


def _active(s: EngineSession, plan: Plan) -> list[Trigger]:
    if not plan.select_triggers:
        return []
    names = set(plan.select_triggers)
    return [t for table in {*plan.tables} for t in s.current_schema().triggers.get(table, ())
            if t.name in names and t.enabled]


def open_cursor(s: EngineSession, plan: Plan, query: Callable[[], Iterator[Row]]
                ) -> Iterator[Row]:
    """The cursor's rows (``query`` runs it) with its Select triggers' actions around them:
    BEFORE ones before the query runs."""
    trigs = _active(s, plan)
    if not trigs:
        return _strip(query(), plan) if plan.select_rowids else query()
    firings = [_Firing(s, t) for t in trigs]
    _run(s, plan, lambda: _each(firings, "before"))
    return _fire_rows(s, plan, query(), firings)


def _strip(rows: Iterator[Row], plan: Plan) -> Iterator[Row]:
    """Rows without the hidden rowids (the triggers are disabled now)."""
    n, k = len(plan.columns), len(plan.select_rowids)
    for row in rows:
        yield row[:n] + row[n + k:]


def _fire_rows(s: EngineSession, plan: Plan, rows: Iterator[Row],
               firings: list[_Firing]) -> Iterator[Row]:
    n = len(plan.columns)
    schema = s.current_schema()
    tables = [schema.tables[name] for name in plan.select_rowids]
    each = [(f, tables.index(schema.tables[f.trig.table]))
            for f in firings if f.body.each_row and f.trig.table in plan.select_rowids]
    for row in rows:
        rowids = row[n:n + len(tables)]
        yield row[:n] + row[n + len(tables):]
        if each:
            _run(s, plan, lambda rowids=rowids: _each_row(s, each, tables, rowids))
    _run(s, plan, lambda: _each(firings, "after"))


def _each(firings: list[_Firing], section: str) -> None:
    for f in firings:
        f.actions(getattr(f.body, section))


def _each_row(s: EngineSession, each: list[tuple[_Firing, int]], tables: list[TableInfo],
              rowids: Row) -> None:
    conn = s._connection()
    for firing, i in each:
        info = tables[i]
        names = [c.name for c in info.columns]
        values = conn.execute(f"SELECT {', '.join(quote(c) for c in names)} FROM "
                              f"main.{quote(info.name)} WHERE rowid = ?", (rowids[i],)).fetchone()
        if values is not None:  # gone meanwhile (an earlier row's action deleted it)
            firing.row(info, rowids[i], dict(zip(names, values, strict=True)), None)


def _run(s: EngineSession, plan: Plan, action: Any) -> None:
    """Trigger actions write: under the write lock, atomically (triggers._guarded)."""
    s._write(plan, lambda: _guarded(s, action))


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.select_triggers = prepare
