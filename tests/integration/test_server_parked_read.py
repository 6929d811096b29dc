"""A parked read (engine/session/session_park.py) shows exactly what a fresh read shows.

A session's cached query, served by the wire layer's one-step path, leaves its SQLite read
transaction open between statements while nothing was committed (issue 26, thirteenth
round: no ``fcntl`` pair per statement). Each test here parks session A's read (checked:
A is in the Engine's ``parked`` set), lets session B (or A itself) change the database, and
requires A's next read to see the change, as an autocommit read on a fresh snapshot does:
B's INSERT, UPDATE, DELETE, in autocommit and in a transaction, in both orders (A parked
before B's transaction began, and B's transaction open when A parks), DDL and CREATE
DATABASE (sysmaster, which every database attaches), with and without row locks. Then that
a parked read blocks nobody: B's commits go through (NOT WAIT, the default, would fail
with -271/-346 otherwise) and, once the WAL reaches the autocheckpoint size, a commit ends
A's parked read so that a checkpoint copies every frame (bounded).
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire.server import Server

USER, PASSWORD = "informix", "in4mix"
_DBS = itertools.count(1)


@pytest.fixture(params=[True, False], ids=["row_locks", "no_row_locks"], scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[Any]:
    with Server(port=0, data=":memory:", row_locks=request.param) as srv:
        yield srv


def _connect(srv: Any, db: str | None = None) -> ifxwire.Connection:
    return ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                           database=db, autocommit=True)


@pytest.fixture()
def pair(server: Any) -> Iterator[tuple[Any, str, ifxwire.Connection, ifxwire.Connection]]:
    db = f"parked{next(_DBS)}"
    c = _connect(server)
    c.cursor().execute(f"CREATE DATABASE {db} WITH LOG")
    c.close()
    a, b = _connect(server, db), _connect(server, db)
    cur = b.cursor()
    cur.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    cur.executemany("INSERT INTO t VALUES (?, ?)", [(i, i * 10) for i in range(1, 4)])
    yield server, db, a, b
    a.close()
    b.close()


def _one(c: ifxwire.Connection, sql: str) -> Any:
    cur = c.cursor()
    cur.execute(sql)
    rows = cur.fetchall()
    cur.close()
    return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows


def _parked(srv: Any, db: str) -> int:
    """How many sessions of ``db`` have a parked read now."""
    with srv.engine.park_lock:
        return len(srv.engine.parked.get(db, ()))


SUM = "SELECT sum(v) FROM t"


def _park(srv: Any, db: str, c: ifxwire.Connection, sql: str = SUM) -> Any:
    """Run ``sql`` twice on ``c`` (the second run is the cached group, which parks)."""
    _one(c, sql)
    value = _one(c, sql)
    assert _parked(srv, db) >= 1, "the cached query did not park its read"
    return value


@pytest.mark.parametrize("change", [
    "INSERT INTO t VALUES (9, 1000)",
    "UPDATE t SET v = v + 1000 WHERE id = 2",
    "DELETE FROM t WHERE id = 3",
])
def test_another_sessions_autocommit_write_is_seen_at_once(pair: Any, change: str) -> None:
    srv, db, a, b = pair
    before = _park(srv, db, a)
    b.cursor().execute(change)
    after = _one(a, SUM)
    assert after != before
    assert after == _one(b, SUM)  # what B (a fresh read of its own) sees


@pytest.mark.parametrize("order", ["parked_first", "transaction_first"])
def test_another_sessions_transaction_is_seen_when_committed(pair: Any, order: str) -> None:
    """Parked before B's transaction began, or while it is open (then on a catalogue
    query: under row locks A's read of B's locked rows is -244, and a read that must step
    around other sessions' row locks does not park)."""
    srv, db, a, b = pair
    before = _one(b, SUM)
    if order == "parked_first":
        _park(srv, db, a)
    b.autocommit = False
    cur = b.cursor()
    cur.execute("UPDATE t SET v = v + 5 WHERE id = 1")
    if order == "transaction_first":
        _park(srv, db, a, "SELECT count(*) FROM systables")
    else:
        try:
            assert _one(a, SUM) == before  # not committed yet: not seen (COMMITTED READ)
        except ifxwire.OperationalError as e:
            assert srv.engine.row_locks and e.sqlcode == -244  # B's row lock (NOT WAIT)
    b.commit()
    assert _one(a, SUM) == before + 5
    b.autocommit = True


def test_a_read_in_a_transaction_sees_the_commit_made_while_parked(pair: Any) -> None:
    srv, db, a, b = pair
    before = _park(srv, db, a)
    b.cursor().execute("INSERT INTO t VALUES (7, 70)")
    a.autocommit = False  # BEGIN WORK: a request of its own, which ends the parked read
    assert _one(a, SUM) == before + 70
    b.cursor().execute("INSERT INTO t VALUES (8, 80)")
    assert _one(a, SUM) == before + 150  # in a transaction: each read afresh, as before
    a.commit()
    a.autocommit = True


def test_both_orders_each_session_parked_and_writing(pair: Any) -> None:
    srv, db, a, b = pair
    for reader, writer, n in [(a, b, 20), (b, a, 21)]:
        before = _park(srv, db, reader)
        writer.cursor().execute(f"INSERT INTO t VALUES ({n}, 1)")
        assert _one(reader, SUM) == before + 1


def test_the_parked_session_writes_itself(pair: Any) -> None:
    """Its own INSERT (a write unit: BEGIN IMMEDIATE) and executemany (the batched path)
    must find no read transaction open, and its next read must see them."""
    srv, db, a, b = pair
    before = _park(srv, db, a)
    cur = a.cursor()
    cur.execute("INSERT INTO t VALUES (30, 3)")
    assert _park(srv, db, a) == before + 3
    cur.executemany("INSERT INTO t VALUES (?, ?)", [(31, 1), (32, 1)])
    assert _one(a, SUM) == before + 5
    assert _one(b, SUM) == before + 5


def test_ddl_of_another_session_is_seen(pair: Any) -> None:
    srv, db, a, b = pair
    count = "SELECT count(*) FROM systables WHERE tabname = 'u'"
    assert _park(srv, db, a, count) == 0
    b.cursor().execute("CREATE TABLE u (x INT)")
    assert _one(a, count) == 1
    # a cached query of a table another session altered: -710, as on a fresh read
    _park(srv, db, a, "SELECT * FROM t WHERE id = 1")
    b.cursor().execute("ALTER TABLE t ADD w INT")
    try:
        got = _one(a, "SELECT * FROM t WHERE id = 1")
    except ifxwire.Error as e:
        assert getattr(e, "sqlcode", None) == -710
    else:
        assert len(got[0]) == 3  # (a driver that prepares again sees the new column)


def test_create_database_is_seen_through_sysmaster(pair: Any) -> None:
    """sysmaster is attached to every database and written by the Engine alone: its own
    WAL-index header is checked too."""
    srv, db, a, _b = pair
    sql = "SELECT count(*) FROM sysmaster:sysdatabases"
    before = _park(srv, db, a, sql)
    c = _connect(srv)
    try:
        c.cursor().execute(f"CREATE DATABASE {db}x WITH LOG")  # (opens it on c)
        assert _one(a, sql) == before + 1
        c.cursor().execute("CLOSE DATABASE")
        c.cursor().execute(f"DROP DATABASE {db}x")
        assert _one(a, sql) == before
    finally:
        c.close()


def test_a_session_on_sysmaster_sees_create_database(server: Any) -> None:
    """select_one_row's database: the Engine's own connection writes it."""
    a = _connect(server, "sysmaster")
    b = _connect(server)
    try:
        sql = "SELECT count(*) FROM sysdatabases"
        before = _park(server, "sysmaster", a, sql)
        name = f"parkedsys{next(_DBS)}"
        b.cursor().execute(f"CREATE DATABASE {name}")
        assert _one(a, sql) == before + 1
    finally:
        a.close()
        b.close()


def _checkpoint(srv: Any, db: str) -> tuple[int, int]:
    """A passive checkpoint from a connection of our own: (frames in the WAL, frames copied
    into the database). Equal when no reader holds an older snapshot."""
    conn = sqlite3.connect(srv.engine.path(db))
    try:
        _busy, log, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        conn.close()
    return log, done


def test_a_parked_read_does_not_hold_the_wal_forever(pair: Any) -> None:
    srv, db, a, b = pair
    cur = b.cursor()
    cur.execute("CREATE TABLE big (s LVARCHAR(30000))")
    before = _park(srv, db, a, "SELECT count(*) FROM big")
    cur.execute("INSERT INTO big VALUES ('small')")
    log, done = _checkpoint(srv, db)
    assert done < log  # A's parked snapshot is older: the checkpoint stops at it
    assert _parked(srv, db) == 1
    # commits that fill the WAL past the autocheckpoint size (1000 pages)
    b.autocommit = False
    cur.executemany("INSERT INTO big VALUES (?)", [("x" * 29000,) for _ in range(200)])
    b.commit()
    b.autocommit = True
    cur.execute("INSERT INTO big VALUES ('one more')")
    assert _parked(srv, db) == 0  # ended by a commit while A waited for its client
    log, done = _checkpoint(srv, db)
    assert done == log
    assert _one(a, "SELECT count(*) FROM big") == before + 202
