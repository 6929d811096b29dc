"""A read whose SQLite snapshot began before another session's ROLLBACK committed must not
return that transaction's rolled-back values (thirty-third session; a CI run under load saw
``test_row_locks.test_disconnect_rolls_back_and_releases`` read -9, the rolled-back value).

Row-lock mode writes at once and keeps the old row in an undo log (docs/SERVER.md, "Locks
and isolation"); a COMMITTED READ reader meets another session's uncommitted row through
its row lock (-244). When that session rolls back, the old values are committed back and
then the locks go: a reader whose snapshot had begun before the restore, reaching the row
after the release, found no lock and read the rolled-back value. Now such a row counts as
still locked for that read (features/locks/manager.py ``undone_since``): Informix would
have given the reader the row's lock error (or, a moment later, the restored value), never
a value no transaction committed. Over real sockets, one server, three sessions.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ROWS = 5000


@pytest.fixture()
def srv() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as server:
        c = ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                            autocommit=True)
        c.cursor().execute("CREATE DATABASE rs WITH LOG")
        c.close()
        yield server


def _connect(srv: Any) -> ifxwire.Connection:
    return ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                           database="rs", autocommit=True)


def test_a_snapshot_older_than_a_rollback_does_not_show_its_values(srv: Any) -> None:
    a, b, c = _connect(srv), _connect(srv), _connect(srv)
    try:
        cur = a.cursor()
        cur.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
        cur.executemany("INSERT INTO t VALUES (?, ?)", [(i, 10) for i in range(ROWS)])
        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET v = -9 WHERE id = ?", (ROWS - 5,))  # near the scan's end
        reader = b.cursor()
        reader.execute("SELECT id, v FROM t ORDER BY id")  # its snapshot begins here
        assert reader.fetchone() == (0, 10)
        a.close()  # the transaction is rolled back, its lock released
        deadline = time.monotonic() + 10
        while True:  # the rollback is done when a new read sees the old value
            got = c.cursor()
            try:
                got.execute("SELECT v FROM t WHERE id = ?", (ROWS - 5,))
                if got.fetchall() == [(10,)]:
                    break
            except ifxwire.Error:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.02)
        try:
            rest = reader.fetchall()
        except ifxwire.Error as e:
            assert e.sqlcode == -244  # the row's lock, as it was met a moment earlier
        else:
            values = {v for _, v in rest}
            assert -9 not in values, "a rolled-back value was read"
        # a new read sees the restored value
        assert list(b.cursor().execute("SELECT v FROM t WHERE id = ?", (ROWS - 5,))
                    .fetchall()) == [(10,)]
    finally:
        for conn in (b, c):
            conn.close()
