"""CREATE TABLE … AS SELECT (Informix 14.10, SQL Syntax "AS SELECT clause"): a new table
whose columns are the query's, filled with its rows, in one statement."""

from __future__ import annotations

from decimal import Decimal

from ifxwire.protocol.codes import TypeCode

from .conftest import Sql

T = TypeCode


def test_create_table_as_select(db: Sql) -> None:
    db.run("create table src (id int not null, name varchar(20), price decimal(8,2))")
    db.run("insert into src values (1, 'a', 1.50)")
    db.run("insert into src values (2, 'b', 20.00)")
    db.run("create table dst as select id, name, price * 2 as doubled from src where id > 1")
    assert db.rows("select * from dst") == [(2, "b", Decimal("40.00"))]
    assert [c[:2] for c in db.describe("select * from dst")] == [
        ("id", T.INTEGER), ("name", T.VARCHAR), ("doubled", T.DECIMAL)]
    assert db.one("select tabtype from systables where tabname = 'dst'") == "T"


def test_column_names_and_if_not_exists(db: Sql) -> None:
    db.run("create table src2 (a int, b char(3))")
    db.run("insert into src2 values (7, 'x')")
    db.run("create table named (x, y) as select a, b from src2")
    assert db.rows("select x, y from named") == [(7, "x")]
    db.run("create table if not exists named as select a from src2")  # already there
    assert db.rows("select x, y from named") == [(7, "x")]
    assert db.err("create table named as select a from src2").sqlcode == -310
    assert db.err("create table bad (x) as select a, b from src2").sqlcode == -236


def test_temp_table_as_select_is_not_informix_syntax(db: Sql) -> None:
    # 14.10's AS SELECT clause takes STANDARD or RAW tables; temp tables come from
    # SELECT … INTO TEMP
    db.run("create table src3 (a int)")
    assert db.err("create temp table t3 as select a from src3").sqlcode == -201


def test_the_same_statement_again(db: Sql) -> None:
    # the parsed statement is cached by its text; compiling its query must not change it
    db.run("create table src4 (a int)")
    db.run("insert into src4 values (1)")
    sql = "create table again as select src4.a from src4 where src4.a > 0"
    db.run("begin work")
    db.run(sql)
    db.run("rollback work")
    db.run(sql)
    assert db.rows("select a from again") == [(1,)]
