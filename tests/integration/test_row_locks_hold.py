"""The SQLite transaction held across an Informix transaction's statements under row locks
(docs/SERVER.md, "Locks and isolation", "One SQLite transaction while alone";
features/locks/latch.py): a session writing alone keeps its SQLite transaction open between
statements; another session that needs the latch commits it for it, and a reader of a table
the first one holds rows of sees what it wrote (DIRTY READ) or meets its locks. Two sessions
over real sockets, in both orders.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]


@pytest.fixture(scope="module")
def srv() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as s:
        with ifxwire.connect(host=s.host, port=s.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE hold WITH LOG")
        yield s


@pytest.fixture()
def pair(srv: Any, request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    conns = [ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             database="hold", autocommit=True) for _ in range(2)]
    name = "h" + str(abs(hash(request.node.name)) % 100003)
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    cur.executemany(f"INSERT INTO {name} VALUES (?, 0)", [(i,) for i in range(1, 6)])
    for c in conns:
        c.table = name  # type: ignore[attr-defined]
    yield conns
    for c in conns:
        c.close()


def _rows(c: Any, sql: str) -> list[tuple[Any, ...]]:
    cur = c.cursor()
    cur.execute(sql)
    return list(cur.fetchall())


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_held_transaction_is_committed_for_another_writer(srv: Any, pair: list[Any],
                                                            first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    latch = srv.engine.write_latch("hold")
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")
    assert latch.parked  # a wrote alone: its SQLite transaction stays open
    # b (NOT WAIT) writes another row at once: it commits a's statement for it
    b.cursor().execute(f"UPDATE {t} SET v = 2 WHERE id = 2")
    assert not latch.parked
    a.cursor().execute(f"UPDATE {t} SET v = 3 WHERE id = 3")
    a.cursor().execute("COMMIT WORK")
    assert _rows(b, f"SELECT id, v FROM {t} ORDER BY id") == [
        (1, 1), (2, 2), (3, 3), (4, 0), (5, 0)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_rollback_of_a_transaction_partly_committed_for_another(
        pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")
    a.cursor().execute(f"INSERT INTO {t} VALUES (6, 6)")
    b.cursor().execute(f"DELETE FROM {t} WHERE id = 5")  # commits a's two statements
    a.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 2")  # held again
    a.cursor().execute(f"DELETE FROM {t} WHERE id = 3")
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT id, v FROM {t} ORDER BY id") == [
        (1, 0), (2, 0), (3, 0), (4, 0)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_readers_see_or_meet_what_a_held_transaction_wrote(
        pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"INSERT INTO {t} VALUES (7, 70)")
    a.cursor().execute(f"UPDATE {t} SET v = 10 WHERE id = 1")
    # COMMITTED READ meets the uncommitted rows (not a file without them)
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"SELECT COUNT(*) FROM {t}")
    assert (e.value.sqlcode, e.value.isamcode) == (-244, -107)
    a.cursor().execute(f"UPDATE {t} SET v = 20 WHERE id = 2")
    b.cursor().execute("SET ISOLATION TO DIRTY READ")
    assert _rows(b, f"SELECT id, v FROM {t} WHERE id IN (1, 2, 7) ORDER BY id") == [
        (1, 10), (2, 20), (7, 70)]
    a.cursor().execute("ROLLBACK WORK")
    assert _rows(b, f"SELECT id, v FROM {t} WHERE id IN (1, 2, 7) ORDER BY id") == [
        (1, 0), (2, 0)]
