"""LockTable's CURSOR STABILITY locks and the waits they cause (features/locks/manager.py),
from the review of the cursor locks (REVIEW-locks.md F1, F2).

F1: a writer met a cursor lock, and before it called ``wait`` the cursor moved to the next
row (one release, nobody waiting yet); the wait read the release counter only then and
slept on a row that was free, to its SET LOCK MODE deadline or for ever.
F2: every cursor move woke every waiter of the engine, and each re-ran its statement (a
waiter for an unrelated transaction too); a move was two acquisitions of the table's lock.
"""

from __future__ import annotations

import threading
import time

from ifxwire.server.engine.features.locks.manager import LockTable


def test_a_cursor_that_moved_on_before_the_wait_is_not_waited_for() -> None:
    locks = LockTable()
    locks.cursor_lock(1, "db", "t", 5)
    assert locks.row(2, "db", "t", 5, True) == 1  # the writer meets the cursor's lock
    locks.cursor_lock(1, "db", "t", 6)  # the cursor fetches the next row ...
    locks.cursor_unlock(1, "db", "t", 5)  # ... and leaves row 5, before the writer waits
    t0 = time.monotonic()
    assert locks.wait(2, 1, time.monotonic() + 1.0) is True
    assert time.monotonic() - t0 < 0.5
    assert locks.row(2, "db", "t", 5, True) is None


def test_a_holder_that_committed_and_locked_again_before_the_wait_is_not_waited_for() -> None:
    locks = LockTable()
    assert locks.row(1, "db", "t", 5, True) is None
    assert locks.row(2, "db", "t", 5, True) == 1
    locks.release(1)  # session 1 commits ...
    assert locks.row(1, "db", "t", 7, True) is None  # ... and locks another row
    t0 = time.monotonic()
    assert locks.wait(2, 1, time.monotonic() + 1.0) is True
    assert time.monotonic() - t0 < 0.5


def test_a_cursor_move_is_one_call_and_wakes_its_own_waiters() -> None:
    locks = LockTable()
    locks.cursor_move(1, "db", "t", None, 5)
    assert locks.row(2, "db", "t", 5, True) == 1
    result: list[bool] = []
    waiter = threading.Thread(
        target=lambda: result.append(locks.wait(2, 1, time.monotonic() + 5.0)))
    waiter.start()
    time.sleep(0.1)
    t0 = time.monotonic()
    locks.cursor_move(1, "db", "t", 5, 6)
    waiter.join(5.0)
    assert result == [True]
    assert time.monotonic() - t0 < 0.5
    assert locks.row(2, "db", "t", 5, True) is None
    assert locks.row(2, "db", "t", 6, True) == 1
    assert locks._cursor_locks == {1: 1}
    locks.cursor_move(1, "db", "t", 6, None)  # the cursor closed
    assert locks._cursor_locks == {}
    assert locks.row(3, "db", "t", 6, True) is None


def test_a_cursor_moving_does_not_wake_the_waiters_of_other_sessions() -> None:
    """A writer waiting for session 3's transaction stays asleep (its wait ends at its
    deadline, False) while session 1's cursor moves over a thousand rows."""
    locks = LockTable()
    assert locks.row(3, "db", "t", 1000, True) is None
    assert locks.row(4, "db", "t", 1000, True) == 3
    result: list[bool] = []
    waiter = threading.Thread(
        target=lambda: result.append(locks.wait(4, 3, time.monotonic() + 0.5)))
    waiter.start()
    time.sleep(0.05)
    held = None
    for key in range(1, 1000):
        locks.cursor_move(1, "db", "t", held, key)
        held = key
    locks.cursor_move(1, "db", "t", held, None)
    waiter.join(5.0)
    assert result == [False]


def test_a_cursor_lock_is_refused_next_to_another_sessions_exclusive_lock() -> None:
    """F3: a row another session wrote after the cursor's OPEN (the cursor reads OPEN's
    snapshot) or a table it locked EXCLUSIVE is refused, and nothing changes: the cursor
    keeps its row until the fetch's error closes it."""
    locks = LockTable()
    locks.cursor_move(1, "db", "t", None, 1)
    assert locks.row(2, "db", "t", 2, True) is None  # session 2 updates row 2
    assert locks.cursor_move(1, "db", "t", 1, 2) == 2
    assert locks._tables[("db", "t")].cursor == {1: [1]}
    assert locks.row(2, "db", "t", 2, True) is None  # its own row stays writable
    assert locks.row(3, "db", "t", 1, True) == 1
    locks.release(1)
    locks.release(2)
    assert locks.table(2, "db", "t", True) is None
    assert locks.cursor_move(1, "db", "t", None, 5) == 2
    assert locks._cursor_locks == {}
    assert locks.cursor_move(2, "db", "t", None, 5) is None  # the holder's own cursor
    locks.release(2)
    assert locks._tables == {}
