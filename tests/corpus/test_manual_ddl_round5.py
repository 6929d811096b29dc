"""DDL and session statements of real schemas, fifth round (issue 23): what dbschema prints and
the Guide to SQL: Syntax shows must run unchanged, with the catalogue effect Informix gives,
or be refused with Informix's code; storage that only places rows is accepted and ignored.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN`` at
https://help.hcl-software.com/hclinformix/1410/sqs/). The statements are ours, modelled on
the pages' syntax diagrams and examples; they run against the real embedded server over
sockets, in a database of their own (``ddl5``) so stores_demo is untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = partial(rows, strip=True)
_code = partial(sqlcode, fetch=False)


@pytest.fixture(scope="module")
def db(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Connection]:
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    conn.cursor().execute("CREATE DATABASE ddl5 WITH LOG")
    try:
        yield conn
    finally:
        conn.close()


@pytest.fixture()
def cur(db: ifxwire.Connection) -> ifxwire.Cursor:
    return db.cursor()


def _tab(cur: ifxwire.Cursor, name: str) -> int:
    return int(_rows(cur, f"SELECT tabid FROM systables WHERE tabname = '{name}'")[0][0])


# ---- CREATE TABLE storage options (ids_sqs_0509 "Storage options", ids_sqs_0538 LOCK MODE) --
ACCEPTED_TABLES = [
    ("IN rootdbs EXTENT SIZE 16 NEXT SIZE 16 LOCK MODE ROW", "ids_sqs_0509 IN, EXTENT SIZE"),
    ("FRAGMENT BY ROUND ROBIN IN dbs1, dbs2", "ids_sqs_0513 ROUND ROBIN"),
    ("PARTITION BY ROUND ROBIN PARTITION p1 IN dbs1, PARTITION p2 IN dbs1",
     "ids_sqs_0513: PARTITION BY is a synonym; named partitions in one dbspace"),
    ("FRAGMENT BY EXPRESSION a < 100 IN dbs1, REMAINDER IN dbs2", "ids_sqs_0513 EXPRESSION"),
    ("FRAGMENT BY EXPRESSION PARTITION p1 (a < 100) IN dbs1, PARTITION p2 (a IN (200, 300)) "
     "IN dbs1, PARTITION p3 REMAINDER IN dbs2", "ids_sqs_0513 named expression fragments"),
    ("FRAGMENT BY LIST (a) PARTITION p1 VALUES (1, 2) IN dbs1, PARTITION p2 VALUES (NULL) "
     "IN dbs1, PARTITION p3 REMAINDER IN dbs2", "ids_sqs_0513 LIST with a REMAINDER"),
    ("WITH CRCOLS", "ids_sqs_0509 WITH CRCOLS (replication shadow columns)"),
    ("WITH ROWIDS", "ids_sqs_0509 WITH ROWIDS"),
    ("WITH AUDIT", "ids_sqs_0509 WITH AUDIT"),
    ("WITH ERKEY", "ids_sqs_0509 WITH ERKEY"),
    ("WITH VERCOLS", "ids_sqs_0509 WITH VERCOLS"),
    ("COMPRESSED", "ids_sqs_0509 COMPRESSED"),
    ("STATCHANGE 10", "ids_sqs_0509 STATCHANGE"),
    ("STATLEVEL TABLE", "ids_sqs_0509 STATLEVEL"),
    ("FRAGMENT BY EXPRESSION a < 0 IN dbs1, REMAINDER IN dbs2 EXTENT SIZE 32 LOCK MODE PAGE",
     "ids_sqs_0509: fragments then extents then LOCK MODE, as dbschema prints them"),
]


@pytest.mark.parametrize(("options", "page"), ACCEPTED_TABLES)
def test_create_table_storage_is_accepted(cur: ifxwire.Cursor, options: str, page: str) -> None:
    cur.execute(f"CREATE TABLE st (a INT, b CHAR(10)) {options}")
    try:
        cur.execute("INSERT INTO st VALUES (150, 'x')")  # any row has a home
        assert _rows(cur, "SELECT a, b FROM st") == [(150, "x")], page
    finally:
        cur.execute("DROP TABLE st")


REFUSED_TABLES = [
    ("FRAGMENT BY RANGE (a) INTERVAL (100) STORE IN (dbs1) PARTITION p0 VALUES < 0 IN dbs1",
     "ids_sqs_0513 RANGE INTERVAL: creates fragments, NULL keys need a NULL fragment"),
    ("LOCK MODE TABLE", "ids_sqs_0538: table-level lock mode is not built"),
]


@pytest.mark.parametrize(("options", "page"), REFUSED_TABLES)
def test_create_table_storage_that_changes_behaviour_is_999(
        cur: ifxwire.Cursor, options: str, page: str) -> None:
    assert _code(cur, f"CREATE TABLE st (a INT) {options}") == -999, page
    assert _rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'st'") == [(0,)]


def test_temp_table_storage_is_accepted(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0509 / CREATE TEMP TABLE: the same storage options, with WITH NO LOG."""
    cur.execute("CREATE TEMP TABLE tt5 (a INT) WITH NO LOG FRAGMENT BY ROUND ROBIN IN t1, t2")
    cur.execute("CREATE TEMP TABLE tt6 (a INT) FRAGMENT BY EXPRESSION a < 1 IN t1, "
                "REMAINDER IN t2 WITH NO LOG")
    cur.execute("CREATE INDEX tt5_i ON tt5 (a) IN t1")
    cur.execute("INSERT INTO tt6 VALUES (5)")
    assert _rows(cur, "SELECT a FROM tt6") == [(5,)]
    cur.execute("DROP TABLE tt5")
    cur.execute("DROP TABLE tt6")


def test_extent_and_lock_mode_reach_systables(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0509 / Guide to SQL: Reference systables: fextsize, nextsize, locklevel."""
    cur.execute("CREATE TABLE ext1 (a INT) IN rootdbs EXTENT SIZE 16 NEXT SIZE 32 "
                "LOCK MODE ROW")
    assert _rows(cur, "SELECT fextsize, nextsize, locklevel, tabtype FROM systables "
                      "WHERE tabname = 'ext1'") == [(16, 32, "R", "T")]
    cur.execute("CREATE TABLE ext2 (a INT) NEXT SIZE 64")
    assert _rows(cur, "SELECT fextsize, nextsize FROM systables WHERE tabname = 'ext2'") == [
        (16, 64)]  # the size not given keeps the default this server shows (16)
    cur.execute("DROP TABLE ext1")
    cur.execute("DROP TABLE ext2")


def test_create_table_as_select(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0509 "AS SELECT clause" (14.10): columns and rows of the query; a column list
    renames them."""
    cur.execute("CREATE TABLE src (a INT, b CHAR(4))")
    cur.execute("INSERT INTO src VALUES (1, 'one')")
    cur.execute("CREATE TABLE cp1 AS SELECT * FROM src")
    cur.execute("CREATE TABLE cp2 (x, y) AS SELECT a, b FROM src")
    assert _rows(cur, "SELECT x, y FROM cp2") == [(1, "one")]
    assert _rows(cur, "SELECT c.colname FROM syscolumns c, systables t WHERE c.tabid = "
                      "t.tabid AND t.tabname = 'cp1' ORDER BY colno") == [("a",), ("b",)]
    # Storage options and LOCK MODE sit between the column list and AS (ids_sqs_0403)
    cur.execute("CREATE TABLE cp3 IN rootdbs EXTENT SIZE 32 LOCK MODE ROW AS SELECT * FROM src")
    cur.execute("CREATE RAW TABLE cp4 FRAGMENT BY ROUND ROBIN IN dbs1, dbs2 AS SELECT b "
                "FROM src")
    cur.execute("CREATE STANDARD TABLE IF NOT EXISTS cp3 AS SELECT b FROM src")
    assert _rows(cur, "SELECT tabname, locklevel, fextsize FROM systables WHERE tabname IN "
                      "('cp3', 'cp4') ORDER BY 1") == [("cp3", "R", 32), ("cp4", "P", 16)]
    assert _rows(cur, "SELECT * FROM cp3") == [(1, "one")]
    # column::target_data_type casts a column: not built, so -999 rather than another type
    assert _code(cur, "CREATE TABLE cp5 (x, y::CHAR(20)) AS SELECT a, b FROM src") == -999
    # the AS SELECT syntax has no WITH [NO] DATA (ids_sqs_0403's diagram ends at SELECT)
    assert _code(cur, "CREATE TABLE cp6 AS SELECT * FROM src WITH NO DATA") == -201
    for t in ("cp1", "cp2", "cp3", "cp4", "src"):
        cur.execute(f"DROP TABLE {t}")


def test_if_not_exists_and_if_exists(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0509 / ids_sqs_0725: IF NOT EXISTS / IF EXISTS take no action instead of -310
    / -206."""
    cur.execute("CREATE TABLE ine (a INT)")
    cur.execute("CREATE TABLE IF NOT EXISTS ine (b CHAR(1))")
    assert _rows(cur, "SELECT COUNT(*) FROM syscolumns WHERE tabid = "
                      "(SELECT tabid FROM systables WHERE tabname = 'ine')") == [(1,)]
    assert _code(cur, "CREATE TABLE ine (a INT)") == -310
    cur.execute("DROP TABLE ine")
    cur.execute("DROP TABLE IF EXISTS ine")
    assert _code(cur, "DROP TABLE ine") == -206
    cur.execute("DROP INDEX IF EXISTS no_such_index")
    cur.execute("DROP VIEW IF EXISTS no_such_view")
    cur.execute("DROP SEQUENCE IF EXISTS no_such_seq")
    cur.execute("DROP SYNONYM IF EXISTS no_such_syn")


# ---- CREATE INDEX (ids_sqs_0399 and its Storage options ids_sqs_0419) ----------------------
def test_create_index_options_and_sysindexes(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0399: ASC/DESC per column (a DESC column is a negative partN in sysindexes),
    UNIQUE/DISTINCT give idxtype 'U', CLUSTER gives clustered 'C'; USING btree, FILLFACTOR,
    IN dbspace, ONLINE, COMPRESSED, EXTENT SIZE (ids_sqs_1939) and index FRAGMENT BY
    (ids_sqs_0426) place the index only."""
    cur.execute("CREATE TABLE ix (a INT, b CHAR(10), c INT)")
    cur.execute("CREATE INDEX ix1 ON ix (a ASC, b DESC) USING btree FILLFACTOR 80 IN dbs1")
    cur.execute("CREATE UNIQUE CLUSTER INDEX ix2 ON ix (b) ONLINE")
    cur.execute("CREATE DISTINCT INDEX ix3 ON ix (c) COMPRESSED")
    cur.execute("CREATE INDEX ix4 ON ix (a, c) EXTENT SIZE 32 NEXT SIZE 32")
    cur.execute("CREATE INDEX ix5 ON ix (c, a) FRAGMENT BY EXPRESSION c < 10 IN dbs1, "
                "REMAINDER IN dbs2")
    cur.execute("CREATE INDEX IF NOT EXISTS ix1 ON ix (c)")
    cur.execute("CREATE INDEX ix7 ON ix (b, c) IN TABLE")  # ids_sqs_0425 (deprecated form)
    cur.execute("DROP INDEX ix7")
    rows = _rows(cur, "SELECT idxname, idxtype, clustered, part1, part2 FROM sysindexes "
                      f"WHERE tabid = {_tab(cur, 'ix')} ORDER BY idxname")
    assert rows == [("ix1", "D", "", 1, -2), ("ix2", "U", "C", 2, 0), ("ix3", "U", "", 3, 0),
                    ("ix4", "D", "", 1, 3), ("ix5", "D", "", 3, 1)]
    assert _rows(cur, "SELECT idxname, fextsize, nextsize FROM sysindices WHERE idxname IN "
                      "('ix3', 'ix4') ORDER BY 1") == [("ix3", 0, 0), ("ix4", 32, 32)]
    cur.execute("INSERT INTO ix VALUES (1, 'k', 5)")
    assert _code(cur, "INSERT INTO ix VALUES (2, 'k', 6)") == -239  # ix2 is unique
    # no REMAINDER: the row (1, 'k', 5) has a key no fragment takes (test_manual_fragments)
    assert _code(cur, "CREATE INDEX ix6 ON ix (a) FRAGMENT BY EXPRESSION a > 10 IN dbs1") \
        == -772
    # -542: "Cannot specify a column more than once in a constraint, trigger, or index."
    # (the JDBC jar's message catalogue, 15.0.0.1)
    assert _code(cur, "CREATE INDEX ix8 ON ix (a, b, a)") == -542
    cur.execute("DROP INDEX ix1 ONLINE")  # ids_sqs_0715
    cur.execute("DROP TABLE ix")


# ---- RENAME (ids_sqs_1132 column, ids_sqs_1134 index, ids_sqs_1136 sequence, 1137 table) -----
def test_renames_reach_the_catalogue(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE rn (a INT, b INT)")
    cur.execute("CREATE INDEX rn_i ON rn (a)")
    cur.execute("CREATE SEQUENCE rn_q")
    cur.execute("RENAME TABLE rn TO rn2")
    cur.execute("RENAME COLUMN rn2.b TO bb")
    cur.execute("RENAME INDEX rn_i TO rn_j")
    cur.execute("RENAME SEQUENCE rn_q TO rn_r")
    tabid = _tab(cur, "rn2")
    assert _rows(cur, f"SELECT colname FROM syscolumns WHERE tabid = {tabid} ORDER BY colno") \
        == [("a",), ("bb",)]
    assert _rows(cur, f"SELECT idxname FROM sysindexes WHERE tabid = {tabid}") == [("rn_j",)]
    assert _rows(cur, "SELECT tabname, tabtype FROM systables WHERE tabname IN "
                      "('rn_q', 'rn_r', 'rn')") == [("rn_r", "Q")]
    assert _code(cur, "RENAME TABLE rn TO rn3") == -206
    cur.execute("DROP SEQUENCE rn_r")
    cur.execute("DROP TABLE rn2")


# ---- ALTER SEQUENCE (ids_sqs_2020) ---------------------------------------------------------
def test_alter_sequence_reaches_syssequences(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE SEQUENCE sq INCREMENT BY 2 START WITH 10")
    cur.execute("ALTER SEQUENCE sq INCREMENT BY 5 RESTART WITH 100 MAXVALUE 1000 CYCLE "
                "CACHE 10 ORDER")
    assert _rows(cur, "SELECT inc_val, max_val, cycle, cache, order FROM syssequences "
                      f"WHERE tabid = {_tab(cur, 'sq')}") == [(5, 1000, "1", 10, "1")]
    assert _rows(cur, "SELECT sq.NEXTVAL, sq.NEXTVAL FROM systables WHERE tabid = 1") in (
        [(100, 100)], [(100, 105)])
    cur.execute("ALTER SEQUENCE sq NOMAXVALUE NOCYCLE NOCACHE NOORDER")
    assert _rows(cur, "SELECT cycle, cache FROM syssequences "
                      f"WHERE tabid = {_tab(cur, 'sq')}") == [("0", 0)]
    cur.execute("DROP SEQUENCE sq")
    assert _code(cur, "DROP SEQUENCE sq") == -8300  # fifteenth round (was -206)


# ---- TRUNCATE (ids_sqs_1236, The STORAGE specification ids_sqs_1239) -----------------------
@pytest.mark.parametrize("form", ["TRUNCATE tr", "TRUNCATE TABLE tr",
                                  "TRUNCATE TABLE tr REUSE STORAGE",
                                  "TRUNCATE TABLE tr DROP STORAGE",
                                  "TRUNCATE TABLE tr KEEP STATISTICS",
                                  "TRUNCATE TABLE 'informix'.tr REUSE STORAGE KEEP STATISTICS"])
def test_truncate_forms(cur: ifxwire.Cursor, form: str) -> None:
    cur.execute("CREATE TABLE tr (a INT)")
    cur.execute("INSERT INTO tr VALUES (1)")
    cur.execute(form)
    assert _rows(cur, "SELECT COUNT(*) FROM tr") == [(0,)]
    cur.execute("DROP TABLE tr")


def test_truncate_missing_table_is_206(cur: ifxwire.Cursor) -> None:
    assert _code(cur, "TRUNCATE TABLE no_such_table") == -206  # ids_sqs_1236: must exist


# ---- SYNONYM (ids_sqs_0451 CREATE SYNONYM, ids_sqs_0736 DROP SYNONYM) ---------------------
def test_synonyms_public_private(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0451: PUBLIC is the default outside ANSI databases (systables.tabtype 'S'),
    PRIVATE gives 'P'; syssyntable points at the table."""
    cur.execute("CREATE TABLE syt (a INT)")
    cur.execute("CREATE SYNONYM syn1 FOR syt")
    cur.execute("CREATE PUBLIC SYNONYM syn2 FOR syt")
    cur.execute("CREATE PRIVATE SYNONYM syn3 FOR syt")
    cur.execute("CREATE SYNONYM IF NOT EXISTS syn1 FOR syt")
    assert _rows(cur, "SELECT tabname, tabtype FROM systables WHERE tabname LIKE 'syn_' "
                      "ORDER BY tabname") == [("syn1", "S"), ("syn2", "S"), ("syn3", "P")]
    assert _rows(cur, "SELECT s.btabid FROM syssyntable s, systables t WHERE s.tabid = "
                      "t.tabid AND t.tabname = 'syn2'") == [(_tab(cur, "syt"),)]
    cur.execute("INSERT INTO syn3 VALUES (7)")
    assert _rows(cur, "SELECT a FROM syn1") == [(7,)]
    for s in ("syn1", "syn2", "syn3"):
        cur.execute(f"DROP SYNONYM {s}")
    assert _code(cur, "DROP SYNONYM syn1") == -206
    cur.execute("DROP TABLE syt")


# ---- ROLE (ids_sqs_0437 CREATE ROLE, ids_sqs_1090 SET ROLE, GRANT role ids_sqs_0795) -------
def test_roles(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE ROLE r5")
    cur.execute("CREATE ROLE IF NOT EXISTS r5")
    assert _code(cur, "CREATE ROLE r5") == -19800
    assert _rows(cur, "SELECT usertype FROM sysusers WHERE username = 'r5'") == [("G",)]
    cur.execute("GRANT r5 TO bob WITH GRANT OPTION")
    assert _rows(cur, "SELECT rolename, grantee, is_grantable FROM sysroleauth "
                      "WHERE rolename = 'r5'") == [("r5", "bob", "Y")]
    assert _code(cur, "SET ROLE r5") == -19805  # informix was not granted r5
    cur.execute("GRANT r5 TO informix")
    cur.execute("SET ROLE r5")
    cur.execute("SET ROLE NONE")
    cur.execute("SET ROLE DEFAULT")
    cur.execute("REVOKE r5 FROM bob")
    cur.execute("REVOKE r5 FROM informix")
    cur.execute("DROP ROLE r5")
    cur.execute("DROP ROLE IF EXISTS r5")
    assert _rows(cur, "SELECT COUNT(*) FROM sysroleauth WHERE rolename = 'r5'") == [(0,)]


# ---- GRANT / REVOKE (ids_sqs_0795 GRANT, ids_sqs_1097 REVOKE) ------------------------------
def test_table_and_column_privileges(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0795: a column-level UPDATE shows as '*' in systabauth and a row of
    syscolauth; WITH GRANT OPTION gives upper-case letters; AS grantor names the grantor."""
    cur.execute("CREATE TABLE gr (a INT, b INT)")
    tabid = _tab(cur, "gr")
    cur.execute("GRANT SELECT, UPDATE (a) ON gr TO bob AS informix")
    cur.execute("GRANT ALL ON gr TO carol WITH GRANT OPTION")
    cur.execute("GRANT REFERENCES (b) ON gr TO dave")
    rows = dict((g, a) for g, a in _rows(
        cur, f"SELECT grantee, tabauth FROM systabauth WHERE tabid = {tabid}"))
    assert rows["bob"].startswith("s-*")
    assert rows["carol"].startswith("SU-IDXA")
    assert _rows(cur, f"SELECT grantor, grantee, colno, colauth FROM syscolauth WHERE tabid = "
                      f"{tabid} AND grantee = 'bob'") == [("informix", "bob", 1, "-u-")]
    cur.execute("GRANT DELETE ON gr TO frank AS carol")  # AS grantor: carol grants
    assert _rows(cur, f"SELECT grantor FROM systabauth WHERE tabid = {tabid} AND "
                      "grantee = 'frank'") == [("carol",)]
    cur.execute("REVOKE DELETE ON gr FROM frank AS carol")
    assert _rows(cur, f"SELECT COUNT(*) FROM systabauth WHERE tabid = {tabid} AND "
                      "grantee = 'frank'") == [(0,)]
    cur.execute("REVOKE SELECT ON gr FROM bob CASCADE")
    cur.execute("REVOKE ALL ON gr FROM carol RESTRICT")
    assert _rows(cur, f"SELECT COUNT(*) FROM systabauth WHERE tabid = {tabid} AND "
                      "grantee = 'carol'") == [(0,)]
    cur.execute("DROP TABLE gr")


def test_database_privileges(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0795 Database-Level Privileges: sysusers.usertype C / R / D."""
    for level, code in (("CONNECT", "C"), ("RESOURCE", "R"), ("DBA", "D")):
        cur.execute(f"GRANT {level} TO eve")
        assert _rows(cur, "SELECT usertype FROM sysusers WHERE username = 'eve'") == [(code,)]
    cur.execute("REVOKE DBA FROM eve")


def test_routine_privilege_needs_the_routine(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0795 Routine-Level Privileges: the routine must exist (-674)."""
    assert _code(cur, "GRANT EXECUTE ON PROCEDURE no_such_proc TO bob") == -674


# ---- UPDATE STATISTICS (ids_sqs_1203) ------------------------------------------------------
@pytest.mark.parametrize("form", [
    "UPDATE STATISTICS", "UPDATE STATISTICS LOW", "UPDATE STATISTICS LOW FOR TABLE us",
    "UPDATE STATISTICS MEDIUM FOR TABLE us (a) RESOLUTION 1 0.95",
    "UPDATE STATISTICS HIGH FOR TABLE us (a) RESOLUTION 0.5 DISTRIBUTIONS ONLY",
    "UPDATE STATISTICS LOW FOR TABLE us DROP DISTRIBUTIONS",
    "UPDATE STATISTICS FOR TABLE", "UPDATE STATISTICS FOR PROCEDURE",
    "UPDATE STATISTICS FOR ROUTINE"])
def test_update_statistics_forms(cur: ifxwire.Cursor, form: str) -> None:
    cur.execute("CREATE TABLE IF NOT EXISTS us (a INT)")
    cur.execute(form)


def test_update_statistics_of_a_missing_table_is_206(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1203: the table "must exist in the database"."""
    assert _code(cur, "UPDATE STATISTICS HIGH FOR TABLE no_such_table") == -206


# ---- Session SET statements: accepted, no effect on results --------------------------------
SETS = [
    "SET EXPLAIN ON", "SET EXPLAIN OFF", "SET EXPLAIN ON AVOID_EXECUTE",
    "SET EXPLAIN FILE TO '/tmp/ddl5_explain.out'",  # ids_sqs_1045 (the file is not written)
    "SET PDQPRIORITY 50", "SET PDQPRIORITY HIGH", "SET PDQPRIORITY DEFAULT",  # ids_sqs_1078
    "SET OPTIMIZATION HIGH", "SET OPTIMIZATION LOW", "SET OPTIMIZATION FIRST_ROWS",
    "SET OPTIMIZATION ALL_ROWS",  # ids_sqs_1076
    "SET ENVIRONMENT OPTCOMPIND '2'", "SET ENVIRONMENT IFX_AUTO_REPREPARE '1'",  # ids_sqs_1842
    "SET DATASKIP ON", "SET DATASKIP ON dbs1, dbs2", "SET DATASKIP DEFAULT",  # ids_sqs_1036
    "SET DEFERRED_PREPARE ENABLED", "SET DEFERRED_PREPARE DISABLED",  # ids_sqs_1040
    "SET STATEMENT CACHE ON", "SET STATEMENT CACHE OFF",  # ids_sqs_1109
]


@pytest.mark.parametrize("stmt", SETS)
def test_session_set_statements(cur: ifxwire.Cursor, stmt: str) -> None:
    cur.execute(stmt)
    assert _rows(cur, "SELECT COUNT(*) FROM systables WHERE tabid = 1") == [(1,)]


# ---- CREATE / DROP DATABASE (ids_sqs_0368, ids_sqs_0713) -----------------------------------
def test_create_and_drop_database_forms(connect_kwargs: dict[str, Any]) -> None:
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    cur = conn.cursor()
    try:
        cur.execute("CREATE DATABASE d5a IN rootdbs WITH BUFFERED LOG")
        cur.execute("CREATE DATABASE d5b WITH LOG MODE ANSI")
        cur.execute("CREATE DATABASE d5c WITH LOG NLSCASE INSENSITIVE")
        cur.execute("CREATE DATABASE IF NOT EXISTS d5a")  # 0368: no action, no -330
        assert _rows(cur, "SELECT DBINFO('dbname') FROM systables WHERE tabid = 1") == [
            ("d5c",)]  # the current database stays the last one created
        assert _code(cur, "CREATE DATABASE d5a") == -330
        cur.execute("CLOSE DATABASE")
        rows = _rows(cur, "SELECT name, is_logging, is_buff_log, is_ansi FROM "
                          "sysmaster:sysdatabases WHERE name IN ('d5a', 'd5b') ORDER BY name")
        assert rows == [("d5a", 1, 1, 0), ("d5b", 1, 0, 1)]
        for name in ("d5a", "d5b", "d5c"):
            cur.execute(f"DROP DATABASE {name}")
        cur.execute("DROP DATABASE IF EXISTS d5a")  # 0713's own example form
        assert _code(cur, "DROP DATABASE d5a") == -329
    finally:
        conn.close()


# ---- a dbschema-shaped script with storage clauses replays unchanged -----------------------
def test_fragmented_dbschema_replays(connect_kwargs: dict[str, Any]) -> None:
    from .loader import CORPUS, run_script

    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    cur = conn.cursor()
    try:
        cur.execute("CREATE DATABASE fragdb WITH LOG")
        assert run_script(conn, CORPUS / "dbschema" / "fragmented_dbschema.sql") == 9
        assert _rows(cur, "SELECT tabname, fextsize, nextsize, locklevel FROM systables WHERE "
                          "tabname IN ('events', 'audit_log', 'codes') ORDER BY 1") == [
            ("audit_log", 16, 16, "P"), ("codes", 16, 16, "R"), ("events", 64, 32, "R")]
        # every row has a home: the list and expression schemes have a remainder
        cur.execute("INSERT INTO events VALUES (1, 'NE', TODAY)")
        cur.execute("INSERT INTO events VALUES (2, 'XX', NULL)")
        cur.execute("INSERT INTO codes VALUES (NULL, 'n')")
        cur.execute("INSERT INTO codes VALUES (99, 'x')")
        assert _rows(cur, "SELECT COUNT(*) FROM events WHERE region = 'XX'") == [(1,)]
        assert _rows(cur, "SELECT part1, part2 FROM sysindexes WHERE idxname = "
                          "'ix_events_logged'") == [(-3, 2)]
        # one row per fragment (test_manual_fragments checks their columns); LIST adds its key
        assert _rows(cur, "SELECT t.tabname, COUNT(*) FROM sysfragments f, systables t WHERE "
                          "f.tabid = t.tabid GROUP BY 1 ORDER BY 1") == [
            ("audit_log", 2), ("codes", 4), ("events", 5)]
        cur.execute("DATABASE sysmaster")
        cur.execute("DROP DATABASE fragdb")
    finally:
        conn.close()
