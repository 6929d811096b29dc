"""Triggers: CREATE / DROP TRIGGER, their catalog rows, and firing them around DML.

Triggers are run by the engine, not by SQLite, so they fire the same way whether the DML
comes from a client, from an SPL routine or from another trigger, and their actions are
compiled and run exactly like SPL statements (``spl/``):

* ``INSERT | DELETE | UPDATE [OF cols] | SELECT`` triggers on a table, and ``INSTEAD OF
  INSERT | UPDATE | DELETE`` triggers on a view;
* ``REFERENCING OLD [AS] o NEW [AS] n``; BEFORE actions (once, before the statement), FOR
  EACH ROW actions (after each row the statement processed) and AFTER actions (once, after
  it); each action is ``[WHEN (cond)] (INSERT … | UPDATE … | DELETE … | EXECUTE PROCEDURE …
  [INTO col, …] | EXECUTE FUNCTION … INTO col, …)``;
* a routine called ``WITH TRIGGER REFERENCES`` sees the row as its REFERENCING names and
  may assign ``LET n.col = …``: the new values are written to the row;
* the triggering statement and all its triggered actions are atomic: an error anywhere rolls
  all of it back (a SQLite savepoint), leaving the transaction otherwise intact;
* triggers that fire triggers nest at most 61 deep (-748), as on Informix.

Rows are identified by SQLite rowid: the statement reports the rows it changed with
``RETURNING``, and UPDATE's old values are read just before it runs. A statement of a table
with full-row logging and no FOR EACH ROW trigger hands its rows to the capture from a
cursor instead (``captured_dml.py``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from ....protocol.codes import StmtType
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.hooks import CAPTURE
from ..schema.catalog import TableInfo, quote
from ..schema.hooks import FEATURES
from ..schema.routine_tables import chunks
from ..schema.routines import Routine
from ..schema.triggers import Trigger
from ..sql.hooks import PARSERS, TRANSLATION
from ..sql.plan import Plan
from ..sql.prepared import ExecResult
from ..sql.statements import parse
from ..sql.translate_dml import MERGE_ROWID
from . import trigger_rules as rules
from .captured_dml import SELECT_WORD, change_captured, insert_captured
from .cross_database import database_of
from .spl import ast as a
from .spl.binder import EVENT_ROW
from .spl.frame import Frame
from .trigger_parse import (
    Action,
    CreateTrigger,
    DropTrigger,
    TriggerBody,
    parse_create_trigger,
    parse_drop_trigger,
)
from .views import check_rows

if TYPE_CHECKING:
    from ..sql.translate import Compiler
    from .session_api import FeatureSession
    from .spl.interp import Interp

MAX_CASCADE = 61  # Informix: "the maximum number of cascading triggers, which is 61"
_EVENTS = {"insert": "I", "update": "U", "delete": "D"}


def trigger_body(trig: Trigger) -> TriggerBody:
    """The trigger's parsed body: parsed from its text the first time it fires, then kept on
    the trigger (``Trigger.parsed``: the catalogue, schema/triggers.py, only stores it)."""
    if isinstance(trig.parsed, TriggerBody):
        return trig.parsed
    tree = parse(trig.text, trig.delimident)
    spec = tree.meta["spec"]
    assert isinstance(spec, CreateTrigger)
    trig.parsed = spec.body
    return spec.body


# ---- catalog ----------------------------------------------------------------------------------
def load_triggers(conn: sqlite3.Connection, prefix: str) -> dict[str, list[Trigger]]:
    prefix = prefix or "main."  # see spl.catalog.load_routines
    texts: dict[int, list[str]] = {}
    try:
        for trigid, data in conn.execute(
                f"SELECT trigid, data FROM {prefix}systrigbody WHERE datakey IN ('D', 'A') "
                "ORDER BY trigid, datakey DESC, seqno"):
            texts.setdefault(trigid, []).append(data or "")
        rows = list(conn.execute(f"SELECT trigid, meta FROM {prefix}_ifx_trig ORDER BY trigid"))
    except sqlite3.OperationalError:
        return {}
    out: dict[str, list[Trigger]] = {}
    for trigid, meta in rows:
        trig = Trigger.from_meta(trigid, meta, "".join(texts.get(trigid, [])))
        out.setdefault(trig.table, []).append(trig)
    return out


def create_trigger(dc: Any, spec: CreateTrigger) -> None:
    conn = dc.conn
    trig = spec.trigger
    info = dc.resolve(trig.table, None, None, 0)
    if info.temp:
        # [jcat] -548; Restrictions on Triggers (ids_sqs_0586): no trigger on "a temporary
        # table or a system catalog table"
        raise EngineError(sc.TRIGGER_ON_TEMP, near=info.name)
    if info.kind not in ("T", "V") or info.tabid < 100:
        raise not_implemented("triggers on this table")
    if info.kind == "T" and trig.event.islower():
        # [jcat] -19827; "You can define an INSTEAD OF trigger only on a view, not on a
        # table" (ids_sqs_0639)
        raise EngineError(sc.INSTEAD_ON_TABLE, near=info.name)
    if info.kind == "V" and not trig.event.islower():
        # [jcat] -322 "Cannot Alter a view, Rename a view or Create a trigger on a view (%s)."
        # (a view takes INSTEAD OF triggers only: ids_sqs_0637, ids_sqs_0639; fourteenth round)
        raise EngineError(sc.VIEW_NOT_ALTERABLE, near=info.name)
    for group in dc.schema.triggers.values():
        if any(t.name == trig.name for t in group):
            raise EngineError(sc.OBJECT_EXISTS, near=trig.name)
    for other in dc.schema.triggers.get(info.name, []):
        if other.event == trig.event and other.event not in "UuS":
            pass  # Informix 11.70+ allows several triggers per event: they all fire
    for col in trig.columns:
        if col not in info.by_name:
            raise EngineError(sc.NO_COLUMN, near=col)
    rules.check_objects(dc, spec.body)
    trig.table = info.name
    trig.owner = spec.owner or dc.user
    trig.delimident = False
    trigid = (conn.execute("SELECT MAX(trigid) FROM systriggers").fetchone()[0] or 0) + 1
    trig.trigid = trigid
    conn.execute("INSERT INTO systriggers VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 'en_US.819')",
                 (trigid, trig.name, trig.owner, info.tabid, trig.event, trig.old, trig.new))
    head, actions = _split_text(trig.text)
    rows = [(trigid, "D", i, piece) for i, piece in enumerate(chunks(head), 1)]
    rows += [(trigid, "A", i, piece) for i, piece in enumerate(chunks(actions), 1)]
    conn.executemany("INSERT INTO systrigbody VALUES (?, ?, ?, ?)", rows)
    conn.execute("INSERT INTO _ifx_trig VALUES (?, ?, ?)", (trigid, info.name, trig.meta()))
    # its mode (SYSOBJSTATE; objstate.sync adds the enabled rows)
    conn.execute("INSERT INTO sysobjstate VALUES ('T', ?, ?, ?, ?)",
                 (trig.owner, trig.name, info.tabid, "E" if trig.enabled else "D"))
    conn.execute(f"CREATE VIEW {quote(f'_ifx_t_{trigid}')} AS SELECT 1")


def set_triggers(dc: Any, spec: Any) -> None:
    """SET TRIGGERS {name[, …] | FOR table} {ENABLED | DISABLED} (Guide to SQL: Syntax, "SET
    Database Object Mode statement": "When a trigger is disabled, the database server
    ignores the trigger"): the mode is kept with the trigger (as CREATE TRIGGER … DISABLED
    keeps it) and recorded in sysobjstate, one row per trigger (objtype 'T', state 'E' or
    'D'; Guide to SQL: Reference, SYSOBJSTATE). A name that is no trigger is -634, as for
    DROP TRIGGER."""
    triggers = [t for group in dc.schema.triggers.values() for t in group]
    if spec.table is not None:
        info = dc.resolve(spec.table.name, spec.table.owner, None, 0)
        chosen = [t for t in triggers if t.table == info.name]
    else:
        chosen = []
        for name in spec.names:
            found = [t for t in triggers if t.name == name]
            if not found:
                raise EngineError(sc.NO_OBJECT, near=name)
            chosen += found
    enabled = spec.mode == "ENABLED"
    for trig in chosen:
        # a copy: the cached schema's Trigger must not change if the transaction rolls back
        dc.conn.execute("UPDATE _ifx_trig SET meta = ? WHERE trigid = ?",
                        (replace(trig, enabled=enabled, parsed=None).meta(), trig.trigid))
        tabid = dc.conn.execute("SELECT tabid FROM systriggers WHERE trigid = ?",
                                (trig.trigid,)).fetchone()[0]
        dc.conn.execute("DELETE FROM sysobjstate WHERE objtype = 'T' AND name = ? AND tabid = ?",
                        (trig.name, tabid))
        dc.conn.execute("INSERT INTO sysobjstate VALUES ('T', ?, ?, ?, ?)",
                        (trig.owner, trig.name, tabid, "E" if enabled else "D"))


def set_indexes(dc: Any, spec: Any) -> None:
    """SET INDEXES … ENABLED: every index here is enabled (DISABLED and FILTERING are refused
    when parsed), so only the names are checked: -319 for one that is no index."""
    if spec.table is not None:
        dc.resolve(spec.table.name, spec.table.owner, None, 0)
        return
    for name in spec.names:
        if dc.conn.execute("SELECT 1 FROM sysindices WHERE idxname = ?",
                           (name,)).fetchone() is None:
            raise EngineError(sc.NO_INDEX, near=name)


def _split_text(text: str) -> tuple[str, str]:
    """The trigger's header (systrigbody 'D') and its actions ('A'): split before the first
    BEFORE / FOR EACH ROW / AFTER keyword, so that the two pieces rebuild the text."""
    upper = text.upper()
    cut = len(text)
    for word in (" BEFORE", " FOR EACH ROW", " AFTER", "\nBEFORE", "\nFOR EACH ROW",
                 "\nAFTER"):
        k = upper.find(word)
        if 0 <= k < cut:
            cut = k
    return text[:cut], text[cut:]


def drop_trigger(dc: Any, spec: DropTrigger) -> None:
    for group in dc.schema.triggers.values():
        for t in group:
            if t.name == spec.name and (spec.owner is None or t.owner == spec.owner):
                _drop_trigid(dc.conn, t.trigid)
                return
    if not spec.if_exists:
        raise EngineError(sc.NO_OBJECT, near=spec.name)


def _drop_trigid(conn: sqlite3.Connection, trigid: int) -> None:
    for table in ("systriggers", "systrigbody", "_ifx_trig"):
        conn.execute(f"DELETE FROM {table} WHERE trigid = ?", (trigid,))
    conn.execute(f"DROP VIEW IF EXISTS {quote(f'_ifx_t_{trigid}')}")


def drop_for_table(conn: sqlite3.Connection, tabid: int) -> None:
    """DROP TABLE / DROP VIEW drops the table's triggers with it."""
    try:
        ids = [r[0] for r in conn.execute("SELECT trigid FROM systriggers WHERE tabid = ?",
                                          (tabid,))]
    except sqlite3.OperationalError:
        return
    for trigid in ids:
        _drop_trigid(conn, trigid)


# ---- firing -----------------------------------------------------------------------------------
def _active(s: FeatureSession, table: str, event: str, updated: list[str] | None
            ) -> list[Trigger]:
    """The enabled triggers ``event`` fires on ``table``: its own and those of its
    supertables, which "By default, any trigger that you define on a typed table ... is
    inherited by all its subtables"; a subtable's own trigger for the same event fires as
    well rather than overriding the inherited one (Informix 11.10 on; Guide to SQL: Syntax,
    "Trigger Inheritance in a Table Hierarchy", ids_sqs_0588). Disabling a subtable's
    triggers (SET TRIGGERS FOR t) leaves the inherited ones alone (same page): a trigger's
    mode is its own. In creation order (our reading: the page gives none)."""
    schema = s.current_schema()
    found = []
    name: str | None = table
    while name is not None:
        for t in schema.triggers.get(name, ()):
            if t.event != event or not t.enabled:
                continue
            if event == "U" and t.columns and updated is not None and not (
                    set(t.columns) & set(updated)):
                continue
            found.append(t)
        info = schema.tables.get(name)
        name = info.supertable if info is not None else None
    return sorted(found, key=lambda t: t.trigid)


class _Firing:
    """Runs one trigger's actions with the session's SPL interpreter."""

    def __init__(self, s: FeatureSession, trig: Trigger) -> None:
        # import cycle at load: calls -> translate -> triggers
        from .spl.calls import runtime
        from .spl.interp import Interp

        self.s = s
        self.trig = trig
        self.body = trigger_body(trig)
        self.rt = runtime(s)
        routine = Routine(0, trig.name, trig.owner, False, [], [])
        self.frame = Frame(self.rt, routine, a.RoutineBody(a.Block(0), 0, []))
        self.interp: Interp = Interp(self.rt, self.frame)

    def actions(self, actions: list[Action], info: TableInfo | None = None,
                rowid: object = None) -> None:
        # the routines a trigger calls are free of the DML-context restrictions (ids_sqs_1755);
        # one Python frame per cascade level, as before (61 levels must fit the stack)
        scope = self.body.scope
        self.rt.firing += 1
        try:
            for action in actions:
                if action.when is not None and not self.interp.truth(action, "w", action.when,
                                                                      scope):
                    continue
                for stmt in action.stmts:
                    if isinstance(stmt, a.CallSpec):
                        self.call(stmt, scope, info, rowid)
                    else:
                        assert isinstance(stmt, a.Sql)
                        self.interp.s_sql(stmt, scope)
        finally:
            self.rt.firing -= 1

    def call(self, stmt: a.CallSpec, scope: dict[str, a.VarDecl], info: TableInfo | None,
             rowid: object) -> None:
        if not stmt.into:
            self.interp.s_call(stmt, scope)
            return
        row, rtypes = self.interp.call_one(stmt, scope)
        if not row or info is None:
            return
        new = self.frame.rows.get(-3)
        for col, value, ty in zip(stmt.into, row, rtypes, strict=False):
            column = info.by_name.get(col)
            if column is None:
                raise EngineError(sc.NO_COLUMN, near=col)
            stored = self.interp.recast(value, ty, column.type)
            if new is not None:
                new[col] = stored
        if new is not None:
            self.write_back(info, rowid, {c: new[c] for c in stmt.into})

    def write_back(self, info: TableInfo, rowid: object, values: dict[str, object]) -> None:
        if not values or rowid is None or info.kind != "T":
            return
        sets = ", ".join(f"{quote(c)} = ?" for c in values)
        try:
            self.s._connection().execute(
                f"UPDATE {info.schema}.{quote(info.name)} SET {sets} WHERE rowid = ?",
                [*values.values(), rowid])
        except sqlite3.Error as e:
            raise self.s._map_error(e, Plan("update", StmtType.UPDATE, table=info)) from None

    def row(self, info: TableInfo, rowid: object, old: dict[str, object] | None,
            new: dict[str, object] | None) -> None:
        rows: dict[int, dict[str, object]] = {EVENT_ROW: {"event": self.trig.event}}
        if old is not None:
            rows[-2] = old
        if new is not None:
            rows[-3] = new
        self.frame.rows = rows
        before = dict(new) if new is not None else None
        self.actions(self.body.each_row, info, rowid)
        if new is not None and before is not None:
            changed = {c: v for c, v in new.items() if before.get(c) != v}
            self.write_back(info, rowid, changed)


def _guarded(s: FeatureSession, run: Any) -> Any:
    """Run a triggering statement with its triggers atomically, at most MAX_CASCADE deep.

    A failure's row-lock undo entries are not dropped here: every caller runs inside the
    session's write path (``_write``, ``rl_write``), whose write unit or nested attempt
    drops them before an SPL handler can catch the error (docs/SERVER.md, "A failing
    statement in a transaction"; tests/integration/test_spl_exception_undo.py)."""
    # import cycle at load: calls -> translate -> triggers
    from .spl.calls import runtime

    rt = runtime(s)
    if rt.trigger_depth >= MAX_CASCADE:
        raise EngineError(sc.TRIGGER_CASCADE)
    conn = s._connection()
    name = f"ifxwire_trig_{rt.trigger_depth}"
    conn.execute(f"SAVEPOINT {name}")
    rt.trigger_depth += 1
    try:
        result = run()
    except BaseException:
        if conn.in_transaction:
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
        raise
    finally:
        rt.trigger_depth -= 1
    conn.execute(f"RELEASE {name}")
    return result


def run_merge(s: FeatureSession, plan: Plan, bound: dict[str, object]) -> ExecResult:
    """MERGE's statements in order (translate_dml.compile_merge), each with its triggers;
    MERGE_ROWID is bound to the target's largest rowid before the first runs.

    The parts of an UPDATE or DELETE on a supertable (translate_dml.hierarchy_dml) are one
    statement: a trigger the parts' tables share (the supertable's, inherited) runs its
    BEFORE actions once, before its first part, and its AFTER actions once, after its last;
    its FOR EACH ROW actions for every row of every part (our reading of "BEFORE ... once,
    before the statement" for a statement that reaches several tables)."""
    if plan.stmt_type in (StmtType.UPDATE, StmtType.DELETE):
        event = _EVENTS[plan.parts[0].kind]
        active = [{t.trigid for t in _active(s, part.table.name, event, part.updated)}
                  if part.table is not None else set() for part in plan.parts]
        total = 0
        for i, part in enumerate(plan.parts):
            before = set().union(*active[:i])
            after = set().union(*active[i + 1:])
            total += run_dml(s, part, bound, skip_before=before, skip_after=after).rowcount
        return ExecResult(total)
    info = plan.table
    if info is not None and len(plan.parts) > 1:
        row = s._connection().execute(
            f"SELECT COALESCE(MAX(rowid), 0) FROM {quote(info.schema)}.{quote(info.name)}"
        ).fetchone()
        bound = {**bound, MERGE_ROWID: int(row[0])}
    return ExecResult(sum(run_dml(s, part, bound).rowcount for part in plan.parts))


def _serials(s: FeatureSession) -> tuple[int, int]:
    return s.state.last_serial, s.state.last_serial8


def _restore_serials(s: FeatureSession, saved: tuple[int, int]) -> None:
    """Guide to SQL: Syntax, DBINFO 'sqlca.sqlerrd1' (ids_sqs_1487): "the SQLCA structure
    does not record serial values that are inserted by triggers", so the serials a triggered
    action inserts are forgotten and DBINFO keeps the triggering statement's own."""
    s.state.last_serial, s.state.last_serial8 = saved


def run_dml(s: FeatureSession, plan: Plan, bound: dict[str, object],
            skip_before: set[int] | None = None, skip_after: set[int] | None = None
            ) -> ExecResult:
    """INSERT/UPDATE/DELETE with the table's triggers (called under the write lock);
    ``skip_before``/``skip_after``: triggers whose BEFORE/AFTER actions another part of the
    same statement runs (run_merge)."""
    info = plan.table
    event = _EVENTS.get(plan.kind)
    if info is None or event is None:
        return s._dml(plan, bound)
    capture = CAPTURE.dml(s, info)  # change data capture (cdc/routines.py)
    other = database_of(info)
    if other is not None:  # a table of another database: its triggers would run here
        theirs = s._attached[other]
        name: str | None = info.name
        while name is not None and not theirs.triggers.get(name):  # inherited ones too
            up = theirs.tables.get(name)
            name = up.supertable if up is not None else None
        if name is not None:
            raise not_implemented(f"a write into {other}:{info.name}, which has triggers")
        if capture is None:
            return s._dml(plan, bound)
    trigs = _active(s, info.name, event, plan.updated) if other is None else []
    if not trigs and not plan.view_check and capture is None:
        return s._dml(plan, bound)

    def run() -> ExecResult:
        firings = [_Firing(s, t) for t in trigs]
        serials = _serials(s)
        for f in firings:
            if not skip_before or f.trig.trigid not in skip_before:
                f.actions(f.body.before)
        _restore_serials(s, serials)
        each = [f for f in firings if f.body.each_row]
        streamed: ExecResult | None = None
        if (capture is not None and not each and plan.kind != "insert"
                and not plan.view_check and plan.old_sql):
            # None: run again the RETURNING way below (captured_dml.change_captured)
            streamed = change_captured(s, plan, bound, info, capture)
        if not each and capture is None:
            written: list[tuple[object, ...]] | None = [] if plan.view_check else None
            result = s._dml(plan, bound, returning=written)
            serials = _serials(s)
            if written:
                check_rows(s._connection(), plan, [r[0] for r in written])
        elif (not each and plan.kind == "insert" and not plan.view_check
              and SELECT_WORD in plan.sql.upper()):
            assert capture is not None
            result = insert_captured(s, plan, bound, info, capture)
            serials = _serials(s)
        elif streamed is not None:
            result = streamed
            serials = _serials(s)
        else:
            cols = [c.name for c in info.columns]
            old: dict[object, tuple[object, ...]] = {}
            if plan.kind == "update" and plan.old_sql:
                try:
                    old = {r[0]: r[1:] for r in s._connection().execute(plan.old_sql, bound)}
                except sqlite3.Error as e:
                    raise s._map_error(e, plan) from None
            changed: list[tuple[object, ...]] = []
            result = s._dml(plan, bound, returning=changed)
            serials = _serials(s)
            check_rows(s._connection(), plan, [r[0] for r in changed])
            for r in changed:
                rowid, values = r[0], r[1:]
                new = dict(zip(cols, values, strict=True)) if plan.kind != "delete" else None
                before = old.get(rowid) if plan.kind == "update" else (
                    values if plan.kind == "delete" else None)
                if capture is not None:
                    capture(plan.kind, before, values if plan.kind != "delete" else None)
                oldrow = dict(zip(cols, before, strict=True)) if before is not None else None
                for f in each:
                    f.row(info, rowid, oldrow, dict(new) if new is not None else None)
        for f in firings:
            if not skip_after or f.trig.trigid not in skip_after:
                f.actions(f.body.after)
        _restore_serials(s, serials)
        s.state.last_rowcount = result.rowcount
        return result

    mark = CAPTURE.mark(s)
    try:
        result: ExecResult = _guarded(s, run)
    except BaseException:
        CAPTURE.reset(s, mark)
        raise
    CAPTURE.unmark(s, mark)
    return result


# ---- INSTEAD OF triggers on views ---------------------------------------------------------------
def compile_instead(c: Compiler, ast: exp.Expr) -> Plan | None:
    """DML on a view that has an INSTEAD OF trigger for it: a query producing the rows the
    trigger receives (NEW for INSERT; OLD and the SET values for UPDATE; OLD for DELETE)."""
    target = ast.this
    if isinstance(target, exp.Schema):
        target = target.this
    if not isinstance(target, exp.Table):
        return None
    lookup = c.lookup
    schema_of = getattr(lookup, "current_schema", None)
    if schema_of is None:
        return None
    if target.args.get("catalog") is not None:
        return None  # another database's view: no INSTEAD OF triggers run there
    owner = target.args.get("db")
    try:
        info = lookup.resolve(target.name.lower() if not target.this.quoted else target.name,
                              owner.name if owner else None, None, 0)
    except EngineError:
        return None  # the ordinary path reports it
    if info.kind != "V":
        return None
    kind = "insert" if isinstance(ast, exp.Insert) else (
        "update" if isinstance(ast, exp.Update) else "delete")
    event = _EVENTS[kind].lower()
    if not any(t.event == event for t in schema_of().triggers.get(info.name, ())):
        return None
    c.remember(info)
    view_cols = [col.name for col in info.columns]
    types = [col.type for col in info.columns]
    if kind == "insert":
        names = view_cols
        if isinstance(ast.this, exp.Schema):
            names = [c._ident(e) for e in ast.this.expressions]
            for n in names:
                if n not in info.by_name:
                    raise EngineError(sc.NO_COLUMN, near=n)
        source = ast.expression
        ntypes = [info.by_name[n].type for n in names]
        if isinstance(source, exp.Values):
            if len(source.expressions) != 1:
                raise EngineError(sc.SYNTAX)
            row = source.expressions[0]
            values = row.expressions if isinstance(row, exp.Tuple) else [row]
            if len(values) != len(names):
                raise EngineError(sc.INSERT_COUNT)
            c.allow_bare_params = True
            query = c.compile_query(exp.Select(expressions=[v.copy() for v in values]), ntypes)
        else:
            query = c.compile_query(source, ntypes)
            if len(query.types) != len(names):
                raise EngineError(sc.INSERT_COUNT)
        updated = names
    else:
        alias = target.alias or info.name
        projections: list[exp.Expr] = [exp.column(n, alias) for n in view_cols]
        updated = []
        expected = list(types)
        if kind == "update":
            for eq in ast.expressions:
                if not isinstance(eq, exp.EQ) or not isinstance(eq.this, exp.Column):
                    raise not_implemented("UPDATE SET (list) = (list)")
                name = c._ident(eq.this)
                if name not in info.by_name:
                    raise EngineError(sc.NO_COLUMN, near=name)
                updated.append(name)
                projections.append(eq.expression.copy())
                expected.append(info.by_name[name].type)
        select = exp.Select(expressions=projections).from_(target.copy())
        where = ast.args.get("where")
        if where is not None:
            select.set("where", where.copy())
        c.allow_bare_params = True
        query = c.compile_query(select, expected)
    stmt_type = {"insert": StmtType.INSERT, "update": StmtType.UPDATE,
                 "delete": StmtType.DELETE}[kind]
    plan = Plan("instead", stmt_type, sql=query.sql, table=info, params=query.params)
    plan.updated = updated
    return plan


def run_instead(s: FeatureSession, plan: Plan, bound: dict[str, object]) -> ExecResult:
    info = plan.table
    assert info is not None
    event = {int(StmtType.INSERT): "i", int(StmtType.UPDATE): "u",
             int(StmtType.DELETE): "d"}[plan.stmt_type]
    trigs = [t for t in s.current_schema().triggers.get(info.name, ()) if t.event == event]
    if not trigs:
        raise not_implemented("INSERT/UPDATE/DELETE on a view")
    cols = [c.name for c in info.columns]
    n = len(cols)
    updated = plan.updated or []

    def run() -> ExecResult:
        try:
            rows = list(s._connection().execute(plan.sql, bound))
        except sqlite3.Error as e:
            raise s._map_error(e, plan) from None
        firings = [_Firing(s, t) for t in trigs]
        serials = _serials(s)
        for r in rows:
            new: dict[str, object] | None
            if event == "i":
                new = dict.fromkeys(cols)
                new.update(zip(updated, r, strict=True))
                old = None
            else:
                old = dict(zip(cols, r[:n], strict=True))
                new = None
                if event == "u":
                    new = dict(old)
                    new.update(zip(updated, r[n:], strict=True))
            for f in firings:
                f.row(info, None, old, new)
        _restore_serials(s, serials)
        s.state.last_rowcount = len(rows)
        return ExecResult(len(rows))

    result: ExecResult = _guarded(s, run)
    return result


FEATURES.triggers = load_triggers  # the catalogue reads triggers through it


# The statement parser (sql layer) reads these statements through its hooks (sql/hooks.py).
PARSERS.create_trigger = parse_create_trigger
PARSERS.drop_trigger = parse_drop_trigger


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.compile_instead = compile_instead
