"""A FOR UPDATE cursor's lock is an update (U) lock, and sysmaster:syssqlcurses reports the
session's SET LOCK MODE: what Hibernate's pessimistic locks need (tests/interop/
test_hibernate.py runs them through Hibernate and IBM JDBC; docs/SERVER.md "Locks and
isolation", "Update locks").

Informix places a U lock on a row fetched through an update cursor; a U lock admits another
session's S request (a COMMITTED READ reader) and refuses U and X ones (Guide to SQL:
Tutorial 14.10, "The behavior of the lock types", ids_sqt_400). Until this module, a FOR
UPDATE fetch took an exclusive lock here, and a plain reader of the row got -244/-107.
``scs_lockmode`` is -1 for WAIT, 0 for NOT WAIT, n for WAIT n (what Hibernate's
InformixLockingSupport reads back before it sets a query's lock timeout and restores after);
it was always 0.

Runs with row locks on whatever the environment says.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire

Pair = tuple[ifxwire.Connection, ifxwire.Connection]


@pytest.fixture()
def pair(tmp_path: Path) -> Iterator[Pair]:
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as srv:
        def connect(db: str | None) -> ifxwire.Connection:
            return ifxwire.connect(host=srv.host, port=srv.port, user="informix",
                                   password="in4mix", database=db, autocommit=True)
        setup = connect(None)
        setup.execute("CREATE DATABASE uc WITH LOG")
        setup.execute("DATABASE uc")
        for mode in ("ROW", "PAGE"):
            setup.execute(f"CREATE TABLE uc_{mode.lower()} (id INT PRIMARY KEY, v INT) "
                          f"LOCK MODE {mode}")
            for i in (1, 2):
                setup.execute(f"INSERT INTO uc_{mode.lower()} VALUES (?, ?)", (i, 10 * i))
        setup.close()
        a, b = connect("uc"), connect("uc")
        yield a, b
        a.close()
        b.close()


def _code(conn: ifxwire.Connection, sql: str) -> tuple[int, int]:
    with pytest.raises(ifxwire.DatabaseError) as info:
        conn.execute(sql).fetchall()
    return int(info.value.sqlcode), int(getattr(info.value, "isamcode", 0) or 0)


def _hold_for_update(a: ifxwire.Connection, table: str, key: int = 1) -> None:
    a.execute("BEGIN WORK")
    assert a.execute(f"SELECT v FROM {table} WHERE id = ? FOR UPDATE",
                     (key,)).fetchall() == [(10 * key,)]


@pytest.mark.parametrize("table", ["uc_row", "uc_page"])
def test_a_reader_passes_an_update_lock(pair: Pair, table: str) -> None:
    a, b = pair
    _hold_for_update(a, table)
    # COMMITTED READ (the default of a logged database): an S request next to a U lock.
    assert b.execute(f"SELECT v FROM {table} WHERE id = 1").fetchall() == [(10,)]
    b.execute("SET ISOLATION TO CURSOR STABILITY")
    b.execute("BEGIN WORK")
    assert b.execute(f"SELECT v FROM {table} ORDER BY id").fetchall() == [(10,), (20,)]
    b.execute("COMMIT WORK")
    a.execute("COMMIT WORK")


@pytest.mark.parametrize("table", ["uc_row", "uc_page"])
def test_an_update_lock_refuses_another_update_lock_and_a_write(pair: Pair,
                                                                 table: str) -> None:
    a, b = pair
    _hold_for_update(a, table)
    b.execute("BEGIN WORK")
    assert _code(b, f"SELECT v FROM {table} WHERE id = 1 FOR UPDATE")[0] == -244
    with pytest.raises(ifxwire.DatabaseError) as info:
        b.execute(f"UPDATE {table} SET v = 0 WHERE id = 1")
    assert info.value.sqlcode == -346
    b.execute("ROLLBACK WORK")
    a.execute("ROLLBACK WORK")


def test_the_holder_writes_the_row_and_readers_then_meet_it(pair: Pair) -> None:
    a, b = pair
    _hold_for_update(a, "uc_row")
    a.execute("UPDATE uc_row SET v = 11 WHERE id = 1")  # U promoted to X
    assert _code(b, "SELECT v FROM uc_row WHERE id = 1")[0] == -244
    # the other row is neither locked nor written
    assert b.execute("SELECT v FROM uc_row WHERE id = 2").fetchall() == [(20,)]
    a.execute("COMMIT WORK")
    assert b.execute("SELECT v FROM uc_row WHERE id = 1").fetchall() == [(11,)]


def test_a_waiting_for_update_reads_the_row_the_holder_committed(pair: Pair) -> None:
    a, b = pair
    _hold_for_update(a, "uc_row")
    b.execute("SET LOCK MODE TO WAIT 20")
    b.execute("BEGIN WORK")
    got: list[object] = []
    waiter = threading.Thread(target=lambda: got.append(
        b.execute("SELECT v FROM uc_row WHERE id = 1 FOR UPDATE").fetchall()))
    waiter.start()
    time.sleep(0.5)
    assert waiter.is_alive()
    a.execute("UPDATE uc_row SET v = 12 WHERE id = 1")
    a.execute("COMMIT WORK")
    waiter.join(15)
    assert got == [[(12,)]]
    b.execute("COMMIT WORK")


@pytest.mark.parametrize("reader_first", [False, True])
@pytest.mark.parametrize("table", ["uc_row", "uc_page"])
def test_a_repeatable_read_reader_and_an_update_lock(pair: Pair, table: str,
                                                     reader_first: bool) -> None:
    """REPEATABLE READ keeps a shared lock on what it read; an S lock and a U lock admit each
    other (ids_sqt_400), in both orders, and the U holder's write then meets the reader's
    lock (-346/-107) until the reader's transaction ends. Before, the reader got -244/-107
    next to an update lock, and an update lock next to the reader's lock -244/-107."""
    a, b = pair
    b.execute("SET ISOLATION TO REPEATABLE READ")

    def read() -> None:
        b.execute("BEGIN WORK")
        assert b.execute(f"SELECT v FROM {table} ORDER BY id").fetchall() == [(10,), (20,)]

    if reader_first:
        read()
        _hold_for_update(a, table)
    else:
        _hold_for_update(a, table)
        read()
    with pytest.raises(ifxwire.DatabaseError) as info:
        a.execute(f"UPDATE {table} SET v = 0 WHERE id = 1")
    assert (info.value.sqlcode, info.value.isamcode) == (-346, -107)  # type: ignore[attr-defined]
    b.execute("COMMIT WORK")
    a.execute(f"UPDATE {table} SET v = 14 WHERE id = 1")
    a.execute("ROLLBACK WORK")


def test_the_lock_ends_with_the_transaction(pair: Pair) -> None:
    a, b = pair
    _hold_for_update(a, "uc_row")
    a.execute("ROLLBACK WORK")
    b.execute("BEGIN WORK")
    assert b.execute("SELECT v FROM uc_row WHERE id = 1 FOR UPDATE").fetchall() == [(10,)]
    b.execute("UPDATE uc_row SET v = 13 WHERE id = 1")
    b.execute("COMMIT WORK")


@pytest.mark.parametrize(("mode", "value"), [
    ("NOT WAIT", 0), ("WAIT", -1), ("WAIT 7", 7), ("WAIT 0", 0)])
def test_syssqlcurses_reports_the_lock_mode(pair: Pair, mode: str, value: int) -> None:
    a, _ = pair
    a.execute(f"SET LOCK MODE TO {mode}")
    # the statement Hibernate's InformixLockingSupport sends
    assert a.execute("select scs_lockmode from sysmaster:syssqlcurses "
                     "where scs_sessionid = dbinfo('sessionid')").fetchall() == [(value,)]
