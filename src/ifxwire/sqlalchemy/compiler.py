"""SQL, DDL and type compilation for Informix.

Where Informix differs from the SQL SQLAlchemy writes by default:

* row limits are ``SELECT SKIP n FIRST m`` in the projection, not LIMIT/OFFSET at the end;
  the numbers are rendered as literals (``literal_execute``), which every Informix version
  accepts;
* a SELECT needs a FROM clause: FROM-less selects read from ``TABLE(SET{1})``, the one-row
  collection-derived table;
* a constraint's name comes *after* its definition (``PRIMARY KEY (a) CONSTRAINT pk_t``), and
  ``ALTER TABLE … ADD CONSTRAINT`` is followed by the definition;
* the only referential action is ``ON DELETE CASCADE`` (NO ACTION/RESTRICT is the default
  behaviour and is rendered as nothing);
* sequences are read with ``seq.NEXTVAL``; their options are NOMAXVALUE/NOCYCLE (one word);
* the autoincrement column of a table is a SERIAL (INTEGER, SMALLINT) or BIGSERIAL (BIGINT).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exc
from sqlalchemy import types as sqltypes
from sqlalchemy.sql import compiler, elements, operators
from sqlalchemy.sql import schema as sa_schema

from . import types as ifx

#: Words that cannot be bare identifiers in Informix statements SQLAlchemy writes. Informix
#: lets most keywords stand as names; these are the ones that break the statements a dialect
#: emits (projection, FROM, WHERE, ORDER BY, DDL), so they are always quoted.
RESERVED_WORDS = {
    "add", "all", "alter", "and", "any", "as", "asc", "between", "by", "case", "cast",
    "check", "column", "constraint", "create", "current", "cursor", "database", "date",
    "datetime", "default", "delete", "desc", "distinct", "drop", "else", "end", "escape",
    "exists", "first", "for", "foreign", "from", "full", "grant", "group", "having", "in",
    "index", "inner", "insert", "interval", "into", "is", "join", "key", "left", "like",
    "limit", "matches", "middle", "mod", "not", "null", "of", "on", "or", "order", "outer",
    "primary", "references", "revoke", "right", "select", "set", "skip", "table", "then",
    "to", "today", "union", "unique", "update", "user", "using", "values", "view", "when",
    "where", "with", "work",
}  # fmt: skip

#: The one-row table a FROM-less SELECT reads from.
ONE_ROW_FROM = "TABLE(SET{1})"


class InformixIdentifierPreparer(compiler.IdentifierPreparer):
    """Double-quoted identifiers; they need DELIMIDENT=y, which the dialect always sets."""

    reserved_words = RESERVED_WORDS


class InformixCompiler(compiler.SQLCompiler):
    def default_from(self) -> str:
        return " FROM " + ONE_ROW_FROM

    def visit_bindparam(  # type: ignore[override]
            self, bindparam: Any, within_columns_clause: bool = False,
            literal_binds: bool = False, literal_execute: bool = False, **kw: Any) -> str:
        text = str(super().visit_bindparam(
            bindparam, within_columns_clause=within_columns_clause,
            literal_binds=literal_binds, literal_execute=literal_execute, **kw))
        if (within_columns_clause and not literal_binds and not literal_execute
                and not bindparam.literal_execute and not kw.get("skip_bind_expression")
                and "POSTCOMPILE" not in text):
            # A bare ``?`` in a projection is a syntax error on Informix; a cast gives the
            # server the type it cannot infer (peer-informix-driver.md §6: ``?::INT`` works).
            type_ = bindparam.type
            if isinstance(type_, sqltypes.NullType):
                type_ = sqltypes.String()
            cast_to = self.dialect.type_compiler_instance.process(type_)
            return f"CAST({text} AS {cast_to})"
        return text

    def _row_limits(self, select: Any, **kw: Any) -> str:
        text = ""
        for word, clause in (("SKIP", select._offset_clause), ("FIRST", select._limit_clause)):
            if clause is None:
                continue
            if isinstance(clause, elements.BindParameter) and clause.type._isnull:
                clause = clause._with_binary_element_type(sqltypes.Integer())
            text += f"{word} {self.process(clause, literal_execute=True, **kw)} "
        return text

    def get_select_precolumns(self, select: Any, **kw: Any) -> str:
        return self._row_limits(select, **kw) + super().get_select_precolumns(select, **kw)

    def limit_clause(self, select: Any, **kw: Any) -> str:
        return ""

    def fetch_clause(self, select: Any, *args: Any, **kw: Any) -> str:
        raise exc.CompileError("Informix has no FETCH FIRST clause; use limit()/offset()")

    def visit_compound_select(  # type: ignore[override]
            self, cs: Any, asfrom: bool = False, **kw: Any) -> str:
        if (cs._limit_clause is None and cs._offset_clause is None
                and not cs._order_by_clauses):
            return str(super().visit_compound_select(cs, asfrom=asfrom, **kw))
        # Informix puts SKIP/FIRST in a projection, so a limited UNION becomes a select from
        # the UNION. An ORDER BY goes outside too: a combined query's own ORDER BY may name
        # its columns only by select number (Guide to SQL: Syntax, "Restrictions on a
        # Combined SELECT", ids_sqs_1073; -374 otherwise), the derived table's by name.
        inner = cs._generate()
        inner._limit_clause = inner._offset_clause = None
        inner._order_by_clauses = ()
        body = super().visit_compound_select(inner, asfrom=True, **kw)
        order = self.order_by_clause(cs, **{**kw, "include_table": False})
        text = f"SELECT {self._row_limits(cs, **kw)}* FROM ({body}){order}"
        return f"({text})" if asfrom else text

    def for_update_clause(self, select: Any, **kw: Any) -> str:
        if select._for_update_arg.read:
            return " FOR READ ONLY"
        of = select._for_update_arg.of
        if of:
            cols = ", ".join(self.preparer.quote(c.name) for c in of if hasattr(c, "name"))
            if cols:
                return " FOR UPDATE OF " + cols
        return " FOR UPDATE"

    # A window frame's offsets are integers in the SQL text: the Guide to SQL: Syntax's OLAP
    # window clause takes an unsigned integer there, and the server refuses a parameter
    # marker (-25851, docs/SERVER.md "OLAP window expressions"). Rendered after the cache
    # (literal_execute), as SQLAlchemy's SQL Server dialect does, so one cached statement
    # serves every offset. SQLAlchemy 2.1 renders frames in visit_frame_clause, 2.0 in
    # _format_frame_clause.
    def visit_frame_clause(self, frameclause: Any, **kw: Any) -> str:
        kw["literal_execute"] = True
        result: str = super().visit_frame_clause(frameclause, **kw)
        return result

    def _format_frame_clause(self, range_: Any, **kw: Any) -> str:
        kw["literal_execute"] = True
        result: str = super()._format_frame_clause(range_, **kw)  # type: ignore[misc]
        return result

    def visit_sequence(self, sequence: Any, **kw: Any) -> str:
        return str(self.preparer.format_sequence(sequence)) + ".NEXTVAL"

    def visit_true(self, expr: Any, **kw: Any) -> str:
        return "'t'::BOOLEAN"

    def visit_false(self, expr: Any, **kw: Any) -> str:
        return "'f'::BOOLEAN"

    def visit_mod_binary(self, binary: Any, operator: Any, **kw: Any) -> str:
        left, right = self.process(binary.left, **kw), self.process(binary.right, **kw)
        return f"MOD({left}, {right})"

    def visit_empty_set_expr(self, element_types: Any, **kw: Any) -> str:
        cols = ", ".join(["1"] * max(1, len(element_types)))
        return f"SELECT {cols} FROM {ONE_ROW_FROM} WHERE 1!=1"

    def visit_is_distinct_from_binary(self, binary: Any, operator: Any, **kw: Any) -> str:
        left, right = self.process(binary.left, **kw), self.process(binary.right, **kw)
        return (f"NOT ({left} = {right} OR ({left} IS NULL AND {right} IS NULL))")

    def visit_is_not_distinct_from_binary(self, binary: Any, operator: Any, **kw: Any) -> str:
        left, right = self.process(binary.left, **kw), self.process(binary.right, **kw)
        return f"({left} = {right} OR ({left} IS NULL AND {right} IS NULL))"

    def visit_char_length_func(self, fn: Any, **kw: Any) -> str:
        return f"CHAR_LENGTH({self.function_argspec(fn, **kw)})"

    def visit_now_func(self, fn: Any, **kw: Any) -> str:
        return "CURRENT YEAR TO FRACTION(5)"

    def visit_current_timestamp_func(self, fn: Any, **kw: Any) -> str:
        return "CURRENT YEAR TO FRACTION(5)"

    def visit_localtimestamp_func(self, fn: Any, **kw: Any) -> str:
        return "CURRENT YEAR TO FRACTION(5)"

    def visit_current_date_func(self, fn: Any, **kw: Any) -> str:
        return "TODAY"

    def visit_current_time_func(self, fn: Any, **kw: Any) -> str:
        return "CURRENT HOUR TO FRACTION(5)"

    def visit_current_user_func(self, fn: Any, **kw: Any) -> str:
        return "USER"

    def visit_regexp_match_op_binary(self, binary: Any, operator: Any, **kw: Any) -> str:
        raise exc.CompileError("Informix has no regular-expression operator")

    def render_literal_value(self, value: Any, type_: Any) -> str:
        if isinstance(type_, sqltypes.Boolean) and isinstance(value, bool):
            return "'t'" if value else "'f'"
        return str(super().render_literal_value(value, type_))


class InformixDDLCompiler(compiler.DDLCompiler):
    def get_column_specification(self, column: Any, **kw: Any) -> str:
        spec = self.preparer.format_column(column) + " "
        table = column.table
        is_serial = column.identity is not None or (
            table is not None
            and column is table._autoincrement_column
            and column.server_default is None
            and (column.default is None or (
                isinstance(column.default, sa_schema.Sequence) and column.default.optional))
        )
        if is_serial:
            big = isinstance(column.type, sqltypes.BigInteger)
            spec += "BIGSERIAL" if big else "SERIAL"
        else:
            spec += self.dialect.type_compiler_instance.process(
                column.type, type_expression=column)
        default = self.get_column_default_string(column)
        if default is not None:
            spec += " DEFAULT " + default
        if column.computed is not None:
            raise exc.CompileError("Informix has no computed (generated) columns")
        if not column.nullable:
            spec += " NOT NULL"
        return spec

    def define_constraint_preamble(self, constraint: Any, **kw: Any) -> str:
        return ""

    def define_constraint_deferrability(self, constraint: Any) -> str:
        # Informix checks constraints per statement (SET CONSTRAINTS … DEFERRED is a session
        # statement, not part of the definition), so this slot carries the trailing name.
        if constraint.name is not None:
            name = self.preparer.format_constraint(constraint)
            if name is not None:
                return " CONSTRAINT " + name
        return ""

    def define_constraint_match(self, constraint: Any) -> str:
        return ""

    def define_foreign_key_body(self, constraint: Any, **kw: Any) -> str:
        preparer = self.preparer
        remote = next(iter(constraint.elements)).column.table
        local = ", ".join(preparer.quote(f.parent.name) for f in constraint.elements)
        referred = ", ".join(preparer.quote(f.column.name) for f in constraint.elements)
        table = self.define_constraint_remote_table(constraint, remote, preparer)
        return f"FOREIGN KEY ({local}) REFERENCES {table} ({referred})"

    def define_constraint_cascades(self, constraint: Any) -> str:
        ondelete = (constraint.ondelete or "").upper()
        onupdate = (constraint.onupdate or "").upper()
        if onupdate not in ("", "NO ACTION", "RESTRICT"):
            raise exc.CompileError(f"Informix has no ON UPDATE {onupdate} referential action")
        if ondelete == "CASCADE":
            return " ON DELETE CASCADE"
        if ondelete not in ("", "NO ACTION", "RESTRICT"):
            raise exc.CompileError(f"Informix has no ON DELETE {ondelete} referential action "
                                   "(only CASCADE)")
        return ""

    def visit_add_constraint(self, create: Any, **kw: Any) -> str:
        table = self.preparer.format_table(create.element.table)
        return f"ALTER TABLE {table} ADD CONSTRAINT {self.process(create.element)}"

    def visit_create_index(self, create: Any, include_schema: bool = False,
                           include_table_schema: bool = True, **kw: Any) -> str:
        index = create.element
        self._verify_index_table(index)
        if index.name is None:
            raise exc.CompileError("CREATE INDEX requires that the index have a name")
        cols = []
        for expr in index.expressions:
            if isinstance(expr, elements.UnaryExpression) and expr.modifier in (
                    operators.desc_op, operators.asc_op):
                direction = " DESC" if expr.modifier is operators.desc_op else ""
                expr = expr.element
            else:
                direction = ""
            if not isinstance(expr, sa_schema.Column) and not hasattr(expr, "name"):
                raise exc.CompileError("Informix indexes are on columns, not expressions")
            cols.append(self.preparer.quote(expr.name) + direction)
        unique = "UNIQUE " if index.unique else ""
        if_not = "IF NOT EXISTS " if create.if_not_exists else ""
        name = self._prepared_index_name(index, include_schema=include_schema)
        table = self.preparer.format_table(index.table, use_schema=include_table_schema)
        return f"CREATE {unique}INDEX {if_not}{name} ON {table} ({', '.join(cols)})"

    def get_identity_options(self, identity_options: Any) -> str:
        opts = identity_options
        text = []
        if opts.increment is not None:
            text.append(f"INCREMENT BY {int(opts.increment)}")
        if opts.start is not None:
            text.append(f"START WITH {int(opts.start)}")
        if opts.minvalue is not None:
            text.append(f"MINVALUE {int(opts.minvalue)}")
        if opts.maxvalue is not None:
            text.append(f"MAXVALUE {int(opts.maxvalue)}")
        if identity_options.nominvalue:
            text.append("NOMINVALUE")
        if identity_options.nomaxvalue:
            text.append("NOMAXVALUE")
        if identity_options.cache is not None:
            text.append(f"CACHE {int(opts.cache)}" if opts.cache else "NOCACHE")
        if identity_options.cycle is not None:
            text.append("CYCLE" if identity_options.cycle else "NOCYCLE")
        if getattr(identity_options, "order", None) is not None:
            text.append("ORDER" if identity_options.order else "NOORDER")
        return " ".join(text)

    def visit_set_table_comment(self, create: Any, **kw: Any) -> str:
        raise exc.CompileError("Informix has no table comments")

    def visit_set_column_comment(self, create: Any, **kw: Any) -> str:
        raise exc.CompileError("Informix has no column comments")


class InformixTypeCompiler(compiler.GenericTypeCompiler):
    def visit_boolean(self, type_: Any, **kw: Any) -> str:
        return "BOOLEAN"

    def visit_BOOLEAN(self, type_: Any, **kw: Any) -> str:
        return "BOOLEAN"

    def visit_big_integer(self, type_: Any, **kw: Any) -> str:
        return "BIGINT"

    def visit_INT8(self, type_: Any, **kw: Any) -> str:
        return "INT8"

    def visit_SERIAL(self, type_: Any, **kw: Any) -> str:
        return "SERIAL"

    def visit_SERIAL8(self, type_: Any, **kw: Any) -> str:
        return "SERIAL8"

    def visit_BIGSERIAL(self, type_: Any, **kw: Any) -> str:
        return "BIGSERIAL"

    def visit_float(self, type_: Any, **kw: Any) -> str:
        return "FLOAT"

    def visit_FLOAT(self, type_: Any, **kw: Any) -> str:
        return "FLOAT"

    def visit_DOUBLE(self, type_: Any, **kw: Any) -> str:
        return "FLOAT"

    def visit_DOUBLE_PRECISION(self, type_: Any, **kw: Any) -> str:
        return "FLOAT"

    def visit_double(self, type_: Any, **kw: Any) -> str:
        return "FLOAT"

    def visit_REAL(self, type_: Any, **kw: Any) -> str:
        return "SMALLFLOAT"

    def visit_SMALLFLOAT(self, type_: Any, **kw: Any) -> str:
        return "SMALLFLOAT"

    def visit_numeric(self, type_: Any, **kw: Any) -> str:
        return self._decimal("DECIMAL", type_)

    def visit_NUMERIC(self, type_: Any, **kw: Any) -> str:
        return self._decimal("DECIMAL", type_)

    def visit_DECIMAL(self, type_: Any, **kw: Any) -> str:
        return self._decimal("DECIMAL", type_)

    def visit_MONEY(self, type_: Any, **kw: Any) -> str:
        return self._decimal("MONEY", type_)

    @staticmethod
    def _decimal(name: str, type_: Any) -> str:
        # Informix's DECIMAL(p) is a *floating* decimal; SQLAlchemy's Numeric(p) means scale 0,
        # so the scale is always written. Without a precision: DECIMAL(32), floating (the most
        # digits Informix keeps).
        if type_.precision is None:
            return f"{name}(32)"
        return f"{name}({type_.precision}, {type_.scale or 0})"

    def visit_datetime(self, type_: Any, **kw: Any) -> str:
        return "DATETIME YEAR TO FRACTION(5)"

    def visit_DATETIME(self, type_: Any, **kw: Any) -> str:
        if isinstance(type_, ifx.DATETIME):
            return f"DATETIME {type_.start} TO {type_.end_sql()}"
        return "DATETIME YEAR TO FRACTION(5)"

    def visit_TIMESTAMP(self, type_: Any, **kw: Any) -> str:
        return "DATETIME YEAR TO FRACTION(5)"

    def visit_time(self, type_: Any, **kw: Any) -> str:
        return "DATETIME HOUR TO FRACTION(5)"

    def visit_TIME(self, type_: Any, **kw: Any) -> str:
        return "DATETIME HOUR TO FRACTION(5)"

    def visit_interval(self, type_: Any, **kw: Any) -> str:
        return "INTERVAL DAY(9) TO FRACTION(5)"

    def visit_INTERVAL(self, type_: Any, **kw: Any) -> str:
        if isinstance(type_, ifx.INTERVAL):
            lead = f"({type_.precision})" if type_.precision else ""
            return f"INTERVAL {type_.start}{lead} TO {type_.end_sql()}"
        return "INTERVAL DAY(9) TO FRACTION(5)"

    def visit_string(self, type_: Any, **kw: Any) -> str:
        return self._varchar(type_)

    def visit_unicode(self, type_: Any, **kw: Any) -> str:
        return self._varchar(type_)

    def visit_VARCHAR(self, type_: Any, **kw: Any) -> str:
        return self._varchar(type_)

    def visit_NVARCHAR(self, type_: Any, **kw: Any) -> str:
        if type_.length is None or type_.length > 255:
            return self._varchar(type_)
        return f"NVARCHAR({type_.length})"

    @staticmethod
    def _varchar(type_: Any) -> str:
        # VARCHAR holds at most 255 bytes; beyond that (or with no length) LVARCHAR, whose
        # default length is 2048.
        if type_.length is None:
            return "LVARCHAR"
        if type_.length > 255:
            return f"LVARCHAR({type_.length})"
        return f"VARCHAR({type_.length})"

    def visit_LVARCHAR(self, type_: Any, **kw: Any) -> str:
        return f"LVARCHAR({type_.length})" if type_.length else "LVARCHAR"

    def visit_CHAR(self, type_: Any, **kw: Any) -> str:
        return f"CHAR({type_.length or 1})"

    def visit_NCHAR(self, type_: Any, **kw: Any) -> str:
        return f"NCHAR({type_.length or 1})"

    def visit_text(self, type_: Any, **kw: Any) -> str:
        return "TEXT"

    def visit_unicode_text(self, type_: Any, **kw: Any) -> str:
        return "TEXT"

    def visit_TEXT(self, type_: Any, **kw: Any) -> str:
        return "TEXT"

    def visit_CLOB(self, type_: Any, **kw: Any) -> str:
        return "CLOB"

    def visit_large_binary(self, type_: Any, **kw: Any) -> str:
        return "BYTE"

    def visit_BYTE(self, type_: Any, **kw: Any) -> str:
        return "BYTE"

    def visit_BLOB(self, type_: Any, **kw: Any) -> str:
        return "BLOB"

    def visit_BINARY(self, type_: Any, **kw: Any) -> str:
        return "BYTE"

    def visit_VARBINARY(self, type_: Any, **kw: Any) -> str:
        return "BYTE"

    def visit_JSON(self, type_: Any, **kw: Any) -> str:
        raise exc.CompileError("the Informix dialect has no JSON type mapping")
