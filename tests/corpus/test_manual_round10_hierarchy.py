"""Hierarchical queries of IBM's published material, tenth round (issue 23), through the real
driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "Conditions in the CONNECT BY Clause"
(``ids_sqs_2036``: LEVEL "can be included in the Projection clause ... and in the condition of
the CONNECT BY clause", and the rows its LEVEL example prints), the ORDER BY clause's ORDER
SIBLINGS BY example (its printed rows: empid, name, mgrid, level), and "Hierarchical Clause"
(``ids_sqs_2033``). The employee rows below are those the two printed results show (empid,
name, mgrid); the salaries are ours. SYS_CONNECT_BY_PATH and CONNECT_BY_ROOT follow the
definition IBM's DB2 pages give (Informix's own pages were not in reach; jOOQ's manual lists
Informix among the dialects that have both): the path is built root first, ``path(n) =
path(n-1) || sep || e``, and CONNECT_BY_ROOT e is e of the row's root, of e's type.
"""

from __future__ import annotations

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = rows
_code = sqlcode

#: (empid, name, salary, mgrid) as the manual's results show them: Goyal (16) heads Zander
#: (11), Henry (12) and Scott (14); Zander heads McKeough (5) and Barnes (6); Henry heads
#: O'Neil (7), Smith (8) and Shoeman (9). Goyal's manager 17 is not in the results.
EMPLOYEE = ((5, "McKeough", 20000, 11), (6, "Barnes", 21000, 11), (7, "O'Neil", 22000, 12),
            (8, "Smith", 23000, 12), (9, "Shoeman", 24000, 12), (11, "Zander", 40000, 16),
            (12, "Henry", 41000, 16), (14, "Scott", 42000, 16), (16, "Goyal", 90000, 17))


@pytest.fixture()
def employee(stores: ifxwire.Connection) -> ifxwire.Cursor:
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE employee (empid INT NOT NULL, name VARCHAR(10), "
                "salary DECIMAL(9,2), mgrid INT)")
    for row in EMPLOYEE:
        cur.execute("INSERT INTO employee VALUES (?, ?, ?, ?)", row)
    return cur


def test_the_level_example_prints_these_rows(employee: ifxwire.Cursor) -> None:
    """ids_sqs_2036's LEVEL example: SELECT name, LEVEL FROM employee START WITH name =
    'Goyal' CONNECT BY PRIOR empid = mgrid returns Goyal 1, Zander 2, McKeough 3, Barnes 3,
    Henry 2, O'Neil 3, Smith 3, Shoeman 3, Scott 2 ("9 row(s) retrieved")."""
    assert _rows(employee, "SELECT name, LEVEL FROM employee START WITH name = 'Goyal' "
                           "CONNECT BY PRIOR empid = mgrid") == [
        ("Goyal", 1), ("Zander", 2), ("McKeough", 3), ("Barnes", 3), ("Henry", 2),
        ("O'Neil", 3), ("Smith", 3), ("Shoeman", 3), ("Scott", 2)]


def test_the_order_siblings_by_example_prints_these_rows(employee: ifxwire.Cursor) -> None:
    """The ORDER SIBLINGS BY example of the Syntax guide's ORDER BY clause: siblings sorted
    by name under each parent (Henry, Scott, Zander; O'Neil, Shoeman, Smith; Barnes,
    McKeough), the hierarchy kept."""
    assert _rows(employee, "SELECT empid, name, mgrid, LEVEL FROM employee "
                           "START WITH name = 'Goyal' CONNECT BY PRIOR empid = mgrid "
                           "ORDER SIBLINGS BY name") == [
        (16, "Goyal", 17, 1), (12, "Henry", 16, 2), (7, "O'Neil", 12, 3),
        (9, "Shoeman", 12, 3), (8, "Smith", 12, 3), (14, "Scott", 16, 2),
        (11, "Zander", 16, 2), (6, "Barnes", 11, 3), (5, "McKeough", 11, 3)]


def test_level_in_the_connect_by_condition(employee: ifxwire.Cursor) -> None:
    """ids_sqs_2036: LEVEL is valid in the CONNECT BY condition; LEVEL there is the level
    the row would get, so AND LEVEL <= 2 stops the walk below the second level, and the
    rows of the last level are leaves. (Was -999.)"""
    assert _rows(employee, "SELECT name, LEVEL, CONNECT_BY_ISLEAF FROM employee "
                           "START WITH name = 'Goyal' CONNECT BY PRIOR empid = mgrid "
                           "AND LEVEL <= 2 ORDER SIBLINGS BY name") == [
        ("Goyal", 1, 0), ("Henry", 2, 1), ("Scott", 2, 1), ("Zander", 2, 1)]
    assert _rows(employee, "SELECT COUNT(*) FROM employee START WITH empid = 16 "
                           "CONNECT BY LEVEL < 4 AND mgrid = PRIOR empid") == [(9,)]


def test_sys_connect_by_path(employee: ifxwire.Cursor) -> None:
    """SYS_CONNECT_BY_PATH(e, sep): sep || e of each row from the root down to this one.
    (Was -999.)"""
    assert _rows(employee, "SELECT name, SYS_CONNECT_BY_PATH(name, '/') FROM employee "
                           "START WITH name = 'Zander' CONNECT BY PRIOR empid = mgrid") == [
        ("Zander", "/Zander"), ("McKeough", "/Zander/McKeough"),
        ("Barnes", "/Zander/Barnes")]
    # An expression, in WHERE and ORDER BY too, and two paths side by side.
    assert _rows(employee, "SELECT SYS_CONNECT_BY_PATH(empid, '>') AS p, "
                           "SYS_CONNECT_BY_PATH(UPPER(name), ' - ') FROM employee "
                           "WHERE SYS_CONNECT_BY_PATH(empid, '>') LIKE '%>12>%' "
                           "START WITH empid = 16 CONNECT BY PRIOR empid = mgrid "
                           "ORDER BY p") == [
        (">16>12>7", " - GOYAL - HENRY - O'NEIL"), (">16>12>8", " - GOYAL - HENRY - SMITH"),
        (">16>12>9", " - GOYAL - HENRY - SHOEMAN")]


def test_connect_by_root(employee: ifxwire.Cursor) -> None:
    """CONNECT_BY_ROOT e is e evaluated on the row's root; it binds tighter than ||.
    (Was -999.)"""
    assert _rows(employee, "SELECT name, CONNECT_BY_ROOT name, CONNECT_BY_ROOT name || '>' "
                           "|| name FROM employee START WITH mgrid = 16 "
                           "CONNECT BY PRIOR empid = mgrid ORDER BY 2, 1") == [
        ("Henry", "Henry", "Henry>Henry"), ("O'Neil", "Henry", "Henry>O'Neil"),
        ("Shoeman", "Henry", "Henry>Shoeman"), ("Smith", "Henry", "Henry>Smith"),
        ("Scott", "Scott", "Scott>Scott"), ("Barnes", "Zander", "Zander>Barnes"),
        ("McKeough", "Zander", "Zander>McKeough"), ("Zander", "Zander", "Zander>Zander")]
    assert _rows(employee, "SELECT CONNECT_BY_ROOT (salary * 2), COUNT(*) FROM employee "
                           "START WITH mgrid = 16 CONNECT BY PRIOR empid = mgrid "
                           "GROUP BY 1 ORDER BY 1") == [(80000, 3), (82000, 4), (84000, 1)]


def test_result_types(employee: ifxwire.Cursor) -> None:
    """CONNECT_BY_ROOT e has e's type (DECIMAL(9,2), INTEGER); SYS_CONNECT_BY_PATH is
    LVARCHAR(4000) (our reading: no Informix page in reach states it), as DESCRIBE gives
    them."""
    employee.execute("SELECT CONNECT_BY_ROOT salary AS r, CONNECT_BY_ROOT empid AS i, "
                     "SYS_CONNECT_BY_PATH(name, '/') AS p FROM employee START WITH empid = 16 "
                     "CONNECT BY PRIOR empid = mgrid")
    assert employee.description is not None
    assert [(d[0], d[1], d[3]) for d in employee.description] == [
        ("r", 5, 6), ("i", 2, 4), ("p", 43, 4000)]
    assert len(employee.fetchall()) == 9


def test_what_is_still_refused(employee: ifxwire.Cursor) -> None:
    """LEVEL beside columns in one CONNECT BY conjunct, LEVEL in START WITH, CONNECT_BY_ROOT
    in CONNECT BY, a parameter in SYS_CONNECT_BY_PATH and a hierarchical subquery whose
    START WITH or CONNECT BY reads the outer query stay -999 (not supported)."""
    for sql in ("SELECT empid FROM employee START WITH empid = 16 CONNECT BY "
                "PRIOR empid = mgrid AND LEVEL < empid",
                "SELECT empid FROM employee START WITH LEVEL = 1 CONNECT BY "
                "PRIOR empid = mgrid",
                "SELECT empid FROM employee START WITH empid = 16 CONNECT BY "
                "PRIOR empid = mgrid AND CONNECT_BY_ROOT empid = 16"):
        assert _code(employee, sql) == -999, sql
    assert _code(employee, "SELECT SYS_CONNECT_BY_PATH(name, ?) FROM employee START WITH "
                           "empid = 16 CONNECT BY PRIOR empid = mgrid", ("/",)) == -999
    # A hierarchical subquery whose START WITH reads a column of the outer query.
    assert _code(employee, "SELECT name FROM employee o WHERE EXISTS (SELECT 1 FROM employee "
                           "START WITH empid = o.mgrid CONNECT BY PRIOR empid = mgrid)") == -999


def test_a_hierarchical_query_inside_another(employee: ifxwire.Cursor) -> None:
    """ids_sqs_2033 lists "A derived table that is the result of a query" among valid
    tables, and OneDB's copy of the page says the clause "is valid in correlated subqueries":
    a hierarchical query as a derived table, in an IN subquery, and beside another in a
    UNION work. (Was -999.)"""
    assert _rows(employee, "SELECT d.name, d.lvl FROM (SELECT name, LEVEL AS lvl FROM "
                           "employee START WITH empid = 11 CONNECT BY PRIOR empid = mgrid) d "
                           "WHERE d.lvl > 1 ORDER BY 1") == [("Barnes", 2), ("McKeough", 2)]
    assert _rows(employee, "SELECT name FROM employee WHERE empid IN (SELECT empid FROM "
                           "employee START WITH empid = 12 CONNECT BY PRIOR empid = mgrid) "
                           "AND empid <> 12 ORDER BY name") == [
        ("O'Neil",), ("Shoeman",), ("Smith",)]
    assert _rows(employee, "SELECT name, LEVEL FROM employee START WITH empid = 14 "
                           "CONNECT BY PRIOR empid = mgrid UNION ALL SELECT name, LEVEL "
                           "FROM employee START WITH empid = 11 CONNECT BY PRIOR empid = mgrid "
                           "ORDER BY 2, 1") == [
        ("Scott", 1), ("Zander", 1), ("Barnes", 2), ("McKeough", 2)]
    # One inside the main query of another.
    assert _rows(employee, "SELECT name, LEVEL FROM employee WHERE empid NOT IN (SELECT empid "
                           "FROM employee START WITH empid = 11 CONNECT BY PRIOR empid = mgrid) "
                           "START WITH empid = 16 CONNECT BY PRIOR empid = mgrid "
                           "ORDER SIBLINGS BY name") == [
        ("Goyal", 1), ("Henry", 2), ("O'Neil", 3), ("Shoeman", 3), ("Smith", 3),
        ("Scott", 2)]
    # A correlated subquery whose main query (not its START WITH) reads the outer row.
    assert _rows(employee, "SELECT name FROM employee o WHERE EXISTS (SELECT 1 FROM employee "
                           "i WHERE i.empid = o.empid AND LEVEL = 3 START WITH empid = 16 "
                           "CONNECT BY PRIOR empid = mgrid) ORDER BY name") == [
        ("Barnes",), ("McKeough",), ("O'Neil",), ("Shoeman",), ("Smith",)]


def test_a_view_or_derived_table_as_the_table(employee: ifxwire.Cursor) -> None:
    """ids_sqs_2033: the table object may be "A table or updateable view" or "A derived
    table that is the result of a query". (Both were -999.)"""
    assert _rows(employee, "SELECT x.name, LEVEL, SYS_CONNECT_BY_PATH(x.name, '/') FROM "
                           "(SELECT * FROM employee WHERE empid <> 11) x START WITH empid = 16 "
                           "CONNECT BY PRIOR empid = mgrid ORDER SIBLINGS BY name") == [
        ("Goyal", 1, "/Goyal"), ("Henry", 2, "/Goyal/Henry"),
        ("O'Neil", 3, "/Goyal/Henry/O'Neil"), ("Shoeman", 3, "/Goyal/Henry/Shoeman"),
        ("Smith", 3, "/Goyal/Henry/Smith"), ("Scott", 2, "/Goyal/Scott")]
    employee.execute("CREATE TABLE staff10 (empid INT, name VARCHAR(10), mgrid INT)")
    employee.execute("INSERT INTO staff10 SELECT empid, name, mgrid FROM employee")
    employee.execute("CREATE VIEW staff10_v AS SELECT empid, name, mgrid FROM staff10")
    assert _rows(employee, "SELECT name, LEVEL, CONNECT_BY_ISLEAF, CONNECT_BY_ROOT name FROM "
                           "staff10_v START WITH empid = 11 CONNECT BY PRIOR empid = mgrid") == [
        ("Zander", 1, 0, "Zander"), ("McKeough", 2, 1, "Zander"), ("Barnes", 2, 1, "Zander")]
