"""The row locks of each row a statement touches: a base of session_locks.RowLocks.

* ``_ifx_lk``, called by the lock triggers (features/locks/triggers.py) for every row a
  statement inserts, updates or deletes: takes the row's lock in the Engine's lock table
  (features/locks/manager.py) or stops the statement (``_Conflict``), and records its
  before-image for the undo log;
* ``rl_bulk``: a batch of INSERTs locking its rows after it, in one call;
* ``_ifx_rd`` / ``_ifx_rs``: the reads' per-row checks (COMMITTED READ, CURSOR STABILITY;
  REPEATABLE READ's share locks), as ``rl_check_read`` rewrites a query
  (session_lock_reads.py);
* ``_lock_key``: a row's key (its page in a LOCK MODE PAGE table);
* ``_dup_holder``: the session holding the row a duplicate key met (-271, not -268).

Moved out of session_locks.py unchanged (issue 26 §1: a file of one job).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.errors import EngineError
from ..features import inherit
from ..features.locks import undo

if TYPE_CHECKING:
    from ..features.locks.triggers import LockTriggers
    from ..schema import catalog as cat
    from ..sql.functions import FunctionState
    from .engine import Engine

_OP_KINDS = {"I": "insert", "U": "update", "D": "delete", "W": "update"}


class _Conflict(Exception):
    """Raised inside ``_ifx_lk``: SQLite aborts the statement (the holder is noted)."""


class RowLockRows:
    """The per-row lock work of a statement (a base of session_locks.RowLocks, whose
    ``_rl_init`` sets the state named here)."""

    if TYPE_CHECKING:
        engine: Engine
        session_id: int
        database: str | None
        conn: sqlite3.Connection | None
        in_transaction: bool
        state: FunctionState
        _rl_pending: list[undo.Entry]
        _rl_conflict: int | None
        _rl_upd_read: bool
        _rl_read_mark: int
        _rl_wide: bool
        _rl_escalated: bool
        _rl_replaying: bool
        _rl_triggers: LockTriggers
        _rl_bulk: list[int] | None
        _rl_bulk_table: str
        _rl_new: tuple[str, tuple[object, ...]] | None
        _rl_pages: dict[str, int]

        def _lock_error(self, kind: str, waited: bool) -> EngineError: ...

    def _ifx_lk(self, table: str, op: str, rowid: int, *image: object) -> int:
        """Called by the lock triggers for every row written: lock it or stop the statement."""
        if self._rl_replaying or self.database is None:
            return 0
        if op == "N":
            self._rl_new = (table, image)
            return 0
        bulk = self._rl_bulk
        if bulk is not None and op == "I":
            if not bulk:
                self._rl_bulk_table = table
            if table == self._rl_bulk_table:
                bulk.append(rowid)
                return 0
        keep = self.in_transaction
        holder = self.engine.locks.row(self.session_id, self.database, table,
                                       self._lock_key(table, int(rowid)), keep,
                                       insert=op == "I")
        if holder is not None:
            self._rl_conflict = holder
            # What a caller outside rl_write reports (rl_write waits and runs it again).
            self.state.error = self._lock_error(_OP_KINDS.get(op, "update"), False)
            raise _Conflict(table)
        if keep and not self._rl_escalated:
            if op == "W":
                self._rl_wide = True
                raise _Conflict(table)
            self._rl_pending.append(
                (table, op, int(rowid), undo.encode(image) if op in ("U", "D") else None))
        return 0

    def rl_bulk(self, action: Callable[[], int], table: str | None = None) -> int:
        """Run a batch of INSERTs (``action``, inside ``rl_write``; it returns the rows it
        inserted) locking its rows after it rather than one by one from the lock trigger:
        one ``LockTable.rows`` call takes them all (or finds a holder: the unit is rolled
        back and waits or fails exactly as when the trigger met the lock, since a statement
        is all or nothing either way). Why: a Python call into the lock table per inserted
        row was most of what row locks still added to a bulk insert's server CPU.

        With ``table`` (the batch's target) whose rowids SQLite chooses, the batch runs
        without the table's INSERT triggers (features/locks/triggers.py, "Batches without
        the INSERT triggers"): its rows are the rowids after the table's largest one before
        it, up to the largest after it, checked against the count ``action`` returns; that
        range is locked at once and recorded for undo as one J entry, with nothing per row
        in Python or in a trigger. When the count does not match (never seen: SQLite picks
        random rowids once the largest is 2**63-1) the unit is rolled back and the batch
        goes row by row. Without ``table``, or a table the triggers cannot be dropped for,
        the trigger collects each rowid as before."""
        bulk: list[int] = []
        conn = self.conn
        lt = self._rl_triggers
        quiet = (table is not None and conn is not None and not self._rl_replaying
                 and lt.has(table) and lt.suspend_inserts(conn, table))
        lo = hi = 0
        # (quiet: another table's rows, a supertable's, still lock one by one in _ifx_lk)
        self._rl_bulk = None if quiet else bulk
        try:
            if quiet:
                assert conn is not None and table is not None
                self._rl_new = None  # no duplicate-key image from this batch (its _n is off)
                q = '"' + table.replace('"', '""') + '"'
                lo = int(conn.execute(f"SELECT coalesce(max(rowid), 0) FROM main.{q}")
                         .fetchone()[0]) + 1
                try:
                    result = action()
                finally:
                    lt.resume_inserts(conn, table)
                hi = int(conn.execute(f"SELECT coalesce(max(rowid), 0) FROM main.{q}")
                         .fetchone()[0])
                if hi - lo + 1 != result:
                    raise EngineError(-999, message="batch rowids not a run")
            else:
                result = action()
        finally:
            self._rl_bulk = None
        if quiet and result:
            self.engine.run_rows += result
        elif not bulk:
            return result
        if self.database is None:
            return result
        if not quiet or table is None:
            table = self._rl_bulk_table
        keep = self.in_transaction
        per = self._rl_pages.get(table)
        keys: Sequence[int]
        if quiet:
            keys = range(lo, hi + 1) if per is None else range(lo // per, hi // per + 1)
        else:
            keys = bulk if per is None else [r // per for r in bulk]
        holder = self.engine.locks.rows(self.session_id, self.database, table, keys, keep)
        if holder is not None:
            self._rl_conflict = holder
            self.state.error = self._lock_error("insert", False)
            raise _Conflict(table)
        if keep and not self._rl_escalated:
            if quiet:
                self._rl_pending.append(
                    (table, "I", lo, None) if lo == hi else (table, "J", lo, str(hi)))
            else:
                self._rl_pending.extend([(table, "I", r, None) for r in bulk])
        return result

    def _rl_drop_kept(self) -> None:
        """The rows a filtering DELETE kept (``ifx_vio_kept``, features/object_modes.py):
        the lock trigger, which fires before the filter trigger, recorded their deletion;
        the last such entry of each goes, so ROLLBACK WORK does not insert the row again.
        Their locks stay (the statement touched them)."""
        kept = self.state.vio_kept[1]
        self.state.vio_kept = (None, [])
        pending = self._rl_pending
        for table, rowid in reversed(kept):
            for i in range(len(pending) - 1, -1, -1):
                entry = pending[i]
                if entry[1] == "D" and entry[2] == rowid and entry[0] == table:
                    del pending[i]
                    break

    def _rl_free_inserted(self, failed: Sequence[undo.Entry],
                          earlier: Sequence[undo.Entry]) -> None:
        """Let go of the row locks a failed statement took on the rows it inserted (its undo
        entries ``failed``: the statement was taken back, so those rowids are free again).
        Why: SQLite gives the next row of a table the largest rowid plus one, so another
        session's INSERT reuses a rolled-back row's rowid and met its lock (-271, ISAM -107)
        until this transaction ended, where on Informix it inserts. A rowid that an
        ``earlier`` statement of the transaction wrote (a row it deleted, whose rowid the
        failed INSERT took again) keeps its lock; so does a LOCK MODE PAGE table's page,
        which other rows of the transaction may share (Informix keeps a page lock to the
        end of the transaction)."""
        if self.database is None:
            return
        runs: dict[str, list[range]] = {}
        for table, op, rid, extra in failed:
            if table not in self._rl_pages and (op == "I" or op == "J"):
                last = rid if op == "I" else int(extra or rid)
                runs.setdefault(table, []).append(range(rid, last + 1))
        for table, freed in runs.items():
            kept: set[int] = set()
            kept_runs: list[range] = []
            for t, op, rid, extra in earlier:
                if t == table:
                    if op == "J":
                        kept_runs.append(range(rid, int(extra or rid) + 1))
                    elif op != "S":
                        kept.add(rid)
            keys = [k for run in freed for k in run
                    if k not in kept and not any(k in r for r in kept_runs)]
            if keys:
                self.engine.locks.release_rows(self.session_id, self.database, table, keys)

    def _note_pages(self, info: cat.TableInfo) -> None:
        """Keep ``_rl_pages`` right for a table a read is about to filter (a session that
        has not written since the schema changed has not run ``_rl_install``)."""
        per = info.rows_per_page
        if per > 1:
            self._rl_pages[info.name] = per
        else:
            self._rl_pages.pop(info.name, None)

    def _lock_key(self, table: str, rowid: int) -> int:
        """The lock table's key for a row: its rowid in a LOCK MODE ROW table, its page in a
        LOCK MODE PAGE one (``TableInfo.rows_per_page`` rowids to a page), so two rows of one
        page conflict as on Informix (docs/SERVER.md, "LOCK MODE PAGE")."""
        per = self._rl_pages.get(table)
        return rowid if per is None else rowid // per

    def _ifx_rd(self, table: str, rowid: int) -> int:
        """Called for each row a COMMITTED READ / CURSOR STABILITY query reads of a table
        where other sessions hold row locks (``rl_check_read``'s rewrite): a row another
        session holds stops the query (-244)."""
        if self.database is None:
            return 1
        locks = self.engine.locks
        key = self._lock_key(table, int(rowid))
        holder = locks.row_holder(self.session_id, self.database, table, key,
                                  reading=not self._rl_upd_read)
        if holder is None:
            # a row a rollback gave back since this read's snapshot may have begun: its
            # value here may be the rolled-back one (manager.undone_since)
            holder = locks.undone_since(self.session_id, self.database, table, key,
                                        self._rl_read_mark)
        if holder is not None:
            self._rl_conflict = holder
            self.state.error = self._lock_error("query", False)
            raise _Conflict(table)
        return 1

    def _ifx_rs(self, table: str, rowid: int) -> int:
        """Called for each row a REPEATABLE READ query examines in a transaction
        (``rl_check_read``'s rewrite): the row is share-locked to the transaction's end, or,
        held by another session, stops the query (-244) as ``_ifx_rd`` does. Outside a
        transaction (a hold cursor read on after COMMIT) it only checks, as ``_ifx_rd``."""
        if self.database is None:
            return 1
        key = self._lock_key(table, int(rowid))
        locks = self.engine.locks
        if self.in_transaction:
            holder = locks.share_row(self.session_id, self.database, table, key,
                                     self._rl_upd_read)
        else:
            holder = locks.row_holder(self.session_id, self.database, table, key,
                                      reading=not self._rl_upd_read)
        if holder is None:
            holder = locks.undone_since(self.session_id, self.database, table, key,
                                        self._rl_read_mark)
        if holder is not None:
            self._rl_conflict = holder
            self.state.error = self._lock_error("query", False)
            raise _Conflict(table)
        return 1

    def _dup_holder(self) -> int | None:
        """After a duplicate-key error: the session holding the row whose key the insert
        duplicated, if another holds it (uncommitted): Informix reports the insert as meeting
        that row's lock (-271), not as a duplicate, until that transaction ends."""
        new, self._rl_new = self._rl_new, None
        if new is None or self.conn is None or self.database is None:
            return None
        table, image = new
        conn = self.conn
        holder = self._dup_holder_in_hierarchy(table, image)
        if holder is not None:
            return holder
        others = self.engine.locks.others_rows(self.session_id, self.database, table)
        if not others:
            return None
        lit = "'" + table.replace("'", "''") + "'"
        cols = undo.columns(conn, table)
        q = '"' + table.replace('"', '""') + '"'
        for idx in conn.execute(f"PRAGMA main.index_list({lit})").fetchall():
            if not idx[2]:
                continue
            key = [str(r[2]) for r in conn.execute(
                "SELECT * FROM main.pragma_index_info(?)", (idx[1],))]
            if not key or any(k not in cols for k in key):
                continue
            where = " AND ".join('"' + k.replace('"', '""') + '" = ?' for k in key)
            values = [image[cols.index(k)] for k in key]
            row = conn.execute(f"SELECT rowid FROM main.{q} WHERE {where}", values).fetchone()
            if row is not None:
                holder = self.engine.locks.row_holder(self.session_id, self.database, table,
                                                      self._lock_key(table, int(row[0])))
                if holder is not None:
                    return holder
        return None

    def _dup_holder_in_hierarchy(self, table: str, image: tuple[object, ...]) -> int | None:
        """_dup_holder for the keys a table hierarchy shares (features/inherit.py): the row
        whose key the insert repeats may be in another table of the hierarchy."""
        conn = self.conn
        assert conn is not None and self.database is not None
        cols = undo.columns(conn, table)
        for key, scope in inherit.key_scopes(conn, table):
            if any(k not in cols for k in key):
                continue
            values = [image[cols.index(k)] for k in key]
            where = " AND ".join('"' + k.replace('"', '""') + '" IS ?' for k in key)
            for other in scope:
                if not self.engine.locks.others_rows(self.session_id, self.database, other):
                    continue
                q = '"' + other.replace('"', '""') + '"'
                for (rowid,) in conn.execute(f"SELECT rowid FROM main.{q} WHERE {where}",
                                             values).fetchall():
                    holder = self.engine.locks.row_holder(
                        self.session_id, self.database, other,
                        self._lock_key(other, int(rowid)))
                    if holder is not None:
                        return holder
        return None
