"""kill -9 and change data capture: no committed transaction is lost to the stream or
delivered twice (issue 27, docs/CDC_SERVER.md "Crash safety").

A transaction's captured rows are stashed in its own database in the same SQLite commit as its
data, moved to the change log (``syscdcv1.cdclog``) after it, and recovered from the stash when
a restarted server opens the log. Two tests against a real server process:

* deterministic: the change log is held locked by this process, so the server commits a
  transaction's data and then waits to log it; it is killed in that window. Before the stash,
  that transaction was in the table and never in the stream.
* random: two writers (one per database) commit and roll back transactions, and run
  autocommit statements, while a capture reads; the server is killed at random moments and
  restarted, four times. Every transaction a writer saw committed is in the stream exactly
  once and whole; none rolled back is; one in flight at a kill appears at most once. (The
  first run of this test also caught a session's first DML racing another's creation of
  the hub and going uncaptured, features/cdc/hub.py ``existing_hub``.)
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from _cdc_support import start_server_process

import ifxwire
from ifxwire import cdc
from ifxwire.cdc import EventKind as K

TABLE = "crash:t"
TABLES = [TABLE, "crashb:t"]  # the random test's writers, one per database


def _kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)


def _connect(port: int, **kw: Any) -> ifxwire.Connection:
    return ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           read_timeout=30, **kw)


def _setup(port: int, tables: list[str]) -> None:
    c = _connect(port, autocommit=True)
    try:
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        for t in tables:
            db = t.split(":")[0]
            c.cursor().execute(f"CREATE DATABASE {db} WITH LOG")
            # LOCK MODE ROW: under --row-locks two writers insert rows of one page
            c.cursor().execute("CREATE TABLE t (id INTEGER, v INTEGER) LOCK MODE ROW")
    finally:
        c.close()
    r = _connect(port, database="syscdcv1", autocommit=True)
    try:  # full-row logging on (it stays on after the stream closes)
        with cdc.open_stream(r, tables=tables, timeout=0) as st:
            next(iter(st))
    finally:
        r.close()


def _drain(port: int, start: int | None, tables: list[str] | None = None
           ) -> tuple[list[tuple[int, bool, list[int]]], int | None]:
    """Every transaction after ``start`` until a TIMEOUT: (last id's v, committed, the v
    of each inserted row), and the last COMMIT's sequence."""
    out: list[tuple[int, bool, list[int]]] = []
    r = _connect(port, database="syscdcv1", autocommit=True)
    try:
        with cdc.open_stream(r, tables=tables or [TABLE], timeout=1,
                             from_sequence=start) as st:
            rows: list[int] = []
            for ev in st:
                if ev.kind is K.BEGIN:
                    rows = []
                elif ev.kind is K.INSERT:
                    rows.append(ev.row["v"])
                elif ev.kind in (K.COMMIT, K.ROLLBACK):
                    out.append((rows[0] if rows else -1, ev.kind is K.COMMIT, rows))
                    if ev.kind is K.COMMIT:
                        start = ev.sequence
                elif ev.kind is K.TIMEOUT:
                    break
    finally:
        r.close()
    return out, start


def test_kill_9_between_commit_and_log_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, port = start_server_process(data)
    try:
        _setup(port, [TABLE])
        w = _connect(port, database="crash", autocommit=True)
        w.cursor().execute("INSERT INTO t VALUES (1, 1)")  # logged normally
        # Hold the change log's write lock: the server's append waits for it (after COMMIT).
        held = sqlite3.connect(str(data / "syscdcv1.cdclog"), isolation_level=None)
        held.execute("BEGIN IMMEDIATE")
        done = threading.Event()

        def commit() -> None:
            with contextlib.suppress(Exception):
                w.cursor().execute("INSERT INTO t VALUES (2, 2)")
            done.set()

        th = threading.Thread(target=commit)
        th.start()
        time.sleep(1.5)  # the data is committed; the log append waits on the lock
        assert not done.is_set()  # (the hub's sqlite3 connection waits 5 s, its default)
    finally:
        _kill(proc)
    held.rollback()
    held.close()
    th.join(30)
    proc, port = start_server_process(data)
    try:
        c = _connect(port, database="crash")
        cur = c.cursor()
        cur.execute("SELECT id FROM t ORDER BY id")
        assert cur.fetchall() == [(1,), (2,)]  # the second insert did commit
        c.close()
        got, _ = _drain(port, 1)
        assert got == [(1, True, [1]), (2, True, [2])]
        # a second open of the log does not recover it again, and numbers keep growing
        c = _connect(port, database="crash", autocommit=True)
        c.cursor().execute("INSERT INTO t VALUES (3, 3)")
        c.close()
    finally:
        _kill(proc)
    proc, port = start_server_process(data)
    try:
        got, _ = _drain(port, 1)
    finally:
        proc.terminate()
        proc.wait(10)
    assert got == [(1, True, [1]), (2, True, [2]), (3, True, [3])]


def test_kill_9_mid_commit_of_a_chunked_transaction_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A transaction of 3 chunks (IFXWIRE_CDC_CHUNK=4, 11 rows): its chunks were spilled into
    its database inside its SQLite transaction and committed with it; the server is killed
    while the log append waits. The restarted server recovers it from the stash and its chunks
    once, whole and in order, also after a second restart."""
    monkeypatch.setenv("IFXWIRE_CDC_CHUNK", "4")
    data = tmp_path / "data"
    proc, port = start_server_process(data)
    try:
        _setup(port, [TABLE])
        w = _connect(port, database="crash")  # a transaction
        held = sqlite3.connect(str(data / "syscdcv1.cdclog"), isolation_level=None)
        held.execute("BEGIN IMMEDIATE")
        done = threading.Event()

        def commit() -> None:
            with contextlib.suppress(Exception):
                w.cursor().executemany("INSERT INTO t VALUES (?, ?)",
                                       [(i, 100 + i) for i in range(11)])
                w.commit()
            done.set()

        th = threading.Thread(target=commit)
        th.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not done.is_set():  # until the COMMIT is in
            check = sqlite3.connect(str(data / "crash.ifxdb"))
            try:
                if check.execute("SELECT COUNT(*) FROM t").fetchone() == (11,):
                    break
            except sqlite3.Error:
                pass
            finally:
                check.close()
            time.sleep(0.1)
        time.sleep(0.5)
        assert not done.is_set()  # the append still waits on the log's lock
        chunks = sqlite3.connect(str(data / "crash.ifxdb"))
        assert chunks.execute("SELECT COUNT(*) FROM _ifx_cdc_chunk").fetchone()[0] >= 2
        chunks.close()
    finally:
        _kill(proc)
    held.rollback()
    held.close()
    th.join(30)
    for _ in range(2):
        proc, port = start_server_process(data)
        try:
            got, _ = _drain(port, 1)
        finally:
            _kill(proc)
        assert got == [(100, True, list(range(100, 111)))]
    # the next captured commit of the database deletes the logged transaction's chunks
    proc, port = start_server_process(data)
    try:
        c = _connect(port, database="crash", autocommit=True)
        c.cursor().execute("INSERT INTO t VALUES (20, 20)")
        c.close()
        got, _ = _drain(port, 1)
    finally:
        proc.terminate()
        proc.wait(10)
    assert got[-1] == (20, True, [20])
    check = sqlite3.connect(str(data / "crash.ifxdb"))
    assert check.execute("SELECT COUNT(*) FROM _ifx_cdc_chunk").fetchone() == (0,)
    check.close()


@pytest.mark.parametrize("chunk", ["", "2", "2 row-locks"])
def test_kill_9_at_random_moments_delivers_each_commit_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: str) -> None:
    """With chunk "2", transactions of 3 and 4 rows are chunked (IFXWIRE_CDC_CHUNK). With
    "row-locks" the server runs with --row-locks and both writers write the same table at
    once, their transactions' statements interleaved (docs/CDC_SERVER.md "Row locks"): chunks
    committed by a statement of a transaction the kill left open are swept at the restart."""
    row_locks = chunk.endswith("row-locks")
    chunk = chunk.split()[0] if chunk else ""
    if chunk:
        monkeypatch.setenv("IFXWIRE_CDC_CHUNK", chunk)
    # said both ways: the subprocess server would otherwise take the default or the run's
    monkeypatch.setenv("IFXWIRE_ROW_LOCKS", "1" if row_locks else "0")
    writers = [TABLE, TABLE] if row_locks else TABLES
    rnd = random.Random(int(os.environ.get("IFXWIRE_CRASH_SEED", "27")))
    data = tmp_path / "data"
    proc, port = start_server_process(data)
    acked: set[int] = set()  # transactions whose COMMIT returned
    rolled: set[int] = set()  # rolled back on purpose
    doubt: set[int] = set()  # in flight at a kill: committed or not
    sizes: dict[int, int] = {}
    seen: list[tuple[int, bool, list[int]]] = []
    position: int | None = 1  # the log's start: nothing committed before the reader
    counter = [0]
    count_lock = threading.Lock()
    try:
        _setup(port, TABLES)
    finally:
        proc.terminate()
        proc.wait(10)
    for _round in range(4):
        proc, port = start_server_process(data)
        stop = threading.Event()

        def writer(db: str, port: int = port, stop: threading.Event = stop) -> None:
            try:
                w = _connect(port, database=db, autocommit=True)
                cur = w.cursor()
                cur.execute("SET LOCK MODE TO WAIT 10")  # (row locks: the other writer)
            except Exception:
                return
            while not stop.is_set():
                with count_lock:
                    counter[0] += 1
                    n = counter[0]
                auto = n % 3 == 0
                size = 1 if auto else rnd.randint(1, 4)
                sizes[n] = size
                back = not auto and rnd.random() < 0.25
                doubt.add(n)
                try:
                    if auto:
                        cur.execute("INSERT INTO t VALUES (?, ?)", (n, n))
                    else:
                        cur.execute("BEGIN WORK")
                        for k in range(size):
                            cur.execute("INSERT INTO t VALUES (?, ?)", (n * 10 + k, n))
                        cur.execute("ROLLBACK WORK" if back else "COMMIT WORK")
                except Exception:
                    return  # the kill: n stays in doubt
                doubt.discard(n)
                (rolled if back else acked).add(n)

        def reader(port: int = port, stop: threading.Event = stop) -> None:
            nonlocal position
            try:
                r = _connect(port, database="syscdcv1", autocommit=True)
                with cdc.open_stream(r, tables=TABLES, timeout=1,
                                     from_sequence=position) as st:
                    rows: list[int] = []
                    for ev in st:
                        if ev.kind is K.BEGIN:
                            rows = []
                        elif ev.kind is K.INSERT:
                            rows.append(ev.row["v"])
                        elif ev.kind in (K.COMMIT, K.ROLLBACK):
                            seen.append((rows[0], ev.kind is K.COMMIT, rows))
                            if ev.kind is K.COMMIT:
                                position = ev.sequence
                        if stop.is_set():
                            return
            except Exception:
                return  # the kill

        threads = [threading.Thread(target=writer, args=(t.split(":")[0],)) for t in writers]
        threads.append(threading.Thread(target=reader))
        for th in threads:
            th.start()
        try:
            time.sleep(rnd.uniform(0.5, 2.0))
        finally:
            _kill(proc)
            stop.set()
        for th in threads:
            th.join(30)
    proc, port = start_server_process(data)
    try:
        rest, _ = _drain(port, position, TABLES)
    finally:
        proc.terminate()
        proc.wait(10)
    seen.extend(rest)
    committed = [t for t in seen if t[1]]
    ids = [t[0] for t in committed]
    assert len(acked) > 10, len(acked)
    assert len(ids) == len(set(ids)), "a transaction delivered twice"
    assert acked <= set(ids), f"committed but not streamed: {sorted(acked - set(ids))}"
    assert set(ids) <= acked | doubt, "streamed but never committed"
    assert not set(ids) & rolled
    for n, _ok, rows in committed:
        assert rows == [n] * sizes[n], (n, rows)  # whole, not cut off


def test_kill_9_under_row_locks_drops_the_open_transactions_chunks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--row-locks, chunks of 2: a committed chunked transaction, then one left open whose
    statements (and chunks) another session's writes committed to the file one by one; kill
    -9. The restarted server's undo recovery takes back the open one's rows, and its chunks
    (no stash row names them) go with them; the stream has the committed one once, whole,
    also after a second restart, and never the open one."""
    monkeypatch.setenv("IFXWIRE_CDC_CHUNK", "2")
    data = tmp_path / "data"
    proc, port = start_server_process(data, "--row-locks")
    try:
        _setup(port, [TABLE])
        w = _connect(port, database="crash")
        o = _connect(port, database="crash", autocommit=True)
        o.cursor().execute("CREATE TABLE u (id INTEGER)")
        for i in range(5):
            w.cursor().execute("INSERT INTO t VALUES (?, ?)", (i, 100 + i))
        w.commit()
        for i in range(7):  # the open one: each statement committed by o's write
            w.cursor().execute("INSERT INTO t VALUES (?, ?)", (50 + i, 500 + i))
            o.cursor().execute("INSERT INTO u VALUES (?)", (i,))
        check = sqlite3.connect(str(data / "crash.ifxdb"))
        try:
            assert check.execute("SELECT COUNT(*) FROM t").fetchone() == (12,)
            tokens = {r[0] for r in check.execute("SELECT DISTINCT token FROM _ifx_cdc_chunk")}
            assert len(tokens) == 2  # the committed one's and the open one's
        finally:
            check.close()
    finally:
        _kill(proc)
    for _ in range(2):
        proc, port = start_server_process(data, "--row-locks")
        try:
            c = _connect(port, database="crash")
            cur = c.cursor()
            cur.execute("SELECT v FROM t ORDER BY v")
            assert [r[0] for r in cur.fetchall()] == list(range(100, 105))
            c.close()
            got, _ = _drain(port, 1)
        finally:
            _kill(proc)
        assert got == [(100, True, list(range(100, 105)))]
        check = sqlite3.connect(str(data / "crash.ifxdb"))
        try:
            left = {r[0] for r in check.execute("SELECT DISTINCT token FROM _ifx_cdc_chunk")}
            stashed = {r[0] for r in check.execute(
                "SELECT json_extract(body, '$.chunked') FROM _ifx_cdc_stash")}
            assert left and left <= stashed  # the open one's chunks are gone
        finally:
            check.close()


def _server_name(conn: ifxwire.Connection) -> str:
    cur = conn.cursor()
    cur.execute("SELECT env_value FROM sysmaster:sysenv WHERE env_name = 'INFORMIXSERVER'")
    row = cur.fetchone()
    assert row is not None
    return str(row[0]).strip()
