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

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = rows

D = Decimal


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
    values as its projection has columns. The subqueries read a copy of orders: one that
    reads the table the UPDATE modifies is -360 (Syntax, ids_sqs_2005; round 13)."""
    cur = stores.cursor()
    ship = "SELECT ship_weight, ship_charge FROM orders WHERE order_num = 1001"
    assert sqlcode(cur, "UPDATE orders SET (ship_weight) = ((SELECT MAX(ship_weight) FROM "
                        "orders)) WHERE order_num = 1001", fetch=False) == -360
    cur.execute("SELECT order_num, ship_weight, ship_charge FROM orders INTO TEMP ord_copy")
    cur.execute("UPDATE orders SET (ship_weight) = ((SELECT MAX(ship_weight) FROM ord_copy)) "
                "WHERE order_num = 1001")
    assert cur.rowcount == 1
    assert _rows(cur, ship) == [(D("125.90"), D("10.00"))]
    cur.execute("UPDATE orders SET (ship_weight, ship_charge) = ((SELECT ship_weight, "
                "ship_charge FROM ord_copy WHERE order_num = 1002)) WHERE order_num = 1001")
    assert _rows(cur, ship) == [(D("50.60"), D("15.30"))]
    cur.execute("UPDATE orders SET (ship_weight, ship_charge) = (1, 2) WHERE order_num = 1001")
    assert _rows(cur, ship) == [(D("1.00"), D("2.00"))]
    cur.execute("UPDATE orders SET (ship_instruct, ship_weight, ship_charge) = ('by air', "
                "(SELECT 3, 4 FROM systables WHERE tabid = 1)) WHERE order_num = 1001")
    assert _rows(cur, "SELECT ship_instruct, ship_weight, ship_charge FROM orders "
                      "WHERE order_num = 1001") == [("by air", D("3.00"), D("4.00"))]
    with pytest.raises(ifxwire.ProgrammingError) as info:  # one value for two columns
        cur.execute("UPDATE orders SET (ship_weight, ship_charge) = ((SELECT ship_weight "
                    "FROM ord_copy WHERE order_num = 1002)) WHERE order_num = 1001")
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
    # A statement in parentheses is no subquery.
    assert _rows(cur, "(SELECT issue23_seq.NEXTVAL FROM manufact WHERE manu_code = 'ANZ')"
                 ) == [(6,)]
    cur.execute("CREATE TEMP TABLE seq_rows (a INT, b INT)")
    cur.execute("INSERT INTO seq_rows VALUES (issue23_seq.CURRVAL, issue23_seq.NEXTVAL)")
    cur.execute("UPDATE seq_rows SET (a, b) = (issue23_seq.CURRVAL, issue23_seq.NEXTVAL)")
    assert _rows(cur, "SELECT a, b FROM seq_rows") == [(8, 8)]


_CALLS = ("SELECT c.customer_num, c.lname, c.company, c.phone, u.call_dtime, u.call_descr "
          "FROM customer c {join} cust_calls u {on} ORDER BY 1, 5")


def test_left_outer_join_page_three_forms_agree(stores: ifxwire.Connection) -> None:
    """ids_sqt_165 ("Left outer join"): Query 1 (ANSI LEFT OUTER JOIN), the same join in
    Informix syntax (``, OUTER``, ``OUTER`` without the comma as the page prints it, and
    ``OUTER (u)``), and Query 2 / Query 3, which the page calls equivalent: the customers
    who never called (``u.customer_num IS NULL`` filters after the join)."""
    cur = stores.cursor()
    where = "WHERE c.customer_num = u.customer_num"
    ansi = _rows(cur, _CALLS.format(join="LEFT OUTER JOIN", on="ON c.customer_num = "
                                    "u.customer_num"))
    assert len(ansi) == 28 + 1  # 28 customers, 7 calls by 6 of them (116 called twice)
    for join in (", OUTER", "OUTER"):
        assert _rows(cur, _CALLS.format(join=join, on=where)) == ansi, join
    assert _rows(cur, _CALLS.format(join=", OUTER", on=where).replace(
        "cust_calls u", "(cust_calls u)")) == ansi
    query2 = _rows(cur, _CALLS.format(join="LEFT OUTER JOIN", on="ON c.customer_num = "
                                      "u.customer_num WHERE u.customer_num IS NULL"))
    query3 = _rows(cur, _CALLS.format(join="OUTER", on=where + " AND u.customer_num IS NULL"))
    assert query3 == query2
    assert [r[0] for r in query3] == [101, 102, 103, 104, 105, 107, 108, 109, 111, 112, 113,
                                      114, 115, 117, 118, 120, 122, 123, 124, 125, 126, 128]
    assert all(r[4] is None and r[5] is None for r in query3)


def test_outer_without_join_condition_and_nested_parentheses(
        stores: ifxwire.Connection) -> None:
    """With no join condition every subservient row joins every dominant row (28 x 7
    calls); ``OUTER (orders o, OUTER (items i))`` is ``OUTER (orders o, OUTER items i)``."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT COUNT(*) FROM customer c, OUTER cust_calls u") == [(196,)]
    nested = ("SELECT c.customer_num, o.order_num, i.item_num FROM customer c, "
              "OUTER (orders o, OUTER {items}) WHERE c.customer_num = o.customer_num "
              "AND o.order_num = i.order_num AND c.customer_num IN (101, 102) ORDER BY 1, 2, 3")
    plain = _rows(cur, nested.format(items="items i"))
    assert plain == [(101, 1002, 1), (101, 1002, 2), (102, None, None)]
    assert _rows(cur, nested.format(items="(items i)")) == plain


def test_derived_tables_without_a_name_and_with_olap(stores: ifxwire.Connection) -> None:
    """A derived table needs no correlation name (FROM clause, Guide to SQL: Syntax), also
    one holding an OLAP window aggregate; TABLE(MULTISET(SELECT …)) is a collection-derived
    table of the subquery's rows."""
    cur = stores.cursor()
    olap = "SELECT customer_num, COUNT(*) OVER (PARTITION BY customer_num) AS n FROM orders"
    want = [(104, D(4))] * 4
    assert _rows(cur, f"SELECT * FROM ({olap}) WHERE n > 2") == want
    assert _rows(cur, f"SELECT * FROM ({olap}) AS t WHERE t.n > 2") == want
    assert _rows(cur, "SELECT customer_num FROM (SELECT customer_num FROM orders) "
                      "WHERE customer_num > 126") == [(127,)]
    assert _rows(cur, "SELECT * FROM (SELECT customer_num, COUNT(*) n FROM orders "
                      "GROUP BY 1) WHERE n > 3") == [(104, D(4))]
    cur.execute("CREATE VIEW late_customers AS SELECT * FROM (SELECT customer_num FROM "
                "orders) WHERE customer_num > 126")
    assert _rows(cur, "SELECT * FROM late_customers, (SELECT tabid FROM systables WHERE "
                      "tabid = 1)") == [(127, 1)]
    assert _rows(cur, "SELECT * FROM TABLE(MULTISET(SELECT manu_code, manu_name FROM manufact "
                      "WHERE manu_code < 'HSK')) ORDER BY 1") == [("ANZ", "Anza"),
                                                                  ("HRO", "Hero")]
    assert _rows(cur, "SELECT * FROM TABLE(MULTISET(SELECT order_num, COUNT(*) OVER "
                      "(PARTITION BY customer_num) FROM orders WHERE customer_num = 104)) "
                      "t(o, n) ORDER BY 1") == [(1001, D(4)), (1003, D(4)), (1011, D(4)),
                                                (1013, D(4))]


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT manu_code FROM manufact WHERE issue23_r.NEXTVAL > 0", -8319),
    ("SELECT manu_code FROM manufact ORDER BY issue23_r.NEXTVAL", -8319),
    ("SELECT COUNT(*) FROM manufact GROUP BY issue23_r.NEXTVAL", -8319),
    ("SELECT (SELECT issue23_r.NEXTVAL FROM systables WHERE tabid = 1) FROM manufact", -8319),
    ("SELECT issue23_r.NEXTVAL FROM manufact UNION SELECT 1 FROM manufact", -8319),
    ("UPDATE manufact SET lead_time = lead_time WHERE issue23_r.CURRVAL = 1", -8319),
    ("SELECT DISTINCT issue23_r.NEXTVAL FROM manufact", -8325),
])
def test_sequence_operator_restrictions(stores: ifxwire.Connection, sql: str,
                                        code: int) -> None:
    """ids_sqs_1465, "Restrictions on sequence operators": not in WHERE, GROUP BY, ORDER BY,
    a subquery, a UNION (-8319 "Sequence object cannot be used here") nor a DISTINCT
    projection (-8325 "Distinct clause is not allowed on a sequence"), the codes whose texts
    IBM's JDBC message catalogue gives for these cases."""
    cur = stores.cursor()
    cur.execute("CREATE SEQUENCE issue23_r")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql)
    assert info.value.sqlcode == code


@pytest.mark.parametrize("sql", [
    "SELECT COUNT(*) FROM customer, OUTER orders RIGHT JOIN cust_calls ON "
    "(customer.customer_num = orders.customer_num) WHERE customer.customer_num = "
    "cust_calls.customer_num",
    "SELECT COUNT(*) FROM customer c LEFT JOIN orders o ON c.customer_num = o.customer_num, "
    "OUTER cust_calls u WHERE c.customer_num = u.customer_num",
])
def test_informix_outer_beside_an_ansi_join(stores: ifxwire.Connection, sql: str) -> None:
    """The first is the query the Syntax guide calls not valid (FROM clause, "Informix-
    Extension Outer Joins": one syntax for all outer joins of a query block); -19820 is the
    catalogue's "Informix OUTER JOIN and ANSI JOIN in the same query block."."""
    with pytest.raises(ifxwire.Error) as info:
        stores.cursor().execute(sql)
    assert info.value.sqlcode == -19820


def test_two_subservient_tables_related_need_parentheses(stores: ifxwire.Connection) -> None:
    """Guide to SQL: Syntax, Informix-Extension Outer Joins: "When an expression or a
    condition in the WHERE clause relates two subordinate tables, you must use parentheses
    around the joined tables"; without them -393 ("... results in a two-sided outer
    join."). Two OUTER tables each joined to the dominant one need none."""
    cur = stores.cursor()
    where = ("WHERE c.customer_num = o.customer_num AND o.order_num = i.order_num "
             "AND c.customer_num IN (101, 102)")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(f"SELECT c.customer_num FROM customer c, OUTER orders o, OUTER items i "
                    f"{where}")
    assert info.value.sqlcode == -393
    assert _rows(cur, f"SELECT c.customer_num, o.order_num, i.item_num FROM customer c, "
                      f"OUTER (orders o, OUTER items i) {where} ORDER BY 1, 2, 3") == [
        (101, 1002, 1), (101, 1002, 2), (102, None, None)]
    assert _rows(cur, "SELECT COUNT(*) FROM customer c, OUTER orders o, OUTER cust_calls u "
                      "WHERE c.customer_num = o.customer_num AND c.customer_num = "
                      "u.customer_num") == [(35,)]
