"""DISTINCT types: ``CREATE DISTINCT TYPE name AS source``, ``DROP TYPE name RESTRICT``.

A distinct type has its source type's representation, so the engine keeps a column of one as
its source IfxType flagged ``distinct`` with the type's ``sysxtdtypes`` id: storage, wire
values and conversions are the source's; the catalog says what the column is
(``syscolumns.coltype`` = 0x800 + the source code, as IDSSECURITYLABEL, a distinct
VARCHAR(128), is 2061 in the Guide to SQL's SYSCOLUMNS list, ``extended_id`` the type's row,
whose ``type`` is the source code as the ESQL/C descriptor's SOURCETYPE field reads it).

Casts between a distinct type and its source are explicit (``::name``, ``CAST(x AS name)``);
the type resolution for those lives in ``resolve_named_type``. Sources we take are the
built-in scalar types other than SERIAL kinds and large objects; a ROW, collection, opaque or
distinct source is refused with -999 (docs/SERVER.md).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from typing import Any

from ....protocol.codes import TypeCode
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import IfxType, from_catalog
from ..schema.hooks import FEATURES
from ..sql.hooks import PARSERS
from .composite import resolve_named
from .composite_types import FIRST_XID

T = TypeCode
_REFUSED_SOURCES = frozenset((T.SERIAL, T.SERIAL8, T.BIGSERIAL, T.BYTE, T.TEXT, T.BOOLEAN,
                              T.LVARCHAR))


@dataclass
class DistinctTypeSpec:
    name: str
    source: IfxType


@dataclass
class DropTypeSpec:
    name: str


def parse_create_distinct_type(p: Any) -> DistinctTypeSpec:
    p._advance(2)  # DISTINCT TYPE
    name = p._name()
    p._expect_word("AS")
    source = p._column_type().meta["ifx"]
    return DistinctTypeSpec(name, source)


def parse_drop_type(p: Any) -> DropTypeSpec:
    p._advance()  # TYPE
    name = p._name()
    p._expect_word("RESTRICT")  # the syntax requires it
    return DropTypeSpec(name)


def _user_type(conn: sqlite3.Connection, name: str) -> tuple[int, str] | None:
    row = conn.execute("SELECT extended_id, mode FROM sysxtdtypes WHERE name = ? AND mode IN "
                       "('R', 'D')", (name,)).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def create_distinct_type(dc: Any, spec: DistinctTypeSpec) -> None:
    conn = dc.conn
    if _user_type(conn, spec.name) is not None:
        raise EngineError(sc.DISTINCT_TYPE_EXISTS, near=spec.name)
    src = spec.source
    if src.cx is not None or src.distinct or src.code in _REFUSED_SOURCES or src.is_smart_lob:
        raise not_implemented(f"a DISTINCT type over {src.sql()}")
    (top,) = conn.execute("SELECT MAX(extended_id) FROM sysxtdtypes").fetchone()
    xid = max(int(top or 0) + 1, FIRST_XID)
    conn.execute(
        "INSERT INTO sysxtdtypes (extended_id, domain, mode, owner, name, type, source, maxlen, "
        "length, byvalue, cannothash, align, locator) VALUES (?, 'D', 'D', ?, ?, ?, 0, 0, ?, "
        "'F', 'F', 4, 0)",
        (xid, dc.user, spec.name, src.code, src.collength))
    # "When you create a new distinct type, the database server automatically registers two
    # explicit casts" (Guide to SQL: Reference, "Casts for distinct types"): syscasts rows of
    # class E, owned by the type's creator, with no routine (the two types share their
    # representation, "no support functions are required"). The types are written as
    # syscolumns writes them: the source's code with xid 0, the distinct type's 0x800 + code.
    distinct = replace(src, xid=xid, distinct=True, notnull=False)
    plain = replace(src, notnull=False)
    source = (plain.coltype, plain.extended_id)
    target = (distinct.coltype, xid)
    conn.executemany(
        "INSERT INTO syscasts (owner, argument_type, argument_xid, result_type, result_xid, "
        "routine_name, routine_owner, class) VALUES (?, ?, ?, ?, ?, NULL, NULL, 'E')",
        [(dc.user, *source, *target), (dc.user, *target, *source)])


def drop_type(dc: Any, spec: DropTypeSpec) -> None:
    """-9628 for no such type, -9641 for a ROW type (DROP ROW TYPE drops those), -9630 while
    a column or another type uses it."""
    conn = dc.conn
    found = _user_type(conn, spec.name)
    if found is None:
        raise EngineError(sc.TYPE_NOT_FOUND, near=spec.name)
    xid, mode = found
    if mode != "D":
        raise EngineError(sc.DROP_TYPE_KIND)
    # "You cannot drop a distinct or opaque type if the database contains any casts,
    # columns, or user-defined functions whose definitions reference the data type" (DROP
    # TYPE, ids_sqs_0743): a routine's parameter or return value, a cast other than the two
    # the type was created with (those go with it; routine_name NULL, to or from its source)
    (source,) = conn.execute("SELECT type FROM sysxtdtypes WHERE extended_id = ?",
                             (xid,)).fetchone()
    used = conn.execute(
        "SELECT 1 FROM syscolumns WHERE extended_id = ? UNION ALL "
        "SELECT 1 FROM sysattrtypes WHERE xtd_type_id = ? UNION ALL "
        "SELECT 1 FROM sysproccolumns WHERE paramxid = ? UNION ALL "
        "SELECT 1 FROM syscasts WHERE (argument_xid = ? OR result_xid = ?) AND NOT ("
        "routine_name IS NULL AND ((argument_xid = ? AND result_xid = 0 AND result_type = ?) "
        "OR (result_xid = ? AND argument_xid = 0 AND argument_type = ?)))",
        (xid, xid, xid, xid, xid, xid, source, xid, source)).fetchone()
    if used:
        raise EngineError(sc.TYPE_IN_USE, near=spec.name)
    conn.execute("DELETE FROM sysxtdtypes WHERE extended_id = ?", (xid,))
    conn.execute("DELETE FROM syscasts WHERE argument_xid = ? OR result_xid = ?", (xid, xid))


def load_distinct_types(conn: sqlite3.Connection, prefix: str = "") -> dict[str, IfxType]:
    """The database's distinct types by name, as the IfxType a column of one has."""
    return {
        str(name): replace(from_catalog(int(code), int(length)), xid=int(xid), distinct=True)
        for xid, name, code, length in conn.execute(
            f"SELECT extended_id, name, type, length FROM {prefix}sysxtdtypes WHERE mode = 'D'")
    }


def resolve_column_type(conn: sqlite3.Connection, t: IfxType) -> IfxType:
    """A column type with the names the parser left as placeholders resolved: a distinct
    type's name becomes that type, named ROW types their structure (-9628 for no type)."""
    cx = t.cx
    if cx is None:
        return t
    if cx.named and not cx.children:
        found = load_distinct_types(conn).get(cx.type_name)
        if found is not None:
            return replace(found, notnull=t.notnull)
    return resolve_named(conn, t)


FEATURES.distinct_types = load_distinct_types  # the catalogue reads them through it


# The statement parser (sql layer) reads these through its hooks (sql/hooks.py).
PARSERS.create_distinct_type = parse_create_distinct_type
PARSERS.drop_type = parse_drop_type
