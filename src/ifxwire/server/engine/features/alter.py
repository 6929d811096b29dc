"""ALTER TABLE, TRUNCATE, RENAME INDEX and constraint modes.

SQLite can add a column at the end and drop one, little more. Informix can add a column
BEFORE another, change a column's type (converting the data, with Informix's conversion
errors), and add or drop any constraint. So every ALTER TABLE rebuilds the table: the new
definition is read from the catalog (columns, defaults, constraints, indexes, constraint
modes), a table of that shape is created, the rows are copied across (converting changed
columns with the same functions as any cast), the old table is dropped, and the indexes are
made again. All in the session's transaction: a failure leaves the table as it was.

The old table is set aside by copying its rows into a TEMP table and dropping it, or, when a
foreign key names it, by renaming it (``table_aside.must_rename`` says why not always). The
copy runs with ``legacy_alter_table`` on, so renaming the old table aside does not rewrite
the foreign keys of other tables (they keep naming the table, and find the new one), and
with foreign keys deferred so a self-referencing table copies in any order; violations of
a new foreign key are then looked for explicitly (``foreign_key_check``).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace

from ..core import convert as conv
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema import catalog as cat
from ..schema.catalog import ColumnInfo, TableInfo, quote
from ..sql.exprs import lit
from ..sql.statement_specs import TableName
from ..sql.statements import AlterTable, ConstraintSpec, Rename, parse_expressions
from ..sql.statements_ext import ConstraintModeSpec, TruncateSpec
from . import (
    fragments,
    functional_index,
    inherit,
    null_keys,
    references,
    table_aside,
    temp_indexes,
)
from .alter_columns import ConsDef, NewColumn, _add, _modify
from .ddl import (
    DdlContext,
    _check_columns,
    _create_index,
    _exists,
    _next_constrid,
    _ref_target,
    _write_defaults,
    column_type,
    count_indexes,
    referenced_key,
    refuse_synonym,
)
from .ddl_defaults import (
    check_default,
    check_delimident,
    write_check,
)
from .lobs import lobstore


def _index_columns(conn: sqlite3.Connection, info: TableInfo, idxname: str) -> list[str]:
    row = conn.execute("SELECT " + ", ".join(f"part{i}" for i in range(1, 17)) +
                       " FROM sysindices WHERE idxname = ?", (idxname,)).fetchone()
    if row is None:
        return []
    by_no = {c.colno: c.name for c in info.columns}
    return [by_no[abs(n)] for n in row if n and abs(n) in by_no]


def read_constraints(conn: sqlite3.Connection, info: TableInfo,
                     tables: dict[str, TableInfo]) -> list[ConsDef]:
    by_tabid = {t.tabid: t for t in tables.values()}
    states = {str(n): s for n, s in conn.execute(
        "SELECT name, state FROM sysobjstate WHERE objtype = 'C' AND tabid = ?", (info.tabid,))}
    out: list[ConsDef] = []
    for cid, name, owner, kind, idx in conn.execute(
            "SELECT constrid, constrname, owner, constrtype, idxname FROM sysconstraints "
            "WHERE tabid = ? ORDER BY constrid", (info.tabid,)).fetchall():
        cons = ConsDef(int(cid), str(name), str(owner or "").strip(), str(kind), [], idx,
                       enabled=states.get(str(name), "E") != "D")
        if idx:
            cons.columns = _index_columns(conn, info, idx)
        else:
            by_no = {c.colno: c.name for c in info.columns}
            cons.columns = [by_no[n] for (n,) in conn.execute(
                "SELECT colno FROM syscoldepend WHERE constrid = ? ORDER BY colno", (cid,))
                if n in by_no]
        if kind == "C":
            cons.check_text = "".join(str(r[0]) for r in conn.execute(
                "SELECT checktext FROM syschecks WHERE constrid = ? AND type = 'T' "
                "ORDER BY seqno", (cid,)))
            cons.delimident = check_delimident(conn, int(cid))
        if kind == "R":
            ref = conn.execute("SELECT \"primary\", ptabid, delrule FROM sysreferences WHERE "
                               "constrid = ?", (cid,)).fetchone()
            if ref is not None:
                parent = by_tabid.get(ref[1]) or (info if ref[1] == info.tabid else None)
                if parent is not None:
                    cons.parent = parent.name
                    pidx = conn.execute("SELECT idxname FROM sysconstraints WHERE constrid = ?",
                                        (ref[0],)).fetchone()
                    cons.parent_columns = (_index_columns(conn, parent, pidx[0])
                                           if pidx else [])
                cons.cascade = ref[2] == "C"
        out.append(cons)
    return out


def _constraint_sql(dc: DdlContext, info: TableInfo, cons: ConsDef) -> str | None:
    if not cons.enabled:
        return None
    if cons.kind == "C":
        expr = parse_expressions(cons.check_text, cons.delimident)[0]
        return f"CONSTRAINT {quote(cons.name)} CHECK ({dc.compile_check(info, expr)})"
    if cons.kind == "R" and cons.parent is not None and not _typed_reference(dc, info, cons):
        cascade = " ON DELETE CASCADE" if cons.cascade else ""
        return (f"CONSTRAINT {quote(cons.name)} FOREIGN KEY "
                f"({', '.join(quote(c) for c in cons.columns)}) REFERENCES "
                f"{quote(cons.parent)} ({', '.join(quote(c) for c in cons.parent_columns)})"
                f"{cascade}")
    return None


def _typed_reference(dc: DdlContext, info: TableInfo, cons: ConsDef) -> bool:
    """Whether a foreign key is of a typed table or to one: inherit.py's triggers keep it
    (rows of subtables hold keys and references too), not a SQLite FOREIGN KEY clause."""
    names = [info.name] if cons.parent is None else [info.name, cons.parent]
    marks = ", ".join("?" * len(names))
    return dc.conn.execute(f"SELECT 1 FROM systables WHERE tabname IN ({marks}) AND "
                           "type_xid > 0", names).fetchone() is not None


def rebuild(dc: DdlContext, info: TableInfo, columns: list[NewColumn],
            constraints: list[ConsDef]) -> None:
    """Re-create ``info``'s SQLite table with ``columns`` and ``constraints`` (see the
    module docstring) and rewrite its catalog rows."""
    conn = dc.conn
    old_to_new = {}
    for i, col in enumerate(columns):
        col.info.colno = i + 1
    by_old_name = {c.name: c for c in info.columns}
    for col in columns:
        src = by_old_name.get(col.origin) if col.origin is not None else None
        if src is not None:
            old_to_new[src.colno] = col.info.colno
    new_info = TableInfo(info.name, info.tabid, info.owner, [c.info for c in columns])
    new_info.unique_indexes = {}
    functional = functional_index.set_aside(conn, info.tabid)  # no SQLite index to make
    indexes = conn.execute(
        "SELECT idxname, idxtype, " + ", ".join(f"part{i}" for i in range(1, 17)) +
        " FROM sysindices WHERE tabid = ?", (info.tabid,)).fetchall()
    live_indexes = {c.index for c in constraints if c.index}
    kept: list[tuple[str, bool, list[tuple[str, bool]]]] = []
    by_new_no = {c.info.colno: c.info.name for c in columns}
    for idxname, idxtype, *parts in indexes:
        cols = [(by_new_no[old_to_new[abs(n)]], n < 0) for n in parts
                if n and abs(n) in old_to_new]
        is_constraint = idxname.startswith(" ")  # constraint indexes: ' <tabid>_<constrid>'
        if len(cols) != len([n for n in parts if n]):
            continue  # a dropped column: the index (and its constraint) goes
        if is_constraint and idxname not in live_indexes:
            continue
        unique = idxtype == "U"
        if is_constraint:
            # A unique constraint's index that a foreign key shared outlives the dropped
            # constraint as the foreign key's own: duplicates allowed from then on.
            unique = any(c.index == idxname and c.kind in ("P", "U") for c in constraints)
        kept.append((idxname, unique, cols))
    for idxname, _, _ in [(r[0], 0, 0) for r in indexes]:
        conn.execute(f"DROP INDEX IF EXISTS {quote(idxname)}")
        null_keys.drop(conn, idxname)
    conn.execute("DELETE FROM sysindices WHERE tabid = ?", (info.tabid,))
    defs = []
    loose = _disabled_not_null(constraints)
    for col in columns:
        c = col.info
        decl = f"{quote(c.name)} {c.type.sqlite_decl}"
        if c.type.notnull and c.name not in loose:
            decl += f" CONSTRAINT {quote('n_' + c.name)} NOT NULL"
        if c.default_kind == "L" and c.default_value is not None:
            stored = _stored_default(dc, c)
            decl += " DEFAULT " + lit(stored).sql(dialect="sqlite")
        defs.append(decl)
    for cons in constraints:
        sql = _constraint_sql(dc, new_info, cons)
        if sql is not None:
            defs.append(sql)
    aside = quote("_ifx_old_" + info.name)
    renamed = table_aside.must_rename(conn, info.name)
    defer = conn.execute("PRAGMA defer_foreign_keys").fetchone()[0]
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.execute("PRAGMA defer_foreign_keys = ON")
    try:
        if renamed:
            conn.execute(f"ALTER TABLE {quote(info.name)} RENAME TO {aside}")
        else:
            table_aside.copy_aside(conn, info.name, aside)
            aside = f"temp.{aside}"
        conn.execute(f"CREATE TABLE {quote(info.name)} ({', '.join(defs)})")
        # Indexes first: a foreign key's parent key (also the table's own, when it refers to
        # itself) must be indexed before rows are checked against it.
        off = _disabled_keys(dc, constraints)
        for idxname, unique, cols in kept:
            _create_index(dc, new_info, idxname, cols, unique and idxname not in off, False)
            if unique and idxname in off:  # the catalogue keeps it unique
                conn.execute("UPDATE sysindices SET idxtype = 'U' WHERE idxname = ?",
                             (idxname,))
            elif unique:
                new_info.unique_indexes[idxname] = [c for c, _ in cols]
        names = ", ".join(quote(c.info.name) for c in columns)
        sources = ", ".join(c.source for c in columns)
        try:
            conn.execute(f"INSERT INTO {quote(info.name)} ({names}) SELECT {sources} FROM "
                         f"{aside}")
        except sqlite3.IntegrityError as e:
            raise _copy_error(str(e), constraints, info.name) from None
        if renamed:
            table_aside.point_back(conn, info.name, "_ifx_old_" + info.name)
        conn.execute(f"DROP TABLE {aside}")
        fragments.install(dc, new_info)  # the guard went with the old table
        bad = conn.execute(f"PRAGMA foreign_key_check({quote(info.name)})").fetchone()
        if bad is not None:
            name = next((c.name for c in constraints if c.kind == "R"), "")
            raise EngineError(sc.FK_NO_PARENT, near=name)
    finally:
        conn.execute("PRAGMA legacy_alter_table = OFF")
        conn.execute(f"PRAGMA defer_foreign_keys = {int(defer)}")
    conn.execute("DELETE FROM syscolumns WHERE tabid = ?", (info.tabid,))
    conn.execute("DELETE FROM sysdefaults WHERE tabid = ?", (info.tabid,))
    cat.insert_columns(conn, info.tabid, [(c.info.name, c.info.type) for c in columns])
    _write_defaults(dc, info.tabid, [c.info for c in columns])
    conn.execute("UPDATE systables SET ncols = ?, rowsize = ? WHERE tabid = ?",
                 (len(columns), cat.rowsize([c.info.type for c in columns]), info.tabid))
    functional_index.put_back(conn, functional, old_to_new)
    count_indexes(conn, info.tabid)
    for table in ("syscoldepend", "syscolauth"):
        # Renumber in two steps (through negative numbers) so no two rows collide.
        for (old,) in conn.execute(f"SELECT DISTINCT colno FROM {table} WHERE tabid = ?",
                                   (info.tabid,)).fetchall():
            colno = old_to_new.get(old)
            if colno is None:
                conn.execute(f"DELETE FROM {table} WHERE tabid = ? AND colno = ?",
                             (info.tabid, old))
            else:
                conn.execute(f"UPDATE {table} SET colno = ? WHERE tabid = ? AND colno = ?",
                             (-colno, info.tabid, old))
        conn.execute(f"UPDATE {table} SET colno = -colno WHERE tabid = ? AND colno < 0",
                     (info.tabid,))


def _disabled_not_null(constraints: list[ConsDef]) -> set[str]:
    """The columns whose NOT NULL constraint is disabled and that no enabled primary key
    covers: SQLite lets them take NULL ("A disabled constraint is not enforced", Disabled
    Mode, ids_sqs_1102). The catalogue keeps them NOT NULL (syscolumns), as Informix keeps a
    disabled object's definition."""
    keyed = {c for cons in constraints if cons.kind == "P" and cons.enabled
             for c in cons.columns}
    return {c for cons in constraints if cons.kind == "N" and not cons.enabled
            for c in cons.columns} - keyed


def _disabled_keys(dc: DdlContext, constraints: list[ConsDef]) -> set[str]:
    """The indexes of disabled unique and primary-key constraints, made as plain SQLite
    indexes so that they check nothing (ids_sqs_1102). Not one a foreign key refers to:
    SQLite wants a unique index under a foreign key's parent key (a known difference)."""
    return {c.index for c in constraints if c.kind in ("P", "U") and not c.enabled
            and c.index and dc.conn.execute(
                'SELECT 1 FROM sysreferences WHERE "primary" = ?', (c.constrid,)
            ).fetchone() is None}


def _stored_default(dc: DdlContext, col: ColumnInfo) -> object:
    return conv.storer(col.type, dc.ctx)(col.default_value)


def _copy_error(text: str, constraints: list[ConsDef], table: str) -> EngineError:
    if "NOT NULL" in text:
        column = text.rsplit(".", 1)[-1]
        if any(c.kind == "P" and column in c.columns for c in constraints) and not any(
                c.kind == "N" and column in c.columns for c in constraints):
            # a primary key added over rows with NULL in its columns: -703 naming the table
            # (the message's words; that a real server gives it here is our reading)
            return EngineError(sc.NULL_PRIMARY_KEY, near=table)
        return EngineError(sc.NULL_INTO_NOT_NULL, near=column)
    if "CHECK" in text:
        return EngineError(sc.CHECK_FAILED, near=text.rsplit(":", 1)[-1].strip())
    if "UNIQUE" in text:  # a unique or primary key enabled again over duplicates (inferred:
        # building its unique index fails so, as CREATE UNIQUE INDEX does)
        return EngineError(sc.UNIQUE_INDEX_DUPS, sc.ISAM_DUPLICATE)
    return EngineError(sc.NOT_IMPLEMENTED, message=f"Not implemented yet: {text}")


# ---- ALTER TABLE --------------------------------------------------------------------------------
def alter_table(dc: DdlContext, spec: AlterTable) -> None:
    refuse_synonym(dc, spec.table, sc.TABLE_BY_SYNONYM)
    info = dc.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
    if info.kind == "V":
        # [jcat] -322 "Cannot Alter a view, Rename a view or Create a trigger on a view"
        raise EngineError(sc.VIEW_NOT_ALTERABLE, near=info.name)
    if info.temp:
        # -532 [jcat] "Cannot alter temporary table (%s)." [inference: that every ALTER
        # TABLE form is refused; no page says which are] (thirty-third session; was -999)
        raise EngineError(sc.ALTER_TEMP, near=info.name)
    if info.kind != "T":
        raise not_implemented("ALTER TABLE on this table")
    if spec.lock_mode is not None:
        # LOCK MODE (PAGE | ROW): systables.locklevel, read by row-lock mode at the next
        # schema load (docs/SERVER.md, "Locks and isolation")
        dc.conn.execute("UPDATE systables SET locklevel = ? WHERE tabid = ?",
                        (spec.lock_mode, info.tabid))
        if not (spec.add or spec.drop or spec.modify or spec.add_constraints
                or spec.drop_constraints or spec.extents != (0, 0)):
            return
    if spec.extents != (0, 0):
        # MODIFY EXTENT SIZE / NEXT SIZE: "the database server records the change in the
        # system catalog" (ids_sqs_2007, ids_sqs_0070); there are no extents to resize here
        first, nxt = spec.extents
        dc.conn.execute("UPDATE systables SET fextsize = CASE WHEN ? > 0 THEN ? ELSE fextsize "
                        "END, nextsize = CASE WHEN ? > 0 THEN ? ELSE nextsize END WHERE "
                        "tabid = ?", (first, first, nxt, nxt, info.tabid))
        if not (spec.add or spec.drop or spec.modify or spec.add_constraints
                or spec.drop_constraints):
            return
    if (spec.add or spec.drop or spec.modify) and dc.conn.execute(
            "SELECT type_xid FROM systables WHERE tabid = ?", (info.tabid,)).fetchone()[0]:
        # A typed table's columns are its ROW type's fields: ALTER TABLE cannot add any
        # (ids_sqs_0099); the server's code is not known to us.
        raise not_implemented("ALTER TABLE adding, dropping or modifying columns of a typed "
                              "table")
    for cons in spec.add_constraints:
        if cons.kind == "P" and inherit.has_primary_key(dc.conn, info.tabid):
            # one primary key across a table hierarchy (ids_ddi_122)
            raise EngineError(sc.PRIMARY_KEY_EXISTS, near=info.name)
        if cons.kind == "R" and cons.ref_table is not None and (
                _is_typed(dc, info.name) or _is_typed(dc, cons.ref_table.name)):
            # kept by inherit.py's triggers, which do not check the rows already there
            raise not_implemented("a foreign key added to or referring to a typed table")
    constraints = read_constraints(dc.conn, info, dc.schema.tables)
    columns = [NewColumn(replace(c), quote(c.name), c.name) for c in info.columns]
    added: list[ConstraintSpec] = []
    for name in spec.drop:
        if name not in info.by_name:
            raise EngineError(sc.NO_COLUMN, near=name)
        columns = [c for c in columns if c.info.name != name]
        for key in [c for c in constraints if name in c.columns and c.kind in ("P", "U")]:
            constraints = _drop_foreign_keys_to(dc, info, key, constraints)
        # Informix drops every constraint that uses the column, multi-column ones too (IBM,
        # ALTER TABLE, DROP clause); their catalogue rows go with them, else a primary key
        # on the dropped column stayed in sysconstraints and a new one was -704
        for gone in constraints:
            if name in gone.columns:
                _delete_constraint_rows(dc, info, gone)
        constraints = [c for c in constraints if name not in c.columns]
    if not columns and not spec.add:
        # -370 "Cannot drop last column." [jcat] (fifteenth round; was -999)
        raise EngineError(sc.DROP_LAST_COLUMN, near=info.name)
    for col in [*spec.modify, *spec.add]:
        column_type(dc, col, distinct_only=True)  # a distinct type: resolved, Usage checked
        check_default(col)
    freed: set[str] = set()
    for col in spec.modify:
        before = list(constraints)
        _modify(dc, info, columns, constraints, col)
        for gone in before:
            if gone not in constraints:  # the column's old NOT NULL and CHECK: rows go too
                _delete_constraint_rows(dc, info, gone)
                freed.add(gone.name)
        added.extend(col.constraints)
    for col in spec.add:
        _add(dc, info, columns, col)
        added.extend(col.constraints)
    for name in spec.drop_constraints:
        match = [c for c in constraints if c.name == name]
        if not match and _inherited_constraint(dc, info, name):
            # a supertable's constraint: dropped only where it is defined (ids_ddi_125)
            raise EngineError(sc.DROP_INHERITED, near=name)
        if not match:
            raise EngineError(sc.NO_CONSTRAINT, near=name)
        if match[0].kind in ("P", "U"):
            constraints = _drop_foreign_keys_to(dc, info, match[0], constraints)
        constraints = [c for c in constraints if c.name != name]
        _delete_constraint_rows(dc, info, match[0])
        if match[0].kind == "N":
            # the column allows NULL again (coltype loses its 256), unless another NOT
            # NULL constraint still holds it (a primary key's does, below)
            held = {c for k in constraints if k.kind == "N" for c in k.columns}
            for kept in columns:
                if kept.info.name in match[0].columns and kept.info.name not in held:
                    kept.info.type = kept.info.type.with_notnull(False)
    added.extend(spec.add_constraints)
    new_info = TableInfo(info.name, info.tabid, info.owner, [c.info for c in columns])
    for cons in added:
        # a NOT NULL of ADD or MODIFY is a constraint row as in CREATE TABLE (SYSCONSTRAINTS,
        # ids_sqr_029: constrtype N), so DROP CONSTRAINT finds it (ids_sqs_0069)
        constraints.append(_new_constraint(dc, info, new_info, cons, constraints, freed))
    for cdef in constraints:
        if cdef.kind == "P":
            for c in columns:
                if c.info.name in cdef.columns:
                    c.info.type = c.info.type.with_notnull(True)
    lobstore.columns_altering(dc.conn, info, {c.origin: c.info.type for c in columns
                                               if c.origin is not None})
    if info.subtables:
        _check_subtables(dc, info, [c for c in constraints if c.new])
    rebuild(dc, info, columns, constraints)
    lobstore.columns_changed(dc.conn, new_info)  # the rebuilt table's reference counting
    _sync_constraint_rows(dc, info, constraints)
    inherit.install(dc)  # the rebuilt table lost its guard triggers


def _check_subtables(dc: DdlContext, info: TableInfo, added: list[ConsDef]) -> None:
    """A constraint added to a supertable holds for its subtables' rows too, "Any heritable
    attributes that are added to a supertable after subtables have been created are
    automatically inherited by existing subtables" (Syntax, ids_sqs_0565): the rows already
    there must keep it, -530 for a check they fail, -371 for a key they repeat across the
    hierarchy (as a new unique index over duplicates is). inherit.install then guards the
    rows to come."""
    below = dc.schema.below(info)
    for cons in added:
        if cons.kind == "C":
            expr = parse_expressions(cons.check_text, cons.delimident)[0]
            cond = dc.compile_check(info, expr)
            for sub in below:
                if dc.conn.execute(f"SELECT 1 FROM {quote(sub.name)} WHERE NOT "
                                   f"ifnull(({cond}), 1) LIMIT 1").fetchone():
                    raise EngineError(sc.CHECK_FAILED, near=cons.name)
        elif cons.kind in ("P", "U"):
            cols = ", ".join(quote(c) for c in cons.columns)
            union = " UNION ALL ".join(f"SELECT {cols} FROM {quote(t.name)}"
                                       for t in [info, *below])
            if dc.conn.execute(f"SELECT 1 FROM ({union}) GROUP BY {cols} HAVING count(*) > 1"
                               ).fetchone():
                raise EngineError(sc.UNIQUE_INDEX_DUPS, sc.ISAM_DUPLICATE)
            if cons.kind == "P":
                nulls = " OR ".join(f"{quote(c)} IS NULL" for c in cons.columns)
                for sub in below:
                    if dc.conn.execute(f"SELECT 1 FROM {quote(sub.name)} WHERE {nulls} "
                                       "LIMIT 1").fetchone():
                        raise EngineError(sc.NULL_PRIMARY_KEY, near=sub.name)


def _inherited_constraint(dc: DdlContext, info: TableInfo, name: str) -> bool:
    """Whether ``name`` is a constraint of one of ``info``'s supertables."""
    up = inherit.ancestors(dc.conn, info.tabid)
    if not up:
        return False
    marks = ", ".join("?" * len(up))
    return dc.conn.execute(f"SELECT 1 FROM sysconstraints WHERE constrname = ? AND tabid IN "
                           f"({marks})", (name, *up)).fetchone() is not None


def _is_typed(dc: DdlContext, name: str) -> bool:
    return dc.conn.execute("SELECT 1 FROM systables WHERE tabname = ? AND type_xid > 0",
                           (name,)).fetchone() is not None


def _delete_constraint_rows(dc: DdlContext, info: TableInfo, cons: ConsDef) -> None:
    """A dropped constraint's catalogue rows: its rows in the tables keyed by constrid go with
    it (a foreign key's sysreferences row left behind made a later DROP TABLE of the parent
    ... CASCADE look for the constraint and fail with -623; Django's schema tests drop and
    re-add foreign keys)."""
    for table in ("sysreferences", "syschecks", "syscoldepend"):
        dc.conn.execute(f"DELETE FROM {table} WHERE constrid = ?", (cons.constrid,))
    dc.conn.execute("DELETE FROM sysconstraints WHERE tabid = ? AND constrname = ?",
                    (info.tabid, cons.name))


def _drop_foreign_keys_to(dc: DdlContext, info: TableInfo, key: ConsDef,
                          constraints: list[ConsDef]) -> list[ConsDef]:
    """The foreign keys that refer to ``key``, a primary key or unique constraint being
    dropped (by DROP CONSTRAINT, or with a column of it), dropped too: "When you drop a
    primary-key constraint or a unique constraint that has a corresponding foreign key, any
    associated referential constraints are also dropped" (DROP CONSTRAINT Clause,
    ids_sqs_0069, its example the stores_demo orders/items pair); "All referential
    constraints that reference the column are dropped ... the structure of those other
    tables is also altered" (How Dropping a Column Affects Constraints, ids_sqs_0308). Each
    other table is altered as ``ALTER TABLE child DROP CONSTRAINT fk`` would (its own
    rebuild); one of this table (a self-reference) leaves ``constraints``, which this
    statement's rebuild then makes without it. Was -999 (the other tables were left
    alone)."""
    rows = dc.conn.execute(
        'SELECT c.constrname, c.tabid, t.tabname, t.owner FROM sysreferences r JOIN '
        'sysconstraints c ON c.constrid = r.constrid JOIN systables t ON t.tabid = c.tabid '
        'WHERE r."primary" = ?', (key.constrid,)).fetchall()
    children: dict[tuple[str, str], list[str]] = {}
    own = set()
    for cname, tabid, tabname, owner in rows:
        if tabid == info.tabid:
            own.add(str(cname))
        else:
            children.setdefault((str(tabname), (owner or "").strip()), []).append(str(cname))
    for (tabname, owner), names in children.items():
        alter_table(dc, AlterTable(TableName(tabname, owner), drop_constraints=names))
    for gone in [c for c in constraints if c.name in own]:
        _delete_constraint_rows(dc, info, gone)
    return [c for c in constraints if c.name not in own]


def _new_constraint(dc: DdlContext, info: TableInfo, new_info: TableInfo, cons: ConstraintSpec,
                    existing: list[ConsDef], freed: set[str] | None = None) -> ConsDef:
    """A constraint this ALTER adds; ``freed``: names of constraints it dropped (MODIFY
    restating a column's NOT NULL may give it its old name again)."""
    for c in cons.columns:
        if c not in new_info.by_name:
            raise EngineError(sc.NO_COLUMN, near=c)
    cid = max([_next_constrid(dc.conn)] + [c.constrid + 1 for c in existing])
    prefix = {"P": "u", "U": "u", "C": "c", "R": "r", "N": "n"}[cons.kind]
    name = cons.name or f"{prefix}{info.tabid}_{cid}"
    if (name in dc.schema.constraint_names and name not in (freed or ())) or any(
            c.name == name for c in existing):
        raise EngineError(sc.INDEX_EXISTS, near=name)
    if cons.kind == "P" and any(c.kind == "P" for c in existing):
        raise EngineError(sc.PRIMARY_KEY_EXISTS, near=info.name)
    out = ConsDef(cid, name, cons.owner or info.owner, cons.kind, list(cons.columns))
    if cons.kind in ("P", "U", "R"):
        out.index = f" {info.tabid}_{cid}"
    if cons.kind == "C":
        out.check_text = cons.check_text
        out.delimident = dc.delimident
        out.columns = _check_columns(cons, new_info)
    if cons.kind == "R":
        key = next((c for c in existing if c.kind in ("P", "U") and c.index
                    and c.columns == out.columns), None)
        if key is not None:  # one index for both, as in CREATE TABLE (ddl.create_table)
            out.index, out.shared = key.index, True
        parent = new_info if cons.ref_table is not None and (
            cons.ref_table.name == info.name) else _ref_target(dc, cons, info)
        out.parent = parent.name
        keys = ([(c.kind, c.columns) for c in existing if c.kind in ("P", "U")]
                if parent is new_info else
                [(c.kind, c.columns) for c in parent.constraints if c.kind in ("P", "U")])
        primary = next((cols for kind, cols in keys if kind == "P"), [])
        out.parent_columns = cons.ref_columns or primary
        if cons.mode != "DISABLED":  # (features/references.py: -297, -356)
            if not out.parent_columns:
                raise EngineError(sc.NO_PARENT_KEY, near=parent.name)
            references.check(parent.name, keys, out.parent_columns,
                             [new_info.by_name[c].type for c in out.columns
                              if c in new_info.by_name],
                             [parent.by_name[c].type for c in out.parent_columns
                              if c in parent.by_name])
        out.cascade = cons.cascade
    out.new = True
    return out


def _sync_constraint_rows(dc: DdlContext, info: TableInfo, constraints: list[ConsDef]) -> None:
    """Catalog rows and indexes for the constraints added by this ALTER."""
    tables = dict(dc.schema.tables)
    cols = {r[0]: r[1] for r in dc.conn.execute(
        "SELECT colname, colno FROM syscolumns WHERE tabid = ?", (info.tabid,))}
    for cons in constraints:
        if not cons.new:
            continue
        dc.conn.execute(
            "INSERT INTO sysconstraints (constrid, constrname, owner, tabid, constrtype, idxname,"
            " collation) VALUES (?, ?, ?, ?, ?, ?, (SELECT value FROM _ifx_meta"
            " WHERE key = 'locale'))",
            (cons.constrid, cons.name, cons.owner, info.tabid, cons.kind, cons.index))
        if cons.index is not None and not cons.shared:
            infos = TableInfo(info.name, info.tabid, info.owner, [
                ColumnInfo(n, no, info.columns[0].type) for n, no in cols.items()])
            try:
                _create_index(dc, infos, cons.index, [(c, False) for c in cons.columns],
                              cons.kind in ("P", "U"), False)
            except EngineError:
                raise EngineError(sc.UNIQUE_INDEX_DUPS, sc.ISAM_DUPLICATE) from None
        if cons.kind == "C":
            write_check(dc.conn, cons.constrid, cons.check_text, cons.delimident)
        if cons.kind in ("C", "N"):
            dc.conn.executemany("INSERT INTO syscoldepend VALUES (?, ?, ?)",
                                [(cons.constrid, info.tabid, cols[c]) for c in cons.columns])
        if cons.kind == "R":
            assert cons.parent is not None
            parent = info if cons.parent == info.name else tables[cons.parent]
            primary = _parent_key(dc, cons, parent)
            dc.conn.execute("INSERT INTO sysreferences VALUES (?, ?, ?, 'R', ?, 'N', 'N')",
                            (cons.constrid, primary, parent.tabid,
                             "C" if cons.cascade else "R"))


def _parent_key(dc: DdlContext, cons: ConsDef, parent: TableInfo) -> int:
    for cid, idx in dc.conn.execute("SELECT constrid, idxname FROM sysconstraints WHERE "
                                    "tabid = ? AND constrtype IN ('P', 'U')", (parent.tabid,)):
        cols = _index_columns(dc.conn, parent, idx) if idx else []
        if sorted(cols) == sorted(cons.parent_columns):
            return int(cid)
    found = referenced_key(dc.conn, parent, cons.parent_columns)
    return found[0] if found else 0


# ---- TRUNCATE, RENAME, SET CONSTRAINTS --------------------------------------------------------
def truncate(dc: DdlContext, spec: TruncateSpec) -> list[TableInfo]:
    """Empty the table; returns the tables emptied (change data capture logs a TRUNCATE of
    each). A typed table's TRUNCATE empties its subtables too; there is no ONLY for it
    (Tutorial, "Delete all rows using TRUNCATE", ids_sqt_206)."""
    refuse_synonym(dc, spec.table, sc.TABLE_BY_SYNONYM)
    info = dc.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
    if info.kind != "T":
        raise not_implemented("TRUNCATE of a view or catalog table")
    tables = [info, *dc.schema.below(info)]
    try:
        for one in tables:
            dc.conn.execute(f"DELETE FROM {one.schema}.{quote(one.name)}")
    except sqlite3.IntegrityError:
        raise EngineError(sc.FK_CHILD_EXISTS, near=info.name) from None
    return tables


def rename_index(dc: DdlContext, spec: Rename) -> None:
    old, new = spec.table.name, spec.new_name
    if old not in dc.schema.indexes:
        if temp := temp_indexes.table_of(dc, old):  # a temporary table's
            temp_indexes.rename(dc, old, new, temp)
            return
        raise EngineError(sc.NO_INDEX, near=old)
    if new in dc.schema.indexes:
        raise EngineError(sc.INDEX_EXISTS, near=new)
    temp_indexes.check_free(dc, new)
    temp_indexes.recreate(dc.conn, old, new)
    # (nothing is made again for a constraint's system-generated index (' 100_1'), which
    # SQLite keeps with the table: "You can rename a system-generated index that implements
    # a primary-key or foreign-key constraint" (ids_sqs_0941); only the catalogue holds its
    # name.)
    null_keys.rename(dc.conn, old, new)
    dc.conn.execute("UPDATE sysindices SET idxname = ? WHERE idxname = ?", (new, old))
    dc.conn.execute("UPDATE sysconstraints SET idxname = ? WHERE idxname = ?", (new, old))

    fragments.rename_index(dc.conn, old, new)


def set_constraints(dc: DdlContext, spec: ConstraintModeSpec) -> None:
    """ENABLED / DISABLED rebuild the table with the constraint on or off (sysobjstate);
    DEFERRED / IMMEDIATE defer referential checks to COMMIT (SQLite's defer_foreign_keys,
    which like Informix's mode lasts until the transaction ends). Deferring a unique or check
    constraint is refused: SQLite checks those at once."""
    rows = dc.conn.execute("SELECT constrname, tabid, constrtype, owner FROM sysconstraints"
                           ).fetchall()
    if spec.table is not None:
        info = dc.resolve(spec.table.name, spec.table.owner, None, 0)
        rows = [r for r in rows if r[1] == info.tabid]
    elif spec.names is not None:
        found = {str(r[0]) for r in rows}
        for name in spec.names:
            if name not in found:
                raise EngineError(sc.NO_CONSTRAINT, near=name)
        rows = [r for r in rows if r[0] in spec.names]
    if spec.mode in ("DEFERRED", "IMMEDIATE"):
        if spec.names is not None and any(r[2] != "R" for r in rows):
            raise not_implemented("deferring a unique, primary-key or check constraint")
        if spec.mode == "IMMEDIATE" and dc.conn.execute(
                "PRAGMA defer_foreign_keys").fetchone()[0]:
            broken = inherit.deferred_violation(dc.conn)
            if broken is not None:
                # a foreign key kept by triggers that rows written while it was deferred
                # break: they stay deferred, so COMMIT fails too (what Informix answers
                # here is not known to us)
                raise EngineError(sc.NOT_IMPLEMENTED, near=broken, message=(
                    f"deferred foreign key {broken} is broken by rows of this transaction"))
        dc.conn.execute(f"PRAGMA defer_foreign_keys = {int(spec.mode == 'DEFERRED')}")
        return
    state = "E" if spec.mode == "ENABLED" else "D"
    by_tabid = {t.tabid: t for t in dc.schema.tables.values()}
    touched: set[int] = set()
    for name, tabid, _kind, owner in rows:
        dc.conn.execute("DELETE FROM sysobjstate WHERE objtype = 'C' AND name = ? AND tabid = ?",
                        (name, tabid))
        dc.conn.execute("INSERT INTO sysobjstate VALUES ('C', ?, ?, ?, ?)",
                        (owner, name, tabid, state))
        touched.add(int(tabid))
    for tabid in touched:
        info = by_tabid[tabid]
        constraints = read_constraints(dc.conn, info, dc.schema.tables)
        enabled_idx = {c.index for c in constraints if c.enabled and c.index}
        disabled_idx = {c.index for c in constraints if not c.enabled and c.index}
        columns = [NewColumn(replace(c), quote(c.name), c.name) for c in info.columns]
        rebuild(dc, info, columns, constraints)
        for cons in constraints:
            if cons.index in enabled_idx and cons.index not in {
                    r[0] for r in dc.conn.execute("SELECT idxname FROM sysindices")}:
                _create_index(dc, info, cons.index, [(c, False) for c in cons.columns],
                              cons.kind in ("P", "U"), False)
        del disabled_idx
    if touched:
        inherit.install(dc)  # the rebuilt tables lost their guard triggers


def rename(dc: DdlContext, spec: Rename) -> None:
    """RENAME TABLE / RENAME COLUMN. The objects they may not rename have their own codes in
    IBM's message catalogue [jcat]: a view -322, a system catalogue table -584 (its column
    -585), a temporary table -508 (its column -509); fourteenth round. A synonym is -19821
    (fifteenth round; RENAME COLUMN through one is left as it was: the text names tables)."""
    if spec.kind == "TABLE":
        refuse_synonym(dc, spec.table, sc.RENAME_BY_SYNONYM)
    info = dc.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
    column = spec.kind != "TABLE"
    if info.kind == "V" and not column:
        raise EngineError(sc.VIEW_NOT_ALTERABLE, near=info.name)
    if info.kind == "S":
        raise EngineError(sc.RENAME_CATALOG_COLUMN if column else sc.RENAME_CATALOG)
    if info.temp:
        raise EngineError(sc.RENAME_TEMP_COLUMN if column else sc.RENAME_TEMP)
    if info.kind != "T":
        raise not_implemented("RENAME on this table")
    if spec.kind == "TABLE":
        if _exists(dc, spec.new_name):
            raise EngineError(sc.TABLE_EXISTS, near=spec.new_name)
        dc.conn.execute(f"ALTER TABLE {quote(info.name)} RENAME TO {quote(spec.new_name)}")
        dc.conn.execute("UPDATE systables SET tabname = ? WHERE tabid = ?",
                        (spec.new_name, info.tabid))
        return
    assert spec.column is not None
    if spec.column not in info.by_name:
        raise EngineError(sc.NO_COLUMN, near=spec.column)
    if spec.new_name in info.by_name:
        raise EngineError(sc.COLUMN_EXISTS, near=spec.new_name)

    if fragments.names_column(dc, info.tabid, spec.column):
        # The Syntax's RENAME COLUMN page says what happens to views and check constraints,
        # not to fragment expressions: not built.
        raise not_implemented("RENAME COLUMN of a column a fragment expression names")
    dc.conn.execute(f"ALTER TABLE {quote(info.name)} RENAME COLUMN {quote(spec.column)} TO "
                    f"{quote(spec.new_name)}")
    dc.conn.execute("UPDATE syscolumns SET colname = ? WHERE tabid = ? AND colname = ?",
                    (spec.new_name, info.tabid, spec.column))
    # Check constraints name the column in their text: rename it there too.
    word = re.compile(rf"\b{re.escape(spec.column)}\b", re.IGNORECASE)
    for cons in read_constraints(dc.conn, info, dc.schema.tables):
        if cons.kind == "C" and spec.column in cons.columns:
            text = word.sub(spec.new_name, cons.check_text)
            dc.conn.execute("DELETE FROM syschecks WHERE constrid = ?", (cons.constrid,))
            write_check(dc.conn, cons.constrid, text, cons.delimident)
