"""Built-in functions added for issue 12 (the coverage table is in docs/SERVER.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from .conftest import Sql, codes


def test_builtins(db: Sql) -> None:
    db.run("CREATE TABLE a (id INT, s CHAR(10), d DATE, t DATETIME YEAR TO SECOND)")
    db.run("INSERT INTO a VALUES (1, 'hello', '2024-01-31', '2024-01-31 10:20:30')")
    one = "FROM a WHERE id = 1"
    # MOD divides the integer parts, an INT (Guide to SQL: Syntax, "MOD Function").
    assert db.rows(f"SELECT MOD(7, 3), MOD(7.5, 2) {one}") == [(1, 1)]
    assert db.rows(f"SELECT ADD_MONTHS(d, 1), ADD_MONTHS(d, -13), LAST_DAY('2024-02-10'), "
                   f"NEXT_DAY(d, 'MON'), QUARTER(d) {one}") == [
        (dt.date(2024, 2, 29), dt.date(2022, 12, 31), dt.date(2024, 2, 29),
         dt.date(2024, 2, 5), 3 - 2)]
    assert db.rows(f"SELECT MONTHS_BETWEEN('2024-03-15', '2024-01-15'), "
                   f"MONTHS_BETWEEN(d, '2023-11-30') {one}") == [(Decimal(2), Decimal(2))]
    # REVERSE keeps its CHAR(10) argument's type and length (ids_sqs_0573): blanks lead.
    assert db.rows(f"SELECT REVERSE(s), TO_NUMBER('12.5'), ROOT(16), ROOT(27, 3) {one}") == [
        ("     olleh", Decimal("12.5"), 4.0, 3.0)]
    assert db.rows(f"SELECT BITAND(5, 3), BITOR(5, 3), BITXOR(5, 3), BITNOT(5) {one}") == [
        (1, 7, 6, -6)]
    assert db.rows(f"SELECT NVL2(s, 'a', 'b'), ASIN(0), DEGREES(0) {one}") == [("a", 0.0, 0.0)]
    assert db.rows(f"SELECT SITENAME, DBSERVERNAME {one}") == [("informix", "informix")]
    assert codes(db.err(f"SELECT NEXT_DAY(d, 'XYZ') {one}"))[0] == -1260
    assert codes(db.err(f"SELECT NO_SUCH_FUNCTION(1) {one}"))[0] == -674


def test_month_functions_of_a_datetime(db: Sql) -> None:
    """ADD_MONTHS of a DATETIME is DATETIME YEAR TO FRACTION(5) with the time kept (Guide to
    SQL: Syntax, ADD_MONTHS Function); LAST_DAY has its argument's type."""
    db.run("CREATE TABLE a (t DATETIME YEAR TO SECOND)")
    db.run("INSERT INTO a VALUES ('2024-01-31 10:20:30')")
    assert db.rows("SELECT ADD_MONTHS(t, 1), LAST_DAY(t), NEXT_DAY(t, 'MON') FROM a") == [
        (dt.datetime(2024, 2, 29, 10, 20, 30), dt.datetime(2024, 1, 31, 10, 20, 30),
         dt.datetime(2024, 2, 5, 10, 20, 30))]
    types = [c[1] & 0xFF for c in db.describe("SELECT ADD_MONTHS(t, 1), LAST_DAY(t) FROM a")]
    assert types == [10, 10]
    assert [c[2] for c in db.describe("SELECT ADD_MONTHS(t, 1), LAST_DAY(t) FROM a")] == [
        (19 << 8) | 0x0F, (14 << 8) | 0x0A]  # YEAR TO FRACTION(5); YEAR TO SECOND


def test_round_and_trunc_of_dates(db: Sql) -> None:
    db.run("CREATE TABLE a (d DATE, t DATETIME YEAR TO SECOND)")
    db.run("INSERT INTO a VALUES ('2024-07-17', '2024-07-17 10:29:31')")
    assert db.rows("SELECT ROUND(d, 'YEAR'), TRUNC(d, 'YEAR'), ROUND(d, 'MONTH'), "
                   "TRUNC(d, 'MONTH'), TRUNC(d, 'DAY'), ROUND(d), TRUNC(d, 'DD') FROM a") == [
        (dt.date(2025, 1, 1), dt.date(2024, 1, 1), dt.date(2024, 8, 1), dt.date(2024, 7, 1),
         dt.date(2024, 7, 14), dt.date(2024, 7, 17), dt.date(2024, 7, 17))]
    assert db.rows("SELECT ROUND(t, 'HH'), TRUNC(t, 'HH'), ROUND(t, 'MI'), ROUND(t), "
                   "TRUNC(t) FROM a") == [
        (dt.datetime(2024, 7, 17, 10, 0), dt.datetime(2024, 7, 17, 10, 0),
         dt.datetime(2024, 7, 17, 10, 30), dt.datetime(2024, 7, 17), dt.datetime(2024, 7, 17))]
    assert codes(db.err("SELECT ROUND(d, 'HH') FROM a"))[0] == -717  # not a DATE format
    assert codes(db.err("SELECT ROUND(t, 'DECADE') FROM a"))[0] == -717
    assert codes(db.err("SELECT ROUND(d, 'DAY') FROM a"))[0] == -999


def test_string_functions(db: Sql) -> None:
    """LEFT, RIGHT, CHARINDEX, SUBSTRING_INDEX, SPACE, LEN (Guide to SQL: Syntax, 14.10); a
    CHAR value keeps its trailing blanks, LEN does not count them."""
    db.run("CREATE TABLE a (c CHAR(6), v VARCHAR(20))")
    db.run("INSERT INTO a VALUES ('ab', 'x,y,z')")
    # The result has the source's type ("The return value has the same data type as the
    # source_string", SUBSTRING_INDEX): a CHAR(6) result is six characters again.
    assert db.rows("SELECT LEFT(v, 3), RIGHT(v, 3), LEFT(c, 4) || '|', RIGHT(c, 3) || '|', "
                   "LEFT(v, 0) FROM a") == [("x,y", "y,z", "ab    |", "      |", "")]
    assert db.rows("SELECT LEFT(c, 1) || RIGHT('abc', 1) FROM a") == [("a     c  ",)]
    assert db.rows("SELECT SUBSTRING_INDEX(v, ',', 2), SUBSTRING_INDEX(v, ',', -1), "
                   "SUBSTRING_INDEX(v, ',', 9), SUBSTRING_INDEX(v, ',', 0) FROM a") == [
        ("x,y", "z", "x,y,z", None)]
    assert db.rows("SELECT CHARINDEX('y', v), CHARINDEX('y', v, 4), CHARINDEX('q', v), "
                   "CHARINDEX('y', v, -2), INSTR(v, ',', 1, 2) FROM a") == [(3, 0, 0, 3, 4)]
    assert db.rows("SELECT SPACE(3) || '|', SPACE(0), LEN(v), LEN(c) FROM a") == [
        ("   |", None, 5, 2)]
    assert db.rows("SELECT FORMAT_UNITS('3 k') FROM a") == [("3.00 KB",)]


def test_range_aggregate(db: Sql) -> None:
    db.run("CREATE TABLE a (g INT, x DECIMAL(8,2))")
    for g, x in ((1, 10), (1, 30), (2, 5), (2, 20)):
        db.run("INSERT INTO a VALUES (?, ?)", g, x)
    assert db.rows("SELECT RANGE(x), RANGE(DISTINCT g) FROM a") == [(Decimal("25.00"), 1)]
    assert db.rows("SELECT g, RANGE(x) FROM a GROUP BY g ORDER BY g") == [
        (1, Decimal("20.00")), (2, Decimal("15.00"))]
    assert db.describe("SELECT RANGE(x) FROM a")[0][0] == "(range)"


def test_char_length_counts_trailing_blanks(db: Sql) -> None:
    """The GLS guide's CHAR_LENGTH table: a quoted 'Ludwig    ' is 10, 'Ludwig' in a CHAR(15)
    is 15, in a VARCHAR its actual length with its blanks; LENGTH drops trailing blanks
    (CHAR_LENGTH was read as LENGTH)."""
    db.run("CREATE TABLE cl (c CHAR(15), v VARCHAR(20))")
    db.run("INSERT INTO cl VALUES ('Ludwig', 'Ludwig    ')")
    assert db.rows("SELECT CHAR_LENGTH('Ludwig    '), CHARACTER_LENGTH(c), CHAR_LENGTH(v), "
                   "LENGTH(c), LENGTH(v), CHAR_LENGTH('é'), OCTET_LENGTH('é') FROM cl") == [
        (10, 15, 10, 6, 6, 1, 1)]  # 'é' is one byte in this en_US.819 database (2 in UTF-8:
    # tests/unit/engine/test_code_sets.py)
