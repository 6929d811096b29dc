"""REPEATABLE READ's row locks, two sessions over real sockets, each scenario in both orders
(docs/SERVER.md, "Isolation levels").

What Informix documents: Repeatable Read "asks the database server to put a lock on every row
the program examines and fetches. The locks that are placed are shareable for an ordinary
cursor and promotable for an update cursor. The locks are placed individually as each row is
examined. They are not released until the cursor closes or a transaction ends" (Guide to
SQL: Tutorial, ids_sqt_396); "no other process can modify any selected row during your
transaction or insert a row that meets the search criteria of your query" (SQL Syntax, SET
TRANSACTION, ids_sqs_1205). So an index lookup of row 1 locks row 1 only, a scan locks
every row it examines, and another session's write of a locked row is -346/-240 with -107
(or waits per SET LOCK MODE). Before, the reader took a SHARE lock on the whole table.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"
ORDERS = [(0, 1), (1, 0)]
_NUMBERS = itertools.count(1)


@pytest.fixture(scope="module")
def iserver() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE rr WITH LOG")
        yield srv


@pytest.fixture(params=["ROW", "PAGE"])
def pair(iserver: Any, request: Any) -> Iterator[list[Any]]:
    """Two sessions (autocommit: BEGIN WORK starts a transaction) and a table of three rows
    with a primary key on ``id`` and no index on ``v``; in LOCK MODE PAGE each row is
    wide enough to have a page of its own (a 2 KB Informix page holds one 1500-byte row)."""
    conns = [ifxwire.connect(host=iserver.host, port=iserver.port, user=USER,
                             password=PASSWORD, database="rr", autocommit=True)
             for _ in range(2)]
    name = f"rr_{next(_NUMBERS)}"
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT, pad CHAR(1500)) "
                f"LOCK MODE {request.param}")
    cur.executemany(f"INSERT INTO {name} VALUES (?, ?, 'x')", [(i, i * 10) for i in (1, 2, 3)])
    for c in conns:
        c.table = name
    yield conns
    for c in conns:
        c.close()


def _err(excinfo: pytest.ExceptionInfo[Any]) -> tuple[int, int]:
    return (excinfo.value.sqlcode, excinfo.value.isamcode)


def _read(c: Any, sql: str) -> list[tuple[Any, ...]]:
    """``sql`` read under REPEATABLE READ in a transaction opened here."""
    c.cursor().execute("SET ISOLATION TO REPEATABLE READ")
    c.cursor().execute("BEGIN WORK")
    return list(c.cursor().execute(sql).fetchall())


@pytest.mark.parametrize("first,second", ORDERS)
def test_an_index_lookup_locks_only_the_row_it_reads(pair: list[Any], first: int,
                                                     second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    assert _read(b, f"SELECT v FROM {t} WHERE id = 1") == [(10,)]
    a.cursor().execute(f"UPDATE {t} SET v = 22 WHERE id = 2")  # another row: free
    a.cursor().execute(f"DELETE FROM {t} WHERE id = 3")
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = 11 WHERE id = 1")
    assert _err(e) == (-346, -107)
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"DELETE FROM {t} WHERE id = 1")
    assert _err(e) == (-240, -107)
    assert a.cursor().execute(f"SELECT v FROM {t} WHERE id = 1").fetchall() == [(10,)]
    assert b.cursor().execute(f"SELECT v FROM {t} WHERE id = 1").fetchall() == [(10,)]
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 11 WHERE id = 1")
    rows = b.cursor().execute(f"SELECT id, v FROM {t} ORDER BY id").fetchall()
    assert rows == [(1, 11), (2, 22)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_scan_locks_every_row_it_examines(pair: list[Any], first: int, second: int) -> None:
    """No index on ``v``: the query examines every row, and every row stays locked, also
    those its condition left out."""
    a, b = pair[first], pair[second]
    t = a.table
    assert _read(b, f"SELECT id FROM {t} WHERE v = 10") == [(1,)]
    for rid in (1, 2, 3):
        with pytest.raises(ifxwire.Error) as e:
            a.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = {rid}")
        assert _err(e) == (-346, -107)
    b.cursor().execute("ROLLBACK WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 3")


@pytest.mark.parametrize("first,second", ORDERS)
def test_an_insert_meets_the_reader_until_its_transaction_ends(pair: list[Any], first: int,
                                                               second: int) -> None:
    """No phantom row: another session's INSERT into a table a REPEATABLE READ transaction
    read is -271/-107 until that transaction ends (stricter than Informix, whose index key
    locks refuse only a row the query's criteria would find)."""
    a, b = pair[first], pair[second]
    t = a.table
    assert _read(b, f"SELECT v FROM {t} WHERE id = 9") == []
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"INSERT INTO {t} VALUES (9, 90, 'x')")
    assert _err(e) == (-271, -107)
    assert b.cursor().execute(f"SELECT v FROM {t} WHERE id = 9").fetchall() == []
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute(f"INSERT INTO {t} VALUES (9, 90, 'x')")


@pytest.mark.parametrize("first,second", ORDERS)
def test_the_reader_meets_a_written_row_it_examines(pair: list[Any], first: int,
                                                    second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = 33 WHERE id = 3")
    assert _read(b, f"SELECT v FROM {t} WHERE id = 1") == [(10,)]  # not examined: passes
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"SELECT v FROM {t} ORDER BY id").fetchall()
    assert _err(e) == (-244, -107)
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = 11 WHERE id = 1")  # b's lock on row 1
    assert _err(e) == (-346, -107)
    a.cursor().execute("COMMIT WORK")
    assert b.cursor().execute(f"SELECT v FROM {t} ORDER BY id").fetchall() == [
        (10,), (20,), (33,)]
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_a_writer_waits_for_the_readers_commit(pair: list[Any], first: int,
                                               second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    assert _read(b, f"SELECT v FROM {t} WHERE id = 2") == [(20,)]
    a.cursor().execute("SET LOCK MODE TO WAIT 20")
    done: list[float] = []

    def write() -> None:
        a.cursor().execute(f"UPDATE {t} SET v = 21 WHERE id = 2")
        done.append(time.monotonic())

    th = threading.Thread(target=write)
    th.start()
    time.sleep(0.5)
    assert not done  # waiting for b's shared lock
    committed = time.monotonic()
    b.cursor().execute("COMMIT WORK")
    th.join(25)
    assert done and done[0] >= committed
    assert b.cursor().execute(f"SELECT v FROM {t} WHERE id = 2").fetchall() == [(21,)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_lock_table_exclusive_meets_the_readers_row_locks(pair: list[Any], first: int,
                                                          second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    assert _read(b, f"SELECT v FROM {t} WHERE id = 1") == [(10,)]
    a.cursor().execute("BEGIN WORK")
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"LOCK TABLE {t} IN EXCLUSIVE MODE")
    assert e.value.sqlcode == -289
    a.cursor().execute(f"LOCK TABLE {t} IN SHARE MODE")  # S next to S
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_outside_a_transaction_repeatable_read_locks_nothing(pair: list[Any], first: int,
                                                             second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    b.cursor().execute("SET ISOLATION TO REPEATABLE READ")
    assert len(b.cursor().execute(f"SELECT v FROM {t}").fetchall()) == 3
    a.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    a.cursor().execute(f"INSERT INTO {t} VALUES (4, 40, 'x')")


# ---- SET TRANSACTION READ ONLY (ids_sqs_1207) ---------------------------------------------------

@pytest.mark.parametrize("first,second", ORDERS)
def test_a_read_only_transaction_refuses_its_writes(pair: list[Any], first: int,
                                                    second: int) -> None:
    """SET TRANSACTION READ ONLY: the transaction reads, and its INSERT, UPDATE, DELETE,
    CREATE TABLE (a temporary one too), GRANT and UPDATE STATISTICS are -878 "Invalid
    operation for a READ-ONLY transaction"; the refused statements change nothing and take
    no lock (the other session writes the same row); the mode ends with the transaction."""
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION READ ONLY")
    assert a.cursor().execute(f"SELECT v FROM {t} WHERE id = 1").fetchall() == [(10,)]
    for sql in (f"INSERT INTO {t} VALUES (7, 70, 'x')", f"UPDATE {t} SET v = 0 WHERE id = 1",
                f"DELETE FROM {t} WHERE id = 2", "CREATE TABLE ro_t (i INT)",
                "CREATE TEMP TABLE ro_tmp (i INT)", f"GRANT SELECT ON {t} TO PUBLIC",
                f"UPDATE STATISTICS FOR TABLE {t}"):
        with pytest.raises(ifxwire.Error) as e:
            a.cursor().execute(sql)
        assert e.value.sqlcode == -878, sql  # type: ignore[attr-defined]
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?, 'x')", [(8, 1), (9, 2)])
    assert e.value.sqlcode == -878  # type: ignore[attr-defined]
    b.cursor().execute(f"UPDATE {t} SET v = 12 WHERE id = 1")  # a's refusal locked nothing
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute("SET TRANSACTION READ WRITE")  # once per transaction
    assert e.value.sqlcode == -876  # type: ignore[attr-defined]
    a.cursor().execute("COMMIT WORK")
    a.cursor().execute("BEGIN WORK")  # the next transaction is READ WRITE again
    a.cursor().execute(f"UPDATE {t} SET v = 11 WHERE id = 1")
    a.cursor().execute("COMMIT WORK")
    assert b.cursor().execute(f"SELECT COUNT(*) FROM {t}").fetchone() == (3,)


def test_read_write_and_a_level_with_the_access_mode(pair: list[Any]) -> None:
    """READ WRITE (the default) writes; READ ONLY with an isolation level in one statement
    refuses writes and sets the level: the other session's update meets the REPEATABLE READ
    row lock."""
    a, b = pair
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION READ WRITE")
    a.cursor().execute(f"UPDATE {t} SET v = 11 WHERE id = 1")
    a.cursor().execute("COMMIT WORK")
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION READ ONLY, ISOLATION LEVEL SERIALIZABLE")
    assert a.cursor().execute(f"SELECT v FROM {t} WHERE id = 1").fetchall() == [(11,)]
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 2")
    assert e.value.sqlcode == -878  # type: ignore[attr-defined]
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    assert _err(e) == (-346, -107)
    a.cursor().execute("ROLLBACK WORK")
    b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
