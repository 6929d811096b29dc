"""Built-in functions, seventeenth manual round (issue 23): the RANGE, STDEV and VARIANCE
aggregates' edge cases, LAST_DAY and CHARINDEX, through the real driver and the embedded
server (TO_CHAR and TO_NUMBER: test_manual_round17_to_char.py).

Pages: the HCL Informix 14.10 Guide to SQL: Syntax ``ids_sqs_NNNN`` and Tutorial
``ids_sqt_NNN`` (https://help.hcl-software.com/hclinformix/1410/); the OneDB edition of the
same Syntax guide for RANGE/STDEV/VARIANCE and CHARINDEX (ids_sqs_1590 to 1592,
ids_sqs_0294; https://help.hcl-software.com/onedb/current/). A figure a page prints is
compared as printed; the statements are ours, modelled on the pages.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from decimal import Decimal as D

import pytest

import ifxwire

from .manual import rows, sqlcode

ONE = " FROM systables WHERE tabid = 1"


@pytest.fixture()
def cur(stores: ifxwire.Connection) -> Iterator[ifxwire.Cursor]:
    """A cursor next to a temp table ``r17``: INTEGER, DECIMAL and DATE columns, with NULLs
    and one group (k = 3) of a single row."""
    c = stores.cursor()
    c.execute("CREATE TEMP TABLE r17 (k INTEGER, n INTEGER, d DATE, z INTEGER)")
    for values in ("1, 2, '01/01/2024', NULL", "1, 4, '03/01/2024', NULL",
                   "1, 4, NULL, NULL", "2, NULL, NULL, NULL", "3, 7, '01/31/2024', NULL"):
        c.execute(f"INSERT INTO r17 VALUES ({values})")
    yield c
    c.execute("DROP TABLE r17")


# ---- RANGE, STDEV, VARIANCE -----------------------------------------------------------------

def test_range_of_stock_prices(cur: ifxwire.Cursor) -> None:
    """ids_sqt_117: SELECT RANGE(unit_price) FROM stock is 955.50, and grouped by manu_code
    the nine ranges it prints (its order is not ORDER BY's: compared as a set)."""
    assert rows(cur, "SELECT RANGE(unit_price) FROM stock") == [(D("955.50"),)]
    got = sorted(r[0] for r in rows(cur, "SELECT RANGE(unit_price) FROM stock GROUP BY manu_code"))
    assert got == sorted(D(v) for v in ("820.20", "595.50", "720.00", "225.00", "632.50",
                                        "0.00", "460.00", "645.90", "425.00"))


def test_range_of_a_date_counts_days(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1590: "you can use the RANGE function on DATE columns. With a DATE column, the
    return value is the number of days between the earliest and latest dates". Was -1260."""
    assert rows(cur, "SELECT RANGE(d) FROM r17") == [(60,)]


def test_range_of_only_nulls_is_null(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1590: "If every column value is NULL, the RANGE function returns a NULL"."""
    assert rows(cur, "SELECT RANGE(z), RANGE(n) FROM r17 WHERE k = 2") == [(None, None)]


@pytest.mark.parametrize("fn", ["STDEV", "VARIANCE"])
def test_stdev_variance_refuse_a_date(cur: ifxwire.Cursor, fn: str) -> None:
    """ids_sqs_1591 (STDEV): "You cannot use this function on columns of type DATE";
    ids_sqs_1592: "You can apply the VARIANCE function only to numeric columns". A DATE gave
    the statistics of its day numbers. The code is RANGE's for a non-number [inference]."""
    assert sqlcode(cur, f"SELECT {fn}(d) FROM r17") == -1260


def test_variance_formula(cur: ifxwire.Cursor) -> None:
    """The population variance over the non-NULL values (2, 4, 4, 7: 12.75 / 4 = 3.1875), and
    STDEV "the square root of the VARIANCE function" (ids_sqs_1591). ids_sqs_1592 prints the
    N - 1 formula (4.25 here, what this test asserted until the twenty-fifth round), but the
    results ids_sqs_1594 prints are divided by N, and the 14.10 Tutorial calls both
    statistics "without Bessel correction" (test_manual_round25_aggregates.py)."""
    ((var, dev),) = rows(cur, "SELECT VARIANCE(n), STDEV(n) FROM r17")
    assert var == pytest.approx(3.1875)
    assert dev == pytest.approx(math.sqrt(3.1875))


def test_one_value_has_zero_variance(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1592: "If N ... equals 1, then the VARIANCE function returns zero"; ids_sqs_1591:
    STDEV "returns a zero variance for a count of 1" (the group k = 3)."""
    assert rows(cur, "SELECT VARIANCE(n), STDEV(n) FROM r17 WHERE k = 3") == [(0.0, 0.0)]


def test_stdev_of_only_nulls_is_null(cur: ifxwire.Cursor) -> None:
    """ids_sqt_118, ids_sqt_119: "If every column value is null, the STDEV function returns a
    null" (VARIANCE likewise); COUNT(DISTINCT) of them is 0."""
    assert rows(cur, "SELECT STDEV(z), VARIANCE(z), COUNT(DISTINCT z) FROM r17") == [
        (None, None, 0)]


# ---- LAST_DAY, CHARINDEX ------------------------------------------------------------------

def test_last_day_page_example(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1538: on 12 March 2018 LAST_DAY(TODAY) is 03/31/2018 and LAST_DAY(TODAY) -
    TODAY is 19 (the page's output, with the date written out instead of TODAY)."""
    assert rows(cur, "SELECT LAST_DAY(DATE('03/12/2018')), "
                     "LAST_DAY(DATE('03/12/2018')) - DATE('03/12/2018')" + ONE) == [
        (dt.date(2018, 3, 31), 19)]


def test_last_day_keeps_a_datetime(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1538: "The data type of this returned value is the same data type as the
    argument": a DATETIME YEAR TO MINUTE keeps its time of day and its qualifier."""
    cur.execute("SELECT LAST_DAY(DATETIME(2018-03-12 10:30) YEAR TO MINUTE)" + ONE)
    assert cur.fetchall() == [(dt.datetime(2018, 3, 31, 10, 30),)]
    assert cur.description is not None and cur.description[0][1] == 10  # DATETIME


def test_charindex_rules(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0294: a start_position "less than 1" searches from the first character; no
    match is 0; a NULL source or substring gives NULL."""
    assert rows(cur, "SELECT CHARINDEX('b', 'abcb', 0), CHARINDEX('b', 'abcb', -5), "
                     "CHARINDEX('b', 'abcb', 3), CHARINDEX('q', 'abcb'), "
                     "CHARINDEX(NULL, 'abc'), CHARINDEX('b', NULL)" + ONE) == [
        (2, 2, 4, 0, None, None)]
