"""The DDL undo entries of row-lock mode (engine/features/locks/ddl_undo.py) on a bare SQLite
database laid out as the server's: what a statement created, changed or dropped, and what
``undo.apply`` then puts back (docs/SERVER.md, "DDL in a transaction")."""

from __future__ import annotations

import sqlite3

import pytest

from ifxwire.server.engine.features.locks import ddl_undo, undo


def _db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE systables (tabname TEXT, tabid INTEGER, tabtype TEXT)")
    conn.execute("CREATE TABLE kept (a INTEGER, b TEXT)")
    conn.execute("CREATE INDEX kept_a ON kept (a)")
    conn.execute("INSERT INTO systables VALUES ('kept', 100, 'T')")
    conn.executemany("INSERT INTO kept VALUES (?, ?)", [(1, "x"), (2, "y")])
    return conn


def _names(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master")}


def test_a_created_user_table_is_dropped_and_a_created_server_table_kept() -> None:
    """A server table made on first use is shared with other sessions' later rows: its undo
    deletes the statement's own rows and leaves the table; a user table is dropped."""
    conn = _db()
    before = ddl_undo.objects(conn)
    rows = ddl_undo.large_objects(conn)
    tables = ddl_undo.record(conn, before)
    conn.execute("CREATE TABLE fresh (c INTEGER)")
    conn.execute("CREATE INDEX fresh_c ON fresh (c)")
    conn.execute("INSERT INTO systables VALUES ('fresh', 101, 'T')")
    conn.execute("CREATE TABLE _ifx_firstuse (k INTEGER)")
    conn.execute("INSERT INTO _ifx_firstuse VALUES (7)")
    entries, created = ddl_undo.entries(conn, before, rows, {}, tables)
    assert created == ["fresh"]
    conn.execute("INSERT INTO _ifx_firstuse VALUES (8)")  # another session's, committed
    undo.apply(conn, entries)
    assert {"fresh", "fresh_c"}.isdisjoint(_names(conn))
    assert "_ifx_firstuse" in _names(conn)
    assert conn.execute("SELECT k FROM _ifx_firstuse").fetchall() == [(8,)]
    assert conn.execute("SELECT tabname FROM systables").fetchall() == [("kept",)]


def test_an_altered_table_comes_back_with_rows_and_indexes() -> None:
    conn = _db()
    before = ddl_undo.objects(conn)
    rows = ddl_undo.large_objects(conn)
    tables = ddl_undo.record(conn, before)
    assert ddl_undo.backup(conn, "kept", "_ifx_ddlbk_t_0")
    conn.execute("ALTER TABLE kept ADD COLUMN c INTEGER")
    conn.execute("DELETE FROM kept WHERE a = 1")
    entries, _ = ddl_undo.entries(conn, before, rows, {"kept": "_ifx_ddlbk_t_0"}, tables)
    undo.apply(conn, entries)
    assert [r[1] for r in conn.execute("PRAGMA table_info(kept)")] == ["a", "b"]
    assert conn.execute("SELECT rowid, a, b FROM kept ORDER BY a").fetchall() == [
        (1, 1, "x"), (2, 2, "y")]
    assert "kept_a" in _names(conn) and "_ifx_ddlbk_t_0" not in _names(conn)


def test_a_table_changed_without_a_copy_is_refused() -> None:
    """What the entries could not put back (here a table rebuilt that was not copied first):
    the caller runs the statement again escalated."""
    conn = _db()
    before = ddl_undo.objects(conn)
    rows = ddl_undo.large_objects(conn)
    tables = ddl_undo.record(conn, before)
    conn.execute("ALTER TABLE kept ADD COLUMN c INTEGER")
    with pytest.raises(ddl_undo.Unsupported):
        ddl_undo.entries(conn, before, rows, {}, tables)
