"""The catalogue changes a DDL statement makes, as the TEMP triggers of schema/changelog.py
record them, against the whole-snapshot comparison they replaced (ddl_undo.compare): the two
must give the same undo entries, in the same order, whatever mix of writes the statement
makes to the catalogue."""

from __future__ import annotations

import random
import sqlite3

import pytest

from ifxwire.server.engine.features.locks import ddl_undo, undo
from ifxwire.server.engine.schema import changelog


def _db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE systables (tabname TEXT, tabid INTEGER, tabtype TEXT)")
    conn.execute("CREATE TABLE syscolumns (colname TEXT, tabid INTEGER, colno INTEGER, "
                 "img BLOB)")
    conn.execute("CREATE TABLE _ifx_meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("CREATE TABLE _ifx_serial (tabid INTEGER, kind TEXT, next INTEGER, "
                 "PRIMARY KEY (tabid, kind))")
    conn.execute("CREATE TABLE sysnumbered (id INTEGER PRIMARY KEY, v TEXT)")
    conn.execute("CREATE TABLE users_table (a INTEGER)")
    conn.execute("INSERT INTO systables VALUES ('users_table', 100, 'T')")
    conn.executemany("INSERT INTO syscolumns VALUES (?, ?, ?, ?)",
                     [(f"c{n}", 100, n, bytes([n, 0, 255])) for n in range(1, 8)])
    conn.executemany("INSERT INTO sysnumbered VALUES (?, ?)", [(n, str(n)) for n in (1, 5, 9)])
    conn.execute("INSERT INTO _ifx_meta VALUES ('name', 'db')")
    conn.execute("INSERT INTO _ifx_serial VALUES (100, 'serial', 1)")
    return conn


def _both(conn: sqlite3.Connection, statement: list[str]) -> tuple[list[undo.Entry],
                                                                    list[undo.Entry]]:
    """The statement's catalogue entries recorded and compared (ddl_undo.entries does the
    check itself when given ``full``: it raises when they differ)."""
    before = ddl_undo.objects(conn)
    tables = ddl_undo.record(conn, before)
    full = ddl_undo.catalogue(conn, tables)
    conn.execute("BEGIN")
    for sql in statement:
        conn.execute(sql)
    entries, _ = ddl_undo.entries(conn, before, ddl_undo.large_objects(conn), {}, tables,
                                  full=full)
    rows = [e for e in entries if e[1] != "S"]
    return rows, ddl_undo.compare(full, ddl_undo.catalogue(conn, tables))


def test_the_user_tables_are_not_recorded() -> None:
    conn = _db()
    tables = ddl_undo.record(conn, ddl_undo.objects(conn))
    assert "users_table" not in tables and "syscolumns" in tables
    conn.execute("INSERT INTO users_table VALUES (1)")
    assert changelog.take(conn) == {}


@pytest.mark.parametrize("statement", [
    ["UPDATE syscolumns SET colno = colno + 10 WHERE colno > 3"],
    ["DELETE FROM syscolumns WHERE colno % 2 = 0"],
    ["INSERT INTO syscolumns VALUES ('n', 101, 1, NULL)"],
    # inserted then deleted: no entry (the rowid may be another session's by the rollback)
    ["INSERT INTO syscolumns VALUES ('n', 101, 1, NULL)", "DELETE FROM syscolumns "
     "WHERE tabid = 101"],
    # changed and put back as it was: no entry
    ["UPDATE syscolumns SET colname = 'x' WHERE colno = 2",
     "UPDATE syscolumns SET colname = 'c2' WHERE colno = 2"],
    # the first image wins over later ones
    ["UPDATE syscolumns SET colname = 'x' WHERE colno = 2",
     "UPDATE syscolumns SET colname = 'y' WHERE colno = 2"],
    # deleted, and the same rowid inserted again with other values
    ["DELETE FROM syscolumns WHERE colno = 7", "INSERT INTO syscolumns (rowid, colname, tabid, "
     "colno) VALUES (7, 'again', 100, 7)"],
    # a row moved to another rowid: D of the old, I of the new
    ["UPDATE sysnumbered SET id = 20 WHERE id = 5"],
    ["UPDATE sysnumbered SET id = id + 1"],
    # upserts (the server's catalogue writes; OR REPLACE's deletion escapes the triggers)
    ["INSERT INTO _ifx_meta VALUES ('name', 'other') ON CONFLICT (key) DO UPDATE "
     "SET value = excluded.value"],
    ["INSERT INTO _ifx_serial VALUES (100, 'serial', 9) ON CONFLICT (tabid, kind) DO UPDATE "
     "SET next = excluded.next", "INSERT INTO _ifx_serial VALUES (101, 'serial', 1)"],
    ["DELETE FROM systables", "DELETE FROM syscolumns", "DELETE FROM sysnumbered"],
])
def test_recorded_changes_are_the_compared_ones(statement: list[str]) -> None:
    conn = _db()
    recorded, compared = _both(conn, statement)
    assert recorded == compared
    assert recorded or statement[-1].startswith(("UPDATE syscolumns SET colname = 'c2'",
                                                 "DELETE FROM syscolumns WHERE tabid = 101"))


def test_the_entries_take_the_statement_back() -> None:
    conn = _db()
    snapshot = ddl_undo.catalogue(conn, ddl_undo.catalogue_tables(conn, ddl_undo.objects(conn)))
    recorded, _ = _both(conn, ["UPDATE syscolumns SET img = x'00' WHERE colno < 4",
                               "DELETE FROM syscolumns WHERE colno = 6",
                               "INSERT INTO syscolumns VALUES ('z', 100, 8, x'01')",
                               "UPDATE sysnumbered SET id = 30 WHERE id = 9"])
    undo.apply(conn, recorded)
    conn.execute("COMMIT")
    assert ddl_undo.catalogue(conn, ddl_undo.catalogue_tables(
        conn, ddl_undo.objects(conn))) == snapshot


def test_random_statements_record_what_snapshots_see() -> None:
    """Random mixes of inserts, updates (some moving rowids) and deletes: the check in
    ddl_undo.entries raises on any difference."""
    rnd = random.Random(31)
    for _ in range(40):
        conn = _db()
        statement = []
        for _ in range(rnd.randint(1, 6)):
            n = rnd.randint(1, 12)
            statement.append(rnd.choice([
                f"INSERT INTO syscolumns VALUES ('r{n}', 100, {n}, NULL)",
                f"UPDATE syscolumns SET colname = 'u{rnd.randint(1, 3)}' WHERE colno = {n}",
                f"DELETE FROM syscolumns WHERE colno = {n}",
                f"UPDATE OR IGNORE sysnumbered SET id = {n} WHERE id = {rnd.choice([1, 5, 9])}",
                f"INSERT OR IGNORE INTO sysnumbered VALUES ({n}, 'v')",
                f"DELETE FROM sysnumbered WHERE id = {n}",
            ]))
        recorded, compared = _both(conn, statement)
        assert recorded == compared, statement


def test_nothing_is_recorded_outside_arm_and_take() -> None:
    conn = _db()
    ddl_undo.record(conn, ddl_undo.objects(conn))
    changelog.take(conn)
    conn.execute("UPDATE syscolumns SET colname = 'q'")
    conn.execute("INSERT INTO systables VALUES ('t', 101, 'T')")
    assert conn.execute("SELECT count(*) FROM temp._ifxcl_log").fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM temp._ifxcl_b_syscolumns").fetchone() == (0,)


def test_a_catalogue_table_changed_gets_its_triggers_made_again() -> None:
    """A catalogue table whose definition changed since its triggers were made (a column
    added by an upgrade): made again, so its images have every column."""
    conn = _db()
    ddl_undo.record(conn, ddl_undo.objects(conn))
    changelog.take(conn)
    conn.execute("ALTER TABLE syscolumns ADD COLUMN extra TEXT DEFAULT 'e'")
    recorded, compared = _both(conn, ["UPDATE syscolumns SET extra = 'f' WHERE colno = 1"])
    assert recorded == compared and len(recorded) == 1
    assert undo.decode(str(recorded[0][3]))[-1] == "e"


def test_a_rolled_back_statement_leaves_nothing_armed() -> None:
    """A failed DDL's SQLite rollback takes back the arming with the rest (the flag row
    is written inside the statement's transaction)."""
    conn = _db()
    ddl_undo.record(conn, ddl_undo.objects(conn))  # the TEMP tables made, kept
    changelog.take(conn)
    conn.execute("BEGIN")
    ddl_undo.record(conn, ddl_undo.objects(conn))
    conn.execute("UPDATE syscolumns SET colname = 'q'")
    conn.execute("ROLLBACK")
    conn.execute("UPDATE syscolumns SET colname = 'q'")
    assert changelog.take(conn) == {}
    # (on a connection's first DDL the TEMP tables go with the rollback, and come again)
    fresh = _db()
    fresh.execute("BEGIN")
    ddl_undo.record(fresh, ddl_undo.objects(fresh))
    fresh.execute("ROLLBACK")
    recorded, compared = _both(fresh, ["DELETE FROM syscolumns WHERE colno = 1"])
    assert recorded == compared and len(recorded) == 1
