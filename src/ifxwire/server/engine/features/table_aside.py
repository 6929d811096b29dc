"""Setting a SQLite table aside while a new one of the same name takes its place: ALTER
TABLE's rebuild (alter.py) and the undo of DDL in a transaction (locks/undo.py, which puts
back a table a statement changed).

Foreign keys are on and cannot be turned off inside a transaction, so a table that a foreign
key names cannot simply be dropped (its rows would be deleted first, with the keys' ON
DELETE actions): it is renamed aside (with ``legacy_alter_table`` on) and the REFERENCES
clauses SQLite then rewrote are pointed back (``point_back``).
"""

from __future__ import annotations

import sqlite3

from ..schema.catalog import quote


def must_rename(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the old table is set aside by renaming it: when a foreign key (of another
    table or its own) with an ON DELETE action names it, or it is not in the main database
    (a TEMP table).

    Why not always: SQLite's ALTER TABLE RENAME reads the whole schema again (all its
    CREATE texts parsed, TEMP triggers included), ~45 ms at 1,000 tables, where dropping the
    table after copying its rows into a TEMP table of the same column types costs ~1 ms;
    Django's suite rebuilt tables in a schema of ~2,000 objects thousands of times. But
    dropping a table deletes its rows first (foreign keys cannot be turned off inside a
    transaction), and a key's ON DELETE action (CASCADE) would take the child rows with
    them. A key without one (NO ACTION, the server's default) is deferred by the caller
    (``PRAGMA defer_foreign_keys``): the rows put back into the new table of the same name
    satisfy its child rows again before the transaction commits, and a child row left
    without its parent fails the commit, as it should (thirty-second session: the tables of
    ``bench/ddl_in_transactions.py`` all have such keys, and the RENAME was a quarter of
    its time)."""
    return not in_main(conn, name) or acted_on_by_foreign_key(conn, name)


def acted_on_by_foreign_key(conn: sqlite3.Connection, name: str) -> bool:
    """Whether a foreign key naming ``name`` has an ON DELETE action or is RESTRICT (which
    SQLite checks at once, deferred or not)."""
    for child in _naming(conn, name):
        for parent, on_delete in conn.execute(
                'SELECT "table", on_delete FROM main.pragma_foreign_key_list(?)', (child,)):
            if parent == name and str(on_delete).upper() != "NO ACTION":
                return True
    return False


def in_main(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?",
                        (name,)).fetchone() is not None


def _naming(conn: sqlite3.Connection, name: str) -> list[str]:
    """The tables of the main database (``name`` included) whose foreign keys may name
    ``name`` (the server writes every REFERENCES clause with the name quoted)."""
    return [str(r[0]) for r in conn.execute(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND "
        "instr(sql, 'REFERENCES ' || ?) > 0", (quote(name),))]


def named_by_foreign_key(conn: sqlite3.Connection, name: str) -> bool:
    """Whether a foreign key of a table in the main database (``name``'s own included)
    names ``name``."""
    return bool(_naming(conn, name))


def copy_aside(conn: sqlite3.Connection, name: str, aside: str) -> None:
    """Copy ``name``'s rows into the TEMP table ``aside`` with the same declared column types
    (so the same affinities: every value is kept as it was stored) and drop ``name``."""
    decls = ", ".join(f"{quote(str(col))} {decl}" for col, decl in conn.execute(
        "SELECT name, type FROM main.pragma_table_info(?) ORDER BY cid", (name,)))
    conn.execute(f"CREATE TEMP TABLE {aside} ({decls})")
    conn.execute(f"INSERT INTO temp.{aside} SELECT * FROM main.{quote(name)}")
    conn.execute(f"DROP TABLE main.{quote(name)}")


def point_back(conn: sqlite3.Connection, name: str, aside: str) -> None:
    """Renaming a table aside made SQLite rewrite the REFERENCES clauses of the tables that
    point at it (it does so whenever foreign keys are on, which cannot change inside a
    transaction); point them back at the rebuilt table by editing their schema text, the
    documented writable_schema procedure, then move the schema version so every connection
    reloads it."""
    old, new = quote(aside), quote(name)
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND "
                        "name <> ? AND instr(sql, ?) > 0", (aside, old)).fetchall()
    if not rows:
        return
    version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
    conn.execute("PRAGMA writable_schema = ON")
    try:
        for table, sql in rows:
            conn.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                         (str(sql).replace(old, new), table))
    finally:
        conn.execute("PRAGMA writable_schema = OFF")
    conn.execute(f"PRAGMA schema_version = {version + 1}")
