"""INTERVAL times a number, sixteenth round (issue 23), through the real driver and the
embedded server over sockets.

Page: HCL Informix 14.10 Guide to SQL: Reference, "Multiplying or Dividing INTERVAL Values"
(ids_sqr_158): "The result of any calculation has the same precision as the original
INTERVAL operand"; its printed example, INTERVAL (15:30.0002) MINUTE TO FRACTION(4) * 2.5 =
INTERVAL (38:45.0005) MINUTE TO FRACTION(4), is in test_manual_round8_time.py. Before this
round the result was widened to a first field of nine digits, so INTERVAL(50) DAY TO DAY * 2
gave 100 days in a DAY(2) qualifier's place. The code of the overflow, -1265 "Overflow
occurred on a datetime or interval operation." (message catalogue in IBM's JDBC jar), is an
inference: no page prints the case.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire import IntervalYM

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "iv16") as conn:
        yield conn.cursor()


def one(cur: ifxwire.Cursor, expr: str) -> Any:
    return rows(cur, f"SELECT {expr} FROM systables WHERE tabid = 1")[0][0]


@pytest.mark.parametrize("expr", [
    "INTERVAL(50) DAY TO DAY * 2",
    "INTERVAL(99) DAY TO DAY * 100",
    "2 * INTERVAL(60:00) HOUR TO MINUTE",
    "INTERVAL(9999-11) YEAR TO MONTH * 2",
    "INTERVAL(10) DAY TO DAY / 0.1",
])
def test_a_product_past_the_first_field_overflows(cur: ifxwire.Cursor, expr: str) -> None:
    """ids_sqr_158: the result keeps the operand's precision, so 100 days do not fit DAY(2)
    (the default first-field precision; YEAR's is 4)."""
    assert sqlcode(cur, f"SELECT {expr} FROM systables WHERE tabid = 1") == -1265


def test_the_result_keeps_the_operand_qualifier(cur: ifxwire.Cursor) -> None:
    """A wider first field takes the product; the described qualifier is the operand's."""
    assert one(cur, "INTERVAL(50) DAY(3) TO DAY * 2") == dt.timedelta(days=100)
    assert one(cur, "INTERVAL(99) DAY TO DAY * 1.01") == dt.timedelta(days=99)
    assert one(cur, "INTERVAL(2-6) YEAR TO MONTH * 2") == IntervalYM(months=60)
    assert one(cur, "INTERVAL(10:00) HOUR TO MINUTE / 4") == dt.timedelta(hours=2, minutes=30)
    cur.execute("SELECT INTERVAL(5) DAY(3) TO DAY * 2, INTERVAL(5) DAY TO DAY * 2 "
                "FROM systables WHERE tabid = 1")
    wide, narrow = cur.description
    assert wide[4] == 3 and narrow[4] == 2  # precision: the first field's digits
