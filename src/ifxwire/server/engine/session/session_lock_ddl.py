"""DDL inside a row-lock transaction without escalation (docs/SERVER.md, "DDL in a
transaction"): the statement runs in a short SQLite write of its own under the database's
latch, leaves undo entries for its catalogue rows and schema changes (features/locks/
ddl_undo.py), and takes an EXCLUSIVE lock on the table it creates or changes, so other sessions
write other tables at once and meet -107 only on that table, as on Informix. A base of
session_locks.RowLocks; what it cannot take back runs escalated, as before.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ..core.errors import EngineError
from ..features.locks import ddl_undo, undo

if TYPE_CHECKING:
    from ..features.locks.triggers import LockTriggers
    from .engine import Engine

R = TypeVar("R")


class RowLockDdl:
    """DDL under row locks (a base of session_locks.RowLocks)."""

    if TYPE_CHECKING:
        engine: Engine
        session_id: int
        database: str | None
        conn: sqlite3.Connection | None
        in_transaction: bool
        _ansi: bool
        _sql_txn: bool
        _savepoints: list[str]
        _rl_undo: list[undo.Entry]
        _rl_hold: bool
        _rl_stored: int
        _rl_owner: str
        _rl_seq: int
        _rl_escalated: bool
        _rl_replaying: bool
        _rl_key: tuple[object, ...] | None
        _rl_triggers: LockTriggers
        lock_wait: int | None

        def _latch(self, kind: str | None = None, deadline: float | None = None) -> None: ...
        def _rl_unlatch(self) -> None: ...
        def _rl_flush_hold(self) -> None: ...
        def _rl_lost_hold(self) -> None: ...
        def _rl_abandon_unit(self, conn: sqlite3.Connection, held: bool) -> bool: ...
        def _sync(self, full: bool) -> None: ...
        def _lock_deadline(self) -> float | None: ...
        def _wait_for(self, holder: int, kind: str, deadline: float | None) -> None: ...
        def _lock_error(self, kind: str, waited: bool) -> EngineError: ...
        def _sqlite_begin(self, conn: sqlite3.Connection, kind: str,
                          started: float | None = None) -> None: ...
        def _new_owner(self) -> str: ...
        def _rl_store(self, conn: sqlite3.Connection, entries: list[undo.Entry]) -> None: ...
        def run_write(self, action: Callable[[], R], kind: str = "insert") -> R: ...

    #: The transaction ran DDL through rl_ddl: the session's schema caches are dropped at its
    #: end (a ROLLBACK puts the schema back).
    _rl_ddl_done: bool = False
    #: The schema and catalogue as this session's last DDL statement left them, under the key
    #: that says nothing has changed the file since (_rl_ddl_key): the next DDL's "before".
    _rl_snap: tuple[tuple[object, ...], ddl_undo.Objects, ddl_undo.Rows] | None = None
    #: Catalogue snapshots taken and reused by DDL statements (a cost check for tests).
    rl_ddl_snapshots: int = 0
    rl_ddl_snapshots_reused: int = 0

    def _rl_ddl_key(self, conn: sqlite3.Connection) -> tuple[object, ...]:
        """What moves when anything may have changed the catalogue since a snapshot: this
        connection's row changes (total_changes, counting triggers'), another connection's
        commit (data_version), DDL or a rollback of DDL (schema_version), and the
        transaction's undo entries (a ROLLBACK WORK or TO SAVEPOINT truncates them; every
        DDL adds at least one)."""
        return (id(conn), conn.total_changes,
                conn.execute("PRAGMA data_version").fetchone()[0],
                conn.execute("PRAGMA schema_version").fetchone()[0], len(self._rl_undo))

    def rl_ddl_applies(self) -> bool:
        """DDL of a row-lock transaction not escalated: rl_ddl runs it (ANSI: any statement
        opens the transaction)."""
        if self._sql_txn or self._rl_escalated:
            return False
        return self.in_transaction or self._ansi

    def rl_ddl(self, table: str | None, action: Callable[[], R], copy: bool = True) -> R:
        """Run a DDL statement inside a row-lock transaction: EXCLUSIVE lock on ``table`` (the
        existing table it changes, None for a new object) held to the transaction's end, the
        statement and its undo entries in one short SQLite write, committed at once (so
        other sessions see the new table and meet its lock, rather than not finding it).
        ``copy``: the statement may change the table's rows or definition, whose undo then
        needs a copy of them (not CREATE INDEX or CREATE TRIGGER: the new object is dropped)."""
        assert self.database is not None and self.conn is not None
        if self._ansi:
            self.in_transaction = True
        deadline = self._lock_deadline()
        if table is not None:
            while True:
                holder = self.engine.locks.table(self.session_id, self.database, table, True)
                if holder is None:
                    break
                self._wait_for(holder, "ddl", deadline)
        conn = self.conn
        self._latch("ddl", deadline)
        try:
            done = self._rl_ddl_run(conn, table if copy else None, action)
        finally:
            self._rl_unlatch()
        if done is None:  # taken back: run escalated, as before
            return self.run_write(action, "ddl")
        return done[0]

    def _rl_ddl_run(self, conn: sqlite3.Connection, table: str | None,
                    action: Callable[[], R]) -> tuple[R] | None:
        """rl_ddl under the latch; None when the statement was taken back as unsupported."""
        assert self.database is not None
        held = self._rl_hold
        stored = self._rl_stored  # (a rollback to the savepoint takes back what _rl_store wrote)
        if held:
            conn.execute("SAVEPOINT _ifx_rl")
        else:
            self._sync(False)
            self._sqlite_begin(conn, "ddl")
        self._sql_txn = True
        try:
            owner = self._new_owner()
            snap, self._rl_snap = self._rl_snap, None
            if snap is not None and snap[0] == self._rl_ddl_key(conn):
                before, rows = snap[1], snap[2]
                self.rl_ddl_snapshots_reused += 1
            else:
                before = ddl_undo.objects(conn)
                rows = ddl_undo.large_objects(conn)
                self.rl_ddl_snapshots += 1
            tables = ddl_undo.record(conn, before)
            # The recorded changes checked against whole snapshots (a test run's switch).
            full = (ddl_undo.catalogue(conn, tables)
                    if os.environ.get("IFXWIRE_DDL_UNDO_CHECK") == "1" else None)
            backups: dict[str, str] = {}
            if table is not None:
                name = f"{ddl_undo.BACKUP_PREFIX}{owner.replace('.', '_')}_{self._rl_seq}"
                if ddl_undo.backup(conn, table, name):
                    backups[table] = name
            self._rl_replaying = True  # the statement's own row writes: in the copy
            try:
                result = action()
            finally:
                self._rl_replaying = False
            state: list[tuple[ddl_undo.Objects, ddl_undo.Rows]] = []
            entries, created = ddl_undo.entries(conn, before, rows, backups, tables, state,
                                                full)
            for new in created:
                self.engine.locks.table(self.session_id, self.database, new, True)
            self._rl_store(conn, entries)
            if held:
                conn.execute("RELEASE _ifx_rl")
        except BaseException as e:
            # the lock triggers may have gone with the rollback
            self._rl_key = self._rl_triggers.key = None
            self._rl_stored = stored
            self._rl_abandon_unit(conn, held)
            if isinstance(e, ddl_undo.Unsupported):
                return None
            raise
        finally:
            self._sql_txn = False
            self._savepoints.clear()
        self._rl_undo.extend(entries)
        self._rl_stored = len(self._rl_undo)
        self._rl_ddl_done = True
        self._rl_hold = True
        self._rl_flush_hold()  # visible to others now, behind the table's lock
        self._rl_snap = (self._rl_ddl_key(conn), *state[0])
        return (result,)

    def rl_ddl_discard(self) -> None:
        """At COMMIT, in the SQLite transaction that deletes the undo entries: drop the copies
        of the tables the transaction's DDL changed."""
        if self._rl_ddl_done and self.conn is not None:
            ddl_undo.discard(self.conn, self._rl_undo)
