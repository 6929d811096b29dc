"""Row locks and isolation levels (server option ``row_locks``; docs/SERVER.md, "Locks and
isolation"), over real sockets with two sessions, each scenario in both orders (session A
first, then session B first).

What Informix does, from its manuals and message catalogue: writers of different rows of one
table run at once; a writer meeting another session's row lock gets its statement's error
(UPDATE -346, DELETE -240, INSERT -271) with ISAM -107 under SET LOCK MODE TO NOT WAIT (the
default) or -154 once SET LOCK MODE TO WAIT n has passed; COMMITTED READ meeting an
uncommitted row is -244; DIRTY READ sees it; ROLLBACK puts the before-images back.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]


@pytest.fixture(scope="module")
def lserver() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                            autocommit=True)
        c.cursor().execute("CREATE DATABASE rl WITH LOG")
        c.close()
        yield srv


def _pair(srv: Any) -> list[ifxwire.Connection]:
    return [ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                            database="rl", autocommit=True) for _ in range(2)]


_TABLE_NUMBERS = itertools.count(1)


@pytest.fixture()
def pair(lserver: Any, request: pytest.FixtureRequest) -> Iterator[list[ifxwire.Connection]]:
    conns = _pair(lserver)
    # A counter, not a hash of the test's name: parametrized variants share the name's
    # prefix, and a hash modulo 997 let two of them meet (-310 in a CI run).
    name = "t_" + request.node.name.split("[")[0][5:30] + str(next(_TABLE_NUMBERS))
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    cur.executemany(f"INSERT INTO {name} VALUES (?, ?)", [(i, i * 10) for i in range(1, 6)])
    for c in conns:
        c.table = name  # type: ignore[attr-defined]
    yield conns
    for c in conns:
        c.close()


def _err(excinfo: pytest.ExceptionInfo[Any]) -> tuple[int, int]:
    e = excinfo.value
    return (e.sqlcode, e.isamcode)


def _rows(c: ifxwire.Connection, sql: str, *params: object) -> list[tuple[Any, ...]]:
    cur = c.cursor()
    cur.execute(sql, params)
    return list(cur.fetchall())


@pytest.mark.parametrize("first,second", ORDERS)
def test_writers_of_different_rows_run_at_once(pair: list[Any], first: int, second: int
                                               ) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    b.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    b.cursor().execute(f"UPDATE {t} SET v = -2 WHERE id = 2")
    b.cursor().execute(f"DELETE FROM {t} WHERE id = 3")
    a.cursor().execute(f"INSERT INTO {t} VALUES (9, 90)")
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute("COMMIT WORK")
    assert _rows(a, f"SELECT id, v FROM {t} ORDER BY id") == [
        (1, -1), (2, -2), (4, 40), (5, 50), (9, 90)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_locked_row_gives_the_statements_error_not_wait(pair: list[Any], first: int,
                                                          second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    a.cursor().execute(f"INSERT INTO {t} VALUES (7, 70)")
    b.cursor().execute("BEGIN WORK")
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 5 WHERE id = 1")
    assert _err(e) == (-346, -107)
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"DELETE FROM {t} WHERE id = 1")
    assert _err(e) == (-240, -107)
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"SELECT * FROM {t}")
    assert _err(e) == (-244, -107)
    # other rows are free; the failed statements changed nothing
    b.cursor().execute(f"UPDATE {t} SET v = 22 WHERE id = 2")
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute("COMMIT WORK")
    assert _rows(b, f"SELECT id, v FROM {t} WHERE id IN (1, 2, 7) ORDER BY id") == [
        (1, 0), (2, 22), (7, 70)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_wait_n_times_out_with_154(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 4 WHERE id = 4")
    b.cursor().execute("SET LOCK MODE TO WAIT 1")
    started = time.monotonic()
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 4")
    assert _err(e) == (-346, -154)
    assert time.monotonic() - started >= 0.9
    a.cursor().execute("ROLLBACK WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_wait_gets_the_row_once_the_holder_commits(pair: list[Any], first: int, second: int
                                                   ) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = v + 1 WHERE id = 5")
    b.cursor().execute("SET LOCK MODE TO WAIT")
    done: list[object] = []

    def run() -> None:
        try:
            b.cursor().execute(f"UPDATE {t} SET v = v + 100 WHERE id = 5")
            done.append("ok")
        except Exception as exc:  # reported below
            done.append(exc)

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.4)
    assert not done  # still waiting
    a.cursor().execute("COMMIT WORK")
    th.join(10)
    assert done == ["ok"]
    assert _rows(a, f"SELECT v FROM {t} WHERE id = 5") == [(151,)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_rollback_restores_before_images(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    before = _rows(b, f"SELECT id, v FROM {t} ORDER BY id")
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = v * 3 WHERE id <= 3")
    a.cursor().execute(f"DELETE FROM {t} WHERE id = 2")
    a.cursor().execute(f"INSERT INTO {t} VALUES (2, 999)")
    a.cursor().execute(f"INSERT INTO {t} VALUES (8, 80)")
    a.cursor().execute(f"UPDATE {t} SET v = 7 WHERE id = 2")
    b.cursor().execute("SET ISOLATION TO DIRTY READ")
    assert (8, 80) in _rows(b, f"SELECT id, v FROM {t}")  # DIRTY READ sees uncommitted rows
    a.cursor().execute("ROLLBACK WORK")
    b.cursor().execute("SET ISOLATION TO COMMITTED READ")
    assert _rows(b, f"SELECT id, v FROM {t} ORDER BY id") == before


@pytest.mark.parametrize("first,second", ORDERS)
def test_insert_of_a_key_another_session_holds_is_271(pair: list[Any], first: int,
                                                      second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"INSERT INTO {t} VALUES (20, 1)")
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"INSERT INTO {t} VALUES (20, 2)")
    assert _err(e) == (-271, -107)
    a.cursor().execute("ROLLBACK WORK")
    b.cursor().execute(f"INSERT INTO {t} VALUES (20, 2)")  # free once rolled back
    assert _rows(a, f"SELECT v FROM {t} WHERE id = 20") == [(2,)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_deadlock_is_143(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    for c in (a, b):
        c.cursor().execute("SET LOCK MODE TO WAIT 5")
        c.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")
    b.cursor().execute(f"UPDATE {t} SET v = 2 WHERE id = 2")
    errors: list[object] = []

    def run() -> None:
        try:
            a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 2")
        except ifxwire.Error as exc:
            errors.append((exc.sqlcode, exc.isamcode))

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.3)
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 2 WHERE id = 1")
    assert _err(e) == (-346, -143)
    b.cursor().execute("ROLLBACK WORK")
    th.join(10)
    assert errors == []  # a got the row once b rolled back
    a.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_isolation_levels_read_behaviour(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 555 WHERE id = 5")
    for level in ("COMMITTED READ", "CURSOR STABILITY", "REPEATABLE READ"):
        b.cursor().execute(f"SET ISOLATION TO {level}")
        with pytest.raises(ifxwire.Error) as e:
            _rows(b, f"SELECT v FROM {t} WHERE id = 5")
        assert _err(e) == (-244, -107), level
    for level in ("SET ISOLATION TO DIRTY READ",
                  "SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED"):
        b.cursor().execute(level)
        assert _rows(b, f"SELECT v FROM {t} WHERE id = 5") == [(555,)]
    b.cursor().execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    with pytest.raises(ifxwire.Error) as e:
        _rows(b, f"SELECT v FROM {t} WHERE id = 5")
    assert _err(e) == (-244, -107)
    a.cursor().execute("COMMIT WORK")
    assert _rows(b, f"SELECT v FROM {t} WHERE id = 5") == [(555,)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_repeatable_read_holds_share_locks(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("SET ISOLATION TO REPEATABLE READ")
    a.cursor().execute("BEGIN WORK")
    assert len(_rows(a, f"SELECT * FROM {t}")) == 5
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    assert _err(e) == (-346, -107)
    assert len(_rows(b, f"SELECT * FROM {t}")) == 5  # readers share
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")


@pytest.mark.parametrize("first,second", ORDERS)
def test_lock_table_share_and_exclusive(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"LOCK TABLE {t} IN SHARE MODE")
    assert e.value.sqlcode == -524  # outside a transaction
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"LOCK TABLE {t} IN SHARE MODE")
    assert len(_rows(b, f"SELECT * FROM {t}")) == 5
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"DELETE FROM {t} WHERE id = 1")
    assert _err(e) == (-240, -107)
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UNLOCK TABLE {t}")
    assert e.value.sqlcode == -327
    a.cursor().execute("COMMIT WORK")
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"LOCK TABLE {t} IN EXCLUSIVE MODE")
    with pytest.raises(ifxwire.Error) as e:
        _rows(b, f"SELECT * FROM {t}")
    assert _err(e) == (-244, -107)
    b.cursor().execute("BEGIN WORK")
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"LOCK TABLE {t} IN SHARE MODE")
    assert _err(e) == (-289, -107)
    b.cursor().execute("ROLLBACK WORK")
    a.cursor().execute("COMMIT WORK")
    assert len(_rows(b, f"SELECT * FROM {t}")) == 5


@pytest.mark.parametrize("first,second", ORDERS)
def test_select_for_update_locks_fetched_rows(pair: list[Any], first: int, second: int
                                              ) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    cur = a.cursor()
    cur.execute(f"SELECT id, v FROM {t} WHERE id = 3 FOR UPDATE")
    assert cur.fetchall() == [(3, 30)]
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 3")
    assert _err(e) == (-346, -107)
    b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 4")  # not fetched: free
    b.cursor().execute("BEGIN WORK")
    cur2 = b.cursor()
    with pytest.raises(ifxwire.Error) as e:
        cur2.execute(f"SELECT id FROM {t} WHERE id = 3 FOR UPDATE")
        cur2.fetchall()
    assert _err(e) == (-244, -107)
    b.cursor().execute("ROLLBACK WORK")
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 3")


@pytest.mark.parametrize("first,second", ORDERS)
def test_disconnect_rolls_back_and_releases(lserver: Any, pair: list[Any], first: int,
                                            second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -9 WHERE id = 1")
    a.close()
    deadline = time.monotonic() + 5
    while True:
        try:
            assert _rows(b, f"SELECT v FROM {t} WHERE id = 1") == [(10,)]
            break
        except ifxwire.Error:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    b.cursor().execute(f"UPDATE {t} SET v = 11 WHERE id = 1")


@pytest.mark.parametrize("first,second", ORDERS)
def test_committed_read_meets_only_the_rows_it_reads(pair: list[Any], first: int,
                                                     second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")
    # an index lookup of another row does not reach the locked one (Informix: the same)
    assert _rows(b, f"SELECT v FROM {t} WHERE id = 2") == [(20,)]
    with pytest.raises(ifxwire.Error) as e:
        _rows(b, f"SELECT v FROM {t} WHERE id = 1")
    assert _err(e) == (-244, -107)
    with pytest.raises(ifxwire.Error) as e:
        _rows(b, f"SELECT count(*) FROM {t}")  # a scan reads every row
    assert _err(e) == (-244, -107)
    b.cursor().execute("SET LOCK MODE TO WAIT 5")
    threading.Timer(0.3, lambda: a.cursor().execute("COMMIT WORK")).start()
    assert _rows(b, f"SELECT v FROM {t} WHERE id = 1") == [(1,)]  # waited, then read


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_table_named_like_the_catalogue_is_locked_too(pair: list[Any], first: int,
                                                        second: int) -> None:
    a, b = pair[first], pair[second]
    name = f"sysx_{first}{second}"
    a.cursor().execute(f"CREATE TABLE {name} (id INT, v INT)")
    a.cursor().execute(f"INSERT INTO {name} VALUES (1, 1)")
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {name} SET v = 2")
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {name} SET v = 3")
    assert _err(e) == (-346, -107)
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT v FROM {name}") == [(1,)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_last_committed_reads_the_before_images(pair: list[Any], first: int, second: int
                                                ) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    a.cursor().execute(f"DELETE FROM {t} WHERE id = 2")
    a.cursor().execute(f"INSERT INTO {t} VALUES (30, 300)")
    b.cursor().execute("SET ISOLATION TO COMMITTED READ LAST COMMITTED")
    committed = [(1, 10), (2, 20), (3, 30), (4, 40), (5, 50)]
    assert _rows(b, f"SELECT id, v FROM {t} ORDER BY id") == committed
    assert _rows(b, f"SELECT v FROM {t} WHERE id = 1") == [(10,)]
    a.cursor().execute("COMMIT WORK")
    assert _rows(b, f"SELECT id, v FROM {t} ORDER BY id") == [
        (1, -1), (3, 30), (4, 40), (5, 50), (30, 300)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_rollback_takes_back_bulk_inserts_only(pair: list[Any], first: int, second: int) -> None:
    """Batches of executemany in a transaction, another session's committed insert between
    them, one of the batch's rows deleted again: ROLLBACK leaves exactly the committed rows
    (the batch's undo is one entry per run of rowids: undo.coalesce)."""
    a, b = pair[first], pair[second]
    t = a.table + "_bulk"
    a.cursor().execute(f"CREATE TABLE {t} (n INT, v VARCHAR(10)) LOCK MODE ROW")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", [(i, "kept") for i in range(5)])
    a.cursor().execute("BEGIN WORK")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", [(i, "gone") for i in range(100, 300)])
    b.cursor().execute(f"INSERT INTO {t} VALUES (7, 'other')")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", [(i, "gone") for i in range(300, 340)])
    a.cursor().execute(f"DELETE FROM {t} WHERE n = 150")
    a.cursor().execute(f"INSERT INTO {t} SELECT n + 1000, v FROM {t} WHERE n < 5")
    assert len(_rows(a, f"SELECT n FROM {t}")) == 5 + 1 + 200 + 40 - 1 + 5
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT n, v FROM {t} ORDER BY n") == [(i, "kept") for i in range(5)] + [
        (7, "other")]


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_batch_meeting_a_held_rowid_fails_as_one_insert_does(pair: list[Any], first: int,
                                                               second: int) -> None:
    """B deletes the table's last row (uncommitted): SQLite gives the next insert that rowid,
    which B's lock holds. A batch insert (rows locked after the statement: rl_bulk) meets it
    as a single INSERT does, with the same error and nothing inserted; after B commits the
    batch goes in whole."""
    a, b = pair[first], pair[second]
    t = a.table + "_held"
    a.cursor().execute(f"CREATE TABLE {t} (n INT, v VARCHAR(10)) LOCK MODE ROW")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", [(i, "kept") for i in range(5)])
    b.cursor().execute("BEGIN WORK")
    b.cursor().execute(f"DELETE FROM {t} WHERE n = 4")
    with pytest.raises(ifxwire.Error) as one:
        a.cursor().execute(f"INSERT INTO {t} VALUES (50, 'one')")
    a.cursor().execute("BEGIN WORK")
    batch = [(i, "many") for i in range(100, 160)]
    with pytest.raises(ifxwire.Error) as many:
        a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", batch)
    assert _err(many) == _err(one) and _err(one)[0] < 0
    assert len(_rows(a, f"SELECT n FROM {t}")) == 4
    b.cursor().execute("COMMIT WORK")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", batch)
    a.cursor().execute("COMMIT WORK")
    assert _rows(b, f"SELECT count(*) FROM {t} WHERE v = 'many'") == [(60,)]
    assert _rows(b, f"SELECT count(*) FROM {t} WHERE n = 4") == [(0,)]
