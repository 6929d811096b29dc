"""Indexes on a session's temporary tables: DROP INDEX and RENAME INDEX find them too.

CREATE INDEX on a temporary table makes a SQLite index in the connection's ``temp`` schema
and no catalogue row (a temporary table has none either: it is the session's own), so the
statements that looked an index up in the catalogue alone answered -319 for them. Informix
indexes "a standard or temporary table" alike (Syntax, CREATE INDEX, ids_sqs_0401), and DROP
INDEX / RENAME INDEX name "an index that exists" with no exception for temporary tables
(DROP INDEX, ids_sqs_0718; RENAME INDEX, ids_sqs_0941). Another session cannot see them:
SQLite's ``temp`` schema is per connection, as a temporary table is per session in Informix.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..schema.catalog import quote
from . import null_keys

if TYPE_CHECKING:
    from .ddl import DdlContext


def recreate(conn: sqlite3.Connection, old: str, new: str, schema: str = "main") -> bool:
    """Make SQLite index ``old`` of ``schema`` again as ``new`` (same table, key and
    uniqueness): SQLite has no RENAME for an index. False when ``old`` has no SQL of its own
    (none by that name, or a constraint's automatic index, which stays with its table)."""
    row = conn.execute(f"SELECT sql FROM {schema}.sqlite_master WHERE type = 'index' AND "
                       "name = ?", (old,)).fetchone()
    if row is None or row[0] is None:
        return False
    head, _, tail = str(row[0]).partition(" ON ")
    kind = "CREATE UNIQUE INDEX" if head.upper().startswith("CREATE UNIQUE") else "CREATE INDEX"
    conn.execute(f"DROP INDEX {schema}.{quote(old)}")
    conn.execute(f"{kind} {schema}.{quote(new)} ON {tail}")
    return True


def table_of(dc: DdlContext, name: str) -> str | None:
    """The temporary table of this session that index ``name`` is on, or None."""
    row = dc.conn.execute("SELECT tbl_name FROM temp.sqlite_master WHERE type = 'index' AND "
                          "name = ?", (name,)).fetchone()
    if row is None or str(row[0]) not in dc.temp_tables:
        return None
    return str(row[0])


def check_free(dc: DdlContext, name: str) -> None:
    """-316 "Index already exists" when a temporary table's index has the name (SQLite would
    let a permanent one share it, in its other schema; Informix index names are one name
    space of the database)."""
    if table_of(dc, name) is not None:
        raise EngineError(sc.INDEX_EXISTS, near=name)


def drop(dc: DdlContext, name: str, table: str) -> None:
    """DROP INDEX of a temporary table's index (its NULL-key companion too)."""
    dc.conn.execute(f"DROP INDEX temp.{quote(name)}")
    null_keys.drop(dc.conn, name, "temp.")
    dc.temp_tables[table].unique_indexes.pop(name, None)


def rename(dc: DdlContext, old: str, new: str, table: str) -> None:
    """RENAME INDEX of a temporary table's index: SQLite renames no index, so it and its
    NULL-key companion are made again under the new name (same table, same key)."""
    if new in dc.schema.indexes:
        raise EngineError(sc.INDEX_EXISTS, near=new)
    check_free(dc, new)
    for was, now in ((old, new), (null_keys.companion(old), null_keys.companion(new))):
        recreate(dc.conn, was, now, "temp")
    keys = dc.temp_tables[table].unique_indexes
    if old in keys:
        keys[new] = keys.pop(old)
