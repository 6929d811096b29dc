"""The current row of the clients' FOR UPDATE cursors, for ``WHERE CURRENT OF`` (the engine
side is engine/current_of.py).

A FOR UPDATE query over one table is compiled with a hidden trailing rowid; the session strips
it here from each row it sends and keeps the rowid of the last one, and answers the engine's
question "which row is cursor C on?" when an ``UPDATE/DELETE … WHERE CURRENT OF C`` runs.
Rows of a FOR UPDATE cursor go one per fetch (Session._fetch), so the row the client holds
is the row the server calls current [I: Informix does not use the fetch buffer for update
cursors — each FETCH of such a cursor returns one row, as ESQL/C documents it].
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .engine import EngineError
from .engine import sqlcodes as sc

if TYPE_CHECKING:
    from .engine import TableInfo

Row = tuple[object, ...]


def track_current(st: Any, rows: Iterator[Row]) -> Iterator[Row]:
    """The rows without their hidden rowid; ``st.current_rowid`` follows the last one."""
    try:
        for row in rows:
            st.current_rowid = row[-1]
            yield row[:-1]
        st.current_rowid = None  # past the last row: no current row
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()


def find_current(statements: dict[int, Any], encoding: str, name: str,
                 table: TableInfo | None, updated: list[str] | None = None) -> int:
    """The rowid cursor ``name`` is on (for the engine's ``current_row``); ``updated``: the
    columns an UPDATE sets, each of which must be in the cursor's FOR UPDATE OF list when it
    has one."""
    for st in statements.values():
        if st.cursor_name.decode(encoding, errors="replace").lower() != name.lower():
            continue
        if st.rows is None and st.materialized is None:
            break  # closed (or never opened)
        plan = st.prepared.plan
        if not plan.for_update:
            # The catalogue's message for exactly this (ids_sqs_1275: the cursor "must have
            # been declared FOR UPDATE"); a FOR UPDATE cursor we cannot follow stays -999.
            raise EngineError(sc.NOT_UPDATE_CURSOR, near=name)
        if not plan.current_rowid or plan.table is None or table is None or (
                plan.table.name != table.name):
            why = f"cursor {name} is not a FOR UPDATE cursor of this table"
            raise EngineError(sc.NOT_IMPLEMENTED, near=why, message=why)
        for column in updated or ():
            if plan.update_of and column.lower() not in plan.update_of:
                # ids_sqs_1275: a FOR UPDATE OF list restricts the UPDATE to its columns.
                raise EngineError(sc.NOT_UPDATE_OF, near=column)
        if st.current_rowid is None:
            raise EngineError(sc.NO_CURRENT_ROW, near=name)
        return int(st.current_rowid)
    raise EngineError(sc.CURSOR_NOT_OPEN, near=name)
