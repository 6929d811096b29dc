"""Each Informix error code the engine promises, with its ISAM code, near text and offset."""

from __future__ import annotations

import pytest

from ifxwire.server.engine import Engine

from .conftest import Sql, codes


@pytest.fixture
def t(db: Sql) -> Sql:
    db.run("create table t (id int primary key, name varchar(10) not null, n smallint, "
           "i integer, d decimal(5,2), dt date, ts datetime year to second, b boolean, "
           "check (n >= 0) constraint ck_n)")
    db.run("insert into t (id, name) values (1, 'one')")
    return db


def test_syntax_error_offset(t: Sql) -> None:
    e = t.err("select * fromm t")
    assert e.sqlcode == -201 and e.near == "t" and e.offset == 15


def test_unterminated_quote(t: Sql) -> None:
    assert t.err("select 'a\\'b' from t").sqlcode == -282


def test_unknown_table(t: Sql) -> None:
    e = t.err("select * from nosuch")
    assert codes(e) == (-206, -111) and e.near == "nosuch"


def test_unknown_column(t: Sql) -> None:
    e = t.err("select nosuch from t")
    assert e.sqlcode == -217 and e.near == "nosuch"
    assert t.err("update t set nosuch = 1").sqlcode == -217
    assert t.err("insert into t (nosuch) values (1)").sqlcode == -217


def test_unknown_routine(t: Sql) -> None:
    e = t.err("select frobnicate(id) from t")
    assert e.sqlcode == -674 and e.near == "frobnicate"


def test_bare_placeholder_in_projection(t: Sql) -> None:
    assert t.err("select ? from t").sqlcode == -201
    assert t.rows("select ?::int from t", 5) == [(5,)]


def test_insert_count_mismatch(t: Sql) -> None:
    assert t.err("insert into t (id, name) values (1)").sqlcode == -236


def test_unique_constraint(t: Sql) -> None:
    e = t.err("insert into t (id, name) values (1, 'dup')")
    assert codes(e) == (-268, -100) and e.near.startswith("informix.u")


def test_unique_index(t: Sql) -> None:
    t.run("create table u (a int)")
    t.run("create unique index ux on u (a)")
    t.run("insert into u values (1)")
    e = t.err("insert into u values (1)")
    assert codes(e) == (-239, -100) and e.near == "informix.ux"
    t.run("insert into u values (2)")
    assert t.err("update u set a = 1 where a = 2").sqlcode == -239


def test_unique_index_on_duplicates(t: Sql) -> None:
    t.run("insert into t (id, name) values (2, 'one')")
    assert codes(t.err("create unique index ix on t (name)")) == (-371, -100)


def test_not_null(t: Sql) -> None:
    e = t.err("insert into t (id) values (3)")
    assert e.sqlcode == -391 and e.near == "name"
    assert t.err("update t set name = null").sqlcode == -391


def test_check_constraint(t: Sql) -> None:
    e = t.err("insert into t (id, name, n) values (5, 'x', -1)")
    assert e.sqlcode == -530 and e.near == "ck_n"


def test_table_exists(t: Sql) -> None:
    e = t.err("create table t (a int)")
    assert e.sqlcode == -310 and e.near == "t"
    t.run("create table if not exists t (a int)")


def test_index_exists_and_missing(t: Sql) -> None:
    t.run("create index ix1 on t (n)")
    assert t.err("create index ix1 on t (i)").sqlcode == -316
    assert t.err("drop index nosuch").sqlcode == -319


@pytest.mark.parametrize("sql,code", [
    ("insert into t (id, name, n) values (2, 'x', 32768)", -1214),
    ("insert into t (id, name, i) values (2, 'x', 2147483648)", -1215),
    ("insert into t (id, name, i) values (2, 'x', 'abc')", -1213),
    ("insert into t (id, name, d) values (2, 'x', 1000)", -1226),
    ("insert into t (id, name, dt) values (2, 'x', 'yesterday')", -1218),
    ("insert into t (id, name, dt) values (2, 'x', '2023-02-29')", -1206),
    ("insert into t (id, name, dt) values (2, 'x', '2023-13-01')", -1205),
    ("insert into t (id, name, ts) values (2, 'x', '2024-02-29 1x:00:00')", -1262),
    ("insert into t (id, name, ts) values (2, 'x', '2024-02-29 25:00:00')", -1263),
    ("insert into t (id, name, ts) values (2, 'x', '2024-02-29 10:00:00 extra')", -1264),
    ("select id / 0 from t", -1202),
    ("select id + 2147483647 from t", -1215),
    ("select 1 from t where i = 'abc'", -1213),
    ("select (select id from t where id > 0 union all select 2 from t) from t", -284),
])
def test_conversion_and_arithmetic_errors(t: Sql, sql: str, code: int) -> None:
    assert t.err(sql).sqlcode == code


def test_parameter_conversion_errors(t: Sql) -> None:
    assert t.err("insert into t (id, name, i) values (?, ?, ?)", 2, "x", "1x").sqlcode == -1213
    assert t.err("insert into t (id, name, dt) values (?, ?, ?)", 2, "x", "2024-02-30"
                 ).sqlcode == -1206
    assert t.err("insert into t (id, name, b) values (?, ?, ?)", 2, "x", "maybe").sqlcode == -1260
    assert t.err("insert into t (id, name) values (?, ?)", 2).sqlcode == -254


def test_no_database_selected(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    assert sql.err("select * from systables").sqlcode == -349
    with pytest.raises(Exception) as info:
        sql.s.close_database()
    assert getattr(info.value, "sqlcode", None) == -349


def test_database_not_found(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    e = sql.err("database nosuch")
    assert codes(e) == (-329, -111)
    with pytest.raises(Exception) as info:
        sql.s.open_database("nosuch")
    assert getattr(info.value, "sqlcode", None) == -329


def test_database_exists(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    sql.run("create database dup")
    assert codes(sql.err("create database DUP")) == (-330, -100)


def test_drop_database_in_use(engine: Engine) -> None:
    a = Sql(engine.session("informix", {}))
    a.run("create database busy")
    b = Sql(engine.session("informix", {}))
    assert b.err("drop database busy").sqlcode == -425
    # -359 "Cannot drop or rename the current database or any open database." [jcat]
    assert a.err("drop database busy").sqlcode == -359
    a.s.close_database()
    b.run("drop database busy")
    assert b.err("database busy").sqlcode == -329


def test_foreign_keys(t: Sql) -> None:
    t.run("create table child (cid int, pid int references t (id) constraint fk_c)")
    e = t.err("insert into child values (1, 99)")
    # Named owner.constraint, as Informix does (Hibernate's InformixDialect strips the owner).
    assert e.sqlcode == -691 and e.near.endswith(".fk_c") and "." not in e.near[:-5]
    t.run("insert into child values (1, 1)")
    e = t.err("delete from t where id = 1")
    assert e.sqlcode == -692 and e.near.endswith(".fk_c")  # the referencing table's key


def test_unsupported_is_999_not_a_traceback(t: Sql) -> None:
    assert t.err("create procedure p() goto done; end procedure").sqlcode == -999
    assert t.err("select * from othdb:t").sqlcode == -329


def test_returning_is_a_syntax_error(t: Sql) -> None:
    # Informix DML has no RETURNING clause; the row must not be written and then the clause
    # silently ignored.
    for sql in ("insert into t (id, name) values (2, 'two') returning id",
                "update t set n = 1 returning id", "delete from t returning id"):
        assert t.err(sql).sqlcode == -201, sql
    assert t.one("select count(*) from t") == 1
