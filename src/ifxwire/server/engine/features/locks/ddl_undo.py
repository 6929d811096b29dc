"""Undo entries for DDL inside a row-lock transaction (docs/SERVER.md, "DDL in a transaction").

Why: a CREATE TABLE inside BEGIN WORK used to escalate to SQLite's database write lock held
to the transaction's end, since the undo log could only take back rows; every other writer
of the database then failed, where Informix lets writers of other tables through (Flyway's
transactional migrations met -271/-107 on its history table). Instead a DDL statement runs
like a DML statement, in a short SQLite write of its own, and leaves undo entries that take it
back:

* the catalogue (``sys*`` and the server's own ``_ifx_*`` tables) is compared row by row
  before and after the statement, and each changed row becomes an ordinary undo entry (I, U,
  D; ``undo.apply`` takes them back);
* SQLite's schema (``sqlite_master``) is compared the same way; each object the statement
  created, changed or dropped becomes an ``S`` entry whose image says how to put it back: a
  created object is dropped, a changed or dropped index/trigger/view is created again from its
  former SQL, and a changed or dropped table is created again from its former SQL and filled
  from a copy of its rows taken before the statement (``backup``), with its indexes and
  triggers after it;
* a first ``S`` entry without a type moves SQLite's schema version when the rest is undone, so
  the schema caches of every session see the catalogue as it was.

What the comparison finds but cannot take back (a table changed that was not copied before:
say a DDL that rebuilds a table other than the one it names) raises ``Unsupported``: the
statement is rolled back and runs again escalated, as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from ...schema import changelog
from . import undo

#: Copies of tables a DDL statement changes, named per transaction and statement.
BACKUP_PREFIX = "_ifx_ddlbk_"

#: Server tables a DDL statement never needs taken back, or that others' DML changes (the
#: counters of _ifx_serial only move forward: a rolled-back DDL leaves them where they are).
#: (``_ifx_cv``: the catalogue stamps and their triggers, schema/catalog_versions.py, which
#: must only grow: the undo's own catalogue writes stamp the tables again)
_SKIP = ("sqlite_", "_ifx_lo", undo.UNDO_TABLE, BACKUP_PREFIX, "_ifx_bump", "_ifx_cv")

Objects = dict[tuple[str, str], tuple[str, "str | None"]]
Rows = dict[str, dict[int, tuple[object, ...]]]


class Unsupported(Exception):
    """The statement changed what its undo entries could not put back."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def objects(conn: sqlite3.Connection) -> Objects:
    """SQLite's schema of the main database: (type, name) -> (table, SQL)."""
    return {(str(t), str(n)): (str(tb), s) for t, n, tb, s in conn.execute(
        "SELECT type, name, tbl_name, sql FROM main.sqlite_master")
        if not str(n).startswith(_SKIP)}


def user_tables(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute(
        "SELECT tabname FROM main.systables WHERE tabid >= 100 AND tabtype = 'T'")}


def catalogue_tables(conn: sqlite3.Connection, schema: Objects) -> dict[str, str | None]:
    """The catalogue tables of ``schema`` (``sys*`` and the server's ``_ifx_*``, not the
    user's): name -> CREATE TABLE text."""
    users = user_tables(conn)  # (a user may name a table sys…)
    return {name: sql for (kind, name), (_, sql) in schema.items()
            if kind == "table" and name not in users and not name.startswith(_SKIP)}


def record(conn: sqlite3.Connection, schema: Objects) -> dict[str, str | None]:
    """Before a DDL statement: record the catalogue rows it changes (schema/changelog.py).
    Returns the catalogue tables recorded, for ``entries``."""
    tables = catalogue_tables(conn, schema)
    changelog.arm(conn, tables)
    return tables


def large_objects(conn: sqlite3.Connection) -> Rows:
    """The smart-large-object store's tables (``_ifx_lo*``, large) summed up, under the key ""
    (``entries`` refuses a statement that changed them: a dropped table's smart large
    objects)."""
    return {"": {0: _lo_sums(conn)}}


def catalogue(conn: sqlite3.Connection, tables: dict[str, str | None]) -> Rows:
    """Every row of ``tables`` (by rowid), with ``large_objects``: what the recorded changes
    are checked against under IFXWIRE_DDL_UNDO_CHECK (``compare``)."""
    rows = large_objects(conn)
    for name in tables:
        rows[name] = {int(r[0]): tuple(r[1:]) for r in conn.execute(
            f"SELECT rowid, * FROM main.{_quote(name)}")}
    return rows


def _lo_sums(conn: sqlite3.Connection) -> tuple[object, ...]:
    sums: list[object] = []
    for (name,) in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table' "
                                "AND name LIKE '\\_ifx\\_lo%' ESCAPE '\\' ORDER BY name"):
        sums.extend(conn.execute(f"SELECT COUNT(*), TOTAL(rowid), MAX(rowid) "
                                 f"FROM main.{_quote(str(name))}").fetchone())
    return tuple(sums)


def backup(conn: sqlite3.Connection, table: str, name: str) -> bool:
    """Copy ``table``'s rows (with their rowids) before a DDL statement changes it."""
    if not conn.execute("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?",
                        (table,)).fetchone():
        return False
    conn.execute(f"CREATE TABLE main.{_quote(name)} AS SELECT rowid AS _ifx_rowid, * "
                 f"FROM main.{_quote(table)}")
    return True


def entries(conn: sqlite3.Connection, before: Objects, rows: Rows,
            backups: dict[str, str], tables: dict[str, str | None],
            state: list[tuple[Objects, Rows]] | None = None, full: Rows | None = None,
            ) -> tuple[list[undo.Entry], list[str]]:
    """The undo entries of the statement run since ``before``/``rows`` were taken and
    ``record`` armed ``tables``, and the tables it created (to be locked for the
    transaction). ``state`` receives the schema and large-object sums as the statement left
    them (the next DDL's ``before``/``rows`` while nothing else changed the file:
    session_lock_ddl.py). ``full``: the whole catalogue before the statement; the recorded
    changes are then checked against a comparison of it with the catalogue after
    (AssertionError when they differ)."""
    after = objects(conn)
    changed = [name for (kind, name), (_, sql) in before.items() if kind == "table"
               and (name in backups or after.get((kind, name), ("", None))[1] != sql)]
    for name in changed:
        if name not in backups:
            raise Unsupported(name)
    created_tables = [name for (kind, name) in after if kind == "table"
                      and (kind, name) not in before]
    # A server table made on first use (CREATE TABLE IF NOT EXISTS) is shared: other
    # sessions' committed rows may go into it before this transaction ends, so its undo
    # takes back this statement's rows only and leaves the table.
    users = user_tables(conn)
    internal = {name for name in created_tables
                if name not in users and name.startswith(("_ifx_", "sys"))}
    created_tables = [name for name in created_tables if name not in internal]
    out: list[undo.Entry] = [("", "S", 0, None)]  # undone last: move the schema version
    # Catalogue rows (undone after the schema is back, as apply goes in reverse).
    now = large_objects(conn)
    if now[""] != rows[""]:
        raise Unsupported("smart large objects")
    if state is not None:
        state.append((after, now))
    recorded = _recorded(conn, tables, changelog.take(conn))
    if full is not None:
        expected = compare(full, catalogue(conn, tables))
        if expected != recorded:
            raise AssertionError(f"recorded catalogue changes {recorded} differ from the "
                                 f"snapshots' {expected}")
    out.extend(recorded)
    for table in internal:
        out.extend((table, "I", int(rid), None)
                   for (rid,) in conn.execute(f"SELECT rowid FROM main.{_quote(table)}"))
    # Changed or dropped indexes, triggers and views of tables not rebuilt: their old SQL.
    for (kind, name), (tbl, sql) in before.items():
        if kind == "table" or sql is None or tbl in changed:
            continue
        if after.get((kind, name), ("", None))[1] != sql:
            out.append((name, "S", 0, json.dumps({"type": kind, "old": sql})))
    # Changed or dropped tables: their old SQL, rows, and indexes and triggers.
    for name in changed:
        deps = [sql for (kind, obj), (tbl, sql) in before.items()
                if tbl == name and kind != "table" and sql is not None]
        out.append((name, "S", 0, json.dumps({"type": "table", "old": before[("table", name)][1],
                                              "backup": backups[name], "deps": deps})))
    # Created objects (undone first): dropped.
    for (kind, name), (tbl, sql) in after.items():
        if (kind, name) not in before and sql is not None and tbl not in internal:
            out.append((name, "S", 0, json.dumps({"type": kind, "old": None})))
    return out, created_tables


def _recorded(conn: sqlite3.Connection, tables: dict[str, str | None],
              changes: dict[str, changelog.TableChanges]) -> list[undo.Entry]:
    """The undo entries of the catalogue rows the statement changed: a row it updated or
    deleted compared with its before-image (U when changed, D when gone, nothing when put
    back as it was), a row it inserted deleted (I). Tables in ``tables``' order, rowids in
    order, as ``compare`` makes them from whole snapshots."""
    out: list[undo.Entry] = []
    for table in tables:
        images, inserted = changes.get(table, ({}, []))
        q = f"main.{_quote(table)}"
        for rid in sorted(images):
            cur = conn.execute(f"SELECT * FROM {q} WHERE rowid = ?", (rid,)).fetchone()
            _put_back(out, table, rid, images[rid], None if cur is None else tuple(cur))
        fresh = [rid for rid in inserted if rid not in images]
        for at in range(0, len(fresh), 500):
            # (a row the statement inserted and deleted again: none; its rowid may be
            # another session's by the time this transaction rolls back)
            chunk = fresh[at:at + 500]
            live = {int(r[0]) for r in conn.execute(
                f"SELECT rowid FROM {q} WHERE rowid IN ({', '.join('?' * len(chunk))})",
                chunk)}
            out.extend((table, "I", rid, None) for rid in chunk if rid in live)
    return out


def _put_back(out: list[undo.Entry], table: str, rid: int, img: tuple[object, ...],
              cur: tuple[object, ...] | None) -> None:
    """The entry that puts a row back as ``img`` from ``cur`` (None: gone): D, U or none
    (unchanged; ``_ifx_serial``'s counters are not moved back)."""
    if cur is None:
        out.append((table, "D", rid, undo.encode(img)))
    elif cur != img and table != "_ifx_serial":
        out.append((table, "U", rid, undo.encode(img)))


def compare(old: Rows, new: Rows) -> list[undo.Entry]:
    """The catalogue rows' undo entries from whole snapshots before and after a statement:
    the check of ``_recorded`` (tests run with IFXWIRE_DDL_UNDO_CHECK=1)."""
    out: list[undo.Entry] = []
    for table, before in old.items():
        if not table:
            continue
        after = new.get(table, {})
        for rid, img in before.items():
            _put_back(out, table, rid, img, after.get(rid))
        out.extend((table, "I", rid, None) for rid in after if rid not in before)
    return out


def discard(conn: sqlite3.Connection, done: Sequence[undo.Entry]) -> None:
    """At COMMIT: drop the copies of tables the transaction's DDL changed."""
    for _, op, _, img in done:
        if op == "S" and img is not None:
            bk = json.loads(img).get("backup")
            if bk:
                conn.execute(f"DROP TABLE IF EXISTS main.{_quote(str(bk))}")
