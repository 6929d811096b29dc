"""CREATE TRIGGER as IBM's manuals rule it, twenty-first SPL round (issue 23): what a real
server refuses at CREATE and what it accepts, run through the driver against the embedded
server.

Each case names its page of the Informix Guide to SQL: Syntax (``ids_sqs_NNNN``, at
https://help.hcl-software.com/hclinformix/1410/sqs/) or Tutorial (``ids_sqt_NNN``). The codes
are the Informix message catalogue's (IBM's JDBC jar, ``com/informix/msg/sql_en_US.properties``),
whose texts name the misuse: -548 "No referential constraint or trigger allowed on a TEMP
table.", -730 "Cannot specify REFERENCING if trigger does not have FOR EACH ROW.", -19823 to
-19827 (the INSTEAD OF rules), -542 "Cannot specify a column more than once in a constraint,
trigger, or index.", -747 "Table or column matches object referenced in triggering
statement.". -732 for a correlation name outside FOR EACH ROW is our reading of its text
("Incorrect use of old or new values correlation name inside trigger."). The statements are
ours, written after the pages. Every case works in its own logged database.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def db(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    """A fresh logged database with a table, a log table and a view over the table."""
    with fresh_database(connect_kwargs, "spl21t") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE tab1 (a INT, b INT, c INT)")
        cur.execute("CREATE TABLE log_t (x INT, y INT)")
        cur.execute("CREATE VIEW v1 AS SELECT a, b FROM tab1")
        yield cur


def _no_trigger(db: ifxwire.Cursor, name: str) -> None:
    assert rows(db, "SELECT COUNT(*) FROM systriggers WHERE trigname = ?", (name,)) == [(0,)]


# ---- Restrictions on Triggers (ids_sqs_0586) ---------------------------------------------------
def test_no_trigger_on_a_temp_table(db: ifxwire.Cursor) -> None:
    """ids_sqs_0586: "You cannot create a trigger on ... A temporary table or a system catalog
    table"; -548 (was -999)."""
    db.execute("CREATE TEMP TABLE scratch (a INT)")
    assert sqlcode(db, "CREATE TRIGGER t_tmp INSERT ON scratch "
                       "AFTER (INSERT INTO log_t VALUES (1, 1))") == -548


# ---- REFERENCING needs FOR EACH ROW (ids_sqs_0617, ids_sqs_0614) ---------------------------------
def test_referencing_without_for_each_row_is_730(db: ifxwire.Cursor) -> None:
    """Correlated Table Action (ids_sqs_0617): with an INSERT, DELETE, UPDATE or SELECT
    REFERENCING clause "you must include a FOR EACH ROW triggered-action list"; -730 (was
    accepted)."""
    assert sqlcode(db, "CREATE TRIGGER t_ref INSERT ON tab1 REFERENCING NEW AS post "
                       "AFTER (INSERT INTO log_t VALUES (1, 1))") == -730
    _no_trigger(db, "t_ref")
    db.execute("CREATE TRIGGER t_ref INSERT ON tab1 REFERENCING NEW AS post "
               "FOR EACH ROW (INSERT INTO log_t VALUES (post.a, 1)) "
               "AFTER (INSERT INTO log_t VALUES (0, 0))")
    db.execute("INSERT INTO tab1 VALUES (7, 0, 0)")
    assert rows(db, "SELECT x, y FROM log_t ORDER BY y DESC") == [(7, 1), (0, 0)]


def test_correlation_name_in_an_after_action_is_732(db: ifxwire.Cursor) -> None:
    """REFERENCING Clause for Insert Triggers (ids_sqs_0614): the correlation name's "scope of
    reference is only the FOR EACH ROW trigger action list"; a BEFORE or AFTER action that
    names it is -732 [our reading of the catalogue text] (was accepted)."""
    assert sqlcode(db, "CREATE TRIGGER t_scope UPDATE ON tab1 "
                       "REFERENCING OLD AS pre NEW AS post "
                       "FOR EACH ROW (INSERT INTO log_t VALUES (pre.a, post.a)) "
                       "AFTER (INSERT INTO log_t VALUES (post.b, 0))") == -732
    assert sqlcode(db, "CREATE TRIGGER t_scope DELETE ON tab1 REFERENCING OLD AS pre "
                       "BEFORE WHEN (pre.a > 0) (INSERT INTO log_t VALUES (0, 0)) "
                       "FOR EACH ROW (INSERT INTO log_t VALUES (pre.a, 0))") == -732
    _no_trigger(db, "t_scope")


@pytest.mark.parametrize("stmt", [
    "UPDATE log_t SET post.a = 1",                                    # a SET target
    "UPDATE log_t SET (x, post.b) = (1, 2)",
    "INSERT INTO log_t SELECT COUNT(*), 0 FROM log_t GROUP BY post.a",  # GROUP BY
    "INSERT INTO log_t SELECT COUNT(DISTINCT post.a), 0 FROM log_t",   # COUNT DISTINCT
])
def test_correlation_name_where_ids_sqs_0624_forbids_it_is_732(db: ifxwire.Cursor,
                                                                stmt: str) -> None:
    """Using Correlation Names in Triggered Actions (ids_sqs_0624): "You cannot use the
    correlation name to qualify a column name in the GROUP BY, the SET, or the COUNT DISTINCT
    clause"; -732 [our reading of the catalogue text] (SET: -217; the others ran)."""
    assert sqlcode(db, "CREATE TRIGGER t_corr INSERT ON tab1 REFERENCING NEW AS post "
                       f"FOR EACH ROW ({stmt})") == -732
    _no_trigger(db, "t_corr")


def test_correlation_name_as_a_value_in_set_and_where_runs(db: ifxwire.Cursor) -> None:
    """The same page's first rule: correlation names qualify old and new values "in SQL
    statements of the FOR EACH ROW triggered-action list and in the WHEN condition"."""
    db.execute("INSERT INTO log_t VALUES (0, 2)")
    db.execute("CREATE TRIGGER t_corr INSERT ON tab1 REFERENCING NEW AS post FOR EACH ROW "
               "WHEN (post.a > 0) (UPDATE log_t SET x = post.a WHERE y = post.b)")
    db.execute("INSERT INTO tab1 VALUES (5, 2, 0)")
    assert rows(db, "SELECT x, y FROM log_t") == [(5, 2)]


# ---- INSTEAD OF triggers (ids_sqs_0639, ids_sqs_0638) --------------------------------------------
def test_instead_of_trigger_on_a_table_is_19827(db: ifxwire.Cursor) -> None:
    """ids_sqs_0639: "You can define an INSTEAD OF trigger only on a view, not on a table";
    -19827 (was -999)."""
    assert sqlcode(db, "CREATE TRIGGER io_tab INSTEAD OF INSERT ON tab1 "
                       "REFERENCING NEW AS n FOR EACH ROW "
                       "(INSERT INTO log_t VALUES (n.a, n.b))") == -19827


def test_instead_of_select_is_19826(db: ifxwire.Cursor) -> None:
    """ids_sqs_0639: "No SELECT event or WHEN clause is valid in an INSTEAD OF trigger";
    -19826 (was -201)."""
    assert sqlcode(db, "CREATE TRIGGER io_sel INSTEAD OF SELECT ON v1 "
                       "REFERENCING OLD AS o FOR EACH ROW "
                       "(INSERT INTO log_t VALUES (o.a, o.b))") == -19826


def test_instead_of_with_when_is_19825(db: ifxwire.Cursor) -> None:
    """ids_sqs_0639 (no WHEN clause) and ids_sqs_0638 ("Because no WHEN (condition) is
    supported, the same trigger action is executed whenever ..."); -19825 (was accepted)."""
    assert sqlcode(db, "CREATE TRIGGER io_when INSTEAD OF INSERT ON v1 "
                       "REFERENCING NEW AS n FOR EACH ROW WHEN (n.a > 0) "
                       "(INSERT INTO tab1 VALUES (n.a, n.b, 0))") == -19825
    _no_trigger(db, "io_when")


@pytest.mark.parametrize("actions", [
    "BEFORE (INSERT INTO log_t VALUES (0, 0)) FOR EACH ROW (INSERT INTO tab1 VALUES (n.a, n.b, 0))",
    "FOR EACH ROW (INSERT INTO tab1 VALUES (n.a, n.b, 0)) AFTER (INSERT INTO log_t VALUES (0, 0))",
])
def test_instead_of_with_before_or_after_is_19824(db: ifxwire.Cursor, actions: str) -> None:
    """ids_sqs_0639: "No BEFORE nor AFTER action is valid in an INSTEAD OF trigger"; -19824
    (was -201)."""
    assert sqlcode(db, "CREATE TRIGGER io_ba INSTEAD OF INSERT ON v1 "
                       f"REFERENCING NEW AS n {actions}") == -19824


def test_instead_of_with_execute_into_is_19823(db: ifxwire.Cursor) -> None:
    """The INSTEAD OF action list (ids_sqs_0638) has EXECUTE PROCEDURE / FUNCTION without the
    INTO clause that Update and Insert triggers on tables have; -19823 (was -201). The
    catalogue names EXECUTE PROCEDURE INTO; EXECUTE FUNCTION INTO gets the same code (our
    reading)."""
    db.execute("CREATE FUNCTION twice(n INT) RETURNING INT; RETURN n * 2; END FUNCTION")
    for call in ("EXECUTE PROCEDURE twice(n.a) INTO b", "EXECUTE FUNCTION twice(n.a) INTO b"):
        assert sqlcode(db, "CREATE TRIGGER io_into INSTEAD OF INSERT ON v1 "
                           f"REFERENCING NEW AS n FOR EACH ROW ({call})") == -19823


def test_instead_of_update_with_an_of_list_is_refused(db: ifxwire.Cursor) -> None:
    """ids_sqs_0639: "No OF column clause is valid in an INSTEAD OF UPDATE trigger"; the
    INSTEAD OF event has no OF in its diagram, so -201 [inference: no code is named] (was
    accepted)."""
    assert sqlcode(db, "CREATE TRIGGER io_of INSTEAD OF UPDATE OF a ON v1 "
                       "REFERENCING NEW AS n FOR EACH ROW (UPDATE tab1 SET b = n.b)") == -201
    _no_trigger(db, "io_of")


def test_a_valid_instead_of_trigger_still_runs(db: ifxwire.Cursor) -> None:
    """The form ids_sqs_0639 allows: FOR EACH ROW, no WHEN, no BEFORE/AFTER; the view's INSERT
    runs the action instead."""
    db.execute("CREATE PROCEDURE note(n INT) INSERT INTO log_t VALUES (n, 9); END PROCEDURE")
    db.execute("CREATE TRIGGER io_ok INSTEAD OF INSERT ON v1 REFERENCING NEW AS n "
               "FOR EACH ROW (INSERT INTO tab1 VALUES (n.a, n.b, 1), "
               "EXECUTE PROCEDURE note(n.a))")
    db.execute("INSERT INTO v1 VALUES (4, 5)")
    assert rows(db, "SELECT a, b, c FROM tab1") == [(4, 5, 1)]
    assert rows(db, "SELECT x, y FROM log_t") == [(4, 9)]


# ---- UPDATE / SELECT OF column lists -------------------------------------------------------------
def test_a_column_twice_in_update_of_is_542(db: ifxwire.Cursor) -> None:
    """The catalogue's -542 names triggers ("Cannot specify a column more than once in a
    constraint, trigger, or index."); an UPDATE OF list naming a column twice (was accepted)."""
    assert sqlcode(db, "CREATE TRIGGER t_twice UPDATE OF a, b, a ON tab1 "
                       "AFTER (INSERT INTO log_t VALUES (1, 1))") == -542
    assert sqlcode(db, "CREATE TRIGGER t_twice SELECT OF b, b ON tab1 "
                       "AFTER (INSERT INTO log_t VALUES (1, 1))") == -542
    _no_trigger(db, "t_twice")


# ---- Re-entrancy (ids_sqs_0627, ids_sqt_548) -----------------------------------------------------
def test_update_trigger_may_update_a_column_its_event_did_not(db: ifxwire.Cursor) -> None:
    """ids_sqs_0627: "the trigger action of an Update trigger can update a column that was not
    updated by the trigger event" (its example: after ``UPDATE tab1 SET (a, b) = …`` the action
    ``UPDATE tab1 SET c = c + 1`` is OK). A FOR EACH ROW action of that kind was -747 here."""
    db.execute("INSERT INTO tab1 VALUES (1, 2, 3)")
    db.execute("CREATE TRIGGER t_reent UPDATE OF a, b ON tab1 REFERENCING NEW AS post "
               "FOR EACH ROW (UPDATE tab1 SET c = c + 1 WHERE a = post.a)")
    db.execute("UPDATE tab1 SET (a, b) = (a + 1, b + 1)")
    assert rows(db, "SELECT a, b, c FROM tab1") == [(2, 3, 4)]


@pytest.mark.parametrize("action", [
    "AFTER (UPDATE tab1 SET b = b + 1)",              # "UPDATE tab1 SET b = b + 1; -- INVALID"
    "BEFORE (UPDATE tab1 SET (c, a) = (0, 0))",
    "FOR EACH ROW (UPDATE tab1 SET a = 0)",
    "AFTER (INSERT INTO tab1 VALUES (0, 0, 0))",      # "cannot be an INSERT or DELETE of the
    "BEFORE (DELETE FROM tab1 WHERE c < 0)",          #  table that the trigger event updated"
])
def test_update_trigger_that_would_re_enter_is_747(db: ifxwire.Cursor, action: str) -> None:
    """ids_sqs_0627: an Update trigger's action cannot INSERT into or DELETE from its table,
    nor UPDATE a column the event updated (the OF columns surely are); -747 at CREATE (BEFORE
    and AFTER actions of this kind were accepted)."""
    assert sqlcode(db, f"CREATE TRIGGER t_bad UPDATE OF a, b ON tab1 {action}") == -747
    _no_trigger(db, "t_bad")


def test_select_trigger_action_on_its_own_table_is_747(db: ifxwire.Cursor) -> None:
    """Tutorial, "Re-entrant triggers" (ids_sqt_548): "If the triggering event is a SELECT
    statement, the triggered action cannot operate on the same table"; -747 (an AFTER action
    was accepted)."""
    assert sqlcode(db, "CREATE TRIGGER t_sel SELECT ON tab1 "
                       "AFTER (UPDATE tab1 SET c = 0)") == -747
    db.execute("CREATE TRIGGER t_sel SELECT ON tab1 AFTER (INSERT INTO log_t VALUES (1, 1))")


# ---- Objects an action names must exist (ids_sqs_0618) -------------------------------------------
@pytest.mark.parametrize(("action", "code"), [
    ("AFTER (EXECUTE PROCEDURE upd_items_p1())", -674),
    ("AFTER (INSERT INTO no_such_table VALUES (1))", -206),
    ("AFTER (INSERT INTO log_t (x, no_such_column) VALUES (1, 2))", -217),
    ("FOR EACH ROW (UPDATE log_t SET no_such_column = 1)", -217),
])
def test_objects_an_action_names_must_exist(db: ifxwire.Cursor, action: str, code: int) -> None:
    """Triggered Action on a Table (ids_sqs_0618): "Database objects that are referenced
    explicitly in the trigger action ..., such as tables, columns, and UDRs, must exist when
    the CREATE TRIGGER statement defines the new trigger"; its example ``BEFORE(EXECUTE
    PROCEDURE upd_items_p1)`` without the routine: "the database server issues an error, and
    no up_itemqty trigger is created". The codes are a client statement's for the same miss
    (our reading: the page names none). All four were accepted and failed when fired."""
    assert sqlcode(db, f"CREATE TRIGGER up_itemqty UPDATE OF a ON tab1 {action}") == code
    _no_trigger(db, "up_itemqty")


def test_a_trigger_whose_objects_exist_is_created_and_fires(db: ifxwire.Cursor) -> None:
    """The same trigger once its routine exists (ids_sqs_0618's up_itemqty, on our table)."""
    db.execute("CREATE PROCEDURE upd_items_p1() INSERT INTO log_t VALUES (-1, -1); "
               "END PROCEDURE")
    db.execute("CREATE TRIGGER up_itemqty UPDATE OF a ON tab1 "
               "BEFORE (EXECUTE PROCEDURE upd_items_p1())")
    db.execute("INSERT INTO tab1 VALUES (1, 1, 1)")
    db.execute("UPDATE tab1 SET a = 2")
    assert rows(db, "SELECT x, y FROM log_t") == [(-1, -1)]


# ---- Savepoints inside triggered actions (ids_sqs_2008) ------------------------------------------
@pytest.mark.parametrize("stmt", [
    "SAVEPOINT in_trigger",
    "RELEASE SAVEPOINT outer_sp",
    "ROLLBACK TO SAVEPOINT outer_sp",
])
def test_savepoint_statements_in_a_triggered_routine_are_26077(db: ifxwire.Cursor,
                                                                stmt: str) -> None:
    """RELEASE SAVEPOINT (ids_sqs_2008) "fails with an error" when "The statement is part of a
    triggered action"; the JDBC guide's Transactions with Savepoints: "Savepoints cannot be
    referenced in a triggered action"; the catalogue's -26077 "Savepoint statements are
    disallowed inside triggers." The routine runs them outside a trigger; called from a
    trigger's action it fails, and the triggering INSERT is undone (it was run: SAVEPOINT
    was accepted, the other two touched the client's savepoint)."""
    db.execute(f"CREATE PROCEDURE sp_user() {stmt}; END PROCEDURE")
    db.execute("CREATE TRIGGER t_sp INSERT ON tab1 AFTER (EXECUTE PROCEDURE sp_user())")
    db.execute("BEGIN WORK")
    try:
        db.execute("SAVEPOINT outer_sp")
        db.execute("INSERT INTO log_t VALUES (1, 1)")
        assert sqlcode(db, "INSERT INTO tab1 VALUES (1, 1, 1)") == -26077
        assert rows(db, "SELECT COUNT(*) FROM tab1") == [(0,)]
        assert rows(db, "SELECT x FROM log_t") == [(1,)]   # the transaction goes on
        db.execute("EXECUTE PROCEDURE sp_user()")  # outside a trigger the routine runs
    finally:
        db.execute("ROLLBACK WORK")
