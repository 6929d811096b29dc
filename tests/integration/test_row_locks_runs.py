"""A batch of INSERTs locked as one run of rowids (issue 25; docs/SERVER.md, "Bulk inserts"):
the batch runs without its table's INSERT lock triggers (features/locks/triggers.py,
"Batches without the INSERT triggers"), its rows are the rowids after the table's largest,
locked as a range and recorded for undo as one entry (session_locks.RowLocks.rl_bulk).

What must not change, two sessions over real sockets, each scenario in both orders: another
session meets every row of the run as Informix says it meets a row a transaction inserted
(UPDATE -346, DELETE -240 with ISAM -107 under NOT WAIT, ids_sqs_1183 "SET LOCK MODE"; it
waits under WAIT n and goes on once the holder commits; a COMMITTED READ reader gets -244);
under LOCK TABLE ... IN EXCLUSIVE MODE no row lock is recorded ("the database server places
only one exclusive lock on the table, no matter how many rows it updates", Guide to SQL:
Tutorial, ids_sqt_373) and the other session meets the table lock instead; ROLLBACK WORK
takes the run's rows back and nothing else. ``Engine.run_rows`` shows the run path was taken
(the counter did not exist before it).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]
_NUMBERS = itertools.count(1)


@pytest.fixture(scope="module")
def lserver() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                            autocommit=True)
        c.cursor().execute("CREATE DATABASE rr WITH LOG")
        c.close()
        yield srv


@pytest.fixture()
def pair(lserver: Any) -> Iterator[list[Any]]:
    conns = [ifxwire.connect(host=lserver.host, port=lserver.port, user=USER,
                             password=PASSWORD, database="rr", autocommit=True)
             for _ in range(2)]
    yield conns
    for c in conns:
        c.close()


def _table(c: Any, cols: str = "n INT, v VARCHAR(10)") -> str:
    name = f"t_runs{next(_NUMBERS)}"
    c.cursor().execute(f"CREATE TABLE {name} ({cols}) LOCK MODE ROW")
    c.cursor().executemany(f"INSERT INTO {name} VALUES (?, ?)", [(i, "kept") for i in range(3)])
    return name


def _rows(c: Any, sql: str) -> list[tuple[Any, ...]]:
    cur = c.cursor()
    cur.execute(sql)
    return list(cur.fetchall())


def _err(excinfo: pytest.ExceptionInfo[Any]) -> tuple[int, int]:
    return (excinfo.value.sqlcode, excinfo.value.isamcode)


def _batch(a: Any, t: str, first: int, n: int) -> None:
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)",
                           [(i, "run") for i in range(first, first + n)])


@pytest.mark.parametrize("first,second", ORDERS)
def test_another_session_meets_every_row_of_a_run(lserver: Any, pair: list[Any], first: int,
                                                  second: int) -> None:
    """A's batch of 600 rows in a transaction goes as one run; B (DIRTY READ, so that it
    reaches the rows) meets A's lock on the first, a middle and the last row: UPDATE -346,
    DELETE -240, ISAM -107; COMMITTED READ gets -244; B's own insert is not in the way."""
    a, b = pair[first], pair[second]
    t = _table(a)
    before = lserver.engine.run_rows
    a.cursor().execute("BEGIN WORK")
    _batch(a, t, 100, 600)
    assert lserver.engine.run_rows - before == 600
    held = lserver.engine.locks.others_rows(-1, "rr", t)
    assert len(held) == 600
    b.cursor().execute("SET ISOLATION TO DIRTY READ")
    for n in (100, 400, 699):
        with pytest.raises(ifxwire.Error) as upd:
            b.cursor().execute(f"UPDATE {t} SET v = 'b' WHERE n = {n}")
        assert _err(upd) == (-346, -107)
        with pytest.raises(ifxwire.Error) as dele:
            b.cursor().execute(f"DELETE FROM {t} WHERE n = {n}")
        assert _err(dele) == (-240, -107)
    b.cursor().execute(f"UPDATE {t} SET v = 'b' WHERE n = 1")  # a committed row: free
    b.cursor().execute(f"INSERT INTO {t} VALUES (5000, 'b')")
    b.cursor().execute("SET ISOLATION TO COMMITTED READ")
    with pytest.raises(ifxwire.Error) as read:
        _rows(b, f"SELECT n FROM {t} WHERE n = 400")
    assert _err(read)[0] == -244
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute(f"UPDATE {t} SET v = 'b' WHERE n = 400")
    assert _rows(b, f"SELECT count(*) FROM {t} WHERE v = 'run'") == [(599,)]
    assert lserver.engine.locks.others_rows(-1, "rr", t) == []


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_writer_waits_for_a_run_until_its_commit(pair: list[Any], first: int,
                                                   second: int) -> None:
    """Under SET LOCK MODE TO WAIT, B's UPDATE of a row of A's run waits until A commits
    (ids_sqs_1183), then updates it."""
    a, b = pair[first], pair[second]
    t = _table(a)
    a.cursor().execute("BEGIN WORK")
    _batch(a, t, 100, 300)
    b.cursor().execute("SET ISOLATION TO DIRTY READ")
    b.cursor().execute("SET LOCK MODE TO WAIT 20")
    done: list[object] = []

    def update() -> None:
        try:
            cur = b.cursor()
            cur.execute(f"UPDATE {t} SET v = 'waited' WHERE n = 250")
            done.append(cur.rowcount)
        except Exception as e:  # reported by the assertion below
            done.append(e)

    th = threading.Thread(target=update)
    th.start()
    th.join(0.8)
    assert th.is_alive() and not done  # waiting on A's lock
    a.cursor().execute("COMMIT WORK")
    th.join(20)
    assert done == [1]
    assert _rows(a, f"SELECT v FROM {t} WHERE n = 250") == [("waited",)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_rollback_takes_back_runs_and_nothing_else(lserver: Any, pair: list[Any], first: int,
                                                   second: int) -> None:
    """Two batches of A (runs), B's committed insert between them, one of A's rows deleted:
    ROLLBACK WORK leaves the rows committed before and B's, and frees every lock."""
    a, b = pair[first], pair[second]
    t = _table(a)
    before = lserver.engine.run_rows
    a.cursor().execute("BEGIN WORK")
    _batch(a, t, 100, 500)
    b.cursor().execute(f"INSERT INTO {t} VALUES (7, 'other')")
    _batch(a, t, 1000, 200)
    a.cursor().execute(f"DELETE FROM {t} WHERE n = 1100")
    assert lserver.engine.run_rows - before == 700
    assert _rows(a, f"SELECT count(*) FROM {t}") == [(3 + 500 + 1 + 200 - 1,)]
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT n, v FROM {t} ORDER BY n") == [
        (0, "kept"), (1, "kept"), (2, "kept"), (7, "other")]
    assert lserver.engine.locks.others_rows(-1, "rr", t) == []
    b.cursor().execute(f"UPDATE {t} SET v = 'free' WHERE n = 7")


@pytest.mark.parametrize("first,second", ORDERS)
def test_under_an_exclusive_table_lock_a_run_records_no_row_locks(
        lserver: Any, pair: list[Any], first: int, second: int) -> None:
    """LOCK TABLE ... IN EXCLUSIVE MODE, then a batch: no row lock is recorded (ids_sqt_373),
    B meets the table lock (its UPDATE fails with -346/-107 as on a locked row: its rows are
    unreachable), ROLLBACK still takes the batch back."""
    a, b = pair[first], pair[second]
    t = _table(a)
    before = lserver.engine.run_rows
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"LOCK TABLE {t} IN EXCLUSIVE MODE")
    _batch(a, t, 100, 400)
    assert lserver.engine.run_rows - before == 400
    assert lserver.engine.locks.others_rows(-1, "rr", t) == []
    assert lserver.engine.locks.holds_table(a_sid(lserver, t), "rr", t)
    b.cursor().execute("SET ISOLATION TO DIRTY READ")
    with pytest.raises(ifxwire.Error) as upd:
        b.cursor().execute(f"UPDATE {t} SET v = 'b' WHERE n = 1")
    assert _err(upd) == (-346, -107)
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT count(*) FROM {t}") == [(3,)]
    b.cursor().execute(f"UPDATE {t} SET v = 'b' WHERE n = 1")


def a_sid(srv: Any, table: str) -> int:
    """The session holding ``table``'s EXCLUSIVE lock."""
    t = srv.engine.locks._tables[("rr", table)]
    assert t.exclusive is not None
    return int(t.exclusive)


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_keyed_table_runs_and_a_held_duplicate_key_fails_as_one_insert(
        lserver: Any, pair: list[Any], first: int, second: int) -> None:
    """A table with a primary key (its duplicate-key image trigger is dropped with the
    INSERT trigger, and Informix's INT is not SQLite's rowid alias): the batch is one run,
    every row locked against B, ROLLBACK takes it back. Then B holds key 99 uncommitted:
    A's batch holding 99 fails with the error a single INSERT of 99 gets (-271 with ISAM
    -107: the other session's row is locked), and only that row is missing (the batch is
    served row by row from there)."""
    a, b = pair[first], pair[second]
    t = f"t_runs{next(_NUMBERS)}"
    a.cursor().execute(f"CREATE TABLE {t} (id INT PRIMARY KEY, v VARCHAR(10)) LOCK MODE ROW")
    keys = [50, 51, 52, 40, 41, 20, 53, 10]
    before = lserver.engine.run_rows
    a.cursor().execute("BEGIN WORK")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", [(k, "a") for k in keys])
    assert lserver.engine.run_rows - before == len(keys)
    b.cursor().execute("SET ISOLATION TO DIRTY READ")
    for k in keys:
        with pytest.raises(ifxwire.Error) as upd:
            b.cursor().execute(f"UPDATE {t} SET v = 'b' WHERE id = {k}")
        assert _err(upd) == (-346, -107)
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT count(*) FROM {t}") == [(0,)]
    b.cursor().execute("BEGIN WORK")
    b.cursor().execute(f"INSERT INTO {t} VALUES (99, 'b')")
    with pytest.raises(ifxwire.Error) as one:
        a.cursor().execute(f"INSERT INTO {t} VALUES (99, 'a')")
    a.cursor().execute("BEGIN WORK")
    with pytest.raises(ifxwire.Error) as many:
        a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)",
                               [(k, "a") for k in range(60, 120)])
    assert _err(many) == _err(one) == (-271, -107)
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute("COMMIT WORK")
    assert _rows(a, f"SELECT id FROM {t} WHERE v = 'a' ORDER BY id") == [
        (k,) for k in range(60, 120) if k != 99]  # (executemany goes on past a failed row)
