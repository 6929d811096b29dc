"""A catalogue load after DDL reads only the tables whose catalogue rows changed (issue 26;
schema/catalog_versions.py): the other TableInfo objects are the base's own, and the result
is what a whole load gives, through the real server over sockets. Each case also runs with
IFXWIRE_SCHEMA_CHECK=1 in the suite's runs when set; here the comparison is made directly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.server import Server
from ifxwire.server.engine.schema import catalog as cat


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[tuple[Any, ifxwire.Connection]]:
    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d")) as s:
        c = ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                            autocommit=True)
        c.execute("CREATE DATABASE pl WITH LOG")
        c.execute("DATABASE pl")
        for n in range(5):
            c.execute(f"CREATE TABLE t{n} (id SERIAL PRIMARY KEY, v VARCHAR(10) DEFAULT 'x')")
        yield s, c
        c.close()


def _other(s: Any) -> ifxwire.Connection:
    """A second session on the same database."""
    return ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                           database="pl", autocommit=True)


def _latest(s: Any) -> cat.Schema:
    schemas = list(s.engine.latest_schemas.values())
    assert len(schemas) == 1
    return schemas[0]


def _whole(s: Any) -> cat.Schema:
    import sqlite3

    with sqlite3.connect(f"file:{s.engine.path('pl')}?mode=ro", uri=True) as conn:
        return cat.load_schema(conn)


def _same_as_whole(s: Any, schema: cat.Schema) -> None:
    whole = _whole(s)
    assert schema.tables == whole.tables
    assert schema.indexes == whole.indexes
    assert schema.constraint_names == whole.constraint_names


def test_only_the_changed_tables_are_built_again(
        srv: tuple[Any, ifxwire.Connection]) -> None:
    s, c = srv
    c.execute("SELECT COUNT(*) FROM t0").fetchall()
    before = _latest(s)
    c.execute("ALTER TABLE t1 ADD (w INT)")
    c.execute("CREATE INDEX t3_v ON t3 (v)")
    c.execute("SELECT COUNT(*) FROM t0").fetchall()
    after = _latest(s)
    assert after.stamp > before.stamp
    assert after.tables["t0"] is before.tables["t0"]  # reused
    assert after.tables["t2"] is before.tables["t2"]
    assert after.tables["t1"] is not before.tables["t1"]
    assert "w" in after.tables["t1"].by_name and "w" not in before.tables["t1"].by_name
    assert after.indexes["t3_v"] == ("t3", False)
    _same_as_whole(s, after)


def test_dropped_renamed_and_constrained_tables(
        srv: tuple[Any, ifxwire.Connection]) -> None:
    s, c = srv
    c.execute("SELECT COUNT(*) FROM t0").fetchall()
    c.execute("DROP TABLE t4")
    c.execute("RENAME TABLE t2 TO t2b")
    c.execute("ALTER TABLE t3 ADD CONSTRAINT UNIQUE (v) CONSTRAINT t3_u")
    c.execute("CREATE TABLE child (id INT REFERENCES t0 (id) CONSTRAINT child_fk)")
    c.execute("SELECT COUNT(*) FROM t0").fetchall()
    after = _latest(s)
    assert "t4" not in after.tables and "t2" not in after.tables and "t2b" in after.tables
    assert {"t3_u", "child_fk"} <= after.constraint_names
    _same_as_whole(s, after)
    c.execute("ALTER TABLE t3 DROP CONSTRAINT t3_u")
    c.execute("SELECT COUNT(*) FROM t0").fetchall()
    assert "t3_u" not in _latest(s).constraint_names
    _same_as_whole(s, _latest(s))


def test_typed_tables_under_a_new_subtable(srv: tuple[Any, ifxwire.Connection]) -> None:
    # an inheritance row changes the supertable's subtables: both are built again
    s, c = srv
    c.execute("CREATE ROW TYPE person_t (id SERIAL, name VARCHAR(20))")
    c.execute("CREATE ROW TYPE emp_t (salary INT) UNDER person_t")
    c.execute("CREATE TABLE person OF TYPE person_t")
    c.execute("SELECT COUNT(*) FROM person").fetchall()
    c.execute("CREATE TABLE emp OF TYPE emp_t UNDER person")
    c.execute("SELECT COUNT(*) FROM person").fetchall()
    after = _latest(s)
    assert after.tables["person"].subtables == ["emp"]
    assert after.tables["emp"].supertable == "person"
    assert after.tables["emp"].serial_tabids == {"id": after.tables["person"].tabid}
    _same_as_whole(s, after)
    c.execute("DROP TABLE emp")
    c.execute("SELECT COUNT(*) FROM person").fetchall()
    assert _latest(s).tables["person"].subtables == []
    _same_as_whole(s, _latest(s))


def test_ddl_rolled_back_in_a_transaction(srv: tuple[Any, ifxwire.Connection]) -> None:
    # the session's own schema in its transaction is never a base; after ROLLBACK WORK
    # another session's load is the committed state again
    s, c = srv
    other = _other(s)
    try:
        c.execute("BEGIN WORK")
        c.execute("ALTER TABLE t1 ADD (gone INT)")
        c.execute("CREATE TABLE fresh (a INT)")
        assert c.execute("SELECT gone FROM t1").fetchall() == []
        c.execute("ROLLBACK WORK")
        c.execute("ALTER TABLE t0 ADD (kept INT)")
        assert other.execute("SELECT kept FROM t0").fetchall() == []
        with pytest.raises(ifxwire.ProgrammingError):
            other.execute("SELECT gone FROM t1")
        with pytest.raises(ifxwire.ProgrammingError):
            other.execute("SELECT * FROM fresh")
        _same_as_whole(s, _latest(s))
    finally:
        other.close()


def test_sysobjstate_follows_each_statement(srv: tuple[Any, ifxwire.Connection]) -> None:
    # objstate.sync compares only the tables a DDL statement stamped: every user index,
    # constraint and trigger still has its row, and nothing gone keeps one
    s, c = srv
    c.execute("CREATE INDEX t1_v ON t1 (v)")
    c.execute("RENAME INDEX t1_v TO t1_v2")
    c.execute("CREATE TABLE log (n INT)")
    c.execute("CREATE TRIGGER t2_ins INSERT ON t2 FOR EACH ROW (INSERT INTO log VALUES (1))")
    c.execute("ALTER TABLE t3 ADD CONSTRAINT UNIQUE (v) CONSTRAINT t3_u")
    c.execute("ALTER TABLE t3 ADD (w INT)")  # a rebuild: its objects made again
    c.execute("DROP TABLE t4")
    c.execute("DROP TRIGGER t2_ins")
    c.execute("CREATE TRIGGER t0_ins INSERT ON t0 FOR EACH ROW (INSERT INTO log VALUES (2))")
    rows = set(c.execute("SELECT objtype, name, tabid FROM sysobjstate").fetchall())
    want = set(c.execute(
        "SELECT 'I', idxname, tabid FROM sysindices WHERE tabid >= 100 UNION "
        "SELECT 'C', constrname, tabid FROM sysconstraints WHERE tabid >= 100 UNION "
        "SELECT 'T', trigname, tabid FROM systriggers WHERE tabid >= 100").fetchall())
    assert rows == want
    assert ("I", "t1_v2", _latest(s).tables["t1"].tabid) in rows
    assert ("T", "t0_ins", _latest(s).tables["t0"].tabid) in rows
    assert not any(r[1] in ("t1_v", "t2_ins") for r in rows)


def test_a_renamed_table_of_a_hierarchy_is_renamed_on_both_sides(
        srv: tuple[Any, ifxwire.Connection]) -> None:
    # Review of 6832185a: RENAME TABLE stamps only the renamed table, while its partner's
    # subtables/supertable named it; the partner is built again too
    s, c = srv
    c.execute("CREATE ROW TYPE p_t (a INT)")
    c.execute("CREATE ROW TYPE c_t (b INT) UNDER p_t")
    c.execute("CREATE TABLE p OF TYPE p_t")
    c.execute("CREATE TABLE ch OF TYPE c_t UNDER p")
    c.execute("CREATE TABLE log (x INT)")
    c.execute("INSERT INTO ch VALUES (1, 2)")
    c.execute("RENAME TABLE ch TO ch2")
    assert c.execute("SELECT a FROM p").fetchall() == [(1,)]  # was -206 'ch'
    c.execute("RENAME TABLE p TO p2")
    c.execute("CREATE TABLE p (z INT)")
    c.execute("CREATE TRIGGER tr INSERT ON p FOR EACH ROW (INSERT INTO log VALUES (99))")
    c.execute("INSERT INTO ch2 VALUES (3, 4)")  # fired the new p's trigger before
    assert c.execute("SELECT * FROM log").fetchall() == []
    assert sorted(c.execute("SELECT a FROM p2").fetchall()) == [(1,), (3,)]
    _same_as_whole(s, _latest(s))


def test_a_load_inside_a_ddl_statement_is_never_a_base(
        srv: tuple[Any, ifxwire.Connection]) -> None:
    # Review of 6832185a: DROP TABLE of a parent loads the catalogue while it drops the
    # children's keys (uncommitted rows); shared as the base, it outlived ROLLBACK WORK and
    # later partial loads lost the view
    s, c = srv
    other = _other(s)
    try:
        c.execute("CREATE TABLE par (a INT PRIMARY KEY)")
        c.execute("CREATE TABLE k1 (a INT REFERENCES par (a))")
        c.execute("CREATE TABLE k2 (a INT REFERENCES par (a))")
        c.execute("CREATE VIEW vw AS SELECT a FROM par")
        c.execute("INSERT INTO par VALUES (1)")
        c.execute("BEGIN WORK")
        c.execute("DROP TABLE par")
        c.execute("ROLLBACK WORK")
        for n in range(8):
            other.execute(f"CREATE TABLE w{n} (a INT, b INT, c INT)")
        assert c.execute("SELECT * FROM vw").fetchall() == [(1,)]
        assert other.execute("SELECT * FROM vw").fetchall() == [(1,)]
        _same_as_whole(s, _latest(s))
    finally:
        other.close()
