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
cursor closed early runs no AFTER actions [guess].

Table hierarchies (Syntax, "Select Triggers in Table Hierarchies", ids_sqs_0604): a subtable
inherits its supertables' Select triggers, and its own add to them. A FROM item that reads a
supertable is the UNION ALL of its tables (translate.resolve_tables, which records them in
the subquery's ``ifx_hierarchy`` meta); each branch then carries its row's rowid and its
table's place in that list, so a row of table X runs the triggers of X and of X's
supertables. Queries that SPL routines run activate
nothing, and scroll cursors (which Informix exempts) are not told apart from others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from ..core.errors import not_implemented
from ..schema.catalog import TableInfo, quote
from ..sql.hooks import TRANSLATION
from .triggers import _Firing, _guarded, trigger_body

if TYPE_CHECKING:
    from ..schema.triggers import Trigger
    from ..sql.translate import Compiler, Plan
    from .session_api import FeatureSession
    from .triggers import _Firing

Row = tuple[object, ...]


def lineage(schema: Any, table: str) -> list[str]:
    """``table`` and its supertables, nearest first: a row of ``table`` activates the Select
    triggers of all of them (a subtable inherits its supertables' triggers, ids_sqs_0604)."""
    out: list[str] = []
    name: str | None = table
    while name is not None and name not in out:
        out.append(name)
        info = schema.tables.get(name)
        name = info.supertable if info is not None else None
    return out


def _scope(node: exp.Expr) -> list[TableInfo]:
    """The tables whose rows a FROM item reads: a table, or a supertable's hierarchy (the
    UNION ALL that translate.resolve_tables made, its branches in this order)."""
    if isinstance(node, exp.Table):
        info = node.meta.get("ifx_table")
        if isinstance(info, TableInfo) and info.schema == "main" and not info.temp:
            return [info]
        return []
    if isinstance(node, exp.Subquery):
        return list(node.meta.get("ifx_hierarchy") or ())
    return []


def _branches(node: exp.Expr) -> list[exp.Select]:
    if isinstance(node, exp.Union):
        return _branches(node.this) + _branches(node.expression)
    if isinstance(node, exp.Subquery):
        return _branches(node.this)
    return [node] if isinstance(node, exp.Select) else []


def prepare(compiler: Compiler, plan: Plan) -> None:
    """Record the Select triggers a compiled query activates (``Plan.select_triggers``) and
    give it two hidden columns per FROM item whose triggers have FOR EACH ROW actions: the
    row's rowid and which table of the item it comes from (``Plan.select_rowids``)."""
    schema_of = getattr(compiler.lookup, "current_schema", None)
    if schema_of is None or not plan.tables:
        return
    schema = schema_of()
    triggers = schema.triggers
    if not any(t.event == "S" for group in triggers.values() for t in group):
        return
    root = compiler._last_root
    if not isinstance(root, exp.Select) or root.args.get("distinct") or any(
            True for p in root.expressions for _ in p.find_all(exp.AggFunc, exp.Window)):
        return
    source = root.args.get("from_")
    nodes = [source.this] if source is not None else []
    nodes += [j.this for j in root.args.get("joins") or ()]
    changed = False
    for node in nodes:
        scope = _scope(node)
        if not scope:
            continue
        alias = node.alias_or_name
        projected = {c.name for p in root.expressions for c in p.find_all(exp.Column)
                     if c.table == alias}
        names: list[str] = []
        row_actions = False
        for info in scope:
            for table in lineage(schema, info.name):
                for trig in triggers.get(table, ()):
                    if trig.event != "S" or (trig.columns and not set(trig.columns) & projected):
                        continue
                    if trig.name not in names:
                        names.append(trig.name)
                    row_actions = row_actions or bool(trigger_body(trig).each_row)
        plan.select_triggers += [n for n in names if n not in plan.select_triggers]
        if not row_actions:
            continue
        if len(scope) == 1 and isinstance(node, exp.Table):
            root.append("expressions", exp.Column(this=exp.to_identifier("rowid"),
                                                  table=exp.to_identifier(alias)))
            root.append("expressions", exp.Literal.number(0))
        else:
            branches = _branches(node.this)
            if len(branches) != len(scope):
                raise not_implemented("Select triggers of this hierarchy query")
            for k, branch in enumerate(branches):
                branch.append("expressions", exp.alias_(exp.column("rowid"), _RID))
                branch.append("expressions", exp.alias_(exp.Literal.number(k), _TAB))
            for col in (_RID, _TAB):
                root.append("expressions", exp.Column(this=exp.to_identifier(col),
                                                      table=exp.to_identifier(alias)))
        plan.select_rowids.append((tuple(t.name for t in scope), tuple(names)))
        changed = True
    if changed:
        plan.sql = compiler.generate(root)


#: The hidden columns a hierarchy's branches carry for FOR EACH ROW actions.
_RID, _TAB = "_ifx_srid", "_ifx_stab"


def _active(s: FeatureSession, plan: Plan) -> list[Trigger]:
    """The enabled triggers the query activates, in creation order (triggers._active's)."""
    if not plan.select_triggers:
        return []
    names = set(plan.select_triggers)
    found = [t for group in s.current_schema().triggers.values() for t in group
             if t.name in names and t.enabled]
    return sorted(found, key=lambda t: t.trigid)


def open_cursor(s: FeatureSession, plan: Plan, query: Callable[[], Iterator[Row]]
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
    """Rows without the hidden columns (the triggers are disabled now)."""
    n, k = len(plan.columns), 2 * len(plan.select_rowids)
    for row in rows:
        yield row[:n] + row[n + k:]


#: One FROM item's tables, and for each of them the firings its rows run.
_Slot = tuple[list[TableInfo], list[list[_Firing]]]


def _fire_rows(s: FeatureSession, plan: Plan, rows: Iterator[Row],
               firings: list[_Firing]) -> Iterator[Row]:
    n, k = len(plan.columns), 2 * len(plan.select_rowids)
    schema = s.current_schema()
    each = [f for f in firings if f.body.each_row]
    slots: list[_Slot] = []
    for tables, names in plan.select_rowids:
        infos = [schema.tables[t] for t in tables]
        slots.append((infos, [[f for f in each if f.trig.name in names
                               and f.trig.table in lineage(schema, t)] for t in tables]))
    for row in rows:
        hidden = row[n:n + k]
        yield row[:n] + row[n + k:]
        if each:
            _run(s, plan, lambda hidden=hidden: _each_row(s, slots, hidden))
    _run(s, plan, lambda: _each(firings, "after"))


def _each(firings: list[_Firing], section: str) -> None:
    for f in firings:
        f.actions(getattr(f.body, section))


def _each_row(s: FeatureSession, slots: list[_Slot], hidden: Row) -> None:
    conn = s._connection()
    for i, (infos, fire) in enumerate(slots):
        rowid, which = hidden[2 * i], hidden[2 * i + 1]
        if rowid is None or which is None:  # the NULL side of an outer join
            continue
        info, firings = infos[int(str(which))], fire[int(str(which))]
        if not firings:
            continue
        names = [c.name for c in info.columns]
        values = conn.execute(f"SELECT {', '.join(quote(c) for c in names)} FROM "
                              f"main.{quote(info.name)} WHERE rowid = ?", (rowid,)).fetchone()
        if values is None:  # gone meanwhile (an earlier row's action deleted it)
            continue
        for firing in firings:
            firing.row(info, rowid, dict(zip(names, values, strict=True)), None)


def _run(s: FeatureSession, plan: Plan, action: Any) -> None:
    """Trigger actions write: under the write lock, atomically (triggers._guarded)."""
    s._write(plan, lambda: _guarded(s, action))


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.select_triggers = prepare
