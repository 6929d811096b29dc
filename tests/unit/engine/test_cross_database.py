"""db:table, db@server:table and db:owner.table within one server (read-only attach)."""

from __future__ import annotations

from ifxwire.server.engine import Engine

from .conftest import codes, session_on


def test_cross_database_reads(engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    one = open_db("logged", name="one")
    one.run("CREATE TABLE t1 (a INT)")
    one.run("INSERT INTO t1 VALUES (1)")
    two = open_db("logged", name="two")
    two.run("CREATE TABLE t2 (b INT)")
    two.run("INSERT INTO t2 VALUES (2)")
    assert two.rows("SELECT * FROM one:t1") == [(1,)]
    assert two.rows("SELECT t2.b, x.a FROM t2, one:t1 x") == [(2, 1)]
    assert two.rows("SELECT a FROM one@informix:t1") == [(1,)]
    assert two.rows("SELECT a FROM one:informix.t1") == [(1,)]
    assert two.rows("SELECT b FROM t2 WHERE b > (SELECT MAX(a) FROM one:t1)") == [(2,)]
    assert codes(two.err("SELECT * FROM one:nosuch")) == (-206, -111)
    assert codes(two.err("SELECT * FROM nodb:t1")) == (-329, -111)
    assert codes(two.err("INSERT INTO one:t1 VALUES (5)"))[0] == -999
    # the attached database is read-only: a write transaction here does not lock it
    two.run("BEGIN WORK")
    two.run("INSERT INTO t2 VALUES (3)")
    assert two.one("SELECT COUNT(*) FROM one:t1") == 1
    one.run("INSERT INTO t1 VALUES (4)")
    two.run("COMMIT WORK")
    assert two.one("SELECT COUNT(*) FROM one:t1") == 2
    fresh = session_on(engine, "two")
    fresh.run("BEGIN WORK")
    fresh.run("INSERT INTO t2 VALUES (9)")  # the write lock: a SQLite transaction is open
    assert codes(fresh.err("SELECT * FROM one:t1"))[0] == -999  # cannot attach inside it
    fresh.run("ROLLBACK WORK")
    assert fresh.rows("SELECT * FROM one:t1 ORDER BY a") == [(1,), (4,)]
    fresh.s.close()

