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


def test_an_exclusive_table_lock_covers_its_holders_rows() -> None:
    """ids_sqt_373: under an EXCLUSIVE table lock the holder's writes add no row locks (one
    lock, however many rows); under SHARE each written row is still locked."""
    locks = LockTable()
    assert locks.table(1, "db", "t", True) is None
    assert locks.rows(1, "db", "t", list(range(1, 10_001)), True) is None
    assert locks.row(1, "db", "t", 20_000, True) is None
    assert locks._tables[("db", "t")].rows == {}  # nothing per row
    assert locks.row(2, "db", "t", 5, True) == 1  # another session still meets the table lock
    assert locks.readable(2, "db", "t") == 1
    locks.release(1)
    assert locks.row(2, "db", "t", 5, True) is None
    locks.release(2)
    assert locks.table(3, "db", "t", False) is None  # SHARE: rows still locked one by one
    assert locks.rows(3, "db", "t", [1, 2, 3], True) is None
    assert set(locks._tables[("db", "t")].rows) == {1, 2, 3}


def test_a_cursor_lock_stops_writers_not_readers_and_is_waited_for() -> None:
    """CURSOR STABILITY's shared lock on the row a cursor is on (docs/SERVER.md "Isolation
    levels"): another session's write of that row, a batch including it, LOCK TABLE …
    EXCLUSIVE and DDL meet it; SHARE and readers do not; a waiter waits for it (a holder of
    cursor locks only is a holder: the wait once returned at once and spun); moving the
    cursor wakes the waiter; the session's transaction end drops it."""
    locks = LockTable()
    locks.cursor_lock(1, "db", "t", 5)
    assert locks.row(2, "db", "t", 5, True) == 1
    assert locks.row(2, "db", "t", 6, True) is None  # another row
    assert locks.rows(2, "db", "t", [7, 5], True) == 1
    assert locks.row(1, "db", "t", 5, True) is None  # its own cursor's row
    locks.release(1)
    locks.release(2)
    locks.cursor_lock(1, "db", "t", 8)
    assert locks.readable(2, "db", "t") is None
    assert locks.table(3, "db", "t", True) == 1
    assert locks.table(3, "db", "t", False) is None
    assert locks.busy(3, "db", "t") is not None
    t0 = time.monotonic()
    assert locks.wait(3, 1, time.monotonic() + 0.3) is False
    assert time.monotonic() - t0 >= 0.29
    locks.release(3)
    locks.cursor_lock(1, "db", "t", 9)
    locks.cursor_unlock(1, "db", "t", 8)  # the cursor moved
    assert locks.row(4, "db", "t", 8, True) is None
    assert locks.row(4, "db", "t", 9, True) == 1
    locks.release(1)  # its transaction ended
    assert locks.row(4, "db", "t", 9, True) is None
    locks.cursor_lock(5, "db", "u", 1)
    locks.release_cursors(5)  # its session went away
    assert locks.row(4, "db", "u", 1, True) is None
