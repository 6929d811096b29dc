"""The system catalogue of a new database, as a real Informix 14.10 database holds it.

Clients count and walk systables (informix-driver's own suite sums the first ten tabids and
pages a scroll cursor through the first hundred rows) and tools tell catalogue objects from
user objects by name, so the catalogue's tables, views and tabids must be a real database's
(docs/SERVER.md, "System catalogue").
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire.server.engine.schema.catalog_tables import CATALOG_ROWS, CATALOG_VIEWS, EMPTY_TABLES

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)


def _rows(conn: ifxwire.Connection, sql: str, *params: object) -> list[tuple[Any, ...]]:
    cur = conn.cursor()
    cur.execute(sql, params or None)
    return list(cur.fetchall())


def test_first_tabids_are_the_catalogue_in_order(conn: ifxwire.Connection) -> None:
    rows = _rows(conn, "SELECT tabid, tabname, owner, tabtype FROM systables "
                       "WHERE tabid < 100 ORDER BY tabid")
    names = {tabid: name for tabid, name, _, _ in rows}
    assert [names[i] for i in range(1, 12)] == [
        "systables", "syscolumns", "sysindices", "systabauth", "syscolauth", "sysviews",
        "sysusers", "sysdepend", "syssynonyms", "syssyntable", "sysconstraints"]
    assert (names[47], names[60], names[65]) == ("syssequences", "sysproccolumns",
                                                  "sysfragdist")
    assert (names[66], names[67]) == ("sysdomains", "sysindexes")
    assert (names[90], names[91], names[99]) == (" GL_COLLATE", " GL_CTYPE", " VERSION")
    assert list(names) == [*range(1, 68), 90, 91, 99]
    assert {owner.strip() for _, _, owner, _ in rows} == {"informix"}
    types = {name: tabtype for _, name, _, tabtype in rows}
    assert (types["sysindexes"], types["sysdomains"], types["sysindices"]) == ("V", "V", "T")
    assert len(rows) > 50


def test_sum_and_avg_of_the_first_tabids(conn: ifxwire.Connection) -> None:
    # What informix-driver's suite reads from a real server: tabids 1..10 all present.
    assert _rows(conn, "SELECT SUM(tabid), AVG(tabid) FROM systables WHERE tabid <= 10") == [
        (Decimal(55), Decimal("5.5"))]
    assert _rows(conn, "SELECT tabname FROM systables WHERE tabid >= ? AND tabid <= ? "
                       "ORDER BY tabid", 1, 3) == [
        ("systables",), ("syscolumns",), ("sysindices",)]


def test_user_tables_start_at_tabid_100(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE first_user_table (a INT)")
    assert _rows(conn, "SELECT tabid FROM systables WHERE tabname = 'first_user_table'") == [
        (100,)]
    cur.execute("DROP TABLE first_user_table")


def test_sysindexes_is_a_view_over_sysindices(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE ix_t (a INT, b CHAR(4))")
    cur.execute("CREATE UNIQUE INDEX ix_ab ON ix_t (a, b DESC)")
    assert _rows(conn, "SELECT idxtype, part1, part2, part3 FROM sysindexes "
                       "WHERE idxname = 'ix_ab'") == [("U", 1, -2, 0)]
    assert _rows(conn, "SELECT idxname, idxtype FROM sysindices WHERE idxname = 'ix_ab'") == [
        ("ix_ab", "U")]
    # sysindices has the index keys in INDEXKEYARRAY, not in part columns (-217 here).
    try:
        cur.execute("SELECT part1 FROM sysindices")
    except ifxwire.DatabaseError as e:
        assert e.sqlcode == -217
    else:
        raise AssertionError("sysindices.part1 selected")
    text = "".join(r[0] for r in _rows(
        conn, "SELECT v.viewtext FROM sysviews v, systables t WHERE v.tabid = t.tabid AND "
              "t.tabname = 'sysindexes' ORDER BY v.seqno"))
    assert "sysindices" in text
    cur.execute("DROP TABLE ix_t")


def test_sysdomains_is_an_empty_view(conn: ifxwire.Connection) -> None:
    assert _rows(conn, "SELECT COUNT(*) FROM sysdomains") == [(0,)]
    assert _rows(conn, "SELECT tabtype FROM systables WHERE tabname = 'sysdomains'") == [
        ("V",)]


def test_every_catalogue_table_is_queryable_and_described(conn: ifxwire.Connection) -> None:
    for tabid, (name, cols) in EMPTY_TABLES.items():
        count = len(CATALOG_ROWS[name][1]) if name in CATALOG_ROWS else 0
        assert _rows(conn, f"SELECT COUNT(*) FROM {name}") == [(count,)], name
        assert _rows(conn, "SELECT ncols FROM systables WHERE tabid = ?", tabid) == [
            (len(cols),)], name
    for tabid, (name, cols, _, _) in CATALOG_VIEWS.items():
        got = [r[0] for r in _rows(conn, "SELECT colname FROM syscolumns WHERE tabid = ? "
                                         "ORDER BY colno", tabid)]
        assert got == [n for n, _ in cols], name


def test_catalogue_objects_cannot_be_dropped(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    for sql in ("DROP VIEW sysindexes", "DROP TABLE sysdepend"):
        try:
            cur.execute(sql)
        except ifxwire.DatabaseError:
            pass
        else:
            raise AssertionError(sql)


def test_sysmaster_holds_the_catalogue_too(connect_kwargs: dict[str, Any]) -> None:
    c = ifxwire.connect(**connect_kwargs, database="sysmaster")
    try:
        rows = _rows(c, "SELECT FIRST 100 tabid FROM systables ORDER BY tabid")
        assert len(rows) >= 50
        assert _rows(c, "SELECT tabid FROM systables WHERE tabname IN ('sysdatabases', "
                        "'sysindices', 'sysdepend') ORDER BY tabid") == [(3,), (8,), (100,)]
        assert _rows(c, "SELECT COUNT(*) FROM sysdatabases WHERE name = 'sysmaster'") == [(1,)]
    finally:
        c.close()


# ------------------------------------------------------------------------------------------
# Catalogue facts a schema-inspection tool read from a real 14.10.FC7W1DE over IBM JDBC
# (issue 23; tests/interop/test_jdbc_catalog.py reads the same through DatabaseMetaData)


def test_float_precision_is_17(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE fl_t (f FLOAT, s SMALLFLOAT)")
    assert _rows(conn, "SELECT c.colname, informix.schema_precision(c.coltype, c.extended_id, "
                       "c.collength) FROM syscolumns c, systables t WHERE c.tabid = t.tabid "
                       "AND t.tabname = 'fl_t' ORDER BY c.colno") == [("f", 17), ("s", 7)]
    cur.execute("DROP TABLE fl_t")


def test_a_view_keeps_its_base_columns_not_null(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE DISTINCT TYPE vn_dint AS INTEGER")
    cur.execute("CREATE TABLE vn_t (a INTEGER NOT NULL, b INTEGER, d vn_dint NOT NULL)")
    cur.execute("CREATE VIEW vn_v AS SELECT a, b, d, a + 1 AS a1 FROM vn_t")
    cur.execute("CREATE VIEW vn_all AS SELECT * FROM vn_t")
    cur.execute("CREATE VIEW vn_outer AS SELECT x.a, y.a AS ya FROM vn_t x, OUTER vn_t y "
                "WHERE x.b = y.b")
    coltypes = {(t, c): ty for t, c, ty in _rows(
        conn, "SELECT t.tabname, c.colname, c.coltype FROM syscolumns c, systables t "
              "WHERE c.tabid = t.tabid AND t.tabname MATCHES 'vn_*'")}
    assert coltypes[("vn_t", "d")] == 0x800 + 2 + 0x100  # a distinct INTEGER, NOT NULL
    assert {k: v for k, v in coltypes.items() if k[0] != "vn_t"} == {
        ("vn_v", "a"): 2 + 0x100, ("vn_v", "b"): 2, ("vn_v", "d"): 0x800 + 2 + 0x100,
        ("vn_v", "a1"): 2,
        ("vn_all", "a"): 2 + 0x100, ("vn_all", "b"): 2, ("vn_all", "d"): 0x800 + 2 + 0x100,
        # the OUTER table's column may be NULL in the view
        ("vn_outer", "a"): 2 + 0x100, ("vn_outer", "ya"): 2,
    }
    for v in ("vn_v", "vn_all", "vn_outer"):
        cur.execute(f"DROP VIEW {v}")
    cur.execute("DROP TABLE vn_t")
    cur.execute("DROP TYPE vn_dint RESTRICT")


def test_a_views_owner_holds_its_privileges(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE pv_t (a INTEGER, b INTEGER)")
    cur.execute("CREATE VIEW pv_simple AS SELECT a FROM pv_t WHERE b > 0")
    cur.execute("CREATE VIEW pv_grouped AS SELECT b, COUNT(*) AS n FROM pv_t GROUP BY b")
    rows = _rows(conn, "SELECT t.tabname, a.grantor, a.grantee, a.tabauth FROM systabauth a, "
                       "systables t WHERE a.tabid = t.tabid AND t.tabname MATCHES 'pv_*' "
                       "ORDER BY t.tabname, a.grantee")
    assert [(t, g.strip(), e.strip(), auth.strip()) for t, g, e, auth in rows] == [
        ("pv_grouped", "informix", "informix", "S-------"),
        ("pv_simple", "informix", "informix", "SU-ID---"),
        ("pv_t", "informix", "public", "su-idx--"),
    ]
    cur.execute("DROP VIEW pv_simple")
    cur.execute("DROP VIEW pv_grouped")
    assert _rows(conn, "SELECT COUNT(*) FROM systabauth a WHERE NOT EXISTS (SELECT 1 FROM "
                       "systables t WHERE t.tabid = a.tabid)") == [(0,)]
    cur.execute("DROP TABLE pv_t")


def _indexes(conn: ifxwire.Connection, table: str) -> list[tuple[Any, ...]]:
    return _rows(conn, "SELECT i.idxname, i.idxtype, i.part1 FROM sysindexes i, systables t "
                       "WHERE i.tabid = t.tabid AND t.tabname = ? ORDER BY i.idxname", table)


def _constraints(conn: ifxwire.Connection, table: str) -> list[tuple[Any, ...]]:
    return _rows(conn, "SELECT c.constrtype, c.idxname FROM sysconstraints c, systables t "
                       "WHERE c.tabid = t.tabid AND t.tabname = ? ORDER BY c.constrid", table)


def test_a_foreign_key_shares_the_unique_index_of_its_columns(
        conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE fk_p (id INTEGER PRIMARY KEY)")
    cur.execute("CREATE TABLE fk_c (k INTEGER, r INTEGER UNIQUE REFERENCES fk_p (id), "
                "q INTEGER REFERENCES fk_p (id))")
    (tabid,) = _rows(conn, "SELECT tabid FROM systables WHERE tabname = 'fk_c'")[0]
    cons = _constraints(conn, "fk_c")
    shared = cons[0][1]
    assert shared.startswith(f" {tabid}_")
    assert [k for k, _ in cons] == ["U", "R", "R"] and cons[1][1] == shared
    assert _indexes(conn, "fk_c") == [(shared, "U", 2), (cons[2][1], "D", 3)]
    # Without its unique constraint the index stays, for the foreign key, and takes
    # duplicates.
    cur.execute("INSERT INTO fk_p VALUES (1)")
    cur.execute("INSERT INTO fk_c VALUES (1, 1, 1)")
    name = _rows(conn, "SELECT constrname FROM sysconstraints WHERE constrtype = 'U' AND "
                       "tabid = ?", tabid)[0][0]
    cur.execute(f"ALTER TABLE fk_c DROP CONSTRAINT {name}")
    assert _indexes(conn, "fk_c") == [(shared, "D", 2), (cons[2][1], "D", 3)]
    cur.execute("INSERT INTO fk_c VALUES (2, 1, 1)")
    # ALTER TABLE ADD CONSTRAINT shares the same way.
    cur.execute("CREATE TABLE fk_a (k INTEGER UNIQUE)")
    cur.execute("ALTER TABLE fk_a ADD CONSTRAINT FOREIGN KEY (k) REFERENCES fk_p (id)")
    assert len(_indexes(conn, "fk_a")) == 1
    assert len({idx for _, idx in _constraints(conn, "fk_a")}) == 1
    for t in ("fk_a", "fk_c", "fk_p"):
        cur.execute(f"DROP TABLE {t}")


def test_sysdepend_records_what_a_view_reads(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE dep_a (x INTEGER)")
    cur.execute("CREATE TABLE dep_b (x INTEGER)")
    cur.execute("CREATE VIEW dep_v1 AS SELECT dep_a.x FROM dep_a, dep_b WHERE dep_a.x = dep_b.x")
    cur.execute("CREATE VIEW dep_v2 AS SELECT x FROM dep_v1 UNION SELECT x FROM dep_a")
    ids = dict(_rows(conn, "SELECT tabname, tabid FROM systables WHERE tabname MATCHES 'dep_*'"))
    rows = _rows(conn, "SELECT btabid, btype, dtabid, dtype FROM sysdepend WHERE dtabid >= 100 "
                       "ORDER BY dtabid, btabid")
    a, b, v1, v2 = ids["dep_a"], ids["dep_b"], ids["dep_v1"], ids["dep_v2"]
    assert rows == [(a, "T", v1, "V"), (b, "T", v1, "V"), (a, "T", v2, "V"), (v1, "V", v2, "V")]
    cur.execute("DROP VIEW dep_v2")
    assert _rows(conn, "SELECT COUNT(*) FROM sysdepend WHERE dtabid = ?", ids["dep_v2"]) == [(0,)]
    cur.execute("DROP VIEW dep_v1")
    cur.execute("DROP TABLE dep_a")
    cur.execute("DROP TABLE dep_b")


def test_the_built_in_access_methods_and_operator_classes(conn: ifxwire.Connection) -> None:
    # The public rows of a new database: btree 1 and rtree 2 (Performance Guide, "Identifying
    # the available access methods"), rtree's as the R-Tree guide prints them, and the two
    # default operator classes joined to them as the Performance Guide's query does.
    assert _rows(conn, "SELECT am_id, am_owner, am_name, am_type FROM sysams "
                       "WHERE am_type = 'S' ORDER BY am_id") == [
        (1, "informix", "btree", "S"), (2, "informix", "rtree", "S")]
    assert _rows(conn, "SELECT am_name, am_owner, am_id, am_type, am_sptype, am_defopclass "
                       "FROM sysams WHERE am_name = 'rtree'") == [
        ("rtree", "informix", 2, "S", "D", 2)]
    assert _rows(conn, "SELECT opclassid, opclassname, amid, am_name FROM sysopclasses, sysams "
                       "WHERE sysopclasses.amid = sysams.am_id ORDER BY opclassid") == [
        (1, "btree_ops", 1, "btree"), (2, "rtree_ops", 2, "rtree")]


def test_routine_languages(conn: ifxwire.Connection) -> None:
    # java's row as the J/Foundation guide prints it; SPL routines are langid 2, which IBM
    # JDBC's getProcedures SQL selects (`p.langid = 2`), so an SPL routine joins to 'spl'.
    assert _rows(conn, "SELECT langid, langname, langinitfunc, langpath, langclass "
                       "FROM sysroutinelangs WHERE langname = 'java'") == [
        (3, "java", "udrlm_java_init", "$INFORMIXDIR/extend/krakatoa/lmjava.so", "jvp")]
    cur = conn.cursor()
    cur.execute("CREATE PROCEDURE lang_p() END PROCEDURE")
    assert _rows(conn, "SELECT l.langname FROM sysprocedures p, sysroutinelangs l "
                       "WHERE p.procname = 'lang_p' AND l.langid = p.langid") == [("spl",)]
    cur.execute("DROP PROCEDURE lang_p")


def test_server_messages_are_not_in_syserrors(conn: ifxwire.Connection) -> None:
    # "Messages that the database server provides are not stored in the syserrors system
    # catalog table" (DataBlade API Programmer's Guide, "Choose an SQLSTATE code").
    assert _rows(conn, "SELECT COUNT(*) FROM syserrors") == [(0,)]


def test_a_distinct_type_registers_two_explicit_casts(conn: ifxwire.Connection) -> None:
    # Guide to SQL: Reference, "Casts for distinct types": CREATE DISTINCT TYPE registers a
    # cast each way between the type and its source, explicit (class E), with no routine.
    cur = conn.cursor()
    cur.execute("CREATE DISTINCT TYPE cast_money AS DECIMAL(10,2)")
    (xid,) = _rows(conn, "SELECT extended_id FROM sysxtdtypes WHERE name = 'cast_money'")[0]
    assert _rows(conn, "SELECT owner, argument_type, argument_xid, result_type, result_xid, "
                       "routine_name, routine_owner, class FROM syscasts "
                       "WHERE argument_xid = ? OR result_xid = ? ORDER BY argument_xid",
                 xid, xid) == [
        ("informix", 5, 0, 0x800 + 5, xid, None, None, "E"),
        ("informix", 0x800 + 5, xid, 5, 0, None, None, "E")]
    cur.execute("DROP TYPE cast_money RESTRICT")
    assert _rows(conn, "SELECT COUNT(*) FROM syscasts WHERE argument_xid = ? OR result_xid = ?",
                 xid, xid) == [(0,)]
