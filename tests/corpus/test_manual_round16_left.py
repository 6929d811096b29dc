"""What two earlier rounds found and left (issue 23, twenty-third round), through the real
driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "DROP SEQUENCE statement" (ids_sqs_0734),
"CREATE SYNONYM statement" (ids_sqs_0360). Codes not named by a page are those of IBM's message
catalogue in the JDBC jar [jcat] (``com/informix/msg/sql_en_US.properties``) whose texts name
each case; that a server sends them here is our inference from the texts.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "left16") as conn:
        yield conn.cursor()


# ---- synonyms of a sequence (ids_sqs_0734) -----------------------------------------------------
def test_a_synonym_names_a_sequence_for_nextval_and_currval(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0734 speaks of "any synonyms for the name of the sequence": CREATE SYNONYM
    accepts a sequence (was -206), and NEXTVAL / CURRVAL through the synonym step and read the
    sequence itself (one counter, whichever name is used)."""
    cur.execute("CREATE SEQUENCE inv_seq START WITH 10")
    cur.execute("CREATE SYNONYM inv_syn FOR inv_seq")
    assert rows(cur, "SELECT inv_syn.NEXTVAL FROM systables WHERE tabid = 1") == [(10,)]
    assert rows(cur, "SELECT inv_seq.NEXTVAL FROM systables WHERE tabid = 1") == [(11,)]
    assert rows(cur, "SELECT inv_syn.CURRVAL FROM systables WHERE tabid = 1") == [(11,)]
    cur.execute("CREATE TABLE inv (n INT8)")
    cur.execute("INSERT INTO inv VALUES (inv_syn.NEXTVAL)")
    assert rows(cur, "SELECT n FROM inv") == [(12,)]


def test_dropping_the_sequence_drops_its_synonyms(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0734: "If you drop a sequence, any synonyms for the name of the sequence are
    also dropped automatically"; "You cannot use a synonym to specify the identifier of the
    sequence in the DROP SEQUENCE statement" (-8300, the missing sequence's code [jcat],
    our inference)."""
    cur.execute("CREATE SEQUENCE s1")
    cur.execute("CREATE SYNONYM s1_syn FOR s1")
    cur.execute("CREATE PUBLIC SYNONYM s1_pub FOR s1")
    assert sqlcode(cur, "DROP SEQUENCE s1_syn") == -8300
    cur.execute("DROP SEQUENCE s1")
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname IN "
                     "('s1', 's1_syn', 's1_pub')") == [(0,)]
    assert sqlcode(cur, "SELECT s1_syn.NEXTVAL FROM systables WHERE tabid = 1") != 0
    # the names are free again
    cur.execute("CREATE TABLE s1_syn (a INT)")
    cur.execute("CREATE SEQUENCE s1_pub")


# ---- BEGIN / COMMIT / ROLLBACK WORK in a routine a trigger calls -------------------------------
@pytest.fixture()
def trig(cur: ifxwire.Cursor) -> ifxwire.Cursor:
    cur.execute("CREATE TABLE orders (n INT)")
    cur.execute("CREATE TABLE kept (n INT)")
    cur.execute("CREATE TABLE audit_log (n INT)")
    return cur


@pytest.mark.parametrize("stmt", ["COMMIT WORK", "ROLLBACK WORK", "BEGIN WORK"])
def test_a_transaction_statement_in_a_trigger_routine_leaves_the_transaction_intact(
        trig: ifxwire.Cursor, stmt: str) -> None:
    """A routine a trigger calls runs inside the triggering statement: ending or starting the
    client's transaction there is refused with -675 (ids_sqs_1755 lists BEGIN, COMMIT and
    ROLLBACK WORK among the statements a routine run by a DML statement may not execute; that
    a trigger's routine gets the same code is our inference). Before: -999, and afterwards the
    client's transaction was gone (its ROLLBACK WORK got -255) with the work before the
    trigger committed. Now the triggering INSERT fails as a whole, the transaction goes on:
    nothing committed is lost and nothing uncommitted is committed."""
    trig.execute(f"CREATE PROCEDURE ends_it(n INT) INSERT INTO audit_log VALUES (n); {stmt}; "
                 "END PROCEDURE")
    trig.execute("CREATE TRIGGER ord_ins INSERT ON orders REFERENCING NEW AS post "
                 "FOR EACH ROW (EXECUTE PROCEDURE ends_it(post.n))")
    trig.execute("INSERT INTO kept VALUES (1)")  # committed (autocommit)
    trig.execute("BEGIN WORK")
    trig.execute("INSERT INTO kept VALUES (2)")  # uncommitted
    assert sqlcode(trig, "INSERT INTO orders VALUES (5)") == -675
    # still in the transaction: its work is visible to it, the failed statement left nothing
    assert rows(trig, "SELECT n FROM kept ORDER BY n") == [(1,), (2,)]
    assert rows(trig, "SELECT COUNT(*) FROM orders") == [(0,)]
    assert rows(trig, "SELECT COUNT(*) FROM audit_log") == [(0,)]
    trig.execute("ROLLBACK WORK")  # was -255: the transaction had been ended underneath
    assert rows(trig, "SELECT n FROM kept ORDER BY n") == [(1,)]
    # the session goes on: a trigger-free statement and a new transaction work
    trig.execute("BEGIN WORK")
    trig.execute("INSERT INTO kept VALUES (3)")
    trig.execute("COMMIT WORK")
    assert rows(trig, "SELECT n FROM kept ORDER BY n") == [(1,), (3,)]


def test_commit_work_in_a_routine_run_by_execute_procedure_still_commits(
        trig: ifxwire.Cursor) -> None:
    """ids_sqs_1756: BEGIN WORK and COMMIT WORK in an SPL routine start and end a
    transaction; run by EXECUTE PROCEDURE (no trigger, no DML statement) it still does."""
    trig.execute("CREATE PROCEDURE commits(n INT) INSERT INTO kept VALUES (n); COMMIT WORK; "
                 "END PROCEDURE")
    trig.execute("BEGIN WORK")
    trig.execute("EXECUTE PROCEDURE commits(4)")
    assert sqlcode(trig, "ROLLBACK WORK") == -255
    assert rows(trig, "SELECT n FROM kept") == [(4,)]


# ---- DEFAULT longer than its column, CREATE INDEX on a catalogue table, REVOKE -----------------
@pytest.mark.parametrize("sql", [
    "CREATE TABLE d1 (c CHAR(2) DEFAULT 'abcdef')",
    "CREATE TABLE d2 (c VARCHAR(3) DEFAULT 'abcd')",
    "CREATE TABLE d3 (c NCHAR(1) DEFAULT 'xy' NOT NULL)",
])
def test_a_character_default_longer_than_its_column_is_591(cur: ifxwire.Cursor,
                                                            sql: str) -> None:
    """-591 "Invalid default value for column/variable (%s)." [jcat]; ids_sqs_0101 asks for a
    literal appropriate to the column (our inference that the length is checked; was accepted
    and the value cut at INSERT). The table is not made."""
    assert sqlcode(cur, sql) == -591
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname MATCHES 'd[123]'") == [(0,)]


def test_a_default_that_fits_is_kept_and_alter_is_checked_too(cur: ifxwire.Cursor) -> None:
    """A literal as long as its column is fine; ALTER TABLE ADD and MODIFY take the same
    DEFAULT clause (ids_sqs_0080) and get the same -591."""
    cur.execute("CREATE TABLE d4 (n INT, c CHAR(3) DEFAULT 'abc', v VARCHAR(5) DEFAULT 'xy')")
    cur.execute("INSERT INTO d4 (n) VALUES (1)")
    assert rows(cur, "SELECT c, v FROM d4") == [("abc", "xy")]
    assert sqlcode(cur, "ALTER TABLE d4 ADD (e CHAR(1) DEFAULT 'no')") == -591
    assert sqlcode(cur, "ALTER TABLE d4 MODIFY (v VARCHAR(5) DEFAULT 'toolong')") == -591


@pytest.mark.parametrize("table", ["systables", "syscolumns", "sysindices"])
def test_create_index_on_a_catalogue_table_is_226(cur: ifxwire.Cursor, table: str) -> None:
    """-226 "Cannot create index for system catalog (%s)." [jcat] names the case (was -999);
    ids_sqs_0401 indexes "a standard or temporary table"."""
    assert sqlcode(cur, f"CREATE INDEX ix_cat ON {table} (tabid)") == -226


# ---- INSERT … EXECUTE PROCEDURE / FUNCTION (ids_sqs_0133, ids_sqs_0589) -----------------------
@pytest.fixture()
def items(cur: ifxwire.Cursor) -> ifxwire.Cursor:
    cur.execute("CREATE TABLE items (item_num SMALLINT, order_num INT, total_price MONEY(8,2))")
    cur.execute("CREATE PROCEDURE sp_items() RETURNING SMALLINT, INT, MONEY(8,2); "
                "RETURN 1, 1001, 250.00 WITH RESUME; RETURN 2, 1001, 19.80 WITH RESUME; "
                "END PROCEDURE")
    return cur


def test_insert_execute_procedure_inserts_the_rows_it_returns(items: ifxwire.Cursor) -> None:
    """ids_sqs_0589's statement, ``INSERT INTO items EXECUTE PROCEDURE sp_items``: every row
    the routine returns goes in (ids_sqs_0133, "Execute Routine Clause"); the row count is
    theirs. Was -999."""
    items.execute("INSERT INTO items EXECUTE PROCEDURE sp_items()")
    assert items.rowcount == 2
    assert rows(items, "SELECT item_num, order_num, total_price FROM items ORDER BY 1") == [
        (1, 1001, Decimal("250.00")), (2, 1001, Decimal("19.80"))]


def test_insert_execute_function_with_a_column_list_and_arguments(cur: ifxwire.Cursor) -> None:
    """EXECUTE FUNCTION, a column list (the return values match the listed columns, in
    order; the others take their defaults) and arguments, a ``?`` among them."""
    cur.execute("CREATE TABLE log (id SERIAL, note VARCHAR(20), n INT, at CHAR(3) "
                "DEFAULT 'now')")
    cur.execute("CREATE FUNCTION pair(a INT, b VARCHAR(10)) RETURNING INT, VARCHAR(20); "
                "RETURN a, b WITH RESUME; RETURN a + 1, b || '!' WITH RESUME; END FUNCTION")
    cur.execute("INSERT INTO log (n, note) EXECUTE FUNCTION pair(?, 'x')", (5,))
    assert cur.rowcount == 2
    assert rows(cur, "SELECT id, note, n, at FROM log ORDER BY id") == [
        (1, "x", 5, "now"), (2, "x!", 6, "now")]


def test_insert_execute_counts_and_atomicity(items: ifxwire.Cursor) -> None:
    """The values must match the columns one to one (-236, the VALUES-list code); a row that
    fails undoes the rows before it (the statement is atomic)."""
    items.execute("CREATE PROCEDURE two() RETURNING INT, INT; RETURN 1, 2; END PROCEDURE")
    assert sqlcode(items, "INSERT INTO items EXECUTE PROCEDURE two()") == -236
    items.execute("CREATE TABLE keyed (k INT PRIMARY KEY)")
    items.execute("CREATE PROCEDURE dup() RETURNING INT; RETURN 7 WITH RESUME; "
                  "RETURN 8 WITH RESUME; RETURN 7 WITH RESUME; END PROCEDURE")
    assert sqlcode(items, "INSERT INTO keyed EXECUTE PROCEDURE dup()") == -268
    assert rows(items, "SELECT COUNT(*) FROM keyed") == [(0,)]


def test_a_routine_run_by_insert_execute_may_not_write(items: ifxwire.Cursor) -> None:
    """ids_sqs_0133 sends such a routine to ids_sqs_1755's restrictions: it is called within
    a DML statement, so its own INSERT is -675 and nothing goes in."""
    items.execute("CREATE TABLE side (n INT)")
    items.execute("CREATE PROCEDURE writes() RETURNING SMALLINT, INT, MONEY(8,2); "
                  "INSERT INTO side VALUES (1); RETURN 3, 1002, 1.00; END PROCEDURE")
    assert sqlcode(items, "INSERT INTO items EXECUTE PROCEDURE writes()") == -675
    assert rows(items, "SELECT COUNT(*) FROM items") == [(0,)]
    assert rows(items, "SELECT COUNT(*) FROM side") == [(0,)]


def test_insert_execute_fires_the_targets_row_triggers(items: ifxwire.Cursor) -> None:
    """Each inserted row is an INSERT of the target: its FOR EACH ROW actions run once per
    row the routine returned."""
    items.execute("CREATE TABLE seen (n SMALLINT)")
    items.execute("CREATE TRIGGER items_ins INSERT ON items REFERENCING NEW AS post "
                  "FOR EACH ROW (INSERT INTO seen VALUES (post.item_num))")
    items.execute("INSERT INTO items EXECUTE PROCEDURE sp_items()")
    assert rows(items, "SELECT n FROM seen ORDER BY n") == [(1,), (2,)]


def test_insert_execute_runs_before_and_after_actions_once(items: ifxwire.Cursor) -> None:
    """INSERT … EXECUTE is one statement: its triggers' BEFORE actions run once before it
    and AFTER actions once after it ("BEFORE ... once, before the statement"), whatever the
    count of rows the routine returns."""
    items.execute("CREATE TABLE marks (m CHAR(1))")
    items.execute("CREATE TRIGGER items_stmt INSERT ON items "
                  "BEFORE (INSERT INTO marks VALUES ('b')) "
                  "AFTER (INSERT INTO marks VALUES ('a'))")
    items.execute("INSERT INTO items EXECUTE PROCEDURE sp_items()")
    assert rows(items, "SELECT m, COUNT(*) FROM marks GROUP BY m ORDER BY m") == [
        ("a", 1), ("b", 1)]


def test_insert_execute_inside_a_routine_takes_its_variables(items: ifxwire.Cursor) -> None:
    """The statement is valid in an SPL routine too, its arguments naming the routine's
    variables (was -999 when the routine ran)."""
    items.execute("CREATE PROCEDURE order_lines(o INT) RETURNING SMALLINT, INT, MONEY(8,2); "
                  "RETURN 1, o, 5.00 WITH RESUME; RETURN 2, o, 6.00 WITH RESUME; "
                  "END PROCEDURE")
    items.execute("CREATE PROCEDURE fill(o INT) DEFINE k INT; LET k = o + 1; "
                  "INSERT INTO items EXECUTE PROCEDURE order_lines(k); END PROCEDURE")
    items.execute("EXECUTE PROCEDURE fill(1000)")
    assert rows(items, "SELECT item_num, order_num FROM items ORDER BY 1") == [
        (1, 1001), (2, 1001)]

