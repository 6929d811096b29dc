"""The system catalogue's columns and values as the IBM Informix Guide to SQL: Reference
(14.10, "System catalog tables") documents them, read over real sockets.

Each test names the Reference section it checks (docs/SERVER.md, "System catalogue").
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import ifxwire

FLOAT, SMALLINT, INTEGER, CHAR, VARCHAR, INTERVAL, DATETIME, LVARCHAR = 3, 1, 2, 0, 13, 14, 10, 40


def _rows(conn: ifxwire.Connection, sql: str, *params: object) -> list[tuple[Any, ...]]:
    cur = conn.cursor()
    cur.execute(sql, params or None)
    return list(cur.fetchall())


def _columns(conn: ifxwire.Connection, tabid: int) -> list[tuple[str, int, int]]:
    return [(n, t, length) for n, t, length in _rows(
        conn, "SELECT colname, coltype, collength FROM syscolumns WHERE tabid = ? "
              "ORDER BY colno", tabid)]


def test_sysindices_has_the_14_10_columns(conn: ifxwire.Connection) -> None:
    # Reference, SYSINDICES: idxname VARCHAR(128), owner VARCHAR(32), …, leaves, nunique and
    # clust FLOAT, then nrows … nextsize; ustbuildduration INTERVAL HOUR TO FRACTION(5).
    cols = _columns(conn, 3)
    assert [c[0] for c in cols] == [
        "idxname", "owner", "tabid", "idxtype", "clustered", "levels", "leaves", "nunique",
        "clust", "nrows", "indexkeys", "amid", "amparam", "collation", "pagesize",
        "nhashcols", "nbuckets", "ustlowts", "ustbuildduration", "nupdates", "ndeletes",
        "ninserts", "fextsize", "nextsize"]
    types = {n: (t, length) for n, t, length in cols}
    assert types["owner"] == (VARCHAR, 32)
    assert {types[n][0] for n in ("leaves", "nunique", "clust", "nrows", "nupdates")} == {FLOAT}
    assert types["amparam"] == (LVARCHAR, 2048)
    assert types["collation"] == (CHAR, 32)
    assert (types["nhashcols"][0], types["nbuckets"][0]) == (SMALLINT, SMALLINT)
    assert types["ustlowts"] == (DATETIME, 19 * 256 + 0 * 16 + 15)  # YEAR TO FRACTION(5)
    assert types["ustbuildduration"] == (INTERVAL, 11 * 256 + 6 * 16 + 15)  # HOUR(2) TO F(5)
    assert _rows(conn, "SELECT ncols FROM systables WHERE tabid = 3") == [(24,)]


def test_a_new_index_row_in_sysindices(conn: ifxwire.Connection) -> None:
    # Reference, SYSINDICES: amid is the access method's am_id in sysams (btree 1), nrows is
    # zero until UPDATE STATISTICS, collation the database locale of the index's creation.
    cur = conn.cursor()
    cur.execute("CREATE TABLE r4_idx (a INT, b CHAR(4), c INT)")
    cur.execute("CREATE INDEX r4_ix ON r4_idx (c DESC, b)")
    conn.commit()
    (row,) = _rows(conn, "SELECT i.owner, i.idxtype, i.leaves, i.nrows, i.amid, a.am_name, "
                         "i.collation, i.pagesize, i.indexkeys FROM sysindices i, sysams a "
                         "WHERE i.idxname = 'r4_ix' AND a.am_id = i.amid")
    owner, idxtype, leaves, nrows, amid, am_name, collation, pagesize, keys = row
    assert (owner, idxtype, amid, am_name.strip()) == ("informix", "D", 1, "btree")
    assert isinstance(leaves, float) and nrows == 0.0
    (locale,) = _rows(conn, "SELECT dbs_collate FROM sysmaster:sysdbslocale "
                            "WHERE dbs_dbsname = DBINFO('dbname')")[0]
    assert collation.strip() == locale.strip()
    assert pagesize == 2048
    assert keys == "-3 [1], 2 [1]"
    # the sysindexes view keeps its INTEGER statistics and its part columns
    assert _rows(conn, "SELECT part1, part2, part3, leaves FROM sysindexes "
                       "WHERE idxname = 'r4_ix'") == [(-3, 2, 0, 1)]
    assert dict((n, t) for n, t, _ in _columns(conn, 67))["leaves"] == INTEGER
    assert dict((n, t) for n, t, _ in _columns(conn, 67))["owner"] == VARCHAR


def test_syssequences_seqid_is_numbered(conn: ifxwire.Connection) -> None:
    # Reference, SYSSEQUENCES: seqid SERIAL, "sequence identifier". It was left NULL.
    cur = conn.cursor()
    cur.execute("CREATE SEQUENCE r4_seq1")
    cur.execute("CREATE SEQUENCE r4_seq2 INCREMENT BY 5")
    conn.commit()
    rows = _rows(conn, "SELECT s.seqid, s.inc_val FROM syssequences s, systables t "
                       "WHERE s.tabid = t.tabid AND t.tabname IN ('r4_seq1', 'r4_seq2') "
                       "ORDER BY t.tabname")
    assert [inc for _, inc in rows] == [1, 5]
    first, second = (seqid for seqid, _ in rows)
    assert first is not None and second == first + 1


def test_sysreferences_reserved_columns_display_n(conn: ifxwire.Connection) -> None:
    # Reference, SYSREFERENCES: updrule "Reserved for future use; displays an R", matchtype
    # and pendant "Reserved for future use; displays an N"; delrule C or R.
    cur = conn.cursor()
    cur.execute("CREATE TABLE r4_parent (id INT PRIMARY KEY)")
    cur.execute("CREATE TABLE r4_child (pid INT REFERENCES r4_parent ON DELETE CASCADE, "
                "qid INT)")
    cur.execute("ALTER TABLE r4_child ADD CONSTRAINT FOREIGN KEY (qid) "
                "REFERENCES r4_parent CONSTRAINT r4_fk2")
    conn.commit()
    rows = _rows(conn, "SELECT r.updrule, r.delrule, r.matchtype, r.pendant "
                       "FROM sysreferences r, sysconstraints c, systables t "
                       "WHERE r.constrid = c.constrid AND c.tabid = t.tabid "
                       "AND t.tabname = 'r4_child' ORDER BY c.constrid")
    assert rows == [("R", "C", "N", "N"), ("R", "R", "N", "N")]


def test_sysconstraints_owner_and_collation(conn: ifxwire.Connection) -> None:
    # Reference, SYSCONSTRAINTS: owner VARCHAR(32); collation CHAR(32), "Collating order at
    # the time when the constraint was created" (it was NULL).
    types = {n: (t, length) for n, t, length in _columns(conn, 11)}
    assert types["owner"] == (VARCHAR, 32)
    cur = conn.cursor()
    cur.execute("CREATE TABLE r4_cons (a INT PRIMARY KEY, b INT CHECK (b > 0))")
    conn.commit()
    rows = _rows(conn, "SELECT c.constrtype, c.owner, c.collation FROM sysconstraints c, "
                       "systables t WHERE c.tabid = t.tabid AND t.tabname = 'r4_cons' "
                       "ORDER BY c.constrid")
    (locale,) = _rows(conn, "SELECT dbs_collate FROM sysmaster:sysdbslocale "
                            "WHERE dbs_dbsname = DBINFO('dbname')")[0]
    assert [(k, o) for k, o, _ in rows] == [("P", "informix"), ("C", "informix")]
    assert {c.strip() for _, _, c in rows} == {locale.strip()}


def test_syssyntable_of_a_local_synonym_uses_tabid_and_btabid_only(
        conn: ifxwire.Connection) -> None:
    # Reference, SYSSYNTABLE: "If you define a synonym for an object that is in your current
    # database, only the tabid and btabid columns are used"; owner is VARCHAR(32) there and
    # in SYSSYNONYMS.
    cur = conn.cursor()
    cur.execute("CREATE TABLE r4_syn_base (a INT)")
    cur.execute("INSERT INTO r4_syn_base VALUES (7)")
    cur.execute("CREATE SYNONYM r4_syn FOR r4_syn_base")
    cur.execute("CREATE PRIVATE SYNONYM r4_psyn FOR r4_syn_base")
    conn.commit()
    rows = _rows(conn, "SELECT t.tabtype, s.servername, s.dbname, s.owner, s.tabname, b.tabname "
                       "FROM systables t, syssyntable s, systables b WHERE t.tabid = s.tabid "
                       "AND b.tabid = s.btabid AND t.tabname IN ('r4_syn', 'r4_psyn') "
                       "ORDER BY t.tabname")
    assert rows == [("P", None, None, None, None, "r4_syn_base"),
                    ("S", None, None, None, None, "r4_syn_base")]
    assert _rows(conn, "SELECT a FROM r4_syn") == [(7,)]
    assert _rows(conn, "SELECT a FROM r4_psyn") == [(7,)]
    for tabid in (9, 10):
        assert {n: (t, length) for n, t, length in _columns(conn, tabid)}["owner"] == (
            VARCHAR, 32)


def test_owner_columns_and_numargs_have_the_reference_types(conn: ifxwire.Connection) -> None:
    # Reference (14.10 and OneDB), SYSPROCEDURES: owner VARCHAR(32), numargs INTEGER;
    # SYSTRIGGERS and SYSXTDTYPES: owner VARCHAR(32); SYSTABLES keeps owner CHAR(32).
    def coltype(tabid: int, name: str) -> tuple[int, int]:
        return {n: (t, length) for n, t, length in _columns(conn, tabid)}[name]

    assert coltype(16, "owner") == (VARCHAR, 32)
    assert coltype(16, "numargs") == (INTEGER, 4)
    assert coltype(22, "owner") == (VARCHAR, 32)
    assert coltype(30, "owner") == (VARCHAR, 32)
    assert coltype(1, "owner") == (CHAR, 32)
    # SYSTABAUTH, SYSCOLAUTH: grantor and grantee VARCHAR(32)
    for tabid in (4, 5):
        assert (coltype(tabid, "grantor"), coltype(tabid, "grantee")) == (
            (VARCHAR, 32), (VARCHAR, 32))
    cur = conn.cursor()
    cur.execute("CREATE PROCEDURE r4_proc(a INT, b INT) RETURNING INT; RETURN a + b; "
                "END PROCEDURE")
    conn.commit()
    assert _rows(conn, "SELECT owner, numargs FROM sysprocedures WHERE procname = 'r4_proc'"
                 ) == [("informix", 2)]


def test_drop_table_drops_its_local_synonyms(conn: ifxwire.Connection) -> None:
    # Guide to SQL: Syntax, "Effects of the DROP TABLE Statement": "When you remove a table,
    # you also delete ... any local synonyms assigned to it". The names are free again.
    cur = conn.cursor()
    cur.execute("CREATE TABLE r4_drop_base (a INT NOT NULL CHECK (a > 0))")
    cur.execute("CREATE SYNONYM r4_drop_syn FOR r4_drop_base")
    cur.execute("CREATE PRIVATE SYNONYM r4_drop_psyn FOR r4_drop_base")
    (tabid,) = _rows(conn, "SELECT tabid FROM systables WHERE tabname = 'r4_drop_base'")[0]
    cur.execute("DROP TABLE r4_drop_base")
    conn.commit()
    assert _rows(conn, "SELECT tabname FROM systables WHERE tabname MATCHES 'r4_drop*'") == []
    assert _rows(conn, "SELECT COUNT(*) FROM syssyntable WHERE btabid = ?", tabid) == [(0,)]
    assert _rows(conn, "SELECT COUNT(*) FROM syscoldepend WHERE tabid = ?", tabid) == [(0,)]
    cur.execute("CREATE TABLE r4_drop_syn (b INT)")  # the synonym's name is free
    conn.commit()
    assert _rows(conn, "SELECT tabtype FROM systables WHERE tabname = 'r4_drop_syn'") == [("T",)]


def test_a_database_file_from_before_is_brought_to_the_14_10_columns(tmp_path: Path) -> None:
    """A database file an earlier release made (sysindices without the 14.10 columns, owner
    CHAR(32) in sysindices and sysconstraints) is upgraded when first opened."""
    from ifxwire.server import Server

    data = tmp_path / "data"
    kw: dict[str, Any] = {"user": "informix", "password": "in4mix"}
    with Server(port=0, host="127.0.0.1", data=str(data)) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, **kw)
        c.cursor().execute("CREATE DATABASE r4old WITH LOG")
        c.close()
        c = ifxwire.connect(host=srv.host, port=srv.port, database="r4old", **kw)
        c.cursor().execute("CREATE TABLE t (a INT PRIMARY KEY, b INT)")
        c.commit()
        c.close()
    raw = sqlite3.connect(data / "r4old.ifxdb")
    new = ["nrows", "indexkeys", "amid", "amparam", "collation", "pagesize", "nhashcols",
           "nbuckets", "ustlowts", "ustbuildduration", "nupdates", "ndeletes", "ninserts",
           "fextsize", "nextsize"]
    for name in new:
        raw.execute(f'ALTER TABLE sysindices DROP COLUMN "{name}"')
    raw.execute("DELETE FROM syscolumns WHERE tabid = 3 AND colno > 9")
    raw.execute("UPDATE syscolumns SET coltype = 2 WHERE tabid = 3 AND colname IN "
                "('leaves', 'nunique', 'clust')")
    raw.execute("UPDATE syscolumns SET coltype = 0 WHERE tabid IN (3, 9, 10, 11, 16, 22, 30) "
                "AND colname = 'owner'")
    raw.execute("UPDATE syscolumns SET coltype = 1, collength = 2 WHERE tabid = 16 "
                "AND colname = 'numargs'")
    raw.execute("UPDATE syscolumns SET coltype = 0 WHERE tabid IN (4, 5) "
                "AND colname IN ('grantor', 'grantee')")
    raw.execute("UPDATE systables SET ncols = 9 WHERE tabid = 3")
    raw.commit()
    raw.close()
    with Server(port=0, host="127.0.0.1", data=str(data)) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, database="r4old", **kw)
        try:
            assert len(_columns(c, 3)) == 24
            types = {n: t for n, t, _ in _columns(c, 3)}
            assert (types["owner"], types["leaves"], types["amid"]) == (VARCHAR, FLOAT, INTEGER)
            for tabid in (9, 10, 11, 16, 22, 30):
                assert {n: t for n, t, _ in _columns(c, tabid)}["owner"] == VARCHAR
            assert {n: t for n, t, _ in _columns(c, 16)}["numargs"] == INTEGER
            assert {n: t for n, t, _ in _columns(c, 4)}["grantee"] == VARCHAR
            assert _rows(c, "SELECT ncols FROM systables WHERE tabid = 3") == [(24,)]
            assert _rows(c, "SELECT idxname, part1, leaves FROM sysindexes WHERE tabid = 100"
                         ) == [(" 100_1", 1, 1)]
            c.cursor().execute("CREATE INDEX ib ON t (b)")
            assert _rows(c, "SELECT amid, indexkeys FROM sysindices WHERE idxname = 'ib'"
                         ) == [(1, "2 [1]")]
        finally:
            c.close()
