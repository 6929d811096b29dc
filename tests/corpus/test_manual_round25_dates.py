"""The manuals' US date strings with a two-digit year, under the DBDATE ifxwire's driver
sends (Y4MD-), through the real driver and the embedded server over sockets (issue 23,
twenty-fifth round).

Pages: Guide to SQL: Syntax 14.10, "DATE Function" (ids_sqs_1532: `WHERE order_date <
DATE('12/31/07')`, a string read per DBDATE); Administrator's Guide, "sel_all.sql"
(ids_dba_192: `WHERE o.order_date > '01/01/90'`); Guide to SQL: Reference, DBCENTURY (R, the
default, prefixes the current century). Under Y4MD- such a string was read as year/month/day
and stopped at its month (-1205) or day (-1206); it is now read in the next form that gives
a valid date, the US mm/dd/yy, and a string no form reads keeps its first error. The
statements are ours, modelled on those pages.
"""

from __future__ import annotations

import datetime as dt

import ifxwire

from .manual import rows, sqlcode


def test_a_us_date_with_a_two_digit_year_is_read(stores: ifxwire.Connection) -> None:
    """ids_sqs_1532's DATE('12/31/07') is 2007-12-31 (DBCENTURY R: this century); was -1205."""
    cur = stores.cursor()
    assert rows(cur, "SELECT DATE('12/31/07') FROM systables WHERE tabid = 1") == [
        (dt.date(2007, 12, 31),)]
    assert rows(cur, "SELECT COUNT(*) FROM orders WHERE order_date < DATE('12/31/07')") == [
        (23,)]


def test_sel_all_style_comparison_with_a_two_digit_year(stores: ifxwire.Connection) -> None:
    """ids_dba_192 compares order_date with '01/01/90'; under R that is 2090-01-01, after
    every stores_demo order (1998). Was -1206 (day 90)."""
    cur = stores.cursor()
    assert rows(cur, "SELECT COUNT(*) FROM orders WHERE order_date > '01/01/90'") == [(0,)]
    assert rows(cur, "SELECT COUNT(*) FROM orders WHERE order_date < '6/1/98'") == [(23,)]


def test_the_drivers_own_form_still_comes_first(stores: ifxwire.Connection) -> None:
    """'2007/12/31' is read as Y4MD: the fallback only runs when DBDATE's reading gives no
    date."""
    cur = stores.cursor()
    assert rows(cur, "SELECT DATE('2007/12/31'), DATE('07/12/31') FROM systables "
                     "WHERE tabid = 1") == [(dt.date(2007, 12, 31), dt.date(2007, 12, 31))]


def test_a_string_no_form_reads_keeps_its_first_error(stores: ifxwire.Connection) -> None:
    """'1982-27-03' (month 27 under Y4MD-) stays -1205; '02/30/1999' stays -1206 (its
    Y4MD reading is skipped as a four-digit day, its US reading has February 30)."""
    cur = stores.cursor()
    assert sqlcode(cur, "SELECT DATE('1982-27-03') FROM systables WHERE tabid = 1") == -1205
    assert sqlcode(cur, "SELECT DATE('02/30/1999') FROM systables WHERE tabid = 1") == -1206
