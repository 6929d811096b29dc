"""CURSOR STABILITY's lock on the current row and the ANSI REPEATABLE READ / SERIALIZABLE
forms, two sessions over real sockets, each scenario in both orders (docs/SERVER.md,
"Isolation levels").

What Informix documents: "Use the Cursor Stability option to place a shared lock on the
fetched row, which is released when you fetch another row or close the cursor ... no process
can acquire an exclusive lock to modify data in the row"; without a transaction Cursor
Stability "acts like the Committed Read isolation level" (SQL Syntax, ids_sqs_1166; also
Performance Guide ids_prf_428). SET TRANSACTION's REPEATABLE READ and SERIALIZABLE are
Informix's Repeatable Read (ids_sqs_1201's table), which share-locks what it read until the
transaction ends.

The server sends as many rows per fetch as fill the client's fetch buffer (at least 4096
bytes), and the row it holds the lock on is the last one it sent. So the rows here are wider
than that buffer (a CHAR(4100) column, fetched): one row per fetch, and the row the client's
cursor is on is the row the server locked.
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
_USERS = {USER: PASSWORD, "joe": "pw"}  # joe: another user (the shared-plan test)
ORDERS = [(0, 1), (1, 0)]
_NUMBERS = itertools.count(1)


@pytest.fixture(scope="module")
def iserver() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", row_locks=True, users=_USERS) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE iso WITH LOG")
        yield srv


@pytest.fixture()
def pair(iserver: Any) -> Iterator[list[Any]]:
    """Two sessions (autocommit: BEGIN WORK starts a transaction), a fetch buffer of 4096
    bytes, and a LOCK MODE ROW table of three rows each wider than that buffer."""
    conns = [ifxwire.connect(host=iserver.host, port=iserver.port, user=USER,
                             password=PASSWORD, database="iso", autocommit=True,
                             fetch_buffer_size=4096) for _ in range(2)]
    name = f"cs_{next(_NUMBERS)}"
    cur = conns[0].cursor()
    cur.execute(f"CREATE TABLE {name} (id INT PRIMARY KEY, v INT, pad CHAR(4100)) "
                "LOCK MODE ROW")
    cur.executemany(f"INSERT INTO {name} VALUES (?, ?, 'x')", [(i, i * 10) for i in (1, 2, 3)])
    for c in conns:
        c.table = name
    yield conns
    for c in conns:
        c.close()


def _err(excinfo: pytest.ExceptionInfo[Any]) -> tuple[int, int]:
    return (excinfo.value.sqlcode, excinfo.value.isamcode)


def _round_trip(c: Any) -> None:
    """A statement on ``c``, so that a CLOSE the driver defers has reached the server."""
    c.cursor().execute("SET LOCK MODE TO NOT WAIT")


def _on_first_row(b: Any, t: str) -> Any:
    """``b`` in a transaction under CURSOR STABILITY, its cursor over ``t`` on row 1."""
    b.cursor().execute("SET ISOLATION TO CURSOR STABILITY")
    b.cursor().execute("BEGIN WORK")
    cur = b.cursor()
    cur.execute(f"SELECT id, pad FROM {t} ORDER BY id")
    assert cur.fetchone()[0] == 1
    return cur


@pytest.mark.parametrize("first,second", ORDERS)
def test_cursor_stability_locks_the_row_the_cursor_is_on(pair: list[Any], first: int,
                                                         second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    cur = _on_first_row(b, t)
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    assert _err(e) == (-346, -107)
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"DELETE FROM {t} WHERE id = 1")
    assert _err(e) == (-240, -107)
    a.cursor().execute(f"UPDATE {t} SET v = -3 WHERE id = 3")  # not the cursor's row
    a.cursor().execute(f"SELECT v FROM {t} WHERE id = 1")  # a shared lock: readers pass
    assert cur.fetchone()[0] == 2  # the cursor moves: row 1 is free, row 2 is held
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = -2 WHERE id = 2")
    assert _err(e) == (-346, -107)
    cur.close()
    _round_trip(b)
    a.cursor().execute(f"UPDATE {t} SET v = -2 WHERE id = 2")  # closed: free, txn still open
    b.cursor().execute("COMMIT WORK")
    rows = a.cursor().execute(f"SELECT id, v FROM {t} ORDER BY id").fetchall()
    assert rows == [(1, -1), (2, -2), (3, -3)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_cursor_stability_writer_waits_until_the_cursor_moves(pair: list[Any], first: int,
                                                              second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    cur = _on_first_row(b, t)
    a.cursor().execute("SET LOCK MODE TO WAIT 10")
    done: list[object] = []

    def run() -> None:
        try:
            a.cursor().execute(f"UPDATE {t} SET v = v + 1 WHERE id = 1")
            done.append("ok")
        except ifxwire.Error as exc:  # reported below
            done.append((exc.sqlcode, exc.isamcode))

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.5)
    assert not done  # waits while the cursor is on row 1
    assert cur.fetchone()[0] == 2
    th.join(10)
    assert done == ["ok"]
    b.cursor().execute("COMMIT WORK")
    assert a.cursor().execute(f"SELECT v FROM {t} WHERE id = 1").fetchall() == [(11,)]


@pytest.mark.parametrize("first,second", ORDERS)
def test_cursor_stability_fetch_of_a_row_written_since_open_is_refused(
        pair: list[Any], first: int, second: int) -> None:
    """The cursor reads OPEN's snapshot: a row another session updated since (and holds)
    is not share-locked next to that session's lock but refused, -244/-107, as a lock met
    later in a long result is (REVIEW-locks F3: the lock was granted, and the writer then
    met it on its own row)."""
    a, b = pair[first], pair[second]
    t = a.table
    cur = _on_first_row(b, t)
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -2 WHERE id = 2")
    with pytest.raises(ifxwire.Error) as e:
        cur.fetchone()
    assert _err(e) == (-244, -107)
    a.cursor().execute(f"UPDATE {t} SET v = -22 WHERE id = 2")  # its own row: no conflict
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute("ROLLBACK WORK")
    rows = a.cursor().execute(f"SELECT id, v FROM {t} ORDER BY id").fetchall()
    assert rows == [(1, 10), (2, -22), (3, 30)]


@pytest.mark.parametrize("first,second", ORDERS)
@pytest.mark.parametrize("level,in_txn", [("CURSOR STABILITY", False),
                                          ("COMMITTED READ", True)])
def test_no_cursor_lock_outside_cursor_stability_or_a_transaction(
        pair: list[Any], first: int, second: int, level: str, in_txn: bool) -> None:
    """COMMITTED READ takes no lock on the current row, nor does CURSOR STABILITY outside a
    transaction (ids_sqs_1166: it then acts as Committed Read)."""
    a, b = pair[first], pair[second]
    t = a.table
    b.cursor().execute(f"SET ISOLATION TO {level}")
    if in_txn:
        b.cursor().execute("BEGIN WORK")
    cur = b.cursor()
    cur.execute(f"SELECT id, pad FROM {t} ORDER BY id")
    assert cur.fetchone()[0] == 1
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    cur.close()
    if in_txn:
        b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_commit_ends_the_cursor_lock(pair: list[Any], first: int, second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    _held = _on_first_row(b, t)  # kept: the open cursor holds the lock
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    assert _err(e) == (-346, -107)
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")


@pytest.mark.parametrize("first,second", ORDERS)
def test_disconnect_drops_the_cursor_lock(iserver: Any, pair: list[Any], first: int,
                                          second: int) -> None:
    a, b = pair[first], pair[second]
    t = a.table
    _held = _on_first_row(b, t)  # kept: the open cursor holds the lock
    b.close()
    a.cursor().execute("SET LOCK MODE TO WAIT 5")  # the server ends b's session at once
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")


@pytest.mark.parametrize("first,second", ORDERS)
@pytest.mark.parametrize("form", ["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                                  "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"])
def test_ansi_repeatable_read_forms_hold_share_locks(pair: list[Any], first: int, second: int,
                                                     form: str) -> None:
    """The ANSI forms are Informix's REPEATABLE READ (ids_sqs_1201): the rows a transaction
    read stay share-locked to its end, so another session reads them and its UPDATE is
    -346/-107 until then; the ANSI READ COMMITTED form takes no such lock."""
    a, b = pair[first], pair[second]
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute(form)
    assert len(a.cursor().execute(f"SELECT id FROM {t}").fetchall()) == 3
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    assert _err(e) == (-346, -107)
    assert len(b.cursor().execute(f"SELECT id FROM {t}").fetchall()) == 3  # readers share
    a.cursor().execute("COMMIT WORK")
    b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    assert len(a.cursor().execute(f"SELECT id FROM {t}").fetchall()) == 3
    b.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")
    a.cursor().execute("COMMIT WORK")


# ---- REVIEW-locks F4: a cursor held open across the end of a transaction ---------------------

@pytest.mark.parametrize("first,second", ORDERS)
def test_cursor_stability_page_lock_is_taken_again_in_the_next_transaction(
        pair: list[Any], first: int, second: int) -> None:
    """A hold cursor on a LOCK MODE PAGE table: COMMIT drops its lock on page 0, and its
    next fetch in a new transaction, of a row on the same page, locks that page again
    (REVIEW-locks F4: the cursor still counted the page as its own, took no lock, and the
    other session wrote the page the cursor was on). The rows are narrow (one page holds
    them all), the result wide (one row per fetch)."""
    a, b = pair[first], pair[second]
    t = f"{a.table}_pg"
    a.cursor().execute(f"CREATE TABLE {t} (id INT PRIMARY KEY, v INT) LOCK MODE PAGE")
    a.cursor().executemany(f"INSERT INTO {t} VALUES (?, ?)", [(i, i * 10) for i in (1, 2, 3)])
    b.cursor().execute("SET ISOLATION TO CURSOR STABILITY")
    b.cursor().execute("BEGIN WORK")
    cur = b.cursor(withhold=True)
    cur.execute(f"SELECT id, RPAD('x', 4100, 'y') FROM {t} ORDER BY id")
    assert cur.fetchone()[0] == 1
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = -3 WHERE id = 3")  # same page
    assert _err(e) == (-346, -107)
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -3 WHERE id = 3")  # no transaction: no lock
    b.cursor().execute("BEGIN WORK")
    assert cur.fetchone()[0] == 2
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = -33 WHERE id = 3")
    assert _err(e) == (-346, -107)
    cur.close()
    _round_trip(b)
    a.cursor().execute(f"UPDATE {t} SET v = -33 WHERE id = 3")
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_cursor_stability_cursor_from_an_ended_transaction_keeps_off_another_cursors_lock(
        pair: list[Any], first: int, second: int) -> None:
    """Two cursors of one session on one row: the first was opened in a transaction that
    has ended (COMMIT dropped its lock), the second locks the row in the next one. The
    first cursor moving on must not take the second one's lock with it (REVIEW-locks F4:
    it released its old row again, which was now the other cursor's lock)."""
    a, b = pair[first], pair[second]
    t = a.table
    b.cursor().execute("SET ISOLATION TO CURSOR STABILITY")
    b.cursor().execute("BEGIN WORK")
    old = b.cursor(withhold=True)
    old.execute(f"SELECT id, pad FROM {t} ORDER BY id")
    assert old.fetchone()[0] == 1
    b.cursor().execute("COMMIT WORK")
    b.cursor().execute("BEGIN WORK")
    new = b.cursor()
    new.execute(f"SELECT id, pad FROM {t} ORDER BY id")
    assert new.fetchone()[0] == 1
    assert old.fetchone()[0] == 2  # the old cursor moves off row 1
    for rid in (1, 2):  # row 1: the new cursor's; row 2: the old one's, in this transaction
        with pytest.raises(ifxwire.Error) as e:
            a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = {rid}")
        assert _err(e) == (-346, -107)
    b.cursor().execute("COMMIT WORK")
    a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")


# ---- REVIEW-locks F5: the CURSOR STABILITY form on a plan other sessions share ---------------

@pytest.mark.parametrize("joe_first", [True, False])
def test_cursor_stability_lock_of_a_shared_plan_another_user_opened_first(
        iserver: Any, pair: list[Any], joe_first: bool) -> None:
    """The engine shares a compiled query between sessions of one user (its cache key had no
    user until the 24th session). informix's private synonym names the table; joe cannot see it,
    so joe's OPEN fails (before: the CURSOR STABILITY form compiled there failed). That failure
    must not stand for the plan: informix's cursor still locks its row (REVIEW-locks F5: the
    plan was marked done without a form, and every CS cursor of it took no lock while it stayed
    cached)."""
    a, b = pair  # a writes, b (informix, the synonym's owner) reads under CURSOR STABILITY
    t = a.table
    syn = f"{t}_ps"
    a.cursor().execute(f"CREATE PRIVATE SYNONYM {syn} FOR {t}")
    sql = f"SELECT id, pad FROM {syn} ORDER BY id"
    assert len(b.cursor().execute(sql).fetchall()) == 3  # compiled and cached (no CS)
    joe = ifxwire.connect(host=iserver.host, port=iserver.port, user="joe", password="pw",
                          database="iso", autocommit=True, fetch_buffer_size=4096)
    try:
        def joe_opens() -> None:
            joe.cursor().execute("SET ISOLATION TO CURSOR STABILITY")
            joe.cursor().execute("BEGIN WORK")
            cur = joe.cursor()
            try:
                cur.execute(sql)  # (before the 24th session informix's plan ran for joe)
                cur.fetchone()
            except ifxwire.Error as exc:  # the plan is keyed by its user: joe cannot see it
                assert exc.sqlcode == -206
            cur.close()
            joe.cursor().execute("ROLLBACK WORK")

        if joe_first:
            joe_opens()
        cur = _on_first_row(b, syn)
        with pytest.raises(ifxwire.Error) as e:
            a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
        assert _err(e) == (-346, -107)
        cur.close()
        b.cursor().execute("COMMIT WORK")
        if not joe_first:
            joe_opens()
            cur = _on_first_row(b, syn)  # the form made at b's first OPEN still serves
            with pytest.raises(ifxwire.Error) as e:
                a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
            assert _err(e) == (-346, -107)
            b.cursor().execute("COMMIT WORK")
    finally:
        joe.close()


# ---- REVIEW-locks F6: results without a base row per result row ------------------------------

_NO_BASE_ROW = {
    "count": "SELECT COUNT(*), RPAD('x', 4100, 'y') FROM {t}",
    "sum_having": "SELECT SUM(v), RPAD('x', 4100, 'y') FROM {t} HAVING COUNT(*) > 0",
    "group_by": "SELECT v, RPAD('x', 4100, 'y') FROM {t} GROUP BY v ORDER BY v",
    "distinct": "SELECT DISTINCT id, pad FROM {t} ORDER BY id",
    "union": "SELECT id, pad FROM {t} WHERE id < 3 UNION SELECT id, pad FROM {t} WHERE id > 1",
    "view": "SELECT id, pad FROM {t}_v ORDER BY id",
}


@pytest.mark.parametrize("first,second", ORDERS)
@pytest.mark.parametrize("shape", sorted(_NO_BASE_ROW))
def test_cursor_stability_takes_no_lock_on_a_result_without_a_base_row(
        pair: list[Any], first: int, second: int, shape: str) -> None:
    """An aggregate, GROUP BY, DISTINCT or UNION result, or a view's, has no one table row
    under each result row: such a cursor is read only (the Informix SQL syntax guide's
    "Subset of SELECT statements associated with cursors", ids_sqs_0669), and this server
    takes no CURSOR STABILITY lock for it, as under COMMITTED READ. Rows wider than the
    fetch buffer: the cursor is still open on its first row (REVIEW-locks F6: an aggregate
    without GROUP BY locked the table row SQLite read last)."""
    a, b = pair[first], pair[second]
    t = a.table
    if shape == "view":
        a.cursor().execute(f"CREATE VIEW {t}_v AS SELECT id, v, pad FROM {t}")
    b.cursor().execute("SET ISOLATION TO CURSOR STABILITY")
    b.cursor().execute("BEGIN WORK")
    cur = b.cursor()
    cur.execute(_NO_BASE_ROW[shape].format(t=t))
    assert cur.fetchone() is not None
    for rid in (1, 2, 3):
        a.cursor().execute(f"UPDATE {t} SET v = v + 1 WHERE id = {rid}")
    cur.close()
    b.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_cursor_stability_window_function_keeps_the_lock(pair: list[Any], first: int,
                                                         second: int) -> None:
    """A window function leaves one result row per table row: the cursor locks it (the
    F6 check looks for aggregates in the select list, not inside OVER)."""
    a, b = pair[first], pair[second]
    t = a.table
    b.cursor().execute("SET ISOLATION TO CURSOR STABILITY")
    b.cursor().execute("BEGIN WORK")
    cur = b.cursor()
    cur.execute(f"SELECT id, COUNT(*) OVER (), pad FROM {t} ORDER BY id")
    assert cur.fetchone()[0] == 1
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute(f"UPDATE {t} SET v = -1 WHERE id = 1")
    assert _err(e) == (-346, -107)
    cur.close()
    b.cursor().execute("COMMIT WORK")


# ---- SET TRANSACTION: once per transaction, its level for that transaction only -------------

def test_a_second_set_transaction_in_a_transaction_is_refused(pair: list[Any]) -> None:
    """"You can issue SET TRANSACTION only once for a transaction" (SQL Syntax, ids_sqs_1201);
    the SQL Tutorial's example (ids_sqt_392) gets -876 for the second one, after a SELECT.
    A second one with nothing between, or an access-mode form, is the same statement again.
    The refused statement changes nothing: the first level holds to the end."""
    a, b = pair
    t = a.table
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
    assert len(a.cursor().execute(f"SELECT id FROM {t}").fetchall()) == 3
    for again in ("SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
                  "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "SET TRANSACTION READ WRITE"):
        with pytest.raises(ifxwire.Error) as e:
            a.cursor().execute(again)
        assert e.value.sqlcode == -876
    with pytest.raises(ifxwire.Error) as e:  # still REPEATABLE READ's share lock
        b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
    assert _err(e) == (-346, -107)
    a.cursor().execute("COMMIT WORK")
    a.cursor().execute("BEGIN WORK")  # a new transaction: once again
    a.cursor().execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    with pytest.raises(ifxwire.Error) as e:
        a.cursor().execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    assert e.value.sqlcode == -876
    a.cursor().execute("ROLLBACK WORK")


def test_set_isolation_after_set_transaction_in_a_transaction_is_refused(
        pair: list[Any]) -> None:
    """SET ISOLATION may change the level within a transaction any number of times
    (ids_sqs_1201's first example), but not a level SET TRANSACTION set for it: "Any
    cursors that are opened during that transaction are guaranteed that isolation level"
    (ids_sqs_1201); Informix's message -877 reads "Isolation Level previously set by 'Set
    Transaction'". After an access-mode SET TRANSACTION, which sets no level, it may."""
    a, _b = pair
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET ISOLATION TO DIRTY READ")
    a.cursor().execute("SET ISOLATION TO REPEATABLE READ")
    a.cursor().execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    for form in ("SET ISOLATION TO DIRTY READ", "SET ISOLATION TO CURSOR STABILITY",
                 "SET ISOLATION TO COMMITTED READ"):
        with pytest.raises(ifxwire.Error) as e:
            a.cursor().execute(form)
        assert e.value.sqlcode == -877
    a.cursor().execute("COMMIT WORK")
    a.cursor().execute("SET ISOLATION TO DIRTY READ")  # outside: as always
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION READ WRITE")
    a.cursor().execute("SET ISOLATION TO COMMITTED READ")
    a.cursor().execute("COMMIT WORK")


@pytest.mark.parametrize("first,second", ORDERS)
def test_set_transaction_level_lasts_for_its_transaction_only(pair: list[Any], first: int,
                                                              second: int) -> None:
    """"After a COMMIT WORK statement completes the transaction or a ROLLBACK WORK statement
    cancels the entire transaction, the isolation level is reset to the default" (SQL
    Syntax, SET TRANSACTION, ids_sqs_1206); SET ISOLATION's level is the session's
    enduring one (Performance Guide, ids_prf_424) and comes back. Before, SET TRANSACTION's
    level stayed after the transaction, as SET ISOLATION's does."""
    a, b = pair[first], pair[second]
    t = a.table
    for end in ("COMMIT WORK", "ROLLBACK WORK"):
        a.cursor().execute("BEGIN WORK")
        a.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        a.cursor().execute(f"SELECT id FROM {t}").fetchall()
        with pytest.raises(ifxwire.Error) as e:
            b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
        assert _err(e) == (-346, -107)
        a.cursor().execute(end)
        a.cursor().execute("BEGIN WORK")  # COMMITTED READ again: no share lock
        a.cursor().execute(f"SELECT id FROM {t}").fetchall()
        b.cursor().execute(f"UPDATE {t} SET v = 0 WHERE id = 1")
        a.cursor().execute("COMMIT WORK")
    a.cursor().execute("SET ISOLATION TO REPEATABLE READ")  # the session's own level
    a.cursor().execute("BEGIN WORK")
    a.cursor().execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    a.cursor().execute(f"SELECT id FROM {t}").fetchall()
    b.cursor().execute(f"UPDATE {t} SET v = 1 WHERE id = 1")  # READ COMMITTED: no lock
    a.cursor().execute("COMMIT WORK")
    a.cursor().execute("BEGIN WORK")  # REPEATABLE READ is back
    a.cursor().execute(f"SELECT id FROM {t}").fetchall()
    with pytest.raises(ifxwire.Error) as e:
        b.cursor().execute(f"UPDATE {t} SET v = 2 WHERE id = 1")
    assert _err(e) == (-346, -107)
    a.cursor().execute("COMMIT WORK")


def test_a_private_synonym_is_its_owners_alone_whatever_was_compiled_before(
        iserver: Any, pair: list[Any]) -> None:
    """A name resolves per user: joe cannot read through informix's private synonym (-206),
    also after informix's session compiled the same SQL text. Before, the engine's plan
    cache had no user in its key and served informix's plan to joe (found by locks30)."""
    a, _ = pair
    t = a.table
    syn = f"{t}_mine"
    a.cursor().execute(f"CREATE PRIVATE SYNONYM {syn} FOR {t}")
    a.cursor().execute(f"GRANT SELECT ON {t} TO joe")
    sql = f"SELECT COUNT(*) FROM {syn}"
    assert a.cursor().execute(sql).fetchone() == (3,)  # compiled and cached for informix
    with ifxwire.connect(host=iserver.host, port=iserver.port, user="joe", password="pw",
                         database="iso", autocommit=True) as joe:
        with pytest.raises(ifxwire.Error) as e:
            joe.cursor().execute(sql)
        assert e.value.sqlcode == -206  # type: ignore[attr-defined]
        assert joe.cursor().execute(f"SELECT COUNT(*) FROM {t}").fetchone() == (3,)
    assert a.cursor().execute(sql).fetchone() == (3,)
