"""A long write under row locks and other sessions' writes (docs/SERVER.md, "Locks and
isolation", "The latch"): SQLite has one writer per file, so a write statement holds the
database's latch for its whole run. A writer of another row that meets it must not wait past
what its SET LOCK MODE allows: NOT WAIT fails within the latch's short grace with the
statement's lock error and ISAM -107, WAIT n fails after n seconds with -154, WAIT waits.
Two sessions over real sockets, in both orders; the long statement is a four-way cross join
(hours) that the test cancels, so every test ends in bounded time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]
LONG_QUERY = "(SELECT COUNT(*) FROM n a, n b, n c, n d)"
#: The Engine's latch_grace (0.5 s) plus the round trip on a loaded machine.
NOT_WAIT_BOUND = 3.0


@pytest.fixture(scope="module")
def lserver() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True, statement_timeout=120) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                            autocommit=True)
        cur = c.cursor()
        cur.execute("CREATE DATABASE latch WITH LOG")
        cur.execute("DATABASE latch")
        cur.execute("CREATE TABLE n (i INT)")
        cur.executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(1000)])
        c.close()
        yield srv


@pytest.fixture()
def pair(lserver: Any, request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    conns = [ifxwire.connect(host=lserver.host, port=lserver.port, user=USER,
                             password=PASSWORD, database="latch", autocommit=True)
             for _ in range(2)]
    name = "t" + str(abs(hash(request.node.name)) % 100003)
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    cur.executemany(f"INSERT INTO {name} VALUES (?, ?)", [(i, 0) for i in range(1, 6)])
    for c in conns:
        c.table = name  # type: ignore[attr-defined]
    yield conns
    for c in conns:
        c.close()


class _Long:
    """Session ``a`` runs a write that would take hours, in a thread; cancelled on exit (and
    by a watchdog, so a blocked probe fails the test instead of hanging it)."""

    def __init__(self, a: Any, sql: str) -> None:
        self.a, self.sql = a, sql
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run)
        self.watchdog = threading.Timer(60, a.cancel)

    def _run(self) -> None:
        try:
            self.a.cursor().execute(self.sql)
        except BaseException as e:  # the cancel's -213, expected
            self.error = e

    def __enter__(self) -> _Long:
        self.thread.start()
        self.watchdog.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.a.cancel()
        self.thread.join(30)
        self.watchdog.cancel()
        assert not self.thread.is_alive()


def _timed(b: Any, sql: str) -> tuple[float, tuple[int, int] | None]:
    started = time.monotonic()
    try:
        b.cursor().execute(sql)
        err = None
    except ifxwire.DatabaseError as e:
        err = (e.sqlcode, e.isamcode)
    return time.monotonic() - started, err


def _until_refused(b: Any, sql: str) -> tuple[int, int]:
    """Runs ``sql`` until it is refused (the long write has started), checking that no
    attempt waits past the NOT WAIT bound."""
    deadline = time.monotonic() + 20
    while True:
        took, err = _timed(b, sql)
        assert took < NOT_WAIT_BOUND, took
        if err is not None:
            return err
        assert time.monotonic() < deadline, "the long write never started"
        time.sleep(0.05)


@pytest.mark.parametrize("first,second", ORDERS)
def test_not_wait_writer_of_another_row_is_not_held_by_a_long_update(
        pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    with _Long(a, f"UPDATE {t} SET v = v + 1 WHERE id = 1 AND {LONG_QUERY} > 0"):
        assert _until_refused(b, f"UPDATE {t} SET v = 2 WHERE id = 2") == (-346, -107)
        took, err = _timed(b, f"INSERT INTO {t} VALUES (8, 8)")
        assert err == (-271, -107) and took < NOT_WAIT_BOUND
        took, err = _timed(b, f"DELETE FROM {t} WHERE id = 3")
        assert err == (-240, -107) and took < NOT_WAIT_BOUND
    # the long write is gone: the same writes go through, and nothing was half done
    b.cursor().execute(f"UPDATE {t} SET v = 2 WHERE id = 2")
    b.cursor().execute(f"DELETE FROM {t} WHERE id = 3")
    cur = b.cursor()
    cur.execute(f"SELECT id, v FROM {t} ORDER BY id")
    assert cur.fetchall() == [(1, 0), (2, 2), (4, 0), (5, 0)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_wait_n_writer_gives_up_after_n_seconds_behind_a_long_insert_select(
        pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    b.cursor().execute("BEGIN WORK")
    with _Long(a, f"INSERT INTO {t} SELECT 100 + a.i, 0 FROM n a, n b, n c, n d "
                  "WHERE a.i = b.i + c.i + d.i + 5000"):
        _until_refused(b, f"UPDATE {t} SET v = v WHERE id = 4")
        b.cursor().execute("SET LOCK MODE TO WAIT 1")
        took, err = _timed(b, f"UPDATE {t} SET v = 5 WHERE id = 5")
        assert err == (-346, -154)
        assert 0.9 <= took < 1 + NOT_WAIT_BOUND
        b.cursor().execute("SET LOCK MODE TO NOT WAIT")
    # B's transaction is still open and usable; A's cancelled statement left nothing
    b.cursor().execute(f"UPDATE {t} SET v = 5 WHERE id = 5")
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute("ROLLBACK WORK")
    cur = a.cursor()
    cur.execute(f"SELECT id, v FROM {t} ORDER BY id")
    assert cur.fetchall() == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 5)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_wait_writer_waits_for_the_long_write_to_end(pair: list[Any], first: int,
                                                     second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    with _Long(a, f"UPDATE {t} SET v = v + 1 WHERE id = 1 AND {LONG_QUERY} > 0") as long:
        _until_refused(b, f"UPDATE {t} SET v = 3 WHERE id = 3")
        b.cursor().execute("SET LOCK MODE TO WAIT")
        threading.Timer(1.5, a.cancel).start()
        took, err = _timed(b, f"UPDATE {t} SET v = 3 WHERE id = 3")
        assert err is None and took >= 1.0  # it waited for the cancel, then wrote
        long.thread.join(30)
        assert isinstance(long.error, ifxwire.OperationalError)
        assert long.error.sqlcode == -213


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_writer_is_not_held_by_a_long_read_of_a_session_with_held_writes(
        pair: list[Any], first: int, second: int) -> None:
    """Session A writes in a transaction (its SQLite transaction is held open between
    statements, features/locks/latch.py), then runs a long query. B's write of another row
    must not wait past its SET LOCK MODE for A's query: B may not commit A's held
    transaction while A's own thread is inside the database, so under NOT WAIT it fails
    with -107 after the latch's grace (stricter than Informix, which lets it through)."""
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")
    with _Long(a, "SELECT COUNT(*) FROM n a, n b, n c, n d"):
        time.sleep(1.0)  # the query is running (it runs for hours)
        took, err = _timed(b, f"UPDATE {t} SET v = 2 WHERE id = 2")
        assert err == (-346, -107) and took < NOT_WAIT_BOUND
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute(f"UPDATE {t} SET v = 2 WHERE id = 2")
    cur = b.cursor()
    cur.execute(f"SELECT id, v FROM {t} WHERE id IN (1, 2) ORDER BY id")
    assert cur.fetchall() == [(1, 1), (2, 2)]
