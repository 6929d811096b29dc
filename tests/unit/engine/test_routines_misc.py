"""SPL routines (single RETURN), FOR UPDATE, EXCLUSIVE, and other corners."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ifxwire.protocol.codes import StmtType, TypeCode
from ifxwire.server.engine import Engine, EngineError

from .conftest import Sql, session_on

T = TypeCode


def test_function_execute_and_inline(db: Sql) -> None:
    db.run("CREATE FUNCTION plus1(x INTEGER) RETURNING INTEGER; RETURN x + 1; END FUNCTION")
    p = db.s.prepare("EXECUTE FUNCTION plus1(41)")
    assert p.stmt_type == StmtType.EXECUTE_PROCEDURE and p.is_query
    assert [(c.type, c.enclen) for c in p.columns] == [(T.INTEGER, 4)]
    assert list(db.s.open_cursor(p, [])) == [(42,)]
    db.run("create table n (v int)")
    db.run("insert into n values (1)")
    assert db.one("select plus1(v) from n") == 2
    assert db.one("select procname from sysprocedures where procname = 'plus1'") == "plus1"
    assert db.err("CREATE FUNCTION plus1(x INT) RETURNING INT; RETURN x; END FUNCTION"
                  ).sqlcode == -673
    db.run("DROP FUNCTION plus1")
    assert db.err("EXECUTE FUNCTION plus1(1)").sqlcode == -674


def test_function_multiple_returns_and_params(db: Sql) -> None:
    db.run("CREATE FUNCTION pair(a DECIMAL(8,2), b CHAR(5)) RETURNING DECIMAL(9,2), CHAR(6); "
           "RETURN a * 2, b || '!'; END FUNCTION")
    assert db.rows("EXECUTE FUNCTION pair(?, ?)", "1.25", "ab") == [(Decimal("2.50"),
                                                                     "ab   !")]


def test_procedure_without_body(db: Sql) -> None:
    db.run("CREATE PROCEDURE noop() END PROCEDURE")
    p = db.s.prepare("EXECUTE PROCEDURE noop()")
    assert not p.is_query
    db.s.execute(p, [])


def test_spl_body_beyond_return_runs(db: Sql) -> None:
    db.run("CREATE FUNCTION f() RETURNING INT; DEFINE x INT; LET x = 1; RETURN x; "
           "END FUNCTION")
    assert db.rows("EXECUTE FUNCTION f()") == [(1,)]
    assert db.err("CREATE PROCEDURE p() GOTO x; END PROCEDURE").sqlcode == -999


def test_for_update_is_flagged(db: Sql) -> None:
    db.run("create table t (a int)")
    p = db.s.prepare("select a from t for update")
    assert p.for_update and p.is_query
    assert not db.s.prepare("select a from t").for_update


def test_exclusive_database(engine: Engine, db: Sql) -> None:
    other = Sql(engine.session("informix", {}))
    assert other.err("database testdb exclusive").sqlcode == -425
    db.s.close_database()
    other.run("database testdb exclusive")
    with pytest.raises(EngineError) as info:
        db.s.open_database("testdb")
    assert info.value.sqlcode == -425
    other.s.close()


def test_sysmaster_as_current_database(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    sql.run("database sysmaster")
    assert sql.one("select scs_currdb from syssqlcurses") == "sysmaster"
    assert sql.one("select count(*) from sysmaster:sysdatabases where name = 'sysmaster'") == 1


def test_schema_change_seen_by_other_session(engine: Engine, db: Sql) -> None:
    db.run("create table t (a int)")
    other = session_on(engine, "testdb")
    assert other.describe("select * from t") == [("a", T.INTEGER, 4)]
    db.run("alter table t add (b char(3))")
    assert other.describe("select * from t") == [("a", T.INTEGER, 4), ("b", T.CHAR, 3)]
    other.s.close()


def test_describe_start_offsets(db: Sql) -> None:
    db.run("create table w (a smallint, b int, c decimal(10,2), d char(3), e int8)")
    p = db.s.prepare("select * from w")
    assert [c.start for c in p.columns] == [0, 2, 6, 12, 15]


def test_cached_prepare_is_fast(db: Sql) -> None:
    import time

    db.run("create table f (a int, b varchar(10))")
    sql = "select a, b from f where a = ?"
    db.s.prepare(sql)
    t0 = time.perf_counter()
    for _ in range(1000):
        db.s.prepare(sql)
    assert (time.perf_counter() - t0) / 1000 < 0.001


def test_cursor_streams(db: Sql) -> None:
    db.run("create table big (id serial, v int)")
    db.s.begin()
    p = db.s.prepare("insert into big (v) values (?)")
    for i in range(3000):
        db.s.execute(p, [i])
    db.s.commit()
    rows = db.s.open_cursor(db.s.prepare("select id, v from big order by id"), [])
    assert next(rows) == (1, 0)
    assert sum(1 for _ in rows) == 2999


def test_statement_prepared_before_alter_gets_710(engine: Engine, db: Sql) -> None:
    db.run("create table er (x int)")
    db.run("create table other (z int)")
    db.run("insert into er values (1)")
    p = db.s.prepare("select * from er")
    other = session_on(engine, "testdb")
    other.run("create table unrelated (a int)")  # other tables changing is fine
    assert list(db.s.open_cursor(p, [])) == [(1,)]
    other.run("alter table er add (y int)")
    with pytest.raises(EngineError) as info:
        db.s.open_cursor(p, [])
    assert (info.value.sqlcode, info.value.near) == (-710, "er")
    p2 = db.s.prepare("select * from er")
    assert list(db.s.open_cursor(p2, [])) == [(1, None)]
    ins = db.s.prepare("insert into other values (?)")
    other.run("drop table other")
    with pytest.raises(EngineError) as info:
        db.s.execute(ins, [1])
    assert info.value.sqlcode == -710
    other.s.close()


@pytest.mark.parametrize("end", ["COMMIT WORK", "ROLLBACK WORK"])
def test_foreach_cursor_closed_by_transaction_end(db: Sql, end: str) -> None:
    """Informix closes every cursor not declared WITH HOLD when a transaction ends, the
    implicit cursor of FOREACH too; its next fetch is -400 "Fetch attempted on unopen cursor"
    (https://help.hcl-software.com/hclinformix/1410/sqs/ids_sqs_0667.html: "Ordinarily, all
    cursors close at the end of a transaction. A hold cursor does not close")."""
    db.run("create table src (v int)")
    db.run("create table dst (v int)")
    for v in (1, 2, 3):
        db.run(f"insert into src values ({v})")
    body = (f"DEFINE x INT; FOREACH {{hold}} SELECT v INTO x FROM src ORDER BY v "
            f"BEGIN WORK; INSERT INTO dst VALUES (x); {end}; END FOREACH;")
    db.run(f"CREATE PROCEDURE p_plain() {body.format(hold='')} END PROCEDURE")
    db.run("CREATE PROCEDURE p_hold() "
           f"{body.format(hold='c_hold WITH HOLD FOR')} END PROCEDURE")
    assert db.err("EXECUTE PROCEDURE p_plain()").sqlcode == -400
    assert db.rows("select v from dst") == ([(1,)] if end == "COMMIT WORK" else [])
    db.run("delete from dst")
    db.run("EXECUTE PROCEDURE p_hold()")
    assert db.rows("select v from dst order by v") == (
        [(1,), (2,), (3,)] if end == "COMMIT WORK" else [])
    # Leaving the loop before the next fetch is no error.
    db.run("CREATE PROCEDURE p_exit() DEFINE x INT; FOREACH SELECT v INTO x FROM src "
           f"BEGIN WORK; {end}; EXIT FOREACH; END FOREACH; END PROCEDURE")
    db.run("EXECUTE PROCEDURE p_exit()")
    # The fetch after the last row fails too: the cursor is closed, not exhausted.
    db.run("CREATE PROCEDURE p_last() DEFINE x INT; FOREACH SELECT v INTO x FROM src "
           f"WHERE v = 3 BEGIN WORK; {end}; END FOREACH; END PROCEDURE")
    assert db.err("EXECUTE PROCEDURE p_last()").sqlcode == -400
