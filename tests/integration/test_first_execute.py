"""A session's first EXECUTE of a prepared INSERT does what a later one does.

libsqli (sqlicon/libsqli, a C client written against real servers) reads a PREPARE's reply
only to its SQ_DONE, and its EXECUTE read then takes the stale ``COST EOT`` for the end of
the EXECUTE's reply unless that reply arrives within 1 ms (docs/PROTOCOL.md §6, "libsqli's
1 ms EOT wait"). The first EXECUTE of a session was the slow one: it did set-up work that
no later EXECUTE repeats. The work now happens at DATABASE or at PREPARE:

* the lock-trigger check of the session's connection, the connection's synchronous mode
  and the smart-LOB store (SQLite statements: compared through SQLite's own trace of the
  session's connection, the first EXECUTE against the second);
* the plan's parameter binder (compiled Python code: counted);
* the row-lock functions ``_ifx_lk``/``_ifx_rd``, which were defined again on a pooled
  connection at every DATABASE; SQLite expires every prepared statement of a connection
  when a function is defined, so the first EXECUTE compiled its statements again (counted:
  no function is defined on a pooled connection).

Nothing here is timed: the mechanism is checked, the figures are in PROTOCOL.md §6. The
bytes are libsqli's (its ``sqli_send_prepare`` and ``sqli_send_execute`` with BIND, written
here from its sources and our trace of it; no libsqli code).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server
from ifxwire.server.engine.session import session as engine_session


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[Server]:
    with _server(tmp_path) as s:
        yield s


@contextlib.contextmanager
def _server(tmp_path: Path) -> Iterator[Server]:
    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as s:
        c = RawClient(s.host, s.port)
        try:
            assert c.command("CREATE DATABASE fx WITH LOG").errors == []
            assert c.command("CREATE TABLE t (id INTEGER, s VARCHAR(40))").errors == []
            # another session writes the table first, as the setup of libsqli's must-type
            # suite does: the pooled connection then has the table's lock triggers
            assert c.command("INSERT INTO t VALUES (1, 'setup')").errors == []
        finally:
            c.close()
        yield s


def _dbopen(c: RawClient, name: bytes) -> None:
    w = Writer()
    m.put_dbopen(w, name)
    assert c.send(w).errors == []


def _prepare(table: str) -> bytes:
    """libsqli's PREPARE NDESCRIBE WANTDONE EOT of an INSERT with two parameters."""
    sql = f"INSERT INTO {table} (id, s) VALUES (?, ?)".encode()
    return (struct.pack(">HHI", Msg.PREPARE, 2, len(sql)) + sql + b"\0" * (len(sql) & 1)
            + struct.pack(">HHH", Msg.NDESCRIBE, Msg.WANTDONE, Msg.EOT))


def _execute(value: int) -> bytes:
    """libsqli's ID 0 BIND (INTEGER, VARCHAR) EXECUTE EOT."""
    text = b"prep_string"
    return (struct.pack(">HhHH", Msg.ID, 0, Msg.BIND, 2)
            + struct.pack(">hhhi", 2, 0, 0, value)  # INTEGER, indicator, precision
            + struct.pack(">hhhh", 13, 0, len(text), len(text)) + text + b"\0"
            + struct.pack(">HH", Msg.EXECUTE, Msg.EOT))


def _session(srv: Server, c: RawClient) -> Any:
    """The server's session of ``c`` (an earlier client's may still be ending)."""
    host, port = c.sock.getsockname()[:2]
    (session,) = [s for s in list(srv._sessions) if s.peer == f"{host}:{port}"]
    return session


def _shape(sql: str) -> str:
    """A traced statement with its literals taken out (the row values differ)."""
    return re.sub(r"'[^']*'|\b\d+\b", "?", sql)


def test_the_first_execute_runs_the_statements_of_a_later_one(srv: Server) -> None:
    c = RawClient(srv.host, srv.port)
    try:
        _dbopen(c, b"fx")
        c.sock.sendall(_prepare("t"))
        reply = c.read_reply()
        assert reply.errors == [] and reply.describes[0].stmt_id == 0
        conn: sqlite3.Connection = _session(srv, c).engine.conn
        runs: list[list[str]] = []
        for value in (8008, 8009):
            seen: list[str] = []
            conn.set_trace_callback(seen.append)
            try:
                c.sock.sendall(_execute(value))
                reply = c.read_reply()
            finally:
                conn.set_trace_callback(None)
            assert reply.errors == [] and [d.rows for d in reply.dones] == [1]
            assert reply.codes == [Msg.DONE, Msg.COST, Msg.EOT]
            runs.append([_shape(q) for q in seen])
        first, second = runs
        # before: the first also listed sqlite_master and the lock triggers, set PRAGMA
        # synchronous and looked for the smart-LOB tables
        assert first == second, "\n".join(q[:120] for q in first if q not in second)
    finally:
        c.close()


def test_the_binder_of_a_prepared_statement_is_made_at_prepare(
        srv: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    real = engine_session.row_binder

    def counting(convs: Any) -> Any:
        made.append(len(convs))
        return real(convs)

    monkeypatch.setattr(engine_session, "row_binder", counting)
    c = RawClient(srv.host, srv.port)
    try:
        _dbopen(c, b"fx")
        c.command("CREATE TABLE binder_t (id INTEGER, s VARCHAR(40))")  # a plan nobody made
        c.sock.sendall(_prepare("binder_t"))
        assert c.read_reply().errors == []
        assert made == [2]
        c.sock.sendall(_execute(1))
        assert c.read_reply().errors == []
        assert made == [2]  # before: [2], made by the EXECUTE
    finally:
        c.close()


class _CountingConnection(sqlite3.Connection):
    defined: list[str]

    def create_function(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.defined.append(name)
        super().create_function(name, *args, **kwargs)


def test_a_pooled_connection_gets_no_function_defined_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite expires a connection's prepared statements when a function is defined
    (sqlite3_create_function), so a session's DATABASE must define none on a pooled one."""
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real(*args, factory=_CountingConnection, **kwargs)
        assert isinstance(conn, _CountingConnection)
        conn.defined = []
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    conns = []
    with _server(tmp_path) as srv:
        for _ in range(3):
            c = RawClient(srv.host, srv.port)
            try:
                _dbopen(c, b"fx")
                conn = _session(srv, c).engine.conn
                assert isinstance(conn, _CountingConnection)
                conns.append((conn, list(conn.defined)))
                c.sock.sendall(_prepare("t"))
                assert c.read_reply().errors == []
                c.sock.sendall(_execute(1))
                assert c.read_reply().errors == []
            finally:
                c.close()
    (first, made), *later = conns
    assert "_ifx_lk" in made and "_ifx_rd" in made
    for conn, defined in later:
        assert conn is first  # the pooled one
        assert defined == made  # before: _ifx_lk and _ifx_rd once more per session


def test_a_session_on_a_pooled_connection_does_not_list_the_lock_triggers_again(
        srv: Server) -> None:
    """The connection's last session checked its lock triggers at this schema version: the
    next session's PREPARE and EXECUTE trust that check (the key is kept with the pooled
    connection) instead of listing the catalogue and the triggers again, which took 0.3-4
    ms, growing with the number of tables (before: at the first EXECUTE, then at PREPARE)."""
    c = RawClient(srv.host, srv.port)
    try:
        _dbopen(c, b"fx")
        conn: sqlite3.Connection = _session(srv, c).engine.conn
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        try:
            c.sock.sendall(_prepare("t"))
            assert c.read_reply().errors == []
            c.sock.sendall(_execute(5))
            reply = c.read_reply()
        finally:
            conn.set_trace_callback(None)
        assert reply.errors == [] and [d.rows for d in reply.dones] == [1]
        listings = [q for q in seen if "main.sqlite_master" in q or "temp.sqlite_master" in q]
        assert listings == []
    finally:
        c.close()
