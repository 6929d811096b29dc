"""Built-in functions of the Guide to SQL: Syntax "Expression" segment, seventh round (issue
23): the function expressions the earlier rounds (test_manual_round4.py and round6) left out,
their result types, their NULL behaviour and the errors the pages name, checked on our
stores_demo corpus through the real driver and the embedded server over sockets.

Each case names its page of the HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN`` at
https://help.hcl-software.com/hclinformix/1410/sqs/ where we know the id, else the section
title). The statements are ours, modelled on the pages; a figure the page prints is compared
as printed. Nothing is changed in stores_demo: column cases use a temp table of their own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal as D
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = rows
_code = sqlcode

ONE = " FROM systables WHERE tabid = 1"
# ifxwire's type codes in cursor.description (the SQLTYPE numbers of the wire).
INTEGER, FLOAT, DECIMAL, INT8 = 2, 3, 5, 17


@pytest.fixture()
def cur(stores: ifxwire.Connection) -> Iterator[ifxwire.Cursor]:
    """A cursor next to a one-row temp table ``fx`` shaped like stores_demo's columns (a CHAR
    name, a VARCHAR, an INTEGER quantity, a DECIMAL and a MONEY price, a FLOAT, a DATE and a
    DATETIME), so column arguments are checked as well as literals."""
    c = stores.cursor()
    c.execute("CREATE TEMP TABLE fx (fname CHAR(15), note VARCHAR(20), quantity INTEGER, "
              "ratio DECIMAL(8,2), price MONEY(8,2), weight FLOAT, order_date DATE, "
              "paid DATETIME YEAR TO SECOND, empty VARCHAR(10))")
    c.execute("INSERT INTO fx VALUES ('Ludwig', 'rush  ', -7, 12.35, 3.50, 2.5, "
              "MDY(1, 31, 2024), DATETIME(2024-02-29 10:11:12) YEAR TO SECOND, '')")
    yield c
    c.execute("DROP TABLE fx")


FX = " FROM fx"

# ---- values the pages print or define -------------------------------------------------------
VALUES: list[tuple[str, tuple[Any, ...], str]] = [
    ("ROUND(24.536, -2), ROUND(24.536, -1), ROUND(24.536, 0), ROUND(24.536, 1), "
     "ROUND(24.536, 2)", (D(0), D(20), D(25), D("24.5"), D("24.54")),
     "ROUND Function: the page's figure of rounding 24.536 at factors -2 to 2"),
    ("TRUNC(24.536, -1), TRUNC(24.536, 0), TRUNC(24.536, 1), TRUNC(24.536, 2)",
     (D(20), D(24), D("24.5"), D("24.53")), "TRUNC Function: the same figure, truncated"),
    ("ROUND(1.5, 32), TRUNC(1.5, 32), ROUND(1.5, -32)", (D("1.5"), D("1.5"), D(0)),
     "ROUND/TRUNC Function: the factor ranges from -32 to +32, inclusive"),
    # ids_sqs_1476: "the integer part of the first argument ... by the integer part of the
    # second argument", an INT; the sign follows the dividend (truncating division).
    ("MOD(10.7, 3), MOD(-10.7, 3), MOD(7, 2.9), MOD('17', 5)", (1, -1, 1, 2),
     "ids_sqs_1476 MOD of real-number operands divides their integer parts"),
    ("MOD(MDY(2, 15, 2024) - MDY(1, 1, 2024), 30)", (15,),
     "ids_sqs_1476: the page's own example, a billing cycle of 30 days from a DATE difference"),
    ("CEIL('2.5'), FLOOR('-2.5'), CEIL(-3), FLOOR(2.0e0)", (D(3), D(-3), D(-3), D(2)),
     "CEIL/FLOOR Function: a number or a string that converts to DECIMAL; DECIMAL(32) result"),
    ("LOG10(1000), LOG10(0.001), LOGN(1), EXP(0)", (3.0, -3.0, 0.0, 1.0),
     "Exponential and Logarithmic Functions: LOG10 of a power of ten is exact"),
    ("ABS('-5'), SIGN('-3'), -'5', '5' + 1", (D(5), -1, D(-5), D(6)),
     "ABS Function / arithmetic: a character operand is read as a number"),
    ("POW(2, -1), ROOT(16), SQRT(2.25)", (0.5, 4.0, 1.5),
     "POW, ROOT (index 2 by default), SQRT Functions"),
    # ids_sqs_2336: "The function returns NULL in each of these cases: count is less than or
    # equal to zero; source_string is NULL or of zero length; substring is NULL or of zero
    # length", and 0 when the substring is not found or start is past the end.
    ("INSTR('abcabc', 'c', 1, 0), INSTR('abcabc', 'c', 1, -1), INSTR(NULL, 'a'), "
     "INSTR('abc', NULL)", (None, None, None, None),
     "ids_sqs_2336 INSTR: count <= 0 or a NULL argument is NULL"),
    ("INSTR('abcabc', 'c', 1, 2), INSTR('abc', 'z'), INSTR('abc', 'b', 5)", (6, 0, 0),
     "ids_sqs_2336 INSTR: the count-th occurrence; 0 when absent or start is past the end"),
    ("CHARINDEX('b', 'abc'), CHARINDEX('z', 'abc')", (2, 0),
     "CHARINDEX function: shares INSTR's search, not its NULL rules"),
    ("HEX(255), HEX(0), HEX(NULL::INT)", ("0x000000FF", "0x00000000", None),
     "HEX Function: 0x and eight hexadecimal digits of an INTEGER; NULL in, NULL out"),
    ("ABS(NULL::INT), MOD(NULL::INT, 3), ROUND(NULL::DECIMAL, 2), CEIL(NULL::FLOAT), "
     "POW(NULL::FLOAT, 2), LOG10(NULL::FLOAT)", (None,) * 6,
     "Algebraic Functions: a NULL argument gives NULL"),
    ("UPPER(NULL::CHAR(1)), REPLACE(NULL::CHAR(1), 'a', 'b'), LPAD(NULL::CHAR(1), 3, 'x'), "
     "REVERSE(NULL::CHAR(1)), CONCAT('ab', NULL::CHAR(1)), 'ab' || NULL::CHAR(1)",
     (None,) * 6, "String functions and the concatenation operator: NULL in, NULL out"),
    ("ADD_MONTHS(MDY(1, 31, 2024), 1), ADD_MONTHS(MDY(1, 31, 2024), -2), "
     "LAST_DAY(MDY(2, 1, 2023))", (dt.date(2024, 2, 29), dt.date(2023, 11, 30),
                                   dt.date(2023, 2, 28)),
     "ADD_MONTHS: a day past the new month's end becomes its last day; LAST_DAY"),
    ("MONTHS_BETWEEN(MDY(3, 31, 2024), MDY(2, 29, 2024)), "
     "MONTHS_BETWEEN(MDY(1, 1, 2024), MDY(3, 1, 2024))", (D(1), D(-2)),
     "MONTHS_BETWEEN: whole months between same days or last days; negative backwards"),
    ("NEXT_DAY(MDY(1, 29, 2024), 'MON'), WEEKDAY(MDY(1, 7, 2024)), QUARTER(MDY(12, 1, 2024))",
     (dt.date(2024, 2, 5), 0, 4),
     "NEXT_DAY is strictly after its date; WEEKDAY 0 is Sunday; QUARTER"),
    ("ADD_MONTHS(NULL::DATE, 1), LAST_DAY(NULL::DATE), DAY(NULL::DATE), MDY(NULL::INT, 1, 2024)",
     (None,) * 4, "Time functions: a NULL argument gives NULL"),
    ("TO_NUMBER('  -7 '), TO_NUMBER('123.45'), TO_NUMBER(NULL::CHAR(1))",
     (D(-7), D("123.45"), None), "TO_NUMBER Function"),
]


@pytest.mark.parametrize(("select", "expected", "page"), VALUES,
                         ids=[f"value{i}" for i in range(len(VALUES))])
def test_function_value(stores: ifxwire.Connection, select: str, expected: tuple[Any, ...],
                        page: str) -> None:
    cur = stores.cursor()
    assert _rows(cur, f"SELECT {select}{ONE}") == [expected], page


# ---- result types ---------------------------------------------------------------------------
TYPES: list[tuple[str, list[int], str]] = [
    ("CEIL(quantity), FLOOR(quantity), CEIL(weight), FLOOR(ratio), CEIL(price)",
     [DECIMAL] * 5, "CEIL/FLOOR Function: the DECIMAL(32) representation, whatever the type"),
    ("MOD(quantity, 3), MOD(ratio, 5), MOD(100, weight)", [INTEGER, INTEGER, INT8],
     "ids_sqs_1476 MOD: an INT (INT8 where the divisor may pass INT's range)"),
    ("ABS(note), POW(quantity, 2), LOG10(quantity * -1)", [DECIMAL, FLOAT, FLOAT],
     "ABS of a string is a number; POW and LOG10 are FLOAT"),
]


@pytest.mark.parametrize(("select", "codes", "page"), TYPES,
                         ids=[f"type{i}" for i in range(len(TYPES))])
def test_function_result_type(cur: ifxwire.Cursor, select: str, codes: list[int],
                              page: str) -> None:
    cur.execute(f"SELECT {select}{FX} WHERE note = 'x'")
    cur.fetchall()
    assert [d[1] for d in cur.description or []] == codes, page


def test_column_arguments(cur: ifxwire.Cursor) -> None:
    """The same functions over column values (stores_demo-like), not only literals."""
    assert _rows(cur, "SELECT CEIL(quantity), FLOOR(weight), MOD(ratio, 5), ABS(quantity), "
                      "LOG10(quantity * -1000 / 7)" + FX) == [(D(-7), D(2), 2, 7, 3.0)]
    # ids_sqs_2336: a source_string of zero length gives NULL, as a zero-length substring.
    assert _rows(cur, "SELECT INSTR(empty, 'a'), INSTR(note, empty), INSTR(note, 'u')"
                 + FX) == [(None, None, 2)]
    assert _rows(cur, "SELECT ADD_MONTHS(order_date, 1), LAST_DAY(order_date), "
                      "WEEKDAY(paid), QUARTER(paid), DAY(paid)" + FX) == [
        (dt.date(2024, 2, 29), dt.date(2024, 1, 31), 4, 1, 29)]


# ---- errors the pages name ------------------------------------------------------------------
ERRORS: list[tuple[str, int, str]] = [
    ("MOD(5, 0)", -1202, "ids_sqs_1476: the divisor cannot be 0"),
    ("MOD(5, 0.5)", -1202, "ids_sqs_1476: a divisor whose integer part is 0"),
    ("ABS('abc')", -1213, "ABS of a string that is no number: a conversion error, no value"),
    ("MOD(10, 'a')", -1213, "MOD of a string that is no number"),
    ("CEIL('x')", -1213, "CEIL: a string that cannot be converted to DECIMAL"),
    ("CEIL(1e300)", -1226, "CEIL: the result does not fit DECIMAL(32)"),
    ("ROUND(1.5, 33)", -999, "ROUND Function: a factor outside -32..+32 (code not documented)"),
    ("TRUNC(1.5, -33)", -999, "TRUNC Function: a factor outside -32..+32"),
    ("TRIM(LEADING 'xy' FROM 'xyab')", -999,
     "TRIM Function: trim_expression evaluates to a single character or NULL (code not "
     "documented); LTRIM/RTRIM take a set, see test_ltrim_rtrim_take_a_set"),
    ("SUBSTR('abc', 1, -1)", -999,
     "ids_sqs_1561 SUBSTR: no result is documented for a negative length (it gave 'abc')"),
    ("LPAD('ab', -1)", -999, "LPAD Function: no result is documented for a negative length"),
    ("CHR(256)", -717, "CHR: an argument outside 0-255"),
    ("MDY(2, 30, 2024)", -1206, "MDY Function: no such day"),
    ("MDY(13, 1, 2024)", -1205, "MDY Function: no such month"),
    ("DATE('2024-13-01')", -1205, "DATE Function: a string that is no date"),
    ("TO_DATE('2024-02-30', '%Y-%m-%d')", -1218, "TO_DATE: a string the mask does not fit"),
    ("TO_NUMBER('12a')", -1213, "TO_NUMBER: a string that is no number"),
    ("NEXT_DAY(MDY(1, 1, 2024), 'XYZ')", -1260, "NEXT_DAY: not a day name"),
    ("TO_CHAR(CURRENT YEAR TO SECOND, '%F')", -999,
     "TO_CHAR Function / GL_DATETIME: %F without its digit count (default not known to us)"),
    ("DBINFO('version', 'bogus')", -999,
     "DBINFO Function: 'version' takes one of six specifiers; another gave the full string"),
    ("DBINFO('no such option')", -999, "DBINFO: an option we do not know is refused"),
]


@pytest.mark.parametrize(("select", "code", "page"), ERRORS,
                         ids=[f"error{i}" for i in range(len(ERRORS))])
def test_function_error(stores: ifxwire.Connection, select: str, code: int, page: str) -> None:
    cur = stores.cursor()
    assert _code(cur, f"SELECT {select}{ONE}") == code, page


def test_ltrim_rtrim_take_a_set(stores: ifxwire.Connection) -> None:
    """LTRIM/RTRIM Function: the second argument is a set of characters, any of which is
    removed (unlike TRIM's single trim character); NULL as that argument gives NULL."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT LTRIM('xyxabc', 'yx'), RTRIM('abcxyx', 'xy'), "
                      "TRIM(LEADING NULL::CHAR(1) FROM 'ab'), TRIM(BOTH 'x' FROM 'xabx')"
                 + ONE) == [("abc", "abc", None, "ab")]


def test_padding_past_255_characters(stores: ifxwire.Connection) -> None:
    """LPAD/RPAD Function: the result has `length` characters, also past 255 (a VARCHAR's
    limit), and UPPER, TRIM, REPLACE of such a value give it whole. The value could not be
    sent (-1260) when the result was described as VARCHAR(255)."""
    cur = stores.cursor()
    (lpad, length, upper, trim, repl), = _rows(
        cur, "SELECT LPAD('a', 300, 'x'), LENGTH(RPAD('a', 300, 'b')), "
             "UPPER(RPAD('a', 300, 'b')), TRIM(RPAD('a', 300, 'b')), "
             "REPLACE(RPAD('a', 300, 'b'), 'b', 'c')" + ONE)
    assert (lpad, length) == ("x" * 299 + "a", 300)
    assert (upper, trim, repl) == ("A" + "B" * 299, "a" + "b" * 299, "a" + "c" * 299)


def test_length_of_a_date_counts_its_character_form(cur: ifxwire.Cursor) -> None:
    """LENGTH, OCTET_LENGTH, CHAR_LENGTH Functions take a character argument: a DATE is
    counted in the character form it converts to (ten characters with a four-digit year, as
    CAST(d AS CHAR(10)) shows it), a DATETIME YEAR TO SECOND in its 19. LENGTH of a DATE
    counted the day number it is stored as (45321: 5)."""
    assert _rows(cur, "SELECT LENGTH(order_date), OCTET_LENGTH(order_date), "
                      "CHAR_LENGTH(order_date), LENGTH(order_date::CHAR(10)), LENGTH(paid)"
                 + FX) == [(10, 10, 10, 10, 19)]


def test_to_char_fraction_directive(stores: ifxwire.Connection) -> None:
    """TO_CHAR Function: the format string takes GL_DATETIME's directives; %Fn is the
    fraction of a second in n digits (GLS User's Guide, "GL_DATETIME environment variable").
    It printed six digits followed by the n."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT TO_CHAR(DATETIME(2024-02-29 10:11:12.34567) YEAR TO FRACTION(5), "
                      "'%H:%M:%S.%F3|%F5|%F1'), TO_CHAR(MDY(1, 31, 2024), '%Y %F2')"
                 + ONE) == [("10:11:12.345|34567|3", "2024 00")]


def test_dbinfo_version_specifiers(stores: ifxwire.Connection) -> None:
    """DBINFO Function, 'version' option: 'major', 'minor' and 'os' (F: a 64-bit UNIX
    build) are parts of the 'full' string."""
    cur = stores.cursor()
    (full, major, minor, os_code), = _rows(
        cur, "SELECT DBINFO('version', 'full'), DBINFO('version', 'major'), "
             "DBINFO('version', 'minor'), DBINFO('version', 'os')" + ONE)
    assert f"{major}.{minor}.{os_code}" in full
