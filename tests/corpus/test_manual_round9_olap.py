"""OLAP window expressions of IBM's published material, ninth round (issue 23), through the
real driver and the embedded server over sockets.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN``, at
https://help.hcl-software.com/hclinformix/1410/sqs/; the OneDB copies carry the same
numbers), or IBM's own slides "OLAP Functions Support in Informix 12.1" (Bingjie Miao) and
"Enabling Applications with Informix' new OLAP functionality" (Ajaykumar Gupte), which run
their queries on stores_demo. The statements are ours, modelled on the pages; where a page
prints a result the case compares with it (the values are the page's), where it states a rule
the case checks it, with the sqlcode the Informix message catalogue (IBM JDBC 4.50.12,
-25850 to -25862) gives for the rule. Tables are TEMP tables of the rolled-back session.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = rows
_code = sqlcode

D = Decimal


@pytest.fixture()
def sales(stores: ifxwire.Connection) -> ifxwire.Cursor:
    """The ranking pages' table (ids_sqs_2586 to ids_sqs_2589): six sales people, two ties."""
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE sales (emp_num INT, sales DECIMAL(8,2), dept CHAR(4), "
                "name VARCHAR(10), hired DATE)")
    for emp, amount, dept, name in ((101, 2000, "east", "Ann"), (102, 2400, "east", "Bob"),
                                    (103, 2400, "west", "Cy"), (104, 2500, "west", None),
                                    (105, 2500, "west", "Di"), (106, 2650, "east", "Ed")):
        cur.execute("INSERT INTO sales VALUES (?, ?, ?, ?, TODAY)", (emp, amount, dept, name))
    return cur


def _column(cur: ifxwire.Cursor, select: str) -> list[Any]:
    """The second column of ``SELECT emp_num, <select> FROM sales``, by emp_num."""
    return [r[1] for r in _rows(cur, f"SELECT emp_num, {select} FROM sales ORDER BY emp_num")]


# ---- the ranking functions' printed examples ------------------------------------------------
def test_rank_printed_example(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2586: RANK() OVER (ORDER BY sales) gives ties one rank and skips the next:
    1, 2, 2, 4, 4 (the page's rows), and 6 for the sixth."""
    assert _column(sales, "RANK() OVER (ORDER BY sales) AS rank") == [1, 2, 2, 4, 4, 6]


def test_dense_rank_printed_example_and_its_synonym(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2587 prints 1, 2, 2, 3, 3, 4; its syntax diagram names DENSERANK as the same
    function (was -674, routine not found)."""
    assert _column(sales, "DENSE_RANK() OVER (ORDER BY sales)") == [1, 2, 2, 3, 3, 4]
    assert _column(sales, "DENSERANK() OVER (ORDER BY sales)") == [1, 2, 2, 3, 3, 4]


def test_percent_rank_printed_example(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2588 prints 0, 0.2, 0.2, 0.6, 0.6, 1.0 ((rank - 1) / (rows - 1))."""
    got = _column(sales, "PERCENT_RANK() OVER (ORDER BY sales) AS per_rank")
    assert [round(v, 9) for v in got] == [0, 0.2, 0.2, 0.6, 0.6, 1.0]


def test_cume_dist_printed_example(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2589 prints 0.166666667, 0.5, 0.5, 0.833333333, 0.833333333, 1.0."""
    got = _column(sales, "CUME_DIST() OVER (ORDER BY sales) AS cume_dist")
    assert [round(v, 9) for v in got] == [0.166666667, 0.5, 0.5, 0.833333333, 0.833333333,
                                          1.0]


def test_ntile_puts_leftover_rows_in_the_lower_tiles(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2590: NTILE(n) deals the rows of each partition into n tiles; "leftover rows"
    go to the lower-ranked tiles; the argument is a literal integer that "Cannot be zero"
    (-25859, "The argument to NTILE window function is invalid"; was -999)."""
    assert _column(sales, "NTILE(4) OVER (ORDER BY sales)") == [1, 1, 2, 2, 3, 4]
    # the page prints the column's heading: (ntile) (was "(expression)")
    assert sales.description is not None and sales.description[1][0] == "(ntile)"
    assert _column(sales, "NTILE(2) OVER (PARTITION BY dept ORDER BY sales)") == [
        1, 1, 1, 1, 2, 2]
    assert _code(sales, "SELECT NTILE(0) OVER (ORDER BY sales) FROM sales") == -25859


def test_row_number_and_its_synonym_need_no_order(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2591: ROW_NUMBER and ROWNUMBER are synonyms (ROWNUMBER was -674); its OVER
    clause takes PARTITION and ORDER, both optional, and no window frame (-25854)."""
    assert _column(sales, "ROWNUMBER() OVER (PARTITION BY dept ORDER BY emp_num)") == [
        1, 2, 1, 2, 3, 3]
    assert sorted(_column(sales, "ROW_NUMBER() OVER ()")) == [1, 2, 3, 4, 5, 6]
    assert _code(sales, "SELECT ROW_NUMBER() OVER (ORDER BY sales ROWS UNBOUNDED PRECEDING) "
                        "FROM sales") == -25854


# ---- the OVER clause's rules (ids_sqs_2584, ids_sqs_2585) -----------------------------------
def test_ranking_functions_require_a_window_order(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2585: the OVER clause of a ranking function (LAG, LEAD, RANK, DENSE_RANK,
    PERCENT_RANK, CUME_DIST, NTILE) has a required window ORDER clause: -25853. Each ran,
    ranking every row 1 or reading the table's order."""
    for fn in ("RANK()", "DENSE_RANK()", "PERCENT_RANK()", "CUME_DIST()", "NTILE(2)",
               "LAG(sales)", "LEAD(sales, 1, 0)"):
        assert _code(sales, f"SELECT {fn} OVER (PARTITION BY dept) FROM sales") == -25853, fn
    assert _code(sales, "SELECT RANK() OVER () FROM sales") == -25853


def test_ranking_functions_take_no_window_frame(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2584: only the OVER clause of the aggregation functions has a window Frame
    clause; a ranking function with one is -25854 (it ran, the frame ignored)."""
    for fn in ("RANK()", "NTILE(3)", "LAG(sales)"):
        assert _code(sales, f"SELECT {fn} OVER (ORDER BY sales ROWS BETWEEN 1 PRECEDING "
                            "AND CURRENT ROW) FROM sales") == -25854, fn


def test_window_frame_requires_a_window_order(sales: ifxwire.Cursor) -> None:
    """A frame counts rows before and after the current one, so it needs an order: -25850,
    "The window frame extent specification requires window order clause" (it ran over the
    table's order)."""
    assert _code(sales, "SELECT SUM(sales) OVER (PARTITION BY dept ROWS BETWEEN 1 PRECEDING "
                        "AND CURRENT ROW) FROM sales") == -25850


def test_window_frame_bounds(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2584's Window Frame clause: a moving sum of the current and the previous row,
    and of the whole partition; an offset is an unsigned literal integer ("Cannot be
    negative", -25851), a single bound is UNBOUNDED PRECEDING, n PRECEDING or CURRENT ROW
    (a lone FOLLOWING: -25851), and BETWEEN cannot end before it starts (-25852). The
    refusals were -999."""
    assert _column(sales, "SUM(sales) OVER (ORDER BY emp_num ROWS BETWEEN 1 PRECEDING AND "
                          "CURRENT ROW)") == [D(2000), D(4400), D(4800), D(4900), D(5000),
                                              D(5150)]
    assert _column(sales, "SUM(sales) OVER (PARTITION BY dept ORDER BY emp_num ROWS BETWEEN "
                          "UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)") == [
        D(7050), D(7050), D(7400), D(7400), D(7400), D(7050)]
    assert _column(sales, "COUNT(*) OVER (ORDER BY emp_num ROWS 2 PRECEDING)") == [
        1, 2, 3, 3, 3, 3]
    assert _code(sales, "SELECT SUM(sales) OVER (ORDER BY emp_num ROWS -1 PRECEDING) "
                        "FROM sales") == -25851
    assert _code(sales, "SELECT SUM(sales) OVER (ORDER BY emp_num ROWS 1 FOLLOWING) "
                        "FROM sales") == -25851
    assert _code(sales, "SELECT SUM(sales) OVER (ORDER BY emp_num ROWS BETWEEN 1 FOLLOWING "
                        "AND 1 PRECEDING) FROM sales") == -25852
    assert _code(sales, "SELECT SUM(sales) OVER (ORDER BY emp_num ROWS BETWEEN CURRENT ROW "
                        "AND UNBOUNDED PRECEDING) FROM sales") == -25852


def test_olap_expressions_only_in_the_projection_and_order_by(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2583: OLAP window expressions are valid in the select list, the ORDER BY
    clause and subqueries in the projection; elsewhere (WHERE, HAVING, inside another
    aggregate or window) -25856, "Invalid usage of window aggregate in this context" (was
    -999). The slides filter on one through a derived table instead."""
    assert [r[0] for r in _rows(sales, "SELECT emp_num FROM sales ORDER BY RANK() OVER "
                                       "(ORDER BY sales DESC), emp_num")] == [
        106, 104, 105, 102, 103, 101]
    assert _rows(sales, "SELECT * FROM (SELECT emp_num, RANK() OVER (ORDER BY sales) AS r "
                        "FROM sales) WHERE r = 2 ORDER BY 1") == [(102, 2), (103, 2)]
    for bad in ("SELECT emp_num FROM sales WHERE RANK() OVER (ORDER BY sales) = 1",
                "SELECT dept FROM sales GROUP BY dept HAVING RANK() OVER (ORDER BY dept) = 1",
                "SELECT SUM(RANK() OVER (ORDER BY sales)) FROM sales",
                "SELECT RANK() OVER (ORDER BY ROW_NUMBER() OVER (ORDER BY sales)) FROM sales"):
        assert _code(sales, bad) == -25856, bad


# ---- LAG, LEAD, FIRST_VALUE, LAST_VALUE -----------------------------------------------------
def test_lag_and_lead_offsets_and_defaults(sales: ifxwire.Cursor) -> None:
    """ids_sqs_1513: offset 1 unless given, 0 the current row; default NULL unless given;
    the offset is a non-negative literal integer (-25860, "The offset of the LEAD, LAG window
    function is invalid": LAG(x, -1) read the next row); a default that cannot take the
    expression's type is -25861."""
    assert _column(sales, "LAG(sales, 1, 0) OVER (ORDER BY emp_num)") == [
        D(0), D(2000), D(2400), D(2400), D(2500), D(2500)]
    assert _column(sales, "LEAD(emp_num, 2) OVER (PARTITION BY dept ORDER BY emp_num)") == [
        106, None, 105, None, None, None]
    assert _column(sales, "LAG(emp_num, 0) OVER (ORDER BY emp_num)") == [
        101, 102, 103, 104, 105, 106]
    assert _code(sales, "SELECT LAG(sales, -1) OVER (ORDER BY emp_num) FROM sales") == -25860
    assert _code(sales, "SELECT LAG(hired, 1, 'abc') OVER (ORDER BY emp_num) "
                        "FROM sales") == -25861


def test_lag_and_lead_ignore_nulls(sales: ifxwire.Cursor) -> None:
    """ids_sqs_1513: RESPECT NULLS (the default) or IGNORE NULLS, written inside the
    parentheses after the expression or after them; IGNORE NULLS skips the rows whose value
    is NULL (104 has no name). Both were -999."""
    assert _column(sales, "LAG(name) OVER (ORDER BY emp_num)") == [
        None, "Ann", "Bob", "Cy", None, "Di"]
    assert _column(sales, "LAG(name IGNORE NULLS) OVER (ORDER BY emp_num)") == [
        None, "Ann", "Bob", "Cy", "Cy", "Di"]
    assert _column(sales, "LAG(name, 2, 'none') IGNORE NULLS OVER (ORDER BY emp_num)") == [
        "none", "none", "Ann", "Bob", "Bob", "Cy"]
    assert _column(sales, "LEAD(name) IGNORE NULLS OVER (ORDER BY emp_num)") == [
        "Bob", "Cy", "Di", "Di", "Ed", None]
    assert _column(sales, "LEAD(name RESPECT NULLS) OVER (ORDER BY emp_num)") == [
        "Bob", "Cy", None, "Di", "Ed", None]


def test_first_value_printed_statement(stores: ifxwire.Connection) -> None:
    """ids_sqs_2593 subtracts FIRST_VALUE(price) OVER (PARTITION BY year ORDER BY
    tradingday) from each price, "the first value, 18.25"; IGNORE NULLS passes over a day
    with no price (was -999)."""
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE stock_price (year INT, tradingday INT, price DECIMAL(6,2))")
    for day, price in ((1, None), (2, "18.25"), (3, "18.75"), (4, "17.50")):
        cur.execute("INSERT INTO stock_price VALUES (2012, ?, ?)", (day, price))
    got = _rows(cur, "SELECT tradingday, price - FIRST_VALUE(price IGNORE NULLS) OVER "
                     "(PARTITION BY year ORDER BY tradingday) AS diff_price FROM stock_price "
                     "ORDER BY tradingday")
    assert got == [(1, None), (2, D("0.00")), (3, D("0.50")), (4, D("-0.75"))]
    assert _rows(cur, "SELECT FIRST_VALUE(price) OVER (PARTITION BY year ORDER BY tradingday)"
                      " FROM stock_price WHERE tradingday = 1") == [(None,)]


def test_last_value_ignore_nulls(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2594: LAST_VALUE of the frame, which with a window ORDER runs to the current
    row; IGNORE NULLS takes the last non-NULL value of the frame."""
    assert _column(sales, "LAST_VALUE(name) OVER (ORDER BY emp_num ROWS UNBOUNDED "
                          "PRECEDING)") == ["Ann", "Bob", "Cy", None, "Di", "Ed"]
    assert _column(sales, "LAST_VALUE(name) IGNORE NULLS OVER (ORDER BY emp_num ROWS "
                          "UNBOUNDED PRECEDING)") == ["Ann", "Bob", "Cy", "Cy", "Di", "Ed"]


# ---- aggregation functions (ids_sqs_2580, ids_sqs_2592, ids_sqs_2595) -----------------------
def test_ratio_to_report_takes_order_and_frame(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2595: "the Window PARTITION, Window ORDER, and Window Frame clauses are
    optional ... If a window Frame clause is also specified, then the calculated ratio
    applies to all rows from the current window frame" (ORDER or a frame was -999);
    RATIOTOREPORT is a synonym (was -674); an argument that is not numeric (a DATE here)
    fails with -25862 (was -1260)."""
    whole = _column(sales, "RATIOTOREPORT(sales) OVER (PARTITION BY dept)")
    assert [round(v, 4) for v in whole] == [D("0.2837"), D("0.3404"), D("0.3243"),
                                            D("0.3378"), D("0.3378"), D("0.3759")]
    framed = _column(sales, "RATIO_TO_REPORT(sales) OVER (ORDER BY emp_num ROWS BETWEEN "
                            "1 PRECEDING AND CURRENT ROW)")
    assert framed[0] == 1 and round(framed[1], 4) == round(D(2400) / D(4400), 4)
    assert _code(sales, "SELECT RATIO_TO_REPORT(hired) OVER () FROM sales") == -25862


def test_distinct_window_aggregate_takes_no_order(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2580: "When the DISTINCT or UNIQUE keyword is part of the window aggregate
    function specification, the OVER clause ... cannot include the Window ORDER clause or
    the Window Frame clause": -25858 (was -999)."""
    assert _code(sales, "SELECT SUM(DISTINCT sales) OVER (ORDER BY emp_num) "
                        "FROM sales") == -25858
    assert _code(sales, "SELECT COUNT(UNIQUE sales) OVER (PARTITION BY dept ORDER BY emp_num)"
                        " FROM sales") == -25858


def test_distinct_window_aggregate_over_a_partition(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2580 allows DISTINCT (or UNIQUE) in a window aggregate whose OVER clause has a
    PARTITION clause only (was -999: SQLite has no DISTINCT window): east sells 2000, 2400
    and 2650, west 2400 and twice 2500."""
    got = _rows(sales, "SELECT dept, COUNT(DISTINCT sales) OVER (PARTITION BY dept), "
                       "SUM(UNIQUE sales) OVER (PARTITION BY dept), AVG(DISTINCT sales) OVER "
                       "(PARTITION BY dept), MAX(DISTINCT sales) OVER (), SUM(sales) OVER "
                       "(PARTITION BY dept) FROM sales ORDER BY emp_num", strip=True)
    assert got[0] == ("east", 3, D(7050), D(2350), D(2650), D(7050))
    assert got[3] == ("west", 2, D(4900), D(2450), D(2650), D(7400))


def test_nulls_option_only_for_lag_lead_first_last(sales: ifxwire.Cursor) -> None:
    """RESPECT/IGNORE NULLS belongs to LAG, LEAD, FIRST_VALUE and LAST_VALUE only
    (ids_sqs_1513, ids_sqs_2593, ids_sqs_2594); on an aggregate we answer -25855, "The
    option specified is not supported with window aggregates" (was -999). ids_sqs_2594:
    inside or after the parentheses, "but only one such specification is allowed"."""
    assert _code(sales, "SELECT SUM(sales) IGNORE NULLS OVER (ORDER BY emp_num) "
                        "FROM sales") == -25855
    assert _code(sales, "SELECT LAST_VALUE(name IGNORE NULLS) RESPECT NULLS OVER (ORDER BY "
                        "emp_num) FROM sales") == -25855


def test_window_aggregates_of_a_partition(sales: ifxwire.Cursor) -> None:
    """ids_sqs_2580: AVG, COUNT, MAX, MIN, RANGE, STDEV, SUM and VARIANCE over a partition;
    the slides: OLAP functions come after WHERE (a filtered row is in no partition)."""
    assert _rows(sales, "SELECT emp_num, COUNT(*) OVER (PARTITION BY dept), MAX(sales) OVER "
                        "(PARTITION BY dept), RANGE(sales) OVER (PARTITION BY dept) FROM sales "
                        "ORDER BY 1")[::2] == [
        (101, 3, D(2650), D(650)), (103, 3, D(2500), D(100)), (105, 3, D(2500), D(100))]
    assert _rows(sales, "SELECT emp_num, COUNT(*) OVER (PARTITION BY dept) FROM sales "
                        "WHERE emp_num IN (101, 103) ORDER BY 1") == [(101, 1), (103, 1)]


def test_frame_ending_before_the_current_row_does_not_crash(sales: ifxwire.Cursor) -> None:
    """A frame ending "1 PRECEDING" is empty on a partition's first row; for the engine's
    own aggregates (DECIMAL SUM here) Python 3.11's sqlite3 crashed the whole server process
    on it (the connection was lost). Refused now with -999; an INTEGER's SUM runs."""
    assert _code(sales, "SELECT SUM(sales) OVER (ORDER BY emp_num ROWS BETWEEN 2 PRECEDING "
                        "AND 1 PRECEDING) FROM sales") == -999
    assert _column(sales, "SUM(emp_num) OVER (ORDER BY emp_num ROWS BETWEEN 2 PRECEDING AND "
                          "1 PRECEDING)")[:3] == [None, 101, 203]


# ---- IBM's slides on stores_demo --------------------------------------------------------------
def test_slides_count_over_partition_of_orders(stores: ifxwire.Connection) -> None:
    """The slides group the orders of customers up to 110 (101: 1, 104: 4, 106: 2, 110: 2),
    then print each order's ship_charge with COUNT(*) OVER (PARTITION BY customer_num),
    headed "(count(*))" as the aggregate alone, and
    filter on that count through a derived table (cnt >= 3: the four orders of 104). The
    slides' ship dates are of 2008; the published stores_demo has 1998: charges compared."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT customer_num, COUNT(*) FROM orders WHERE customer_num <= 110 "
                      "GROUP BY customer_num ORDER BY 1") == [(101, 1), (104, 4), (106, 2),
                                                             (110, 2)]
    got = _rows(cur, "SELECT customer_num, ship_charge, COUNT(*) OVER (PARTITION BY "
                     "customer_num) FROM orders WHERE customer_num <= 110 ORDER BY 1, 2")
    # the slides' heading of the OLAP column, as of the plain aggregate (was "(expression)")
    assert cur.description is not None and cur.description[2][0] == "(count(*))"
    assert got == [(101, D("15.30"), 1), (104, D("5.00"), 4), (104, D("10.00"), 4),
                   (104, D("10.80"), 4), (104, D("12.20"), 4), (106, D("12.30"), 2),
                   (106, D("19.20"), 2), (110, D("6.30"), 2), (110, D("13.80"), 2)]
    derived = _rows(cur, "SELECT * FROM (SELECT customer_num, ship_date, ship_charge, "
                         "COUNT(*) OVER (PARTITION BY customer_num) AS cnt FROM orders "
                         "WHERE customer_num <= 110) WHERE cnt >= 3")
    assert sorted((r[0], r[2], r[3]) for r in derived) == [
        (104, D("5.00"), 4), (104, D("10.00"), 4), (104, D("10.80"), 4), (104, D("12.20"), 4)]

