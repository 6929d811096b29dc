"""Columns in a HAVING clause, thirteenth round (issue 23), through the real driver and the
embedded server over sockets.

Page: HCL Informix 14.10 Guide to SQL: Tutorial, "The HAVING clause" (ids_sqt_159): "Each
HAVING condition compares one column or aggregate expression of the group with another
aggregate expression of the group or with a constant"; without GROUP BY "all rows that
satisfy the search condition make up a single group", and a non-aggregate column in the
Projection clause then needs a GROUP BY. Its queries on items (COUNT(*) > 2 per order_num,
and the same without GROUP BY) are run on a few rows of ours. -304 "HAVING can only have
expressions with aggregates or columns in GROUP BY clause." is the message catalogue's in
IBM's JDBC jar (its text states this rule); -294 the catalogue's "The column (%s) must be in
the GROUP BY list.". Before this round both refused queries ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "having13") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE items (item_num INT, order_num INT, quantity INT, "
                  "total_price MONEY(8,2))")
        c.executemany("INSERT INTO items VALUES (?, ?, ?, ?)", [
            (1, 1003, 1, 20), (2, 1003, 2, 30), (3, 1003, 1, 40), (1, 1004, 1, 50)])
        yield c


def test_the_page_s_queries(cur: ifxwire.Cursor) -> None:
    """Groups of more than two rows; the same HAVING without GROUP BY is one group."""
    assert rows(cur, "SELECT order_num, COUNT(*) number, AVG(total_price) average "
                     "FROM items GROUP BY order_num HAVING COUNT(*) > 2") == [
        (1003, 3, Decimal("30"))]
    assert rows(cur, "SELECT AVG(total_price) average FROM items HAVING COUNT(*) > 2") == [
        (Decimal("35"),)]


def test_a_having_column_outside_group_by_is_304(cur: ifxwire.Cursor) -> None:
    """A column neither grouped nor inside an aggregate: -304 naming it."""
    assert sqlcode(cur, "SELECT order_num, COUNT(*) FROM items GROUP BY order_num "
                        "HAVING quantity > 1") == -304
    assert sqlcode(cur, "SELECT AVG(total_price) FROM items HAVING quantity > 1") == -304
    with pytest.raises(ifxwire.ProgrammingError, match="quantity"):
        cur.execute("SELECT order_num FROM items GROUP BY order_num HAVING quantity > 1")


def test_grouped_columns_aggregates_and_subqueries_pass(cur: ifxwire.Cursor) -> None:
    """A grouped column (by name or select number), a column inside an aggregate, and a
    subquery's own columns."""
    assert rows(cur, "SELECT order_num, COUNT(*) FROM items GROUP BY order_num "
                     "HAVING order_num > 1003") == [(1004, 1)]
    assert rows(cur, "SELECT order_num, COUNT(*) FROM items GROUP BY 1 "
                     "HAVING order_num > 1003") == [(1004, 1)]
    assert rows(cur, "SELECT order_num FROM items GROUP BY order_num HAVING MAX(quantity) > 1 "
                     "AND order_num IN (SELECT i.order_num FROM items i "
                     "WHERE i.quantity > 1)") == [(1003,)]


def test_having_without_group_by_groups_the_projection_294(cur: ifxwire.Cursor) -> None:
    """Without GROUP BY the rows are one group: a bare column in the Projection clause is
    -294, as with an aggregate beside it."""
    assert sqlcode(cur, "SELECT order_num FROM items HAVING COUNT(*) > 1") == -294
