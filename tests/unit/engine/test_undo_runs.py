"""A transaction's in-memory undo log joins runs of inserted rowids across statements.

Statements that are not batched (single INSERTs in a loop, an executemany on a table with
full-row logging, which runs row by row) each left one entry per inserted row in memory until
the COMMIT: a 1M-row load held 1M entries (~70 MB of the server's RSS). Now a run that
continues the log's last entry is joined to it, while a row another session inserted in
between keeps the runs apart, so a ROLLBACK still takes back exactly this session's rows.
"""

from __future__ import annotations

from ifxwire.server.engine import Engine
from ifxwire.server.engine.features.locks import undo

from .conftest import Sql, session_on


def test_single_inserts_leave_one_entry(db: Sql) -> None:
    db.run("CREATE TABLE t (a INT)")
    db.run("BEGIN WORK")
    for i in range(200):
        db.run("INSERT INTO t VALUES (?)", i)
    assert db.s._rl_undo == [("t", "J", 1, "200")]  # before: 200 entries
    db.run("ROLLBACK WORK")
    assert db.one("SELECT COUNT(*) FROM t") == 0


def test_another_sessions_row_between_keeps_the_runs_apart(engine: Engine, db: Sql) -> None:
    db.run("CREATE TABLE t (a INT) LOCK MODE ROW")  # (PAGE: the rows would share a lock)
    other = session_on(engine, "testdb")
    db.run("BEGIN WORK")
    for i in range(3):
        db.run("INSERT INTO t VALUES (?)", i)
    other.run("INSERT INTO t VALUES (100)")  # committed at once: rowid 4
    for i in range(3):
        db.run("INSERT INTO t VALUES (?)", 10 + i)
    assert db.s._rl_undo == [("t", "J", 1, "3"), ("t", "J", 5, "7")]
    db.run("ROLLBACK WORK")
    assert db.rows("SELECT a FROM t") == [(100,)]
    other.s.close()


def test_a_delete_between_ends_the_run(db: Sql) -> None:
    db.run("CREATE TABLE t (a INT)")
    db.run("BEGIN WORK")
    db.run("INSERT INTO t VALUES (1)")
    db.run("INSERT INTO t VALUES (2)")
    db.run("DELETE FROM t WHERE a = 2")
    db.run("INSERT INTO t VALUES (3)")
    assert [e[1] for e in db.s._rl_undo] == ["J", "D", "I"]
    db.run("ROLLBACK WORK")
    assert db.one("SELECT COUNT(*) FROM t") == 0


def test_frozen_entries_are_never_changed() -> None:
    log: list[undo.Entry] = [("t", "J", 1, "5")]
    undo.extend(log, [("t", "I", 6, None)], frozen=1)  # the last entry is in the file
    assert log == [("t", "J", 1, "5"), ("t", "I", 6, None)]
    undo.extend(log, [("t", "J", 7, "9"), ("u", "I", 1, None)], frozen=1)
    assert log == [("t", "J", 1, "5"), ("t", "J", 6, "9"), ("u", "I", 1, None)]
    undo.extend(log, [("t", "I", 10, None)], frozen=1)  # another table's entry is last
    assert log[-1] == ("t", "I", 10, None)
