"""SELECT … INTO a table inside an SPL routine, thirteenth round (issue 23), through the real
driver and the embedded server over sockets.

Page: HCL Informix 14.10 Guide to SQL: Syntax, "SQL Statements Valid in SPL Statement Blocks"
(ids_sqs_1752): "Only two forms of the SELECT statement are valid in queries within SPL
routines": INTO TEMP, and SELECT … INTO SPL variables. The routines are ours, after the INTO
table examples of "INTO table clauses" (ids_sqs_0159: tab1, stab1). Before this round INTO
STANDARD stab1 was read as INTO a variable named standard (-217) and a bare INTO table after
FROM as INTO a variable; both are outside the SPL grammar now, -201 (the code is inferred).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "splinto") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE tab1 (col1 INT, col2 CHAR(4))")
        c.executemany("INSERT INTO tab1 VALUES (?, ?)", [(1, "a"), (50, "b"), (120, "c")])
        yield c


def test_into_standard_raw_or_a_table_in_spl_is_201(cur: ifxwire.Cursor) -> None:
    """INTO STANDARD, INTO RAW and a bare INTO table after FROM: -201, no routine made."""
    for clause in ("INTO STANDARD stab1", "INTO RAW stab1", "INTO stab1"):
        assert sqlcode(cur, "CREATE PROCEDURE mk() SELECT col1, col2 FROM tab1 "
                            f"{clause}; END PROCEDURE", fetch=False) == -201, clause
    assert rows(cur, "SELECT COUNT(*) FROM sysprocedures WHERE procname = 'mk'") == [(0,)]


def test_the_two_valid_forms_still_work(cur: ifxwire.Cursor) -> None:
    """INTO TEMP makes the table; INTO variables before FROM fills them."""
    cur.execute("CREATE PROCEDURE mk() SELECT col1, col2 FROM tab1 WHERE col1 > 10 "
                "INTO TEMP tt1; END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE mk()")
    assert rows(cur, "SELECT * FROM tt1 ORDER BY 1", strip=True) == [(50, "b"), (120, "c")]
    cur.execute("CREATE FUNCTION top1() RETURNING INT; DEFINE x INT; "
                "SELECT MAX(col1) INTO x FROM tab1; RETURN x; END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION top1()") == [(120,)]


def test_a_routine_s_statements_meet_the_client_rules(cur: ifxwire.Cursor) -> None:
    """The rules a client's statement meets hold in a routine, checked when it is created:
    an UPDATE whose SET subquery reads its own table (-360, ids_sqs_2005), INTO TEMP ordered
    by an unlisted column (-309, ids_sqs_1053). Both routines were created before."""
    assert sqlcode(cur, "CREATE PROCEDURE p1() UPDATE tab1 SET col1 = (SELECT MAX(col1) "
                        "FROM tab1); END PROCEDURE", fetch=False) == -360
    assert sqlcode(cur, "CREATE PROCEDURE p2() SELECT col2 FROM tab1 ORDER BY col1 "
                        "INTO TEMP tt2; END PROCEDURE", fetch=False) == -309
    cur.execute("CREATE PROCEDURE p3(x INT) UPDATE tab1 SET col2 = 'z' WHERE col1 = x; "
                "END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE p3(50)")
    assert rows(cur, "SELECT col2 FROM tab1 WHERE col1 = 50", strip=True) == [("z",)]
