"""SAVEPOINT, RELEASE SAVEPOINT and ROLLBACK TO SAVEPOINT (the server also runs the SQLI savepoint
messages 137-139 through these statements)."""

from __future__ import annotations

from ifxwire.protocol.codes import StmtType

from .conftest import Sql


def test_rollback_to_savepoint_undoes_only_later_work(db: Sql) -> None:
    db.run("create table t (a int)")
    db.run("begin work")
    db.run("insert into t values (1)")
    db.run("savepoint one")
    db.run("insert into t values (2)")
    db.run("savepoint two")
    db.run("insert into t values (3)")
    db.run("rollback work to savepoint one")
    assert db.one("select count(*) from t") == 1
    # "two" was set after "one" and is gone; "one" itself remains.
    assert db.err("rollback to savepoint two").sqlcode == -999
    db.run("insert into t values (4)")
    db.run("rollback to one")
    db.run("commit work")
    assert db.one("select sum(a) from t") == 1


def test_release_destroys_the_savepoint_and_keeps_the_work(db: Sql) -> None:
    db.run("create table t (a int)")
    db.run("begin work")
    db.run("savepoint s1")
    db.run("insert into t values (1)")
    db.run("release savepoint s1")
    assert db.err("rollback to savepoint s1").sqlcode == -999
    db.run("commit work")
    assert db.one("select count(*) from t") == 1


def test_savepoint_needs_a_transaction(db: Sql) -> None:
    assert db.err("savepoint s").sqlcode == -255


def test_unlogged_database_has_no_savepoints(open_db) -> None:  # type: ignore[no-untyped-def]
    assert open_db("unlogged").err("savepoint s").sqlcode == -256


def test_unique_savepoint_name_cannot_be_reused(db: Sql) -> None:
    db.run("begin work")
    db.run("savepoint u unique")
    assert db.err("savepoint u unique").sqlcode == -999
    db.run("savepoint v")
    db.run("savepoint v")  # without UNIQUE a name may repeat
    db.run("rollback work")


def test_commit_and_rollback_forget_savepoints(db: Sql) -> None:
    db.run("begin work")
    db.run("savepoint a")
    db.run("commit work")
    db.run("begin work")
    assert db.err("rollback to savepoint a").sqlcode == -999
    db.run("rollback work")


def test_statement_type(db: Sql) -> None:
    db.run("begin work")
    assert db.s.prepare("savepoint x").stmt_type == StmtType.SET_SAVEPOINT == 159
    db.run("rollback work")
