"""Built-in casts between the time types and numbers, sixteenth round (issue 23), through
the real driver and the embedded server over sockets.

Page: HCL Informix 14.10 Guide to SQL: Reference, "Using Built-in Casts" (ids_sqr_167): the
built-in casts convert a character type to or from any other built-in type and a number to
any other number; "explicit casts with the UNITS operator are required for number-to-INTERVAL
conversion", and DATE to DATETIME goes through EXTEND or a cast. No built-in cast makes an
INTERVAL or a DATETIME a number. Before this round ``CAST(INTERVAL(1) SECOND TO SECOND AS
INT)`` returned 100000 (the server's storage unit, tens of microseconds), a YEAR TO MONTH
interval its month count and ``DATETIME(2024) YEAR TO YEAR::INT`` 2024, while a DATETIME
YEAR TO DAY cast to DECIMAL failed with -1213 (a character conversion it never asked
for). The code, -1260 "It is not possible to convert between the specified types." (message
catalogue in IBM's JDBC jar), is an inference: no page prints the case.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "cast16") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (iv INTERVAL DAY TO SECOND, d DATETIME YEAR TO DAY)")
        c.execute("INSERT INTO t VALUES (INTERVAL(1 00:00:01) DAY TO SECOND, "
                  "DATETIME(2024-02-29) YEAR TO DAY)")
        yield c


@pytest.mark.parametrize("expr", [
    "CAST(INTERVAL(1) SECOND TO SECOND AS INT)",
    "INTERVAL(1-2) YEAR TO MONTH::INTEGER",
    "CAST(INTERVAL(1) SECOND TO SECOND AS DECIMAL(20,2))",
    "CAST(INTERVAL(1) SECOND TO SECOND AS FLOAT)",
    "DATETIME(2024) YEAR TO YEAR::INT",
    "CAST(DATETIME(2024-01-01) YEAR TO DAY AS DECIMAL(10))",
    "CAST(iv AS BIGINT)",
    "d::SMALLFLOAT",
    "CAST(5 AS INTERVAL DAY TO DAY)",
])
def test_no_cast_between_a_time_type_and_a_number(cur: ifxwire.Cursor, expr: str) -> None:
    """ids_sqr_167: no built-in cast between INTERVAL/DATETIME and a number, either way."""
    assert sqlcode(cur, f"SELECT {expr} FROM t") == -1260


def test_the_casts_the_page_lists(cur: ifxwire.Cursor) -> None:
    """What ids_sqr_167 lists still converts: UNITS makes a number an INTERVAL, a time
    value becomes character text and back, DATE becomes DATETIME, and a DATE is a number
    of days (DATE::INT, Guide to SQL: Reference, DATE data type: days since 1899-12-31)."""
    assert rows(cur, "SELECT 5 UNITS DAY FROM t") == [(dt.timedelta(days=5),)]
    assert rows(cur, "SELECT CAST(d AS CHAR(10)), CAST('5' AS INTERVAL DAY TO DAY) "
                     "FROM t") == [("2024-02-29", dt.timedelta(days=5))]
    assert rows(cur, "SELECT CAST(DATE('2024-01-01') AS DATETIME YEAR TO DAY), "
                     "DATE('1900-01-01')::INT FROM t") == [(dt.date(2024, 1, 1), 1)]
    assert rows(cur, "SELECT (EXTEND(d, YEAR TO YEAR)::CHAR(4))::INTEGER FROM t") == [(2024,)]


@pytest.mark.parametrize("sql", [
    "INSERT INTO n (i) SELECT iv FROM t",
    "INSERT INTO n (i) VALUES (INTERVAL(1) SECOND TO SECOND)",
    "INSERT INTO n (m) SELECT d FROM t",
    "UPDATE n SET i = (SELECT iv FROM t)",
])
def test_no_assignment_of_a_time_value_to_a_number(cur: ifxwire.Cursor, sql: str) -> None:
    """The same rule for an assignment: an INTERVAL stored into an INTEGER column kept the
    server's tens of microseconds (864000100 for a day and a second)."""
    cur.execute("CREATE TABLE n (i INT, m MONEY)")
    cur.execute("INSERT INTO n VALUES (1, 2)")
    assert sqlcode(cur, sql) == -1260
    assert rows(cur, "SELECT i, m FROM n") == [(1, 2)]
