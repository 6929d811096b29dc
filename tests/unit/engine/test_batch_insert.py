"""EngineSession.execute_batch: all or nothing, and never an exception the wire session would
not expect (it answers the rows one by one whenever a batch is refused)."""

from __future__ import annotations

import pytest

from ifxwire.server.engine import EngineError, Prepared

from .conftest import Sql


def _insert(db: Sql, sql: str) -> Prepared:
    return db.s.prepare(sql)


def test_a_batch_is_all_or_nothing(db: Sql) -> None:
    db.run("create table t (a int primary key)")
    db.run("begin work")
    db.run("insert into t values (0)")  # the write lock: batches are possible now
    st = _insert(db, "insert into t values (?)")
    assert db.s.execute_batch(st, [[i] for i in range(1, 101)])
    assert not db.s.execute_batch(st, [[i] for i in (200, 201, 5, 202)])  # 5 is a duplicate
    assert db.one("select count(*) from t") == 101  # nothing of the refused batch stayed
    db.run("commit work")


def test_no_batch_outside_a_transaction_or_before_the_write_lock(db: Sql) -> None:
    db.run("create table t (a int)")
    st = _insert(db, "insert into t values (?)")
    assert not db.s.execute_batch(st, [[1], [2], [3], [4]])  # autocommit: each row commits
    db.run("begin work")
    if db.s.row_locks:
        # Row-lock mode: each statement is its own SQLite transaction under row locks, so a
        # batch needs no earlier write; ROLLBACK WORK takes it back through the undo log.
        assert db.s.execute_batch(st, [[1], [2], [3], [4]])
    else:
        assert not db.s.execute_batch(st, [[1], [2], [3], [4]])  # no write yet: no lock
    db.run("insert into t values (0)")
    assert db.s.execute_batch(st, [[1], [2], [3], [4]])
    db.run("rollback work")
    assert db.one("select count(*) from t") == 0


def test_a_full_disk_refuses_the_batch_without_raising(db: Sql) -> None:
    # SQLite rolls the whole transaction back on SQLITE_FULL, savepoint included: the batch
    # must still just say no, and the single-row path then reports the error.
    db.run("create table t (v varchar(255))")
    db.run("begin work")
    db.run("insert into t values ('z')")
    conn = db.s.conn
    assert conn is not None
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    st = _insert(db, "insert into t values (?)")
    assert not db.s.execute_batch(st, [["y" * 250]] * 100)
    with pytest.raises(EngineError):
        for _ in range(100):
            db.s.execute(st, ["y" * 250])
    conn.execute("PRAGMA max_page_count = 1073741823")
    db.run("rollback work")  # the session still thinks it is in one; SQLite is not
    db.run("insert into t values ('after')")
    assert db.one("select count(*) from t where v = 'after'") == 1


def test_a_batch_binds_by_position_and_leaves_quoted_text_alone(db: Sql) -> None:
    # The batch rewrites :p1 … as ?1 … (binding by position); text that looks like a
    # parameter inside a literal is data, and the values land in their own columns.
    db.run("create table t (a int, s varchar(20), b varchar(10), f float)")
    db.run("begin work")
    db.run("insert into t values (0, 'x', 'x', 0)")
    st = _insert(db, "insert into t values (?, ':p1 '':p2'' \":p3\"', ?, ?)")
    rows = [[i, f"b{i}", i / 2] for i in range(1, 51)] + [[99, None, None]]
    assert db.s.execute_batch(st, rows)
    assert st.plan.batch is not None and st.plan.batch[1] is not None  # positional
    got = db.rows("select a, s, b, f from t where a > 0 order by a")
    assert got == [(i, ":p1 ':p2' \":p3\"", f"b{i}", i / 2) for i in range(1, 51)] + [
        (99, ":p1 ':p2' \":p3\"", None, None)]
    assert not db.s.execute_batch(st, [[1, "b"], [2, "c"]])  # a row short: refused, no raise
    db.run("rollback work")


def test_a_batch_computes_expressions_over_its_parameters(db: Sql) -> None:
    db.run("create table t (a int, b int)")
    db.run("begin work")
    db.run("insert into t values (0, 0)")
    st = _insert(db, "insert into t values (?, ? + 1)")
    assert db.s.execute_batch(st, [[i, i] for i in range(1, 11)])
    assert db.rows("select sum(a), sum(b) from t") == [(55, 65)]
    db.run("rollback work")
