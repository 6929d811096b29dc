"""Statement pages of the Guide to SQL: Syntax 14.10 that no earlier round cited, through the
real driver and the embedded server over sockets (issue 23, twenty-eighth round). The
statements are ours, modelled on each page; the page id is named at each case.

Pages: "RENAME INDEX statement" (ids_sqs_0941: ``RENAME INDEX 100_1 TO idx1``, "Omit the
white space at the beginning of the system-generated index name", ``jmm.100_1`` with an
owner); "RENAME SEQUENCE statement" (ids_sqs_0943); "SET EXPLAIN statement" (ids_sqs_1152,
"Using the AVOID_EXECUTE Option" ids_sqs_1153, "Using the FILE TO option" ids_sqs_1154);
"SET DATASKIP statement" (ids_sqs_1109); "SET STATEMENT CACHE statement" (ids_sqs_1190,
"Precedence and Default Behavior" ids_sqs_1191); "SET LOG statement" (ids_sqs_1173); "SET
DEFERRED_PREPARE statement" (ids_sqs_1119); "SET AUTOFREE statement" (ids_sqs_1077);
"UPDATE STATISTICS statement" (ids_sqs_1278: a column of the FOR TABLE list "Must exist";
"Performance considerations of UPDATE STATISTICS statements", ids_sqs_0042, and its
examples); GRANT "Sequence-Level Privileges" (ids_sqs_0131) and REVOKE's (ids_sqs_0153).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "stmts28") as conn:
        yield conn.cursor()


def _indexes(cur: ifxwire.Cursor, table: str) -> list[str]:
    return [str(r[0]) for r in rows(
        cur, "SELECT idxname FROM sysindexes WHERE tabid = (SELECT tabid FROM systables "
             f"WHERE tabname = '{table}') ORDER BY 1")]


# ---- RENAME INDEX (ids_sqs_0941) ----------------------------------------------------------------
def test_a_system_generated_index_is_renamed_by_its_number(cur: ifxwire.Cursor) -> None:
    """The page's own example, ``RENAME INDEX 100_1 TO idx1``, and the owner form
    ``owner.100_1``: the catalogue's ' 100_1' (sysindexes, sysconstraints) takes the new
    name and the constraint still holds. Was -201 (100_1 read as a number and a word)."""
    cur.execute("CREATE TABLE tab1 (a INT PRIMARY KEY, b INT UNIQUE)")
    assert _indexes(cur, "tab1") == [" 100_1", " 100_2"]
    cur.execute("RENAME INDEX 100_1 TO idx1")
    cur.execute("RENAME INDEX informix.100_2 TO idx2")
    assert _indexes(cur, "tab1") == ["idx1", "idx2"]
    assert rows(cur, "SELECT constrname, idxname FROM sysconstraints WHERE tabid = 100 "
                     "ORDER BY 1") == [("u100_1", "idx1"), ("u100_2", "idx2")]
    cur.execute("INSERT INTO tab1 VALUES (1, 1)")
    assert sqlcode(cur, "INSERT INTO tab1 VALUES (1, 2)") == -268
    assert sqlcode(cur, "RENAME INDEX 100_9 TO idx9") == -319


def test_a_renamed_constraint_index_outlives_its_constraint(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0941: "When you rename a system-generated index, the index is not
    automatically dropped if you drop the corresponding constraint"; one not renamed goes
    with its constraint."""
    cur.execute("CREATE TABLE p (a INT PRIMARY KEY)")
    cur.execute("CREATE TABLE c (x INT REFERENCES p (a), y INT REFERENCES p (a))")
    cur.execute("RENAME INDEX 101_2 TO kept")
    cur.execute("ALTER TABLE c DROP CONSTRAINT r101_2")
    cur.execute("ALTER TABLE c DROP CONSTRAINT r101_3")
    assert _indexes(cur, "c") == ["kept"]


def test_rename_index_pins(cur: ifxwire.Cursor) -> None:
    """Already as the page says: a user index is renamed; a missing one is -319; a name in
    use is -316."""
    cur.execute("CREATE TABLE t (a INT, b INT)")
    cur.execute("CREATE INDEX ix1 ON t (a)")
    cur.execute("CREATE INDEX ix2 ON t (b)")
    cur.execute("RENAME INDEX ix1 TO idx1")
    assert _indexes(cur, "t") == ["idx1", "ix2"]
    assert sqlcode(cur, "RENAME INDEX nosuch TO idx3") == -319
    assert sqlcode(cur, "RENAME INDEX ix2 TO idx1") == -316


# ---- RENAME SEQUENCE (ids_sqs_0943): pins --------------------------------------------------------
def test_rename_sequence_pins(cur: ifxwire.Cursor) -> None:
    """The new name must be unique among sequences, tables, views and synonyms (-310); "You
    cannot use a synonym to specify the name of the sequence" (-8300 for it, as for a
    missing sequence); the sequence goes on counting under its new name."""
    cur.execute("CREATE SEQUENCE seq1")
    cur.execute("CREATE TABLE t (a INT)")
    assert rows(cur, "SELECT seq1.NEXTVAL FROM systables WHERE tabid = 1") == [(1,)]
    cur.execute("RENAME SEQUENCE informix.seq1 TO seq2")
    assert rows(cur, "SELECT seq2.NEXTVAL FROM systables WHERE tabid = 1") == [(2,)]
    assert sqlcode(cur, "RENAME SEQUENCE seq2 TO t") == -310
    cur.execute("CREATE SYNONYM syn2 FOR seq2")
    assert sqlcode(cur, "RENAME SEQUENCE syn2 TO s3") == -8300
    assert sqlcode(cur, "RENAME SEQUENCE nosuch TO s3") == -8300


# ---- SET EXPLAIN, SET DATASKIP, SET STATEMENT CACHE ------------------------------------------
@pytest.mark.parametrize("sql", [
    "SET EXPLAIN ON", "SET EXPLAIN OFF", "SET EXPLAIN ON AVOID_EXECUTE",  # ids_sqs_1152/1153
    "SET EXPLAIN FILE TO '/tmp/explain.out'",  # ids_sqs_1154 (the file is not written)
    "SET EXPLAIN FILE TO '/tmp/' || 'explain.out'",  # an expression
    "SET DATASKIP ON dbsp1", "SET DATASKIP DEFAULT", "SET DATASKIP OFF",  # ids_sqs_1109
    "SET DATASKIP ON dbspace1, dbspace5", "SET DATASKIP ON",
    "SET STATEMENT CACHE ON", "SET STATEMENT CACHE OFF",  # ids_sqs_1190
    "SET LOG", "SET BUFFERED LOG",  # ids_sqs_1173
    "SET DEFERRED_PREPARE", "SET DEFERRED_PREPARE DISABLED",  # ids_sqs_1119
    "SET AUTOFREE", "SET AUTOFREE ENABLED", "SET AUTOFREE DISABLED FOR x1",  # ids_sqs_1077
    "SET AUTOFREE FOR curs1",
])
def test_the_pages_forms_are_accepted(cur: ifxwire.Cursor, sql: str) -> None:
    cur.execute(sql)


@pytest.mark.parametrize("sql", [
    "SET EXPLAIN", "SET EXPLAIN BANANA", "SET EXPLAIN ON OFF", "SET EXPLAIN FILE TO",
    "SET DATASKIP", "SET DATASKIP MAYBE", "SET DATASKIP OFF dbsp1", "SET DATASKIP ON dbsp1,",
    "SET DATASKIP ON dbsp1 dbsp2",
    "SET STATEMENT CACHE", "SET STATEMENT CACHE MAYBE", "SET STATEMENT ON",
    "SET LOG ON", "SET BUFFERED", "SET BUFFERED LOG NOW", "SET DEFERRED_PREPARE MAYBE",
    "SET AUTOFREE FOR", "SET AUTOFREE MAYBE", "SET AUTOFREE ENABLED DISABLED",
])
def test_other_forms_are_syntax_errors(cur: ifxwire.Cursor, sql: str) -> None:
    """Outside the diagrams of ids_sqs_1152, ids_sqs_1109, ids_sqs_1190, ids_sqs_1173,
    ids_sqs_1119 and ids_sqs_1077: -201, as a misspelt SET word is. Were accepted
    (anything after the first word was skipped)."""
    assert sqlcode(cur, sql, fetch=False) == -201


# ---- UPDATE STATISTICS (ids_sqs_1278, ids_sqs_0042) ------------------------------------------
@pytest.mark.parametrize("sql", [
    "UPDATE STATISTICS MEDIUM", "UPDATE STATISTICS MEDIUM RESOLUTION 10",  # ids_sqs_0042
    "UPDATE STATISTICS MEDIUM RESOLUTION 10 .95",
    "UPDATE STATISTICS LOW FOR TABLE t (a) DROP DISTRIBUTIONS",
    "UPDATE STATISTICS HIGH FOR TABLE t (a, b) RESOLUTION 0.5",
    "UPDATE STATISTICS FOR TABLE ONLY (t) (a)",
    "UPDATE STATISTICS FOR PROCEDURE",
])
def test_update_statistics_forms(cur: ifxwire.Cursor, sql: str) -> None:
    cur.execute("CREATE TABLE t (a INT, b CHAR(10))")
    cur.execute(sql)


def test_update_statistics_columns_must_exist(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1278, column: "Must exist": -217, the code a missing column gets elsewhere
    (the page names none [inference]). Was accepted."""
    cur.execute("CREATE TABLE t (a INT, b CHAR(10))")
    assert sqlcode(cur, "UPDATE STATISTICS FOR TABLE t (zz)", fetch=False) == -217
    assert sqlcode(cur, "UPDATE STATISTICS HIGH FOR TABLE t (a, zz)", fetch=False) == -217
    assert sqlcode(cur, "UPDATE STATISTICS FOR TABLE ONLY (t) (q)", fetch=False) == -217


def test_update_statistics_for_table_only_names_its_table(cur: ifxwire.Cursor) -> None:
    """FOR TABLE ONLY (table): the table "Must exist in the current database" (-206), and
    only its counts are updated. ONLY (t) was read as no table: every table was counted
    and a missing one went unnoticed."""
    cur.execute("CREATE TABLE t (a INT)")
    cur.execute("CREATE TABLE u (a INT)")
    cur.execute("INSERT INTO t VALUES (1)")
    cur.execute("INSERT INTO u VALUES (1)")
    cur.execute("UPDATE STATISTICS FOR TABLE ONLY (t)")
    assert rows(cur, "SELECT tabname, nrows FROM systables WHERE tabname IN ('t', 'u') "
                     "ORDER BY 1") == [("t", 1), ("u", 0)]
    assert sqlcode(cur, "UPDATE STATISTICS FOR TABLE ONLY (nosuch)", fetch=False) == -206


# ---- GRANT / REVOKE on a sequence (ids_sqs_0131, ids_sqs_0153) --------------------------------
def test_sequence_privileges_are_kept_not_missing(cur: ifxwire.Cursor) -> None:
    """Select and Alter may be granted on a sequence or a synonym for one: systabauth rows
    for the sequence (test_manual_round28_privileges.py has the rest), not -206 "not in the
    database" as before fidelity41 nor -999 as after it."""
    cur.execute("CREATE SEQUENCE s1")
    cur.execute("CREATE SYNONYM ss FOR s1")
    cur.execute("GRANT ALTER ON s1 TO bob")
    cur.execute("GRANT SELECT ON ss TO bob")
    cur.execute("REVOKE ALL ON s1 FROM public")
    assert rows(cur, "SELECT grantee, tabauth FROM systabauth WHERE tabid = (SELECT tabid "
                     "FROM systables WHERE tabname = 's1')") == [("bob", "s-----a--")]
