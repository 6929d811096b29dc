"""IfxPy's module API on ifxwire: ``import ifxwire.compat.ifxpy as IfxPy``.

IfxPy (github.com/OpenInformix/IfxPy) wraps the Informix ODBC driver in a C module whose
functions take and return handles: ``connect`` gives a connection, ``exec_immediate`` or
``prepare`` + ``execute`` a statement, and the ``fetch_*``/``result``/``field_*`` functions
read it. It no longer builds on current Python, which strands programs written for it; this
module gives them the same functions, constants, return values and error strings over
ifxwire's sockets. Every behaviour here was read from IfxPy's ifxpyc.c, IfxPyDbi.py, tests
and Examples (docs/IFXPY.md says which fact came from where, and lists the differences).

The conventions a caller relies on, all IfxPy's:

* Failures raise a plain ``Exception`` whose text is the ODBC diagnostic, e.g.
  ``"[Informix][Informix ODBC Driver][Informix]The specified table (t) is not in the
  database. SQLCODE=-206"``; ``execute`` prefixes ``"Statement Execute Failed: "`` and a
  failing fetch ``"Fetch Failure: "``. The last error stays readable through
  ``stmt_errormsg()``/``stmt_error()`` (SQLSTATE) and ``conn_errormsg()``/``conn_error()``.
* Fetch functions return ``False`` (not ``None``) after the last row.
* A connection starts in autocommit mode (ODBC's default, which IfxPy keeps).
* Values come as the ODBC driver converts them: DECIMAL and MONEY as ``str``, CHAR with its
  trailing blanks, BOOLEAN as ``int``, BYTE/BLOB as ``bytes``, TEXT/CLOB as ``str``, DATE as
  ``datetime.date``, DATETIME as ``datetime.datetime``, day-time INTERVAL as ``timedelta``.
"""

from __future__ import annotations

import datetime
import re
import threading
from collections.abc import Callable
from typing import Any

from .. import __version__ as _ifxwire_version
from .. import connect as _ifxwire_connect
from ..client.connection import Connection
from ..errors import Error
from . import _ifxpycat as cat
from ._ifxpybase import *  # noqa: F403 - IfxPy's constants, re-exported
from ._ifxpybase import (
    _INVALID,
    _ODBC_DRIVER,
    ATTR_CASE,
    CASE_LOWER,
    CASE_NATURAL,
    CASE_UPPER,
    SQL_API_SQLROWCOUNT,
    SQL_ATTR_AUTOCOMMIT,
    SQL_ATTR_CURSOR_TYPE,
    SQL_AUTOCOMMIT_OFF,
    SQL_AUTOCOMMIT_ON,
    SQL_CURSOR_FORWARD_ONLY,
    SQL_DBMS_NAME,
    SQL_DBMS_VER,
    SQL_PARAM_INPUT,
    USE_WCHAR,
    WCHAR_NO,
    WCHAR_YES,
    IFXConnection,
    IFXStatement,
    _conn_arg,
    _last,
    _set_last,
    _stmt_arg,
)
from ._ifxpyerr import describe

__version__ = "3.0.5"  # IfxPy's release this module follows (setup.py of IfxPy's HEAD)


# Informix type codes (sqltypes.h; 101/102 are BLOB/CLOB as ifxwire's description reports
# them, docs/DRIVER.md) -> IfxPy's field_type() name, following the ODBC SQL type the Informix
# ODBC driver gives each and ifxpyc.c's IfxPy_field_type switch (its default is "string").
_FIELD_TYPE: dict[int, str] = {
    1: "int", 2: "int", 6: "int",
    17: "bigint", 18: "bigint", 52: "bigint", 53: "bigint",
    3: "real", 4: "real",
    5: "decimal", 8: "decimal",
    7: "date", 10: "timestamp", 14: "interval",
    19: "set", 20: "multiset", 21: "list", 22: "row", 23: "collection",
}  # fmt: skip

# The server's name as IfxPy's SQLGetInfo(SQL_DBMS_NAME) reports an Informix server (IfxPy's
# test_102 tells Informix apart by DBMS_NAME[0:3] == "Inf").
_DBMS_NAME = "Informix Dynamic Server"

_lock = threading.Lock()
_persistent: dict[tuple[str, str, str], IFXConnection] = {}


def _keyword_value(text: str, key: str) -> str:
    """One keyword's value from an IfxPy connection string ("" when absent); only used for
    the names shown back (server_info, -908 text), never to connect."""
    for part in text.split(";"):
        k, eq, v = part.partition("=")
        if eq and k.strip().upper() == key:
            return v.strip()
    return ""


#: ``DRIVER={IBM INFORMIX ODBC DRIVER};``: which ODBC driver to load. IfxPy puts it in front
#: of every string itself, and strings kept from ODBC configurations carry it; it names
#: nothing ifxwire needs, so it is dropped rather than refused as an unknown keyword.
_DRIVER_KEY = re.compile(r"(?i)(?:^|(?<=;))\s*DRIVER\s*=\s*(?:\{[^}]*\}|[^;]*);?")


def _apply_options(target: IFXConnection | IFXStatement, options: object) -> None:
    if options is None:
        return
    if not isinstance(options, dict):
        raise Exception("options Parameter must be of type dictionay")
    for key, value in options.items():
        _set_one(target, int(key), value)


def _set_one(target: IFXConnection | IFXStatement, key: int, value: Any) -> None:
    if key == ATTR_CASE:
        if value not in (CASE_LOWER, CASE_UPPER, CASE_NATURAL):
            raise Exception(
                "ATTR_CASE attribute must be one of CASE_LOWER, CASE_UPPER, or CASE_NATURAL"
            )
        target.case_mode = int(value)
    elif key == USE_WCHAR:
        if value not in (WCHAR_YES, WCHAR_NO):
            raise Exception("USE_WCHAR attribute must be one of WCHAR_YES or WCHAR_NO")
    elif key == SQL_ATTR_CURSOR_TYPE:
        # The Informix ODBC driver keeps statements forward-only: IfxPy's test_054 reads
        # SQL_CURSOR_FORWARD_ONLY back after asking for KEYSET_DRIVEN or STATIC.
        target.cursor_type = SQL_CURSOR_FORWARD_ONLY
    elif key == SQL_ATTR_AUTOCOMMIT:
        conn = target if isinstance(target, IFXConnection) else target.conn
        try:
            conn._active().autocommit = int(value) != SQL_AUTOCOMMIT_OFF
        except Error as err:
            raise Exception(conn._fail(err)[1]) from err
    else:
        raise Exception(f"{_ODBC_DRIVER}Invalid attribute/option identifier {key}")


# ------------------------------------------------------------------------------------------
# Connections
# ------------------------------------------------------------------------------------------


def _open(dsn: str, user: str, password: str, options: object, persistent: bool) -> IFXConnection:
    _set_last("conn", "", "")
    if not isinstance(dsn, str) or not isinstance(user, str) or not isinstance(password, str):
        raise Exception(_INVALID)
    dsn = _DRIVER_KEY.sub("", dsn)
    server = _keyword_value(dsn, "SERVER")
    uid = user or _keyword_value(dsn, "UID")
    kwargs: dict[str, Any] = {
        "autocommit": True,
        "keep_char_padding": True,
        "lob_materialize_limit": 2**31 - 1,
    }
    # IfxPy appends ";UID=user;PWD=password" to the string when a user is given; passing
    # them as keywords does the same without letting a ';' in a password split the string.
    if user:
        kwargs["user"] = user
        kwargs["password"] = password
    try:
        conn = _ifxwire_connect(dsn, **kwargs)
    except Error as err:
        state, msg, _ = describe(err, user=uid, server=server)
        _set_last("conn", state, msg)
        raise Exception(msg) from err
    handle = IFXConnection(conn, user=uid, server=server, persistent=persistent)
    try:
        _apply_options(handle, options)
    except Exception:
        conn.close()
        raise
    return handle


def connect(
    dsn: str, user: str, password: str, options: object = None, literal_replacement: object = None
) -> IFXConnection:
    """Open a connection: ``dsn`` is IfxPy's ``"SERVER=...;DATABASE=...;HOST=...;SERVICE=...;
    UID=...;PWD=..."`` string (user and password may instead be the next two arguments);
    ``options`` a dict of ``{ATTR_CASE: ..., SQL_ATTR_AUTOCOMMIT: ...}``. Raises ``Exception``
    with the ODBC message on failure (``conn_errormsg()`` keeps it)."""
    return _open(dsn, user, password, options, persistent=False)


def pconnect(dsn: str, user: str, password: str, options: object = None) -> IFXConnection:
    """A persistent connection (ibm_db's ``pconnect``, which IfxPy's C code half-carries but
    does not export): the same (dsn, user, password) gives back the same live connection,
    and ``close()`` leaves it open for the next ``pconnect``."""
    key = (dsn, user, password)
    with _lock:
        handle = _persistent.get(key)
        if handle is not None and handle._conn is not None and not handle._conn.closed:
            _apply_options(handle, options)
            return handle
        handle = _open(dsn, user, password, options, persistent=True)
        _persistent[key] = handle
        return handle


def close(conn: object) -> bool:
    """Close a connection (a persistent one stays open); ``True``."""
    handle = _conn_arg(conn)
    if handle._persistent or handle._conn is None:
        return True
    try:
        handle._conn.close()
    except Error as err:
        handle._fail(err)
        return False
    handle._conn = None
    return True


def active(conn: object) -> bool:
    """Whether ``conn`` is an open, usable connection (``None`` gives ``False``)."""
    if not isinstance(conn, IFXConnection) or conn._conn is None:
        return False
    return not (conn._conn.closed or conn._conn.broken)


def autocommit(conn: object, value: object = None) -> int | bool:
    """``autocommit(conn)``: 1 or 0; ``autocommit(conn, SQL_AUTOCOMMIT_OFF/ON)``: ``True``."""
    handle = _conn_arg(conn)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise Exception(_INVALID)
    c = handle._active()
    if value is None:
        return SQL_AUTOCOMMIT_ON if c.autocommit else SQL_AUTOCOMMIT_OFF
    try:
        c.autocommit = value != SQL_AUTOCOMMIT_OFF
    except Error as err:
        handle._fail(err)
    return True


def _end(conn: object, commit_: bool) -> bool:
    handle = _conn_arg(conn)
    c = handle._active()
    try:
        if commit_:
            c.commit()
        else:
            c.rollback()
    except Error as err:
        handle._fail(err)
        return False
    return True


def commit(conn: object) -> bool:
    """Commit the transaction; ``True``, or ``False`` with ``conn_errormsg()`` set."""
    return _end(conn, True)


def rollback(conn: object) -> bool:
    """Roll back the transaction; ``True``, or ``False`` with ``conn_errormsg()`` set."""
    return _end(conn, False)


# ------------------------------------------------------------------------------------------
# Statements
# ------------------------------------------------------------------------------------------


def _check_sql(sql: object) -> str:
    if not isinstance(sql, str):
        raise Exception("statement must be a string or unicode")
    return sql


def exec_immediate(conn: object, sql: str, options: object = None) -> IFXStatement:
    """Run ``sql`` now and return its statement handle; raises ``Exception(message)``."""
    handle = _conn_arg(conn)
    text = _check_sql(sql)
    handle._active()
    _set_last("stmt", "", "")
    stmt = IFXStatement(handle, text)
    _apply_options(stmt, options)
    try:
        stmt._run(None)
    except Error as err:
        stmt.close_cursor()
        raise Exception(stmt._fail(err)) from err
    return stmt


def prepare(conn: object, sql: str, options: object = None) -> IFXStatement:
    """A statement handle for ``sql``, run by :func:`execute` (whose errors include those
    the server finds while preparing it, see docs/IFXPY.md)."""
    handle = _conn_arg(conn)
    text = _check_sql(sql)
    handle._active()
    _set_last("stmt", "", "")
    stmt = IFXStatement(handle, text)
    _apply_options(stmt, options)
    return stmt


def execute(stmt: object, params: object = None) -> bool:
    """Run a prepared statement with ``params`` (a tuple; ``None`` binds NULL); ``True``."""
    s = _stmt_arg(stmt)
    if params is not None and not isinstance(params, tuple):
        raise Exception("Param is not a tuple")
    if params is None and s.bound:
        if sorted(s.bound) != list(range(1, len(s.bound) + 1)):
            raise Exception("Parameters not bound")
        params = tuple(s.bound[i] for i in range(1, len(s.bound) + 1))
    _set_last("stmt", "", "")
    try:
        s._run(params)
    except Error as err:
        s.close_cursor()
        raise Exception("Statement Execute Failed: " + s._fail(err)) from err
    return True


def bind_param(
    stmt: object,
    param_no: object,
    value: object,
    param_type: object = SQL_PARAM_INPUT,
    data_type: object = 0,
    precision: object = 0,
    scale: object = 0,
    size: object = 0,
) -> bool:
    """Bind ``value`` to the 1-based parameter ``param_no`` for the next :func:`execute`
    without parameters (the value is taken now); input parameters only."""
    s = _stmt_arg(stmt)
    if not isinstance(param_no, int) or isinstance(param_no, bool) or param_no < 1:
        raise Exception(_INVALID)
    if param_type not in (None, SQL_PARAM_INPUT):
        raise Exception(f"{_ODBC_DRIVER}Optional feature not implemented: OUT parameters")
    s.bound[param_no] = value
    return True


def get_last_serial_value(stmt: object) -> str | bool:
    """The SERIAL/SERIAL8/BIGSERIAL value the statement's INSERT generated, as text (IfxPy
    reads ODBC's SQL_ATTR_GET_GENERATED_VALUE into a string); ``False`` when none."""
    s = _stmt_arg(stmt)
    value = s.cursor.lastrowid if s.cursor is not None else None
    return False if value is None else str(value)


def get_num_result(stmt: object) -> int:
    """Rows of a scrollable cursor's result: statements here are forward-only, so -1 (what
    IfxPy's test_265 reads for a statement without a count)."""
    _stmt_arg(stmt)
    return -1


def execute_many(stmt: object, seq_params: object) -> int:
    """Run a prepared statement once per tuple of ``seq_params``; the rows it touched."""
    s = _stmt_arg(stmt)
    if not isinstance(seq_params, (tuple, list)):
        raise Exception("Param is not a tuple")
    c = s.conn._active()
    s.close_cursor()
    cur = c.cursor()
    s.cursor = cur
    try:
        cur.executemany(s.sql, [tuple(p) for p in seq_params])
    except Error as err:
        raise Exception("Statement Execute Failed: " + s._fail(err)) from err
    s._opened(cur)
    return cur.rowcount


def callproc(conn: object, procname: str, params: object = None) -> Any:
    """Call a stored procedure: the statement handle (its result set holds what the routine
    returns), or, given a parameter tuple, ``(stmt, *params)`` as IfxPy returns it. Every
    parameter is an input here (IfxPy binds them INPUT_OUTPUT; Informix SPL routines give
    their values as a result set, which the handle holds)."""
    handle = _conn_arg(conn)
    if not isinstance(procname, str) or not procname:
        raise Exception("Empty Procedure Name")
    if params is not None and not isinstance(params, tuple):
        raise Exception("Param is not a tuple")
    c = handle._active()
    _set_last("stmt", "", "")
    stmt = IFXStatement(handle, f"EXECUTE PROCEDURE {procname}")
    cur = c.cursor()
    stmt.cursor = cur
    try:
        cur.callproc(procname, params or ())
    except Error as err:
        stmt.close_cursor()
        raise Exception("Statement Execute Failed: " + stmt._fail(err)) from err
    stmt._opened(cur)
    return stmt if params is None else (stmt, *params)


def free_result(stmt: object) -> bool:
    """Close the statement's open result; ``True``."""
    _stmt_arg(stmt).close_cursor()
    return True


def free_stmt(stmt: object) -> bool:
    """Release the statement; ``True``."""
    return free_result(stmt)


def num_fields(stmt: object) -> int:
    """Columns of the statement's result (0 for a statement without one)."""
    return len(_stmt_arg(stmt).description)


def num_rows(stmt: object) -> int:
    """Rows the statement inserted, updated or deleted (ODBC's SQLRowCount)."""
    return _stmt_arg(stmt).rowcount


def cursor_type(stmt: object) -> int:
    """Always ``SQL_CURSOR_FORWARD_ONLY``, as IfxPy reports for Informix (test_054)."""
    return _stmt_arg(stmt).cursor_type


# ------------------------------------------------------------------------------------------
# Fetching
# ------------------------------------------------------------------------------------------


def _fetch(stmt: object, row_number: object) -> tuple[IFXStatement, tuple[Any, ...] | None]:
    s = _stmt_arg(stmt)
    if row_number is not None:
        if not isinstance(row_number, int):
            raise Exception(_INVALID)
        if row_number < 0:
            raise Exception("Requested row number must be a positive value")
        if row_number > 0:
            # SQLFetchScroll(SQL_FETCH_ABSOLUTE) on a forward-only cursor: ODBC's HY106.
            msg = f"{_ODBC_DRIVER}Fetch type out of range SQLCODE=0"
            s.error = ("HY106", msg)
            _set_last("stmt", "HY106", msg)
            raise Exception("Fetch Failure: " + msg)
    return s, s.next_row()


def fetch_tuple(stmt: object, row_number: object = None) -> tuple[Any, ...] | bool:
    """The next row as a tuple, or ``False`` after the last one."""
    _, row = _fetch(stmt, row_number)
    return False if row is None else row


def fetch_assoc(stmt: object, row_number: object = None) -> dict[str, Any] | bool:
    """The next row as ``{column name: value}``, or ``False`` after the last one."""
    s, row = _fetch(stmt, row_number)
    if row is None:
        return False
    return dict(zip(s.keys(), row, strict=True))


def fetch_both(stmt: object, row_number: object = None) -> dict[Any, Any] | bool:
    """The next row keyed by both column name and 0-based position, or ``False``."""
    s, row = _fetch(stmt, row_number)
    if row is None:
        return False
    out: dict[Any, Any] = {}
    for i, (name, value) in enumerate(zip(s.keys(), row, strict=True)):
        out[name] = value
        out[i] = value
    return out


def fetch_row(stmt: object, row_number: object = None) -> bool:
    """Move to the next row (read it with :func:`result`); ``False`` after the last one."""
    _, row = _fetch(stmt, row_number)
    return row is not None


def result(stmt: object, column: object) -> Any:
    """One column of the row :func:`fetch_row` moved to: by 0-based index or by name.
    ``None`` for a column the result does not have, ``False`` before any row."""
    s = _stmt_arg(stmt)
    if not isinstance(column, (int, str)):
        raise Exception(_INVALID)
    if s.row is None:
        return False
    i = s.column(column)
    return None if i < 0 else s.row[i]


# ------------------------------------------------------------------------------------------
# Column information
# ------------------------------------------------------------------------------------------


def _desc(stmt: object, column: object) -> tuple[IFXStatement, int]:
    s = _stmt_arg(stmt)
    return s, s.column(column)


def field_name(stmt: object, column: object) -> str | bool:
    """The column's name, or ``False`` for a column the result does not have."""
    s, i = _desc(stmt, column)
    return False if i < 0 else s.names[i]


def field_num(stmt: object, column: object) -> int | bool:
    """The column's 0-based position, or ``False`` for a column the result does not have."""
    _, i = _desc(stmt, column)
    return False if i < 0 else i


def field_type(stmt: object, column: object) -> str | bool:
    """IfxPy's type name: "int", "bigint", "real", "decimal", "date", "timestamp",
    "interval", "set"/"multiset"/"list"/"row"/"collection", else "string"."""
    s, i = _desc(stmt, column)
    if i < 0:
        return False
    code = int(s.description[i][1])
    if code == 10:
        # The ODBC driver describes a DATETIME without a date part (HOUR TO SECOND) as
        # SQL_TYPE_TIME, "time" here (IfxPy's test_6792); ifxwire reads such a value as a
        # datetime.time, so the next row's value tells (a NULL or no row: "timestamp").
        row = s.row if s.row is not None else s.peek()
        if row is not None and isinstance(row[i], datetime.time):
            return "time"
    return _FIELD_TYPE.get(code & 0xFF if code < 0x100 else code, "string")


def _size(stmt: object, column: object, *slots: int) -> int | bool:
    s, i = _desc(stmt, column)
    if i < 0:
        return False
    d = s.description[i]
    for slot in slots:
        if d[slot] is not None:
            return int(d[slot])
    return 0


#: BYTE, TEXT, CLOB, BLOB: the ODBC driver reports their length as 2**31 - 1 (IfxPy's test_240
#: reads 2147483647 as both width and display size of a BLOB column).
_LOB_CODES = frozenset({11, 12, 101, 102})
_LOB_LENGTH = 2**31 - 1


def _code(stmt: object, column: object) -> int | None:
    s, i = _desc(stmt, column)
    return None if i < 0 else int(s.description[i][1])


def field_display_size(stmt: object, column: object) -> int | bool:
    """Characters needed to display the column."""
    if _code(stmt, column) in _LOB_CODES:
        return _LOB_LENGTH
    return _size(stmt, column, 2, 3)


def field_width(stmt: object, column: object) -> int | bool:
    """The column's width as ODBC's SQL_DESC_LENGTH gives it: DATE 6 (its DATE_STRUCT),
    DECIMAL(p,s) p + 2, large objects 2**31 - 1, else the type's size (IfxPy's test_240)."""
    code = _code(stmt, column)
    if code in _LOB_CODES:
        return _LOB_LENGTH
    if code == 7:
        return 6
    if code in (5, 8):
        precision = _size(stmt, column, 4)
        return int(precision) + 2
    return _size(stmt, column, 3, 2)


def field_precision(stmt: object, column: object) -> int | bool:
    """The column's precision (for character types, its length)."""
    return _size(stmt, column, 4, 3)


def field_scale(stmt: object, column: object) -> int | bool:
    """The column's scale."""
    return _size(stmt, column, 5)


def field_nullable(stmt: object, column: object) -> bool:
    """Whether the column may hold NULL."""
    s, i = _desc(stmt, column)
    return i >= 0 and bool(s.description[i][6])


# ------------------------------------------------------------------------------------------
# Errors and information
# ------------------------------------------------------------------------------------------


def stmt_error(stmt: object = None) -> str:
    """SQLSTATE of the last statement error (of ``stmt``, or of the last statement run)."""
    return (_stmt_arg(stmt).error if stmt is not None else _last("stmt"))[0]


def stmt_errormsg(stmt: object = None) -> str:
    """Message of the last statement error (of ``stmt``, or of the last statement run)."""
    return (_stmt_arg(stmt).error if stmt is not None else _last("stmt"))[1]


def conn_error(conn: object = None) -> str:
    """SQLSTATE of the last connection error (of ``conn``, or of the last connect)."""
    return (_conn_arg(conn).error if conn is not None else _last("conn"))[0]


def conn_errormsg(conn: object = None) -> str:
    """Message of the last connection error (of ``conn``, or of the last connect)."""
    return (_conn_arg(conn).error if conn is not None else _last("conn"))[1]


def stmt_warn(stmt: object = None) -> str:
    """The last statement warning: always "" (the server sends none IfxPy would show)."""
    return ""


def conn_warn(conn: object = None) -> str:
    """The last connection warning: always ""."""
    return ""


class ServerInfo:
    """What ``server_info()`` returns: IfxPy's attribute names, those ifxwire can answer."""

    def __init__(self, handle: IFXConnection, conn: Connection) -> None:
        self.DBMS_NAME = _DBMS_NAME
        self.DBMS_VER = conn.server_version
        self.DB_NAME = conn.database or ""
        self.INST_NAME = handle._server
        self.IDENTIFIER_QUOTE_CHAR = '"'
        self.PROCEDURES = True
        self.NON_NULLABLE_COLUMNS = True
        self.LIKE_ESCAPE_CLAUSE = True


class ClientInfo:
    """What ``client_info()`` returns."""

    def __init__(self, handle: IFXConnection) -> None:
        self.DRIVER_NAME = "ifxwire"
        self.DRIVER_VER = _ifxwire_version
        self.DATA_SOURCE_NAME = handle._server


def server_info(conn: object) -> ServerInfo:
    """The server's name (``DBMS_NAME``), release (``DBMS_VER``), database, instance."""
    handle = _conn_arg(conn)
    return ServerInfo(handle, handle._active())


def client_info(conn: object) -> ClientInfo:
    """The driver's name and version."""
    handle = _conn_arg(conn)
    handle._active()
    return ClientInfo(handle)


def get_db_info(conn: object, option: int) -> str | bool:
    """``SQL_DBMS_NAME`` or ``SQL_DBMS_VER`` (what IfxPyDbi's Connection asks)."""
    info = server_info(conn)
    if option == SQL_DBMS_NAME:
        return info.DBMS_NAME
    if option == SQL_DBMS_VER:
        return info.DBMS_VER
    return False


def set_option(resource: object, options: object, is_conn: int) -> bool:
    """Set ``ATTR_CASE``, ``SQL_ATTR_AUTOCOMMIT`` or ``SQL_ATTR_CURSOR_TYPE`` on a connection
    (``is_conn`` 1) or a statement (0); ``True``."""
    target = _conn_arg(resource) if is_conn else _stmt_arg(resource)
    _apply_options(target, options)
    return True


def get_option(resource: object, key: int, is_conn: int) -> int | bool:
    """Read back an option :func:`set_option` sets."""
    target = _conn_arg(resource) if is_conn else _stmt_arg(resource)
    if key == ATTR_CASE:
        return target.case_mode
    if key == SQL_ATTR_CURSOR_TYPE:
        return target.cursor_type
    if key == SQL_ATTR_AUTOCOMMIT:
        conn = target if isinstance(target, IFXConnection) else target.conn
        return autocommit(conn)
    return False


def check_function_support(conn: object, function_id: int) -> bool:
    """Whether ``function_id`` (an ``SQL_API_*`` number) is supported: SQLRowCount is."""
    _conn_arg(conn)._active()
    return function_id == SQL_API_SQLROWCOUNT


# ------------------------------------------------------------------------------------------
# Catalogue (ODBC's SQLTables, SQLColumns, ... result sets; compat/_ifxpycat.py)
# ------------------------------------------------------------------------------------------


def _catalogue(conn: object, names: list[str], build: Callable[[Connection], Any]) -> IFXStatement:
    handle = _conn_arg(conn)
    c = handle._active()
    _set_last("stmt", "", "")
    stmt = IFXStatement(handle, "")
    try:
        rows = build(c)
    except Error as err:
        raise Exception(stmt._fail(err)) from err
    stmt.serve(names, rows)
    return stmt


def _pattern(value: object, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise Exception(f"{what} must be a string")


def tables(
    conn: object,
    qualifier: object = None,
    schema: object = None,
    table_name: object = None,
    table_type: object = None,
) -> IFXStatement:
    """Tables, views and synonyms matching the patterns (TABLE_CAT ... REMARKS)."""
    sch, tab = _pattern(schema, "owner"), _pattern(table_name, "table_name")
    kinds = _pattern(table_type, "table type")
    return _catalogue(conn, cat.TABLES, lambda c: cat.tables(c, sch, tab, kinds))


def columns(
    conn: object,
    qualifier: object = None,
    schema: object = None,
    table_name: object = None,
    column_name: object = None,
) -> IFXStatement:
    """Columns of the matching tables (ODBC's 18 SQLColumns columns)."""
    sch, tab = _pattern(schema, "owner"), _pattern(table_name, "table_name")
    col = _pattern(column_name, "column_name")
    return _catalogue(conn, cat.COLUMNS, lambda c: cat.columns(c, sch, tab, col))


def primary_keys(
    conn: object, qualifier: object, schema: object, table_name: object
) -> IFXStatement:
    """Primary key columns of the matching tables."""
    sch, tab = _pattern(schema, "owner"), _pattern(table_name, "table_name")
    return _catalogue(conn, cat.PRIMARY_KEYS, lambda c: cat.primary_keys(c, sch, tab))


def foreign_keys(
    conn: object,
    pk_qualifier: object,
    pk_schema: object,
    pk_table_name: object,
    fk_qualifier: object = None,
    fk_schema: object = None,
    fk_table_name: object = None,
) -> IFXStatement:
    """Foreign keys referencing ``pk_table_name``, or held by ``fk_table_name``."""
    ps, pt = _pattern(pk_schema, "owner"), _pattern(pk_table_name, "table_name")
    fs, ft = _pattern(fk_schema, "owner"), _pattern(fk_table_name, "table_name")
    return _catalogue(conn, cat.FOREIGN_KEYS, lambda c: cat.foreign_keys(c, ps, pt, fs, ft))


def statistics(
    conn: object, qualifier: object, schema: object, table_name: object, unique: object
) -> IFXStatement:
    """A table-statistics row, then the index columns of the matching tables. As in IfxPy,
    ``unique`` goes to ODBC as its Unique argument unchanged: ``True`` (1, SQL_INDEX_ALL)
    lists every index, ``False`` (0, SQL_INDEX_UNIQUE) only unique ones (IfxPy's test_197)."""
    if not isinstance(unique, bool):
        raise Exception("unique must be a boolean")
    sch, tab = _pattern(schema, "owner"), _pattern(table_name, "table_name")
    return _catalogue(conn, cat.STATISTICS, lambda c: cat.statistics(c, sch, tab, int(unique)))


def procedures(conn: object, qualifier: object, schema: object, procedure: object) -> IFXStatement:
    """Stored procedures and functions matching the patterns."""
    sch, name = _pattern(schema, "owner"), _pattern(procedure, "procedure name")
    return _catalogue(conn, cat.PROCEDURES, lambda c: cat.procedures(c, sch, name))
