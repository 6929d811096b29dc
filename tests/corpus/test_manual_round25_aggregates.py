"""Aggregates as the manuals print them (issue 23, twenty-fifth round), through the real
driver and the embedded server over sockets.

Pages (HCL Informix 14.10): Guide to SQL: Syntax, "Summary of aggregate function behavior"
(ids_sqs_1594: a one-column INTEGER table holding 2, 2, 2, 3, 3, 4 and a NULL, and the result
of every built-in aggregate over it, STDEV 0.74535599249993 and VARIANCE 0.55555555555556
among them: the statistics of a population, divided by N), "Subset of Expressions Valid in an
Aggregate Expression" (ids_sqs_1576: "For SUM and AVG, you cannot use the difference between
two DATE values directly as the argument to an aggregate"; `AVG(ship_date - order_date)`
"returns error -1201", `AVG((ship_date - order_date)*1)` is valid); Guide to SQL: Tutorial,
"The STDEV function" and "The VARIANCE function" (ids_sqt_118, ids_sqt_119: "without Bessel
correction", "the population standard deviation", aliases STDEV_POP, STDDEV, STDDEV_POP and
VARIANCE_POP). The statements are ours, modelled on those pages.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from decimal import Decimal as D

import pytest

import ifxwire

from .manual import rows, sqlcode


@pytest.fixture()
def cur(stores: ifxwire.Connection) -> Iterator[ifxwire.Cursor]:
    """A cursor next to ids_sqs_1594's table: six INTEGER values and a NULL."""
    c = stores.cursor()
    c.execute("CREATE TEMP TABLE testtable (num INTEGER)")
    for v in ("2", "2", "2", "3", "3", "4", "NULL"):
        c.execute(f"INSERT INTO testtable VALUES ({v})")
    yield c
    c.execute("DROP TABLE testtable")


def test_the_summary_tables_counts_sums_and_extremes(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1594: COUNT(*) 7, COUNT(DISTINCT) 3, COUNT(ALL num) and COUNT(num) 6, SUM 16,
    SUM(DISTINCT) 9, MAX 4, MIN 2, RANGE 2, AVG 2.666..., AVG(DISTINCT) 3."""
    ((c_all, c_dist, c_allnum, c_num, s, s_dist, mx, mn, rng, avg, avg_dist),) = rows(
        cur, "SELECT COUNT(*), COUNT(DISTINCT num), COUNT(ALL num), COUNT(num), SUM(num), "
             "SUM(DISTINCT num), MAX(num), MIN(num), RANGE(num), AVG(num), "
             "AVG(DISTINCT num) FROM testtable")
    assert (c_all, c_dist, c_allnum, c_num) == (7, 3, 6, 6)
    assert (s, s_dist, mx, mn, rng) == (16, 9, 4, 2, 2)
    assert round(avg, 14) == D("2.66666666666667")
    assert avg_dist == 3


def test_stdev_and_variance_are_the_populations(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1594 prints STDEV 0.74535599249993 and VARIANCE 0.55555555555556 for the six
    values: (SUM(Xi²) − (SUM Xi)²/N)/N. They were divided by N − 1 (0.8165 and 0.6667), after
    the formula the Syntax pages print; the Tutorial (ids_sqt_118, ids_sqt_119) calls both
    population statistics "without Bessel correction"."""
    ((dev, var),) = rows(cur, "SELECT STDEV(num), VARIANCE(num) FROM testtable")
    assert round(dev, 14) == 0.74535599249993
    assert round(var, 14) == 0.55555555555556
    assert dev == pytest.approx(math.sqrt(var))


def test_the_population_aliases(cur: ifxwire.Cursor) -> None:
    """ids_sqt_118: STDEV "has the aliases STDEV_POP, STDDEV and STDDEV_POP"; ids_sqt_119:
    VARIANCE has "an according alias VARIANCE_POP". STDEV_POP was -674, STDDEV_POP and
    VARIANCE_POP were not the server's STDEV and VARIANCE."""
    got = rows(cur, "SELECT STDEV_POP(num), STDDEV(num), STDDEV_POP(num), VARIANCE_POP(num) "
                    "FROM testtable")
    assert [round(v, 14) for v in got[0]] == [0.74535599249993] * 3 + [0.55555555555556]


@pytest.mark.parametrize("name", ["VAR_POP", "VAR_SAMP", "VARIANCE_SAMP", "STDDEV_SAMP"])
def test_other_dialects_statistics_are_unknown_routines(cur: ifxwire.Cursor, name: str) -> None:
    """Names no Informix page lists: -674, as any unknown routine (VAR_SAMP and VARIANCE_SAMP
    ran as VARIANCE, VAR_POP as its population form)."""
    assert sqlcode(cur, f"SELECT {name}(num) FROM testtable") == -674


def test_one_value_and_only_nulls(cur: ifxwire.Cursor) -> None:
    """One value: zero (ids_sqs_1592, ids_sqs_1591); only NULLs: NULL (ids_sqt_118)."""
    assert rows(cur, "SELECT STDEV(num), VARIANCE(num) FROM testtable WHERE num = 4") == [
        (0.0, 0.0)]
    assert rows(cur, "SELECT STDEV(num), VARIANCE(num) FROM testtable WHERE num IS NULL") == [
        (None, None)]


# ---- SUM and AVG of a DATE difference (ids_sqs_1576) ----------------------------------------

@pytest.mark.parametrize("sql", [
    "SELECT AVG(ship_date - order_date) FROM orders",
    "SELECT SUM(ship_date - order_date) FROM orders",
    "SELECT SUM(DISTINCT paid_date - ship_date) FROM orders",
    "SELECT customer_num, AVG(paid_date - order_date) FROM orders GROUP BY 1",
])
def test_sum_or_avg_of_a_date_difference_is_1201(stores: ifxwire.Connection, sql: str) -> None:
    """ids_sqs_1576: the difference of two DATE values directly as the argument of SUM or AVG
    "returns error -1201". They were answered (AVG gave 9.5454...)."""
    assert sqlcode(stores.cursor(), sql) == -1201


def test_a_date_difference_inside_arithmetic_is_accepted(stores: ifxwire.Connection) -> None:
    """ids_sqs_1576: "you can use DATE differences as operands within arithmetic expression
    arguments": AVG((ship_date - order_date)*1) is valid. MAX, MIN and COUNT of the bare
    difference are not restricted by the page. stores_demo: 22 shipped orders, 210 days."""
    cur = stores.cursor()
    ((avg, total),) = rows(cur, "SELECT AVG((ship_date - order_date)*1), "
                                "SUM((ship_date - order_date)*1) FROM orders")
    assert total == 210
    assert round(avg, 10) == D("9.5454545455")
    assert rows(cur, "SELECT MAX(ship_date - order_date), MIN(ship_date - order_date), "
                     "COUNT(ship_date - order_date) FROM orders") == [(29, 1, 22)]
