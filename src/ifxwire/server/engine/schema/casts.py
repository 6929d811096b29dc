"""The casts of ``syscasts`` as the expression compiler reads them (issue 23, fidelity46).

Guide to SQL: Reference, SYSCASTS (ids_sqr_019): one row per cast, keyed by the argument and
result types as ``syscolumns`` writes them (``coltype`` without the NOT NULL flag, and the
``extended_id``: 0x800 + the source code and the type's row for a DISTINCT type, the code
and 0 for a built-in type). ``class`` is 'E' for an explicit cast, 'I' for an implicit one;
``routine_name`` names the cast function (NULL when the two types share a representation).

The catalogue loads them with the rest of a database's schema (``catalog.load_schema``), so
a CREATE CAST or DROP CAST, which moves SQLite's schema version as any DDL does, is seen by
the next statement compiled (ids_sqs_0711: a dropped cast is gone).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace

from ..core.ifxtypes import IfxType

#: (argument_type, argument_xid, result_type, result_xid)
CastKey = tuple[int, int, int, int]


@dataclass(frozen=True)
class CastRow:
    """One row of syscasts: its class ('E' explicit, 'I' implicit) and its routine."""

    kind: str
    routine: str | None = None
    owner: str = ""

    @property
    def implicit(self) -> bool:
        return self.kind == "I"


def type_key(t: IfxType) -> tuple[int, int]:
    """syscasts' (type, xid) for ``t``: its coltype without NOT NULL, its extended_id."""
    u = replace(t, notnull=False)
    return u.coltype, u.extended_id


def cast_key(source: IfxType, target: IfxType) -> CastKey:
    return (*type_key(source), *type_key(target))


def load_casts(conn: sqlite3.Connection, prefix: str = "") -> dict[CastKey, CastRow]:
    """Every cast of the database, by its key (an older database without the table: none)."""
    try:
        found = conn.execute(
            f"SELECT argument_type, argument_xid, result_type, result_xid, class, "
            f"routine_name, owner FROM {prefix}syscasts").fetchall()
    except sqlite3.OperationalError:
        return {}
    return {(int(a), int(ax or 0), int(r), int(rx or 0)): CastRow(
        str(kind or "E").strip().upper(), str(routine).strip() if routine else None,
        str(owner or "").strip())
        for a, ax, r, rx, kind, routine, owner in found}
