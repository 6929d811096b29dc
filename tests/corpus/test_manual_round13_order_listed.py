"""ORDER BY keys that must be in the select list, thirteenth round (issue 23), through the
real driver and the embedded server over sockets.

Page: HCL Informix 14.10 Guide to SQL: Syntax, "Ordering by a Column or by an Expression"
(ids_sqs_1053): ORDER BY may name columns and expressions the Projection clause does not list,
"however" the select list must include any column or expression the ORDER BY clause specifies
when the query has DISTINCT, UNIQUE or UNION, or INTO TEMP. The statements are ours, on a
small orders table shaped after the page's (``SELECT ship_date FROM orders ORDER BY
order_date``). Codes: -309 "ORDER BY column (%s) must be in SELECT list." and -19828 "ORDER
BY column or expression must be in SELECT list in this context." are the message catalogue's
in IBM's JDBC jar; which of them a server sends here no witness says (docs/SERVER.md). Before
this round every such query ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "ordlisted") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE orders (order_num INT, customer_num INT, order_date DATE, "
                  "ship_date DATE)")
        c.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)", [
            (1001, 104, "05/20/2008", "06/01/2008"), (1002, 101, "05/21/2008", "05/26/2008"),
            (1003, 104, "05/22/2008", "05/23/2008")])
        yield c


def test_the_page_s_plain_query_orders_by_an_unlisted_column(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1053: ``SELECT ship_date FROM orders ORDER BY order_date`` is allowed."""
    assert [r[0].day for r in rows(cur, "SELECT ship_date FROM orders ORDER BY order_date")] \
        == [1, 26, 23]


def test_distinct_and_unique_need_a_listed_column_309(cur: ifxwire.Cursor) -> None:
    """With DISTINCT or UNIQUE an ORDER BY column outside the select list is -309."""
    assert sqlcode(cur, "SELECT DISTINCT customer_num FROM orders ORDER BY order_date") == -309
    assert sqlcode(cur, "SELECT UNIQUE customer_num FROM orders ORDER BY order_num") == -309
    # also in a derived table
    assert sqlcode(cur, "SELECT * FROM (SELECT DISTINCT customer_num FROM orders "
                        "ORDER BY order_num)") == -309
    with pytest.raises(ifxwire.ProgrammingError, match="order_date"):
        cur.execute("SELECT DISTINCT customer_num FROM orders ORDER BY order_date")


def test_distinct_keys_that_are_listed(cur: ifxwire.Cursor) -> None:
    """A listed column (bare or qualified), its display label, a select number, and an
    expression the list repeats are all in the select list."""
    for sql in ("SELECT DISTINCT customer_num FROM orders ORDER BY customer_num DESC",
                "SELECT DISTINCT customer_num FROM orders ORDER BY orders.customer_num DESC",
                "SELECT DISTINCT customer_num cnum FROM orders ORDER BY cnum DESC",
                "SELECT DISTINCT customer_num FROM orders ORDER BY 1 DESC"):
        assert rows(cur, sql) == [(104,), (101,)], sql
    assert rows(cur, "SELECT DISTINCT customer_num + 1 FROM orders "
                     "ORDER BY customer_num + 1") == [(102,), (105,)]


def test_distinct_with_an_unlisted_expression_19828(cur: ifxwire.Cursor) -> None:
    """An expression the list does not hold, even one over listed columns, is not in the
    select list: -19828 (the catalogue's message for a column or expression)."""
    assert sqlcode(cur, "SELECT DISTINCT customer_num FROM orders "
                        "ORDER BY customer_num * -1") == -19828


def test_into_temp_needs_listed_keys(cur: ifxwire.Cursor) -> None:
    """INTO TEMP: the same rule (-309, no table made); a listed key or a select number
    works; INTO STANDARD may still sort by other columns (ids_sqs_2106)."""
    assert sqlcode(cur, "SELECT customer_num FROM orders ORDER BY order_date "
                        "INTO TEMP t1", fetch=False) == -309
    assert sqlcode(cur, "SELECT * FROM t1") == -206
    cur.execute("SELECT customer_num, order_date FROM orders ORDER BY order_date INTO TEMP t2")
    assert cur.rowcount == 3
    cur.execute("SELECT order_num FROM orders ORDER BY 1 DESC INTO TEMP t3")
    cur.execute("SELECT order_num FROM orders ORDER BY ship_date INTO STANDARD s1")
    assert rows(cur, "SELECT COUNT(*) FROM s1") == [(3,)]


def test_union_orders_by_numbers_only(cur: ifxwire.Cursor) -> None:
    """A UNION names its keys by select number (-374, round 12); by number it works."""
    assert sqlcode(cur, "SELECT customer_num FROM orders UNION SELECT order_num FROM orders "
                        "ORDER BY order_date") == -374
    assert rows(cur, "SELECT customer_num FROM orders UNION SELECT order_num FROM orders "
                     "ORDER BY 1") == [(101,), (104,), (1001,), (1002,), (1003,)]
