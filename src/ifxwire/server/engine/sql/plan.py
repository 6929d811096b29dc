"""A compiled statement (Plan) and what the compiler needs to look names up (TableLookup)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from ....protocol.columns import ColumnDesc
from ....types.rowcodec import row_width
from ..core import convert as conv
from ..core import ifxtypes as it
from ..core import values as vals
from ..core.ifxtypes import IfxType
from ..schema.casts import CastKey, CastRow
from ..schema.catalog import SequenceInfo, TableInfo
from ..schema.routines import Routine
from .statements import IfxStatement, TableName


class TableLookup(Protocol):
    def resolve(self, name: str, owner: str | None, database: str | None,
                offset: int) -> TableInfo: ...

    def routines(self, name: str) -> list[Routine]: ...

    def sequence(self, name: str) -> SequenceInfo | None: ...

    def named_type(self, name: str) -> IfxType | None: ...


@dataclass
class Plan:
    kind: str  # query, insert, update, delete, stmt
    stmt_type: int
    sql: str = ""
    names: list[str] = field(default_factory=list)
    types: list[IfxType] = field(default_factory=list)
    params: list[IfxType] = field(default_factory=list)
    table: TableInfo | None = None
    serials: list[tuple[int, str, int]] = field(default_factory=list)  # tabid, kind, start
    stmt: IfxStatement | None = None
    into_temp: TableName | None = None
    columns: list[ColumnDesc] = field(default_factory=list)
    loaders: list[Callable[[object], object] | None] = field(default_factory=list)
    param_convs: list[Callable[[object], object]] = field(default_factory=list)
    binder: conv.RowBinder | None = None  # param_convs as one function (EngineSession._bind)
    # The loaders that are not None, with their column index (EngineSession._stream), made
    # at the first OPEN: every OPEN of a one-row query used to build this list again.
    active_loaders: list[tuple[int, Callable[[object], object]]] | None = None
    # Whether the query only reads (EngineSession._late_check), found at the first OPEN.
    reads_only: bool | None = None
    # Whether an autocommit OPEN may leave its read transaction parked (session_park.py).
    parks: bool | None = None
    # conv.batch_loader(loaders) and the _accel.accelerated it was made under (the same).
    fast_loader: tuple[bool, Callable[[list[tuple[object, ...]]],
                                      list[tuple[object, ...]] | None] | None] | None = None
    # batch.py: the SQL with numbered parameters and its tuple binder (None: keep the names).
    batch: tuple[str, conv.TupleBinder | None] | None = None
    session_dependent: bool = False
    other_databases: bool = False  # reads tables of databases this session attached
    for_update: bool = False
    update_of: list[str] = field(default_factory=list)  # FOR UPDATE OF: the columns listed
    # Referenced permanent tables and their shape when compiled (for -710 at execute).
    tables: dict[str, tuple[object, ...]] = field(default_factory=dict)
    # The same for the tables of other databases, keyed (database, table) (cross_database.py).
    other_tables: dict[tuple[str, str], tuple[object, ...]] = field(default_factory=dict)
    routine: int | None = None  # kind "call": the procid of the routine EXECUTE runs
    native: str = ""  # kind "call": a built-in routine run by a feature (cdc/routines.py)
    routines: list[int] = field(default_factory=list)  # routines its expressions call
    #: each routine name it resolved -> the procids of every routine of that name then: a
    #: prepared statement is -710 once a routine of the name is dropped or created
    #: (session._check_current), so that the driver prepares it again and it resolves anew
    overloads: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: TABLE(FUNCTION f(…)) in FROM: (TEMP table, the call's plan, its column definitions)
    #: filled with the routine's rows before the statement runs (spl/calls.py)
    prelude: list[tuple[str, Plan, str]] = field(default_factory=list)
    # Distinct types its casts name, (extended_id, name): the Usage privilege (access.py).
    cast_types: list[tuple[int, str]] = field(default_factory=list)
    # The syscasts rows its DISTINCT types were checked against (udt_casts.py), by key, None
    # for no cast: a prepared statement is -710 once they change (session._check_current).
    casts: dict[CastKey, CastRow | None] = field(default_factory=dict)
    # Sequences its NEXTVAL / CURRVAL read: the Select privilege on each (access.py).
    sequences: list[str] = field(default_factory=list)
    # UPDATE: the columns it sets, and a SELECT of the rows it will change (rowid first) for
    # the old values FOR EACH ROW triggers read (triggers.py).
    updated: list[str] | None = None
    old_sql: str = ""
    parts: list[Plan] = field(default_factory=list)  # MERGE: the statements it runs, in order
    # WHERE CURRENT OF (current_of.py): a FOR UPDATE query's hidden trailing rowid column, and
    # the cursor an UPDATE/DELETE is limited to.
    current_rowid: bool = False
    current_of: str | None = None
    # CURSOR STABILITY (session_lock_reads.rl_stability): the query again with its single
    # table's rowid as a hidden last column, and that table's name; made from ``source``
    # (the statement's text, kept at PREPARE) at the first OPEN under that level
    # (``stability_done``), None for a shape without one row per table row.
    source: str = ""
    stability: tuple[str, str] | None = None
    stability_done: bool = False
    # INSERT … VALUES: the target column of each ``?`` (what SQ_DESCRIBE lists for an INSERT,
    # as real servers do: docs/PROTOCOL.md §5), when every ``?`` is a value of its own.
    inputs: list[ColumnDesc] = field(default_factory=list)
    # DML through a view (views.py): the view named (privileges are checked on it, not on the
    # tables its definition reads), and WITH CHECK OPTION the check of the rows written.
    view: str | None = None
    view_tables: set[str] = field(default_factory=set)
    view_check: str = ""
    # A query's Select triggers (select_triggers.py): their names, and per FROM item whose rows
    # run FOR EACH ROW actions its tables (one, or a supertable's hierarchy) and the triggers
    # it activates; two hidden columns per item (rowid, table index) trail the row.
    select_triggers: list[str] = field(default_factory=list)
    select_rowids: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    # A writing statement's route, found at its first run (session_txn.Transactions._write):
    # (it writes only a private temporary table, row locks can undo it, it is short).
    write_route: tuple[bool, bool, bool] | None = None

    def routine_name(self, procid: int) -> str:
        """The name of a routine the plan resolved (its procid if none: not of this plan)."""
        return next((n for n, ids in self.overloads.items() if procid in ids), str(procid))

    def finish(self, ctx: vals.ConvContext) -> Plan:
        self.columns = with_start_offsets(
            [t.describe(n) for n, t in zip(self.names, self.types, strict=True)])
        self.loaders = [conv.loader(t) for t in self.types]
        self.active_loaders = self.fast_loader = None  # made from these loaders at OPEN
        self.reads_only = self.parks = None
        self.param_convs = [param_converter(t, ctx) for t in self.params]
        return self


def table_signature(info: TableInfo) -> tuple[object, ...]:
    """What a compiled plan depends on in a table: its identity, its columns' types, and a
    typed supertable's subtables (a query on it reads theirs: one created later is in it)."""
    return (info.tabid, tuple((c.name, c.type.key, c.type.notnull) for c in info.columns),
            tuple(info.subtables))


def with_start_offsets(columns: list[ColumnDesc]) -> list[ColumnDesc]:
    """Fill each column's tuple start position (DESCRIBE ``columnStartPos``): clients read a
    fixed-layout row at these offsets (jdbc-protocol.md 4.3), so they must be the running sum of
    the widths the row encoder writes."""
    out = []
    for i, col in enumerate(columns):
        out.append(replace(col, start=row_width(columns[:i])))
    return out


def param_converter(t: IfxType, ctx: vals.ConvContext) -> Callable[[object], object]:
    if t.code != -1:
        return conv.storer(t, ctx)
    return passthrough


def passthrough(v: object) -> object:
    """A parameter nothing typed: hand SQLite a plain value in our storage conventions."""
    import datetime as dt
    from decimal import Decimal

    if v is None or isinstance(v, (int, float, str, bytes)):
        return int(v) if isinstance(v, bool) else v
    if isinstance(v, Decimal):
        return vals.dec_text(v)
    if isinstance(v, dt.datetime):
        return vals.to_dt_text(v, it.datetime_type(0, 15))
    if isinstance(v, dt.date):
        return vals.date_number(v)
    return str(v)
