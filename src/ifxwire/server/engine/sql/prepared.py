"""What EngineSession.prepare returns and EngineSession.execute answers: shared by the
session's modules and the protocol session."""

from __future__ import annotations

from dataclasses import dataclass, field

from ....protocol.columns import ColumnDesc
from .translate import Plan


@dataclass
class Prepared:
    sql: str
    stmt_type: int
    columns: list[ColumnDesc]
    params: list[ColumnDesc]
    is_query: bool
    plan: Plan = field(repr=False, compare=False)
    for_update: bool = False  # SELECT … FOR UPDATE (a scroll cursor must refuse it: -526)
    schema_version: int = -1  # SQLite schema version when prepared (see _check_current)
    batchable: bool | None = None  # may rows run as one executemany (see can_batch)
    #: What SQ_DESCRIBE lists for a statement that returns no rows: an INSERT's ``?`` targets.
    inputs: list[ColumnDesc] = field(default_factory=list)


@dataclass
class ExecResult:
    rowcount: int
    serial: int = 0
    serial8: int | None = None
    db_flags_changed: bool = False
