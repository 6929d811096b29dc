"""A session makes a table's lock triggers at its first write to that table, not every
table's at its first write (engine/features/locks/triggers.py; docs/SERVER.md "Lock triggers
made at a table's first write"). Before, a new session made four TEMP triggers per table of
the database (0.8-1.7 s at 500 tables). The locks must be the same: a write reaching a table
through a SQLite cascade, an Informix trigger or an SPL routine still takes its row locks and
rolls back. Runs with row locks on whatever the environment says, over a real server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire

USER = {"user": "informix", "password": "in4mix"}


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as s:
        c = ifxwire.connect(host=s.host, port=s.port, autocommit=True, **USER)
        c.execute("CREATE DATABASE rlz WITH LOG")
        c.close()
        yield s


def _connect(srv: Any) -> ifxwire.Connection:
    return ifxwire.connect(host=srv.host, port=srv.port, database="rlz", autocommit=True,
                           **USER)


def _lock_triggers(srv: Any, c: ifxwire.Connection) -> set[str]:
    """The tables with lock triggers on the SQLite connection of session ``c`` (read from
    its ``temp.sqlite_master``, through the server's session object)."""
    sid = c.execute("SELECT DBINFO('sessionid') FROM systables WHERE tabid = 1").fetchone()[0]
    (session,) = [s for s in srv._sessions if s.engine.session_id == sid]
    conn = session.engine.conn
    return {str(r[0]) for r in conn.execute(
        "SELECT tbl_name FROM temp.sqlite_master WHERE type = 'trigger' "
        "AND name LIKE '\\_ifxlk\\_%' ESCAPE '\\'")}


def _others_rows(srv: Any, c: ifxwire.Connection, table: str) -> list[int]:
    """The row locks other sessions than ``c``'s hold in ``table`` (the server's lock table)."""
    sid = c.execute("SELECT DBINFO('sessionid') FROM systables WHERE tabid = 1").fetchone()[0]
    (session,) = [s for s in srv._sessions if s.engine.session_id == sid]
    return list(session.engine.engine.locks.others_rows(sid, "rlz", table))


def _err(c: ifxwire.Connection, sql: str) -> tuple[int, int]:
    with pytest.raises(ifxwire.DatabaseError) as e:
        c.execute(sql)
    return e.value.sqlcode, e.value.isamcode


def test_a_session_makes_triggers_only_for_the_tables_it_writes(srv: Any) -> None:
    c = _connect(srv)
    for n in range(30):
        c.execute(f"CREATE TABLE m{n} (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    c.close()
    a, b = _connect(srv), _connect(srv)
    try:
        a.execute("SELECT COUNT(*) FROM m3").fetchall()
        assert _lock_triggers(srv, a) == set()  # a read makes none
        a.execute("BEGIN WORK")
        a.execute("INSERT INTO m7 VALUES (1, 1)")
        assert _lock_triggers(srv, a) == {"m7"}
        b.execute("BEGIN WORK")
        assert _err(b, "INSERT INTO m7 VALUES (1, 2)") == (-271, -107)
        b.execute("INSERT INTO m8 VALUES (1, 2)")  # another table: proceeds
        assert _lock_triggers(srv, b) == {"m7", "m8"}
        b.execute("COMMIT WORK")
        a.execute("ROLLBACK WORK")
        assert a.execute("SELECT COUNT(*) FROM m7").fetchone()[0] == 0
    finally:
        a.close()
        b.close()


def test_cascades_and_informix_triggers_lock_the_rows_they_write(srv: Any) -> None:
    """The first statement of the session writes three tables at once: the parent, a child
    through ON DELETE CASCADE (SQLite's own), a log through an Informix trigger. Each gets
    its triggers, each row is locked against another session and comes back at ROLLBACK."""
    c = _connect(srv)
    c.execute("CREATE TABLE par (id INT PRIMARY KEY) LOCK MODE ROW")
    c.execute("CREATE TABLE kid (id INT PRIMARY KEY, p INT REFERENCES par (id) "
              "ON DELETE CASCADE) LOCK MODE ROW")
    c.execute("CREATE TABLE plog (id INT, what CHAR(8)) LOCK MODE ROW")
    c.execute("CREATE TRIGGER par_del DELETE ON par REFERENCING OLD AS o "
              "FOR EACH ROW (INSERT INTO plog VALUES (o.id, 'gone'))")
    c.execute("INSERT INTO par VALUES (1)")
    c.execute("INSERT INTO par VALUES (2)")
    c.execute("INSERT INTO kid VALUES (10, 1)")
    c.execute("INSERT INTO kid VALUES (20, 2)")
    c.close()
    a, b = _connect(srv), _connect(srv)
    try:
        a.execute("BEGIN WORK")
        a.execute("DELETE FROM par WHERE id = 1")
        assert {"par", "kid", "plog"} <= _lock_triggers(srv, a)
        b.execute("SET ISOLATION TO DIRTY READ")
        assert b.execute("SELECT id, what FROM plog").fetchall() == [(1, "gone")]
        assert b.execute("SELECT id FROM kid").fetchall() == [(20,)]
        # the rows the cascade and the trigger wrote are a's, as the parent's row is
        assert _others_rows(srv, b, "kid") and _others_rows(srv, b, "plog")
        assert _others_rows(srv, b, "par")
        b.execute("UPDATE kid SET p = 2 WHERE id = 20")  # a row nobody holds
        a.execute("ROLLBACK WORK")
        b.execute("SET ISOLATION TO COMMITTED READ")
        assert b.execute("SELECT id, p FROM kid ORDER BY id").fetchall() == [(10, 1), (20, 2)]
        assert b.execute("SELECT COUNT(*) FROM plog").fetchone()[0] == 0
        assert b.execute("SELECT COUNT(*) FROM par").fetchone()[0] == 2
    finally:
        a.close()
        b.close()


def test_a_routine_writing_another_table_locks_its_rows(srv: Any) -> None:
    c = _connect(srv)
    c.execute("CREATE TABLE src (id INT PRIMARY KEY) LOCK MODE ROW")
    c.execute("CREATE TABLE dst (id INT PRIMARY KEY, n INT) LOCK MODE ROW")
    c.execute("INSERT INTO dst VALUES (1, 0)")
    c.execute("CREATE PROCEDURE bump(k INT) UPDATE dst SET n = n + 1 WHERE id = k; "
              "END PROCEDURE")
    c.close()
    a, b = _connect(srv), _connect(srv)
    try:
        a.execute("BEGIN WORK")
        a.execute("EXECUTE PROCEDURE bump(1)")
        assert "dst" in _lock_triggers(srv, a)
        assert _err(b, "UPDATE dst SET n = 9 WHERE id = 1") == (-346, -107)
        a.execute("ROLLBACK WORK")
        assert b.execute("SELECT n FROM dst").fetchone()[0] == 0
    finally:
        a.close()
        b.close()


def test_alter_of_a_table_the_session_never_wrote(srv: Any) -> None:
    """ALTER's copy of the rows into the new table is DDL's own write: not refused."""
    c = _connect(srv)
    c.execute("CREATE TABLE alt (id INT PRIMARY KEY, v CHAR(4)) LOCK MODE ROW")
    c.execute("INSERT INTO alt VALUES (1, 'a')")
    c.close()
    a = _connect(srv)
    try:
        a.execute("ALTER TABLE alt MODIFY (v CHAR(8))")
        assert _lock_triggers(srv, a) == set()
        a.execute("BEGIN WORK")
        a.execute("ALTER TABLE alt MODIFY (v CHAR(10))")
        a.execute("UPDATE alt SET v = 'b'")
        a.execute("ROLLBACK WORK")
        assert a.execute("SELECT id, v FROM alt").fetchall() == [(1, "a")]
    finally:
        a.close()


def test_triggers_made_in_a_rolled_back_transaction_are_made_again(srv: Any) -> None:
    """A savepoint escalates the transaction (one SQLite transaction to its end): the
    triggers made inside it go with its rollback, and the next write makes them again."""
    c = _connect(srv)  # kept open: a and b get SQLite connections of their own
    c.execute("CREATE TABLE esc (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    c.execute("INSERT INTO esc VALUES (1, 1)")
    a, b = _connect(srv), _connect(srv)
    try:
        a.execute("BEGIN WORK")
        a.execute("SAVEPOINT s1")
        a.execute("UPDATE esc SET v = 2")
        a.execute("ROLLBACK WORK")
        assert _lock_triggers(srv, a) == set()
        a.execute("BEGIN WORK")
        a.execute("UPDATE esc SET v = 3 WHERE id = 1")
        assert _lock_triggers(srv, a) == {"esc"}
        assert _err(b, "UPDATE esc SET v = 4 WHERE id = 1") == (-346, -107)
        a.execute("ROLLBACK WORK")
        assert b.execute("SELECT v FROM esc").fetchone()[0] == 1
    finally:
        a.close()
        b.close()
        c.close()


def test_a_pooled_connection_keeps_its_triggers(srv: Any) -> None:
    c = _connect(srv)
    c.execute("CREATE TABLE pool_t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    c.execute("INSERT INTO pool_t VALUES (1, 1)")
    c.close()
    a = _connect(srv)
    a.execute("UPDATE pool_t SET v = 2")
    made = _made(srv, a)
    a.close()
    a = _connect(srv)  # the Engine hands it the SQLite connection the last session had
    b = _connect(srv)
    try:
        a.execute("BEGIN WORK")
        a.execute("UPDATE pool_t SET v = 3")
        assert _made(srv, a) == made  # nothing made again
        assert _err(b, "DELETE FROM pool_t WHERE id = 1") == (-240, -107)
        a.execute("ROLLBACK WORK")
    finally:
        a.close()
        b.close()


def _made(srv: Any, c: ifxwire.Connection) -> int:
    sid = c.execute("SELECT DBINFO('sessionid') FROM systables WHERE tabid = 1").fetchone()[0]
    (session,) = [s for s in srv._sessions if s.engine.session_id == sid]
    return int(session.engine._rl_triggers.made)


def _hierarchy(srv: Any) -> ifxwire.Connection:
    """p and its subtable e, a row each; the connection that made them is returned open, so
    that the next sessions get SQLite connections without lock triggers."""
    c = _connect(srv)
    c.execute("CREATE ROW TYPE p_t (id INT, v INT)")
    c.execute("CREATE ROW TYPE e_t (w INT) UNDER p_t")
    c.execute("CREATE TABLE p OF TYPE p_t")
    c.execute("CREATE TABLE e OF TYPE e_t UNDER p")
    c.execute("INSERT INTO p VALUES (1, 1)")
    c.execute("INSERT INTO e VALUES (2, 1, 0)")
    return c


def test_a_refused_part_of_an_escalated_statement_is_not_run_twice(srv: Any) -> None:
    """A supertable's UPDATE runs on each table of the hierarchy; inside a transaction that
    holds SQLite's (a savepoint), the subtable's part is refused for its missing triggers
    after the supertable's part ran: that part is taken back before the statement runs
    again, so each row is updated once."""
    c = _hierarchy(srv)
    a = _connect(srv)
    try:
        a.execute("BEGIN WORK")
        a.execute("SAVEPOINT s1")
        a.execute("UPDATE p SET v = v + 1")
        assert sorted(a.execute("SELECT id, v FROM p").fetchall()) == [(1, 2), (2, 2)]
        a.execute("COMMIT WORK")
        assert sorted(a.execute("SELECT id, v FROM p").fetchall()) == [(1, 2), (2, 2)]
    finally:
        a.close()
        c.close()


def test_writes_after_rollback_to_savepoint_still_lock(srv: Any) -> None:
    """Triggers made after a savepoint go with ROLLBACK TO SAVEPOINT: the next write makes
    them again, so another session still meets the row's lock."""
    c = _connect(srv)
    c.execute("CREATE TABLE u (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
    c.execute("INSERT INTO u VALUES (1, 1)")
    c.execute("INSERT INTO u VALUES (2, 2)")
    a, b = _connect(srv), _connect(srv)  # c kept open: SQLite connections of their own
    try:
        a.execute("BEGIN WORK")
        a.execute("SAVEPOINT s1")
        a.execute("UPDATE u SET v = 10 WHERE id = 1")
        a.execute("ROLLBACK WORK TO SAVEPOINT s1")
        a.execute("UPDATE u SET v = 20 WHERE id = 2")
        assert _err(b, "SELECT v FROM u WHERE id = 2") == (-244, -107)
        a.execute("ROLLBACK WORK")
        assert sorted(b.execute("SELECT id, v FROM u").fetchall()) == [(1, 1), (2, 2)]
    finally:
        a.close()
        b.close()
        c.close()
