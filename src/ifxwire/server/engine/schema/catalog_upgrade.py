"""Bringing a database file made by an older ifxwire-server up to today's catalogue.

Why apart from catalog.py: catalog.py says what today's catalogue is (its tables, how a new
file gets them, how ``load_schema`` reads them back); this module only says how an older file
reaches that state when it is opened (tables and columns added, tables renamed or renumbered,
column types rewritten, views and indexes made). It runs once per file and session open, and
reads sqlite_master and systables once when nothing is to do.
"""

from __future__ import annotations

import sqlite3

from . import catalog_versions as versions
from .catalog import (
    CATALOG_TABLES,
    OWNER,
    SYSMASTER_ROWS,
    SYSMASTER_TABLES,
    USER_TABID_START,
    create_catalog_indexes,
    create_catalog_views,
    insert_columns,
    insert_table_row,
    quote,
    rowsize,
    sqlite_column_defs,
    visible_columns,
)
from .catalog_tables import CATALOG_INDEXES, CATALOG_VIEWS, SYSINDICES_VISIBLE
from .routine_tables import PRIVATE_DDL, PRIVATE_TABLES


def upgrade_sysmaster(conn: sqlite3.Connection) -> None:
    """Add the sysmaster tables of SYSMASTER_ROWS (sysdual) that a sysmaster made by an
    older ifxwire-server lacks, so old --data directories get them."""
    have = {str(r[0]) for r in conn.execute(
        "SELECT name FROM main.sqlite_master WHERE type = 'table'")}
    todo = [(t, n, c) for t, n, c in SYSMASTER_TABLES if n in SYSMASTER_ROWS and n not in have]
    if not todo:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        for tabid, name, cols in todo:
            conn.execute(f"CREATE TABLE main.{quote(name)} ({sqlite_column_defs(cols)})")
            insert_table_row(conn, tabid, name, OWNER, "T", [c[1] for c in cols])
            insert_columns(conn, tabid, list(cols))
            rows = SYSMASTER_ROWS[name]
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                conn.executemany(f"INSERT INTO main.{quote(name)} VALUES ({marks})", rows)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


_TYPE_ROWS_AS_TABLES = ("class = 'T' AND child NOT IN "
                        "(SELECT tabid FROM systables WHERE type_xid > 0)")


def upgrade_catalog(conn: sqlite3.Connection) -> None:
    """Bring a database file made by an older ifxwire-server to today's catalogue, so old
    --data directories keep opening: add the catalog tables and columns it lacks
    (syssequences, sysroleauth, sysprocedures.paramtypes, …) and our private tables; rename
    its sysindexes table to sysindices with the sysindexes view over it; move catalogue
    tables that an older release put at other tabids (sysproccolumns 84, sysmaster's own
    tables 50-52) to today's; mark ROW-type inheritance rows written with a table's class
    ('T') as a type's ('t'). One read of sqlite_master and systables when nothing is to do:
    a column is there when its quoted name is in the table's DDL."""
    rows = conn.execute("SELECT type, name, sql FROM main.sqlite_master "
                        "WHERE type IN ('table', 'view', 'index') OR (type = 'trigger' AND "
                        "name LIKE '\\_ifx\\_cv\\_%' ESCAPE '\\')").fetchall()
    ddl = {str(name): str(sql or "") for kind, name, sql in rows if kind == "table"}
    views = {str(name) for kind, name, _ in rows if kind == "view"}
    indexes = {str(name) for kind, name, _ in rows if kind == "index"}
    no_indexes = any(name not in indexes for name, _, _ in CATALOG_INDEXES)
    sysmaster = "sysdbspaces" in ddl
    expected = {name: tabid for tabid, name, _ in CATALOG_TABLES + (
        SYSMASTER_TABLES if sysmaster else [])}
    placed = {str(name): int(tabid) for tabid, name in conn.execute(
        "SELECT tabid, tabname FROM systables WHERE tabid < ?", (USER_TABID_START + 3,))}
    moves = [(placed[name], tabid, name) for name, tabid in expected.items()
             if name in placed and placed[name] != tabid]
    rename = "sysindexes" in ddl and "sysindices" not in ddl
    if rename:
        ddl["sysindices"] = ddl.pop("sysindexes")
    missing = [(tabid, name, cols) for tabid, name, cols in CATALOG_TABLES if name not in ddl]
    short = [(tabid, name, [(n, t) for n, t in cols if quote(n) not in ddl[name]], len(cols))
             for tabid, name, cols in CATALOG_TABLES if name in ddl]
    short = [entry for entry in short if entry[2]]
    private = [name for name in PRIVATE_TABLES if name not in ddl]
    stamps = not {str(name) for kind, name, _ in rows if kind == "trigger"} >= versions.TRIGGERS
    retyped = _retyped(conn) if "sysindices" in ddl and not rename else []
    no_views = [name for name, *_ in CATALOG_VIEWS.values() if name not in views]
    # ROW-type inheritance written with class 'T' (a table's class) before typed tables
    # existed: a 'T' row whose child is no typed table's tabid is such a row (ids_sqr_043)
    type_rows = "sysinherits" in ddl and conn.execute(
        "SELECT 1 FROM sysinherits WHERE "
        + (_TYPE_ROWS_AS_TABLES if quote("type_xid") in ddl.get("systables", "")
           else "class = 'T'")  # (no typed table can exist without the column)
        + " LIMIT 1").fetchone() is not None
    if not (missing or short or private or moves or rename or no_views or retyped
            or type_rows or no_indexes or stamps):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if rename:
            conn.execute("ALTER TABLE main.sysindexes RENAME TO sysindices")
            conn.execute("UPDATE systables SET tabname = 'sysindices' WHERE tabid = 3")
            hidden = [n for n, _ in CATALOG_TABLES[2][2] if n not in SYSINDICES_VISIBLE]
            conn.execute(f"DELETE FROM syscolumns WHERE tabid = 3 AND colname IN "
                         f"({', '.join('?' * len(hidden))})", hidden)
            conn.execute("UPDATE systables SET ncols = ? WHERE tabid = 3",
                         (len(SYSINDICES_VISIBLE),))
        # sysmaster's tables first: they leave tabids 50-52 the catalogue now uses
        for old, new, _name in sorted(moves, key=lambda m: -m[1]):
            _move_tabid(conn, old, new)
        for tabid, name, cols in missing:
            conn.execute(f"CREATE TABLE main.{quote(name)} ({sqlite_column_defs(cols)})")
            shown = visible_columns(name, cols)
            insert_table_row(conn, tabid, name, OWNER, "T", [c[1] for c in shown])
            insert_columns(conn, tabid, shown)
        for tabid, name, cols, ncols in short:
            for n, t in cols:
                conn.execute(f"ALTER TABLE main.{quote(name)} ADD COLUMN {quote(n)} "
                             f"{t.sqlite_decl}")
            if name == "sysindices":
                # 14.10's columns (nrows, indexkeys, amid, …) and types (leaves FLOAT, owner
                # VARCHAR(32)): its syscolumns rows, and the sysindexes view over it, anew
                _rewrite_columns(conn, tabid, name)
                no_views = [view for view, *_ in CATALOG_VIEWS.values()]
                continue
            insert_columns(conn, tabid, cols, ncols - len(cols) + 1)
            conn.execute("UPDATE systables SET ncols = ? WHERE tabid = ?", (ncols, tabid))
        for tabid in retyped:
            name = next(n for t, n, _ in CATALOG_TABLES if t == tabid)
            if name not in [entry[1] for entry in short]:
                _rewrite_columns(conn, tabid, name)
        for statement in PRIVATE_DDL:
            conn.execute(statement)
        if type_rows:
            conn.execute(f"UPDATE sysinherits SET class = 't' WHERE {_TYPE_ROWS_AS_TABLES}")
        if no_views:
            for name in no_views:
                conn.execute(f"DROP VIEW IF EXISTS main.{quote(name)}")
            tabids = ", ".join(str(t) for t in CATALOG_VIEWS)
            for table in ("sysviews", "syscolumns", "systables"):
                conn.execute(f"DELETE FROM {table} WHERE tabid IN ({tabids})")
            create_catalog_views(conn)
        if no_indexes:
            create_catalog_indexes(conn)
        if stamps:
            for statement in versions.ddl():
                conn.execute(statement)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


#: Catalogue columns whose type a later release changed to the Guide to SQL: Reference's
#: (tabid, column): the owner columns of sysindices, syssynonyms, syssyntable, sysconstraints,
#: sysprocedures, systriggers and sysxtdtypes are VARCHAR(32) (were CHAR(32)), and
#: sysprocedures.numargs is INTEGER (was SMALLINT); systabauth's and syscolauth's grantor and
#: grantee are VARCHAR(32) (were CHAR(32)).
RETYPED_COLUMNS = [(3, "owner"), (9, "owner"), (10, "owner"), (11, "owner"), (16, "owner"),
                   (16, "numargs"), (22, "owner"), (30, "owner"), (4, "grantor"),
                   (4, "grantee"), (5, "grantor"), (5, "grantee"), (19, "grantor"),
                   (19, "grantee")]


def _retyped(conn: sqlite3.Connection) -> list[int]:
    """The tabids of RETYPED_COLUMNS whose syscolumns row is not today's type."""
    want = {(tabid, col): ty.coltype for tabid, _, cols in CATALOG_TABLES
            for col, ty in cols if (tabid, col) in RETYPED_COLUMNS}
    marks = " OR ".join("(tabid = ? AND colname = ?)" for _ in RETYPED_COLUMNS)
    have = {(int(t), str(c)): int(ct) for t, c, ct in conn.execute(
        f"SELECT tabid, colname, coltype FROM syscolumns WHERE {marks}",
        [v for pair in RETYPED_COLUMNS for v in pair])}
    return sorted({tabid for key, tabid in ((k, k[0]) for k in want)
                   if have.get(key) is not None and have[key] != want[key]})


def _rewrite_columns(conn: sqlite3.Connection, tabid: int, name: str) -> None:
    """Write a catalogue table's syscolumns rows, ncols and rowsize as today's release has
    them (for a table whose columns changed type or gained columns in the middle)."""
    cols = next(c for t, _, c in CATALOG_TABLES if t == tabid)
    shown = visible_columns(name, cols)
    conn.execute("DELETE FROM syscolumns WHERE tabid = ?", (tabid,))
    insert_columns(conn, tabid, shown)
    conn.execute("UPDATE systables SET ncols = ?, rowsize = ? WHERE tabid = ?",
                 (len(shown), rowsize([t for _, t in shown]), tabid))


def _move_tabid(conn: sqlite3.Connection, old: int, new: int) -> None:
    """Renumber a catalogue table an older release placed elsewhere."""
    conn.execute("UPDATE systables SET tabid = ?, partnum = ?, version = ? WHERE tabid = ?",
                 (new, 1048576 + new, new << 16, old))
    conn.execute("UPDATE syscolumns SET tabid = ? WHERE tabid = ?", (new, old))
