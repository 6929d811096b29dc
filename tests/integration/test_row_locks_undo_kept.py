"""The undo entries of a held SQLite transaction stay in memory until something commits it
(docs/SERVER.md, "Locks and isolation", "The undo log"; twenty-seventh session, issue 26 §3).

A session writing alone inside an Informix transaction keeps its SQLite transaction open
between statements (the held transaction, features/locks/latch.py). Its statements' before-
images used to be written to ``_ifx_undo`` by each statement (one INSERT per statement) and
deleted by COMMIT WORK (one DELETE): work for a kill -9 that takes the uncommitted SQLite
transaction back whole anyway. They are now written only when that transaction is committed
before the Informix COMMIT: by another session that needs the latch, by an escalation, or by
row-lock DDL. Checked through SQLite's trace of the session's connection (the statements it
runs), the file as another process reads it, and the data after ROLLBACK, COMMIT and a kill -9.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.server import Server

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[Server]:
    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as s:
        c = _connect(s.port, None)
        c.cursor().execute("CREATE DATABASE uk WITH LOG")
        c.close()
        c = _connect(s.port)
        c.cursor().execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
        c.cursor().executemany("INSERT INTO t VALUES (?, 0)", [(i,) for i in range(1, 9)])
        c.close()
        yield s


def _connect(port: int, database: str | None = "uk") -> Any:
    return ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                           database=database, autocommit=True)


def _conn_of(srv: Server, c: Any) -> sqlite3.Connection:
    """The SQLite connection of the server's session of client ``c``."""
    host, port = c._transport.sock.getsockname()[:2]
    (session,) = [s for s in list(srv._sessions) if s.peer == f"{host}:{port}"]
    conn: sqlite3.Connection = session.engine.conn
    return conn


def _undo_rows(srv: Server) -> int:
    """``_ifx_undo``'s committed rows, as another process reads the file."""
    raw = sqlite3.connect(os.path.join(srv.engine.path("uk")))
    try:
        return int(raw.execute("SELECT count(*) FROM _ifx_undo").fetchone()[0])
    finally:
        raw.close()


def _values(c: Any) -> list[int]:
    cur = c.cursor()
    cur.execute("SELECT v FROM t ORDER BY id")
    return [int(r[0]) for r in cur.fetchall()]


def _undo_statements(seen: list[str]) -> list[str]:
    return [q.split(" WHERE")[0].split(" VALUES")[0] for q in seen if "_ifx_undo" in q]


@pytest.mark.parametrize("verb", ["COMMIT", "ROLLBACK"])
def test_a_transaction_written_alone_writes_no_undo_rows(srv: Server, verb: str) -> None:
    """BEGIN WORK, three UPDATEs, COMMIT WORK (or ROLLBACK WORK) by a session alone: no
    statement of the transaction touches ``_ifx_undo`` when it commits (before: an INSERT per
    UPDATE and a DELETE at COMMIT WORK); a ROLLBACK still takes every change back."""
    a = _connect(srv.port)
    try:
        conn = _conn_of(srv, a)
        cur = a.cursor()
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        try:
            cur.execute("BEGIN WORK")
            for i in (1, 2, 3):
                cur.execute("UPDATE t SET v = v + ? WHERE id = ?", (10 * i, i))
            cur.execute(f"{verb} WORK")
        finally:
            conn.set_trace_callback(None)
        if verb == "COMMIT":
            assert _undo_statements(seen) == []
            assert _values(a) == [10, 20, 30, 0, 0, 0, 0, 0]
        else:
            # (ROLLBACK commits the held transaction with its images, then applies them:
            # the rolled-back changes' SERIALs are not given again, SERVER.md "Not yet")
            assert _values(a) == [0] * 8
        assert _undo_rows(srv) == 0
    finally:
        a.close()


def test_another_writer_commits_the_kept_images_with_the_held_transaction(
        srv: Server) -> None:
    """A second session's write commits the first one's held transaction for it: the
    images kept in memory go into that commit, in the order the changes were made, so the
    file has them (a kill -9 now would take the changes back: test below); a later UPDATE
    in a new held transaction keeps its own in memory again; ROLLBACK WORK restores all."""
    a, b = _connect(srv.port), _connect(srv.port)
    try:
        conn = _conn_of(srv, a)
        cur = a.cursor()
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET v = 1 WHERE id = 1")
        cur.execute("UPDATE t SET v = 2 WHERE id = 1")  # the same row again: two images
        assert _undo_rows(srv) == 0  # (held: nothing of it committed)
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        try:
            b.cursor().execute("UPDATE t SET v = 5 WHERE id = 5")  # needs the latch
        finally:
            conn.set_trace_callback(None)
        assert _undo_statements(seen) == ["INSERT INTO _ifx_undo"] * 2  # (executemany)
        assert _undo_rows(srv) == 2
        cur.execute("UPDATE t SET v = 3 WHERE id = 2")
        assert _undo_rows(srv) == 2
        cur.execute("ROLLBACK WORK")
        assert _values(b) == [0, 0, 0, 0, 5, 0, 0, 0]
        assert _undo_rows(srv) == 0
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET v = 7 WHERE id = 7")
        b.cursor().execute("UPDATE t SET v = 6 WHERE id = 6")
        cur.execute("UPDATE t SET v = 8 WHERE id = 8")
        cur.execute("COMMIT WORK")
        assert _values(b) == [0, 0, 0, 0, 5, 6, 7, 8]
        assert _undo_rows(srv) == 0  # the flushed image deleted by the COMMIT
    finally:
        a.close()
        b.close()


def test_an_escalation_writes_the_kept_images_into_its_transaction(srv: Server) -> None:
    """A SAVEPOINT escalates the held transaction (held to the end under SQLite's write
    lock, which may be committed before the Informix COMMIT: session_txn.run_write_alone):
    its images go into it at the escalation; its COMMIT deletes them, its ROLLBACK is
    SQLite's own."""
    a = _connect(srv.port)
    try:
        conn = _conn_of(srv, a)
        cur = a.cursor()
        for verb, want in (("ROLLBACK", [0] * 8), ("COMMIT", [4, 0, 0, 0, 0, 0, 0, 0])):
            cur.execute("BEGIN WORK")
            cur.execute("UPDATE t SET v = 4 WHERE id = 1")
            seen: list[str] = []
            conn.set_trace_callback(seen.append)
            try:
                cur.execute("SAVEPOINT s1")
            finally:
                conn.set_trace_callback(None)
            assert _undo_statements(seen) == ["INSERT INTO _ifx_undo"]
            cur.execute(f"{verb} WORK")
            assert _values(a) == want
            assert _undo_rows(srv) == 0
    finally:
        a.close()


def _start(data: Path) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "IFXWIRE_ROW_LOCKS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", "0", "--host",
                             "127.0.0.1", "--data", str(data), "--row-locks"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on [\d.]+:(\d+)", line)
        if m:
            return proc, int(m.group(1))
    raise AssertionError("the server did not start")


def test_kill_9_takes_back_a_held_transaction_committed_for_another(tmp_path: Path) -> None:
    """kill -9 after another session committed A's held transaction (its images with it)
    and A wrote again (kept in memory, uncommitted): after a restart none of A's changes
    is visible, B's committed one is."""
    data = tmp_path / "data"
    proc, port = _start(data)
    try:
        c = _connect(port, None)
        c.cursor().execute("CREATE DATABASE uk WITH LOG")
        c.close()
        c = _connect(port)
        c.cursor().execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
        c.cursor().executemany("INSERT INTO t VALUES (?, 0)", [(i,) for i in range(1, 9)])
        c.close()
        a, b = _connect(port), _connect(port)
        cur = a.cursor()
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET v = 1 WHERE id = 1")
        cur.execute("DELETE FROM t WHERE id = 2")
        cur.execute("INSERT INTO t VALUES (9, 9)")
        b.cursor().execute("UPDATE t SET v = 5 WHERE id = 5")  # commits A's held one
        cur.execute("UPDATE t SET v = 3 WHERE id = 3")
        cur.execute("UPDATE t SET v = 11 WHERE id = 1")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    proc, port = _start(data)
    try:
        c = _connect(port)
        cur = c.cursor()
        cur.execute("SELECT id, v FROM t ORDER BY id")
        got = [tuple(r) for r in cur.fetchall()]
        c.close()
    finally:
        proc.terminate()
        proc.wait(10)
    assert got == [(i, 5 if i == 5 else 0) for i in range(1, 9)]


def test_the_statements_of_a_transaction_written_alone(srv: Server) -> None:
    """The whole list of SQLite statements of BEGIN WORK, three UPDATEs and COMMIT WORK by a
    session alone (docs/BENCHMARKS.md, "Statements and GIL-releasing calls per row-lock
    transaction"): no undo row written or deleted, and no read of defer_foreign_keys at
    COMMIT WORK, since no DDL (SET CONSTRAINTS … DEFERRED, which escalates) ran in the
    transaction (before: 17 statements; now 12)."""
    a = _connect(srv.port)
    try:
        conn = _conn_of(srv, a)
        cur = a.cursor()
        cur.execute("BEGIN WORK")  # (warm: the statement prepared, its triggers made)
        cur.execute("UPDATE t SET v = v + 1 WHERE id = ?", (1,))
        cur.execute("COMMIT WORK")
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        try:
            cur.execute("BEGIN WORK")
            for i in (1, 2, 3):
                cur.execute("UPDATE t SET v = v + 1 WHERE id = ?", (i,))
            cur.execute("COMMIT WORK")
        finally:
            conn.set_trace_callback(None)
        # a lock trigger's firing repeats its statement's text: one statement
        shapes = [re.sub(r"\b\d+\b", "?", q).split(" AS ")[0].split(" (SELECT")[0]
                  for k, q in enumerate(seen) if k == 0 or q != seen[k - 1]]
        update = 'UPDATE main."t"'
        held = ["SAVEPOINT _ifx_rl", "PRAGMA schema_version", update, "RELEASE _ifx_rl"]
        assert shapes == (["BEGIN IMMEDIATE", "PRAGMA schema_version", update] + held * 2
                          + ["SELECT EXISTS", "COMMIT"])
        assert _values(a) == [2, 1, 1, 0, 0, 0, 0, 0]
    finally:
        a.close()


def test_a_deferred_constraint_still_has_commit_read_the_mode(srv: Server) -> None:
    """SET CONSTRAINTS ALL DEFERRED in the transaction (DDL: it escalates): COMMIT WORK reads
    defer_foreign_keys (the check of foreign keys kept by triggers runs only when it is on)."""
    a = _connect(srv.port)
    try:
        conn = _conn_of(srv, a)
        cur = a.cursor()
        seen: list[str] = []
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET v = 9 WHERE id = 1")
        cur.execute("SET CONSTRAINTS ALL DEFERRED")
        conn.set_trace_callback(seen.append)
        try:
            cur.execute("COMMIT WORK")
        finally:
            conn.set_trace_callback(None)
        assert "PRAGMA defer_foreign_keys" in seen
        assert _values(a)[0] == 9
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET v = 0 WHERE id = 1")
        seen.clear()
        conn.set_trace_callback(seen.append)
        try:
            cur.execute("COMMIT WORK")
        finally:
            conn.set_trace_callback(None)
        assert "PRAGMA defer_foreign_keys" not in seen  # the next transaction's: none
    finally:
        a.close()
