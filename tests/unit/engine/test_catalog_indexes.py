"""The catalogue's systables is indexed as Informix's is (issue 26, select_one_row).

Informix keeps a unique index on systables.tabid and a composite one on (tabname, owner)
(Guide to SQL: Reference, ids_sqr_072); the second is not made here (SQLite would read it in
place of the table and return unordered scans in name order). Without the first, the
commonest statement of all, a connection test's ``SELECT 1 FROM systables WHERE tabid = 1``,
scanned every row of systables at each execution. The indexes are private (``_ifx_*``): no
catalogue table shows them, and a database file made before them gets them when opened.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ifxwire.server.engine import Engine

from .conftest import Sql, session_on

NAMES = {"_ifx_systables_tabid", "_ifx_syscolumns_tabid"}


def _plan(sql: Sql, text: str) -> str:
    """SQLite's query plan of the statement the engine runs for ``text``."""
    p = sql.s.prepare(text)
    rows = sql.s._connection().execute("EXPLAIN QUERY PLAN " + p.plan.sql).fetchall()
    return " | ".join(str(r[-1]) for r in rows)


def _indexes(path: str) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' "
            "AND tbl_name IN ('systables', 'syscolumns')")}
    finally:
        conn.close()


@pytest.mark.parametrize("database", ["sysmaster", "testdb"])
def test_systables_lookups_search_an_index(engine: Engine, db: Sql, database: str) -> None:
    sql = db if database == "testdb" else session_on(engine, "sysmaster")
    try:
        plan = _plan(sql, "SELECT 1 FROM systables WHERE tabid = 1")
        assert "SEARCH" in plan and "_ifx_systables_tabid" in plan, plan  # before: SCAN
        assert sql.rows("SELECT 1 FROM systables WHERE tabid = 1") == [(1,)]
        assert sql.rows("SELECT tabid FROM systables WHERE tabname = ?",
                        "systables") == [(1,)]
    finally:
        if sql is not db:
            sql.s.close()


@pytest.mark.parametrize("database", ["sysmaster", "testdb"])
def test_a_tables_columns_are_read_through_an_index(engine: Engine, db: Sql,
                                                     database: str) -> None:
    """JDBC getColumns, Django/SQLAlchemy reflection: syscolumns by tabid (Informix's unique
    index on (tabid, colno), ids_sqr_025)."""
    sql = db if database == "testdb" else session_on(engine, "sysmaster")
    try:
        plan = _plan(sql, "SELECT colname FROM syscolumns WHERE tabid = 1")
        assert "SEARCH" in plan and "_ifx_syscolumns_tabid" in plan, plan  # before: SCAN
        names = sql.rows("SELECT colname FROM syscolumns WHERE tabid = 1 ORDER BY colno")
        assert names[:3] == [("tabname",), ("owner",), ("partnum",)]
    finally:
        if sql is not db:
            sql.s.close()


def test_new_tables_are_found_through_the_index(db: Sql) -> None:
    db.run("CREATE TABLE t1 (a INT)")
    db.run("CREATE TABLE t2 (a INT)")
    tabid = db.one("SELECT tabid FROM systables WHERE tabname = 't2'")
    assert db.rows("SELECT tabname FROM systables WHERE tabid = ?", tabid) == [("t2",)]
    assert db.rows("SELECT colname FROM syscolumns WHERE tabid = ? ORDER BY colno",
                   tabid) == [("a",)]
    db.run("ALTER TABLE t2 ADD (b INT BEFORE a)")
    assert db.rows("SELECT colname, colno FROM syscolumns WHERE tabid = ? ORDER BY colno",
                   tabid) == [("b", 1), ("a", 2)]
    db.run("DROP TABLE t2")
    assert db.rows("SELECT tabname FROM systables WHERE tabid = ?", tabid) == []
    assert db.rows("SELECT colname FROM syscolumns WHERE tabid = ?", tabid) == []
    assert db.rows("SELECT tabid FROM systables WHERE tabname = 't2'") == []


def test_no_catalogue_table_shows_the_private_indexes(db: Sql) -> None:
    for table in ("sysindexes", "sysindices"):
        assert db.one(f"SELECT COUNT(*) FROM {table} WHERE idxname LIKE '\\_ifx%' "
                      "ESCAPE '\\'") == 0
    # the catalogue's own count of systables' indexes is unchanged
    assert db.rows("SELECT nindexes FROM systables WHERE tabname = 'systables'") == [(0,)]


def test_a_file_made_without_them_gets_them_when_opened(tmp_path: Path) -> None:
    data = tmp_path / "data"
    eng = Engine(data)
    s = eng.session("informix", {})
    Sql(s).run("CREATE DATABASE olddb WITH LOG")
    Sql(s).run("CREATE TABLE t (a INT)")
    s.close()
    eng.close()
    for name in ("sysmaster", "olddb"):  # as an older server left them
        path = eng.path(name)
        conn = sqlite3.connect(path, isolation_level=None)
        for index in NAMES:
            conn.execute(f"DROP INDEX {index}")
        conn.close()
        assert _indexes(path) == set()
    eng = Engine(data)
    try:
        assert _indexes(eng.path("sysmaster")) == NAMES
        sql = session_on(eng, "olddb")
        try:
            assert _indexes(eng.path("olddb")) == NAMES
            assert sql.rows("SELECT tabname FROM systables WHERE tabid = 100") == [("t",)]
        finally:
            sql.s.close()
    finally:
        eng.close()


@pytest.mark.parametrize("database", ["sysmaster", "testdb"])
def test_an_unordered_scan_reads_systables_in_tabid_order(engine: Engine, db: Sql,
                                                           database: str) -> None:
    """informix-driver's test_aio/test_unicode read ``SELECT FIRST 1 tabname FROM
    systables`` as 'systables', as a real server's scan gives it; a covering (tabname, owner)
    index gave ' GL_COLLATE' (found by the CI run of the merged branch)."""
    sql = db if database == "testdb" else session_on(engine, "sysmaster")
    try:
        assert sql.rows("SELECT FIRST 1 tabname FROM systables") == [("systables",)]
        names = [r[0] for r in sql.rows("SELECT tabname FROM systables")]
        tabids = [r[0] for r in sql.rows("SELECT tabid FROM systables")]
        assert names[:3] == ["systables", "syscolumns", "sysindices"]
        assert tabids == sorted(tabids)
    finally:
        if sql is not db:
            sql.s.close()
