"""Privileges are enforced: database level (CONNECT/RESOURCE/DBA), table level, roles."""

from __future__ import annotations

import pytest

from ifxwire.server.engine import Engine, EngineError

from .conftest import Sql, codes


def _as(engine: Engine, user: str) -> Sql:
    s = engine.session(user, {})
    s.open_database("testdb")
    return Sql(s)


def test_table_privileges(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE p (a INT, b INT)")
    db.run("INSERT INTO p VALUES (1, 2)")
    db.run("REVOKE ALL ON p FROM public")
    joe = _as(engine, "joe")
    assert codes(joe.err("SELECT * FROM p")) == (-272, 0)
    assert codes(joe.err("INSERT INTO p VALUES (3, 4)"))[0] == -275
    assert codes(joe.err("UPDATE p SET a = 5"))[0] == -273
    assert codes(joe.err("DELETE FROM p"))[0] == -274
    db.run("GRANT SELECT, INSERT ON p TO joe")
    assert joe.rows("SELECT a FROM p") == [(1,)]
    joe.run("INSERT INTO p VALUES (3, 4)")
    assert codes(joe.err("UPDATE p SET a = 5 WHERE a = 1"))[0] == -273
    assert codes(joe.err("INSERT INTO p SELECT * FROM q_nosuch"))[0] == -206
    db.run("REVOKE SELECT ON p FROM joe")
    assert codes(joe.err("SELECT * FROM p"))[0] == -272
    # a role's privileges count once the role is set
    db.run("CREATE ROLE readers")
    db.run("GRANT SELECT ON p TO readers")
    db.run("GRANT readers TO joe")
    assert codes(joe.err("SELECT * FROM p"))[0] == -272
    joe.run("SET ROLE readers")
    assert len(joe.rows("SELECT * FROM p")) == 2
    joe.s.close()


def test_database_privileges(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE owned (a INT)")
    joe = _as(engine, "joe")  # PUBLIC has CONNECT
    assert codes(joe.err("CREATE TABLE mine (a INT)"))[0] == -388
    joe.run("CREATE TEMP TABLE scratch (a INT)")
    assert codes(joe.err("CREATE ROLE r1"))[0] == -389
    assert codes(joe.err("GRANT CONNECT TO ann"))[0] == -389
    assert codes(joe.err("DROP TABLE owned"))[0] == -999
    assert codes(joe.err("ALTER TABLE owned ADD (b INT)"))[0] == -999
    db.run("GRANT RESOURCE TO joe")
    joe.run("CREATE TABLE mine (a INT)")
    joe.run("INSERT INTO mine VALUES (1)")
    joe.run("ALTER TABLE mine ADD (b INT)")
    db.run("GRANT ALTER ON owned TO joe")
    joe.run("ALTER TABLE owned ADD (b INT)")
    joe.s.close()
    db.run("REVOKE CONNECT FROM public")
    with pytest.raises(EngineError) as info:
        _as(engine, "ann")
    assert info.value.sqlcode == -387


def test_execute_privilege(db: Sql, engine: Engine) -> None:
    """EXECUTE on routines (sysprocauth): PUBLIC by default in a database that is not ANSI,
    only DBAs for a DBA routine; GRANT / REVOKE EXECUTE ON; -706 "Execute privilege denied
    on procedure (%s)." (the message catalogue in the JDBC jar).
    https://help.hcltechsw.com/onedb/1.0.0.0/sqt/ids_sqt_505.html, ids_sqt_506.html"""
    db.run("CREATE FUNCTION f_pub(a INT) RETURNING INT; RETURN a + 1; END FUNCTION")
    db.run("CREATE FUNCTION f_loop(a INT) RETURNING INT; DEFINE i INT; LET i = a; "
           "WHILE i < a + 2 LET i = i + 1; END WHILE; RETURN i; END FUNCTION")
    db.run("CREATE PROCEDURE p_pub() END PROCEDURE")
    db.run("CREATE DBA PROCEDURE p_dba() END PROCEDURE")
    joe = _as(engine, "joe")
    assert joe.rows("EXECUTE FUNCTION f_pub(1)") == [(2,)]
    assert joe.one("SELECT f_loop(1) FROM systables WHERE tabid = 1") == 3
    assert codes(joe.err("EXECUTE PROCEDURE p_dba()")) == (-706, 0)
    db.run("REVOKE EXECUTE ON f_pub FROM public")
    db.run("REVOKE EXECUTE ON FUNCTION f_loop(INT) FROM public")
    assert codes(joe.err("EXECUTE FUNCTION f_pub(1)"))[0] == -706
    # in an expression too, also when the one-RETURN function is expanded inline
    assert codes(joe.err("SELECT f_pub(1) FROM systables WHERE tabid = 1"))[0] == -706
    assert codes(joe.err("SELECT f_loop(1) FROM systables WHERE tabid = 1"))[0] == -706
    db.run("GRANT EXECUTE ON p_dba TO joe")
    db.run("GRANT EXECUTE ON ROUTINE f_pub TO joe WITH GRANT OPTION")
    joe.run("EXECUTE PROCEDURE p_dba()")
    assert joe.rows("EXECUTE FUNCTION f_pub(1)") == [(2,)]
    joe.run("GRANT EXECUTE ON f_pub TO ann")  # joe holds it WITH GRANT OPTION
    assert codes(joe.err("GRANT EXECUTE ON p_dba TO ann"))[0] == -999
    assert codes(db.err("GRANT EXECUTE ON f_pub TO public WITH GRANT OPTION"))[0] == -298
    assert codes(db.err("GRANT EXECUTE ON nosuch TO joe"))[0] == -674
    assert db.rows("SELECT grantor, grantee, procauth FROM sysprocauth a, sysprocedures p "
                   "WHERE a.procid = p.procid AND p.procname = 'f_pub' ORDER BY 2"
                   ) == [("joe", "ann", "e"), ("informix", "joe", "E")]
    joe.s.close()


def test_statements_in_routines_use_the_owners_grantable_privileges(
        db: Sql, engine: Engine) -> None:
    """Inside a routine the effective privilege is the caller's joined with what the owner
    holds WITH GRANT OPTION; a DBA routine makes its caller DBA while it runs
    (https://help.hcltechsw.com/onedb/1.0.0.0/sqt/ids_sqt_508.html, ids_sqt_509.html)."""
    db.run("GRANT RESOURCE TO ann")
    db.run("CREATE TABLE secret (a INT)")
    db.run("INSERT INTO secret VALUES (1)")
    db.run("REVOKE ALL ON secret FROM public")
    ann = _as(engine, "ann")
    ann.run("CREATE TABLE ann_t (a INT)")
    ann.run("INSERT INTO ann_t VALUES (7)")
    ann.run("REVOKE ALL ON ann_t FROM public")
    # ann's routine reads her own table: anyone who may run it reads it through it
    ann.run("CREATE FUNCTION ann_read() RETURNING INT; DEFINE v INT; "
            "SELECT a INTO v FROM ann_t; RETURN v; END FUNCTION")
    # … but not informix's table, on which ann holds no grantable privilege
    ann.run("CREATE FUNCTION ann_secret() RETURNING INT; DEFINE v INT; "
            "SELECT a INTO v FROM secret; RETURN v; END FUNCTION")
    ann.run("CREATE PROCEDURE ann_put(v INT) INSERT INTO ann_t VALUES (v); END PROCEDURE")
    joe = _as(engine, "joe")
    assert codes(joe.err("SELECT a FROM ann_t"))[0] == -272
    assert joe.rows("EXECUTE FUNCTION ann_read()") == [(7,)]
    joe.run("EXECUTE PROCEDURE ann_put(8)")
    assert codes(joe.err("EXECUTE FUNCTION ann_secret()"))[0] == -272
    assert codes(ann.err("EXECUTE FUNCTION ann_secret()"))[0] == -272
    db.run("GRANT SELECT ON secret TO ann")  # without GRANT OPTION: ann only, not joe
    assert ann.rows("EXECUTE FUNCTION ann_secret()") == [(1,)]
    assert codes(joe.err("EXECUTE FUNCTION ann_secret()"))[0] == -272
    db.run("GRANT SELECT ON secret TO ann WITH GRANT OPTION")
    assert joe.rows("EXECUTE FUNCTION ann_secret()") == [(1,)]
    # a DBA routine: joe is DBA while it runs (its DDL too), not after
    db.run("CREATE DBA PROCEDURE grow() CREATE TABLE made_by_dba (a INT); "
           "INSERT INTO secret VALUES (2); END PROCEDURE")
    db.run("GRANT EXECUTE ON grow TO joe")
    joe.run("EXECUTE PROCEDURE grow()")
    assert db.one("SELECT COUNT(*) FROM secret") == 2
    assert codes(joe.err("CREATE TABLE after_dba (a INT)"))[0] == -388
    # a routine owned by a DBA: its callers share everything the DBA holds
    db.run("CREATE FUNCTION count_secret() RETURNING INT; DEFINE n INT; "
           "SELECT COUNT(*) INTO n FROM secret; RETURN n; END FUNCTION")
    assert joe.rows("EXECUTE FUNCTION count_secret()") == [(2,)]
    # a trigger's actions run with its owner's share as well: joe may insert into orders,
    # not into the audit table the trigger writes
    db.run("CREATE TABLE orders (a INT)")
    db.run("CREATE TABLE audit (a INT)")
    db.run("REVOKE ALL ON audit FROM public")
    db.run("CREATE TRIGGER t_orders INSERT ON orders REFERENCING NEW AS n "
           "FOR EACH ROW (INSERT INTO audit VALUES (n.a))")
    joe.run("INSERT INTO orders VALUES (5)")
    assert db.rows("SELECT a FROM audit") == [(5,)]
    assert codes(joe.err("INSERT INTO audit VALUES (6)"))[0] == -275
    joe.s.close()
    ann.s.close()


def test_usage_on_language_spl(db: Sql, engine: Engine) -> None:
    """dbexport writes ``REVOKE USAGE ON LANGUAGE SPL FROM public`` then ``GRANT … TO
    public``; the Usage privilege on SPL is PUBLIC's by default (Guide to SQL: Syntax,
    GRANT, "Usage Privilege in Stored Procedure Language") and a DBA may move it."""
    proc = "CREATE PROCEDURE p_{0}() END PROCEDURE"
    db.run("GRANT RESOURCE TO joe")
    joe = _as(engine, "joe")
    joe.run(proc.format(1))
    db.run("REVOKE USAGE ON LANGUAGE SPL FROM public")
    assert codes(joe.err(proc.format(2)))[0] == -9754
    db.run(proc.format(3))  # a DBA always holds it
    db.run("GRANT USAGE ON LANGUAGE SPL TO joe")
    joe.run(proc.format(4))
    db.run("REVOKE USAGE ON LANGUAGE SPL FROM joe")
    assert codes(joe.err(proc.format(5)))[0] == -9754
    db.run("GRANT USAGE ON LANGUAGE SPL TO public")
    joe.run(proc.format(6))
    # Only a DBA grants it; no external languages here; USAGE is its only privilege.
    assert codes(joe.err("GRANT USAGE ON LANGUAGE SPL TO ann"))[0] == -999
    assert codes(db.err("GRANT USAGE ON LANGUAGE C TO public"))[0] == -999
    assert codes(db.err("GRANT SELECT ON LANGUAGE SPL TO public"))[0] == -201
    joe.s.close()


def test_alter_fragment_needs_alter_or_index_privilege(db: Sql, engine: Engine) -> None:
    """ids_sqs_0236: "You must have the Alter privilege or the DBA privilege to change the
    fragmentation strategy of a table. You must have the Index privilege or the DBA privilege
    to alter the fragmentation strategy of an index." (refused as other DDL on a table one
    does not own is here)."""
    db.run("CREATE TABLE fr (a INT) FRAGMENT BY ROUND ROBIN IN d1, d2")
    db.run("CREATE INDEX fr_ix ON fr (a) FRAGMENT BY EXPRESSION a < 5 IN d1, REMAINDER IN d2")
    db.run("REVOKE INDEX ON fr FROM public")  # PUBLIC's default 'su-idx--' has Index
    joe = _as(engine, "joe")
    assert codes(joe.err("ALTER FRAGMENT ON TABLE fr ADD d3"))[0] == -999
    assert codes(joe.err("ALTER FRAGMENT ON INDEX fr_ix DROP d1"))[0] == -999
    db.run("GRANT ALTER ON fr TO joe")
    joe.run("ALTER FRAGMENT ON TABLE fr ADD d3")
    assert codes(joe.err("ALTER FRAGMENT ON INDEX fr_ix DROP d1"))[0] == -999
    db.run("GRANT INDEX ON fr TO joe")
    assert codes(joe.err("ALTER FRAGMENT ON INDEX fr_ix DROP d1"))[0] == -860  # two left
    joe.s.close()


def test_insert_execute_needs_execute_on_the_routine(db: Sql, engine: Engine) -> None:
    """INSERT … EXECUTE PROCEDURE runs the routine: without EXECUTE on it the statement is
    -706, as EXECUTE PROCEDURE is, and inserts nothing; with INSERT on the table and
    EXECUTE on the routine it runs (ids_sqs_0133; twenty-third round)."""
    db.run("CREATE TABLE ie (a INT)")
    db.run("CREATE PROCEDURE one() RETURNING INT; RETURN 1; END PROCEDURE")
    db.run("GRANT INSERT ON ie TO joe")
    db.run("REVOKE EXECUTE ON one FROM public")
    joe = _as(engine, "joe")
    assert codes(joe.err("EXECUTE PROCEDURE one()"))[0] == -706
    assert codes(joe.err("INSERT INTO ie EXECUTE PROCEDURE one()"))[0] == -706
    assert db.rows("SELECT COUNT(*) FROM ie") == [(0,)]
    db.run("GRANT EXECUTE ON one TO joe")
    joe.run("INSERT INTO ie EXECUTE PROCEDURE one()")
    assert db.rows("SELECT a FROM ie") == [(1,)]
