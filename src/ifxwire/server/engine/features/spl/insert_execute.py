"""``INSERT INTO t [(cols)] EXECUTE PROCEDURE|FUNCTION p(args)``: the routine's rows go in.

Guide to SQL: Syntax, INSERT, "Execute Routine Clause" (ids_sqs_0133): the values a routine
returns are inserted, "the return values of the function must have a one-to-one correspondence
with the listed columns" (each of a type the same as or compatible with its column, in the
column list's order), and the routine is "called within a data manipulation statement", so
the restrictions of ids_sqs_1755 apply to it (-675 for a write; ``Runtime.in_dml``).
ids_sqs_0589's example, ``INSERT INTO items EXECUTE PROCEDURE sp_items``, is this form.

How: the statement compiles into an ``insert_exec`` plan of two parts, the routine's "call"
plan (its argument row, as EXECUTE PROCEDURE compiles it) and ``INSERT INTO t (cols) VALUES
(?, …)`` with one ``?`` per value (compiled by the SQL layer as any INSERT, so conversions,
defaults, constraints and serials are the usual ones). Running it, the routine runs to its
end first (so it reads the table as it was before the statement), then each row it returned
is inserted, all under one write, so the statement is atomic: an error in any row undoes
every row.

Triggers: the target's BEFORE actions run once before the first row, its AFTER actions once
after the last, its FOR EACH ROW actions for each row (``run_dml``'s skip sets, as MERGE's
parts use them). A routine that returns no rows inserts nothing, but the BEFORE and AFTER
actions still run once each ("Even if the triggering statement does not process any rows, the
database server executes the BEFORE trigger actions", ids_sqs_0607; the AFTER actions "still
execute", ids_sqs_0609), as they do for an INSERT … SELECT that selects nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from .....protocol.codes import StmtType
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...sql.hooks import TRANSLATION
from ...sql.prepared import ExecResult
from ...sql.translate import Plan
from ..cross_database import database_of
from ..triggers import (
    _EVENTS,
    _active,
    _Firing,
    _guarded,
    _restore_serials,
    _serials,
    run_dml,
    run_instead,
)
from . import ast as a
from .calls import _args, _loaded, _routine_of, compile_call, runtime

if TYPE_CHECKING:
    from ...sql.translate import Compiler


def compile_insert_execute(compiler: Compiler, table: exp.Table, columns: list[str] | None,
                           call: a.CallSpec) -> Plan:
    """The ``insert_exec`` plan: parts [call, insert]; its parameters are the call's."""
    call_plan = compile_call(compiler, call)
    if call_plan.native:
        raise EngineError(sc.NOT_IMPLEMENTED, near=call.name,
                          message="INSERT … EXECUTE of a built-in routine")
    width = len(call_plan.types)
    if width == 0:
        # a routine that returns nothing has no values to insert: the count of values does
        # not match the columns, -236 as for a VALUES list of another length [inference]
        raise EngineError(sc.INSERT_COUNT)
    target: exp.Expr = table.copy()
    if columns is not None:
        target = exp.Schema(this=target, expressions=[exp.to_identifier(c) for c in columns])
    holders = []
    for i in range(width):
        holder = exp.Placeholder()
        holder.meta["pos"] = i + 1  # each ``?`` its own parameter (Compiler.collect_params)
        holders.append(holder)
    values = exp.Values(expressions=[exp.Tuple(expressions=holders)])
    insert = exp.Insert(this=target, expression=values)
    saved = compiler.allow_bare_params
    compiler.allow_bare_params = True
    try:
        insert_plan = _compile_target(compiler, insert)
    finally:
        compiler.allow_bare_params = saved
    plan = Plan("insert_exec", StmtType.INSERT, table=insert_plan.table)
    plan.parts = [call_plan, insert_plan]
    plan.sql = call_plan.sql
    plan.params = list(call_plan.params)
    plan.routines = list(insert_plan.routines)
    plan.routine = call_plan.routine  # EXECUTE on it is checked (Session._check_privileges)
    plan.cast_types = insert_plan.cast_types
    plan.sequences = insert_plan.sequences
    return plan.finish(compiler.ctx)


def _compile_target(compiler: Compiler, insert: exp.Insert) -> Plan:
    """The INSERT of one returned row, on a table or through a view as any INSERT: a view
    with an INSTEAD OF INSERT trigger gives the trigger's plan, a simple view the base
    table's plan (views.py), anything else the table's. The INSERT statement's syntax takes
    a view with each of its sources, the Execute Routine Clause among them (ids_sqs_0861),
    and a view takes rows as "Inserting Rows Through a View" (ids_sqs_0864) says: a simple
    view's base table gets them, a view with an INSTEAD OF trigger runs it."""
    instead = TRANSLATION.compile_instead(compiler, insert)
    if instead is not None:
        return instead.finish(compiler.ctx)
    view = compiler.view_target(insert)
    if view is not None:
        return TRANSLATION.compile_view_dml(compiler, insert, *view).finish(compiler.ctx)
    return compiler.compile_insert(insert).finish(compiler.ctx)


def run_insert_execute(session: Any, plan: Plan, bound: dict[str, object]) -> ExecResult:
    """Run the routine to its end, then insert each of its rows, as one atomic write.
    ``session``: the EngineSession (typed Any: the session layer is above this one, and the
    functions it is handed to take it as such)."""
    call_plan, insert_plan = plan.parts
    routine = _routine_of(session, call_plan)
    args = _args(session, call_plan, bound)

    def action() -> ExecResult:
        rt = runtime(session)
        saved = rt.in_dml
        rt.in_dml = True  # called within a DML statement (ids_sqs_0133, ids_sqs_1755)
        try:
            got = list(_loaded(rt.invoke(routine, args), routine))
        finally:
            rt.in_dml = saved
        total = 0
        serial = 0
        serial8: int | None = None
        # one statement: its triggers' BEFORE actions run before the first row only, their
        # AFTER actions after the last only (as run_merge does for a statement of parts)
        info = insert_plan.table
        if insert_plan.kind == "instead":
            # a view with an INSTEAD OF INSERT trigger: the trigger runs for each row, and
            # the view has no BEFORE/AFTER actions of its own (ids_sqs_0864, ids_sqs_0622)
            for row in got:
                total += run_instead(session, insert_plan,
                                     session._bind(insert_plan, list(row))).rowcount
            session.state.last_rowcount = total
            return ExecResult(total)
        trigs = (_active(session, info.name, _EVENTS["insert"], None)
                 if info is not None and not info.temp and database_of(info) is None else [])
        if not got:
            return _no_rows(session, trigs)
        ids = {t.trigid for t in trigs}
        last = len(got) - 1
        for i, row in enumerate(got):
            result = run_dml(session, insert_plan, session._bind(insert_plan, list(row)),
                             skip_before=ids if i > 0 else None,
                             skip_after=ids if i < last else None)
            total += result.rowcount
            serial = result.serial or serial
            serial8 = result.serial8 if result.serial8 is not None else serial8
        return ExecResult(total, serial, serial8)

    done: ExecResult = session._write(insert_plan, action)
    return done


def _no_rows(session: Any, trigs: list[Any]) -> ExecResult:
    """The statement inserts nothing: its triggers' BEFORE then AFTER actions run once each
    (ids_sqs_0607, ids_sqs_0609), the FOR EACH ROW ones never (ids_sqs_0608). ``trigs``: the
    target's active INSERT triggers. Atomic and depth-counted as ``run_dml`` runs them."""
    session.state.last_rowcount = 0
    if not trigs:
        return ExecResult(0)

    def run() -> ExecResult:
        firings = [_Firing(session, t) for t in trigs]
        serials = _serials(session)
        for f in firings:
            f.actions(f.body.before)
        for f in firings:
            f.actions(f.body.after)
        _restore_serials(session, serials)  # nothing inserted: DBINFO keeps what it had
        session.state.last_rowcount = 0
        return ExecResult(0)

    done: ExecResult = _guarded(session, run)
    return done


TRANSLATION.compile_insert_execute = compile_insert_execute
