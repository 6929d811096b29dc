"""Built-in functions, seventeenth manual round (issue 23): TO_CHAR of a number with the
numeric-formatting mask, TO_CHAR of a point in time, TO_NUMBER, and the RANGE, STDEV and
VARIANCE aggregates' edge cases, through the real driver and the embedded server.

Pages of the HCL Informix 14.10 library (https://help.hcl-software.com/hclinformix/1410/):
Guide to SQL: Syntax ``ids_sqs_NNNN``, Tutorial ``ids_sqt_NNN``, DataBlade API Programmer's
Guide ``ids_dapip_0128`` ("Format numeric strings": the mask characters and their table of
examples, where ``b`` stands for a blank); the OneDB edition of the same Syntax guide for
RANGE/STDEV/VARIANCE (ids_sqs_1590 to 1592, https://help.hcl-software.com/onedb/current/).
A figure a page prints is compared as printed; the statements are ours, modelled on them.
"""

from __future__ import annotations

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


# ---- TO_CHAR of a number: the numeric-formatting mask ---------------------------------------
# ids_sqs_1542: "The TO_CHAR function converts an expression that evaluates to a DATE,
# DATETIME, or numeric value to a character string ... using a formatting mask"; the mask of
# a number is the one ids_dapip_0128 defines (rfmtdec). It was -999 here. Rows of that page's
# table (``b`` a blank), and its own example: $$$,$$$.## of 1234.56 is $1,234.56.
MASKS: list[tuple[str, str, str]] = [
    ("#####", "0", "bbbbb"),          # '#' changes leading zeros to blanks
    ("&&&&&", "0", "00000"),          # '&' fills with zeros
    ("*****", "0", "*****"),          # '*' fills with asterisks
    ("<<<<<", "0", ""),               # '<' changes leading zeros to a null string
    ("$$$$$", "0", "bbbb$"),          # a floating '$' as far right as it can go
    ("##,###", "1234", "b1,234"),     # ',' only with a digit to its left
    ("##,###", "-1", "bbbbb1"),       # no sign character: no negative sign
    ("&&,&&&", "123", "000123"),
    ("<<<,<<<", "1234", "1,234"),
    ("&&,&&&.&&", "1234.56", "01,234.56"),
    ("$$,$$$", "123", "bb$123"),
    ("$$,$$$", "12345", "******"),    # overflow: the whole field is asterisks
    ("**,***", "1234", "*1,234"),
    ("##,###.##", "-1", "bbbbb1.00"),
    ("$***,***.&&", "1234.56", "$**1,234.56"),
    ("-##,###.##", "-123.45", "-bbb123.45"),
    ("($$$,$$$.&&)", "-1234.56", "(b$1,234.56)"),
    ("$$$,$$$.##", "1234.56", "b$1,234.56"),
]


@pytest.mark.parametrize(("mask", "value", "printed"), MASKS)
def test_to_char_numeric_mask(cur: ifxwire.Cursor, mask: str, value: str, printed: str) -> None:
    (row,) = rows(cur, f"SELECT TO_CHAR({value}, '{mask}')" + ONE)
    assert row[0].replace(" ", "b") == printed


def test_to_char_mask_of_columns_and_types(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1542: the first argument may be of any built-in numeric type; a NULL number
    gives NULL. A MONEY, a FLOAT and an INT8 with the mask; the result of a DECIMAL column."""
    assert rows(cur, "SELECT TO_CHAR(12.5::MONEY(8,2), '$$$.&&'), TO_CHAR(1.5::FLOAT, '&&.&&'), "
                     "TO_CHAR(1234567::INT8, '#,###,###'), TO_CHAR(NULL::DECIMAL(8,2), '##.##')"
                + ONE) == [("$12.50", "01.50", "1,234,567", None)]
    assert rows(cur, "SELECT TO_CHAR(n * 1000, '&&,&&&') FROM r17 WHERE k = 3") == [("07,000",)]


def test_to_char_point_in_time(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1542: '%A %B %d, %Y %R' (its example's directives); a mask finer than the
    value's qualifier extends it as EXTEND would (a DATE has midnight)."""
    assert rows(cur, "SELECT TO_CHAR(DATETIME(2007-07-25 18:45) YEAR TO MINUTE, "
                     "'%A %B %d, %Y %R'), TO_CHAR(DATE('01/31/2024'), '%Y-%m-%d %H:%M')" + ONE
                ) == [("Wednesday July 25, 2007 18:45", "2024-01-31 00:00")]


def test_to_number_discards_the_currency_symbol(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1544: SELECT TO_NUMBER('$100.00') prints 100.000000000000: "the currency
    symbol is discarded". It was -1213."""
    assert rows(cur, "SELECT TO_NUMBER('$100.00'), TO_NUMBER('-$12.5')" + ONE) == [
        (D("100"), D("-12.5"))]


def test_to_number_reads_what_to_char_wrote(cur: ifxwire.Cursor) -> None:
    """TO_NUMBER of TO_CHAR's '$' mask is the number again (ids_sqs_1544 + ids_sqs_1542)."""
    assert rows(cur, "SELECT TO_NUMBER(TO_CHAR(1234.5, '$&&&&.&&'))" + ONE) == [(D("1234.5"),)]


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
    """ids_sqs_1592: (SUM(Xi²) - (SUM(Xi))²/N)/(N - 1) over the non-NULL values (2, 4, 4,
    7: 4.25), and STDEV "the square root of the VARIANCE function" (ids_sqs_1591)."""
    ((var, dev),) = rows(cur, "SELECT VARIANCE(n), STDEV(n) FROM r17")
    assert var == pytest.approx(4.25)
    assert dev == pytest.approx(math.sqrt(4.25))


def test_one_value_has_zero_variance(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1592: "If N ... equals 1, then the VARIANCE function returns zero"; ids_sqs_1591:
    STDEV "returns a zero variance for a count of 1" (the group k = 3)."""
    assert rows(cur, "SELECT VARIANCE(n), STDEV(n) FROM r17 WHERE k = 3") == [(0.0, 0.0)]


def test_stdev_of_only_nulls_is_null(cur: ifxwire.Cursor) -> None:
    """ids_sqt_118, ids_sqt_119: "If every column value is null, the STDEV function returns a
    null" (VARIANCE likewise); COUNT(DISTINCT) of them is 0."""
    assert rows(cur, "SELECT STDEV(z), VARIANCE(z), COUNT(DISTINCT z) FROM r17") == [
        (None, None, 0)]
