"""Under row locks, a prepared INSERT/UPDATE/DELETE runs once at its first EXECUTE.

A session makes a table's lock triggers (TEMP triggers that lock each row written,
features/locks/triggers.py) when it first writes the table. They used to be made only after
SQLite's authorizer had refused the statement: the first EXECUTE began a write unit, was
refused, rolled the unit back, made the triggers in a second unit and ran the statement
again. That made a session's first write 2.4-3.8 ms against 0.4-0.9 ms for later ones, under
load: longer than libsqli's 1 ms wait for an EXECUTE's reply (docs/PROTOCOL.md §6, the
twentieth session's libsqli re-run). The PREPARE now names its table, and the write unit
makes the triggers before the statement runs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from ifxwire.server.engine import EngineError

from .conftest import Sql, session_on


def _runs(s: Any) -> Callable[[str], int]:
    """How many statements starting with a word SQLite has run on ``s``'s connection."""
    seen: list[str] = []
    s._connection().set_trace_callback(seen.append)
    return lambda word: sum(1 for q in seen if q.lstrip().upper().startswith(word))


def test_a_first_prepared_insert_runs_once(db: Sql) -> None:
    assert db.s.row_locks
    db.run("CREATE TABLE t (a INT, b VARCHAR(10))")
    other = session_on(db.s.engine, "testdb")  # a session that has not written t yet
    try:
        p = other.s.prepare("INSERT INTO t VALUES (?, ?)")
        runs = _runs(other.s)
        assert other.s.execute(p, [1, "one"]).rowcount == 1
        # one write unit; before: the authorizer refused the INSERT, its unit was rolled
        # back and a second one made the triggers and ran it (2 BEGINs, 1 ROLLBACK)
        assert (runs("BEGIN"), runs("ROLLBACK")) == (1, 0)
        assert other.s._rl_triggers.has("t")
    finally:
        other.s.close()
    assert db.rows("SELECT a, b FROM t") == [(1, "one")]


def test_a_first_update_and_delete_run_once(db: Sql) -> None:
    db.run("CREATE TABLE t (a INT, b VARCHAR(10))")
    db.run("CREATE TABLE u (a INT)")
    db.run("INSERT INTO t VALUES (1, 'one')")
    db.run("INSERT INTO u VALUES (1)")
    other = session_on(db.s.engine, "testdb")
    try:
        upd = other.s.prepare("UPDATE t SET b = ? WHERE a = ?")
        dele = other.s.prepare("DELETE FROM u WHERE a = ?")
        runs = _runs(other.s)
        assert other.s.execute(upd, ["uno", 1]).rowcount == 1
        assert (runs("BEGIN"), runs("ROLLBACK")) == (1, 0)  # before: (2, 1)
        assert other.s.execute(dele, [1]).rowcount == 1
        assert (runs("BEGIN"), runs("ROLLBACK")) == (2, 0)  # before: (4, 2)
    finally:
        other.s.close()
    assert db.rows("SELECT b FROM t") == [("uno",)]
    assert db.rows("SELECT COUNT(*) FROM u") == [(0,)]


def test_a_statement_prepared_before_its_table_is_dropped_gets_the_error(db: Sql) -> None:
    """A name noted at PREPARE for a table that is gone by the EXECUTE makes nothing."""
    db.run("CREATE TABLE t (a INT)")
    other = session_on(db.s.engine, "testdb")
    try:
        other.s.prepare("INSERT INTO t VALUES (?)")
        db.run("DROP TABLE t")
        db.run("CREATE TABLE v (a INT)")
        assert other.s.execute(other.s.prepare("INSERT INTO v VALUES (?)"), [5]).rowcount == 1
    finally:
        other.s.close()
    assert db.rows("SELECT a FROM v") == [(5,)]


def test_the_lock_triggers_are_made_at_prepare(db: Sql) -> None:
    """The PREPARE makes them (outside any SQLite transaction), so the first EXECUTE makes
    none: it does what a later one does (libsqli's 1 ms wait, docs/PROTOCOL.md §6)."""
    db.run("CREATE TABLE t (a INT)")
    other = session_on(db.s.engine, "testdb")
    try:
        p = other.s.prepare("INSERT INTO t VALUES (?)")
        assert other.s._rl_triggers.has("t")  # before: only after the first EXECUTE
        runs = _runs(other.s)
        assert other.s.execute(p, [1]).rowcount == 1
        assert runs("CREATE TEMP TRIGGER") == 0
    finally:
        other.s.close()


def test_a_prepare_inside_a_held_transaction_leaves_them_to_the_write_unit(db: Sql) -> None:
    """A held SQLite transaction's rollback would take triggers made in it back: there the
    PREPARE only names the table, and the EXECUTE's unit makes them, as before."""
    db.run("CREATE TABLE t (a INT)")
    db.run("CREATE TABLE u (a INT)")
    other = session_on(db.s.engine, "testdb")
    try:
        other.s.begin()
        other.s.execute(other.s.prepare("INSERT INTO u VALUES (?)"), [1])
        assert other.s._connection().in_transaction  # the held transaction
        p = other.s.prepare("INSERT INTO t VALUES (?)")
        assert not other.s._rl_triggers.has("t")
        assert other.s.execute(p, [2]).rowcount == 1
        assert other.s._rl_triggers.has("t")
        other.s.rollback()
    finally:
        other.s.close()
    assert db.rows("SELECT COUNT(*) FROM t") == [(0,)]


def test_a_failed_install_at_prepare_keeps_every_waiting_table_and_the_prepare(
        db: Sql, monkeypatch: pytest.MonkeyPatch) -> None:
    """Making the triggers at PREPARE is optional work: when it fails, the PREPARE succeeds
    and every table still waiting for its triggers (this PREPARE's and earlier ones') is
    left to the next write unit (REVIEW-locks F7: only this PREPARE's table was put back,
    so an earlier one's first EXECUTE went through a refused run again; and an EngineError,
    of the schema read inside, failed the PREPARE)."""
    db.run("CREATE TABLE t (a INT)")
    db.run("CREATE TABLE u (a INT)")
    db.run("CREATE TABLE w (a INT)")
    other = session_on(db.s.engine, "testdb")
    try:
        other.s.begin()
        other.s.execute(other.s.prepare("INSERT INTO w VALUES (?)"), [1])
        assert other.s._connection().in_transaction  # held: t is only named
        pt = other.s.prepare("INSERT INTO t VALUES (?)")
        other.s.commit()
        assert "t" in other.s._rl_add and not other.s._rl_triggers.has("t")
        lt = other.s._rl_triggers
        for error in (sqlite3.OperationalError("disk I/O error"),
                      EngineError(-999, message="schema read failed")):
            def fail(*_args: object, exc: Exception = error) -> None:
                raise exc
            monkeypatch.setattr(lt, "install", fail)
            pu = other.s.prepare("INSERT INTO u VALUES (?)")  # no error: optional work
            assert {"t", "u"} <= other.s._rl_add
            monkeypatch.undo()
        runs = _runs(other.s)
        assert other.s.execute(pt, [2]).rowcount == 1
        assert other.s.execute(pu, [3]).rowcount == 1
        assert (runs("BEGIN"), runs("ROLLBACK")) == (2, 0)  # no refused first run
    finally:
        other.s.close()
    assert db.rows("SELECT a FROM t") == [(2,)] and db.rows("SELECT a FROM u") == [(3,)]


def test_the_kept_trigger_count_follows_the_listing_through_ddl(db: Sql) -> None:
    """``LockTriggers.count`` is kept, not summed at each write unit: it must still say what
    temp.sqlite_master lists after triggers are made for new tables, remade after an ALTER
    and dropped with their table (a wrong count makes every unit list the catalogue, or
    skips a needed re-check)."""
    db.run("CREATE TABLE t (a INT)")
    db.run("CREATE TABLE u (a INT)")
    s = db.s
    lt = s._rl_triggers
    conn = s._connection()

    def check() -> None:
        assert lt.count() == lt.listed(conn) == sum(len(v[1]) for v in lt._tables.values())

    db.run("INSERT INTO t VALUES (1)")
    check()
    one = lt.count()
    assert one > 0
    db.run("INSERT INTO u VALUES (1)")
    check()
    assert lt.count() == 2 * one
    db.run("ALTER TABLE t ADD b INT")
    db.run("UPDATE t SET b = 2")
    check()
    db.run("DROP TABLE u")
    db.run("DELETE FROM t")
    check()
    assert lt.count() == one
