"""EngineSession: one client connection's database, transaction and lock state.

Transactions follow the database's logging mode, as Informix does:

* unlogged: BEGIN WORK raises -256; every statement commits by itself;
* logged (non-ANSI): statements outside BEGIN WORK commit by themselves; BEGIN inside a
  transaction raises -535, COMMIT/ROLLBACK outside one -255;
* ANSI: a transaction is always implicitly open once a statement ran; COMMIT/ROLLBACK end it.

SQLite has one writer per database file. A session takes the write lock (BEGIN IMMEDIATE) at the
first statement that writes, not at BEGIN WORK, and holds it until COMMIT/ROLLBACK; reads before
that run on a fresh snapshot each (Informix COMMITTED READ). Outside a transaction a write
statement is its own BEGIN IMMEDIATE … COMMIT, so no lock outlives a statement. Readers use WAL
snapshots and are never blocked: they see the last committed rows (Informix's "LAST COMMITTED"
behaviour) rather than waiting on a writer. A writer that meets another writer waits as SET LOCK
MODE says (NOT WAIT is Informix's default) and then fails with the statement's lock error:
INSERT -271, UPDATE -346, DELETE -240, SELECT -244, DDL -242; ISAM -107 (NOT WAIT) or -154
(WAIT n expired).

That is the mode without row locks (``--no-row-locks``). By default (the Engine's
``row_locks``) writers of different rows proceed together under row locks and the isolation
levels apply: session_locks.py.
"""

from __future__ import annotations

import contextlib
import mmap
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from ....locales import DEFAULT_LOCALE, codec_for_locale
from ....protocol.codes import DBFLAG_ANSI, DBFLAG_INFORMIX, DBFLAG_LOGGED, TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core import values as vals
from ..core.convert import Conv, row_binder
from ..core.errors import EngineError, KeptWorkError
from ..core.errors import internal as _internal
from ..core.hooks import CAPTURE
from ..core.money import parse_dbmoney
from ..features import access, cross_database, ddl, statement_keys, violations
from ..features.lobs.lo_session import LoSession
from ..features.select_triggers import open_cursor
from ..features.spl.calls import (
    call_routine,
    execute_call,
    fill_table_functions,
    open_call,
    runtime,
)
from ..features.spl.insert_execute import run_insert_execute
from ..features.triggers import run_dml, run_instead, run_merge
from ..schema import catalog as cat
from ..sql.current_of import CURRENT_KEY, add_rowid, limit_to_current, split_current_of
from ..sql.functions import FunctionSlot, FunctionState, register
from ..sql.prepared import ExecResult, Prepared
from ..sql.statements import ColumnSpec, CreateTable
from ..sql.translate import Compiler, Plan, table_signature
from . import batch as _batch
from .session_cursors import CursorRows
from .session_errors import CANCELLED, ErrorMapping
from .session_locks import RowLocks
from .session_park import ParkedReads, plan_parks
from .session_privileges import SessionPrivileges
from .session_schema import SchemaLookup
from .session_statements import StatementRunner
from .session_txn import Transactions

if TYPE_CHECKING:
    from ..features.spl.interp import Runtime
    from .engine import Engine

T = TypeCode
R = TypeVar("R")
UNKNOWN_PARAM = it.char(255)  # how an untyped '?' is described (CHAR fallback)
_FOREVER_MS = 2**31 - 1
#: the plans whose -710 and privilege checks run inside their row-lock write unit
#: (rl_checks_in_unit); INSERT too since the twenty-seventh session (one read fewer)
_IN_UNIT = frozenset(("update", "delete", "insert"))




def _no_cursor(name: str, table: object, updated: object) -> int:
    raise EngineError(sc.CURSOR_NOT_OPEN, near=name)




class EngineSession(StatementRunner, Transactions, RowLocks, ParkedReads, ErrorMapping,
                    CursorRows, SessionPrivileges, SchemaLookup):
    """One client connection. Used from one thread at a time."""

    def __init__(self, engine: Engine, user: str, env: Mapping[str, str], session_id: int
                 ) -> None:
        self.engine = engine
        self.user = user
        self.env = env
        self.session_id = session_id
        self.database: str | None = None
        self.db_flags = 0
        self.in_transaction = False
        #: WHERE CURRENT OF: (cursor name, table) -> the rowid of that cursor's current row;
        #: the protocol session provides it (current_of.py).
        self.current_row: Callable[[str, cat.TableInfo | None, list[str] | None], int] = \
            _no_cursor
        #: An interrupted write rolled the SQLite transaction back (see interrupted()).
        self._txn_lost = False
        self.conn: sqlite3.Connection | None = None
        self._slot: FunctionSlot | None = None  # the pooled conn's function slot
        # Row cursors still open: closed before the connection goes back to the pool, where an
        # unfinished SELECT would pin its read snapshot for the next session.
        self._cursors: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()
        self._nodb: sqlite3.Connection | None = None
        # COMMIT / ROLLBACK WORK count: a FOREACH cursor without WITH HOLD that sees it
        # change is closed, as the transaction end closes it on Informix.
        self.transactions_ended = 0
        self._sql_txn = False
        self._savepoints: list[str] = []
        self._ddl_dirty = False
        self._in_ddl = 0  # DDL statements running (session_statements._ddl)
        self._kept_error: KeptWorkError | None = None  # (session_statements._kept)
        self._logged = False
        self._ansi = False
        self._buffered = False
        self._db_locale: str | None = None  # the open database's locale (its GL_CTYPE)
        self._incarnation = ""
        self._exclusive = False
        self.lock_wait: int | None = None  # None: NOT WAIT; -1: WAIT; n: WAIT n seconds
        self.temp_tables: dict[str, cat.TableInfo] = {}
        # The temporary tables as they stood before this transaction's first change to them
        # (its ROLLBACK puts them back: session_txn.temp_snapshot), and the session's WITH NO
        # LOG ones, whose rows no ROLLBACK takes back (session_txn.run_private).
        self._temp_before: dict[str, cat.TableInfo] | None = None
        self._temp_no_log: set[str] = set()
        self._currvals: dict[tuple[str, int], int] = {}
        # Per sequence: the statement whose NEXTVAL gave the last value, and the NEXTVAL
        # occurrences of it that took that value (sequence_value).
        self._nextval_rows: dict[tuple[str, int], tuple[int, set[int]]] = {}
        self._attached: dict[str, cat.Schema] = {}  # other databases (cross_database.py)
        self._attached_rw: set[str] = set()  # those of them this session has written
        self._attached_versions: dict[str, int] = {}  # their schema versions when read
        self.role: str | None = None
        self._db_level = "D"  # the user's database privilege: D(BA), R(ESOURCE), C(ONNECT)
        self._privs: tuple[tuple[object, ...], access.Privileges] | None = None
        # A routine owner's WITH GRANT OPTION privileges (None: a DBA), per privilege key.
        self._owner_privs: tuple[tuple[object, ...], access.Privileges | None] | None = None
        self._temp_serials: dict[tuple[str, str], int] = {}
        self._local_plans: dict[tuple[object, ...], Plan] = {}
        self._schema: cat.Schema | None = None
        self._schema_key: tuple[object, ...] | None = None
        #: The schema version a row-lock write unit read under its SQLite write lock, for the
        #: statement's first catalogue lookup (RowLocks.rl_write, current_schema).
        self._unit_version: int | None = None
        self._sysmaster_schema: cat.Schema | None = None
        self.spl: Runtime | None = None  # SPL globals, call depth, TRACE (spl/calls.py)
        self.state = FunctionState(user, self._ctx())
        self.state.session_id = session_id
        # A stored function called in a query runs on the session's SPL runtime, made on
        # first use (spl/calls.py).
        self.state.spl_call = lambda procid, args: self._spl().call_scalar(procid, args)
        self.state.spl_call_out = lambda procid, args: self._spl().call_with_outs(procid, args)
        self.state.sequence_value = self.sequence_value
        self.state.role_of = self._role_of
        # scs_lockmode: Hibernate's InformixDialect reads it before a query with a lock
        # timeout and sets it back after (SET LOCK MODE TO WAIT / NOT WAIT / WAIT n).
        self.state.lock_mode_of = lambda: 0 if self.lock_wait is None else self.lock_wait
        self.state.version = engine.version
        self.state.server_name = engine.server_name
        self.lo = LoSession(self)  # open smart large objects (lo_session.py)
        self.state.lo = self.lo
        self._rl_init()  # row-lock mode's state (session_locks.py)
        # The parked read (session_park.py): a read transaction kept open between queries
        # while the database's WAL-index header (and the Engine's sysmaster count) stay
        # what they were before it began; _park_ok: the wire layer serves a cached query.
        self._parked = False
        self._park_ok = False
        self._park_hdr = b""
        self._park_stale = False  # a commit asked for it while the session was busy
        self._park_sys = b""
        self._shm: mmap.mmap | None = None
        self._shm_conn: sqlite3.Connection | None = None

    def _spl(self) -> Runtime:
        return runtime(self)

    # ---- settings --------------------------------------------------------------------------
    def _ctx(self) -> vals.ConvContext:
        dbdate = self.env.get("DBDATE") or "Y4MD-"
        encoding = codec_for_locale(self.code_set_locale or DEFAULT_LOCALE)
        century = self.env.get("DBCENTURY") or "R"
        return vals.ConvContext(dbdate=dbdate, ansi=self._ansi, encoding=encoding,
                                dbcentury=century,
                                money=parse_dbmoney(self.env.get("DBMONEY")))

    @property
    def code_set_locale(self) -> str | None:
        """The locale whose code set character data is in, on the wire and in byte counts.

        Informix clients send and receive SQL text and character values in the database
        locale's code set and convert from and to the client locale themselves (GLS User's
        Guide, "Set a nondefault locale" and "Choose a GLS locale"; IBM JDBC encodes SQL text
        with its dbEncoding, taken from DB_LOCALE or, after the database opens, from its
        ' GL_COLLATE' row: IfxSqli.getJavaToIfxCharBytes, IfxSqliConnect.setDatabaseLocale;
        libsqli converts SQL text client -> DB_LOCALE: sqli_conn_encode_client_to_db). So it
        is the client's DB_LOCALE when it declared one (JDBC then asks nothing and keeps that
        code set; libsqli and our driver always declare it); else the open database's locale
        (JDBC without DB_LOCALE reads the database's ' GL_COLLATE' row and switches to it);
        else the CLIENT_LOCALE, as a client without DB_LOCALE sets it (GLS User's Guide).
        A declared DB_LOCALE whose code set differs from the database's is -23197 on a real
        server; here its text is taken in the code set the client said it sends [I: not yet
        refused], never decoded in another (that stored U+FFFD for a default-locale client in a
        UTF-8 database)."""
        return self.env.get("DB_LOCALE") or self._db_locale or self.env.get("CLIENT_LOCALE")

    def _delimident(self) -> bool:
        v = self.env.get("DELIMIDENT")
        return v is not None and v.strip().lower() not in ("", "n", "no", "0", "false")

    def _busy_timeout(self) -> None:
        if self.conn is None:
            return
        ms = 0 if self.lock_wait is None else (
            _FOREVER_MS if self.lock_wait < 0 else self.lock_wait * 1000)
        self.conn.execute(f"PRAGMA busy_timeout = {ms}")

    # ---- databases -------------------------------------------------------------------------
    def open_database(self, name: str, exclusive: bool = False) -> int:
        """SQ_DBOPEN / DATABASE: close the current database, open ``name``; returns db_flags."""
        name = name.lower().split("@")[0]
        if self.in_transaction and self.txn_has_work:
            raise EngineError(sc.ALREADY_IN_TRANSACTION)
        if self.database is not None:
            self._close_current()
        if not self.engine.exists(name):
            raise EngineError(sc.NO_DATABASE, sc.ISAM_NOT_FOUND, near=name)
        self.engine.attach_session(name, self.session_id, exclusive)
        try:
            conn, slot, meta = self.engine.checkout(name, self.state)
        except sqlite3.Error as e:  # not an ifxwire database file (checkout closed it)
            self.engine.detach_session(name, self.session_id)
            raise EngineError(sc.NO_DATABASE, sc.ISAM_NOT_FOUND, near=name,
                              message=f"cannot open database: {e}") from None
        level = access.database_level(conn, self.user, meta.get("owner", "informix"))
        if level is None:
            self.engine.checkin(name, conn, slot)
            self.engine.detach_session(name, self.session_id)
            raise EngineError(sc.NO_CONNECT)
        self._db_level = level
        self._privs = None
        self.conn = conn
        self._slot = slot
        self.database = name
        self._exclusive = exclusive
        self._logged = meta.get("logged") == "1"
        self._ansi = meta.get("ansi") == "1"
        self._buffered = meta.get("buffered") == "1"
        self._db_locale = meta.get("locale")
        self._incarnation = meta.get("incarnation", name)
        if self._logged:
            self.engine.recover(name, conn)
            if self.engine.row_locks:
                self._rl_open(conn)
        self._busy_timeout()
        self.db_flags = (DBFLAG_INFORMIX | (DBFLAG_LOGGED if self._logged else 0)
                         | (DBFLAG_ANSI if self._ansi else 0))
        self.in_transaction = False
        self._txn_lost = False
        self.state.dbname = name
        self.state.ctx = self._ctx()
        self._schema = None
        # "A default role is activated when the user connects to the database. The SET ROLE
        # statement is not required" (GRANT, "Granting a Default Role", ids_sqs_0841); the
        # user's own default role, else PUBLIC's (thirty-third session: none was enabled)
        self.role = self._role_of("default")
        CAPTURE.database_opened(self.engine, name)
        return self.db_flags

    def close_database(self) -> None:
        """SQ_DBCLOSE / CLOSE DATABASE; -349 if none is open."""
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        if self.in_transaction and self.txn_has_work:
            raise EngineError(sc.ALREADY_IN_TRANSACTION)
        self._close_current()

    @property
    def logged_unbuffered(self) -> bool:
        """Commits are flushed to disk (``synchronous = FULL``)."""
        return self._logged and not self._buffered

    @property
    def incarnation(self) -> str:
        """The open database's identity (a new one each time a database of this name is
        created); smart-LOB locators carry it."""
        return self._incarnation

    def _close_current(self) -> None:
        self.unpark()
        self._shm_unmap()
        if self.conn is not None and self.row_locks:
            with contextlib.suppress(sqlite3.Error, EngineError):
                self.rl_finish("ROLLBACK")  # undo the open transaction, release its locks
        if self.conn is not None:
            if self._sql_txn:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                self._sql_txn = False
            self.in_transaction = False
            self.txn_level_ends()
            for cur in list(self._cursors):
                cur.close()
            if self.engine.row_locks:  # CURSOR STABILITY locks of cursors left open
                self.engine.locks.release_cursors(self.session_id)
                self._rl_cursors += 1
            self._cursors.clear()
            self.lo.close_database()  # frees the objects this session never stored
            for db in list(self._attached):
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute(f"DETACH DATABASE {cat.quote(cross_database.alias(db))}")
                self.engine.detach_session(db, self.session_id)
            self._attached.clear()
            self._attached_rw.clear()
            self._attached_versions.clear()
            assert self.database is not None and self._slot is not None
            self.engine.checkin(self.database, self.conn, self._slot)
            self._slot = None
        if self.database is not None:
            self.engine.detach_session(self.database, self.session_id)
        self.conn = None
        self.database = None
        self.db_flags = 0
        self.in_transaction = False
        self._sql_txn = False
        self._ddl_dirty = False
        self._logged = self._ansi = self._buffered = False
        self._db_locale = None
        self.temp_tables.clear()
        self._temp_before = None
        self._temp_no_log.clear()
        self._temp_serials.clear()
        self._local_plans.clear()
        self._schema = None
        self.state.dbname = None

    def _connection(self) -> sqlite3.Connection:
        if self.conn is not None:
            return self.conn
        if self._nodb is None:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False,
                                   uri=True)
            register(conn, self.state)
            conn.execute("ATTACH DATABASE ? AS sysmaster", (self.engine.sysmaster_uri(),))
            self._nodb = conn
        return self._nodb

    def _db_path(self) -> str:
        assert self.database is not None
        return self.engine.path(self.database)

    def _role_of(self, which: str) -> str | None:
        """CURRENT_ROLE: the role SET ROLE enabled; DEFAULT_ROLE: the user's default role,
        else PUBLIC's (Guide to SQL: Syntax, "DEFAULT_ROLE Operator"); None when none."""
        if which == "current":
            return self.role
        if self.conn is None:
            return None
        for name in (self.user, "public"):
            row = self.conn.execute("SELECT defrole FROM sysusers WHERE username = ?",
                                    (name,)).fetchone()
            if row and row[0] and str(row[0]).strip():
                return str(row[0]).strip()
        return None

    # ---- schema lookup (TableLookup for the compiler; the rest: session_schema.py) -----------
    def resolve(self, name: str, owner: str | None, database: str | None,
                offset: int) -> cat.TableInfo:
        db = database.lower().split("@")[0] if database else None
        if db is not None and db != self.database:
            if db != "sysmaster":
                if not self.engine.exists(db):
                    raise EngineError(sc.NO_DATABASE, sc.ISAM_NOT_FOUND, near=db)
                return self._lookup(cross_database.attach(self, db), name, owner, False)
            return self._lookup(self.sysmaster_schema(), name, owner, True)
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        if owner is None and name in self.temp_tables:
            return self.temp_tables[name]
        return self._lookup(self.current_schema(), name, owner, self.database == "sysmaster")

    # ---- prepare ---------------------------------------------------------------------------
    def arm(self) -> None:
        """Start the time budget of one request (Engine.statement_timeout): compiling,
        executing and each fetch batch are each allowed that long before -213."""
        if self.state.cancelled:
            raise EngineError(sc.INTERRUPTED, message=CANCELLED)
        timeout = self.engine.statement_timeout
        self.state.deadline = None if timeout is None else time.monotonic() + timeout

    def prepare(self, sql: str) -> Prepared:
        current = split_current_of(sql)
        if current is not None:
            base = self.prepare(current[0])
            return replace(base, sql=sql, plan=limit_to_current(base.plan, current[1]))
        limit = self.engine.max_statement_bytes
        if limit is not None and len(sql) > limit // 4 and len(sql.encode(
                self.state.ctx.encoding, "replace")) > limit:
            raise EngineError(sc.STATEMENT_TOO_LONG, message=f"over {limit} bytes")
        self.arm()
        ctx = self._ctx()
        self.state.ctx = ctx
        delim = self._delimident()
        # One read of the schema version serves the plan's key and the Prepared's version
        # (it was read twice: a SQLite read transaction each, per PREPARE of JDBC and
        # informix-driver, issue 26). The version read before the plan is looked up or
        # compiled is the right one to keep: a change after it moves the version, and the
        # OPEN then compares the tables (-710) instead of trusting a later number.
        version = -1
        if self.conn is not None:
            version = self._schema_version()
            # The user is in the key: a name resolves per user (a private synonym is its
            # owner's alone; the compiled plan holds the table it named), so sessions of one
            # user share plans and another user compiles its own.
            key: tuple[object, ...] = (self.database, self._incarnation, version, delim,
                                       ctx.dbdate, ctx.dbcentury, ctx.encoding, ctx.money,
                                       self.user, sql)
        else:
            key = (None, delim, ctx.dbdate, ctx.dbcentury, ctx.money, self.user, sql)
        local = bool(self.temp_tables) or self._ddl_dirty
        # A session's own plans (those reading other databases among them) are also keyed by
        # the other databases' schema versions (cross_database.versions).
        local_key = (*key, cross_database.versions(self)) if self._attached else key
        plan = self._local_plans.get(local_key)
        if plan is None and not local:
            plan = self.engine.cached_plan(key)
        if plan is None:
            try:
                compiler = Compiler(self, ctx, delim)
                compiler.deadline = self.state.deadline
                plan = compiler.compile(sql)
                if plan.for_update and plan.kind == "query":
                    add_rowid(compiler, plan)
                plan.source = sql  # (CURSOR STABILITY compiles it again: rl_stability_plan)
            except EngineError:
                raise
            except RecursionError:
                # A shape check_nesting/balance_chains did not foresee; Informix's answer to
                # a statement its parser cannot hold.
                raise EngineError(sc.PARSE_STACK, message="statement too deeply nested"
                                  ) from None
            except Exception as e:
                raise EngineError(sc.NOT_IMPLEMENTED, message=f"Not implemented yet: {e!r}"
                                  ) from None
            if local or plan.other_databases:
                self._local_plans[local_key] = plan
            elif plan.kind != "stmt" or plan.stmt is None or plan.stmt.this != "create_view":
                self.engine.store_plan(key, plan)
        if plan.kind == "insert":  # -973: an INSERT from its violations table
            violations.check_insert(self.conn, plan)
        if self.row_locks and plan.kind in ("insert", "update", "delete", "insert_exec"):
            self.rl_prepare(plan.table)  # its lock triggers, before any EXECUTE
        if plan.kind in ("insert", "update", "delete", "insert_exec"):
            self.lo.prime()  # the LO store a first commit would set up before its reply
        if plan.binder is None and plan.param_convs:
            plan.binder = row_binder(plan.param_convs)  # here, not at the first EXECUTE
        params = [(t if t.code != -1 else UNKNOWN_PARAM).describe("") for t in plan.params]
        is_query = plan.kind == "query" or (plan.kind == "call" and bool(plan.types))
        return Prepared(sql, plan.stmt_type, plan.columns if is_query else [], params, is_query,
                        plan, plan.for_update, version, inputs=[] if is_query else plan.inputs)

    # ---- execute ---------------------------------------------------------------------------
    def _bind(self, plan: Plan, params: Sequence[object]) -> dict[str, object]:
        n = len(params)
        if n != len(plan.params):
            raise EngineError(sc.HOSTVAR_COUNT)
        binder = plan.binder
        if binder is None:  # built once per plan; a race builds the same function twice
            binder = plan.binder = row_binder(plan.param_convs)
        bound = binder(params)
        if plan.current_of is not None:
            bound[CURRENT_KEY] = self.current_row(plan.current_of, plan.table,
                                                  plan.updated)
        return bound

    def _start_statement(self) -> None:
        self.state.error = None
        self.state.new_statement()
        if self._ansi:
            self.in_transaction = True

    def execute(self, stmt: Prepared, params: Sequence[object]) -> ExecResult:
        self.arm()
        try:
            return self._execute(stmt, params)
        except (EngineError, KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # no traceback may reach a client
            raise _internal(e) from None

    def can_batch(self, stmt: Prepared) -> bool:
        """Whether execute_batch may run this statement's rows (engine/batch.py)."""
        return _batch.can_batch(self, stmt)

    def execute_batch(self, stmt: Prepared, rows: Sequence[Sequence[object]]) -> bool:
        """Run ``rows`` as one SQLite executemany, all or nothing (engine/batch.py)."""
        self.arm()
        return _batch.execute_batch(self, stmt, rows)

    def batch_convs(self, stmt: Prepared) -> Sequence[Conv] | None:
        """The storers execute_bound's rows must be converted by, or None (engine/batch.py)."""
        return _batch.batch_convs(self, stmt)

    def execute_bound(self, stmt: Prepared, bound: Sequence[tuple[object, ...]]) -> bool:
        """execute_batch for rows already converted by batch_convs' storers (batch.py)."""
        self.arm()
        return _batch.execute_bound(self, stmt, bound)

    def _check_current(self, stmt: Prepared, version: int | None = None) -> int | None:
        """-710 when a table the statement was compiled against has since been dropped,
        altered or renamed (by any session): the client must prepare it again. Returns the
        schema version it read (None: none read), for the privilege check after it;
        ``version``: the version the caller has just read (a row-lock write unit's)."""
        plan = stmt.plan
        if self.conn is None:
            return None
        if plan.other_tables:
            cross_database.check_current(self, plan.other_tables)
        if not plan.tables and not plan.casts and not plan.overloads:
            return None
        if version is None:
            version = self._schema_version()
        if version == stmt.schema_version:
            return version
        schema = self.current_schema()
        for name, signature in plan.tables.items():
            info = schema.tables.get(name)
            if info is None or table_signature(info) != signature:
                raise EngineError(sc.TABLE_CHANGED, near=name)
        for name, procids in plan.overloads.items():
            # a routine it resolved was dropped, or another of the name created: prepared
            # again, the call resolves among the routines of now (it ran the dropped one's
            # procid: -674 naming that number) [inferred code, as for syscasts below]
            if tuple(sorted(r.procid for r in schema.routines.get(name, []))) != procids:
                raise EngineError(sc.TABLE_CHANGED, near=name)
        if any(schema.casts.get(key) != row for key, row in plan.casts.items()):
            # a cast its DISTINCT types were checked against was created or dropped
            # (udt_casts.py): prepared again, it follows the casts of now [inferred code]
            raise EngineError(sc.TABLE_CHANGED, near="syscasts")
        stmt.schema_version = version
        return version

    def _execute(self, stmt: Prepared, params: Sequence[object]) -> ExecResult:
        plan = stmt.plan
        if plan.kind in _IN_UNIT and self.rl_checks_in_unit(plan):
            # -710, privileges and binding inside the write unit (session_txn.py says why)
            self._start_statement()
            return self._write(plan, lambda: self.rl_checked_dml(stmt, params))
        version = self._check_current(stmt)
        if plan.kind == "stmt":
            assert plan.stmt is not None
            return self._statement(plan.stmt)
        if self.database is None and plan.kind != "query":
            raise EngineError(sc.NO_DB_SELECTED)
        self._check_privileges(plan, version=version)
        bound = self._bind(plan, params)
        self._start_statement()
        if plan.kind == "query":
            n = sum(1 for _ in self._rows(plan, bound))
            return ExecResult(n)
        if plan.kind == "select_into":
            return self._write(plan, lambda: self._select_into(plan, bound))
        if plan.kind == "call":
            return execute_call(self, plan, bound)
        if plan.kind == "insert_exec":
            return run_insert_execute(self, plan, bound)
        if plan.kind == "instead":
            return self._write(plan, lambda: run_instead(self, plan, bound))
        return self.exec_dml(plan, bound)

    def exec_dml(self, plan: Plan, bound: dict[str, object]) -> ExecResult:
        """INSERT/UPDATE/DELETE/MERGE under the write lock, with the table's triggers around
        it."""
        if plan.kind == "merge":
            return self._write(plan, lambda: run_merge(self, plan, bound))
        return self._write(plan, lambda: run_dml(self, plan, bound))

    def call_routine(self, name: str, args: Sequence[object],
                     outs: list[object] | None = None) -> Iterator[tuple[object, ...]]:
        """Run a stored routine by name or signature with Python argument values; rows of
        Python values come back (spl/calls.py). The fast path's entry point; ``outs``
        receives the OUT/INOUT values once the rows are all read."""
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        return call_routine(self, name, args, outs=outs)

    def open_cursor(self, stmt: Prepared, params: Sequence[object]) -> Iterator[tuple[object, ...]]:
        plan = stmt.plan
        kind = plan.kind
        if kind != "query" and kind != "call":
            raise EngineError(sc.SYNTAX, message="statement does not return rows")
        # arm(), _bind() and _start_statement() inlined, and each check's own first test
        # made here: a one-row query's OPEN is mostly such calls (issue 26; each check is
        # still made whenever it has something to check).
        state = self.state
        if state.cancelled:
            raise EngineError(sc.INTERRUPTED, message=CANCELLED)
        park = self._park_ok  # (the wire layer's cached query group: may park, once)
        if park:
            self._park_ok = False
        if self._parked:
            # A parked read serves only a plain query, and only while nothing was
            # committed since it began (session_park.py); else it ends here, before the
            # checks below read anything.
            shm = self._shm
            sys_shm = self.engine.sys_shm
            parks = plan.parks
            if parks is None:
                parks = plan_parks(plan)
            if (not parks or shm is None or sys_shm is None or shm[:48] != self._park_hdr
                    or sys_shm[:48] != self._park_sys  # (park_fresh, inlined)
                    or self.conn is None or not self.conn.in_transaction):  # (rolled back)
                self.unpark()
        timeout = self.engine.statement_timeout
        state.deadline = None if timeout is None else time.monotonic() + timeout
        try:
            late = bool(plan.tables) and self._late_check(stmt)
            version = self._check_current(stmt) if (
                plan.tables or plan.other_tables or plan.overloads) and not late else None
            if self._db_level != "D":
                self._check_privileges(plan, version=version)
            try:
                binder = plan.binder
                if not params and not plan.params and plan.current_of is None:
                    bound = {}  # (what the binder of no parameters returns; issue 26)
                elif (binder is None or plan.current_of is not None
                        or len(params) != len(plan.params)):
                    bound = self._bind(plan, params)
                else:
                    bound = binder(params)
            except EngineError:
                if late:
                    self._check_current(stmt)  # -710 comes first, as before
                raise
            state.error = None
            state._stmt_clock = time.time()  # state.new_statement(), inlined (issue 26)
            state._stmt_time = None
            if self._ansi:
                self.in_transaction = True
            if kind == "call":
                return open_call(self, plan, bound)
            if plan.select_triggers:
                return open_cursor(self, plan, lambda: self._rows(plan, bound))
            return self._rows(plan, bound, stmt if late else None, version, park)
        except EngineError:
            raise
        except Exception as e:  # no traceback may reach a client
            raise _internal(e) from None

    def _dml(self, plan: Plan, bound: dict[str, object],
             returning: list[tuple[object, ...]] | None = None) -> ExecResult:
        """Run a compiled INSERT/UPDATE/DELETE; with ``returning`` the rowid and the
        columns of each row it changed are appended to that list (for triggers)."""
        conn = self._connection()
        if plan.prelude:  # TABLE(FUNCTION …) sources (spl/calls.py)
            fill_table_functions(self, plan, bound)
        sql = self.rl_filter_dml_reads(plan, plan.sql) if self.row_locks else plan.sql
        if returning is not None:
            assert plan.table is not None
            sql += " RETURNING rowid, " + ", ".join(cat.quote(c.name) for c in plan.table.columns)
        state = self.state
        state.serial_used = {}
        serials = plan.serials
        info = plan.table
        temp = info is not None and info.temp
        # the SERIAL counters of the table's database (another one: cross_database.py)
        counters = f"{cat.quote(info.schema)}._ifx_serial" if info is not None else ""
        for tabid, kind, _start in serials:
            if temp:
                assert info is not None
                state.serials[(tabid, kind)] = self._temp_serials.get((info.name, kind),
                                                                      _start - 1)
            else:
                row = conn.execute(f"SELECT next FROM {counters} WHERE tabid = ? AND kind = ?",
                                   (tabid, kind)).fetchone()
                state.serials[(tabid, kind)] = int(row[0]) if row else 0
        # (the statement may call routines that run DDL: a version read before it is no
        # longer the one a later lookup may use)
        self._unit_version = None
        try:
            cur = conn.execute(sql, bound)
            if returning is not None:
                returning.extend(cur.fetchall())
        except sqlite3.IntegrityError as e:
            # a key an UPDATE duplicates only on its way: Informix checks constraints at the
            # statement's end (statement_keys.py)
            again = None
            if plan.kind == "update" and str(e).startswith("UNIQUE constraint failed"):
                ran: list[sqlite3.Cursor] = []

                def run() -> list[tuple[object, ...]]:
                    ran.append(conn.execute(sql, bound))
                    return ran[-1].fetchall()
                try:
                    again = statement_keys.retry_update(conn, info, run)
                except sqlite3.Error as e2:
                    raise self._map_error(e2, plan) from None
                if again is not None:
                    cur = ran[-1]
            if again is None:
                raise self._map_error(e, plan) from None
            if returning is not None:
                returning.extend(again)
        except sqlite3.Error as e:
            raise self._map_error(e, plan) from None
        for tabid, kind, _start in serials:
            value = state.serials[(tabid, kind)]
            if temp:
                assert info is not None
                self._temp_serials[(info.name, kind)] = value
            else:
                conn.execute(f"UPDATE {counters} SET next = ? WHERE tabid = ? AND kind = ?",
                             (value, tabid, kind))
        rowcount = len(returning) if returning is not None else max(cur.rowcount, 0)
        state.last_rowcount = rowcount
        serial = state.serial_used.get("s", 0)
        serial8 = state.serial_used.get("8")
        if "s" in state.serial_used:
            state.last_serial = serial
        if serial8 is not None:
            state.last_serial8 = serial8
        has8 = bool(serials) and any(k == "8" for _, k, _ in serials)
        return ExecResult(rowcount, serial, serial8 if has8 else None)

    def _select_into(self, plan: Plan, bound: dict[str, object]) -> ExecResult:
        assert plan.into_temp is not None
        if plan.prelude:  # TABLE(FUNCTION …) sources (spl/calls.py)
            fill_table_functions(self, plan, bound)
        ddl.check_result_names(plan.names)  # -249 (ids_sqs_0159, ids_sqs_2106)
        self.temp_snapshot()  # a ROLLBACK drops the table again

        spec = CreateTable(plan.into_temp, [ColumnSpec(n, t.nullable()) for n, t in zip(
            plan.names, _one_serial_per_kind(plan.types), strict=True)], [], temp=True)
        ddl.create_table(self._ddl_context(), spec)
        cols = ", ".join(cat.quote(n) for n in plan.names)
        conn = self._connection()
        try:
            cur = conn.execute(f"INSERT INTO temp.{cat.quote(plan.into_temp.name)} ({cols}) "
                               f"SELECT * FROM ({plan.sql})", bound)
        except sqlite3.Error as e:
            raise self._map_error(e, plan) from None
        self._local_plans.clear()
        return ExecResult(max(cur.rowcount, 0))

    def close(self) -> None:
        """Roll back any open transaction and release everything."""
        try:
            if self.database is not None:
                self._close_current()
        finally:
            if self._nodb is not None:
                self._nodb.close()
                self._nodb = None


_SERIAL_BASE = {TypeCode.SERIAL: it.INTEGER, TypeCode.SERIAL8: it.INT8,
                TypeCode.BIGSERIAL: it.BIGINT}


def _one_serial_per_kind(types: Sequence[it.IfxType]) -> list[it.IfxType]:
    """The column types of a SELECT … INTO TEMP table. A serial column of the query stays
    serial in the temp table, but a table holds one SERIAL and one SERIAL8/BIGSERIAL (-362):
    the Tutorial's self-join into a temp table (ids_sqt_161, ``x.order_num orders1, …,
    y.order_num orders2 … INTO TEMP shipping``) selects two SERIAL columns and the page
    prints the table it made, so a real server accepts it. Which of the two stays serial is
    not recorded; we keep the first and give the others their integer type."""
    out: list[it.IfxType] = []
    seen: set[str] = set()
    for t in types:
        if t.is_serial:
            kind = "s" if t.code == TypeCode.SERIAL else "8"
            if kind in seen:
                t = _SERIAL_BASE[TypeCode(t.code)]
            seen.add(kind)
        out.append(t)
    return out
