"""The ``syscdcv1`` routines (``EXECUTE FUNCTION informix.cdc_*``) and the capture hooks.

Signatures and return values follow IBM/HCL's CDC API Programmer's Guide ("Change Data Capture
functions"); the calls are the ones IBM JDBC 15.0.0.1's ``CDCEngine`` prepares (docs/CDC_SERVER.md):
``cdc_opensess(?,?,?,?,?,?)``, ``cdc_set_fullrowlogging(?,?)``,
``cdc_startcapture(?,?,?,?,?)``, ``cdc_activatesess(?,?)``, ``cdc_endcapture(?,0,?)``,
``cdc_closesess(?)``, plus ``cdc_deactivatesess(?)`` and ``cdc_recboundary(?)``. Each returns one
INTEGER: 0 or the session id on success, else a CDC error code (the message texts are in JDBC's
``com/informix/msg/cdc_en_US.properties``; the ``syscdcerrcodes`` table of catalog.py serves
them). ``cdc_errortext(name, locale)`` returns a code's text as LVARCHAR. They exist only in
the ``syscdcv1`` database, as on Informix, where a DBA creates it (here: ``CREATE DATABASE
syscdcv1 WITH LOG``); elsewhere the name resolves as any routine (-674).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from .....protocol import cdc as rec
from .....protocol.codes import StmtType
from ...core import ifxtypes as it
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.hooks import CAPTURE
from ...core.ifxtypes import IfxType
from ...sql.exprs import func, typed
from ...sql.hooks import TRANSLATION
from ...sql.plan import Plan
from .. import cross_database
from . import catalog
from .capture import Capture, CdcSession, order_columns
from .hub import (
    CHUNKS,
    FIRST_SESSION_ID,
    Change,
    Hub,
    Pending,
    existing_hub,
    hub_of,
    sweep_chunks,
)

if TYPE_CHECKING:
    from ...schema.catalog import TableInfo
    from ...sql.exprs import ExprTranslator
    from ...sql.translate import Compiler
    from ..session_api import FeatureSession

log = logging.getLogger("ifxwire.server.cdc")

CDC_DATABASE = "syscdcv1"

# CDC API error codes (IBM JDBC 15.0.0.1 cdc_en_US.properties)
E_NODB = -83703  # The specified database does not exist.
E_NOTAB = -83705  # The specified table does not exist.
E_TABPROPS = -83706  # The table properties do not support capture: ... otherwise not logged.
E_NOCOL = -83707  # The specified column does not exist.
E_NOSESS = -83708  # The specified CDC session does not exist.
E_TABCAPT = -83710  # The specified table is already being captured by the CDC session.
E_NOTCAPT = -83711  # The specified table is not being captured by the CDC session.
E_NULLARG = -83712  # An argument to the function has the SQL NULL value.
E_NOLSN = -83713  # Data at the requested log sequence number is not available for capture.
E_ACTIVE = -83715  # A CDC session is already active.
E_UNIMPL = -83799  # Unimplemented feature.
E_VERSION = -83702  # The requested CDC API behavior version is not valid or is unsupported.
E_ARG1 = -83721  # The first parameter passed to the function is not valid.
E_ARG2 = -83722  # The second parameter passed to the UDR is not valid.

_I = it.INTEGER
_I8 = it.INT8
_LV = IfxType(it.T.LVARCHAR, size=2048)


@dataclass(frozen=True)
class Native:
    params: tuple[IfxType, ...]
    run: Callable[[FeatureSession, list[Any]], object]
    result: IfxType = it.INTEGER


def _hub(s: FeatureSession) -> Hub:
    return hub_of(s.engine)


def _session(s: FeatureSession, sid: object) -> CdcSession | None:
    cs: CdcSession | None = _hub(s).sessions.get(sid) if isinstance(sid, int) else None
    if cs is None or cs.owner != s.session_id or cs.closed:
        return None
    return cs


def _table(s: FeatureSession, name: str) -> tuple[str, TableInfo] | int:
    """``database:owner.table`` (owner optional) -> (table key, its description)."""
    db, sep, rest = name.strip().lower().partition(":")
    if not sep or not db or not rest:
        return E_NOTAB
    owner, dot, table = rest.rpartition(".")
    owner = owner.strip('"')
    if not os.path.exists(s.engine.path(db)):
        return E_NODB
    try:
        schema = cross_database.attach(s, db)
    except EngineError:
        return E_NODB
    info = schema.tables.get(table)
    if info is None or info.kind != "T" or (dot and owner and info.owner.lower() != owner):
        return E_NOTAB
    return f"{db}:{table}", info


def _opensess(s: FeatureSession, a: list[Any]) -> int:
    if any(v is None for v in a):
        return E_NULLARG
    if str(a[0]).strip().lower() != s.engine.server_name.lower():
        return E_ARG1  # "Must be the server to which the client application ... is connected"
    if a[1] != 0:
        return E_ARG2
    if a[4] != 1 or a[5] not in (0, 1):
        return E_VERSION
    return _hub(s).open_session(s.session_id, int(a[2]), int(a[3]),
                                s.state.ctx.encoding).sid


def _fullrow(s: FeatureSession, a: list[Any]) -> int:
    if any(v is None for v in a):
        return E_NULLARG
    found = _table(s, str(a[0]))
    if isinstance(found, int):
        return found
    _hub(s).set_fullrow(found[0], bool(a[1]))
    return 0


#: Types a captured row does not carry: the guide ("Data for capture", G-056) says simple large
#: objects (TEXT, BYTE), user-defined types and collections (SET, MULTISET, LIST, ROW) "are not
#: supported for data capture", and cdc_startcapture "cannot include" such columns; it names no
#: error code, so -83799. Smart large objects (BLOB, CLOB) are captured as their locator.
_NOT_CAPTURED = frozenset({it.T.BYTE, it.T.TEXT, it.T.UDTVAR, it.T.UDTFIXED})


def _capturable(t: IfxType) -> bool:
    return t.cx is None and t.code not in _NOT_CAPTURED


def _startcapture(s: FeatureSession, a: list[Any]) -> int:
    if a[0] is None or a[2] is None or a[3] is None or a[4] is None:
        return E_NULLARG
    cs = _session(s, a[0])
    if cs is None:
        return E_NOSESS
    found = _table(s, str(a[2]))
    if isinstance(found, int):
        return found
    key, info = found
    if key in cs.tables:
        return E_TABCAPT
    if not _hub(s).captured(key):
        # G-059: full-row logging must be enabled "before you can start capturing data from
        # it"; the guide names no code for it, and of its codes CDC_E_TABPROPERTIES ("...
        # or otherwise not logged") is the one that says so [inferred].
        return E_TABPROPS
    wanted = [c.strip().lower() for c in str(a[3]).split(",") if c.strip()]
    if wanted == ["*"]:
        wanted = [c.name for c in info.columns]
    cols = []
    for name in wanted:
        col = info.by_name.get(name)
        if col is None:
            return E_NOCOL
        if not _capturable(col.type):
            return E_UNIMPL
        cols.append(col)
    names, types = order_columns([c.name for c in cols], [c.type for c in cols])
    cs.add(Capture(key, int(a[4]), names, types))
    return 0


def _endcapture(s: FeatureSession, a: list[Any]) -> int:
    cs = _session(s, a[0])
    if cs is None:
        return E_NOSESS
    found = _table(s, str(a[2] or ""))
    if isinstance(found, int):
        return found
    if cs.tables.pop(found[0], None) is None:
        return E_NOTCAPT
    return 0


def _activatesess(s: FeatureSession, a: list[Any]) -> int:
    cs = _session(s, a[0])
    if cs is None:
        return E_NOSESS
    if cs.active:
        return E_ACTIVE
    position = int(a[1] or 0)
    if position < 0 or position > _hub(s).next_seq:
        return E_NOLSN
    cs.activate(position if position else _hub(s).next_seq)
    return 0


def _deactivatesess(s: FeatureSession, a: list[Any]) -> int:
    cs = _session(s, a[0])
    if cs is None:
        return E_NOSESS
    cs.active = False
    return 0


def _closesess(s: FeatureSession, a: list[Any]) -> int:
    if _session(s, a[0]) is None:
        return E_NOSESS
    _hub(s).close_session(a[0])
    return 0


def _recboundary(s: FeatureSession, a: list[Any]) -> int:
    """G-015: "Restarts data capture from the beginning of the CDC record currently being
    returned": a record cut by a short read comes again whole at the next read. Returns the
    number of log records "captured but skipped during the current session": this server
    skips none, so 0 [inferred: the guide says "a positive integer"; 0 is the count]."""
    cs = _session(s, a[0])
    if cs is None:
        return E_NOSESS
    cs.rewind_record()
    return 0


def _errortext(s: FeatureSession, a: list[Any]) -> str:
    return catalog.errortext(a[0], a[1])


def _sql_errortext(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    """``cdc_errortext(name, locale)`` inside a statement (the guide's example is ``select
    cdc_errortext('CDC_E_TABCAPTURED', 'en_us.0333') from syscdcvers``): in syscdcv1 only,
    as the routines are; elsewhere the name resolves as any routine (-674)."""
    if tx.database != CDC_DATABASE or len(node.expressions) != 2:
        raise EngineError(sc.NO_ROUTINE, near="cdc_errortext")
    args = [tx.convert(tx.tx(a), _LV) for a in node.expressions]
    return typed(func("ifx_cdc_errortext", *args), _LV.nullable())


NATIVES: dict[str, Native] = {
    "cdc_opensess": Native((_LV, _I, _I, _I, _I, _I), _opensess),
    "cdc_set_fullrowlogging": Native((_LV, _I), _fullrow),
    "cdc_startcapture": Native((_I, _I8, _LV, _LV, _I), _startcapture),
    "cdc_endcapture": Native((_I, _I8, _LV), _endcapture),
    "cdc_activatesess": Native((_I, _I8), _activatesess),
    "cdc_deactivatesess": Native((_I,), _deactivatesess),
    "cdc_closesess": Native((_I,), _closesess),
    "cdc_recboundary": Native((_I,), _recboundary),
    "cdc_errortext": Native((_LV, _LV), _errortext, _LV),
}


# ---- EXECUTE FUNCTION -----------------------------------------------------------------------
def compile_native(compiler: Compiler, call: Any, database: str | None) -> Plan | None:
    """A ``cdc_*`` call in syscdcv1 as a "call" plan whose ``native`` names it."""
    native = NATIVES.get(call.name)
    if native is None or database != CDC_DATABASE or (
            call.owner is not None and call.owner.lower() != "informix"):
        return None
    if len(call.args) != len(native.params):
        return None
    plan = Plan("call", StmtType.EXECUTE_PROCEDURE)
    compiler.allow_bare_params = True
    args = compiler.compile_query(exp.Select(expressions=[e.copy() for e in call.args]),
                                  list(native.params))
    plan.sql = args.sql
    plan.params = args.params
    plan.names = ["(expression)"]
    plan.types = [native.result.nullable()]
    plan.native = call.name
    return plan.finish(compiler.ctx)


def run_native(s: FeatureSession, plan: Plan, args: list[Any]) -> Iterator[tuple[object, ...]]:
    yield (NATIVES[plan.native].run(s, args),)


# ---- capture of DML, the transaction's end, and the session's reads -------------------------
_RECNUM = {"insert": rec.INSERT, "delete": rec.DELETE}


def dml_capture(s: FeatureSession, info: TableInfo
                ) -> Callable[[str, tuple[object, ...] | None, tuple[object, ...] | None],
                              None] | None:
    """The row hook for a DML statement on ``info`` when its table has full-row logging."""
    hub = existing_hub(s.engine)
    if hub is None or not hub.fullrow:
        return None
    db = cross_database.database_of(info) or s.database
    key = f"{db}:{info.name}"
    if not hub.captured(key):
        return None
    pending = _pending(s)
    pending.conn = s.conn  # where its chunks spill (Pending.spill)
    if key not in pending.shapes:
        pending.shapes[key] = [(c.name, c.type.key) for c in info.columns]
    add = pending.add

    def capture(kind: str, old: tuple[object, ...] | None,
                new: tuple[object, ...] | None) -> None:
        if kind == "update":
            assert old is not None and new is not None
            add(Change(rec.UPDBEF, key, old))
            add(Change(rec.UPDAFT, key, new))
        else:
            row = new if kind == "insert" else old
            assert row is not None
            add(Change(_RECNUM[kind], key, row))

    return capture


def truncate(s: FeatureSession, info: TableInfo) -> None:
    """TRUNCATE of a table with full-row logging: one CDC_REC_TRUNCATE in its transaction
    (G: "CDC_REC_TRUNCATE record", the table's user data; no rows)."""
    hub = existing_hub(s.engine)
    if hub is None or not hub.fullrow:
        return
    db = cross_database.database_of(info) or s.database
    key = f"{db}:{info.name}"
    if not hub.captured(key):
        return
    pending = _pending(s)
    if key not in pending.shapes:
        pending.shapes[key] = [(c.name, c.type.key) for c in info.columns]
    pending.conn = s.conn
    pending.add(Change(rec.TRUNCATE, key, ()))


_PENDING: dict[int, Pending] = {}


def _pending(s: FeatureSession) -> Pending:
    key = id(s)
    p = _PENDING.get(key)
    if p is None:
        p = _PENDING[key] = Pending(start=int(time.time()))
        # shared with savepoint(): savepoints set before the first captured row count too
        p.savepoints = _SAVEPOINTS.setdefault(key, [])
    return p


def mark(s: FeatureSession) -> int:
    """A DML statement starts (before its SQLite savepoint, triggers._guarded): the changes
    so far, and, at the outermost statement, a spill of those held in memory once they make
    a chunk (between statements nothing of the transaction is inside a statement's
    savepoint). Paired with ``reset`` (it failed) or ``unmark`` (it succeeded)."""
    p = _PENDING.get(id(s))
    if p is None:
        return 0
    if not p.marks and p.due() and p.conn is not None and not _rl_unit(s):
        p.spill(p.conn)
    p.marks.append(p.count)
    return p.count


def _rl_unit(s: FeatureSession) -> bool:
    """Whether a statement of ``s`` runs in a row-lock statement unit (its own SQLite
    transaction, or the ``_ifx_rl`` savepoint of a held one: session_locks.rl_write) that a
    failure of the statement rolls back whole. A spill of earlier statements' changes made
    there would go with it, so ``mark`` leaves them to ``statement_done``. An escalated
    transaction holds one SQLite transaction to its end, as without row locks."""
    return bool(s.engine.row_locks) and not getattr(s, "_rl_escalated", False)


def statement_done(s: FeatureSession) -> None:
    """Row locks: a statement of a transaction succeeded and its unit is about to be
    released or committed (session_locks.rl_write): the changes held in memory, once they
    make a chunk, are spilled in that unit, where nothing can roll back a part of it."""
    p = _PENDING.get(id(s))
    if p is not None and not p.marks and p.due() and p.conn is not None:
        p.spill(p.conn)


def unmark(s: FeatureSession, at: int) -> None:
    p = _PENDING.get(id(s))
    if p is not None and p.marks and p.marks[-1] == at:
        p.marks.pop()


def reset(s: FeatureSession, at: int) -> None:
    """A statement failed after its rows were captured: they are not part of the transaction
    (SQLite's rollback to the statement's savepoint dropped the chunks spilled since)."""
    p = _PENDING.get(id(s))
    if p is not None:
        p.drop_from(at)
        while p.marks and p.marks[-1] >= at:
            p.marks.pop()


_SAVEPOINTS: dict[int, list[tuple[str, int]]] = {}


def savepoint(s: FeatureSession, kind: str, name: str) -> None:
    """SAVEPOINT (called before SQLite's) records how many rows were captured, after
    spilling the ones in memory, so that every chunk written after it holds only later
    changes; ROLLBACK TO SAVEPOINT (after SQLite's, which dropped those chunks) drops the
    rows captured after it and the savepoints set after it."""
    marks = _SAVEPOINTS.setdefault(id(s), [])
    p = _PENDING.get(id(s))
    if kind == "savepoint":
        if p is not None and p.conn is not None and p.count > p.spilled_to:
            p.spill(p.conn)
        marks.append((name, p.count if p is not None else 0))
        return
    for i in range(len(marks) - 1, -1, -1):
        if marks[i][0] == name:
            reset(s, marks[i][1])
            del marks[i + 1:]
            return


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def before_commit(s: FeatureSession) -> None:
    """Just before the data database's COMMIT (LoSession.before_commit): the captured rows
    go into its stash in the same SQLite transaction (Hub.stash), so that a crash after the
    COMMIT cannot lose them. An error here fails the COMMIT (the transaction rolls back):
    a committed transaction is never left out of the stream."""
    p = _PENDING.get(id(s))
    if p is None or not p.count or p.txn is not None or p.logged or s.conn is None:
        return  # (logged: a row-lock ROLLBACK, rl_rollback, commits its undo work too)
    hub = existing_hub(s.engine)
    if hub is not None:
        hub.stash(s.conn, p, _uid())


def before_rollback(s: FeatureSession) -> None:
    """Just before the data database's ROLLBACK: a chunked transaction goes to the log as
    rolled back (RBTX) now, while its spilled chunks can still be read. Nothing here may
    fail the ROLLBACK."""
    p = _PENDING.get(id(s))
    if p is None or not p.chunks or p.logged or s.conn is None:
        return
    hub = existing_hub(s.engine)
    if hub is not None:
        try:
            hub.append(p, False, _uid(), s.conn)
        except sqlite3.Error as e:
            log.error("CDC: rolled-back transaction of %d changes not logged: %s", p.count, e)


def txn_end(s: FeatureSession, committed: bool) -> None:
    """The transaction has ended: its captured rows go to the log. Nothing here may fail the
    transaction (it is over); a log that cannot be written is reported in the server log."""
    _SAVEPOINTS.pop(id(s), None)
    p = _PENDING.pop(id(s), None)
    if p is not None and p.token and not committed and s.engine.row_locks:
        _DISCARD[id(s)] = p.token  # chunks committed by earlier statement units (rl_rollback)
    if p is not None and p.count and not p.logged:
        hub = existing_hub(s.engine)
        if hub is not None:
            try:
                hub.append(p, committed, _uid(), s.conn)
            except sqlite3.Error as e:
                log.error("CDC: transaction of %d changes not logged: %s", p.count, e)


#: Row locks: the chunk token of a session's transaction rolled back by SQLite (escalated)
#: whose chunks written before the escalation are committed in the file (rl_rollback).
_DISCARD: dict[int, int] = {}


def rl_rollback(s: FeatureSession) -> None:
    """Row locks, ROLLBACK WORK, inside the SQLite transaction that applies the undo log
    (session_lock_latch._rl_finish_flushed): the transaction goes to the log as rolled back (RBTX)
    now, while the chunks its statements committed can be read, and those chunks are deleted
    in this transaction. Nothing here may fail the ROLLBACK: a chunk left behind is garbage
    no stash row names, swept at the next start (``recover_database``)."""
    conn = s.conn
    if conn is None:
        return
    tokens = [t for t in (_DISCARD.pop(id(s), 0),) if t]
    p = _PENDING.get(id(s))
    if p is not None:
        if p.token:
            tokens.append(p.token)
        if p.count and not p.logged:
            hub = existing_hub(s.engine)
            if hub is not None:
                try:
                    hub.append(p, False, _uid(), conn)
                except sqlite3.Error as e:
                    log.error("CDC: rolled-back transaction of %d changes not logged: %s",
                              p.count, e)
    for token in tokens:
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"DELETE FROM main.{CHUNKS} WHERE token = ?", (token,))


def recover_database(conn: sqlite3.Connection) -> None:
    """At a database's first open by this process (Engine.recover, after the undo log of a
    killed server was applied): chunks that no stash row names belong to transactions that
    never committed (row locks commit them statement by statement): they go."""
    sweep_chunks(conn)


def lo_stream(s: FeatureSession, fd: object) -> Callable[[int], bytes] | None:
    if not isinstance(fd, int) or fd < FIRST_SESSION_ID:
        return None
    cs = _session(s, fd)
    if cs is None:
        return None
    state = s.state
    hub = cs.hub

    def wake() -> None:
        with hub.lock:
            hub.lock.notify_all()

    def read(n: int) -> bytes:
        # A read waiting for changes ends when the client cancels it or goes away
        # (CdcSession.read): the interrupt watcher sets ``cancelled``, then wakes the wait.
        state.on_cancel = wake
        try:
            return cs.read(n, lambda: state.cancelled)
        finally:
            state.on_cancel = None

    return read


def session_closed(s: FeatureSession) -> None:
    p = _PENDING.pop(id(s), None)
    _SAVEPOINTS.pop(id(s), None)
    _DISCARD.pop(id(s), None)
    hub = existing_hub(s.engine)
    if hub is not None:
        if p is not None and p.txn is not None:
            hub.release(p.txn)  # never left holding back the readers (Hub.bound)
        hub.close_owned(s.session_id)


def log_position(s: FeatureSession) -> int:
    """The log position sysmaster:syslogs shows (hub.current_position), a byte offset as
    Informix's LSNs are: the first transaction logged after the read begins there."""
    hub = existing_hub(s.engine)
    return 0 if hub is None else hub.current_position()


def register() -> None:
    TRANSLATION.native_call = compile_native
    TRANSLATION.native_run = run_native
    CAPTURE.dml = dml_capture
    CAPTURE.mark = mark
    CAPTURE.reset = reset
    CAPTURE.unmark = unmark
    CAPTURE.before_rollback = before_rollback
    CAPTURE.txn_end = txn_end
    CAPTURE.before_commit = before_commit
    CAPTURE.statement_done = statement_done
    CAPTURE.rl_rollback = rl_rollback
    CAPTURE.recover_database = recover_database
    CAPTURE.savepoint = savepoint
    CAPTURE.truncate = truncate
    CAPTURE.lo_stream = lo_stream
    CAPTURE.session_closed = session_closed
    CAPTURE.log_position = log_position
    CAPTURE.database_opened = catalog.ensure
    TRANSLATION.functions["CDC_ERRORTEXT"] = _sql_errortext
    TRANSLATION.sqlite_functions["ifx_cdc_errortext"] = (2, catalog.errortext, True)
