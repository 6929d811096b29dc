"""What SQLite runs for one row-lock UPDATE/DELETE (docs/BENCHMARKS.md, "Row locks: 8 writers
of one table").

With 8 writers back to back each statement is its own SQLite transaction, and every SQLite
call lets the GIL go to another session's thread: the server's CPU per transaction is the
calls it makes. Two of them were reads of the schema version repeating one already made:
the server's ``can_batch`` (asked at every EXECUTE) read it for an UPDATE, which is never
batched, outside the write unit (a read transaction of its own); and the statement's first
catalogue lookup (its Informix triggers) read it again just after the write unit had read it
under SQLite's write lock. Both tests failed before: 1 read in ``can_batch``, 3 per UPDATE.
"""

from __future__ import annotations

from typing import Any

import pytest

from ifxwire.server.engine import EngineError

from .conftest import Sql, session_on


def _reads(s: Any) -> list[str]:
    seen: list[str] = []
    s._connection().set_trace_callback(seen.append)
    return seen


def _schema_reads(seen: list[str]) -> int:
    return sum(1 for q in seen if "schema_version" in q)


def test_can_batch_reads_nothing_for_an_update(db: Sql) -> None:
    db.run("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 0)")
    upd = db.s.prepare("UPDATE t SET v = v + 1 WHERE id = ?")
    db.s.begin()
    db.s.execute(upd, [1])
    seen = _reads(db.s)
    assert db.s.can_batch(upd) is False
    assert seen == []
    ins = db.s.prepare("INSERT INTO t VALUES (?, 0)")
    assert db.s.can_batch(ins) is True  # an INSERT ... VALUES still is
    db.s.commit()


@pytest.mark.parametrize("sql", ["UPDATE t SET v = v + 1 WHERE id = ?",
                                 "DELETE FROM t WHERE id = ?"])
def test_an_update_reads_the_schema_version_once_in_its_write_unit(db: Sql, sql: str) -> None:
    assert db.s.row_locks
    db.run("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    for i in range(1, 5):
        db.run(f"INSERT INTO t VALUES ({i}, 0)")
    stmt = db.s.prepare(sql)
    db.s.begin()
    db.s.execute(stmt, [1])  # (the first makes the lock triggers)
    db.s._rl_flush_hold()  # as when another session waits: each statement its own unit
    seen = _reads(db.s)
    assert db.s.execute(stmt, [2]).rowcount == 1
    begin = next(i for i, q in enumerate(seen) if q.startswith("BEGIN"))
    # none before the unit, one in it (the lock triggers' key, then the statement's -710
    # check, its privileges and its table's triggers with it); before locks33 the -710
    # check read it once more before the unit (a read transaction of its own)
    assert (_schema_reads(seen[:begin]), _schema_reads(seen[begin:])) == (0, 1), seen
    db.s.rollback()
    assert db.rows("SELECT id, v FROM t ORDER BY id") == [(1, 0), (2, 0), (3, 0), (4, 0)]


def test_informix_triggers_still_fire_and_roll_back(db: Sql) -> None:
    db.run("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("CREATE TABLE log (id INT, what VARCHAR(10))")
    for i in range(1, 5):
        db.run(f"INSERT INTO t VALUES ({i}, 0)")
    upd = db.s.prepare("UPDATE t SET v = v + 1 WHERE id = ?")
    db.s.begin()
    db.s.execute(upd, [1])
    db.s._rl_flush_hold()
    # a trigger made by another session's DDL between two statements of this one
    other = session_on(db.s.engine, "testdb")
    try:
        other.run("CREATE TRIGGER tu UPDATE ON t REFERENCING NEW AS n FOR EACH ROW "
                  "(INSERT INTO log VALUES (n.id, 'u'))")
    finally:
        other.s.close()
    assert db.s.execute(upd, [2]).rowcount == 1
    assert db.rows("SELECT id, what FROM log") == [(2, "u")]
    db.s.rollback()
    assert db.rows("SELECT id, v FROM t ORDER BY id") == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert db.rows("SELECT COUNT(*) FROM log") == [(0,)]


def test_a_version_changed_by_the_statement_is_read_again(db: Sql) -> None:
    """The version handed over is only for lookups before the statement's SQL runs: a
    routine the UPDATE calls may run DDL, and what follows must see its schema."""
    db.run("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 0)")
    db.run("CREATE PROCEDURE mk() RETURNING INT; CREATE TABLE made (a INT); RETURN 1; "
           "END PROCEDURE")
    db.s.begin()
    err = db.err("UPDATE t SET v = mk() WHERE id = 1")
    db.s.rollback()
    # (whatever Informix says of DDL inside an UPDATE's routine, the schema this session
    # sees afterwards is the file's)
    del err
    assert db.rows("SELECT COUNT(*) FROM systables WHERE tabname = 'made'") == [(0,)]


def test_a_table_changed_since_prepare_is_710_in_the_unit_and_keeps_the_transaction(
        db: Sql) -> None:
    """The -710 check runs inside the write unit now: another session's ALTER between
    PREPARE and EXECUTE is still -710, and the failed unit takes back only itself."""
    db.run("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("CREATE TABLE u (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 0)")
    db.run("INSERT INTO u VALUES (1, 0)")
    upd_t = db.s.prepare("UPDATE t SET v = v + 1 WHERE id = ?")
    upd_u = db.s.prepare("UPDATE u SET v = v + 1 WHERE id = ?")
    db.s.begin()
    assert db.s.execute(upd_u, [1]).rowcount == 1
    other = session_on(db.s.engine, "testdb")
    try:
        other.run("ALTER TABLE t ADD (w INT)")
    finally:
        other.s.close()
    with pytest.raises(EngineError) as err:
        db.s.execute(upd_t, [1])
    assert err.value.sqlcode == -710
    assert db.s.execute(upd_u, [1]).rowcount == 1
    db.s.commit()
    assert db.rows("SELECT v FROM u") == [(2,)]
    assert db.rows("SELECT v FROM t") == [(0,)]


def test_a_refused_privilege_in_the_unit_keeps_the_transaction(db: Sql) -> None:
    db.run("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("CREATE TABLE u (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 0)")
    db.run("INSERT INTO u VALUES (1, 0)")
    db.run("REVOKE ALL ON t FROM public")
    db.run("REVOKE ALL ON u FROM public")
    db.run("GRANT SELECT, UPDATE ON t TO joe")
    joe = Sql(db.s.engine.session("joe", {}))
    joe.s.open_database("testdb")
    try:
        joe.s.begin()
        assert joe.run("UPDATE t SET v = v + 1 WHERE id = 1").rowcount == 1
        with pytest.raises(EngineError) as err:
            joe.run("UPDATE u SET v = v + 1 WHERE id = 1")
        assert err.value.sqlcode == -273
        assert joe.run("UPDATE t SET v = v + 1 WHERE id = 1").rowcount == 1
        joe.s.commit()
    finally:
        joe.s.close()
    assert db.rows("SELECT v FROM t") == [(2,)]
    assert db.rows("SELECT v FROM u") == [(0,)]
