"""INSERT INTO TABLE(collection variable) in SPL routines (issue 23, twenty-fifth round),
through the real driver and the embedded server over sockets. It was -9945, the read-only
collection-derived table, whatever the target.

Pages: Guide to SQL: Tutorial 14.10, "Insert into a collection" (ids_sqt_491: the new_emp
procedure selects a manager's SET of direct reports into a variable, inserts a name with
``INSERT INTO TABLE (r) VALUES(emp)`` and stores the variable back with UPDATE; a SET or
MULTISET takes the value at no particular position, a LIST "at a specific point in the LIST
or at the end"), "Insert elements into a collection variable" (ids_sqt_475 to ids_sqt_478:
``INSERT AT n INTO TABLE(list_var)``). The statements are ours, modelled on those pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire.types.compositevalues import List, Multiset, Set

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "splcoll25") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE manager (mgr_name VARCHAR(30), department VARCHAR(12), "
                  "direct_reports SET(VARCHAR(30) NOT NULL), "
                  "projects LIST(VARCHAR(15) NOT NULL))")
        c.execute("INSERT INTO manager VALUES ('Sayles', 'marketing', SET{'Hynes', 'Quinn'}, "
                  "LIST{'voc', 'web'})")
        yield c


def test_the_tutorials_new_emp_procedure(cur: ifxwire.Cursor) -> None:
    """ids_sqt_491: the name is added to the SET and the UPDATE stores it; a name the SET
    already holds leaves it as it was (a SET has no duplicates)."""
    cur.execute("CREATE PROCEDURE new_emp(emp VARCHAR(30), mgr VARCHAR(30)) "
                "DEFINE r SET(VARCHAR(30) NOT NULL); "
                "SELECT direct_reports INTO r FROM manager WHERE mgr_name = mgr; "
                "INSERT INTO TABLE (r) VALUES(emp); "
                "UPDATE manager SET direct_reports = r WHERE mgr_name = mgr; "
                "END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE new_emp('Baker', 'Sayles')")
    cur.execute("EXECUTE PROCEDURE new_emp('Quinn', 'Sayles')")
    assert rows(cur, "SELECT direct_reports FROM manager") == [
        (Set({"Baker", "Hynes", "Quinn"}),)]


def test_a_list_takes_the_value_at_n_or_at_the_end(cur: ifxwire.Cursor) -> None:
    """ids_sqt_491 and ids_sqt_478: INSERT AT n puts the element at position n, without AT
    it goes at the end; an AT past the end appends."""
    cur.execute("CREATE PROCEDURE add_proj(p VARCHAR(15), n INT) "
                "DEFINE l LIST(VARCHAR(15) NOT NULL); "
                "SELECT projects INTO l FROM manager WHERE mgr_name = 'Sayles'; "
                "INSERT AT n INTO TABLE (l) VALUES (p); "
                "INSERT INTO TABLE(l) VALUES ('end'); "
                "INSERT AT 99 INTO TABLE(l) VALUES ('last'); "
                "UPDATE manager SET projects = l; END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE add_proj('first', 1)")
    assert rows(cur, "SELECT projects FROM manager") == [
        (List(["first", "voc", "web", "end", "last"]),)]


def test_a_variable_built_in_the_routine(cur: ifxwire.Cursor) -> None:
    """A LIST and a MULTISET variable assigned a literal, then grown; the value is converted
    to the element type as an INSERT converts it ('7' to 7)."""
    cur.execute("CREATE FUNCTION grow() RETURNING LIST(INT NOT NULL), MULTISET(INT NOT NULL); "
                "DEFINE l LIST(INT NOT NULL); DEFINE m MULTISET(INT NOT NULL); "
                "LET l = LIST{1, 2, 3}; LET m = MULTISET{3, 1}; "
                "INSERT INTO TABLE(l) VALUES (4); INSERT AT 2 INTO TABLE(l) VALUES (9); "
                "INSERT INTO TABLE(m) VALUES (1); INSERT INTO TABLE(m) VALUES ('7'); "
                "RETURN l, m; END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION grow()") == [
        (List([1, 9, 2, 3, 4]), Multiset([1, 1, 3, 7]))]


@pytest.mark.parametrize(("body", "code"), [
    # "a collection cannot contain NULL elements" (-9978, as for a literal)
    ("DEFINE s SET(INT NOT NULL); DEFINE x INT; LET x = NULL; LET s = SET{1}; "
     "INSERT INTO TABLE(s) VALUES (x); RETURN 0;", -9978),
    # the variable must be a collection (-9610, the collection-derived table's code)
    ("DEFINE s INT; LET s = 1; INSERT INTO TABLE(s) VALUES (2); RETURN s;", -9610),
    # AT names a LIST position: a SET has none (grammar, -201 [inference])
    ("DEFINE s SET(INT NOT NULL); LET s = SET{1}; INSERT AT 1 INTO TABLE(s) VALUES (2); "
     "RETURN 0;", -201),
    # the element type's conversion
    ("DEFINE l LIST(INT NOT NULL); LET l = LIST{1}; INSERT INTO TABLE(l) VALUES ('abc'); "
     "RETURN 0;", -1213),
])
def test_refusals(cur: ifxwire.Cursor, body: str, code: int) -> None:
    cur.execute(f"CREATE FUNCTION bad() RETURNING INT; {body} END FUNCTION")
    assert sqlcode(cur, "EXECUTE FUNCTION bad()") == code


def test_other_targets_stay_read_only(cur: ifxwire.Cursor) -> None:
    """Outside SPL, and for a subquery's collection, the collection-derived table is still
    read-only here (-9945); a plain INSERT in a routine is untouched."""
    assert sqlcode(cur, "INSERT INTO TABLE((SELECT direct_reports FROM manager)) "
                        "VALUES ('x')") == -9945
    cur.execute("CREATE TABLE st (c CHAR(2))")
    cur.execute("CREATE PROCEDURE plain() INSERT INTO st VALUES ('ZZ'); END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE plain()")
    assert rows(cur, "SELECT c FROM st") == [("ZZ",)]


def test_changing_a_collection_variables_elements_is_not_implemented(
        cur: ifxwire.Cursor) -> None:
    """ids_sqt_476/477's DELETE FROM TABLE(a) WHERE CURRENT OF (and UPDATE TABLE(a)) in a
    FOREACH over the variable: not done, -999 when the routine is created (was -201 when it
    ran, after the routine had been accepted)."""
    assert sqlcode(cur, "CREATE PROCEDURE del_set(x INT) DEFINE a SET(INT NOT NULL); "
                        "DEFINE b INT; LET a = SET{1, 5}; "
                        "FOREACH c1 FOR SELECT * INTO b FROM TABLE(a) "
                        "IF b = x THEN DELETE FROM TABLE(a) WHERE CURRENT OF c1; END IF; "
                        "END FOREACH; END PROCEDURE") == -999
