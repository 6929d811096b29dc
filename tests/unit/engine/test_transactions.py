"""Transactions per logging mode, persistence, and two sessions meeting on locks."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from ifxwire.server.engine import Engine, EngineError

from .conftest import Sql, codes, session_on


def test_unlogged_database_has_no_transactions(open_db) -> None:  # type: ignore[no-untyped-def]
    u = open_db("unlogged")
    assert u.err("begin work").sqlcode == -256
    with pytest.raises(EngineError) as info:
        u.s.begin()
    assert info.value.sqlcode == -256
    u.run("create table t (a int)")
    u.run("insert into t values (1)")
    assert u.one("select count(*) from t") == 1


def test_logged_begin_commit_rollback(db: Sql) -> None:
    db.run("create table t (a int)")
    assert db.err("commit work").sqlcode == -255
    assert db.err("rollback work").sqlcode == -255
    db.run("begin work")
    assert db.s.in_transaction
    assert db.err("begin work").sqlcode == -535
    db.run("insert into t values (1)")
    db.run("rollback work")
    assert not db.s.in_transaction
    assert db.one("select count(*) from t") == 0
    db.s.begin()
    db.run("insert into t values (2)")
    db.s.commit()
    assert db.rows("select a from t") == [(2,)]


def test_failed_statement_keeps_transaction(db: Sql) -> None:
    db.run("create table t (a int primary key)")
    db.s.begin()
    db.run("insert into t values (1)")
    assert db.err("insert into t values (1)").sqlcode == -268
    assert db.s.in_transaction
    db.run("insert into t values (2)")
    db.s.commit()
    assert db.one("select count(*) from t") == 2


def test_ddl_inside_transaction_rolls_back(db: Sql) -> None:
    db.s.begin()
    db.run("create table gone (a int)")
    db.run("insert into gone values (1)")
    assert db.one("select count(*) from gone") == 1
    db.s.rollback()
    assert db.err("select * from gone").sqlcode == -206
    assert db.one("select count(*) from systables where tabname = 'gone'") == 0


def test_ansi_implicit_transaction(open_db) -> None:  # type: ignore[no-untyped-def]
    a = open_db("ansi")
    a.run("create table t (a int)")
    a.run("commit work")
    a.run("insert into t values (1)")
    assert a.s.in_transaction
    assert a.err("begin work").sqlcode == -535
    a.run("rollback work")
    assert a.one("select count(*) from t") == 0
    a.run("insert into t values (2)")
    a.run("commit work")
    a.run("commit work")  # nothing open: allowed in ANSI
    assert a.one("select count(*) from t") == 1


def test_close_database_rolls_back_session_close(engine: Engine, db: Sql) -> None:
    db.run("create table t (a int)")
    db.s.begin()
    db.run("insert into t values (1)")
    db.s.close()
    other = session_on(engine, "testdb")
    assert other.one("select count(*) from t") == 0
    other.s.close()


def test_readers_see_committed_data_only(engine: Engine, db: Sql) -> None:
    db.run("create table t (a int)")
    reader = session_on(engine, "testdb")
    db.s.begin()
    db.run("insert into t values (1)")
    if engine.row_locks:
        # Informix: a COMMITTED READ scan meets the uncommitted row's lock, -244/-107
        # (docs/SERVER.md "Locks and isolation"); DIRTY READ sees the row.
        e = reader.err("select count(*) from t")
        assert (e.sqlcode, e.isamcode) == (-244, -107)
        reader.run("set isolation to dirty read")
        assert reader.one("select count(*) from t") == 1
        reader.run("set isolation to committed read")
    else:  # without row locks: the last committed rows
        assert reader.one("select count(*) from t") == 0
    db.s.commit()
    assert reader.one("select count(*) from t") == 1
    reader.s.close()


def test_writer_conflict_not_wait(engine: Engine, db: Sql) -> None:
    # LOCK MODE ROW: in a PAGE table (the default) the other rows share the locked page
    db.run("create table t (a int) lock mode row")
    db.run("insert into t values (1)")
    other = session_on(engine, "testdb")
    db.s.begin()
    db.run("update t set a = 2")
    if engine.row_locks:
        # Informix row locks: an INSERT of another row proceeds; the UPDATE and DELETE that
        # reach the locked row meet it (-346 / -240 with ISAM -107, Informix message
        # catalogue); DDL on another table is not in the way; DDL on t is -242.
        other.run("insert into t values (3)")
        e = other.err("update t set a = 5")
        assert (e.sqlcode, e.isamcode) == (-346, -107)
        assert codes(other.err("delete from t")) == (-240, -107)
        other.run("create table x (a int)")
        assert other.err("alter table t add (b int)").sqlcode == -242
        db.s.commit()
    else:  # one writer per database: everything else meets its lock
        e = other.err("insert into t values (3)")
        assert (e.sqlcode, e.isamcode) == (-271, -107)
        assert other.err("update t set a = 5").sqlcode == -346
        assert other.err("delete from t").sqlcode == -240
        assert other.err("create table x (a int)").sqlcode == -242
        db.s.commit()
        other.run("insert into t values (3)")
    other.s.close()


def test_writer_conflict_wait_times_out(engine: Engine, db: Sql) -> None:
    db.run("create table t (a int) lock mode row")
    other = session_on(engine, "testdb")
    other.run("set lock mode to wait 1")
    db.s.begin()
    db.run("insert into t values (1)")
    started = time.monotonic()
    if engine.row_locks:  # another row's INSERT proceeds; the locked row's UPDATE waits
        other.run("insert into t values (2)")
        started = time.monotonic()
        e = other.err("update t set a = 3 where a = 1")
        expected = (-346, -154)
    else:
        e = other.err("insert into t values (2)")
        expected = (-271, -154)
    elapsed = time.monotonic() - started
    assert (e.sqlcode, e.isamcode) == expected
    assert 0.8 < elapsed < 2.0
    db.s.rollback()
    other.s.close()


def test_writer_waits_until_commit(engine: Engine, db: Sql) -> None:
    db.run("create table t (a int)")
    other = session_on(engine, "testdb")
    other.run("set lock mode to wait")
    db.s.begin()
    db.run("insert into t values (1)")
    threading.Timer(0.3, db.s.commit).start()
    started = time.monotonic()
    # Without row locks any write waits for the database's writer; with them only one
    # that reaches the held row (Informix row locks).
    other.run("update t set a = 2" if engine.row_locks else "insert into t values (2)")
    assert 0.2 < time.monotonic() - started < 2.0
    if engine.row_locks:
        assert other.rows("select a from t") == [(2,)]
    else:
        assert other.one("select count(*) from t") == 2
    other.s.close()


def test_no_lock_held_between_statements_outside_transaction(engine: Engine, db: Sql) -> None:
    db.run("create table t (a int)")
    db.run("insert into t values (1)")
    other = session_on(engine, "testdb")
    other.run("insert into t values (2)")
    cursor = db.s.open_cursor(db.s.prepare("select a from t"), [])
    next(cursor)  # an open read cursor does not block writers
    other.run("insert into t values (3)")
    other.s.close()


def test_persistence_across_engines(tmp_path: Path) -> None:
    eng = Engine(tmp_path / "d")
    s = Sql(eng.session("informix", {}))
    s.run("create database keep with log")
    s.run("create table t (id serial, v decimal(32,10))")
    s.run("insert into t (v) values (?)", "1234567890123456789012.0123456789")
    s.s.begin()
    s.run("insert into t (v) values (1)")  # never committed
    if eng.row_locks:
        # The insert's SQLite transaction is held open while the session writes alone
        # (features/locks/latch.py); commit it to the file with its undo entry, as when
        # another session needs the latch, so the next engine must undo it. (Had the
        # process died with it held, SQLite itself would have dropped it.)
        eng.write_latch("keep").flush_parked(object())
    eng2 = Engine(tmp_path / "d")  # a second engine on the same files, as after kill -9
    s2 = Sql(eng2.session("informix", {}))
    s2.s.open_database("keep")
    assert s2.rows("select id, v from t") == [(1, __import__("decimal").Decimal(
        "1234567890123456789012.0123456789"))]
    s.s.close()  # the first session ends: its open transaction rolls back
    eng.close()
    # The rolled-back insert's SERIAL is reused without row locks (SQLite's counter rolls
    # back); under row locks the counter is not part of the undo log (SERVER.md "Not yet").
    serial = s2.run("insert into t (v) values (2)").serial
    assert serial == (3 if eng.row_locks else 2)
    s2.s.close()
    eng2.close()
    eng3 = Engine(tmp_path / "d")
    s3 = Sql(eng3.session("informix", {}))
    s3.s.open_database("keep")
    assert [r[0] for r in s3.rows("select id from t order by id")] == [1, serial]
    s3.s.close()
    eng3.close()


def test_concurrent_sessions_with_wait(engine: Engine, db: Sql) -> None:
    db.run("create table c (id serial, who int)")
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            s = session_on(engine, "testdb")
            s.run("set lock mode to wait 10")
            for _ in range(25):
                s.run("insert into c (who) values (?)", n)
                s.rows("select count(*) from c where who = ?", n)
            s.s.close()
        except BaseException as e:  # collected and re-raised in the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert not errors
    assert db.one("select count(*) from c") == 100
    assert db.one("select max(id) from c") == 100


def test_unlogged_commit_is_not_in_transaction(open_db) -> None:  # type: ignore[no-untyped-def]
    u = open_db("unlogged", name="nolog")
    assert u.err("commit work").sqlcode == -255


def test_ansi_decimal_without_scale_is_integral(open_db) -> None:  # type: ignore[no-untyped-def]
    a = open_db("ansi", name="ansidec")
    a.run("create table d (v decimal(5))")
    assert a.describe("select v from d")[0][2] == (5 << 8)


def test_a_write_transaction_does_not_block_create_database(engine: Engine, db: Sql) -> None:
    # Sessions attach sysmaster read-only: BEGIN IMMEDIATE would otherwise lock it too, and
    # every CREATE/DROP DATABASE of other sessions would wait for this transaction.
    db.run("create table t (a int)")
    db.run("begin work")
    db.run("insert into t values (1)")
    other = Sql(engine.session("informix", {}))
    started = time.monotonic()
    other.run("create database second_db with log")
    assert time.monotonic() - started < 2
    db.run("commit work")  # (inside it, db reads sysmaster as of its transaction's snapshot)
    assert db.one("select count(*) from sysmaster:sysdatabases where name = 'second_db'") == 1
    other.s.close()


def test_commit_releases_the_write_lock_on_a_first_lo_store_use(
        engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    """Regression: the first commit of a database in a process opened its smart-LO store,
    whose one-time sweep ran inside the ending transaction and left a new SQLite transaction
    open, so the session kept the write lock after COMMIT WORK (and in ANSI mode after every
    statement's implicit commit)."""
    for mode, name in (("logged", "lk_logged"), ("ansi", "lk_ansi")):
        a = open_db(mode, name=name)
        if mode == "logged":
            a.run("BEGIN WORK")
        a.run("CREATE TABLE t (n INT)")
        a.run("COMMIT WORK")
        assert not a.s._sql_txn and not a.s.conn.in_transaction
        b = session_on(engine, name)
        b.run("INSERT INTO t VALUES (1)")  # not -271: nobody holds the lock
        if mode == "ansi":
            b.run("COMMIT WORK")
        b.s.close()


@pytest.mark.parametrize("row_locks", [False, True])
def test_set_transaction_once_per_transaction_in_either_lock_mode(
        tmp_path: Path, row_locks: bool) -> None:
    """SET TRANSACTION once per transaction (-876), SET ISOLATION not over its level (-877),
    and its level gone with the transaction (ids_sqs_1201, ids_sqt_392, ids_sqs_1206): the
    statement's rules, whichever way the engine locks."""
    eng = Engine(tmp_path / "data", row_locks=row_locks)
    try:
        s = eng.session("informix", {})
        db = Sql(s)
        db.run("CREATE DATABASE st WITH LOG")
        db.run("SET ISOLATION TO DIRTY READ")
        db.run("BEGIN WORK")
        db.run("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
        assert s.isolation == "repeatable"
        assert db.err("SET TRANSACTION ISOLATION LEVEL READ COMMITTED").sqlcode == -876
        assert db.err("SET ISOLATION TO COMMITTED READ").sqlcode == -877
        db.run("ROLLBACK WORK")
        assert s.isolation == "dirty"  # SET ISOLATION's level is back
        db.run("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")  # outside: enduring, as before
        db.run("BEGIN WORK")
        db.run("SET ISOLATION TO DIRTY READ")  # no SET TRANSACTION in this one
        db.run("SET TRANSACTION READ WRITE")
        db.run("SET ISOLATION TO REPEATABLE READ")  # an access mode sets no level
        assert db.err("SET TRANSACTION READ WRITE").sqlcode == -876
        db.run("COMMIT WORK")
        s.close()
    finally:
        eng.close()
