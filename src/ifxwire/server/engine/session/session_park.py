"""EngineSession's parked read: an autocommit query's SQLite read transaction kept open
between a session's statements while nothing was committed (issue 26, thirteenth round).

Why: outside a transaction every SQLite read transaction takes and drops a shared lock on a
WAL read-mark (two ``fcntl`` on the ``-shm`` file, ~10 µs a pair on the VMs we measure on):
the largest cost of a cached one-row SELECT left in the server. Kept open, the next query
starts no read transaction and asks the kernel nothing.

What a session reads stays what a fresh autocommit read gives (docs/SERVER.md, *The parked
read*):

* **Fresh, checked at every use.** Before a statement uses a parked read transaction, the
  session compares the database's WAL-index header (the first 48 bytes of the ``-shm`` file,
  mapped read-only) with the copy it took *before* the transaction began. SQLite writes a new
  header (its change counter ``iChange`` moves) at every commit, by any connection of any
  process, and at every WAL restart; an unchanged header means nothing was committed since,
  so the parked snapshot is the one a fresh read would take. A changed one ends the parked
  transaction (COMMIT of a read-only transaction) and the query reads afresh. Writes to
  ``sysmaster`` (attached to every database) are seen the same way, in its header
  (``Engine.sys_shm``): a change there ends the parked read too.
* **Only plain reads park**, and only when the wire layer serves the cached query group
  (server/session.py ``_serve`` sets ``_park_ok``): no transaction, no stored routine, no
  function that may write (NEXTVAL, the large-object calls: ``VOLATILE``), no other
  database's tables, no SELECT trigger, no FOR UPDATE, no row-lock filter. Every other
  request ends the parked read first (``unpark``), so no write, DDL, BEGIN WORK, SET
  ISOLATION, savepoint or ATTACH ever meets it.
* **Bounded.** A parked read never blocks a writer (WAL readers do not), but it keeps the
  checkpoint from copying frames past its snapshot and the WAL from restarting. So a commit
  that leaves the WAL at ``PARK_WAL_FRAMES`` frames or more (SQLite's autocheckpoint size)
  ends the parked reads of that database's idle sessions (their ``use`` lock free, as the
  row-lock latch commits a parked write: features/locks/latch.py); every parked session is
  marked (``_park_stale``) before that, so one that was busy ends its own right after it
  next lets go of its ``use`` lock (``park_stale``; see there why none is missed).
"""

from __future__ import annotations

import contextlib
import mmap
import os
import sqlite3
import sys
import threading
from typing import TYPE_CHECKING

from ..sql.functions import VOLATILE

if TYPE_CHECKING:
    from ..sql.translate import Plan
    from .engine import Engine

#: WAL frames at which a commit ends the other sessions' idle parked reads: SQLite's default
#: autocheckpoint (wal_autocheckpoint = 1000 pages), so the WAL restarts as it would without
#: parked reads, one commit later at most.
PARK_WAL_FRAMES = 1000
_HEADER = 48  # sizeof(WalIndexHdr): the first of its two copies at the start of -shm


def shm_frames(shm: mmap.mmap) -> int:
    """mxFrame of a WAL-index header: frames in the WAL (native byte order, offset 16)."""
    return int.from_bytes(shm[16:20], sys.byteorder)


def plan_parks(plan: Plan) -> bool:
    """Whether a query may run in (and leave) a parked read transaction: it reads only this
    database (and sysmaster, whose writes the Engine counts), calls no routine and no
    function that may write. Cached on the plan (``parks``)."""
    parks = plan.parks
    if parks is None:
        sql = plan.sql.lower()
        parks = plan.parks = (
            plan.kind == "query" and not plan.other_tables and not plan.other_databases
            and not plan.routines and plan.routine is None and not plan.select_triggers
            and not plan.for_update and not plan.current_rowid and not plan.parts
            and bool(VOLATILE) and not any(f"{name}(" in sql for name in VOLATILE))
    return parks


class ParkedReads:
    """The parked-read half of EngineSession (session.py defines the state)."""

    if TYPE_CHECKING:
        engine: Engine
        database: str | None
        conn: sqlite3.Connection | None
        _parked: bool
        _park_ok: bool
        _park_hdr: bytes
        _park_stale: bool
        _park_sys: bytes
        _shm: mmap.mmap | None
        _shm_conn: sqlite3.Connection | None
        _rl_in: bool
        _rl_use: threading.Lock

    def _shm_map(self, conn: sqlite3.Connection) -> mmap.mmap | None:
        """The database's ``-shm`` mapped read-only, for ``conn`` (a connection keeps its
        file: SQLite deletes ``-shm`` only when the last connection closes). None when it
        cannot be mapped: the session then never parks."""
        if self._shm_conn is conn:
            return self._shm
        self._shm_unmap()
        assert self.database is not None
        try:
            fd = os.open(self.engine.path(self.database) + "-shm", os.O_RDONLY)
        except OSError:  # (not WAL's shared memory file: never parked)
            return None
        try:
            shm = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ)
        except (OSError, ValueError, AttributeError):  # (AttributeError: no MAP_SHARED)
            return None
        finally:
            os.close(fd)
        self._shm, self._shm_conn = shm, conn
        return shm

    def _shm_unmap(self) -> None:
        shm, self._shm, self._shm_conn = self._shm, None, None
        if shm is not None:
            with contextlib.suppress(BufferError):
                shm.close()

    def _park(self, conn: sqlite3.Connection) -> None:
        """Begin the read transaction the next query leaves parked: the header copy is taken
        before BEGIN, so a commit between the two makes the snapshot look stale (ends it at
        the next use), never fresh."""
        shm = self._shm if self._shm_conn is conn else self._shm_map(conn)
        sys_shm = self.engine.sys_shm
        if shm is None or sys_shm is None:
            return
        sys_header = sys_shm[:_HEADER]
        header = shm[:96]
        if header[:_HEADER] != header[_HEADER:]:
            return  # a writer is between the two copies: read as before
        engine = self.engine
        db = self.database
        assert db is not None
        with engine.park_lock:
            engine.parked.setdefault(db, set()).add(self)
        self._park_stale = False  # (before BEGIN: a mark set after this is for this snapshot)
        try:
            conn.execute("BEGIN")
        except sqlite3.Error:
            with engine.park_lock:
                engine.parked.get(db, set()).discard(self)
            return
        self._parked = True
        self._park_hdr = header[:_HEADER]
        self._park_sys = sys_header

    def park_fresh(self) -> bool:
        """Whether the parked read transaction still shows what a fresh read would."""
        shm = self._shm
        sys_shm = self.engine.sys_shm
        return (shm is not None and sys_shm is not None and shm[:_HEADER] == self._park_hdr
                and sys_shm[:_HEADER] == self._park_sys)

    def unpark(self) -> None:
        """End the parked read transaction (if any); the next read starts afresh."""
        if not self._parked:
            return
        self._parked = False
        db = self.database
        engine = self.engine
        with engine.park_lock:
            if db is not None:
                engine.parked.get(db, set()).discard(self)
        conn = self.conn
        if conn is not None and conn.in_transaction:
            try:
                conn.execute("COMMIT")  # a read-only transaction: nothing is written
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")

    def park_stale(self) -> None:
        """A commit asked for this session's parked read while the session was busy: end it,
        called right after the session let go of its ``use`` lock (rl_leave, and inlined in
        server/wireio.py ``_await_request``), under that lock again.

        Why none is missed: a commit marks every parked session, then takes the ``use`` lock
        of each it can. A session looks at the mark only after it let go of the lock. So if
        it looked before the mark was set, it had let go before that too, and the commit
        takes its lock and ends the parked read itself; unless the session has taken the
        lock again for a new request, which looks at the mark again when it next lets go (a
        parked read begun meanwhile cleared the mark before its BEGIN, which came after the
        commit: it is fresh)."""
        with self._rl_use:
            if self._parked and self._park_stale:
                self.unpark()

    def _after_commit(self) -> None:
        """After this session committed to its database: when other sessions have parked
        reads there and the WAL has reached PARK_WAL_FRAMES, mark them all and end those of
        idle sessions (busy ones end theirs when they let go: park_stale)."""
        db = self.database
        engine = self.engine
        if db is None or not engine.parked.get(db):
            return
        conn = self.conn
        if conn is None:
            return
        shm = self._shm_map(conn)
        if shm is not None and shm_frames(shm) < PARK_WAL_FRAMES:
            return
        with engine.park_lock:
            others = [s for s in engine.parked.get(db, ()) if s is not self]
        for other in others:
            other._park_stale = True
        for other in others:
            use = other._rl_use
            if use.acquire(blocking=False):  # idle: waiting for its client
                try:
                    other.unpark()
                finally:
                    use.release()
