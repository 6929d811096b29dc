"""The server's change log and its capture sessions (one ``Hub`` per Engine).

Informix reads captured changes from its logical log; this server keeps its own log of the
transactions that wrote tables with full-row logging, in ``<data_dir>/syscdcv1.cdclog`` (a
SQLite file, synchronous=FULL). A session's DML hands each changed row to ``Pending`` (the
hook in triggers.run_dml); when its transaction ends (LoSession.after_end) the transaction is
appended here with its sequence numbers: BEGINTX, one per change, then COMMTX or RBTX, in
commit order. Sequence numbers only grow, and the log survives a restart, so a client can
resume from one (docs/CDC_SERVER.md "Sequence numbers").

A committed transaction is never lost to a crash between its database COMMIT and its entry
here (docs/CDC_SERVER.md "Crash safety"): just before the COMMIT its numbers are reserved and the
transaction is written into ``_ifx_cdc_stash`` of the data database, inside the same SQLite
transaction (``stash``); after the COMMIT it is appended here; a hub that opens copies every
stash row that the log lacks (``recover``). Readers see the log only below the lowest number
still reserved (``bound``), so a transaction appended late is never skipped.

A capture session (``CdcSession``, capture.py) renders the transactions that touch its tables
into the record bytes of protocol/cdc.py, with its own table identifiers and columns, and
hands them to the smart-large-object read of its session id (LoSession.iter_read); the hub
keeps the sessions by id.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..... import _cdcaccel
from .capture import CdcSession


class Engine(Protocol):
    """What a hub needs of the session layer's Engine (named here so that this feature does
    not import the layer above it): the data directory its log file lives in."""

    @property
    def data_dir(self) -> str: ...  # read-only: so the Engine class may stand for it

LOG_NAME = "syscdcv1.cdclog"
#: Session ids are smart-LO descriptors (a 16-bit field of SQ_LODATA, read signed), taken from
#: the top of the range downwards; LoSession numbers its own from 1 up.
FIRST_SESSION_ID = 24576
#: A database file's name ends so (session/engine.py SUFFIX; this layer may not import it).
DB_SUFFIX = ".ifxdb"
#: The private table of a data database that holds its committed, not yet logged
#: transactions (``_ifx_*`` tables are not in systables, schema/catalog.py).
STASH = "_ifx_cdc_stash"
STASH_CREATE = (f"CREATE TABLE IF NOT EXISTS {STASH} (begin_seq INTEGER PRIMARY KEY, "
                "txid INTEGER, begin_time INTEGER, end_time INTEGER, user_id INTEGER, "
                "tables TEXT, body TEXT)")
#: Seconds current_position waits for reserved transactions to be logged.
SETTLE = 10.0
LAST_SESSION_ID = 32767
#: A log page: Debezium reads syslogs.used in pages of 4096 (its LSN is used << 12).
PAGE = 4096
#: Transactions fetched from the log per query while a session catches up.
BATCH = 64

_HUBS: weakref.WeakKeyDictionary[Engine, Hub] = weakref.WeakKeyDictionary()
_HUBS_LOCK = threading.Lock()


def hub_of(engine: Engine) -> Hub:
    with _HUBS_LOCK:
        hub = _HUBS.get(engine)
        if hub is None:
            hub = _HUBS[engine] = Hub(os.path.join(engine.data_dir, LOG_NAME), engine.data_dir)
        return hub


_CHECKED: weakref.WeakSet[Engine] = weakref.WeakSet()


def existing_hub(engine: Engine) -> Hub | None:
    """The engine's hub if CDC was ever used in its data directory (no file made otherwise):
    DML asks this for every statement."""
    hub = _HUBS.get(engine)
    if hub is not None or engine in _CHECKED:
        return hub
    with _HUBS_LOCK:
        # Under the lock until the hub exists: a second session's first DML must not find
        # the engine checked and the hub not yet made (its rows would not be captured).
        hub = _HUBS.get(engine)
        if hub is None and os.path.exists(os.path.join(engine.data_dir, LOG_NAME)):
            hub = _HUBS[engine] = Hub(os.path.join(engine.data_dir, LOG_NAME),
                                      engine.data_dir)
        _CHECKED.add(engine)
        return hub


def _jsonable(v: object) -> object:
    if isinstance(v, bytes | bytearray | memoryview):
        return {"b": base64.b64encode(bytes(v)).decode("ascii")}
    return v


def _body(changes: Sequence[Change]) -> str:
    return json.dumps([[c.recnum, c.table, [_jsonable(v) for v in c.values]] for c in changes])


def _unjson(v: object) -> object:
    if isinstance(v, dict):
        return base64.b64decode(v["b"])
    return v


def _changes(body: str) -> list[Change]:
    """The changes of a log body. The compiled parser (ifxwire._cdcaccel), when in use,
    takes the bodies of integers, plain strings and NULLs and gives the same Changes; any
    other body (and every body on the pure path) goes through json."""
    if _PARSE is not None:
        got = _PARSE(body, Change)
        if got is not None:
            return got
    if _BYTES_MARK not in body:  # no BYTE value in it: the values as JSON gave them
        return [Change(c[0], c[1], tuple(c[2])) for c in json.loads(body)]
    return [Change(c[0], c[1], tuple([_unjson(v) if v.__class__ is dict else v for v in c[2]]))
            for c in json.loads(body)]


#: ``_changes``' compiled parser, or None (the pure path)
_PARSE = _cdcaccel.parse_changes()

#: How ``_body`` writes a bytes value (``_jsonable``): ``json.dumps`` writes a dict so, and
#: a string holding these characters as ``{\"b\": `` (its quotes escaped), so a body
#: without them has no bytes value to turn back.
_BYTES_MARK = '{"b": '



def _copy_chunks(src: sqlite3.Connection, token: int, log: sqlite3.Connection,
                 begin_seq: int) -> None:
    """A chunked transaction's chunks from its database into the log, one at a time."""
    try:
        rows = src.execute(f"SELECT first, body FROM main.{CHUNKS} WHERE token = ?"
                           " ORDER BY first", (token,))
    except sqlite3.OperationalError:  # no chunk table: nothing survived (a rollback)
        return
    for first, body in rows:
        log.execute("INSERT OR IGNORE INTO txchunk VALUES (?, ?, ?)", (begin_seq, first, body))


@dataclass(slots=True)
class Change:
    recnum: int
    table: str  # "db:table" (lower case)
    values: tuple[object, ...]  # SQLite storage values of every column, in table order


#: Captured changes a transaction keeps in memory before it spills them into its database
#: (``Pending.spill``): memory per session stays about one chunk, whatever the transaction's size.
#: ``IFXWIRE_CDC_CHUNK`` sets it (the tests make chunks of a few rows).
CHUNK = int(os.environ.get("IFXWIRE_CDC_CHUNK") or 1000)
#: The private table of a data database holding the spilled chunks of its open transactions
#: (``token`` tells transactions apart; ``first`` is the chunk's first change's index).
CHUNKS = "_ifx_cdc_chunk"
CHUNKS_CREATE = (f"CREATE TABLE IF NOT EXISTS main.{CHUNKS} (token INTEGER, first INTEGER, "
                 "body TEXT, PRIMARY KEY (token, first))")


def sweep_chunks(conn: sqlite3.Connection) -> int:
    """Delete the chunks no stash row names (returns how many), in their own SQLite
    transaction. Only while no transaction of the database is open (its first open by a
    server process): under row locks a transaction's chunks are committed statement by
    statement, and a kill -9 leaves those of one that never committed, which the undo log's
    recovery has just taken the rows of (docs/CDC_SERVER.md "Row locks")."""
    names = {r[0] for r in conn.execute(
        "SELECT name FROM main.sqlite_master WHERE name IN (?, ?)", (CHUNKS, STASH))}
    if CHUNKS not in names:
        return 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        keep: set[int] = set()
        if STASH in names:
            keep = {int(json.loads(b)["chunked"]) for (b,) in conn.execute(
                f"SELECT body FROM main.{STASH} WHERE body LIKE '{{%'")}
        gone = [t for (t,) in conn.execute(f"SELECT DISTINCT token FROM main.{CHUNKS}")
                if t not in keep]
        for t in gone:
            conn.execute(f"DELETE FROM main.{CHUNKS} WHERE token = ?", (t,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(gone)


@dataclass
class Pending:
    """The captured changes of one EngineSession's open transaction.

    Changes are numbered by their index in the transaction (``count`` is the next one). Up to
    about CHUNK of them are held in memory (``segs``: runs of consecutive indexes); beyond that
    they are spilled into ``_ifx_cdc_chunk`` of the session's database inside its open SQLite
    transaction, so that they commit with it, and a rollback (of the transaction, of a
    statement's savepoint, of ROLLBACK TO SAVEPOINT) drops them with the rows they describe.
    A spill inside SQLite savepoints may only take changes made since the innermost one was
    set (``floor``): a chunk written after a savepoint but holding earlier changes would be
    dropped with it. Statements set one each (triggers._guarded), marked here by ``marks``;
    user savepoints flush the memory before theirs (``savepoints``)."""

    #: table key -> [(column name, IfxType key)] as the rows were written
    shapes: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    start: int = 0
    #: its numbers, reserved just before its COMMIT and stashed with it (Hub.reserve)
    txn: Txn | None = None
    count: int = 0
    segs: list[tuple[int, list[Change]]] = field(default_factory=list)
    #: spilled chunks: (first index, number of changes, tables), in index order
    chunks: list[tuple[int, int, frozenset[str]]] = field(default_factory=list)
    #: the change index at the start of each statement now running (innermost last)
    marks: list[int] = field(default_factory=list)
    #: user savepoints: (name, change index when set)
    savepoints: list[tuple[str, int]] = field(default_factory=list)
    #: changes below this index are in a chunk or may not be spilled yet
    spilled_to: int = 0
    token: int = 0
    conn: sqlite3.Connection | None = None
    #: set when the transaction went to the log before its SQLite ROLLBACK (Hub.append)
    logged: bool = False

    @property
    def changes(self) -> list[Change]:
        """The changes held in memory, in order (all of them when nothing was spilled)."""
        if len(self.segs) == 1:
            return self.segs[0][1]
        return [c for _, run in self.segs for c in run]

    def add(self, change: Change) -> None:
        segs = self.segs
        if segs and segs[-1][0] + len(segs[-1][1]) == self.count:
            segs[-1][1].append(change)
        else:
            segs.append((self.count, [change]))
        self.count += 1
        if self.count - max(self.spilled_to, self.floor()) >= CHUNK and self.conn is not None:
            self.spill(self.conn)

    def due(self) -> bool:
        """Whether the changes held in memory make a chunk (a statement is starting)."""
        return self.count - self.spilled_to >= CHUNK

    def floor(self) -> int:
        low = self.marks[-1] if self.marks else 0
        return max(low, self.savepoints[-1][1]) if self.savepoints else low

    def spill(self, conn: sqlite3.Connection, floor: int | None = None) -> None:
        """The changes in memory from ``floor`` on (the innermost savepoint's start) go
        into chunks of the open SQLite transaction; earlier ones stay in memory."""
        if not conn.in_transaction:
            return  # no transaction the chunk could commit with: kept in memory
        low = self.floor() if floor is None else floor
        keep: list[tuple[int, list[Change]]] = []
        out: list[tuple[int, list[Change]]] = []
        for first, run in self.segs:
            if first + len(run) <= low:
                keep.append((first, run))
            elif first >= low:
                out.append((first, run))
            else:
                keep.append((first, run[:low - first]))
                out.append((low, run[low - first:]))
        if not out:
            return
        if not self.token:
            self.token = int.from_bytes(os.urandom(7), "big") or 1
        conn.execute(CHUNKS_CREATE)
        for first, run in out:
            conn.execute(f"INSERT INTO main.{CHUNKS} VALUES (?, ?, ?)",
                         (self.token, first, _body(run)))
            self.chunks.append((first, len(run), frozenset(c.table for c in run)))
        self.chunks.sort(key=lambda c: c[0])
        self.segs = keep
        self.spilled_to = self.count

    def drop_from(self, at: int) -> None:
        """A rollback to change index ``at`` (SQLite dropped the chunks written since)."""
        segs = []
        for first, run in self.segs:
            if first < at:
                segs.append((first, run[:at - first]))
        self.segs = segs
        self.chunks = [c for c in self.chunks if c[0] < at]
        self.count = min(self.count, at)
        self.spilled_to = min(self.spilled_to, at)

    def touched(self) -> set[str]:
        """The tables the transaction's changes are of."""
        out = {c.table for _, run in self.segs for c in run}
        for _, _, tables in self.chunks:
            out |= tables
        return out


@dataclass(slots=True)
class Txn:
    begin_seq: int
    txid: int
    committed: bool
    begin_time: int
    end_time: int
    user_id: int
    changes: list[Change]  # all of them, or none when ``chunked``
    shapes: dict[str, list[tuple[str, str]]]
    count: int = -1  # number of changes (len(changes) unless chunked)
    chunked: bool = False  # its changes are in the log's ``txchunk`` rows
    #: the shapes as the log holds them (JSON): transactions with the same text share their
    #: record renderers (``CdcSession._changes``); "" for none
    shapes_text: str = ""

    def __post_init__(self) -> None:
        if self.count < 0:
            self.count = len(self.changes)

    @property
    def end_seq(self) -> int:
        return self.begin_seq + self.count + 1


class Hub:
    """The change log of one server (engine) and its capture sessions."""

    def __init__(self, path: str, data_dir: str | None = None) -> None:
        self.lock = threading.Condition()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS txlog (begin_seq INTEGER PRIMARY KEY, "
                        "end_seq INTEGER, txid INTEGER, committed INTEGER, begin_time INTEGER,"
                        " end_time INTEGER, user_id INTEGER, tables TEXT, body TEXT)")
        # The changes of a chunked transaction (its txlog body is []), CHUNK or so a row.
        self.db.execute("CREATE TABLE IF NOT EXISTS txchunk (begin_seq INTEGER, first INTEGER,"
                        " body TEXT, PRIMARY KEY (begin_seq, first))")
        self.db.execute("CREATE TABLE IF NOT EXISTS fullrow (tabkey TEXT PRIMARY KEY)")
        # The least sequence number the next transaction may get: raised by current_position.
        self.db.execute("CREATE TABLE IF NOT EXISTS floor (seq INTEGER)")
        row = self.db.execute("SELECT MAX(end_seq), MAX(txid), MAX(begin_seq) FROM txlog"
                              ).fetchone()
        floor = self.db.execute("SELECT MAX(seq) FROM floor").fetchone()[0]
        self.last_begin = int(row[2] or 0)
        self.next_seq = max(int(row[0] or 0) + 1, int(floor or 0))
        self.next_txid = int(row[1] or 0) + 1
        #: begin_seq of the transactions reserved and not yet appended (readers stop below)
        self.inflight: set[int] = set()
        if data_dir is not None:
            self.recover(data_dir)
        self.fullrow: set[str] = {r[0] for r in self.db.execute("SELECT tabkey FROM fullrow")}
        self.sessions: dict[int, CdcSession] = {}
        #: the shapes of the transactions read (``read_from``), by their text in the log
        self._shapes_read: dict[str, dict[str, list[tuple[str, str]]]] = {}

    # ---- full-row logging ------------------------------------------------------------------
    def set_fullrow(self, tabkey: str, on: bool) -> None:
        with self.lock:
            if on:
                self.db.execute("INSERT OR IGNORE INTO fullrow VALUES (?)", (tabkey,))
                self.fullrow.add(tabkey)
            else:
                self.db.execute("DELETE FROM fullrow WHERE tabkey = ?", (tabkey,))
                self.fullrow.discard(tabkey)

    # ---- the log ---------------------------------------------------------------------------
    def append(self, pending: Pending, committed: bool, user_id: int,
               conn: sqlite3.Connection | None = None) -> None:
        """A transaction's end: its changes get their sequence numbers (unless reserved
        before its COMMIT) and are logged. A chunked one's spilled chunks are read from
        ``conn`` (its database, where they committed, or before its ROLLBACK)."""
        if not pending.count or pending.logged:
            return
        with self.lock:
            txn = pending.txn
            if txn is None:
                txn = self._number(pending, user_id)
            txn.committed = committed
            try:
                self._write(txn, pending, conn)
            finally:
                pending.logged = True
                self.inflight.discard(txn.begin_seq)
                self.lock.notify_all()

    def _number(self, pending: Pending, user_id: int) -> Txn:
        now = int(time.time())
        chunked = bool(pending.chunks)
        shapes = pending.shapes
        if chunked:  # readers decide from the shapes whether it is theirs (no body to scan)
            touched = pending.touched()
            shapes = {k: v for k, v in shapes.items() if k in touched}
        txn = Txn(self.next_seq, self.next_txid, True, pending.start or now, now,
                  user_id, [] if chunked else pending.changes, shapes, pending.count, chunked)
        self.next_seq = txn.end_seq + 1
        self.next_txid += 1
        return txn

    def _write(self, txn: Txn, pending: Pending | None = None,
               conn: sqlite3.Connection | None = None) -> None:
        if not txn.chunked:
            self._header(txn, _body(txn.changes))
            return
        # one log transaction: the header and every chunk, copied a chunk at a time
        self.db.execute("BEGIN")
        try:
            if self._header(txn, "[]") and pending is not None:
                if conn is not None and pending.token:
                    _copy_chunks(conn, pending.token, self.db, txn.begin_seq)
                for first, run in pending.segs:  # none after a stash; a rollback's rest
                    self.db.execute("INSERT OR IGNORE INTO txchunk VALUES (?, ?, ?)",
                                    (txn.begin_seq, first, _body(run)))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _header(self, txn: Txn, body: str) -> bool:
        cur = self.db.execute("INSERT OR IGNORE INTO txlog VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              (txn.begin_seq, txn.end_seq, txn.txid, int(txn.committed),
                               txn.begin_time, txn.end_time, txn.user_id,
                               json.dumps(txn.shapes), body))
        self.last_begin = max(self.last_begin, txn.begin_seq)
        return bool(cur.rowcount)

    # ---- crash safety (docs/CDC_SERVER.md "Crash safety") ----------------------------------
    def bound(self) -> int:
        """Readers see the log below this: the lowest number reserved by a transaction not
        yet appended (its COMMIT may still come), else everything."""
        return min(self.inflight) if self.inflight else self.next_seq

    def stash(self, conn: sqlite3.Connection, pending: Pending, user_id: int) -> None:
        """Just before the data database's COMMIT: the transaction gets its numbers and is
        written into that database's stash in the same SQLite transaction, so that it is
        logged if and only if it committed. Stash rows already in the log go (the log's
        rows below ``bound`` are all appended)."""
        if pending.chunks:  # chunked: the rest of its changes join their chunks
            pending.marks.clear()
            pending.spill(conn, 0)
        with self.lock:
            below = self.bound()
            txn = self._number(pending, user_id)
            self.inflight.add(txn.begin_seq)
            pending.txn = txn
        conn.execute(STASH_CREATE)
        old = conn.execute(f"SELECT body FROM {STASH} WHERE begin_seq < ? AND body LIKE '{{%'",
                           (below,)).fetchall()
        for (body,) in old:  # the chunks of chunked transactions already logged
            conn.execute(f"DELETE FROM main.{CHUNKS} WHERE token = ?",
                         (json.loads(body)["chunked"],))
        conn.execute(f"DELETE FROM {STASH} WHERE begin_seq < ?", (below,))
        # a chunked transaction's body names its chunks: {"chunked": token, "n": changes}
        body = (json.dumps({"chunked": pending.token, "n": txn.count}) if txn.chunked
                else _body(txn.changes))
        conn.execute(f"INSERT INTO {STASH} VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (txn.begin_seq, txn.txid, txn.begin_time, txn.end_time, user_id,
                      json.dumps(txn.shapes), body))

    def release(self, txn: Txn) -> None:
        """A reserved transaction that will never be appended (its session went between the
        reservation and the end): readers must not wait for it."""
        with self.lock:
            self.inflight.discard(txn.begin_seq)
            self.lock.notify_all()

    def recover(self, data_dir: str) -> None:
        """At open: the stashed transactions of every database that the log lacks (a crash
        came between their COMMIT and their append), in their numbers' order, which is their
        commit order. Idempotent: a row the log has is left (INSERT OR IGNORE on begin_seq),
        and numbers are never given twice because the next ones start after these."""
        found: list[tuple[Any, ...]] = []  # the stash rows, and their database's file last
        for name in sorted(os.listdir(data_dir)):
            if not name.endswith(DB_SUFFIX):
                continue
            try:
                conn = sqlite3.connect(os.path.join(data_dir, name), isolation_level=None)
            except sqlite3.Error:
                continue
            try:
                conn.execute("PRAGMA busy_timeout = 10000")
                if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?",
                                (STASH,)).fetchone():
                    found.extend((*r, os.path.join(data_dir, name)) for r in conn.execute(
                        "SELECT begin_seq, txid, begin_time, end_time, user_id, tables, body"
                        f" FROM {STASH}"))
            except sqlite3.Error:
                continue
            finally:
                conn.close()
        found.sort()
        for r in found:
            if self.db.execute("SELECT 1 FROM txlog WHERE begin_seq = ?", (r[0],)).fetchone():
                continue
            chunked = r[6].startswith("{")
            n = json.loads(r[6])["n"] if chunked else len(json.loads(r[6]))
            self.db.execute("BEGIN")
            try:
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO txlog VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)",
                    (r[0], r[0] + n + 1, r[1], r[2], r[3], r[4], r[5],
                     "[]" if chunked else r[6]))
                if chunked:
                    conn = sqlite3.connect(r[7], isolation_level=None)
                    try:
                        conn.execute("PRAGMA busy_timeout = 10000")
                        _copy_chunks(conn, json.loads(r[6])["chunked"], self.db, r[0])
                    finally:
                        conn.close()
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            if cur.rowcount:
                self.next_seq = max(self.next_seq, r[0] + n + 2)
                self.next_txid = max(self.next_txid, int(r[1]) + 1)
                self.last_begin = max(self.last_begin, r[0])

    def current_position(self) -> int:
        """The log's current position as an Informix LSN is read from sysmaster:syslogs,
        where a client (Debezium) takes ``(uniqid << 32) + (used << 12)``: the next page
        boundary, to which the next transaction's BEGINTX is moved (sequence numbers may skip,
        as log positions do), so that activating a session there replays exactly the
        transactions after the read. Persisted, so a restart never numbers below it."""
        with self.lock:
            # A transaction numbered but not yet logged is committing now: wait for it, so
            # that every one below the position is in the database a snapshot then reads.
            deadline = time.monotonic() + SETTLE
            while self.inflight and time.monotonic() < deadline:
                self.lock.wait(0.05)
            page = -(-self.next_seq // PAGE) * PAGE
            if page != self.next_seq:
                self.db.execute("DELETE FROM floor")
                self.db.execute("INSERT INTO floor VALUES (?)", (page,))
                self.next_seq = page
            return page

    def read_from(self, begin_seq: int, limit: int = BATCH) -> list[Txn]:
        """Transactions whose BEGINTX sequence is ``begin_seq`` or later, in order (a chunked
        one without its changes: ``read_chunk``)."""
        with self.lock:
            rows = self.db.execute(
                "SELECT begin_seq, txid, committed, begin_time, end_time, user_id, tables, body,"
                " end_seq FROM txlog WHERE begin_seq >= ? AND begin_seq < ? ORDER BY begin_seq"
                " LIMIT ?", (begin_seq, self.bound(), limit)).fetchall()
        out = []
        known = self._shapes_read
        for r in rows:
            shapes = known.get(r[6])
            if shapes is None:  # parsed once per distinct text (the same tables: the same)
                if len(known) >= 256:
                    known.clear()
                shapes = known[r[6]] = {k: [(n, t) for n, t in v]
                                        for k, v in json.loads(r[6]).items()}
            changes = _changes(r[7])
            count = r[8] - r[0] - 1
            out.append(Txn(r[0], r[1], bool(r[2]), r[3], r[4], r[5], changes, shapes,
                           count, len(changes) < count, r[6]))
        return out

    def read_chunk(self, begin_seq: int, first: int) -> tuple[int, list[Change]] | None:
        """The chunk of a chunked transaction that starts at change ``first`` or after."""
        with self.lock:
            row = self.db.execute("SELECT first, body FROM txchunk WHERE begin_seq = ? AND"
                                  " first >= ? ORDER BY first LIMIT 1",
                                  (begin_seq, first)).fetchone()
        return None if row is None else (int(row[0]), _changes(row[1]))

    # ---- capture sessions ------------------------------------------------------------------
    def open_session(self, owner: int, timeout: int, max_recs: int,
                     encoding: str = "utf-8") -> CdcSession:
        with self.lock:
            sid = next((i for i in range(LAST_SESSION_ID, FIRST_SESSION_ID - 1, -1)
                        if i not in self.sessions), None)
            if sid is None:
                raise OverflowError("no capture session id left")
            s = self.sessions[sid] = CdcSession(self, sid, owner, timeout, max_recs, encoding)
            return s

    def close_session(self, sid: int) -> None:
        with self.lock:
            s = self.sessions.pop(sid, None)
            if s is not None:
                s.closed = True
                self.lock.notify_all()

    def close_owned(self, owner: int) -> None:
        """The EngineSession that opened them has gone: so have its capture sessions."""
        with self.lock:
            for sid in [i for i, s in self.sessions.items() if s.owner == owner]:
                self.close_session(sid)

    def captured(self, tabkey: str) -> bool:
        return tabkey in self.fullrow
