"""The SQLite statements of an autocommitted prepared INSERT (issue 23, libsqli's 1 ms wait).

libsqli's must-type suite reads the reply to a prepared INSERT's EXECUTE (``ID 0 BIND
EXECUTE EOT``, autocommitted, WITH LOG, row locks) within 1 ms or misreads it
(docs/PROTOCOL.md §6); every SQLite statement of that path counts. The list is pinned here
through SQLite's own trace of the session's connection: BEGIN IMMEDIATE, the schema version
(the lock triggers' and -710's check), the INSERT, COMMIT. The smart-LOB housekeeping check
(``SELECT EXISTS (… _ifx_lo_unref), EXISTS (… _ifx_lo_garbage)``) is not run when the unit
changed only its own row and the database's last check found nothing to do
(lo_session.before_commit); garbage left behind is still collected after a later
autocommitted INSERT (the second test). The same skip applies without row locks (the last
test, branch locks42).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_first_execute as tf  # tests/integration is on sys.path (rootdir insertion)
from rawclient import RawClient

from ifxwire.server import Server
from ifxwire.server.engine.features.lobs import lobstore


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[Server]:
    with tf._server(tmp_path) as s:
        yield s


def _traced(srv: Server, c: RawClient, value: int) -> list[str]:
    conn: sqlite3.Connection = tf._session(srv, c).engine.conn
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        c.sock.sendall(tf._execute(value))
        reply = c.read_reply()
    finally:
        conn.set_trace_callback(None)
    assert reply.errors == [] and [d.rows for d in reply.dones] == [1]
    # (SQLite traces the INSERT again as each lock trigger's program starts)
    shapes: list[str] = []
    for q in seen:
        shape = tf._shape(q)
        if not shapes or shapes[-1] != shape:
            shapes.append(shape)
    return shapes


def test_an_autocommitted_prepared_insert_runs_four_statements(srv: Server) -> None:
    c = RawClient(srv.host, srv.port)
    try:
        tf._dbopen(c, b"fx")
        c.sock.sendall(tf._prepare("t"))
        assert c.read_reply().errors == []
        for value in (8008, 8009, 8010):
            # before: a fifth, the smart-LOB check, at every commit
            assert _traced(srv, c, value) == [
                "BEGIN IMMEDIATE", "PRAGMA schema_version",
                'INSERT INTO main."t" ("id", "s") VALUES (?, ?)', "COMMIT"]
    finally:
        c.close()


@contextlib.contextmanager
def _server_without_row_locks(tmp_path: Path) -> Iterator[Server]:
    """tf._server's database and table, in a server without row locks."""
    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=False) as s:
        c = RawClient(s.host, s.port)
        try:
            assert c.command("CREATE DATABASE fx WITH LOG").errors == []
            assert c.command("CREATE TABLE t (id INTEGER, s VARCHAR(40))").errors == []
            assert c.command("INSERT INTO t VALUES (1, 'setup')").errors == []
        finally:
            c.close()
        yield s


@pytest.fixture()
def srv_no_row_locks(tmp_path: Path) -> Iterator[Server]:
    with _server_without_row_locks(tmp_path) as s:
        yield s


@pytest.fixture(params=[True, False], ids=["row_locks", "no_row_locks"])
def srv_either(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with (tf._server(tmp_path) if request.param else _server_without_row_locks(tmp_path)) as s:
        yield s


def test_garbage_left_is_collected_after_a_later_autocommitted_insert(
        srv_either: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit whose collection of garbage pieces failed leaves them for a later one: the
    check that finds them must still run in an autocommitted INSERT's unit (with row locks
    and, since locks42 skips the check there too, without)."""
    srv = srv_either
    c = RawClient(srv.host, srv.port)
    try:
        tf._dbopen(c, b"fx")
        assert c.command("CREATE TABLE hk (id INTEGER, b BLOB)").errors == []
        assert c.command("INSERT INTO hk VALUES (1, FILETOBLOB('/dev/null', 'server'))"
                         ).errors == []
        assert c.command("UPDATE hk SET b = NULL").errors == []  # nothing to collect
        c.sock.sendall(tf._prepare("t"))
        assert c.read_reply().errors == []
        _traced(srv, c, 1)
        _traced(srv, c, 2)  # the database's last check found nothing: skipped from now
        path = srv.engine.path("fx")

        def pieces() -> int:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as ro:
                return lobstore.LoStore(ro, "00").counts()[1]

        # an object with pieces, freed by a DELETE whose commit cannot collect them
        blob = tmp_path / "blob.bin"
        blob.write_bytes(bytes(range(256)) * 40)
        assert c.command(f"INSERT INTO hk VALUES (2, FILETOBLOB('{blob}', 'server'))"
                         ).errors == []
        had = pieces()
        assert had > 0
        monkeypatch.setattr(lobstore.LoStore, "collect", lambda self: None)
        assert c.command("DELETE FROM hk").errors == []
        monkeypatch.undo()
        assert pieces() == had
        shapes = _traced(srv, c, 3)
        assert any("_ifx_lo_garbage" in q for q in shapes), shapes
        assert pieces() == 0
    finally:
        c.close()



def test_without_row_locks_an_autocommitted_insert_skips_the_smart_lob_check(
        srv_no_row_locks: Server) -> None:
    """The same skip on the path without row locks (``session_txn.run_write`` commits the
    unit through ``_end_sql_txn``): locks40 made it for ``rl_write`` only, so every
    autocommitted INSERT of a server started with ``--no-row-locks`` still ran the check
    (branch locks42). The -710 check's schema version read before the unit, and the one
    inside it, are that path's own."""
    srv = srv_no_row_locks
    c = RawClient(srv.host, srv.port)
    try:
        tf._dbopen(c, b"fx")
        c.sock.sendall(tf._prepare("t"))
        assert c.read_reply().errors == []
        check = ("SELECT EXISTS (SELECT ? FROM _ifx_lo_unref), "
                 "EXISTS (SELECT ? FROM _ifx_lo_garbage)")
        # the first commit asks (nothing known of the database yet, or what the setup left)
        _traced(srv, c, 8007)
        for value in (8008, 8009, 8010):
            # before: the smart-LOB check between the INSERT and the COMMIT, every time
            assert _traced(srv, c, value) == [
                "PRAGMA schema_version", "BEGIN IMMEDIATE", "PRAGMA schema_version",
                'INSERT INTO main."t" ("id", "s") VALUES (?, ?)', "COMMIT"], check
    finally:
        c.close()
