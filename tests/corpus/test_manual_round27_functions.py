"""Built-in functions of the Guide to SQL: Syntax 14.10 that no earlier round ran, through
the real driver and the embedded server over sockets (issue 23, twenty-seventh round).

Pages: "SUBSTRB function" (ids_sqs_1985). The page's examples name a ``my_string`` of 10 or
4 bytes and print the result's length; the statements here give it those lengths.
"""

from __future__ import annotations

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
