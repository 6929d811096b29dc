"""ifxwire-server hands a session's SQLite connection to the next session of the same database
(engine.py, checkout/checkin). Over real sockets, each test lets one session leave state
behind (uncommitted rows, a write lock, temp tables, SET options, a savepoint, deferred
constraints), checks that the next session really got the same pooled SQLite connection, and
that it sees none of that state: the session starts as a fresh Informix session would.

The tests read the server's pool right after a client closes, so every close here waits for
the server's acknowledgement (``close(wait=True)``): the server checks the connection in before
it acknowledges, and a plain ``close()`` leaves that to the next connect (DRIVER.md §1)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire.server import Server

DB = "reuse"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(port=0, data=":memory:") as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix")
        c.cursor().execute(f"CREATE DATABASE {DB} WITH LOG")
        c.close(wait=True)
        yield srv


def _connect(srv: Server, autocommit: bool = True) -> Any:
    return ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                           database=DB, autocommit=autocommit)


def _idle_ids(srv: Server) -> list[int]:
    return [id(conn) for db, conn, _ in list(srv.engine._idle.values()) if db == DB]


def _wait_idle(srv: Server, count: int) -> list[int]:
    """The idle connections of DB once ``count`` of them are back (a session whose client
    vanished is cleaned up by its thread, a moment after the socket closes)."""
    deadline = time.monotonic() + 10
    while len(ids := _idle_ids(srv)) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return ids


def _server_conn_id(srv: Server, client: Any) -> int:
    """id() of the SQLite connection serving ``client`` on the server."""
    port = client._transport.sock.getsockname()[1]
    for s in list(srv._sessions):
        if s.peer.endswith(f":{port}") and s.engine is not None and s.engine.conn is not None:
            return id(s.engine.conn)
    raise AssertionError("no server session for this client")


@pytest.fixture
def next_session(server: Server) -> Iterator[Any]:
    """Factory: the session after the one just closed, asserted to run on its SQLite
    connection (so the test proves the reset, not a fresh connection)."""
    opened: list[Any] = []

    def factory(autocommit: bool = True) -> Any:
        (pooled,) = _wait_idle(server, 1)[-1:]
        conn = _connect(server, autocommit)
        assert _server_conn_id(server, conn) == pooled
        opened.append(conn)
        return conn

    # Start each test with exactly one idle connection, made clean by a plain session.
    with server.engine.lock:
        stale = server.engine._take_idle(DB)
    for c in stale:
        c.close()
    _connect(server).close(wait=True)
    yield factory
    for c in opened:
        c.close(wait=True)


def _table(server: Server, name: str, ddl: str = "a INT") -> None:
    c = _connect(server)
    c.cursor().execute(f"DROP TABLE IF EXISTS {name}")
    c.cursor().execute(f"CREATE TABLE {name} ({ddl})")
    c.close(wait=True)


def _count(conn: Any, table: str) -> int:
    cur = conn.cursor()
    cur.execute(f"SELECT COUNT(*) FROM {table}")
    return int(cur.fetchone()[0])


def test_uncommitted_rows_and_the_write_lock_die_with_a_vanished_client(
        server: Server, next_session: Any) -> None:
    _table(server, "t_txn")
    a = _connect(server, autocommit=False)
    a.cursor().execute("INSERT INTO t_txn VALUES (1)")  # the write lock is now a's
    a._transport.sock.close()  # the client vanishes: no SQ_EXIT, no rollback asked
    b = next_session()
    assert _count(b, "t_txn") == 0
    b.cursor().execute("INSERT INTO t_txn VALUES (2)")  # -271 if a's lock had survived
    assert _count(b, "t_txn") == 1


def test_temp_tables_do_not_reach_the_next_session(server: Server, next_session: Any) -> None:
    a = next_session()
    a.cursor().execute("CREATE TEMP TABLE scratch (a INT)")
    a.cursor().execute("INSERT INTO scratch VALUES (1)")
    a.cursor().execute("DROP TABLE scratch")  # dropped: the connection is clean and pooled
    a.cursor().execute("CREATE TEMP TABLE kept (a INT)")
    a.cursor().execute("DROP TABLE kept")
    a.close(wait=True)
    b = next_session()
    with pytest.raises(ifxwire.ProgrammingError) as err:
        b.cursor().execute("SELECT a FROM scratch")
    assert err.value.sqlcode == -206
    b.cursor().execute("CREATE TEMP TABLE scratch (z CHAR(3))")  # the name is free again
    b.cursor().execute("INSERT INTO scratch VALUES ('b')")
    assert _count(b, "scratch") == 1


def test_a_temp_table_left_behind_is_not_seen_by_the_next_session(server: Server,
                                                                  next_session: Any) -> None:
    a = next_session()
    a.cursor().execute("CREATE TEMP TABLE left_over (a INT)")
    a.cursor().execute("INSERT INTO left_over VALUES (1)")
    a.close(wait=True)  # its connection holds a temp table: closed, not pooled
    b = _connect(server)
    try:
        with pytest.raises(ifxwire.ProgrammingError) as err:
            b.cursor().execute("SELECT a FROM left_over")
        assert err.value.sqlcode == -206
        b.cursor().execute("CREATE TEMP TABLE left_over (a INT)")  # the name is b's to use
        assert _count(b, "left_over") == 0
    finally:
        b.close(wait=True)


def test_set_lock_mode_does_not_reach_the_next_session(server: Server,
                                                       next_session: Any) -> None:
    _table(server, "t_lock")
    a = next_session()
    a.cursor().execute("SET LOCK MODE TO WAIT 2")
    a.close(wait=True)
    b = next_session()  # on a's SQLite connection, whose busy_timeout a had set to 2 s
    rows = server.engine.row_locks  # Informix row locks: only the held row is in the way
    if rows:
        seed = _connect(server)
        seed.cursor().execute("INSERT INTO t_lock VALUES (1)")
        seed.close(wait=True)
    holder = _connect(server, autocommit=False)
    holder.cursor().execute("UPDATE t_lock SET a = 3" if rows else "INSERT INTO t_lock VALUES (1)")
    try:
        with pytest.raises(ifxwire.Error) as err:
            b.cursor().execute("UPDATE t_lock SET a = 2" if rows
                               else "INSERT INTO t_lock VALUES (2)")
        # NOT WAIT (Informix's default): -271 (or -346 for the UPDATE) with ISAM -107 (record
        # locked) at once; a leaked WAIT would have waited and then said -154 (lock timeout).
        assert (err.value.sqlcode, err.value.isamcode) == ((-346 if rows else -271), -107)
    finally:
        holder.rollback()
        holder.close(wait=True)


def test_a_savepoint_and_deferred_constraints_do_not_reach_the_next_session(
        server: Server, next_session: Any) -> None:
    _table(server, "t_parent", "id INT PRIMARY KEY")
    _table(server, "t_child", "pid INT REFERENCES t_parent (id)")
    a = _connect(server, autocommit=False)
    a.cursor().execute("SET CONSTRAINTS ALL DEFERRED")
    a.cursor().execute("SAVEPOINT s1")
    a.cursor().execute("INSERT INTO t_child VALUES (42)")  # allowed until COMMIT: deferred
    a.close(wait=True)  # rolls back
    b = next_session()
    with pytest.raises(ifxwire.Error) as err:
        b.cursor().execute("ROLLBACK TO SAVEPOINT s1")
    assert err.value.sqlcode == -255  # not in a transaction: nothing of a's is left
    with pytest.raises(ifxwire.IntegrityError) as fk:
        b.cursor().execute("INSERT INTO t_child VALUES (42)")  # checked at once again
    assert fk.value.sqlcode == -691
    assert _count(b, "t_child") == 0


def test_isolation_and_reads_start_fresh(server: Server, next_session: Any) -> None:
    _table(server, "t_iso")
    a = next_session(autocommit=False)
    a.cursor().execute("SET ISOLATION TO REPEATABLE READ")
    cur = a.cursor()
    cur.execute("SELECT a FROM t_iso")
    cur.fetchall()
    a.close(wait=True)
    b = next_session(autocommit=False)
    other = _connect(server)
    try:
        assert _count(b, "t_iso") == 0
        other.cursor().execute("INSERT INTO t_iso VALUES (7)")
        # COMMITTED READ (the default): b's next read sees the committed row, so no
        # snapshot of a's repeatable read (or b's first read) is held on the connection.
        assert _count(b, "t_iso") == 1
    finally:
        other.close(wait=True)
