"""Row-lock mode's undo log keeps a run of inserted rowids as one entry (features/locks/undo.py,
``coalesce``); applying the log must take back exactly what the per-row entries did."""

from __future__ import annotations

import sqlite3

from ifxwire.server.engine.features.locks import undo


def test_runs_of_one_table_become_j_entries() -> None:
    entries: list[undo.Entry] = [("t", "I", i, None) for i in (5, 6, 7, 9)] + [
        ("u", "I", 10, None), ("u", "I", 11, None), ("t", "U", 3, "[1]"),
        ("t", "I", 12, None), ("t", "I", 13, None)]
    assert undo.coalesce(entries) == [
        ("t", "J", 5, "7"), ("t", "I", 9, None), ("u", "J", 10, "11"), ("t", "U", 3, "[1]"),
        ("t", "J", 12, "13")]


def test_nothing_to_coalesce_is_the_same_list() -> None:
    entries: list[undo.Entry] = [("t", "D", 1, "[1]"), ("t", "U", 2, "[2]")]
    assert undo.coalesce(entries) is entries
    assert undo.coalesce([]) == []


def test_a_descending_or_repeated_rowid_starts_a_new_run() -> None:
    entries: list[undo.Entry] = [("t", "I", 3, None), ("t", "I", 2, None), ("t", "I", 2, None)]
    assert undo.coalesce(entries) == entries


def _table() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (v)")
    conn.executemany("INSERT INTO t (rowid, v) VALUES (?, ?)", [(i, f"v{i}") for i in range(1, 40)])
    return conn


def test_applying_coalesced_entries_equals_applying_the_rows() -> None:
    per_row: list[undo.Entry] = [("t", "I", i, None) for i in [*range(10, 20), 25, *range(30, 36)]]
    per_row.insert(4, ("t", "U", 2, undo.encode(["old2"])))
    results = []
    for entries in (per_row, undo.coalesce(per_row)):
        conn = _table()
        conn.execute("BEGIN")
        undo.apply(conn, entries)
        conn.execute("COMMIT")
        results.append(conn.execute("SELECT rowid, v FROM t ORDER BY rowid").fetchall())
    assert results[0] == results[1]
    assert [r for r, _ in results[0]] == [i for i in range(1, 40)
                                          if not (10 <= i < 20 or i == 25 or 30 <= i < 36)]
    assert (2, "old2") in results[0]
