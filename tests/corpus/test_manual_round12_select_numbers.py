"""ORDER BY and GROUP BY select numbers, twelfth round (issue 23), through the real driver and
the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "Ordering by a Column or by an Expression"
(ids_sqs_1053: a select number names a Projection clause item, also one without a display
label) and "Restrictions on a Combined SELECT" (ids_sqs_1073: a combined query's ORDER BY
names "each ordered item by its integer select_number, not by its SQL identifier"). Codes
from the message catalogue in IBM's JDBC jar: -251 "ORDER BY or GROUP BY column number is
too big." and -374 "Can only use column number in ORDER BY clause with UNION.". Before this
round a number past the list was -217 and a name in a combined query's ORDER BY was
accepted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "selnum") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t1 (a INT, b INT)")
        c.executemany("INSERT INTO t1 VALUES (?, ?)", [(1, 30), (2, 10), (3, 20)])
        yield c


def test_numbers_name_projection_items(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1053: ORDER BY 2 sorts by the second item, also an unlabelled expression;
    numbers and names mix; GROUP BY takes select numbers too."""
    assert rows(cur, "SELECT a, b FROM t1 ORDER BY 2 DESC") == [(1, 30), (3, 20), (2, 10)]
    assert rows(cur, "SELECT a, b * -1 FROM t1 ORDER BY 2") == [(1, -30), (3, -20), (2, -10)]
    assert rows(cur, "SELECT a FROM t1 ORDER BY b, 1") == [(2,), (3,), (1,)]
    assert rows(cur, "SELECT b - b, COUNT(*) FROM t1 GROUP BY 1") == [(0, 3)]


def test_a_number_past_the_list_is_251(cur: ifxwire.Cursor) -> None:
    """-251 for ORDER BY and GROUP BY, for a written list and for ``*``, in a combined query
    and in a query that makes a table (was -217)."""
    assert sqlcode(cur, "SELECT a FROM t1 ORDER BY 2") == -251
    assert sqlcode(cur, "SELECT a, b FROM t1 ORDER BY 1, 3 DESC") == -251
    assert sqlcode(cur, "SELECT a FROM t1 GROUP BY 2") == -251
    assert sqlcode(cur, "SELECT * FROM t1 ORDER BY 3") == -251
    assert sqlcode(cur, "SELECT a FROM t1 UNION SELECT b FROM t1 ORDER BY 2") == -251
    assert sqlcode(cur, "SELECT a FROM t1 ORDER BY 2 INTO TEMP tt") == -251
    assert sqlcode(cur, "CREATE TABLE ct AS SELECT a FROM t1 ORDER BY 2") == -251


@pytest.mark.parametrize("op", ["UNION", "UNION ALL", "INTERSECT", "MINUS"])
def test_a_combined_query_orders_by_number_only(cur: ifxwire.Cursor, op: str) -> None:
    """ids_sqs_1073: a name, a display label or an expression in a combined query's ORDER BY
    is -374 (all were accepted); the select number sorts after the set operation."""
    base = f"SELECT a x FROM t1 {op} SELECT b - 28 FROM t1"
    assert sqlcode(cur, f"{base} ORDER BY a") == -374
    assert sqlcode(cur, f"{base} ORDER BY x") == -374
    assert sqlcode(cur, f"{base} ORDER BY 1, x") == -374
    assert sqlcode(cur, f"{base} ORDER BY a + 1") == -374
    ordered = [r[0] for r in rows(cur, f"{base} ORDER BY 1 DESC")]
    assert ordered == sorted(ordered, reverse=True) and ordered


def test_names_order_a_derived_table_of_a_combined_query(cur: ifxwire.Cursor) -> None:
    """The outer query of a derived table is no combined query: its ORDER BY may name the
    derived columns (how the SQLAlchemy and Django backends order a combined query), and a
    subquery's combined query has no ORDER BY of its own to check."""
    assert rows(cur, "SELECT * FROM (SELECT a x FROM t1 UNION SELECT b FROM t1) "
                     "ORDER BY x DESC") == [(30,), (20,), (10,), (3,), (2,), (1,)]
    assert rows(cur, "SELECT a FROM t1 WHERE a IN (SELECT a FROM t1 UNION "
                     "SELECT b FROM t1) ORDER BY a") == [(1,), (2,), (3,)]
