"""The Engine's pool of SQLite connections: a pooled connection must carry nothing of the
session that used it before (transaction, temp tables, open cursors, settings, identity)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ifxwire.server.engine import Engine
from ifxwire.server.engine.session import engine as engine_mod

from .conftest import Sql, session_on


def _idle(engine: Engine, name: str) -> int:
    return sum(1 for db, _, _ in engine._idle.values() if db == name)


def test_connection_is_reused_after_close(db: Sql, engine: Engine) -> None:
    first = db.s.conn
    db.s.close()
    assert _idle(engine, "testdb") == 1
    again = session_on(engine, "testdb")
    assert again.s.conn is first
    assert _idle(engine, "testdb") == 0
    again.s.close()


def test_uncommitted_work_is_rolled_back_and_no_lock_is_kept(db: Sql, engine: Engine) -> None:
    db.run("create table t (a int)")
    db.run("begin work")
    db.run("insert into t values (1)")
    db.s.close()  # the client went away inside a transaction
    b = session_on(engine, "testdb")
    assert b.one("select count(*) from t") == 0
    other = session_on(engine, "testdb")
    other.run("insert into t values (2)")  # would fail with -271 if a write lock were kept
    assert b.one("select count(*) from t") == 1
    b.s.close()
    other.s.close()


def test_temp_tables_die_with_their_session(db: Sql, engine: Engine) -> None:
    db.run("create temp table scratch (a int)")
    db.run("insert into scratch values (1)")
    db.s.close()
    assert _idle(engine, "testdb") == 0  # not clean: closed rather than pooled
    b = session_on(engine, "testdb")
    assert b.err("select a from scratch").sqlcode == -206
    b.s.close()


def test_an_unfinished_select_does_not_pin_a_snapshot(db: Sql, engine: Engine) -> None:
    db.run("create table t (a int)")
    for i in range(600):  # more than one fetchmany batch
        db.run("insert into t values (?)", i)
    rows = db.s.open_cursor(db.s.prepare("select a from t"), [])
    next(rows)
    conn = db.s.conn
    db.s.close()  # left mid-cursor
    b = session_on(engine, "testdb")
    assert b.s.conn is conn
    writer = session_on(engine, "testdb")
    writer.run("insert into t values (-1)")
    assert b.one("select count(*) from t") == 601  # a pinned snapshot would say 600
    writer.s.close()
    b.s.close()


def test_functions_serve_the_new_session(db: Sql, engine: Engine) -> None:
    db.run("create table t (v varchar(20))")
    db.run("insert into t values ('03/04/2024')")
    first_id = db.one("select dbinfo('sessionid') from systables where tabid = 1")
    db.s.close()
    b = session_on(engine, "testdb", {"DBDATE": "DMY4/"})
    assert b.one("select dbinfo('sessionid') from systables where tabid = 1") == b.s.session_id
    assert b.s.session_id != first_id
    assert b.one("select day(v) from t") == 3  # DAY() reads the string with b's DBDATE
    b.s.close()
    c = session_on(engine, "testdb", {"DBDATE": "MDY4/"})
    assert c.one("select day(v) from t") == 4  # the same pooled connection, c's DBDATE
    assert c.one("select user from systables where tabid = 1") == "informix"
    c.s.close()


def test_drop_database_closes_idle_connections(db: Sql, engine: Engine) -> None:
    db.run("create table t (a int)")
    db.s.close()
    assert _idle(engine, "testdb") == 1
    admin = Sql(engine.session("informix", {}))
    admin.run("drop database testdb")
    assert _idle(engine, "testdb") == 0
    admin.run("create database testdb with log")
    assert admin.err("select a from t").sqlcode == -206  # a new, empty database
    admin.s.close()


def test_idle_connections_are_bounded(db: Sql, engine: Engine) -> None:
    db.s.close()
    sessions = [session_on(engine, "testdb") for _ in range(engine_mod.IDLE_PER_DATABASE + 3)]
    for s in sessions:
        s.s.close()
    assert _idle(engine, "testdb") == engine_mod.IDLE_PER_DATABASE
    engine.close()
    assert not engine._idle


def test_functions_see_the_ansi_flag_of_the_database_opened(open_db) -> None:  # type: ignore[no-untyped-def]
    # The functions once captured the session's settings when they were installed, before the
    # ANSI flag of the database being opened was known: a runtime cast then truncated silently.
    a = open_db("ansi", name="ansidb")
    a.run("create table t (v varchar(10))")
    a.run("insert into t values ('abcdef')")
    assert a.err("select v::char(3) from t").sqlcode == -1279
    a.run("commit work")  # an open ANSI transaction also holds sysmaster, which CREATE needs
    u = open_db("logged", name="plaindb")
    u.run("create table t (v varchar(10))")
    u.run("insert into t values ('abcdef')")
    assert u.rows("select v::char(3) from t") == [("abc",)]


def test_a_file_that_is_not_a_database_is_refused_and_never_pooled(engine: Engine) -> None:
    with open(engine.path("junk"), "wb") as f:
        f.write(b"not an SQLite file at all" * 100)
    s = Sql(engine.session("informix", {}))
    assert s.err("database junk").sqlcode == -329
    assert _idle(engine, "junk") == 0 and not engine.open_dbs.get("junk")
    s.run("create database fine with log")  # the session goes on
    s.s.close()


def test_an_older_database_file_is_upgraded_when_first_opened(tmp_path: Path) -> None:
    data = tmp_path / "old"
    first = Engine(data)
    Sql(first.session("informix", {})).run("create database olddb with log")
    first.close()
    # What a server from before sequences left: no syssequences table, no catalog rows for it.
    raw = sqlite3.connect(data / "olddb.ifxdb")
    tabid = raw.execute("select tabid from systables where tabname = 'syssequences'").fetchone()[0]
    raw.execute("drop table syssequences")
    raw.execute("delete from syscolumns where tabid = ?", (tabid,))
    raw.execute("delete from systables where tabid = ?", (tabid,))
    raw.commit()
    raw.close()
    again = Engine(data)
    try:
        s = session_on(again, "olddb")
        s.run("create sequence seq1")
        assert s.one("select seq1.nextval from systables where tabid = 1") == 1
        assert s.one("select count(*) from systables where tabname = 'syssequences'") == 1
        s.s.close()
        pooled = session_on(again, "olddb")  # the pooled connection: upgraded already
        assert pooled.one("select count(*) from syssequences") == 1
        pooled.s.close()
    finally:
        again.close()


def test_an_attached_database_is_detached_before_the_connection_is_pooled(
        engine: Engine, open_db) -> None:  # type: ignore[no-untyped-def]
    one = open_db("logged", name="one")
    one.run("create table t1 (a int)")
    two = open_db("logged", name="two")
    assert two.rows("select a from one:t1") == []  # attaches one to two's connection
    conn = two.s.conn
    assert conn is not None
    two.s.close()
    again = session_on(engine, "two")
    assert again.s.conn is conn  # the pooled connection
    names = [r[1] for r in conn.execute("pragma database_list")]
    assert not [n for n in names if n.startswith("ifxdb_")]
    assert not engine.open_dbs.get("one", {}).keys() - {one.s.session_id}  # no session holds it
    again.s.close()


def _as_before_the_full_catalogue(path: Path, sysmaster: bool) -> None:
    """Rewrite a database file to the catalogue the releases before issue 23 made: no
    catalogue views, sysindexes a table, none of the tables the server does not write,
    sysproccolumns at tabid 84 and sysmaster's own tables at 50-52."""
    from ifxwire.server.engine.schema.catalog_tables import CATALOG_VIEWS, EMPTY_TABLES

    raw = sqlite3.connect(path)
    for tabid, (name, *_) in CATALOG_VIEWS.items():
        raw.execute(f"drop view {name}")
        for table in ("systables", "syscolumns", "sysviews"):
            raw.execute(f"delete from {table} where tabid = ?", (tabid,))
    for tabid, (name, _) in EMPTY_TABLES.items():
        raw.execute(f"drop table {name}")
        raw.execute("delete from systables where tabid = ?", (tabid,))
        raw.execute("delete from syscolumns where tabid = ?", (tabid,))
    raw.execute("alter table sysindices rename to sysindexes")
    raw.execute("update systables set tabname = 'sysindexes', ncols = 26 where tabid = 3")
    raw.executemany("insert into syscolumns (colname, tabid, colno, coltype, collength) "
                    "values (?, 3, ?, 1, 2)", [(f"part{i}", 20 + i) for i in range(1, 17)])
    moves = [(60, 84)] + ([(100, 50), (101, 51), (102, 52)] if sysmaster else [])
    for new, old in moves:
        raw.execute("update systables set tabid = ? where tabid = ?", (old, new))
        raw.execute("update syscolumns set tabid = ? where tabid = ?", (old, new))
    raw.commit()
    raw.close()


def test_a_file_from_before_the_full_catalogue_is_upgraded(tmp_path: Path) -> None:
    data = tmp_path / "old"
    first = Engine(data)
    s = Sql(first.session("informix", {}))
    s.run("create database olddb with log")
    s.run("create table t (a int primary key, b int)")
    s.run("create index ib on t (b)")
    s.s.close()
    first.close()
    _as_before_the_full_catalogue(data / "olddb.ifxdb", False)
    _as_before_the_full_catalogue(data / "sysmaster.ifxdb", True)
    again = Engine(data)
    try:
        s = session_on(again, "olddb")
        assert s.rows("select tabid, tabname from systables where tabid in (3, 8, 60, 67) "
                      "order by tabid") == [(3, "sysindices"), (8, "sysdepend"),
                                            (60, "sysproccolumns"), (67, "sysindexes")]
        assert s.rows("select idxname, part1 from sysindexes where tabid = 100 "
                      "order by idxname") == [(" 100_1", 1), ("ib", 2)]
        assert s.err("select part1 from sysindices").sqlcode == -217
        s.run("create index iab on t (a, b)")
        assert s.rows("select part1, part2 from sysindexes where idxname = 'iab'") == [(1, 2)]
        assert s.one("select count(*) from systables where tabid < 100") == 70
        assert s.one("select count(*) from sysmaster:sysdatabases where name = 'olddb'") == 1
        s.s.close()
        m = session_on(again, "sysmaster")
        assert m.rows("select tabid from systables where tabname in ('sysdatabases', "
                      "'sysxadatasources') order by tabid") == [(50,), (100,)]
        m.s.close()
    finally:
        again.close()


def test_a_connection_with_a_statement_still_stepping_is_not_pooled(
        db: Sql, engine: Engine) -> None:
    """A statement left active on the connection (a cursor nobody reset) used to be pooled
    with it; the next session's DATABASE then failed inside create_function ("Error creating
    function": SQLite refuses to replace a function while a statement is active), seen once
    as an internal error in the recorded-request fuzz test."""
    db.run("create table t (a int)")
    for i in range(50):
        db.run("insert into t values (?)", i)
    conn = db.s.conn
    assert conn is not None
    stepping = conn.execute("SELECT a FROM t")
    stepping.fetchone()  # active: more rows to step
    db.s.close()
    assert _idle(engine, "testdb") == 0  # closed, not pooled
    again = session_on(engine, "testdb")  # opens afresh and binds its functions
    assert again.s.conn is not conn
    assert again.one("select count(*) from t") == 50
    again.s.close()
    assert _idle(engine, "testdb") == 1  # a clean connection is pooled as before
