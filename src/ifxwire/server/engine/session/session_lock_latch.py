"""The latch and the end of a row-lock transaction: a base of session_locks.RowLocks.

* the database's latch (features/locks/latch.py): one SQLite writer at a time, without
  SQLite's busy sleeps; a session that writes inside a transaction parks it with its SQLite
  transaction held open (``_rl_unlatch``), and whoever needs it next commits that transaction
  (``_rl_flush_hold``); ``rl_enter``/``rl_leave`` say when the server handles the session;
* the SQLite unit's durability: ``_sync`` (synchronous FULL or NORMAL) and ``_flush_wal``
  (the Informix COMMIT's fsync, outside the latch: group commit);
* COMMIT and ROLLBACK (``rl_finish``): delete the undo entries, or apply them, and release
  the session's locks.

Moved out of session_locks.py unchanged (issue 26 §1: a file of one job; the statements'
write path stays there).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from typing import TYPE_CHECKING

from ..core.hooks import CAPTURE
from ..features.locks import undo

if TYPE_CHECKING:
    import threading

    from ..core.errors import EngineError
    from ..features.lobs.lo_session import LoSession
    from ..features.locks.latch import Latch
    from ..features.locks.triggers import LockTriggers
    from ..schema import catalog as cat
    from ..sql.translate import Plan
    from .engine import Engine


class RowLockLatch:
    """The latch, the held SQLite transaction and the transaction's end (a base of
    session_locks.RowLocks, whose ``_rl_init`` sets the state named here)."""

    if TYPE_CHECKING:
        engine: Engine
        session_id: int
        database: str | None
        conn: sqlite3.Connection | None
        in_transaction: bool
        lock_wait: int | None
        lo: LoSession
        _logged: bool
        _sql_txn: bool
        _txn_lost: bool
        _ddl_dirty: bool
        _local_plans: dict[tuple[object, ...], Plan]
        _schema: cat.Schema | None
        _parked: bool
        _park_stale: bool
        _rl_undo: list[undo.Entry]
        _rl_hold: bool
        _rl_flushed: int
        _rl_stored: int
        _rl_owner: str
        _rl_in: bool
        _rl_use: threading.Lock
        _rl_sync: str
        _rl_escalated: bool
        _rl_wal: tuple[str | None, str]
        _rl_replaying: bool
        _rl_ddl_done: bool
        _rl_triggers: LockTriggers
        _rl_lost: bool
        _rl_key: tuple[object, ...] | None
        _rl_cursors: int
        _rl_latches: list[Latch]

        def _lock_error(self, kind: str, waited: bool) -> EngineError: ...
        def _end_sql_txn(self, verb: str) -> None: ...
        def _after_commit(self) -> None: ...
        def park_stale(self) -> None: ...
        def rl_ddl_discard(self) -> None: ...
        def _rl_store_held(self, conn: sqlite3.Connection) -> None: ...

    # ---- the latch: one SQLite writer at a time, without SQLite's busy sleeps --------------
    def _latch(self, kind: str | None = None, deadline: float | None = None) -> None:
        """Take the database's latch (reentrant: the end of a transaction may store smart
        large objects in a transaction of its own, lo_session.py).

        With ``kind`` (a statement that may meet a lock) the wait is bounded as SET LOCK MODE
        bounds a lock wait, since a long write holds the latch for its whole run (SQLite has
        one writer per file; docs/SERVER.md "Locks and isolation", "The latch"): NOT WAIT
        waits at most the Engine's ``latch_grace`` (the time a short statement holds it, which
        Informix's own latches would never report), WAIT n until ``deadline`` (at least the
        grace), WAIT without limit; past it the statement fails with its own lock error and
        ISAM -107 (NOT WAIT) or -154. Without ``kind`` (COMMIT, ROLLBACK, housekeeping) it
        waits without limit: Informix never fails those on a lock."""
        assert self.database is not None
        latch = self.engine.write_latch(self.database)
        if kind is None or (self.lock_wait is not None and self.lock_wait < 0):
            latch.acquire(self)
        else:
            grace = self.engine.latch_grace
            timeout = grace if deadline is None else max(deadline - time.monotonic(), grace)
            if not latch.acquire(self, timeout):
                raise self._lock_error(kind, self.lock_wait is not None)
        self._rl_latches.append(latch)

    def _unlatch(self) -> None:
        if self._rl_latches:
            self._rl_latches.pop().release(self)

    @property
    def _durable(self) -> bool:
        return self._logged and not getattr(self, "_buffered", False)

    def _rl_abandon_unit(self, conn: sqlite3.Connection, held: bool) -> bool:
        """Take back a failed statement's SQLite unit: to the held transaction's savepoint
        while that transaction is still open, else the whole SQLite transaction, which loses
        a held one. Returns whether a held transaction was lost (a statement and row-lock DDL
        both end this way)."""
        if held and conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK TO _ifx_rl")
                conn.execute("RELEASE _ifx_rl")
            return False
        with contextlib.suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        if held:
            self._rl_lost_hold()
        return held

    def _sync(self, full: bool) -> None:
        """SQLite's synchronous for the next commit: FULL for one that ends an Informix
        transaction in an unbuffered-log database (a statement outside BEGIN WORK, or an
        escalated transaction), NORMAL for a statement inside one (WAL writes survive kill
        -9; the Informix COMMIT syncs them, ``_flush_wal``)."""
        assert self.conn is not None
        mode = "FULL" if full and self._durable else "NORMAL"
        if mode != self._rl_sync:
            self.conn.execute(f"PRAGMA synchronous = {mode}")
            self._rl_sync = mode

    def _flush_wal(self) -> None:
        """Make a committed Informix transaction durable: fsync the WAL file its SQLite
        commits went to, outside the latch, so that the COMMITs of several sessions sync
        together (group commit) instead of one after the other under SQLite's write lock.
        If a checkpoint moved the frames into the database file meanwhile, SQLite synced
        that file when the checkpoint completed (synchronous=NORMAL in WAL mode)."""
        database = self.database
        if not self._durable or database is None:
            return
        wal = self._rl_wal
        if wal[0] != database:
            # (os.path.join at every COMMIT was ~2% of 8 writers' server time: issue 26)
            wal = self._rl_wal = (database, self.engine.path(database) + "-wal")
        path = wal[1]
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def rl_enter(self) -> None:
        """The server starts handling a request of this session (features/locks/latch.py:
        no other session commits its parked transaction meanwhile). Inlined, with rl_leave,
        in server/wireio.py WireIO._await_request: keep them in step."""
        if not self._rl_in:
            self._rl_use.acquire()
            self._rl_in = True

    def rl_leave(self) -> None:
        """The session waits (for its client, or for a lock)."""
        if self._rl_in:
            self._rl_in = False
            self._rl_use.release()
            if self._park_stale and self._parked:
                self.park_stale()  # (session_park.py)

    def rl_flush_own(self) -> None:
        """Commit this session's held SQLite transaction (before an ATTACH, which SQLite
        refuses inside a transaction)."""
        if not self._rl_hold:
            return
        self._latch()
        try:
            if self._rl_hold:
                self._rl_flush_hold()
        finally:
            self._unlatch()

    def rl_flush_others(self) -> None:
        """Commit another session's parked transaction (before a write that does not take
        the latch: a temporary table's, which a routine it calls may widen)."""
        if self.database is not None:
            self.engine.write_latch(self.database).flush_parked(self)

    def _rl_unlatch(self) -> None:
        """After a statement: park the latch with the SQLite transaction held open when
        nobody waits for it, else commit that transaction and release the latch."""
        if self._rl_hold and self._rl_latches:
            latch = self._rl_latches[-1]
            if latch.park(self, self._rl_flush_hold, self._rl_use):
                self._rl_latches.pop()
                return
            self._rl_flush_hold()
        self._unlatch()

    def _rl_flush_hold(self) -> None:
        """Commit the held SQLite transaction (its statements and their undo entries) so
        another session can write: from this session's thread, or from the other session's
        (features/locks/latch.py says why that is safe). A commit that fails leaves the
        Informix transaction lost, as an interrupt does."""
        conn = self.conn
        if not self._rl_hold or conn is None:
            self._rl_hold = False
            return
        try:
            # the before-images of its statements go into it first (rl_write kept them in
            # memory while the transaction was held)
            self._rl_store_held(conn)
            # (synchronous is NORMAL since the transaction began: a statement in a
            # transaction; it cannot be changed inside one)
            conn.execute("COMMIT")
            self._rl_flushed = len(self._rl_undo)
            self._rl_hold = False
            self._after_commit()
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            self._rl_lost_hold()

    def _rl_lost_hold(self) -> None:
        """SQLite rolled the held transaction back by itself (an interrupt: sqlite3_interrupt
        takes back the whole transaction of an interrupted write): its statements, their undo
        entries with them, are gone, so the Informix transaction is lost. COMMIT WORK then
        refuses it (-213), as in the mode without row locks (docs/SERVER.md, "Cancel")."""
        self._rl_hold = False
        self._rl_stored = min(self._rl_stored, self._rl_flushed)
        if len(self._rl_undo) > self._rl_flushed:
            del self._rl_undo[self._rl_flushed:]
            if self.in_transaction:
                self._txn_lost = True
                self._rl_lost = True

    # ---- transaction end -----------------------------------------------------------------------
    def rl_finish(self, verb: str) -> None:
        """COMMIT or ROLLBACK of a row-lock transaction; the locks go in any case."""
        conn = self.conn
        try:
            if conn is None:
                return
            if self._rl_escalated or self._sql_txn:
                if verb == "COMMIT" and self._rl_undo:
                    self.rl_ddl_discard()
                    conn.execute(f"DELETE FROM {undo.UNDO_TABLE} WHERE owner = ?",
                                 (self._rl_owner,))
                self._end_sql_txn(verb)
                self._rl_escalated = False
                if verb == "COMMIT":
                    self._rl_undo = []
                    if self._rl_sync != "FULL":  # escalated from a held transaction
                        self._flush_wal()
                else:  # SQLite's rollback took back what was not yet committed to the file
                    del self._rl_undo[self._rl_flushed:]
                    self._rl_stored = min(self._rl_stored, self._rl_flushed)
            if not self._rl_undo and not self._rl_hold:
                return
            self._latch()  # takes back a parked transaction, or waits for its flush
            try:
                if self._rl_hold:
                    self._rl_finish_hold(verb)
                if self._rl_undo:
                    self._rl_finish_flushed(verb)
            finally:
                self._unlatch()
            self._rl_undo = []
            if verb == "COMMIT":
                self._flush_wal()
        finally:
            if self._rl_hold and conn is not None:  # an error above: nothing is kept
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                self._rl_hold = False
            self._rl_escalated = False
            self._rl_owner = ""
            self._rl_flushed = 0
            self._rl_stored = 0
            # CDC: a transaction not ended above (lost with its held statements, nothing
            # left to undo) is logged as rolled back, never carried into the next one
            CAPTURE.txn_end(self, False)
            if self._rl_ddl_done:  # the schema this transaction's DDL saw is not reused
                self._rl_ddl_done = False
                self._rl_key = self._rl_triggers.key = None
                self._ddl_dirty = False
                self._local_plans.clear()
                self._schema = None
            if self.database is not None:
                self.engine.locks.release(self.session_id, rolled_back=verb != "COMMIT")
                self._rl_cursors += 1

    def _rl_finish_flushed(self, verb: str) -> None:
        """The end of a transaction whose undo entries are committed to the file: ROLLBACK
        applies them, both delete them, in one SQLite transaction under the latch."""
        conn = self.conn
        assert conn is not None
        self._sync(False)
        conn.execute("BEGIN IMMEDIATE")
        try:
            if verb != "COMMIT":
                self._rl_replaying = True
                undo.apply(conn, self._rl_undo)
                # CDC: logged as rolled back, its committed chunks deleted in this commit
                CAPTURE.rl_rollback(self)
            else:
                self.rl_ddl_discard()
            conn.execute(f"DELETE FROM {undo.UNDO_TABLE} WHERE owner = ?", (self._rl_owner,))
            # BYTE/TEXT objects whose last reference the transaction let go (an undo that
            # restored a reference has raised its count again)
            self.lo.before_commit()
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            CAPTURE.txn_end(self, False)  # CDC: reserved numbers released (a rollback)
            raise
        finally:
            self._rl_replaying = False
        self._after_commit()
        # the CDC log gets the transaction (or its rollback), as from _end_sql_txn
        self.lo.after_end(verb == "COMMIT")

    def _rl_finish_hold(self, verb: str) -> None:
        """COMMIT or ROLLBACK of a transaction whose SQLite transaction is still held (no
        other session needed the latch since): COMMIT deletes the undo entries and commits
        once; ROLLBACK commits it and leaves every entry to ``rl_finish``, which applies
        them."""
        conn = self.conn
        assert conn is not None
        if verb != "COMMIT":
            # committed, then undone from the log with what was committed before: so a
            # rolled-back insert's SERIAL is not given again, the same whether or not
            # another session took the latch meanwhile (SERVER.md "Not yet")
            self._rl_flush_hold()
            return
        self._rl_hold = False
        if verb == "COMMIT":  # made durable by _flush_wal, outside the latch
            try:
                if self._rl_undo:
                    self.rl_ddl_discard()
                if self._rl_stored:
                    # (the entries still in memory were never written: nothing to delete)
                    conn.execute(f"DELETE FROM {undo.UNDO_TABLE} WHERE owner = ?",
                                 (self._rl_owner,))
                self.lo.before_commit()
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                CAPTURE.txn_end(self, False)  # CDC: reserved numbers released (a rollback)
                raise
            self._after_commit()
            self.lo.after_end(True)
            self._rl_undo = []
