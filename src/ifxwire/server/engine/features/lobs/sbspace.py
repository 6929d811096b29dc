"""The sbspace: the data of a database's smart large objects, in a SQLite file of its own.

Why a second file: the bytes of a LO are written once and read whole, and SQLite's per-page
costs dominate bulk writes. The database file uses 4 KiB pages in WAL mode, where every page
is written to the WAL, copied into the database by the checkpoint and, for a 1 GiB
transaction, ~262,000 pages pass through the pager twice. This file uses 64 KiB pages and a
rollback journal, where pages appended to the file are written once and never journaled: the
server's CPU for a 1 GiB BLOB write (``bench/lob_bench.py``, docs/BENCHMARKS.md) fell by
about half, protocol included. Informix keeps smart LOBs apart from the rows too, in an
sbspace.

What lives here: ``sb_data (cid INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB)``, one row per
stored piece. A piece is never changed once written: writing over a piece stores a new one
and points the object at it. The database file keeps everything else (``lobstore.py``): the
objects, their reference counts, and the map from (object, piece number) to ``cid``, so the
database's transactions still decide what exists.

Ordering (what makes two files one transaction):

* pieces are written inside the session's database write transaction, in an sbspace
  transaction that is committed every ``COMMIT_BYTES`` (so it never spills pages while readers
  wait) and always **before** the database commits; a committed object's pieces are therefore
  durable whenever its map is (both files use the database's ``synchronous`` setting);
* a database rollback deletes the pieces its transaction wrote (their cids are one range: the
  database write lock lets one writer at a time write here), and a commit deletes the ones no
  map row took (a savepoint rolled back);
* pieces an object stops using (freed, overwritten, truncated) are listed in the database's
  ``_ifx_lo_garbage`` by triggers, in the same transaction, and deleted from here after it
  commits (``collect``), unless a read that may still want them is under way in this process;
* a ``kill -9`` between the two commits leaves pieces above the highest cid the database
  refers to; the first session of the next server process deletes them (``delete_after``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Any

__all__ = ["COMMIT_BYTES", "Sbspace", "sb_path"]

SUFFIX = ".ifxsb"
#: SQLite page size of an sbspace file (set when it is created).
PAGE_SIZE = 65536
#: An sbspace write transaction is committed after this many bytes (below the page cache).
COMMIT_BYTES = 4 * 1024 * 1024
#: Page cache of an sbspace connection, KiB: holds one COMMIT_BYTES transaction unspilled.
CACHE_KIB = 8192
#: Milliseconds an sbspace operation waits for another session's lock (not a collection).
BUSY_MS = 10000

_SCHEMA = ("CREATE TABLE IF NOT EXISTS sb_data (cid INTEGER PRIMARY KEY AUTOINCREMENT, "
           "data BLOB NOT NULL)")

# Reads under way per sbspace file in this process: pieces they may still ask for are not
# collected meanwhile (a read's map snapshot can be older than a free's commit).
_readers: dict[str, int] = {}
_readers_lock = threading.Lock()


def sb_path(db_path: str) -> str:
    """The sbspace file of a database file (``name.ifxdb`` → ``name.ifxsb``)."""
    root, ext = os.path.splitext(db_path)
    return (root if ext == ".ifxdb" else db_path) + SUFFIX


class Sbspace:
    """One database's sbspace file as one session uses it (a connection opened on demand)."""

    def __init__(self, path: str, synchronous: str = "FULL") -> None:
        self.path = path
        self.synchronous = synchronous
        self._conn: sqlite3.Connection | None = None
        self.first = 0  # first cid written in the database transaction under way (0: none)
        self.next = 0  # the cid the next piece gets
        self._unsynced = 0  # bytes written since the last sbspace commit

    # ---- connection ---------------------------------------------------------------------------
    def connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new file only
                conn.execute("PRAGMA journal_mode = TRUNCATE")
                conn.execute(f"PRAGMA synchronous = {self.synchronous}")
                conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
                conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
                conn.execute(_SCHEMA)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def exists(self) -> bool:
        return self._conn is not None or os.path.exists(self.path)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
            self._conn.close()
            self._conn = None
        self.first = self.next = self._unsynced = 0

    # ---- writing (inside the database's write transaction) ---------------------------------
    def put(self, pieces: Sequence[Any]) -> int:
        """Store ``pieces``; returns the cid of the first (the others follow it)."""
        conn = self.connection()
        if not conn.in_transaction:
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'sb_data'").fetchone()
            self.next = (int(row[0]) if row else 0) + 1
            if not self.first:
                self.first = self.next
        first = self.next
        conn.executemany("INSERT INTO sb_data (cid, data) VALUES (?, ?)",
                         zip(range(first, first + len(pieces)), pieces, strict=True))
        self.next = first + len(pieces)
        self._unsynced += sum(map(len, pieces))
        if self._unsynced >= COMMIT_BYTES:
            self.commit()
        return first

    def commit(self) -> None:
        """Commit what was written (before the database commits)."""
        if self._conn is not None and self._conn.in_transaction:
            self._conn.execute("COMMIT")
        self._unsynced = 0

    def written(self) -> tuple[int, int] | None:
        """The cids ``[first, next)`` the database transaction under way wrote, if any."""
        return (self.first, self.next) if self.first else None

    def end(self, orphans: Sequence[int] | None) -> None:
        """The database transaction ended: ``orphans`` are the cids it wrote that nothing
        refers to now (None after a rollback: all of them). They are deleted."""
        span = self.written()
        self.first = 0
        conn = self._conn
        if conn is None or span is None:
            return
        if conn.in_transaction:
            if orphans is None:
                conn.execute("ROLLBACK")
            else:
                conn.execute("COMMIT")
        self._unsynced = 0
        if orphans is None:
            self._delete_span(*span)
        elif orphans:
            self.delete(orphans)

    # ---- reading -----------------------------------------------------------------------------
    def get(self, cids: Sequence[int]) -> dict[int, bytes]:
        marks = ",".join("?" * len(cids))
        rows = self.connection().execute(
            f"SELECT cid, data FROM sb_data WHERE cid IN ({marks})", tuple(cids)).fetchall()
        return {int(cid): data for cid, data in rows}

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Mark a read under way (``collect`` leaves pieces alone meanwhile)."""
        with _readers_lock:
            _readers[self.path] = _readers.get(self.path, 0) + 1
        try:
            yield
        finally:
            with _readers_lock:
                left = _readers[self.path] - 1
                if left:
                    _readers[self.path] = left
                else:
                    del _readers[self.path]

    # ---- deleting ----------------------------------------------------------------------------
    def collect(self, cids: Sequence[int]) -> bool:
        """Delete pieces the database no longer refers to (committed garbage); False when it
        must wait (a read under way, another session writing here)."""
        with _readers_lock:
            if _readers.get(self.path):
                return False
        if not cids or not self.exists():
            return True
        conn = self.connection()
        if conn.in_transaction:
            return False
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return False
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        try:
            self._delete_in(conn, cids)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return True

    def delete(self, cids: Sequence[int]) -> None:
        """Delete pieces now (orphans of this session's own transaction)."""
        conn = self.connection()
        own = not conn.in_transaction
        if own:
            conn.execute("BEGIN IMMEDIATE")
        self._delete_in(conn, cids)
        if own:
            conn.execute("COMMIT")

    def _delete_span(self, first: int, stop: int) -> None:
        conn = self.connection()
        conn.execute("DELETE FROM sb_data WHERE cid >= ? AND cid < ?", (first, stop))

    def delete_after(self, cid: int) -> int:
        """Delete every piece above ``cid`` (left by a process killed between the two
        commits); returns how many."""
        if not self.exists():
            return 0
        cur = self.connection().execute("DELETE FROM sb_data WHERE cid > ?", (cid,))
        return max(cur.rowcount, 0)

    @staticmethod
    def _delete_in(conn: sqlite3.Connection, cids: Sequence[int]) -> None:
        for at in range(0, len(cids), 500):
            part = tuple(cids[at : at + 500])
            conn.execute(f"DELETE FROM sb_data WHERE cid IN ({','.join('?' * len(part))})",
                         part)

    def count(self) -> int:
        """Pieces stored (read through a connection of its own when this one is not open)."""
        if self._conn is not None:
            return int(self._conn.execute("SELECT count(*) FROM sb_data").fetchone()[0])
        if not os.path.exists(self.path):
            return 0
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM sb_data").fetchone()[0])
        except sqlite3.OperationalError:  # created, no table yet
            return 0
        finally:
            conn.close()
