"""A failed statement's inserted rows lose their row locks with them (issue 23 leftover,
thirty-second session): SQLite gives a table's next row the largest rowid plus one, so a
rolled-back INSERT's rowid is the next one another session's INSERT takes. The lock stayed
with the failed session to the end of its transaction, and that INSERT got -271 (ISAM
-107) where Informix inserts. docs/SERVER.md "A failed INSERT's row locks"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire
from ifxwire.server import Server


@pytest.fixture()
def pair(tmp_path: Path) -> Iterator[tuple[ifxwire.Connection, ifxwire.Connection]]:
    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw, autocommit=True)
        c.execute("CREATE DATABASE fi WITH LOG")
        c.close()
        a = ifxwire.connect(**kw, database="fi", autocommit=True)
        b = ifxwire.connect(**kw, database="fi", autocommit=True)
        a.execute("CREATE TABLE t (k INT UNIQUE, note CHAR(8)) LOCK MODE ROW")
        a.execute("CREATE TABLE src (k INT)")
        a.execute("INSERT INTO src VALUES (1)")
        a.execute("INSERT INTO src VALUES (1)")  # the second copy fails the UNIQUE
        a.execute("INSERT INTO t VALUES (0, 'old')")
        b.execute("SET LOCK MODE TO NOT WAIT")
        yield a, b
        a.close()
        b.close()


def _rows(c: ifxwire.Connection) -> list[tuple[int, str]]:
    return sorted((k, n.strip()) for k, n in c.execute("SELECT k, note FROM t").fetchall())


def _fail_insert_select(a: ifxwire.Connection) -> None:
    with pytest.raises(ifxwire.IntegrityError) as e:
        a.execute("INSERT INTO t (k) SELECT k FROM src")  # inserts k=1, then fails
    assert e.value.sqlcode == -268


@pytest.mark.parametrize("before", ["none", "update", "insert"])
def test_a_failed_insert_leaves_no_lock_on_its_rowid(
        pair: tuple[ifxwire.Connection, ifxwire.Connection], before: str) -> None:
    # before: the transaction's earlier work (none: its SQLite unit is the statement's;
    # update or insert: the statement is a savepoint of the held unit)
    a, b = pair
    a.execute("BEGIN WORK")
    if before == "update":
        a.execute("UPDATE t SET note = 'upd' WHERE k = 0")
    elif before == "insert":
        a.execute("INSERT INTO t VALUES (5, 'a5')")
    _fail_insert_select(a)
    b.execute("INSERT INTO t VALUES (7, 'b')")  # was -271 / ISAM -107
    a.execute("INSERT INTO t VALUES (8, 'a8')")  # a's transaction goes on
    a.execute("ROLLBACK WORK")
    assert _rows(b) == [(0, "old"), (7, "b")]


def test_a_failed_insert_in_a_routine_leaves_no_lock(
        pair: tuple[ifxwire.Connection, ifxwire.Connection]) -> None:
    a, b = pair
    # the routine's first INSERT stays (a routine's finished statements are not taken back
    # by a later one's failure); its INSERT ... SELECT fails after inserting k=1
    a.execute("CREATE PROCEDURE twice() INSERT INTO t VALUES (3, 'p'); "
              "INSERT INTO t (k, note) SELECT k, 'q' FROM src; END PROCEDURE")
    a.execute("BEGIN WORK")
    a.execute("UPDATE t SET note = 'upd' WHERE k = 0")
    with pytest.raises(ifxwire.IntegrityError):
        a.execute("EXECUTE PROCEDURE twice()")
    b.execute("INSERT INTO t VALUES (7, 'b')")
    a.execute("COMMIT WORK")
    assert _rows(b) == [(0, "upd"), (3, "p"), (7, "b")]


def test_a_rowid_the_transaction_deleted_keeps_its_lock(
        pair: tuple[ifxwire.Connection, ifxwire.Connection]) -> None:
    # the failed INSERT takes the rowid of the row a deleted: that lock is the DELETE's,
    # which ROLLBACK WORK needs to put the row back; b's INSERT meets it as before
    a, b = pair
    a.execute("INSERT INTO t VALUES (2, 'last')")
    a.execute("BEGIN WORK")
    a.execute("DELETE FROM t WHERE k = 2")
    _fail_insert_select(a)
    with pytest.raises(ifxwire.DatabaseError) as e:
        b.execute("INSERT INTO t VALUES (7, 'b')")
    assert (e.value.sqlcode, e.value.isamcode) == (-271, -107)
    a.execute("ROLLBACK WORK")
    b.execute("INSERT INTO t VALUES (7, 'b')")
    assert _rows(b) == [(0, "old"), (2, "last"), (7, "b")]
