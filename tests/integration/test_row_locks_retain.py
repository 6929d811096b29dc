"""A FOR UPDATE cursor's update locks with and without SET ISOLATION ... RETAIN UPDATE LOCKS,
two sessions over real sockets, each scenario in both orders (docs/SERVER.md, "SELECT ...
FOR UPDATE").

What Informix documents: "If you do not update the row, the default behavior of the
database server is to release the update lock when you execute the next FETCH statement or
close the cursor. However, if you execute the SET ISOLATION statement with the RETAIN
UPDATE LOCKS clause, the database server does not release any currently existing or
subsequently placed update locks until the end of the transaction" (Performance Guide,
"Update cursors", ids_prf_431); "To turn off the RETAIN UPDATE LOCKS feature, set the
isolation level without the RETAIN UPDATE LOCKS clause ... a subsequent fetch releases the
update lock of the immediately preceding fetch but not of earlier fetch operations" (Guide
to SQL: Tutorial, ids_sqt_398); Repeatable Read holds its locks to the transaction's end.
The server sends a FOR UPDATE cursor one row per fetch, so the client's current row is the
server's.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]
_NUMBERS = itertools.count(1)


@pytest.fixture(scope="module")
def iserver() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE rul WITH LOG")
        yield srv


@pytest.fixture()
def pair(iserver: Any) -> Iterator[list[Any]]:
    conns = [ifxwire.connect(host=iserver.host, port=iserver.port, user=USER,
                             password=PASSWORD, database="rul", autocommit=True)
             for _ in range(2)]
    name = f"rul_{next(_NUMBERS)}"
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    cur.executemany(f"INSERT INTO {name} VALUES (?, ?)", [(i, i * 10) for i in (1, 2, 3, 4)])
    for c in conns:
        c.table = name
    yield conns
    for c in conns:
        c.close()


def _update(c: Any, t: str, rid: int) -> tuple[int, int] | None:
    """``c``'s UPDATE of row ``rid``: None when it went through, else (sqlcode, isam)."""
    try:
        c.cursor().execute(f"UPDATE {t} SET v = v + 1 WHERE id = {rid}")
    except ifxwire.Error as e:
        return (e.sqlcode, e.isamcode)  # type: ignore[attr-defined]
    return None


def _cursor_on(b: Any, t: str, isolation: str, rows: int) -> Any:
    """``b`` in a transaction under ``isolation``, its FOR UPDATE cursor on row ``rows``."""
    b.cursor().execute(f"SET ISOLATION TO {isolation}")
    b.cursor().execute("BEGIN WORK")
    cur = b.cursor()
    cur.execute(f"SELECT id, v FROM {t} ORDER BY id FOR UPDATE")
    for i in range(1, rows + 1):
        assert cur.fetchone()[0] == i
    return cur


@pytest.mark.parametrize("first,second", ORDERS)
def test_without_retain_the_next_fetch_releases_the_update_lock(pair: list[Any], first: int,
                                                                second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    cur = _cursor_on(b, t, "COMMITTED READ", 2)
    assert _update(a, t, 1) is None  # released at the fetch of row 2
    assert _update(a, t, 2) == (-346, -107)  # the current row's
    assert cur.fetchone()[0] == 3
    assert _update(a, t, 2) is None
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
@pytest.mark.parametrize("level", ["COMMITTED READ", "CURSOR STABILITY", "DIRTY READ",
                                   "COMMITTED READ LAST COMMITTED"])
def test_retain_update_locks_keeps_them_to_the_transactions_end(
        pair: list[Any], first: int, second: int, level: str) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    cur = _cursor_on(b, t, f"{level} RETAIN UPDATE LOCKS", 3)
    for rid in (1, 2, 3):
        assert _update(a, t, rid) == (-346, -107), rid
    assert _update(a, t, 4) is None  # never fetched
    cur.close()
    b.cursor().execute("COMMIT WORK")
    assert _update(a, t, 1) is None


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_written_row_keeps_its_lock_and_repeatable_read_keeps_all(
        pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    cur = _cursor_on(b, t, "COMMITTED READ", 1)
    b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE CURRENT OF {cur.name}")
    assert cur.fetchone()[0] == 2
    assert _update(a, t, 1) == (-346, -107)  # written: an exclusive lock, kept
    b.cursor().execute("ROLLBACK WORK")
    cur = _cursor_on(b, t, "REPEATABLE READ", 2)
    assert _update(a, t, 1) == (-346, -107)
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_turning_retain_off_releases_nothing_at_once(pair: list[Any], first: int,
                                                      second: int) -> None:
    """Turned off in the transaction: the locks taken so far stay; from then on a fetch
    releases the previous fetch's lock only."""
    a, b = pair[first], pair[second]
    t = a.table
    cur = _cursor_on(b, t, "COMMITTED READ RETAIN UPDATE LOCKS", 2)
    b.cursor().execute("SET ISOLATION TO COMMITTED READ")
    assert _update(a, t, 1) == (-346, -107)
    assert cur.fetchone()[0] == 3
    assert _update(a, t, 1) == (-346, -107)  # an earlier fetch's: kept
    assert _update(a, t, 2) is None  # the previous fetch's: released
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_fetching_a_row_for_update_again_keeps_an_update_lock(pair: list[Any], first: int,
                                                              second: int) -> None:
    """A second FOR UPDATE fetch of a row the session holds for update leaves an update
    lock, which readers pass (ids_sqt_400); it used to make it exclusive, and the other
    session's COMMITTED READ of the row got -244/-107."""
    a, b = pair[first], pair[second]
    t = a.table
    b.cursor().execute("BEGIN WORK")
    for _ in range(2):
        assert b.cursor().execute(f"SELECT v FROM {t} WHERE id = 1 FOR UPDATE").fetchall() == [
            (10,)]
    assert a.cursor().execute(f"SELECT v FROM {t} WHERE id = 1").fetchall() == [(10,)]
    assert _update(a, t, 1) == (-346, -107)
    b.cursor().execute("COMMIT WORK")
