"""The change log's crash-safety rules (features/cdc/hub.py, docs/CDC_SERVER.md "Crash safety"),
on the Hub itself with real SQLite files: a transaction numbered earlier and appended later is
never skipped by a reader, and a stashed transaction is recovered once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ifxwire.protocol import cdc as rec
from ifxwire.server.engine.features.cdc.hub import LOG_NAME, STASH, Change, Hub, Pending


def _pending(v: int) -> Pending:
    p = Pending({"d:t": [("id", "INTEGER")]}, 1)
    p.add(Change(rec.INSERT, "d:t", (v,)))
    return p


def _db(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def test_reader_waits_for_a_transaction_numbered_before_one_appended(tmp_path: Path) -> None:
    hub = Hub(str(tmp_path / LOG_NAME), str(tmp_path))
    a, b = _db(tmp_path / "a.ifxdb"), _db(tmp_path / "b.ifxdb")
    first, second = _pending(1), _pending(2)
    for conn, p in ((a, first), (b, second)):
        conn.execute("BEGIN IMMEDIATE")
        hub.stash(conn, p, 0)
        conn.execute("COMMIT")
    assert first.txn is not None and second.txn is not None
    assert first.txn.begin_seq < second.txn.begin_seq
    hub.append(second, True, 0)  # the later one is logged first
    assert hub.read_from(1) == []  # not visible: the earlier one may still come
    hub.append(first, True, 0)
    assert [t.changes[0].values for t in hub.read_from(1)] == [(1,), (2,)]


def test_stashed_transaction_is_recovered_once(tmp_path: Path) -> None:
    hub = Hub(str(tmp_path / LOG_NAME), str(tmp_path))
    hub.append(_pending(1), True, 0)
    conn = _db(tmp_path / "a.ifxdb")
    p = _pending(2)
    conn.execute("BEGIN IMMEDIATE")
    hub.stash(conn, p, 0)
    conn.execute("COMMIT")  # ... and the server dies before hub.append
    rolled = _pending(3)
    conn.execute("BEGIN IMMEDIATE")
    hub.stash(conn, rolled, 0)
    conn.execute("ROLLBACK")  # numbered, never committed: not recovered
    hub.db.close()
    for _ in range(2):  # two restarts: recovered the first time, not repeated the second
        again = Hub(str(tmp_path / LOG_NAME), str(tmp_path))
        got = again.read_from(1)
        assert [t.changes[0].values for t in got] == [(1,), (2,)]
        assert all(t.committed for t in got)
        assert again.next_seq > got[-1].end_seq  # numbers keep growing
        again.db.close()
    assert conn.execute(f"SELECT COUNT(*) FROM {STASH}").fetchone() == (1,)
