"""CURRENT and TODAY are the statement's start, although the datetime is made at first use.

FunctionState.new_statement reads only the clock (issue 26: datetime.now() per statement was
a measurable part of a one-row query); stmt_time turns that reading into the datetime when a
statement first asks for it. It must be the start's, not the moment of that first use.
"""

from __future__ import annotations

import datetime as dt
import time

from ifxwire.server.engine.core import values as vals
from ifxwire.server.engine.sql.functions import FunctionState


def test_stmt_time_is_the_start_not_the_first_use() -> None:
    state = FunctionState("informix", vals.ConvContext())
    before = dt.datetime.now()
    state.new_statement()
    after = dt.datetime.now()
    time.sleep(0.05)
    first = state.stmt_time  # made now, 50 ms after the start
    # time.time() turned into a datetime may round a microsecond away from datetime.now()
    tick = dt.timedelta(microseconds=1)
    assert before - tick <= first <= after + tick
    assert state.stmt_time is first  # the same value for the rest of the statement
    time.sleep(0.01)
    state.new_statement()
    assert state.stmt_time - first >= dt.timedelta(milliseconds=55)


def test_stmt_time_can_be_set() -> None:
    """A caller may still pin the statement's time (the setter)."""
    state = FunctionState("informix", vals.ConvContext())
    pinned = dt.datetime(2020, 2, 29, 12, 0, 0)
    state.stmt_time = pinned
    assert state.stmt_time == pinned
    state.new_statement()
    assert state.stmt_time != pinned
