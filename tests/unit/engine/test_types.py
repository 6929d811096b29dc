"""Every type stored and returned exactly, including the boundaries."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from ifxwire.types.values import DateTimeFields, IntervalYM

from .conftest import Sql


def roundtrip(db: Sql, coltype: str, value: object) -> object:
    db.run(f"create table rt (v {coltype})")
    db.run("insert into rt values (?)", value)
    return db.one("select v from rt")


@pytest.mark.parametrize("coltype,value", [
    ("smallint", 32767), ("smallint", -32767), ("integer", 2147483647),
    ("integer", -2147483647), ("int8", 9223372036854775807), ("int8", -9223372036854775807),
    ("bigint", -9223372036854775807), ("float", 1.0000000000000002), ("smallfloat", 0.5),
    ("boolean", True), ("boolean", False), ("char(5)", "abc"), ("varchar(10)", "a b "),
    ("nchar(3)", "xyz"), ("lvarchar(3000)", "x" * 3000), ("text", "long text"),
    ("byte", b"\x00\x01\xff"),
])
def test_scalar_roundtrip(db: Sql, coltype: str, value: object) -> None:
    assert roundtrip(db, coltype, value) == value


@pytest.mark.parametrize("value", [
    "12345678901234567890123456789012", "-12345678901234567890123456789012",
    "0.0000000000000000000000000000001", "99999999999999999999999999999999",
])
def test_decimal_32_digits_exact(db: Sql, value: str) -> None:
    assert roundtrip(db, "decimal(32)", Decimal(value)) == Decimal(value)


def test_decimal_fixed_scale_rounds_and_compares_exactly(db: Sql) -> None:
    db.run("create table d (v decimal(32,2))")
    db.run("insert into d values (?)", "123456789012345678901234567890.125")
    db.run("insert into d values (?)", "123456789012345678901234567890.12")
    vals = [r[0] for r in db.rows("select v from d order by v")]
    assert vals == [Decimal("123456789012345678901234567890.12"),
                    Decimal("123456789012345678901234567890.13")]
    assert db.one("select count(*) from d where v > 123456789012345678901234567890.12") == 1
    assert db.one("select sum(v) from d") == Decimal("246913578024691357802469135780.25")


def test_decimal_order_is_numeric_not_text(db: Sql) -> None:
    db.run("create table d (v decimal(10,2))")
    for v in ("9.5", "10", "-2", "100.25"):
        db.run("insert into d values (?)", v)
    assert [r[0] for r in db.rows("select v from d order by v")] == [
        Decimal("-2.00"), Decimal("9.50"), Decimal("10.00"), Decimal("100.25")]
    assert db.one("select max(v) from d") == Decimal("100.25")


def test_money_default_precision(db: Sql) -> None:
    assert roundtrip(db, "money", Decimal("12345678901234.56")) == Decimal("12345678901234.56")


@pytest.mark.parametrize("value", [dt.date(1, 1, 1), dt.date(9999, 12, 31),
                                   dt.date(1899, 12, 31), dt.date(2024, 2, 29)])
def test_date_range(db: Sql, value: dt.date) -> None:
    assert roundtrip(db, "date", value) == value


def test_date_strings_per_dbdate(open_db) -> None:  # type: ignore[no-untyped-def]
    us = open_db("logged", {"DBDATE": "MDY4/"}, name="us")
    us.run("create table t (d date)")
    us.run("insert into t values ('02/29/2024')")
    us.run("insert into t values (?)", "2024-03-01")
    assert [r[0] for r in us.rows("select d from t order by d")] == [
        dt.date(2024, 2, 29), dt.date(2024, 3, 1)]
    assert us.one("select d || '' from t where d = '02/29/2024'") == "02/29/2024"


def test_datetime_fraction5(db: Sql) -> None:
    v = dt.datetime(2024, 2, 29, 13, 45, 59, 999990)
    assert roundtrip(db, "datetime year to fraction(5)", v) == v


def test_datetime_fraction_truncates(db: Sql) -> None:
    v = dt.datetime(2024, 2, 29, 13, 45, 59, 999999)
    assert roundtrip(db, "datetime year to fraction(5)", v) == v.replace(microsecond=999990)


@pytest.mark.parametrize("coltype,value,expected", [
    ("datetime year to second", "2024-02-29 13:45:59", dt.datetime(2024, 2, 29, 13, 45, 59)),
    ("datetime year to day", "2024-02-29", dt.date(2024, 2, 29)),
    ("datetime hour to second", "13:45:59", dt.time(13, 45, 59)),
    ("datetime year to fraction(3)", "9999-12-31 23:59:59.999",
     dt.datetime(9999, 12, 31, 23, 59, 59, 999000)),
    ("datetime month to day", "02-29", DateTimeFields(2, 4, month=2, day=29)),
])
def test_datetime_qualifiers(db: Sql, coltype: str, value: str, expected: object) -> None:
    assert roundtrip(db, coltype, value) == expected


@pytest.mark.parametrize("coltype,value", [
    ("interval day(9) to fraction(5)", dt.timedelta(days=999999999, hours=23, minutes=59,
                                                    seconds=59, microseconds=999990)),
    ("interval day(9) to fraction(5)", -dt.timedelta(days=999999998, hours=23, microseconds=10)),
    ("interval hour(9) to second", dt.timedelta(hours=999999999)),
    ("interval year(9) to month", IntervalYM(999999999 * 12 + 11)),
    ("interval year to month", IntervalYM(-30)),
])
def test_interval_extremes(db: Sql, coltype: str, value: object) -> None:
    assert roundtrip(db, coltype, value) == value


def test_interval_literal_text(db: Sql) -> None:
    assert roundtrip(db, "interval day(3) to second", "-12 03:04:05") == -dt.timedelta(
        days=12, hours=3, minutes=4, seconds=5)


def test_boolean_from_strings(db: Sql) -> None:
    db.run("create table b (v boolean)")
    for v in ("t", "f", "1", "0", "T"):
        db.run("insert into b values (?)", v)
    assert [r[0] for r in db.rows("select v from b")] == [True, False, True, False, True]
    assert db.one("select count(*) from b where v = 't'") == 3


def test_char_compares_blank_padded(db: Sql) -> None:
    db.run("create table c (v char(10))")
    db.run("insert into c values ('ab   ')")
    assert db.one("select count(*) from c where v = 'ab'") == 1
    assert db.one("select count(*) from c where v = ?", "ab  ") == 1


def test_strings_truncate_in_non_ansi(db: Sql) -> None:
    db.run("create table s (c char(3), v varchar(4))")
    db.run("insert into s values ('abcdef', 'abcdef')")
    assert db.rows("select c, v from s") == [("abc", "abcd")]


def test_strings_raise_in_ansi(open_db) -> None:  # type: ignore[no-untyped-def]
    a = open_db("ansi")
    a.run("create table s (v varchar(4))")
    assert a.err("insert into s values ('abcdef')").sqlcode == -1279
