"""The INSERT lock trigger's runs (features/locks/triggers.py, "Runs"), on a bare SQLite
connection: while ``_ifx_run`` names the table, a row continuing the run only moves its end
(no call of ``_ifx_lk``), a row off the run calls ``_ifx_lk`` as before, and the duplicate-key
image trigger stays quiet; with no run row every insert calls ``_ifx_lk``. (Through the
server the rowids of a batch are always consecutive, so the off-run rows are reached here,
with an INTEGER PRIMARY KEY, SQLite's rowid alias, given out of order.)"""

from __future__ import annotations

import sqlite3

from ifxwire.server.engine.features.locks.triggers import RUN_TABLE, LockTriggers


def _conn() -> tuple[sqlite3.Connection, list[tuple[object, ...]]]:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)")
    calls: list[tuple[object, ...]] = []

    def lk(*args: object) -> int:
        calls.append(args)
        return 0

    conn.create_function("_ifx_lk", -1, lk)
    lt = LockTriggers.bind(conn)
    lt.install(conn, ["t"], add=["t"])
    assert lt.has("t")
    return conn, calls


def test_without_a_run_every_insert_calls_ifx_lk() -> None:
    conn, calls = _conn()
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(k, str(k)) for k in (5, 6, 3)])
    assert [c[:3] for c in calls if c[1] == "I"] == [("t", "I", 5), ("t", "I", 6), ("t", "I", 3)]
    assert [c for c in calls if c[1] == "N"] == [("t", "N", 0, 5, "5"), ("t", "N", 0, 6, "6"),
                                                 ("t", "N", 0, 3, "3")]


def test_a_run_keeps_consecutive_rowids_in_sql_and_calls_for_the_others() -> None:
    conn, calls = _conn()
    conn.execute("BEGIN")
    conn.execute(f"INSERT INTO temp.{RUN_TABLE} VALUES ('t', NULL, NULL)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(k, str(k)) for k in (5, 6, 7, 3, 4, 8, 20)])
    assert conn.execute(f"SELECT tab, lo, hi FROM temp.{RUN_TABLE}").fetchall() == [("t", 5, 8)]
    assert calls == [("t", "I", 3), ("t", "I", 4), ("t", "I", 20)]
    conn.execute("ROLLBACK")  # the run row goes with the unit
    assert conn.execute(f"SELECT count(*) FROM temp.{RUN_TABLE}").fetchone() == (0,)


def test_a_run_of_another_table_does_not_capture_this_one() -> None:
    conn, calls = _conn()
    conn.execute(f"INSERT INTO temp.{RUN_TABLE} VALUES ('other', NULL, NULL)")
    conn.execute("INSERT INTO t VALUES (1, 'x')")
    assert calls == [("t", "N", 0, 1, "x"), ("t", "I", 1)]
    assert conn.execute(f"SELECT lo, hi FROM temp.{RUN_TABLE}").fetchone() == (None, None)
