"""INSERT … EXECUTE PROCEDURE/FUNCTION into a view (issue 23, eighteenth round), through the
real driver and the embedded server over sockets. It was -999 ("INSERT/UPDATE/DELETE on a
view") whatever the view.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "INSERT statement" (ids_sqs_0861: INTO a
table, view or synonym, with a VALUES clause, an Execute Routine Clause or a SELECT), "Execute
Routine Clause" (ids_sqs_0133), "Inserting Rows Through a View" (ids_sqs_0864: a single-table
view without DISTINCT, GROUP BY, derived or aggregate columns; the base table's other columns
get their default or NULL, and the INSERT fails when one has neither; a view with an INSTEAD
OF trigger takes rows through it), "WITH CHECK OPTION Keywords" (ids_sqs_0390). The
statements are ours, modelled on those pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "views18") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE salary (lname CHAR(15), fname CHAR(15), "
                  "current_salary MONEY(8,2), entered_by CHAR(32) DEFAULT USER, "
                  "grade SMALLINT DEFAULT 3)")
        c.execute("CREATE VIEW salary_view AS SELECT lname, fname, current_salary "
                  "FROM salary WHERE entered_by = USER")
        c.execute("CREATE FUNCTION new_hires() RETURNING CHAR(15), CHAR(15), MONEY(8,2); "
                  "RETURN 'Smith', 'Pat', 75000 WITH RESUME; "
                  "RETURN 'Jones', 'Kim', 68000 WITH RESUME; END FUNCTION")
        yield c


def test_insert_execute_through_a_simple_view(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0861 + ids_sqs_0864: the routine's rows go into the view's base table, whose
    other columns take their defaults; the view shows them. Was -999."""
    cur.execute("INSERT INTO salary_view EXECUTE FUNCTION new_hires()")
    assert cur.rowcount == 2
    assert rows(cur, "SELECT lname, current_salary, entered_by, grade FROM salary "
                     "ORDER BY lname") == [("Jones", 68000, "informix", 3),
                                           ("Smith", 75000, "informix", 3)]
    assert rows(cur, "SELECT COUNT(*) FROM salary_view") == [(2,)]


def test_insert_execute_through_a_view_with_a_column_list(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0133: the return values match the listed columns one to one, here the view's
    columns in another order. Was -999."""
    cur.execute("CREATE PROCEDURE pay_first() RETURNING MONEY(8,2), CHAR(15); "
                "RETURN 50000, 'Lee' WITH RESUME; END PROCEDURE")
    cur.execute("INSERT INTO salary_view (current_salary, lname) EXECUTE PROCEDURE pay_first()")
    assert rows(cur, "SELECT lname, fname, current_salary FROM salary") == [("Lee", None, 50000)]


def test_insert_execute_through_a_view_fires_the_base_tables_triggers(
        cur: ifxwire.Cursor) -> None:
    """The rows are inserted into the base table, so its INSERT trigger runs as for an
    INSERT … SELECT through the view: BEFORE once, FOR EACH ROW per row, AFTER once
    (ids_sqs_0607 to ids_sqs_0609). Was -999."""
    cur.execute("CREATE TABLE marks (m CHAR(1))")
    cur.execute("CREATE TRIGGER salary_ins INSERT ON salary "
                "BEFORE (INSERT INTO marks VALUES ('b')) "
                "FOR EACH ROW (INSERT INTO marks VALUES ('r')) "
                "AFTER (INSERT INTO marks VALUES ('a'))")
    cur.execute("INSERT INTO salary_view EXECUTE FUNCTION new_hires()")
    assert rows(cur, "SELECT m, COUNT(*) FROM marks GROUP BY m ORDER BY m") == [
        ("a", 1), ("b", 1), ("r", 2)]


def test_insert_execute_through_a_view_with_check_option(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0390: WITH CHECK OPTION refuses a row the view would not show (-385 here, as
    for INSERT … VALUES), and the statement is atomic: no row of the routine stays."""
    cur.execute("CREATE VIEW rich AS SELECT lname, fname, current_salary FROM salary "
                "WHERE current_salary > 70000 WITH CHECK OPTION")
    assert sqlcode(cur, "INSERT INTO rich EXECUTE FUNCTION new_hires()", fetch=False) == -385
    assert rows(cur, "SELECT COUNT(*) FROM salary") == [(0,)]


def test_insert_execute_through_an_instead_of_trigger(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0864: a multiple-table view takes rows when an INSTEAD OF trigger specifies the
    INSERT; each row the routine returns runs it once (NEW is the row). Was -999."""
    cur.execute("CREATE TABLE dept (lname CHAR(15), dname CHAR(10))")
    cur.execute("CREATE VIEW staff (lname, fname, dname) AS SELECT s.lname, s.fname, d.dname "
                "FROM salary s, dept d WHERE s.lname = d.lname")
    cur.execute("CREATE TRIGGER staff_ins INSTEAD OF INSERT ON staff REFERENCING NEW AS n "
                "FOR EACH ROW (INSERT INTO salary (lname, fname) VALUES (n.lname, n.fname), "
                "INSERT INTO dept VALUES (n.lname, n.dname))")
    cur.execute("CREATE FUNCTION movers() RETURNING CHAR(15), CHAR(15), CHAR(10); "
                "RETURN 'Smith', 'Pat', 'sales' WITH RESUME; "
                "RETURN 'Jones', 'Kim', 'audit' WITH RESUME; END FUNCTION")
    cur.execute("INSERT INTO staff EXECUTE FUNCTION movers()")
    assert rows(cur, "SELECT lname, fname, dname FROM staff ORDER BY lname") == [
        ("Jones", "Kim", "audit"), ("Smith", "Pat", "sales")]


def test_insert_execute_into_views_that_take_no_rows(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0864: a view with GROUP BY or an aggregate takes no INSERT (-384, as INSERT …
    VALUES into it gets here), and a base column with no default that refuses NULL fails the
    INSERT (-391, "Cannot insert a null into column"). Both were -999."""
    cur.execute("CREATE VIEW counts (lname, n) AS SELECT lname, COUNT(*) FROM salary "
                "GROUP BY lname")
    cur.execute("CREATE FUNCTION one_count() RETURNING CHAR(15), INT; RETURN 'Smith', 1; "
                "END FUNCTION")
    assert sqlcode(cur, "INSERT INTO counts EXECUTE FUNCTION one_count()", fetch=False) == -384
    cur.execute("CREATE TABLE badge (lname CHAR(15), badge_no INT NOT NULL)")
    cur.execute("CREATE VIEW badge_names AS SELECT lname FROM badge")
    cur.execute("CREATE FUNCTION a_name() RETURNING CHAR(15); RETURN 'Smith'; END FUNCTION")
    assert sqlcode(cur, "INSERT INTO badge_names EXECUTE FUNCTION a_name()", fetch=False) == -391
    assert rows(cur, "SELECT COUNT(*) FROM badge") == [(0,)]
