"""The Engine: database files under ``data_dir``, ``sysmaster``, and the shared caches.

Layout: one SQLite file per database, ``<data_dir>/<name>.ifxdb`` (names are lower-cased, as
Informix folds them), plus ``sysmaster.ifxdb``. Files use WAL journaling so readers never block
the writer. ``synchronous`` follows the Informix logging mode: unbuffered logging (and ANSI)
commits are FULL (durable across power loss, like an Informix log flush at COMMIT); buffered
logging and unlogged databases use NORMAL, which in WAL mode still survives a killed process
(kill -9) and only risks the last commits on power loss, as Informix's buffered log does.

Translations are cached by (database incarnation, schema version, settings, user, SQL text) in
one LRU shared by all sessions, so a repeated statement is never parsed twice by one user (a
name resolves per user: a private synonym is its owner's alone).

SQLite connections are pooled per database (``checkout``/``checkin``). Opening one costs about
half a millisecond of CPU (the WAL open, the functions, ``ATTACH sysmaster``): most of what a
client's connect-with-database costs the server. A connection goes back to the pool only clean:
no transaction (rolled back), no temp objects (those are the session's and die with it); its
function slot is pointed away from the session, so an idle connection holds no session state.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import mmap
import os
import shutil
import sqlite3
import tempfile
import threading
import urllib.request
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.hooks import CAPTURE
from ..core.values import DEFAULT_CTX, date_number
from ..features.lobs.sbspace import sb_path
from ..features.locks import undo
from ..features.locks.latch import Latch
from ..features.locks.manager import LockTable
from ..features.objects import SequenceCounters
from ..schema import catalog as cat
from ..schema import catalog_upgrade
from ..sql.functions import FunctionSlot, FunctionState, register
from .session import EngineSession
from .session_park import ParkedReads

if TYPE_CHECKING:
    from ..sql.translate import Plan
    from .session import EngineSession

PLAN_CACHE_SIZE = 4096
SCHEMA_CACHE_SIZE = 64
SUFFIX = ".ifxdb"
IDLE_PER_DATABASE = 4  # ready SQLite connections kept per database file
IDLE_TOTAL = 32  # and over all databases; the oldest idle connection is closed first
# What an idle pooled connection's functions point at: no session's state.
_NO_SESSION = FunctionState("", DEFAULT_CTX)
DEFAULT_LOCALE = "en_US.819"


def _valid_name(name: str) -> bool:
    return bool(name) and len(name) <= 128 and all(c.isalnum() or c in "_$" for c in name) and (
        name[0].isalpha() or name[0] == "_")



#: Whether an Engine (a Server, ``ifxwire-server``) runs with row locks when neither its
#: ``row_locks`` argument (``--row-locks`` / ``--no-row-locks``) nor IFXWIRE_ROW_LOCKS says.
ROW_LOCKS_DEFAULT = True


def row_locks_default() -> bool:
    """Row locks when the caller did not choose: IFXWIRE_ROW_LOCKS=0 turns them off, any
    other non-empty value on; unset or empty, ROW_LOCKS_DEFAULT."""
    value = os.environ.get("IFXWIRE_ROW_LOCKS", "").strip()
    if not value:
        return ROW_LOCKS_DEFAULT
    return value != "0"


class Engine:
    """Owns the databases of one server and hands out sessions."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None,
        *,
        server_name: str = "informix",
        version: str = "IBM Informix Dynamic Server Version 14.10.FC9",
        trace_dir: str | os.PathLike[str] | None = None,
        statement_timeout: float | None = None,
        max_statement_bytes: int | None = None,
        row_locks: bool | None = None,
    ) -> None:
        self._own_dir = data_dir is None
        self.data_dir = tempfile.mkdtemp(prefix="ifxwire-") if data_dir is None else os.fspath(
            data_dir)
        os.makedirs(self.data_dir, exist_ok=True)
        self.server_name = server_name
        self.version = version
        # Where SPL's SET DEBUG FILE may write TRACE output (None: SET DEBUG FILE is refused).
        self.trace_dir = os.fspath(trace_dir) if trace_dir is not None else None
        #: Seconds one request may spend in the engine before -213 (None: no limit).
        self.statement_timeout = statement_timeout
        #: Bytes of SQL text a statement may have before -460 (None: no limit).
        self.max_statement_bytes = max_statement_bytes
        self.lock = threading.RLock()
        #: Row locks and isolation levels (docs/SERVER.md, "Locks and isolation"): when not
        #: given, IFXWIRE_ROW_LOCKS says (1 on, 0 off), else ROW_LOCKS_DEFAULT.
        self.row_locks = row_locks_default() if row_locks is None else row_locks
        #: Every session's row and table locks (features/locks/manager.py).
        self.locks = LockTable()
        #: Rows batches inserted as runs their lock trigger kept in SQL, locked as ranges
        #: (session_lock_rows.RowLockRows.rl_bulk; a counter for tests and benchmarks).
        self.run_rows = 0
        self._latches: dict[str, Latch] = {}
        #: Row-lock mode: seconds a NOT WAIT writer waits for the database's latch before
        #: its statement fails with ISAM -107 (session_lock_latch.RowLockLatch._latch says why).
        self.latch_grace = 0.5
        self._recovered: set[str] = set()
        #: Row-lock mode: the sessions by id (weakly held), for LAST COMMITTED readers.
        self.live: weakref.WeakValueDictionary[int, EngineSession] = (
            weakref.WeakValueDictionary())
        self.plans: OrderedDict[tuple[object, ...], Plan] = OrderedDict()
        self.schemas: OrderedDict[tuple[object, ...], cat.Schema] = OrderedDict()
        #: per database incarnation, the schema loaded from committed state with the largest
        #: catalogue stamp: the base the next load reads only changed tables against
        #: (schema/catalog_versions.py)
        self.latest_schemas: dict[object, cat.Schema] = {}
        self.open_dbs: dict[str, dict[int, bool]] = {}  # db -> {session id: exclusive}
        self._idle: OrderedDict[int, tuple[str, sqlite3.Connection, FunctionSlot]] = OrderedDict()
        self._idle_seq = 0
        self._meta: dict[str, dict[str, str]] = {}  # database -> its _ifx_meta (checkout)
        self._next_session = 1
        self.sequences = SequenceCounters()
        self._closed = False
        if not os.path.exists(self.path("sysmaster")):
            self._create_file("sysmaster", logged=True, buffered=False, ansi=False,
                              locale=DEFAULT_LOCALE, owner="informix", sysmaster=True)
            self._register("sysmaster", "informix", True, False, False)
        else:
            # Sessions attach sysmaster read-only: its catalogue is brought up to date here,
            # on the Engine's own connection, before any session opens.
            conn = self.connect("sysmaster")
            try:
                conn.execute("PRAGMA busy_timeout = 10000")
                catalog_upgrade.upgrade_catalog(conn)
                catalog_upgrade.upgrade_sysmaster(conn)
            finally:
                conn.close()
        conn = self.connect("sysmaster")
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            cat.write_environment(conn, server_name, DEFAULT_LOCALE)
        finally:
            conn.close()
        #: Parked reads (session_park.py): the sessions with one, by database, and its lock.
        self.park_lock = threading.Lock()
        self.parked: dict[str, set[ParkedReads]] = {}
        #: sysmaster's WAL-index header, mapped read-only (None: parked reads are off). Every
        #: session attaches sysmaster, so a parked read must also find its header unchanged;
        #: ``_sys_keeper`` keeps the file's -shm from being deleted (SQLite removes it when
        #: the last connection closes) for as long as the Engine lives.
        self._sys_keeper: sqlite3.Connection | None = None
        self.sys_shm: mmap.mmap | None = None
        self._map_sysmaster()

    def _map_sysmaster(self) -> None:
        keeper = self.connect("sysmaster")
        try:
            keeper.execute("SELECT count(*) FROM sqlite_master").fetchall()  # opens the WAL
            fd = os.open(self.path("sysmaster") + "-shm", os.O_RDONLY)
            try:
                self.sys_shm = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ)
            finally:
                os.close(fd)
        except (OSError, ValueError, AttributeError, sqlite3.Error):
            keeper.close()
            return
        self._sys_keeper = keeper

    # ---- files -------------------------------------------------------------------------------
    def path(self, name: str) -> str:
        return os.path.join(self.data_dir, name + SUFFIX)

    def exists(self, name: str) -> bool:
        return _valid_name(name) and os.path.exists(self.path(name))

    def connect(self, name: str) -> sqlite3.Connection:
        """A new SQLite connection to a database file, configured per its logging mode."""
        # uri=True lets ATTACH take the read-only URI of sysmaster_uri(); a plain path is
        # still a plain path.
        conn = sqlite3.connect(self.path(name), isolation_level=None, check_same_thread=False,
                               uri=True)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA case_sensitive_like = ON")
        return conn

    def write_latch(self, name: str) -> Latch:
        """The latch row-lock sessions take around each of their short SQLite write
        transactions on database ``name`` (session_locks.py): they queue here instead of in
        SQLite's busy handler, which sleeps."""
        with self.lock:
            latch = self._latches.get(name)
            if latch is None:
                latch = self._latches[name] = Latch()
            return latch

    def recover(self, name: str, conn: sqlite3.Connection) -> None:
        """At the first open of a database by this process: roll back the transactions a
        previous server process left in its undo log (killed before they ended), and with row
        locks on make sure the undo log exists (features/locks/undo.py)."""
        with self.lock:
            if name in self._recovered:
                return
            conn.execute("PRAGMA busy_timeout = 10000")
            try:
                undo.recover(conn)
                # chunks of captured changes of transactions the kill left uncommitted
                CAPTURE.recover_database(conn)  # (features/cdc/routines.py)
                if self.row_locks:
                    conn.execute(undo.CREATE)
            finally:
                conn.execute("PRAGMA busy_timeout = 0")
            self._recovered.add(name)

    def readonly_uri(self, name: str) -> str:
        """A database file as a read-only SQLite URI (for cross-database reads)."""
        return "file:" + urllib.request.pathname2url(os.path.abspath(self.path(name))) + (
            "?mode=ro")

    def sysmaster_uri(self) -> str:
        """sysmaster as every session attaches it: read-only.

        Why: SQLite's BEGIN IMMEDIATE takes the write lock of every attached database, so a
        session writing in its own database would also lock sysmaster, and CREATE/DROP
        DATABASE (which write sysmaster) in any other session would wait for that transaction
        to end. Sessions only read sysmaster; the Engine writes it on its own connection."""
        return "file:" + urllib.request.pathname2url(os.path.abspath(self.path("sysmaster"))) + (
            "?mode=ro")

    def checkout(self, name: str, state: FunctionState
                 ) -> tuple[sqlite3.Connection, FunctionSlot, Mapping[str, str]]:
        """A ready connection to ``name`` (pooled or new) whose functions serve ``state``, and
        the database's ``_ifx_meta`` (logging mode, owner, incarnation).

        Only a new connection pays for the set-up: functions, ``ATTACH sysmaster`` (every
        database can read it, as in Informix), the catalog upgrade of a file made by an older
        server, reading ``_ifx_meta`` (never written after CREATE DATABASE) and ``synchronous``
        (which follows the logging mode). A pooled connection had all of that done by the
        session that opened it; the per-session state (busy_timeout, the function slot) is
        set by the caller and here. A file that is not an ifxwire database raises
        sqlite3.Error and its connection is closed, never pooled."""
        with self.lock:
            for key, (db, conn, slot) in reversed(self._idle.items()):
                if db == name:
                    meta = self._meta.get(name)
                    if meta is None:
                        break  # forgotten (dropped and created again): open afresh
                    del self._idle[key]
                    slot.state = state
                    return conn, slot, meta
        conn = self.connect(name)
        try:
            slot = register(conn, state)
            meta = cat.meta(conn)
            if name != "sysmaster":
                conn.execute("ATTACH DATABASE ? AS sysmaster", (self.sysmaster_uri(),))
                catalog_upgrade.upgrade_catalog(conn)
            durable = meta.get("logged") == "1" and meta.get("buffered") != "1"
            conn.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        except BaseException:
            conn.close()
            raise
        with self.lock:
            self._meta[name] = meta
        return conn, slot, meta

    def checkin(self, name: str, conn: sqlite3.Connection, slot: FunctionSlot) -> None:
        """Take back a session's connection: keep it if it can be made clean, else close it.

        Called before the session detaches from ``name``, so ``drop_database`` (which needs
        no session attached, and closes the idle connections) cannot run in between."""
        slot.state = _NO_SESSION
        slot.lock_session = None
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            # A statement still stepping on the connection (a cursor that was not reset) would
            # keep its read snapshot for the next session, and once made its create_function
            # fail ("Error creating function"): such a connection is closed, not pooled. The
            # test: SQLite clears an interrupt when a statement starts only if no other is
            # active (sqlite3Step), so our own statement fails "interrupted" exactly then.
            # (Replacing a function would tell too, but expires every prepared statement of
            # the connection: the next session would compile its statements again.)
            conn.interrupt()
            conn.execute("SELECT 1").fetchall()
            # The row-lock triggers (session_locks.py) stay: the next session rebinds them.
            clean = conn.execute(
                "SELECT count(*) FROM temp.sqlite_master WHERE name NOT LIKE '\\_ifxlk\\_%' "
                "ESCAPE '\\' AND name NOT LIKE '\\_ifxcdc\\_%' ESCAPE '\\' "
                "AND name NOT LIKE '\\_ifxcl\\_%' ESCAPE '\\'").fetchone()[0] == 0
        except sqlite3.Error:
            clean = False
        evicted: sqlite3.Connection | None = conn
        if clean:
            with self.lock:
                if not self._closed:
                    mine = [k for k, (db, _, _) in self._idle.items() if db == name]
                    if len(mine) >= IDLE_PER_DATABASE:
                        evicted = self._idle.pop(mine[0])[1]
                    elif len(self._idle) >= IDLE_TOTAL:
                        evicted = self._idle.popitem(last=False)[1][1]
                    else:
                        evicted = None
                    self._idle_seq += 1
                    self._idle[self._idle_seq] = (name, conn, slot)
        # Closed outside the lock: closing a database's last connection checkpoints its WAL,
        # disk work that must not stall every session's plan and schema lookups.
        if evicted is not None:
            evicted.close()

    def _take_idle(self, name: str | None = None) -> list[sqlite3.Connection]:
        """Remove the idle connections of ``name`` (all if None) from the pool; under
        self.lock. The caller closes them."""
        keys = [k for k, v in self._idle.items() if name is None or v[0] == name]
        return [self._idle.pop(k)[1] for k in keys]

    def _create_file(self, name: str, *, logged: bool, buffered: bool, ansi: bool, locale: str,
                     owner: str, sysmaster: bool = False) -> None:
        tmp = self.path(name) + ".creating"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(tmp + suffix):
                os.remove(tmp + suffix)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN")
            cat.create_catalog(conn, name, locale, sysmaster, logged, ansi)
            conn.executemany("INSERT INTO _ifx_meta VALUES (?, ?)", [
                ("buffered", str(int(buffered))), ("owner", owner),
                ("incarnation", uuid.uuid4().hex)])
            conn.execute("COMMIT")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA journal_mode = DELETE")
        finally:
            conn.close()
        os.replace(tmp, self.path(name))

    def _register(self, name: str, owner: str, logged: bool, buffered: bool, ansi: bool,
                  locale: str = DEFAULT_LOCALE) -> None:
        conn = self.connect("sysmaster")
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute(
                "INSERT INTO sysdatabases VALUES (?, 0, ?, ?, ?, ?, ?, 0, 0, 0)",
                (name, owner, date_number(dt.date.today()), int(logged), int(buffered),
                 int(ansi)))
            # The database's own locale (was always the default; libsqli's sysdbslocale_dump
            # lists it).
            conn.execute("INSERT INTO sysdbslocale VALUES (?, ?)", (name, locale))
        finally:
            conn.close()

    # ---- databases ---------------------------------------------------------------------------
    def database_names(self) -> list[str]:
        """Every database of the server, sysmaster first, then in the order they were created
        (SQ_DBLIST: docs/PROTOCOL.md §5; the client sorts them if it wants them sorted)."""
        conn = self.connect("sysmaster")
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            rows = conn.execute("SELECT name FROM sysdatabases ORDER BY rowid").fetchall()
        finally:
            conn.close()
        return [str(r[0]).strip() for r in rows if self.exists(str(r[0]).strip())]

    def create_database(self, name: str, owner: str, logged: bool, buffered: bool, ansi: bool,
                        locale: str) -> None:
        name = name.lower()
        if not _valid_name(name):
            raise EngineError(sc.CANNOT_CREATE_DB, near=name)
        with self.lock:
            if os.path.exists(self.path(name)):
                raise EngineError(sc.CANNOT_CREATE_DB, sc.ISAM_DUPLICATE, near=name)
            self._create_file(name, logged=logged, buffered=buffered, ansi=ansi, locale=locale,
                              owner=owner)
            self._register(name, owner, logged, buffered, ansi, locale)

    def drop_database(self, name: str, session_id: int) -> None:
        name = name.lower()
        with self.lock:
            if name == "sysmaster" or not self.exists(name):
                raise EngineError(sc.NO_DATABASE, sc.ISAM_NOT_FOUND, near=name)
            users = self.open_dbs.get(name, {})
            if session_id in users:
                raise EngineError(sc.DB_OPEN_DROP, near=name)
            if users:
                raise EngineError(sc.DB_IN_USE, near=name)
            for conn in self._take_idle(name):
                conn.close()  # under the lock: the files go next, no session may open them
            self.sequences.forget(self.path(name))
            self._recovered.discard(name)
            sb = sb_path(self.path(name))
            for p in [self.path(name) + suffix for suffix in ("", "-wal", "-shm", "-seq")] + [
                    sb, sb + "-journal"]:
                if os.path.exists(p):
                    os.remove(p)
            conn = self.connect("sysmaster")
            try:
                conn.execute("PRAGMA busy_timeout = 10000")
                conn.execute("DELETE FROM sysdatabases WHERE name = ?", (name,))
                conn.execute("DELETE FROM sysdbslocale WHERE dbs_dbsname = ?", (name,))
            finally:
                conn.close()
            self._forget(name)

    def _forget(self, name: str) -> None:
        self._meta.pop(name, None)
        for cache in (self.plans, self.schemas):
            for key in [k for k in cache if k and k[0] == name]:
                del cache[key]
        self.latest_schemas.pop(name, None)

    def attach_session(self, name: str, session_id: int, exclusive: bool) -> None:
        with self.lock:
            users = self.open_dbs.setdefault(name, {})
            others = {s: ex for s, ex in users.items() if s != session_id}
            if (exclusive and others) or any(others.values()):
                raise EngineError(sc.DB_IN_USE, near=name)
            users[session_id] = exclusive

    def detach_session(self, name: str, session_id: int) -> None:
        with self.lock:
            users = self.open_dbs.get(name)
            if users is not None:
                users.pop(session_id, None)
                if not users:
                    del self.open_dbs[name]

    # ---- caches ------------------------------------------------------------------------------
    def cached_plan(self, key: tuple[object, ...]) -> Plan | None:
        with self.lock:
            plan = self.plans.get(key)
            if plan is not None:
                self.plans.move_to_end(key)
            return plan

    def store_plan(self, key: tuple[object, ...], plan: Plan) -> None:
        with self.lock:
            self.plans[key] = plan
            if len(self.plans) > PLAN_CACHE_SIZE:
                self.plans.popitem(last=False)

    def cached_schema(self, key: tuple[object, ...]) -> cat.Schema | None:
        with self.lock:
            return self.schemas.get(key)

    def store_schema(self, key: tuple[object, ...], schema: cat.Schema) -> None:
        with self.lock:
            self.schemas[key] = schema
            latest = self.latest_schemas.get(key[0])
            if schema.stamp >= 0 and (latest is None or schema.stamp >= latest.stamp):
                self.latest_schemas[key[0]] = schema
            if len(self.schemas) > SCHEMA_CACHE_SIZE:
                self.schemas.popitem(last=False)

    # ---- sessions ----------------------------------------------------------------------------
    def session(self, user: str, env: Mapping[str, str]) -> EngineSession:
        with self.lock:
            sid = self._next_session
            self._next_session += 1
        session = EngineSession(self, user, env, sid)
        if self.row_locks:
            self.live[sid] = session  # LAST COMMITTED reads others' before-images
        return session

    def close(self) -> None:
        """Release the engine; a private data_dir (data_dir=None) is removed."""
        if self._closed:
            return
        self._closed = True
        with self.lock:
            self.plans.clear()
            self.schemas.clear()
            idle = self._take_idle()
        for conn in idle:
            conn.close()
        shm, self.sys_shm = self.sys_shm, None
        if shm is not None:
            with contextlib.suppress(BufferError):
                shm.close()
        keeper, self._sys_keeper = self._sys_keeper, None
        if keeper is not None:
            keeper.close()
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)
