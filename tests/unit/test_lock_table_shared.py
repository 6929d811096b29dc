"""LockTable's REPEATABLE READ locks (features/locks/manager.py): the row S locks of
``share_row`` and ``share_function``, the phantom guard, and the update lock a FOR UPDATE
cursor's next fetch releases (docs/SERVER.md, "Isolation levels", "SELECT ... FOR UPDATE")."""

from __future__ import annotations

import pytest

from ifxwire.server.engine.features.locks.manager import Armed, LockTable


def _reader(locks: LockTable, sid: int, key: int, armed: Armed | None = None) -> None:
    """Session ``sid`` reads row ``key`` of db.t under REPEATABLE READ."""
    assert locks.guard(sid, "db", "t") is None
    if armed is None:
        assert locks.share_row(sid, "db", "t", key) is None
    else:
        locks.arm(armed, sid, "db", "t", None)
        share = locks.share_function(sid, armed, lambda t, r: 0)
        assert share("t", key) == 1


@pytest.mark.parametrize("quick", [False, True])
def test_two_readers_share_a_row_and_each_keeps_the_writer_out(quick: bool) -> None:
    locks = LockTable()
    _reader(locks, 1, 5, {} if quick else None)
    _reader(locks, 2, 5, {} if quick else None)
    assert locks.row(3, "db", "t", 5, True) in (1, 2)  # an UPDATE meets them
    assert locks.row(3, "db", "t", 6, True) is None  # another row is free
    locks.release(1)
    assert locks.row(3, "db", "t", 5, True) == 2  # still session 2's
    locks.release(2)
    assert locks.row(3, "db", "t", 5, True) is None
    assert locks.row(3, "db", "t", 5, True, insert=True) is None  # (no guard left)


def test_an_insert_meets_the_guard_and_a_bulk_insert_too() -> None:
    locks = LockTable()
    assert locks.guard(1, "db", "t") is None  # a read that found no row
    assert locks.row(2, "db", "t", 9, True, insert=True) == 1
    assert locks.row(2, "db", "t", 9, True) is None  # an UPDATE of an unread row passes
    locks.release(2)
    assert locks.rows(2, "db", "t", range(10, 20), True) == 1
    assert locks.row(1, "db", "t", 30, True, insert=True) is None  # its own insert
    locks.release(1)
    assert locks.rows(2, "db", "t", range(10, 20), True) is None


def test_a_reader_meets_a_written_row_and_passes_an_update_lock() -> None:
    locks = LockTable()
    assert locks.row(1, "db", "t", 5, True) is None  # written
    assert locks.update_row(1, "db", "t", 6) is None  # held for update
    assert locks.guard(2, "db", "t") is None
    assert locks.share_row(2, "db", "t", 5) == 1
    assert locks.share_row(2, "db", "t", 6) is None  # S next to U
    assert locks.share_row(2, "db", "t", 7, updating=True) is None
    assert locks.row(1, "db", "t", 6, True) == 2  # the U holder's write meets the S lock
    assert locks.table(3, "db", "t", True) in (1, 2)  # LOCK TABLE EXCLUSIVE meets them
    locks.release(1)
    assert locks.table(3, "db", "t", True) == 2
    assert locks.table(3, "db", "t", False) is None  # SHARE next to S
    locks.release(3)
    locks.release(2)
    assert locks.table(3, "db", "t", True) is None


def test_the_quick_path_falls_back_after_the_transaction_ended() -> None:
    locks = LockTable()
    armed: Armed = {}
    slow: list[int] = []
    _reader(locks, 1, 5, armed)
    share = locks.share_function(1, armed, lambda t, r: slow.append(r) or 1)
    locks.release(1)  # COMMIT: the guard and the S lock go
    assert share("t", 6) == 1 and slow == [6]  # the session's own path decides
    assert locks.row(2, "db", "t", 6, True) is None  # no S lock left behind


def test_a_fetch_releases_only_the_update_lock_it_took() -> None:
    locks = LockTable()
    assert locks.take_update(1, "db", "t", 5) == (None, True)
    assert locks.take_update(1, "db", "t", 5) == (None, False)  # held already
    assert locks.row(1, "db", "t", 6, True) is None
    assert locks.take_update(1, "db", "t", 6) == (None, False)  # written already
    locks.release_update(1, "db", "t", 6)  # written: kept
    assert locks.row(2, "db", "t", 6, True) == 1
    locks.release_update(1, "db", "t", 5)
    assert locks.row(2, "db", "t", 5, True) is None
