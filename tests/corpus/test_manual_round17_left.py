"""What the last rounds left (issue 23, twenty-second session), through the real driver and
the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "BEFORE Actions" (ids_sqs_0607), "AFTER
Actions" (ids_sqs_0609), INSERT "Execute Routine Clause" (ids_sqs_0133); Guide to SQL:
Tutorial, "BEFORE and AFTER triggered actions" (ids_sqt_530).
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
