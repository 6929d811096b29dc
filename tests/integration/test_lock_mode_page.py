"""LOCK MODE PAGE | ROW (docs/SERVER.md, "Locks and isolation", "LOCK MODE PAGE"):
recorded in systables.locklevel ('P' / 'R'; PAGE without a clause, Informix's system default
when DEF_TABLE_LOCKMODE is not set), with and without row locks; under row locks a PAGE
table is locked by page, so two rows of one page conflict as on Informix, and a ROW table by
row. Two sessions over real sockets, in both orders.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]


@pytest.fixture(scope="module", params=[False, True], ids=["table-locks", "row-locks"])
def srv(request: pytest.FixtureRequest) -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=request.param) as s:
        with ifxwire.connect(host=s.host, port=s.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE pages WITH LOG")
        yield s


@pytest.fixture(scope="module")
def rl() -> Iterator[Any]:
    """A server with row locks, for the conflicts (without them every writer of a database
    conflicts with every other: tests/unit/engine/test_transactions.py)."""
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as s:
        with ifxwire.connect(host=s.host, port=s.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE pages WITH LOG")
        yield s


def _connect(srv: Any) -> Any:
    return ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                           database="pages", autocommit=True)


def _level(c: Any, table: str) -> str:
    cur = c.cursor()
    cur.execute("SELECT locklevel FROM systables WHERE tabname = ?", (table,))
    return str(cur.fetchone()[0])


def test_create_and_alter_record_the_lock_mode(srv: Any) -> None:
    with _connect(srv) as c:
        cur = c.cursor()
        cur.execute("CREATE TABLE lm_default (i INT)")
        cur.execute("CREATE TABLE lm_page (i INT) LOCK MODE PAGE")
        cur.execute("CREATE TABLE lm_row (i INT) LOCK MODE ROW")
        cur.execute("CREATE TABLE lm_paren (i INT) LOCK MODE (ROW)")
        assert [_level(c, t) for t in ("lm_default", "lm_page", "lm_row", "lm_paren")] == [
            "P", "P", "R", "R"]
        cur.execute("ALTER TABLE lm_default LOCK MODE (ROW)")
        cur.execute("ALTER TABLE lm_row LOCK MODE (PAGE)")
        cur.execute("ALTER TABLE lm_page ADD j INT, LOCK MODE (ROW)")
        assert [_level(c, t) for t in ("lm_default", "lm_row", "lm_page")] == ["R", "P", "R"]
        # another ALTER keeps the lock mode (IBM, Performance Guide, "Configuring the lock
        # mode": a table altered to ROW stays ROW)
        cur.execute("ALTER TABLE lm_default ADD k INT")
        assert _level(c, "lm_default") == "R"
        with pytest.raises(ifxwire.Error) as e:
            cur.execute("CREATE TABLE lm_bad (i INT) LOCK MODE SOMETIMES")
        assert e.value.sqlcode == -999
        cur.execute("SELECT COUNT(*) FROM systables WHERE tabname = 'lm_bad'")
        assert cur.fetchone() == (0,)


def _pair(srv: Any, name: str, mode: str) -> list[Any]:
    conns = [_connect(srv), _connect(srv)]
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT) LOCK MODE {mode}")
    # 400 rows of 8 bytes: 168 to a 2 KB page (trunc(2020 / 12)), so rows 1 and 2 share the
    # first page and row 400 is on the third
    cur.executemany(f"INSERT INTO {name} VALUES (?, 0)", [(i,) for i in range(1, 401)])
    return conns


@pytest.mark.parametrize("first,second", ORDERS)
def test_page_table_rows_of_one_page_conflict(rl: Any, first: int, second: int) -> None:
    name = f"pg_{first}{second}"
    conns = _pair(rl, name, "PAGE")
    a, b = conns[first], conns[second]
    try:
        a.cursor().execute("BEGIN WORK")
        b.cursor().execute("BEGIN WORK")
        a.cursor().execute(f"UPDATE {name} SET v = 1 WHERE id = 1")
        with pytest.raises(ifxwire.Error) as e:
            b.cursor().execute(f"UPDATE {name} SET v = 2 WHERE id = 2")
        assert (e.value.sqlcode, e.value.isamcode) == (-346, -107)
        with pytest.raises(ifxwire.Error) as e:  # a read of a row on the locked page
            b.cursor().execute(f"SELECT v FROM {name} WHERE id = 3")
        assert (e.value.sqlcode, e.value.isamcode) == (-244, -107)
        # a row of another page is free
        b.cursor().execute(f"UPDATE {name} SET v = 2 WHERE id = 400")
        a.cursor().execute("COMMIT WORK")
        b.cursor().execute(f"UPDATE {name} SET v = 2 WHERE id = 2")
        b.cursor().execute("COMMIT WORK")
        cur = a.cursor()
        cur.execute(f"SELECT id, v FROM {name} WHERE id IN (1, 2, 400) ORDER BY id")
        assert cur.fetchall() == [(1, 1), (2, 2), (400, 2)]
    finally:
        for c in conns:
            c.close()


@pytest.mark.parametrize("first,second", ORDERS)
def test_row_table_rows_of_one_page_do_not_conflict(rl: Any, first: int, second: int
                                                   ) -> None:
    name = f"rw_{first}{second}"
    conns = _pair(rl, name, "ROW")
    a, b = conns[first], conns[second]
    try:
        a.cursor().execute("BEGIN WORK")
        b.cursor().execute("BEGIN WORK")
        a.cursor().execute(f"UPDATE {name} SET v = 1 WHERE id = 1")
        b.cursor().execute(f"UPDATE {name} SET v = 2 WHERE id = 2")
        cur = b.cursor()
        cur.execute(f"SELECT v FROM {name} WHERE id = 3")
        assert cur.fetchall() == [(0,)]
        a.cursor().execute("COMMIT WORK")
        b.cursor().execute("COMMIT WORK")
    finally:
        for c in conns:
            c.close()


def test_altering_to_row_lets_rows_of_one_page_through(rl: Any) -> None:
    conns = _pair(rl, "pg_alter", "PAGE")
    a, b = conns
    try:
        a.cursor().execute("ALTER TABLE pg_alter LOCK MODE (ROW)")
        a.cursor().execute("BEGIN WORK")
        b.cursor().execute("BEGIN WORK")
        a.cursor().execute("UPDATE pg_alter SET v = 1 WHERE id = 1")
        b.cursor().execute("UPDATE pg_alter SET v = 2 WHERE id = 2")
        a.cursor().execute("COMMIT WORK")
        b.cursor().execute("COMMIT WORK")
    finally:
        for c in conns:
            c.close()
