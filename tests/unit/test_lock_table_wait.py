"""LockTable.wait after the holder let go (features/locks/manager.py).

A session meets another's lock, then calls ``wait``; if the holder's transaction ended in
between, no release is left to wake the waiter, which slept to its SET LOCK MODE deadline
and failed -244/-154 (found by tests/integration/test_aio_pool.py's thousand tasks in a CI
run, about one run in four under load).
"""

from __future__ import annotations

import time

from ifxwire.server.engine.features.locks.manager import LockTable


def test_a_holder_gone_before_the_wait_is_not_waited_for() -> None:
    locks = LockTable()
    assert locks.row(1, "db", "t", 5, True) is None
    assert locks.row(2, "db", "t", 5, True) == 1  # session 2 meets session 1's lock
    locks.release(1)  # session 1 commits before session 2 starts waiting
    t0 = time.monotonic()
    assert locks.wait(2, 1, time.monotonic() + 2.0) is True
    assert time.monotonic() - t0 < 0.5
    assert locks.row(2, "db", "t", 5, True) is None


def test_a_holder_still_holding_is_waited_for_to_the_deadline() -> None:
    locks = LockTable()
    assert locks.row(1, "db", "t", 5, True) is None
    t0 = time.monotonic()
    assert locks.wait(2, 1, time.monotonic() + 0.3) is False
    assert time.monotonic() - t0 >= 0.29
