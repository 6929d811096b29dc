"""The SPL interpreter: statements, scopes, errors and the routine catalog (engine level)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest

from ifxwire.protocol.codes import StmtType, TypeCode
from ifxwire.server.engine import Engine
from ifxwire.server.engine.core import ifxtypes as it

from .conftest import Sql, session_on

T = TypeCode


def test_define_let_if_and_return(db: Sql) -> None:
    db.run("""CREATE FUNCTION grade(score INT) RETURNING CHAR(1);
        DEFINE g CHAR(1);
        IF score >= 90 THEN LET g = 'A';
        ELIF score >= 80 THEN LET g = 'B';
        ELSE LET g = 'C';
        END IF;
        RETURN g;
    END FUNCTION""")
    assert [db.one(f"EXECUTE FUNCTION grade({s})") for s in (95, 85, 10)] == ["A", "B", "C"]


def test_let_several_targets_swaps_with_old_values(db: Sql) -> None:
    db.run("""CREATE FUNCTION swap(a INT, b INT) RETURNING INT, INT;
        LET a, b = b, a;
        RETURN a, b;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION swap(1, 2)") == [(2, 1)]


def test_let_from_select_and_scalar_subquery(db: Sql) -> None:
    db.run("create table t (a int, b decimal(8,2))")
    db.run("insert into t values (1, 1.50)")
    db.run("insert into t values (2, 2.25)")
    db.run("""CREATE FUNCTION stats() RETURNING INT, DECIMAL(8,2), INT;
        DEFINE n, m INT; DEFINE s DECIMAL(8,2);
        LET n, s = (SELECT count(*), sum(b) FROM t);
        LET m = (SELECT max(a) FROM t);
        RETURN n, s, m;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION stats()") == [(2, Decimal("3.75"), 2)]


def test_decimal_and_datetime_arithmetic_are_exact(db: Sql) -> None:
    db.run("""CREATE FUNCTION money_math(price DECIMAL(16,2)) RETURNING DECIMAL(16,2),
            DECIMAL(32);
        DEFINE total DECIMAL(16,2);
        DEFINE i INT;
        LET total = 0;
        FOR i = 1 TO 10 LET total = total + price * 0.1; END FOR;
        RETURN total, 1 / 3;
    END FUNCTION""")
    total, third = db.rows("EXECUTE FUNCTION money_math(0.10)")[0]
    assert total == Decimal("0.10")
    assert str(third).startswith("0.33333333333333333333")
    db.run("""CREATE FUNCTION later(d DATETIME YEAR TO SECOND)
            RETURNING DATETIME YEAR TO SECOND, INTERVAL DAY TO SECOND;
        DEFINE e DATETIME YEAR TO SECOND;
        LET e = d + INTERVAL(1 02:03:04) DAY TO SECOND;
        RETURN e, e - d;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION later(?)", "2024-02-28 23:00:00") == [
        (dt.datetime(2024, 3, 1, 1, 3, 4), dt.timedelta(days=1, seconds=7384))]


def test_for_ranges_steps_and_lists(db: Sql) -> None:
    db.run("""CREATE FUNCTION walk() RETURNING INT;
        DEFINE i INT;
        FOR i IN (1 TO 3, 10, 20 TO 16 STEP -2) RETURN i WITH RESUME; END FOR;
        FOR i = 9 TO 7 RETURN i WITH RESUME; END FOR;
    END FUNCTION""")
    assert [r[0] for r in db.rows("EXECUTE FUNCTION walk()")] == [
        1, 2, 3, 10, 20, 18, 16, 9, 8, 7]


def test_while_loop_exit_continue_and_labels(db: Sql) -> None:
    db.run("""CREATE FUNCTION loops() RETURNING INT;
        DEFINE i, s INT;
        LET i = 0; LET s = 0;
        WHILE i < 10
            LET i = i + 1;
            CONTINUE WHILE WHEN i IN (2, 4, 6, 8, 10);
            LET s = s + i;
        END WHILE;
        LOOP
            LET i = i - 1;
            EXIT LOOP WHEN i < 5;
            LET s = s + 1000;
        END LOOP;
        <<outer>>
        FOR i = 1 TO 3
            WHILE 1 = 1
                EXIT outer WHEN i = 2;
                EXIT WHILE;
            END WHILE;
            LET s = s + 100000;
        END FOR;
        RETURN s;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION loops()") == 25 + 5000 + 100000


def test_foreach_select_into_and_with_resume_streams(db: Sql) -> None:
    db.run("create table n (v int)")
    db.s.begin()
    p = db.s.prepare("insert into n values (?)")
    for i in range(1, 501):
        db.s.execute(p, [i])
    db.s.commit()
    db.run("""CREATE FUNCTION evens(lim INT) RETURNING INT, INT;
        DEFINE x INT;
        FOREACH SELECT v INTO x FROM n WHERE v <= lim ORDER BY v
            IF TRUNC(x / 2) * 2 <> x THEN CONTINUE FOREACH; END IF
            RETURN x, x * x WITH RESUME;
        END FOREACH
    END FUNCTION""")
    p = db.s.prepare("EXECUTE FUNCTION evens(?)")
    assert p.stmt_type == StmtType.EXECUTE_PROCEDURE and p.is_query
    rows = db.s.open_cursor(p, [500])
    assert next(rows) == (2, 4)  # the routine is suspended at RETURN … WITH RESUME
    assert sum(1 for _ in rows) == 249


def test_foreach_named_cursor_where_current_of(db: Sql) -> None:
    db.run("create table acct (id int, bal decimal(10,2))")
    for i in range(1, 5):
        db.run(f"insert into acct values ({i}, {i}0.00)")
    db.run("""CREATE PROCEDURE settle()
        DEFINE i INT; DEFINE b DECIMAL(10,2);
        FOREACH c1 WITH HOLD FOR SELECT id, bal INTO i, b FROM acct
            IF i > 2 THEN UPDATE acct SET bal = b * 2 WHERE CURRENT OF c1;
            ELSE DELETE FROM acct WHERE CURRENT OF c1;
            END IF;
        END FOREACH;
    END PROCEDURE""")
    db.run("EXECUTE PROCEDURE settle()")
    assert db.rows("select * from acct order by id") == [(3, Decimal("60.00")),
                                                         (4, Decimal("80.00"))]


def test_calls_nested_recursive_and_multi_value(db: Sql) -> None:
    db.run("""CREATE FUNCTION fact(n INT) RETURNING DECIMAL(32,0);
        IF n <= 1 THEN RETURN 1; END IF;
        RETURN n * fact(n - 1);
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION fact(25)") == Decimal("15511210043330985984000000")
    db.run("CREATE FUNCTION pair(x INT) RETURNING INT, CHAR(3); RETURN x + 1, 'abc'; "
           "END FUNCTION")
    db.run("""CREATE FUNCTION use_pair() RETURNING INT, CHAR(3);
        DEFINE i INT; DEFINE c CHAR(3);
        LET i, c = pair(1);
        CALL pair(i) RETURNING i, c;
        EXECUTE FUNCTION pair(i) INTO i, c;
        RETURN i, c;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION use_pair()") == [(4, "abc")]
    db.run("create table k (a int)")
    db.run("insert into k values (3)")
    assert db.rows("select fact(a) from k") == [(Decimal(6),)]


def test_foreach_execute_function(db: Sql) -> None:
    db.run("""CREATE FUNCTION gen(n INT) RETURNING INT;
        DEFINE i INT;
        FOR i = 1 TO n RETURN i WITH RESUME; END FOR;
    END FUNCTION""")
    db.run("""CREATE FUNCTION total(n INT) RETURNING INT;
        DEFINE i, s INT;
        LET s = 0;
        FOREACH EXECUTE FUNCTION gen(n) INTO i
            LET s = s + i;
        END FOREACH;
        RETURN s;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION total(100)") == 5050


def test_recursion_depth_limit(db: Sql) -> None:
    db.run("CREATE FUNCTION down(n INT) RETURNING INT; RETURN down(n + 1); END FUNCTION")
    e = db.err("EXECUTE FUNCTION down(1)")
    assert (e.sqlcode, e.near) == (-722, "down")
    db.run("CREATE PROCEDURE spin(n INT) CALL spin(n + 1); END PROCEDURE")
    assert db.err("EXECUTE PROCEDURE spin(1)").sqlcode == -722
    assert db.one("select 1 from systables where tabid = 1") == 1  # the session is fine


def test_on_exception_set_resume_and_unwind(db: Sql) -> None:
    db.run("""CREATE FUNCTION safe_div(a INT, b INT) RETURNING DECIMAL(10,2), INT;
        DEFINE err INT;
        ON EXCEPTION IN (-1202) SET err
            RETURN NULL, err;
        END EXCEPTION;
        RETURN a / b, 0;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION safe_div(7, 2)") == [(Decimal("3.50"), 0)]
    assert db.rows("EXECUTE FUNCTION safe_div(7, 0)") == [(None, -1202)]
    db.run("""CREATE FUNCTION resumed() RETURNING INT;
        DEFINE n INT;
        ON EXCEPTION IN (-206) LET n = n + 100; END EXCEPTION WITH RESUME;
        LET n = 1;
        INSERT INTO no_such_table VALUES (1);
        LET n = n + 1;
        RETURN n;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION resumed()") == 102
    db.run("""CREATE FUNCTION unwound() RETURNING INT;
        DEFINE n INT;
        LET n = 0;
        BEGIN
            ON EXCEPTION LET n = n + 10; END EXCEPTION;
            LET n = n + 1;
            RAISE EXCEPTION -746, 0, 'leave the block';
            LET n = n + 1000;
        END
        RETURN n;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION unwound()") == 11
    # A routine-level handler without RESUME ends the routine with no values.
    db.run("""CREATE FUNCTION quiet() RETURNING INT;
        ON EXCEPTION END EXCEPTION;
        RAISE EXCEPTION -746;
        RETURN 1;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION quiet()") == []


def test_handler_in_loop_body_skips_to_next_iteration(db: Sql) -> None:
    db.run("create table src (v int)")
    db.run("create table dst (v int primary key)")
    for v in (1, 2, 2, 3):
        db.run(f"insert into src values ({v})")
    db.run("""CREATE FUNCTION copy() RETURNING INT;
        DEFINE x, bad INT;
        LET bad = 0;
        FOREACH SELECT v INTO x FROM src
            BEGIN
                ON EXCEPTION IN (-268, -239) LET bad = bad + 1; END EXCEPTION;
                INSERT INTO dst VALUES (x);
            END
        END FOREACH;
        RETURN bad;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION copy()") == 1
    assert db.rows("select v from dst order by v") == [(1,), (2,), (3,)]


def test_raise_exception_reaches_the_client_with_codes_and_text(db: Sql) -> None:
    db.run("""CREATE PROCEDURE check_qty(q INT)
        IF q < 0 THEN RAISE EXCEPTION -746, 0, 'quantity ' || q || ' is negative'; END IF;
        IF q > 100 THEN RAISE EXCEPTION -530, -107; END IF;
    END PROCEDURE""")
    db.run("EXECUTE PROCEDURE check_qty(5)")
    e = db.err("EXECUTE PROCEDURE check_qty(-2)")
    assert (e.sqlcode, e.isamcode, e.near) == (-746, 0, "quantity -2 is negative")
    e = db.err("EXECUTE PROCEDURE check_qty(101)")
    assert (e.sqlcode, e.isamcode) == (-530, -107)
    db.run("""CREATE FUNCTION caught() RETURNING INT, INT, VARCHAR(60);
        DEFINE s, i INT; DEFINE t VARCHAR(60);
        ON EXCEPTION SET s, i, t RETURN s, i, t; END EXCEPTION;
        EXECUTE PROCEDURE check_qty(-9);
        RETURN 0, 0, '';
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION caught()") == [(-746, 0, "quantity -9 is negative")]


def test_undefined_variable_and_select_into_rows(db: Sql) -> None:
    db.run("CREATE FUNCTION undef() RETURNING INT; DEFINE x INT; RETURN x + 1; END FUNCTION")
    e = db.err("EXECUTE FUNCTION undef()")
    assert (e.sqlcode, e.near) == (-696, "x")
    db.run("create table s (a int)")
    db.run("insert into s values (1)")
    db.run("insert into s values (2)")
    db.run("""CREATE FUNCTION one_of(lim INT) RETURNING INT, INT;
        DEFINE v INT;
        LET v = -1;
        SELECT a INTO v FROM s WHERE a > lim;
        RETURN v, DBINFO('sqlca.sqlerrd2');
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION one_of(1)") == [(2, 1)]
    assert db.rows("EXECUTE FUNCTION one_of(5)") == [(-1, 0)]  # no row: unchanged
    assert db.err("EXECUTE FUNCTION one_of(0)").sqlcode == -284


def test_variables_shadow_columns_and_scope_in_blocks(db: Sql) -> None:
    db.run("create table person (lname char(10), id int)")
    db.run("insert into person values ('Miller', 502)")
    db.run("insert into person values ('Jones', 7)")
    db.run("""CREATE FUNCTION shadow() RETURNING CHAR(10), INT, INT;
        DEFINE lname CHAR(10);
        DEFINE id, n INT;
        LET lname = 'Jones';
        LET id = 1;
        SELECT count(*) INTO n FROM person WHERE person.lname = lname;
        BEGIN
            DEFINE id INT;
            LET id = 99;
        END
        RETURN lname, id, n;
    END FUNCTION""")
    assert db.rows("EXECUTE FUNCTION shadow()") == [("Jones", 1, 1)]


def test_global_variables_keep_their_value_in_the_session(engine: Engine, db: Sql) -> None:
    db.run("""CREATE FUNCTION tick() RETURNING INT;
        DEFINE GLOBAL counter INT DEFAULT 100;
        LET counter = counter + 1;
        RETURN counter;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION tick()") == 101
    assert db.one("EXECUTE FUNCTION tick()") == 102
    other = session_on(engine, "testdb")
    assert other.one("EXECUTE FUNCTION tick()") == 101  # globals are per session
    other.s.close()


def test_define_like_column(db: Sql) -> None:
    db.run("create table item (code char(4), price money(8,2))")
    db.run("insert into item values ('AB12', 19.99)")
    db.run("""CREATE FUNCTION price_of(c LIKE item.code) RETURNING MONEY(8,2);
        DEFINE p LIKE item.price;
        SELECT price INTO p FROM item WHERE code = c;
        RETURN p;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION price_of('AB12')") == Decimal("19.99")


def test_dml_and_ddl_inside_routines(db: Sql) -> None:
    db.run("""CREATE PROCEDURE build(n INT)
        DEFINE i INT;
        CREATE TEMP TABLE scratch (v INT) WITH NO LOG;
        FOR i = 1 TO n INSERT INTO scratch VALUES (i * i); END FOR;
        CREATE TABLE squares (v INT);
        INSERT INTO squares SELECT v FROM scratch;
        DROP TABLE scratch;
    END PROCEDURE""")
    db.run("EXECUTE PROCEDURE build(4)")
    assert db.rows("select v from squares order by v") == [(1,), (4,), (9,), (16,)]


def test_transactions_inside_routines(db: Sql) -> None:
    db.run("create table log (v int)")
    db.run("""CREATE PROCEDURE txn()
        BEGIN WORK;
        INSERT INTO log VALUES (1);
        ROLLBACK WORK;
        BEGIN WORK;
        INSERT INTO log VALUES (2);
        COMMIT WORK;
    END PROCEDURE""")
    db.run("EXECUTE PROCEDURE txn()")
    assert db.rows("select v from log") == [(2,)]


def test_execute_immediate_and_case_statement(db: Sql) -> None:
    db.run("""CREATE FUNCTION dyn(t VARCHAR(30)) RETURNING INT;
        DEFINE n INT;
        EXECUTE IMMEDIATE 'CREATE TABLE ' || t || ' (a INT)';
        EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' VALUES (7)';
        CASE (SELECT count(*) FROM systables WHERE tabname = t)
            WHEN 0 THEN LET n = -1;
            WHEN 1 THEN LET n = 1;
            ELSE LET n = 2;
        END CASE;
        RETURN n;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION dyn('madehere')") == 1
    assert db.rows("select a from madehere") == [(7,)]


def test_system_is_refused_and_trace_needs_a_directory(db: Sql, tmp_path: Path) -> None:
    db.run("CREATE PROCEDURE sh() SYSTEM 'rm -rf /tmp/x'; END PROCEDURE")
    assert db.err("EXECUTE PROCEDURE sh()").sqlcode == -668
    db.run("""CREATE PROCEDURE traced(f VARCHAR(200))
        SET DEBUG FILE TO f;
        TRACE ON;
        TRACE 'value ' || 42;
    END PROCEDURE""")
    e = db.err("EXECUTE PROCEDURE traced('out.trc')")
    assert e.sqlcode == -999 and "trace" in e.message.lower()


def test_trace_writes_inside_the_configured_directory(tmp_path: Path) -> None:
    engine = Engine(tmp_path / "data", trace_dir=tmp_path / "traces")
    (tmp_path / "traces").mkdir()
    s = engine.session("informix", {})
    sql = Sql(s)
    sql.run("create database tr")
    sql.run("""CREATE PROCEDURE traced(f VARCHAR(200))
        SET DEBUG FILE TO f;
        TRACE 'value ' || 42;
    END PROCEDURE""")
    sql.run("EXECUTE PROCEDURE traced('out.trc')")
    assert "value 42" in (tmp_path / "traces" / "out.trc").read_text()
    assert sql.err("EXECUTE PROCEDURE traced('../escape.trc')").sqlcode == -999
    assert not (tmp_path / "escape.trc").exists()
    s.close()
    engine.close()


def test_overloading_specific_names_and_drop_by_signature(db: Sql) -> None:
    db.run("CREATE FUNCTION kind(x INT) RETURNING VARCHAR(10); RETURN 'int'; END FUNCTION")
    db.run("CREATE FUNCTION kind(x CHAR(10)) RETURNING VARCHAR(10); RETURN 'char'; "
           "END FUNCTION")
    db.run("CREATE FUNCTION kind(x INT, y INT) RETURNING VARCHAR(10) SPECIFIC kind_two; "
           "RETURN 'two'; END FUNCTION")
    assert db.one("EXECUTE FUNCTION kind(1)") == "int"
    assert db.one("EXECUTE FUNCTION kind('a')") == "char"
    assert db.one("EXECUTE FUNCTION kind(1, 2)") == "two"
    assert db.err("CREATE FUNCTION kind(z INT) RETURNING INT; RETURN 1; END FUNCTION"
                  ).sqlcode == -673
    assert db.err("DROP FUNCTION kind").sqlcode == -9700
    db.run("DROP FUNCTION kind(CHAR(10))")
    db.run("DROP SPECIFIC FUNCTION kind_two")
    assert db.rows("select procname, numargs, paramtypes from sysprocedures "
                   "where procname = 'kind'") == [("kind", 1, "integer")]
    db.run("DROP FUNCTION kind")
    assert db.err("EXECUTE FUNCTION kind(1)").sqlcode == -674
    db.run("DROP FUNCTION IF EXISTS kind")


def test_default_parameters(db: Sql) -> None:
    db.run("""CREATE FUNCTION greet(name VARCHAR(20), greeting VARCHAR(20) DEFAULT 'Hello')
        RETURNING VARCHAR(50);
        RETURN greeting || ', ' || name;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION greet('Ann')") == "Hello, Ann"
    assert db.one("EXECUTE FUNCTION greet('Bo', 'Hi')") == "Hi, Bo"


def test_catalog_rows(db: Sql) -> None:
    text = ("CREATE PROCEDURE proc_doc(a INT, b CHAR(5))\n" + "  LET a = a + 1;\n" * 30
            + "END PROCEDURE\nDOCUMENT 'adds one', 'thirty times'")
    db.run(text)
    db.run("CREATE FUNCTION f_ret(a INT) RETURNING INT AS answer; RETURN a; END FUNCTION")
    procid = db.one("select procid from sysprocedures where procname = 'proc_doc'")
    row = db.rows("select owner, mode, numargs, isproc, langid, paramstyle from sysprocedures "
                  "where procname = 'proc_doc'")[0]
    assert row == ("informix", "O", 2, "t", 2, "I")
    chunks = db.rows(f"select seqno, data from sysprocbody where procid = {procid} "
                     "and datakey = 'T' order by seqno")
    assert [c[0] for c in chunks] == list(range(1, len(chunks) + 1)) and len(chunks) > 1
    assert "".join(str(c[1]).ljust(256) for c in chunks).rstrip() == text
    assert db.rows(f"select data from sysprocbody where procid = {procid} and datakey = 'D'"
                   ) == [("adds one\nthirty times",)]
    assert db.rows(f"select paramname, paramtype, paramattr from sysproccolumns "
                   f"where procid = {procid} order by paramid") == [("a", 2, 1), ("b", 0, 1)]
    assert db.rows("select c.paramname, c.paramattr from sysproccolumns c, sysprocedures p "
                   "where p.procid = c.procid and p.procname = 'f_ret' order by c.paramid"
                   ) == [("answer", 5), ("a", 1)]
    assert db.rows(f"select grantee, procauth from sysprocauth where procid = {procid}"
                   ) == [("public", "e")]
    assert db.describe("EXECUTE FUNCTION f_ret(1)") == [("answer", T.INTEGER, 4)]


def test_ifx_param_and_ret_types(db: Sql) -> None:
    """The routines JDBC's getProcedureColumns calls, also spelt <db>:ifx_param_types(…)."""
    db.run("CREATE FUNCTION f_types(a INT, b CHAR(10), d DATE) RETURNING SMALLINT, "
           "VARCHAR(20); RETURN 1, 'x'; END FUNCTION")
    db.run("CREATE PROCEDURE p_none() END PROCEDURE")
    procid = db.one("select procid from sysprocedures where procname = 'f_types'")
    none_id = db.one("select procid from sysprocedures where procname = 'p_none'")
    assert db.one(f"select ifx_param_types({procid}) from systables where tabid = 1"
                  ) == "integer,char,date"  # no lengths: JDBC splits at commas
    assert db.one(f"select ifx_ret_types({procid}) from systables where tabid = 1"
                  ) == "smallint,varchar"
    assert db.rows(f"select ifx_param_types({none_id}), ifx_ret_types({none_id}) "
                   "from systables where tabid = 1") == [("", "")]
    assert db.rows(f"select paramid, paramattr from sysproccolumns where procid = {procid} "
                   "order by paramid") == [(0, 3), (1, 3), (2, 1), (3, 1), (4, 1)]
    dbname = db.one("select dbinfo('dbname') from systables where tabid = 1").strip()
    assert db.one(f"select {dbname}:ifx_ret_types({procid}) from systables where tabid = 1"
                  ) == "smallint,varchar"
    assert db.err(f"select otherdb:ifx_ret_types({procid}) from systables where tabid = 1"
                  ).sqlcode == -999


def test_syntax_errors_at_create(db: Sql) -> None:
    e = db.err("CREATE PROCEDURE bad() LET x = ; END PROCEDURE")
    assert e.sqlcode == -201
    assert db.err("CREATE PROCEDURE bad() LET nosuch = 1; END PROCEDURE").sqlcode == -217
    assert db.err("CREATE PROCEDURE bad() LET x = 1; DEFINE x INT; END PROCEDURE"
                  ).sqlcode == -201
    # a RETURN of another count than RETURNING's is -655 (the JDBC jar's message catalogue:
    # "RETURN value count does not match procedure declaration."), not a syntax error
    assert db.err("CREATE FUNCTION bad() RETURNING INT; RETURN 1, 2; END FUNCTION"
                  ).sqlcode == -655
    assert db.err("CREATE PROCEDURE bad() END FUNCTION").sqlcode == -201
    assert db.rows("select count(*) from sysprocedures where procname = 'bad'") == [(0,)]


def test_statements_not_allowed_in_routines(db: Sql) -> None:
    db.run("CREATE PROCEDURE opendb() DATABASE other; END PROCEDURE")
    assert db.err("EXECUTE PROCEDURE opendb()").sqlcode == -675  # the catalogue's text


def test_execute_procedure_describes_and_binds_parameters(db: Sql) -> None:
    db.run("create table pt (d date, m money(8,2))")
    db.run("CREATE PROCEDURE addpt(d DATE, m MONEY(8,2)) INSERT INTO pt VALUES (d, m); "
           "END PROCEDURE")
    p = db.s.prepare("EXECUTE PROCEDURE addpt(?, ?)")
    assert not p.is_query and [c.type for c in p.params] == [T.DATE, T.MONEY]
    db.s.execute(p, [dt.date(2024, 5, 6), Decimal("1.25")])
    assert db.rows("select * from pt") == [(dt.date(2024, 5, 6), Decimal("1.25"))]


def test_entry_point_for_callers_outside_sql(db: Sql) -> None:
    db.run("CREATE FUNCTION sq(x INT) RETURNING INT; RETURN x * x; END FUNCTION")
    db.run("CREATE FUNCTION sq(x CHAR(5)) RETURNING INT; RETURN -1; END FUNCTION")
    assert list(db.s.call_routine("sq(integer)", [7])) == [(49,)]
    assert list(db.s.call_routine("function informix.sq(char(5))", ["x"])) == [(-1,)]


@pytest.mark.parametrize("body", [
    "FOREACH SELECT tabid INTO x FROM systables ORDER BY 1 EXIT FOREACH; END FOREACH",
    "FOREACH SELECT tabid INTO x FROM systables WHERE tabid = (SELECT max(tabid) "
    "FROM systables) LET x = x; END FOREACH",
])
def test_foreach_queries_end_where_the_next_statement_starts(db: Sql, body: str) -> None:
    db.run(f"CREATE PROCEDURE fe() DEFINE x INT; {body}; END PROCEDURE")
    db.run("EXECUTE PROCEDURE fe()")


def test_integer_overflow_fails_at_the_assignment(db: Sql) -> None:
    db.run("""CREATE FUNCTION big(n INT) RETURNING INT8;
        DEFINE i, t INT;
        LET t = 0;
        FOR i = 1 TO n LET t = t + i * 100000; END FOR;
        RETURN t;
    END FUNCTION""")
    assert db.one("EXECUTE FUNCTION big(10)") == 5500000
    e = db.err("EXECUTE FUNCTION big(1000)")
    assert e.sqlcode == -1215


def test_with_resume_rows_stream_in_constant_memory(db: Sql) -> None:
    import tracemalloc

    db.run("""CREATE FUNCTION many(n INT) RETURNING INT, VARCHAR(40);
        DEFINE i INT;
        FOR i = 1 TO n RETURN i, 'a row of forty characters, more or less' WITH RESUME;
        END FOR;
    END FUNCTION""")
    rows = db.s.open_cursor(db.s.prepare("EXECUTE FUNCTION many(?)"), [20000])
    next(rows)  # compile everything before measuring
    tracemalloc.start()
    try:
        n = 1 + sum(1 for _ in rows)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert n == 20000
    assert peak < 500_000, peak  # 20000 rows held at once would take about 3 MB


def test_statement_timeout_ends_a_runaway_routine(tmp_path: Path) -> None:
    engine = Engine(tmp_path / "data", statement_timeout=0.3)
    sql = Sql(engine.session("informix", {}))
    sql.run("create database runaway")
    sql.run("""CREATE PROCEDURE forever()
        DEFINE n INT;
        ON EXCEPTION SET n END EXCEPTION WITH RESUME;
        LOOP END LOOP;
    END PROCEDURE""")
    assert sql.err("EXECUTE PROCEDURE forever()").sqlcode == -213
    assert sql.one("select count(*) from systables where tabid = 1") == 1
    sql.s.close()
    engine.close()


def test_routines_in_a_database_from_an_older_version(engine: Engine, db: Sql) -> None:
    """A database file written before routines had their catalog tables and columns."""
    conn = db.s.conn
    assert conn is not None
    conn.execute("BEGIN IMMEDIATE")
    for table in ("sysprocbody", "sysproccolumns", "systriggers", "_ifx_proc"):
        conn.execute(f"DROP TABLE {table}")
        conn.execute("DELETE FROM systables WHERE tabname = ?", (table,))
    conn.execute("ALTER TABLE sysprocedures DROP COLUMN procflags")
    conn.execute("CREATE TABLE _ifx_routine (name TEXT PRIMARY KEY, params TEXT, "
                 "returns TEXT, body TEXT, function INTEGER)")
    key = it.INTEGER.key
    conn.execute("INSERT INTO _ifx_routine VALUES (?, ?, ?, ?, ?)",
                 ("old_plus", json.dumps([["x", key]]), json.dumps([key]), "x + 1", 1))
    conn.execute("INSERT INTO sysprocedures (procname, owner, procid, isproc, numargs) "
                 "VALUES ('old_plus', 'informix', 1, 'f', 1)")
    conn.execute("COMMIT")
    other = session_on(engine, "testdb")
    assert other.one("EXECUTE FUNCTION old_plus(41)") == 42
    other.run("CREATE FUNCTION new_one() RETURNING INT; RETURN 7; END FUNCTION")
    assert other.one("EXECUTE FUNCTION new_one()") == 7
    assert other.one("select procflags from sysprocedures where procname = 'new_one'") == 0
    other.s.close()


def test_stored_function_in_a_query_of_a_fresh_session(engine: Engine, db: Sql) -> None:
    """Regression: a function that is not expanded inline, called in a query by a session
    that had not run a routine before, was -674 (the session's SPL runtime did not exist
    yet, so the ifx_spl SQL function found no routine runner)."""
    db.run("CREATE TABLE fr (n INT)")
    db.run("INSERT INTO fr VALUES (5)")
    db.run("CREATE FUNCTION fr_two(i INT) RETURNING INT; DEFINE k INT; LET k = i * 2; "
           "RETURN k; END FUNCTION")
    fresh = session_on(engine, "testdb")
    assert fresh.rows("SELECT fr_two(n) FROM fr") == [(10,)]
    fresh.s.close()
