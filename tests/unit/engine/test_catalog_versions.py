"""The catalogue stamps of schema/catalog_versions.py on a bare SQLite file: every write to
the six watched tables stamps its tabids one past the largest stamp, whatever the outer
statement's conflict clause, and ``changes`` says when a load must be whole."""

from __future__ import annotations

import sqlite3

from ifxwire.server.engine.schema import catalog_versions as versions


def _db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    for table, cols in versions.WATCHED.items():
        extra = ", colno INTEGER" if table == "syscolumns" else ""
        conn.execute(f"CREATE TABLE {table} ({', '.join(cols)}{extra})")
    conn.execute("CREATE UNIQUE INDEX sc ON syscolumns (tabid, colno)")
    for ddl in versions.ddl():
        conn.execute(ddl)
    return conn


def _stamps(conn: sqlite3.Connection) -> dict[int, int]:
    return dict(conn.execute(f"SELECT tabid, seq FROM {versions.TABLE}").fetchall())


def test_each_write_stamps_its_tabids_past_the_largest() -> None:
    conn = _db()
    conn.execute("INSERT INTO systables VALUES (100)")
    conn.execute("INSERT INTO syscolumns VALUES (101, 1)")
    assert _stamps(conn) == {100: 1, 101: 2}
    conn.execute("UPDATE systables SET tabid = 102 WHERE tabid = 100")  # both sides
    assert _stamps(conn) == {100: 3, 101: 2, 102: 4}
    conn.execute("DELETE FROM syscolumns WHERE tabid = 101")
    assert _stamps(conn)[101] == 5
    conn.execute("INSERT INTO sysinherits VALUES (110, 111)")  # child and parent
    assert {k: v for k, v in _stamps(conn).items() if k >= 110} == {110: 6, 111: 7}
    for table in ("sysdefaults", "sysindices", "sysconstraints"):
        conn.execute(f"INSERT INTO {table} VALUES (120)")
    assert _stamps(conn)[120] == 10


def test_an_outer_conflict_clause_does_not_keep_the_old_stamp() -> None:
    # a trigger's own OR REPLACE would yield to the outer OR IGNORE: the stamp must move
    conn = _db()
    conn.execute("INSERT INTO syscolumns VALUES (100, 1)")
    conn.execute("INSERT OR IGNORE INTO syscolumns VALUES (100, 2)")
    assert _stamps(conn) == {100: 2}
    conn.execute("INSERT OR REPLACE INTO syscolumns VALUES (100, 2)")
    assert _stamps(conn) == {100: 3}


def test_changes_says_when_to_load_whole() -> None:
    conn = _db()
    assert versions.changes(conn, "", None) == (0, None)  # no base
    conn.execute("INSERT INTO systables VALUES (100)")
    conn.execute("INSERT INTO systables VALUES (101)")
    assert versions.changes(conn, "", 2) == (2, set())  # nothing since
    assert versions.changes(conn, "", 1) == (2, {101})
    assert versions.changes(conn, "", 5) == (2, None)  # a snapshot older than the base
    assert versions.changes(conn, "", -1) == (2, None)
    bare = sqlite3.connect(":memory:")
    assert versions.changes(bare, "", 3) == (-1, None)  # a file without stamps


def test_a_rolled_back_transaction_takes_its_stamps_with_it() -> None:
    conn = _db()
    conn.execute("INSERT INTO systables VALUES (100)")
    conn.execute("BEGIN")
    conn.execute("INSERT INTO systables VALUES (101)")
    conn.execute("ROLLBACK")
    assert versions.changes(conn, "", 1) == (1, set())
