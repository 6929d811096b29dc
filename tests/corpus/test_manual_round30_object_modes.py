"""Object modes, thirtieth round (issue 23, fidelity45): what the twenty-eighth round left
different from IBM's pages; through the real driver and the embedded server over sockets.

Pages (HCL Informix 14.10 / OneDB): Guide to SQL: Syntax, "Disabled Mode" (ids_sqs_1102),
"Adding a Constraint That Existing Rows Violate" (ids_sqs_0319), "Relationship to the SET
Database Object Mode statement" (ids_sqs_1212), "Structure of the violations table"
(ids_sqs_1221: optype S), "Using the MAX ROWS clause" (ids_sqs_1216), "Using the Violations
Table" (ids_sqs_1228), "Using the Diagnostics Table" (ids_sqs_1232), "Tables That Cannot Be
Dropped" (ids_sqs_0741), "Example of Dropping the Violations and Diagnostics Tables"
(ids_sqs_1235); Reference, SYSVIOLATIONS (ids_sqr_079); Administrator's Reference messages
"Cannot modify/drop a violations/diagnostics table." (ids_adr_0826, -897), "Cannot alter a
table which has associated violations table." (ids_adr_0760, -898), "Too many violations."
(ids_adr_0821, -899). Second pass (fidelity47): "Violations and diagnostics tables"
(ids_sqt_269), "Initial Privileges on the Violations Table" (ids_sqs_1226), "Cannot insert
from the violations table to the target table." (ids_adr_0815, -973). The statements are
ours. Each case failed before its round.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    """A fresh database with a table of three named objects: NOT NULL n30_lname, CHECK
    c30_ssn and the unique index u30_ssn, and one row that satisfies them."""
    with fresh_database(connect_kwargs, "omodes30") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE cust30 (ssn INTEGER, fname CHAR(15), "
                  "lname CHAR(15) NOT NULL CONSTRAINT n30_lname, city CHAR(15), "
                  "CHECK (ssn > 0) CONSTRAINT c30_ssn)")
        c.execute("CREATE UNIQUE INDEX u30_ssn ON cust30 (ssn)")
        c.execute("INSERT INTO cust30 VALUES (100, 'Ann', 'Lee', 'Boston')")
        yield c


def _state(cur: ifxwire.Cursor, name: str) -> str:
    return str(rows(cur, "SELECT state FROM sysobjstate WHERE name = ?", (name,))[0][0])


def _user(cur: ifxwire.Cursor) -> str:
    return str(rows(cur, "SELECT USER FROM systables WHERE tabid = 1", strip=True)[0][0])


def test_disabled_not_null_constraint_is_not_enforced(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1102 (Disabled Mode): "A disabled constraint is not enforced"; a NOT NULL
    constraint disabled by its name or with the table's constraints takes a NULL."""
    cur.execute("SET CONSTRAINTS n30_lname DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (101, 'Bo', NULL, 'Denver')")
    assert cur.rowcount == 1
    cur.execute("DELETE FROM cust30 WHERE lname IS NULL")
    cur.execute("SET CONSTRAINTS n30_lname ENABLED")
    assert sqlcode(cur, "INSERT INTO cust30 VALUES (102, 'Cy', NULL, 'Reno')",
                   fetch=False) == -391
    cur.execute("SET CONSTRAINTS FOR cust30 DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (-3, 'Di', NULL, 'Troy')")
    assert rows(cur, "SELECT ssn FROM cust30 WHERE lname IS NULL") == [(-3,)]


def test_disabled_unique_constraint_is_not_enforced(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1102 again: a disabled unique constraint takes duplicates ("any data
    manipulation statement that violates the restriction of the constraint or unique index
    succeeds"); enabling it over them fails (-371, as building its unique index does:
    inferred) and, with a violations table, copies both rows and fails -971 (ids_sqs_0319)."""
    cur.execute("ALTER TABLE cust30 ADD CONSTRAINT UNIQUE (fname) CONSTRAINT u30_fname")
    cur.execute("SET CONSTRAINTS u30_fname DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (101, 'Ann', 'Ray', 'Denver')")
    assert rows(cur, "SELECT COUNT(*) FROM cust30 WHERE fname = 'Ann'") == [(2,)]
    assert sqlcode(cur, "SET CONSTRAINTS u30_fname ENABLED", fetch=False) == -371
    assert _state(cur, "u30_fname") == "D"
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    assert sqlcode(cur, "SET CONSTRAINTS u30_fname ENABLED", fetch=False) == -971
    assert rows(cur, "SELECT ssn, informix_optype FROM cust30_vio ORDER BY 1") == [
        (100, "S"), (101, "S")]
    cur.execute("DELETE FROM cust30 WHERE ssn = 101")
    cur.execute("SET CONSTRAINTS u30_fname ENABLED")
    assert sqlcode(cur, "INSERT INTO cust30 VALUES (102, 'Ann', 'Ito', 'Reno')",
                   fetch=False) == -268


def test_enabling_over_bad_rows_without_violations_table(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1212: without a started violations table the rows that break a constraint
    being enabled are not filtered out; the statement fails as an enabled constraint fails
    (the constraint's own error, -391 for NOT NULL: inferred) and the constraint stays
    disabled."""
    cur.execute("SET CONSTRAINTS n30_lname DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (101, 'Bo', NULL, 'Denver')")
    assert sqlcode(cur, "SET CONSTRAINTS n30_lname ENABLED", fetch=False) == -391
    assert _state(cur, "n30_lname") == "D"
    cur.execute("INSERT INTO cust30 VALUES (102, 'Cy', NULL, 'Reno')")  # still disabled


def test_enabling_over_bad_rows_copies_them_and_fails_971(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0319 step 3: with a violations table started, enabling a constraint that
    existing rows break duplicates those rows in the violations table, returns the
    integrity-violation error (-971) and leaves the constraint disabled; optype S is "SET
    Database Object Mode" (ids_sqs_1221); one diagnostics row per row (ids_sqs_1225). Once
    the rows are fixed the same statement enables it (step 6)."""
    cur.execute("SET CONSTRAINTS n30_lname DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (101, 'Bo', NULL, 'Denver')")
    cur.execute("INSERT INTO cust30 VALUES (102, 'Cy', NULL, 'Reno')")
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    assert sqlcode(cur, "SET CONSTRAINTS n30_lname ENABLED", fetch=False) == -971
    assert _state(cur, "n30_lname") == "D"
    user = _user(cur)
    assert rows(cur, "SELECT ssn, lname, informix_tupleid, informix_optype, "
                     "informix_recowner FROM cust30_vio ORDER BY ssn", strip=True) == [
        (101, None, 1, "S", user), (102, None, 2, "S", user)]
    assert rows(cur, "SELECT informix_tupleid, objtype, objowner, objname FROM cust30_dia "
                     "ORDER BY 1", strip=True) == [
        (1, "C", user, "n30_lname"), (2, "C", user, "n30_lname")]
    assert rows(cur, "SELECT COUNT(*) FROM cust30") == [(3,)]  # the rows stay
    cur.execute("UPDATE cust30 SET lname = 'Fixed' WHERE lname IS NULL")
    cur.execute("SET CONSTRAINTS n30_lname ENABLED")
    assert _state(cur, "n30_lname") == "E"
    assert rows(cur, "SELECT COUNT(*) FROM cust30_vio") == [(2,)]


def test_enabling_in_a_transaction_keeps_the_copies(connect_kwargs: dict[str, Any]) -> None:
    """The same inside a transaction (ids_sqs_0319): the -971 statement's copies stay in
    the transaction and are committed with it (inferred: the page has the user SELECT
    them after the error)."""
    with fresh_database(connect_kwargs, "omodes30t") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t30 (a INTEGER, CHECK (a > 0) CONSTRAINT c30_a DISABLED)")
        c.execute("INSERT INTO t30 VALUES (-1)")
        c.execute("START VIOLATIONS TABLE FOR t30")
        c.execute("BEGIN WORK")
        assert sqlcode(c, "SET CONSTRAINTS c30_a ENABLED", fetch=False) == -971
        c.execute("COMMIT WORK")
        assert rows(c, "SELECT a, informix_optype FROM t30_vio") == [(-1, "S")]
        assert rows(c, "SELECT objtype, objname FROM t30_dia", strip=True) == [
            ("C", "c30_a")]


def test_filtering_a_disabled_object_over_bad_rows(cur: ifxwire.Cursor) -> None:
    """ids_sqr_079: the MAX ROWS limit also counts "a single operation that enables a
    disabled object or that sets a disabled object to filtering mode", so FILTERING copies
    the rows as ENABLED does (ids_sqs_0319); a check constraint and a unique index here
    (which of two duplicate rows are copied: both, inferred)."""
    cur.execute("SET CONSTRAINTS c30_ssn DISABLED")
    cur.execute("SET INDEXES u30_ssn DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (-7, 'Bo', 'Ray', 'Denver')")
    cur.execute("INSERT INTO cust30 VALUES (100, 'Cy', 'Ito', 'Reno')")
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    assert sqlcode(cur, "SET CONSTRAINTS c30_ssn FILTERING", fetch=False) == -971
    assert _state(cur, "c30_ssn") == "D"
    assert rows(cur, "SELECT ssn, informix_optype FROM cust30_vio") == [(-7, "S")]
    assert sqlcode(cur, "SET INDEXES u30_ssn ENABLED", fetch=False) == -971
    assert _state(cur, "u30_ssn") == "D"
    assert rows(cur, "SELECT v.fname, d.objtype, d.objname FROM cust30_vio v, cust30_dia d "
                     "WHERE v.informix_tupleid = d.informix_tupleid AND v.ssn = 100 "
                     "ORDER BY 1", strip=True) == [("Ann", "I", "u30_ssn"),
                                                   ("Cy", "I", "u30_ssn")]


def test_max_rows_limits_one_statement(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1216 / ids_sqs_1232: MAX ROWS is the number of diagnostics rows one
    statement on the target table may write; more is -899 "Too many violations."
    (ids_adr_0821), and the statement is undone. The limit is per statement, not a total."""
    cur.execute("START VIOLATIONS TABLE FOR cust30 MAX ROWS 1")
    cur.execute("SET CONSTRAINTS n30_lname FILTERING")
    cur.execute("CREATE TEMP TABLE batch (ssn INTEGER, fname CHAR(15), lname CHAR(15), "
                "city CHAR(15))")
    cur.execute("INSERT INTO batch VALUES (201, 'Bo', NULL, 'Denver')")
    cur.execute("INSERT INTO batch VALUES (202, 'Cy', NULL, 'Reno')")
    cur.execute("INSERT INTO batch VALUES (203, 'Di', 'Ok', 'Troy')")
    assert sqlcode(cur, "INSERT INTO cust30 SELECT * FROM batch", fetch=False) == -899
    assert rows(cur, "SELECT COUNT(*) FROM cust30") == [(1,)]
    assert rows(cur, "SELECT COUNT(*) FROM cust30_vio") == [(0,)]
    cur.execute("INSERT INTO cust30 SELECT * FROM batch WHERE ssn <> 202")
    assert cur.rowcount == 1
    cur.execute("INSERT INTO cust30 VALUES (204, 'Ed', NULL, 'Ames')")
    assert cur.rowcount == 0
    assert rows(cur, "SELECT ssn FROM cust30_vio ORDER BY 1") == [(201,), (204,)]
    # one row that breaks two filtering objects writes two diagnostics rows
    cur.execute("SET INDEXES u30_ssn FILTERING")
    assert sqlcode(cur, "INSERT INTO cust30 VALUES (100, 'Fay', NULL, 'Bath')",
                   fetch=False) == -899


def test_max_rows_when_enabling(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1232 names SET Database Object Mode among the statements MAX ROWS limits
    (and ids_sqr_079 "an operation that enables a disabled object"): over the limit it is
    -899 rather than -971, and nothing is copied (inferred: the statement is undone, as an
    INSERT over the limit)."""
    cur.execute("SET CONSTRAINTS n30_lname DISABLED")
    cur.execute("INSERT INTO cust30 VALUES (101, 'Bo', NULL, 'Denver')")
    cur.execute("INSERT INTO cust30 VALUES (102, 'Cy', NULL, 'Reno')")
    cur.execute("START VIOLATIONS TABLE FOR cust30 MAX ROWS 1")
    assert sqlcode(cur, "SET CONSTRAINTS n30_lname ENABLED", fetch=False) == -899
    assert rows(cur, "SELECT COUNT(*) FROM cust30_vio") == [(0,)]
    assert _state(cur, "n30_lname") == "D"


def test_violations_and_diagnostics_tables_cannot_be_dropped_or_altered(
        cur: ifxwire.Cursor) -> None:
    """ids_sqs_0741: "You cannot drop a violations table or a diagnostics table" before STOP
    VIOLATIONS TABLE; ids_sqs_1228 / ids_sqs_1232: ALTER TABLE cannot add, modify or drop
    columns of the target, violations or diagnostics table. -897 "Cannot modify/drop a
    violations/diagnostics table." for the two (ids_adr_0826: alter or drop), -898 "Cannot
    alter a table which has associated violations/diagnostics tables." for the target's
    columns (ids_adr_0760). The target's constraints may still change (ids_sqt_269)."""
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    for sql in ("DROP TABLE cust30_vio", "DROP TABLE cust30_dia",
                "ALTER TABLE cust30_vio ADD (note CHAR(10))",
                "ALTER TABLE cust30_dia DROP objowner",
                "ALTER TABLE cust30_vio ADD CONSTRAINT UNIQUE (ssn)"):
        assert sqlcode(cur, sql, fetch=False) == -897, sql
    for sql in ("ALTER TABLE cust30 ADD (note CHAR(10))", "ALTER TABLE cust30 DROP city",
                "ALTER TABLE cust30 MODIFY (city CHAR(20))"):
        assert sqlcode(cur, sql, fetch=False) == -898, sql
    cur.execute("ALTER TABLE cust30 ADD CONSTRAINT UNIQUE (fname) CONSTRAINT u30_fname")
    assert rows(cur, "SELECT COUNT(*) FROM sysviolations") == [(1,)]
    cur.execute("STOP VIOLATIONS TABLE FOR cust30")
    cur.execute("ALTER TABLE cust30 ADD (note CHAR(10))")
    cur.execute("ALTER TABLE cust30_vio ADD (note CHAR(10))")
    cur.execute("DROP TABLE cust30_vio")
    cur.execute("DROP TABLE cust30_dia")


def test_drop_target_drops_its_violations_tables(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1228 / ids_sqs_1232 / ids_sqs_1235: dropping the target table in cascade mode
    (the default) drops its violations and diagnostics tables too (and its sysviolations
    row); in restricted mode the DROP fails because they exist (the code is not given:
    ours)."""
    cur.execute("START VIOLATIONS TABLE FOR cust30 USING bad30, why30")
    with pytest.raises(ifxwire.Error):
        cur.execute("DROP TABLE cust30 RESTRICT")
    assert rows(cur, "SELECT COUNT(*) FROM sysviolations") == [(1,)]
    cur.execute("DROP TABLE cust30")
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname IN "
                     "('cust30', 'bad30', 'why30')") == [(0,)]
    assert rows(cur, "SELECT COUNT(*) FROM sysviolations") == [(0,)]


# --- fidelity47: what the thirtieth round's first pass left allowed --------------------------

def test_no_trigger_on_violations_or_diagnostics_table(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1228 (Using the Violations Table) and ids_sqs_1232 (Using the Diagnostics
    Table): "When a table functions as a violations table, it cannot have triggers or
    constraints defined on it". No code is given: -897 "Cannot modify/drop a
    violations/diagnostics table." (inferred, as an ALTER TABLE adding a constraint). The
    target may have triggers; after STOP VIOLATIONS TABLE the two tables are ordinary."""
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    for table in ("cust30_vio", "cust30_dia"):
        assert sqlcode(cur, f"CREATE TRIGGER t30_{table[-3:]} INSERT ON {table} "
                            f"FOR EACH ROW (DELETE FROM cust30 WHERE ssn = 0)",
                       fetch=False) == -897, table
    cur.execute("CREATE TRIGGER t30_cust INSERT ON cust30 FOR EACH ROW "
                "(DELETE FROM cust30_vio WHERE ssn = 0)")
    cur.execute("STOP VIOLATIONS TABLE FOR cust30")
    cur.execute("CREATE TRIGGER t30_vio INSERT ON cust30_vio FOR EACH ROW "
                "(DELETE FROM cust30 WHERE ssn = 0)")


def test_no_insert_from_the_violations_table(cur: ifxwire.Cursor) -> None:
    """ids_adr_0815, -973 "Cannot insert from the violations table to the target table."
    (the number: sqlserverf1.com's copy of the message, which says the error comes when the
    target table has filtering-mode objects); ids_sqs_1228: "If a target table has a
    filtering-mode constraint or unique index defined on it and a violations table
    associated with it, users cannot insert into the target table by selecting from the
    violations table". Through a temporary table it works (ids_adr_0815's action), and so
    does the direct INSERT once no object is filtering."""
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    cur.execute("SET CONSTRAINTS n30_lname FILTERING")
    cur.execute("INSERT INTO cust30 VALUES (101, 'Bo', NULL, 'Denver')")
    assert rows(cur, "SELECT COUNT(*) FROM cust30_vio") == [(1,)]
    cur.execute("UPDATE cust30_vio SET lname = 'Ray'")
    insert = ("INSERT INTO cust30 SELECT ssn, fname, lname, city FROM cust30_vio "
              "WHERE informix_optype = 'I'")
    assert sqlcode(cur, insert, fetch=False) == -973
    assert sqlcode(cur, "INSERT INTO cust30 SELECT ssn, fname, lname, city FROM cust30 v "
                        "WHERE EXISTS (SELECT 1 FROM cust30_vio w WHERE w.ssn = v.ssn)",
                   fetch=False) == -973
    assert rows(cur, "SELECT COUNT(*) FROM cust30") == [(1,)]
    cur.execute("SELECT ssn, fname, lname, city FROM cust30_vio INTO TEMP fix30")
    cur.execute("INSERT INTO cust30 SELECT * FROM fix30")
    assert cur.rowcount == 1
    cur.execute("DELETE FROM cust30 WHERE ssn = 101")
    cur.execute("SET CONSTRAINTS n30_lname ENABLED")
    cur.execute(insert)
    assert cur.rowcount == 1


def test_no_fragmentation_or_column_rename_under_a_violations_table(
        connect_kwargs: dict[str, Any]) -> None:
    """ids_sqt_269 (Violations and diagnostics tables): "After you create a violations table
    for a target table, you cannot alter the columns or the fragmentation of the base table
    or the violations table". ALTER FRAGMENT ON TABLE and RENAME COLUMN of the target: -898
    "Cannot alter a table which has associated violations/diagnostics tables."; of the
    violations or diagnostics table: -897 (both codes inferred: the pages give none for
    these statements; ids_adr_0760 and ids_adr_0826 are the messages of altering them).
    RENAME TABLE of the target is not forbidden (sysviolations holds tabids), of the
    violations table it is -897 (inferred: "Users cannot alter violations tables",
    ids_sqs_1226); after STOP VIOLATIONS TABLE all of it is allowed."""
    with fresh_database(connect_kwargs, "omodes30f") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE f30 (a INTEGER, b CHAR(5)) FRAGMENT BY EXPRESSION "
                  "a < 100 IN dbs1, REMAINDER IN dbs2")
        c.execute("START VIOLATIONS TABLE FOR f30")
        assert sqlcode(c, "ALTER FRAGMENT ON TABLE f30 ADD a >= 500 IN dbs3 BEFORE dbs2",
                       fetch=False) == -898
        assert sqlcode(c, "RENAME COLUMN f30.b TO bb", fetch=False) == -898
        assert sqlcode(c, "RENAME COLUMN f30_vio.b TO bb", fetch=False) == -897
        assert sqlcode(c, "RENAME COLUMN f30_dia.objname TO oname", fetch=False) == -897
        assert sqlcode(c, "ALTER FRAGMENT ON TABLE f30_vio ADD dbs3", fetch=False) == -897
        assert sqlcode(c, "RENAME TABLE f30_vio TO bad30", fetch=False) == -897
        c.execute("RENAME TABLE f30 TO g30")
        assert rows(c, "SELECT COUNT(*) FROM sysviolations s, systables t WHERE "
                       "t.tabid = s.targettid AND t.tabname = 'g30'") == [(1,)]
        c.execute("STOP VIOLATIONS TABLE FOR g30")
        c.execute("RENAME COLUMN g30.b TO bb")
        c.execute("ALTER FRAGMENT ON TABLE g30 ADD a >= 500 IN dbs3 BEFORE dbs2")


def test_no_filtering_unique_index_on_violations_or_diagnostics_table(
        cur: ifxwire.Cursor) -> None:
    """ids_sqs_1228: "Unique indexes on the violations table cannot be set to FILTERING
    database object mode"; ids_sqs_1232 the same for the diagnostics table. Indexes on them
    are allowed, ENABLED and DISABLED too. No code is given: -897 (inferred, as for the
    other changes to these tables). After STOP VIOLATIONS TABLE it is allowed."""
    cur.execute("START VIOLATIONS TABLE FOR cust30")
    cur.execute("CREATE UNIQUE INDEX u30_vio ON cust30_vio (informix_tupleid)")
    cur.execute("CREATE UNIQUE INDEX u30_dia ON cust30_dia (informix_tupleid, objname)")
    for name in ("u30_vio", "u30_dia"):
        assert sqlcode(cur, f"SET INDEXES {name} FILTERING", fetch=False) == -897, name
        assert _state(cur, name) == "E"
        cur.execute(f"SET INDEXES {name} DISABLED")
        cur.execute(f"SET INDEXES {name} ENABLED")
    assert sqlcode(cur, "SET INDEXES FOR cust30_vio FILTERING WITH ERROR",
                   fetch=False) == -897
    assert sqlcode(cur, "CREATE UNIQUE INDEX u30_vio2 ON cust30_vio (informix_tupleid, ssn) "
                        "FILTERING", fetch=False) == -897
    cur.execute("STOP VIOLATIONS TABLE FOR cust30")
    cur.execute("SET INDEXES u30_vio FILTERING")
