"""Temporary tables are private to their session (issue 23): building, filling and dropping
them takes no database write lock, so sessions that each use temp tables (IBM JDBC does for
DatabaseMetaData) never meet -242/-107; one session's temp table is invisible to another."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import ifxwire

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="module", params=["WITH LOG", ""], ids=["logged", "unlogged"])
def tempdb(request: pytest.FixtureRequest, server: Any) -> str:
    name = "d_tmp_" + ("log" if request.param else "nolog")
    with ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                         autocommit=True) as c:
        c.cursor().execute(f"CREATE DATABASE {name} {request.param}")
        c.cursor().execute("CREATE TABLE perm (k INT)")
    return name


@pytest.fixture(scope="module")
def logged_db(server: Any) -> str:
    with ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                         autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE d_tmp_txn WITH LOG")
        # LOCK MODE ROW: the row-lock branches write other rows of perm beside a holder's,
        # which in a PAGE table (the default) share its locked page
        c.cursor().execute("CREATE TABLE perm (k INT) LOCK MODE ROW")
    return "d_tmp_txn"


def _connect(server: Any, db: str) -> ifxwire.Connection:
    return ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                           database=db, autocommit=True)


def test_parallel_sessions_build_temp_tables_without_errors(server: Any, tempdb: str) -> None:
    errors: list[str] = []
    done = [0]

    def work(k: int) -> None:
        with _connect(server, tempdb) as c:
            cur = c.cursor()
            for i in range(25):
                t = f"tt{k}_{i}"
                try:
                    cur.execute(f"CREATE TEMP TABLE {t} (a INT, b VARCHAR(20)) WITH NO LOG")
                    cur.execute(f"CREATE INDEX ix_{t} ON {t} (a)")
                    cur.executemany(f"INSERT INTO {t} VALUES (?, ?)", [(j, "x") for j in range(5)])
                    cur.execute(f"UPDATE {t} SET b = 'y' WHERE a = 1")
                    cur.execute(f"SELECT COUNT(*) FROM {t} WHERE b = 'x'")
                    assert cur.fetchone() == (4,)
                    cur.execute(f"SELECT a FROM {t} WHERE a > 2 INTO TEMP s{t} WITH NO LOG")
                    cur.execute(f"DROP TABLE s{t}")
                    cur.execute(f"DELETE FROM {t}")
                    cur.execute(f"DROP TABLE {t}")
                    done[0] += 1
                except ifxwire.Error as e:
                    errors.append(f"session {k} {t}: {e}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert done[0] == 75


def test_temp_work_goes_on_while_another_session_holds_the_write_lock(
        server: Any, logged_db: str) -> None:
    tempdb = logged_db
    holder = ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                             database=tempdb)  # autocommit off: the INSERT keeps the lock
    try:
        holder.cursor().execute("INSERT INTO perm VALUES (1)")
        with _connect(server, tempdb) as c:
            cur = c.cursor()
            cur.execute("CREATE TEMP TABLE lone (a INT) WITH NO LOG")
            rows = server.engine.row_locks
            if rows:
                # Row locks: the SELECT part reads perm under COMMITTED READ, so it meets the
                # holder's uncommitted row (ISAM -107) instead of copying it dirty.
                with pytest.raises(ifxwire.DatabaseError) as e:
                    cur.execute("INSERT INTO lone SELECT k FROM perm")
                assert e.value.isamcode == -107  # type: ignore[attr-defined]
            else:
                cur.execute("INSERT INTO lone SELECT k FROM perm")  # the committed state
            cur.execute("INSERT INTO lone VALUES (7)")
            cur.execute("SELECT a FROM lone")
            assert cur.fetchall() == [(7,)]
            cur.execute("DROP TABLE lone")
            if rows:  # Informix row locks: an INSERT of another row proceeds
                cur.execute("INSERT INTO perm VALUES (2)")
                cur.execute("DELETE FROM perm WHERE k = 2")  # the next tests share perm
            else:  # a permanent table still meets the database-wide lock, as before
                with pytest.raises(ifxwire.DatabaseError) as e:
                    cur.execute("INSERT INTO perm VALUES (2)")
                assert e.value.isamcode == -107  # type: ignore[attr-defined]
    finally:
        holder.rollback()
        holder.close()


def test_temp_table_is_invisible_to_another_session(server: Any, tempdb: str) -> None:
    with _connect(server, tempdb) as one, _connect(server, tempdb) as two:
        one.cursor().execute("CREATE TEMP TABLE mine (a INT) WITH NO LOG")
        one.cursor().execute("INSERT INTO mine VALUES (1)")
        cur = two.cursor()
        with pytest.raises(ifxwire.DatabaseError) as e:
            cur.execute("SELECT * FROM mine")
        assert e.value.sqlcode == -206  # type: ignore[attr-defined]
        # The other session may make its own table of that name.
        cur.execute("CREATE TEMP TABLE mine (b CHAR(3)) WITH NO LOG")
        cur.execute("INSERT INTO mine VALUES ('two')")
        c1 = one.cursor()
        c1.execute("SELECT * FROM mine")
        assert c1.fetchall() == [(1,)]
        cur.execute("SELECT * FROM mine")
        assert cur.fetchall() == [("two",)]


def test_failed_temp_statement_leaves_the_table_as_it_was(server: Any, tempdb: str) -> None:
    with _connect(server, tempdb) as c:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE nn (a INT NOT NULL, b INT) WITH NO LOG")
        cur.execute("INSERT INTO nn VALUES (1, 1)")
        cur.execute("INSERT INTO nn VALUES (2, 2)")
        # The first row selected goes in, the second breaks NOT NULL: the statement's first
        # row must go too. (No UNION here: a set operator in INSERT ... SELECT is refused,
        # Guide to SQL: Syntax 14.10, INSERT, "Subset of SELECT Statement".)
        with pytest.raises(ifxwire.IntegrityError):
            cur.execute("INSERT INTO nn SELECT CASE WHEN a = 2 THEN NULL ELSE a + 10 END, 3 "
                        "FROM nn")
        cur.execute("SELECT a, b FROM nn ORDER BY a")
        assert cur.fetchall() == [(1, 1), (2, 2)]
        with pytest.raises(ifxwire.DatabaseError) as e:
            cur.execute("CREATE TEMP TABLE nn (x INT)")
        assert e.value.sqlcode == -958  # type: ignore[attr-defined]


def test_temp_tables_inside_a_transaction_still_roll_back_with_it(
        server: Any, logged_db: str) -> None:
    tempdb = logged_db
    c = ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                        database=tempdb)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE intx (a INT)")
        c.commit()
        cur.execute("INSERT INTO intx VALUES (1)")
        c.rollback()
        cur.execute("SELECT COUNT(*) FROM intx")
        assert cur.fetchone() == (0,)
    finally:
        c.close()


def test_a_routine_writing_a_temp_and_a_permanent_table_takes_the_lock(
        server: Any, logged_db: str) -> None:
    """A routine run by EXECUTE PROCEDURE writes the session's temp table and then a permanent
    one: the temp write needs no lock, the permanent write needs the database's write lock like
    any other, so it meets another session's open transaction as a lock error (not SQLite's
    BUSY mid-statement), and runs once that transaction ends.

    The same routine called inside the temp table's INSERT (``INSERT INTO tr VALUES
    (note_perm(8))``, the form this test had before) is -675: a routine called inside a DML
    statement may not write (Guide to SQL: Syntax, ids_sqs_1755)."""
    with _connect(server, logged_db) as setup:
        setup.cursor().execute(
            "CREATE PROCEDURE note_both(v INT) INSERT INTO tr VALUES (v); "
            "INSERT INTO perm VALUES (v); END PROCEDURE")
        setup.cursor().execute(
            "CREATE FUNCTION note_perm(v INT) RETURNING INT; "
            "INSERT INTO perm VALUES (v); RETURN v; END FUNCTION")
    holder = ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                             database=logged_db)
    other = _connect(server, logged_db)
    try:
        holder.cursor().execute("INSERT INTO perm VALUES (-1)")  # a transaction left open
        cur = other.cursor()
        cur.execute("CREATE TEMP TABLE tr (x INT) WITH NO LOG")
        cur.execute("INSERT INTO tr VALUES (7)")  # temp only: no lock needed, none met
        if server.engine.row_locks:
            # Informix row locks: the routine's INSERT of another row proceeds beside the
            # holder's uncommitted one (docs/SERVER.md "Locks and isolation").
            cur.execute("EXECUTE PROCEDURE note_both(8)")
            holder.rollback()
            expected = [(8,), (9,)]
        else:
            with pytest.raises(ifxwire.DatabaseError) as info:
                cur.execute("EXECUTE PROCEDURE note_both(8)")
            assert info.value.isamcode == -107, info.value  # type: ignore[attr-defined]
            holder.rollback()
            expected = [(9,)]
        cur.execute("EXECUTE PROCEDURE note_both(9)")
        cur.execute("SELECT k FROM perm WHERE k > 0 ORDER BY k")
        assert cur.fetchall() == expected
        # the temp writes never waited: outside a transaction each statement of a routine
        # stands alone, so the failed call's temp row, written before its permanent write
        # met the lock, stays
        cur.execute("SELECT x FROM tr ORDER BY x")
        assert cur.fetchall() == [(7,), (8,), (9,)]
        # the old form, once no lock stands in its way (without row locks the write lock is
        # met first): the routine is called inside the INSERT, its own INSERT is -675
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute("INSERT INTO tr VALUES (note_perm(10))")
        assert info.value.sqlcode == -675, info.value  # type: ignore[attr-defined]
        cur.execute("SELECT COUNT(*) FROM perm WHERE k = 10")
        assert cur.fetchone() == (0,)
    finally:
        holder.close()
        other.close()


def _in_txn(server: Any, db: str) -> ifxwire.Connection:
    """A session in a transaction (autocommit off) that meets locks at once (NOT WAIT)."""
    c = ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                        database=db)
    c.cursor().execute("SET LOCK MODE TO NOT WAIT")
    return c


@pytest.mark.parametrize("first", ["one", "two"])
def test_sessions_in_transactions_make_temp_tables_side_by_side(
        server: Any, logged_db: str, first: str) -> None:
    """Two sessions, each inside a transaction, make, fill and read temp tables while the
    other's transaction is open (issue 23: JDBC's metadata temp tables of parallel sessions met
    -242/-107 and -271/-107 when made inside a transaction). Informix: a temporary table is
    its session's alone; only its creation is in the transaction log (ids_sqs_0575)."""
    one, two = _in_txn(server, logged_db), _in_txn(server, logged_db)
    order = [one, two] if first == "one" else [two, one]
    try:
        if not server.engine.row_locks:
            # without row locks (IFXWIRE_ROW_LOCKS=0) a transaction's first write takes the
            # database's write lock, temp or not, and the other session meets it
            order[0].cursor().execute("CREATE TEMP TABLE side0 (a INT) WITH NO LOG")
            with pytest.raises(ifxwire.DatabaseError) as e:
                order[1].cursor().execute("CREATE TEMP TABLE side1 (a INT) WITH NO LOG")
            assert e.value.isamcode == -107  # type: ignore[attr-defined]
            return
        for k, c in enumerate(order):
            cur = c.cursor()
            cur.execute(f"CREATE TEMP TABLE side{k} (a INT, b VARCHAR(9)) WITH NO LOG")
            cur.execute(f"CREATE INDEX ix_side{k} ON side{k} (a)")
            cur.executemany(f"INSERT INTO side{k} VALUES (?, ?)", [(1, "x"), (2, "y")])
            cur.execute(f"UPDATE side{k} SET b = 'z' WHERE a = 2")
            cur.execute(f"SELECT a FROM side{k} WHERE b = 'z' INTO TEMP pick{k} WITH NO LOG")
            cur.execute(f"CREATE TEMP TABLE logged{k} (a INT)")  # logged: made in this txn
            cur.execute(f"INSERT INTO logged{k} SELECT a FROM side{k}")
        # a permanent row of its own beside it, under row locks
        order[0].cursor().execute("INSERT INTO perm VALUES (101)")
        for k, c in enumerate(order):
            cur = c.cursor()
            cur.execute(f"SELECT a FROM pick{k}")
            assert cur.fetchall() == [(2,)]
            cur.execute(f"SELECT COUNT(*) FROM logged{k}")
            assert cur.fetchone() == (2,)
        for c in order:
            c.commit()
        for k, c in enumerate(order):
            cur = c.cursor()
            cur.execute(f"SELECT b FROM side{k} ORDER BY a")
            assert cur.fetchall() == [("x",), ("z",)]
            for t in (f"side{k}", f"pick{k}", f"logged{k}"):
                cur.execute(f"DROP TABLE {t}")
            c.commit()
        order[0].cursor().execute("DELETE FROM perm WHERE k = 101")
        order[0].commit()
    finally:
        one.close()
        two.close()


def test_rollback_drops_the_temp_tables_its_transaction_made(server: Any, logged_db: str) -> None:
    """CREATE TEMP TABLE and SELECT ... INTO TEMP are DDL, logged: ROLLBACK WORK takes them
    back (the name is free again), COMMIT WORK keeps them (ids_sqs_0575)."""
    c = _in_txn(server, logged_db)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE gone (a INT) WITH NO LOG")
        cur.execute("INSERT INTO gone VALUES (1)")
        cur.execute("SELECT a FROM gone INTO TEMP gone2 WITH NO LOG")
        cur.execute("CREATE TEMP TABLE kept (a INT) WITH NO LOG")
        c.rollback()
        for t in ("gone", "gone2", "kept"):
            with pytest.raises(ifxwire.DatabaseError) as e:
                cur.execute(f"SELECT * FROM {t}")
            assert e.value.sqlcode == -206, (t, e.value)  # type: ignore[attr-defined]
        cur.execute("CREATE TEMP TABLE gone (b CHAR(2)) WITH NO LOG")  # the name is free
        cur.execute("INSERT INTO gone VALUES ('ok')")
        c.commit()
        cur.execute("SELECT b FROM gone")
        assert cur.fetchall() == [("ok",)]
        cur.execute("DROP TABLE gone")
        c.commit()
    finally:
        c.close()


def test_rows_of_a_no_log_temp_table_outlive_a_rollback(server: Any, logged_db: str) -> None:
    """WITH NO LOG: "DML operations on the temporary table are not included in the transaction
    log records" (ids_sqs_0575), so a ROLLBACK cannot take them back; a logged temp table's
    rows are (test_temp_tables_inside_a_transaction_still_roll_back_with_it)."""
    c = _in_txn(server, logged_db)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE nolog (a INT) WITH NO LOG")
        c.commit()
        cur.execute("INSERT INTO nolog VALUES (1)")
        cur.execute("UPDATE nolog SET a = 2")
        c.rollback()
        cur.execute("SELECT a FROM nolog")
        # without row locks (IFXWIRE_ROW_LOCKS=0) the transaction is one SQLite transaction,
        # whose rollback takes every change back, as before
        assert cur.fetchall() == ([(2,)] if server.engine.row_locks else [])
        cur.execute("DROP TABLE nolog")
        c.commit()
    finally:
        c.close()


def test_rollback_takes_back_temp_ddl_that_ran_under_the_write_lock(
        server: Any, logged_db: str) -> None:
    """The temp DDL that still runs under the write lock inside a transaction (after a
    SAVEPOINT, a table with a smart-LOB column, dropping a temp table made before it): its
    ROLLBACK leaves the session's temporary tables as they were before it. Before, the
    session still knew a table SQLite had rolled back (-999 on a SELECT, -958 on making it
    again), kept the smart-LOB one, and forgot a dropped one SQLite had brought back (-206)."""
    c = _in_txn(server, logged_db)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE older (a INT)")
        cur.execute("INSERT INTO older VALUES (5)")
        c.commit()
        cur.execute("SAVEPOINT s1")
        cur.execute("CREATE TEMP TABLE aftersp (a INT)")
        cur.execute("CREATE TEMP TABLE withlob (a INT, b BLOB)")
        cur.execute("DROP TABLE older")
        c.rollback()
        for t in ("aftersp", "withlob"):
            with pytest.raises(ifxwire.DatabaseError) as e:
                cur.execute(f"SELECT * FROM {t}")
            assert e.value.sqlcode == -206, (t, e.value)  # type: ignore[attr-defined]
            cur.execute(f"CREATE TEMP TABLE {t} (x CHAR(1))")  # the name is free again
        cur.execute("SELECT a FROM older")
        assert cur.fetchall() == [(5,)]
        c.commit()
        for t in ("aftersp", "withlob", "older"):
            cur.execute(f"DROP TABLE {t}")
        c.commit()
    finally:
        c.close()
