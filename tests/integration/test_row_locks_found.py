"""Bugs of row-lock mode found by running the suites with IFXWIRE_ROW_LOCKS=1 (docs/SERVER.md
"Locks and isolation", "Before it can be the default"): its SQLite commits skipped the end of
transaction work of ``EngineSession._end_sql_txn`` (BYTE/TEXT objects let go were never freed;
CDC got no rows). Runs with row locks on whatever the environment says."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.server.engine.features.lobs import lobstore

BIG = 2 * lobstore.INLINE_MAX  # lives in the object store, not in the row


@pytest.fixture()
def rl(tmp_path: Path) -> Iterator[tuple[Any, ifxwire.Connection]]:
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                            autocommit=True)
        c.execute("CREATE DATABASE rlb WITH LOG")
        c.execute("DATABASE rlb")
        c.execute("CREATE TABLE bs (id INT, b BYTE)")
        yield srv, c
        c.close()


def _objects(srv: Any) -> int:
    with sqlite3.connect(f"file:{srv.engine.path('rlb')}?mode=ro", uri=True) as db:
        return lobstore.LoStore(db, "00").counts()[0]


def test_byte_objects_are_freed_by_a_statement_outside_a_transaction(
        rl: tuple[Any, ifxwire.Connection]) -> None:
    srv, c = rl
    c.execute("INSERT INTO bs VALUES (1, ?)", (b"x" * BIG,))
    assert _objects(srv) == 1
    c.execute("UPDATE bs SET b = NULL")
    assert _objects(srv) == 0


def test_byte_objects_are_kept_by_rollback_and_freed_at_commit(
        rl: tuple[Any, ifxwire.Connection]) -> None:
    srv, c = rl
    c.execute("INSERT INTO bs VALUES (1, ?)", (b"y" * BIG,))
    c.execute("BEGIN WORK")
    c.execute("DELETE FROM bs")
    c.execute("ROLLBACK WORK")  # the undo log restores the row and its reference
    assert _objects(srv) == 1
    assert c.execute("SELECT b FROM bs").fetchone()[0] == b"y" * BIG
    c.execute("BEGIN WORK")
    c.execute("DELETE FROM bs")
    c.execute("COMMIT WORK")
    assert _objects(srv) == 0


def test_insert_select_does_not_copy_another_sessions_uncommitted_rows(tmp_path: Path) -> None:
    # Found: only queries went through the COMMITTED READ filter; INSERT ... SELECT read the
    # source table dirty (writes are applied at once) and copied an uncommitted row.
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "s"), row_locks=True) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw, autocommit=True)
        c.execute("CREATE DATABASE s WITH LOG")
        c.close()
        a = ifxwire.connect(**kw, database="s", autocommit=True)
        b = ifxwire.connect(**kw, database="s", autocommit=True)
        a.execute("CREATE TABLE src (k INT)")
        a.execute("CREATE TABLE dst (k INT)")
        a.execute("INSERT INTO src VALUES (5)")
        a.execute("BEGIN WORK")
        a.execute("INSERT INTO src VALUES (1)")
        with pytest.raises(ifxwire.DatabaseError) as e:
            b.execute("INSERT INTO dst SELECT k FROM src")
        assert e.value.isamcode == -107
        b.execute("SET ISOLATION TO DIRTY READ")  # reads it, as Informix's DIRTY READ does
        b.execute("INSERT INTO dst SELECT k FROM src WHERE k = 1")
        b.execute("SET ISOLATION TO COMMITTED READ")
        b.execute("SET LOCK MODE TO WAIT 5")
        threading.Timer(0.3, a.rollback).start()
        b.execute("INSERT INTO dst SELECT k FROM src")  # waits for the rollback, then runs
        assert sorted(r[0] for r in b.execute("SELECT k FROM dst").fetchall()) == [1, 5]
        a.close()
        b.close()
