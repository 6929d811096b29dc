"""Row-lock mode and large BYTE values: found by running the suites with IFXWIRE_ROW_LOCKS=1
(docs/SERVER.md "Locks and isolation", "Before it can be the default"). A statement's SQLite
commit in row-lock mode did not run the object store's commit step, so BYTE/TEXT objects its
rows let go were never freed. Runs with row locks on whatever the environment says."""

from __future__ import annotations

import sqlite3
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
