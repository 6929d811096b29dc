"""The catalogue rows a statement changes, recorded by TEMP triggers as it changes them.

Why: DDL inside a row-lock transaction leaves undo entries for every catalogue row it changed
(features/locks/ddl_undo.py). They used to be found by reading every row of every catalogue
table before and after the statement and comparing: time linear in the size of the catalogue
for each statement, so a migration of N tables in one transaction cost N squared. Django's
own suite (a test database of about 1,800 tables, migrated in transactions) spent about a
third of the server's time there (py-spy, thirtieth session). Triggers cost in the number of
rows the statement changes instead.

Per SQLite connection, private to it (TEMP objects fire for that connection's changes only,
and a DDL statement runs under the database's write latch, so they are all the changes):

* ``_ifxcl_log (tab, rid, ins)``: each catalogue row the statement touched, once, by its
  first change: ``ins`` 1 when that was an INSERT (undo deletes the row), 0 when an UPDATE
  or DELETE (undo compares the row as it is now with its before-image);
* ``_ifxcl_b_<table>``: the before-image of each row of ``<table>`` whose first change was an
  UPDATE or DELETE, under its rowid, in the table's column order (the columns typeless, so
  SQLite keeps each value's own type, as ``SELECT *`` returned it);
* three triggers per catalogue table (``_ifxcl_t_<table>_i``, ``_u``, ``_d``), acting only while
  ``_ifxcl_on`` holds a row (``arm`` ... ``take``), so a statement outside such a DDL pays one
  lookup per catalogue row it writes, and nothing per user row.

Not seen by triggers, so the server never does them to catalogue rows: a REPLACE conflict
resolution's deletion (delete triggers fire for it only under recursive_triggers; the server's
catalogue writes use ``ON CONFLICT ... DO UPDATE``), and the rows of a catalogue table
dropped (ddl_undo refuses such a statement from the schema comparison).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from .catalog import quote as _quote

PREFIX = "_ifxcl_"
# Unqualified: a trigger's body may not name a database (they are found in temp first).
_ON = f"{PREFIX}on"
_LOG = f"{PREFIX}log"
_SRC = f"{PREFIX}src"  # table -> the CREATE TABLE text its triggers were made for

#: The before-images and inserted rowids of one table: ({rowid: image}, [rowid, ...]).
TableChanges = tuple[dict[int, tuple[object, ...]], list[int]]


def _shadow(table: str) -> str:
    return _quote(PREFIX + "b_" + table)


def _trigger(table: str, op: str) -> str:
    return _quote(f"{PREFIX}t_{table}_{op}")


def _setup(conn: sqlite3.Connection) -> None:
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_ON} (x)")
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_LOG} (tab TEXT, rid INTEGER, ins INTEGER, "
                 "PRIMARY KEY (tab, rid)) WITHOUT ROWID")
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_SRC} (tab TEXT PRIMARY KEY, sql TEXT) "
                 "WITHOUT ROWID")


def _install(conn: sqlite3.Connection, table: str, sql: str | None) -> None:
    """(Re)make the shadow table and the three triggers of ``table``."""
    cols = [str(r[0]) for r in conn.execute(
        "SELECT name FROM main.pragma_table_info(?) ORDER BY cid", (table,))]
    shadow, name = _shadow(table), table.replace("'", "''")
    for op in "iud":
        conn.execute(f"DROP TRIGGER IF EXISTS temp.{_trigger(table, op)}")
    conn.execute(f"DROP TABLE IF EXISTS temp.{shadow}")
    conn.execute(f"CREATE TEMP TABLE {shadow} (_rid INTEGER PRIMARY KEY, "
                 f"{', '.join(_quote('c_' + c) for c in cols)})")
    old = ", ".join(f"OLD.{_quote(c)}" for c in cols)
    when = f"WHEN EXISTS (SELECT 1 FROM {_ON})"
    image = (f"INSERT OR IGNORE INTO {shadow} SELECT OLD.rowid, {old} WHERE NOT EXISTS "
             f"(SELECT 1 FROM {_LOG} WHERE tab = '{name}' AND rid = OLD.rowid); "
             f"INSERT OR IGNORE INTO {_LOG} VALUES ('{name}', OLD.rowid, 0);")
    target = f"main.{_quote(table)}"
    conn.execute(f"CREATE TEMP TRIGGER {_trigger(table, 'd')} BEFORE DELETE ON {target} "
                 f"{when} BEGIN {image} END")
    # An UPDATE that moves a row to another rowid also inserts there.
    conn.execute(f"CREATE TEMP TRIGGER {_trigger(table, 'u')} BEFORE UPDATE ON {target} "
                 f"{when} BEGIN {image} INSERT OR IGNORE INTO {_LOG} SELECT '{name}', "
                 f"NEW.rowid, 1 WHERE NEW.rowid IS NOT OLD.rowid; END")
    conn.execute(f"CREATE TEMP TRIGGER {_trigger(table, 'i')} AFTER INSERT ON {target} "
                 f"{when} BEGIN INSERT OR IGNORE INTO {_LOG} VALUES ('{name}', NEW.rowid, 1); "
                 "END")
    conn.execute(f"INSERT INTO {_SRC} VALUES (?, ?) ON CONFLICT (tab) DO UPDATE "
                 "SET sql = excluded.sql", (table, sql))


def arm(conn: sqlite3.Connection, tables: Mapping[str, str | None]) -> None:
    """Start recording the changes to ``tables`` (catalogue table -> its CREATE TABLE text,
    from sqlite_master): triggers made for a table that has none, or whose definition
    changed since they were made; what an earlier statement left cleared."""
    try:
        made = {str(t): s for t, s in conn.execute(f"SELECT tab, sql FROM {_SRC}")}
    except sqlite3.OperationalError:  # the connection's first: no TEMP tables yet
        _setup(conn)
        made = {}
    listed = {str(n) for (n,) in conn.execute(
        "SELECT name FROM temp.sqlite_master WHERE type = 'trigger' "
        f"AND name LIKE '\\{PREFIX[:-1]}\\_%' ESCAPE '\\'")}
    for table, sql in tables.items():
        if made.get(table, "") != sql or f"{PREFIX}t_{table}_d" not in listed:
            _install(conn, table, sql)
    _clear(conn)
    conn.execute(f"INSERT INTO {_ON} VALUES (1)")


def _clear(conn: sqlite3.Connection) -> None:
    touched = [str(t) for (t,) in conn.execute(
        f"SELECT DISTINCT tab FROM {_LOG} WHERE ins = 0")]
    for table in touched:
        conn.execute(f"DELETE FROM {_shadow(table)}")
    conn.execute(f"DELETE FROM {_LOG}")
    conn.execute(f"DELETE FROM {_ON}")


def take(conn: sqlite3.Connection) -> dict[str, TableChanges]:
    """Stop recording; what was recorded since ``arm``, per table, rowids in order."""
    out: dict[str, TableChanges] = {}
    for tab, rid, ins in conn.execute(f"SELECT tab, rid, ins FROM {_LOG} ORDER BY tab, rid"):
        images, inserted = out.setdefault(str(tab), ({}, []))
        if ins:
            inserted.append(int(rid))
        else:
            images[int(rid)] = ()
    for table, (images, _) in out.items():
        if images:
            for row in conn.execute(f"SELECT * FROM {_shadow(table)}"):
                images[int(row[0])] = tuple(row[1:])
    _clear(conn)
    return out
