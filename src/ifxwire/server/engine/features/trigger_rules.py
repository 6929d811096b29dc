"""The rules CREATE TRIGGER checks before it records a trigger (twenty-first SPL round, issue
23; docs/SERVER.md "What CREATE TRIGGER refuses"): re-entrancy (-747), where a correlation
name may stand (-732) and that the objects the actions name exist (-674, -206, -217).

Kept apart from ``triggers.py`` (parsing, catalogue and firing), which they only read: each
takes the parsed actions and raises the EngineError the Guide to SQL: Syntax page rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from .spl import ast as a

if TYPE_CHECKING:
    from .trigger_parse import Action, TriggerBody


def check_correlations(body: TriggerBody, names: set[str]) -> None:
    """-732: a correlation name in a BEFORE or AFTER action, or in a FOR EACH ROW action's
    SET target, GROUP BY or COUNT(DISTINCT …)."""
    for act in body.before + body.after:
        _no_correlation(act, names)
    for act in body.each_row:
        _correlation_clauses(act, names)


def check_reentrancy(body: TriggerBody, table: str, event: str, columns: list[str]) -> None:
    """-747 for an action that would make the trigger re-entrant where Informix forbids it
    (Guide to SQL: Syntax, "Re-Entrancy of Triggers", ids_sqs_0627; Tutorial, "Re-entrant
    triggers", ids_sqt_548):

    * an Update trigger's action cannot INSERT into or DELETE from its table, nor UPDATE a
      column the triggering event updated; it may UPDATE another column. The event surely
      updates the trigger's OF columns, so an UPDATE of one of them is refused here; an
      Update trigger without an OF list keeps the older rule below for FOR EACH ROW
      (which columns its event updates is known only when it runs);
    * a Select trigger's action "cannot operate on the same table";
    * Insert and Delete triggers: a FOR EACH ROW action on the table is refused, as before
      (the pages name no rule for them; BEFORE and AFTER actions are left alone).
    """
    sections = [(act, False) for act in body.before + body.after]
    sections += [(act, True) for act in body.each_row]
    for act, each_row in sections:
        for stmt in act.stmts:
            if not isinstance(stmt, a.Sql) or _target(stmt.tree) != table:
                continue
            if event == "S" or (event == "U" and not isinstance(stmt.tree, exp.Update)):
                bad = True
            elif event == "U" and columns:
                bad = bool(set(_set_columns(stmt.tree)) & set(columns))
            else:
                bad = each_row
            if bad:
                raise EngineError(sc.TRIGGER_TABLE_REF, near=table, offset=stmt.pos)


def _set_columns(tree: exp.Expr | None) -> list[str]:
    """The columns an UPDATE's SET clause assigns (``a = …`` and ``(a, b) = (…)``)."""
    out: list[str] = []
    for eq in tree.expressions if isinstance(tree, exp.Update) else []:
        left = eq.this if isinstance(eq, exp.EQ) else None
        cols = left.expressions if isinstance(left, exp.Tuple) else [left]
        out += [c.name.lower() for c in cols if isinstance(c, exp.Column)]
    return out


def _no_correlation(act: Action, names: set[str]) -> None:
    """-732 for a correlation name in a BEFORE or AFTER action: its "scope of reference is
    only the FOR EACH ROW trigger action list" (REFERENCING Clause for Insert / Delete /
    Update triggers, ids_sqs_0614..0616). A statement that names a table or alias of the
    same name qualifies its own columns and is left alone."""
    if not names:
        return
    trees: list[exp.Expr] = []
    _exprs(act, trees, 0)
    for tree in trees:
        own = {t.alias_or_name.lower() for t in tree.find_all(exp.Table)}
        for col in tree.find_all(exp.Column):
            qual = col.table.lower()
            if qual and qual in names and qual not in own:
                raise EngineError(sc.CORRELATION_MISUSE, near=f"{qual}.{col.name}")


def _correlation_clauses(act: Action, names: set[str]) -> None:
    """-732 for a correlation name where Using Correlation Names in Triggered Actions
    (ids_sqs_0624) rules it out: "You cannot use the correlation name to qualify a column
    name in the GROUP BY, the SET, or the COUNT DISTINCT clause" (the code is our reading
    of the catalogue text, as for BEFORE / AFTER actions)."""
    if not names:
        return
    trees: list[exp.Expr] = []
    _exprs(act, trees, 0)

    def named(node: exp.Expr | None) -> str | None:
        for col in node.find_all(exp.Column) if node is not None else ():
            if col.table.lower() in names:
                return f"{col.table.lower()}.{col.name}"
        return None

    for tree in trees:
        own = {t.alias_or_name.lower() for t in tree.find_all(exp.Table)}
        if own & names:
            continue
        spots: list[exp.Expr] = []
        if isinstance(tree, exp.Update):
            spots += [eq.this for eq in tree.expressions if isinstance(eq, exp.EQ)]
        spots += list(tree.find_all(exp.Group))
        spots += [c for c in tree.find_all(exp.Count) if isinstance(c.this, exp.Distinct)]
        for spot in spots:
            bad = named(spot)
            if bad is not None:
                raise EngineError(sc.CORRELATION_MISUSE, near=bad)


def _exprs(node: Any, out: list[exp.Expr], depth: int) -> None:
    """The sqlglot trees an action holds (its WHEN, statements and call arguments)."""
    if depth > 6 or node is None or isinstance(node, (str, int, float, bool)):
        return
    if isinstance(node, exp.Expr):
        out.append(node)
    elif isinstance(node, (list, tuple)):
        for item in node:
            _exprs(item, out, depth + 1)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            _exprs(getattr(node, name, None), out, depth + 1)


def _target(tree: exp.Expr | None) -> str | None:
    target = tree.this if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)) else None
    if isinstance(target, exp.Schema):
        target = target.this
    return target.name.lower() if isinstance(target, exp.Table) else None


def check_objects(dc: Any, body: TriggerBody) -> None:
    """The tables, columns and routines the actions name must exist when the trigger is
    created: "Database objects that are referenced explicitly in the trigger action ... such
    as tables, columns, and UDRs, must exist when the CREATE TRIGGER statement defines the
    new trigger" (Triggered Action on a Table, ids_sqs_0618: for a missing routine "the
    database server issues an error, and no ... trigger is created"). The codes are those
    of the same miss in a client's statement [inference]: -206 (table), -217 (an INSERT
    column list's or a SET clause's column), -674 (routine). Tables of other databases and
    columns inside expressions are left to the run."""
    for act in body.before + body.each_row + body.after:
        for stmt in act.stmts:
            if isinstance(stmt, a.CallSpec):
                if ":" not in stmt.name and "@" not in stmt.name and not \
                        dc.schema.routines.get(stmt.name.lower()):
                    raise EngineError(sc.NO_ROUTINE, near=stmt.name, offset=stmt.pos)
                continue
            tree = stmt.tree if isinstance(stmt, a.Sql) else None
            target = tree.this if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)) \
                else None
            listed = target.expressions if isinstance(target, exp.Schema) else []
            if isinstance(target, exp.Schema):
                target = target.this
            if not isinstance(target, exp.Table) or target.catalog:
                continue
            info = dc.resolve(target.name.lower(), target.db or None, None, stmt.pos)
            names = [c.name.lower() for c in listed if isinstance(c, (exp.Column,
                                                                       exp.Identifier))]
            for col in names + _set_columns(tree):
                if col not in info.by_name:
                    raise EngineError(sc.NO_COLUMN, near=col, offset=stmt.pos)
