"""The queries IBM JDBC and informix-driver send at connect time (jdbc-protocol.md 2.4-2.8)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ifxwire.protocol.codes import DBFLAG_ANSI, DBFLAG_LOGGED, StmtType, TypeCode
from ifxwire.server.engine import Engine

from .conftest import Sql


def test_current_database_without_one_open(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    assert sql.rows("select scs_currdb from sysmaster:informix.syssqlcurses") == [(None,)]


def test_current_database_with_one_open(db: Sql) -> None:
    assert db.rows("select scs_currdb from sysmaster:informix.syssqlcurses") == [("testdb",)]


def test_gl_collate_site_and_dirpath(db: Sql) -> None:
    assert db.rows("select FIRST 1 site from informix.systables where tabname = ' GL_COLLATE'"
                   ) == [("en_US.819",)]
    assert db.rows("select dirpath from informix.systables where tabname = ' GL_COLLATE'") == [
        ("en_US.819",)]


def test_version_flags_is_one_number(db: Sql) -> None:
    p = db.s.prepare("SELECT flags FROM informix.systables WHERE tabname = ' VERSION';")
    assert p.stmt_type == StmtType.SELECT
    assert [c.type & 0xFF for c in p.columns] == [TypeCode.SMALLINT]
    assert isinstance(db.one("SELECT flags FROM informix.systables WHERE tabname = ' VERSION';"),
                      int)


def test_dbinfo_version_from_collection_derived_table(db: Sql) -> None:
    value = db.one("select dbinfo('version','full') from  table (set{1});")
    assert value == "IBM Informix Dynamic Server Version 14.10.FC9"
    assert db.one("SELECT FIRST 1 DBINFO('version','full') FROM systables") == value


def test_dbinfo_version_without_database(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    e = sql.err("SELECT FIRST 1 DBINFO('version','full') FROM systables")
    assert e.sqlcode == -349


def test_open_database_flags(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    # 0x04: "the database server is Informix" (SQLWARN's fourth field), set for every database
    # (https://informix.hcldoc.com/14.10/help/topic/com.ibm.sqlt.doc/ids_sqt_307.htm)
    for name, clause, flags in (("u1", "", 0x04), ("l1", " WITH LOG", DBFLAG_LOGGED | 0x04),
                                ("a1", " WITH LOG MODE ANSI",
                                 DBFLAG_LOGGED | DBFLAG_ANSI | 0x04)):
        r = sql.run(f"create database {name}{clause}")
        assert r.db_flags_changed
        assert sql.s.db_flags == flags
        sql.s.close_database()
        assert sql.s.open_database(name.upper()) == flags
        assert sql.s.database == name


def test_sysmaster_always_exists(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    assert sql.s.open_database("sysmaster") & DBFLAG_LOGGED
    names = [r[0] for r in sql.rows("select name from sysdatabases order by name")]
    assert "sysmaster" in names


def test_sysdatabases_lists_created_databases(engine: Engine) -> None:
    sql = Sql(engine.session("informix", {}))
    sql.run("create database stores with buffered log")
    row = sql.rows("select name, is_logging, is_buff_log, is_ansi from "
                   "sysmaster:informix.sysdatabases where name = 'stores'")
    assert row == [("stores", 1, 1, 0)]


def test_sysmaster_sysdual_is_one_row_of_x(db: Sql, engine: Engine) -> None:
    # Administrator's Reference, "sysdual": one column dummy CHAR(1), one row "X".
    assert db.rows("select * from sysmaster:sysdual") == [("X",)]
    assert db.describe("select dummy from sysmaster:informix.sysdual") == [
        ("dummy", TypeCode.CHAR, 1)]
    assert db.one("select count(*) from sysmaster:sysdual where dummy = 'X'") == 1
    master = Sql(engine.session("informix", {}))
    master.run("database sysmaster")
    assert master.rows("select 'Hello, World!' as greet from sysdual") == [("Hello, World!",)]
    assert master.rows("select tabname from systables where tabname = 'sysdual'") == [
        ("sysdual",)]


def test_sysdual_is_added_to_an_older_sysmaster(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Engine(data).close()
    old = sqlite3.connect(data / "sysmaster.ifxdb")
    with old:
        old.execute("DROP TABLE sysdual")
        old.execute("DELETE FROM syscolumns WHERE tabid = "
                    "(SELECT tabid FROM systables WHERE tabname = 'sysdual')")
        old.execute("DELETE FROM systables WHERE tabname = 'sysdual'")
    old.close()
    engine = Engine(data)
    try:
        assert Sql(engine.session("informix", {})).rows(
            "select dummy from sysmaster:sysdual") == [("X",)]
    finally:
        engine.close()
