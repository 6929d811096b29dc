"""Unique keys that hold one NULL: Informix's rule, kept beside SQLite's unique indexes.

Informix treats two NULLs in a unique key as equal: "When defining a UNIQUE constraint,
Informix allows only one row with a NULL value" (Four Js Genero's database guide, which
ports Informix applications to other servers), and Hibernate's InformixDialect tests skip
nullable unique keys because "Informix treats two nulls as equal". SQLite's unique indexes
admit any number of NULLs, so every unique index over a nullable column gets a companion: a
partial unique index over the key with each NULL replaced by an empty BLOB, on the rows that
have a NULL in the key. Rows without NULLs are the main index's business; among rows with
one, two keys clash when their non-NULL parts are equal and their NULLs sit in the same
places. An empty BLOB equals no value a key column can hold (BYTE/TEXT, the columns stored
as BLOBs, cannot be keys: -212/-610), and DECIMAL parts keep their numeric collation.

The companion lives only in SQLite (never in sysindices); it follows its index when the index
is dropped, renamed or rebuilt. docs/SERVER.md, "Behaviour", "Unique keys and NULL".
"""

from __future__ import annotations

import sqlite3

from ..core.ifxtypes import IfxType
from ..schema.catalog import quote

#: Appended to an index's name to name its companion (a character no Informix name holds).
SUFFIX = "\x01null"


def companion(name: str) -> str:
    return name + SUFFIX


def base_index(name: str) -> str:
    """The index a companion belongs to (the name itself for any other index)."""
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


def create(conn: sqlite3.Connection, schema: str, table: str, name: str,
           columns: list[tuple[str, IfxType]]) -> None:
    """The companion of the unique index ``name`` over ``columns`` of ``table``, when any of
    them may be NULL. Raises sqlite3.IntegrityError when rows already clash."""
    nullable = [c for c, t in columns if not t.notnull]
    if not nullable:
        return
    parts = ", ".join(
        f"ifnull({quote(c)}, X''){' COLLATE IFXDEC' if t.is_decimal else ''}"
        for c, t in columns)
    where = " OR ".join(f"{quote(c)} IS NULL" for c in nullable)
    conn.execute(f"CREATE UNIQUE INDEX {schema}{quote(companion(name))} ON {quote(table)} "
                 f"({parts}) WHERE {where}")


def drop(conn: sqlite3.Connection, name: str, schema: str = "") -> None:
    conn.execute(f"DROP INDEX IF EXISTS {schema}{quote(companion(name))}")


def rename(conn: sqlite3.Connection, old: str, new: str) -> None:
    """RENAME INDEX: the companion takes the new name too."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                       (companion(old),)).fetchone()
    if row is None:
        return
    conn.execute(f"DROP INDEX {quote(companion(old))}")
    _, _, tail = str(row[0]).partition(" ON ")
    conn.execute(f"CREATE UNIQUE INDEX {quote(companion(new))} ON {tail}")
