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
from functools import partial
from typing import Any

import pytest

import ifxwire

from .manual import rows

_rows = partial(rows, strip=True)

Row = tuple[Any, ...]


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


def test_case_expression_flags_unshipped_orders(stores: ifxwire.Connection) -> None:
    """ids_sqt_080 ("CASE expressions"): ``CASE WHEN ship_date IS NULL THEN "order not
    shipped" END`` (a double-quoted string: no DELIMIDENT) over orders, no ELSE; the page
    prints 1001-1007 with only 1006 flagged, then 1019-1023 unflagged (table order)."""
    cur = stores.cursor()
    rows = _rows(cur, 'SELECT order_num, order_date, CASE WHEN ship_date IS NULL '
                      'THEN "order not shipped" END FROM orders')
    assert [d[0] for d in cur.description] == ["order_num", "order_date", "(expression)"]
    head = [(1001, dt.date(1998, 5, 20), None), (1002, dt.date(1998, 5, 21), None),
            (1003, dt.date(1998, 5, 22), None), (1004, dt.date(1998, 5, 22), None),
            (1005, dt.date(1998, 5, 24), None),
            (1006, dt.date(1998, 5, 30), "order not shipped"),
            (1007, dt.date(1998, 5, 31), None)]
    tail = [(1019, dt.date(1998, 7, 11), None), (1020, dt.date(1998, 7, 11), None),
            (1021, dt.date(1998, 7, 23), None), (1022, dt.date(1998, 7, 24), None),
            (1023, dt.date(1998, 7, 24), None)]
    assert rows[:7] == head
    assert rows[-5:] == tail


@pytest.mark.parametrize("order_by", ["span", "4"])
def test_sorting_on_a_derived_interval_column(stores: ifxwire.Connection,
                                              order_by: str) -> None:
    """ids_sqt_081 ("Sorting on derived columns"): ``res_dtime - call_dtime span`` sorted by
    its label and by its number; the page prints all seven calls, the unresolved call
    (NULL span) first, then 0 00:01, 0 00:05, 0 00:06, 0 03:13, 0 17:21 and 5 20:55
    (INTERVAL DAY TO MINUTE)."""
    cur = stores.cursor()
    rows = _rows(cur, "SELECT customer_num, call_code, call_dtime, res_dtime - call_dtime span "
                      f"FROM cust_calls ORDER BY {order_by}")
    mins = dt.timedelta(minutes=1)
    assert rows == [
        (127, "I", dt.datetime(1998, 7, 31, 14, 30), None),
        (121, "O", dt.datetime(1998, 7, 10, 14, 5), 1 * mins),
        (106, "D", dt.datetime(1998, 6, 12, 8, 20), 5 * mins),
        (110, "L", dt.datetime(1998, 7, 7, 10, 24), 6 * mins),
        (116, "I", dt.datetime(1997, 11, 28, 13, 34), (3 * 60 + 13) * mins),
        (119, "B", dt.datetime(1998, 7, 1, 15, 0), (17 * 60 + 21) * mins),
        (116, "I", dt.datetime(1997, 12, 21, 11, 24), dt.timedelta(days=5, hours=20,
                                                                   minutes=55))]


CATALOG_JOIN = ("FROM catalog, stock, manufact WHERE catalog.stock_num = stock.stock_num "
                "AND stock.manu_code = manufact.manu_code AND catalog_num = 10025")


def test_multiple_table_join_repeats_the_shared_columns(stores: ifxwire.Connection) -> None:
    """ids_sqt_089 ("Multiple-table join"): ``SELECT *`` over catalog, stock and manufact
    prints manu_code three times and stock_num twice, each table's columns in turn; naming
    the columns (``catalog.*, description, …``) prints each once. The stock and manufact
    values are the page's (106 PRC bicycle stem $23.00 each each ProCycle 9); our catalog
    entry 10025 is written in our own words (data.sql), so its texts are not compared."""
    cur = stores.cursor()
    (row,) = _rows(cur, "SELECT * " + CATALOG_JOIN)
    assert [d[0] for d in cur.description] == [
        "catalog_num", "stock_num", "manu_code", "cat_descr", "cat_picture", "cat_advert",
        "stock_num", "manu_code", "description", "unit_price", "unit", "unit_descr",
        "manu_code", "manu_name", "lead_time"]
    assert row[:3] == (10025, 106, "PRC")
    assert row[6:] == (106, "PRC", "bicycle stem", D("23.00"), "each", "each", "PRC",
                       "ProCycle", dt.timedelta(days=9))
    (row,) = _rows(cur, "SELECT catalog.*, description, unit_price, unit, unit_descr, "
                        "manu_name, lead_time " + CATALOG_JOIN)
    assert [d[0] for d in cur.description][6:] == [
        "description", "unit_price", "unit", "unit_descr", "manu_name", "lead_time"]
    assert row[:3] == (10025, 106, "PRC")
    assert row[6:] == ("bicycle stem", D("23.00"), "each", "each", "ProCycle",
                       dt.timedelta(days=9))


def test_union_tagged_by_a_literal_into_temp(stores: ifxwire.Connection) -> None:
    """ids_sqt_197 ("A literal in the Projection clause"): the union of the California
    customers tagged ``'1' sortkey`` and the others tagged ``'2'``, ``INTO TEMP calcust``,
    then ``SELECT * FROM calcust ORDER BY 1``: the page prints Baxter and Beatty (Oakland,
    Menlo Park) among the 1s, first, and Wallack (City Sports, Wilmington DE) among the 2s.
    Rows tying on sortkey may come in any order, so each printed row is looked for in its
    group."""
    cur = stores.cursor()
    cur.execute("SELECT '1' sortkey, lname, fname, company, city, state, phone FROM customer x "
                "WHERE state = 'CA' UNION SELECT '2' sortkey, lname, fname, company, city, "
                "state, phone FROM customer y WHERE state <> 'CA' INTO TEMP calcust")
    try:
        rows = _rows(cur, "SELECT * FROM calcust ORDER BY 1")
        assert [d[0] for d in cur.description] == [
            "sortkey", "lname", "fname", "company", "city", "state", "phone"]
        keys = [r[0] for r in rows]
        assert keys == sorted(keys) and keys.count("1") == 18 and keys.count("2") == 10
        ones, twos = rows[:18], rows[18:]
        assert ("1", "Baxter", "Dick", "Blue Ribbon Sports", "Oakland", "CA",
                "415-655-0011") in ones
        assert ("1", "Beatty", "Lana", "Sportstown", "Menlo Park", "CA", "415-356-9982") in ones
        assert ("2", "Wallack", "Jason", "City Sports", "Wilmington", "DE",
                "302-366-7511") in twos
    finally:
        cur.execute("DROP TABLE calcust")
