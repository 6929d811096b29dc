"""SQL from public Informix material that the server once got wrong (issue 23), run on our
stores_demo corpus through the real driver.

Models: Guide to SQL: Syntax, "Using CURRVAL" (ids_sqs_1463: with both CURRVAL and NEXTVAL
of a sequence in a statement "the sequence is incremented only once ... each CURRVAL and
NEXTVAL expression returns the same value, regardless of the order"), "Using NEXTVAL"
(ids_sqs_1462: CURRVAL needs a NEXTVAL first in the session), UPDATE's multiple-column SET
format, the Tutorial's outer-join pages (ids_sqt_165, Informix-extension ``OUTER``), and
the statements dbexport writes. Every change is rolled back.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire

D = Decimal


def _rows(cur: ifxwire.Cursor, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    cur.execute(sql, params)
    return [tuple(r) for r in cur.fetchall()]


def test_view_multiplying_money_by_a_money_literal(stores: ifxwire.Connection) -> None:
    """``total_price * '$1.00'``: the string is a MONEY literal next to a MONEY column."""
    cur = stores.cursor()
    cur.execute("CREATE VIEW money_totals (order_num, total) AS SELECT order_num, "
                "SUM(total_price * '$1.00') FROM items GROUP BY order_num")
    got = _rows(cur, "SELECT order_num, total FROM money_totals WHERE order_num IN "
                     "(1001, 1002, 1023) ORDER BY 1")
    assert got == [(1001, D("250.00")), (1002, D("1200.00")), (1023, D("824.00"))]


def test_update_multiple_column_set_with_subqueries(stores: ifxwire.Connection) -> None:
    """``SET (c) = ((SELECT …))``, ``SET (a, b) = ((SELECT x, y …))`` and ``SET (a, b) =
    (1, 2)``: the outer parentheses hold the value list, a subquery in it gives as many
    values as its projection has columns."""
    cur = stores.cursor()
    ship = "SELECT ship_weight, ship_charge FROM orders WHERE order_num = 1001"
    cur.execute("UPDATE orders SET (ship_weight) = ((SELECT MAX(ship_weight) FROM orders)) "
                "WHERE order_num = 1001")
    assert cur.rowcount == 1
    assert _rows(cur, ship) == [(D("125.90"), D("10.00"))]
    cur.execute("UPDATE orders SET (ship_weight, ship_charge) = ((SELECT ship_weight, "
                "ship_charge FROM orders WHERE order_num = 1002)) WHERE order_num = 1001")
    assert _rows(cur, ship) == [(D("50.60"), D("15.30"))]
    cur.execute("UPDATE orders SET (ship_weight, ship_charge) = (1, 2) WHERE order_num = 1001")
    assert _rows(cur, ship) == [(D("1.00"), D("2.00"))]
    cur.execute("UPDATE orders SET (ship_instruct, ship_weight, ship_charge) = ('by air', "
                "(SELECT 3, 4 FROM systables WHERE tabid = 1)) WHERE order_num = 1001")
    assert _rows(cur, "SELECT ship_instruct, ship_weight, ship_charge FROM orders "
                      "WHERE order_num = 1001") == [("by air", D("3.00"), D("4.00"))]
    with pytest.raises(ifxwire.ProgrammingError) as info:  # one value for two columns
        cur.execute("UPDATE orders SET (ship_weight, ship_charge) = ((SELECT ship_weight "
                    "FROM orders WHERE order_num = 1002)) WHERE order_num = 1001")
    assert info.value.sqlcode == -236


def test_currval_and_nextval_in_one_statement(stores: ifxwire.Connection) -> None:
    cur = stores.cursor()
    cur.execute("CREATE SEQUENCE issue23_seq")
    with pytest.raises(ifxwire.Error) as info:  # no NEXTVAL yet in this session
        cur.execute("SELECT issue23_seq.CURRVAL FROM manufact")
        cur.fetchall()
    assert info.value.sqlcode == -8315
    # CURRVAL before NEXTVAL in the list: one step per row, both the same value.
    assert _rows(cur, "SELECT issue23_seq.CURRVAL, issue23_seq.NEXTVAL FROM manufact "
                      "WHERE manu_code IN ('ANZ', 'HRO', 'HSK') ORDER BY 1") == [
        (1, 1), (2, 2), (3, 3)]
    assert _rows(cur, "SELECT issue23_seq.NEXTVAL, issue23_seq.CURRVAL, issue23_seq.NEXTVAL "
                      "FROM manufact WHERE manu_code IN ('ANZ', 'HRO') ORDER BY 1") == [
        (4, 4, 4), (5, 5, 5)]
    # Alone, CURRVAL is the session's last NEXTVAL on every row.
    assert _rows(cur, "SELECT issue23_seq.CURRVAL FROM manufact "
                      "WHERE manu_code IN ('ANZ', 'HRO')") == [(5,), (5,)]
    cur.execute("CREATE TEMP TABLE seq_rows (a INT, b INT)")
    cur.execute("INSERT INTO seq_rows VALUES (issue23_seq.CURRVAL, issue23_seq.NEXTVAL)")
    cur.execute("UPDATE seq_rows SET (a, b) = (issue23_seq.CURRVAL, issue23_seq.NEXTVAL)")
    assert _rows(cur, "SELECT a, b FROM seq_rows") == [(7, 7)]
