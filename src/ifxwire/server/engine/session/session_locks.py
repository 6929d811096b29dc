"""EngineSession's row-lock mode: writes applied at once under row locks, with an undo log.

A mixin of EngineSession, active when the Engine runs with ``row_locks`` (server option
``--row-locks``; docs/SERVER.md, "Locks and isolation", says why this design):

* every writing statement is its own short SQLite transaction (taken under a per-database
  latch, so sessions never wait on SQLite's busy handler), whatever Informix transaction it
  is part of, except that a session inside a transaction that writes while nobody waits
  keeps its SQLite transaction open between statements and parks the latch; whoever needs
  the latch next commits it (features/locks/latch.py); a waiter honours SET LOCK MODE;
* TEMP triggers on the connection call ``_ifx_lk`` for each row a statement inserts, updates
  or deletes (made for a table at the session's first write to it: a statement writing a
  table without them is refused by SQLite's authorizer before it runs, and runs again once
  they are made; features/locks/triggers.py): it takes the row's lock in the Engine's lock
  table (features/locks/manager.py), or stops the statement when another session holds
  it, and records the row's before-image; the images go into ``_ifx_undo`` in the
  statement's own SQLite transaction;
* Informix COMMIT deletes the session's images (a SQLite commit, synchronous FULL in an
  unbuffered-log database) and releases its locks; ROLLBACK applies the images in reverse;
* DDL inside a transaction leaves undo entries for its catalogue rows and schema changes
  (session_lock_ddl.py);
* what cannot be undone that way (savepoints, smart large objects, temporary tables inside a
  transaction) escalates the transaction to SQLite's database write lock, held to its end,
  as every transaction did before row locks.

This file keeps the session's row-lock state, the lock triggers' making and the statements'
write path (``rl_write``); its bases: session_lock_rows.py (each row's lock: ``_ifx_lk`` and
the reads' checks), session_lock_latch.py (the latch, the held SQLite transaction, COMMIT and
ROLLBACK), session_lock_reads.py (isolation levels), session_lock_ddl.py.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.hooks import CAPTURE
from ..features.locks import undo
from ..features.locks.latch import Latch
from ..features.locks.manager import Armed, Deadlock
from ..features.locks.triggers import LockTriggers
from .session_errors import TRANSACTION_LOST
from .session_lock_ddl import RowLockDdl
from .session_lock_latch import RowLockLatch
from .session_lock_reads import (
    COMMITTED,
    CURSOR,
    DIRTY,
    LAST_COMMITTED,
    REPEATABLE,
    RowLockReads,
)
from .session_lock_rows import RowLockRows

if TYPE_CHECKING:
    from ..features.lobs.lo_session import LoSession
    from ..schema import catalog as cat
    from ..sql.functions import FunctionSlot, FunctionState
    from ..sql.translate import Plan
    from .engine import Engine

R = TypeVar("R")

#: Isolation level names (SET ISOLATION / SET TRANSACTION ISOLATION LEVEL).
# Isolation level names (SET ISOLATION / SET TRANSACTION ISOLATION LEVEL): session_lock_reads
_LOCK_CODES = {"insert": sc.LOCK_INSERT, "update": sc.LOCK_UPDATE, "delete": sc.LOCK_DELETE,
               "merge": sc.LOCK_UPDATE, "instead": sc.LOCK_UPDATE, "query": sc.LOCK_READ,
               "select_into": sc.LOCK_READ, "lock_table": sc.LOCK_TABLE_MODE}


#: Statements whose ExecResult.rowcount is the rows they changed themselves (not MERGE's
#: or an INSTEAD OF trigger's count): ``own_rows_only`` compares it with SQLite's
#: total_changes.
_OWN_ROWS = ("insert", "update", "delete")

#: Numbers the transactions of this process that write undo entries. An owner key is unique
#: in the file: entries of a former process are all applied and deleted (``undo.recover``)
#: before this one serves the database. Why not uuid4: its os.urandom cost ~50 us per
#: transaction here, a sixth of a one-session UPDATE+COMMIT's own cost.
_OWNERS = itertools.count(1)


def own_rows_only(kind: str, changes: int, result: object) -> bool:
    """Whether a write unit about to commit changed no row but its statement's own:
    ``changes`` is how far SQLite's ``total_changes`` moved in the unit (the smart-LOB
    tables' counting triggers, trigger actions and cascades all count there), ``result``
    the statement's ExecResult. Such a unit added nothing for the smart-LOB housekeeping
    (``LoSession.before_commit``); both autocommitted write paths ask: ``rl_write`` under
    row locks, ``session_txn.run_write`` without them (branch locks42; locks40 had the
    first only)."""
    return kind in _OWN_ROWS and changes == getattr(result, "rowcount", -1)


def short_dml(plan: Plan) -> bool:
    """A DML statement that reads no table but its target and has no subquery: short, so
    it may join the transaction held across statements (``RowLocks.rl_write``)."""
    return len(plan.tables) <= 1 and "SELECT" not in plan.sql.upper()


def isolation_of(words: tuple[str, ...]) -> str | None:
    """The level named by SET ISOLATION TO ... / SET TRANSACTION ISOLATION LEVEL ...; None
    for a form not recognised. ANSI levels map as the Informix Guide to SQL: Syntax, SET
    TRANSACTION, tabulates them: READ UNCOMMITTED = Dirty Read, READ COMMITTED = Committed
    Read, REPEATABLE READ and SERIALIZABLE = Repeatable Read."""
    text = " ".join(words)
    if text.startswith("ISOLATION TO "):
        rest = text[len("ISOLATION TO "):]
        if rest.startswith("DIRTY READ"):
            return DIRTY
        if rest.startswith("COMMITTED READ LAST COMMITTED"):
            return LAST_COMMITTED
        if rest.startswith("COMMITTED READ"):
            return COMMITTED
        if rest.startswith("CURSOR STABILITY"):
            return CURSOR
        if rest.startswith("REPEATABLE READ"):
            return REPEATABLE
        return None
    if text.startswith("TRANSACTION"):
        for name, level in (("READ UNCOMMITTED", DIRTY), ("READ COMMITTED", COMMITTED),
                            ("REPEATABLE READ", REPEATABLE), ("SERIALIZABLE", REPEATABLE)):
            if name in text:
                return level
        return None
    return None


def _lock_functions(conn: sqlite3.Connection, slot: FunctionSlot) -> None:
    """Install _ifx_lk, _ifx_rd and _ifx_rs on ``conn`` for good, calling the session ``slot`` names
    (``_rl_open``)."""

    def lk(table: str, op: str, rowid: int, *image: object) -> int:
        return cast(RowLocks, slot.lock_session)._ifx_lk(table, op, rowid, *image)

    def rd(table: str, rowid: int) -> int:
        return cast(RowLocks, slot.lock_session)._ifx_rd(table, rowid)

    def rs(table: str, rowid: int) -> int:
        return cast(RowLocks, slot.lock_session)._rl_share(table, rowid)

    conn.create_function("_ifx_lk", -1, lk)
    conn.create_function("_ifx_rd", 2, rd)
    conn.create_function("_ifx_rs", 2, rs)


class RowLocks(RowLockReads, RowLockDdl, RowLockLatch, RowLockRows):
    """The row-lock half of EngineSession (session.py defines the other state; the reads are
    in session_lock_reads.py, the latch and the transaction's end in session_lock_latch.py,
    the per-row lock functions in session_lock_rows.py)."""

    if TYPE_CHECKING:
        engine: Engine
        session_id: int
        database: str | None
        conn: sqlite3.Connection | None
        in_transaction: bool
        lock_wait: int | None
        state: FunctionState
        lo: LoSession
        _sql_txn: bool
        _ansi: bool
        _logged: bool
        _savepoints: list[str]
        _txn_lost: bool
        _ddl_dirty: bool
        _local_plans: dict[tuple[object, ...], Plan]
        _schema: cat.Schema | None
        _slot: FunctionSlot | None
        _unit_version: int | None

        def _lock_error(self, kind: str, waited: bool) -> EngineError: ...
        def _sqlite_begin(self, conn: sqlite3.Connection, kind: str,
                          started: float | None = None) -> None: ...
        def current_schema(self, version: int | None = None) -> cat.Schema: ...
        def _schema_version(self) -> int: ...
        def _end_sql_txn(self, verb: str) -> None: ...
        _parked: bool
        _park_stale: bool

        def park_stale(self) -> None: ...
        def _after_commit(self) -> None: ...

    # state (set in _rl_init, called by EngineSession.__init__)
    _rl_undo: list[undo.Entry]
    _rl_seq: int
    _rl_pending: list[undo.Entry]
    _rl_conflict: int | None
    _rl_upd_read: bool
    _rl_read_mark: int
    _rl_wide: bool
    _rl_escalated: bool
    _rl_replaying: bool
    _rl_key: tuple[object, ...] | None
    _rl_triggers: LockTriggers
    _rl_owner: str
    _rl_latches: list[Latch]
    _rl_hold: bool
    _rl_flushed: int
    _rl_stored: int
    _rl_lost: bool
    _rl_use: threading.Lock
    _rl_in: bool
    _rl_free: int
    _rl_add: set[str]
    _rl_bulk: list[int] | None
    _rl_bulk_table: str
    isolation: str | None

    def _rl_init(self) -> None:
        self._rl_undo = []
        self._rl_pending = []
        self._rl_conflict = None
        self._rl_upd_read = False  # the running query is a FOR UPDATE cursor's (_ifx_rd)
        #: the lock table's read_mark when the running query's OPEN began (_ifx_rd)
        self._rl_read_mark = 0
        self._rl_wide = False
        self._rl_escalated = False
        self._rl_replaying = False
        self._rl_key = None
        #: rowids of the rows a batch inserts, locked after the statement (rl_bulk)
        self._rl_bulk = None
        self._rl_bulk_table = ""
        self._rl_triggers = LockTriggers()  # the connection's, from _rl_open on
        #: >0 while the session's writes need no lock triggers (DDL copying a table's rows)
        self._rl_free = 0
        #: tables whose lock triggers the next _rl_install makes (a refused statement's)
        self._rl_add = set()
        self._rl_owner = ""
        self._rl_latches = []
        #: The SQLite transaction is held open across statements (features/locks/latch.py)
        self._rl_hold = False
        #: How many of _rl_undo's entries are committed to the file (the rest are in the
        #: held transaction)
        self._rl_flushed = 0
        #: How many of _rl_undo's entries are written to the file (committed or in the open
        #: SQLite transaction); those after them belong to the held transaction and are
        #: written only if it is committed before the Informix COMMIT (_rl_store_held)
        self._rl_stored = 0
        #: The next undo entry's number in the file (only grows: entries sort by it)
        self._rl_seq = 0
        #: An interrupt took the held transaction back (session_errors.interrupted reports it)
        self._rl_lost = False
        #: Held by the server while this session handles a request (rl_enter / rl_leave):
        #: another session commits this one's parked transaction only while it is free.
        self._rl_use = threading.Lock()
        self._rl_in = False
        self._rl_sync = ""  # the synchronous mode set on the connection ("": unknown)
        #: (database, its WAL file's path) for _flush_wal
        self._rl_wal: tuple[str | None, str] = (None, "")
        self._rl_new: tuple[str, tuple[object, ...]] | None = None
        #: Rows per lock of each table with more than one (LOCK MODE PAGE), by name.
        self._rl_pages: dict[str, int] = {}
        #: Per table, what the REPEATABLE READ query reading it gives ``_ifx_rs``'s quick
        #: path (``LockTable.arm``, ``LockTable.share_function``)
        self._rl_armed: Armed = {}
        #: ``_ifx_rs``'s work for this session (set at DATABASE: LockTable.share_function)
        self._rl_share: Callable[[str, int], int] = self._ifx_rs
        #: Counts the releases of all this session's cursor locks (transaction end, database
        #: close): a CURSOR STABILITY cursor locked before one holds nothing (rl_stability).
        self._rl_cursors = 0
        #: SET ISOLATION's level; None: the database's default (row_isolation).
        self.isolation = None
        #: A SET TRANSACTION in the open transaction: (whether it set a level, the level
        #: before it, given back at the transaction's end); None: none in this transaction.
        self._txn_set: tuple[bool, str | None] | None = None
        #: SET ISOLATION ... RETAIN UPDATE LOCKS: a FOR UPDATE cursor's update locks last
        #: to the transaction's end (rl_for_update)
        self.retain_updates = False
        #: SET TRANSACTION READ ONLY in the open transaction: its writes are -878
        self._txn_read_only = False

    @property
    def row_locks(self) -> bool:
        # (inlined in EngineSession._rows: keep the two in step)
        return self.engine.row_locks and self.database is not None and self._logged

    def row_isolation(self) -> str:
        if self.isolation is not None:
            return self.isolation
        return REPEATABLE if self._ansi else COMMITTED

    @property
    def txn_has_work(self) -> bool:
        """The open transaction changed something (DATABASE then is -535)."""
        return self._sql_txn or bool(self._rl_undo) or self._rl_hold

    # ---- opening -----------------------------------------------------------------------------
    def _rl_open(self, conn: sqlite3.Connection) -> None:
        """At DATABASE: the functions the triggers call, serving this session. A pooled
        connection has them from its first session and they reach the session through its
        slot: SQLite expires every prepared statement of a connection when a function is
        defined (``sqlite3_create_function``), so defining them again at each DATABASE made
        the session's first statements compile again (0.1-0.2 ms of its first EXECUTE,
        docs/PROTOCOL.md §6, the twenty-fifth session's figures)."""
        self._rl_key = None
        self._rl_sync = ""
        self._rl_undo = []
        self._rl_stored = 0
        # REPEATABLE READ's per-row share function: the session's closure (its quick path
        # inline), reached through the connection's _ifx_rs like the others
        self._rl_share = self.engine.locks.share_function(
            self.session_id, self._rl_armed, self._ifx_rs)
        slot = self._slot
        if slot is None:
            conn.create_function("_ifx_lk", -1, self._ifx_lk)
            conn.create_function("_ifx_rd", 2, self._ifx_rd)
            conn.create_function("_ifx_rs", 2, self._rl_share)
        else:
            slot.lock_session = self
            if not slot.lock_functions:
                _lock_functions(conn, slot)
                slot.lock_functions = True
        # the connection's triggers (kept by a pooled one), its authorizer asking this session
        lt = slot.lock_triggers if slot is not None else None
        if not isinstance(lt, LockTriggers) or lt.conn_id != id(conn):
            lt = LockTriggers.bind(conn)
            if slot is not None:
                slot.lock_triggers = lt
        self._rl_triggers = lt
        lt.gate = self._rl_gate
        self._rl_add = set()
        # what the connection's last session found at its last check: the next check
        # compares it with the schema version and the listing as it does its own (a DDL or
        # a rollback since makes it list the catalogue again), instead of always listing it
        self._rl_key = lt.key
        self._rl_pages = dict(lt.pages)

    def _rl_gate(self, conn_id: int) -> bool:
        """Whether the authorizer of connection ``conn_id`` may refuse a write to a table
        without lock triggers now: it is this session's connection in row-lock mode, and the
        write is not an undo being applied, recovery, nor DDL's own copy of a table."""
        conn = self.conn
        return (conn is not None and id(conn) == conn_id and not self._rl_replaying
                and not self._rl_free and self.row_locks)

    def _rl_install(self) -> bool:
        """(Re)check this connection's TEMP lock triggers when the schema changed or a
        rollback took some back (or brought dropped ones back): one set per permanent table
        this connection has written, passing the row's columns (the before-image); only the
        tables whose definition changed get new ones, and those a refused statement writes
        (``_rl_add``) get theirs (features/locks/triggers.py)."""
        conn = self.conn
        assert conn is not None and self.database is not None
        lt = self._rl_triggers
        # the catalogue's listing only when a rollback may have changed it (lt.unsure)
        have = lt.count()
        listed = lt.listed(conn) if lt.unsure else have
        key = (id(conn), self._schema_version(), listed)
        if key == self._rl_key and listed == have and not self._rl_add:
            if not conn.in_transaction:
                lt.unsure = False  # those made in a transaction were committed with it
            return False
        # The user's tables as the catalogue knows them (not its own sys* tables).
        infos = {info.name: info for info in self.current_schema().tables.values()
                 if info.kind == "T" and not info.temp and info.schema == "main"}
        add, self._rl_add = self._rl_add, set()
        self._rl_key = lt.key = None
        lt.install(conn, infos, add)
        self._rl_pages = {name: info.rows_per_page for name, info in infos.items()
                          if info.rows_per_page > 1}
        self._rl_key = lt.key = (id(conn), self._schema_version(), lt.count())
        lt.pages = self._rl_pages
        return True

    def rl_expect(self, info: cat.TableInfo | None) -> None:
        """A prepared INSERT/UPDATE/DELETE will write ``info``: have its lock triggers made by
        the next write unit's ``_rl_install``, before the statement runs, instead of by a
        refused first run, its rollback and a second unit (features/locks/triggers.py). The
        first EXECUTE of a session's first write to a table took 2.4-3.8 ms that way, against
        0.4-0.9 ms later (under load), longer than libsqli waits for an EXECUTE's reply
        (docs/PROTOCOL.md §6)."""
        if (info is None or info.temp or info.kind != "T" or info.schema != "main"
                or self._rl_free or self._rl_triggers.has(info.name)):
            return
        self._rl_add.add(info.name)

    def rl_prepare(self, info: cat.TableInfo | None) -> None:
        """At the PREPARE of an INSERT/UPDATE/DELETE: make ``info``'s lock triggers now, so
        that its first EXECUTE does no more work than a later one (libsqli waits 1 ms for an
        EXECUTE's reply, and the first EXECUTE of a session's first write was the slowest:
        docs/PROTOCOL.md §6). They are TEMP triggers, private to this connection, so making
        them writes nothing of the database and needs neither its latch nor a write unit.
        Only outside a SQLite transaction (a held one would take them back on a rollback);
        otherwise, or when making them fails, ``rl_expect`` leaves them to the next write
        unit as before. A DDL of another session between the schema reads and the triggers
        makes the write unit's ``_rl_install`` check them again (the key is dropped).

        With nothing to make (a pooled connection keeps the triggers an earlier session
        made), the check itself is still done here: when the schema changed since the
        connection's last check it lists the catalogue and the connection's triggers, which
        the session's first EXECUTE did before its statement ran (0.3-4 ms, growing with the
        number of tables: docs/PROTOCOL.md §6, the twenty-fifth session's figures). So is the
        connection's synchronous mode for an autocommitted statement (``_sync``: one PRAGMA
        at a session's first write unit)."""
        self.rl_expect(info)
        conn = self.conn
        if conn is None or conn.in_transaction:
            return
        with contextlib.suppress(sqlite3.Error):
            self._sync(not self.in_transaction)  # the unit's PRAGMA, if the mode changes
        pending = set(self._rl_add)  # (_rl_install empties it before it makes them)
        try:
            before = self._schema_version()
            self._rl_install()
            if self._schema_version() != before:
                self._rl_key = self._rl_triggers.key = None
        except (sqlite3.Error, EngineError):
            # The work is optional: the PREPARE goes on, and the next write unit makes (or
            # checks) them, for every table still waiting, earlier PREPAREs' too
            # (REVIEW-locks F7 a, b: only this one's name was put back, and an EngineError
            # of the schema read failed a PREPARE that did not need the triggers)
            self._rl_key = self._rl_triggers.key = None
            self._rl_add |= {name for name in pending if not self._rl_triggers.has(name)}

    def rl_lazy(self, run: Callable[[], R]) -> R:
        """Run ``run`` (a statement, rolled back whole when it fails), making the lock
        triggers of the tables SQLite's authorizer refused it for and running it again
        (features/locks/triggers.py). Each level of nesting (a routine's statement inside
        a statement) catches its own refusals. (The attempt loop is written out here and in
        rl_write, not shared through a function around ``run``: triggers calling routines
        that write nest 61 statements deep, and another frame a level overflows Python's
        stack.)"""
        if not self.row_locks or self._rl_free:
            return run()
        lt = self._rl_triggers
        outer = lt.missing
        tried: set[str] = set()
        # inside an Informix transaction _begin_write checked no triggers (escalated)
        check = self.in_transaction
        try:
            while True:
                refusal, saved = self._rl_attempt(check)
                try:
                    result = run()
                except BaseException:
                    if not self._rl_attempt_refused(refusal, tried, saved):
                        raise
                    tried |= refusal
                    self._rl_make(refusal)
                    continue
                self._rl_attempt_done(saved)
                return result
        finally:
            lt.missing = outer

    def _rl_attempt(self, check: bool) -> tuple[set[str], int]:
        """Begin an attempt of a statement in the open SQLite transaction that the authorizer
        may refuse (rl_lazy, rl_write): a savepoint, so that what it wrote before a refusal
        is taken back before it runs again (a supertable's UPDATE has run on the
        supertable when its subtable's part is refused). ``check``: first make again the
        triggers a rollback took back (ROLLBACK TO SAVEPOINT, a failed statement's
        savepoint), which the authorizer would otherwise count as made. Returns the set the
        authorizer fills with the refused tables, and where the attempt's savepoint was
        taken (the length of ``_rl_pending`` then), or -1 when none was: inside a running
        SQLite statement (a routine called from SQL writing), where SQLite opens none; a
        refusal there is rare (its statement's tables were written by then) and is run
        again as before."""
        if check:
            self._rl_install()
        refusal: set[str] = set()
        self._rl_triggers.missing = refusal
        conn = self.conn
        assert conn is not None
        try:
            conn.execute("SAVEPOINT _ifx_rl_try")
        except sqlite3.OperationalError:  # "SQL statements in progress"
            return refusal, -1
        return refusal, len(self._rl_pending)

    def _rl_attempt_refused(self, refusal: set[str], tried: set[str], saved: int) -> bool:
        """The attempt failed: whether it was refused for tables not tried yet (to be run
        again once their triggers are made). Either way what it wrote is taken back to its
        savepoint, which is then released: a statement of several SQLite statements (a
        MERGE's INSERT then UPDATE, a supertable's UPDATE, one per table) that fails after
        its first part must leave nothing in an escalated transaction, as a failing
        statement undoes only itself (docs/SERVER.md, "A failing statement in a
        transaction"). It used to be released without the rollback unless retried, so the
        first part stayed and COMMIT WORK kept it (branch locks42). The undo entries its
        rows added to the held unit (a statement nested in a row-lock unit) go with them."""
        retry = bool(refusal) and not refusal & tried
        conn = self.conn
        assert conn is not None
        if saved >= 0 and conn.in_transaction:  # (an I/O error may have ended it)
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK TO _ifx_rl_try")
                conn.execute("RELEASE _ifx_rl_try")
            self._rl_free_inserted(self._rl_pending[saved:],
                                   self._rl_undo + self._rl_pending[:saved])
            del self._rl_pending[saved:]
            # lock triggers made in the attempt (a nested rl_lazy) went with it
            self._rl_key = self._rl_triggers.key = None
        return retry

    def _rl_attempt_done(self, saved: int) -> None:
        conn = self.conn
        assert conn is not None
        if saved >= 0:
            conn.execute("RELEASE _ifx_rl_try")

    def _rl_make(self, tables: set[str]) -> None:
        """Make the lock triggers of ``tables`` now (in the open SQLite transaction, if any:
        a rollback that takes them back is seen by the next ``_rl_install``); a table whose
        set could not be made ends the retries with the refusal's error."""
        self._rl_add |= tables
        self._rl_install()
        if not all(self._rl_triggers.has(t) for t in tables):
            raise EngineError(sc.NOT_IMPLEMENTED, message="lock triggers not made for "
                              + ", ".join(sorted(tables)))

    # ---- writes ------------------------------------------------------------------------------
    def rl_write(self, kind: str, action: Callable[[], R], short: bool = True) -> R:
        """Run a DML statement under row locks: its own SQLite transaction, or, inside an
        Informix transaction whose SQLite transaction is held (``_rl_hold``), a savepoint of
        that transaction; wait for a lock holder as SET LOCK MODE says and run it again, or
        fail with the Informix lock error.

        A statement that may run long (not ``short``: it reads other tables or has a
        subquery, ``short_dml``) first commits the held transaction: SQLite takes back the
        whole transaction when it interrupts a write (a cancel, statement_timeout), and the
        statements before it must not go with it (Informix rolls back the statement only).

        A statement refused by SQLite's authorizer (it writes a table whose lock triggers
        this connection has not made yet: features/locks/triggers.py) ran no row: its unit is
        rolled back like a failed statement's, the next unit makes the triggers and runs it
        again."""
        lt = self._rl_triggers
        outer = lt.missing
        deadline = self._lock_deadline()
        tried: set[str] = set()
        try:  # (one frame: triggers calling routines that write nest 61 statements deep)
            while True:
                if self._rl_escalated or self._sql_txn:
                    # the transaction holds SQLite's lock already: only a refusal to retry
                    refusal, saved = self._rl_attempt(True)
                    try:
                        result = action()
                    except BaseException:
                        if not self._rl_attempt_refused(refusal, tried, saved):
                            raise
                        tried |= refusal
                        self._rl_make(refusal)
                        continue
                    self._rl_attempt_done(saved)
                    return result
                self._rl_conflict = None
                self._rl_wide = False
                self._rl_pending = []
                missing: set[str] = set()
                lt.missing = missing
                refused: set[str] = set()
                conn = self.conn
                assert conn is not None
                self._latch(kind, deadline)  # takes back this session's parked transaction
                if self._rl_hold and not short:
                    try:
                        self._rl_flush_hold()
                    except BaseException:
                        self._unlatch()
                        raise
                held = self._rl_hold
                installed = False
                try:
                    if held:
                        conn.execute("SAVEPOINT _ifx_rl")
                    else:
                        self._sync(not self.in_transaction)
                        # Only an escalated transaction of another session holds SQLite's
                        # lock beyond a statement: met as a lock, per busy_timeout.
                        self._sqlite_begin(conn, kind)
                    self._sql_txn = True
                    try:
                        # inside the transaction: the schema version is read without a new read
                        # transaction, and no other session's DDL can come between
                        installed = self._rl_install()
                        if kind == "update" or kind == "delete":
                            # the version _rl_install has just read: the statement's first
                            # catalogue lookup (run_dml's triggers) takes it instead of
                            # reading it again (current_schema); _dml drops it before its
                            # SQL runs
                            key = self._rl_key
                            if key is not None and isinstance(key[1], int):
                                self._unit_version = key[1]
                        changes = conn.total_changes
                        self.state.vio_kept = (None, [])
                        result = action()
                        self._unit_version = None
                        if self.state.vio_kept[1]:
                            self._rl_drop_kept()
                        if self._rl_pending:
                            # runs of inserted rowids as one entry each (undo.coalesce)
                            self._rl_pending = undo.coalesce(self._rl_pending)
                            if not self.in_transaction:
                                self._rl_store(conn, self._rl_pending)
                            # else kept in memory with the held transaction these entries
                            # now hold open: written to the file only if that SQLite
                            # transaction is committed before the Informix COMMIT
                            # (_rl_store_held); the COMMIT WORK that commits it deletes
                            # them, so it writes none (docs/SERVER.md, "The undo log")
                        if self.in_transaction:
                            CAPTURE.statement_done(self)  # CDC: a chunk spilled in this unit
                        if held:
                            conn.execute("RELEASE _ifx_rl")
                        if not self.in_transaction:
                            # A statement outside a transaction ends one: BYTE/TEXT objects it
                            # let go are freed and its captured rows go to the CDC log, as
                            # _end_sql_txn does for a transaction without row locks.
                            # (the smart-LOB check is skipped when the unit changed only
                            # the statement's own rows: lo_session.before_commit)
                            self.lo.before_commit(own_rows_only(
                                kind, conn.total_changes - changes, result))
                            conn.execute("COMMIT")
                            self._after_commit()  # parked reads (session_park.py)
                            self.lo.after_end(True)
                        else:
                            # kept open: committed when another session needs the latch, or
                            # at the end of this statement when one already waits (_rl_unlatch)
                            self._rl_hold = held or bool(self._rl_pending)
                            if not self._rl_hold:
                                conn.execute("COMMIT")
                        undo.extend(self._rl_undo, self._rl_pending, self._rl_stored)
                        if not self._rl_hold:
                            self._rl_stored = len(self._rl_undo)
                        return result
                    except BaseException:
                        if not self.in_transaction:
                            # CDC: the statement's changes are not committed (a COMMIT that
                            # failed logs its reserved numbers as a rollback, as _end_sql_txn)
                            CAPTURE.txn_end(self, False)
                        if installed:
                            # the rollback takes the new triggers back
                            self._rl_key = self._rl_triggers.key = None
                        # the rows it inserted are gone again: so are their locks
                        self._rl_free_inserted(self._rl_pending, self._rl_undo)
                        if self._rl_abandon_unit(conn, held) and self._rl_lost:
                            self._rl_lost = False  # the statement's -213 must say so
                            raise EngineError(sc.INTERRUPTED, near=TRANSACTION_LOST,
                                              message="the held transaction was "
                                              "rolled back") from None
                        if missing and not missing & tried:
                            # refused before it ran: made in the next unit, run again
                            refused = set(missing)
                        elif self._rl_conflict is None and not self._rl_wide:
                            self._rl_conflict = self._dup_holder()
                        if self._rl_conflict is None and not self._rl_wide and not refused:
                            raise
                    finally:
                        self._unit_version = None
                        self._rl_pending = []
                        self._sql_txn = False
                        self._savepoints.clear()
                finally:
                    self._rl_unlatch()
                self.state.error = None
                if refused and self._rl_conflict is None and not self._rl_wide:
                    tried |= refused
                    self._rl_add |= refused
                    continue
                if self._rl_wide:
                    self.escalate(kind)
                    continue
                holder = self._rl_conflict
                assert holder is not None
                self._wait_for(holder, kind, deadline)
        finally:
            lt.missing = outer

    def _rl_store(self, conn: sqlite3.Connection, entries: list[undo.Entry]) -> None:
        """Write a unit's undo entries to the file, numbered after every entry this session
        wrote before (the in-memory log joins runs, so its length is no sequence number);
        the held transaction's entries not written yet go first, so the numbers keep the
        order the changes were made in (recovery applies them backwards). The caller appends
        ``entries`` to ``_rl_undo`` and counts them written (``_rl_stored``)."""
        self._rl_store_held(conn)
        undo.store(conn, self._new_owner(), self._rl_seq, entries)
        self._rl_seq += len(entries)

    def _rl_store_held(self, conn: sqlite3.Connection) -> None:
        """Write the undo entries the held SQLite transaction kept in memory, in it: before
        anything commits that transaction while the Informix transaction goes on (another
        session needs the latch, an escalation, row-lock DDL). A kill -9 then finds every
        committed change's before-image in the file, as when each statement wrote its own;
        an uncommitted SQLite transaction needs none (a crash takes it back whole)."""
        kept = self._rl_undo[self._rl_stored:]
        if kept:
            undo.store(conn, self._new_owner(), self._rl_seq, kept)
            self._rl_seq += len(kept)
            self._rl_stored = len(self._rl_undo)

    def _new_owner(self) -> str:
        """This transaction's key in the undo log (made at its first undo entry)."""
        if not self._rl_owner:
            self._rl_owner = f"{os.getpid()}.{next(_OWNERS)}"
        return self._rl_owner

    def _lock_deadline(self) -> float | None:
        wait = self.lock_wait
        return None if wait is None or wait < 0 else time.monotonic() + wait

    def _wait_for(self, holder: int, kind: str, deadline: float | None) -> None:
        """Wait for ``holder`` per SET LOCK MODE, or raise the statement's lock error."""
        if self.lock_wait is None:
            raise self._lock_error(kind, False)
        was_in = self._rl_in
        self.rl_leave()  # the holder may need this session's parked transaction committed
        try:
            if not self.engine.locks.wait(self.session_id, holder, deadline):
                raise self._lock_error(kind, True)
        except Deadlock:
            raise EngineError(_LOCK_CODES.get(kind, sc.LOCK_OPEN_TABLE),
                              sc.ISAM_DEADLOCK) from None
        finally:
            if was_in:
                self.rl_enter()

    def escalate(self, kind: str) -> None:
        """Hold SQLite's database write lock to the end of the transaction (work that the undo
        log cannot undo row by row)."""
        if self._sql_txn:
            return
        conn = self.conn
        assert conn is not None
        # Under the latch: a parked transaction of another session is committed first, and
        # this session's own held one becomes the escalated transaction.
        self._latch(kind, self._lock_deadline())
        try:
            if self._rl_hold:
                # an escalated transaction may be committed before the Informix COMMIT
                # (session_txn.run_write_alone): its images go into it now
                self._rl_store_held(conn)
            else:
                self._rl_install()
                started = time.monotonic()
                self._sync(True)
                self._sqlite_begin(conn, kind, started)
            # (a held transaction stays synchronous NORMAL, which cannot change inside it:
            # rl_finish syncs the WAL after its COMMIT)
            self._rl_hold = False
            self._sql_txn = True
            self._rl_escalated = self.in_transaction
        finally:
            self._unlatch()

    # ---- LOCK TABLE ----------------------------------------------------------------------------
    def rl_lock_table(self, table: str, exclusive: bool, lock: bool) -> None:
        """LOCK TABLE / UNLOCK TABLE. In a logged database a table lock lives in a
        transaction and ends with it: LOCK TABLE outside one is -524 (non-ANSI), UNLOCK TABLE
        inside one -327 (Informix messages, sql_en_US.properties)."""
        assert self.database is not None
        if not lock:
            if self.in_transaction and not self._ansi:
                raise EngineError(sc.UNLOCK_IN_TXN, near=table)
            self.engine.locks.unlock_table(self.session_id, self.database, table)
            return
        if not self.in_transaction and not self._ansi:
            raise EngineError(sc.LOCK_TABLE_NO_TXN, near=table)
        if self._ansi:
            self.in_transaction = True
        deadline = self._lock_deadline()
        while True:
            holder = self.engine.locks.table(self.session_id, self.database, table, exclusive)
            if holder is None:
                return
            self._wait_for(holder, "lock_table", deadline)

    def rl_check_ddl(self, table: str | None) -> None:
        """DDL on a table another session holds locks on: -242 (after the wait)."""
        if not self.row_locks or table is None:
            return
        assert self.database is not None
        deadline = self._lock_deadline()
        while True:
            holder = self.engine.locks.busy(self.session_id, self.database, table)
            if holder is None:
                return
            self._wait_for(holder, "ddl", deadline)
