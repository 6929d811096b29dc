"""Prepared statements, their PEP 249 description, and the per-connection statement cache.

A prepared statement costs a round trip, and its row decoder is compiled code; both are worth
keeping while the SQL text is reused. The cache maps SQL text to the server's statement id
and everything learned from SQ_DESCRIBE, so a repeated SELECT is one request group and a
repeated INSERT is one group too. The cache is an LRU; an evicted statement is released on
the server with a deferred ``ID RELEASE`` that rides along with the next request.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from ..protocol.codes import (
    DBFLAG_ANSI,
    DBFLAG_LOGGED,
    XID_BLOB,
    XID_BOOLEAN,
    XID_CLOB,
    XID_LVARCHAR,
    StmtType,
    TypeCode,
)
from ..protocol.columns import ColumnDesc
from ..types import numeric as _num
from ..types import temporal as _tmp
from ..types.complextype import COMPLEX_CODES
from ..types.compositevalues import ComplexTypeCode
from ..types.rowcodec import max_tuple_size
from .placeholders import SqlPlan
from .replies import RowDecoder

__all__ = [
    "DATABASE_TYPES",
    "DDL_TYPES",
    "NO_TRANSACTION_TYPES",
    "TEXT_FORM_KEY",
    "Description",
    "Prepared",
    "StatementCache",
    "database_name",
    "describe_columns",
    "flags_from_create",
    "returns_rows",
    "set_result_limits",
    "type_code",
]

_T = TypeCode
_S = StmtType

Description = tuple[str, int, int | None, int | None, int | None, int | None, bool]

#: Statements after which cached statements may describe stale shapes: the cache is dropped.
DDL_TYPES = frozenset(
    {
        _S.CREATE_TABLE, _S.DROP_TABLE, _S.CREATE_INDEX, _S.DROP_INDEX, _S.GRANT, _S.REVOKE,
        _S.RENAME_TABLE, _S.RENAME_COLUMN, _S.ALTER, _S.CREATE_VIEW, _S.DROP_VIEW,
        _S.CREATE_SYNONYM, _S.DROP_SYNONYM, _S.CREATE_TEMP_TABLE,
    }
)  # fmt: skip
#: Statements that change the current database: the server forgets every statement id.
DATABASE_TYPES = frozenset({_S.DATABASE, _S.CREATE_DATABASE, _S.DROP_DATABASE, _S.CLOSE_DATABASE})
#: Statements that never need (or must not run inside) an implicit BEGIN WORK.
NO_TRANSACTION_TYPES = DATABASE_TYPES | {
    _S.BEGIN_WORK,
    _S.COMMIT_WORK,
    _S.ROLLBACK_WORK,
    _S.SET_ISOLATION,
    _S.SET_LOCK_MODE,
    _S.SET_LOG,
}

_FIXED_DISPLAY: dict[int, tuple[int, int, int | None]] = {
    _T.SMALLINT: (6, 2, 5),
    _T.INTEGER: (11, 4, 10),
    _T.SERIAL: (11, 4, 10),
    _T.INT8: (20, 10, 19),
    _T.SERIAL8: (20, 10, 19),
    _T.BIGINT: (20, 8, 19),
    _T.BIGSERIAL: (20, 8, 19),
    _T.FLOAT: (24, 8, None),
    _T.SMALLFLOAT: (14, 4, None),
    _T.DATE: (10, 4, None),
    _T.BOOLEAN: (1, 1, None),
}


def type_code(col: ColumnDesc) -> int:
    """The Informix base type, with the built-in UDTs named as their own codes.

    Servers describe BOOLEAN as UDTFIXED (41) and LVARCHAR as UDTVAR (40) with an extended id
    and type name; applications expect 45 and 43. BLOB and CLOB (41 with xid 10/11) are
    reported as 102 and 101, the codes JDBC and informix-driver give them.
    """
    base = col.base
    if base == _T.UDTFIXED and col.xid in (XID_BLOB, XID_CLOB):
        return int(_T.BLOB if col.xid == XID_BLOB else _T.CLOB)
    if base == _T.UDTFIXED and (col.xid == XID_BOOLEAN or col.type_name.lower() == "boolean"):
        return int(_T.BOOLEAN)
    if base == _T.UDTVAR and (col.xid == XID_LVARCHAR or col.type_name.lower() == "lvarchar"):
        return int(_T.LVARCHAR)
    return base


def _temporal_sizes(col: ColumnDesc, interval: bool) -> tuple[int, int, int, int]:
    digits, start, end = _tmp.parse_qualifier(col.enclen)
    whole = [u for u in (0, 2, 4, 6, 8, 10) if start <= u <= end]
    display = digits + max(len(whole) - 1, 0) + (1 if end > 10 else 0) + (1 if interval else 0)
    return display, _tmp.qualifier_width(col.enclen), digits, max(end - 10, 0)


def _sizes(col: ColumnDesc, code: int) -> tuple[int | None, int | None, int | None, int | None]:
    """(display_size, internal_size, precision, scale) for one column."""
    if code in _FIXED_DISPLAY:
        display, internal, precision = _FIXED_DISPLAY[code]
        return display, internal, precision, 0 if precision is not None else None
    enclen = col.enclen
    if code in (_T.DECIMAL, _T.MONEY):
        p, s = enclen >> 8, enclen & 0xFF
        scale = None if s == _num.DECIMAL_FLOATING_SCALE else s
        display = p + 1 + (1 if scale else 0) if scale is not None else p + 6
        return display, _num.decimal_width(enclen), p, scale
    if code in (_T.DATETIME, _T.INTERVAL):
        return _temporal_sizes(col, code == _T.INTERVAL)
    if code in (_T.CHAR, _T.NCHAR):
        return enclen, enclen, None, None
    if code in (_T.VARCHAR, _T.NVARCHAR):
        size = (enclen & 0xFF) or 255
        return size, size, None, None
    if code == _T.LVARCHAR:
        return enclen, enclen, None, None
    return None, None, None, None


def describe_columns(columns: list[ColumnDesc]) -> tuple[Description, ...]:
    """PEP 249 ``cursor.description`` 7-tuples with real sizes, precision, scale and nullability."""
    out = []
    for col in columns:
        code = type_code(col)
        display, internal, precision, scale = _sizes(col, code)
        if code in COMPLEX_CODES:
            code = ComplexTypeCode(code, col.type_name)
        out.append((col.name, code, display, internal, precision, scale, col.nullable))
    return tuple(out)


#: Prefix of the cache key of a statement run with ``cursor.collections = "text"``: such a
#: statement is prepared apart from the binary one, since a server keeps the form SQ_RET_TYPE
#: asked for per statement (docs/PROTOCOL.md §13). NUL cannot start an SQL text.
TEXT_FORM_KEY = "\x00text\x00"


@dataclass(eq=False, slots=True)
class Prepared:
    """One statement prepared on the server (a statement id valid until RELEASE)."""

    sql: str
    plan: SqlPlan
    stmt_id: int
    stmt_type: int
    columns: list[ColumnDesc]
    #: The connection's database epoch at prepare time; ids die when the database changes.
    epoch: int
    cursor_name: bytes
    decoder: RowDecoder | None = None
    description: tuple[Description, ...] | None = None
    cached: bool = False
    #: A cursor is open on it: nobody else may OPEN or EXECUTE it until that cursor is done.
    busy: bool = False
    #: Release it as soon as it is not busy (evicted from the cache, or never cached).
    doomed: bool = False
    #: Bytes asked for per NFETCH: the connection's size, but never less than one row.
    fetch_size: int = 4096
    #: ``(index, is_text)`` of the BYTE/TEXT columns, whose data is fetched with SQ_FETCHBLOB.
    blobs: tuple[tuple[int, bool], ...] = ()
    #: SQ_RET_TYPE sent before the first NFETCH of a result with ROW/collection columns, so
    #: the server sends them in binary (JDBC's grouping ``OPEN ID RET_TYPE NFETCH``).
    ret_type: bytes = b""
    #: The OPEN's first NFETCH size when not ``fetch_size`` (0): small for text-form
    #: collections (cursor.collections = "text"), whose ~35-byte rows would fill a first
    #: reply with ~1000 rows for the row decoder, before fetch_arrow_table's C decoder
    #: takes over.
    open_fetch_size: int = 0
    #: ``(index, is_clob)`` of the BLOB/CLOB columns, whose locators become Blob/Clob objects.
    lobs: tuple[tuple[int, bool], ...] = ()
    #: The parameters as SQ_IDESCRIBE described them (asked for only when a value may need
    #: a smart large object or a streamed BYTE/TEXT, client/lob.py).
    param_descs: list[ColumnDesc] | None = None
    #: Some parameter is a BLOB, CLOB, BYTE or TEXT (known once described).
    lob_params: bool = False
    #: The largest SQ_TUPLE payload the description allows (types/rowcodec.max_tuple_size).
    tuple_limit: int = 0
    #: Bytes of tuples one fetch reply may carry (see set_result_limits).
    tuple_budget: int = 0

    @property
    def is_query(self) -> bool:
        return bool(self.columns)


def returns_rows(stmt_type: int, ncolumns: int) -> bool:
    """Whether a described statement produces a result set: a SELECT, or a routine call with
    columns (JDBC ``IfxSqli.isResultSet``; informix-driver ``_produces_result_set``). Other
    statements may describe columns too (an INSERT lists the targets of its ``?``s) that are
    no result."""
    return stmt_type == _S.SELECT or (stmt_type == _S.EXECUTE_PROCEDURE and ncolumns > 0)


#: A fetch reply may carry this many times the fetch size in rows before the driver calls it
#: hostile: servers fill the fetch buffer and overshoot by at most one row (jdbc-protocol.md
#: 3.5; our server, server/session.py), so the slack only guards against false alarms.
FETCH_SLACK = 4


def set_result_limits(p: Prepared, fetch_buffer_size: int, described_tuple_size: int) -> None:
    """Fix what a result of ``p``'s (checked) columns may send: the widest tuple, the NFETCH
    size (never less than one row) and the tuple bytes one fetch reply may carry.

    The DESCRIBE's own tuple size is only believed up to what the columns allow: a corrupted
    one must not turn into a multi-gigabyte NFETCH or bound.
    """
    limit = max_tuple_size(p.columns)
    p.tuple_limit = limit
    p.fetch_size = max(fetch_buffer_size, min(described_tuple_size, limit))
    p.tuple_budget = FETCH_SLACK * max(p.fetch_size, 65536) + 2 * (limit + 9)


class StatementCache:
    """LRU of prepared statements keyed by the SQL text the application passed."""

    __slots__ = ("_map", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._map: OrderedDict[str, Prepared] = OrderedDict()

    def __len__(self) -> int:
        return len(self._map)

    def get(self, sql: str) -> Prepared | None:
        p = self._map.get(sql)
        if p is not None:
            self._map.move_to_end(sql)
        return p

    def add(self, p: Prepared) -> list[Prepared]:
        """Cache ``p``; returns the statements pushed out (the caller releases them)."""
        if self.size <= 0:
            return []
        old = self._map.pop(p.sql, None)
        evicted = [] if old is None or old is p else [old]
        self._map[p.sql] = p
        p.cached = True
        while len(self._map) > self.size:
            _, out = self._map.popitem(last=False)
            evicted.append(out)
        for e in evicted:
            e.cached = False
        return evicted

    def discard(self, p: Prepared) -> None:
        if self._map.get(p.sql) is p:
            del self._map[p.sql]
        p.cached = False

    def drain(self) -> list[Prepared]:
        out = list(self._map.values())
        self._map.clear()
        for p in out:
            p.cached = False
        return out


# SQL text helpers for statements that change the current database.

_MODE_ANSI = re.compile(r"\bLOG\s+MODE\s+ANSI\b", re.IGNORECASE)
_WITH_LOG = re.compile(r"\bWITH\s+(?:BUFFERED\s+)?LOG\b", re.IGNORECASE)


def _words(sql: str) -> list[str]:
    return sql.replace("(", " ").replace(";", " ").split()


def database_name(sql: str) -> str | None:
    """The database a DATABASE / CREATE DATABASE statement names (for conn.database)."""
    words = _words(sql)
    upper = [w.upper() for w in words]
    if "DATABASE" in upper:
        i = upper.index("DATABASE")
        if i + 1 < len(words):
            name = words[i + 1]
            return name.strip('"').split("@", 1)[0]
    return None


def flags_from_create(sql: str) -> int:
    """CREATE DATABASE's logging mode from its text, when the server's SQ_DONE has no flags."""
    if _MODE_ANSI.search(sql):
        return DBFLAG_LOGGED | DBFLAG_ANSI
    if _WITH_LOG.search(sql):
        return DBFLAG_LOGGED
    return 0


# What a statement's description says of its BLOB/CLOB columns and parameters (lob.py uses
# them; here so that the session layers need not import the LOB module).


def lob_columns(columns: Sequence[ColumnDesc]) -> tuple[tuple[int, bool], ...]:
    """``(index, is_clob)`` of the BLOB/CLOB columns of a result."""
    return tuple(
        (i, c.xid == XID_CLOB)
        for i, c in enumerate(columns)
        if c.base == _T.UDTFIXED and c.xid in (XID_BLOB, XID_CLOB)
    )


def params_described(p: Prepared, columns: Sequence[ColumnDesc]) -> None:
    """An INSERT's SQ_DESCRIBE listed one column per ``?``, its target (what real servers
    send; JDBC's IFX_USEPUT relies on the count matching, docs/PROTOCOL.md §5): these are the
    parameters, so no SQ_CIDESCRIBE is needed. Any other count leaves them unknown."""
    if p.stmt_type == StmtType.INSERT and len(columns) == p.plan.nparams:
        set_params(p, list(columns))


def set_params(p: Prepared, descs: list[ColumnDesc]) -> None:
    p.param_descs = descs
    p.lob_params = any(lob_kind(d) is not None or d.base in (_T.BYTE, _T.TEXT) for d in descs)


def lob_kind(desc: ColumnDesc) -> int | None:
    """XID_BLOB / XID_CLOB when the parameter is a BLOB/CLOB, else None."""
    if desc.base in (_T.UDTFIXED, _T.SENDRECV) and desc.xid in (XID_BLOB, XID_CLOB):
        return desc.xid
    name = desc.type_name.lower()
    if desc.base in (_T.UDTFIXED, _T.SENDRECV) and name in ("blob", "clob"):
        return XID_BLOB if name == "blob" else XID_CLOB
    return None
