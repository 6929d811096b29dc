"""The read side of EngineSession's row-lock mode (session_locks.py has the rest): what a
query reads under its isolation level, the COMMITTED READ filter of a writing statement's
reads, COMMITTED READ LAST COMMITTED's view, CURSOR STABILITY's lock on the current row,
and FOR UPDATE cursors. A separate mixin so that
session_locks.py stays readable; RowLocks inherits it.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import copy
from typing import TYPE_CHECKING, cast

from sqlglot import exp

from .... import _accel
from ..core.errors import EngineError
from ..features.locks import undo
from ..sql.current_of import add_rowid
from ..sql.translate import Compiler

if TYPE_CHECKING:
    import sqlite3

    from ..core import values as vals
    from ..features.locks.manager import Armed
    from ..schema import catalog as cat
    from ..sql.functions import FunctionState
    from ..sql.plan import TableLookup
    from ..sql.translate import Plan
    from .engine import Engine

DIRTY, COMMITTED, LAST_COMMITTED, CURSOR, REPEATABLE = (
    "dirty", "committed", "last_committed", "cursor", "repeatable")


class RowLockReads:
    """Reads under row locks (a base of session_locks.RowLocks)."""

    if TYPE_CHECKING:
        engine: Engine
        session_id: int
        database: str | None
        conn: sqlite3.Connection | None
        in_transaction: bool
        state: FunctionState
        _rl_conflict: int | None
        _rl_upd_read: bool
        _rl_undo: list[undo.Entry]
        _rl_pages: dict[str, int]
        _rl_armed: Armed
        _rl_cursors: int

        @property
        def row_locks(self) -> bool: ...
        isolation: str | None
        retain_updates: bool

        def row_isolation(self) -> str: ...
        def _delimident(self) -> bool: ...
        def _ctx(self) -> vals.ConvContext: ...
        def current_schema(self, version: int | None = None) -> cat.Schema: ...
        def _note_pages(self, info: cat.TableInfo) -> None: ...
        def _lock_deadline(self) -> float | None: ...
        def _wait_for(self, holder: int, kind: str, deadline: float | None) -> None: ...
        def _lock_key(self, table: str, rowid: int) -> int: ...
        def _lock_error(self, kind: str, waited: bool) -> EngineError: ...

    # ---- reads -------------------------------------------------------------------------------
    def rl_check_read(self, plan: Plan, version: int | None = None) -> str:
        """The SQL a query runs under this session's isolation level: COMMITTED READ, CURSOR
        STABILITY and REPEATABLE READ read only committed rows; DIRTY READ reads them all.

        A table where another session holds uncommitted rows is read through a filter that
        calls ``_ifx_rd`` for every row SQLite visits, so the query meets a lock only on a
        row it reads (an index lookup that never reaches the locked row does not, as on
        Informix); SQLite flattens the filter into the query, keeping its indexes. The
        compiled SQL names every table ``"main"."t" AS "alias"``; where it cannot be found
        so, the whole table counts as locked. An EXCLUSIVE table lock stops every reader.
        REPEATABLE READ in a transaction reads every table through ``_ifx_rs``, which
        share-locks each row SQLite examines until the transaction ends (SQLite evaluates
        the flattened filter before the query's own conditions: a scan locks every row, an
        index lookup the rows it finds), and takes the table's phantom guard
        (``LockTable.guard``). A conflict waits as SET LOCK MODE says (here, before the query
        starts; ``rl_rows`` waits on one met while the first row is read). ``version``: the
        schema version the OPEN's -710 check has just read (None: read it here); one read
        transaction less per OPEN of a logged database (issue 26)."""
        sql = plan.sql
        if not self.row_locks or not plan.tables:
            return sql
        level = self.row_isolation()
        assert self.database is not None
        db = self.database
        if level == DIRTY:
            for table in plan.tables:
                if self.engine.locks.readable(self.session_id, db, table) is not None:
                    self.engine.write_latch(db).flush_parked(self)
                    break
            return sql
        repeatable = level == REPEATABLE and self.in_transaction
        # A FOR UPDATE cursor's update lock meets another's update lock (ids_sqt_400): it
        # reads through the filter (and waits before its query) where a plain reader passes.
        upd = self._rl_upd_read = bool(plan.for_update) and self.in_transaction
        deadline = self._lock_deadline()
        locks = self.engine.locks
        tables = self.current_schema(version).tables
        for table in plan.tables:
            info = tables.get(table)
            if info is None or info.temp or info.schema != "main" or info.kind != "T":
                continue
            self._note_pages(info)
            seen = locks.readable(self.session_id, db, table, upd)
            look_again = False
            if seen is not None:
                # another session holds rows of it: what it wrote must be in the file, where
                # this reader meets it (its locks) or reads it (DIRTY READ)
                self.engine.write_latch(db).flush_parked(self)
            while True:
                if repeatable:
                    # Informix's Repeatable Read: a shared lock on every row the query
                    # examines (``_ifx_rs``, called for each row SQLite visits, before the
                    # query's own conditions), the phantom guard on the table (``guard``);
                    # where the table cannot be found in the SQL, the whole table SHARE
                    # (stricter: every write of another session meets it)
                    q = '"main".' + '"' + table.replace('"', '""') + '"' + " AS "
                    if q in sql:
                        holder = locks.guard(self.session_id, db, table)
                        if holder is None:
                            locks.arm(self._rl_armed, self.session_id, db, table,
                                      self._rl_pages.get(table), upd)
                            lit = "'" + table.replace("'", "''") + "'"
                            sql = sql.replace(q, f'(SELECT rowid AS rowid, * FROM {q[:-4]} '
                                                 f'WHERE _ifx_rs({lit}, rowid)) AS ')
                    else:
                        holder = locks.table(self.session_id, db, table, False,
                                             reading=not upd)
                else:
                    # the first look is the one above (a holder gone since then only
                    # costs the filter; one come since is the race every check has)
                    holder = (locks.readable(self.session_id, db, table, upd) if look_again
                              else seen)
                    look_again = True
                    if holder is not None and level == LAST_COMMITTED and not locks.holds_table(
                            holder, db, table) and table not in self._rl_pages:
                        sql = self._last_committed(sql, table)
                        holder = None
                    if holder is not None and not locks.holds_table(holder, db, table):
                        q = '"main".' + '"' + table.replace('"', '""') + '"' + " AS "
                        if q in sql:
                            lit = "'" + table.replace("'", "''") + "'"
                            sql = sql.replace(q, f'(SELECT rowid AS rowid, * FROM {q[:-4]} '
                                                 f'WHERE _ifx_rd({lit}, rowid)) AS ')
                            holder = None
                if holder is None:
                    break
                self._wait_for(holder, "query", deadline)
                tables = self.current_schema().tables  # (read again after a wait)
        return sql

    def rl_late_ok(self, plan: Plan) -> bool:
        """Whether ``rl_check_read`` would find nothing to do for this query now: no other
        session holds rows (or an EXCLUSIVE lock) of its tables, and no REPEATABLE READ
        SHARE lock is to be taken. The OPEN may then run the plain SQL first and check for
        -710 inside the query's read transaction (``EngineSession._late_check``); any
        holder sends it down the usual path (-710 first, then the lock check and its wait
        or -244). Rows a holder takes after this look are met as after rl_check_read's."""
        if self.row_isolation() == REPEATABLE and self.in_transaction:
            return False
        if self.isolation == CURSOR:
            return False  # rl_stability_plan may give it its own SQL
        locks = self.engine.locks
        db = self.database
        assert db is not None
        sid = self.session_id
        return all(locks.readable(sid, db, table) is None for table in plan.tables)

    def rl_filter_dml_reads(self, plan: Plan, sql: str) -> str:
        """The read part of a writing statement (INSERT ... SELECT, a subquery) under
        COMMITTED READ and stricter: each table other than the target where another session
        holds uncommitted rows is read through the ``_ifx_rd`` filter, as a query's is, so a
        held row it reaches stops the statement; ``rl_write`` then waits outside the latch as
        SET LOCK MODE says and runs it again. Without this the statement read those rows
        dirty (writes are applied at once). No wait and no table lock here: the statement
        runs under the latch."""
        if not self.row_locks or not plan.tables or self.row_isolation() == DIRTY:
            return sql
        assert self.database is not None
        self._rl_upd_read = False
        target = plan.table.name if plan.table is not None else None
        locks = self.engine.locks
        for table in plan.tables:
            if table == target:
                continue
            info = self.current_schema().tables.get(table)
            if info is None or info.temp or info.schema != "main" or info.kind != "T":
                continue
            self._note_pages(info)
            if locks.readable(self.session_id, self.database, table) is None:
                continue
            self.engine.write_latch(self.database).flush_parked(self)
            q = '"main".' + '"' + table.replace('"', '""') + '"' + " AS "
            if q in sql:
                lit = "'" + table.replace("'", "''") + "'"
                sql = sql.replace(q, f'(SELECT rowid AS rowid, * FROM {q[:-4]} '
                                     f'WHERE _ifx_rd({lit}, rowid)) AS ')
        return sql

    def _last_committed(self, sql: str, table: str) -> str:
        """COMMITTED READ LAST COMMITTED: the table as its committed rows, read as a subquery
        of the rows no other session holds and, for each held row that existed before its
        holder's transaction, that row's before-image (the holder's first undo entry for it;
        a row the holder inserted is left out). Image values are SQL literals."""
        assert self.database is not None and self.conn is not None
        q = '"main".' + '"' + table.replace('"', '""') + '"'
        if q + " AS " not in sql:
            return sql
        held = self.engine.locks.others_rows(self.session_id, self.database, table,
                                             reading=True)
        images: dict[int, str | None] = {}
        for session in list(self.engine.live.values()):
            if session is self:
                continue
            for t, op, rid, img in list(session._rl_undo):
                if t == table and rid not in images:
                    images[rid] = img if op in ("U", "D") else None
        cols = undo.columns(self.conn, table)
        parts = [f"SELECT rowid AS rowid, * FROM {q} WHERE rowid NOT IN "
                 f"({', '.join(str(int(r)) for r in held) or 'NULL'})"]
        for rid, img in images.items():
            if img is None or rid not in held:
                continue
            values = undo.decode(img)[:len(cols)]
            if len(values) != len(cols):
                continue
            named = [_literal(v) + " AS " + '"' + c.replace('"', '""') + '"'
                     for v, c in zip(values, cols, strict=True)]
            parts.append("SELECT " + ", ".join([f"{int(rid)} AS rowid", *named]))
        return sql.replace(q + " AS ", "(" + " UNION ALL ".join(parts) + ") AS ")

    def rl_wait_read(self) -> bool:
        """After a query stopped on a row lock (``_ifx_rd``) before its first row: wait as
        SET LOCK MODE says (True: run it again) or raise -244."""
        holder, self._rl_conflict = self._rl_conflict, None
        if holder is None:
            return False
        self.state.error = None
        self._wait_for(holder, "query", self._lock_deadline())
        return True

    def rl_stability_plan(self, plan: Plan) -> Plan | None:
        """CURSOR STABILITY's form of a query: a copy of the plan reading the same statement
        compiled again with its table's rowid as a hidden last column (``add_rowid``, as a
        FOR UPDATE cursor has), for ``rl_stability``; None where there is none. Compiled
        once per plan, at its first OPEN under that level (``Plan.stability``). Only a
        single-table query without GROUP BY, DISTINCT or a join has one row per table row;
        other shapes keep COMMITTED READ's behaviour (docs/SERVER.md, "Isolation levels")."""
        if not plan.stability_done:
            self._stability_compile(plan)
        if plan.stability is None:
            return None
        variant = copy(plan)
        variant.sql = plan.stability[0]
        variant.fast_loader = (_accel.accelerated, None)  # rows one column longer
        return variant

    def _stability_compile(self, plan: Plan) -> None:
        """Make ``plan.stability`` (see rl_stability_plan). The plan may be the engine's
        shared one, so only a result that holds for every session is kept (REVIEW-locks
        F5): a compile that fails here (this session cannot resolve a name the plan's
        compiler could: a private synonym) leaves the plan unmarked, and a form whose tables
        or their shape differ from the plan's (a DDL committed since the OPEN's -710
        check; a name resolving elsewhere for this user) is not stored. The next OPEN
        under CURSOR STABILITY tries again; this one reads as COMMITTED READ.

        Shapes without one table row under each result row take no lock (REVIEW-locks F6):
        joins, GROUP BY, DISTINCT, UNION (``add_rowid`` leaves them alone), aggregates in
        the select list or HAVING, and views. Informix allows an update cursor only for a
        SELECT of one table without aggregates, DISTINCT, GROUP BY or UNION (SQL Syntax,
        "Subset of SELECT statements associated with cursors", ids_sqs_0669): those are
        the results whose fetched row is a table row that a cursor can be said to be on."""
        if (not plan.source or plan.kind != "query" or plan.for_update or plan.current_rowid
                or plan.select_triggers or plan.routine is not None or len(plan.tables) != 1):
            plan.stability_done = True
            return
        try:
            compiler = Compiler(cast("TableLookup", self), self._ctx(), self._delimident())
            variant = compiler.compile(plan.source)
            add_rowid(compiler, variant)
        except (EngineError, RecursionError):
            return  # this session's failure, not the plan's: not marked done
        if variant.tables != plan.tables:
            return  # compiled against another schema or table than the plan was
        if (variant.current_rowid and variant.table is not None
                and variant.table.kind == "T" and not _aggregates(compiler._last_root)):
            plan.stability = (variant.sql, variant.table.name)
        # set last: a session opening the plan meanwhile compiles it too, rather than
        # reading a plan marked done whose variant is not there yet
        plan.stability_done = True

    def rl_stability(self, table: str, rows: Iterator[tuple[object, ...]]
                     ) -> Iterator[tuple[object, ...]]:
        """A CURSOR STABILITY cursor's rows: each row fetched (its hidden last column is the
        rowid, dropped here) is share-locked until the next one is fetched or the cursor
        closes ("the database server places a shared lock on the fetched row ... released
        when you fetch another row or close the cursor", ids_sqs SET ISOLATION, Cursor
        Stability). Another session's UPDATE or DELETE of it meets -346/-240 (or waits) while
        the cursor is on it. The server fetches a batch of rows for each fetch request, as
        many as fill the client's fetch buffer, so the row locked between two requests is
        the last row of the batch sent. Only inside a transaction: "If you set the isolation
        level to Cursor Stability, but you are not using a transaction, the Cursor Stability
        acts like the Committed Read isolation level" (ids_sqs_1166); the transaction's end
        drops the lock (``LockTable.release``), and a cursor still open after it (WITH HOLD)
        takes none. A row another session holds exclusively (it wrote the row after the
        cursor's OPEN, which read a snapshot) is -244/-107 at once, as a lock met later in a
        long result is."""
        assert self.database is not None
        db, sid, locks = self.database, self.session_id, self.engine.locks
        held: int | None = None
        # _rl_cursors when ``held`` was locked: a transaction's end (or the database's
        # close) releases every cursor lock of the session, and a cursor still open after it
        # holds nothing (REVIEW-locks F4: it kept ``held``, so on a PAGE table its next
        # transaction's fetch of the same page took no lock, and its next move or close
        # released that key again, maybe another cursor's lock of this session on it)
        gen = 0
        try:
            for row in rows:
                if not self.in_transaction:
                    yield row[:-1]
                    continue
                if held is not None and gen != self._rl_cursors:
                    held = None  # released with the transaction that locked it
                key = self._lock_key(table, row[-1])  # type: ignore[arg-type]
                if key != held:
                    if locks.cursor_move(sid, db, table, held, key) is not None:
                        # another session holds the row: the snapshot read cannot wait
                        raise self._lock_error("query", False)
                    held, gen = key, self._rl_cursors
                yield row[:-1]
        finally:
            if held is not None and gen == self._rl_cursors:
                locks.cursor_unlock(sid, db, table, held)

    def rl_for_update(self, plan: Plan, rows: Iterator[tuple[object, ...]]
                      ) -> Iterator[tuple[object, ...]]:
        """A FOR UPDATE cursor in a transaction locks each row as it is fetched (its hidden
        last column is the rowid); a row another session holds is -244 after the wait."""
        table = plan.table.name if plan.table is not None else None
        if not self.row_locks or table is None or not self.in_transaction:
            yield from rows
            return
        assert self.database is not None and plan.table is not None
        db, sid, locks = self.database, self.session_id, self.engine.locks
        self._note_pages(plan.table)
        deadline = self._lock_deadline()
        # the update lock this cursor took at its previous fetch: released when the cursor
        # fetches another row, unless RETAIN UPDATE LOCKS is on or the level is REPEATABLE
        # READ, which keep it to the transaction's end (ids_sqt_398, ids_prf_431)
        prev: int | None = None
        for row in rows:
            rowid = row[-1]
            if isinstance(rowid, int):
                key = self._lock_key(table, rowid)
                while True:
                    holder, fresh = locks.take_update(sid, db, table, key)
                    if holder is None:
                        break
                    self._wait_for(holder, "query", deadline)
                if prev is not None and prev != key and self.in_transaction and not (
                        self.retain_updates or self.row_isolation() == REPEATABLE):
                    locks.release_update(sid, db, table, prev)
                if fresh or prev != key:
                    prev = key if fresh else None
            yield row


def _aggregates(root: object) -> bool:
    """Whether a query's own select list or HAVING has an aggregate (one result row stands
    for many table rows); aggregates inside a subquery or an OVER clause do not count."""
    if not isinstance(root, exp.Select):
        return False
    todo: list[exp.Expression] = list(root.expressions)
    having = root.args.get("having")
    if having is not None:
        todo.append(having)
    while todo:
        node = todo.pop()
        if isinstance(node, exp.Window | exp.Subquery | exp.Select):
            continue
        if isinstance(node, exp.AggFunc):
            return True
        todo.extend(node.iter_expressions())
    return False


def _literal(v: object) -> str:
    """A before-image value as a SQLite literal."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else "NULL"
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    return "'" + str(v).replace("'", "''") + "'"
