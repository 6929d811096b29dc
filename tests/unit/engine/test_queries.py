"""Informix dialect features, result descriptions and statement types."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from ifxwire.protocol.codes import StmtType, TypeCode
from ifxwire.types.values import IntervalYM

from .conftest import Sql

T = TypeCode


@pytest.fixture
def data(db: Sql) -> Sql:
    db.run("create table emp (id serial, name char(10), dept int, sal decimal(8,2), "
           "hired date, ts datetime year to second)")
    rows = [("ann", 1, "100.50", "2020-01-15", "2020-01-15 09:00:00"),
            ("bob", 1, "200.00", "2021-06-01", "2021-06-01 10:30:00"),
            ("cid", 2, "50.25", "2019-12-31", "2019-12-31 23:59:59"),
            ("dee", None, None, None, None)]
    for r in rows:
        db.run("insert into emp (name, dept, sal, hired, ts) values (?, ?, ?, ?, ?)", *r)
    db.run("create table dept (id int, dname varchar(20))")
    db.run("insert into dept values (1, 'eng')")
    db.run("insert into dept values (3, 'ops')")
    return db


@pytest.mark.parametrize("sql,stype", [
    ("select * from emp", StmtType.SELECT),
    ("-- c\nselect * from emp", StmtType.SELECT),
    ("{ c } select * from emp", StmtType.SELECT),
    ("(select * from emp)", StmtType.SELECT),
    ("select id from emp union select id from dept", StmtType.SELECT),
    ("with x as (select id from emp) select * from x", StmtType.SELECT),
    ("insert into emp (name) values (?)", StmtType.INSERT),
    ("update emp set dept = 1", StmtType.UPDATE),
    ("delete from emp", StmtType.DELETE),
    ("begin work", StmtType.BEGIN_WORK), ("commit", StmtType.COMMIT_WORK),
    ("rollback work", StmtType.ROLLBACK_WORK), ("database testdb", StmtType.DATABASE),
    ("create table x (a int)", StmtType.CREATE_TABLE),
    ("create temp table x (a int)", StmtType.CREATE_TEMP_TABLE),
    ("drop table emp", StmtType.DROP_TABLE), ("create index i on emp (id)",
                                             StmtType.CREATE_INDEX),
    ("set lock mode to wait 5", StmtType.SET_LOCK_MODE),
    ("set isolation to dirty read", StmtType.SET_ISOLATION),
    ("close database", StmtType.CLOSE_DATABASE),
    # The SQ_* numbers of the Client SDK header sqlstype.h, as literals so a renumbering of
    # StmtType cannot hide a change on the wire.
    ("create procedure p() end procedure", 53), ("drop procedure p", 54),
    ("set constraints all deferred", 55),
    ("create trigger t insert on emp after (insert into dept values (9, 'x'))", 70),
    ("drop trigger t", 71),
    ("create role r", 83), ("drop role r", 84), ("set role r", 85),
    ("alter index i to cluster", 47),  # SQ_ALTIDX of sqlstype.h
    ("rename index i to j", 116), ("truncate table emp", 122),
    ("create sequence s", 124), ("drop sequence s", 125),
    ("alter sequence s increment by 2", 126), ("rename sequence s to s2", 127),
    ("merge into dept d using emp e on d.id = e.dept when matched then update set dname = 'x'",
     128),
    ("savepoint a", 159), ("release savepoint a", 160), ("rollback to savepoint a", 161),
])
def test_statement_types(data: Sql, sql: str, stype: int) -> None:
    p = data.s.prepare(sql)
    assert p.stmt_type == stype
    assert p.is_query == (stype == StmtType.SELECT)


def test_unnamed_columns(data: Sql) -> None:
    # Aggregates and ungrouped columns in one select list are -294 (rewrites.group_columns),
    # so the two kinds are described apart.
    assert data.describe("select 1, 'ab', 1.5, count(*), count(dept), sum(sal), avg(sal), "
                         "max(sal), min(name) from emp") == [
        ("(constant)", T.INTEGER, 4), ("(constant)", T.CHAR, 2), ("(constant)", T.DECIMAL, 513),
        ("(count(*))", T.DECIMAL, 15 << 8), ("(count)", T.DECIMAL, 15 << 8),
        ("(sum)", T.DECIMAL, (32 << 8) | 2), ("(avg)", T.DECIMAL, (32 << 8) | 255),
        ("(max)", T.DECIMAL, (8 << 8) | 2), ("(min)", T.CHAR, 10)]
    assert data.describe("select sal * 2, name from emp") == [
        ("(expression)", T.DECIMAL, (18 << 8) | 2), ("name", T.CHAR, 10)]


def test_aggregates_return_decimal(data: Sql) -> None:
    assert data.rows("select count(*), sum(dept), avg(dept) from emp") == [
        (Decimal(4), Decimal(4), Decimal("1.3333333333333333333333333333333"))]


def test_boolean_and_lvarchar_describe_as_udts(db: Sql) -> None:
    db.run("create table u (b boolean not null, l lvarchar(500))")
    p = db.s.prepare("select b, l from u")
    b, lv = p.columns
    assert (b.type, b.xid, b.type_name, b.enclen) == (T.UDTFIXED | 0x100, 5, "boolean", 1)
    assert (lv.type, lv.xid, lv.type_name, lv.enclen) == (T.UDTVAR, 1, "lvarchar", 500)


def test_params_typed_from_context(data: Sql) -> None:
    p = data.s.prepare("insert into emp (name, dept, sal, hired) values (?, ?, ?, ?)")
    assert [(c.type, c.enclen) for c in p.params] == [
        (T.CHAR, 10), (T.INTEGER, 4), (T.DECIMAL, (8 << 8) | 2), (T.DATE, 4)]
    p = data.s.prepare("select name from emp where sal > ? and hired between ? and ? "
                       "and name like ? and dept in (?, ?)")
    assert [c.type for c in p.params] == [T.DECIMAL, T.DATE, T.DATE, T.CHAR, T.INTEGER,
                                          T.INTEGER]
    p = data.s.prepare("update emp set sal = ? where id = ?")
    assert [c.type for c in p.params] == [T.DECIMAL, T.SERIAL]


def test_first_skip_limit(data: Sql) -> None:
    assert data.rows("select first 2 name from emp order by name") == [("ann",), ("bob",)]
    assert data.rows("select skip 1 first 2 name from emp order by name") == [("bob",),
                                                                             ("cid",)]
    assert data.rows("select skip 3 name from emp order by name") == [("dee",)]
    assert data.rows("select limit 1 name from emp order by name desc") == [("dee",)]
    assert data.rows("select first ? name from emp where dept = ? order by name", 1, 1) == [
        ("ann",)]


def test_matches_and_like(data: Sql) -> None:
    assert data.rows("select name from emp where name matches '[a-b]*' order by 1") == [
        ("ann",), ("bob",)]
    assert data.rows("select name from emp where name matches '?ee'") == [("dee",)]
    assert data.rows("select name from emp where name matches ?", "c*") == [("cid",)]
    assert data.rows("select name from emp where name like 'B%'") == []  # case-sensitive
    assert data.rows("select name from emp where name not like '%n%' order by 1") == [
        ("bob",), ("cid",), ("dee",)]


def test_outer_join(data: Sql) -> None:
    rows = data.rows("select e.name, d.dname from emp e, outer dept d where e.dept = d.id "
                     "order by e.name")
    assert rows == [("ann", "eng"), ("bob", "eng"), ("cid", None), ("dee", None)]


def test_group_having_distinct_unique(data: Sql) -> None:
    assert data.rows("select dept, count(*) from emp group by dept having count(*) > 1") == [
        (1, Decimal(2))]
    assert data.rows("select unique dept from emp where dept is not null order by 1") == [
        (1,), (2,)]


def test_subqueries_and_union(data: Sql) -> None:
    assert data.rows("select name from emp where dept in (select id from dept) order by 1") == [
        ("ann",), ("bob",)]
    assert data.rows("select name from emp e where exists (select 1 from dept d where "
                     "d.id = e.dept) and sal > 150") == [("bob",)]
    assert data.rows("select id from dept union all select dept from emp where dept = 2 "
                     "order by 1") == [(1,), (2,), (3,)]


def test_dates_and_datetimes(data: Sql) -> None:
    row = data.rows("select hired + 1, year(hired), month(hired), day(hired), weekday(hired), "
                    "mdy(12, 31, 2019) - hired, extend(ts, year to day) from emp where "
                    "name = 'cid'")
    assert row == [(dt.date(2020, 1, 1), 2019, 12, 31, 2, 0, dt.date(2019, 12, 31))]
    assert data.rows("select name from emp where hired > '2020-12-31'") == [("bob",)]
    assert data.rows("select name from emp where ts < datetime(2020-01-01 00:00:00) year to "
                     "second") == [("cid",)]
    row = data.rows("select ts - datetime(2019-12-31 23:00:00) year to second, "
                    "ts + interval(1) day to day from emp where name = 'cid'")
    assert row == [(dt.timedelta(minutes=59, seconds=59), dt.datetime(2020, 1, 1, 23, 59, 59))]
    assert data.one("select today - today from emp where name = 'ann'") == 0
    ym = data.one("select interval(1-06) year to month + interval(0-07) year to month "
                  "from emp where name = 'ann'")
    assert ym == IntervalYM(25)


def test_current_and_user(data: Sql) -> None:
    now = data.one("select current year to second from emp where name = 'ann'")
    assert isinstance(now, dt.datetime) and now.microsecond == 0
    assert data.one("select user from emp where name = 'ann'") == "informix"
    assert data.one("select dbinfo('dbname') from emp where name = 'ann'") == "testdb"


def test_string_functions(data: Sql) -> None:
    row = data.rows("select trim(name) || '/' || dept, length(name), upper(name), "
                    "substr(name, 2, 1), nvl(dept, -1), decode(dept, 1, 'one', 'other'), "
                    "name || 'x' from emp where name = 'dee'")
    assert row == [(None, 3, "DEE", "e", -1, "other", "dee       x")]


def test_casts(data: Sql) -> None:
    row = data.rows("select sal::int, '12'::integer + 1, cast('2024-02-29' as date), "
                    "sal::char(10), hired::char(10) from emp where name = 'ann'")
    assert row == [(100, 13, dt.date(2024, 2, 29), "100.50", "2020-01-15")]


def test_update_delete_and_insert_select(data: Sql) -> None:
    assert data.run("update emp set sal = sal + 1 where dept = 1").rowcount == 2
    assert data.rows("select sal from emp where dept = 1 order by sal") == [
        (Decimal("101.50"),), (Decimal("201.00"),)]
    data.run("create table arch (name char(10), sal decimal(8,2))")
    assert data.run("insert into arch select name, sal from emp where sal is not null"
                    ).rowcount == 3
    assert data.run("delete from emp where sal < 100").rowcount == 1
    assert data.one("select count(*) from emp") == 3


def test_temp_tables_and_into_temp(data: Sql) -> None:
    data.run("select name, dept from emp where dept = 1 into temp t1 with no log")
    assert data.rows("select name from t1 order by name") == [("ann",), ("bob",)]
    data.run("create temp table t2 (a int)")
    assert data.err("create temp table t2 (a int)").sqlcode == -958
    data.run("drop table t2")


def test_views_and_alter(data: Sql) -> None:
    data.run("create view rich (name, sal) as select name, sal from emp where sal > 100")
    assert data.rows("select name from rich order by name") == [("ann",), ("bob",)]
    data.run("alter table dept add (budget money(10,2) default 0)")
    assert data.rows("select id, budget from dept order by id") == [
        (1, Decimal("0.00")), (3, Decimal("0.00"))]
    data.run("alter table dept drop budget")
    assert data.describe("select * from dept") == [("id", T.INTEGER, 4),
                                                    ("dname", T.VARCHAR, 20)]
    data.run("rename column dept.dname to label")
    data.run("rename table dept to division")
    assert data.rows("select label from division where id = 3") == [("ops",)]


def test_owner_and_database_qualified_names(data: Sql) -> None:
    assert data.one("select count(*) from testdb:informix.emp") == 4
    assert data.one("select count(*) from informix.systables where tabname = 'emp'") == 1
    assert data.err("select * from bob.emp").sqlcode == -206


def test_delimident(open_db) -> None:  # type: ignore[no-untyped-def]
    d = open_db("logged", {"DELIMIDENT": "y"}, name="delim")
    d.run('create table "MixedCase" ("Col" int)')
    d.run('insert into "MixedCase" values (1)')
    assert d.rows('select "Col" from "MixedCase"') == [(1,)]
    assert d.err("select * from mixedcase").sqlcode == -206
    plain = open_db("logged", name="plain")
    assert plain.rows('select "text" from systables where tabid = 1') == [("text",)]
