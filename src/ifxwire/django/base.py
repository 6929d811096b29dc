"""The Django database wrapper for Informix over ifxwire's PEP 249 driver.

Settings: ``NAME`` (the database), ``USER``, ``PASSWORD``, ``HOST``, ``PORT`` and
``OPTIONS`` (any ``ifxwire.connect`` keyword: ``server``, ``client_locale``, ``db_locale``,
``env``, ``tls``...). DELIMIDENT is always sent, as Django quotes every name with double
quotes, which Informix reads as names only with DELIMIDENT set.

Transactions: with autocommit off the driver sends BEGIN WORK in front of the first statement
that needs one (docs/DRIVER.md), so Django's transaction machinery maps onto the driver's
``autocommit`` attribute, ``commit()`` and ``rollback()``. An unlogged database has no
transactions (BEGIN WORK is -256 there): the wrapper sees ``logging_mode`` at connect and
runs such a connection in autocommit whatever Django asks, so ``atomic()`` blocks neither
fail with -256 nor pretend to roll back (``features.uses_savepoints`` is off for them).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import BaseDatabaseWrapper

import ifxwire as Database

from .client import DatabaseClient
from .creation import DatabaseCreation
from .features import DatabaseFeatures
from .functions import install as _install_functions
from .introspection import DatabaseIntrospection
from .operations import DatabaseOperations
from .schema import DatabaseSchemaEditor

_install_functions()
#: IFXWIRE_DJANGO_TRACE=1 prints each failing statement with its error to stderr (a file
#: name instead of 1: appends them to that file).
_TRACE = os.environ.get("IFXWIRE_DJANGO_TRACE", "")

#: ``%s`` not preceded by another ``%`` (``%%s`` is a literal ``%s``).
_FORMAT_MARK = re.compile(r"(?<!%)%s")
#: ``%(name)s`` (pyformat, with a mapping): the driver's ``:name``.
_PYFORMAT_MARK = re.compile(r"(?<!%)%\((\w+)\)s")


class _VarChar(str):
    """CharField's type: VARCHAR holds at most 255 bytes; longer ones are LVARCHAR(n)."""

    __slots__ = ()

    def __mod__(self, data: Any) -> str:
        n = int(data["max_length"])
        return f"VARCHAR({n})" if n <= 255 else f"LVARCHAR({n})"


class _Decimal(str):
    """DecimalField's type; without digits (an expression's output field) DECIMAL(32), the
    widest floating decimal, where Django would write DECIMAL(None, None)."""

    __slots__ = ()

    def __mod__(self, data: Any) -> str:
        if data.get("max_digits") is None:
            return "DECIMAL(32)"
        return f"DECIMAL({data['max_digits']}, {data.get('decimal_places') or 0})"


class CursorWrapper:
    """Django writes ``%s`` markers (format paramstyle); ifxwire takes ``?``. Without
    parameters the text is sent unchanged, as Django expects (no ``%%`` unescaping)."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    @staticmethod
    def convert_query(query: str) -> str:
        return _FORMAT_MARK.sub("?", query).replace("%%", "%")

    #: The statement last given to execute(), in Django's format, for last_executed_query.
    last_sql: str | None = None

    def execute(self, query: str, params: Any = None) -> Any:
        self.last_sql = query
        try:
            if params is None:
                return self.cursor.execute(query)
            if isinstance(params, dict):
                query = _PYFORMAT_MARK.sub(r":\1", query).replace("%%", "%")
                return self.cursor.execute(query, params)
            return self.cursor.execute(self.convert_query(query), tuple(params))
        except Database.Error as exc:
            if _TRACE:
                line = f"ifxwire.django: {exc} in: {query} {params!r}\n"
                if _TRACE == "1":
                    sys.stderr.write(line)
                else:
                    with open(_TRACE, "a", encoding="utf-8") as log:
                        log.write(line)
            raise

    def executemany(self, query: str, param_list: Any) -> Any:
        self.last_sql = query
        rows = list(param_list)
        if rows and isinstance(rows[0], dict):
            return self.cursor.executemany(
                _PYFORMAT_MARK.sub(r":\1", query).replace("%%", "%"), rows)
        return self.cursor.executemany(self.convert_query(query), [tuple(p) for p in rows])

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.cursor, attr)

    def __iter__(self) -> Any:
        return iter(self.cursor)

    def close(self) -> None:
        self.cursor.close()


class DatabaseWrapper(BaseDatabaseWrapper):
    vendor = "informix"
    display_name = "Informix"
    data_types = {  # noqa: RUF012 (Django declares these as class dicts)
        "AutoField": "SERIAL",
        "BigAutoField": "BIGSERIAL",
        "SmallAutoField": "SERIAL",
        "BinaryField": "BYTE",
        "BooleanField": "BOOLEAN",
        "CharField": _VarChar("VARCHAR(%(max_length)s)"),
        "DateField": "DATE",
        "DateTimeField": "DATETIME YEAR TO FRACTION(5)",
        "DecimalField": _Decimal("DECIMAL(%(max_digits)s, %(decimal_places)s)"),
        "DurationField": "INTERVAL DAY(9) TO FRACTION(5)",
        "FileField": _VarChar("VARCHAR(%(max_length)s)"),
        "FilePathField": _VarChar("VARCHAR(%(max_length)s)"),
        "FloatField": "FLOAT",
        "IntegerField": "INTEGER",
        "BigIntegerField": "BIGINT",
        "IPAddressField": "CHAR(15)",
        "GenericIPAddressField": "CHAR(39)",
        "OneToOneField": "INTEGER",
        "PositiveBigIntegerField": "BIGINT",
        "PositiveIntegerField": "INTEGER",
        "PositiveSmallIntegerField": "SMALLINT",
        "SlugField": _VarChar("VARCHAR(%(max_length)s)"),
        "SmallIntegerField": "SMALLINT",
        "TextField": "LVARCHAR(4000)",
        "TimeField": "DATETIME HOUR TO FRACTION(5)",
        "UUIDField": "CHAR(32)",
    }
    data_types_suffix: dict[str, str] = {}  # noqa: RUF012
    data_type_check_constraints = {  # noqa: RUF012
        "PositiveBigIntegerField": '"%(column)s" >= 0',
        "PositiveIntegerField": '"%(column)s" >= 0',
        "PositiveSmallIntegerField": '"%(column)s" >= 0',
    }
    operators = {  # noqa: RUF012
        "exact": "= %s",
        "iexact": "= UPPER(%s)",
        "contains": "LIKE %s ESCAPE '\\'",
        "icontains": "LIKE UPPER(%s) ESCAPE '\\'",
        "gt": "> %s",
        "gte": ">= %s",
        "lt": "< %s",
        "lte": "<= %s",
        "startswith": "LIKE %s ESCAPE '\\'",
        "endswith": "LIKE %s ESCAPE '\\'",
        "istartswith": "LIKE UPPER(%s) ESCAPE '\\'",
        "iendswith": "LIKE UPPER(%s) ESCAPE '\\'",
    }
    pattern_esc = r"REPLACE(REPLACE(REPLACE({}, '\', '\\'), '%%', '\%%'), '_', '\_')"
    pattern_ops = {  # noqa: RUF012
        "contains": "LIKE '%%' || {} || '%%' ESCAPE '\\'",
        "icontains": "LIKE '%%' || UPPER({}) || '%%' ESCAPE '\\'",
        "startswith": "LIKE {} || '%%' ESCAPE '\\'",
        "istartswith": "LIKE UPPER({}) || '%%' ESCAPE '\\'",
        "endswith": "LIKE '%%' || {} ESCAPE '\\'",
        "iendswith": "LIKE '%%' || UPPER({}) ESCAPE '\\'",
    }

    Database = Database
    SchemaEditorClass = DatabaseSchemaEditor
    client_class = DatabaseClient
    creation_class = DatabaseCreation
    features_class = DatabaseFeatures
    introspection_class = DatabaseIntrospection
    ops_class = DatabaseOperations

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        size = (self.settings_dict.get("OPTIONS") or {}).get("text_field_bytes")
        if size is not None:
            # TextField's LVARCHAR size: 4000 leaves room for several in a 32,767-byte row;
            # a model with one or two may take up to LVARCHAR's 32,739 (docs/DJANGO.md).
            if not isinstance(size, int) or not 1 <= size <= 32739:
                raise ImproperlyConfigured(
                    f"OPTIONS['text_field_bytes'] must be an int from 1 to 32739: {size!r}")
            self.data_types = {**self.data_types, "TextField": f"LVARCHAR({size})"}

    def get_connection_params(self) -> dict[str, Any]:
        s = self.settings_dict
        options = dict(s.get("OPTIONS") or {})
        options.pop("text_field_bytes", None)
        env = dict(options.pop("env", None) or {})
        env.setdefault("DELIMIDENT", "y")
        # ISO dates: DATE literals in DDL defaults and strings compared with DATE columns
        env.setdefault("DBDATE", "Y4MD-")
        params: dict[str, Any] = {"env": env, **options}
        if s.get("NAME"):
            params["database"] = s["NAME"]
        if s.get("USER"):
            params["user"] = s["USER"]
        if s.get("PASSWORD"):
            params["password"] = s["PASSWORD"]
        if s.get("HOST"):
            params["host"] = s["HOST"]
        if s.get("PORT"):
            try:
                params["port"] = int(s["PORT"])
            except ValueError as exc:
                raise ImproperlyConfigured(f"PORT must be a number: {s['PORT']!r}") from exc
        return params

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        return Database.connect(**conn_params)

    def init_connection_state(self) -> None:
        super().init_connection_state()
        if self._unlogged():
            # No transactions in an unlogged database (BEGIN WORK would be -256).
            self.features.uses_savepoints = False

    def _unlogged(self) -> bool:
        return getattr(self.connection, "logging_mode", None) == "unlogged"

    def create_cursor(self, name: Any = None) -> CursorWrapper:
        return CursorWrapper(self.connection.cursor())

    def _set_autocommit(self, autocommit: bool) -> None:
        with self.wrap_database_errors:
            if not autocommit and self._unlogged():
                return
            self.connection.autocommit = autocommit

    def _savepoint_allowed(self) -> bool:
        return bool(self.features.uses_savepoints) and not self.get_autocommit() \
            and not self._unlogged()

    def is_usable(self) -> bool:
        try:
            cur = self.connection.cursor()
            try:
                cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
                cur.fetchall()
            finally:
                cur.close()
        except Database.Error:
            return False
        return True

    def get_database_version(self) -> tuple[int, ...]:
        text = str(getattr(self.connection, "server_version", "") or "")
        return tuple(int(n) for n in re.findall(r"\d+", text)[:2]) or (14, 10)

    def disable_constraint_checking(self) -> bool:
        """Defer the referential checks to the end of the transaction (Informix's ``SET
        CONSTRAINTS ALL DEFERRED``, whose mode lasts until the transaction ends). Only inside
        a transaction: outside one there is nothing to defer to, and Django then keeps its
        checks (False)."""
        if self.get_autocommit() or self._unlogged():
            return False
        with self.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        return True

    def enable_constraint_checking(self) -> None:
        """Nothing is sent: ``SET CONSTRAINTS ALL IMMEDIATE`` checks what was written while
        deferred at once (and Django's callers expect no error here, as MySQL's backend gives
        none); the deferred checks run at COMMIT at the latest, or in check_constraints."""

    def check_constraints(self, table_names: Any = None) -> None:
        """Look for rows whose foreign key finds no parent (what was written with checks
        deferred) and raise IntegrityError naming the first, as Django's MySQL and SQLite
        backends do: one LEFT JOIN per single-column foreign key of each table."""
        from django.db import IntegrityError

        with self.cursor() as cursor:
            if table_names is None:
                table_names = self.introspection.table_names(cursor)
            for table_name in table_names:
                key = self.introspection.get_primary_key_column(cursor, table_name)
                if not key:
                    continue
                relations = self.introspection.get_relations(cursor, table_name)
                for column, (other_column, other_table) in relations.items():
                    q = self.ops.quote_name
                    cursor.execute(
                        f"SELECT REFERRING.{q(key)}, REFERRING.{q(column)} "
                        f"FROM {q(table_name)} REFERRING LEFT JOIN {q(other_table)} REFERRED "
                        f"ON REFERRING.{q(column)} = REFERRED.{q(other_column)} "
                        f"WHERE REFERRING.{q(column)} IS NOT NULL "
                        f"AND REFERRED.{q(other_column)} IS NULL")
                    for bad_key, bad_value in cursor.fetchall():
                        raise IntegrityError(
                            f"The row in table '{table_name}' with primary key '{bad_key}' "
                            f"has an invalid foreign key: {table_name}.{column} contains a "
                            f"value '{bad_value}' that does not have a corresponding value "
                            f"in {other_table}.{other_column}.")
