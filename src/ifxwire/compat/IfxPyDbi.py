"""IfxPy's PEP 249 module on ifxwire: ``import ifxwire.compat.IfxPyDbi as dbapi2``.

IfxPyDbi.py is a pure-Python PEP 249 layer over IfxPy's C module; this one is the same kind
of layer over :mod:`ifxwire.compat.ifxpy`, with IfxPyDbi's names and habits (read from its
source, docs/IFXPY.md):

* ``connect(ConStr, user='', password='', host='', database='', conn_options=None)``: the
  empty arguments fill ``UID``/``PWD``/``HOST``/``DATABASE`` into the string when it lacks
  them. IfxPyDbi computes autocommit-off options but never passes them to IfxPy, so its
  connections autocommit; so do ours (``set_autocommit(False)`` turns it off).
* ``Cursor.execute`` returns ``True``; rows are tuples; DECIMAL values become
  ``decimal.Decimal`` (IfxPyDbi's ``FIX_RETURN_TYPE``, on by default);
  ``description`` holds lists ``[name, type object, display size, display size, precision,
  scale, nullable]``.
* Errors are this module's classes, whose ``str()`` is ``"IfxPyDbi::ClassName: message"``.
  IfxPyDbi picks the class from a ``SQLSTATE=`` the ODBC messages never carry, so a server
  error reached its callers as plain ``Error``/``DatabaseError``; we pick it from the
  SQLSTATE the error really has, with IfxPyDbi's own class table (``_get_exception``).
"""

from __future__ import annotations

import datetime
import decimal
import weakref
from collections.abc import Iterator, Sequence
from typing import Any

# PEP 249's ticks constructors: the same values as IfxPyDbi's (local time, whole seconds).
from ..dbapi import DateFromTicks as DateFromTicks
from ..dbapi import TimeFromTicks as TimeFromTicks
from ..dbapi import TimestampFromTicks as TimestampFromTicks
from . import ifxpy as IfxPy

__version__ = IfxPy.__version__

SQL_ATTR_AUTOCOMMIT = IfxPy.SQL_ATTR_AUTOCOMMIT
SQL_AUTOCOMMIT_OFF = IfxPy.SQL_AUTOCOMMIT_OFF
SQL_AUTOCOMMIT_ON = IfxPy.SQL_AUTOCOMMIT_ON
ATTR_CASE = IfxPy.ATTR_CASE
CASE_NATURAL = IfxPy.CASE_NATURAL
CASE_LOWER = IfxPy.CASE_LOWER
CASE_UPPER = IfxPy.CASE_UPPER
SQL_FALSE = IfxPy.SQL_FALSE
SQL_TRUE = IfxPy.SQL_TRUE
SQL_TABLE_STAT = IfxPy.SQL_TABLE_STAT
SQL_INDEX_CLUSTERED = IfxPy.SQL_INDEX_CLUSTERED
SQL_INDEX_OTHER = IfxPy.SQL_INDEX_OTHER
SQL_DBMS_VER = IfxPy.SQL_DBMS_VER
SQL_DBMS_NAME = IfxPy.SQL_DBMS_NAME
USE_WCHAR = IfxPy.USE_WCHAR
WCHAR_YES = IfxPy.WCHAR_YES
WCHAR_NO = IfxPy.WCHAR_NO
FIX_RETURN_TYPE = 1

apilevel = "2.0"
threadsafety = 0
paramstyle = "qmark"


class Error(Exception):
    """Base of this module's errors; ``str()`` is ``"IfxPyDbi::<class>: <message>"``."""

    def __init__(self, message: object) -> None:
        self._message = message
        super().__init__(message)

    def __str__(self) -> str:
        return f"IfxPyDbi::{type(self).__name__}: {self._message}"


class Warning(Exception):
    """PEP 249's Warning, worded as IfxPyDbi words its errors."""

    def __init__(self, message: object) -> None:
        self._message = message
        super().__init__(message)

    def __str__(self) -> str:
        return f"IfxPyDbi::{type(self).__name__}: {self._message}"


class InterfaceError(Error):
    """The module was used wrongly."""


class DatabaseError(Error):
    """An error of the database."""


class InternalError(DatabaseError):
    """The database's internal state is wrong (SQLSTATE classes 24, 25, 26, 2D, 51, 57)."""


class OperationalError(DatabaseError):
    """The database's operation failed (08: connection errors, ...)."""


class ProgrammingError(DatabaseError):
    """A wrong statement: missing table, syntax error (42, ...)."""


class IntegrityError(DatabaseError):
    """A constraint was violated (23)."""


class DataError(DatabaseError):
    """The data was wrong (22)."""


class NotSupportedError(DatabaseError):
    """Not supported by the database (0A)."""


# IfxPyDbi's _get_exception: SQLSTATEs and SQLSTATE classes -> class, checked in this order.
_BY_STATE: tuple[tuple[type[Exception], tuple[str, ...]], ...] = (
    (Warning, ("01",)),
    (DataError, ("02", "22", "10601", "10603", "10605", "10901", "10902", "38552", "54")),
    (OperationalError, ("08", "09", "10502", "10000", "10611", "38501", "38503", "38553")),
    (IntegrityError, ("23",)),
    (InternalError, ("24", "25", "26", "2D", "51", "57")),
    (
        ProgrammingError,
        (
            *("08002", "07", "0D", "0F", "0K", "0N", "10", "27", "28", "2E", "34", "36"),
            *("38", "39", "56", "42", "3B", "40", "44", "53", "55", "58", "5U", "21"),
        ),
    ),
    (NotSupportedError, ("0A", "10509")),
)

# Messages IfxPy raises itself (no SQLSTATE), and their class in IfxPyDbi's table.
_BY_TEXT: tuple[tuple[type[Exception], tuple[str, ...]], ...] = (
    (InterfaceError, ("Supplied parameter is invalid", "ATTR_CASE attribute", "Param is not")),
    (ProgrammingError, ("Connection is not active", "Requested row number")),
)


def _exception(exc: BaseException) -> Exception:
    """This module's exception for an ``Exception`` :mod:`ifxpy` raised."""
    message = str(exc)
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None) if cause is not None else None
    if state is None and message.startswith(("Statement Execute Failed", "Fetch Failure")):
        state = IfxPy.stmt_error() or None
    if state:
        for klass, codes in _BY_STATE:
            if state in codes or state[:2] in codes:
                return klass(message)
        return DatabaseError(message)
    for klass, texts in _BY_TEXT:
        if any(t in message for t in texts):
            return klass(message)
    return Error(message)


def Date(year: int, month: int, day: int) -> datetime.date:
    return datetime.date(year, month, day)


def Time(hour: int, minute: int, second: int) -> datetime.time:
    return datetime.time(hour, minute, second)


def Timestamp(
    year: int, month: int, day: int, hour: int, minute: int, second: int
) -> datetime.datetime:
    return datetime.datetime(year, month, day, hour, minute, second)


def Binary(string: bytes | str) -> bytes:
    return string.encode() if isinstance(string, str) else bytes(string)


class DBAPITypeObject(frozenset[str]):
    """A type object equal to each of its type names (IfxPyDbi compares ``field_type`` names,
    upper-cased, with these)."""

    def __eq__(self, other: object) -> bool:
        return other in self if isinstance(other, str) else frozenset.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return id(self)


STRING = DBAPITypeObject(
    ("CHARACTER", "CHAR", "VARCHAR", "CHARACTER VARYING", "CHAR VARYING", "STRING")
)
TEXT = DBAPITypeObject(("CLOB", "CHARACTER LARGE OBJECT", "CHAR LARGE OBJECT"))
BINARY = DBAPITypeObject(("BLOB", "BINARY LARGE OBJECT"))
NUMBER = DBAPITypeObject(("INTEGER", "INT", "SMALLINT"))
BIGINT = DBAPITypeObject(("BIGINT",))
FLOAT = DBAPITypeObject(("FLOAT", "REAL", "DOUBLE"))
DECIMAL = DBAPITypeObject(("DECIMAL", "DEC", "NUMERIC", "NUM"))
DATE = DBAPITypeObject(("DATE",))
TIME = DBAPITypeObject(("TIME",))
DATETIME = DBAPITypeObject(("TIMESTAMP",))
ROWID = DBAPITypeObject(())
_TYPE_OBJECTS = (STRING, TEXT, BINARY, NUMBER, BIGINT, FLOAT, DECIMAL, DATE, TIME, DATETIME)


def _with_key(text: str, key: str, value: str) -> str:
    """IfxPyDbi's way: ``KEY=value;`` appended when given and the string lacks ``KEY=``."""
    if value and f"{key}=" not in text:
        return f"{text}{key}={value};"
    return text


def connect(
    ConStr: str,
    user: str = "",
    password: str = "",
    host: str = "",
    database: str = "",
    conn_options: dict[int, int] | None = None,
) -> Connection:
    """Open a connection and wrap it in a :class:`Connection`."""
    if ConStr is None:
        raise InterfaceError("connect expects a not None ConStr value")
    args = (ConStr, user, password, host, database)
    if not all(isinstance(a, str) for a in args):
        raise InterfaceError(
            "connect expects the first five arguments to be of type string or unicode"
        )
    if conn_options is not None and not isinstance(conn_options, dict):
        raise InterfaceError("connect expects the sixth argument (conn_options) to be of type dict")
    if "=" in ConStr:
        if not ConStr.endswith(";"):
            ConStr += ";"
        ConStr = _with_key(ConStr, "DATABASE", database)
        ConStr = _with_key(ConStr, "HOST", host)
    ConStr = _with_key(ConStr, "UID", user)
    ConStr = _with_key(ConStr, "PWD", password)
    try:
        handle = IfxPy.connect(ConStr, "", "")
    except Exception as exc:
        raise _exception(exc) from exc
    return Connection(handle)


class Connection:
    """A connection (IfxPyDbi's ``Connection``): ``conn_handler`` is the IfxPy handle."""

    def __init__(self, conn_handler: IfxPy.IFXConnection) -> None:
        self.conn_handler: IfxPy.IFXConnection | None = conn_handler
        self._cursor_list: list[weakref.ref[Cursor]] = []
        self.dbms_name = IfxPy.get_db_info(conn_handler, SQL_DBMS_NAME)
        self.dbms_ver = IfxPy.get_db_info(conn_handler, SQL_DBMS_VER)
        self.FIX_RETURN_TYPE = FIX_RETURN_TYPE
        self.current_schema: str | None = None

    def _handle(self, what: str) -> IfxPy.IFXConnection:
        if self.conn_handler is None:
            raise ProgrammingError(f"{what}; connection is no longer active.")
        return self.conn_handler

    def close(self) -> bool:
        """Roll back, then close (as IfxPyDbi does); ``True``."""
        handle = self._handle("Connection cannot be closed")
        self.rollback()
        try:
            done = IfxPy.close(handle)
        except Exception as exc:
            raise _exception(exc) from exc
        self.conn_handler = None
        for ref in self._cursor_list:
            cur = ref()
            if cur is not None:
                cur.conn_handler = None
                cur.stmt_handler = None
        self._cursor_list = []
        return done

    def _end(self, commit: bool) -> bool:
        handle = self._handle("Transaction cannot end")
        try:
            ok = IfxPy.commit(handle) if commit else IfxPy.rollback(handle)
        except Exception as exc:
            raise _exception(exc) from exc
        if not ok:
            raise DatabaseError(IfxPy.conn_errormsg(handle))
        return ok

    def commit(self) -> bool:
        return self._end(True)

    def rollback(self) -> bool:
        return self._end(False)

    def cursor(self) -> Cursor:
        handle = self._handle("Cursor cannot be returned")
        cur = Cursor(handle, self)
        self._cursor_list.append(weakref.ref(cur))
        return cur

    def set_option(self, attr_dict: dict[int, int]) -> bool:
        return IfxPy.set_option(self._handle("Option cannot be set"), attr_dict, 1)

    def get_option(self, attr_key: int) -> int | bool:
        return IfxPy.get_option(self._handle("Option cannot be read"), attr_key, 1)

    def set_fix_return_type(self, is_on: object) -> int:
        self.FIX_RETURN_TYPE = 1 if is_on else 0
        return self.FIX_RETURN_TYPE

    def set_autocommit(self, is_on: object) -> bool:
        value = SQL_AUTOCOMMIT_ON if is_on else SQL_AUTOCOMMIT_OFF
        try:
            return IfxPy.set_option(
                self._handle("Option cannot be set"), {SQL_ATTR_AUTOCOMMIT: value}, 1
            )
        except Exception as exc:
            raise _exception(exc) from exc

    def set_current_schema(self, schema_name: str) -> bool:
        """Remembered only, as in IfxPyDbi (Informix has no current schema to set)."""
        self.current_schema = schema_name
        return True

    def get_current_schema(self) -> str | None:
        return self.current_schema

    def server_info(self) -> tuple[Any, Any]:
        return (self.dbms_name, self.dbms_ver)

    def set_case(self, str_value: str) -> str:
        return str_value.lower()

    def _dicts(self, stmt_of: Any) -> list[dict[str, Any]]:
        """All rows of a catalogue result as dicts (IfxPyDbi's loop over fetch_assoc)."""
        try:
            stmt = stmt_of(self._handle("Catalogue cannot be read"))
            rows = []
            row = IfxPy.fetch_assoc(stmt)
            while row:
                assert isinstance(row, dict)
                rows.append(row)
                row = IfxPy.fetch_assoc(stmt)
            IfxPy.free_result(stmt)
        except Exception as exc:
            if isinstance(exc, Error):
                raise
            raise _exception(exc) from exc
        return rows

    def _names(self, schema: str | None, table: str | None) -> tuple[str | None, str | None]:
        return (
            None if schema is None else self.set_case(schema),
            None if table is None else self.set_case(table),
        )

    def tables(
        self, schema_name: str | None = None, table_name: str | None = None
    ) -> list[dict[str, Any]]:
        """Tables of a schema (and/or a table name), as dicts keyed by ODBC's column names."""
        s, t = self._names(schema_name, table_name)
        return self._dicts(lambda h: IfxPy.tables(h, None, s, t))

    def indexes(
        self, unique: bool = True, schema_name: str | None = None, table_name: str | None = None
    ) -> list[dict[str, Any]]:
        """Index columns (IfxPyDbi keeps the rows whose TYPE is SQL_INDEX_OTHER)."""
        s, t = self._names(schema_name, table_name)
        rows = self._dicts(lambda h: IfxPy.statistics(h, None, s, t, unique))
        return [r for r in rows if r["TYPE"] == SQL_INDEX_OTHER]

    def primary_keys(
        self, unique: bool = True, schema_name: str | None = None, table_name: str | None = None
    ) -> list[dict[str, Any]]:
        s, t = self._names(schema_name, table_name)
        return self._dicts(lambda h: IfxPy.primary_keys(h, None, s, t))

    def foreign_keys(
        self, unique: bool = True, schema_name: str | None = None, table_name: str | None = None
    ) -> list[dict[str, Any]]:
        """The foreign keys ``table_name`` holds."""
        s, t = self._names(schema_name, table_name)
        return self._dicts(lambda h: IfxPy.foreign_keys(h, None, None, None, None, s, t))

    def columns(
        self,
        schema_name: str | None = None,
        table_name: str | None = None,
        column_names: Sequence[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Columns of a table, optionally only those named in ``column_names``."""
        s, t = self._names(schema_name, table_name)
        rows = self._dicts(lambda h: IfxPy.columns(h, None, s, t))
        if column_names:
            wanted = {n.lower() for n in column_names}
            rows = [r for r in rows if str(r["COLUMN_NAME"]).lower() in wanted]
        return rows


class Cursor:
    """A cursor (IfxPyDbi's ``Cursor``)."""

    def __init__(self, conn_handler: IfxPy.IFXConnection, conn_object: Connection) -> None:
        self.arraysize = 1
        self._rowcount = -1
        self._result_set_produced = False
        self._description: list[list[Any]] | None = None
        self.conn_handler: IfxPy.IFXConnection | None = conn_handler
        self.stmt_handler: IfxPy.IFXStatement | None = None
        self._connection = conn_object
        self.messages: list[Exception] = []
        self.FIX_RETURN_TYPE = conn_object.FIX_RETURN_TYPE

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def connection(self) -> Connection:
        return self._connection

    @property
    def description(self) -> list[list[Any]] | None:
        if self._description is not None or self.stmt_handler is None:
            return self._description
        stmt = self.stmt_handler
        count = IfxPy.num_fields(stmt)
        if not count:
            return None
        out = []
        for i in range(count):
            name = str(IfxPy.field_type(stmt, i)).upper()
            kind = next((t for t in _TYPE_OBJECTS if t == name), None)
            size = IfxPy.field_display_size(stmt, i)
            out.append(
                [
                    IfxPy.field_name(stmt, i),
                    kind,
                    size,
                    size,
                    IfxPy.field_precision(stmt, i),
                    IfxPy.field_scale(stmt, i),
                    IfxPy.field_nullable(stmt, i),
                ]
            )
        self._description = out
        return out

    def _fail(self, err: Exception) -> Exception:
        self.messages.append(err)
        return err

    def close(self) -> bool:
        if self.conn_handler is None:
            raise self._fail(
                ProgrammingError("Cursor cannot be closed; connection is no longer active.")
            )
        if self.stmt_handler is not None:
            IfxPy.free_stmt(self.stmt_handler)
        self.stmt_handler = None
        self.conn_handler = None
        return True

    def _conn(self) -> IfxPy.IFXConnection:
        if self.conn_handler is None:
            raise self._fail(
                ProgrammingError("Cursor is closed or its connection is no longer active.")
            )
        return self.conn_handler

    def execute(self, operation: str, parameters: Sequence[Any] | None = None) -> bool:
        """Prepare and run ``operation``; ``True``."""
        self.messages = []
        if not isinstance(operation, str):
            raise self._fail(
                InterfaceError(
                    f"execute expects the first argument [{operation}] to be of type "
                    "String or Unicode."
                )
            )
        if parameters is not None and not isinstance(parameters, (list, tuple, dict)):
            raise self._fail(InterfaceError("execute parameters argument should be sequence."))
        self._description = None
        if self.stmt_handler is not None:
            IfxPy.free_stmt(self.stmt_handler)
        try:
            self.stmt_handler = IfxPy.prepare(self._conn(), operation)
            IfxPy.execute(self.stmt_handler, None if parameters is None else tuple(parameters))
        except Exception as exc:
            if isinstance(exc, Error):
                raise
            raise self._fail(_exception(exc)) from exc
        self._result_set_produced = IfxPy.num_fields(self.stmt_handler) > 0
        self._rowcount = -1 if self._result_set_produced else IfxPy.num_rows(self.stmt_handler)
        return True

    def callproc(self, procname: str, parameters: Sequence[Any] | None = None) -> Any:
        """Call a stored procedure; its result set is then fetched like a query's. Returns
        the parameters (as a tuple), or ``None`` without them, as IfxPyDbi does."""
        self.messages = []
        if not isinstance(procname, str):
            raise self._fail(
                InterfaceError(
                    "callproc expects the first argument to be of type String or Unicode."
                )
            )
        if parameters is not None and not isinstance(parameters, (list, tuple)):
            raise self._fail(
                InterfaceError("callproc expects the second argument to be of type list or tuple.")
            )
        if self.stmt_handler is not None:
            IfxPy.free_stmt(self.stmt_handler)
        self._description = None
        try:
            result = IfxPy.callproc(
                self._conn(), procname, None if parameters is None else tuple(parameters)
            )
        except Exception as exc:
            if isinstance(exc, Error):
                raise
            raise self._fail(_exception(exc)) from exc
        if isinstance(result, tuple):
            self.stmt_handler = result[0]
            back: Any = result[1:]
        else:
            self.stmt_handler = result
            back = None
        self._result_set_produced = True
        return back

    def executemany(self, operation: str, seq_parameters: Sequence[Sequence[Any]]) -> bool:
        """Run ``operation`` once per parameter sequence, in one transaction; ``True``."""
        self.messages = []
        if not isinstance(operation, str):
            raise self._fail(
                InterfaceError(
                    "executemany expects the first argument to be of type String or Unicode."
                )
            )
        if seq_parameters is None:
            raise self._fail(InterfaceError("executemany expects a not None seq_parameters value"))
        if not isinstance(seq_parameters, (list, tuple)):
            raise self._fail(
                InterfaceError(
                    "executemany expects the second argument to be of type list or tuple "
                    "of sequence."
                )
            )
        self._description = None
        self._rowcount = -1
        conn = self._conn()
        if self.stmt_handler is not None:
            IfxPy.free_stmt(self.stmt_handler)
        try:
            self.stmt_handler = IfxPy.prepare(conn, operation)
            # IfxPyDbi turns autocommit off around the batch and commits it as one.
            was = IfxPy.autocommit(conn)
            if was:
                IfxPy.autocommit(conn, SQL_AUTOCOMMIT_OFF)
            try:
                self._rowcount = IfxPy.execute_many(self.stmt_handler, seq_parameters)
                if was:
                    IfxPy.commit(conn)
            except Exception:
                if was:
                    IfxPy.rollback(conn)
                raise
            finally:
                if was:
                    IfxPy.autocommit(conn, SQL_AUTOCOMMIT_ON)
        except Exception as exc:
            raise self._fail(_exception(exc)) from exc
        self._result_set_produced = False
        return True

    def _fetch(self, size: int = -1) -> list[tuple[Any, ...]]:
        if self.stmt_handler is None:
            raise self._fail(
                ProgrammingError(
                    "Please execute an SQL statement in order to get a row from result set."
                )
            )
        if not self._result_set_produced:
            raise self._fail(
                ProgrammingError("The last call to execute did not produce any result set.")
            )
        rows: list[tuple[Any, ...]] = []
        while size == -1 or len(rows) < size:
            try:
                row = IfxPy.fetch_tuple(self.stmt_handler)
            except Exception as exc:
                err = self._fail(_exception(exc))
                if not rows:
                    raise err from exc
                return rows
            if row is False or row is True:
                return rows
            rows.append(self._fix_return_data_type(row) if self.FIX_RETURN_TYPE else row)
        return rows

    def _fix_return_data_type(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        """DECIMAL text -> ``decimal.Decimal``, as IfxPyDbi does."""
        assert self.stmt_handler is not None
        out = list(row)
        for i, value in enumerate(out):
            if value is not None and IfxPy.field_type(self.stmt_handler, i) == "decimal":
                try:
                    out[i] = decimal.Decimal(str(value).replace(",", "."))
                except decimal.InvalidOperation as exc:
                    raise self._fail(DataError(f"Data type format error: {exc}")) from exc
        return tuple(out)

    def fetchone(self) -> tuple[Any, ...] | None:
        rows = self._fetch(1)
        return rows[0] if rows else None

    def fetchmany(self, size: int = 0) -> list[tuple[Any, ...]]:
        if not isinstance(size, int):
            raise self._fail(InterfaceError("fetchmany expects argument type int or long."))
        if size == 0:
            size = self.arraysize
        if size < -1:
            raise self._fail(ProgrammingError("fetchmany argument size expected to be positive."))
        return self._fetch(size)

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._fetch()

    def nextset(self) -> None:
        """Informix statements give one result set: there is never a next one."""
        return None

    def setinputsizes(self, sizes: object) -> None:
        """Does nothing (PEP 249 allows it)."""

    def setoutputsize(self, size: int, column: int = -1) -> None:
        """Does nothing (PEP 249 allows it)."""

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self

    def __next__(self) -> tuple[Any, ...]:
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row
