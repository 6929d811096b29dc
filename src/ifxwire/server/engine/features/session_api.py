"""The part of the engine session that the features use, named without importing it.

The session (``session/session.py``'s ``EngineSession``) is the layer above the features
(docs/ARCHITECTURE.md, "The engine's layers"): it imports them and hands itself to them. A
feature that annotated its ``s`` with ``EngineSession`` had to import the layer above it, if
only for the type checker, and that import drew a circle across the engine's subpackages
(features -> session -> features). ``FeatureSession`` says what the features actually call
of the session, written from their calls; ``EngineSession`` satisfies it structurally, and
mypy (strict) proves it wherever the session passes itself to a feature. A member a feature
starts to use is added here, with the session's own type for it.

Nothing here runs: the module holds two Protocols, imports the types it names for annotations
only (besides the SQL layer's ``TableLookup``, which ``FeatureSession`` extends), and every
feature imports it under ``TYPE_CHECKING``; no import of it goes up a layer.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..sql.plan import TableLookup

if TYPE_CHECKING:
    from ..core.errors import EngineError
    from ..core.values import ConvContext
    from ..schema import catalog as cat
    from ..schema.routines import Routine
    from ..sql.functions import FunctionState
    from ..sql.plan import Plan
    from ..sql.prepared import ExecResult, Prepared
    from ..sql.statement_specs import IfxStatement
    from .access import OwnerRights, Privileges
    from .lobs.lo_session import LoSession
    from .spl.interp import Runtime

R = TypeVar("R")


class FeatureEngine(Protocol):
    """What the features use of the engine (``session/engine.py``'s ``Engine``): database
    paths, the server's name and settings, and who has a database open."""

    # read-only here (properties): a feature reads the engine's settings, never sets them
    @property
    def data_dir(self) -> str: ...  # the change log's directory (cdc/hub.py)
    @property
    def server_name(self) -> str: ...
    @property
    def trace_dir(self) -> str | None: ...
    @property
    def row_locks(self) -> bool: ...

    def path(self, name: str) -> str: ...
    def readonly_uri(self, name: str) -> str: ...
    def attach_session(self, name: str, session_id: int, exclusive: bool) -> None: ...
    def detach_session(self, name: str, session_id: int) -> None: ...


class FeatureSession(TableLookup, Protocol):
    """What the features use of one client's ``EngineSession``: its identity and database,
    its catalogue (as the SQL layer's ``TableLookup`` too: an SPL statement is compiled
    against it), its connection and transaction, the statements it runs and the checks it
    makes."""

    @property
    def engine(self) -> FeatureEngine: ...  # read-only: so the Engine class may stand for it
    user: str
    session_id: int
    role: str | None
    database: str | None
    conn: sqlite3.Connection | None
    transactions_ended: int
    temp_tables: dict[str, cat.TableInfo]
    state: FunctionState
    spl: Runtime | None
    lo: LoSession
    in_transaction: bool
    _ansi: bool
    _logged: bool
    _sql_txn: bool
    _incarnation: str
    _cursors: weakref.WeakSet[sqlite3.Cursor]
    # other databases this session reads or writes (cross_database.py keeps them)
    _attached: dict[str, cat.Schema]
    _attached_rw: set[str]
    _attached_versions: dict[str, int]

    @property
    def row_locks(self) -> bool: ...
    @property
    def logged_unbuffered(self) -> bool: ...
    @property
    def incarnation(self) -> str: ...
    def _delimident(self) -> bool: ...
    def _schema_version(self) -> int: ...
    def _connection(self) -> sqlite3.Connection: ...
    def _ctx(self) -> ConvContext: ...
    def _start_statement(self) -> None: ...
    def _dml(self, plan: Plan, bound: dict[str, object],
             returning: list[tuple[object, ...]] | None = None) -> ExecResult: ...
    def _write(self, plan: Plan, action: Callable[[], ExecResult]) -> ExecResult: ...
    def _map_error(self, e: sqlite3.Error, plan: Plan) -> EngineError: ...
    def current_schema(self, version: int | None = None) -> cat.Schema: ...
    def prepare(self, sql: str) -> Prepared: ...
    def execute(self, stmt: Prepared, params: Sequence[object]) -> ExecResult: ...
    def _statement(self, stmt: IfxStatement) -> ExecResult: ...
    def exec_dml(self, plan: Plan, bound: dict[str, object]) -> ExecResult: ...
    def _select_into(self, plan: Plan, bound: dict[str, object]) -> ExecResult: ...
    def run_write(self, action: Callable[[], R], kind: str = "insert") -> R: ...
    def run_write_alone(self, action: Callable[[], R]) -> R: ...
    def _begin_write(self, kind: str, bounded: bool = True) -> None: ...
    def _end_sql_txn(self, verb: str) -> None: ...
    def acting_as_dba(self, dba: bool) -> AbstractContextManager[None]: ...
    def call_routine(self, name: str, args: Sequence[object],
                     outs: list[object] | None = None) -> Iterator[tuple[object, ...]]: ...
    def privileges(self, version: int | None = None) -> Privileges: ...
    def check_execute(self, procid: int, owner: OwnerRights = None) -> None: ...
    def check_in_routine(self, plan: Plan, routine: Routine) -> None: ...
    def routine_rights(self, routine: Routine) -> tuple[str, Privileges] | bool: ...
    def rl_filter_dml_reads(self, plan: Plan, sql: str) -> str: ...
    def rl_flush_own(self) -> None: ...
