"""Object modes IBM documents beyond ENABLED / DISABLED: violations and diagnostics tables,
FILTERING constraints and unique indexes, and disabled indexes (docs/SERVER.md, "Object
modes").

* START VIOLATIONS TABLE FOR t [USING vio, dia] [MAX ROWS n] (ids_sqs_1211) creates ``t_vio``
  (t's columns, then informix_tupleid SERIAL, informix_optype CHAR(1), informix_recowner
  CHAR(32): ids_sqs_1221) and ``t_dia`` (informix_tupleid INTEGER, objtype CHAR(1),
  objowner CHAR(32), objname VARCHAR(128): ids_sqs_1230) and records the three tabids in
  sysviolations (ids_sqr_079). STOP removes that row; the tables stay as ordinary tables.
* A constraint or unique index in FILTERING mode (sysobjstate 'F', WITH ERROR 'G';
  ids_sqr_047) does not fail an INSERT or UPDATE: the bad row goes to the violations table
  (optype 'I'; an UPDATE's old and new row as 'O' and 'N'), one diagnostics row per object
  it breaks, and the statement goes on with the next row (ids_sqs_1103). A DELETE that
  would leave the rows of a filtering foreign key without their parent keeps the parent row
  and copies it to the parent's violations table (optype 'D'; ``referring``); an UPDATE of
  such a row's referenced key keeps it too (optype 'O' and 'N').
  Kept by one SQLite BEFORE INSERT and one BEFORE UPDATE trigger per table
  (``_ifx_filter_i`` / ``_u`` + tabid; ``_d``, BEFORE DELETE, on a table a filtering
  foreign key refers to), made again after every DDL statement (``sync``):
  their WHEN tests each filtering object, their body copies the row, writes the diagnostics
  and RAISE(IGNORE)s it, which skips that row and lets the statement go on. Without a
  started violations table the trigger raises -896; for a WITH ERROR object it raises -971
  (the statement is undone, as every failing statement is here); past MAX ROWS diagnostics
  rows in one statement -899 (ids_sqs_1216). What else a started violations table changes
  (enabling over bad rows, -897, -898, DROP TABLE's cascade) is violations.py's.
* SET INDEXES … DISABLED drops the SQLite index and keeps its definition (``_ifx_idx_off``);
  ENABLED creates it again (a unique one over duplicates: -371). A disabled index is neither
  used nor kept up to date, and a disabled unique index checks nothing.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ....protocol.codes import TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..schema import catalog as cat
from ..schema.catalog import TableInfo, quote
from ..sql.statement_specs import (
    AlterTable,
    ColumnSpec,
    ConstraintSpec,
    CreateIndex,
    CreateTable,
    TableName,
)
from ..sql.statements import parse_expressions
from ..sql.statements_ext import ConstraintModeSpec
from . import null_keys
from .alter import read_constraints, set_constraints
from .ddl import create_table

if TYPE_CHECKING:
    from ..sql.statements_ext import ViolationsSpec
    from .ddl import DdlContext

#: RAISE(ABORT) texts of the filter triggers, turned into their codes by session_errors.
NO_VIOLATIONS_GUARD = "_ifx_no_violations_table"
WITH_ERROR_GUARD = "_ifx_integrity_violations"
TOO_MANY_GUARD = "_ifx_too_many_violations"

_EXTRA = ("informix_tupleid", "informix_optype", "informix_recowner")
_SERIAL_BASE = {TypeCode.SERIAL: it.INTEGER, TypeCode.SERIAL8: it.INT8,
                TypeCode.BIGSERIAL: it.BIGINT}
_OFF = "_ifx_idx_off"
_SERIAL = it.IfxType(TypeCode.SERIAL)


def start_violations(dc: DdlContext, spec: ViolationsSpec) -> None:
    """START VIOLATIONS TABLE: the two tables and the sysviolations row. -895 when the
    table already has one, is temporary, a catalogue table or itself a violations or
    diagnostics table, or has a column of the three names (ids_adr_0804); -310 when a
    name is taken (create_table)."""
    info = dc.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
    if info.temp or info.kind != "T" or info.tabid < 100:
        raise EngineError(sc.VIOLATIONS_CREATE, near=info.name)
    if dc.conn.execute("SELECT 1 FROM sysviolations WHERE ? IN (targettid, viotid, diatid)",
                       (info.tabid,)).fetchone() is not None:
        raise EngineError(sc.VIOLATIONS_CREATE, near=info.name)
    if any(c.name in _EXTRA for c in info.columns):
        raise EngineError(sc.VIOLATIONS_CREATE, near=info.name)
    vio = spec.violations or f"{info.name}_vio"
    dia = spec.diagnostics or f"{info.name}_dia"
    # The manual keeps the target's types; a table holds one SERIAL (-362), and
    # informix_tupleid is the violations table's, so a serial column of the target is
    # copied as its integer type (ours: the manual does not say).
    columns = [ColumnSpec(c.name, _SERIAL_BASE.get(TypeCode(c.type.code), c.type).nullable()
                          if c.type.is_serial else c.type.nullable()) for c in info.columns]
    columns += [ColumnSpec("informix_tupleid", _SERIAL),
                ColumnSpec("informix_optype", it.char(1)),
                ColumnSpec("informix_recowner", it.char(32))]
    owner = info.owner
    create_table(dc, CreateTable(TableName(vio, owner), columns, []))
    create_table(dc, CreateTable(TableName(dia, owner), [
        ColumnSpec("informix_tupleid", it.INTEGER), ColumnSpec("objtype", it.char(1)),
        ColumnSpec("objowner", it.char(32)), ColumnSpec("objname", it.varchar(128))], []))
    tabids = {str(n): int(t) for n, t in dc.conn.execute(
        "SELECT tabname, tabid FROM systables WHERE tabname IN (?, ?)", (vio, dia))}
    dc.conn.execute("INSERT INTO sysviolations VALUES (?, ?, ?, ?)",
                    (info.tabid, tabids[vio], tabids[dia], spec.max_rows))


def stop_violations(dc: DdlContext, spec: ViolationsSpec) -> None:
    """STOP VIOLATIONS TABLE: the sysviolations row goes, the two tables stay (ids_sqs_1231);
    -896 when none is started (ids_adr_0832)."""
    info = dc.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
    cur = dc.conn.execute("DELETE FROM sysviolations WHERE targettid = ?", (info.tabid,))
    if cur.rowcount == 0:
        raise EngineError(sc.VIOLATIONS_NOT_STARTED, near=info.name)


def set_constraint_modes(dc: DdlContext, spec: ConstraintModeSpec) -> None:
    """SET CONSTRAINTS …: FILTERING records 'F' / 'G' in sysobjstate (a disabled constraint is
    enabled first, so SQLite checks it again); any other mode is alter.set_constraints's,
    after which no constraint it names is filtering any more."""
    drop_filters(dc.conn)
    if spec.mode != "FILTERING":
        set_constraints(dc, spec)
        return
    rows = chosen_constraints(dc, spec)
    disabled = [r for r in rows if r[3] == "D"]
    if disabled:
        set_constraints(dc, ConstraintModeSpec([str(r[0]) for r in disabled], "ENABLED"))
    state = "G" if spec.with_error else "F"
    for name, tabid, owner, _old in rows:
        _set_state(dc.conn, "C", str(owner), str(name), int(tabid), state)


def chosen_constraints(dc: DdlContext, spec: ConstraintModeSpec) -> list[tuple[Any, ...]]:
    rows = dc.conn.execute(
        "SELECT c.constrname, c.tabid, c.owner, o.state FROM sysconstraints c LEFT JOIN "
        "sysobjstate o ON o.objtype = 'C' AND o.name = c.constrname AND o.tabid = c.tabid"
    ).fetchall()
    if spec.table is not None:
        info = dc.resolve(spec.table.name, spec.table.owner, None, 0)
        return [r for r in rows if r[1] == info.tabid]
    if spec.names is None:
        return rows
    found = {str(r[0]) for r in rows}
    for name in spec.names:
        if name not in found:
            raise EngineError(sc.NO_CONSTRAINT, near=name)
    return [r for r in rows if r[0] in spec.names]


def _set_state(conn: sqlite3.Connection, objtype: str, owner: str, name: str, tabid: int,
               state: str) -> None:
    conn.execute("DELETE FROM sysobjstate WHERE objtype = ? AND name = ? AND tabid = ?",
                 (objtype, name, tabid))
    conn.execute("INSERT INTO sysobjstate VALUES (?, ?, ?, ?, ?)",
                 (objtype, owner, name, tabid, state))


def set_indexes(dc: DdlContext, spec: ConstraintModeSpec) -> None:
    """SET INDEXES {name[, …] | FOR table} {ENABLED | DISABLED | FILTERING …}: -319 for a name
    that is no index. FILTERING is for unique indexes (ids_sqs_1100): a duplicate index
    takes ENABLED or DISABLED only (-201, the grammar's answer; ours). The index of a
    constraint follows its constraint (SET CONSTRAINTS), so it is refused here (-999)."""
    drop_filters(dc.conn)
    rows = dc.conn.execute(
        "SELECT idxname, tabid, owner, idxtype FROM sysindices WHERE tabid >= 100").fetchall()
    if spec.table is not None:
        info = dc.resolve(spec.table.name, spec.table.owner, None, 0)
        rows = [r for r in rows if r[1] == info.tabid]
    else:
        assert spec.names is not None
        found = {str(r[0]) for r in rows}
        for name in spec.names:
            if name not in found:
                raise EngineError(sc.NO_INDEX, near=name)
        rows = [r for r in rows if r[0] in spec.names]
    owned = {str(r[0]) for r in dc.conn.execute(
        "SELECT idxname FROM sysconstraints WHERE idxname IS NOT NULL")}
    if spec.table is not None:
        rows = [r for r in rows if str(r[0]) not in owned]
    for name, tabid, owner, idxtype in rows:
        name = str(name)
        if name in owned:
            raise EngineError(sc.NOT_IMPLEMENTED, near=name, message=(
                f"Not implemented yet: SET INDEXES on {name}, the index of a constraint "
                "(SET CONSTRAINTS sets its mode)"))
        unique = str(idxtype).strip() == "U"
        if spec.mode == "FILTERING" and not unique:
            raise EngineError(sc.SYNTAX, near=name)
        if spec.mode == "FILTERING" and dc.conn.execute(
                "SELECT 1 FROM sysviolations WHERE ? IN (viotid, diatid)", (tabid,)
                ).fetchone() is not None:
            # ids_sqs_1228, ids_sqs_1232: not on a violations or diagnostics table [inferred
            # code]
            raise EngineError(sc.VIOLATIONS_ALTER, near=name)
        if spec.mode == "DISABLED":
            _disable_index(dc.conn, name)
            state = "D"
        else:
            _enable_index(dc.conn, name)
            state = "E" if spec.mode == "ENABLED" else ("G" if spec.with_error else "F")
        _set_state(dc.conn, "I", str(owner), name, int(tabid), state)


def _off_table(conn: sqlite3.Connection) -> None:
    conn.execute(f"CREATE TABLE IF NOT EXISTS {_OFF} (idxname TEXT PRIMARY KEY, sql TEXT)")


def _disable_index(conn: sqlite3.Connection, name: str) -> None:
    """Drop the SQLite index (and a unique one's NULL-key companion), keeping both
    definitions to create them again."""
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN "
                        "(?, ?)", (name, null_keys.companion(name))).fetchall()
    if not rows:
        return  # disabled already
    _off_table(conn)
    for iname, sql in rows:
        conn.execute(f"INSERT INTO {_OFF} VALUES (?, ?) ON CONFLICT (idxname) DO UPDATE "
                     "SET sql = excluded.sql", (iname, sql))  # (not OR REPLACE: changelog.py)
        conn.execute(f"DROP INDEX {quote(str(iname))}")


def _enable_index(conn: sqlite3.Connection, name: str) -> None:
    """Create the disabled index again: a unique one over rows that now clash is -371."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ? AND type = 'table'",
                    (_OFF,)).fetchone() is None:
        return
    for iname in (name, null_keys.companion(name)):
        row = conn.execute(f"SELECT sql FROM {_OFF} WHERE idxname = ?", (iname,)).fetchone()
        if row is None:
            continue
        try:
            conn.execute(str(row[0]))
        except sqlite3.IntegrityError:
            raise EngineError(sc.UNIQUE_INDEX_DUPS) from None
        conn.execute(f"DELETE FROM {_OFF} WHERE idxname = ?", (iname,))


def creation_mark(dc: DdlContext, spec: object) -> int | None:
    """Before a CREATE TABLE, ALTER TABLE or CREATE INDEX that names an object mode
    (DISABLED, FILTERING …): the last constrid, so ``creation_modes`` finds the constraints
    the statement makes; None when it names none (nothing to do). A temporary table's
    objects are enabled only: -891."""
    if isinstance(spec, CreateIndex):
        if spec.mode and spec.table.name in dc.temp_tables:
            raise EngineError(sc.TEMP_OBJECT_MODE)
        return 0 if spec.mode else None
    if not _moded(spec):
        return None
    table = getattr(spec, "table", None)
    if getattr(spec, "temp", False) or getattr(table, "name", None) in dc.temp_tables:
        raise EngineError(sc.TEMP_OBJECT_MODE)
    return int(dc.conn.execute("SELECT COALESCE(MAX(constrid), 0) FROM sysconstraints"
                               ).fetchone()[0])


def _moded(spec: object) -> list[ConstraintSpec]:
    """The constraints of a CREATE TABLE / ALTER TABLE that name a mode."""
    if isinstance(spec, CreateTable):
        found = list(spec.constraints) + [c for col in spec.columns for c in col.constraints]
    elif isinstance(spec, AlterTable):
        found = list(spec.add_constraints) + [c for col in spec.add + spec.modify
                                              for c in col.constraints]
    else:
        return []
    return [c for c in found if c.mode]


def creation_modes(dc: DdlContext, spec: object, mark: int) -> None:
    """After the statement made its objects: each one created DISABLED or FILTERING is set
    to that mode as SET CONSTRAINTS / SET INDEXES would (ids_sqs_0529: the modes a
    constraint may be created in; a constraint or index made so over rows that break it
    fails as an enabled one does, a difference SERVER.md lists). An unnamed constraint is
    found among the statement's new ones by its kind and columns."""
    def mode_spec(names: list[str], mode: str) -> ConstraintModeSpec:
        word = mode.split()[0]
        return ConstraintModeSpec(names, word, None, mode.endswith("WITH ERROR"))

    if isinstance(spec, CreateIndex):
        assert spec.mode is not None
        set_indexes(dc, mode_spec([spec.name.name], spec.mode))
        return
    schema = cat.load_schema(dc.conn)
    dc = replace(dc, schema=schema)  # (the statement's new table: SET CONSTRAINTS reads it)
    new = []
    for info in schema.tables.values():
        if info.kind == "T" and not info.temp:
            new += [c for c in read_constraints(dc.conn, info, schema.tables)
                    if c.constrid > mark]
    new.sort(key=lambda c: c.constrid)
    used: set[str] = set()
    for cons in _moded(spec):
        assert cons.mode is not None
        match = next((c for c in new if c.name not in used and (
            c.name == cons.name if cons.name else
            c.kind == cons.kind and (cons.kind == "C" or c.columns == cons.columns))), None)
        if match is None:
            continue  # (a NOT NULL of a column already NOT NULL: no new constraint)
        used.add(match.name)
        set_constraint_modes(dc, mode_spec([match.name], cons.mode))


def sync(dc: DdlContext) -> None:
    """After every DDL statement: the filter triggers of the tables that have a filtering
    object, made again (a rebuild, a START or STOP, a new constraint changes them), and
    sysviolations rows whose tables are gone dropped, and the disabled indexes an ALTER
    TABLE's rebuild made again dropped again. Two small reads when nothing filters or is
    disabled (sysobjstate's F, G and disabled-index rows, sysviolations' first row)."""
    conn = dc.conn
    tabids: set[int] = set()
    for tabid, name, state in conn.execute(
            "SELECT tabid, name, state FROM sysobjstate WHERE state IN ('F', 'G') "
            "OR (objtype = 'I' AND state = 'D')").fetchall():
        if state == "D":
            _disable_index(conn, str(name))  # ALTER TABLE's rebuild made it again
        else:
            tabids.add(int(tabid))
    if conn.execute("SELECT 1 FROM sysviolations LIMIT 1").fetchone() is not None:
        conn.execute("DELETE FROM sysviolations WHERE targettid NOT IN (SELECT tabid FROM "
                     "systables) OR viotid NOT IN (SELECT tabid FROM systables) OR diatid "
                     "NOT IN (SELECT tabid FROM systables)")
    if not tabids:
        return
    drop_filters(conn)
    tables = dc.schema.tables
    by_tabid = {t.tabid: t for t in tables.values()}
    # the tables filtering foreign keys refer to: their DELETE filter triggers
    marks = ", ".join("?" * len(tabids))
    refs = conn.execute(
        "SELECT r.ptabid, c.tabid FROM sysreferences r JOIN sysconstraints c ON c.constrid "
        f"= r.constrid WHERE c.tabid IN ({marks})", sorted(tabids)).fetchall()
    if any(int(t) not in by_tabid for ref in refs for t in ref):
        tables = cat.load_schema(conn).tables  # (a table the statement made: see below)
        by_tabid = {t.tabid: t for t in tables.values()}
    tabids |= {int(r[0]) for r in refs}
    for tabid in sorted(tabids):
        info = by_tabid.get(tabid)
        names = [str(r[0]) for r in conn.execute(
            "SELECT colname FROM syscolumns WHERE tabid = ? ORDER BY colno", (tabid,))]
        if info is None or [c.name for c in info.columns] != names:
            # the statement made or changed the table: the schema as it is now (the one
            # the statement began with serves otherwise; loading it all costs ~50 ms per
            # thousand tables)
            tables = cat.load_schema(conn).tables
            by_tabid = {t.tabid: t for t in tables.values()}
            info = by_tabid.get(tabid)
        if info is not None and info.kind == "T":
            _install(dc, info, tables)


def drop_filters(conn: sqlite3.Connection) -> None:
    """Drop every filter trigger (``sync`` makes those still wanted again). A filter
    trigger outlives its objects' FILTERING mode only through SET CONSTRAINTS / SET INDEXES
    (a dropped or rebuilt table loses its triggers), so those call this and ``sync`` reads
    sqlite_master only when some object filters."""
    names = [str(r[0]) for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE "
        "'\\_ifx\\_filter\\_%' ESCAPE '\\'")]
    for name in names:
        conn.execute(f"DROP TRIGGER {quote(name)}")


def objects(dc: DdlContext, info: TableInfo, tables: dict[str, TableInfo],
            states: dict[tuple[str, str], str] | None = None
            ) -> list[tuple[str, str, str, str, str]]:
    """The table's filtering objects, or those ``states`` names ((objtype, name) -> state):
    (objtype C/I, owner, name, state, SQLite condition over NEW that is true when the row
    breaks the object; ``{self}`` stands for the test that leaves the updated row itself
    out)."""
    conn = dc.conn
    if states is None:
        states = {(str(t), str(n)): str(s) for t, n, s in conn.execute(
            "SELECT objtype, name, state FROM sysobjstate WHERE tabid = ? AND state IN "
            "('F', 'G')", (info.tabid,))}
    out: list[tuple[str, str, str, str, str]] = []
    table = quote(info.name)
    for cons in read_constraints(conn, info, tables):
        state = states.get(("C", cons.name))
        if state is None:
            continue
        cols = [quote(c) for c in cons.columns]
        if cons.kind == "N":
            cond = " OR ".join(f"NEW.{c} IS NULL" for c in cols)
        elif cons.kind in ("P", "U"):
            cond = _duplicate(table, cols)
            if cons.kind == "P":
                cond = " OR ".join([f"NEW.{c} IS NULL" for c in cols] + [cond])
        elif cons.kind == "C":
            expr = parse_expressions(cons.check_text, cons.delimident)[0]
            row = ", ".join(f"NEW.{quote(c.name)} AS {quote(c.name)}" for c in info.columns)
            cond = (f"EXISTS (SELECT 1 FROM (SELECT {row}) WHERE NOT "
                    f"({dc.compile_check(info, expr)}))")
        elif cons.kind == "R" and cons.parent is not None:
            keys = " AND ".join(f"{quote(p)} = NEW.{c}" for p, c in zip(
                cons.parent_columns, cols, strict=True))
            cond = (" AND ".join(f"NEW.{c} IS NOT NULL" for c in cols) +
                    f" AND NOT EXISTS (SELECT 1 FROM {quote(cons.parent)} WHERE {keys})")
        else:
            continue
        out.append(("C", cons.owner or info.owner, cons.name, state, f"({cond})"))
    by_no = {c.colno: c.name for c in info.columns}
    parts = ", ".join(f"part{i}" for i in range(1, 17))
    for (objtype, name), state in states.items():
        if objtype != "I":
            continue  # (a unique index's key from sysindices: the statement may have made it)
        row = conn.execute(f"SELECT owner, {parts} FROM sysindices WHERE idxname = ? AND "
                           "tabid = ?", (name, info.tabid)).fetchone()
        if row is None:
            continue
        cols = [quote(by_no[abs(n)]) for n in row[1:] if n and abs(n) in by_no]
        out.append(("I", str(row[0]).strip(), name, state, f"({_duplicate(table, cols)})"))
    return out


def _duplicate(table: str, cols: list[str]) -> str:
    """Another row holds the key (two NULLs are equal in an Informix unique key:
    null_keys.py)."""
    match = " AND ".join(f"{c} IS NEW.{c}" for c in cols)
    return f"EXISTS (SELECT 1 FROM {table} WHERE {match}{{self}})"


def started(conn: sqlite3.Connection, tabid: int) -> tuple[str, str, int | None] | None:
    """A target table's started violations and diagnostics tables and its MAX ROWS (None:
    no violations table); the filter triggers and violations.py read it."""
    row = conn.execute(
        "SELECT v.tabname, d.tabname, s.maxrows FROM sysviolations s JOIN systables v ON "
        "v.tabid = s.viotid JOIN systables d ON d.tabid = s.diatid WHERE s.targettid = ?",
        (tabid,)).fetchone()
    return None if row is None else (str(row[0]), str(row[1]),
                                     None if row[2] is None else int(row[2]))


def _install(dc: DdlContext, info: TableInfo, tables: dict[str, TableInfo]) -> None:
    """The table's filter triggers: INSERT and UPDATE for its own filtering objects, DELETE
    and UPDATE for the filtering foreign keys that refer to it (``referring``)."""
    found = objects(dc, info, tables)
    deleting, updating = referring(dc, info, tables)
    if not found and not deleting and not updating:
        return
    row = started(dc.conn, info.tabid)
    if found:
        _trigger(dc, info, row, "INSERT", found)
    if found or updating:
        _trigger(dc, info, row, "UPDATE", found + updating)
    if deleting:
        _trigger(dc, info, row, "DELETE", deleting)


def _trigger(dc: DdlContext, info: TableInfo, row: tuple[str, str, int | None] | None,
             event: str, found: list[tuple[str, str, str, str, str]]) -> None:
    """One filter trigger: a row that breaks one of ``found`` is copied to the violations
    table (optype I, O and N, or D), one diagnostics row per object it breaks, and skipped
    (RAISE(IGNORE)); -896 without a violations table, -971 for a WITH ERROR object, -899
    past MAX ROWS."""
    conn = dc.conn
    self_test = {"INSERT": "", "UPDATE": " AND rowid IS NOT OLD.rowid",
                 "DELETE": " AND rowid IS NOT OLD.rowid"}[event]
    conds = [(kind, owner, name, state, cond.replace("{self}", self_test))
             for kind, owner, name, state, cond in found]
    when = " OR ".join(c[4] for c in conds)
    trigger = quote(f"_ifx_filter_{event[0].lower()}{info.tabid}")
    head = f"CREATE TRIGGER {trigger} BEFORE {event} ON {quote(info.name)} WHEN {when} BEGIN "
    if row is None:
        conn.execute(f"{head}SELECT RAISE(ABORT, '{NO_VIOLATIONS_GUARD}'); END")
        return
    vio, dia = quote(str(row[0])), quote(str(row[1]))
    vio_cols = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({vio})")}
    cols = [quote(c.name) for c in info.columns if c.name in vio_cols]
    names = ", ".join(cols + [quote(c) for c in _EXTRA])
    nxt = f"(SELECT COALESCE(MAX(informix_tupleid), 0) + 1 FROM {vio})"
    cur = f"(SELECT MAX(informix_tupleid) FROM {vio})"
    body = []
    if row[2] is not None:  # MAX ROWS: the statement's first filtered row marks its base
        body.append(f"SELECT ifx_vio_base({info.tabid}, (SELECT COALESCE(MAX("
                    f"informix_tupleid), 0) FROM {vio}));")
    old = ", ".join(f"OLD.{c}" for c in cols)
    new = ", ".join(f"NEW.{c}" for c in cols)
    if event == "UPDATE":
        body.append(f"INSERT INTO {vio} ({names}) VALUES ({old}, {nxt}, 'O', ifx_user());")
        body.append(f"INSERT INTO {vio} ({names}) VALUES ({new}, {cur}, 'N', ifx_user());")
    elif event == "DELETE":
        body.append(f"INSERT INTO {vio} ({names}) VALUES ({old}, {nxt}, 'D', ifx_user());")
    else:
        body.append(f"INSERT INTO {vio} ({names}) VALUES ({new}, {nxt}, 'I', ifx_user());")
    for kind, owner, name, _state, cond in conds:
        body.append(f"INSERT INTO {dia} SELECT {cur}, '{kind}', {_lit(owner)}, "
                    f"{_lit(name)} WHERE {cond};")
    if row[2] is not None:  # more diagnostics rows than MAX ROWS: -899 (ids_sqs_1216)
        body.append(f"SELECT RAISE(ABORT, '{TOO_MANY_GUARD}') WHERE (SELECT COUNT(*) "
                    f"FROM {dia} WHERE informix_tupleid > ifx_vio_base({info.tabid}, 0))"
                    f" > {int(row[2])};")
    errors = [c[4] for c in conds if c[3] == "G"]
    if errors:
        body.append(f"SELECT RAISE(ABORT, '{WITH_ERROR_GUARD}') WHERE "
                    f"{' OR '.join(errors)};")
    if event == "DELETE":
        # the row stays: row-lock mode's undo entry for its deletion goes (session_locks)
        body.append(f"SELECT ifx_vio_kept({_lit(info.name)}, OLD.rowid);")
    body.append("SELECT RAISE(IGNORE);")
    conn.execute(head + " ".join(body) + " END")


def referring(dc: DdlContext, info: TableInfo, tables: dict[str, TableInfo]
              ) -> tuple[list[tuple[str, str, str, str, str]],
                         list[tuple[str, str, str, str, str]]]:
    """The filtering foreign keys (sysobjstate F / G) that refer to ``info``, as ``objects``
    gives a table's own objects but over OLD: for DELETE (those without ON DELETE CASCADE)
    the condition is true when deleting the row would leave rows of the referring table
    without their parent, for UPDATE when the row's referenced key changes while rows refer
    to it (ids_sqs_1103: the row stays and is copied). One small read."""
    conn = dc.conn
    refs = conn.execute(
        "SELECT c.tabid, c.constrname, o.state, r.delrule FROM sysreferences r JOIN "
        "sysconstraints c ON c.constrid = r.constrid JOIN sysobjstate o ON o.objtype = 'C' "
        "AND o.name = c.constrname AND o.tabid = c.tabid WHERE r.ptabid = ? AND o.state IN "
        "('F', 'G') ORDER BY c.constrid", (info.tabid,)).fetchall()
    deleting: list[tuple[str, str, str, str, str]] = []
    updating: list[tuple[str, str, str, str, str]] = []
    if not refs:
        return deleting, updating
    by_tabid = {t.tabid: t for t in tables.values()}
    for tabid, name, state, delrule in refs:
        child = by_tabid.get(int(tabid))
        if child is None:
            continue
        cons = next((c for c in read_constraints(conn, child, tables)
                     if c.name == name and c.kind == "R" and c.parent == info.name), None)
        if cons is None or not cons.parent_columns:
            continue
        pairs = list(zip(cons.columns, cons.parent_columns, strict=True))
        keys = " AND ".join(f"{quote(c)} = OLD.{quote(p)}" for c, p in pairs)
        own = "{self}" if child.tabid == info.tabid else ""
        cond = f"EXISTS (SELECT 1 FROM {quote(child.name)} WHERE {keys}{own})"
        owner = cons.owner or child.owner
        if delrule != "C":
            deleting.append(("C", owner, cons.name, str(state), f"({cond})"))
        changed = " OR ".join(f"OLD.{quote(p)} IS NOT NEW.{quote(p)}" for _, p in pairs)
        updating.append(("C", owner, cons.name, str(state), f"(({changed}) AND {cond})"))
    return deleting, updating


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
