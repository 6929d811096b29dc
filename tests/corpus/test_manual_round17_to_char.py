"""TO_CHAR and TO_NUMBER, seventeenth manual round (issue 23): TO_CHAR of a number with the
ESQL/C numeric-formatting mask, TO_CHAR of a point in time with GL_DATETIME directives, and
TO_NUMBER reading what TO_CHAR writes, through the real driver and the embedded server.

Pages of the HCL Informix 14.10 library (https://help.hcl-software.com/hclinformix/1410/):
Guide to SQL: Syntax ``ids_sqs_NNNN``; DataBlade API Programmer's Guide ``ids_dapip_0128``
("Format numeric strings": the mask characters and a table of examples, where ``b`` stands
for a blank); GLS User's Guide ``ids_gug_079`` (GL_DATE's directives). A figure a page
prints is compared as printed; the statements are ours, modelled on them.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

import ifxwire

from .manual import rows, sqlcode

ONE = " FROM systables WHERE tabid = 1"


@pytest.fixture()
def cur(stores: ifxwire.Connection) -> ifxwire.Cursor:
    return stores.cursor()


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
    gives NULL. A MONEY, a FLOAT and an INT8 with the mask; a MONEY column of stores_demo."""
    assert rows(cur, "SELECT TO_CHAR(12.5::MONEY(8,2), '$$$.&&'), TO_CHAR(1.5::FLOAT, '&&.&&'), "
                     "TO_CHAR(1234567::INT8, '#,###,###'), TO_CHAR(NULL::DECIMAL(8,2), '##.##')"
                + ONE) == [("$12.50", "01.50", "1,234,567", None)]
    assert rows(cur, "SELECT TO_CHAR(total_price, '$$$,$$$.&&') FROM items WHERE order_num = 1001"
                ) == [("   $250.00",)]


def test_to_char_mask_wider_than_28_digits(cur: ifxwire.Cursor) -> None:
    """A DECIMAL(32) with a 61-position mask: Python's default 28-digit decimal context made
    the rounding fail; every digit the mask has room for is printed."""
    mask = "#" * 40 + "." + "&" * 20
    (row,) = rows(cur, f"SELECT TO_CHAR(CAST('1E30' AS DECIMAL(32)), '{mask}')" + ONE)
    assert row[0] == " " * 9 + "1" + "0" * 30 + "." + "0" * 20


def test_to_char_of_a_host_variable_or_a_string(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1542: the first argument may be "a character string that can be converted to"
    a number; a host variable's type is the value's. Both were -999 with a numeric mask (a
    parameter's type is not known when the statement is prepared). A string that is no
    number is -1213 [inference: the conversion's own code]."""
    assert rows(cur, "SELECT TO_CHAR(?, '$$,$$$.&&'), TO_CHAR('1234.5', '$$,$$$.&&')" + ONE,
                (D("1234.5"),)) == [("$1,234.50", "$1,234.50")]
    assert sqlcode(cur, "SELECT TO_CHAR('abc', '###')" + ONE) == -1213


def test_to_char_point_in_time(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1542: '%A %B %d, %Y %R' (its example's directives); a mask finer than the
    value's qualifier extends it as EXTEND would (a DATE has midnight)."""
    assert rows(cur, "SELECT TO_CHAR(DATETIME(2007-07-25 18:45) YEAR TO MINUTE, "
                     "'%A %B %d, %Y %R'), TO_CHAR(DATE('01/31/2024'), '%Y-%m-%d %H:%M')" + ONE
                ) == [("Wednesday July 25, 2007 18:45", "2024-01-31 00:00")]


def test_informix_year_directives(cur: ifxwire.Cursor) -> None:
    """ids_gug_079: "%iy The year as a two-digit decade", "%iY ... four-digit" (Informix's own
    forms of %y and %Y). TO_CHAR printed them as written; TO_DATE failed -1218."""
    assert rows(cur, "SELECT TO_CHAR(DATE('07/05/2024'), '%iy|%iY|100%%'), "
                     "TO_DATE('24-7-5', '%iy-%m-%d')" + ONE) == [
        ("24|2024|100%", dt.datetime(2024, 7, 5))]


def test_to_number_discards_the_currency_symbol(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1544: SELECT TO_NUMBER('$100.00') prints 100.000000000000: "the currency
    symbol is discarded". It was -1213."""
    assert rows(cur, "SELECT TO_NUMBER('$100.00'), TO_NUMBER('-$12.5')" + ONE) == [
        (D("100"), D("-12.5"))]


def test_to_number_reads_what_to_char_wrote(cur: ifxwire.Cursor) -> None:
    """TO_NUMBER of TO_CHAR's '$' mask is the number again (ids_sqs_1544 + ids_sqs_1542)."""
    assert rows(cur, "SELECT TO_NUMBER(TO_CHAR(1234.5, '$&&&&.&&'))" + ONE) == [(D("1234.5"),)]
