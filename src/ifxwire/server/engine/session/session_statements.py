"""EngineSession's statements other than queries and DML: DATABASE, transactions, SET, and
the DDL dispatch to the modules that build each object (ddl, alter, objects, access, …).

A mixin of EngineSession (session.py defines the state it uses).
"""

from __future__ import annotations

import dataclasses
import sqlite3
from typing import TYPE_CHECKING, TypeVar, cast

from ..core import sqlcodes as sc
from ..core.errors import EngineError, KeptWorkError, not_implemented
from ..core.hooks import CAPTURE
from ..core.ifxtypes import IfxType
from ..features import (
    access,
    alter,
    casts,
    check_rules,
    composite,
    ddl,
    ddl_statistics,
    distinct,
    fragments,
    object_modes,
    objects,
    objstate,
    triggers,
    violations,
)
from ..features.spl import calls as spl_calls
from ..features.spl import catalog as spl_catalog
from ..schema import catalog as cat
from ..schema import catalog_versions as versions
from ..schema.casts import CastRow
from ..schema.routines import Routine
from ..sql.prepared import ExecResult
from ..sql.statements import (
    CreateIndex,
    CreateSchemaSpec,
    CreateTable,
    CreateTableAs,
    DatabaseSpec,
    DropObject,
    IfxStatement,
    LockSpec,
    SavepointSpec,
    SetSpec,
    StatisticsSpec,
)
from ..sql.translate import Compiler, Plan
from .session_locks import isolation_of
from .session_txn import private_table

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ..core import values as vals
    from ..sql.statements_ext import ObjectModesSpec, TruncateSpec
    from .engine import Engine
    from .session import EngineSession


R = TypeVar("R")


class StatementRunner:
    """The non-DML statements of EngineSession."""

    if TYPE_CHECKING:
        engine: Engine
        user: str
        role: str | None
        env: Mapping[str, str]
        session_id: int
        database: str | None
        in_transaction: bool
        lock_wait: int | None
        temp_tables: dict[str, cat.TableInfo]
        _sql_txn: bool
        _db_level: str
        _ddl_dirty: bool
        _in_ddl: int
        _kept_error: KeptWorkError | None
        _local_plans: dict[tuple[object, ...], Plan]
        _schema: cat.Schema | None

        def open_database(self, name: str, exclusive: bool = False) -> int: ...
        def close_database(self) -> None: ...
        def begin(self) -> None: ...
        def _finish(self, verb: str) -> None: ...
        def _savepoint(self, kind: str, spec: SavepointSpec) -> None: ...
        def _busy_timeout(self) -> None: ...
        def _start_statement(self) -> None: ...
        def _connection(self) -> sqlite3.Connection: ...
        def _ctx(self) -> vals.ConvContext: ...
        def _delimident(self) -> bool: ...
        def _db_path(self) -> str: ...
        def privileges(self, version: int | None = None) -> access.Privileges: ...
        def current_schema(self, version: int | None = None) -> cat.Schema: ...
        def resolve(self, name: str, owner: str | None, database: str | None,
                    offset: int) -> cat.TableInfo: ...
        def routines(self, name: str) -> list[Routine]: ...
        def named_type(self, name: str) -> IfxType | None: ...
        def cast(self, source: IfxType, target: IfxType) -> CastRow | None: ...
        def sequence(self, name: str) -> cat.SequenceInfo | None: ...
        def _write(self, plan: Plan, action: Callable[[], ExecResult]) -> ExecResult: ...
        def run_private(self, action: Callable[[], R], target: str | None = None,
                        creates: bool = False, dml: bool = False) -> R: ...
        _temp_no_log: set[str]

        def temp_snapshot(self) -> None: ...
        def _map_error(self, e: sqlite3.Error, plan: Plan) -> EngineError: ...

        isolation: str | None
        _txn_set: tuple[bool, str | None] | None
        _txn_read_only: bool
        retain_updates: bool
        row_locks: bool
        txn_has_work: bool

        def rl_lock_table(self, table: str, exclusive: bool, lock: bool) -> None: ...
        def rl_check_ddl(self, table: str | None) -> None: ...
        def rl_ddl_applies(self) -> bool: ...
        def rl_ddl(self, table: str | None, action: Callable[[], R],
                   copy: bool = True) -> R: ...

    def _statement(self, stmt: IfxStatement) -> ExecResult:
        kind = str(stmt.this)
        spec = stmt.meta.get("spec")
        if kind == "database":
            assert isinstance(spec, DatabaseSpec)
            self.open_database(spec.name, spec.exclusive)
            return ExecResult(0, db_flags_changed=True)
        if kind == "close_database":
            self.close_database()
            return ExecResult(0, db_flags_changed=True)
        if kind == "create_database":
            assert isinstance(spec, DatabaseSpec)
            if self.in_transaction and self.txn_has_work:
                raise EngineError(sc.ALREADY_IN_TRANSACTION)
            if spec.if_not_exists and self.engine.exists(spec.name.lower()):
                return ExecResult(0)  # ids_sqs_0368: IF NOT EXISTS takes no action
            locale = self.env.get("DB_LOCALE") or "en_US.819"
            self.engine.create_database(spec.name, self.user, spec.logged, spec.buffered,
                                        spec.ansi, locale)
            self.open_database(spec.name)
            return ExecResult(0, db_flags_changed=True)
        if kind == "drop_database":
            assert isinstance(spec, DropObject)
            if spec.if_exists and not self.engine.exists(spec.name.name.lower()):
                return ExecResult(0)  # ids_sqs_0713's own example: DROP DATABASE IF EXISTS
            self.engine.drop_database(spec.name.name, self.session_id)
            return ExecResult(0)
        if kind == "begin":
            self.begin()
            return ExecResult(0)
        if kind in ("commit", "rollback"):
            self._finish(kind.upper())
            return ExecResult(0)
        if kind in ("savepoint", "release_savepoint", "rollback_to_savepoint"):
            assert isinstance(spec, SavepointSpec)
            self._savepoint(kind, spec)
            return ExecResult(0)
        if kind == "set_lock_mode":
            assert isinstance(spec, SetSpec)
            self.lock_wait = spec.wait
            self._busy_timeout()
            return ExecResult(0)
        if kind == "set_isolation":
            assert isinstance(spec, SetSpec)
            level = isolation_of(spec.words)
            if self.in_transaction:
                # SET TRANSACTION once per transaction, and its level for the whole of it
                # (ids_sqs_1201, ids_sqt_392: the second is -876); SET ISOLATION may change
                # the level in a transaction any number of times, unless SET TRANSACTION set
                # it (-877, the message catalogue's "Isolation Level previously set by 'Set
                # Transaction'"). The level ends with the transaction (txn_level_ends).
                if spec.words[:1] == ("TRANSACTION",):
                    if self._txn_set is not None:
                        raise EngineError(sc.SET_TRANSACTION_ACTIVE)
                    self._txn_set = (level is not None, self.isolation)
                    # the access mode: READ ONLY refuses the transaction's writes (-878,
                    # ids_sqs_1207); READ WRITE, the default, changes nothing
                    self._txn_read_only = _read_only(spec.words)
                elif self._txn_set is not None and self._txn_set[0]:
                    raise EngineError(sc.ISOLATION_SET_BY_TRANSACTION)
            if level is not None:
                self.isolation = level
            if spec.words[:1] == ("ISOLATION",):
                # "To turn off the RETAIN UPDATE LOCKS feature, set the isolation level
                # without the RETAIN UPDATE LOCKS clause" (ids_sqt_398; SQL Syntax, SET
                # ISOLATION, ids_sqs_1169)
                self.retain_updates = spec.words[-3:] == ("RETAIN", "UPDATE", "LOCKS")
            return ExecResult(0)
        if kind == "set_other":
            return ExecResult(0)
        if kind == "set_debug_file":
            assert isinstance(spec, SetSpec)
            spl_calls.runtime(cast("EngineSession", self)).set_debug_file(
                spec.words[0], spec.words[1] == "APPEND")
            return ExecResult(0)
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        self._start_statement()
        if self._txn_read_only and kind not in _READ_ONLY_OK:
            raise EngineError(sc.READ_ONLY_TRANSACTION)  # DDL, GRANT, ... (ids_sqs_1207)
        if kind == "update_statistics":
            assert isinstance(spec, StatisticsSpec)
            return self._update_statistics(spec)
        if kind == "execute_routine":
            return ExecResult(0)
        if kind == "set_role":
            access.set_role(cast("EngineSession", self), spec)  # type: ignore[arg-type]
            return ExecResult(0)
        if kind in ("lock_table", "unlock_table"):
            assert isinstance(spec, LockSpec)
            info = self.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
            if self.row_locks and not info.temp and info.schema == "main":
                self.rl_lock_table(info.name, spec.exclusive, kind == "lock_table")
            return ExecResult(0)
        if kind == "create_schema":
            assert isinstance(spec, CreateSchemaSpec)
            return self._create_schema(spec)
        if self._private_ddl(kind, spec):
            return self._private_ddl_run(kind, spec)
        if kind == "create_temp_table":
            self.temp_snapshot()  # one run escalated (smart LOBs): a ROLLBACK drops it again
        self._kept_error = None
        if self.row_locks:
            table = _ddl_table(kind, spec)
            self.rl_check_ddl(table)
            if (self.rl_ddl_applies() and kind not in _ESCALATED_DDL
                    and not _other_database(spec)
                    and not (kind in _ROWS_BELOW and self._supertable(table))):
                # its own short write with undo entries (session_lock_ddl.py)
                done = self.rl_ddl(table, lambda: self._ddl(kind, spec),
                                   kind not in ("create_index", "create_trigger"))
                return self._kept(done)
        return self._kept(self._write(Plan("ddl", 0), lambda: self._ddl(kind, spec)))

    def _kept(self, done: ExecResult) -> ExecResult:
        """A DDL statement that ended as a success but owes its client an error: SET
        CONSTRAINTS … ENABLED's -971 after copying rows to the violations table
        (core.errors.KeptWorkError; features/violations.py)."""
        kept, self._kept_error = self._kept_error, None
        if kept is not None:
            raise kept
        return done

    def _update_statistics(self, spec: StatisticsSpec) -> ExecResult:
        """UPDATE STATISTICS: the row counts into systables and sysindices, for the table
        named (-206 if missing) or every table of the database (features/ddl_statistics.py
        says what it costs). A catalogue write, under the write lock as DDL's are."""
        if spec.table is not None:
            t = spec.table
            tables = [self.resolve(t.name, t.owner, t.database, t.offset)]
            names = {c.name for c in tables[0].columns}
            for column in spec.columns:  # "Must exist" (ids_sqs_1278)
                if column not in names:
                    raise EngineError(sc.NO_COLUMN, near=column)
        elif spec.tables:
            tables = list(self.current_schema().tables.values())
        else:
            return ExecResult(0)  # FOR PROCEDURE ...: routines' plans are not kept
        if not any(i.kind == "T" and not i.temp and i.schema == "main" for i in tables):
            return ExecResult(0)
        def write() -> ExecResult:
            ddl_statistics.update_statistics(self._connection(), tables,
                                             spec.mode != "LOW", spec.columns)
            return ExecResult(0)

        return self._write(Plan("ddl", 0), write)

    def _create_schema(self, spec: CreateSchemaSpec) -> ExecResult:
        """CREATE SCHEMA AUTHORIZATION (ids_sqs_0483): its statements run in order as one
        write, so an error in any of them leaves none of them done ("a block ... as a
        unit"), each with the named user as the creator, who owns the objects and grants
        the privileges. Only a DBA may name another user (-389, No DBA permission: the page
        says only "an error"); a user naming himself needs what each statement needs
        (Resource, checked per part by ``_ddl``). Escalated in a row-lock transaction, as
        the other multi-object DDL is."""
        if spec.owner != self.user:
            self.privileges()  # the level as GRANT/REVOKE left it
            if self._db_level != "D":
                raise EngineError(sc.NO_DBA)
        if self.row_locks:
            self.rl_check_ddl(None)
        if self.in_transaction:
            # take the transaction's write lock first (escalated with row locks), so that a
            # failing part below is not the write that opened the SQLite transaction, whose
            # error would roll back the whole transaction's earlier work with it
            self._write(Plan("ddl", 0), lambda: ExecResult(0))

        def run() -> ExecResult:
            conn = self._connection()
            nested = conn.in_transaction  # a transaction's: undo only the block on an error
            if nested:
                conn.execute("SAVEPOINT _ifx_schema")
            try:
                for kind, part in spec.parts:
                    self._ddl(kind, part, as_user=spec.owner)
            except BaseException:
                if nested:
                    conn.execute("ROLLBACK TO _ifx_schema")
                    conn.execute("RELEASE _ifx_schema")
                raise
            if nested:
                conn.execute("RELEASE _ifx_schema")
            return ExecResult(0)

        return self._write(Plan("ddl", 0), run)

    def _supertable(self, table: str | None) -> bool:
        """DDL on a typed supertable changes its subtables too (TRUNCATE empties them, DROP
        drops them), which row-lock DDL's undo would not take back: it runs escalated."""
        info = self.current_schema().tables.get(table) if table else None
        return info is not None and bool(info.subtables)

    def _truncate(self, dc: ddl.DdlContext, spec: TruncateSpec) -> None:
        for emptied in alter.truncate(dc, spec):
            CAPTURE.truncate(self, emptied)  # each with full-row logging gets its record

    def _private_ddl_run(self, kind: str, spec: object) -> ExecResult:
        """A private DDL statement (``_private_ddl``), with the temporary table it makes or
        changes for run_private, and its WITH NO LOG remembered."""
        if isinstance(spec, CreateTable):
            name = spec.table.name
            done = self.run_private(lambda: self._ddl(kind, spec, private=True), name,
                                    creates=True)
            if spec.no_log:
                self._temp_no_log.add(name)
            return done
        target = spec.name.name if isinstance(spec, DropObject) else (
            spec.table.name if isinstance(spec, CreateIndex) else None)
        done = self.run_private(lambda: self._ddl(kind, spec, private=True), target)
        if kind == "drop_table" and target is not None:
            self._temp_no_log.discard(target)
        return done

    def _private_ddl(self, kind: str, spec: object) -> bool:
        """CREATE TEMP TABLE, and DROP TABLE / CREATE INDEX of one of the session's temporary
        tables: they change the session's ``temp`` schema only (session_txn.run_private)."""
        if kind == "create_temp_table" and isinstance(spec, CreateTable):
            return spec.table.database is None and not any(
                c.type.is_smart_lob for c in spec.columns) and not any(
                c.kind == "R" for c in [*spec.constraints,
                                        *(k for col in spec.columns for k in col.constraints)])
        if kind == "drop_table" and isinstance(spec, DropObject):
            name = spec.name
            return (name.database is None and name.owner is None
                    and private_table(self.temp_tables.get(name.name)))
        if kind == "create_index" and isinstance(spec, CreateIndex):
            table = spec.table
            return (table.database is None and table.owner is None
                    and private_table(self.temp_tables.get(table.name)))
        return False

    def _ddl(self, kind: str, spec: object, private: bool = False,
             as_user: str | None = None) -> ExecResult:
        if self._db_level != "D":  # a DBA stays one for the session (checked at open)
            self.privileges()  # refreshes the level after GRANT/REVOKE
            access.check_ddl(cast("EngineSession", self), self._db_level, kind, spec)
            if isinstance(spec, CreateTableAs):
                # the query reads its tables as a SELECT does: the Select privilege (-272)
                compiler = Compiler(self, self._ctx(), self._delimident())
                query = compiler.compile_query(spec.query.copy())
                query.tables = dict(compiler.tables)
                query.routines = sorted(compiler.routines)
                cast("EngineSession", self)._check_privileges(query)
        dc = self._ddl_context()
        if as_user is not None:
            dc = dataclasses.replace(dc, user=as_user)  # CREATE SCHEMA AUTHORIZATION's owner
        handlers = {
            "create_table": ddl.create_table, "create_temp_table": ddl.create_table,
            "create_table_as": ddl.create_table_as, "select_into_table": ddl.create_table_as,
            "create_index": ddl.create_index, "create_view": ddl.create_view,
            "create_row_type": composite.create_row_type,
            "drop_row_type": composite.drop_row_type,
            "create_distinct_type": distinct.create_distinct_type,
            "drop_type": distinct.drop_type,
            "create_cast": casts.create_cast, "drop_cast": casts.drop_cast,
            "drop_table": ddl.drop, "drop_view": ddl.drop, "drop_index": ddl.drop,
            "alter_table": alter.alter_table, "rename_table": alter.rename,
            "rename_column": alter.rename, "create_routine": spl_catalog.create_routine,
            "drop_routine": spl_catalog.drop_routine, "create_trigger": triggers.create_trigger,
            "drop_trigger": triggers.drop_trigger,
            "create_sequence": lambda dc, sp: objects.create_sequence(
                dc, sp, self.engine.sequences, self._db_path()),
            "rename_sequence": objects.rename_sequence,
            "alter_sequence": lambda dc, sp: objects.alter_sequence(
                dc, sp, self.engine.sequences, self._db_path()),
            "drop_sequence": lambda dc, sp: objects.drop_sequence(
                dc, sp, self.engine.sequences, self._db_path()),
            "create_synonym": objects.create_synonym, "drop_synonym": objects.drop_synonym,
            "truncate": self._truncate,
            "rename_index": alter.rename_index, "alter_index": ddl.alter_index,
            "set_constraints": violations.set_constraint_modes,
            "start_violations": object_modes.start_violations,
            "stop_violations": object_modes.stop_violations,
            "alter_fragment": fragments.alter_fragment,
            "set_triggers": triggers.set_triggers, "set_indexes": violations.set_indexes,
            "set_modes": _set_modes,
            "grant": access.grant, "revoke": access.grant,
            "create_role": access.create_role, "drop_role": access.drop_role,
        }
        handler = handlers.get(kind)
        if handler is None:
            raise not_implemented(kind.replace("_", " ").upper())
        # Loads of the catalogue during the statement see its uncommitted rows: never shared
        # nor a base of partial loads (session_schema.current_schema; review of 6832185a)
        self._in_ddl += 1
        try:
            violations.before_ddl(dc, kind, spec)  # -897, -898, a target's DROP cascade
            mark = object_modes.creation_mark(dc, spec)  # CREATE … DISABLED, FILTERING
            stamp = -1 if private else versions.top(dc.conn)  # (objstate.sync's tables)
            try:
                done = handler(dc, spec)  # type: ignore[operator]
            except KeptWorkError as e:
                # the statement's work stays and it fails after it ends (_ddl_statement)
                self._kept_error, done = e, None
            if mark is not None:
                object_modes.creation_modes(dc, spec, mark)
            if not private:
                objstate.sync(dc.conn, stamp)  # a row per index, constraint, trigger
                object_modes.sync(dc)  # FILTERING objects' triggers, sysviolations
                # Catalog-only changes (sequences, synonyms, grants) do not move SQLite's
                # schema version, which keys the schema and plan caches: move it. (A temp
                # table's plans are cached per session and dropped below.)
                dc.conn.execute("CREATE TABLE _ifx_bump (x)")
                dc.conn.execute("DROP TABLE _ifx_bump")
        except sqlite3.Error as e:
            raise self._map_error(e, Plan("ddl", 0)) from None
        finally:
            self._in_ddl -= 1
            # the schema seen during the statement is not reused after it (also after a
            # failed one, whose changes are undone and may bring a version number back)
            self._schema = None
        if self.in_transaction:
            self._ddl_dirty = True
        self._local_plans.clear()
        self._schema = None
        # SELECT … INTO STANDARD | RAW counts its rows, as SELECT … INTO TEMP does
        return ExecResult(done if kind == "select_into_table" and isinstance(done, int) else 0)

    def _ddl_context(self) -> ddl.DdlContext:
        conn = self._connection()

        def compile_check(info: cat.TableInfo, expr: object) -> str:
            return self._compile_check(info, expr)

        def compile_view(query: object) -> tuple[str, list[str], list[IfxType]]:
            compiler = Compiler(self, self._ctx(), self._delimident())
            plan = compiler.compile_query(query)  # type: ignore[arg-type]
            if plan.params:
                raise EngineError(sc.SYNTAX)
            if compiler.table_functions:  # (filled per statement: no view text holds one)
                raise not_implemented("TABLE(FUNCTION …) in a view or a CREATE … AS SELECT")
            return plan.sql, plan.names, plan.types

        schema = self.current_schema() if self.database else cat.Schema({}, {}, set())
        return ddl.DdlContext(conn, self.user, self._ctx(), schema, self.temp_tables,
                              compile_check, compile_view, self.resolve,
                              self._delimident(), self.role)

    def _compile_check(self, info: cat.TableInfo, expr: object) -> str:
        from sqlglot import exp

        session = self

        class OneTable:
            def resolve(self, name: str, owner: str | None, database: str | None,
                        offset: int) -> cat.TableInfo:
                if name == info.name and database is None:
                    return info
                return session.resolve(name, owner, database, offset)

            def routines(self, name: str) -> list[Routine]:
                return session.routines(name)

            def sequence(self, name: str) -> cat.SequenceInfo | None:
                return None

            def named_type(self, name: str) -> IfxType | None:
                return session.named_type(name)

            def cast(self, source: IfxType, target: IfxType) -> CastRow | None:
                return session.cast(source, target)

        assert isinstance(expr, exp.Expr)
        check_rules.refuse(expr, self.routines, self._connection())
        compiler = Compiler(OneTable(), self._ctx(), self._delimident())
        select = exp.Select(expressions=[exp.Literal.number(1)]).from_(
            exp.Table(this=exp.to_identifier(info.name)))
        select.set("where", exp.Where(this=expr.copy()))
        compiler.compile_query(select)
        where = compiler._last_where
        assert where is not None
        for col in where.find_all(exp.Column):
            col.set("table", None)
        return compiler.generate(where)


def _set_modes(dc: ddl.DdlContext, spec: ObjectModesSpec) -> None:
    """SET CONSTRAINTS, INDEXES, TRIGGERS FOR t mode: each type's own statement, in order."""
    run = {"set_constraints": violations.set_constraint_modes,
           "set_triggers": triggers.set_triggers, "set_indexes": violations.set_indexes}
    for kind, part in spec.parts:
        run[kind](dc, part)


#: DDL that still escalates inside a row-lock transaction: SET CONSTRAINTS ... DEFERRED is
#: SQLite's defer_foreign_keys, which lasts for one SQLite transaction, so the transaction
#: must stay one SQLite transaction to its COMMIT (session_lock_ddl.py runs the rest).
_ESCALATED_DDL = ("set_constraints", "set_modes",
                  # (they create tables or drop and create indexes: one SQLite transaction)
                  "start_violations", "stop_violations", "set_indexes")

#: What a READ ONLY transaction may still run after ``_start_statement``: everything else
#: there creates, alters, drops, renames, grants, revokes or updates statistics (-878;
#: SQL Syntax, SET TRANSACTION, "Access Modes", ids_sqs_1207). A routine runs, and its own
#: writes meet the check in ``_write``; LOCK TABLE changes no data.
_READ_ONLY_OK = frozenset(("execute_routine", "set_role", "lock_table", "unlock_table"))


def _read_only(words: tuple[str, ...]) -> bool:
    """Whether a SET TRANSACTION's words name the READ ONLY access mode."""
    return "READ ONLY" in " ".join(words)

#: DDL that changes the rows of a typed table's subtables too (TRUNCATE empties them, DROP
#: drops them): on a supertable it runs escalated. Only these ask (``_supertable`` reads the
#: catalogue, a load more per ALTER in a transaction otherwise; typed tables take no ALTER
#: of their columns, and an index or trigger moves no row).
_ROWS_BELOW = ("truncate", "drop_table")

#: DDL that changes an existing table: it waits for (or fails on) other sessions' locks.
_TABLE_DDL = ("drop_table", "alter_table", "rename_table", "rename_column", "truncate",
              "create_index", "create_trigger")


def _ddl_table(kind: str, spec: object) -> str | None:
    """The table a DDL statement changes, for the row-lock check (None: none, or new)."""
    if kind not in _TABLE_DDL:
        return None
    for attr in ("table", "name"):
        v = getattr(spec, attr, None)
        name = getattr(v, "name", v)
        if isinstance(name, str):
            return name
    return None


def _other_database(spec: object) -> bool:
    """DDL naming another database's object (``db:table``): its changes are not in this
    database's catalogue, which session_lock_ddl.py compares; it runs escalated."""
    return any(getattr(getattr(spec, attr, None), "database", None)
               for attr in ("table", "name"))
