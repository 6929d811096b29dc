"""A statement caught by an SPL ON EXCEPTION handler leaves no undo entry (issue 26 §3).

Under row locks every row a statement writes leaves a before-image in the session's undo
log (docs/SERVER.md, "Locks and isolation"), applied by ROLLBACK WORK. A statement that
fails undoes itself (docs/SERVER.md, "A failing statement in a transaction"); when an SPL
routine's ON EXCEPTION handler catches its error the transaction goes on, so the images the
failed statement recorded describe changes that never happened. Were they kept, ROLLBACK
WORK would write them back: a DELETE's image would bring a second copy of a row that was
never deleted (or fail on its key), an UPDATE's would undo a later change of another
session. Here each kind of failing statement (a multi-row UPDATE meeting a unique index
half way, a multi-row DELETE meeting a foreign key, an INSERT … SELECT meeting a key, an
UPDATE whose trigger action fails, a procedure called by a trigger catching its own
failure, a function called by a SELECT) is caught inside BEGIN WORK, the same routine then
changes the rows legitimately, and ROLLBACK WORK must give back exactly the rows as they
were, COMMIT WORK exactly the intended change; a second session then writes every row with
SET LOCK MODE TO NOT WAIT (no lock left behind) and reads them. With and without row locks.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import ifxwire
from ifxwire.server import Server

_numbers = itertools.count(1)

#: Tables of each case ({n}: the case's number).
_SETUP = (
    "CREATE TABLE t{n} (id INT PRIMARY KEY, a INT UNIQUE)",
    "INSERT INTO t{n} VALUES (1, 10)",
    "INSERT INTO t{n} VALUES (2, 20)",
    "INSERT INTO t{n} VALUES (3, 30)",
    "CREATE TABLE chi{n} (id INT REFERENCES t{n})",
    "INSERT INTO chi{n} VALUES (3)",
    "CREATE TABLE log{n} (x INT PRIMARY KEY)",
    "INSERT INTO log{n} VALUES (1)",
    "CREATE TABLE src{n} (id INT, a INT)",
    "INSERT INTO src{n} VALUES (4, 40)",
    "INSERT INTO src{n} VALUES (5, 50)",
    "INSERT INTO src{n} VALUES (1, 60)",
)

_BEFORE = [(1, 10), (2, 20), (3, 30)]

#: The failing statement of each case, caught by the routine's handler; the routine then
#: runs ``UPDATE t SET a = a + 1 WHERE id = 2`` (the intended change).
FAILING = {
    # rows 1 and 2 are updated, then row 3 meets row 1's new value
    "update_unique": "UPDATE t{n} SET a = CASE WHEN id = 3 THEN 110 ELSE a + 100 END",
    # rows 1 and 2 are deleted, row 3 is referenced by chi
    "delete_referenced": "DELETE FROM t{n}",
    # ids 4 and 5 go in, id 1 meets the key
    "insert_select": "INSERT INTO t{n} SELECT id, a FROM src{n} ORDER BY id DESC",
    # every row is updated, then the trigger's action meets log's key
    "update_trigger_fails": "UPDATE t{n} SET a = a + 100",
    # every row is deleted, then the trigger's action meets log's key
    "delete_trigger_fails": "DELETE FROM t{n}",
}

@pytest.fixture(scope="module", params=[True, False], ids=["row_locks", "no_row_locks"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with Server(port=0, data=":memory:", row_locks=request.param) as srv:
        with _connect(srv.port, None) as c:
            c.cursor().execute("CREATE DATABASE splx WITH LOG")
        yield srv


def _connect(port: int, database: str | None) -> ifxwire.Connection:
    return ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database=database, read_timeout=30, autocommit=True)


def _rows(conn: ifxwire.Connection, sql: str) -> list[tuple[object, ...]]:
    cur = conn.cursor()
    cur.execute(sql)
    return [tuple(r) for r in cur.fetchall()]


def _setup(port: int, n: int, statements: tuple[str, ...]) -> None:
    with _connect(port, "splx") as c:
        for sql in (*_SETUP, *statements):
            c.cursor().execute(sql.format(n=n))


def _trigger(case: str) -> tuple[str, ...]:
    """A trigger on t whose action fails (log's key) for the trigger cases (the UPDATE's
    only for a value over 100, the DELETE's only for id 3: not for the cases' later
    changes)."""
    if case == "update_trigger_fails":
        return ("CREATE TRIGGER tr{n} UPDATE ON t{n} REFERENCING NEW AS nw "
                "FOR EACH ROW WHEN (nw.a > 100) (INSERT INTO log{n} VALUES (1))",)
    if case == "delete_trigger_fails":
        return ("CREATE TRIGGER tr{n} DELETE ON t{n} REFERENCING OLD AS od "
                "FOR EACH ROW WHEN (od.id = 3) (INSERT INTO log{n} VALUES (1))",)
    return ()


def _second_session(port: int, n: int, want: list[tuple[object, ...]]) -> None:
    """Another session reads the rows, writes each of them without waiting (no lock of the
    first session is left) and puts them back."""
    with _connect(port, "splx") as c:
        c.cursor().execute("SET LOCK MODE TO NOT WAIT")
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == want
        c.cursor().execute(f"UPDATE t{n} SET a = a - 1000")
        c.cursor().execute(f"UPDATE t{n} SET a = a + 1000")
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == want
        assert _rows(c, f"SELECT x FROM log{n}") == [(1,)]


def _run(server: Server, case: str, body: str) -> tuple[int, ifxwire.Connection]:
    n = next(_numbers)
    _setup(server.port, n, _trigger(case))
    c = _connect(server.port, "splx")
    c.cursor().execute(body.format(n=n, failing=FAILING[case].format(n=n)))
    return n, c


_PROC = """CREATE PROCEDURE p{n}()
    ON EXCEPTION
    END EXCEPTION WITH RESUME;
    {failing};
    UPDATE t{n} SET a = a + 1 WHERE id = 2;
END PROCEDURE"""


@pytest.mark.parametrize("end", ["ROLLBACK WORK", "COMMIT WORK"])
@pytest.mark.parametrize("case", sorted(FAILING))
def test_a_caught_failing_statement_leaves_nothing_to_undo(server: Server, case: str,
                                                           end: str) -> None:
    n, c = _run(server, case, _PROC)
    with c:
        cur = c.cursor()
        cur.execute("BEGIN WORK")
        cur.execute(f"EXECUTE PROCEDURE p{n}()")
        # the failed statement changed nothing, the one after it its row
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == [(1, 10), (2, 21), (3, 30)]
        # a later statement of the client changes the same rows again
        cur.execute(f"UPDATE t{n} SET a = a + 2 WHERE id IN (1, 2)")
        cur.execute(end)
        want = _BEFORE if end == "ROLLBACK WORK" else [(1, 12), (2, 23), (3, 30)]
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == want
    _second_session(server.port, n, want)


_TWICE = """CREATE PROCEDURE p{n}()
    DEFINE i INT;
    FOR i = 1 TO 2
        BEGIN
            ON EXCEPTION
            END EXCEPTION;
            {failing};
        END
        UPDATE t{n} SET a = a + 1 WHERE id = 2;
    END FOR;
END PROCEDURE"""


@pytest.mark.parametrize("case", ["delete_referenced", "update_unique", "insert_select"])
def test_caught_twice_in_a_loop_then_rolled_back(server: Server, case: str) -> None:
    """The failing statement caught by a block's handler twice, each time followed by a
    change of the same rows; a ROLLBACK WORK gives the rows back once each."""
    n, c = _run(server, case, _TWICE)
    with c:
        cur = c.cursor()
        cur.execute("BEGIN WORK")
        cur.execute(f"EXECUTE PROCEDURE p{n}()")
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == [(1, 10), (2, 22), (3, 30)]
        cur.execute("ROLLBACK WORK")
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == _BEFORE
    _second_session(server.port, n, _BEFORE)


_CATCHING = """CREATE PROCEDURE q{n}()
    ON EXCEPTION
    END EXCEPTION WITH RESUME;
    {failing};
END PROCEDURE"""


@pytest.mark.parametrize("end", ["ROLLBACK WORK", "COMMIT WORK"])
@pytest.mark.parametrize("timing", ["AFTER", "FOR EACH ROW"])
@pytest.mark.parametrize("case", sorted(FAILING))
def test_a_procedure_of_a_trigger_catching_its_failure(server: Server, case: str,
                                                       timing: str, end: str) -> None:
    """The failing statement runs in a procedure that a trigger of another table calls (once
    for the statement, or for each of its two rows) and that catches its error: the
    triggering statement goes on and its own rows are kept. Here the failed statement is
    nested in the triggering statement's write unit (rl_write), whose undo entries are
    kept in memory until it ends: the failed one's must not be among them."""
    n, c = _run(server, case, _CATCHING)
    with c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE k{n} (x INT)")
        cur.execute(f"CREATE TRIGGER kt{n} INSERT ON k{n} {timing} (EXECUTE PROCEDURE q{n}())")
        cur.execute("BEGIN WORK")
        cur.execute(f"INSERT INTO k{n} SELECT id FROM src{n} WHERE id > 3")
        assert _rows(c, f"SELECT x FROM k{n} ORDER BY x") == [(4,), (5,)]
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == _BEFORE
        cur.execute(f"UPDATE t{n} SET a = a + 1 WHERE id = 2")
        cur.execute(f"DELETE FROM t{n} WHERE id = 1")
        cur.execute(end)
        rolled = end == "ROLLBACK WORK"
        want = _BEFORE if rolled else [(2, 21), (3, 30)]
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == want
        assert _rows(c, f"SELECT x FROM k{n} ORDER BY x") == ([] if rolled else [(4,), (5,)])
    _second_session(server.port, n, want)


_FUNCTION = """CREATE FUNCTION f{n}() RETURNING INT;
    ON EXCEPTION
        RETURN -1;
    END EXCEPTION;
    {failing};
    RETURN 1;
END FUNCTION"""


@pytest.mark.parametrize("call", ["SELECT f{n}() FROM systables WHERE tabid = 1",
                                  "EXECUTE FUNCTION f{n}()"])
@pytest.mark.parametrize("case", ["delete_referenced", "update_unique"])
def test_a_function_catching_its_failure(server: Server, case: str, call: str) -> None:
    """A function returning from its handler, called by a query or EXECUTE FUNCTION."""
    n, c = _run(server, case, _FUNCTION)
    with c:
        cur = c.cursor()
        cur.execute("BEGIN WORK")
        assert _rows(c, call.format(n=n)) == [(-1,)]
        cur.execute(f"UPDATE t{n} SET a = a + 1 WHERE id IN (1, 2)")
        cur.execute("ROLLBACK WORK")
        assert _rows(c, f"SELECT id, a FROM t{n} ORDER BY id") == _BEFORE
    _second_session(server.port, n, _BEFORE)
