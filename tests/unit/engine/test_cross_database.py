"""db:table, db@server:table and db:owner.table within one server: reads (a read-only
attach), writes in the same transaction as local ones, the logging-mode rule."""

from __future__ import annotations

from ifxwire.server.engine import Engine, EngineError

from .conftest import Sql, codes, session_on


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
    # the attached database is read-only: a write transaction here does not lock it
    two.run("BEGIN WORK")
    two.run("INSERT INTO t2 VALUES (3)")
    assert two.one("SELECT COUNT(*) FROM one:t1") == 1
    one.run("INSERT INTO t1 VALUES (4)")
    two.run("COMMIT WORK")
    assert two.one("SELECT COUNT(*) FROM one:t1") == 2
    fresh = session_on(engine, "two")
    fresh.run("BEGIN WORK")
    fresh.run("INSERT INTO t2 VALUES (9)")
    if engine.row_locks:
        # Row-lock mode holds no SQLite transaction between statements: the other database
        # attaches, as Informix reads another database of the same server in a transaction.
        assert fresh.rows("SELECT * FROM one:t1 ORDER BY a") == [(1,), (4,)]
    else:  # the write lock: a SQLite transaction is open and cannot attach
        assert codes(fresh.err("SELECT * FROM one:t1"))[0] == -999
    fresh.run("ROLLBACK WORK")
    assert fresh.one("SELECT COUNT(*) FROM t2 WHERE b = 9") == 0
    assert fresh.rows("SELECT * FROM one:t1 ORDER BY a") == [(1,), (4,)]
    fresh.s.close()



def test_writes_to_another_database(engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    one = open_db("logged", name="one")
    one.run("CREATE TABLE t1 (id SERIAL, a INT NOT NULL UNIQUE)")
    two = open_db("logged", name="two")
    two.run("CREATE TABLE t2 (b INT)")
    assert two.run("INSERT INTO one:t1 (a) VALUES (10)").serial == 1
    assert two.run("INSERT INTO one:informix.t1 (a) VALUES (20)").serial == 2
    assert two.run("UPDATE one:t1 SET a = a + 1 WHERE a = 20").rowcount == 1
    assert two.run("DELETE FROM one@informix:t1 WHERE a = 10").rowcount == 1
    assert one.rows("SELECT id, a FROM t1") == [(2, 21)]
    # the other database's own SERIAL counter goes on, whoever inserts
    assert one.run("INSERT INTO t1 (a) VALUES (30)").serial == 3
    assert codes(two.err("INSERT INTO one:t1 (a) VALUES (30)")) == (-268, -100)
    assert codes(two.err("INSERT INTO one:t1 (a) VALUES (NULL)"))[0] == -391
    # one transaction over both databases: rolled back together, committed together
    two.run("BEGIN WORK")
    two.run("INSERT INTO one:t1 (a) VALUES (40)")
    two.run("INSERT INTO t2 VALUES (1)")
    two.run("ROLLBACK WORK")
    assert one.one("SELECT COUNT(*) FROM t1 WHERE a = 40") == 0
    assert two.one("SELECT COUNT(*) FROM t2") == 0
    two.run("BEGIN WORK")
    two.run("INSERT INTO t2 VALUES (2)")
    two.run("INSERT INTO one:t1 (a) VALUES (50)")  # written before: attached writable
    # while the transaction is open the other database is locked for other writers
    assert codes(one.err("INSERT INTO t1 (a) VALUES (60)")) == (-271, -107)
    two.run("COMMIT WORK")
    assert one.rows("SELECT a FROM t1 ORDER BY a") == [(21,), (30,), (50,)]
    assert two.rows("SELECT b FROM t2") == [(2,)]
    # MERGE into another database
    two.run("MERGE INTO one:t1 t USING t2 s ON t.a = s.b WHEN NOT MATCHED THEN "
            "INSERT (a) VALUES (s.b)")
    assert one.one("SELECT COUNT(*) FROM t1 WHERE a = 2") == 1


def test_first_write_into_another_database_after_a_local_write(
        engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    one = open_db("logged", name="one")
    one.run("CREATE TABLE t1 (a INT)")
    two = open_db("logged", name="two")
    two.run("CREATE TABLE t2 (b INT)")
    assert two.rows("SELECT * FROM one:t1") == []  # attached read-only
    two.run("BEGIN WORK")
    two.run("INSERT INTO t2 VALUES (1)")
    if engine.row_locks:
        # Row-lock mode: no SQLite transaction is open between statements, so the other
        # database attaches and the write escalates (SERVER.md "Locks and isolation"), as
        # Informix writes to another logged database of the same server in a transaction.
        two.run("INSERT INTO one:t1 VALUES (1)")
        two.run("INSERT INTO t2 VALUES (2)")
        two.run("ROLLBACK WORK")
        assert two.rows("SELECT b FROM t2 ORDER BY b") == []
        assert one.rows("SELECT * FROM t1") == []
        return
    e = two.err("INSERT INTO one:t1 VALUES (1)")
    assert e.sqlcode == -999 and "inside a transaction" in str(e)
    two.run("INSERT INTO t2 VALUES (2)")  # the transaction goes on
    two.run("COMMIT WORK")
    assert two.rows("SELECT b FROM t2 ORDER BY b") == [(1,), (2,)]
    assert one.rows("SELECT * FROM t1") == []


def test_triggers_and_privileges_of_the_other_database(
        engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    one = open_db("logged", name="one")
    one.run("CREATE TABLE t (a INT)")
    one.run("CREATE TABLE tlog (a INT)")
    one.run("CREATE TRIGGER trg INSERT ON t FOR EACH ROW (INSERT INTO tlog VALUES (1))")
    one.run("CREATE TABLE plain (a INT)")
    one.run("REVOKE CONNECT FROM public")
    one.run("GRANT CONNECT TO bob")
    one.run("REVOKE ALL ON plain FROM public")
    one.run("GRANT SELECT ON plain TO bob")
    two = open_db("logged", name="two")
    two.run("CREATE TABLE t (a INT)")
    two.run("GRANT CONNECT TO bob")
    two.run("GRANT CONNECT TO carol")
    # a trigger of the other database's table would run in this one: refused
    assert two.err("INSERT INTO one:t VALUES (1)").sqlcode == -999
    assert one.one("SELECT COUNT(*) FROM t") == 0
    two.run("INSERT INTO t VALUES (1)")  # the local table of that name has no trigger
    bob = engine.session("bob", {})
    bob.open_database("two")
    b = Sql(bob)
    assert b.rows("SELECT * FROM one:plain") == []
    assert codes(b.err("INSERT INTO one:plain VALUES (1)"))[0] == -275
    bob.close()
    carol = engine.session("carol", {})
    carol.open_database("two")
    assert Sql(carol).err("SELECT * FROM one:plain").sqlcode == -387
    carol.close()


def test_logging_modes_must_match(engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    for mode in ("unlogged", "logged", "buffered", "ansi"):
        db = open_db(mode, name=f"db_{mode}")
        db.run("CREATE TABLE t (a INT)")
    expected = {  # (current, other) -> sqlcode; 0: allowed
        ("logged", "unlogged"): -568, ("logged", "buffered"): 0, ("logged", "ansi"): -570,
        ("unlogged", "logged"): -569, ("unlogged", "ansi"): -570,
        ("ansi", "logged"): -571, ("ansi", "unlogged"): -568, ("buffered", "logged"): 0,
    }
    for (current, other), code in expected.items():
        s = session_on(engine, f"db_{current}")
        if code:
            assert s.err(f"SELECT * FROM db_{other}:t").sqlcode == code, (current, other)
            assert s.err(f"INSERT INTO db_{other}:t VALUES (1)").sqlcode == code
        else:
            assert s.rows(f"SELECT * FROM db_{other}:t") == []
            s.run(f"INSERT INTO db_{other}:t VALUES (1)")
        s.s.close()


def test_first_write_while_a_cursor_reads_the_other_database(
        engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    one = open_db("logged", name="one")
    one.run("CREATE TABLE t1 (a INT)")
    for i in range(300):
        one.run(f"INSERT INTO t1 VALUES ({i})")
    two = open_db("logged", name="two")
    rows = two.s.open_cursor(two.s.prepare("SELECT a FROM one:t1"), [])
    assert next(rows) == (0,)  # the cursor is open on the read-only attachment
    e = two.err("INSERT INTO one:t1 VALUES (-1)")
    assert e.sqlcode == -999 and "cursor" in str(e)
    assert sum(1 for _ in rows) == 299  # the cursor is unharmed
    two.run("INSERT INTO one:t1 VALUES (-1)")  # closed now: the write goes through
    assert one.one("SELECT COUNT(*) FROM t1") == 301


def test_other_database_schema_changes(engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    """A table created, altered or dropped in an attached database is seen by the next
    statement; a statement prepared before the change gets -710 (docs/SERVER.md)."""
    one = open_db("logged", name="one")
    one.run("CREATE TABLE t1 (a INT)")
    two = open_db("logged", name="two")
    assert two.rows("SELECT * FROM one:t1") == []
    one.run("CREATE TABLE later (b INT)")
    one.run("INSERT INTO later VALUES (5)")
    assert two.rows("SELECT * FROM one:later") == [(5,)]
    stmt = two.s.prepare("SELECT * FROM one:later")
    version = two.s._attached_versions["one"]
    assert two.rows("SELECT * FROM one:t1") == []  # nothing changed: nothing reloaded
    assert two.s._attached_versions["one"] == version
    one.run("ALTER TABLE later ADD c INT")
    assert codes(_raises(lambda: two.s.execute(stmt, []))) == (-710, 0)
    assert two.rows("SELECT * FROM one:later") == [(5, None)]
    one.run("DROP TABLE later")
    assert codes(two.err("SELECT * FROM one:later")) == (-206, -111)


def _raises(call):  # type: ignore[no-untyped-def]
    try:
        call()
    except EngineError as e:
        return e
    raise AssertionError("no error")
