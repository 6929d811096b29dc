"""Sequences, synonyms, GRANT/REVOKE and roles."""

from __future__ import annotations

from ifxwire.server.engine import Engine

from .conftest import Sql, codes, session_on


def test_nextvals_of_one_row_share_a_value(db: Sql) -> None:
    """"Even if you specify sequence.NEXTVAL more than once within a single statement, the
    sequence is incremented only once" (https://publib.boulder.ibm.com/epubs/html/25122842/
    sqls1016.htm); each row of a multi-row statement still takes its own value."""
    db.run("CREATE SEQUENCE s2")
    db.run("CREATE SEQUENCE s3 START WITH 100")
    db.run("CREATE TABLE t2 (a INT8, b INT8, c INT8)")
    assert db.rows("SELECT s2.NEXTVAL, s2.NEXTVAL + 10, s3.NEXTVAL FROM systables "
                   "WHERE tabid IN (1, 2, 3) ORDER BY 1") == [(1, 11, 100), (2, 12, 101),
                                                                (3, 13, 102)]
    db.run("INSERT INTO t2 VALUES (s2.NEXTVAL, s2.NEXTVAL, s2.CURRVAL)")
    db.run("INSERT INTO t2 VALUES (s2.NEXTVAL, s2.NEXTVAL, s3.NEXTVAL)")
    assert db.rows("SELECT a, b, c FROM t2 ORDER BY a") == [(4, 4, 4), (5, 5, 103)]
    db.run("UPDATE t2 SET a = s2.NEXTVAL, b = s2.NEXTVAL")
    assert sorted(db.rows("SELECT a, b FROM t2")) == [(6, 6), (7, 7)]
    db.run("CREATE PROCEDURE p_seq() DEFINE x, y INT8; "
           "LET x, y = (SELECT s2.NEXTVAL, s2.NEXTVAL FROM systables WHERE tabid = 1); "
           "INSERT INTO t2 VALUES (x, y, s2.NEXTVAL); END PROCEDURE")
    db.run("EXECUTE PROCEDURE p_seq()")
    assert db.rows("SELECT a, b, c FROM t2 WHERE a > 7") == [(8, 8, 9)]
    # A NEXTVAL that only some rows evaluate never hands two rows one value.
    got = db.rows("SELECT CASE WHEN tabid = 1 THEN s2.NEXTVAL ELSE s2.NEXTVAL END, tabid "
                  "FROM systables WHERE tabid IN (1, 2) ORDER BY tabid")
    assert len({v for v, _ in got}) == 2


def test_tables_share_the_name_space_of_sequences_and_synonyms(db: Sql) -> None:
    """systables holds tables, views, sequences and synonyms: one name, one object (-310)."""
    db.run("CREATE TABLE base (a INT)")
    db.run("CREATE SEQUENCE sq")
    db.run("CREATE SYNONYM syn FOR base")
    for stmt in ("CREATE TABLE sq (a INT)", "CREATE TABLE syn (a INT)",
                 "CREATE TEMP TABLE sq (a INT)", "CREATE VIEW sq AS SELECT a FROM base",
                 "RENAME TABLE base TO syn", "RENAME SEQUENCE sq TO syn"):
        assert codes(db.err(stmt)) == (-310, 0), stmt
    db.run("CREATE TABLE IF NOT EXISTS sq (a INT)")
    assert db.one("SELECT tabtype FROM systables WHERE tabname = 'sq'") == "Q"


def test_sequences(db: Sql, engine: Engine) -> None:
    db.run("CREATE SEQUENCE s1 START WITH 10 INCREMENT BY 5")
    db.run("CREATE TABLE t (id INT, v CHAR(5))")
    assert codes(db.err("SELECT s1.CURRVAL FROM systables WHERE tabid = 1"))[0] == -8315
    assert db.one("SELECT s1.NEXTVAL FROM systables WHERE tabid = 1") == 10
    db.run("INSERT INTO t VALUES (s1.NEXTVAL, 'a')")
    db.run("INSERT INTO t SELECT s1.nextval, 'b' FROM systables WHERE tabid IN (1, 2)")
    assert db.rows("SELECT id FROM t ORDER BY id") == [(15,), (20,), (25,)]
    assert db.one("SELECT s1.CURRVAL FROM systables WHERE tabid = 1") == 25
    # not transactional: a rolled-back NEXTVAL is not given out again
    db.run("BEGIN WORK")
    db.run("INSERT INTO t VALUES (s1.NEXTVAL, 'c')")
    db.run("ROLLBACK WORK")
    other = session_on(engine, "testdb")
    assert other.one("SELECT s1.NEXTVAL FROM systables WHERE tabid = 1") == 35
    assert other.one("SELECT s1.CURRVAL FROM systables WHERE tabid = 1") == 35
    db.run("ALTER SEQUENCE s1 RESTART WITH 100 INCREMENT BY 1")
    assert db.one("SELECT s1.NEXTVAL FROM systables WHERE tabid = 1") == 100
    assert db.one("SELECT tabtype FROM systables WHERE tabname = 's1'") == "Q"
    assert db.one("SELECT inc_val FROM syssequences s, systables t WHERE s.tabid = t.tabid "
                  "AND t.tabname = 's1'") == 1
    db.run("CREATE SEQUENCE small MAXVALUE 2 NOCYCLE")
    db.run("UPDATE t SET id = small.NEXTVAL WHERE v = 'a'")
    db.run("UPDATE t SET id = small.NEXTVAL WHERE v = 'a'")
    # -8313 "Sequence (%s) exceeds its MAXVALUE." / -8314 "... goes below its MINVALUE."
    # (the message catalogue in the JDBC jar; -8316 is about renaming through a synonym)
    assert codes(db.err("UPDATE t SET id = small.NEXTVAL WHERE v = 'a'"))[0] == -8313
    db.run("CREATE SEQUENCE down INCREMENT BY -1 START WITH 2 MINVALUE 1 MAXVALUE 5")
    assert [db.one("SELECT down.NEXTVAL FROM systables WHERE tabid = 1") for _ in range(2)] == [
        2, 1]
    assert codes(db.err("SELECT down.NEXTVAL FROM systables WHERE tabid = 1"))[0] == -8314
    db.run("CREATE SEQUENCE cyc MINVALUE 1 MAXVALUE 2 CYCLE")
    assert [db.one("SELECT cyc.NEXTVAL FROM systables WHERE tabid = 1") for _ in range(3)] == [
        1, 2, 1]
    db.run("RENAME SEQUENCE cyc TO cyc2")
    db.run("DROP SEQUENCE cyc2")
    assert codes(db.err("DROP SEQUENCE cyc2")) == (-8300, -111)
    assert codes(db.err("CREATE SEQUENCE t"))[0] == -310
    assert codes(db.err("CREATE SEQUENCE bad INCREMENT BY 0"))[0] == -8305
    other.s.close()


def test_sequence_survives_a_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    eng = Engine(tmp_path / "d")
    s = eng.session("informix", {})
    db = Sql(s)
    db.run("CREATE DATABASE x WITH LOG")
    db.run("CREATE SEQUENCE s")
    assert db.one("SELECT s.NEXTVAL FROM systables WHERE tabid = 1") == 1
    s.close()
    eng.close()
    eng = Engine(tmp_path / "d")
    db = session_on(eng, "x")
    assert db.one("SELECT s.NEXTVAL FROM systables WHERE tabid = 1") > 1  # never 1 again
    db.s.close()
    eng.close()


def test_synonyms(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE base (a INT)")
    db.run("INSERT INTO base VALUES (7)")
    db.run("CREATE SYNONYM syn FOR base")
    db.run("CREATE PRIVATE SYNONYM mine FOR base")
    assert db.one("SELECT a FROM syn") == 7
    assert db.one("SELECT syn.a FROM syn WHERE syn.a = 7") == 7
    db.run("INSERT INTO syn VALUES (8)")
    db.run("UPDATE mine SET a = 9 WHERE a = 8")
    assert db.rows("SELECT a FROM base ORDER BY a") == [(7,), (9,)]
    assert db.one("SELECT tabtype FROM systables WHERE tabname = 'mine'") == "P"
    assert db.one("SELECT btabid FROM syssyntable s, systables t WHERE s.tabid = t.tabid "
                  "AND t.tabname = 'syn'") == db.one(
        "SELECT tabid FROM systables WHERE tabname = 'base'")
    stranger = engine.session("joe", {})
    stranger.open_database("testdb")
    joe = Sql(stranger)
    assert joe.one("SELECT COUNT(*) FROM syn") == 2
    assert codes(joe.err("SELECT COUNT(*) FROM mine")) == (-206, -111)
    assert joe.one("SELECT COUNT(*) FROM informix.mine") == 2
    stranger.close()
    db.run("DROP SYNONYM mine")
    assert codes(db.err("SELECT * FROM mine")) == (-206, -111)
    assert codes(db.err("CREATE SYNONYM base FOR syn"))[0] == -310
    assert codes(db.err("CREATE SYNONYM s2 FOR nosuch")) == (-206, -111)


def test_grants_fill_the_catalog(db: Sql) -> None:
    db.run("CREATE TABLE g (a INT, b INT)")
    db.run("GRANT SELECT, UPDATE (b) ON g TO joe WITH GRANT OPTION")
    db.run("GRANT INSERT ON g TO joe")
    assert db.one("SELECT tabauth FROM systabauth WHERE grantee = 'joe'") == "S-*i-----"
    assert db.one("SELECT colauth FROM syscolauth WHERE grantee = 'joe'") == "-U-"
    db.run("REVOKE SELECT, INSERT ON g FROM joe")
    db.run("REVOKE UPDATE (b) ON g FROM joe")
    assert db.rows("SELECT * FROM systabauth WHERE grantee = 'joe'") == []
    assert codes(db.err("GRANT SELECT (nosuch) ON g TO joe"))[0] == -217
    db.run("GRANT CONNECT TO joe")
    db.run("GRANT RESOURCE TO ann")
    assert db.rows("SELECT username, usertype FROM sysusers WHERE username IN ('joe', 'ann') "
                   "ORDER BY 1") == [("ann", "R"), ("joe", "C")]
    db.run("REVOKE CONNECT FROM joe")
    assert db.rows("SELECT 1 FROM sysusers WHERE username = 'joe'") == []


def test_roles(db: Sql) -> None:
    db.run("CREATE TABLE r (a INT)")
    db.run("CREATE ROLE clerk")
    assert codes(db.err("CREATE ROLE clerk"))[0] == -19800
    db.run("GRANT SELECT ON r TO clerk")
    db.run("GRANT clerk TO informix")
    assert db.rows("SELECT rolename, grantee, is_grantable FROM sysroleauth") == [
        ("clerk", "informix", "N")]
    db.run("SET ROLE clerk")
    assert db.s.role == "clerk"
    db.run("SET ROLE NONE")
    assert codes(db.err("SET ROLE nosuch"))[0] == -19804
    assert codes(db.err("GRANT nosuch TO joe"))[0] == -19804
    db.run("CREATE ROLE auditor")
    assert codes(db.err("SET ROLE auditor"))[0] == -19805  # exists, not granted
    db.run("GRANT DEFAULT ROLE clerk TO informix")
    db.run("SET ROLE DEFAULT")
    assert db.s.role == "clerk"
    db.run("DROP ROLE clerk")
    assert db.rows("SELECT * FROM sysroleauth") == []


def test_old_database_files_gain_the_new_catalog_tables(tmp_path) -> None:  # type: ignore[no-untyped-def]
    eng = Engine(tmp_path / "d")
    db = Sql(eng.session("informix", {}))
    db.run("CREATE DATABASE old WITH LOG")
    db.run("CREATE TABLE t (a INT)")
    db.s.close()
    conn = eng.connect("old")
    conn.execute("DROP TABLE syssequences")  # as a file made before sequences existed
    conn.execute("DELETE FROM systables WHERE tabname = 'syssequences'")
    conn.close()
    eng.close()
    eng = Engine(tmp_path / "d")
    db = session_on(eng, "old")
    db.run("CREATE SEQUENCE s")
    assert db.one("SELECT s.NEXTVAL FROM systables WHERE tabid = 1") == 1
    assert db.one("SELECT COUNT(*) FROM systables WHERE tabname = 'syssequences'") == 1
    db.s.close()
    eng.close()
