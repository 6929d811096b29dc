"""What a started violations table changes beyond FILTERING (docs/SERVER.md, "Object modes",
thirtieth session; object_modes.py keeps the tables and the filter triggers).

* Enabling a disabled constraint or unique index (SET CONSTRAINTS / SET INDEXES … ENABLED
  or FILTERING) over rows that break it, with a violations table started: the rows are
  copied to the violations table (informix_optype 'S', SET Database Object Mode:
  ids_sqs_1221) with their diagnostics rows, the object stays disabled and the statement
  fails with -971 while the copies stay (ids_sqs_0319, step 3). More diagnostics rows than
  MAX ROWS: -899, nothing copied (ids_sqs_1232 counts SET Database Object Mode among the
  statements MAX ROWS limits). Without a violations table the enabling fails as it did, with
  the object's own error (ids_sqs_1212: the rows "are not filtered out").
* DROP TABLE or ALTER TABLE of a started violations or diagnostics table: -897; ALTER TABLE
  adding, dropping or modifying a column of the target: -898 (ids_sqs_0741, ids_sqs_1232,
  ids_adr_0826, ids_adr_0760).
* DROP TABLE of the target in the default cascade mode drops its violations and diagnostics
  tables and the sysviolations row; DROP TABLE … RESTRICT fails (ids_sqs_1228, ids_sqs_1235).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError, KeptWorkError, not_implemented
from ..schema.catalog import TableInfo, quote
from ..sql.plan import Plan
from ..sql.statement_specs import AlterFragment, AlterTable, DropObject, Rename, TableName
from ..sql.statements_ext import ConstraintModeSpec
from . import object_modes
from .ddl import drop
from .trigger_parse import CreateTrigger

if TYPE_CHECKING:
    from .ddl import DdlContext


#: the DDL statements ``before_ddl`` looks at
_CHECKED = frozenset(("drop_table", "alter_table", "alter_fragment", "rename_table",
                      "rename_column", "create_trigger"))


def set_constraint_modes(dc: DdlContext, spec: ConstraintModeSpec) -> None:
    """SET CONSTRAINTS: ENABLED or FILTERING of disabled constraints checks their rows first
    (``_enabling``), then object_modes sets the modes."""
    if spec.mode in ("ENABLED", "FILTERING"):
        try:
            chosen = object_modes.chosen_constraints(dc, spec)
        except EngineError:
            chosen = []  # (a name that is no constraint: object_modes says so)
        _enabling(dc, [("C", str(r[0]), int(r[1])) for r in chosen if r[3] == "D"])
    object_modes.set_constraint_modes(dc, spec)


def set_indexes(dc: DdlContext, spec: ConstraintModeSpec) -> None:
    """SET INDEXES: the same for disabled unique indexes."""
    if spec.mode in ("ENABLED", "FILTERING"):
        tabid = None
        if spec.table is not None:
            tabid = dc.resolve(spec.table.name, spec.table.owner, None, 0).tabid
        chosen = [("I", str(n), int(t)) for n, t in dc.conn.execute(
            "SELECT o.name, o.tabid FROM sysobjstate o JOIN sysindices i ON i.idxname = "
            "o.name AND i.tabid = o.tabid WHERE o.objtype = 'I' AND o.state = 'D' AND "
            "i.idxtype = 'U'")
            if (tabid is None and spec.names is not None and n in spec.names)
            or t == tabid]
        _enabling(dc, chosen)
    object_modes.set_indexes(dc, spec)


def _enabling(dc: DdlContext, chosen: list[tuple[str, str, int]]) -> None:
    """The disabled objects about to be enabled: when rows break them and their table has
    a violations table, copy those rows there (optype 'S') with a diagnostics row per
    object a row breaks, and fail with -971 keeping the copies; -899 when that is more
    diagnostics rows than MAX ROWS."""
    by_tabid = {t.tabid: t for t in dc.schema.tables.values()}
    for tabid in sorted({t for _, _, t in chosen}):
        info = by_tabid.get(tabid)
        started = object_modes.started(dc.conn, tabid)
        if info is None or started is None:
            continue  # no violations table: enabling fails with the object's own error
        states = {(k, n): "D" for k, n, t in chosen if t == tabid}
        broken: list[tuple[str, str, str, set[int]]] = []
        for kind, owner, name, _state, cond in object_modes.objects(
                dc, info, dc.schema.tables, states):
            test = cond.replace("{self}", " AND rowid IS NOT NEW.rowid")
            rowids = {int(r[0]) for r in dc.conn.execute(
                f"SELECT rowid FROM {quote(info.name)} AS NEW WHERE {test}")}
            if rowids:
                broken.append((kind, owner, name, rowids))
        if broken:
            _copy(dc, info, started, broken)


def _copy(dc: DdlContext, info: TableInfo, started: tuple[str, str, int | None],
          broken: list[tuple[str, str, str, set[int]]]) -> None:
    vio, dia, maxrows = started
    if maxrows is not None and sum(len(r) for *_, r in broken) > maxrows:
        raise EngineError(sc.TOO_MANY_VIOLATIONS)
    conn = dc.conn
    vio_cols = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({quote(vio)})")}
    cols = ", ".join(quote(c.name) for c in info.columns if c.name in vio_cols)
    top = int(conn.execute(f"SELECT COALESCE(MAX(informix_tupleid), 0) FROM {quote(vio)}"
                           ).fetchone()[0])
    for rowid in sorted(set().union(*(r for *_, r in broken))):
        top += 1
        conn.execute(f"INSERT INTO {quote(vio)} ({cols}, informix_tupleid, informix_optype, "
                     f"informix_recowner) SELECT {cols}, ?, 'S', ? FROM {quote(info.name)} "
                     "WHERE rowid = ?", (top, dc.user, rowid))
        for kind, owner, name, rowids in broken:
            if rowid in rowids:
                conn.execute(f"INSERT INTO {quote(dia)} VALUES (?, ?, ?, ?)",
                             (top, kind, owner, name))
    raise KeptWorkError(sc.INTEGRITY_VIOLATIONS)


def before_ddl(dc: DdlContext, kind: str, spec: object) -> None:
    """Before DROP TABLE, ALTER TABLE, ALTER FRAGMENT ON TABLE, RENAME COLUMN or CREATE
    TRIGGER: -897 for a started violations or diagnostics table, -898 for a change to a
    target's columns or fragmentation; a target dropped in cascade mode takes its two tables
    with it (dropped here first), in RESTRICT mode it is refused. One small read when no
    violations table is started anywhere."""
    if kind not in _CHECKED:
        return
    if dc.conn.execute("SELECT 1 FROM sysviolations LIMIT 1").fetchone() is None:
        return
    if isinstance(spec, CreateTrigger):
        name = spec.trigger.table
    elif isinstance(spec, DropObject):
        name = spec.name.name
    else:
        assert isinstance(spec, AlterTable | AlterFragment | Rename)
        if isinstance(spec, AlterFragment) and spec.index:
            return  # (an index on a violations table is allowed: ids_sqs_1228)
        name = spec.table.name
    info = dc.schema.tables.get(name)
    if info is None or info.temp:
        return  # (object_modes' and ddl's own answers)
    row = dc.conn.execute("SELECT targettid, viotid, diatid FROM sysviolations WHERE ? IN "
                          "(targettid, viotid, diatid)", (info.tabid,)).fetchone()
    if row is None:
        return
    if info.tabid != row[0]:
        # ids_sqs_1228 / ids_sqs_1232: no triggers on them either [inferred code]
        raise EngineError(sc.VIOLATIONS_ALTER, near=info.name)
    if isinstance(spec, CreateTrigger):
        return  # (the target may have triggers)
    if isinstance(spec, AlterTable):
        if spec.add or spec.drop or spec.modify:
            raise EngineError(sc.VIOLATIONS_TARGET_ALTER, near=info.name)
        return
    if isinstance(spec, AlterFragment | Rename):
        # ids_sqt_269: "you cannot alter the columns or the fragmentation of the base table"
        # [inferred code]; RENAME TABLE is not forbidden (sysviolations keeps tabids)
        if isinstance(spec, AlterFragment) or spec.kind == "COLUMN":
            raise EngineError(sc.VIOLATIONS_TARGET_ALTER, near=info.name)
        return
    if spec.restrict:
        # ids_sqs_1228: "If the target table is dropped in the restricted mode, the DROP
        # TABLE operation fails"; the code is not given
        raise not_implemented("DROP TABLE … RESTRICT of a table with a violations table")
    started = object_modes.started(dc.conn, info.tabid)
    dc.conn.execute("DELETE FROM sysviolations WHERE targettid = ?", (info.tabid,))
    assert started is not None
    for table in started[:2]:
        drop(dc, DropObject("TABLE", TableName(table, info.owner)))


def check_insert(conn: sqlite3.Connection | None, plan: Plan) -> None:
    """An INSERT that selects from its target's violations table while the target has a
    filtering constraint or unique index: -973 "Cannot insert from the violations table to
    the target table." (ids_adr_0815; ids_sqs_1228). Called for every statement the client
    prepares (session.prepare) and every DML statement of an SPL routine, each time it runs
    (spl/embedded_sql.py); it reads nothing unless the statement is an INSERT that reads a
    table besides its target, and then one small read when no violations table is started
    anywhere."""
    target = plan.table
    if plan.kind != "insert" or len(plan.tables) < 2 or target is None or conn is None:
        return
    if conn.execute("SELECT 1 FROM sysviolations LIMIT 1").fetchone() is None:
        return
    row = conn.execute(
        "SELECT v.tabname FROM sysviolations s JOIN systables v ON v.tabid = s.viotid "
        "WHERE s.targettid = ? AND EXISTS (SELECT 1 FROM sysobjstate o WHERE o.tabid = "
        "s.targettid AND o.state IN ('F', 'G'))", (target.tabid,)).fetchone()
    if row is not None and str(row[0]) in plan.tables:
        raise EngineError(sc.VIOLATIONS_INSERT_FROM, near=target.name)
