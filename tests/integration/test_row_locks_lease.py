"""A leased park of the row-lock latch (features/locks/latch.py ``Latch.park``; docs/SERVER.md
"Locks and isolation", "The lease"): a session whose statements come back to back keeps its
SQLite transaction under the latch to its COMMIT WORK even while other writers wait, and gives
it up itself when its client is late or it waits for a lock.

``test_back_to_back_writers_commit_sqlite_once_per_transaction`` counts the SQLite COMMITs of
four sessions' connections (sqlite3's trace callback) while they run transactions of five
UPDATEs back to back: before the lease every statement was committed on its own whenever
another writer waited (3-5 per transaction here), now about one per transaction. The others
check that nobody waits for a leased session longer than it is busy: a late client and a
session waiting for a lock give the latch up. Real server, real sockets, both orders.
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
DB = "lease"


@pytest.fixture(scope="module")
def srv() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as s:
        with ifxwire.connect(host=s.host, port=s.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute(f"CREATE DATABASE {DB} WITH LOG")
        yield s


def _connect(srv: Any) -> Any:
    return ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                           database=DB, autocommit=True, read_timeout=60)


def _table(srv: Any, name: str, rows: int) -> None:
    with _connect(srv) as c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
        cur.executemany(f"INSERT INTO {name} VALUES (?, 0)", [(i,) for i in range(rows)])


def _set_lease(srv: Any, lease: float, gap: float) -> tuple[float, float]:
    """Set the engine's lease and the gap under which a session gets one; the values before."""
    e = srv.engine
    before = (getattr(e, "latch_lease", 0.001), getattr(e, "latch_lease_gap", 0.0005))
    e.latch_lease, e.latch_lease_gap = lease, gap
    return before


@pytest.fixture()
def lease(srv: Any) -> Iterator[None]:
    """A lease long enough that a back-to-back client always comes back within it, however
    loaded the machine (the mechanism is the same at the default 1 ms)."""
    before = _set_lease(srv, 0.2, 0.2)
    yield
    _set_lease(srv, *before)


def test_back_to_back_writers_commit_sqlite_once_per_transaction(srv: Any,
                                                                 lease: None) -> None:
    sessions, txns, updates, per = 4, 15, 5, 10
    _table(srv, "t_b2b", sessions * per)
    conns = [_connect(srv) for _ in range(sessions)]
    commits: list[str] = []

    def trace(sql: str) -> None:
        if sql.strip().upper() == "COMMIT":
            commits.append(sql)

    for c in conns:  # each session's connection opened, then traced
        cur = c.cursor()
        cur.execute("SET LOCK MODE TO WAIT")
        cur.execute("SELECT count(*) FROM t_b2b")
        cur.fetchall()
    for es in list(srv.engine.live.values()):
        if es.conn is not None:
            es.conn.set_trace_callback(trace)
    start = threading.Barrier(sessions)
    errors: list[BaseException] = []

    def run(me: int) -> None:
        cur = conns[me].cursor()
        try:
            start.wait(30)
            for n in range(txns):
                cur.execute("BEGIN WORK")
                for u in range(updates):
                    cur.execute("UPDATE t_b2b SET v = v + 1 WHERE id = ?",
                                (me * per + (n * updates + u) % per,))
                cur.execute("COMMIT WORK")
        except BaseException as e:  # reported by the test's thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for es in list(srv.engine.live.values()):
        if es.conn is not None:
            es.conn.set_trace_callback(None)
    assert not errors, errors
    assert not any(t.is_alive() for t in threads)
    cur = conns[0].cursor()
    cur.execute("SELECT sum(v) FROM t_b2b")
    assert cur.fetchone()[0] == sessions * txns * updates
    for c in conns:
        c.close()
    # one per transaction (COMMIT WORK's), plus a few where a client was late or two
    # transactions' first statements met; before the lease 3-5 per transaction
    assert len(commits) <= 1.5 * sessions * txns, len(commits)


def _in_thread(run: Any) -> list[object]:
    """Run ``run`` in a thread; what it returned or raised, once it ends (at most 30 s)."""
    done: list[object] = []

    def body() -> None:
        try:
            done.append(run())
        except BaseException as e:  # reported by the test's thread
            done.append(e)

    t = threading.Thread(target=body)
    t.start()
    t.join(30)
    assert not t.is_alive(), "still waiting for the latch after 30 s"
    return done


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_late_client_gives_its_leased_park_up(srv: Any, lease: None, first: int,
                                                second: int) -> None:
    name = f"t_late_{first}"
    _table(srv, name, 5)
    pair = [_connect(srv), _connect(srv)]
    a, b = pair[first], pair[second]
    ca, cb = a.cursor(), b.cursor()
    cb.execute("SET LOCK MODE TO WAIT")  # (no bound: only a's giving up lets it in)
    ca.execute("BEGIN WORK")
    for i in (1, 2, 3):  # back to back: the last one parks with a lease
        ca.execute(f"UPDATE {name} SET v = v + 1 WHERE id = ?", (i,))

    def b_writes() -> bool:
        # a's client is now idle inside its transaction: a's server thread gives the latch
        # up when the lease (0.2 s here) is over, and b, asleep since, gets it
        cb.execute("BEGIN WORK")
        cb.execute(f"UPDATE {name} SET v = 10 WHERE id = 4")
        cb.execute("COMMIT WORK")
        return True

    assert _in_thread(b_writes) == [True]
    ca.execute("COMMIT WORK")
    ca.execute(f"SELECT id, v FROM {name} ORDER BY id")
    assert list(ca.fetchall()) == [(0, 0), (1, 1), (2, 1), (3, 1), (4, 10)]
    for c in pair:
        c.close()


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_leased_session_waiting_for_a_lock_gives_the_latch_up(
        srv: Any, first: int, second: int) -> None:
    before = _set_lease(srv, 60.0, 1.0)  # b's COMMIT comes within it: only a giving it up
    try:                                 # lets b in
        _waiting_for_a_lock(srv, first, second)
    finally:
        _set_lease(srv, *before)


def _waiting_for_a_lock(srv: Any, first: int, second: int) -> None:
    name = f"t_wait_{first}"
    _table(srv, name, 5)
    pair = [_connect(srv), _connect(srv)]
    a, b = pair[first], pair[second]
    ca, cb = a.cursor(), b.cursor()
    ca.execute("SET LOCK MODE TO WAIT")
    cb.execute("BEGIN WORK")
    cb.execute(f"UPDATE {name} SET v = 20 WHERE id = 4")  # b holds row 4
    ca.execute("BEGIN WORK")
    for i in (1, 2, 3):
        ca.execute(f"UPDATE {name} SET v = v + 1 WHERE id = ?", (i,))
    done: list[object] = []

    def blocked() -> None:
        try:
            ca.execute(f"UPDATE {name} SET v = v + 1 WHERE id = 4")  # waits for b's lock
            ca.execute("COMMIT WORK")
            done.append(True)
        except BaseException as e:
            done.append(e)

    t = threading.Thread(target=blocked)
    t.start()
    time.sleep(0.3)  # a is waiting for row 4 (with its lease given up)
    # b's COMMIT needs the latch: a's parked transaction must not keep it from b
    cb.execute("COMMIT WORK")
    t.join(30)
    assert not t.is_alive(), "a waited for b while b waited for a's latch"
    assert done == [True], done
    cb.execute(f"SELECT id, v FROM {name} ORDER BY id")
    assert list(cb.fetchall()) == [(0, 0), (1, 1), (2, 1), (3, 1), (4, 21)]
    for c in pair:
        c.close()
