"""SET PDQPRIORITY, SET OPTIMIZATION, SET EXPLAIN and SET DEBUG FILE as applications send them,
fourteenth round (issue 23), through the real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "SET PDQPRIORITY statement" (ids_sqs_1179:
DEFAULT, LOW, OFF, HIGH or resources, an integer that "Can range from -1 to 100"), SET
OPTIMIZATION and SET EXPLAIN (accepted with no effect on results since the fifth round). The
codes are those of IBM's message catalogue in the JDBC jar: -19837 "Invalid PDQ priority value
specified.", -25789 "The file name in SET EXPLAIN FILE or SET DEBUG FILE must be a non-null
string.". Before this round SET PDQPRIORITY 101 and SET EXPLAIN FILE TO '' were accepted and
SET DEBUG FILE TO '' was -999.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "sets14") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (a INT)")
        c.execute("INSERT INTO t VALUES (1)")
        yield c


@pytest.mark.parametrize("sql", [
    "SET PDQPRIORITY DEFAULT", "SET PDQPRIORITY LOW", "SET PDQPRIORITY OFF",
    "SET PDQPRIORITY HIGH", "SET PDQPRIORITY -1", "SET PDQPRIORITY 0",
    "SET PDQPRIORITY 80", "SET PDQPRIORITY 100", "SET OPTIMIZATION FIRST_ROWS",
    "SET OPTIMIZATION ALL_ROWS", "SET OPTIMIZATION HIGH", "SET OPTIMIZATION LOW",
    "SET EXPLAIN ON", "SET EXPLAIN ON AVOID_EXECUTE", "SET EXPLAIN OFF",
    "SET EXPLAIN FILE TO 'plan.out' WITH APPEND"])
def test_the_page_s_forms_are_accepted(cur: ifxwire.Cursor, sql: str) -> None:
    cur.execute(sql)
    assert rows(cur, "SELECT a FROM t") == [(1,)]


@pytest.mark.parametrize("value", ["101", "-2", "1000", "50.5"])
def test_a_pdq_priority_outside_minus_one_to_100_is_19837(cur: ifxwire.Cursor,
                                                          value: str) -> None:
    assert sqlcode(cur, f"SET PDQPRIORITY {value}", fetch=False) == -19837


def test_an_empty_explain_or_debug_file_name_is_25789(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "SET EXPLAIN FILE TO ''", fetch=False) == -25789
    assert sqlcode(cur, "SET DEBUG FILE TO ''", fetch=False) == -25789
    assert rows(cur, "SELECT a FROM t") == [(1,)]
