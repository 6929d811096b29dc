"""A statement that fails inside a transaction undoes only itself (issue 23/26).

Informix: when a statement fails, "the database server ... rolls back the statement" and the
transaction stays open with the work done before it: COMMIT WORK keeps that work, ROLLBACK WORK
undoes it (docs/SERVER.md, "A failing statement in a transaction", with its manual pages).
Here each kind of failing statement the server routes through its write paths
(``session_txn.run_write``, ``rl_write``, ``rl_ddl``) follows an INSERT in the same
transaction, with and without row locks, in a logged database (BEGIN WORK as SQL, and the
driver with autocommit off) and in an ANSI one (implicit transactions), and a second
session checks what was committed.

fidelity39 found the case first: the statement that opened the SQLite transaction of an
escalated row-lock transaction (SET CONSTRAINTS) failed, and its rollback took the
transaction's earlier rows with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import ifxwire
from ifxwire.server import Server

#: The failing statements, each after ``INSERT INTO keep``: (name, SQL, tables it must leave
#: unchanged with their contents). {n} is the case's number, which makes its own tables.
FAILING = {
    "duplicate_insert": "INSERT INTO p{n} VALUES (1)",
    "update_check": "UPDATE c{n} SET a = -1",
    "create_exists": "CREATE TABLE keep{n} (a INT)",
    "index_missing_column": "CREATE INDEX ix{n} ON keep{n} (nosuch)",
    "set_constraints_missing": "SET CONSTRAINTS nosuch{n} DISABLED",
    "delete_referenced": "DELETE FROM par{n}",
    "insert_select": "INSERT INTO p{n} SELECT a FROM src{n}",
    # (a duplicate left when the statement ends: Informix checks keys then, ids_sqs_1209, so
    # ``a = a + 1`` runs since the thirty-third session; statement_keys.py)
    "update_some_rows": "UPDATE p{n} SET a = 2",
    "lob_duplicate_insert": "INSERT INTO lob{n} VALUES (1, NULL)",
    "add_check_violated": "ALTER TABLE par{n} ADD CONSTRAINT CHECK (a > 5) CONSTRAINT ck{n}",
    "unique_index_on_duplicates": "CREATE UNIQUE INDEX ix{n} ON d{n} (a)",
    "drop_referenced": "DROP TABLE par{n} RESTRICT",
}

_SETUP = (
    "CREATE TABLE keep{n} (a INT)",
    "CREATE TABLE p{n} (a INT PRIMARY KEY)",
    "INSERT INTO p{n} VALUES (1)",
    "INSERT INTO p{n} VALUES (2)",
    "CREATE TABLE c{n} (a INT CHECK (a > 0))",
    "INSERT INTO c{n} VALUES (1)",
    "CREATE TABLE par{n} (a INT PRIMARY KEY)",
    "INSERT INTO par{n} VALUES (1)",
    "CREATE TABLE chi{n} (a INT REFERENCES par{n})",
    "INSERT INTO chi{n} VALUES (1)",
    # the first row goes in, the second meets p's key: the statement's first row goes too
    "CREATE TABLE src{n} (a INT)",
    "INSERT INTO src{n} VALUES (5)",
    "INSERT INTO src{n} VALUES (1)",
    # smart large objects: DML the row-lock undo log cannot take back runs escalated
    "CREATE TABLE lob{n} (a INT PRIMARY KEY, b CLOB)",
    "INSERT INTO lob{n} VALUES (1, NULL)",
    "CREATE TABLE d{n} (a INT)",
    "INSERT INTO d{n} VALUES (3)",
    "INSERT INTO d{n} VALUES (3)",
)

#: What the failing statement must leave as it found it.
_UNCHANGED = (
    ("SELECT a FROM p{n} ORDER BY a", [(1,), (2,)]),
    ("SELECT a FROM c{n}", [(1,)]),
    ("SELECT a FROM par{n}", [(1,)]),
    ("SELECT COUNT(*) FROM sysindexes WHERE idxname = 'ix{n}'", [(0,)]),
    ("SELECT COUNT(*) FROM sysconstraints WHERE constrname = 'ck{n}'", [(0,)]),
    ("SELECT a FROM lob{n}", [(1,)]),
    ("SELECT COUNT(*) FROM systables WHERE tabname = 'par{n}'", [(1,)]),
)

#: Failing statements that escalate a row-lock transaction to SQLite's write lock first
#: (session_statements._ESCALATED_DDL; DML of a table with smart large objects).
_ESCALATES = {"set_constraints_missing", "lob_duplicate_insert"}

_numbers = itertools.count(1)


@pytest.fixture(scope="module", params=[True, False], ids=["row_locks", "no_row_locks"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with Server(port=0, data=":memory:", row_locks=request.param) as srv:
        with _connect(srv.port, None) as c:
            c.cursor().execute("CREATE DATABASE fslog WITH LOG")
        with _connect(srv.port, None) as c:
            c.cursor().execute("CREATE DATABASE fsansi WITH LOG MODE ANSI")
        yield srv


def _connect(port: int, database: str | None, autocommit: bool = True) -> ifxwire.Connection:
    return ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database=database, read_timeout=30, autocommit=autocommit)


def _rows(conn: ifxwire.Connection, sql: str) -> list[tuple[object, ...]]:
    cur = conn.cursor()
    cur.execute(sql)
    return [tuple(r) for r in cur.fetchall()]


def _setup(port: int, database: str, n: int) -> None:
    ansi = database == "fsansi"
    with _connect(port, database, autocommit=not ansi) as c:
        for sql in _SETUP:
            c.cursor().execute(sql.format(n=n))
        if ansi:
            c.commit()


def _committed(port: int, database: str, n: int) -> list[tuple[object, ...]]:
    """keep's rows as a second session reads them (COMMITTED READ)."""
    with _connect(port, database) as c:
        c.cursor().execute("SET ISOLATION TO COMMITTED READ")
        return _rows(c, f"SELECT a FROM keep{n}")


@pytest.mark.parametrize("end", ["commit", "rollback"])
@pytest.mark.parametrize("how", ["sql_logged", "driver_logged", "driver_ansi"])
@pytest.mark.parametrize("failing", sorted(FAILING))
def test_a_failing_statement_undoes_only_itself(server: Server, failing: str, how: str,
                                                end: str) -> None:
    n = next(_numbers)
    database = "fsansi" if how == "driver_ansi" else "fslog"
    _setup(server.port, database, n)
    sql_txn = how == "sql_logged"
    with _connect(server.port, database, autocommit=sql_txn) as conn:
        cur = conn.cursor()
        if sql_txn:
            cur.execute("BEGIN WORK")
        cur.execute(f"INSERT INTO keep{n} VALUES (7)")
        with pytest.raises(ifxwire.DatabaseError) as caught:
            cur.execute(FAILING[failing].format(n=n))
        assert caught.value.sqlcode < 0
        # the transaction goes on, with its earlier work and without the failing statement's
        assert _rows(conn, f"SELECT a FROM keep{n}") == [(7,)]
        for sql, want in _UNCHANGED:
            assert _rows(conn, sql.format(n=n)) == want, (sql, failing)
        if server.engine.row_locks and failing not in _ESCALATES:
            # applied at once under its row lock: a DIRTY READ of another session sees it
            # (an escalated transaction keeps SQLite's transaction, and its rows, to its end)
            with _connect(server.port, database) as other:
                other.cursor().execute("SET ISOLATION TO DIRTY READ")
                assert _rows(other, f"SELECT a FROM keep{n}") == [(7,)]
        cur.execute(f"INSERT INTO keep{n} VALUES (8)")  # and takes more work
        if end == "commit":
            if sql_txn:
                cur.execute("COMMIT WORK")
            else:
                conn.commit()
        elif sql_txn:
            cur.execute("ROLLBACK WORK")
        else:
            conn.rollback()
    want = [(7,), (8,)] if end == "commit" else []
    assert sorted(_committed(server.port, database, n)) == want
    with _connect(server.port, database) as c:
        for sql, rows in _UNCHANGED:
            assert _rows(c, sql.format(n=n)) == rows, sql


@pytest.mark.parametrize("failing", ["duplicate_insert", "create_exists",
                                     "set_constraints_missing", "insert_select"])
def test_after_a_savepoint_escalated(server: Server, failing: str) -> None:
    """A transaction a SAVEPOINT escalated to SQLite's write lock (row locks) or that holds
    it anyway: the failing statement joins that SQLite transaction, and goes alone."""
    n = next(_numbers)
    _setup(server.port, "fslog", n)
    with _connect(server.port, "fslog") as conn:
        cur = conn.cursor()
        cur.execute("BEGIN WORK")
        cur.execute(f"INSERT INTO keep{n} VALUES (7)")
        cur.execute("SAVEPOINT s1")
        cur.execute(f"INSERT INTO keep{n} VALUES (8)")
        with pytest.raises(ifxwire.DatabaseError):
            cur.execute(FAILING[failing].format(n=n))
        assert _rows(conn, f"SELECT a FROM keep{n} ORDER BY a") == [(7,), (8,)]
        cur.execute("ROLLBACK TO SAVEPOINT s1")
        assert _rows(conn, f"SELECT a FROM keep{n}") == [(7,)]
        cur.execute("COMMIT WORK")
    assert _committed(server.port, "fslog", n) == [(7,)]
    with _connect(server.port, "fslog") as c:
        for sql, rows in _UNCHANGED:
            assert _rows(c, sql.format(n=n)) == rows, sql


#: What escalates a row-lock transaction before the failing MERGE (none: the MERGE's own unit).
_BEFORE_MERGE = {
    "none": None,
    "savepoint": "SAVEPOINT s1",
    "set_constraints": "SET CONSTRAINTS ALL DEFERRED",
    "lob_insert": "INSERT INTO lob{n} VALUES (2, NULL)",
}


@pytest.mark.parametrize("before", sorted(_BEFORE_MERGE))
def test_a_merge_failing_half_way_undoes_its_first_part(server: Server, before: str) -> None:
    """A MERGE is several SQLite statements (its INSERT part, then its UPDATE part:
    translate_dml.compile_merge): the INSERT of the first source row ran when the UPDATE for
    the second meets a unique key. Under row locks, in a transaction escalated before it
    (SQLite's write lock held to COMMIT), it ran in ``rl_write``'s attempt savepoint, which a
    failure released without rolling back to it: the INSERT stayed in the transaction, and
    COMMIT kept it (branch locks42). It must go, and the transaction's earlier work stay."""
    n = next(_numbers)
    _setup(server.port, "fslog", n)
    with _connect(server.port, "fslog") as conn:
        cur = conn.cursor()
        cur.execute(f"CREATE TABLE mt{n} (a INT PRIMARY KEY, b INT UNIQUE)")
        cur.execute(f"INSERT INTO mt{n} VALUES (1, 0)")
        cur.execute(f"INSERT INTO mt{n} VALUES (2, 5)")
        cur.execute(f"CREATE TABLE ms{n} (a INT, b INT)")
        cur.execute(f"INSERT INTO ms{n} VALUES (3, 7)")  # not matched: inserted first
        cur.execute(f"INSERT INTO ms{n} VALUES (1, 5)")  # matched: b 5 is taken (-268)
        cur.execute("BEGIN WORK")
        cur.execute(f"INSERT INTO keep{n} VALUES (7)")
        step = _BEFORE_MERGE[before]
        if step is not None:
            cur.execute(step.format(n=n))
        with pytest.raises(ifxwire.DatabaseError) as caught:
            cur.execute(f"MERGE INTO mt{n} t USING ms{n} s ON t.a = s.a "
                        "WHEN MATCHED THEN UPDATE SET t.b = s.b "
                        "WHEN NOT MATCHED THEN INSERT (a, b) VALUES (s.a, s.b)")
        assert caught.value.sqlcode < 0
        assert _rows(conn, f"SELECT a, b FROM mt{n} ORDER BY a") == [(1, 0), (2, 5)]
        assert _rows(conn, f"SELECT a FROM keep{n}") == [(7,)]
        cur.execute(f"INSERT INTO keep{n} VALUES (8)")
        cur.execute("COMMIT WORK")
    assert sorted(_committed(server.port, "fslog", n)) == [(7,), (8,)]
    with _connect(server.port, "fslog") as c:
        assert _rows(c, f"SELECT a, b FROM mt{n} ORDER BY a") == [(1, 0), (2, 5)]
        want_lob = [(1,), (2,)] if before == "lob_insert" else [(1,)]
        assert _rows(c, f"SELECT a FROM lob{n} ORDER BY a") == want_lob
