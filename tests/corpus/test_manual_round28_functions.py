"""FORMAT_UNITS and the encryption functions of the Guide to SQL: Syntax 14.10, through the
real driver and the embedded server over sockets (issue 23, twenty-eighth round).

Pages: "FORMAT_UNITS Function" (ids_sqs_1569): one, two or three arguments, 'number units'
in one string or a number (or a quoted number) and a units string, then a precision;
"The returned value is a character string that shows the specified number and an
appropriate format label"; precision is the "Integer number of significant digits to
return from number", 3 by default; units 'B' (the default), 'K', 'M', 'G', 'T' (powers of
2: 2**0 to 2**40), 'PB' petabytes (2**50) and 'P' pages (2 or 4 KB, the base page size),
lowercase too, "any trailing characters are ignored". The printed examples of the page
could not be read in the stored copies (their excerpts stop at the units table), so each
expected result here is worked out from those rules, not copied from a printed example
(docs/SERVER.md "FORMAT_UNITS"). "Encryption and decryption functions" (ids_sqs_1499) and
"SET ENCRYPTION PASSWORD statement" (ids_sqs_1135): its example table ``emp``.
"""

from __future__ import annotations

import pytest

import ifxwire

from .manual import rows, sqlcode

_ONE = "FROM systables WHERE tabid = 1"


def _units(cur: ifxwire.Cursor, args: str) -> str:
    result = rows(cur, f"SELECT FORMAT_UNITS({args}) {_ONE}")
    return str(result[0][0])


@pytest.mark.parametrize(("args", "text"), [
    ("'1024 M'", "1.00 GB"),       # one string: number and units
    ("'1024'", "1.00 KB"),         # units default to bytes
    ("1024, 'k'", "1.00 MB"),      # a number and lowercase units
    ("'1.5', 'gigabytes'", "1.50 GB"),  # trailing characters of units ignored
    ("20000, 'b'", "19.5 KB"),     # three significant digits
    ("500, 'B'", "500 B"),
    ("100, 'p'", "200 KB"),        # 'P' alone: pages of 2 KB
    ("2, 'PB'", "2.00 PB"),        # 'PB': petabytes
    ("3, 'tb'", "3.00 TB"),
])
def test_format_units_scales_to_the_largest_unit(stores: ifxwire.Connection, args: str,
                                                  text: str) -> None:
    """ids_sqs_1569: the size shown in the unit it reaches, to 3 significant digits. Was
    -999 (refused: its printed form was not known)."""
    assert _units(stores.cursor(), args) == text


def test_format_units_precision_is_significant_digits(stores: ifxwire.Connection) -> None:
    """The third argument, a number or a quoted integer, is the count of significant
    digits (ids_sqs_1569: "Integer number of significant digits to return")."""
    cur = stores.cursor()
    assert _units(cur, "12345678, 'b', 5") == "11.774 MB"
    assert _units(cur, "'12345678', 'bytes', '5'") == "11.774 MB"
    assert _units(cur, "1, 'k', 1") == "1 KB"


def test_format_units_returns_a_character_string(stores: ifxwire.Connection) -> None:
    """"The returned value is a character string": a VARCHAR column (type 13) here; a NULL
    argument gives NULL."""
    cur = stores.cursor()
    assert rows(cur, f"SELECT FORMAT_UNITS('3 k'), FORMAT_UNITS(NULL, 'k') {_ONE}") == [
        ("3.00 KB", None)]
    assert cur.description is not None
    assert cur.description[0][1] == 13


def test_format_units_bad_arguments(stores: ifxwire.Connection) -> None:
    """Units not starting with B, K, M, G, T or P: -717 "Invalid argument passed to system
    function"; a number that does not convert to FLOAT: -1213; no argument or four: -674
    (no such routine signature). The codes are our choice [inference]: the page names
    none."""
    cur = stores.cursor()
    assert sqlcode(cur, f"SELECT FORMAT_UNITS(5, 'x') {_ONE}") == -717
    assert sqlcode(cur, f"SELECT FORMAT_UNITS(5, 'k', 0) {_ONE}") == -717
    assert sqlcode(cur, f"SELECT FORMAT_UNITS('abc', 'k') {_ONE}") == -1213
    assert sqlcode(cur, f"SELECT FORMAT_UNITS() {_ONE}") == -674
    assert sqlcode(cur, f"SELECT FORMAT_UNITS(1, 'k', 3, 4) {_ONE}") == -674


def test_encryption_functions_are_refused_not_unknown(stores: ifxwire.Connection) -> None:
    """ids_sqs_1135's example: SET ENCRYPTION PASSWORD, then ENCRYPT_AES into an LVARCHAR
    column and DECRYPT_CHAR back. The functions exist in Informix (ids_sqs_1499), so
    -999 (their encrypted format is Informix's own, not reproduced here), not -674."""
    cur = stores.cursor()
    cur.execute("SET ENCRYPTION PASSWORD 'one two three 123'")
    cur.execute("CREATE TEMP TABLE emp (name CHAR(40), salary MONEY, ssn LVARCHAR(67))")
    assert sqlcode(cur, "INSERT INTO emp VALUES ('Alice', 50000, "
                        "ENCRYPT_AES('123-456-7890'))") == -999
    cur.execute("INSERT INTO emp VALUES ('Bob', 65000, '213-656-0890')")
    for call in ("DECRYPT_CHAR(ssn, 'one two three 123')", "DECRYPT_BINARY(ssn)",
                 "GETHINT(ssn)", "ENCRYPT_TDES(ssn, 'password1')"):
        assert sqlcode(cur, f"SELECT name, salary, {call} FROM emp WHERE name = 'Bob'") == -999
    cur.execute("DROP TABLE emp")
