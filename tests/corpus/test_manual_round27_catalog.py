"""The system catalogue as the Guide to SQL: Reference 14.10 documents it, after the DDL of
the Guide to SQL: Syntax, through the real driver and the embedded server over sockets
(issue 23, twenty-seventh round).

Pages: SYSCOLUMNS (ids_sqr_025: coltype codes, +256 for NOT NULL, collength of DECIMAL,
MONEY, DATETIME, INTERVAL, VARCHAR), SYSINDICES (ids_sqr_042), SYSREFERENCES
(ids_sqr_055), SYSVIEWS (ids_sqr_078), SYSCONSTRAINTS (ids_sqr_029). Each case runs in a
fresh database so its objects never meet another case's.
"""

from __future__ import annotations

from typing import Any

import ifxwire

from .manual import fresh_database, rows, sqlcode

_COLS = ("SELECT colname, coltype, collength FROM syscolumns WHERE tabid = "
         "(SELECT tabid FROM systables WHERE tabname = ?) ORDER BY colno")


def test_collength_encodings(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_025 with "Storing Column Length": DECIMAL(p,s) is p*256+s, a floating
    DECIMAL(p) p*256+255 (DECIMAL alone is DECIMAL(16)); MONEY(p) has scale 2; DATETIME and
    INTERVAL are digits*256 + first*16 + last qualifier code; VARCHAR(max,min) and
    NVARCHAR are min*256+max; SERIAL and BIGSERIAL carry the NOT NULL 256 (6+256, 53+256);
    NOT NULL adds 256 to the type code."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE lens (a SERIAL, b DECIMAL(8,2) NOT NULL, c DECIMAL(10), "
                    "d DECIMAL, e MONEY(6), f DATETIME YEAR TO SECOND, "
                    "g DATETIME HOUR TO FRACTION(3), h INTERVAL DAY(3) TO HOUR, "
                    "i VARCHAR(60,10), j NVARCHAR(20,4), k BIGSERIAL, l INT8, m CHAR(8))")
        assert rows(cur, _COLS, ("lens",)) == [
            ("a", 262, 4), ("b", 261, 8 * 256 + 2), ("c", 5, 10 * 256 + 255),
            ("d", 5, 16 * 256 + 255), ("e", 8, 6 * 256 + 2), ("f", 10, 14 * 256 + 0 + 10),
            ("g", 10, 9 * 256 + 6 * 16 + 13), ("h", 14, 5 * 256 + 4 * 16 + 6),
            ("i", 13, 10 * 256 + 60), ("j", 16, 4 * 256 + 20), ("k", 309, 8),
            ("l", 17, 10), ("m", 0, 8)]


def test_not_null_decoded_as_the_reference_shows(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_025: "If the coltype column contains a value greater than 256, it does not
    allow NULL values. To determine the data type ... subtract 256" (the manual's decoding
    query: ``MOD(coltype, 256)``)."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE nn (a INT NOT NULL, b INT, c CHAR(3) NOT NULL)")
        got = rows(cur, "SELECT colname, MOD(coltype, 256), coltype >= 256 FROM syscolumns "
                        "WHERE tabid = (SELECT tabid FROM systables WHERE tabname = 'nn') "
                        "ORDER BY colno")
        assert got == [("a", 2, True), ("b", 2, False), ("c", 0, True)]


def test_sysindices_cluster_and_descending_keys(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_042: idxtype U (unique) or D (duplicates), clustered C; ALTER INDEX ... TO
    [NOT] CLUSTER (Syntax) moves the C; sysindexes' part columns hold colno, negative for
    a descending key (SYSINDEXES, ids_sqr_041)."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE ix (a INT, b CHAR(10), c INT)")
        cur.execute("CREATE CLUSTER INDEX ix1 ON ix (a DESC, b)")
        cur.execute("CREATE UNIQUE INDEX ix2 ON ix (c)")
        q = ("SELECT idxname, idxtype, clustered, part1, part2 FROM sysindexes WHERE tabid = "
             "(SELECT tabid FROM systables WHERE tabname = 'ix') ORDER BY idxname")
        assert rows(cur, q, strip=True) == [("ix1", "D", "C", -1, 2), ("ix2", "U", "", 3, 0)]
        cur.execute("ALTER INDEX ix1 TO NOT CLUSTER")
        cur.execute("ALTER INDEX ix2 TO CLUSTER")
        assert [r[2] for r in rows(cur, q, strip=True)] == ["", "C"]


def test_sysreferences_delete_rule(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_055: delrule C for ON DELETE CASCADE, R (the default) otherwise; updrule
    "displays an R", matchtype and pendant "display an N"; primary is the referenced
    constraint's constrid and ptabid its table. SYSCONSTRAINTS (ids_sqr_029): a referential
    constraint is R, named r<tabid>_<constrid> when unnamed."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE pk (a SERIAL PRIMARY KEY CONSTRAINT pk_a)")
        cur.execute("CREATE TABLE fk (x INT, y INT REFERENCES pk (a) ON DELETE CASCADE "
                    "CONSTRAINT fk_y, FOREIGN KEY (x) REFERENCES pk)")
        got = rows(cur, "SELECT c.constrname, c.constrtype, r.updrule, r.delrule, "
                        "r.matchtype, r.pendant, p.constrname, r.ptabid = p.tabid "
                        "FROM sysreferences r, sysconstraints c, sysconstraints p "
                        "WHERE r.constrid = c.constrid AND r.\"primary\" = p.constrid "
                        "ORDER BY 1", strip=True)
        assert len(got) == 2
        assert got[0] == ("fk_y", "R", "R", "C", "N", "N", "pk_a", True)
        assert got[1][0].startswith("r") and got[1][1:] == (
            "R", "R", "R", "N", "N", "pk_a", True)


def test_sysviews_text_names_the_view_columns(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_078: sysviews keeps the statement that created the view, in numbered
    lines. The view's column list is part of it: a real server's text (as dbschema prints
    it) always names the columns, ``create view "informix".v (c1,c2) as select ...``. It
    was dropped, so ``CREATE VIEW v (x, y) AS SELECT a, b`` read back with no x or y."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE vb (a INT, b CHAR(10))")
        cur.execute("CREATE VIEW v1 (x, y) AS SELECT a, b FROM vb WHERE a > 0 "
                    "WITH CHECK OPTION")
        cur.execute("CREATE VIEW v2 AS SELECT a, b FROM vb")
        q = ("SELECT v.viewtext FROM sysviews v, systables t WHERE v.tabid = t.tabid "
             "AND t.tabname = ? ORDER BY v.seqno")
        text1 = "".join(r[0] for r in rows(cur, q, ("v1",)))
        text2 = "".join(r[0] for r in rows(cur, q, ("v2",)))
        assert text1.startswith("create view v1 (x,y) as SELECT a, b FROM vb WHERE a > 0")
        assert text1.endswith("with check option")
        assert text2.startswith("create view v2 (a,b) as SELECT a, b FROM vb")
        # the view still reads and writes through its own names
        cur.execute("INSERT INTO v1 (x, y) VALUES (5, 'q')")
        assert rows(cur, "SELECT x, y FROM v1", strip=True) == [(5, "q")]


def test_sysviews_delimited_column_keeps_dml(connect_kwargs: dict[str, Any]) -> None:
    """Ours (SERVER.md "sysviews"): a view column whose name needs delimiting leaves the
    list out of the text, so a session without DELIMIDENT, which parses the text again to
    write through the view, still can."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        conn.cursor().execute("CREATE TABLE dv (a INT, b INT)")
        db = rows(conn.cursor(), "SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")[0][0]
        with ifxwire.connect(**connect_kwargs, database=db, autocommit=True,
                             env={"DELIMIDENT": "y"}) as delim:
            delim.cursor().execute('CREATE VIEW dvv ("X", b) AS SELECT a, b FROM dv')
        cur = conn.cursor()
        cur.execute("INSERT INTO dvv VALUES (3, 4)")
        cur.execute("UPDATE dvv SET b = 5 WHERE b = 4")
        assert rows(cur, "SELECT a, b FROM dv") == [(3, 5)]


def test_sysviews_lines_number_from_zero(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_078: "Line number of the SELECT statement"; the text is cut into the
    viewtext width (CHAR(64) here, as the 14.10 catalogue's column) and the lines joined in
    seqno order give the statement back whole."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE wide (a_rather_long_column_name INT, "
                    "another_rather_long_column_name INT)")
        cur.execute("CREATE VIEW wv AS SELECT a_rather_long_column_name, "
                    "another_rather_long_column_name FROM wide")
        got = rows(cur, "SELECT v.seqno, v.viewtext FROM sysviews v, systables t WHERE "
                        "v.tabid = t.tabid AND t.tabname = 'wv' ORDER BY v.seqno")
        assert [r[0] for r in got] == list(range(len(got))) and len(got) >= 2
        assert all(len(r[1]) == 64 for r in got[:-1])
        assert "".join(r[1] for r in got).endswith("another_rather_long_column_name FROM wide")


def test_ddl_leaves_extents_and_lock_mode(connect_kwargs: dict[str, Any]) -> None:
    """Syntax, CREATE TABLE's storage options (EXTENT SIZE, NEXT SIZE, LOCK MODE) and
    ALTER TABLE ... LOCK MODE; SYSTABLES: fextsize / nextsize in kilobytes, locklevel P or
    R. RENAME COLUMN / TABLE / INDEX rename the catalogue rows in place."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE ext (a INT, b INT) EXTENT SIZE 32 NEXT SIZE 64 "
                    "LOCK MODE ROW")
        q = "SELECT locklevel, fextsize, nextsize FROM systables WHERE tabname = ?"
        assert rows(cur, q, ("ext",)) == [("R", 32, 64)]
        cur.execute("ALTER TABLE ext LOCK MODE (PAGE)")
        assert rows(cur, q, ("ext",)) == [("P", 32, 64)]
        cur.execute("CREATE INDEX ext_i ON ext (b)")
        cur.execute("RENAME COLUMN ext.b TO bb")
        cur.execute("RENAME INDEX ext_i TO ext_j")
        cur.execute("RENAME TABLE ext TO ext2")
        assert rows(cur, _COLS, ("ext2",)) == [("a", 2, 4), ("bb", 2, 4)]
        assert rows(cur, "SELECT idxname FROM sysindexes WHERE tabid = "
                         "(SELECT tabid FROM systables WHERE tabname = 'ext2')") == [
            ("ext_j",)]


def test_grants_as_systabauth_spells_them(connect_kwargs: dict[str, Any]) -> None:
    """SYSTABAUTH / SYSCOLAUTH: tabauth letters s u * i d x a r n in order, upper case
    WITH GRANT OPTION, ``*`` where column-level privileges exist (their rows in syscolauth,
    colauth ``-u-``). SYSUSERS: usertype C connect, R resource, D DBA, G role."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE g (a INT, b INT)")
        cur.execute("GRANT SELECT, UPDATE (a) ON g TO bob")
        cur.execute("GRANT ALL ON g TO carol WITH GRANT OPTION")
        assert rows(cur, "SELECT grantee, tabauth FROM systabauth WHERE tabid = (SELECT "
                         "tabid FROM systables WHERE tabname = 'g') AND grantee <> 'public' "
                         "ORDER BY 1", strip=True) == [
            ("bob", "s-*------"), ("carol", "SU-IDXAR-")]
        assert rows(cur, "SELECT grantee, colno, colauth FROM syscolauth WHERE tabid = "
                         "(SELECT tabid FROM systables WHERE tabname = 'g')",
                    strip=True) == [("bob", 1, "-u-")]
        cur.execute("CREATE ROLE r27")
        cur.execute("GRANT CONNECT TO dan")
        cur.execute("GRANT RESOURCE TO eve")
        assert rows(cur, "SELECT username, usertype FROM sysusers WHERE username IN "
                         "('dan', 'eve', 'r27', 'informix') ORDER BY 1", strip=True) == [
            ("dan", "C"), ("eve", "R"), ("informix", "D"), ("r27", "G")]


def test_sysprocauth_names_are_varchar(connect_kwargs: dict[str, Any]) -> None:
    """SYSPROCAUTH (ids_sqr_050): grantor and grantee VARCHAR(32), procauth e (E WITH GRANT
    OPTION), as SYSTABAUTH's and SYSCOLAUTH's grantor and grantee. They were CHAR(32), so a
    grantee read back padded to 32 characters."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        assert rows(cur, "SELECT colname, coltype, collength FROM syscolumns WHERE tabid = 19 "
                         "ORDER BY colno") == [
            ("grantor", 13, 32), ("grantee", 13, 32), ("procid", 2, 4), ("procauth", 0, 1)]
        cur.execute("CREATE PROCEDURE r27p (x INT) RETURNING INT; RETURN x; END PROCEDURE")
        cur.execute("GRANT EXECUTE ON r27p TO carol WITH GRANT OPTION")
        got = rows(cur, "SELECT a.grantor, a.grantee, a.procauth FROM sysprocauth a, "
                        "sysprocedures p WHERE a.procid = p.procid AND p.procname = 'r27p' "
                        "ORDER BY 2")
        assert got == [("informix", "carol", "E"), ("informix", "public", "e")]
        assert cur.description is not None and cur.description[1][1] == 13


def test_view_columns_need_names(connect_kwargs: dict[str, Any]) -> None:
    """Syntax, "Naming View Columns" (ids_sqs_0646): an expression in the Projection clause
    is a virtual column, "You must provide a name for a virtual column": -249 "Virtual
    column must have explicit name." (was -999); names are also needed "where any of the
    selected columns have duplicate column names": -328 as for a table (was created). The
    page's example with a list is accepted (with a GROUP BY: the page leaves it out, and
    colb outside an aggregate needs one)."""
    with fresh_database(connect_kwargs, "r27cat") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE oldtab (cola INT, colb INT)")
        assert sqlcode(cur, "CREATE VIEW v_expr AS SELECT cola + 1 FROM oldtab") == -249
        assert sqlcode(cur, "CREATE VIEW v_sum AS SELECT sum(cola), colb FROM oldtab "
                            "GROUP BY colb") == -249
        assert sqlcode(cur, "CREATE VIEW v_dup AS SELECT cola, cola FROM oldtab") == -328
        assert sqlcode(cur, "CREATE VIEW v_dup2 (x, x) AS SELECT cola, colb FROM oldtab") == -328
        cur.execute("CREATE VIEW newview (firstcol, secondcol) AS "
                    "SELECT sum(cola), colb FROM oldtab GROUP BY colb")
        assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname MATCHES 'v_*'") == [
            (0,)]
