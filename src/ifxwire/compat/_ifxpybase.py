"""The handles of :mod:`ifxwire.compat.ifxpy` and the constants it exports (split out of
ifxpy.py to keep each file readable; the facts are documented there and in docs/IFXPY.md).

``IFXConnection`` wraps an ifxwire connection with IfxPy's per-connection settings;
``IFXStatement`` one SQL text, the ifxwire cursor running it, the current row of
``fetch_row``, and how each column's ifxwire value becomes the value IfxPy's C module builds.
"""

from __future__ import annotations

import contextlib
import decimal
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..client.connection import Connection
from ..client.cursor import Cursor
from ..errors import Error
from ..types.values import IntervalYM
from ._ifxpyerr import describe

__all__ = [
    "ATTR_CASE",
    "CASE_LOWER",
    "CASE_NATURAL",
    "CASE_UPPER",
    "PARAM_FILE",
    "SQL_API_SQLROWCOUNT",
    "SQL_ATTR_AUTOCOMMIT",
    "SQL_ATTR_CURSOR_TYPE",
    "SQL_AUTOCOMMIT_OFF",
    "SQL_AUTOCOMMIT_ON",
    "SQL_BIGINT",
    "SQL_BINARY",
    "SQL_BIT",
    "SQL_CHAR",
    "SQL_CURSOR_DYNAMIC",
    "SQL_CURSOR_FORWARD_ONLY",
    "SQL_CURSOR_KEYSET_DRIVEN",
    "SQL_CURSOR_STATIC",
    "SQL_DBMS_NAME",
    "SQL_DBMS_VER",
    "SQL_DECIMAL",
    "SQL_DOUBLE",
    "SQL_FALSE",
    "SQL_FLOAT",
    "SQL_INDEX_CLUSTERED",
    "SQL_INDEX_OTHER",
    "SQL_INTEGER",
    "SQL_LONGVARBINARY",
    "SQL_LONGVARCHAR",
    "SQL_NUMERIC",
    "SQL_PARAM_INPUT",
    "SQL_PARAM_INPUT_OUTPUT",
    "SQL_PARAM_OUTPUT",
    "SQL_REAL",
    "SQL_SMALLINT",
    "SQL_TABLE_STAT",
    "SQL_TINYINT",
    "SQL_TRUE",
    "SQL_TYPE_DATE",
    "SQL_TYPE_TIME",
    "SQL_TYPE_TIMESTAMP",
    "SQL_VARBINARY",
    "SQL_VARCHAR",
    "SQL_WCHAR",
    "SQL_WLONGVARCHAR",
    "SQL_WVARCHAR",
    "USE_WCHAR",
    "WCHAR_NO",
    "WCHAR_YES",
    "IFXConnection",
    "IFXStatement",
]

# ODBC's values (sql.h/sqlext.h) and IfxPy's own (ifxpyc.h), under IfxPy's names.
SQL_AUTOCOMMIT_OFF = 0
SQL_AUTOCOMMIT_ON = 1
SQL_ATTR_AUTOCOMMIT = 102
SQL_ATTR_CURSOR_TYPE = 6
SQL_CURSOR_FORWARD_ONLY = 0
SQL_CURSOR_KEYSET_DRIVEN = 1
SQL_CURSOR_DYNAMIC = 2
SQL_CURSOR_STATIC = 3
ATTR_CASE = 3271982
CASE_NATURAL = 0
CASE_LOWER = 1
CASE_UPPER = 2
USE_WCHAR = 100
WCHAR_YES = 1
WCHAR_NO = 0
SQL_PARAM_INPUT = 1
SQL_PARAM_INPUT_OUTPUT = 2
SQL_PARAM_OUTPUT = 4
PARAM_FILE = 11
SQL_CHAR = 1
SQL_NUMERIC = 2
SQL_DECIMAL = 3
SQL_INTEGER = 4
SQL_SMALLINT = 5
SQL_FLOAT = 6
SQL_REAL = 7
SQL_DOUBLE = 8
SQL_VARCHAR = 12
SQL_TYPE_DATE = 91
SQL_TYPE_TIME = 92
SQL_TYPE_TIMESTAMP = 93
SQL_LONGVARCHAR = -1
SQL_BINARY = -2
SQL_VARBINARY = -3
SQL_LONGVARBINARY = -4
SQL_BIGINT = -5
SQL_TINYINT = -6
SQL_BIT = -7
SQL_WCHAR = -8
SQL_WVARCHAR = -9
SQL_WLONGVARCHAR = -10
SQL_FALSE = 0
SQL_TRUE = 1
SQL_TABLE_STAT = 0
SQL_INDEX_CLUSTERED = 1
SQL_INDEX_OTHER = 3
SQL_DBMS_NAME = 17
SQL_DBMS_VER = 18
SQL_API_SQLROWCOUNT = 20

_INVALID_CONN = "Supplied connection object Parameter is invalid"
_INVALID_STMT = "Supplied statement object parameter is invalid"
_INVALID = "Supplied parameter is invalid"
_NOT_ACTIVE = "Connection is not active"
_ODBC_DRIVER = "[Informix][Informix ODBC Driver]"

_state = threading.local()


def _set_last(kind: str, sqlstate: str, message: str) -> None:
    setattr(_state, kind, (sqlstate, message))


def _last(kind: str) -> tuple[str, str]:
    value: tuple[str, str] = getattr(_state, kind, ("", ""))
    return value


class IFXConnection:
    """A connection handle (IfxPy's ``IFXConnection`` type)."""

    def __init__(self, conn: Connection, *, user: str, server: str, persistent: bool) -> None:
        self._conn: Connection | None = conn
        self._user = user
        self._server = server
        self._persistent = persistent
        self.case_mode = CASE_NATURAL
        self.cursor_type = SQL_CURSOR_FORWARD_ONLY
        self.error: tuple[str, str] = ("", "")

    def _active(self) -> Connection:
        if self._conn is None or self._conn.closed:
            raise Exception(_NOT_ACTIVE)
        return self._conn

    def _fail(self, err: BaseException) -> tuple[str, str]:
        state, msg, _ = describe(err, user=self._user, server=self._server)
        self.error = (state, msg)
        _set_last("conn", state, msg)
        return state, msg


class IFXStatement:
    """A statement handle: one SQL text, the ifxwire cursor that runs it, the current row."""

    def __init__(self, conn: IFXConnection, sql: str) -> None:
        self.conn = conn
        self.sql = sql
        self.case_mode = conn.case_mode
        self.cursor_type = SQL_CURSOR_FORWARD_ONLY
        self.cursor: Cursor | None = None
        self.description: Sequence[Sequence[Any]] = ()
        self.names: list[str] = []
        self.row: tuple[Any, ...] | None = None
        self.rowcount = -1
        self.error: tuple[str, str] = ("", "")
        self._convert: list[Callable[[Any], Any]] = []
        #: Column names given by the module (catalogue results), instead of the server's.
        self.fixed_names: list[str] | None = None
        #: A row read ahead by peek(), served by the next fetch: ``(row,)``, or None.
        self._peeked: tuple[tuple[Any, ...] | None] | None = None
        #: Values given by bind_param, by 1-based parameter number.
        self.bound: dict[int, Any] = {}
        #: The rows of a catalogue result, built here rather than fetched.
        self.static_rows: list[tuple[Any, ...]] | None = None

    def _fail(self, err: BaseException) -> str:
        state, msg, _ = describe(err, user=self.conn._user, server=self.conn._server)
        self.error = (state, msg)
        _set_last("stmt", state, msg)
        return msg

    def _run(self, params: Sequence[Any] | None) -> None:
        conn = self.conn._active()
        self.close_cursor()
        cur = conn.cursor()
        self.cursor = cur
        cur.execute(self.sql, params)
        self._opened(cur)

    def _opened(self, cur: Cursor) -> None:
        self.description = cur.description or ()
        self.names = [str(d[0]) for d in self.description]
        self._convert = [_converter(int(d[1])) for d in self.description]
        self.rowcount = cur.rowcount
        self.row = None
        self._peeked = None

    def close_cursor(self) -> None:
        self._peeked = None
        if self.cursor is not None:
            with contextlib.suppress(Error):
                self.cursor.close()
        self.cursor = None
        self.row = None

    def serve(self, names: list[str], rows: list[tuple[Any, ...]]) -> None:
        """Make this a catalogue result: ``rows`` under ``names`` (typed from the values)."""
        self.close_cursor()
        self.fixed_names = names
        self.static_rows = list(rows)
        codes = [2 if any(isinstance(r[i], int) for r in rows) else 13 for i in range(len(names))]
        self.description = [
            (n, c, None, None, None, None, True) for n, c in zip(names, codes, strict=True)
        ]
        self.names = list(names)
        self.rowcount = len(rows)
        self.row = None

    def next_row(self) -> tuple[Any, ...] | None:
        if self.static_rows is not None:
            self.row = self.static_rows.pop(0) if self.static_rows else None
            return self.row
        if not self.description or self.cursor is None:
            raise Exception("Column information cannot be retrieved: " + _last("stmt")[1])
        raw = self._raw_next()
        if raw is None:
            self.row = None
            return None
        self.rowcount = self.cursor.rowcount
        pairs = zip(self._convert, raw, strict=True)
        self.row = tuple(None if v is None else f(v) for f, v in pairs)
        return self.row

    def _raw_next(self) -> tuple[Any, ...] | None:
        if self._peeked is not None:
            raw, self._peeked = self._peeked[0], None
            return raw
        assert self.cursor is not None
        try:
            return self.cursor.fetchone()
        except Error as err:
            raise Exception("Fetch Failure: " + self._fail(err)) from err

    def peek(self) -> tuple[Any, ...] | None:
        """The next row as ifxwire returns it, without moving past it (``field_type`` looks
        at a DATETIME value to tell a time of day from a timestamp)."""
        if self.static_rows is not None or self.cursor is None or not self.description:
            return None
        if self._peeked is None:
            self._peeked = (self._raw_next(),)
        return self._peeked[0]

    def keys(self) -> list[str]:
        """The names ``fetch_assoc``/``fetch_both`` key a row by. IfxPy applies ATTR_CASE to
        its column names only there, in place (ifxpyc.c ``_python_IfxPy_bind_fetch_helper``),
        so ``result``/``field_*`` see the server's names until such a fetch has run (IfxPy's
        test_115 and test_264 read ``result(stmt, 'data')`` after ``fetch_row`` under
        CASE_UPPER)."""
        self.names = _cased(self.names, self.case_mode)
        return self.names

    def column(self, column: object) -> int:
        """The 0-based index of ``column`` (an index or a name), -1 if there is none."""
        if isinstance(column, bool):
            return -1
        if isinstance(column, int):
            return column if 0 <= column < len(self.names) else -1
        if isinstance(column, str):
            try:
                return self.names.index(column)
            except ValueError:
                return -1
        return -1


def _cased(names: list[str], mode: int) -> list[str]:
    if mode == CASE_LOWER:
        return [n.lower() for n in names]
    if mode == CASE_UPPER:
        return [n.upper() for n in names]
    return names


def _decimal_text(value: decimal.Decimal) -> str:
    """DECIMAL/MONEY as the ODBC driver's SQL_C_CHAR conversion writes it: plain digits."""
    return format(value, "f")


def _interval_ym(value: IntervalYM) -> str:
    sign = "-" if value.months < 0 else ""
    months = abs(value.months)
    return f"{sign}{months // 12}-{months % 12:02d}"


def _identity(value: Any) -> Any:
    return value


def _converter(code: int) -> Callable[[Any], Any]:
    """How one column's ifxwire value becomes the value IfxPy builds (ifxpyc.c's fetch)."""
    base = code & 0xFF if code < 0x100 else code
    if base in (5, 8):
        return _decimal_text
    if base == 45:
        return int
    if base == 14:
        return lambda v: _interval_ym(v) if isinstance(v, IntervalYM) else v
    return _identity


def _conn_arg(conn: object) -> IFXConnection:
    if not isinstance(conn, IFXConnection):
        raise Exception(_INVALID_CONN)
    return conn


def _stmt_arg(stmt: object) -> IFXStatement:
    if not isinstance(stmt, IFXStatement):
        raise Exception(_INVALID_STMT)
    return stmt
