"""EngineSession.execute_batch: all or nothing, and never an exception the wire session would
not expect (it answers the rows one by one whenever a batch is refused)."""

from __future__ import annotations

import pytest

from ifxwire.server.engine import EngineError, Prepared

from .conftest import Sql


def _insert(db: Sql, sql: str) -> Prepared:
    return db.s.prepare(sql)


def test_a_batch_is_all_or_nothing(db: Sql) -> None:
    db.run("create table t (a int primary key)")
    db.run("begin work")
    db.run("insert into t values (0)")  # the write lock: batches are possible now
    st = _insert(db, "insert into t values (?)")
    assert db.s.execute_batch(st, [[i] for i in range(1, 101)])
    assert not db.s.execute_batch(st, [[i] for i in (200, 201, 5, 202)])  # 5 is a duplicate
    assert db.one("select count(*) from t") == 101  # nothing of the refused batch stayed
    db.run("commit work")


def test_no_batch_outside_a_transaction_or_before_the_write_lock(db: Sql) -> None:
    db.run("create table t (a int)")
    st = _insert(db, "insert into t values (?)")
    assert not db.s.execute_batch(st, [[1], [2], [3], [4]])  # autocommit: each row commits
    db.run("begin work")
    if db.s.row_locks:
        # Row-lock mode: each statement is its own SQLite transaction under row locks, so a
        # batch needs no earlier write; ROLLBACK WORK takes it back through the undo log.
        assert db.s.execute_batch(st, [[1], [2], [3], [4]])
    else:
        assert not db.s.execute_batch(st, [[1], [2], [3], [4]])  # no write yet: no lock
    db.run("insert into t values (0)")
    assert db.s.execute_batch(st, [[1], [2], [3], [4]])
    db.run("rollback work")
    assert db.one("select count(*) from t") == 0


def test_a_full_disk_refuses_the_batch_without_raising(db: Sql) -> None:
    # SQLite rolls the whole transaction back on SQLITE_FULL, savepoint included: the batch
    # must still just say no, and the single-row path then reports the error.
    db.run("create table t (v varchar(255))")
    db.run("begin work")
    db.run("insert into t values ('z')")
    conn = db.s.conn
    assert conn is not None
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    st = _insert(db, "insert into t values (?)")
    assert not db.s.execute_batch(st, [["y" * 250]] * 100)
    with pytest.raises(EngineError):
        for _ in range(100):
            db.s.execute(st, ["y" * 250])
    conn.execute("PRAGMA max_page_count = 1073741823")
    db.run("rollback work")  # the session still thinks it is in one; SQLite is not
    db.run("insert into t values ('after')")
    assert db.one("select count(*) from t where v = 'after'") == 1


def test_a_batch_binds_by_position_and_leaves_quoted_text_alone(db: Sql) -> None:
    # The batch rewrites :p1 … as ?1 … (binding by position); text that looks like a
    # parameter inside a literal is data, and the values land in their own columns.
    db.run("create table t (a int, s varchar(20), b varchar(10), f float)")
    db.run("begin work")
    db.run("insert into t values (0, 'x', 'x', 0)")
    st = _insert(db, "insert into t values (?, ':p1 '':p2'' \":p3\"', ?, ?)")
    rows = [[i, f"b{i}", i / 2] for i in range(1, 51)] + [[99, None, None]]
    assert db.s.execute_batch(st, rows)
    assert st.plan.batch is not None and st.plan.batch[1] is not None  # positional
    got = db.rows("select a, s, b, f from t where a > 0 order by a")
    assert got == [(i, ":p1 ':p2' \":p3\"", f"b{i}", i / 2) for i in range(1, 51)] + [
        (99, ":p1 ':p2' \":p3\"", None, None)]
    assert not db.s.execute_batch(st, [[1, "b"], [2, "c"]])  # a row short: refused, no raise
    db.run("rollback work")


def test_a_batch_computes_expressions_over_its_parameters(db: Sql) -> None:
    db.run("create table t (a int, b int)")
    db.run("begin work")
    db.run("insert into t values (0, 0)")
    st = _insert(db, "insert into t values (?, ? + 1)")
    assert db.s.execute_batch(st, [[i, i] for i in range(1, 11)])
    assert db.rows("select sum(a), sum(b) from t") == [(55, 65)]
    db.run("rollback work")


def test_a_batch_runs_as_multi_row_statements(db: Sql) -> None:
    # The bulk insert's rows go k to a statement (batch._multi): the rows, their order and
    # their rowids are those of the one-row statement executed once per row, including
    # the rows left over after the last full statement and NULLs.
    from ifxwire.server.engine.session import batch

    db.run("create table t (a int, b float, c decimal(12,2), d date, e varchar(20))")
    st = _insert(db, "insert into t (a, b, c, d, e) values (?, ?, ?, ?, ?)")
    sql, binder = batch._positional(st.plan)
    multi = batch._multi(sql, 5)
    assert binder is not None and multi is not None, sql
    msql, k = multi
    assert k == batch._MULTI_ROWS and msql.count("(?") == k and msql.count("?") == 5 * k
    assert msql.count("COLLATE IFXDEC") == k  # (the DECIMAL column's collation, every row)
    db.run("begin work")
    db.run("insert into t (a) values (-1)")
    n = 3 * k + 7  # three multi-row statements and seven rows by the one-row one
    rows = [[i, i / 7, f"{i}.25" if i % 5 else None, 730000 + i, f"n{i}"] for i in range(n)]
    assert db.s.execute_batch(st, rows)
    got = db.rows("select rowid, a, b, c, e from t where a >= 0 order by rowid")
    assert [r[1] for r in got] == list(range(n))
    assert [r[0] for r in got] == list(range(got[0][0], got[0][0] + n))  # one run of rowids
    assert [r[2] for r in got] == [i / 7 for i in range(n)]
    assert [r[3] for r in got][:6] == [None, 1.25, 2.25, 3.25, 4.25, None]
    assert got[-1][4] == f"n{n - 1}"
    db.run("commit work")


def test_a_multi_row_statement_failing_refuses_the_whole_batch(db: Sql) -> None:
    # A duplicate key in the second multi-row statement: nothing of the batch stays, the
    # first statement's rows included, as with the one-row statement.
    from ifxwire.server.engine.session import batch

    db.run("create table t (a int primary key, b int)")
    db.run("begin work")
    db.run("insert into t values (-1, 0)")
    st = _insert(db, "insert into t (a, b) values (?, ?)")
    k = batch._MULTI_ROWS
    rows = [[i, i] for i in range(3 * k)]
    rows[k + 3] = [5, 5]  # 5 is in the first statement already
    assert not db.s.execute_batch(st, rows)
    assert db.one("select count(*) from t") == 1
    assert db.s.execute_batch(st, [[i, i] for i in range(3 * k)])
    assert db.one("select count(*) from t") == 3 * k + 1
    db.run("commit work")


@pytest.mark.parametrize("sql", [
    "INSERT INTO t (a, b) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
    "INSERT INTO t (a, b) VALUES (?1, ?1)",
    "INSERT INTO t (a, b) VALUES (?2, ?1)",
    "INSERT INTO t (a, b) VALUES (?1, abs(?2))",
    "INSERT INTO t (a, b) VALUES (?1, ?2 COLLATE X || 'y')",
    "INSERT INTO t (a, b) SELECT ?1, ?2",
    "WITH x AS (SELECT ?1) INSERT INTO t (a, b) VALUES (?1, ?2)",
])
def test_only_a_plain_values_list_is_made_multi_row(sql: str) -> None:
    from ifxwire.server.engine.session import batch

    assert batch._multi(sql, 2) is None
    assert batch._multi("INSERT INTO t (a, b) VALUES (?1, ?2)", 2) is not None
    assert batch._multi("INSERT INTO t (a) VALUES (?1)", 1) is not None
    assert batch._multi("INSERT INTO t VALUES (" + ", ".join(
        f"?{i}" for i in range(1, 301)) + ")", 300) is None  # 3 rows a statement: too few
