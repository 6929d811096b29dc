"""SQL Django writes, in Informix's words.

Informix differs from the SQL Django's base operations assume in: row limits (``SKIP n FIRST
m`` after SELECT, see compiler.py), date and time functions (YEAR/MONTH/DAY/WEEKDAY/QUARTER of
a DATE or DATETIME, EXTEND and TRUNC to cut a DATETIME), string functions (CHAR_LENGTH counts
characters, LENGTH bytes), MOD/POW/BITAND instead of operators, and INSERT without RETURNING:
the SERIAL/BIGSERIAL value an INSERT made arrives in its SQ_INSERTDONE (``lastrowid``).
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import NotSupportedError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models.expressions import Col
from django.utils import timezone

Params = tuple[Any, ...] | list[Any]

#: A DATETIME as Django's DateTimeField stores it.
DT = "DATETIME YEAR TO FRACTION(5)"
TM = "DATETIME HOUR TO FRACTION(5)"

#: Django's arithmetic and bitwise connectors Informix writes as functions (it has no ``%``,
#: ``^``, ``&``, ``|``, ``#``, ``<<``, ``>>`` operators); the others are Django's infix forms.
_CONNECTORS = {
    "%%": "MOD({lhs}, {rhs})",
    "^": "POW({lhs}, {rhs})",
    "&": "BITAND({lhs}, {rhs})",
    "|": "BITOR({lhs}, {rhs})",
    "#": "BITXOR({lhs}, {rhs})",
    "<<": "({lhs} * POW(2, {rhs}))::BIGINT",
    ">>": "FLOOR({lhs} / POW(2, {rhs}))::BIGINT",
}


def plain_literal(value: Any) -> str | None:
    """NULL, a BOOLEAN (``'t'``/``'f'``) or a number as SQL text; None for any other value
    (the query log quotes its text, the schema editor writes dates, times and intervals)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "'t'" if value else "'f'"
    if isinstance(value, (int, float, decimal.Decimal)):
        return str(value)
    return None


def quoted(text: str) -> str:
    """A string literal: quotes doubled."""
    return "'" + text.replace("'", "''") + "'"


def _iso_thursday(sql: str) -> str:
    """The Thursday of the ISO week of a DATE/DATETIME: its ISO year is the week's year."""
    return f"(DATE({sql}) - MOD(WEEKDAY({sql}) + 6, 7) + 3)"


class DatabaseOperations(BaseDatabaseOperations):
    compiler_module = "ifxwire.django.compiler"
    cast_char_field_without_max_length = "LVARCHAR(32739)"
    cast_data_types = {  # noqa: RUF012 (Django's own declaration is a class dict)
        "AutoField": "INTEGER",
        "BigAutoField": "BIGINT",
        "SmallAutoField": "SMALLINT",
        "TextField": "LVARCHAR(4000)",
        "PositiveIntegerField": "INTEGER",
        "PositiveBigIntegerField": "BIGINT",
        "PositiveSmallIntegerField": "SMALLINT",
    }
    explain_prefix = None
    # The most negative value of each integer type is Informix's NULL: not storable.
    integer_field_ranges = {  # noqa: RUF012
        "SmallIntegerField": (-32767, 32767),
        "IntegerField": (-2147483647, 2147483647),
        "BigIntegerField": (-9223372036854775807, 9223372036854775807),
        "PositiveBigIntegerField": (0, 9223372036854775807),
        "PositiveSmallIntegerField": (0, 32767),
        "PositiveIntegerField": (0, 2147483647),
        "SmallAutoField": (-2147483647, 2147483647),
        "AutoField": (-2147483647, 2147483647),
        "BigAutoField": (-9223372036854775807, 9223372036854775807),
    }

    # ---- names, limits
    def quote_name(self, name: str) -> str:
        if name.startswith('"') and name.endswith('"'):
            return name
        return '"' + name.replace('"', '""') + '"'

    def max_name_length(self) -> int:
        return 128

    def no_limit_value(self) -> None:
        return None

    def limit_offset_sql(self, low_mark: int, high_mark: int | None) -> str:
        # The compiler puts SKIP/FIRST after SELECT; nothing goes at the end.
        return ""

    def pk_default_value(self) -> str:
        # Zero asks a SERIAL/BIGSERIAL column for its next value.
        return "0"

    def last_insert_id(self, cursor: Any, table_name: str, pk_name: str) -> Any:
        return cursor.lastrowid

    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        """The statement with its parameters written in as literals, for Django's query log
        (the wire carries them apart; this text is for reading, not for running)."""
        def literal(value: Any) -> str:
            text = plain_literal(value)
            return text if text is not None else quoted(str(value))

        # the text the cursor really ran: an execute_wrapper may have changed Django's
        sql = getattr(cursor, "last_sql", None) or sql
        if not params:
            return sql
        if isinstance(params, dict):
            return sql % {k: literal(v) for k, v in params.items()}
        return sql % tuple(literal(v) for v in params)

    def savepoint_create_sql(self, sid: str) -> str:
        return f"SAVEPOINT {self.quote_name(sid)}"

    def savepoint_commit_sql(self, sid: str) -> str:
        return f"RELEASE SAVEPOINT {self.quote_name(sid)}"

    def savepoint_rollback_sql(self, sid: str) -> str:
        return f"ROLLBACK TO SAVEPOINT {self.quote_name(sid)}"

    def start_transaction_sql(self) -> str:
        return "BEGIN WORK"

    def end_transaction_sql(self, success: bool = True) -> str:
        return "COMMIT WORK" if success else "ROLLBACK WORK"

    def sql_flush(self, style: Any, tables: Sequence[str], *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        return [f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} "
                f"{style.SQL_FIELD(self.quote_name(t))}" for t in tables]

    def execute_sql_flush(self, sql_list: Iterable[str]) -> None:
        # In a transaction the referential checks are deferred to its COMMIT, when every
        # table is empty (rows of tables that reference each other, which no order of DELETEs
        # empties). Without one (an unlogged database) referencing rows must go before the
        # rows they reference: the statements a foreign key refused (-692) are retried until
        # the order works out.
        from django.db import IntegrityError, transaction

        pending = list(sql_list)
        with transaction.atomic(using=self.connection.alias,
                                savepoint=self.connection.features.can_rollback_ddl), \
                self.connection.cursor() as cursor:
            if pending and self.connection.disable_constraint_checking():
                for sql in pending:
                    cursor.execute(sql)
                return
            for _ in range(len(pending) + 1):
                failed = []
                for sql in pending:
                    sid = self.connection.savepoint()
                    try:
                        cursor.execute(sql)
                    except IntegrityError:
                        self.connection.savepoint_rollback(sid)
                        failed.append(sql)
                    else:
                        self.connection.savepoint_commit(sid)
                if not failed or len(failed) == len(pending):
                    for sql in failed:
                        cursor.execute(sql)
                    return
                pending = failed

    def sequence_reset_by_name_sql(self, style: Any, sequences: Any) -> list[str]:
        return []

    def prep_for_like_query(self, x: Any) -> str:
        return str(x).replace("\\", "\\\\").replace("%", r"\%").replace("_", r"\_")

    def prep_for_iexact_query(self, x: Any) -> str:
        # iexact is "= UPPER(%s)", not LIKE: an escaped "_" would be compared as "\_"
        return str(x)

    def lookup_cast(self, lookup_type: str, internal_type: str | None = None) -> str:
        if lookup_type in ("iexact", "icontains", "istartswith", "iendswith"):
            return "UPPER(%s)"
        return "%s"

    def regex_lookup(self, lookup_type: str) -> str:
        raise NotSupportedError("Informix has no regular-expression operator (LIKE and "
                                "MATCHES only)")

    def for_update_sql(self, *args: Any, **kw: Any) -> str:
        return "FOR UPDATE"

    def bulk_insert_sql(self, fields: Any, placeholder_rows: Any) -> str:
        raise NotSupportedError("Informix's INSERT ... VALUES takes one row")

    # ---- expressions
    def combine_expression(self, connector: str, sub_expressions: list[str]) -> str:
        form = _CONNECTORS.get(connector)
        if form is None:
            return str(super().combine_expression(connector, sub_expressions))
        return form.format(lhs=sub_expressions[0], rhs=sub_expressions[-1])

    def combine_duration_expression(self, connector: str, sub_expressions: list[str]) -> str:
        if connector not in ("+", "-"):
            raise NotSupportedError(f"Informix cannot {connector} durations")
        return f" {connector} ".join(sub_expressions)

    def format_for_duration_arithmetic(self, sql: str) -> str:
        return sql

    def subtract_temporals(self, internal_type: str, lhs: Any, rhs: Any) -> Any:
        lhs_sql, lhs_params = lhs
        rhs_sql, rhs_params = rhs
        params = (*lhs_params, *rhs_params)
        if internal_type == "DateField":
            # DATE - DATE is an INTEGER count of days, which no cast makes an INTERVAL
            # (-1260); UNITS DAY is Informix's number-to-interval operator
            return (f"((({lhs_sql}) - ({rhs_sql})) UNITS DAY)"
                    "::INTERVAL DAY(9) TO FRACTION(5)", params)
        return f"(({lhs_sql}) - ({rhs_sql}))::INTERVAL DAY(9) TO FRACTION(5)", params

    # ---- dates and times
    def _tz(self, sql: str, tzname: str | None) -> str:
        if tzname and settings.USE_TZ and tzname != self.connection.timezone_name:
            raise NotSupportedError(
                "Informix DATETIME has no time zone, and the server no zone database to "
                f"convert to {tzname!r}")
        return sql

    def date_extract_sql(self, lookup_type: str, sql: str, params: Params) -> Any:
        lt = lookup_type.lower()
        if lt in ("year", "month", "day", "quarter"):
            return f"{lt.upper()}({sql})", params
        if lt == "week_day":
            return f"(WEEKDAY({sql}) + 1)", params
        if lt == "iso_week_day":
            return f"(MOD(WEEKDAY({sql}) + 6, 7) + 1)", params
        if lt == "iso_year":
            return f"YEAR({_iso_thursday(sql)})", (*params, *params, *params)
        if lt == "week":
            th = _iso_thursday(sql)
            return (f"(TRUNC(({th} - MDY(1, 1, YEAR({th}))) / 7) + 1)",
                    tuple(params) * 6)
        if lt in ("hour", "minute", "second"):
            return self.time_extract_sql(lt, sql, params)
        raise NotSupportedError(f"no {lookup_type!r} extract on Informix")

    def time_extract_sql(self, lookup_type: str, sql: str, params: Params) -> Any:
        unit = {"hour": "HOUR", "minute": "MINUTE", "second": "SECOND"}.get(lookup_type)
        if unit is None:
            return self.date_extract_sql(lookup_type, sql, params)
        # A DATETIME field as a string of its digits: EXTEND(x, HOUR TO HOUR) reads "13".
        return f"(EXTEND({sql}, {unit} TO {unit})::CHAR(4))::INTEGER", params

    def datetime_extract_sql(self, lookup_type: str, sql: str, params: Params,
                             tzname: str | None) -> Any:
        return self.date_extract_sql(lookup_type, self._tz(sql, tzname), params)

    def date_trunc_sql(self, lookup_type: str, sql: str, params: Params,
                       tzname: str | None = None) -> Any:
        lt = lookup_type.lower()
        sql = self._tz(sql, tzname)
        if lt == "year":
            return f"MDY(1, 1, YEAR({sql}))", params
        if lt == "quarter":
            return f"MDY((QUARTER({sql}) - 1) * 3 + 1, 1, YEAR({sql}))", (*params, *params)
        if lt == "month":
            return f"MDY(MONTH({sql}), 1, YEAR({sql}))", (*params, *params)
        if lt == "week":
            return f"(DATE({sql}) - MOD(WEEKDAY({sql}) + 6, 7))", (*params, *params)
        if lt == "day":
            return f"DATE({sql})", params
        raise NotSupportedError(f"no {lookup_type!r} truncation of a date on Informix")

    def datetime_trunc_sql(self, lookup_type: str, sql: str, params: Params,
                           tzname: str | None) -> Any:
        lt = lookup_type.lower()
        sql = self._tz(sql, tzname)
        if lt in ("year", "quarter", "month", "week", "day"):
            d, p = self.date_trunc_sql(lt, sql, params)
            return f"EXTEND({d}, YEAR TO FRACTION(5))", p
        unit = {"hour": "HOUR", "minute": "MINUTE", "second": "SECOND"}.get(lt)
        if unit is None:
            raise NotSupportedError(f"no {lookup_type!r} truncation on Informix")
        return (f"EXTEND(EXTEND({sql}, YEAR TO {unit}), YEAR TO FRACTION(5))", params)

    def time_trunc_sql(self, lookup_type: str, sql: str, params: Params,
                       tzname: str | None = None) -> Any:
        unit = {"hour": "HOUR", "minute": "MINUTE", "second": "SECOND"}.get(lookup_type)
        if unit is None:
            raise NotSupportedError(f"no {lookup_type!r} truncation of a time on Informix")
        sql = self._tz(sql, tzname)
        return f"EXTEND(EXTEND({sql}, HOUR TO {unit}), HOUR TO FRACTION(5))", params

    def datetime_cast_date_sql(self, sql: str, params: Params, tzname: str | None) -> Any:
        return f"DATE({self._tz(sql, tzname)})", params

    def datetime_cast_time_sql(self, sql: str, params: Params, tzname: str | None) -> Any:
        return f"EXTEND({self._tz(sql, tzname)}, HOUR TO FRACTION(5))", params

    # ---- values in and out
    def adapt_datetimefield_value(self, value: Any) -> Any:
        if value is None or hasattr(value, "resolve_expression"):
            return value
        if timezone.is_aware(value):
            if settings.USE_TZ:
                value = timezone.make_naive(value, self.connection.timezone)
            else:
                raise ValueError("Informix backend does not support timezone-aware "
                                 "datetimes when USE_TZ is False.")
        return value

    def adapt_timefield_value(self, value: Any) -> Any:
        if value is None or hasattr(value, "resolve_expression"):
            return value
        if isinstance(value, str):
            return datetime.time.fromisoformat(value)
        if timezone.is_aware(value):
            raise ValueError("Informix backend does not support timezone-aware times.")
        return value

    def adapt_datefield_value(self, value: Any) -> Any:
        return value

    def adapt_decimalfield_value(self, value: Any, max_digits: int | None = None,
                                 decimal_places: int | None = None) -> Any:
        return value

    def adapt_integerfield_value(self, value: Any, internal_type: str) -> Any:
        return value

    def get_db_converters(self, expression: Any) -> list[Callable[..., Any]]:
        converters = list(super().get_db_converters(expression))
        internal_type = expression.output_field.get_internal_type()
        if internal_type == "DateTimeField":
            converters.append(self.convert_datetimefield_value)
        elif internal_type == "DateField":
            converters.append(self.convert_datefield_value)
        elif internal_type == "TimeField":
            converters.append(self.convert_timefield_value)
        elif internal_type == "UUIDField":
            converters.append(self.convert_uuidfield_value)
        elif internal_type == "BooleanField":
            converters.append(self.convert_booleanfield_value)
        elif internal_type == "DecimalField":
            converters.append(self.get_decimalfield_converter(expression))
        elif internal_type in ("FloatField",):
            converters.append(self.convert_floatfield_value)
        elif internal_type == "BinaryField":
            converters.append(self.convert_binaryfield_value)
        return converters

    def convert_datetimefield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is not None:
            if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
                value = datetime.datetime(value.year, value.month, value.day)
            if settings.USE_TZ and isinstance(value, datetime.datetime) and \
                    not timezone.is_aware(value):
                value = timezone.make_aware(value, self.connection.timezone)
        return value

    def convert_datefield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, datetime.datetime):
            return value.date()
        return value

    def convert_timefield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, datetime.datetime):
            return value.time()
        return value

    def convert_uuidfield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is not None and not isinstance(value, uuid.UUID):
            value = uuid.UUID(value)
        return value

    def convert_booleanfield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value in (0, 1):
            return bool(value)
        return value

    def convert_floatfield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, decimal.Decimal):
            return float(value)
        return value

    def convert_binaryfield_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str):
            return value.encode()
        return value

    def get_decimalfield_converter(self, expression: Any) -> Callable[..., Any]:
        create = decimal.Context(prec=32).create_decimal_from_float
        # Only a column's value is brought to its field's scale (as Django's SQLite backend
        # does): an expression's DECIMAL comes with the scale the server typed it with, and
        # NVL(SUM(price), 3.14159...) is a DECIMAL with the literal's scale, which quantizing
        # to the price's two places would cut (aggregation's decimal default test).
        places = (getattr(expression.output_field, "decimal_places", None)
                  if isinstance(expression, Col) else None)
        quantize = (decimal.Decimal(1).scaleb(-places) if places is not None else None)

        def converter(value: Any, expression: Any, connection: Any) -> Any:
            if value is None:
                return value
            if isinstance(value, float):
                value = create(value)
            elif not isinstance(value, decimal.Decimal):
                value = decimal.Decimal(value)
            if quantize is not None and value.is_finite():
                with contextlib.suppress(decimal.InvalidOperation):
                    value = value.quantize(quantize, context=decimal.Context(prec=32))
            return value

        return converter

    def conditional_expression_supported_in_where_clause(self, expression: Any) -> bool:
        return True
