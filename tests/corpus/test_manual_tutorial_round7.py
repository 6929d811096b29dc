"""The Informix Guide to SQL: Tutorial's printed results, seventh round (issue 23): pages not
compared by ``test_tutorial.py`` and the earlier rounds, run on our stores_demo corpus through
the real driver and the embedded server over sockets.

Each case names its page of the HCL Informix 14.10 Guide to SQL: Tutorial (``ids_sqt_NNN``,
https://help.hcl-software.com/hclinformix/1410/sqt/ and its mirror at
https://informix.hcldoc.com/14.10/help/topic/com.ibm.sqlt.doc/). The printed rows are facts
we compare against; the statements are ours, written from the pages. Changes are rolled back
or made in temp tables the case drops.

Not used: ``ids_sqt_176`` ("Subqueries in the FROM clause") prints customer 106's call of
1998-06-12 as the first row of a derived table sorted ``ORDER BY u.call_dtime DESC``, but the
latest call of stores_demo is customer 127's of 1998-07-31 (the Tutorial's own cust_calls
listing); the printed row is the table's first, so the page does not tell what a real server
returns.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from typing import Any

import pytest

import ifxwire

Row = tuple[Any, ...]


def _rows(cur: ifxwire.Cursor, sql: str) -> list[Row]:
    cur.execute(sql)
    return [tuple(v.rstrip() if isinstance(v, str) else v for v in r) for r in cur.fetchall()]


SELF_JOIN = ("SELECT x.order_num orders1, x.po_num purch1, x.ship_date ship1, "
             "y.order_num orders2, y.po_num purch2, y.ship_date ship2 "
             "FROM orders x, orders y WHERE x.ship_weight >= 5 * y.ship_weight "
             "AND x.ship_date IS NOT NULL AND y.ship_date IS NOT NULL "
             "ORDER BY orders1, orders2")


def test_self_join_into_temp_keeps_two_serial_columns(stores: ifxwire.Connection) -> None:
    """ids_sqt_161 ("Self-joins"): the self-join of orders, every column labelled, ``INTO
    TEMP shipping``; the page then prints ``SELECT * FROM shipping``. Both order_num columns
    are SERIAL, and a table may hold one SERIAL (-362): the statement was refused here. The
    temp table holds what the query returns (the page's first query has the same 22 pairs)."""
    cur = stores.cursor()
    expected = _rows(cur, SELF_JOIN)
    assert len(expected) == 22
    assert expected[0] == (1004, "8006", dt.date(1998, 5, 30), 1011, "B77897",
                           dt.date(1998, 7, 3))
    try:
        cur.execute(SELF_JOIN + " INTO TEMP shipping")
        assert cur.rowcount == 22
        assert _rows(cur, "SELECT * FROM shipping ORDER BY orders1, orders2") == expected
        # The temp table's first order_num stays a serial column; the second is INTEGER.
        cur.execute("SELECT * FROM shipping")
        assert [d[1] for d in cur.description][:4] == [6, 0, 7, 2]
        cur.fetchall()
    finally:
        cur.execute("DROP TABLE shipping")


def test_two_serials_in_create_temp_table_are_still_362(stores: ifxwire.Connection) -> None:
    """Never kinder: a CREATE [TEMP] TABLE that declares two SERIAL columns stays -362
    ("Can have only one column of type SERIAL"); only a query's columns are adapted."""
    cur = stores.cursor()
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("CREATE TEMP TABLE two_serials (a SERIAL, b SERIAL)")
    assert info.value.sqlcode == -362  # type: ignore[attr-defined]


def test_subquery_in_projection_clause(stores: ifxwire.Connection) -> None:
    """ids_sqt_175 ("Subqueries in a Projection clause"): each customer's total shipping
    charge by a correlated subquery; the page prints 101 $15.30, 102-103 and 105 empty, 104
    $38.00, … 123 $8.50, 124 $12.00, 125 empty, 126 $13.00, 127 $18.00, 128 empty (no ORDER
    BY: the rows come in customer_num order)."""
    cur = stores.cursor()
    rows = _rows(cur, "SELECT customer.customer_num, (SELECT SUM(ship_charge) FROM orders "
                      "WHERE customer.customer_num = orders.customer_num) AS total_ship_chg "
                      "FROM customer")
    assert [d[0] for d in cur.description] == ["customer_num", "total_ship_chg"]
    assert len(rows) == 28
    assert rows[:5] == [(101, D("15.30")), (102, None), (103, None), (104, D("38.00")),
                        (105, None)]
    assert rows[-6:] == [(123, D("8.50")), (124, D("12.00")), (125, None), (126, D("13.00")),
                         (127, D("18.00")), (128, None)]


def test_first_clause_without_order_by(stores: ifxwire.Connection) -> None:
    """ids_sqt_075 ("FIRST clause without an ORDER BY clause"): ``SELECT FIRST 5 * FROM
    state`` prints AK, HI, CA, OR, WA (the order the rows were loaded in), and ``SELECT FIRST
    1 * FROM orders`` prints order 1001 whole."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT FIRST 5 * FROM state") == [
        ("AK", "Alaska"), ("HI", "Hawaii"), ("CA", "California"), ("OR", "Oregon"),
        ("WA", "Washington")]
    assert [d[0] for d in cur.description] == ["code", "sname"]
    assert _rows(cur, "SELECT FIRST 1 * FROM orders") == [
        (1001, dt.date(1998, 5, 20), 104, "express", "n", "B77836", dt.date(1998, 6, 1),
         D("20.40"), D("10.00"), dt.date(1998, 7, 22))]
