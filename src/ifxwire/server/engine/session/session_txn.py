"""EngineSession's transactions: the write lock, BEGIN/COMMIT/ROLLBACK WORK, savepoints.

A mixin of EngineSession (session.py, whose docstring states the locking rules): a session
takes SQLite's write lock at its first writing statement and holds it to the end of the
transaction; outside one each write commits by itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.hooks import CAPTURE
from ..features import cross_database
from ..features.inherit import deferred_violation
from ..features.lobs import lobstore
from ..features.triggers import run_dml
from ..schema import catalog as cat
from .session_errors import TRANSACTION_LOST
from .session_locks import own_rows_only, short_dml

if TYPE_CHECKING:
    from ..features.lobs.lo_session import LoSession
    from ..features.locks.triggers import LockTriggers
    from ..schema.catalog import TableInfo
    from ..sql.prepared import ExecResult, Prepared
    from ..sql.statements import SavepointSpec
    from ..sql.translate import Plan
    from .session import EngineSession

R = TypeVar("R")


def private_table(info: TableInfo | None) -> bool:
    """A temporary table whose writes stay in the session's own ``temp`` schema: smart-LOB
    columns keep their data in the database's shared LO store, so those do not count."""
    return info is not None and info.temp and not any(c.type.is_smart_lob
                                                      for c in info.columns)


def private_write(plan: Plan) -> bool:
    """Whether a compiled statement writes only a temporary table of this session. A
    statement that calls routines (SPL may write permanent tables) or draws NEXTVAL does not
    count, whatever its target: those writes need the database's write lock."""
    if plan.routines or plan.routine is not None or plan.parts or "ifx_seq(" in plan.sql \
            or "ifx_spl(" in plan.sql:
        return False
    if plan.kind == "select_into":
        return not any(t.is_smart_lob for t in plan.types)
    return plan.kind in ("insert", "update", "delete") and private_table(plan.table)


class Transactions:
    """The transaction half of EngineSession (session.py defines the state)."""

    #: DDL ran through ``run_write`` since the last transaction's end: SET CONSTRAINTS …
    #: DEFERRED (SQLite's defer_foreign_keys, which lasts to the SQLite transaction's end)
    #: may be on, so COMMIT reads it (``_deferred_violation``).
    _txn_ddl: bool = False

    if TYPE_CHECKING:
        database: str | None
        in_transaction: bool
        transactions_ended: int
        lock_wait: int | None
        lo: LoSession
        _sql_txn: bool
        _savepoints: list[str]
        _ddl_dirty: bool
        _logged: bool
        _ansi: bool
        _txn_lost: bool
        isolation: str | None
        _txn_set: tuple[bool, str | None] | None
        _txn_read_only: bool
        _local_plans: dict[tuple[object, ...], Plan]
        temp_tables: dict[str, TableInfo]
        _temp_serials: dict[tuple[str, str], int]
        _temp_before: dict[str, TableInfo] | None
        _temp_no_log: set[str]
        _schema: object
        conn: sqlite3.Connection | None

        def _connection(self) -> sqlite3.Connection: ...

        def _lock_error(self, kind: str, waited: bool) -> EngineError: ...
        def _sqlite_begin(self, conn: sqlite3.Connection, kind: str,
                          started: float | None = None) -> None: ...

        row_locks: bool
        _rl_escalated: bool
        _rl_key: tuple[object, ...] | None
        _rl_triggers: LockTriggers

        _rl_free: int

        def rl_write(self, kind: str, action: Callable[[], R], short: bool = True) -> R: ...
        def rl_lazy(self, run: Callable[[], R]) -> R: ...
        def escalate(self, kind: str) -> None: ...
        def rl_flush_others(self) -> None: ...
        def rl_finish(self, verb: str) -> None: ...
        def _rl_install(self) -> bool: ...
        def _latch(self, kind: str | None = None, deadline: float | None = None) -> None: ...
        def _lock_deadline(self) -> float | None: ...
        def _unlatch(self) -> None: ...
        def _sync(self, full: bool) -> None: ...
        def _after_commit(self) -> None: ...

    def _write_route(self, plan: Plan) -> tuple[bool, bool, bool]:
        route = plan.write_route
        if route is None:
            # what the plan alone decides, once per plan (three tests of its SQL text and
            # columns at every EXECUTE were ~2% of 8 writers' server time: issue 26)
            route = plan.write_route = (private_write(plan), _row_lockable(plan),
                                        short_dml(plan))
        return route

    def rl_checks_in_unit(self, plan: Plan) -> bool:
        """Whether an INSERT/UPDATE/DELETE's -710 check and privilege check may run inside its
        row-lock write unit (``rl_checked_dml``) rather than before it: the unit reads SQLite's
        schema version under the write lock anyway (``_rl_install``), while the check before
        it read the version again outside any transaction, a read transaction of its own (~10
        us, the costlier of the two reads, five times per transaction of 8 writers: issue
        26). Only for a plan of this database's tables that takes ``rl_write`` (which runs
        ``_rl_install`` before the statement in each of its branches), outside a READ ONLY
        transaction (whose -878 comes first)."""
        if (not self.row_locks or plan.other_tables or plan.other_databases
                or not plan.tables or self._txn_read_only or self.conn is None):
            return False
        route = self._write_route(plan)
        return route[1] and not route[0]

    def rl_checked_dml(self, stmt: Prepared, params: Sequence[object]) -> ExecResult:
        """The statement of ``rl_checks_in_unit``, in its write unit: -710 against the version
        the unit has just read (the lock triggers' key), the privileges, the parameters
        bound, then the DML, in the order ``EngineSession._execute`` takes them (an error
        of any takes the unit back as a failed statement's)."""
        es = cast("EngineSession", self)
        key = self._rl_key
        version = key[1] if key is not None and isinstance(key[1], int) else None
        version = es._check_current(stmt, version)
        es._check_privileges(stmt.plan, version=version)
        bound = es._bind(stmt.plan, params)
        # (an INSERT's too: the unit's version serves run_dml's trigger lookup; _dml drops it)
        es._unit_version = version
        return run_dml(es, stmt.plan, bound)

    def _write(self, plan: Plan, action: Callable[[], ExecResult]) -> ExecResult:
        """Run a writing statement under the write lock, committing it alone outside a
        transaction; in a READ ONLY transaction it is -878 (ids_sqs_1207)."""
        if self._txn_read_only:
            raise EngineError(sc.READ_ONLY_TRANSACTION)
        if plan.other_databases:
            cross_database.check_write(cast("EngineSession", self), plan)
        route = self._write_route(plan)
        if route[0]:
            if plan.kind == "select_into":
                assert plan.into_temp is not None
                return self.run_private(action, plan.into_temp.name, creates=True)
            assert plan.table is not None  # private_write: a temporary table
            return self.run_private(action, plan.table.name, dml=True)
        if route[1] and self.row_locks:
            return self.rl_write(plan.kind, action, route[2])
        return self.run_write(action, plan.kind)

    def run_private(self, action: Callable[[], R], target: str | None = None,
                    creates: bool = False, dml: bool = False) -> R:
        """A statement that writes only this session's temporary tables (SQLite's per-connection
        ``temp`` schema): a temp table is private to its session, so it must not wait for nor
        block other sessions (Informix: temporary tables are visible to their session only;
        issue 23, where IBM JDBC's metadata temp tables of two sessions met -242/-107).

        ``target`` is the temporary table the statement writes, ``creates`` says the statement
        makes it (CREATE TEMP TABLE, SELECT ... INTO TEMP), ``dml`` that it changes rows.
        Outside a transaction the statement runs in a deferred SQLite transaction, which never
        takes the database's write lock when only ``temp`` is written. Inside a row-lock
        transaction it does the same when a ROLLBACK can take it back without SQLite: the
        creation of a temporary table (the ROLLBACK drops it again: "like all DDL statements",
        its creation is logged, ids_sqs_0575), and DML on a table made in this transaction
        (dropped with it) or made WITH NO LOG (whose DML "is not included in the transaction log
        records", so a ROLLBACK keeps it, as on Informix). Anything else inside a transaction
        (DML on a logged temporary table made before it, dropping one, without row locks, or in
        a running statement) joins the session's transaction under the write lock as before: a
        deferred one could not be upgraded later for a write to a permanent table once another
        session had committed (docs/SERVER.md "Temporary tables")."""
        in_txn = self.in_transaction or self._ansi
        if in_txn:
            self.temp_snapshot()
        if self.lo.sql_depth or self._sql_txn:
            return self.run_write(action)
        if in_txn and not (self.row_locks and (creates or self._made_in_txn(target) or (
                dml and target in self._temp_no_log))):
            return self.run_write(action)
        conn = self._connection()
        if self.row_locks:
            self.rl_flush_others()  # a routine the statement calls may write a table
        if conn.in_transaction:
            # this session's own SQLite transaction held between its statements (row locks):
            # the temp write joins it; its ROLLBACK takes back a creation too
            result = action()
        else:
            conn.execute("BEGIN DEFERRED")
            self._sql_txn = True
            committed = False
            try:
                result = action()
                conn.execute("COMMIT")
                committed = True
            finally:
                # Not _end_sql_txn: its smart-LOB housekeeping writes the database's own
                # tables.
                self._sql_txn = False
                self._savepoints.clear()
                if not committed:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
        if in_txn and self._ansi:
            self.in_transaction = True  # ANSI: any work opens the implicit transaction
        return result

    def temp_snapshot(self) -> None:
        """Remember the temporary tables as they stand, before this transaction's first
        change to them: its ROLLBACK makes them so again (_end_temp_txn)."""
        if self._temp_before is None and (self.in_transaction or self._ansi):
            self._temp_before = dict(self.temp_tables)

    def _made_in_txn(self, name: str | None) -> bool:
        """A temporary table this transaction made: its ROLLBACK drops it whatever its rows."""
        before = self._temp_before
        return before is not None and name in self.temp_tables and name not in before

    def _end_temp_txn(self, rolled_back: bool) -> None:
        """The end of a transaction that changed temporary tables. Its ROLLBACK makes them as
        they were before it, as Informix takes back their logged DDL (ids_sqs_0575): a table
        it made is dropped (one made outside the write lock by run_private is still in SQLite;
        one made escalated, SQLite's rollback took already), one it dropped escalated is known
        again (SQLite's rollback brought it back). COMMIT keeps what stands."""
        before, self._temp_before = self._temp_before, None
        conn = self.conn
        if not rolled_back or before is None or conn is None:
            return
        live = {str(n) for (n,) in conn.execute(
            "SELECT name FROM temp.sqlite_master WHERE type = 'table'")}
        for name in [n for n in self.temp_tables if n not in before]:
            info = self.temp_tables.pop(name)
            self._temp_no_log.discard(name)
            self._temp_serials = {k: v for k, v in self._temp_serials.items() if k[0] != name}
            if name in live:
                self._drop_temp(conn, info)
        for name, info in before.items():
            if name not in self.temp_tables and name in live:
                self.temp_tables[name] = info
        self._local_plans.clear()

    @staticmethod
    def _drop_temp(conn: sqlite3.Connection, info: TableInfo) -> None:
        """Drop a temporary table in a SQLite transaction of its own (or the one open)."""
        own = not conn.in_transaction
        if own:
            conn.execute("BEGIN DEFERRED")
        try:
            lobstore.table_dropping(conn, info)
            conn.execute(f"DROP TABLE IF EXISTS temp.{cat.quote(info.name)}")
        except sqlite3.Error:
            if own:
                conn.execute("ROLLBACK")
            raise
        if own:
            conn.execute("COMMIT")

    def run_write(self, action: Callable[[], R], kind: str = "insert") -> R:
        """Run ``action`` under the database write lock; outside a transaction it commits (or
        on an error rolls back) by itself. Inside a running statement (a smart-LOB function
        called from SQL) it joins that statement."""
        if kind == "ddl":
            self._txn_ddl = True  # (_deferred_violation)
        if self.lo.sql_depth:
            if self.in_transaction and not self._sql_txn:
                self._begin_write(kind)  # a SELECT calling a writing routine, in a transaction
            return action()
        if self._ansi:
            self.in_transaction = True  # ANSI: any work opens the implicit transaction
        own = not self._sql_txn
        self._begin_write(kind)
        # Inside a transaction whose SQLite transaction may hold earlier work (joined, or
        # escalated from the held one with row locks), a failing statement undoes itself only,
        # as on Informix (docs/SERVER.md, "A failing statement in a transaction"); without row
        # locks the write that opened it has nothing earlier to keep.
        conn = self.conn if self.in_transaction and (self.row_locks or not own) else None
        if conn is not None:
            conn.execute("SAVEPOINT _ifx_stmt")
        # a unit committed here: whether it changed only its statement's own rows
        # (own_rows_only: the smart-LOB check before its COMMIT may be skipped)
        changes = self._connection().total_changes if own and not self.in_transaction else -1
        try:
            if not self.row_locks:
                result = action()
            elif kind == "ddl":
                # DDL's own row writes (ALTER's copy of a table) need no lock triggers: the
                # authorizer lets them through (features/locks/triggers.py)
                self._rl_free += 1
                try:
                    result = action()
                finally:
                    self._rl_free -= 1
            else:  # a write refused for a table without lock triggers: made, run again
                result = self.rl_lazy(action)
        except BaseException:
            if conn is not None and conn.in_transaction:
                self._undo_statement(conn, kind)
            elif own:
                self._end_sql_txn("ROLLBACK")
            raise
        if conn is not None and conn.in_transaction:
            # (gone only if the statement ended the SQLite transaction itself: nothing to end)
            with contextlib.suppress(sqlite3.OperationalError):
                conn.execute("RELEASE _ifx_stmt")
        if own and not self.in_transaction:
            self._end_sql_txn("COMMIT", changes >= 0 and own_rows_only(
                kind, self._connection().total_changes - changes, result))
        return result

    def _undo_statement(self, conn: sqlite3.Connection, kind: str) -> None:
        """Take back a failed statement of run_write to its savepoint: the SQLite transaction
        and the Informix transaction's earlier work in it stay (an interrupt that ended the
        SQLite transaction is not met here: ``conn.in_transaction`` is false then)."""
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK TO _ifx_stmt")
            conn.execute("RELEASE _ifx_stmt")
        if kind == "ddl":  # what it changed of the schema before it failed is gone again
            self._schema = None
            self._local_plans.clear()
        if self.row_locks:  # lock triggers it made (rl_lazy) went with it
            self._rl_key = self._rl_triggers.key = None

    def run_write_alone(self, action: Callable[[], R]) -> R:
        """Housekeeping that commits by itself (the smart-LO store's first sweep): under the
        write lock and committed at once, even inside the client's transaction, unless a
        SQLite transaction is already open, which it then joins. Not run_write: called while
        a transaction ends, that would open a new one and keep the lock after COMMIT."""
        if self._sql_txn or self.lo.sql_depth:
            return self.run_write(action)
        self._begin_write("insert", bounded=False)
        try:
            result = action()
        except BaseException:
            self._end_sql_txn("ROLLBACK")
            raise
        self._end_sql_txn("COMMIT")
        return result

    def _begin_write(self, kind: str, bounded: bool = True) -> None:
        if self._sql_txn:
            return
        if self.row_locks:
            if self.in_transaction:
                self.escalate(kind)  # held to the transaction's end (session_locks.py)
                return
            self._rl_install()
            self._sync(True)
            # released by _end_sql_txn; bounded per SET LOCK MODE unless housekeeping
            self._latch(kind if bounded else None, self._lock_deadline())
        try:
            self._begin_immediate(kind)
        except BaseException:
            self._unlatch()
            raise

    def _begin_immediate(self, kind: str) -> None:
        conn = self._connection()
        self._sqlite_begin(conn, kind, time.monotonic())
        self._sql_txn = True

    def _end_sql_txn(self, verb: str, own_rows: bool = False) -> None:
        """End the SQLite transaction; ``own_rows``: a unit that changed only its
        statement's own rows is committed (``own_rows_only``, for the smart-LOB check)."""
        self._savepoints.clear()
        if not self._sql_txn:
            return
        self._sql_txn = False
        try:
            self._end_sql_txn_locked(verb, own_rows)
        finally:
            self._unlatch()

    def _end_sql_txn_locked(self, verb: str, own_rows: bool = False) -> None:
        committed = False
        try:
            if verb == "COMMIT":
                self.lo.before_commit(own_rows)  # the sbspace file first (sbspace.py)
            else:
                CAPTURE.before_rollback(self)  # CDC: a chunked transaction's rows, logged
            self._connection().execute(verb)
            committed = verb == "COMMIT"
            if committed:
                self._after_commit()  # parked reads of others (session_park.py)
        except sqlite3.Error as e:
            if verb == "COMMIT":
                with contextlib.suppress(sqlite3.Error):
                    self._connection().execute("ROLLBACK")
                raise EngineError(sc.NOT_IMPLEMENTED, message=f"commit failed: {e}") from None
        finally:
            self.lo.after_end(committed)
        if self._ddl_dirty:
            self._ddl_dirty = False
            self._local_plans.clear()
            self._schema = None

    # ---- savepoints -------------------------------------------------------------------------
    def _savepoint(self, kind: str, spec: SavepointSpec) -> None:
        """SAVEPOINT / RELEASE SAVEPOINT / ROLLBACK TO SAVEPOINT on SQLite's own savepoints.

        Informix allows them only inside a transaction (HCL SQL syntax guide, RELEASE
        SAVEPOINT). Setting one takes the database write lock at once, because a SQLite
        savepoint needs the SQLite transaction that our sessions otherwise start lazily at
        their first write.
        """
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        if not self._logged:
            raise EngineError(sc.NO_TRANSACTIONS)
        if not self.in_transaction and not self._ansi:
            raise EngineError(sc.NOT_IN_TRANSACTION)
        name = spec.name.lower()
        quoted = '"' + name.replace('"', '""') + '"'
        conn = self._connection()
        if kind == "savepoint":
            if spec.unique and name in self._savepoints:
                raise EngineError(sc.NOT_IMPLEMENTED, near=name,
                                  message=f"UNIQUE savepoint {name} already exists")
            self._begin_write("savepoint")
            # CDC, before SQLite's savepoint: the captured rows so far, spilled (cdc/routines.py)
            CAPTURE.savepoint(self, kind, name)
            conn.execute(f"SAVEPOINT {quoted}")
            self._savepoints.append(name)
            return
        if name not in self._savepoints:
            # No Informix sqlcode for this case is known to us, so we refuse with -999 and say
            # what is wrong rather than guess a number (sqlcodes.py).
            raise EngineError(sc.NOT_IMPLEMENTED, near=name,
                              message=f"savepoint {name} does not exist")
        at = len(self._savepoints) - 1 - self._savepoints[::-1].index(name)
        if kind == "release_savepoint":
            conn.execute(f"RELEASE {quoted}")
            del self._savepoints[at:]
        else:
            conn.execute(f"ROLLBACK TO {quoted}")
            del self._savepoints[at + 1 :]
            self._schema = None  # the schema version may come back with other contents
            CAPTURE.savepoint(self, kind, name)  # CDC: rows captured since it are dropped

    # ---- transactions ----------------------------------------------------------------------
    def begin(self) -> None:
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        if not self._logged:
            raise EngineError(sc.NO_TRANSACTIONS)
        if self.in_transaction:
            raise EngineError(sc.ALREADY_IN_TRANSACTION)
        self.in_transaction = True

    def commit(self) -> None:
        self._finish("COMMIT")

    def _deferred_violation(self) -> str | None:
        """A foreign key kept by triggers (features/inherit.py: typed tables) that rows of
        this transaction break while SET CONSTRAINTS … DEFERRED held its checks back."""
        conn = self.conn
        if conn is None or not conn.in_transaction:
            return None
        if self.row_locks and not self._txn_ddl:
            # Row locks: the SQLite transaction open now (held or escalated) began in this
            # Informix transaction, and only SET CONSTRAINTS … DEFERRED leaves
            # defer_foreign_keys on (ALTER's copy puts it back; the undo's apply is a
            # transaction of its own), a DDL statement that runs through run_write (it
            # escalates; a routine inside DML may not run it, -675): none ran, so the
            # PRAGMA, a statement of every transaction written alone, is not read.
            return None
        if not conn.execute("PRAGMA defer_foreign_keys").fetchone()[0]:
            return None
        return deferred_violation(conn)

    def txn_level_ends(self) -> None:
        """The transaction ended: the level a SET TRANSACTION set for it gives way to the
        session's own, SET ISOLATION's or the database's default. IBM: "After a COMMIT WORK
        statement completes the transaction or a ROLLBACK WORK statement cancels the entire
        transaction, the isolation level is reset to the default" (SQL Syntax, SET
        TRANSACTION, "Default Isolation Levels", ids_sqs_1206), and SET ISOLATION is what
        "can change the enduring isolation level for the session" (Performance Guide,
        "Isolation level", ids_prf_424): a SET TRANSACTION does not."""
        done, self._txn_set = self._txn_set, None
        self._txn_read_only = False  # (an access mode is the transaction's too)
        if done is not None and done[0]:
            self.isolation = done[1]

    def rollback(self) -> None:
        self._finish("ROLLBACK")

    def _finish(self, verb: str) -> None:
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        if not self.in_transaction and not self._ansi:
            raise EngineError(sc.NOT_IN_TRANSACTION)
        lost, self._txn_lost = self._txn_lost, False
        broken = None if lost or verb != "COMMIT" else self._deferred_violation()
        if broken is not None:
            # "If a constraint violation occurs while the transaction is being committed, the
            # transaction is rolled back" (Syntax, "Transaction-Level Checking", ids_sqs_0033);
            # -999 as for the foreign keys SQLite defers itself (_end_sql_txn_locked)
            self._finish("ROLLBACK")
            raise EngineError(sc.NOT_IMPLEMENTED, near=broken, message=(
                f"commit failed: deferred foreign key {broken} is broken; rolled back"))
        try:
            if self.row_locks:
                self.rl_finish("ROLLBACK" if lost else verb)
            else:
                self._end_sql_txn("ROLLBACK" if lost else verb)
        finally:
            self._end_temp_txn(lost or verb != "COMMIT")
        self.in_transaction = False
        self._txn_ddl = False  # (its SQLite transaction ended in rl_finish/_end_sql_txn)
        self.transactions_ended += 1
        self.txn_level_ends()
        if lost and verb == "COMMIT":
            raise EngineError(sc.INTERRUPTED, near=TRANSACTION_LOST,
                              message="COMMIT WORK of a transaction an interrupt rolled back")



def _row_lockable(plan: Plan) -> bool:
    """DML whose every change the row-lock undo log can take back (session_locks.py): not a
    table with smart large objects (their data lives in the sbspace file), not another
    database's table."""
    if plan.kind not in ("insert", "update", "delete", "merge", "instead"):
        return False
    if plan.other_databases:
        return False
    info = plan.table
    return info is None or not any(c.type.is_smart_lob for c in info.columns)
