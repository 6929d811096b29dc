"""Built-in functions of the Guide to SQL: Syntax "Expression" segment, sixteenth manual round
(issue 23): how many arguments each takes, the result type of REVERSE and REPLACE, and the
CHAR padding they see, checked on our stores_demo corpus through the real driver and the
embedded server over sockets.

Each case names its page of the HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN``) or
Tutorial (``ids_sqt_NNN``) at https://help.hcl-software.com/hclinformix/1410/; a figure a page
prints is compared as printed. The statements are ours, modelled on the pages. Nothing is
changed in stores_demo: column cases use a temp table of their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal as D

import pytest

import ifxwire

from .manual import rows, sqlcode

ONE = " FROM systables WHERE tabid = 1"
# ifxwire's type codes in cursor.description (the SQLTYPE numbers of the wire).
CHAR, VARCHAR, NCHAR, NVARCHAR, LVARCHAR = 0, 13, 15, 16, 43


@pytest.fixture()
def cur(stores: ifxwire.Connection) -> Iterator[ifxwire.Cursor]:
    """A cursor next to a one-row temp table ``r16`` with a CHAR, a VARCHAR, an LVARCHAR and
    an NCHAR column whose values are shorter than the column (the CHARs are padded)."""
    c = stores.cursor()
    c.execute("CREATE TEMP TABLE r16 (fname CHAR(10), note VARCHAR(20), memo LVARCHAR(50), "
              "nname NCHAR(10))")
    c.execute("INSERT INTO r16 VALUES ('Ludwig', 'rush  ', 'memo', 'Pauli')")
    yield c
    c.execute("DROP TABLE r16")


def _described(cur: ifxwire.Cursor, select: str) -> tuple[list[object], list[tuple[int, int]]]:
    """The one row of ``SELECT select FROM r16`` and each column's (type code, length)."""
    cur.execute(f"SELECT {select} FROM r16")
    (row,) = cur.fetchall()
    return list(row), [(d[1], d[3]) for d in cur.description or []]


# ---- arguments beyond the syntax diagram ----------------------------------------------------
# sqlglot's builders kept the arguments their node had room for and dropped the others, so
# each of these ran as if the extra argument were not there. -201 where the diagram is part
# of the Expression grammar (the code sqlglot's own check already gave REPLACE or UPPER with
# one argument too many), -674 for the names our server resolves as routines (MDY, WEEKDAY,
# NVL2 gave it already) [inference: the pages name no code for a surplus argument].
TOO_MANY: list[tuple[str, int, str]] = [
    ("LPAD('ab', 5, 'x', 'y')", -201, "ids_sqs_1563 LPAD(source_string, length [, pad_string])"),
    ("RPAD('ab', 5, 'x', 'y')", -201, "RPAD Function: three arguments at most"),
    ("INSTR('abc', 'b', 1, 1, 1)", -201, "ids_sqs_2336 INSTR: four arguments at most"),
    ("SUBSTR('abc', 1, 1, 1)", -201, "ids_sqs_1561 SUBSTR(source, start [, length])"),
    ("LTRIM('xab', 'x', 'y')", -201, "LTRIM Function: a source and a set"),
    ("RTRIM('abx', 'x', 'y')", -201, "RTRIM Function: a source and a set"),
    ("TO_CHAR(TODAY, '%Y', 'x')", -201, "ids_sqs_1542 TO_CHAR(expression, format_string)"),
    ("NVL(1, 2, 3)", -201, "NVL Function: two expressions"),
    ("MOD(7, 2, 3)", -201, "ids_sqs_1476 MOD(dividend, divisor)"),
    ("ROUND(1.5, 1, 1)", -201, "ROUND Function: an expression and a rounding factor"),
    ("TRUNC(1.5, 1, 1)", -201, "TRUNC Function: an expression and a truncation factor"),
    ("HEX(1, 2)", -201, "HEX Function: one argument"),
    ("CEIL(1.5, 1)", -201, "CEIL Function: one argument"),
    ("FLOOR(1.5, 1)", -201, "FLOOR Function: one argument"),
    ("LOG10(10, 2)", -201, "LOG10 Function: one argument"),
    ("INITCAP('ab', 'c')", -201, "INITCAP Function: one argument"),
    ("CONCAT('a', 'b', 'c')", -201, "ids_sqs_2000: CONCAT accepts two expressions"),
    ("LENGTH('ab', 'c')", -201, "LENGTH Function: one argument"),
    ("DATE('01/31/2024', 1)", -201, "DATE Function: one argument"),
    ("CHARINDEX('b', 'abc', 1, 1)", -201, "CHARINDEX function: three arguments at most"),
    ("DBINFO('dbhostname', 1, 2)", -201, "DBINFO Function: an option and one specifier"),
    ("LOGN(10, 2)", -674, "LOGN Function: one argument"),
    ("TO_DATE('2024', '%Y', 'x')", -674, "TO_DATE Function: a string and a format"),
]


@pytest.mark.parametrize(("select", "code", "page"), TOO_MANY,
                         ids=[f"too_many{i}" for i in range(len(TOO_MANY))])
def test_a_surplus_argument_is_refused(stores: ifxwire.Connection, select: str, code: int,
                                       page: str) -> None:
    cur = stores.cursor()
    assert sqlcode(cur, f"SELECT {select}{ONE}") == code, page


def test_the_same_functions_with_their_own_arguments_run(stores: ifxwire.Connection) -> None:
    """The calls above, with as many arguments as their diagrams allow, still give values."""
    cur = stores.cursor()
    assert rows(cur, "SELECT LPAD('ab', 5, 'xy'), INSTR('abcb', 'b', 1, 2), SUBSTR('abc', 2, 1), "
                     "LTRIM('xxab', 'x'), NVL(NULL::INT, 2), MOD(7, 2), ROUND(1.55, 1), "
                     "HEX(255), CEIL(1.5), INITCAP('ab cd'), CONCAT('a', 'b'), LENGTH('ab'), "
                     "CHARINDEX('b', 'abc', 1), LOGN(1), DBINFO('version', 'major')"
                + ONE) == [("xyxab", 4, "b", "ab", 2, 1, D("1.6"), "0x000000FF", D(2),
                            "Ab Cd", "ab", 2, 2, 0.0, "14")]


# ---- LPAD, RPAD of a CHAR source ------------------------------------------------------------
def test_lpad_of_the_tutorial(stores: ifxwire.Connection) -> None:
    """ids_sqt_141 (Tutorial, "The LPAD function"): "Because the source string has a length
    of 15 characters (sname is defined as CHAR(15)), the LPAD function pads the first six
    positions"; the rows it prints. The CHAR's blanks were not counted: eleven dashes
    before California, fourteen before Arizona."""
    cur = stores.cursor()
    assert rows(cur, 'SELECT sname, LPAD(sname, 21, "-") FROM state '
                     'WHERE code = "CA" OR code = "AZ" ORDER BY sname DESC', strip=True) == [
        ("California", "------California"), ("Arizona", "------Arizona")]


def test_rpad_of_a_char_column_counts_its_blanks(cur: ifxwire.Cursor) -> None:
    """RPAD Function, by the tutorial's reading of LPAD (ids_sqt_141): a CHAR(10) source is
    ten characters, so RPAD to 12 adds two; LPAD to 3 cuts to its first three."""
    values, _ = _described(cur, "RPAD(fname, 12, '*'), LPAD(fname, 3), RPAD(note, 8, '*')")
    assert values == ["Ludwig    **", "Lud", "rush  **"]


# ---- REVERSE --------------------------------------------------------------------------------
def test_the_empty_literal_pads_from_nothing(cur: ifxwire.Cursor) -> None:
    """The literal '' is typed CHAR(1), there being no CHAR(0), but holds no blank: padding
    starts from nothing (Django's Repeat is ``RPAD('', n * CHAR_LENGTH(s), s)``; the CHAR rule
    above once made it ' JohnJoh'). A CAST to CHAR(n) is n characters, as a column is."""
    values, _ = _described(cur, "RPAD('', 8, 'John'), RPAD('', 2 * CHAR_LENGTH(note), note), "
                                "LPAD(CAST('' AS CHAR(3)), 5, '-'), RPAD('', 0, 'x')")
    assert values == ["JohnJohn", "rush  rush  ", "--   ", ""]


def test_reverse_keeps_its_argument_type_and_length(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0573 REVERSE: "returns a string of the same length" and "of the same data
    type as its source_string argument"; REVERSE('Mood') is dooM. A CHAR(10) 'Ludwig' is
    ten characters, so its blanks lead once reversed. It was a VARCHAR(255) of the value
    without its padding ('giwduL')."""
    values, described = _described(
        cur, "REVERSE(fname), REVERSE(note), REVERSE(memo), REVERSE('Mood'), "
             "REVERSE(NULL::CHAR(3))")
    assert values == ["    giwduL", "  hsur", "omem", "dooM", None]
    assert described == [(CHAR, 10), (VARCHAR, 20), (LVARCHAR, 50), (CHAR, 4), (CHAR, 3)]


# ---- REPLACE --------------------------------------------------------------------------------
def test_replace_of_the_tutorial(stores: ifxwire.Connection) -> None:
    """ids_sqt_137 (Tutorial, "The REPLACE function"): each becomes item in stores_demo's
    CHAR(4) unit column, the rows it prints; the result is described as the source's type,
    ids_sqs_1562: "The return data type is its source_string argument"."""
    cur = stores.cursor()
    got = rows(cur, 'SELECT stock_num, REPLACE(unit, "each", "item") cost_per, unit_price '
                    'FROM stock WHERE manu_code = "HRO" ORDER BY stock_num', strip=True)
    assert got == [(1, "case", D("250.00")), (2, "case", D("126.00")), (4, "case", D("480.00")),
                   (7, "case", D("600.00")), (110, "case", D("260.00")),
                   (205, "case", D("312.00")), (301, "item", D("42.50")),
                   (302, "item", D("4.50")), (304, "box", D("280.00")),
                   (305, "case", D("48.00")), (309, "case", D("40.00")),
                   (312, "box", D("72.00"))]
    assert [(d[0], d[1], d[3]) for d in cur.description or []][1] == ("cost_per", CHAR, 4)


def test_replace_keeps_the_source_type(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1562: the source's type; a CHAR(n) source is n characters, its padding
    included (a blank is found in it), and grows only as far as every old_string replaced
    lets it [inference: the page gives no length]; a VARCHAR that may pass 255 is an
    LVARCHAR. Every result was a VARCHAR(255), and the CHAR's blanks were not seen."""
    values, described = _described(
        cur, "REPLACE(fname, ' ', '-'), REPLACE(fname, 'w', 'W'), REPLACE(fname, ' ', '..'), "
             "REPLACE(note, 'u'), REPLACE(note, 'u', 'oooo'), REPLACE(memo, 'm', 'M'), "
             "REPLACE(nname, 'P', 'p')")
    assert values == ["Ludwig----", "LudWig", "Ludwig" + "." * 8, "rsh  ", "roooosh  ", "MeMo",
                      "pauli"]
    assert described == [(CHAR, 10), (CHAR, 10), (CHAR, 20), (VARCHAR, 20), (VARCHAR, 80),
                         (LVARCHAR, 50), (NCHAR, 10)]


# ---- national character operands ------------------------------------------------------------
def test_a_national_operand_makes_a_national_result(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2001 "Return Types from CONCAT and String Functions": "If one of the types is
    ... NCHAR and NVARCHAR: the return type is NVARCHAR if the resulting length is less than
    255 bytes; the return type is NCHAR otherwise"; LPAD and RPAD follow those rules over
    their three arguments (ids_sqs_1563). An NCHAR operand gave a CHAR (||, CONCAT) or a
    VARCHAR (LPAD, RPAD); two CHARs still give a CHAR."""
    values, described = _described(
        cur, "CONCAT(nname, 'x'), nname || note, fname || nname, LPAD(nname, 12), "
             "RPAD('a', 5, nname), LPAD(nname, 300), fname || 'x'")
    assert values[:5] == ["Pauli     x", "Pauli     rush  ", "Ludwig    Pauli     ",
                          "  Pauli     ", "aPaul"]
    assert described == [(NVARCHAR, 11), (NVARCHAR, 30), (NVARCHAR, 20), (NVARCHAR, 255),
                         (NVARCHAR, 255), (NCHAR, 300), (CHAR, 11)]


# ---- TRIM -----------------------------------------------------------------------------------
def test_trim_result_types(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1556 TRIM Function (and the GLS guide's table, ids_gug_245): an argument
    longer than 255 bytes gives an LVARCHAR; of 255 bytes or fewer a CHAR or VARCHAR gives a
    VARCHAR, an NCHAR or NVARCHAR an NVARCHAR, an LVARCHAR an LVARCHAR. The LVARCHAR and
    national arguments gave a VARCHAR, a CHAR(300) a CHAR."""
    values, described = _described(
        cur, "TRIM(fname), TRIM(note), TRIM(memo), TRIM(nname), "
             "TRIM(TRAILING FROM CAST('a' AS CHAR(300))), TRIM(LEADING 'P' FROM nname)")
    assert values == ["Ludwig", "rush", "memo", "Pauli", "a", "auli"]
    assert described == [(VARCHAR, 10), (VARCHAR, 20), (LVARCHAR, 50), (NVARCHAR, 10),
                         (LVARCHAR, 300), (NVARCHAR, 10)]


def test_trim_of_a_date_is_its_character_form(stores: ifxwire.Connection) -> None:
    """TRIM takes a character expression: a DATE is trimmed in the character form it
    converts to (as CAST(d AS CHAR(10)) gives it, and LENGTH counts it since the seventh
    round); TRIM(MDY(1, 31, 2024)) gave the day number the DATE is stored as, '45321'."""
    cur = stores.cursor()
    (trimmed, cast), = rows(cur, "SELECT TRIM(MDY(1, 31, 2024)), CAST(MDY(1, 31, 2024) AS "
                                 "CHAR(10))" + ONE)
    assert trimmed == cast
    assert "2024" in trimmed


# ---- compared with the pages and already right ----------------------------------------------
def test_rules_already_kept(cur: ifxwire.Cursor) -> None:
    """Kept as a guard: SUBSTRING_INDEX is NULL for a count of 0 and has the source's type
    (ids_sqs_2337); UPPER returns "a value of the same data type as the argument" (ids_sqt_135);
    CONCAT with a NULL argument is NULL (ids_sqs_2000); REVERSE('Mood') is dooM (ids_sqs_0573)."""
    values, described = _described(
        cur, "SUBSTRING_INDEX(fname, 'd', 0), SUBSTRING_INDEX(fname, 'd', 1), UPPER(nname), "
             "CONCAT(note, NULL::CHAR(1)), REVERSE('Mood')")
    assert values == [None, "Lu", "PAULI", None, "dooM"]
    assert described[:3] == [(CHAR, 10), (CHAR, 10), (NCHAR, 10)]
