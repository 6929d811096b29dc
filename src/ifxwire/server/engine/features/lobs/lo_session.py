"""One session's smart large objects: open LO file descriptors and the operations on them.

An LO file descriptor (``lofd``) is what ``ifx_lo_open``/``ifx_lo_create`` return: a small
integer naming an open object, its access mode and its seek position, valid in this session
only. The wire session reads and writes through it (``SQ_LODATA``), SQL and fast-path routines
call the same methods (``lo_functions.py``).

Writes run under the session's write lock (``EngineSession.run_write``): inside a transaction
they belong to it, outside one each operation commits by itself, as a statement does. Errors
are Informix's: -9810 with the ISAM code that names the problem (``sqlcodes.py``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from .....protocol.codes import XID_BLOB, XID_CLOB
from .....types import smartlob as slo
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.hooks import CAPTURE
from .lobstore import (
    CHUNK,
    DEFAULT_SBSPACE,
    MAX_LO_SIZE,
    SBSPACES,
    LoRow,
    LoStore,
    free_unreferenced,
    has_schema,
    housekeeping_due,
    lo_error,
)
from .sbspace import Sbspace, sb_path

if TYPE_CHECKING:
    from ..session_api import FeatureSession

R = TypeVar("R")

#: This server process; pending objects created by sessions of other processes are swept.
INSTANCE = os.urandom(6).hex()
_swept: set[str] = set()
#: Per engine and database: the last ``housekeeping_due`` (under the write lock, in a
#: transaction about to commit) found no object to free and no garbage. A write unit that
#: changed only its statement's own rows cannot have added any (``before_commit``).
_clean: weakref.WeakKeyDictionary[object, dict[str, bool]] = weakref.WeakKeyDictionary()
#: Largest single read the routines return as a value (reads through SQ_LODATA stream).
MAX_READ_VALUE = 32 * 1024 * 1024
#: Bytes per piece when copying between files and objects.
COPY_CHUNK = 32000
#: Bytes a write gathers before storing them (whole store chunks).
GATHER = 16 * CHUNK


class ClientFiles(Protocol):
    """Files on the client, reached with SQ_FILE (implemented by the wire session)."""

    def read_client_file(self, name: str) -> Iterator[bytes]: ...

    def write_client_file(self, name: str, chunks: Iterable[bytes | memoryview]) -> None: ...


@dataclass(slots=True)
class OpenLo:
    loid: int
    locator: bytes
    kind: int
    flags: int
    pos: int = 0

    @property
    def readable(self) -> bool:
        return bool(self.flags & (slo.LO_RDONLY | slo.LO_RDWR))

    @property
    def writable(self) -> bool:
        return bool(self.flags & (slo.LO_WRONLY | slo.LO_RDWR | slo.LO_APPEND))


def _access_flags(flags: int) -> int:
    """Validate ``ifx_lo_open`` flags: at most one access mode and nothing unknown (-12086).

    No access mode means read-only: JDBC opens every BLOB/CLOB it reads with LO_NODIRTY_READ
    (2048) alone (``IfxBblob.<init>``, bytecode); LO_APPEND alone writes at the end.
    """
    access = flags & slo.LO_ACCESS_MASK
    if flags < 0 or flags & ~slo.LO_KNOWN_FLAGS or access not in (
        slo.LO_RDONLY, slo.LO_WRONLY, slo.LO_RDWR, 0
    ):
        raise lo_error(sc.ISAM_LO_BAD_FLAGS)
    if access == 0:
        flags |= slo.LO_WRONLY if flags & slo.LO_APPEND else slo.LO_RDONLY
    return flags


class LoSession:
    """The open objects of one EngineSession (in its current database)."""

    def __init__(self, es: FeatureSession) -> None:
        self.es = es
        self.fds: dict[int, OpenLo] = {}
        self._next_fd = 1
        self.client: ClientFiles | None = None  # set by the wire session
        self.sql_depth = 0  # > 0 while a routine runs inside an SQL statement
        self._store: LoStore | None = None
        self._store_conn: object = None
        self._sb: Sbspace | None = None  # the database's sbspace file, once used
        self._schema: bool | None = None  # whether the database has objects (cached)
        self._schema_version = -1  # the SQLite schema version ``_schema`` was found at
        #: ``before_commit`` found nothing to free and no garbage, under the write lock of
        #: the transaction about to commit: its ``after_end`` has nothing to collect
        self._nothing_due = False
        self._clean_db = ""  # the database ``_clean_of`` last answered for
        self._clean_flags: dict[str, bool] | None = None  # this engine's, in ``_clean``

    # ---- plumbing ---------------------------------------------------------------------------
    @property
    def owner(self) -> str:
        return f"{INSTANCE}:{self.es.session_id}"

    def store(self) -> LoStore:
        es = self.es
        if es.conn is None or es.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        if self._store is None or self._store_conn is not es.conn:
            path = es.engine.path(es.database)
            if self._sb is not None:
                self._sb.close()
            self._sb = Sbspace(sb_path(path), "FULL" if es.logged_unbuffered else "NORMAL")
            self._store = LoStore(es.conn, es.incarnation, self._sb)
            self._store_conn = es.conn
            # The sweep commits by itself; under row locks inside the client's transaction
            # that would escalate and commit the transaction's own held statements with it
            # (a later ROLLBACK WORK undid nothing, a COMMIT WORK went to the change stream
            # as rolled back): it waits for a store made outside a transaction.
            if path not in _swept and not (es.row_locks and es.in_transaction):
                _swept.add(path)
                es.run_write_alone(lambda: self._store.sweep(INSTANCE) if self._store else 0)
        return self._store

    def prime(self) -> None:
        """At the PREPARE of an INSERT/UPDATE/DELETE (EngineSession.prepare): find whether the
        database has the smart-LOB tables and make the store, which a session's first commit
        otherwise does in ``before_commit``/``after_end``, before its EXECUTE's reply leaves
        (0.1-0.2 ms of the first EXECUTE; libsqli waits 1 ms for that reply:
        docs/PROTOCOL.md §6). Outside a SQLite transaction only; best effort, as after_end."""
        es = self.es
        conn = es.conn
        if conn is None or es.database is None or conn.in_transaction:
            return
        with contextlib.suppress(sqlite3.Error, EngineError):
            if self._has_schema(conn):
                self.store()

    def _write(self, action: Callable[[], R]) -> R:
        return self.es.run_write(action)

    # ---- the database transaction's end (EngineSession._end_sql_txn) ------------------------
    def before_commit(self, own_rows_only: bool = False) -> None:
        """Objects whose last reference went in this transaction are freed (as Informix frees
        them: at commit), then the sbspace commits first: a committed map never points at
        uncommitted pieces.

        ``own_rows_only``: the unit about to commit changed no row but its statement's own
        (``conn.total_changes`` says so: the smart-LOB tables' counting triggers, trigger
        actions and cascades all count there), so it added nothing to free nor any garbage;
        when the database's last check found none either, the check's SELECT is not run
        (one SQLite statement of an autocommitted INSERT's five; issue 23, libsqli's 1 ms
        wait). Objects another transaction committed without its own check (a held
        transaction committed for another session's latch) wait for that transaction's
        end, which checks."""
        conn = self.es.conn
        self._nothing_due = False
        clean = self._clean_of() if self._schema else None
        if own_rows_only and clean is not None and clean.get(self._clean_db, False):
            self._nothing_due = True
            due = None
        else:
            due = self._due(conn) if conn is not None else None
        if conn is not None and due is not None:
            unref, garbage = due
            clean = self._clean_of()
            if clean is not None:
                clean[self._clean_db] = not unref and not garbage
            if unref:
                free_unreferenced(conn)  # (its objects' pieces become garbage)
            else:
                # No other session can add garbage before this transaction's COMMIT (it
                # holds SQLite's write lock), so none is there for after_end to collect.
                self._nothing_due = not garbage
        if self._sb is not None:
            self._sb.commit()
        CAPTURE.before_commit(self.es)  # CDC: captured rows stashed in this commit (cdc/)

    def _clean_of(self) -> dict[str, bool] | None:
        """This engine's ``_clean`` flags (per database), or None outside a database."""
        es = self.es
        if es.database is None:
            return None
        self._clean_db = es.database
        flags = self._clean_flags
        if flags is None:  # (a session keeps its engine)
            flags = self._clean_flags = _clean.setdefault(es.engine, {})
        return flags

    def _due(self, conn: sqlite3.Connection) -> tuple[bool, bool] | None:
        """``housekeeping_due`` when the database has the smart-LOB tables, else None.
        Why: once the tables were found they are not looked for again: the SELECT itself
        says they are still there (it fails to prepare when they are not, as after a DROP
        DATABASE and a new one of the same name on a pooled path); the PRAGMA of
        ``_has_schema`` was one SQLite statement more per commit (issue 23, libsqli's 1 ms
        wait; issue 26). A database without them is looked at again at each commit (a first
        use's ``sweep`` may add them)."""
        if self._schema:
            try:
                return housekeeping_due(conn)
            except sqlite3.OperationalError:
                self._schema = None  # gone: look again below
        return housekeeping_due(conn) if self._has_schema(conn) else None

    def _has_schema(self, conn: sqlite3.Connection) -> bool:
        """Whether the database has the smart-LOB tables of this layout, cached per schema
        version (one PRAGMA a commit; another session's DDL changes the version). A database
        of an older layout gets them from ``sweep`` when this process first uses its LOs;
        until then its old trigger frees objects at once."""
        version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
        if self._schema is None or self._schema_version != version:
            self._schema = has_schema(conn, "_ifx_lo_unref")
            self._schema_version = version
        return self._schema

    def after_end(self, committed: bool) -> None:
        """Delete the pieces the transaction wrote that nothing maps (all of them after a
        rollback), then, after a commit, the garbage it made. Best effort: the transaction
        has ended, so nothing here may fail it (another session holding a lock, the first
        use's sweep refused): garbage left is collected after a later commit."""
        CAPTURE.txn_end(self.es, committed)  # captured changes to the CDC log (cdc/routines.py)
        nothing_due, self._nothing_due = self._nothing_due, False
        with contextlib.suppress(sqlite3.Error, EngineError):
            sb = self._sb
            span = sb.written() if sb is not None else None
            if sb is not None and span is not None:
                sb.end(self.store().orphans(*span) if committed else None)
            if not committed or (nothing_due and span is None):
                return
            conn = self.es.conn
            if conn is not None and self._has_schema(conn):
                self.store().collect()

    def _fd(self, fd: object) -> OpenLo:
        if not isinstance(fd, int) or isinstance(fd, bool):
            raise lo_error(sc.ISAM_LO_BAD_FD, near=str(fd))
        lo = self.fds.get(fd)
        if lo is None:
            raise lo_error(sc.ISAM_LO_BAD_FD, near=str(fd))
        return lo

    def _new_fd(self, row: LoRow, flags: int) -> int:
        fd = self._next_fd
        while fd in self.fds:
            fd += 1
        self._next_fd = fd + 1 if fd < 32767 else 1
        pos = row.size if flags & slo.LO_APPEND else 0
        self.fds[fd] = OpenLo(row.loid, row.locator, row.kind, flags, pos)
        return fd

    def _row(self, lo: OpenLo) -> LoRow:
        row = self.store().get(lo.loid)
        if row is None or row.locator != lo.locator:
            raise lo_error(sc.ISAM_LO_DELETED)
        return row

    # ---- objects ----------------------------------------------------------------------------
    def sbspace(self, name: str) -> str:
        name = name.strip().lower()
        if not name:
            return DEFAULT_SBSPACE
        if name not in SBSPACES:
            raise EngineError(sc.NO_SBSPACE, near=name)
        return name

    def create(self, kind: int, flags: int = slo.LO_RDWR, sbspace: str = "") -> tuple[bytes, int]:
        """``ifx_lo_create``: a new, empty, open object; returns (locator, fd)."""
        flags = _access_flags(flags)
        space = self.sbspace(sbspace)
        row = self._write(lambda: self.store().create(kind, self.owner, space))
        return row.locator, self._new_fd(row, flags)

    def open(self, locator: bytes, flags: int) -> int:
        flags = _access_flags(flags)
        return self._new_fd(self.store().find(locator), flags)

    def close(self, fd: object) -> int:
        self._fd(fd)
        del self.fds[fd]  # type: ignore[arg-type]
        return 0

    def release(self, locator: bytes) -> int:
        row = self.store().find(locator)
        self._write(lambda: self.store().release(row.loid))
        return 0

    def copy(self, locator: bytes, kind: int | None = None) -> bytes:
        """LOCOPY: a new object with the same data; a new pending object of this session."""
        row = self.store().find(locator)
        target = row.kind if kind is None else kind
        return self._write(lambda: self.store().copy(row, target, self.owner)).locator

    def kind_of(self, locator: bytes) -> int:
        return self.store().find(locator).kind

    # ---- data -------------------------------------------------------------------------------
    def seek(self, fd: object, offset: int, whence: int) -> int:
        lo = self._fd(fd)
        if whence == slo.LO_SEEK_SET:
            base = 0
        elif whence == slo.LO_SEEK_CUR:
            base = lo.pos
        elif whence == slo.LO_SEEK_END:
            base = self._row(lo).size
        else:
            raise lo_error(sc.ISAM_LO_BAD_WHENCE)
        pos = base + offset
        if pos < 0 or pos > MAX_LO_SIZE:
            raise lo_error(sc.ISAM_LO_BAD_SEEK)
        lo.pos = pos
        return pos

    def tell(self, fd: object) -> int:
        return self._fd(fd).pos

    def size(self, fd: object) -> int:
        return self._row(self._fd(fd)).size

    def stat(self, fd: object) -> bytes:
        """``ifx_lo_stat``: the 644-byte status structure (size and reference count)."""
        row = self._row(self._fd(fd))
        return slo.build_lo_stat(row.size, row.refcount, row.loid & 0x7FFFFFFF, row.modified,
                                 row.sbspace)

    def truncate(self, fd: object, size: int) -> int:
        lo = self._fd(fd)
        if not lo.writable:
            raise lo_error(sc.ISAM_LO_NOT_WRITABLE)
        self._row(lo)
        self._write(lambda: self.store().truncate(lo.loid, size))
        return 0

    def _readable(self, fd: object, n: int) -> OpenLo:
        lo = self._fd(fd)
        if n < 0:
            raise lo_error(sc.ISAM_LO_BAD_BUFFER)
        if not lo.readable:
            raise lo_error(sc.ISAM_LO_NOT_READABLE)
        return lo

    def live(self, fd: object) -> bool:
        """Whether reads of ``fd`` come from a live stream (a CDC capture session), where a
        read may wait for data to come: the wire layer then sends each reply at once."""
        return CAPTURE.lo_stream(self.es, fd) is not None

    def iter_read(self, fd: object, n: int) -> tuple[int, Iterator[bytes | memoryview]]:
        """Read up to ``n`` bytes at the seek position: (bytes that will come, their pieces).
        The position moves past them at once, so a reply can stream the pieces."""
        stream = CAPTURE.lo_stream(self.es, fd)  # a CDC session's records (cdc/capture.py)
        if stream is not None:
            data = stream(n)
            return len(data), iter((data,))
        lo = self._readable(fd, n)
        row = self._row(lo)
        take = max(0, min(n, row.size - lo.pos))
        start = lo.pos
        lo.pos += take
        return take, self.store().iter_read(lo.loid, start, take)

    def read(self, fd: object, n: int) -> bytes:
        if n > MAX_READ_VALUE:
            raise lo_error(sc.ISAM_LO_TOO_BIG)
        take, pieces = self.iter_read(fd, n)
        return b"".join(pieces) if take else b""

    def write(self, fd: object, data: bytes | bytearray | memoryview) -> int:
        return self.write_stream(fd, len(data), [data])

    def write_stream(
        self, fd: object, length: int, pieces: Iterable[bytes | bytearray | memoryview]
    ) -> int:
        """Write the bytes arriving in ``pieces`` (``length`` of them, when known; -1 when not)
        at the seek position (append mode: at the end), all under one write lock; returns the
        bytes written."""
        lo = self._fd(fd)
        if length < -1:
            raise lo_error(sc.ISAM_LO_BAD_BUFFER)
        if not lo.writable:
            raise lo_error(sc.ISAM_LO_NOT_WRITABLE)

        def run() -> int:
            store = self.store()
            row = self._row(lo)
            pos = row.size if lo.flags & slo.LO_APPEND else lo.pos
            if pos + max(length, 0) > MAX_LO_SIZE:
                raise lo_error(sc.ISAM_LO_TOO_BIG)
            # Pieces are gathered in a buffer of whole store chunks (the first one cut at
            # the chunk boundary after ``pos``), so each chunk is written once, not read,
            # patched and written again per client piece, and each buffer is one executemany.
            written = 0
            buf = bytearray(GATHER)
            view = memoryview(buf)
            fill = 0
            room = GATHER - pos % CHUNK  # the first write ends on a chunk boundary
            at = pos
            for piece in pieces:
                src = memoryview(piece).cast("B")
                n = len(src)
                used = 0
                while used < n:
                    take = min(room - fill, n - used)
                    view[fill : fill + take] = src[used : used + take]
                    fill += take
                    used += take
                    if fill == room:
                        store.write(lo.loid, at, view[:fill])
                        at += fill
                        written += fill
                        fill = 0
                        room = GATHER
                src.release()
            if fill:
                store.write(lo.loid, at, view[:fill])
                written += fill
            view.release()
            lo.pos = pos + written
            return written

        return self._write(run)

    # ---- large BYTE/TEXT values stored as objects (server/blobs.py) -------------------------
    def begin_stream(self) -> bool:
        """Hold the write lock across the messages of one upload (one commit, not one per
        piece); True when this call took it (then ``end_stream`` commits)."""
        es = self.es
        if es._sql_txn:
            return False
        es._begin_write("insert")
        return True

    def end_stream(self, began: bool, ok: bool = True) -> None:
        es = self.es
        if began and es._sql_txn and not es.in_transaction:
            es._end_sql_txn("COMMIT" if ok else "ROLLBACK")

    def new_blob_object(self, text: bool) -> tuple[int, bytes]:
        """An empty object for a large BYTE/TEXT value (pending until a row takes it):
        (id, locator)."""
        kind = XID_CLOB if text else XID_BLOB
        row = self.store().create(kind, self.owner)
        return row.loid, row.locator

    def append(self, loid: int, offset: int, data: bytes | bytearray | memoryview) -> None:
        self.store().write(loid, offset, data)

    def blob_size(self, loid: int) -> int:
        return self.store().size(loid)

    def iter_blob(self, loid: int) -> Iterator[bytes | memoryview]:
        store = self.store()
        return store.iter_read(loid, 0, store.size(loid))

    def free_if_unreferenced(self, loid: int) -> None:
        with contextlib.suppress(EngineError):
            self._write(lambda: self.store().free_if_unreferenced(loid))

    # ---- files ------------------------------------------------------------------------------
    def file_to_lo(self, path: str, where: str, kind: int) -> bytes:
        """FILETOBLOB/FILETOCLOB: a new object holding a client or server file."""
        pieces = self._file_source(path, where)
        locator, fd = self.create(kind, slo.LO_WRONLY)
        try:
            self.write_stream(fd, -1, pieces)
        finally:
            self.fds.pop(fd, None)
        return locator

    def lo_to_file(self, locator: bytes, path: str, where: str) -> str:
        """LOTOFILE: write the object to a client or server file; returns the file name."""
        row = self.store().find(locator)
        name = lotofile_name(path, row.loid)
        store = self.store()
        pieces = store.iter_read(row.loid, 0, row.size)
        if _where(where) == "client":
            client = self._client()
            client.write_client_file(name, pieces)
            return name
        if os.path.exists(name):
            raise EngineError(sc.BAD_FILENAME, near=name)
        try:
            with open(name, "xb") as f:
                for piece in pieces:
                    f.write(piece)
        except OSError as e:
            raise EngineError(sc.BAD_FILENAME, near=name, message=str(e)) from None
        return name

    def _client(self) -> ClientFiles:
        if self.client is None:
            raise lo_error(sc.ISAM_LO_BAD_FD, near="client file")
        return self.client

    def _file_source(self, path: str, where: str) -> Iterator[bytes]:
        if _where(where) == "client":
            return self._client().read_client_file(path)
        try:
            f = open(path, "rb")  # noqa: SIM115 - closed by the generator
        except OSError as e:
            raise EngineError(sc.BAD_FILENAME, near=path, message=str(e)) from None

        def pieces() -> Iterator[bytes]:
            with f:
                while True:
                    piece = f.read(COPY_CHUNK)
                    if not piece:
                        return
                    yield piece

        return pieces()

    # ---- end --------------------------------------------------------------------------------
    def close_database(self) -> None:
        """The session leaves its database (its transaction was rolled back): the pieces that
        transaction wrote go, descriptors close, never-stored objects go."""
        CAPTURE.session_closed(self.es)  # and its CDC capture sessions (cdc/routines.py)
        self.fds.clear()
        es = self.es
        if self._sb is not None and self._sb.written():
            self._sb.end(None)
        if self._store is not None and es.conn is not None:
            store = self._store
            # Only a session that left objects behind takes the write lock: the cleanup runs
            # after the client has gone, so a lock taken for nothing would make another
            # session's statement fail with a lock error in NOT WAIT mode at that moment.
            # Locked by another writer: the next process's sweep frees them instead.
            if store.pending_of(self.owner):
                with contextlib.suppress(EngineError):
                    es.run_write(lambda: store.free_pending(self.owner))
        if self._sb is not None:
            self._sb.close()
            self._sb = None
        self._store = None
        self._store_conn = None
        self._schema = None


def _where(where: object) -> str:
    w = str(where or "").strip().lower()
    if w not in ("client", "server"):
        raise EngineError(sc.BAD_FILENAME, near=str(where))
    return w


def lotofile_name(path: str, loid: int) -> str:
    """LOTOFILE's file name (Guide to SQL: Syntax, LOTOFILE): ``path.hexid`` by default; a run
    of ``?`` in the name takes that many hex digits of the id; a final ``!`` means exactly
    ``path``."""
    hex_id = format(loid, "x")
    if path.endswith("!"):
        return path[:-1]
    if "?" in path:
        start = path.index("?")
        end = start
        while end < len(path) and path[end] == "?":
            end += 1
        run = min(end - start, 17)
        digits = hex_id.rjust(run, "0")[:run]
        return path[:start] + digits + path[end:]
    return f"{path}.{hex_id}"


def kind_of_function(name: str) -> int:
    return XID_CLOB if "clob" in name.lower() else XID_BLOB
