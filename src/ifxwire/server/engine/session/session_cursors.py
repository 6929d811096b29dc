"""EngineSession's query rows: what an OPEN returns, read from its SQLite cursor.

``_rows`` runs a query (under row locks with ``rl_check_read``'s filter, a CURSOR STABILITY
or FOR UPDATE cursor's locks, a parked read's snapshot: session_lock_reads.py,
session_park.py); ``_first_batch`` reads a short result at once and closes its cursor;
``_stream`` yields a long one batch by batch, each fetch with its time budget; the plan's
loaders turn SQLite's values into the engine's (``_loaders``, ``_load_each``).
``_late_check`` says when an OPEN may check for -710 after its query.

A mixin of EngineSession (session.py keeps ``open_cursor``, which calls these). Moved out of
session.py unchanged (issue 26 §1: a file of one job).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from .... import _accel
from ..core.convert import batch_loader
from ..core.errors import EngineError
from ..core.errors import internal as _internal
from ..features.spl.calls import fill_table_functions
from ..sql.functions import VOLATILE
from .session_lock_reads import CURSOR
from .session_park import plan_parks

if TYPE_CHECKING:
    import weakref

    from ..features.lobs.lo_session import LoSession
    from ..sql.functions import FunctionState
    from ..sql.prepared import Prepared
    from ..sql.translate import Plan
    from .engine import Engine


class CursorRows:
    """The rows of a query (a base of EngineSession, which sets the state named here)."""

    if TYPE_CHECKING:
        engine: Engine
        database: str | None
        conn: sqlite3.Connection | None
        in_transaction: bool
        state: FunctionState
        lo: LoSession
        isolation: str | None
        _cursors: weakref.WeakSet[sqlite3.Cursor]
        _db_level: str
        _logged: bool
        _sql_txn: bool
        _parked: bool
        _rl_conflict: int | None
        _rl_read_mark: int

        @property
        def row_locks(self) -> bool: ...
        def arm(self) -> None: ...
        def _connection(self) -> sqlite3.Connection: ...
        def _check_current(self, stmt: Prepared, version: int | None = None) -> int | None: ...
        def _map_error(self, e: sqlite3.Error, plan: Plan) -> EngineError: ...
        def _park(self, conn: sqlite3.Connection) -> None: ...
        def park_fresh(self) -> bool: ...
        def unpark(self) -> None: ...
        def rl_check_read(self, plan: Plan, version: int | None = None) -> str: ...
        def rl_late_ok(self, plan: Plan) -> bool: ...
        def rl_wait_read(self) -> bool: ...
        def rl_stability_plan(self, plan: Plan) -> Plan | None: ...
        def rl_stability(self, table: str, rows: Iterator[tuple[object, ...]]
                         ) -> Iterator[tuple[object, ...]]: ...
        def rl_for_update(self, plan: Plan, rows: Iterator[tuple[object, ...]]
                          ) -> Iterator[tuple[object, ...]]: ...

    def _late_check(self, stmt: Prepared) -> bool:
        """Whether this OPEN may run its query first and check for -710 after it.

        Why (issue 26, select_one_row): the check reads ``PRAGMA schema_version``; on its
        own that read is a SQLite read transaction (a lock, an unlock and a stat, 4.7 µs),
        read right after the query's ``execute`` it shares the query's transaction (1.2 µs)
        and sees the very snapshot the query read. Allowed only where running the query
        before the check changes nothing the client can see: a plain query of this
        database's tables (no other database, no stored routine, no function SQLite is
        told is not deterministic such as NEXTVAL or the large-object ones: they may
        write), a DBA session (no privilege check that would have to follow the version).
        Under row locks only while no other session holds rows of its tables and no
        REPEATABLE READ share lock is to be taken (``rl_late_ok``): the lock check then
        has nothing to do before the query, which reads the plain SQL (issue 26, sixth
        round). Its rows are dropped when the check then fails."""
        plan = stmt.plan
        if (self._db_level != "D" or self.conn is None or not plan.tables
                or stmt.schema_version < 0):
            return False
        reads = plan.reads_only
        if reads is None:
            sql = plan.sql.lower()
            reads = plan.reads_only = (
                plan.kind == "query" and not plan.other_tables and not plan.routines
                and plan.routine is None and not plan.select_triggers and not plan.for_update
                and not plan.current_rowid and bool(VOLATILE)
                and not any(f"{name}(" in sql for name in VOLATILE))
        return reads and (not self.row_locks or self.rl_late_ok(plan))

    def _rows(self, plan: Plan, bound: dict[str, object], late: Prepared | None = None,
              version: int | None = None, park: bool = False,
              filled: bool = False) -> Iterator[tuple[object, ...]]:
        """The rows of a query; ``late``: its statement, checked for -710 (_check_current)
        right after the query started, inside its read transaction (_late_check);
        ``version``: the schema version that check read before (for the row-lock check);
        ``park``: a cached query group's OPEN, whose read transaction may stay open
        (session_park.py)."""
        conn = self.conn
        if conn is None:
            conn = self._connection()
        if plan.prelude and not filled:  # TABLE(FUNCTION …) sources (spl/calls.py)
            fill_table_functions(self, plan, bound)  # type: ignore[arg-type]
            # read whole at once: the next execution of the statement empties and refills
            # the same TEMP table, under a cursor still reading it (review of 6832185a)
            return (row for row in list(self._rows(plan, bound, late, version, park, True)))
        # self.row_locks (session_locks.py), inlined (issue 26)
        row_locks = self.engine.row_locks and self.database is not None and self._logged
        # (a late check under row locks has found nothing for rl_check_read to do, nor has
        # it where the query reads no table of this database)
        # CURSOR STABILITY: the query with its table's hidden rowid, for the lock on the
        # row the cursor is on (rl_stability; rl_late_ok keeps such a query off the late
        # path). Looked at only under row locks: nothing is added to the path without them.
        variant = None
        if row_locks and late is None and plan.tables:
            if self.isolation == CURSOR and not plan.current_rowid:
                variant = self.rl_stability_plan(plan)
            # before the read's snapshot can begin: rows rolled back after this still count
            # as locked for it (_ifx_rd, manager.undone_since)
            self._rl_read_mark = self.engine.locks.read_mark()
            sql = self.rl_check_read(variant or plan, version)
            # (it may have committed another session's parked write: a parked read must
            # then be fresh still, and only the plain SQL reads in one)
            if self._parked and (sql is not plan.sql or not self.park_fresh()):
                self.unpark()
        else:
            sql = plan.sql
        if park and not self._parked and conn is self.conn and sql is plan.sql and (
                not self.in_transaction and not self._sql_txn and not conn.in_transaction
                and not self.lo.sql_depth and (
                    plan.parks if plan.parks is not None else plan_parks(plan))):
            self._park(conn)  # this query's read transaction stays open (session_park.py)
        while True:
            cur = conn.cursor()
            self._rl_conflict = None
            try:
                cur.execute(sql, bound)
                break
            except sqlite3.Error as e:
                cur.close()
                if row_locks and self.rl_wait_read():
                    continue  # the holder let go: read again
                if late is not None:
                    self._check_current(late)  # a changed table is -710, as before
                raise self._map_error(e, plan) from None
        if late is not None:
            try:
                # _check_current(late)'s first test, inlined (issue 26, twelfth round: three
                # Python calls per OPEN). A late check's statement has tables of this
                # database only and conn is self.conn (_late_check), so an unchanged schema
                # version is _check_current's whole answer; any other goes through it.
                if conn.execute("PRAGMA schema_version").fetchone()[0] != late.schema_version:
                    self._check_current(late)
            except BaseException:
                cur.close()
                raise
        if row_locks and (sql is not plan.sql or plan.current_rowid):
            # Row locks are checked as rows are read (session_lock_reads.py: the _ifx_rd
            # filter rl_check_read put in, FOR UPDATE's locks): the rows stay behind the
            # first fetch, as before. Where no filter was needed (nobody else held rows of
            # the tables at this OPEN) the query meets no lock while it reads, and its
            # first batch is read at once as without row locks (issue 26, select_one_row).
            self._cursors.add(cur)
            if plan.current_rowid:
                return self.rl_for_update(plan, self._stream(cur, plan))
            if variant is not None and plan.stability is not None:
                return self.rl_stability(plan.stability[1], self._stream(cur, variant))
            return self._stream(cur, plan)
        return self._first_batch(cur, plan)

    def _first_batch(self, cur: sqlite3.Cursor, plan: Plan) -> Iterator[tuple[object, ...]]:
        """The rows of a cursor just opened, its first ``fetchmany`` read at once.

        Why (issue 26, select_one_row): a result shorter than one batch, nearly every
        statement of an application, then needs no generator, no entry in the open-cursor
        set and no later step: the cursor is closed here and a list iterator (which the
        compiled tuple writer reads without calling Python) is returned. What the client
        sees is unchanged: an error of that first batch (a value SQLite or a function
        refuses, an interrupt, statement_timeout) is kept and raised at the first row asked
        for, where the lazy stream raised it, and the batch has its own time budget, as
        each fetch has. The read snapshot ends no later than before (the lazy stream closed
        such a cursor in its first fetch, within the same request group for a driver that
        sends OPEN and NFETCH together)."""
        state = self.state
        try:
            try:
                timeout = self.engine.statement_timeout
                if state.cancelled:
                    self.arm()  # raises -213
                if timeout is not None:  # arm(), inlined (else the deadline stays None)
                    state.deadline = time.monotonic() + timeout
                batch = cur.fetchmany(256)
            except sqlite3.Error as e:
                return _raising(self._map_error(e, plan))
            except EngineError as e:
                return _raising(e)
        except BaseException:
            cur.close()
            raise
        if len(batch) == 256:  # maybe more: the stream goes on from this batch
            self._cursors.add(cur)
            return self._stream(cur, plan, batch)
        cur.close()
        # _loaders(plan), inlined where the plan has them already (issue 26)
        active = plan.active_loaders
        cached = plan.fast_loader
        if active is None or (active and (cached is None or cached[0] != _accel.accelerated)):
            active, fast = _loaders(plan)
        elif cached is not None and active:
            fast = cached[1]
        else:
            fast = None  # (no loaders)
        if not active:
            return iter(batch)
        if fast is not None:
            loaded = fast(batch)
            if loaded is not None:
                return iter(loaded)
        return _load_each(batch, active)  # a loader may raise: at that row, as before

    def _stream(self, cur: sqlite3.Cursor, plan: Plan,
                first: list[tuple[object, ...]] | None = None) -> Iterator[tuple[object, ...]]:
        """The rows of ``cur`` batch by batch (``first``: the batch _first_batch read), the
        statement's time budget armed again before each fetch; the cursor is closed at the
        end, or when the stream is dropped."""
        active, fast = _loaders(plan)
        try:
            while True:
                if first is not None:
                    batch, first = first, None
                else:
                    self.arm()
                    try:
                        batch = cur.fetchmany(256)
                    except sqlite3.Error as e:
                        raise self._map_error(e, plan) from None
                if not batch:
                    return
                # fetchmany returns fewer rows than asked only at the result's end: stop
                # without another fetchmany (a one-row query's cursor ends in one step).
                last = len(batch) < 256
                if not active:
                    yield from batch
                    if last:
                        return
                    continue
                if fast is not None:
                    loaded = fast(batch)
                    if loaded is not None:  # None: a loader raised; the loop below raises
                        yield from loaded
                        if last:
                            return
                        continue
                yield from _load_each(batch, active)
        finally:
            cur.close()


def _raising(error: EngineError) -> Iterator[tuple[object, ...]]:
    """A stream whose first step raises ``error`` (a fetch's error, kept for the fetch)."""
    raise error
    yield ()  # makes this a generator: nothing runs before the first step


def _loaders(plan: Plan) -> tuple[
        list[tuple[int, Callable[[object], object]]],
        Callable[[list[tuple[object, ...]]], list[tuple[object, ...]] | None] | None]:
    """The plan's (column, loader) pairs and its compiled batch loader, built once per plan
    (and again when the accelerator is switched): every OPEN of a cached query, the short
    first batch and the long stream alike, would otherwise build them again."""
    active = plan.active_loaders
    if active is None:
        active = plan.active_loaders = [
            (i, f) for i, f in enumerate(plan.loaders) if f is not None]
    if not active:
        return active, None
    accelerated = _accel.accelerated
    cached = plan.fast_loader
    if cached is not None and cached[0] == accelerated:
        return active, cached[1]
    fast = batch_loader(plan.loaders)
    plan.fast_loader = (accelerated, fast)
    return active, fast


def _load_each(batch: list[tuple[object, ...]], active: list[tuple[int, Callable[[object], object]]]
               ) -> Iterator[tuple[object, ...]]:
    """The rows of ``batch`` with the ``active`` (column, loader) pairs applied, one row at a
    time, so a value a loader refuses fails at its own row."""
    for row in batch:
        out = list(row)
        try:
            for i, f in active:
                v = out[i]
                if v is not None:
                    out[i] = f(v)
        except EngineError:
            raise
        except Exception as e:  # a corrupt value, not a crash
            raise _internal(e) from None
        yield tuple(out)
