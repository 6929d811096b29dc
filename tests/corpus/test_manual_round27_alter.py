"""ALTER TABLE and UPDATE STATISTICS as the Guide to SQL: Syntax and the Reference's
catalogue pages describe them, through the real driver and the embedded server over sockets
(issue 23, twenty-seventh round; the defects fidelity37 found).

Pages: ALTER TABLE's Single-Column Constraint Format (Syntax, ids_sqs_0082: NOT NULL in
the ADD Column and MODIFY clauses), MODIFY Clause (ids_sqs_0078), DROP CONSTRAINT Clause
(ids_sqs_0069), SYSCONSTRAINTS (ids_sqr_029: constrtype N) with syscoldepend, UPDATE
STATISTICS LOW (ids_sqs_0039), SYSTABLES (ids_sqr_072: nrows, fextsize, nextsize),
SYSINDICES (ids_sqr_042: nunique, nrows), MODIFY NEXT SIZE (ids_sqs_0070), MODIFY EXTENT
SIZE (ids_sqs_2007).
"""

from __future__ import annotations

from typing import Any

import ifxwire

from .manual import fresh_database, rows, sqlcode

_CONS = ("SELECT c.constrname, c.constrtype, d.colno FROM sysconstraints c, "
         "OUTER syscoldepend d WHERE d.constrid = c.constrid AND c.tabid = "
         "(SELECT tabid FROM systables WHERE tabname = ?) ORDER BY c.constrid")
_TYPE = ("SELECT colname, coltype FROM syscolumns WHERE tabid = "
         "(SELECT tabid FROM systables WHERE tabname = ?) ORDER BY colno")


def test_alter_add_not_null_writes_its_constraint(connect_kwargs: dict[str, Any]) -> None:
    """SYSCONSTRAINTS (ids_sqr_029): a NOT NULL constraint is a row of constrtype N, with
    its column in syscoldepend, whether CREATE TABLE or ALTER TABLE ... ADD made it; the
    name given by CONSTRAINT, else n<tabid>_<constrid>. So DROP CONSTRAINT finds it."""
    with fresh_database(connect_kwargs, "r27alt") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE an (a INT)")
        cur.execute("ALTER TABLE an ADD (v INT NOT NULL CONSTRAINT nn_v)")
        cur.execute("ALTER TABLE an ADD (w CHAR(4) NOT NULL)")
        got = rows(cur, _CONS, ("an",), strip=True)
        assert got[0] == ("nn_v", "N", 2)
        (tabid,) = rows(cur, "SELECT tabid FROM systables WHERE tabname = 'an'")[0]
        name, kind, colno = got[1]
        assert (kind, colno) == ("N", 3) and name.startswith(f"n{tabid}_")
        cur.execute("ALTER TABLE an DROP CONSTRAINT nn_v")
        assert rows(cur, _CONS, ("an",), strip=True) == [got[1]]


def test_alter_modify_not_null_writes_its_constraint(connect_kwargs: dict[str, Any]) -> None:
    """MODIFY col type NOT NULL [CONSTRAINT name] (ids_sqs_0082) records the constraint as
    CREATE TABLE does; MODIFY without it drops the column's old NOT NULL row, the column is
    nullable again ("all attributes previously associated with the column ... are dropped",
    ids_sqs_0078), and restating it may reuse the old name."""
    with fresh_database(connect_kwargs, "r27alt") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE mn (a INT, b INT)")
        cur.execute("ALTER TABLE mn MODIFY (b INT NOT NULL CONSTRAINT nn_b)")
        assert rows(cur, _CONS, ("mn",), strip=True) == [("nn_b", "N", 2)]
        assert rows(cur, _TYPE, ("mn",)) == [("a", 2), ("b", 258)]
        cur.execute("ALTER TABLE mn MODIFY (b BIGINT NOT NULL CONSTRAINT nn_b)")
        assert rows(cur, _CONS, ("mn",), strip=True) == [("nn_b", "N", 2)]
        cur.execute("ALTER TABLE mn MODIFY (b INT)")
        assert rows(cur, _CONS, ("mn",)) == []
        assert rows(cur, _TYPE, ("mn",)) == [("a", 2), ("b", 2)]
        cur.execute("INSERT INTO mn VALUES (1, NULL)")
        assert sqlcode(cur, "ALTER TABLE mn MODIFY (b INT NOT NULL)", fetch=False) == -391


def test_drop_not_null_constraint_makes_column_nullable(connect_kwargs: dict[str, Any]) -> None:
    """DROP CONSTRAINT (ids_sqs_0069) of a NOT NULL constraint removes it: the column then
    allows NULL (SYSCOLUMNS, ids_sqr_025: coltype loses its 256) and an INSERT of NULL
    succeeds; before, it is -391. For CREATE TABLE's constraint and ALTER TABLE's."""
    with fresh_database(connect_kwargs, "r27alt") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE dn (a INT NOT NULL CONSTRAINT nn_a, b INT)")
        cur.execute("ALTER TABLE dn ADD (c INT NOT NULL CONSTRAINT nn_c)")
        assert sqlcode(cur, "INSERT INTO dn VALUES (NULL, 1, 1)", fetch=False) == -391
        cur.execute("ALTER TABLE dn DROP CONSTRAINT (nn_a, nn_c)")
        assert rows(cur, _TYPE, ("dn",)) == [("a", 2), ("b", 2), ("c", 2)]
        cur.execute("INSERT INTO dn VALUES (NULL, 1, NULL)")
        assert rows(cur, "SELECT a, b, c FROM dn") == [(None, 1, None)]
        assert rows(cur, _CONS, ("dn",)) == []


def test_update_statistics_low_counts_rows(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqs_0039: LOW mode updates "table, row, and page-count statistics in the
    systables system catalog table", and index statistics in sysindices; SYSTABLES
    (ids_sqr_072) nrows and SYSINDICES (ids_sqr_042) nrows/nunique are zero until UPDATE
    STATISTICS is run. Without FOR TABLE every table of the database is updated."""
    with fresh_database(connect_kwargs, "r27alt") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE st (a INT, b CHAR(2))")
        cur.execute("CREATE INDEX st_b ON st (b)")
        cur.execute("CREATE UNIQUE INDEX st_ab ON st (a, b)")
        cur.execute("CREATE TABLE st2 (x INT)")
        for i in range(5):
            cur.execute("INSERT INTO st VALUES (?, ?)", (i, "k" if i % 2 else "j"))
        cur.execute("INSERT INTO st2 VALUES (1)")
        nrows = "SELECT tabname, nrows FROM systables WHERE tabname IN ('st', 'st2') ORDER BY 1"
        idx = ("SELECT idxname, nrows, nunique FROM sysindices WHERE tabid = "
               "(SELECT tabid FROM systables WHERE tabname = 'st') ORDER BY idxname")
        assert rows(cur, nrows) == [("st", 0), ("st2", 0)]
        cur.execute("UPDATE STATISTICS LOW FOR TABLE st")
        assert rows(cur, nrows) == [("st", 5), ("st2", 0)]
        assert rows(cur, idx) == [("st_ab", 5, 5), ("st_b", 5, 2)]
        cur.execute("UPDATE STATISTICS FOR PROCEDURE")  # routines only: no table counted
        assert rows(cur, nrows) == [("st", 5), ("st2", 0)]
        cur.execute("UPDATE STATISTICS")
        assert rows(cur, nrows) == [("st", 5), ("st2", 1)]


def test_update_statistics_is_undone_by_rollback(connect_kwargs: dict[str, Any]) -> None:
    """The counts are catalogue rows written in the statement's transaction: ROLLBACK WORK
    takes them back, and another session sees them once committed (ids_sqs_0039)."""
    with fresh_database(connect_kwargs, "r27alt") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE rb (a INT)")
        cur.execute("INSERT INTO rb VALUES (1)")
        cur.execute("INSERT INTO rb VALUES (2)")
        q = "SELECT nrows FROM systables WHERE tabname = 'rb'"
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE STATISTICS FOR TABLE rb")
        assert rows(cur, q) == [(2,)]
        cur.execute("ROLLBACK WORK")
        assert rows(cur, q) == [(0,)]
        cur.execute("UPDATE STATISTICS LOW FOR TABLE rb")
        database = rows(cur, "SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")[0][0]
        other = ifxwire.connect(**{**connect_kwargs, "database": database})
        try:
            assert rows(other.cursor(), q) == [(2,)]
        finally:
            other.close()


def test_modify_next_size_sets_nextsize(connect_kwargs: dict[str, Any]) -> None:
    """MODIFY NEXT SIZE (ids_sqs_0070) changes the size of the extents to come:
    systables.nextsize (SYSTABLES, ids_sqr_072, "Size of all subsequent extents"); MODIFY
    EXTENT SIZE the first extent's, fextsize (ids_sqs_2007: "the database server records the
    change in the system catalog"), and the two may go together."""
    with fresh_database(connect_kwargs, "r27alt") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE ns (a INT) EXTENT SIZE 32 NEXT SIZE 32")
        cur.execute("ALTER TABLE ns MODIFY NEXT SIZE 64")
        q = "SELECT fextsize, nextsize FROM systables WHERE tabname = 'ns'"
        assert rows(cur, q) == [(32, 64)]
        cur.execute("ALTER TABLE ns MODIFY EXTENT SIZE 48")
        assert rows(cur, q) == [(48, 64)]
        cur.execute("ALTER TABLE ns MODIFY EXTENT SIZE 40 NEXT SIZE 24")
        assert rows(cur, q) == [(40, 24)]
