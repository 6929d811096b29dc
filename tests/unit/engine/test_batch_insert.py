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
    assert not db.s.execute_batch(st, [[1], [2], [3], [4]])  # no write yet: no lock held
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
