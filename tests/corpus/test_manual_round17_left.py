"""What the last rounds left (issue 23, twenty-second session), through the real driver and
the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "BEFORE Actions" (ids_sqs_0607), "AFTER
Actions" (ids_sqs_0609), INSERT "Execute Routine Clause" (ids_sqs_0133), "IN Condition"
(ids_sqs_1382), "BETWEEN Condition" (ids_sqs_1381); Guide to SQL: Tutorial, "BEFORE and AFTER
triggered actions" (ids_sqt_530); Guide to SQL: Reference, "VARCHAR(m,r) data type"
(ids_sqr_148), "SERIAL(n) data type" (ids_sqr_138), "Assigning a Starting Value for SERIAL8"
(ids_sqr_140), "BIGSERIAL data type" (ids_sqr_097), "Manipulating DATETIME Values"
(ids_sqr_154), "Manipulating DATE with DATETIME and INTERVAL Values" (ids_sqr_156). Codes not
named by a page are those of IBM's message catalogue in the JDBC jar [jcat]
(``com/informix/msg/sql_en_US.properties``) whose texts name each case; that a server sends
them for these statements is our inference from the texts, except where a test names a
witness.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "left17") as conn:
        yield conn.cursor()


# ---- INSERT … EXECUTE of a routine that returns no rows (ids_sqs_0607, ids_sqs_0609) ---------
@pytest.fixture()
def marked(cur: ifxwire.Cursor) -> ifxwire.Cursor:
    """items, with a trigger whose BEFORE, FOR EACH ROW and AFTER actions each leave a mark."""
    cur.execute("CREATE TABLE items (item_num SMALLINT, order_num INT)")
    cur.execute("CREATE TABLE marks (m CHAR(1))")
    cur.execute("CREATE TRIGGER items_ins INSERT ON items "
                "BEFORE (INSERT INTO marks VALUES ('b')) "
                "FOR EACH ROW (INSERT INTO marks VALUES ('r')) "
                "AFTER (INSERT INTO marks VALUES ('a'))")
    cur.execute("CREATE PROCEDURE none_found(o INT) RETURNING SMALLINT, INT; "
                "IF o > 0 THEN RETURN 1, o WITH RESUME; END IF; END PROCEDURE")
    return cur


def test_insert_execute_of_no_rows_still_runs_before_and_after(marked: ifxwire.Cursor) -> None:
    """ids_sqs_0607: "Even if the triggering statement does not process any rows, the
    database server executes the BEFORE trigger actions"; ids_sqs_0609: "If the triggering
    statement does not process any rows, the AFTER trigger actions still execute"
    (ids_sqt_530 says both). An INSERT … EXECUTE whose routine returns nothing is such a
    statement: BEFORE and AFTER run once, FOR EACH ROW never. Ran neither before."""
    marked.execute("INSERT INTO items EXECUTE PROCEDURE none_found(0)")
    assert marked.rowcount == 0
    assert rows(marked, "SELECT COUNT(*) FROM items") == [(0,)]
    assert rows(marked, "SELECT m, COUNT(*) FROM marks GROUP BY m ORDER BY m") == [
        ("a", 1), ("b", 1)]


def test_insert_select_of_no_rows_runs_them_the_same(marked: ifxwire.Cursor) -> None:
    """The same rule for INSERT … SELECT that selects nothing (a guard: it held before), and
    the routine that returns one row runs all three sections."""
    marked.execute("INSERT INTO items SELECT item_num, order_num FROM items WHERE 1 = 0")
    assert rows(marked, "SELECT m, COUNT(*) FROM marks GROUP BY m ORDER BY m") == [
        ("a", 1), ("b", 1)]
    marked.execute("DELETE FROM marks")
    marked.execute("INSERT INTO items EXECUTE PROCEDURE none_found(7)")
    assert rows(marked, "SELECT m, COUNT(*) FROM marks GROUP BY m ORDER BY m") == [
        ("a", 1), ("b", 1), ("r", 1)]


def test_insert_execute_of_no_rows_inside_a_routine(marked: ifxwire.Cursor) -> None:
    """The same statement in an SPL routine: BEFORE and AFTER run, no row goes in."""
    marked.execute("CREATE PROCEDURE fill() "
                   "INSERT INTO items EXECUTE PROCEDURE none_found(-1); END PROCEDURE")
    marked.execute("EXECUTE PROCEDURE fill()")
    assert rows(marked, "SELECT m FROM marks ORDER BY m") == [("a",), ("b",)]


# ---- IN and BETWEEN compare character values blank-padded (ids_sqr_148) -----------------------
@pytest.mark.parametrize(("cond", "truth"), [
    ("'a' IN ('a ')", True),
    ("'a ' IN ('b', 'a')", True),
    ("'a' NOT IN ('a  ', 'b')", False),
    ("'a' || '' IN ('a ')", True),
    ("'a ' BETWEEN 'a' AND 'a'", True),
    ("'a' BETWEEN 'a ' AND 'a  '", True),
    ("'a ' NOT BETWEEN 'a' AND 'a'", False),
    ("'b' BETWEEN 'a ' AND 'a  '", False),
])
def test_in_and_between_of_two_expressions_compare_blank_padded(cur: ifxwire.Cursor,
                                                                 cond: str, truth: bool) -> None:
    """ids_sqr_148: character values are compared as CHAR values are, "the shorter value is
    padded on the right with blanks". IN (ids_sqs_1382: "included in the list") and BETWEEN
    (ids_sqs_1381: "less than means before in code-set order") compare as ``=``, ``<=`` do,
    so 'a' and 'a ' are one value there too. Were exact (``'a' IN ('a ')`` was false)."""
    got = rows(cur, f"SELECT COUNT(*) FROM systables WHERE tabid = 1 AND {cond}")
    assert got == [(1 if truth else 0,)]


def test_in_and_between_with_a_varchar_column(cur: ifxwire.Cursor) -> None:
    """A VARCHAR column on either side: the stored 'a' and 'a  ' both match a padded literal,
    whether the column or the literal is on the left (the literal on the left was exact)."""
    cur.execute("CREATE TABLE v (k INT, vc VARCHAR(10), ch CHAR(4))")
    cur.execute("INSERT INTO v VALUES (1, 'a', 'a')")
    cur.execute("INSERT INTO v VALUES (2, 'a  ', 'b')")
    cur.execute("INSERT INTO v VALUES (3, 'b', 'c')")
    assert rows(cur, "SELECT k FROM v WHERE vc IN ('a ', 'z') ORDER BY k") == [(1,), (2,)]
    assert rows(cur, "SELECT k FROM v WHERE 'a ' IN (vc, 'z') ORDER BY k") == [(1,), (2,)]
    assert rows(cur, "SELECT k FROM v WHERE 'a' IN (vc) ORDER BY k") == [(1,), (2,)]
    assert rows(cur, "SELECT k FROM v WHERE vc BETWEEN 'a ' AND 'a ' ORDER BY k") == [
        (1,), (2,)]
    assert rows(cur, "SELECT k FROM v WHERE 'a ' BETWEEN vc AND vc ORDER BY k") == [
        (1,), (2,)]
    assert rows(cur, "SELECT k FROM v WHERE 'a ' BETWEEN vc AND 'a' ORDER BY k") == [
        (1,), (2,)]
    assert rows(cur, "SELECT k FROM v WHERE ch IN (vc) ORDER BY k") == [(1,)]
    assert rows(cur, "SELECT k FROM v WHERE vc || '' IN ('a') ORDER BY k") == [(1,), (2,)]


# ---- UNIQUE / PRIMARY KEY on VARCHAR: 'a' and 'a ' are one key (ids_sqr_148) ----------------
@pytest.mark.parametrize(("ddl", "code"), [
    ("CREATE TABLE k (vc VARCHAR(10) UNIQUE)", -268),
    ("CREATE TABLE k (vc VARCHAR(10) PRIMARY KEY)", -268),
    ("CREATE TABLE k (vc NVARCHAR(10), UNIQUE (vc) CONSTRAINT k_u)", -268),
    ("CREATE TABLE k (vc LVARCHAR(100) UNIQUE)", -268),
    ("CREATE TABLE k (vc VARCHAR(10)); CREATE UNIQUE INDEX k_i ON k (vc)", -239),
])
def test_varchar_values_that_differ_in_trailing_blanks_are_duplicates(
        cur: ifxwire.Cursor, ddl: str, code: int) -> None:
    """ids_sqr_148: VARCHAR values "are compared ... in the same way as CHAR values": the
    shorter is padded with blanks, so 'a' and 'a ' are equal, and a unique index or
    constraint, which refuses a key equal to one it holds, refuses the second (our reading:
    no page speaks of trailing blanks in a unique key). -268 for a constraint, -239 for a
    unique index (the codes a duplicate of an unpadded key gets). A guard: it held before
    this round (fidelity25's RTRIM column collation)."""
    for stmt in ddl.split("; "):
        cur.execute(stmt)
    cur.execute("INSERT INTO k VALUES ('a')")
    assert sqlcode(cur, "INSERT INTO k VALUES ('a  ')") == code
    assert rows(cur, "SELECT vc || '|' FROM k") == [("a|",)]


def test_a_unique_index_over_padded_duplicates_is_refused(cur: ifxwire.Cursor) -> None:
    """Rows 'a' and 'a ' already there: a unique index or constraint on them is -371, as for
    any duplicate data; a foreign key finds its parent across the blanks."""
    cur.execute("CREATE TABLE pre (vc VARCHAR(10))")
    cur.execute("INSERT INTO pre VALUES ('a')")
    cur.execute("INSERT INTO pre VALUES ('a ')")
    assert sqlcode(cur, "CREATE UNIQUE INDEX pre_u ON pre (vc)") == -371
    assert sqlcode(cur, "ALTER TABLE pre ADD CONSTRAINT UNIQUE (vc) CONSTRAINT pre_c") == -371
    cur.execute("CREATE TABLE pa (vc VARCHAR(10) PRIMARY KEY)")
    cur.execute("CREATE TABLE ch (vc VARCHAR(10) REFERENCES pa)")
    cur.execute("INSERT INTO pa VALUES ('a ')")
    cur.execute("INSERT INTO ch VALUES ('a')")
    assert sqlcode(cur, "DELETE FROM pa") == -692


# ---- over-long type declarations ---------------------------------------------------------------
@pytest.mark.parametrize(("decl", "code"), [
    # ids_sqr_148: m "can range from 1 to 255 bytes"; [jcat] -650 "Maximum varchar size has
    # been exceeded.", the text pengdows.crud's testbed records from a live server
    # (testbed/TestProvider.cs, GetTextType: "CONFIRMED live")
    ("VARCHAR(256)", -650),
    ("NVARCHAR(256)", -650),
    ("CHARACTER VARYING(300)", -650),
    # ids_sqr_148: r "must be less than the maximum size"; [jcat] -651 "Reserved column size
    # > maximum column size (varchar)."
    ("VARCHAR(10,11)", -651),
    # "CHAR(n) data type" (ids_sqr_101): n from 1 to 32,767; [jcat] -235 "Character column
    # size is too big."
    ("CHAR(32768)", -235),
    ("NCHAR(32768)", -235),
    # LVARCHAR "upper limit is 32,739 bytes" (ids_sqr_148); [jcat] -19829 "LVARCHAR column
    # size exceeds 32739."
    ("LVARCHAR(32740)", -19829),
    # "DATETIME Field Qualifier" (ids_sqs_1424): the first field may not be smaller than the
    # last; "INTERVAL Field Qualifier" (ids_sqs_1596): the first field's precision is 1 to 9,
    # and an INTERVAL is YEAR-MONTH or DAY-FRACTION. [jcat] -1268 "Invalid datetime or
    # interval qualifier." (FRACTION(6) stays -201: docs/SERVER.md's Hibernate table)
    ("DATETIME MINUTE TO HOUR", -1268),
    ("INTERVAL MINUTE TO HOUR", -1268),
    ("INTERVAL DAY(10) TO DAY", -1268),
    ("INTERVAL YEAR TO DAY", -1268),
])
def test_an_over_long_or_inverted_declaration_has_its_code(cur: ifxwire.Cursor, decl: str,
                                                           code: int) -> None:
    """Each was -201 (syntax error); CREATE TABLE and CAST give the same code."""
    assert sqlcode(cur, f"CREATE TABLE bad (c {decl})") == code
    assert sqlcode(cur, f"SELECT CAST(NULL AS {decl}) FROM systables WHERE tabid = 1") == code


def test_the_largest_declarations_are_accepted(cur: ifxwire.Cursor) -> None:
    """The limits themselves are valid (a guard)."""
    cur.execute("CREATE TABLE good (a VARCHAR(255, 10), d INTERVAL DAY(9) TO SECOND, "
                "e DATETIME YEAR TO FRACTION(5), f DECIMAL(32, 32), g VARCHAR(10, 10))")
    cur.execute("CREATE TABLE wide (b CHAR(32767))")
    cur.execute("CREATE TABLE long (c LVARCHAR(32739))")


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1.5E+309"])
def test_a_float_literal_beyond_float_is_204(cur: ifxwire.Cursor, literal: str) -> None:
    """A literal no FLOAT holds: [jcat] -204 "An illegal floating point number has been found
    in the statement." (was -1260 for 1e400 and -999 for -1e400, and the server logged that
    FLOAT cannot hold inf)."""
    assert sqlcode(cur, f"SELECT {literal} FROM systables WHERE tabid = 1") == -204


# ---- what follows a serial's maximum (ids_sqr_140, IBM APAR IT30917) --------------------------
def test_serial_wraps_around_to_one_after_its_maximum(cur: ifxwire.Cursor) -> None:
    """IBM APAR IT30917 (Informix Server, fixed in 12.10.xC14 / 14.10.xC4): "A SERIAL column,
    once having reached its maximum value (2^31-1), will restart from 1 ... as long as newly
    produced serial values can be entered into the table"; ids_sqr_140 says the same of
    SERIAL8 ("it wraps around and starts generating values beginning at 1"). Was -1215."""
    cur.execute("CREATE TABLE s (k SERIAL, n INT)")
    cur.execute("INSERT INTO s VALUES (2147483647, 1)")
    cur.execute("INSERT INTO s (n) VALUES (2)")
    cur.execute("INSERT INTO s (n) VALUES (3)")
    assert rows(cur, "SELECT k, n FROM s ORDER BY n") == [(2147483647, 1), (1, 2), (2, 3)]


@pytest.mark.parametrize("kind", ["SERIAL8", "BIGSERIAL"])
def test_serial8_and_bigserial_wrap_around_too(cur: ifxwire.Cursor, kind: str) -> None:
    """ids_sqr_140 for SERIAL8; BIGSERIAL "is similar to the SERIAL data type, but with a
    larger range" (ids_sqr_097). Was -1284."""
    cur.execute(f"CREATE TABLE s (k {kind}, n INT)")
    cur.execute("INSERT INTO s VALUES (9223372036854775807, 1)")
    cur.execute("INSERT INTO s (n) VALUES (2)")
    assert rows(cur, "SELECT k, n FROM s ORDER BY n") == [(9223372036854775807, 1), (1, 2)]


def test_a_wrapped_serial_meets_its_unique_index(cur: ifxwire.Cursor) -> None:
    """The wrapped value is an ordinary insert: a unique key already holding 1 refuses it
    (-268), as the APAR's "as long as ... wouldn't conflict with existing values" says."""
    cur.execute("CREATE TABLE s (k SERIAL PRIMARY KEY, n INT)")
    cur.execute("INSERT INTO s VALUES (1, 0)")
    cur.execute("INSERT INTO s VALUES (2147483647, 1)")
    assert sqlcode(cur, "INSERT INTO s (n) VALUES (2)") == -268


# ---- DATETIME - DATETIME: the first operand's units (ids_sqr_154) ---------------------------
def _difference(cur: ifxwire.Cursor, expr: str) -> tuple[Any, int]:
    """The value of ``expr`` and its described precision: an INTERVAL's count of digits,
    first field's precision plus two per further field (DAY(9) TO MINUTE is 13). The
    qualifier's names are read through IBM JDBC in tests/interop/test_jdbc_describe_time.py."""
    cur.execute(f"SELECT {expr} FROM systables WHERE tabid = 1")
    (value,) = cur.fetchone()
    return value, int(cur.description[0][4])


@pytest.mark.parametrize(("expr", "seconds", "digits"), [
    # the page's example: YEAR TO MINUTE - YEAR TO HOUR is (60 01:30) DAY TO MINUTE
    ("DATETIME (2003-9-30 12:30) YEAR TO MINUTE - DATETIME (2003-8-1 11) YEAR TO HOUR",
     60 * 86400 + 5400, 13),
    # the second's extra minutes are "ignored in the calculation": (60 01) DAY TO HOUR; was
    # 60 00:30 (the minutes counted), DAY TO MINUTE
    ("DATETIME (2003-9-30 12) YEAR TO HOUR - DATETIME (2003-8-1 11:30) YEAR TO MINUTE",
     60 * 86400 + 3600, 11),
    # "the same time units as the first operand": HOUR TO MINUTE gives HOUR(9) TO MINUTE,
    # 11 digits (was DAY(9) TO MINUTE, 13)
    ("DATETIME (12:30) HOUR TO MINUTE - DATETIME (11:00) HOUR TO MINUTE", 5400, 11),
    # a DATE is a DATETIME YEAR TO DAY first (ids_sqr_156): its difference with a YEAR TO
    # MINUTE is whole days, DAY(9) TO DAY (was 00:01 counted, DAY TO MINUTE)
    ("DATE('05/02/2007') - DATETIME (2007-5-1 23:59) YEAR TO MINUTE", 86400, 9),
])
def test_datetime_difference_takes_the_first_operands_units(
        cur: ifxwire.Cursor, expr: str, seconds: int, digits: int) -> None:
    value, got = _difference(cur, expr)
    assert (value.total_seconds(), got) == (seconds, digits)


def test_year_month_differences_keep_the_first_operands_fields(cur: ifxwire.Cursor) -> None:
    """YEAR TO YEAR - YEAR TO MONTH is YEAR(9) TO YEAR (9 digits): the second's month is
    ignored (was YEAR(9) TO MONTH, 11 digits); YEAR TO MONTH - YEAR TO MONTH stays 11."""
    assert _difference(cur, "DATETIME (2005) YEAR TO YEAR - DATETIME (2004-12) YEAR TO MONTH"
                       )[1] == 9
    value, digits = _difference(cur, "DATETIME (2005-9) YEAR TO MONTH - "
                                     "DATETIME (2004-1) YEAR TO MONTH")
    assert (value.months, digits) == (20, 11)
