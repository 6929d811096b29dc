"""Smart large objects: objects, reference counts and triggers in the database file; data in
its sbspace file.

The database's own SQLite file decides what exists, inside its transactions: a LO written in a
transaction that rolls back is gone with it; a committed one survives ``kill -9`` exactly as the
rows do (WAL, ``synchronous`` per logging mode). The bytes live in the database's sbspace file
(``sbspace.py``: 64 KiB pages, rollback journal, written once), in pieces the database maps;
``sbspace.py`` explains how the two files commit as one.

Tables (private, never in ``systables``):

* ``_ifx_lo``: one row per object: its 72-byte locator (``types/smartlob.py``), kind (10 BLOB,
  11 CLOB), size, the number of rows that reference it, ``pending`` (created and never yet stored
  in a row) with the creating ``owner`` (engine instance and session), sbspace and times.
* ``_ifx_lo_map``: piece ``seq`` of object ``loid`` (``CHUNK`` bytes each) is sbspace piece
  ``cid``, keyed by ``loid << 32 | seq`` in the table's rowid (an object's pieces are one key
  range). A piece that is not mapped reads as zeros (a write past the end leaves a hole, as on
  Informix).
* ``_ifx_lo_garbage``: sbspace pieces no map row refers to any more (triggers on the map add
  them), deleted from the sbspace after the transaction commits (``collect``).

Reference counting follows Informix (ESQL/C ``ifx_lo_stat_refcnt``; DataBlade API "Managing the
reference count"): storing a locator in a BLOB/CLOB column adds one, deleting or overwriting it
takes one away, and an object whose count falls to zero is deleted. SQLite triggers on every
table with BLOB/CLOB columns do the counting, inside the statement, so every path (INSERT …
SELECT, UPDATE, DELETE, cascades, executemany) counts and a rollback undoes it; ``DROP TABLE`` and
``ALTER TABLE DROP`` subtract their rows first (``table_dropping``/``columns_altering``). An object
never stored in a row (``pending``) lives until its session ends, when ``free_pending`` removes
it, as a real server removes a LO "created during a connection … whose reference count is not
incremented" when the connection terminates; objects left pending by a server that was killed are
removed the first time this server process opens the database (``sweep``).

Large BYTE and TEXT values live here too: a value over ``INLINE_MAX`` bytes (SQLite holds at
most 1e9 bytes in one value, and a whole value would be read into memory) is stored as an
object, and its column holds a reference (``BlobRef`` once loaded): in a BYTE column the
object's id as an INTEGER (inline BYTE values are BLOBs), in a TEXT column its locator as a
BLOB (inline TEXT values are text, and TEXT affinity would turn an INTEGER into text). The same
triggers count those references. Smaller values stay inline, where SQL can use them.

As on Informix, an object whose count falls to zero is freed when the transaction that
decremented it commits (a trigger lists it in ``_ifx_lo_unref``; ``free_unreferenced`` runs just
before the commit): until then its locator still reads, and a row that stores it again in the
same transaction keeps it. Outside a transaction the statement's own commit frees it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .....protocol.codes import XID_BLOB, XID_CLOB, TypeCode
from .....types.smartlob import LOCATOR_SIZE, Locator
from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...core.hooks import EXTENSIONS
from ...core.ifxtypes import IfxType
from ...schema.catalog import TableInfo, quote
from ...schema.hooks import FEATURES
from .sbspace import Sbspace, sb_path

#: Size of one stored piece of LO data.
CHUNK = 64 * 1024
#: Pieces fetched from (or stored in) the sbspace per statement: 1 MiB.
READ_BATCH = 16
#: Garbage pieces collected per round.
GARBAGE_BATCH = 4096
#: The emulated default sbspace (SBSPACENAME); ``PUT … IN (name)`` must name it.
DEFAULT_SBSPACE = "sbspace1"
SBSPACES = (DEFAULT_SBSPACE,)
#: Largest smart large object: 4 TB on Informix (Guide to SQL: Reference, BLOB).
MAX_LO_SIZE = 4 * 1024**4
#: BYTE/TEXT values up to this size are stored inline; larger ones as objects (BlobRef).
INLINE_MAX = 1024 * 1024


SCHEMA = (
    "CREATE TABLE IF NOT EXISTS _ifx_lo (loid INTEGER PRIMARY KEY AUTOINCREMENT, "
    "locator BLOB NOT NULL UNIQUE, kind INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0, "
    "refcount INTEGER NOT NULL DEFAULT 0, pending INTEGER NOT NULL DEFAULT 1, "
    "owner TEXT NOT NULL DEFAULT '', sbspace TEXT NOT NULL, flags INTEGER NOT NULL DEFAULT 0, "
    "created INTEGER NOT NULL, modified INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS _ifx_lo_map (key INTEGER PRIMARY KEY, cid INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS _ifx_lo_map_cid ON _ifx_lo_map (cid)",
    "CREATE TABLE IF NOT EXISTS _ifx_lo_garbage (cid INTEGER PRIMARY KEY)",
    # A piece an object stops using is garbage once the transaction commits.
    "CREATE TRIGGER IF NOT EXISTS _ifx_lo_unmap AFTER DELETE ON _ifx_lo_map BEGIN "
    "INSERT OR IGNORE INTO _ifx_lo_garbage (cid) VALUES (OLD.cid); END",
    "CREATE TRIGGER IF NOT EXISTS _ifx_lo_remap AFTER UPDATE OF cid ON _ifx_lo_map "
    "WHEN OLD.cid <> NEW.cid BEGIN "
    "INSERT OR IGNORE INTO _ifx_lo_garbage (cid) VALUES (OLD.cid); END",
    # The last reference gone: the object is freed when the transaction commits, unless a row
    # took it again meanwhile (``free_unreferenced``; pending objects wait for their session's
    # end).
    "CREATE TABLE IF NOT EXISTS _ifx_lo_unref (loid INTEGER PRIMARY KEY)",
    "CREATE TRIGGER IF NOT EXISTS _ifx_lo_unref_mark AFTER UPDATE OF refcount ON _ifx_lo "
    "WHEN NEW.refcount <= 0 AND NEW.pending = 0 BEGIN "
    "INSERT OR IGNORE INTO _ifx_lo_unref (loid) VALUES (NEW.loid); END",
)
#: The trigger of the first layouts, which freed an object inside the transaction.
_OLD_FREE_TRIGGER = "DROP TRIGGER IF EXISTS _ifx_lo_free"
#: Bits of a data key below the object's id: the piece's sequence number (4 TB / 64 KiB needs
#: 26 of them).
_SEQ_BITS = 32
#: Largest object id a key can hold.
_MAX_LOID = (1 << 31) - 1

# --- Informix error codes of smart-LOB operations (sqlcodes.py has the evidence) ---------------


def lo_error(isam: int, near: str = "") -> EngineError:
    """-9810 "Smart-large-object error." with the ISAM code that says what went wrong."""
    return EngineError(sc.LO_ERROR, isam, near=near)


def stale_locator() -> EngineError:
    return lo_error(sc.ISAM_LO_DELETED)


def bad_locator() -> EngineError:
    return lo_error(sc.ISAM_LO_BAD_HANDLE)


# --- schema ----------------------------------------------------------------------------------


def create_schema(conn: sqlite3.Connection) -> None:
    for sql in SCHEMA:
        conn.execute(sql)


def free_unreferenced(conn: sqlite3.Connection) -> int:
    """Free the objects whose last reference went in the transaction about to commit and
    that no row took again since (Informix frees them at commit: a locator read before the
    DELETE still works until then). Runs inside that transaction; returns how many."""
    rows = conn.execute("SELECT u.loid FROM _ifx_lo_unref u JOIN _ifx_lo o ON o.loid = u.loid "
                        "WHERE o.refcount <= 0 AND o.pending = 0").fetchall()
    delete_objects(conn, [int(r[0]) for r in rows])
    conn.execute("DELETE FROM _ifx_lo_unref")
    return len(rows)


def housekeeping_due(conn: sqlite3.Connection) -> tuple[bool, bool]:
    """(objects to free, garbage to collect): whether ``_ifx_lo_unref`` and
    ``_ifx_lo_garbage`` have rows, in one SELECT inside the transaction about to commit.
    Why: a transaction that touched no object ran ``free_unreferenced``'s SELECT and DELETE
    and, after its commit, ``LoStore.collect``'s SELECT at every COMMIT, several statements
    of Python and SQLite work per transaction for nothing (issue 26, 8 writers)."""
    row = conn.execute("SELECT EXISTS (SELECT 1 FROM _ifx_lo_unref), "
                       "EXISTS (SELECT 1 FROM _ifx_lo_garbage)").fetchone()
    return bool(row[0]), bool(row[1])


def delete_objects(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Delete objects and their map (their pieces become garbage: ``_ifx_lo_unmap``)."""
    for loid in ids:
        conn.execute("DELETE FROM _ifx_lo_map WHERE key BETWEEN ? AND ?",
                     (loid << _SEQ_BITS, _key(loid, _SEQ_MASK)))
        conn.execute("DELETE FROM _ifx_lo WHERE loid = ?", (loid,))


def has_schema(conn: sqlite3.Connection, table: str = "_ifx_lo") -> bool:
    """Whether the database has the smart-LOB tables (``table``: one added by a later layout,
    which ``sweep`` adds when the database is first used by this server process)."""
    return conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone() is not None


def lob_columns(info: TableInfo) -> list[str]:
    return [c.name for c in info.columns if c.type.is_smart_lob]


def blob_columns(info: TableInfo) -> list[str]:
    """BYTE/TEXT columns, whose large values are stored objects."""
    return [c.name for c in info.columns if c.type.code in (TypeCode.BYTE, TypeCode.TEXT)]


def _is_text(info: TableInfo, column: str) -> bool:
    return info.by_name[column].type.code == TypeCode.TEXT


def _trigger_name(kind: str, table: str) -> str:
    return quote(f"_ifx_lo_{kind}_{table}")


def _ref(column: str, row: str, delta: str) -> str:
    extra = ", pending = 0" if delta == "+ 1" else ""
    return (f"UPDATE _ifx_lo SET refcount = refcount {delta}{extra} "
            f"WHERE locator = {row}.{quote(column)};")


def _check(column: str) -> str:
    # A locator must name an object of this database: the UDF raises -9810/-12097 for one
    # that does not (registered on every connection by functions.register).
    col = f"NEW.{quote(column)}"
    return (f"SELECT ifx_lo_stale({col}) WHERE {col} IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM _ifx_lo WHERE locator = {col});")


def check_put(put: Sequence[tuple[str, Sequence[str]]], types: dict[str, IfxType]) -> None:
    """``PUT col IN (sbspace, …)`` of CREATE TABLE: the column must be a BLOB/CLOB (-9819)
    and every space our emulated sbspace (-9820); storage options are accepted as given."""
    for column, spaces in put:
        t = types.get(column)
        if t is None:
            raise EngineError(sc.NO_COLUMN, near=column)
        if not t.is_smart_lob:
            raise EngineError(sc.NOT_LO_COLUMN, near=column)
        for space in spaces:
            if space.lower() not in SBSPACES:
                raise EngineError(sc.NO_SBSPACE, near=space)


def _blob_ref(column: str, row: str, delta: str, text: bool) -> str:
    """A BYTE/TEXT column's reference count: an INTEGER in a BYTE column, a BLOB in a TEXT
    column is an object (BlobRef)."""
    extra = ", pending = 0" if delta == "+ 1" else ""
    col = f"{row}.{quote(column)}"
    kind, key = ("blob", "locator") if text else ("integer", "loid")
    return (f"UPDATE _ifx_lo SET refcount = refcount {delta}{extra} "
            f"WHERE typeof({col}) = '{kind}' AND {key} = {col};")


def create_triggers(conn: sqlite3.Connection, info: TableInfo) -> None:
    """The reference-counting triggers of a table with BLOB/CLOB/BYTE/TEXT columns."""
    lobs = lob_columns(info)
    blobs = blob_columns(info)
    drop_triggers(conn, info)
    if not lobs and not blobs:
        return
    if not info.temp:
        create_schema(conn)
    temp = "TEMP " if info.temp else ""
    table = quote(info.name)
    inserts = " ".join([_check(c) + _ref(c, "NEW", "+ 1") for c in lobs]
                       + [_blob_ref(c, "NEW", "+ 1", _is_text(info, c)) for c in blobs])
    conn.execute(f"CREATE {temp}TRIGGER {_trigger_name('i', info.name)} AFTER INSERT ON {table} "
                 f"BEGIN {inserts} END")
    deletes = " ".join([_ref(c, "OLD", "- 1") for c in lobs]
                       + [_blob_ref(c, "OLD", "- 1", _is_text(info, c)) for c in blobs])
    conn.execute(f"CREATE {temp}TRIGGER {_trigger_name('d', info.name)} AFTER DELETE ON {table} "
                 f"BEGIN {deletes} END")
    for i, c in enumerate(lobs + blobs):
        q = quote(c)
        text = c in blobs and _is_text(info, c)
        body = (f"{_check(c)} {_ref(c, 'NEW', '+ 1')} {_ref(c, 'OLD', '- 1')}" if c in lobs
                else f"{_blob_ref(c, 'NEW', '+ 1', text)} {_blob_ref(c, 'OLD', '- 1', text)}")
        conn.execute(
            f"CREATE {temp}TRIGGER {_trigger_name(f'u{i}', info.name)} AFTER UPDATE OF {q} ON "
            f"{table} WHEN OLD.{q} IS NOT NEW.{q} BEGIN {body} END")


def drop_triggers(conn: sqlite3.Connection, info: TableInfo) -> None:
    schema = "temp" if info.temp else "main"
    names = [r[0] for r in conn.execute(
        f"SELECT name FROM {schema}.sqlite_master WHERE type = 'trigger' AND tbl_name = ? "
        "AND name LIKE '\\_ifx\\_lo\\_%' ESCAPE '\\'", (info.name,))]
    for name in names:
        conn.execute(f"DROP TRIGGER {schema}.{quote(name)}")


def _release_column(conn: sqlite3.Connection, info: TableInfo, column: str) -> None:
    """Subtract the references the rows of ``column`` hold (before a DROP)."""
    table = ("temp." if info.temp else "") + quote(info.name)
    col = quote(column)
    if column in lob_columns(info):
        where, key = f"{col} IS NOT NULL", "locator"
    elif _is_text(info, column):
        where, key = f"typeof({col}) = 'blob'", "locator"
    else:
        where, key = f"typeof({col}) = 'integer'", "loid"
    conn.execute(
        f"UPDATE _ifx_lo SET refcount = refcount - r.n FROM (SELECT {col} AS ref, count(*) AS n "
        f"FROM {table} WHERE {where} GROUP BY {col}) AS r WHERE _ifx_lo.{key} = r.ref")


def table_dropping(conn: sqlite3.Connection, info: TableInfo) -> None:
    """DROP TABLE: its rows stop referencing their objects."""
    cols = lob_columns(info) + blob_columns(info)
    if cols and has_schema(conn):
        for c in cols:
            _release_column(conn, info, c)


def columns_altering(conn: sqlite3.Connection, info: TableInfo,
                     kept: dict[str, IfxType]) -> None:
    """ALTER TABLE (rebuilt by alter.py): release the BLOB/CLOB/BYTE/TEXT columns it drops.
    ``kept`` maps each old column name still there to its new type; changing the type of such
    a column is not done (its stored objects would need converting)."""
    for column in lob_columns(info) + blob_columns(info):
        new = kept.get(column)
        if new is None:
            if has_schema(conn):
                _release_column(conn, info, column)
        elif new.code != info.by_name[column].type.code:
            raise not_implemented(f"ALTER TABLE MODIFY of the {column} column to another type")


def columns_changed(conn: sqlite3.Connection, info: TableInfo) -> None:
    """After ALTER TABLE ADD/DROP: triggers for the table's current BLOB/CLOB columns."""
    create_triggers(conn, info)


# --- data ------------------------------------------------------------------------------------


@dataclass(slots=True)
class LoRow:
    loid: int
    locator: bytes
    kind: int
    size: int
    refcount: int
    pending: bool
    sbspace: str
    modified: int


class LoStore:
    """Data operations on the objects of one database connection. No transaction handling:
    callers run writes under the session's write lock (``EngineSession.run_write``)."""

    def __init__(self, conn: sqlite3.Connection, incarnation: str,
                 sb: Sbspace | None = None) -> None:
        self.conn = conn
        self.incarnation = bytes.fromhex(incarnation)[:16].ljust(16, b"\0") if _is_hex(
            incarnation) else incarnation.encode()[:16].ljust(16, b"\0")
        # The data file: the session's (lo_session.py), or one opened here for inspection.
        self.sb = sb if sb is not None else Sbspace(sb_path(database_file(conn)))

    # ---- objects --------------------------------------------------------------------------
    def create(self, kind: int, owner: str, sbspace: str = DEFAULT_SBSPACE,
               flags: int = 0) -> LoRow:
        if kind not in (XID_BLOB, XID_CLOB):
            raise lo_error(sc.ISAM_LO_BAD_FLAGS)
        if not has_schema(self.conn):
            create_schema(self.conn)
        now = int(time.time())
        cur = self.conn.execute(
            "INSERT INTO _ifx_lo (locator, kind, owner, sbspace, flags, created, modified) "
            "VALUES (randomblob(72), ?, ?, ?, ?, ?, ?)", (kind, owner, sbspace, flags, now, now))
        loid = int(cur.lastrowid or 0)
        locator = Locator(kind, loid, self.incarnation, os.urandom(8)).pack()
        self.conn.execute("UPDATE _ifx_lo SET locator = ? WHERE loid = ?", (locator, loid))
        return LoRow(loid, locator, kind, 0, 0, True, sbspace, now)

    def find(self, locator: bytes | bytearray | memoryview) -> LoRow:
        """The object a client's locator names; -9810 with -12116 for bytes that are no
        locator of ours, -12097 for one whose object is gone (or is another database's)."""
        loc = Locator.unpack(locator)
        if loc is None:
            raise bad_locator()
        if loc.incarnation != self.incarnation:
            raise stale_locator()
        row = self.get(loc.loid)
        if row is None or row.locator != bytes(locator):
            raise stale_locator()
        return row

    def get(self, loid: int) -> LoRow | None:
        if not has_schema(self.conn):
            return None
        r = self.conn.execute(
            "SELECT loid, locator, kind, size, refcount, pending, sbspace, modified FROM _ifx_lo "
            "WHERE loid = ?", (loid,)).fetchone()
        if r is None:
            return None
        return LoRow(int(r[0]), bytes(r[1]), int(r[2]), int(r[3]), int(r[4]), bool(r[5]),
                     str(r[6]), int(r[7]))

    def size(self, loid: int) -> int:
        row = self.get(loid)
        if row is None:
            raise stale_locator()
        return row.size

    def free_if_unreferenced(self, loid: int) -> None:
        """An object made for a statement's BYTE/TEXT value that no row took in the end."""
        self.release(loid)

    def release(self, loid: int) -> None:
        """``ifx_lo_release``: an object no row references is deleted now."""
        if self.conn.execute("SELECT 1 FROM _ifx_lo WHERE loid = ? AND refcount <= 0",
                             (loid,)).fetchone() is not None:
            self._delete([loid])

    def pending_of(self, owner: str) -> list[int]:
        """The never-stored objects this owner created (a read: no write lock needed)."""
        if not has_schema(self.conn):
            return []
        return [r[0] for r in self.conn.execute(
            "SELECT loid FROM _ifx_lo WHERE pending = 1 AND owner = ?", (owner,))]

    def free_pending(self, owner: str) -> int:
        """Delete the never-stored objects this owner created (its session ends)."""
        ids = self.pending_of(owner)
        self._delete(ids)
        return len(ids)

    def sweep(self, instance: str) -> int:
        """Delete pending objects of sessions of other (ended, killed) server processes, and
        sbspace pieces written by a process killed before its transaction committed (above
        every piece the database refers to); data of the first storage layout moves into
        the sbspace."""
        if not has_schema(self.conn):
            return 0
        create_schema(self.conn)  # tables added since the database was made
        self._migrate()
        self.conn.execute(_OLD_FREE_TRIGGER)  # freeing moved to the commit
        ids = [r[0] for r in self.conn.execute(
            "SELECT loid FROM _ifx_lo WHERE pending = 1 AND owner NOT LIKE ? ESCAPE '\\'",
            (instance.replace("_", "\\_").replace("%", "\\%") + ":%",))]
        self._delete(ids)
        top = self.conn.execute("SELECT max(coalesce((SELECT max(cid) FROM _ifx_lo_map), 0), "
                                "coalesce((SELECT max(cid) FROM _ifx_lo_garbage), 0))"
                                ).fetchone()[0]
        self.sb.delete_after(int(top or 0))
        return len(ids)

    def _migrate(self) -> None:
        """Pieces stored in the database file by the first layout (``_ifx_lo_chunk``) move to
        the sbspace."""
        conn = self.conn
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                        "'_ifx_lo_chunk'").fetchone() is None:
            return
        rows = conn.execute("SELECT loid, seq, data FROM _ifx_lo_chunk ORDER BY loid, seq")
        for loid, seq, data in rows:
            self._map([(_key(loid, seq), data)])
        conn.execute("DROP TABLE _ifx_lo_chunk")

    def _delete(self, ids: Sequence[int]) -> None:
        delete_objects(self.conn, ids)

    # ---- data -----------------------------------------------------------------------------
    def iter_read(self, loid: int, offset: int, n: int) -> Iterator[bytes | memoryview]:
        """The bytes ``[offset, offset + n)`` (clipped to the object's size) piece by piece:
        one SELECT over the map's key range (one snapshot for the whole read), the data
        fetched from the sbspace ``READ_BATCH`` pieces at a time, so a reader of any size
        holds one batch."""
        end = min(self.size(loid), offset + n)
        if offset >= end:
            return
        first, skip = divmod(offset, CHUNK)
        last = (end - 1) // CHUNK
        base = loid << _SEQ_BITS
        sb = self.sb
        with sb.reading():
            cur = self.conn.execute(
                "SELECT key, cid FROM _ifx_lo_map WHERE key BETWEEN ? AND ?",
                (base + first, base + last))
            try:
                seq = first
                while batch := cur.fetchmany(READ_BATCH):
                    data = sb.get([cid for _, cid in batch])
                    for key, cid in batch:
                        while seq < key - base:  # a hole: zeros
                            yield _zeros(seq, first, skip, last, end)
                            seq += 1
                        piece = data.get(cid)
                        if piece is None:  # freed meanwhile by another session's commit
                            raise stale_locator()
                        lo = skip if seq == first else 0
                        hi = end - seq * CHUNK if seq == last else CHUNK
                        if lo == 0 and hi == len(piece):
                            yield piece
                        elif hi <= len(piece):
                            yield memoryview(piece)[lo:hi]
                        else:  # a piece shorter than its place: the rest reads as zeros
                            yield bytes(piece[lo:hi]) + bytes(hi - max(lo, len(piece)))
                        seq += 1
                while seq <= last:
                    yield _zeros(seq, first, skip, last, end)
                    seq += 1
            finally:
                cur.close()

    def read(self, loid: int, offset: int, n: int) -> bytes:
        return b"".join(self.iter_read(loid, offset, n))

    def write(self, loid: int, offset: int, data: bytes | bytearray | memoryview) -> int:
        """Write ``data`` at ``offset``; returns the bytes written. Whole pieces go to the
        sbspace as they are (``READ_BATCH`` per statement); a piece written in part is read,
        patched and stored as a new piece."""
        view = memoryview(data).cast("B")
        n = len(view)
        if offset + n > MAX_LO_SIZE or loid > _MAX_LOID:
            raise lo_error(sc.ISAM_LO_TOO_BIG)
        base = loid << _SEQ_BITS
        pieces: list[tuple[int, object]] = []
        done = 0
        pos = offset
        while done < n:
            seq, at = divmod(pos, CHUNK)
            take = min(CHUNK - at, n - done)
            part: bytes | memoryview = view[done : done + take]
            if take < CHUNK:  # a piece in part: what is around it stays
                part = self._patched(base + seq, at, part)
            pieces.append((base + seq, part))
            if len(pieces) == READ_BATCH:
                self._map(pieces)
                pieces = []
            done += take
            pos += take
        if pieces:
            self._map(pieces)
        self.conn.execute("UPDATE _ifx_lo SET size = max(size, ?), modified = ? WHERE loid = ?",
                          (offset + n, int(time.time()), loid))
        return n

    def _map(self, pieces: Sequence[tuple[int, object]]) -> None:
        """Store pieces in the sbspace and point their keys at them (the pieces they
        replace become garbage: ``_ifx_lo_remap``)."""
        first = self.sb.put([data for _, data in pieces])
        self.conn.executemany(
            "INSERT INTO _ifx_lo_map (key, cid) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET cid = excluded.cid",
            ((key, first + i) for i, (key, _) in enumerate(pieces)))

    def _piece(self, key: int) -> bytes | None:
        r = self.conn.execute("SELECT cid FROM _ifx_lo_map WHERE key = ?", (key,)).fetchone()
        if r is None:
            return None
        with self.sb.reading():
            piece = self.sb.get([int(r[0])]).get(int(r[0]))
        if piece is None:
            raise stale_locator()
        return piece

    def _patched(self, key: int, at: int, part: bytes | memoryview) -> bytes | memoryview:
        """The piece at ``key`` with ``part`` written at ``at`` (a hole before it: zeros)."""
        old = self._piece(key)
        if old is None and at == 0:
            return part
        piece = bytearray(old or b"")
        if len(piece) < at:
            piece += bytes(at - len(piece))
        piece[at : at + len(part)] = part
        return bytes(piece)

    def truncate(self, loid: int, size: int) -> None:
        current = self.size(loid)
        if size < 0 or size > current:
            raise lo_error(sc.ISAM_LO_BAD_TRUNCATE)
        seq, at = divmod(size, CHUNK)
        base = loid << _SEQ_BITS
        self.conn.execute("DELETE FROM _ifx_lo_map WHERE key BETWEEN ? AND ?",
                          (base + seq + (1 if at else 0), base + _SEQ_MASK))
        if at:
            old = self._piece(base + seq)
            if old is not None and len(old) > at:
                self._map([(base + seq, old[:at])])
        self.conn.execute("UPDATE _ifx_lo SET size = ?, modified = ? WHERE loid = ?",
                          (size, int(time.time()), loid))

    def copy(self, src: LoRow, kind: int, owner: str) -> LoRow:
        """A new object holding the data of ``src`` (LOCOPY): its pieces are copied (a piece
        belongs to one object, so freeing one never touches another's)."""
        new = self.create(kind, owner, src.sbspace)
        if src.size:
            shift = (new.loid - src.loid) << _SEQ_BITS
            cur = self.conn.execute("SELECT key, cid FROM _ifx_lo_map WHERE key BETWEEN ? AND ?",
                                    (src.loid << _SEQ_BITS, _key(src.loid, _SEQ_MASK)))
            while batch := cur.fetchmany(READ_BATCH):
                with self.sb.reading():
                    data = self.sb.get([cid for _, cid in batch])
                if len(data) != len(batch):
                    raise stale_locator()
                self._map([(key + shift, data[cid]) for key, cid in batch])
        self.conn.execute("UPDATE _ifx_lo SET size = ? WHERE loid = ?", (src.size, new.loid))
        new.size = src.size
        return new

    # ---- after the transaction ------------------------------------------------------------
    def orphans(self, first: int, stop: int) -> list[int]:
        """The sbspace pieces ``[first, stop)`` nothing maps (written, then dropped by a
        savepoint rollback or replaced within the transaction)."""
        used = {int(r[0]) for r in self.conn.execute(
            "SELECT cid FROM _ifx_lo_map WHERE cid >= ? AND cid < ?", (first, stop))}
        return [c for c in range(first, stop) if c not in used]

    def collect(self) -> None:
        """Delete the committed garbage from the sbspace, then forget it (outside any
        transaction; when the sbspace or the database is busy, a later commit does it)."""
        conn = self.conn
        while True:
            cids = [int(r[0]) for r in conn.execute(
                "SELECT cid FROM _ifx_lo_garbage LIMIT ?", (GARBAGE_BATCH,))]
            if not cids or not self.sb.collect(cids):
                return
            wait = conn.execute("PRAGMA busy_timeout").fetchone()[0]
            conn.execute("PRAGMA busy_timeout = 0")
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return  # another writer: the pieces are gone; the list is cleared later
            finally:
                conn.execute(f"PRAGMA busy_timeout = {int(wait)}")
            try:
                conn.executemany("DELETE FROM _ifx_lo_garbage WHERE cid = ?",
                                 ((c,) for c in cids))
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            if len(cids) < GARBAGE_BATCH:
                return

    # ---- inspection (tests, sysmaster) ------------------------------------------------------
    def counts(self) -> tuple[int, int]:
        """(objects, pieces) stored for this database: its objects, and the pieces in its
        sbspace file (garbage not yet collected included)."""
        if not has_schema(self.conn):
            return 0, 0
        objects = self.conn.execute("SELECT count(*) FROM _ifx_lo").fetchone()[0]
        return int(objects), self.sb.count()


_SEQ_MASK = (1 << _SEQ_BITS) - 1


def _key(loid: int, seq: int) -> int:
    return (loid << _SEQ_BITS) | seq


def _zeros(seq: int, first: int, skip: int, last: int, end: int) -> bytes:
    """A missing piece's share of a read: zeros."""
    lo = skip if seq == first else 0
    hi = end - seq * CHUNK if seq == last else CHUNK
    return bytes(hi - lo)


def database_file(conn: sqlite3.Connection) -> str:
    """The file of a connection's main database."""
    for _, name, path in conn.execute("PRAGMA database_list"):
        if name == "main":
            return str(path)
    return ""


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return len(text) >= 2


def check_locator(value: object) -> bytes:
    """A client's value for a BLOB/CLOB column (``convert.storer``): the 72 locator bytes, or
    its 144-digit text form (the type's input function reads hex, which is what a server sends
    a client that did not ask for the binary form).

    BLOB and CLOB share one locator structure: JDBC creates both with
    ``ifx_lo_create(ifx_lo_spec, integer, blob)``, so the column, not the locator, says which
    it is."""
    if isinstance(value, str):
        try:
            value = bytes.fromhex(value)
        except ValueError:
            raise bad_locator() from None
    if not isinstance(value, (bytes, bytearray, memoryview)) or len(value) != LOCATOR_SIZE:
        raise bad_locator()
    if Locator.unpack(value) is None:
        raise bad_locator()
    return bytes(value)


FEATURES.lob_schema = create_schema  # the catalogue calls it for a new database

EXTENSIONS.check_locator = check_locator  # convert.storer checks BLOB/CLOB values with it
