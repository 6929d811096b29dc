"""What the last rounds left (issue 23, twenty-second session), through the real driver and
the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "BEFORE Actions" (ids_sqs_0607), "AFTER
Actions" (ids_sqs_0609), INSERT "Execute Routine Clause" (ids_sqs_0133); Guide to SQL:
Tutorial, "BEFORE and AFTER triggered actions" (ids_sqt_530); "IN Condition" (ids_sqs_1382),
"BETWEEN Condition" (ids_sqs_1381); Guide to SQL: Reference, "VARCHAR(m,r) data type"
(ids_sqr_148).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows


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
