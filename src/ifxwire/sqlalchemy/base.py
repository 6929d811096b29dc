"""The Informix dialect, independent of which ifxwire driver (sync or asyncio) carries it."""

from __future__ import annotations

import importlib.util
import re
import weakref
from typing import Any, ClassVar

from sqlalchemy import types as sqltypes
from sqlalchemy.engine import default

from . import types as ifx
from .compiler import (
    InformixCompiler,
    InformixDDLCompiler,
    InformixIdentifierPreparer,
    InformixTypeCompiler,
)
from .reflection import InformixReflection

#: SQLAlchemy's isolation level names -> the Informix SET ISOLATION level. Informix's
#: REPEATABLE READ keeps read locks to the end of the transaction, which is serializable.
ISOLATION_LEVELS = {
    "READ UNCOMMITTED": "DIRTY READ",
    "READ COMMITTED": "COMMITTED READ",
    "CURSOR STABILITY": "CURSOR STABILITY",
    "REPEATABLE READ": "REPEATABLE READ",
    "SERIALIZABLE": "REPEATABLE READ",
}
#: What a new session runs at (COMMITTED READ in a logged non-ANSI database).
DEFAULT_ISOLATION = "READ COMMITTED"


class InformixExecutionContext(default.DefaultExecutionContext):
    _lastrowid: int | None = None

    def post_exec(self) -> None:
        # SQ_DONE / SQ_INSERTDONE carry the SERIAL/SERIAL8/BIGSERIAL value the INSERT made.
        # Both numbers are kept here: SQLAlchemy closes the cursor of a statement without
        # rows before the caller reads them, and a closed ifxwire cursor forgets them.
        if self.isinsert:
            self._lastrowid = self.cursor.lastrowid
        if self.isinsert or self.isupdate or self.isdelete:
            self._rowcount = self.cursor.rowcount

    def get_lastrowid(self) -> int:
        return self._lastrowid  # type: ignore[return-value]

    def create_server_side_cursor(self) -> Any:
        # Every ifxwire cursor streams (one fetch reply held at a time).
        return self._dbapi_connection.cursor()

    def fire_sequence(self, seq: Any, type_: Any) -> Any:
        return self._execute_scalar(
            f"SELECT {self.identifier_preparer.format_sequence(seq)}.NEXTVAL "
            "FROM TABLE(SET{1})", type_)


class InformixDialect(InformixReflection, default.DefaultDialect):
    name = "informix"
    supports_statement_cache = True
    max_identifier_length = 128
    default_paramstyle = "qmark"

    statement_compiler = InformixCompiler
    ddl_compiler = InformixDDLCompiler
    type_compiler_cls = InformixTypeCompiler
    preparer = InformixIdentifierPreparer
    execution_ctx_cls = InformixExecutionContext

    # Informix folds unquoted names to lower case, as SQLAlchemy's conventions assume.
    requires_name_normalize = False

    supports_native_boolean = True
    supports_native_decimal = True
    supports_native_enum = False
    supports_native_uuid = False
    supports_sequences = True
    sequences_optional = True
    postfetch_lastrowid = True
    supports_default_values = False
    supports_default_metavalue = False
    supports_empty_insert = False
    supports_multivalues_insert = False  # INSERT … VALUES takes one row
    use_insertmanyvalues = False  # so executemany goes through the pipelined DBAPI path
    insert_returning = update_returning = delete_returning = False
    implicit_returning = False
    supports_identity_columns = False
    supports_comments = False
    supports_is_distinct_from = False
    supports_server_side_cursors = True
    supports_sane_rowcount = True
    supports_sane_multi_rowcount = True
    supports_simple_order_by_label = True
    supports_schemas = True
    div_is_floordiv = False  # INTEGER / INTEGER is a DECIMAL quotient
    cte_follows_insert = True

    colspecs: dict[Any, Any] = {  # noqa: RUF012 (SQLAlchemy declares it per instance)
        sqltypes.Interval: ifx.INTERVAL,
    }

    ischema_names: ClassVar[dict[str, Any]] = {
        "char": sqltypes.CHAR, "nchar": ifx.NCHAR, "varchar": sqltypes.VARCHAR,
        "nvarchar": ifx.NVARCHAR, "lvarchar": ifx.LVARCHAR, "smallint": sqltypes.SMALLINT,
        "integer": sqltypes.INTEGER, "int": sqltypes.INTEGER, "int8": ifx.INT8,
        "bigint": sqltypes.BIGINT, "serial": ifx.SERIAL, "serial8": ifx.SERIAL8,
        "bigserial": ifx.BIGSERIAL, "float": sqltypes.FLOAT, "smallfloat": ifx.SMALLFLOAT,
        "real": ifx.SMALLFLOAT, "decimal": sqltypes.DECIMAL, "money": ifx.MONEY,
        "date": sqltypes.DATE, "datetime": ifx.DATETIME, "interval": ifx.INTERVAL,
        "boolean": sqltypes.BOOLEAN, "byte": ifx.BYTE, "text": ifx.TEXT, "blob": ifx.BLOB,
        "clob": ifx.CLOB,
    }  # fmt: skip

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        # The level each DBAPI connection was set to: Informix has no documented SQL to read
        # a session's isolation back, and a session starts at COMMITTED READ.
        self._isolation: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    # ---- server facts
    def _get_server_version_info(self, connection: Any) -> tuple[int, ...]:
        text = getattr(connection.connection.dbapi_connection, "server_version", "") or ""
        return tuple(int(n) for n in re.findall(r"\d+", text)[:2])

    def _get_default_schema_name(self, connection: Any) -> str:
        row = connection.exec_driver_sql("SELECT USER FROM systables WHERE tabid = 1").first()
        return str(row[0]).strip() if row else ""

    # ---- isolation
    def get_isolation_level_values(self, dbapi_conn: Any) -> Any:
        return [*ISOLATION_LEVELS, "AUTOCOMMIT"]

    def set_isolation_level(self, dbapi_connection: Any, level: str) -> None:
        if level == "AUTOCOMMIT":
            self._set_autocommit(dbapi_connection, True)
            return
        self._set_autocommit(dbapi_connection, False)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"SET ISOLATION TO {ISOLATION_LEVELS[level]}")
        finally:
            cursor.close()
        self._isolation[dbapi_connection] = level

    def get_isolation_level(self, dbapi_connection: Any) -> Any:
        return self._isolation.get(dbapi_connection, DEFAULT_ISOLATION)

    def _set_autocommit(self, dbapi_connection: Any, value: bool) -> None:
        dbapi_connection.autocommit = value

    def detect_autocommit_setting(self, dbapi_conn: Any) -> bool:
        return bool(dbapi_conn.autocommit)

    # ---- transactions: the driver sends BEGIN WORK itself in front of the first statement
    # that needs one (docs/DRIVER.md §5), so SQLAlchemy's begin sends nothing.
    def do_begin(self, dbapi_connection: Any) -> None:
        pass


if importlib.util.find_spec("alembic") is not None:
    # Alembic looks migration impls up by dialect name; registering ours needs the import.
    from . import alembic_impl  # noqa: F401
