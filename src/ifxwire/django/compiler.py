"""Query compilers: Informix puts row limits after SELECT (``SELECT SKIP n FIRST m ...``).

Django appends LIMIT/OFFSET at the end of a query; here the base compiler writes the query
without them and the limits are put in its projection. A limited UNION/INTERSECT/EXCEPT
becomes a select from the compound (the limits of a compound belong to the whole of it).
"""

from __future__ import annotations

from typing import Any

from django.db.models.sql import compiler


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
        if with_limits and self.query.is_sliced:
            limits = _limits(self.query)
            if limits:
                if self.query.combinator or not sql.startswith("SELECT "):
                    sql = f"SELECT {limits}* FROM ({sql}) ifx_limited"
                else:
                    sql = "SELECT " + limits + sql[len("SELECT "):]
        return sql, params


class SQLInsertCompiler(compiler.SQLInsertCompiler, SQLCompiler):
    pass


class SQLDeleteCompiler(compiler.SQLDeleteCompiler, SQLCompiler):
    pass


class SQLUpdateCompiler(compiler.SQLUpdateCompiler, SQLCompiler):
    pass


class SQLAggregateCompiler(compiler.SQLAggregateCompiler, SQLCompiler):
    pass
