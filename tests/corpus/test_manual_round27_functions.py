"""Built-in functions of the Guide to SQL: Syntax 14.10 that no earlier round ran, through
the real driver and the embedded server over sockets (issue 23, twenty-seventh round).

Pages: "SUBSTRB function" (ids_sqs_1985), "NEXT_DAY Function" (ids_sqs_1539), "WEEKDAY
Function" (ids_sqs_1535), "LAST_DAY Function" (ids_sqs_1538); Tutorial, "The RPAD function"
(ids_sqt_142). SUBSTRB's page was read in the OneDB edition of the Syntax guide (the same
page ids; docs/SERVER.md "SUBSTRB"); its examples name a ``my_string`` of 10 or 4 bytes
and print the result's length; the statements here give it those lengths.
"""

from __future__ import annotations

import datetime as dt

import ifxwire

from .manual import rows, sqlcode

_ONE = "FROM systables WHERE tabid = 1"


def test_substrb_takes_length_bytes_from_start(stores: ifxwire.Connection) -> None:
    """ids_sqs_1985: ``substrB(my_string, 3, 5)`` of a 10-byte string is 5 bytes; of a
    4-byte string from the third byte, 2; without a length, a 10-byte string gives 8. Was
    -674 (no routine SUBSTRB)."""
    cur = stores.cursor()
    assert rows(cur, f"SELECT SUBSTRB('abcdefghij', 3, 5), SUBSTRB('abcd', 3, 5), "
                     f"SUBSTRB('abcdefghij', 3) {_ONE}") == [("cdefg", "cd", "cdefghij")]


def test_substrb_length_zero_or_less_is_null(stores: ifxwire.Connection) -> None:
    """ids_sqs_1985: "If the value of length is less than or equal to zero, the result of
    SUBSTRB is a NULL string"; a NULL argument gives NULL."""
    cur = stores.cursor()
    assert rows(cur, f"SELECT SUBSTRB('abcdef', 2, 0), SUBSTRB('abcdef', 2, -1), "
                     f"SUBSTRB(NULL, 1), SUBSTRB('abc', NULL) {_ONE}") == [
        (None, None, None, None)]


def test_substrb_of_a_char_column_keeps_its_type(stores: ifxwire.Connection) -> None:
    """A CHAR(15) source gives a CHAR result, as SUBSTR's does (cursor.description); its
    padding reads back as blanks, so a cut inside it is blank, not NULL."""
    cur = stores.cursor()
    assert rows(cur, "SELECT SUBSTRB(fname, 1, 3), SUBSTRB(fname, 5), SUBSTRB(fname, 14, 2) "
                     "IS NULL FROM customer WHERE customer_num = 101") == [("Lud", "ig", False)]
    assert cur.description is not None
    assert [d[1] for d in cur.description[:2]] == [0, 0]  # CHAR, as fname


def test_substrb_of_a_number_reads_its_text(stores: ifxwire.Connection) -> None:
    """source_string is "an expression": a number is taken in its character form, as SUBSTR
    takes it."""
    cur = stores.cursor()
    assert rows(cur, "SELECT SUBSTRB(customer_num, 2) FROM customer "
                     "WHERE customer_num = 101") == [("01",)]


def test_substrb_outside_the_page(stores: ifxwire.Connection) -> None:
    """Not on the page, so ours (SERVER.md "SUBSTRB"): a start below 1 is refused (-999,
    not a guessed answer); one past the end leaves no bytes; a missing start is -674, as
    LEFT's or RIGHT's is (no routine takes those arguments)."""
    cur = stores.cursor()
    assert sqlcode(cur, f"SELECT SUBSTRB('abc', 0) {_ONE}") == -999
    assert rows(cur, f"SELECT SUBSTRB('abc', 9) {_ONE}") == [("",)]
    assert sqlcode(cur, f"SELECT SUBSTRB('abc') {_ONE}") == -674


def test_rpad_of_a_char_column_pads_after_its_blanks(stores: ifxwire.Connection) -> None:
    """Tutorial, "The RPAD function" (ids_sqt_142): ``RPAD(sname, 21, "-")`` of CHAR(15)
    sname prints 'West Virginia  ------' and 'Arizona        ------' (six dashes after the
    15 characters)."""
    cur = stores.cursor()
    got = rows(cur, 'SELECT sname, RPAD(sname, 21, "-") FROM state '
                    'WHERE code = "WV" OR code = "AZ" ORDER BY code DESC', strip=True)
    assert got == [("West Virginia", "West Virginia  ------"),
                   ("Arizona", "Arizona        ------")]


def test_next_day_reads_three_letters(stores: ifxwire.Connection) -> None:
    """Syntax, "NEXT_DAY Function" (ids_sqs_1539): "Any characters that follow the 3rd
    character ... are ignored": 'MONDAY' and 'MONTAG' both name the next Monday; the result
    is later than the argument (2007-12-31 is a Monday, so the next is 2008-01-07)."""
    cur = stores.cursor()
    assert rows(cur, f"SELECT NEXT_DAY(DATE('2007-12-31'), 'MONDAY'), "
                     f"NEXT_DAY(DATE('2007-12-31'), 'MONTAG'), "
                     f"NEXT_DAY(DATE('2007-12-31'), 'SUN') {_ONE}") == [
        (dt.date(2008, 1, 7), dt.date(2008, 1, 7), dt.date(2008, 1, 6))]


def test_weekday_of_paid_date_against_current(stores: ifxwire.Connection) -> None:
    """Syntax, "WEEKDAY Function" (ids_sqs_1535): the page's query, orders paid on the
    same day of the week as today; WEEKDAY is 0 for Sunday (2007-12-30) to 6."""
    cur = stores.cursor()
    got = rows(cur, "SELECT paid_date, WEEKDAY(CURRENT) FROM orders "
                    "WHERE WEEKDAY(paid_date) = WEEKDAY(CURRENT)")
    assert all((d.weekday() + 1) % 7 == today for d, today in got)
    assert rows(cur, f"SELECT WEEKDAY(DATE('2007-12-30')), WEEKDAY(DATE('2008-01-05')) "
                     f"{_ONE}") == [(0, 6)]


def test_last_day_of_a_host_variable_is_a_datetime(stores: ifxwire.Connection) -> None:
    """ids_sqs_1538: for a host variable whose type "is not known at prepare time, Informix
    assumes that the data type is DATETIME YEAR TO FRACTION(5)": the result is a DATETIME
    (type code 10) that keeps the argument's time of day (ADD_MONTHS' page: time units
    smaller than day are kept). It was typed DATE, the time dropped."""
    cur = stores.cursor()
    got = rows(cur, f"SELECT LAST_DAY(?) {_ONE}", (dt.datetime(2018, 3, 12, 10, 30),))
    assert got == [(dt.datetime(2018, 3, 31, 10, 30),)]
    assert cur.description is not None and cur.description[0][1] == 10
