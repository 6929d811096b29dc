"""The INSERT lock triggers dropped for a batch and made again (features/locks/triggers.py,
"Batches without the INSERT triggers"), on a bare SQLite connection: suspended, no insert
calls ``_ifx_lk``; resumed, the same triggers (names, text) are back and every insert calls
it; a rollback of the unit brings back the state before the drop; a table whose INTEGER
PRIMARY KEY is its rowid is never suspended (its rowids are the statement's, not a run)."""

from __future__ import annotations

import sqlite3

from ifxwire.server.engine.features.locks.triggers import LockTriggers


def _conn(cols: str = "id INT PRIMARY KEY, v TEXT"
          ) -> tuple[sqlite3.Connection, LockTriggers, list[tuple[object, ...]]]:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute(f"CREATE TABLE t ({cols})")
    calls: list[tuple[object, ...]] = []

    def lk(*args: object) -> int:
        calls.append(args)
        return 0

    conn.create_function("_ifx_lk", -1, lk)
    lt = LockTriggers.bind(conn)
    lt.install(conn, ["t"], add=["t"])
    assert lt.has("t")
    return conn, lt, calls


def _triggers(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    return [(str(n), str(s)) for n, s in conn.execute(
        "SELECT name, sql FROM temp.sqlite_master WHERE type = 'trigger' ORDER BY name")]


def test_suspended_inserts_call_nothing_and_resume_brings_the_same_triggers() -> None:
    conn, lt, calls = _conn()
    before = _triggers(conn)
    made = lt.made
    assert not lt.suspend_inserts(conn, "t")  # outside a transaction: refused, nothing dropped
    conn.execute("BEGIN")
    assert lt.suspend_inserts(conn, "t")
    assert [n for n, _ in _triggers(conn)] == [n for n, _ in before if n[-2:] in ("_u", "_d")]
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(k, str(k)) for k in range(5)])
    assert calls == []
    lt.resume_inserts(conn, "t")
    assert _triggers(conn) == before and lt.made == made and lt.count() == lt.listed(conn)
    conn.execute("INSERT INTO t VALUES (9, '9')")
    assert [c[:2] for c in calls] == [("t", "N"), ("t", "I")]
    conn.execute("COMMIT")
    assert _triggers(conn) == before


def test_a_rollback_after_the_drop_brings_the_triggers_back() -> None:
    conn, lt, calls = _conn()
    before = _triggers(conn)
    conn.execute("BEGIN")
    assert lt.suspend_inserts(conn, "t")
    conn.execute("ROLLBACK")
    assert _triggers(conn) == before
    conn.execute("INSERT INTO t VALUES (1, '1')")
    assert [c[:2] for c in calls] == [("t", "N"), ("t", "I")]


def test_a_rowid_alias_table_is_never_suspended() -> None:
    conn, lt, calls = _conn("id INTEGER PRIMARY KEY, v TEXT")
    conn.execute("BEGIN")
    assert not lt.suspend_inserts(conn, "t")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(k, str(k)) for k in (5, 3)])
    assert calls == [("t", "I", 5), ("t", "I", 3)]
