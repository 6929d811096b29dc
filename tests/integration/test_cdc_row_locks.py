"""Change data capture under row locks (docs/CDC_SERVER.md "Row locks"), against the real embedded
server started with ``row_locks=True`` over sockets, with chunks of 3 changes.

Under row locks a transaction's statements are SQLite commits of their own (with undo
entries), other sessions' statements interleave with them, and the Informix COMMIT is the one
SQLite commit that deletes the undo entries: the captured rows are stashed in that commit.
These tests run two sessions whose transactions interleave (one rolls back), force the held
SQLite transaction of one to be committed by the other between its statements (so its spilled
chunks are in the file before its COMMIT), and check that only committed transactions are
streamed, in commit order, a rolled-back one as RBTX with its rows, a savepoint's rollback
drops its rows, and no chunk of a transaction that did not commit stays in the database.
(kill -9 under row locks: tests/integration/test_cdc_crash.py.)"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire import cdc
from ifxwire.cdc import EventKind as K
from ifxwire.server.engine.features.cdc import hub as hubmod

DB = "rlcdc"
TABLE = f"{DB}:t"


@pytest.fixture()
def rl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[dict[str, Any], Path]]:
    from ifxwire.server import Server

    monkeypatch.setattr(hubmod, "CHUNK", 3)
    data = tmp_path / "d"
    with Server(port=0, host="127.0.0.1", data=str(data), row_locks=True) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw, autocommit=True)
        try:
            c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
            c.cursor().execute(f"CREATE DATABASE {DB} WITH LOG")
            # LOCK MODE ROW: two sessions insert rows of one page (PAGE, the default, locks it)
            c.cursor().execute("CREATE TABLE t (id INTEGER, v INTEGER) LOCK MODE ROW")
            c.cursor().execute("CREATE TABLE u (id INTEGER)")  # not captured
        finally:
            c.close()
        r = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        try:  # full-row logging on
            with cdc.open_stream(r, tables=[TABLE], timeout=0) as st:
                next(iter(st))
        finally:
            r.close()
        yield kw, data


def _session(kw: dict[str, Any]) -> ifxwire.Connection:
    c = ifxwire.connect(**kw, database=DB, autocommit=True)
    c.cursor().execute("SET LOCK MODE TO WAIT 20")
    return c


def _stream(kw: dict[str, Any]) -> list[tuple[bool, list[tuple[str, int]], list[int]]]:
    """Every transaction from the start: (committed, [(kind, v)], sequences of its records)."""
    out: list[tuple[bool, list[tuple[str, int]], list[int]]] = []
    r = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
    try:
        with cdc.open_stream(r, tables=[TABLE], timeout=1, from_sequence=1) as st:
            rows: list[tuple[str, int]] = []
            seqs: list[int] = []
            for ev in st:
                if ev.kind is K.BEGIN:
                    rows, seqs = [], [ev.sequence]
                elif ev.kind in (K.INSERT, K.DELETE, K.UPDATE_BEFORE, K.UPDATE_AFTER):
                    rows.append((ev.kind.name, ev.row["v"]))
                    seqs.append(ev.sequence)
                elif ev.kind in (K.COMMIT, K.ROLLBACK):
                    seqs.append(ev.sequence)
                    out.append((ev.kind is K.COMMIT, rows, seqs))
                elif ev.kind is K.TIMEOUT:
                    break
    finally:
        r.close()
    return out


def _chunks(data: Path) -> int:
    c = sqlite3.connect(str(data / f"{DB}.ifxdb"))
    try:
        return int(c.execute("SELECT COUNT(*) FROM _ifx_cdc_chunk").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        c.close()


def _stashed_tokens(data: Path) -> set[int]:
    c = sqlite3.connect(str(data / f"{DB}.ifxdb"))
    try:
        return {int(r[0]) for r in c.execute(
            "SELECT json_extract(body, '$.chunked') FROM _ifx_cdc_stash WHERE body LIKE '{%'")}
    except sqlite3.OperationalError:
        return set()
    finally:
        c.close()


def _chunk_tokens(data: Path) -> set[int]:
    c = sqlite3.connect(str(data / f"{DB}.ifxdb"))
    try:
        return {int(r[0]) for r in c.execute("SELECT DISTINCT token FROM _ifx_cdc_chunk")}
    except sqlite3.OperationalError:
        return set()
    finally:
        c.close()


def test_interleaved_transactions_one_rolled_back(rl: tuple[dict[str, Any], Path]) -> None:
    """A and B write t in transactions whose statements alternate; each B statement needs
    the latch, so A's held SQLite transaction (with its chunks) is committed between A's
    statements. B updates and deletes its own rows and rolls back; A commits; then an
    autocommit INSERT. The stream: B as RBTX with every change, A committed whole, then the
    INSERT, numbers growing; B's chunks are gone from the database, A's are named by a
    stash row."""
    kw, data = rl
    a, b, c = _session(kw), _session(kw), _session(kw)
    try:
        ca, cb = a.cursor(), b.cursor()
        ca.execute("BEGIN WORK")
        cb.execute("BEGIN WORK")
        for i in range(4):
            ca.execute("INSERT INTO t VALUES (?, ?)", (i, 100 + i))
            cb.execute("INSERT INTO t VALUES (?, ?)", (10 + i, 200 + i))
        cb.execute("UPDATE t SET v = 300 WHERE id = 10")
        ca.execute("INSERT INTO t VALUES (4, 104)")
        cb.execute("DELETE FROM t WHERE id = 11")
        ca.execute("INSERT INTO u VALUES (1)")  # A's latch: B's held statements committed
        assert _chunks(data) >= 2  # both transactions' chunks are committed in the file
        cb.execute("ROLLBACK WORK")
        ca.execute("COMMIT WORK")
        c.cursor().execute("INSERT INTO t VALUES (99, 999)")
        cur = c.cursor()
        cur.execute("SELECT id, v FROM t ORDER BY id")
        assert cur.fetchall() == [(i, 100 + i) for i in range(5)] + [(99, 999)]
    finally:
        a.close()
        b.close()
        c.close()
    got = _stream(kw)
    b_rows = ([("INSERT", 200 + i) for i in range(4)]
              + [("UPDATE_BEFORE", 200), ("UPDATE_AFTER", 300), ("DELETE", 201)])
    assert [(ok, rows) for ok, rows, _ in got] == [
        (False, b_rows),
        (True, [("INSERT", 100 + i) for i in range(5)]),
        (True, [("INSERT", 999)]),
    ]
    seqs = [s for _, _, ss in got for s in ss]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert _chunk_tokens(data) <= _stashed_tokens(data)  # B's chunks deleted


def test_savepoint_rollback_after_flushed_chunks(rl: tuple[dict[str, Any], Path]) -> None:
    """A transaction whose chunks were committed before it escalated (a SAVEPOINT): ROLLBACK
    TO SAVEPOINT drops the rows after it; one that then commits streams the rest; one that
    rolls back streams RBTX and leaves no chunk behind."""
    kw, data = rl
    a, b = _session(kw), _session(kw)
    try:
        ca, cb = a.cursor(), b.cursor()
        for end in ("COMMIT WORK", "ROLLBACK WORK"):
            base = 1000 if end.startswith("COMMIT") else 2000
            ca.execute("BEGIN WORK")
            for i in range(4):
                ca.execute("INSERT INTO t VALUES (?, ?)", (i, base + i))
            cb.execute("INSERT INTO u VALUES (1)")  # A's held statements committed
            ca.execute("SAVEPOINT s1")  # escalates: SQLite's write lock to the end
            for i in range(4, 8):
                ca.execute("INSERT INTO t VALUES (?, ?)", (i, base + i))
            ca.execute("ROLLBACK TO SAVEPOINT s1")
            ca.execute("INSERT INTO t VALUES (9, ?)", (base + 9,))
            ca.execute(end)
    finally:
        a.close()
        b.close()
    got = _stream(kw)
    keep = [("INSERT", v) for v in (1000, 1001, 1002, 1003, 1009)]
    assert [(ok, rows) for ok, rows, _ in got] == [
        (True, keep), (False, [("INSERT", v) for v in (2000, 2001, 2002, 2003, 2009)])]
    assert _chunk_tokens(data) <= _stashed_tokens(data)


def test_two_sessions_concurrently(rl: tuple[dict[str, Any], Path]) -> None:
    """Two threads, each its own session, run transactions of 1-7 rows of t (chunks of 3)
    at once, a quarter rolled back, some autocommit INSERTs: every committed transaction is
    streamed once and whole, every rolled-back one as RBTX, in the order their COMMITs
    returned within each session, with numbers that only grow; nothing else."""
    kw, data = rl
    committed: dict[int, list[int]] = {}
    rolled: dict[int, list[int]] = {}
    order: dict[int, list[int]] = {0: [], 1: []}
    errors: list[BaseException] = []
    lock = threading.Lock()

    def writer(k: int) -> None:
        rnd = random.Random(27 + k)
        try:
            c = _session(kw)
            cur = c.cursor()
            for j in range(25):
                n = (k + 1) * 1000 + j * 10
                size = rnd.randint(1, 7)
                vals = [n + i for i in range(size)]
                if j % 5 == 4:
                    cur.execute("INSERT INTO t VALUES (?, ?)", (n, n))
                    vals = [n]
                    back = False
                else:
                    back = rnd.random() < 0.25
                    cur.execute("BEGIN WORK")
                    for v in vals:
                        cur.execute("INSERT INTO t VALUES (?, ?)", (v, v))
                    cur.execute("ROLLBACK WORK" if back else "COMMIT WORK")
                with lock:
                    (rolled if back else committed)[n] = vals
                    order[k].append(n)
            c.close()
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(k,)) for k in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors
    got = _stream(kw)
    seqs = [s for _, _, ss in got for s in ss]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    seen_ok = {rows[0][1]: [v for _, v in rows] for ok, rows, _ in got if ok}
    seen_rb = {rows[0][1]: [v for _, v in rows] for ok, rows, _ in got if not ok}
    assert len(seen_ok) + len(seen_rb) == len(got)  # none twice
    assert seen_ok == committed
    assert seen_rb == rolled
    for k in (0, 1):  # each session's transactions in the order they ended
        mine = [rows[0][1] for _, rows, _ in got if rows[0][1] // 1000 == k + 1]
        assert mine == order[k]
    assert _chunk_tokens(data) <= _stashed_tokens(data)
