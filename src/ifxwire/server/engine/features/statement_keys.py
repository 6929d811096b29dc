"""Primary-key and unique constraints checked at the end of an UPDATE, as Informix checks
them, where SQLite checks each row as it changes it.

Guide to SQL: Syntax, SET Transaction Mode (ids_sqs_1209): "When you set the transaction mode
to IMMEDIATE, statement-level checking is turned on, and all specified constraints are
checked at the end of each INSERT, UPDATE, or DELETE statement ... Immediate is the default".
So ``UPDATE t SET id = id + 1`` over the keys 1, 2, 3, or an UPDATE swapping two keys, runs
on Informix: the keys are unique again when the statement ends. SQLite's unique index meets
the duplicate half-way and fails. (An index made by CREATE UNIQUE INDEX is not a constraint:
its uniqueness is checked row by row [a practitioner's account, itqna.net "Difference in use
Unique and Unique Constraint index in Informix", which the SET page's "constraints" wording
agrees with]; it keeps SQLite's check.)

Only an UPDATE can meet such a passing duplicate (an INSERT adds rows, a DELETE removes them).
When one fails with a unique violation, ``retry_update`` runs it again in a savepoint with
the table's constraint indexes (and their NULL companions, null_keys.py) dropped, then makes
them again: making one fails exactly when the finished statement left a duplicate, with the
same collation and NULL rule, and that is the statement's -268. Not for a table other
tables' foreign keys refer to: SQLite checks those through the parent's unique index, which
cannot be missing while the statement runs (such a table keeps the row-by-row check, a
known difference; renumbering a referenced key is -692 on Informix anyway while a child
uses it). The table's own foreign keys are checked as always.

The retry is the exception path: dropping and making an index costs a pass over the table,
paid only by a statement that Informix runs and SQLite alone would refuse.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..schema.catalog import quote
from . import null_keys

if TYPE_CHECKING:
    from ..schema.catalog import TableInfo


def constraint_indexes(conn: sqlite3.Connection, info: TableInfo) -> list[tuple[str, str]]:
    """(name, CREATE sql) of the SQLite indexes that enforce ``info``'s primary-key and
    unique constraints, NULL companions included."""
    names = [str(r[0]) for r in conn.execute(
        "SELECT idxname FROM sysconstraints WHERE tabid = ? AND constrtype IN ('P', 'U') "
        "AND idxname IS NOT NULL", (info.tabid,))]
    wanted = names + [null_keys.companion(n) for n in names]
    if not wanted:
        return []
    marks = ", ".join("?" * len(wanted))
    return [(str(n), str(s)) for n, s in conn.execute(
        f"SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ? "
        f"AND name IN ({marks}) AND sql IS NOT NULL", (info.name, *wanted))]


def retry_update(conn: sqlite3.Connection, info: TableInfo | None,
                 run: Callable[[], list[tuple[object, ...]]]) -> list[tuple[object, ...]] | None:
    """Run the UPDATE (``run``: executes it and returns its RETURNING rows) again with
    statement-level key checks; None when that cannot be done here (a temp table, no
    constraint index, a table other tables' foreign keys refer to) and the caller reports
    the first failure. Raises sqlite3.IntegrityError for a key the finished statement
    duplicates; nothing it did is kept then."""
    if info is None or info.temp or conn.execute(
            "SELECT 1 FROM sysreferences WHERE ptabid = ?", (info.tabid,)).fetchone():
        # (SQLite checks a foreign key through its parent's unique index: a referenced
        # table's cannot be dropped for the statement)
        return None
    indexes = constraint_indexes(conn, info)
    if not indexes:
        return None
    conn.execute("SAVEPOINT _ifx_statement_keys")
    try:
        for name, _ in indexes:
            conn.execute(f"DROP INDEX main.{quote(name)}")
        rows = run()
        # the main index first: its clash names the constraint's columns (session_errors)
        for _, sql in sorted(indexes, key=lambda i: i[0].endswith(null_keys.SUFFIX)):
            conn.execute(sql)
    except BaseException:
        conn.execute("ROLLBACK TO _ifx_statement_keys")
        conn.execute("RELEASE _ifx_statement_keys")
        raise
    conn.execute("RELEASE _ifx_statement_keys")
    return rows
