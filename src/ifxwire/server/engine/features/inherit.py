"""What a subtable inherits from its supertables: keys, checks, foreign keys and indexes.

Informix: "When you use the UNDER clause, the subtable inherits ... all constraints ... all
indexes ... all referential integrity constraints" of the supertable, also ones added later
(Guide to SQL: Syntax, "Using the UNDER Clause", ids_sqs_0565); a unique constraint or primary
key on a supertable makes its key unique "across both the subtable and the supertable", and an
index on a supertable spans its subtables (Database Design guide, ids_ddi_122); the catalogue
records constraints and indexes "for the supertable, but not for subtables that inherit them"
(Syntax, "System Catalog Information", ids_sqs_0569). docs/SERVER.md, "superstores_demo, typed
tables and inheritance".

Each typed table is a SQLite table of its own, so what spans several of them is kept by SQLite
triggers made here from the catalogue, named ``_ifx_inh_…``:

* a unique index (a primary key's or unique constraint's, or CREATE UNIQUE INDEX) on a table
  with subtables: before an INSERT or an UPDATE of its columns on any table under it, the key
  must be in no other row of that part of the hierarchy (two NULLs equal, as Informix's unique
  keys have it: null_keys.py). The supertable's own SQLite unique index still keeps its rows;
* a CHECK of a supertable holds for its subtables' rows (-530 naming it);
* a foreign key whose table or referenced table is typed: its columns must be found in the
  referenced table or a table under it; a deleted or changed key still referenced from the
  referencing table or a table under it is -692, or with ON DELETE CASCADE takes the rows;
* each inherited index gets a plain SQLite index on the subtable (lookups stay indexed).

The triggers are remade as a whole (``install``) after every DDL that changes a hierarchy, a
typed table's keys or indexes, or a foreign key to one; a trigger refuses with RAISE(ABORT)
and a message ``MESSAGE <sqlcode> <name>`` that session_errors turns into the Informix error.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..schema.catalog import TableInfo, quote

if TYPE_CHECKING:
    from .ddl import DdlContext

#: Names of the SQLite triggers and indexes this module makes.
PREFIX = "_ifx_inh_"
#: The RAISE text's start; session_errors.py maps the rest (``<sqlcode> <name>``).
MESSAGE = "ifxwire inherited:"
_MESSAGE_RE = re.compile(re.escape(MESSAGE) + r" (-\d+) (.*)$", re.S)
_ISAM = {sc.DUP_CONSTRAINT: sc.ISAM_DUPLICATE, sc.DUP_INDEX: sc.ISAM_DUPLICATE}


def error_of(text: str) -> EngineError | None:
    """The Informix error a guard trigger's RAISE text stands for (None: not one of ours)."""
    m = _MESSAGE_RE.search(text)
    if m is None:
        return None
    code = int(m.group(1))
    return EngineError(code, _ISAM.get(code, 0), near=m.group(2))


@dataclass
class _Table:
    tabid: int
    name: str
    owner: str
    columns: dict[int, str]  # colno -> name
    decimal: set[str]  # columns stored as DECIMAL text (compared with IFXDEC)


def _tables(conn: sqlite3.Connection) -> dict[int, _Table]:
    out = {int(t): _Table(int(t), str(n), str(o or "").strip(), {}, set()) for t, n, o in
           conn.execute("SELECT tabid, tabname, owner FROM systables WHERE tabid >= 100 "
                        "AND tabtype = 'T'")}
    for tabid, colno, name, coltype in conn.execute(
            "SELECT tabid, colno, colname, coltype FROM syscolumns WHERE tabid >= 100"):
        t = out.get(int(tabid))
        if t is not None:
            t.columns[int(colno)] = str(name)
            if int(coltype) & 0xFF in (5, 8):  # DECIMAL, MONEY
                t.decimal.add(str(name))
    return out


def children(conn: sqlite3.Connection) -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for child, parent in conn.execute(
            "SELECT child, parent FROM sysinherits WHERE class = 'T' ORDER BY child"):
        kids.setdefault(int(parent), []).append(int(child))
    return kids


def subtree(kids: dict[int, list[int]], tabid: int) -> list[int]:
    """``tabid`` and every table under it, depth first."""
    out = [tabid]
    for k in kids.get(tabid, []):
        out += subtree(kids, k)
    return out


def ancestors(conn: sqlite3.Connection, tabid: int) -> list[int]:
    """The supertables of ``tabid``, nearest first."""
    out: list[int] = []
    while (row := conn.execute("SELECT parent FROM sysinherits WHERE child = ? AND "
                               "class = 'T'", (tabid,)).fetchone()) is not None:
        tabid = int(row[0])
        out.append(tabid)
    return out


def family(conn: sqlite3.Connection, tabid: int) -> list[int]:
    """Every table of ``tabid``'s hierarchy."""
    up = ancestors(conn, tabid)
    return subtree(children(conn), up[-1] if up else tabid)


def _eq(left: str, right: str, decimal: bool, null_equal: bool) -> str:
    op = "IS" if null_equal else "="
    return f"{left} {op} {right}{' COLLATE IFXDEC' if decimal else ''}"


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _raise(code: int, name: str) -> str:
    return f"BEGIN SELECT RAISE(ABORT, {_lit(f'{MESSAGE} {code} {name}')}); END"


def _index_parts(conn: sqlite3.Connection, idxname: str) -> list[int]:
    row = conn.execute("SELECT " + ", ".join(f"part{i}" for i in range(1, 17)) +
                       " FROM sysindices WHERE idxname = ?", (idxname,)).fetchone()
    return [] if row is None else [abs(int(n)) for n in row if n]


def drop_all(conn: sqlite3.Connection) -> None:
    for kind, name in conn.execute(
            "SELECT type, name FROM main.sqlite_master WHERE name LIKE ? ESCAPE '\\' AND "
            "type IN ('trigger', 'index')", (PREFIX.replace("_", "\\_") + "%",)).fetchall():
        conn.execute(f"DROP {'TRIGGER' if kind == 'trigger' else 'INDEX'} IF EXISTS "
                     f"{quote(str(name))}")


def install(dc: DdlContext) -> None:
    """Remake every guard trigger and inherited index of the database from its catalogue."""
    conn = dc.conn
    drop_all(conn)
    kids = children(conn)
    fks = conn.execute(_FOREIGN_KEYS).fetchall()
    if not kids and not fks:
        return
    tables = _tables(conn)
    disabled = {(int(t), str(n)) for t, n in conn.execute(
        "SELECT tabid, name FROM sysobjstate WHERE objtype = 'C' AND state = 'D'")}
    counter = iter(range(1, 1 << 30))

    def name() -> str:
        return quote(f"{PREFIX}{next(counter)}")

    for top in kids:
        if top not in tables:
            continue
        under = [t for t in subtree(kids, top) if t != top and t in tables]
        _inherit_indexes(conn, tables, top, under, name)
        _inherit_not_null(conn, tables, top, under, name)
        _inherit_checks(dc, tables, top, under, name)
    for fk in _foreign_keys(conn, tables, kids, fks, disabled):
        _foreign_key(conn, tables, *fk, name)


_FOREIGN_KEYS = (
    "SELECT c.constrid, c.constrname, c.owner, c.tabid, c.idxname, r.ptabid, r.delrule, "
    "p.idxname FROM sysconstraints c JOIN sysreferences r ON r.constrid = c.constrid "
    "JOIN sysconstraints p ON p.constrid = r.\"primary\" JOIN systables t ON "
    "t.tabid = r.ptabid JOIN systables s ON s.tabid = c.tabid WHERE c.constrtype = 'R' "
    "AND (t.type_xid > 0 OR s.type_xid > 0)")

#: A foreign key kept by triggers: referencing tables, referenced tables, their columns,
#: its ``owner.name`` and whether ON DELETE CASCADE.
_Fk = tuple[list[int], list[int], list[str], list[str], str, bool]


def _foreign_keys(conn: sqlite3.Connection, tables: dict[int, _Table],
                  kids: dict[int, list[int]], fks: list[tuple[object, ...]],
                  disabled: set[tuple[int, str]]) -> list[_Fk]:
    out: list[_Fk] = []
    for cid, cname, owner, tabid, _idx, ptabid, delrule, pidx in fks:
        tab, ptab = int(str(tabid)), int(str(ptabid))
        child, parent = tables.get(tab), tables.get(ptab)
        if child is None or parent is None or (tab, str(cname)) in disabled:
            continue
        cols = [child.columns[n] for n in _fk_parts(conn, int(str(cid)), child)
                if n in child.columns]
        pcols = [parent.columns[n] for n in _index_parts(conn, str(pidx))]
        if not cols or len(cols) != len(pcols):
            continue
        label = f"{str(owner or '').strip()}.{cname}"
        out.append((subtree(kids, tab), subtree(kids, ptab), cols, pcols, label,
                    delrule == "C"))
    return out


def _missing(tables: dict[int, _Table], referenced: list[int], cols: list[str],
             pcols: list[str], row: str) -> str:
    """SQL true when the key ``row``.cols is in no table of ``referenced``."""
    ptab = tables[referenced[0]]
    return " AND ".join(
        "NOT EXISTS (SELECT 1 FROM {} WHERE {})".format(quote(tables[y].name), " AND ".join(
            _eq(quote(p), f"{row}{quote(c)}", p in ptab.decimal, False)
            for c, p in zip(cols, pcols, strict=True)))
        for y in referenced if y in tables)


#: SET CONSTRAINTS … DEFERRED is SQLite's defer_foreign_keys (alter.set_constraints); the
#: guards of foreign keys kept here read it, so they too wait for COMMIT (deferred_violation).
_IMMEDIATE = "(SELECT defer_foreign_keys FROM pragma_defer_foreign_keys) = 0"


def deferred_violation(conn: sqlite3.Connection) -> str | None:
    """The first foreign key kept by triggers that some row breaks (``owner.name``), or None:
    checked at COMMIT, and at SET CONSTRAINTS … IMMEDIATE, after the checks were deferred
    ("Transaction-Level Checking", Syntax ids_sqs_0033: deferred constraints are checked when
    the transaction commits)."""
    fks = conn.execute(_FOREIGN_KEYS).fetchall()
    if not fks:
        return None
    tables = _tables(conn)
    disabled = {(int(t), str(n)) for t, n in conn.execute(
        "SELECT tabid, name FROM sysobjstate WHERE objtype = 'C' AND state = 'D'")}
    for referencing, referenced, cols, pcols, label, _cascade in _foreign_keys(
            conn, tables, children(conn), fks, disabled):
        some = " AND ".join(f"{quote(c)} IS NOT NULL" for c in cols)
        missing = _missing(tables, referenced, cols, pcols, "o.")
        for x in referencing:
            if x in tables and conn.execute(
                    f"SELECT 1 FROM {quote(tables[x].name)} o WHERE {some} AND {missing} "
                    "LIMIT 1").fetchone():
                return label
    return None


def _fk_parts(conn: sqlite3.Connection, cid: int, child: _Table) -> list[int]:
    row = conn.execute("SELECT idxname FROM sysconstraints WHERE constrid = ?",
                       (cid,)).fetchone()
    return _index_parts(conn, str(row[0])) if row and row[0] else []


def _inherit_indexes(conn: sqlite3.Connection, tables: dict[int, _Table], top: int,
                     under: list[int], name: Callable[[], str]) -> None:
    """The indexes of ``top``: a plain SQLite index on each subtable; a unique one is kept
    unique across ``top`` and ``under`` by triggers (-268 naming its constraint, -239 the
    index when no constraint uses it)."""
    mk = name  # gives fresh object names
    sup = tables[top]
    cons = {str(i): (str(n), str(o or "").strip()) for n, o, i in conn.execute(
        "SELECT constrname, owner, idxname FROM sysconstraints WHERE tabid = ? AND "
        "constrtype IN ('P', 'U')", (top,))}
    for idxname, idxtype in conn.execute("SELECT idxname, idxtype FROM sysindices WHERE "
                                         "tabid = ?", (top,)).fetchall():
        cols = [sup.columns[n] for n in _index_parts(conn, str(idxname)) if n in sup.columns]
        if not cols:
            continue
        for sub in under:
            conn.execute(f"CREATE INDEX {mk()} ON {quote(tables[sub].name)} "
                         f"({', '.join(quote(c) for c in cols)})")
        if idxtype != "U":
            continue
        if str(idxname) in cons:
            cname, owner = cons[str(idxname)]
            code, label = sc.DUP_CONSTRAINT, f"{owner}.{cname}"
        else:
            code, label = sc.DUP_INDEX, f"{sup.owner}.{str(idxname).strip()}"
        scope = [top, *under]
        for x in scope:
            for event in ("INSERT", "UPDATE"):
                found = []
                for y in scope:
                    if x == top and y == top:
                        continue  # the supertable's own unique index
                    match = " AND ".join(_eq(quote(c), f"NEW.{quote(c)}", c in sup.decimal, True)
                                         for c in cols)
                    if event == "UPDATE" and y == x:
                        match += " AND rowid <> OLD.rowid"
                    found.append(f"EXISTS (SELECT 1 FROM {quote(tables[y].name)} WHERE {match})")
                of = f" OF {', '.join(quote(c) for c in cols)}" if event == "UPDATE" else ""
                conn.execute(f"CREATE TRIGGER {mk()} BEFORE {event}{of} ON "
                             f"{quote(tables[x].name)} WHEN {' OR '.join(found)} "
                             + _raise(code, label))


def _inherit_not_null(conn: sqlite3.Connection, tables: dict[int, _Table], top: int,
                      under: list[int], name: Callable[[], str]) -> None:
    """The primary key's columns of ``top`` hold no NULL in the tables under it: a subtable
    made after the key has them NOT NULL (ddl.create_table); one made before it, when ALTER
    TABLE added the key to its supertable, gets this guard (-703 naming the subtable, as
    null_key_code)."""
    parts: list[int] = []
    for (idx,) in conn.execute("SELECT idxname FROM sysconstraints WHERE tabid = ? AND "
                               "constrtype = 'P'", (top,)).fetchall():
        parts += _index_parts(conn, str(idx))
    cols = [tables[top].columns[n] for n in parts if n in tables[top].columns]
    for sub in under:
        nullable = {str(c) for c, in conn.execute(
            "SELECT colname FROM syscolumns WHERE tabid = ? AND (coltype & 256) = 0",
            (sub,))}
        for col in cols:
            if col in nullable:
                for event in ("INSERT", "UPDATE"):
                    conn.execute(f"CREATE TRIGGER {name()} BEFORE {event} ON "
                                 f"{quote(tables[sub].name)} WHEN NEW.{quote(col)} IS NULL "
                                 + _raise(sc.NULL_PRIMARY_KEY, tables[sub].name))


def _inherit_checks(dc: DdlContext, tables: dict[int, _Table], top: int, under: list[int],
                    name: Callable[[], str]) -> None:
    """The CHECK constraints of ``top`` on each table under it (-530 naming the check)."""
    from ..sql.statements import parse_expressions  # import cycle at load
    from .ddl_defaults import check_delimident  # it imports sql.statements: the cycle above

    mk = name
    conn = dc.conn
    info = next((t for t in dc.schema.tables.values() if t.tabid == top and t.kind == "T"),
                None)
    if info is None:
        return
    for cid, cname in conn.execute("SELECT constrid, constrname FROM sysconstraints WHERE "
                                   "tabid = ? AND constrtype = 'C'", (top,)).fetchall():
        if conn.execute("SELECT 1 FROM sysobjstate WHERE objtype = 'C' AND tabid = ? AND "
                        "name = ? AND state = 'D'", (top, cname)).fetchone():
            continue  # a disabled constraint is not checked
        text = "".join(str(r[0]) for r in conn.execute(
            "SELECT checktext FROM syschecks WHERE constrid = ? AND type = 'T' ORDER BY seqno",
            (cid,)))
        expr = parse_expressions(text, check_delimident(conn, int(cid)))[0]
        cond = dc.compile_check(info, expr)
        row = ", ".join(f"NEW.{quote(c.name)} AS {quote(c.name)}" for c in info.columns)
        when = f"EXISTS (SELECT 1 FROM (SELECT {row}) WHERE NOT ifnull(({cond}), 1))"
        for sub in under:
            for event in ("INSERT", "UPDATE"):
                conn.execute(f"CREATE TRIGGER {mk()} BEFORE {event} ON "
                             f"{quote(tables[sub].name)} WHEN {when} "
                             + _raise(sc.CHECK_FAILED, str(cname)))


def _foreign_key(conn: sqlite3.Connection, tables: dict[int, _Table], referencing: list[int],
                 referenced: list[int], cols: list[str], pcols: list[str], label: str,
                 cascade: bool, name: Callable[[], str]) -> None:
    """A foreign key kept by triggers: a child row's key must be in a table of
    ``referenced`` (-691); a referenced row's key may not go while a table of ``referencing``
    holds it (-692), unless ON DELETE CASCADE, which deletes those rows."""
    mk = name
    ptab = tables[referenced[0]]
    some = " AND ".join(f"NEW.{quote(c)} IS NOT NULL" for c in cols)
    for x in referencing:
        if x != referencing[0] and x in tables:
            conn.execute(f"CREATE INDEX {mk()} ON {quote(tables[x].name)} "
                         f"({', '.join(quote(c) for c in cols)})")
    for x in referencing:
        if x not in tables:
            continue
        missing = _missing(tables, referenced, cols, pcols, "NEW.")
        for event in ("INSERT", "UPDATE"):
            of = f" OF {', '.join(quote(c) for c in cols)}" if event == "UPDATE" else ""
            conn.execute(f"CREATE TRIGGER {mk()} BEFORE {event}{of} ON {quote(tables[x].name)} "
                         f"WHEN {some} AND {missing} AND {_IMMEDIATE} "
                         + _raise(sc.FK_NO_PARENT, label))
    for y in referenced:
        if y not in tables:
            continue
        held = [
            "EXISTS (SELECT 1 FROM {} WHERE {})".format(quote(tables[x].name), " AND ".join(
                _eq(quote(c), f"OLD.{quote(p)}", p in ptab.decimal, False)
                for c, p in zip(cols, pcols, strict=True)))
            for x in referencing if x in tables]
        changed = " OR ".join(f"NEW.{quote(p)} IS NOT OLD.{quote(p)}" for p in pcols)
        conn.execute(f"CREATE TRIGGER {mk()} BEFORE UPDATE OF "
                     f"{', '.join(quote(p) for p in pcols)} ON {quote(tables[y].name)} "
                     f"WHEN ({changed}) AND ({' OR '.join(held)}) AND {_IMMEDIATE} "
                     + _raise(sc.FK_CHILD_EXISTS, label))
        if cascade:
            body = " ".join(
                "DELETE FROM {} WHERE {};".format(quote(tables[x].name), " AND ".join(
                    _eq(quote(c), f"OLD.{quote(p)}", p in ptab.decimal, False)
                    for c, p in zip(cols, pcols, strict=True)))
                for x in referencing if x in tables)
            conn.execute(f"CREATE TRIGGER {mk()} AFTER DELETE ON {quote(tables[y].name)} "
                         f"BEGIN {body} END")
        else:
            conn.execute(f"CREATE TRIGGER {mk()} BEFORE DELETE ON {quote(tables[y].name)} "
                         f"WHEN ({' OR '.join(held)}) AND {_IMMEDIATE} "
                         + _raise(sc.FK_CHILD_EXISTS, label))


def null_key_code(conn: sqlite3.Connection, table: str, column: str) -> int:
    """The sqlcode of a NULL into ``column`` of ``table``: -703 (naming the table) when the
    column is NOT NULL only as part of the primary key of the table or of a supertable, -391
    when a NOT NULL constraint of its own (or a SERIAL type) makes it so. Evidence: an 11.70
    session in a Stack Overflow answer (question 11437845): NULL into ``s8 SERIAL8 PRIMARY
    KEY`` is -703 "Primary key on table (t1) has a field with a null key value.", into
    ``SERIAL8 NOT NULL`` or a plain SERIAL8 -391."""
    row = conn.execute("SELECT tabid FROM main.systables WHERE tabname = ? AND tabtype = 'T'",
                       (table,)).fetchone()
    if row is None:
        return sc.NULL_INTO_NOT_NULL
    tabid = int(row[0])
    colno = conn.execute("SELECT colno FROM main.syscolumns WHERE tabid = ? AND colname = ?",
                         (tabid, column)).fetchone()
    if colno is None or conn.execute(
            "SELECT 1 FROM main.sysconstraints c JOIN main.syscoldepend d ON d.constrid = "
            "c.constrid WHERE c.tabid = ? AND c.constrtype = 'N' AND d.colno = ?",
            (tabid, int(colno[0]))).fetchone():
        return sc.NULL_INTO_NOT_NULL
    for t in [tabid, *ancestors(conn, tabid)]:
        names = {int(n): str(c) for n, c in conn.execute(
            "SELECT colno, colname FROM main.syscolumns WHERE tabid = ?", (t,))}
        for (idx,) in conn.execute("SELECT idxname FROM main.sysconstraints WHERE tabid = ? "
                                   "AND constrtype = 'P'", (t,)).fetchall():
            if column in {names.get(n) for n in _index_parts(conn, str(idx))}:
                return sc.NULL_PRIMARY_KEY
    return sc.NULL_INTO_NOT_NULL


def subtable_notnull(conn: sqlite3.Connection, super_tabid: int) -> set[str]:
    """Columns a new subtable must hold NOT NULL: its supertables' primary-key columns."""
    out: set[str] = set()
    for t in [super_tabid, *ancestors(conn, super_tabid)]:
        for (idx,) in conn.execute("SELECT idxname FROM sysconstraints WHERE tabid = ? AND "
                                   "constrtype = 'P'", (t,)).fetchall():
            names = {int(n): str(c) for n, c in conn.execute(
                "SELECT colno, colname FROM syscolumns WHERE tabid = ?", (t,))}
            out |= {names[n] for n in _index_parts(conn, str(idx)) if n in names}
    return out


def has_primary_key(conn: sqlite3.Connection, tabid: int) -> bool:
    """Whether a table of ``tabid``'s hierarchy has a primary key: "You cannot define more
    than one primary key across a table hierarchy" (ids_ddi_122)."""
    tabids = family(conn, tabid)
    marks = ", ".join("?" * len(tabids))
    return conn.execute(f"SELECT 1 FROM sysconstraints WHERE constrtype = 'P' AND tabid IN "
                        f"({marks})", tabids).fetchone() is not None


def native_references(conn: sqlite3.Connection, info: TableInfo) -> bool:
    """Whether a SQLite FOREIGN KEY clause of some table names ``info`` (one written before
    foreign keys to typed tables were kept by triggers): it would not see rows of a new
    subtable of ``info``."""
    for (child,) in conn.execute("SELECT DISTINCT c.tabid FROM sysreferences r JOIN "
                                 "sysconstraints c ON c.constrid = r.constrid WHERE "
                                 "r.ptabid = ?", (info.tabid,)).fetchall():
        row = conn.execute("SELECT tabname FROM systables WHERE tabid = ?", (child,)).fetchone()
        if row is None:
            continue
        for fk in conn.execute(f"PRAGMA foreign_key_list({quote(str(row[0]))})"):
            if str(fk[2]) == info.name:
                return True
    return False


def key_scopes(conn: sqlite3.Connection, table: str) -> list[tuple[list[str], list[str]]]:
    """The keys kept across a hierarchy that ``table``'s rows are held to: for each unique
    index of the table or of a supertable of it that has subtables, its columns and the
    tables it spans (row locks: a duplicate of a row another session holds is that row's
    lock, -271, not -268; session_lock_rows._dup_holder)."""
    row = conn.execute("SELECT tabid FROM main.systables WHERE tabname = ? AND tabtype = 'T'",
                       (table,)).fetchone()
    if row is None:
        return []
    kids = children(conn)
    if not kids:
        return []
    tabid = int(row[0])
    names = {int(t): str(n) for t, n in conn.execute(
        "SELECT tabid, tabname FROM main.systables WHERE tabid >= 100")}
    out: list[tuple[list[str], list[str]]] = []
    for top in [tabid, *ancestors(conn, tabid)]:
        if top not in kids:
            continue
        cols_of = {int(n): str(c) for n, c in conn.execute(
            "SELECT colno, colname FROM main.syscolumns WHERE tabid = ?", (top,))}
        scope = [names[t] for t in subtree(kids, top) if t in names]
        for (idx,) in conn.execute("SELECT idxname FROM main.sysindices WHERE tabid = ? AND "
                                   "idxtype = 'U'", (top,)).fetchall():
            cols = [cols_of[n] for n in _index_parts(conn, str(idx)) if n in cols_of]
            if cols:
                out.append((cols, scope))
    return out

