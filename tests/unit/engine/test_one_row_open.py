"""A one-row query's PREPARE and OPEN do less, and answer as before (issue 26, select_one_row).

* PREPARE reads SQLite's schema version once (it read it twice: a read transaction each,
  for every PREPARE of JDBC and informix-driver, which prepare at each execution). The
  version kept in the Prepared is the one the plan was looked up with, so DDL after the
  PREPARE is still -710 or a fresh plan.
* Under row locks an OPEN reads the schema version once (the -710 check's reading serves
  the row-lock check's catalogue lookup; it read it again, another read transaction).
* Under row locks, while nobody else holds rows of the query's tables, that one reading is
  made inside the query's own read transaction, after its ``execute`` (the late -710 check
  the mode without row locks had); with a holder, before the query, as before.
* Under row locks a query of tables nobody else holds rows of reads its first batch at OPEN
  (as without row locks): no SQLite cursor stays open behind the OPEN. A table another
  session holds rows of is still read lazily through the lock filter, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ifxwire.server.engine import Engine, EngineError

from .conftest import Sql, session_on


def _count_pragmas(s: Any) -> Callable[[], int]:
    """Count the ``PRAGMA schema_version`` statements SQLite runs on ``s``'s connection."""
    seen: list[str] = []
    s._connection().set_trace_callback(seen.append)
    return lambda: sum(1 for q in seen if "schema_version" in q.lower())


def test_prepare_reads_the_schema_version_once(db: Sql) -> None:
    db.run("CREATE TABLE t (a INT, b VARCHAR(10))")
    sql = "SELECT b FROM t WHERE a = ?"
    db.s.prepare(sql)  # compiled and cached
    count = _count_pragmas(db.s)
    p = db.s.prepare(sql)  # the cached plan
    assert count() == 1  # before: 2
    assert p.schema_version == db.s._schema_version()


def test_row_lock_open_reads_the_schema_version_once(db: Sql) -> None:
    assert db.s.row_locks
    db.run("CREATE TABLE t (a INT, b VARCHAR(10))")
    db.run("INSERT INTO t VALUES (1, 'one')")
    p = db.s.prepare("SELECT b FROM t WHERE a = ?")
    assert list(db.s.open_cursor(p, [1])) == [("one",)]
    count = _count_pragmas(db.s)
    assert list(db.s.open_cursor(p, [1])) == [("one",)]
    assert count() == 1  # before: 2


def _order(s: Any) -> Callable[[], list[str]]:
    """The kinds of statements SQLite runs on ``s``'s connection, in order."""
    seen: list[str] = []
    s._connection().set_trace_callback(seen.append)
    return lambda: ["pragma" if "schema_version" in q.lower() else
                    "select" if q.lstrip().lower().startswith("select") else "other"
                    for q in seen]


def test_row_lock_open_checks_the_version_in_the_querys_transaction(engine: Engine, db: Sql,
                                                                    ) -> None:
    db.run("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 'one')")
    db.run("INSERT INTO t VALUES (2, 'two')")
    p = db.s.prepare("SELECT b FROM t WHERE a = ?")
    assert list(db.s.open_cursor(p, [1])) == [("one",)]
    order = _order(db.s)
    assert list(db.s.open_cursor(p, [1])) == [("one",)]
    assert order() == ["select", "pragma"]  # before: pragma, select
    other = session_on(engine, "testdb")
    try:
        other.run("BEGIN WORK")
        other.run("UPDATE t SET b = 'dos' WHERE a = 2")  # a holder: the usual order
        order = _order(db.s)
        assert list(db.s.open_cursor(p, [1])) == [("one",)]
        assert order()[:2] == ["pragma", "select"]
        other.run("ROLLBACK WORK")
    finally:
        other.s.close()


def test_row_lock_late_check_still_answers_710(engine: Engine, db: Sql) -> None:
    """A table altered between two OPENs while nobody holds its rows: the query runs
    first, then the check inside its transaction finds the change, the rows are dropped
    and -710 answered, as without row locks."""
    db.run("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 'one')")
    p = db.s.prepare("SELECT b FROM t WHERE a = ?")
    assert list(db.s.open_cursor(p, [1])) == [("one",)]
    other = session_on(engine, "testdb")
    try:
        other.run("ALTER TABLE t MODIFY b VARCHAR(20)")
    finally:
        other.s.close()
    order = _order(db.s)
    with pytest.raises(EngineError) as info:
        list(db.s.open_cursor(p, [1]))
    assert info.value.sqlcode == -710
    assert order()[:2] == ["select", "pragma"]
    assert not db.s._cursors
    p = db.s.prepare("SELECT b FROM t WHERE a = ?")
    assert list(db.s.open_cursor(p, [1])) == [("one",)]


def test_repeatable_read_in_a_transaction_keeps_the_usual_order(db: Sql) -> None:
    """REPEATABLE READ in a transaction takes a SHARE lock on each table it reads: the
    -710 check stays before it."""
    db.run("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 'one')")
    db.run("SET ISOLATION TO REPEATABLE READ")
    db.run("BEGIN WORK")
    p = db.s.prepare("SELECT b FROM t WHERE a = ?")
    order = _order(db.s)
    assert list(db.s.open_cursor(p, [1])) == [("one",)]
    assert order()[:2] == ["pragma", "select"]
    db.run("COMMIT WORK")


def test_ddl_between_two_opens_under_row_locks(engine: Engine, db: Sql) -> None:
    """The schema the row-lock check looks tables up in is the one the -710 check read:
    a table altered by another session between two OPENs is -710, and the statement
    prepared again reads the new table."""
    db.run("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 'one')")
    sql = "SELECT * FROM t WHERE a = ?"
    p = db.s.prepare(sql)
    assert list(db.s.open_cursor(p, [1])) == [(1, "one")]
    other = session_on(engine, "testdb")
    try:
        other.run("ALTER TABLE t ADD c INT")
        other.run("BEGIN WORK")
        other.run("INSERT INTO t VALUES (2, 'two', 2)")  # held, uncommitted
        with pytest.raises(EngineError) as info:
            list(db.s.open_cursor(p, [1]))
        assert info.value.sqlcode == -710
        p = db.s.prepare(sql)
        # the new table, read through the lock filter (row 2 is held): row 1 is free
        assert list(db.s.open_cursor(p, [1])) == [(1, "one", None)]
        with pytest.raises(EngineError) as info:
            list(db.s.open_cursor(p, [2]))
        assert info.value.sqlcode == -244
        other.run("COMMIT WORK")
        assert list(db.s.open_cursor(p, [2])) == [(2, "two", 2)]
    finally:
        other.s.close()


def test_ddl_between_two_prepares_of_one_text_is_seen(engine: Engine, db: Sql) -> None:
    db.run("CREATE TABLE t (a INT, b VARCHAR(10))")
    db.run("INSERT INTO t VALUES (1, 'one')")
    sql = "SELECT * FROM t WHERE a = ?"
    p1 = db.s.prepare(sql)
    assert [c.name for c in p1.columns] == ["a", "b"]
    other = session_on(engine, "testdb")
    try:
        other.run("ALTER TABLE t ADD c INT")
        other.run("UPDATE t SET c = 7")
    finally:
        other.s.close()
    p2 = db.s.prepare(sql)  # the same text after the ALTER: the new columns
    assert [c.name for c in p2.columns] == ["a", "b", "c"]
    assert list(db.s.open_cursor(p2, [1])) == [(1, "one", 7)]
    with pytest.raises(EngineError) as info:  # the statement prepared before: -710
        list(db.s.open_cursor(p1, [1]))
    assert info.value.sqlcode == -710


def test_row_lock_query_of_free_tables_reads_at_open(engine: Engine, db: Sql) -> None:
    assert db.s.row_locks
    db.run("CREATE TABLE t (a INT, b VARCHAR(10))")
    db.run("INSERT INTO t VALUES (1, 'one')")
    db.run("INSERT INTO t VALUES (2, 'two')")
    p = db.s.prepare("SELECT b FROM t WHERE a = ?")
    rows = db.s.open_cursor(p, [1])
    assert not db.s._cursors  # before: the cursor stayed open behind the OPEN
    assert list(rows) == [("one",)]
    # 300 rows: more than one batch, the rest is streamed as before
    db.run("CREATE TABLE big (i INT)")
    for i in range(300):
        db.run("INSERT INTO big VALUES (?)", i)
    big = db.s.open_cursor(db.s.prepare("SELECT i FROM big ORDER BY i"), [])
    assert len(db.s._cursors) == 1
    assert [r[0] for r in big] == list(range(300))


def test_row_lock_query_of_a_held_table_reads_through_the_filter(engine: Engine, db: Sql,
                                                                 ) -> None:
    db.run("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)) LOCK MODE ROW")
    db.run("INSERT INTO t VALUES (1, 'one')")
    db.run("INSERT INTO t VALUES (2, 'two')")
    other = session_on(engine, "testdb")
    try:
        other.run("BEGIN WORK")
        other.run("UPDATE t SET b = 'uno' WHERE a = 1")  # holds row 1, uncommitted
        p = db.s.prepare("SELECT b FROM t WHERE a = ?")
        rows = db.s.open_cursor(p, [2])  # another row, by its key: no lock met
        assert len(db.s._cursors) == 1  # the lazy stream through the lock filter
        assert list(rows) == [("two",)]
        with pytest.raises(EngineError) as info:  # the held row: the lock error
            list(db.s.open_cursor(p, [1]))
        assert info.value.sqlcode == -244
        other.run("COMMIT WORK")
        assert list(db.s.open_cursor(p, [1])) == [("uno",)]  # nobody holds it: at OPEN
        assert not db.s._cursors
    finally:
        other.s.close()
