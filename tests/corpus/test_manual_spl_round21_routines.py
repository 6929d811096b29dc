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

from .manual import fresh_database, sqlcode


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
