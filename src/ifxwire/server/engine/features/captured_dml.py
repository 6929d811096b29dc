"""One statement of a table with full-row logging, captured a row at a time.

The general DML path (``triggers.run_dml``) asks SQLite for the changed rows with
``RETURNING`` into a list, and SQLite itself accumulates a statement's RETURNING rows in
memory before returning the first (sqlite.org, lang_returning.html "Processing Order"); an
UPDATE also read its rows' old values into a dict first. A statement changing millions of
rows of a captured table held them all at once, while the capture spills them a chunk at a
time (docs/CDC_SERVER.md "One huge statement"). The ways here hand the rows to the capture one at a
time from a cursor, so what the server holds is bounded by a chunk:

* ``insert_captured``: an INSERT's new rows are those above the table's largest rowid
  before it, read back after it;
* ``change_captured``: an UPDATE's or DELETE's rows (rowid and old values) are copied by
  SQLite into a scratch table of the connection's temp database (file-backed: SQLite's
  TEMP_STORE default) before it, and read back after it, a DELETE's as they were, an UPDATE's
  joined by rowid with the rows as they are now.

Used only without FOR EACH ROW triggers and view checks (those keep the RETURNING path).
"""

from __future__ import annotations

import sqlite3
from typing import Any, Protocol

from ..core.errors import EngineError, not_implemented
from ..schema.catalog import TableInfo, quote
from ..sql.plan import Plan
from ..sql.prepared import ExecResult


class EngineSession(Protocol):
    """What these statements need of the session (session/session.py's EngineSession): a
    feature names it here rather than importing the session layer above it."""

    spl: Any  # the SPL runtime (spl/calls.py), None before the session's first routine

    @property
    def row_locks(self) -> bool: ...
    def _connection(self) -> sqlite3.Connection: ...
    def _dml(self, plan: Plan, bound: dict[str, object],
             returning: list[tuple[object, ...]] | None = None) -> ExecResult: ...
    def _map_error(self, e: sqlite3.Error, plan: Plan) -> EngineError: ...
    def rl_filter_dml_reads(self, plan: Plan, sql: str) -> str: ...

#: An INSERT whose rows come from a query (how many, unknown) takes ``insert_captured``;
#: INSERT ... VALUES (one row) keeps RETURNING, one statement instead of four. Either way
#: the capture is the same, so a SELECT word elsewhere in the text only picks the other way.
SELECT_WORD = "SELECT"

#: Below this largest rowid SQLite's next rowids are the largest plus one for any statement
#: that can be run (sqlite.org, autoinc.html: random rowids only once 2^63-1 is used).
_MONOTONIC_ROWIDS = 1 << 62

#: The scratch tables of ``change_captured``, one per statement depth and column count, in
#: the temp database.
#: Their prefix is left out of ``Engine.checkin``'s "is the connection clean" test.
SCRATCH_PREFIX = "_ifxcdc_old"


def insert_captured(s: EngineSession, plan: Plan, bound: dict[str, object], info: TableInfo,
                    capture: Any) -> ExecResult:
    """An INSERT into a table with full-row logging (no FOR EACH ROW trigger, no view check):
    its new rows go to the capture read back after it, one at a time in rowid order, instead
    of through ``RETURNING``.

    SQLite gives a row inserted without a rowid "one larger than the largest ROWID in the
    table prior to the insert" (sqlite.org, autoinc.html) and user tables have no column
    aliasing the rowid, so the new rows are those above the largest rowid before. Checked:
    if their count is not the statement's, it is rolled back (a savepoint) and run again
    with RETURNING, as before.

    Under row locks nothing may be rolled back behind the lock table's back (the rows' locks
    and undo entries are taken as they are written), so there the read-back is used only
    when the largest rowid is below 2^62, where no statement can reach 2^63-1 and SQLite's
    next rowid is always the largest plus one; above it, RETURNING at once."""
    conn = s._connection()
    table = f"{quote(info.schema)}.{quote(info.name)}"
    (top,) = conn.execute(f"SELECT COALESCE(MAX(rowid), 0) FROM {table}").fetchone()
    cols = ", ".join(quote(c.name) for c in info.columns)
    if s.row_locks:
        if top >= _MONOTONIC_ROWIDS:
            changed: list[tuple[object, ...]] = []
            result = s._dml(plan, bound, returning=changed)
            for r in changed:
                capture("insert", None, r[1:])
            return result
        result = s._dml(plan, bound)
        rows: Any = conn.execute(f"SELECT {cols} FROM {table} WHERE rowid > ? ORDER BY rowid",
                                 (top,))
        for values in rows:
            capture("insert", None, tuple(values))
        return result
    conn.execute("SAVEPOINT ifxwire_cdc_insert")
    try:
        result = s._dml(plan, bound)
        (found,) = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE rowid > ?",
                                (top,)).fetchone()
        if found != result.rowcount:
            conn.execute("ROLLBACK TO ifxwire_cdc_insert")
            changed = []
            result = s._dml(plan, bound, returning=changed)
            rows = (r[1:] for r in changed)
        else:
            rows = conn.execute(f"SELECT {cols} FROM {table} WHERE rowid > ? ORDER BY rowid",
                                (top,))
    finally:
        if conn.in_transaction:
            conn.execute("RELEASE ifxwire_cdc_insert")
    for values in rows:
        capture("insert", None, tuple(values))
    return result


def change_captured(s: EngineSession, plan: Plan, bound: dict[str, object], info: TableInfo,
                    capture: Any) -> ExecResult | None:
    """An UPDATE or DELETE of a table with full-row logging (no FOR EACH ROW trigger, no
    view check; ``plan.old_sql`` reads its rows' rowids and old values with the statement's
    own FROM and WHERE): those rows are copied into the scratch table (``INSERT ... SELECT``,
    nothing held in Python), the statement runs without RETURNING, and the rows are read
    back in the order the copy took them, a DELETE's old values, an UPDATE's old values with
    the row as it is now (rowids do not change: no column of a user table aliases the rowid,
    docs/CDC_SERVER.md "One huge statement"), each handed to the capture.

    Checked: the copy must have as many rows as the statement changed (SQLite counts the
    rows its WHERE picked, as ``old_sql`` reads them; they can differ only for a WHERE that
    is not the same when read twice). When not, without row locks the statement is rolled
    back to a savepoint and None returned: the caller runs it the RETURNING way. Under row
    locks nothing may be rolled back behind the lock table's back, so there the statement
    fails with -999 (rolled back by the caller's statement savepoint, as any failing one)."""
    conn = s._connection()
    n = len(info.columns)
    names = [f"c{i}" for i in range(n)]
    # one per statement depth: a routine the statement calls may run a captured one itself
    depth = s.spl.trigger_depth if s.spl is not None else 0  # (a new Runtime's is 0)
    scratch = f"temp.{SCRATCH_PREFIX}{depth}_{n}"
    select = s.rl_filter_dml_reads(plan, plan.old_sql) if s.row_locks else plan.old_sql
    savepoint = not s.row_locks
    try:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {scratch} (rid, {', '.join(names)})")
        conn.execute(f"DELETE FROM {scratch}")  # what a failed statement left
        if savepoint:
            conn.execute("SAVEPOINT ifxwire_cdc_change")
        conn.execute(f"INSERT INTO {scratch} {select}", bound)
    except sqlite3.Error as e:
        raise s._map_error(e, plan) from None
    try:
        result = s._dml(plan, bound)
        (found,) = conn.execute(f"SELECT COUNT(*) FROM {scratch}").fetchone()
        if found != result.rowcount:
            if savepoint:
                conn.execute("ROLLBACK TO ifxwire_cdc_change")
                return None
            raise not_implemented(f"a {plan.kind.upper()} of a table with full-row logging "
                                  "whose WHERE picks other rows when read again")
    finally:
        if savepoint and conn.in_transaction:
            conn.execute("RELEASE ifxwire_cdc_change")
    old = ", ".join(f"o.{c}" for c in names)
    try:
        if plan.kind == "delete":
            for row in conn.execute(f"SELECT {old} FROM {scratch} AS o ORDER BY o.rowid"):
                capture("delete", tuple(row), None)
        else:
            new = ", ".join(f"t.{quote(c.name)}" for c in info.columns)
            table = f"{quote(info.schema)}.{quote(info.name)}"
            # CROSS JOIN: the scratch table is the outer loop (its order), the row is found
            # by its rowid
            for row in conn.execute(f"SELECT {old}, {new} FROM {scratch} AS o CROSS JOIN "
                                    f"{table} AS t ON t.rowid = o.rid ORDER BY o.rowid"):
                capture("update", tuple(row[:n]), tuple(row[n:]))
    finally:
        conn.execute(f"DELETE FROM {scratch}")
    return result
