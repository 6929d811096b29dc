"""Query compilers: Informix puts row limits after SELECT (``SELECT SKIP n FIRST m ...``).

Django appends LIMIT/OFFSET at the end of a query; here the base compiler writes the query
without them and the limits are put in its projection. A limited UNION/INTERSECT/EXCEPT
becomes a select from the compound (the limits of a compound belong to the whole of it).

Informix truncates a character value longer than its column without a word (in a database
that is not MODE ANSI, which Django's are not), and VARCHAR/LVARCHAR/CHAR count bytes of the
database's code set. The insert and update compilers therefore measure every string bound to
a character column in the connection's encoding and raise DataError naming the column when it
does not fit, before anything is sent (docs/DJANGO.md, "No silent truncation").
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Case, Value
from django.db.models.sql import compiler
from django.db.utils import DataError

#: A character column's declared size: CHAR(n), NCHAR(n), VARCHAR(n[, r]), NVARCHAR(n[, r]),
#: LVARCHAR(n); the number is bytes in the database's code set.
_CHAR_TYPE = re.compile(r"^\s*(N?CHAR|N?VARCHAR|LVARCHAR)\s*\(\s*(\d+)", re.I)


def _column_bytes(field: Any, connection: Any) -> int | None:
    """The bytes ``field``'s column holds, or None when it is not a sized character type."""
    try:
        db_type = field.db_type(connection)
    except Exception:  # a field without a column type (e.g. a relation's reverse side)
        return None
    m = _CHAR_TYPE.match(db_type or "")
    return int(m.group(2)) if m else None


def check_length(connection: Any, field: Any, value: Any) -> None:
    """Raise DataError when ``value`` (a str, or a Value/Case of str literals) is longer, in
    the connection's bytes, than ``field``'s column: Informix would keep the first bytes and
    say nothing."""
    if isinstance(value, str):
        texts = [value]
    elif isinstance(value, (Value, Case)):
        nodes = value.flatten() if isinstance(value, Case) else [value]
        texts = [n.value for n in nodes if isinstance(n, Value) and isinstance(n.value, str)]
    else:
        return
    if not texts:
        return
    limit = _column_bytes(field, connection)
    if limit is None:
        return
    connection.ensure_connection()
    encoding = getattr(connection.connection, "encoding", None) or "utf-8"
    for text in texts:
        size = len(text.encode(encoding, "replace"))
        if size > limit:
            table = field.model._meta.db_table if getattr(field, "model", None) else "?"
            raise DataError(
                f'value too long for column "{table}"."{field.column}" '
                f"({field.db_type(connection)}): {len(text)} characters are {size} bytes "
                f"in {encoding}, the column holds {limit}; Informix would truncate it silently")


def _limits(query: Any) -> str:
    text = ""
    if query.low_mark:
        text += f"SKIP {int(query.low_mark)} "
    if query.high_mark is not None:
        text += f"FIRST {int(query.high_mark - query.low_mark)} "
    return text


class SQLCompiler(compiler.SQLCompiler):
    def as_sql(self, with_limits: bool = True, with_col_aliases: bool = False) -> Any:
        sql, params = super().as_sql(with_limits=False, with_col_aliases=with_col_aliases)
        limits = _limits(self.query) if with_limits and self.query.is_sliced else ""
        if self.query.combinator:
            # A combined query's own ORDER BY may name its columns only by select number
            # (Guide to SQL: Syntax, "Restrictions on a Combined SELECT", ids_sqs_1073; the
            # server says -374), and Django names them: the ORDER BY goes after a select from
            # the compound, with its limits (the whole compound's).
            order = ""
            if self.query.order_by or self.query.extra_order_by:
                at = sql.rfind(" ORDER BY ")
                if at > 0:
                    sql, order = sql[:at], sql[at:]
            if limits or order:
                sql = f"SELECT {limits}* FROM ({sql}) ifx_limited{order}"
        elif limits:
            if not sql.startswith("SELECT "):
                sql = f"SELECT {limits}* FROM ({sql}) ifx_limited"
            else:
                sql = "SELECT " + limits + sql[len("SELECT "):]
        return sql, params


class SQLInsertCompiler(compiler.SQLInsertCompiler, SQLCompiler):
    def prepare_value(self, field: Any, value: Any) -> Any:
        prepared = super().prepare_value(field, value)
        check_length(self.connection, field, prepared)
        return prepared


class SQLDeleteCompiler(compiler.SQLDeleteCompiler, SQLCompiler):
    pass


class SQLUpdateCompiler(compiler.SQLUpdateCompiler, SQLCompiler):
    def as_sql(self, *args: Any, **kwargs: Any) -> Any:
        for field, _model, val in self.query.values:
            check_length(self.connection, field, val)  # a str is what CharField binds
        return super().as_sql(*args, **kwargs)


class SQLAggregateCompiler(compiler.SQLAggregateCompiler, SQLCompiler):
    pass
