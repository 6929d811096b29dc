"""Issue 12, third round, over real sockets with the ifxwire driver: writes into another
database in one transaction with local ones (and the logging-mode rule), MERGE forms,
statement-local variables, SELECT triggers' FOR EACH ROW actions and ALTER TABLE forms."""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire


def _sqlcode(e: pytest.ExceptionInfo[ifxwire.DatabaseError]) -> int:
    return int(e.value.sqlcode)  # type: ignore[attr-defined]


def test_writes_into_another_database_share_the_transaction(
        conn: ifxwire.Connection, connect_kwargs: dict[str, Any], dbname: str) -> None:
    other = dbname[:40] + "_other"
    admin = ifxwire.connect(**connect_kwargs)
    try:
        cur = admin.cursor()
        cur.execute(f"CREATE DATABASE {other} WITH LOG")
        cur.execute("CREATE TABLE ledger (id SERIAL, amount DECIMAL(10,2))")
        admin.commit()
        cur.execute(f"CREATE DATABASE {other}_nolog")
        cur.execute("CREATE TABLE t (a INT)")
    finally:
        admin.close()
    cur = conn.cursor()
    cur.execute("CREATE TABLE xdb_orders (n INT)")
    conn.commit()
    # autocommit off: the first write opens the transaction; both writes roll back together
    cur.execute(f"INSERT INTO {other}:ledger (amount) VALUES (?)", [10])
    cur.execute("INSERT INTO xdb_orders VALUES (1)")
    conn.rollback()
    cur.execute(f"SELECT COUNT(*) FROM {other}:ledger")
    assert cur.fetchone() == (0,)
    cur.execute(f"INSERT INTO {other}:informix.ledger (amount) VALUES (?)", [12.5])
    cur.execute("INSERT INTO xdb_orders VALUES (2)")
    cur.execute(f"UPDATE {other}:ledger SET amount = amount * 2")
    assert cur.rowcount == 1
    conn.commit()
    cur.execute(f"SELECT amount FROM {other}:ledger")
    assert [float(a) for (a,) in cur.fetchall()] == [25.0]
    cur.execute(f"DELETE FROM {other}:ledger WHERE amount = 25")
    conn.commit()
    cur.execute(f"SELECT COUNT(*) FROM {other}:ledger")
    assert cur.fetchone() == (0,)
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute(f"INSERT INTO {other}_nolog:t VALUES (1)")
    assert _sqlcode(info) == -568
    conn.rollback()
    cur.execute("SELECT n FROM xdb_orders")  # the session is usable after the refusal
    assert cur.fetchall() == [(2,)]


def test_merge_delete_with_insert_and_refused_forms(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE mg_stock (code CHAR(3), qty INT)")
    cur.execute("CREATE TABLE mg_feed (code CHAR(3), qty INT)")
    cur.executemany("INSERT INTO mg_stock VALUES (?, ?)", [("AAA", 1), ("BBB", 2)])
    cur.executemany("INSERT INTO mg_feed VALUES (?, ?)", [("BBB", 0), ("CCC", 3)])
    cur.execute("MERGE INTO mg_stock s USING mg_feed f ON s.code = f.code "
                "WHEN MATCHED THEN DELETE "
                "WHEN NOT MATCHED THEN INSERT (code, qty) VALUES (f.code, f.qty)")
    assert cur.rowcount == 2
    cur.execute("SELECT code, qty FROM mg_stock ORDER BY code")
    assert cur.fetchall() == [("AAA", 1), ("CCC", 3)]
    with pytest.raises(ifxwire.ProgrammingError) as info:
        cur.execute("MERGE INTO mg_stock s USING mg_feed f ON s.code = f.code "
                    "WHEN MATCHED AND f.qty = 0 THEN DELETE")
    assert _sqlcode(info) == -201
    conn.commit()


def test_statement_local_variables(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE slv_t (n INT)")
    cur.executemany("INSERT INTO slv_t VALUES (?)", [(1,), (5,)])
    cur.execute("""CREATE FUNCTION slv_plus(i INT, OUT r INT) RETURNING INT;
        LET r = i + 10; RETURN 1;
    END FUNCTION""")
    cur.execute("SELECT n, r FROM slv_t WHERE slv_plus(n + ?, r # INT) = 1 ORDER BY r", [100])
    assert cur.description is not None and [d[0] for d in cur.description] == ["n", "r"]
    assert cur.fetchall() == [(1, 111), (5, 115)]
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("SELECT slv_plus(n, r # INT) FROM slv_t")
    assert _sqlcode(info) == -9780
    conn.rollback()


def test_select_trigger_for_each_row_over_a_cursor(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE st_item (id INT, qty INT)")
    cur.execute("CREATE TABLE st_hits (id INT, qty INT)")
    cur.executemany("INSERT INTO st_item VALUES (?, ?)", [(i, i * 10) for i in range(1, 401)])
    cur.execute("""CREATE TRIGGER st_trig SELECT OF qty ON st_item REFERENCING OLD AS hit
        FOR EACH ROW (INSERT INTO st_hits VALUES (hit.id, hit.qty))""")
    conn.commit()
    cur.execute("SELECT qty FROM st_item WHERE id > ? ORDER BY id", [100])
    assert cur.description is not None and len(cur.description) == 1
    rows = cur.fetchall()  # several fetch batches
    assert len(rows) == 300 and rows[0] == (1010,) and rows[-1] == (4000,)
    cur.execute("SELECT COUNT(*), MIN(id), MAX(qty) FROM st_hits")
    assert cur.fetchone() == (300, 101, 4000)
    cur.execute("SELECT id FROM st_item WHERE id = 1")  # no triggering column: not activated
    assert cur.fetchall() == [(1,)]
    cur.execute("SELECT COUNT(*) FROM st_hits")
    assert cur.fetchone() == (300,)
    conn.commit()


def test_alter_table_forms(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE al_t (a INT, b CHAR(5))")
    cur.execute("INSERT INTO al_t VALUES (1, 'x')")
    cur.execute("ALTER TABLE al_t ADD c INT DEFAULT 7 BEFORE b, "
                "MODIFY a INT NOT NULL PRIMARY KEY CONSTRAINT pk_al_t")
    cur.execute("ALTER TABLE al_t LOCK MODE (ROW)")
    cur.execute("SELECT * FROM al_t")
    assert cur.description is not None and [d[0] for d in cur.description] == ["a", "c", "b"]
    assert cur.fetchall() == [(1, 7, "x")]
    with pytest.raises(ifxwire.IntegrityError):
        cur.execute("INSERT INTO al_t (a, b) VALUES (1, 'y')")
    with pytest.raises(ifxwire.NotSupportedError) as info:
        cur.execute("ALTER TABLE al_t ADD CRCOLS")
    assert _sqlcode(info) == -999
    conn.commit()
