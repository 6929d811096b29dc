"""SPL routines as IBM's manuals and message catalogue have them, twenty-first SPL round
(issue 23), run through the driver against the embedded server.

The code for a statement an SPL routine may not run: the Informix message catalogue (IBM's
JDBC jar, ``com/informix/msg/sql_en_US.properties``, both 4.50.10 and 15.0.0.1) gives -675
"Illegal SQL statement in SPL routine." and -744 "Illegal SQL statement in trigger.", and the
Guide to SQL: Syntax, "Restrictions on SPL Routines in Data-Manipulation Statements"
(ids_sqs_1755), names -675 for a routine that runs a statement its context forbids. The
server sent -744. The routine texts are ours. Every case works in its own logged database.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def db(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "spl21r") as conn:
        yield conn.cursor()


@pytest.mark.parametrize("stmt", [
    "DATABASE sysmaster",
    "CLOSE DATABASE",
    "CREATE DATABASE spl21_never",
])
def test_a_statement_no_routine_may_run_is_675(db: ifxwire.Cursor, stmt: str) -> None:
    """Statement Block / "SQL Statements Valid in SPL Statement Blocks": these are not; the
    routine is refused when it runs it, with -675 (was -744, the trigger code)."""
    db.execute(f"CREATE PROCEDURE bad_p() {stmt}; END PROCEDURE")
    assert sqlcode(db, "EXECUTE PROCEDURE bad_p()") == -675


# ---- Routines called inside a DML statement (ids_sqs_1755) ---------------------------------------
@pytest.fixture()
def tables(db: ifxwire.Cursor) -> ifxwire.Cursor:
    db.execute("CREATE TABLE items (n INT, total INT)")
    db.execute("CREATE TABLE audit_log (n INT)")
    db.execute("INSERT INTO items VALUES (1, 10)")
    db.execute("CREATE FUNCTION noted(n INT) RETURNING INT; "
               "INSERT INTO audit_log VALUES (n); RETURN n; END FUNCTION")
    return db


@pytest.mark.parametrize("stmt", [
    "SELECT noted(n) FROM items",
    "UPDATE items SET total = noted(n)",
    "INSERT INTO items VALUES (noted(2), 0)",
    "DELETE FROM items WHERE n = noted(1)",
])
def test_a_routine_called_in_a_dml_statement_may_not_write(tables: ifxwire.Cursor,
                                                            stmt: str) -> None:
    """ids_sqs_1755: "If you call the SPL routine as part of a DML statement (namely, an
    INSERT, UPDATE, DELETE, MERGE, or SELECT statement), the routine cannot execute" INSERT,
    UPDATE, DELETE, BEGIN/COMMIT/ROLLBACK WORK, DROP TABLE and the rest of its list, and
    "issues error -675". The function's INSERT ran before (the SELECT returned 1 and
    audit_log had its row); the statement now fails and leaves no row."""
    assert sqlcode(tables, stmt) == -675
    assert rows(tables, "SELECT COUNT(*) FROM audit_log") == [(0,)]


def test_a_routine_called_by_a_routine_inside_a_dml_statement_too(
        tables: ifxwire.Cursor) -> None:
    """The routine the DML statement called calls another that writes: the calling context
    is still the DML statement [inference: the page speaks of the routine's calling
    context]."""
    tables.execute("CREATE FUNCTION outer_f(n INT) RETURNING INT; RETURN noted(n) + 1; "
                   "END FUNCTION")
    assert sqlcode(tables, "SELECT outer_f(n) FROM items") == -675


def test_the_same_routine_runs_where_no_dml_statement_calls_it(tables: ifxwire.Cursor) -> None:
    """ids_sqs_1755: called by EXECUTE FUNCTION / PROCEDURE (not a DML statement) the routine
    "can execute any statement" valid in SPL; from an SPL LET too, and from a trigger ("These
    restrictions do not apply to an SPL routine that is invoked by a trigger")."""
    assert rows(tables, "EXECUTE FUNCTION noted(5)") == [(5,)]
    tables.execute("CREATE FUNCTION via_let() RETURNING INT; DEFINE v INT; "
                   "LET v = noted(6) + 1; RETURN v; END FUNCTION")
    assert rows(tables, "EXECUTE FUNCTION via_let()") == [(7,)]
    tables.execute("CREATE TABLE orders (n INT)")
    tables.execute("CREATE PROCEDURE note_order(n INT) INSERT INTO audit_log VALUES (n); "
                   "END PROCEDURE")
    tables.execute("CREATE TRIGGER ord_ins INSERT ON orders REFERENCING NEW AS post "
                   "FOR EACH ROW (EXECUTE PROCEDURE note_order(post.n))")
    tables.execute("INSERT INTO orders VALUES (8)")
    assert rows(tables, "SELECT n FROM audit_log ORDER BY n") == [(5,), (6,), (8,)]


def test_a_routine_that_only_reads_runs_inside_a_query(tables: ifxwire.Cursor) -> None:
    """SELECT is not in ids_sqs_1755's list: a function that reads runs in a query."""
    tables.execute("CREATE FUNCTION logged() RETURNING INT; DEFINE c INT; "
                   "SELECT COUNT(*) INTO c FROM audit_log; RETURN c; END FUNCTION")
    assert rows(tables, "SELECT n + logged() FROM items") == [(1,)]
