"""SQL statements inside an SPL routine: singleton SELECT ... INTO, INSERT/UPDATE/DELETE/MERGE
(WHERE CURRENT OF a FOREACH cursor), INSERT ... EXECUTE, the other statements, and SQLCODE.

Split from interp.py (the ~800-line rule): ``EmbeddedSql`` is a base class of ``Interp``
(interp.py) and holds the methods that hand a routine's SQL to the session; the attributes it
reads are set by ``Interp.__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...core.ifxtypes import IfxType
from ...sql.statements import IfxStatement
from .. import violations
from . import ast as a
from .frame import Frame, Row
from .sqlrun import Runner, VarRef

if TYPE_CHECKING:
    from ..session_api import FeatureSession
    from .interp import Runtime

_NOT_IN_SPL = frozenset(("database", "close_database", "create_database", "drop_database",
                         "create_routine"))
_SAVEPOINTS = frozenset(("savepoint", "release_savepoint", "rollback_to_savepoint"))
_TRANSACTION = frozenset(("begin", "commit", "rollback"))
#: What a routine called inside a client's DML statement may not run (Guide to SQL: Syntax,
#: "Restrictions on SPL Routines in Data-Manipulation Statements", ids_sqs_1755: -675);
#: INSERT, UPDATE, DELETE and MERGE are checked by their trees.
_NOT_IN_DML_CALL = frozenset((
    "alter_fragment", "alter_index", "alter_sequence", "alter_table", "begin", "commit",
    "rollback", "create_role", "create_sequence", "create_trigger", "drop_index", "drop_role",
    "drop_sequence", "drop_synonym", "drop_table", "drop_trigger", "drop_view",
    "rename_column", "rename_sequence", "rename_table", "truncate", "set_constraints",
    "create_distinct_type", "create_row_type", "drop_type", "drop_row_type"))



class EmbeddedSql:
    """The embedded-SQL statements of an SPL frame (the base of Interp)."""

    rt: Runtime
    frame: Frame
    runner: Runner
    session: FeatureSession

    if TYPE_CHECKING:  # (Interp's, interp.py)
        def target(self, name: str, scope: dict[str, a.VarDecl]) -> tuple[VarRef, IfxType]: ...
        def put(self, targets: list[tuple[VarRef, IfxType]], row: Row) -> None: ...

    def at_most_one(self, node: a.ExprNode, query: exp.Expr, scope: dict[str, a.VarDecl],
                    types: list[IfxType], key: object = "q") -> list[Row]:
        """The row of a singleton SELECT (none, or one: a second is -284), converted to
        ``types``."""
        compiled = self.runner.compile_query(node, key, query, scope, types)
        if len(compiled.plan.types) != len(types):
            raise EngineError(sc.SYNTAX)
        rows = self.runner.rows(compiled, self.frame)
        try:
            got = list(islice(rows, 2))
        finally:
            rows.close()  # type: ignore[attr-defined]
        if len(got) > 1:
            raise EngineError(sc.SUBQUERY_ROWS)
        return got

    # ---- embedded SQL ------------------------------------------------------------------------
    def sqlcode(self, value: int) -> None:
        """Set what the built-in SQLCODE reads (0, 100 for no row, or an error's code)."""
        slot = self.frame.body.sqlcode_slot
        if slot >= 0:
            self.frame.slots[slot] = value

    def s_sql(self, node: a.Sql, scope: dict[str, a.VarDecl]) -> None:
        try:
            self._s_sql(node, scope)
        except EngineError as e:
            self.sqlcode(e.sqlcode)
            raise
        else:
            if not isinstance(node.tree, (exp.Select, exp.SetOperation, exp.Subquery)):
                self.sqlcode(self._dml_code(isinstance(
                    node.tree, (exp.Update, exp.Delete, exp.Insert))))

    def _dml_code(self, counts: bool) -> int:
        """ESQL/C "NOT FOUND in SQLCODE" (ids_esqlc_0414) and Database Design guide
        ids_ddi_158: a DELETE, UPDATE, INSERT … SELECT or SELECT … INTO TEMP of no row is
        100 in an ANSI-compliant database, 0 in any other."""
        if counts and self.session._ansi and not self.session.state.last_rowcount:
            return 100
        return 0

    def _s_sql(self, node: a.Sql, scope: dict[str, a.VarDecl]) -> None:
        tree = node.tree
        session = self.session
        if self.rt.trace_on:
            self.rt.trace(f"statement: {node.text[:200]}")
        if isinstance(tree, IfxStatement):
            kind = str(tree.this)
            if kind in _NOT_IN_SPL:
                raise EngineError(sc.NOT_IN_SPL, near=kind.replace("_", " ").upper())
            if kind in _NOT_IN_DML_CALL and self.rt.in_dml:
                raise EngineError(sc.NOT_IN_SPL, near=kind.replace("_", " ").upper())
            if kind in _TRANSACTION and self.rt.trigger_depth > 0:
                # BEGIN / COMMIT / ROLLBACK WORK while a trigger runs would end the client's
                # transaction in the middle of the triggering statement: -675, the code
                # ids_sqs_1755 gives these statements in a DML context [inference: no page
                # names the code for a routine a trigger calls]; the triggering statement
                # fails as a whole and the client's transaction goes on
                raise EngineError(sc.NOT_IN_SPL, near=kind.replace("_", " ").upper())
            if kind in _SAVEPOINTS and self.rt.trigger_depth > 0:
                # a routine that a triggered action calls: RELEASE SAVEPOINT (ids_sqs_2008)
                # "fails with an error" when "part of a triggered action", and the JDBC
                # guide: "Savepoints cannot be referenced in a triggered action"
                raise EngineError(sc.SAVEPOINT_IN_TRIGGER)
            if kind == "insert_execute":
                self._insert_execute(node, tree, scope)
                return
            with session.acting_as_dba(self.frame.routine.mode == "D"):
                session._statement(tree)
            return
        if isinstance(tree, (exp.Select, exp.SetOperation, exp.Subquery)):
            self.select(node, tree, scope)
            return
        if not isinstance(tree, (exp.Insert, exp.Update, exp.Delete, exp.Merge)):
            raise not_implemented(type(tree).__name__.upper())
        if self.rt.in_dml:
            # -675: a routine whose calling context is a DML statement (ids_sqs_1755)
            raise EngineError(sc.NOT_IN_SPL, near=type(tree).__name__.upper())
        runner = self.runner
        current = node.current_of

        def build(c: Any, sub: Callable[[exp.Expr], exp.Expr]) -> Any:
            c.allow_bare_params = True
            if isinstance(tree, exp.Insert):
                plan = c.compile_insert(sub(tree))
            elif isinstance(tree, exp.Update):
                plan = c.compile_update(sub(tree))
            elif isinstance(tree, exp.Merge):  # SPL variables in it: -999 (compile_merge)
                plan = c.compile_merge(sub(tree))
            else:
                plan = c.compile_delete(sub(tree))
            if current is not None:
                plan.sql += " WHERE rowid = :spl_rowid"
                if plan.old_sql:
                    plan.old_sql += " WHERE rowid = :spl_rowid"
            return plan.finish(c.ctx)

        compiled = runner.compile(node, "dml", scope, build)
        bound = runner.bound(compiled, self.frame)
        if current is not None:
            open_cursor = self.frame.cursors.get(current)
            if open_cursor is None:
                raise EngineError(sc.FETCH_UNOPENED, near=current)
            table, rowid = open_cursor
            if table is None or compiled.plan.table is None or (
                    table.name != compiled.plan.table.name):
                raise EngineError(sc.SYNTAX, near=current,
                                  message=f"cursor {current} does not select from this table")
            bound["spl_rowid"] = rowid
        session.check_in_routine(compiled.plan, self.frame.routine)
        violations.check_insert(session.conn, compiled.plan)  # -973, as session.prepare
        session.exec_dml(compiled.plan, bound)

    def _insert_execute(self, node: a.Sql, tree: exp.Expr,
                        scope: dict[str, a.VarDecl]) -> None:
        """INSERT … EXECUTE PROCEDURE|FUNCTION in a routine (insert_execute.py): the call's
        arguments may name SPL variables. It is an INSERT: -675 in a DML context."""
        from dataclasses import replace

        # import cycle at load: insert_execute -> calls -> interp
        from .insert_execute import compile_insert_execute, run_insert_execute
        if self.rt.in_dml:
            raise EngineError(sc.NOT_IN_SPL, near="INSERT")
        table, columns, call = tree.meta["spec"]

        def build(c: Any, sub: Callable[[exp.Expr], exp.Expr]) -> Any:
            spec = replace(call, args=[sub(arg) for arg in call.args])
            return compile_insert_execute(c, table, columns, spec)

        compiled = self.runner.compile(node, "insert_exec", scope, build)
        bound = self.runner.bound(compiled, self.frame)
        self.session.check_in_routine(compiled.plan, self.frame.routine)
        run_insert_execute(self.session, compiled.plan, bound)

    def select(self, node: a.Sql, tree: exp.Expr, scope: dict[str, a.VarDecl]) -> None:
        session = self.session
        into_temp = tree.meta.get("into_temp")
        if into_temp is not None:
            def build(c: Any, sub: Callable[[exp.Expr], exp.Expr]) -> Any:
                c.allow_bare_params = True
                plan = c.compile_query(sub(tree))
                plan.kind = "select_into"
                plan.into_temp = into_temp
                return plan.finish(c.ctx)
            compiled = self.runner.compile(node, "temp", scope, build)
            bound = self.runner.bound(compiled, self.frame)
            session.check_in_routine(compiled.plan, self.frame.routine)
            session._write(compiled.plan, lambda: session._select_into(compiled.plan, bound))
            self.sqlcode(self._dml_code(True))
            return
        if not node.into:
            raise EngineError(sc.SYNTAX, near="SELECT",
                              message="A SELECT in an SPL routine needs INTO variables")
        targets = [self.target(n, scope) for n in node.into]  # (v[m,n] too: substrings.py)
        types: list[IfxType] = [t for _, t in targets]
        got = self.at_most_one(node, tree, scope, types)
        session.state.last_rowcount = len(got)
        self.sqlcode(0 if got else 100)
        if got:
            self.put(targets, got[0][:len(targets)])

