"""Batched INSERTs: a run of one INSERT's EXECUTEs, as a pipelined executemany sends them, run
as one SQLite ``executemany`` (the wire side is ``Session._batch_inserts``).

Functions of an :class:`EngineSession` (its methods of the same names call them), kept apart
because this is one optimisation with its own rules: all or nothing under a savepoint, only
where executing the rows one by one would give the same result, and never an exception (a
refused batch is executed row by row, which reports every outcome exactly).
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING

from ..core.convert import Conv, TupleBinder, row_tuple_binder
from ..core.errors import EngineError
from ..core.hooks import CAPTURE

if TYPE_CHECKING:
    from ..sql.prepared import Prepared
    from ..sql.translate import Plan
    from .session import EngineSession

# Functions whose value changes from one execution to the next (the statement clock, the
# previous statement's serial and row count, serial counters, raised errors): an INSERT that
# calls one is never batched, so each row sees its own execution.
_PER_EXECUTION = re.compile(
    r"\b(ifx_current|ifx_today|ifx_dbinfo|ifx_serial|ifx_error|ifx_seq|ifx_spl)\(",
    re.IGNORECASE)


# A plan's named parameter (:p1, :p2, …) outside quoted text; quoted text matches first and
# is kept as it is.
_NAMED_PARAM = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|:p(\d+)\b""")


def _positional(plan: Plan) -> tuple[str, TupleBinder | None]:
    """The plan's SQL with numbered parameters (``?1`` for ``:p1``) and a function giving a
    row's converted values as a tuple: SQLite binds them by position, without looking a name
    up per value, which takes ~0.5 µs per row off an executemany of five columns. When the
    rewrite does not give exactly ``?1`` … ``?n`` for the plan's n parameters, the named SQL
    is kept and the binder is None (EngineSession._bind: the same values, the slower way)."""
    if plan.batch is None:
        numbers: list[int] = []

        def number(m: re.Match[str]) -> str:
            if m.group(1) is None:
                return m.group(0)
            numbers.append(int(m.group(1)))
            return f"?{m.group(1)}"

        sql = _NAMED_PARAM.sub(number, plan.sql)
        n = len(plan.params)
        if sorted(numbers) == list(range(1, n + 1)) and len(plan.param_convs) == n:
            plan.batch = (sql, row_tuple_binder(plan.param_convs))
        else:
            plan.batch = (plan.sql, None)
    return plan.batch


# Rows per multi-row INSERT (``_insert_rows``): past a few dozen the statement's own cost per
# row no longer falls (bench: 16 to 64 rows about alike), and its parameters stay under 999,
# the smallest SQLITE_MAX_VARIABLE_NUMBER any SQLite build has had.
_MULTI_ROWS = 64
_MULTI_VARS = 999
_MULTI_MIN = 4  # fewer rows per statement than this: the single-row statement

# The VALUES list of a numbered plan (``_positional``), the statement's last clause: each
# item a parameter, with the collation of its column (DECIMAL's ``COLLATE IFXDEC``) or not.
_ITEM = r"\?\d+(?: COLLATE \w+)?"
_VALUES_TAIL = re.compile(rf" VALUES \(({_ITEM}(?:, {_ITEM})*)\)$")
_ONE_ITEM = re.compile(r"\?(\d+)((?: COLLATE \w+)?)")


@functools.lru_cache(maxsize=64)  # (one entry per batched statement text: made once)
def _multi(sql: str, nparams: int) -> tuple[str, int] | None:
    """The multi-row form of a numbered INSERT ``sql`` (its VALUES list exactly ``(?1, …,
    ?n)``, each maybe with its column's ``COLLATE``, nothing after it): ``VALUES (?, …, ?),
    (?, …, ?), …`` (anonymous parameters, numbered 1 to k·n left to right; the same
    collations) for k rows and that
    k, or None when the SQL is not of that form. Why: SQLite runs k rows in one statement
    (one step, one reset, one release of the GIL by the sqlite3 module) instead of k, which
    takes about a third off the bulk insert's SQLite time per row (docs/SERVER.md, *Bulk
    inserts*); the rows, their order, rowids, constraints and triggers are those of k
    executions of the one-row statement."""
    if nparams < 1:
        return None
    m = _VALUES_TAIL.search(sql)
    if m is None or "?" in sql[: m.start()]:
        return None  # (a parameter before VALUES: not the plain form)
    items = [_ONE_ITEM.fullmatch(x) for x in m.group(1).split(", ")]
    if [int(x.group(1)) if x else 0 for x in items] != list(range(1, nparams + 1)):
        return None
    k = min(_MULTI_ROWS, _MULTI_VARS // nparams)
    if k < _MULTI_MIN:
        return None
    tails = [x.group(2) if x else "" for x in items]
    # Anonymous ``?`` (numbered left to right, so the r-th row's i-th is ?{r*n+i}): SQLite
    # keeps a list of a statement's ``?NNN`` names that the sqlite3 module's binding looks
    # each parameter up in, one linear scan per value (sqlite3VListNumToName: 9 % of the
    # server's profile with 320 ``?NNN`` a statement, perf, ingest13).
    row = "(" + ", ".join(f"?{t}" for t in tails) + ")"
    groups = ", ".join([row] * k)
    return sql[: m.start()] + " VALUES " + groups, k


def _insert_rows(conn: sqlite3.Connection, sql: str, bound: Sequence[object],
                 nparams: int) -> int:
    """``conn.executemany(sql, bound).rowcount`` (rows of ``nparams`` values each), run as
    multi-row statements of ``_multi``'s k rows while k rows are left, the rest by the
    one-row statement; any sqlite3 error propagates as from executemany (the callers undo
    the whole batch, so an error part-way changes nothing either way)."""
    multi = _multi(sql, nparams) if len(bound) >= _MULTI_MIN else None
    if multi is None:
        return conn.executemany(sql, bound).rowcount  # type: ignore[arg-type]
    msql, k = multi
    full = len(bound) - len(bound) % k
    inserted = 0
    for at in range(0, full, k):
        flat: tuple[object, ...] = tuple(
            chain.from_iterable(bound[at : at + k]))  # type: ignore[arg-type]
        if len(flat) != k * nparams:
            raise sqlite3.ProgrammingError("a batch row of another length")
        inserted += conn.execute(msql, flat).rowcount
    if full < len(bound):
        inserted += conn.executemany(sql, bound[full:]).rowcount  # type: ignore[arg-type]
    return inserted


def can_batch(self: EngineSession, stmt: Prepared) -> bool:
    """Whether ``execute_batch`` may run this statement's rows: a plain INSERT … VALUES
    without serial columns or per-execution functions, inside a transaction that already
    holds the write lock (outside one, every row must commit on its own)."""
    if self.conn is None or self._txn_read_only:
        return False  # (READ ONLY: one by one, each -878 in _write)
    if not self._sql_txn and not (self.row_locks and self.in_transaction):
        return False  # (row-lock mode: one short SQLite transaction for the batch, below)
    ok = stmt.batchable
    if ok is None:
        plan = stmt.plan
        ok = stmt.batchable = (
            plan.kind == "insert" and not plan.serials and not plan.view_check
            and " VALUES (" in plan.sql
            and "SELECT" not in plan.sql.upper() and not _PER_EXECUTION.search(plan.sql))
    if not ok:
        # (first: the server asks at every EXECUTE of a prepared UPDATE or DELETE too, and
        # the checks below read the schema version, a SQLite read transaction of its own
        # outside the write unit; docs/BENCHMARKS.md "Row locks: 8 writers of one table")
        return False
    table = stmt.plan.table
    if stmt.plan.other_databases:
        return False  # each row checks the other database's privileges (cross_database.py)
    if table is not None and self.current_schema().triggers.get(table.name):
        return False  # every row must fire its triggers (triggers.py)
    # every row goes to change data capture (features/cdc)
    return table is None or CAPTURE.dml(self, table) is None


def execute_batch(self: EngineSession, stmt: Prepared, rows: Sequence[Sequence[object]]) -> bool:
    """Run ``rows`` (one parameter list each) as one SQLite executemany.

    All or nothing: True when every row inserted exactly one row, as executing them one by
    one would have; False (nothing changed, under a savepoint) on any error, so that the
    caller executes the rows one by one and reports each outcome exactly as the single-row
    path does. Why: about half the per-row server cost of executemany is the per-message
    bookkeeping around SQLite, which a run of identical EXECUTEs pays once."""
    if not can_batch(self, stmt):
        return False
    plan = stmt.plan
    conn = self.conn
    assert conn is not None
    try:
        self._check_current(stmt)
        sql, binder = _positional(plan)
        n = len(plan.params)
        if binder is None or set(map(len, rows)) != {n}:
            bound: list[object] = [self._bind(plan, params) for params in rows]
        else:
            bound = [binder(params) for params in rows]
    except EngineError:
        return False
    except Exception:
        return False  # the single-row path reports it
    return _run(self, sql, bound, len(rows), _target(stmt), n if binder is not None else 0)


def batch_convs(self: EngineSession, stmt: Prepared) -> Sequence[Conv] | None:
    """The storers ``execute_bound`` expects its rows converted by (the plan's, one per
    parameter, in order), or None when this statement's rows cannot be run that way (not
    batchable now, or its SQL has no numbered form: execute_batch's slower binding)."""
    if not can_batch(self, stmt):
        return None
    try:
        _sql, binder = _positional(stmt.plan)
    except Exception:
        return None
    return stmt.plan.param_convs if binder is not None else None


def execute_bound(self: EngineSession, stmt: Prepared,
                  bound: Sequence[tuple[object, ...]]) -> bool:
    """``execute_batch`` for rows already converted by ``batch_convs``' storers (the wire
    layer's compiled decoder did it, server/bindbatch.py): the same rules, all or nothing,
    False having changed nothing. The storers are those of the plan the rows were converted
    for; a plan gone stale since (-710) is refused here like execute_batch refuses it."""
    if not can_batch(self, stmt):
        return False
    plan = stmt.plan
    try:
        self._check_current(stmt)
        sql, binder = _positional(plan)
    except Exception:
        return False  # (EngineError included) the single-row path reports it
    # (every row has the length of the first: the compiled decoder makes one tuple per plan)
    if binder is None or not bound or len(bound[0]) != len(plan.params):
        return False
    return _run(self, sql, bound, len(bound), _target(stmt), len(plan.params))


def _target(stmt: Prepared) -> str | None:
    """The table the batch inserts into (run without its INSERT lock triggers, its rows
    locked as one range: session_lock_rows.rl_bulk), or None."""
    table = stmt.plan.table
    if table is None or "rowid" in stmt.plan.sql.lower():
        return None  # (a rowid the statement gives is not SQLite's choice)
    return table.name


def _run(self: EngineSession, sql: str, bound: Sequence[object], count: int,
         table: str | None = None, nparams: int = 0) -> bool:
    """The rows ``bound`` (SQLite's parameters) as one executemany: under a savepoint of the
    held SQLite transaction, or as one statement of row-lock mode. ``nparams``: each row's
    values when they are tuples for ``sql``'s numbered parameters (multi-row statements,
    ``_insert_rows``), else 0 (an executemany of the rows as they are)."""
    conn = self.conn
    assert conn is not None
    self._start_statement()
    if not self._sql_txn:
        return _row_lock_batch(self, sql, bound, count, table, nparams)
    try:
        conn.execute("SAVEPOINT ifxwire_batch")
    except sqlite3.Error:
        return False
    try:
        inserted = _insert_rows(conn, sql, bound, nparams) if nparams else (
            conn.executemany(sql, bound).rowcount)  # type: ignore[arg-type]
    except sqlite3.Error:
        inserted = -1
    self.state.error = None
    if inserted != count:
        # Some errors (disk full, I/O) make SQLite roll the whole transaction back, the
        # savepoint with it: then there is nothing to undo here, and the single-row path
        # meets the same error and reports it.
        with contextlib.suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK TO ifxwire_batch")
                conn.execute("RELEASE ifxwire_batch")
        return False
    # The rows are in: even if RELEASE failed they must not be executed again.
    with contextlib.suppress(sqlite3.Error):
        conn.execute("RELEASE ifxwire_batch")
    self.state.last_rowcount = 1
    return True


def _row_lock_batch(self: EngineSession, sql: str, bound: Sequence[object], n: int,
                    table: str | None = None, nparams: int = 0) -> bool:
    """The batch as one statement of row-lock mode (session_locks.rl_write): its own SQLite
    transaction, all rows or none; any error (a lock another session holds included) leaves
    the rows to the single-row path, which reports each as executing it alone would."""
    conn = self.conn
    assert conn is not None

    def insert() -> int:
        inserted = _insert_rows(conn, sql, bound, nparams) if nparams else (
            conn.executemany(sql, bound).rowcount)  # type: ignore[arg-type]
        if inserted != n:
            raise EngineError(-999, message="batch")  # not all rows: rl_write rolls back
        return inserted

    def run() -> int:
        return self.rl_bulk(insert, table)  # its rows locked at once after it

    try:
        self.rl_write("insert", run)
    except (EngineError, sqlite3.Error):
        self.state.error = None
        return False
    self.state.last_rowcount = 1
    return True
