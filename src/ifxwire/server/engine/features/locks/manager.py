"""The engine's lock table: row and table locks held by sessions until their transaction ends.

Why in memory and not in SQLite: SQLite has one writer per file and no row locks. With row
locks on (docs/SERVER.md, "Locks and isolation"), each statement is its own short SQLite
transaction, and what Informix calls a lock lives here, shared by every session of the
Engine (one process serves a data directory). A lock is keyed by (database, table, key),
where the key is the rowid of a table in LOCK MODE ROW and the rowid's page for one in
LOCK MODE PAGE (the session computes it: ``TableInfo.rows_per_page``).
Row locks are exclusive (a write) or update locks (a FOR UPDATE fetch of a row the session
has not written: ``update_row``), which COMMITTED READ and CURSOR STABILITY readers pass:
Informix's U lock ("SELECT in an update cursor") admits an S request and refuses U and X
ones (Guide to SQL: Tutorial 14.10, "The behavior of the lock types", ids_sqt_400); without
RETAIN UPDATE LOCKS the cursor's next fetch releases it (``release_update``, ids_prf_431).
A REPEATABLE READ reader takes a shared (S) lock on every row it examines
(``share_row``, ``share_function``; ``_Table.shared``), which writers meet and update
locks pass, and a *phantom guard* on each table it read (``guard``), which other sessions'
INSERTs meet: Informix refuses an insert that "meets the search criteria of your query"
(ids_sqs_1205), here any insert into the table (coarser, never kinder). Table locks are
SHARE or EXCLUSIVE (LOCK TABLE, and a REPEATABLE READ reader's share lock where its
table cannot be filtered). A CURSOR
STABILITY cursor holds a *cursor lock*: a shared lock on the row it is on, taken when the
row is fetched and dropped when the cursor moves on or closes, not at the transaction's end
(``cursor_move``); writers and LOCK TABLE … EXCLUSIVE meet it as any
other session's lock, readers do not.

A session that holds a table's EXCLUSIVE lock takes no row locks on it: "in exclusive mode,
the database server places only one exclusive lock on the table, no matter how many rows it
updates" (Guide to SQL: Tutorial, ids_sqt_373; under SHARE it still adds a lock for every row
it writes). The table lock lasts to the transaction's end (UNLOCK TABLE inside one is -327),
so the rows stay covered. Why it matters: a bulk load of 1M rows held 1M entries here (about
120 MB of server memory) where the manual's advice, LOCK TABLE … IN EXCLUSIVE MODE, holds one.

A session that meets another's lock gets the holder's id back; it may then ``wait`` for that
session to release something, and a wait that would close a circle of waiting sessions is a
deadlock (Informix -143), found by following the waits-for edges.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


class Deadlock(Exception):
    """Waiting would close a circle of waiting sessions."""


@dataclass
class _Table:
    """The locks on one table."""

    rows: dict[int, int] = field(default_factory=dict)  # key -> holder session
    per_owner: dict[int, int] = field(default_factory=dict)  # session -> row locks held
    share: set[int] = field(default_factory=set)  # sessions holding a table SHARE lock
    exclusive: int | None = None  # the session holding a table EXCLUSIVE lock
    cursor: dict[int, list[int]] = field(default_factory=dict)  # key -> CS cursors' sessions
    update: dict[int, int] = field(default_factory=dict)  # key in rows held for update only
    #: key -> the session (an int) or sessions (a set, when several) holding a REPEATABLE
    #: READ shared (S) lock on it to their transaction's end (an int: no set made per row)
    shared: dict[int, int | set[int]] = field(default_factory=dict)
    #: sessions whose REPEATABLE READ query read the table in their transaction: an INSERT
    #: of another session meets them (the phantom guard, module docstring)
    guard: set[int] = field(default_factory=set)

    def empty(self) -> bool:
        return (not self.rows and not self.share and self.exclusive is None
                and not self.cursor and not self.shared and not self.guard)


#: Per table, what ``share_function``'s quick path needs (``LockTable.arm``): the table's
#: entry, its rows per lock (None: one) and whether the query is a FOR UPDATE cursor's.
Armed = dict[str, tuple[_Table, int | None, bool]]


def _shared_holder(t: _Table, sid: int, key: int) -> int | None:
    """Another session's REPEATABLE READ shared lock on ``key``."""
    owners = t.shared.get(key)
    if owners is None:
        return None
    if isinstance(owners, int):
        return owners if owners != sid else None
    for owner in owners:
        if owner != sid:
            return owner
    return None


def _add_shared(t: _Table, sid: int, key: int) -> None:
    """(Under the lock table's mutex) ``sid`` holds a shared lock on ``key`` too."""
    owners = t.shared.get(key)
    if owners is None:
        t.shared[key] = sid
    elif isinstance(owners, int):
        if owners != sid:
            t.shared[key] = {owners, sid}
    else:
        owners.add(sid)


def _drop_shared(t: _Table, sid: int) -> None:
    """(Under the lock table's mutex) ``sid``'s shared locks on ``t`` end."""
    for k in list(t.shared):
        owners = t.shared[k]
        if isinstance(owners, int):
            if owners == sid:
                del t.shared[k]
        elif sid in owners:
            owners.discard(sid)
            if len(owners) == 1:
                t.shared[k] = next(iter(owners))


def _guard_holder(t: _Table, sid: int) -> int | None:
    """Another session's REPEATABLE READ phantom guard on the table (stops an INSERT)."""
    for owner in t.guard:
        if owner != sid:
            return owner
    return None


def _cursor_holder(t: _Table, sid: int, key: int | None = None) -> int | None:
    """Another session's CURSOR STABILITY lock on ``key`` (any key when None)."""
    if not t.cursor:
        return None
    for owners in t.cursor.values() if key is None else (t.cursor.get(key, ()),):
        for owner in owners:
            if owner != sid:
                return owner
    return None


def _table_holder(t: _Table, sid: int) -> int | None:
    """Another session's table lock (EXCLUSIVE or SHARE) on ``t``, which stops a row write."""
    if t.exclusive is not None and t.exclusive != sid:
        return t.exclusive
    for other in t.share:
        if other != sid:
            return other
    return None


class LockTable:
    """Every lock of one Engine; thread safe (one condition variable)."""

    def __init__(self) -> None:
        #: The lock table's mutex, the condition's own lock (``sharer``'s closures take it
        #: directly: a C-level ``with``, where the Condition's is a Python call)
        self._mutex = threading.Lock()
        self._cond = threading.Condition(self._mutex)
        self._tables: dict[tuple[str, str], _Table] = {}
        self._held: dict[int, set[tuple[str, str]]] = {}  # session -> tables it locks in
        self._waits: dict[int, int] = {}  # session -> the session it waits for
        self._cursor_locks: dict[int, int] = {}  # session -> CURSOR STABILITY locks held
        #: Per holder, bumped at each of its releases: its waiters wake and try again.
        self._released: dict[int, int] = {}
        #: Per session, the holder it last met and that holder's ``_released`` then, recorded
        #: in the critical section that found the conflict: ``wait`` returns at once when the
        #: holder released something since (else a release in between was a lost wake-up).
        self._seen: dict[int, tuple[int, int]] = {}
        #: The rows a ROLLBACK gave back, per (db, table): key -> (sequence, session, time)
        #: (``release(rolled_back=True)``). A reader's SQLite snapshot may have begun before
        #: that rollback committed and still hold the rolled-back values; one whose
        #: ``read_mark`` is older than the row's sequence meets the row as still locked.
        self._undone: dict[tuple[str, str], dict[int, tuple[int, int, float]]] = {}
        self._undo_seq = 0

    # ---- taking ------------------------------------------------------------------------------
    def _met(self, sid: int, holder: int | None) -> int | None:
        """(Under the condition's lock) ``sid`` met ``holder``'s lock: note the generation."""
        if holder is not None:
            self._seen[sid] = (holder, self._released.get(holder, 0))
        return holder

    def _let_go(self, sid: int) -> None:
        """(Under the condition's lock) ``sid`` released something: wake its waiters only."""
        self._released[sid] = self._released.get(sid, 0) + 1
        if sid in self._waits.values():
            self._cond.notify_all()

    def _table(self, db: str, table: str) -> _Table:
        key = (db, table)
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = _Table()
        return t

    def row(self, sid: int, db: str, table: str, key: int, keep: bool,
            share_ok: bool = False, insert: bool = False) -> int | None:
        """Lock a row for writing: None when taken (or already ours), else the holder. With
        ``keep`` False only the check is made (a write outside a transaction, which commits
        at once and holds nothing). ``share_ok``: an update lock's request, which another
        session's SHARE lock admits (ids_sqt_400: U next to S; the write that follows is
        refused by it). ``insert``: the row is new, and another session's REPEATABLE READ
        phantom guard on the table stops it."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is not None:
                if t.exclusive == sid:
                    return None  # covered by the table lock: no row lock (module docstring)
                other = (t.exclusive if t.exclusive != sid else None) if share_ok else (
                    _table_holder(t, sid))
                if other is not None:
                    return self._met(sid, other)
                holder = t.rows.get(key)
                if holder is not None and holder != sid:
                    return self._met(sid, holder)
                if t.cursor:
                    other = _cursor_holder(t, sid, key)
                    if other is not None:
                        return self._met(sid, other)
                if t.shared and not share_ok:
                    other = _shared_holder(t, sid, key)
                    if other is not None:
                        return self._met(sid, other)
                if insert and t.guard:
                    other = _guard_holder(t, sid)
                    if other is not None:
                        return self._met(sid, other)
                if holder == sid:
                    if not share_ok:  # (a FOR UPDATE fetch again: still an update lock)
                        t.update.pop(key, None)  # written now: exclusive (readers meet it)
                    return None
            if keep:
                t = t or self._table(db, table)
                t.rows[key] = sid
                t.per_owner[sid] = t.per_owner.get(sid, 0) + 1
                self._held.setdefault(sid, set()).add((db, table))
            return None

    def rows(self, sid: int, db: str, table: str, keys: Sequence[int],
             keep: bool) -> int | None:
        """``row`` for many keys of one table at once (a batch of inserted rows: the session
        collects their rowids and locks them after the statement, session_lock_rows.rl_bulk;
        ``keys`` may be a ``range``, a run of consecutive rowids): None when all are taken
        (or ours), else a holder of one of them, and then none is."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is not None:
                if t.exclusive == sid:
                    return None  # covered by the table lock: no row locks (module docstring)
                other = _table_holder(t, sid)
                if other is None and t.guard:
                    other = _guard_holder(t, sid)  # (an INSERT's rows: the phantom guard)
                if other is not None:
                    return self._met(sid, other)
                if t.rows:
                    holders = set(map(t.rows.get, keys))
                    holders.discard(None)
                    holders.discard(sid)
                    if holders:
                        return self._met(sid, holders.pop())
                if t.cursor:
                    # (a run's range: look the cursors' keys up in it, not every key)
                    look = [k for k in t.cursor if k in keys] if isinstance(keys, range) else keys
                    for k in look:
                        other = _cursor_holder(t, sid, k)
                        if other is not None:
                            return self._met(sid, other)
                if t.shared:
                    look = [k for k in t.shared if k in keys] if isinstance(keys, range) else keys
                    for k in look:
                        other = _shared_holder(t, sid, k)
                        if other is not None:
                            return self._met(sid, other)
            if keep and keys:
                t = t or self._table(db, table)
                if t.update:
                    for k in keys:
                        t.update.pop(k, None)
                before = len(t.rows)
                t.rows.update(dict.fromkeys(keys, sid))
                t.per_owner[sid] = t.per_owner.get(sid, 0) + len(t.rows) - before
                self._held.setdefault(sid, set()).add((db, table))
            return None

    def update_row(self, sid: int, db: str, table: str, key: int) -> int | None:
        """A FOR UPDATE fetch's update lock: as ``row`` (a writer's or another update lock
        is met), but readers pass it until the session writes the row."""
        return self.take_update(sid, db, table, key)[0]

    def take_update(self, sid: int, db: str, table: str, key: int) -> tuple[int | None, bool]:
        """``update_row``, and whether this call took the lock (False: refused, or the
        session held the row already, written or for update, or held the table
        EXCLUSIVE): only a lock the fetch took is the cursor's to release
        (``release_update``)."""
        with self._cond:
            t = self._tables.get((db, table))
            mine = t is not None and (t.exclusive == sid or t.rows.get(key) == sid)
        holder = self.row(sid, db, table, key, True, share_ok=True)
        if holder is None and not mine:
            with self._cond:
                t = self._tables.get((db, table))
                if t is not None and t.rows.get(key) == sid:
                    t.update[key] = sid
                    return None, True
        return holder, False

    def release_update(self, sid: int, db: str, table: str, key: int) -> None:
        """A FOR UPDATE cursor moved off row ``key`` without RETAIN UPDATE LOCKS: its
        update lock ends, unless the session wrote the row since (then it is an exclusive
        lock, kept to the transaction's end). Informix: "If you do not update the row, the
        default behavior of the database server is to release the update lock when you
        execute the next FETCH statement" (Performance Guide, "Update cursors",
        ids_prf_431)."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is None or t.update.get(key) != sid or t.rows.get(key) != sid:
                return
            del t.update[key]
            del t.rows[key]
            t.per_owner[sid] -= 1
            self._let_go(sid)

    def _written(self, t: _Table, owner: int, n: int) -> bool:
        """(Under the condition's lock) whether ``owner``'s ``n`` row locks of ``t`` include
        one that is not an update lock only."""
        return n > sum(1 for s in t.update.values() if s == owner) if t.update else n > 0

    def readable(self, sid: int, db: str, table: str, updating: bool = False) -> int | None:
        """Whether a COMMITTED READ / CURSOR STABILITY / REPEATABLE READ reader may read the
        table: None, or a session that holds uncommitted rows of it or an EXCLUSIVE lock
        (or, for an ``updating`` reader, a FOR UPDATE cursor, any row lock)."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is None:
                return None
            if t.exclusive is not None and t.exclusive != sid:
                return self._met(sid, t.exclusive)
            for owner, n in t.per_owner.items():
                if owner != sid and n and (updating or self._written(t, owner, n)):
                    return self._met(sid, owner)
            return None

    def row_holder(self, sid: int, db: str, table: str, key: int,
                   reading: bool = False) -> int | None:
        """Another session holding ``key`` of the table; a ``reading`` caller (a COMMITTED
        READ row check) passes an update lock."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is None:
                return None
            holder = t.rows.get(key)
            if holder is None or holder == sid or (reading and t.update.get(key) == holder):
                return None
            return self._met(sid, holder)

    def others_rows(self, sid: int, db: str, table: str, reading: bool = False) -> list[int]:
        """The row keys of the table other sessions hold (written, when ``reading``)."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is None:
                return []
            return [k for k, s in t.rows.items()
                    if s != sid and not (reading and t.update.get(k) == s)]

    def table(self, sid: int, db: str, table: str, exclusive: bool,
              reading: bool = False) -> int | None:
        """LOCK TABLE: None when taken, else a session in the way. SHARE lets others read and
        share; EXCLUSIVE lets nobody else in (DIRTY READ readers aside). ``reading``: the
        SHARE lock a REPEATABLE READ reader keeps on what it read (session_lock_reads.py),
        which passes another session's update locks as Informix's S lock passes a U lock
        (ids_sqt_400), not its written rows."""
        with self._cond:
            t = self._table(db, table)
            if t.exclusive is not None and t.exclusive != sid:
                return self._met(sid, t.exclusive)
            if exclusive:
                for other in t.share:
                    if other != sid:
                        return self._met(sid, other)
                reader = _cursor_holder(t, sid)
                if reader is None and (t.shared or t.guard):
                    reader = _guard_holder(t, sid)  # (every S lock's holder has the guard)
                    if reader is None:
                        reader = next((o for k in t.shared
                                       if (o := _shared_holder(t, sid, k)) is not None), None)
                if reader is not None:
                    return self._met(sid, reader)
            for owner, n in t.per_owner.items():
                if owner != sid and n and (not reading or self._written(t, owner, n)):
                    return self._met(sid, owner)
            if exclusive:
                t.exclusive = sid
                t.share.discard(sid)
            elif t.exclusive != sid:
                t.share.add(sid)
            self._held.setdefault(sid, set()).add((db, table))
            return None

    def guard(self, sid: int, db: str, table: str) -> int | None:
        """A REPEATABLE READ query of ``sid``'s transaction is about to read the table:
        None, with the phantom guard taken (another session's INSERT into the table meets
        it until ``sid``'s transaction ends), or the session whose EXCLUSIVE table lock is
        in the way (the guard is then not taken)."""
        with self._cond:
            t = self._table(db, table)
            if t.exclusive is not None and t.exclusive != sid:
                return self._met(sid, t.exclusive)
            if sid not in t.guard:
                t.guard.add(sid)
                self._held.setdefault(sid, set()).add((db, table))
            return None

    def share_row(self, sid: int, db: str, table: str, key: int,
                  updating: bool = False) -> int | None:
        """A REPEATABLE READ query examined row ``key``: None, with a shared lock on it
        until ``sid``'s transaction ends, or the session holding it exclusively (its written
        row; an ``updating`` reader, a FOR UPDATE cursor's, meets an update lock too, a
        plain one passes it as S passes U, ids_sqt_400). Call ``guard`` for the table
        first (it records the table as one ``sid`` holds locks in)."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is None:  # (guard was called: only a release in between)
                t = self._table(db, table)
                t.guard.add(sid)
                self._held.setdefault(sid, set()).add((db, table))
            if t.exclusive is not None and t.exclusive != sid:
                return self._met(sid, t.exclusive)
            holder = t.rows.get(key)
            if (holder is not None and holder != sid
                    and (updating or t.update.get(key) != holder)):
                return self._met(sid, holder)
            _add_shared(t, sid, key)
            return None

    def arm(self, armed: Armed, sid: int, db: str,
            table: str, per: int | None, updating: bool = False) -> None:
        """Make ``share_function``'s quick path ready for a REPEATABLE READ query of
        ``sid`` reading ``table``: ``armed[table]`` is the table's entry, its rows per lock
        ``per`` (LOCK MODE PAGE; None: one) and whether the query is a FOR UPDATE cursor's
        (``share_row``'s ``updating``). Call ``guard`` first."""
        with self._cond:
            armed[table] = (self._table(db, table), per, updating)

    def share_function(self, sid: int, armed: Armed,
                       slow: Callable[[str, int], int]) -> Callable[[str, int], int]:
        """The SQL function a REPEATABLE READ query calls for every row it examines
        (``_ifx_rs(table, rowid)``): 1 when the row is share-locked (or already was) on the
        quick path, else what ``slow`` says (the session's ``share_row`` path: a conflict
        to report, or the table not armed, or the guard gone with the transaction). Why a
        closure doing ``share_row``'s work inline: it runs for each row a scan examines,
        where a method call into ``share_row`` (lookups, the Condition's Python-level
        ``with``) cost about 1 us a row (bench/engine_rr_reads.py)."""
        mutex = self._mutex

        def share(table: str, rowid: int) -> int:
            entry = armed.get(table)
            if entry is not None:
                t, per, updating = entry
                key = rowid if per is None else rowid // per
                with mutex:
                    if sid in t.guard and (t.exclusive is None or t.exclusive == sid):
                        holder = t.rows.get(key)
                        if (holder is None or holder == sid
                                or (not updating and t.update.get(key) == holder)):
                            owners = t.shared.get(key)
                            if owners is None:
                                t.shared[key] = sid
                            elif owners != sid:
                                _add_shared(t, sid, key)
                            return 1
            return slow(table, rowid)

        return share

    def holds_table(self, sid: int, db: str, table: str) -> bool:
        with self._cond:
            t = self._tables.get((db, table))
            return t is not None and (t.exclusive == sid or sid in t.share)

    def busy(self, sid: int, db: str, table: str | None = None) -> int | None:
        """Another session holding any lock on the table (all tables of ``db`` if None)."""
        with self._cond:
            for (d, name), t in self._tables.items():
                if d != db or (table is not None and name != table):
                    continue
                other = _table_holder(t, sid)
                if other is None:
                    other = _cursor_holder(t, sid)
                if other is None and t.guard:
                    other = _guard_holder(t, sid)
                if other is not None:
                    return self._met(sid, other)
                for owner, n in t.per_owner.items():
                    if owner != sid and n:
                        return self._met(sid, owner)
            return None

    def cursor_lock(self, sid: int, db: str, table: str, key: int) -> None:
        """A shared lock on row ``key`` until ``cursor_unlock``, never refused (the session
        uses ``cursor_move``, which checks for another session's exclusive lock)."""
        with self._cond:
            self._table(db, table).cursor.setdefault(key, []).append(sid)
            self._cursor_locks[sid] = self._cursor_locks.get(sid, 0) + 1

    def cursor_move(self, sid: int, db: str, table: str, old: int | None,
                    new: int | None) -> int | None:
        """A CURSOR STABILITY cursor moved from row ``old`` to row ``new`` (None: it had
        none, or it closed): one acquisition of the lock a row, and a release wakes only the
        waiters of ``sid`` (REVIEW-locks F2: a scan once woke every waiter of the engine at
        every row, and each re-ran its statement). Returns the session holding ``new``
        exclusively (its row lock or the table's EXCLUSIVE lock), and then nothing changes:
        the row came from the cursor's snapshot, and a shared lock next to another
        session's exclusive one is what Informix refuses (REVIEW-locks F3)."""
        with self._cond:
            if new is not None:
                t = self._tables.get((db, table))
                if t is not None:
                    if t.exclusive is not None and t.exclusive != sid:
                        return t.exclusive
                    holder = t.rows.get(new)
                    if holder is not None and holder != sid and t.update.get(new) != holder:
                        return holder
                self._table(db, table).cursor.setdefault(new, []).append(sid)
                self._cursor_locks[sid] = self._cursor_locks.get(sid, 0) + 1
            if old is not None and self._cursor_drop(sid, db, table, old):
                self._let_go(sid)
            return None

    def cursor_unlock(self, sid: int, db: str, table: str, key: int) -> None:
        """The cursor moved off row ``key`` or closed; a waiting writer may try again."""
        with self._cond:
            if self._cursor_drop(sid, db, table, key):
                self._let_go(sid)

    def _cursor_drop(self, sid: int, db: str, table: str, key: int) -> bool:
        """(Under the condition's lock) drop one cursor lock of ``sid``; whether it had it."""
        t = self._tables.get((db, table))
        owners = None if t is None else t.cursor.get(key)
        if t is None or not owners or sid not in owners:
            return False
        owners.remove(sid)
        if not owners:
            del t.cursor[key]
        n = self._cursor_locks.get(sid, 1) - 1
        if n:
            self._cursor_locks[sid] = n
        else:
            self._cursor_locks.pop(sid, None)
        if t.empty():
            del self._tables[(db, table)]
        return True

    def release_cursors(self, sid: int) -> None:
        """Every cursor lock of ``sid`` (its session went away with cursors open)."""
        with self._cond:
            self._seen.pop(sid, None)  # not waiting: its session or database closes
            if self._drop_cursors(sid):
                self._let_go(sid)

    def _drop_cursors(self, sid: int) -> bool:
        """(Under the condition's lock) drop ``sid``'s cursor locks; whether it had any."""
        if not self._cursor_locks.pop(sid, 0):
            return False
        for key in [k for k, t in self._tables.items() if t.cursor]:
            t = self._tables[key]
            for k in list(t.cursor):
                owners = [s for s in t.cursor[k] if s != sid]
                if owners:
                    t.cursor[k] = owners
                else:
                    del t.cursor[k]
            if t.empty():
                del self._tables[key]
        return True

    # ---- releasing -------------------------------------------------------------------------
    def unlock_table(self, sid: int, db: str, table: str) -> None:
        with self._cond:
            t = self._tables.get((db, table))
            if t is not None:
                if t.exclusive == sid:
                    t.exclusive = None
                t.share.discard(sid)
            self._let_go(sid)

    def read_mark(self) -> int:
        """Taken before a read's snapshot begins: rows given back by rollbacks after it are
        still locked for that read (``undone_since``)."""
        return self._undo_seq

    def undone_since(self, sid: int, db: str, table: str, key: int, mark: int) -> int | None:
        """The session whose ROLLBACK gave ``key`` back after ``mark`` (a reader whose
        snapshot may still show its rolled-back value), or None."""
        rows = self._undone.get((db, table))
        if not rows:
            return None
        with self._cond:
            got = rows.get(key)
            if got is None or got[0] <= mark or got[1] == sid:
                return None
            return self._met(sid, got[1])

    def _note_undone(self, sid: int, key: tuple[str, str], t: _Table) -> None:
        """(Under the condition's lock) ``sid``'s rows of ``t`` were given back by its
        rollback; entries older than a minute go (no read's snapshot is that old here)."""
        self._undo_seq += 1
        now = time.monotonic()
        rows = self._undone.setdefault(key, {})
        for k, s in t.rows.items():
            if s == sid:
                rows[k] = (self._undo_seq, sid, now)
        if len(rows) > 64:
            for k in [k for k, v in rows.items() if now - v[2] > 60]:
                del rows[k]

    def release(self, sid: int, rolled_back: bool = False) -> None:
        """Everything ``sid`` holds (its transaction ended, or it went away). Its cursor
        locks too: outside a transaction CURSOR STABILITY takes none (ids_sqs_1166).
        ``rolled_back``: its rows' values were just given back (``undone_since``)."""
        with self._cond:
            if self._cursor_locks:
                self._drop_cursors(sid)
            for key in self._held.pop(sid, ()):
                t = self._tables.get(key)
                if t is None:
                    continue
                if rolled_back and t.per_owner.get(sid):
                    self._note_undone(sid, key, t)
                if t.per_owner.pop(sid, 0):
                    t.rows = {k: s for k, s in t.rows.items() if s != sid}
                    if t.update:
                        t.update = {k: s for k, s in t.update.items() if s != sid}
                if t.exclusive == sid:
                    t.exclusive = None
                t.share.discard(sid)
                if sid in t.guard:
                    t.guard.discard(sid)
                    if not t.guard:
                        t.shared.clear()  # (every S lock is a guard holder's: all were sid's)
                    else:
                        _drop_shared(t, sid)
                if t.empty():
                    del self._tables[key]
            if sid in self._waits.values() or any(h == sid for h, _ in self._seen.values()):
                self._let_go(sid)
            else:  # nobody compares against its count: forget it (ids are never reused)
                self._released.pop(sid, None)

    def release_rows(self, sid: int, db: str, table: str, keys: list[int]) -> None:
        """Row locks a failed statement took (its changes were rolled back)."""
        with self._cond:
            t = self._tables.get((db, table))
            if t is None:
                return
            for k in keys:
                if t.rows.get(k) == sid:
                    del t.rows[k]
                    t.update.pop(k, None)
                    t.per_owner[sid] -= 1
            self._let_go(sid)

    # ---- waiting ---------------------------------------------------------------------------
    def wait(self, sid: int, holder: int, deadline: float | None) -> bool:
        """Wait until some lock is released (True) or the deadline passes (False); raises
        Deadlock when ``holder`` waits, directly or not, for ``sid``.

        The caller met ``holder``'s lock before taking this lock: a holder that has released
        everything since (its transaction ended in between) is not waited for, else the wait
        would last until some other release, maybe to the deadline (a lost wake-up: a
        reader's -244/-154 under SET LOCK MODE TO WAIT 30 in test_aio_pool's 1000 tasks)."""
        with self._cond:
            met = self._seen.pop(sid, None)
            epoch = self._released.get(holder, 0)
            if met is not None and met[0] == holder and met[1] != epoch:
                return True  # released since the conflict was seen (REVIEW-locks F1)
            if not self._held.get(holder) and not self._cursor_locks.get(holder):
                return True
            seen = {sid}
            h: int | None = holder
            while h is not None:
                if h in seen:
                    raise Deadlock()
                seen.add(h)
                h = self._waits.get(h)
            self._waits[sid] = holder
            try:
                while self._released.get(holder, 0) == epoch:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    # Wake at least every 0.2 s: a deadline may pass, or a holder may go away.
                    self._cond.wait(0.2 if left is None else min(left, 0.2))
                return True
            finally:
                self._waits.pop(sid, None)
