"""Time functions and DATE/DATETIME/INTERVAL arithmetic of IBM's published material, eighth
round (issue 23), through the real driver and the embedded server over sockets.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN``, at
https://help.hcl-software.com/hclinformix/1410/sqs/) or Guide to SQL: Reference
(``ids_sqr_NNN``, .../sqr/). The statements are ours, modelled on the pages' examples; where a
page prints a result the case compares with it, where it states a rule the case checks the
rule. Nothing is written: every statement is a SELECT of literals.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire import IntervalYM

from .manual import rows, sqlcode

_rows = rows
_code = sqlcode

D = Decimal
ONE = " FROM systables WHERE tabid = 1"


def _one(stores: ifxwire.Connection, select: str) -> tuple[Any, ...]:
    got = _rows(stores.cursor(), f"SELECT {select}{ONE}")
    assert len(got) == 1
    return got[0]


# ---- MONTHS_BETWEEN (ids_sqs_1537) -----------------------------------------------------------
def test_months_between_printed_example(stores: ifxwire.Connection) -> None:
    """ids_sqs_1537 runs MONTHS_BETWEEN of TO_DATE('2-2-2005') and TO_DATE('1-1-2005') "AS
    lunations" and says the value expresses the 32-day difference: one whole month and one
    day of a 31-day month."""
    (value,) = _one(stores, "MONTHS_BETWEEN(TO_DATE('2-2-2005', '%m-%d-%Y'), "
                            "TO_DATE('1-1-2005', '%m-%d-%Y')) AS lunations")
    assert round(value, 12) == round(1 + D(1) / 31, 12)


def test_months_between_counts_the_time_of_day_of_datetimes(stores: ifxwire.Connection
                                                            ) -> None:
    """ids_sqs_1537: "This fractional part can also include the difference in hour, minute,
    and second time units, unless both arguments are DATE expressions." Half a day more is
    half a 31st of a month more (it was dropped: both values were cut to DATEs); same days
    of the month stay whole months whatever the time; two DATEs have no time to count."""
    (frac,) = _one(stores, "MONTHS_BETWEEN(DATETIME(2005-02-02 12:00) YEAR TO MINUTE, "
                           "DATETIME(2005-01-01 00:00) YEAR TO MINUTE)")
    assert round(frac, 12) == round(1 + (1 + D("0.5")) / 31, 12)
    (mixed,) = _one(stores, "MONTHS_BETWEEN(MDY(2, 2, 2005), "
                            "DATETIME(2005-01-01 06:00) YEAR TO MINUTE)")
    assert round(mixed, 12) == round(1 + (1 - D("0.25")) / 31, 12)
    assert _one(stores, "MONTHS_BETWEEN(DATETIME(2005-02-01 12:00) YEAR TO MINUTE, "
                        "DATETIME(2005-01-01 00:00) YEAR TO MINUTE), "
                        "MONTHS_BETWEEN(DATETIME(2005-01-01 06:00) YEAR TO MINUTE, "
                        "DATETIME(2005-02-02 18:00) YEAR TO MINUTE) < 0") == (D(1), True)


# ---- TO_DATE (ids_sqs_1543) ------------------------------------------------------------------
def test_to_date_printed_example_with_weekday_month_name_and_r(stores: ifxwire.Connection
                                                               ) -> None:
    """ids_sqs_1543 updates a DATETIME YEAR TO SECOND column with TO_DATE('Wednesday July 25,
    2007 18:45', '%A %B %d, %Y %R'); %R (the time as %H:%M, GLS User's Guide, GL_DATETIME)
    was not known to the parser and the page's own example failed with -1218."""
    assert _one(stores, "TO_DATE('Wednesday July 25, 2007 18:45', '%A %B %d, %Y %R')") == (
        dt.datetime(2007, 7, 25, 18, 45),)
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE tab1 (begin_date DATETIME YEAR TO SECOND)")
    cur.execute("INSERT INTO tab1 VALUES (CURRENT YEAR TO SECOND)")
    cur.execute("UPDATE tab1 SET begin_date = TO_DATE('Wednesday July 25, 2007 18:45', "
                "'%A %B %d, %Y %R')")
    assert _rows(cur, "SELECT begin_date FROM tab1") == [(dt.datetime(2007, 7, 25, 18, 45),)]
    cur.execute("DROP TABLE tab1")


def test_to_date_other_gl_datetime_directives(stores: ifxwire.Connection) -> None:
    """GL_DATETIME directives strptime lacks: %T (%H:%M:%S), %D (%m/%d/%y), %e (a blank-padded
    day), %h (%b), %Fn (a fraction of n digits); a value that does not fit the mask is -1218,
    as before, and the tutorial's own lookup (ids_sqt_130) still reads '%Y-%m-%d %H:%M'."""
    assert _one(stores, "TO_DATE('07/25/07 18:45:10', '%D %T'), "
                        "TO_DATE(' 5 Jul 2007', '%e %h %Y'), "
                        "TO_DATE('2007-07-25 10:00:00.12', '%Y-%m-%d %H:%M:%S.%F2'), "
                        "TO_DATE('2008-07-07 10:24', '%Y-%m-%d %H:%M')") == (
        dt.datetime(2007, 7, 25, 18, 45, 10), dt.datetime(2007, 7, 5),
        dt.datetime(2007, 7, 25, 10, 0, 0, 120000), dt.datetime(2008, 7, 7, 10, 24))
    assert _code(stores.cursor(), f"SELECT TO_DATE('2-30-2005', '%m-%d-%Y'){ONE}") == -1218
    assert _code(stores.cursor(), f"SELECT TO_DATE('18:45', '%R %Y'){ONE}") == -1218


# ---- DATE with DATETIME and INTERVAL (ids_sqr_156) -------------------------------------------
def test_date_difference_as_units_day(stores: ifxwire.Connection) -> None:
    """ids_sqr_156: DATE − DATE is an INTEGER count of days, which UNITS DAY makes an INTERVAL
    DAY TO DAY; the parentheses matter, UNITS binding tighter than the minus. The page prints
    INTERVAL (12810) DAY(5) TO DAY for DATE('5/2/2007') - DATE('4/6/1968'), a count its dates
    do not give (it is about 35 years; the dates are 39 years apart): we compare with the
    calendar's count, 14270, and record the page's figure as not used."""
    days = (dt.date(2007, 5, 2) - dt.date(1968, 4, 6)).days
    assert days == 14270
    assert _one(stores, "(DATE('5/2/2007') - DATE('4/6/1968')) UNITS DAY, "
                        "DATE('5/2/2007') - DATE('4/6/1968')") == (dt.timedelta(days=days), days)


def test_extend_first_date_operand_gives_year_to_month(stores: ifxwire.Connection) -> None:
    """ids_sqr_156: "If you need YEAR TO MONTH precision, you can use the EXTEND function on
    the first DATE operand": EXTEND(DATE('5/2/2007'), YEAR TO MONTH) - DATE('4/6/1968') is an
    INTERVAL YEAR TO MONTH, 39-01 (ESQL/C's dtsub() likewise extends the second value to the
    first's qualifier). It was an INTERVAL DAY TO DAY of 14269 days."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT EXTEND(DATE('5/2/2007'), YEAR TO MONTH) - DATE('4/6/1968')"
                      f"{ONE}") == [(IntervalYM(months=39 * 12 + 1),)]
    assert cur.description is not None and cur.description[0][1] == 14  # INTERVAL
    # both operands of the year-month class, and a finer first operand, as before
    assert _one(stores, "DATETIME(2007-05) YEAR TO MONTH - DATETIME(1968-04) YEAR TO MONTH, "
                        "DATETIME(2007-05-02) YEAR TO DAY - DATETIME(2007-04) YEAR TO MONTH"
                        ) == (IntervalYM(months=469), dt.timedelta(days=31))


# ---- INTERVAL × number (ids_sqr_158) and the time of a DATETIME (ids_sqr_155) ----------------
def test_interval_times_a_fraction_printed_example(stores: ifxwire.Connection) -> None:
    """ids_sqr_158: INTERVAL (15:30.0002) MINUTE TO FRACTION(4) * 2.5 gives INTERVAL (38:45.0005)
    MINUTE TO FRACTION(4): 37.5 minutes, 75 seconds, 5 ten-thousandths, carried."""
    assert _one(stores, "INTERVAL(15:30.0002) MINUTE TO FRACTION(4) * 2.5") == (
        dt.timedelta(minutes=38, seconds=45, microseconds=500),)


@pytest.mark.parametrize(("expr", "expected"), [
    ("DATETIME(2000-8-1) YEAR TO DAY + INTERVAL(3-5) YEAR TO MONTH", dt.date(2004, 1, 1)),
    ("INTERVAL(3-5) YEAR TO MONTH + DATETIME(2000-8-1) YEAR TO DAY", dt.date(2004, 1, 1)),
    ("MDY(12, 25, 2020) + INTERVAL(1 10) DAY TO HOUR", dt.datetime(2020, 12, 26, 10, 0)),
    ("INTERVAL(1 10) DAY TO HOUR - INTERVAL(20) HOUR TO HOUR", dt.timedelta(hours=14)),
    ("INTERVAL(2-6) YEAR TO MONTH * 2", IntervalYM(months=60)),
    ("2 * INTERVAL(1:30) HOUR TO MINUTE", dt.timedelta(hours=3)),
    ("DATETIME(2020-12-25 10:30) YEAR TO MINUTE - DATETIME(2020-12-24 08:00) YEAR TO MINUTE",
     dt.timedelta(days=1, hours=2, minutes=30)),
    ("EXTEND(DATETIME(2009-8-1) YEAR TO DAY, YEAR TO MINUTE) - INTERVAL(720) MINUTE(3) "
     "TO MINUTE", dt.datetime(2009, 7, 31, 12, 0)),
])
def test_arithmetic_results(stores: ifxwire.Connection, expr: str, expected: object) -> None:
    """ids_sqr_153 (the table of operations: DATETIME ± INTERVAL and INTERVAL + DATETIME are
    DATETIME, DATE + INTERVAL is DATETIME, INTERVAL ± INTERVAL and INTERVAL × number are
    INTERVAL), ids_sqr_155 (2000-8-1 + 3-5 is 2004-01-01) and the EXTEND page (ids_sqs_1540,
    the YEAR TO MINUTE widening before an INTERVAL MINUTE is subtracted)."""
    assert _one(stores, expr) == (expected,)


# ---- EXTEND (ids_sqs_1540) -------------------------------------------------------------------
def test_extend_default_qualifier_and_quoted_string(stores: ifxwire.Connection) -> None:
    """ids_sqs_1540: without qualifiers EXTEND gives YEAR TO FRACTION(3); its first argument
    "cannot be a quoted string representation of a DATE value"."""
    cur = stores.cursor()
    assert _rows(cur, f"SELECT EXTEND(MDY(12, 25, 2020)){ONE}") == [
        (dt.datetime(2020, 12, 25),)]
    assert cur.description is not None and cur.description[0][4:6] == (17, 3)
    assert _code(cur, f"SELECT EXTEND('12/25/2020', YEAR TO DAY){ONE}") == -1260


# ---- the -126x errors --------------------------------------------------------------------------
@pytest.mark.parametrize(("expr", "code"), [
    # -1261 "Too many digits in the first field of datetime or interval": HOUR is HOUR(2)
    ("INTERVAL(100) HOUR TO HOUR", -1261),
    # -1262 "Non-numeric character in datetime or interval"
    ("INTERVAL(5:x0) HOUR TO MINUTE", -1262),
    # -1263 "A field in a datetime or interval value is incorrect": a 13th month, a 70th
    # minute, February 30; and 1/31 + 1 UNITS MONTH, whose February 31 is no date (a field
    # report of a real server: devx.com tip 23086, "date("1/31/97") + 1 units month" errs)
    ("DATETIME(2020-13-01) YEAR TO DAY", -1263),
    ("INTERVAL(5:70) HOUR TO MINUTE", -1263),
    ("DATETIME(2020-02-30) YEAR TO DAY", -1263),
    ("DATE('1/31/1997') + 1 UNITS MONTH", -1263),
    # -1264 "Extra characters at the end of a datetime or interval"
    ("DATETIME(2020-02-01 10) YEAR TO DAY", -1264),
    # -1266 "Intervals or Datetimes are incompatible for the operation": two DATETIMEs added,
    # the two INTERVAL classes combined, an INTERVAL finer than the DATETIME (ids_sqr_155),
    # a DATETIME subtracted from an INTERVAL
    ("DATETIME(2020-12-25) YEAR TO DAY + DATETIME(2020-12-25) YEAR TO DAY", -1266),
    ("INTERVAL(1-0) YEAR TO MONTH + INTERVAL(1) DAY TO DAY", -1266),
    ("DATETIME(2008-8-1) YEAR TO DAY - INTERVAL(720) MINUTE(3) TO MINUTE", -1266),
    ("INTERVAL(5) DAY TO DAY - DATETIME(2020-01-01) YEAR TO DAY", -1266),
    # -1267 "The result of a datetime computation is out of range": past 9999-12-31
    ("DATETIME(9999-12-31) YEAR TO DAY + 1 UNITS DAY", -1267),
    ("ADD_MONTHS(MDY(1, 31, 9999), 12)", -1267),
    # MDY's own errors: -1204 invalid year, -1205 invalid month, -1206 invalid day
    ("MDY(2, 1, 10000)", -1204),
    ("MDY(13, 1, 2020)", -1205),
    ("MDY(2, 30, 2020)", -1206),
])
def test_datetime_interval_errors(stores: ifxwire.Connection, expr: str, code: int) -> None:
    """The -126x messages (Informix Error Messages; the codes the ESQL/C DATETIME and
    INTERVAL functions return, e.g. invdivdbl(): -1265 overflow, -1266 incompatible, -1268
    bad qualifier) for the literals and operations the Reference's pages forbid."""
    assert _code(stores.cursor(), f"SELECT {expr}{ONE}") == code


def test_sum_and_avg_of_a_datetime_are_561(stores: ifxwire.Connection) -> None:
    """A DATETIME is a point in time: SUM and AVG of one are -561 ("Sums and averages cannot
    be computed on datetime values", the message catalogue of IBM's JDBC jar); they were
    -1260. SUM and AVG of an INTERVAL (a span) and MIN/MAX of a DATETIME are values."""
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE spans (t DATETIME YEAR TO SECOND, "
                "i INTERVAL DAY TO SECOND)")
    cur.execute("INSERT INTO spans VALUES (DATETIME(2020-01-01 10:00:00) YEAR TO SECOND, "
                "INTERVAL(1 10:00:00) DAY TO SECOND)")
    cur.execute("INSERT INTO spans VALUES (DATETIME(2020-01-03 10:00:00) YEAR TO SECOND, "
                "INTERVAL(2 12:00:00) DAY TO SECOND)")
    assert _code(cur, "SELECT SUM(t) FROM spans") == -561
    assert _code(cur, "SELECT AVG(t) FROM spans") == -561
    assert _rows(cur, "SELECT SUM(i), AVG(i), MIN(t), MAX(t) FROM spans") == [(
        dt.timedelta(days=3, hours=22), dt.timedelta(days=1, hours=23),
        dt.datetime(2020, 1, 1, 10), dt.datetime(2020, 1, 3, 10))]
    cur.execute("DROP TABLE spans")
