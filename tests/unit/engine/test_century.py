"""Years in DATE and DATETIME strings: only 1- and 2-digit years are century-expanded.

Informix's DBCENTURY documentation (Guide to SQL: Reference, "DBCENTURY environment variable"):
R (the default) prefixes the first two digits of the current year; P, F and C pick the nearest
past, future or closest date among the 19xx/20xx/21xx candidates; a 1-digit year is padded
with 0 first; 3- and 4-digit years are never expanded ("pad years earlier than 100 with leading
zeros"); a setting other than the four upper-case letters means R.
"""

from __future__ import annotations

import datetime as dt

import pytest

from ifxwire.server.engine.core import values as vals

from .conftest import Sql

THIS_CENTURY = dt.date.today().year // 100 * 100


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0001-01-01", dt.date(1, 1, 1)),
        ("0099-12-31", dt.date(99, 12, 31)),
        ("0050-06-15", dt.date(50, 6, 15)),
        ("0100-01-01", dt.date(100, 1, 1)),
        ("099-01-01", dt.date(99, 1, 1)),  # three digits: not expanded either
    ],
)
def test_four_digit_small_years_are_kept(db: Sql, text: str, expected: dt.date) -> None:
    db.run("create table t (d date)")
    db.run(f"insert into t values ('{text}')")
    db.run("insert into t values (?)", text)
    db.run(f"insert into t values (date('{text}'))")
    assert [r[0] for r in db.rows("select d from t")] == [expected] * 3
    assert db.one(f"select date('{text}') from systables where tabid = 1") == expected
    assert db.one(f"select count(*) from t where d = '{text}'") == 3


def test_small_years_per_dbdate_layouts(open_db) -> None:  # type: ignore[no-untyped-def]
    us = open_db("logged", {"DBDATE": "MDY4/"}, name="us")
    assert us.one("select date('01/02/0001') from systables where tabid = 1") == dt.date(1, 1, 2)
    eu = open_db("logged", {"DBDATE": "DMY4."}, name="eu")
    assert eu.one("select date('02.01.0007') from systables where tabid = 1") == dt.date(7, 1, 2)
    compact = open_db("logged", {"DBDATE": "Y4MD0"}, name="compact")
    assert compact.one("select date('00090102') from systables where tabid = 1") == dt.date(
        9, 1, 2)


def test_datetime_literals_keep_small_years(db: Sql) -> None:
    db.run("create table t (ts datetime year to second, d datetime year to day)")
    db.run("insert into t values ('0001-01-01 00:00:00', datetime(0042-03-04) year to day)")
    db.run("insert into t values (?, ?)", "0099-12-31 23:59:59", "0010-10-10")
    rows = db.rows("select ts, d from t order by ts")
    assert rows == [(dt.datetime(1, 1, 1), dt.date(42, 3, 4)),
                    (dt.datetime(99, 12, 31, 23, 59, 59), dt.date(10, 10, 10))]


def test_two_digit_years_follow_dbcentury_r_by_default(db: Sql) -> None:
    assert db.one("select date('99-01-02') from systables where tabid = 1") == dt.date(
        THIS_CENTURY + 99, 1, 2)
    assert db.one("select date('5-01-02') from systables where tabid = 1") == dt.date(
        THIS_CENTURY + 5, 1, 2)


@pytest.mark.parametrize("rule", ["R", "P", "F", "C", "x", "r"])
def test_expand_year_rules(rule: str) -> None:
    today = dt.date(2026, 6, 15)
    got = {yy: vals.expand_year(yy, 2, 6, 20, rule, today) for yy in (0, 26, 27, 99)}
    expected = {
        # R and anything unknown (settings are case sensitive): the current century.
        "R": {0: 2000, 26: 2026, 27: 2027, 99: 2099},
        # P: the most recent of 19yy/20yy that is before today (2026-06-20 is not).
        "P": {0: 2000, 26: 1926, 27: 1927, 99: 1999},
        # F: the earliest of 20yy/21yy after today.
        "F": {0: 2100, 26: 2026, 27: 2027, 99: 2099},
        # C: the closest of 19yy/20yy/21yy.
        "C": {0: 2000, 26: 2026, 27: 2027, 99: 1999},
    }.get(rule, {0: 2000, 26: 2026, 27: 2027, 99: 2099})
    assert got == expected
    assert vals.expand_year(7, 3, 1, 1, rule, today) == 7  # 3 digits: never expanded
    assert vals.expand_year(7, 4, 1, 1, rule, today) == 7


def test_dbcentury_from_the_session_environment(open_db) -> None:  # type: ignore[no-untyped-def]
    past = open_db("logged", {"DBCENTURY": "P"}, name="past")
    year = past.one("select year(date('99-01-01')) from systables where tabid = 1")
    assert year == THIS_CENTURY - 100 + 99  # 20yy-01-01 is in the future until 2099
    assert past.one("select date('0099-01-01') from systables where tabid = 1") == dt.date(
        99, 1, 1)


def test_two_digit_years_in_datetime_literals_follow_dbcentury(db: Sql) -> None:
    """Informix's DBCENTURY "specifies how to expand literal DATE and DATETIME values that are
    entered with abbreviated year values" (Guide to SQL: Reference): DATETIME too."""
    db.run("create table t (id int, ts datetime year to second, d datetime year to day)")
    db.run("insert into t values (1, '99-12-31 23:59:59', datetime(99-01-02) year to day)")
    db.run("insert into t values (2, ?, ?)", "5-06-07 08:09:10", "07-08-09")
    rows = db.rows("select ts, d from t order by id")
    assert rows == [(dt.datetime(THIS_CENTURY + 99, 12, 31, 23, 59, 59),
                     dt.date(THIS_CENTURY + 99, 1, 2)),
                    (dt.datetime(THIS_CENTURY + 5, 6, 7, 8, 9, 10),
                     dt.date(THIS_CENTURY + 7, 8, 9))]
    assert db.one("select datetime(98-03-04 05:06) year to minute from systables "
                  "where tabid = 1") == dt.datetime(THIS_CENTURY + 98, 3, 4, 5, 6)
    # A longer literal cut to the column's qualifier is expanded too.
    db.run("insert into t values (3, null, '97-06-05 04:03:02')")
    assert db.one("select d from t where id = 3") == dt.date(THIS_CENTURY + 97, 6, 5)


def test_datetime_literals_with_dbcentury_p(open_db) -> None:  # type: ignore[no-untyped-def]
    past = open_db("logged", {"DBCENTURY": "P"}, name="past")
    this_year = dt.date.today().year % 100
    later = (this_year + 1) % 100  # next year's two digits: in the past only a century ago
    expected = dt.date.today().year + 1 - 100
    assert past.one(f"select datetime({later:02d}-01-01) year to day from systables "
                    "where tabid = 1") == dt.date(expected, 1, 1)
    past.run("create table t (ts datetime year to second)")
    past.run(f"insert into t values ('{later:02d}-01-01 00:00:00')")
    assert past.one("select ts from t") == dt.datetime(expected, 1, 1)
