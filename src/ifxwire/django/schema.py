"""The schema editor: Django's migrations in Informix DDL.

Informix writes a constraint's name after its definition (``UNIQUE (a) CONSTRAINT name``),
adds and drops columns with ``ALTER TABLE t ADD c ...`` / ``DROP c``, renames with ``RENAME
TABLE`` / ``RENAME COLUMN t.c TO d``, and changes a column with ``MODIFY (c type [DEFAULT x]
[NOT NULL])``, which restates the whole column: what MODIFY does not repeat (the default, NOT
NULL) is gone afterwards. So every MODIFY here is written from the field's full state.
Defaults are literals (no parameters in DDL).
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from .operations import plain_literal, quoted


class DatabaseSchemaEditor(BaseDatabaseSchemaEditor):
    sql_rename_table = "RENAME TABLE %(old_table)s TO %(new_table)s"
    sql_delete_table = "DROP TABLE %(table)s CASCADE"
    sql_create_column = "ALTER TABLE %(table)s ADD %(column)s %(definition)s"
    # A foreign key column added with its constraint in one statement, the constraint's name
    # after it as Informix writes names: ADD c INTEGER REFERENCES t (id) CONSTRAINT name.
    sql_create_column_inline_fk = (
        "REFERENCES %(to_table)s (%(to_column)s)%(deferrable)s CONSTRAINT %(name)s")
    sql_delete_column = "ALTER TABLE %(table)s DROP %(column)s"
    sql_rename_column = "RENAME COLUMN %(table)s.%(old_column)s TO %(new_column)s"
    sql_alter_column_type = "MODIFY (%(column)s %(type)s)"
    sql_alter_column_null = "MODIFY (%(column)s %(type)s)"
    sql_alter_column_not_null = "MODIFY (%(column)s %(type)s NOT NULL)"
    sql_alter_column_default = "MODIFY (%(column)s %(type)s DEFAULT %(default)s)"
    sql_alter_column_no_default = "MODIFY (%(column)s %(type)s NOT NULL)"
    sql_alter_column_no_default_null = "MODIFY (%(column)s %(type)s)"
    sql_unique_constraint = "UNIQUE (%(columns)s)"
    sql_constraint = "%(constraint)s CONSTRAINT %(name)s"
    sql_create_check = "ALTER TABLE %(table)s ADD CONSTRAINT CHECK (%(check)s) CONSTRAINT %(name)s"
    sql_create_unique = ("ALTER TABLE %(table)s ADD CONSTRAINT UNIQUE (%(columns)s) "
                         "CONSTRAINT %(name)s")
    sql_create_fk = ("ALTER TABLE %(table)s ADD CONSTRAINT FOREIGN KEY (%(column)s) "
                     "REFERENCES %(to_table)s (%(to_column)s) CONSTRAINT %(name)s")
    sql_create_pk = ("ALTER TABLE %(table)s ADD CONSTRAINT PRIMARY KEY (%(columns)s) "
                     "CONSTRAINT %(name)s")
    sql_create_index = "CREATE INDEX %(name)s ON %(table)s (%(columns)s)"
    sql_create_unique_index = "CREATE UNIQUE INDEX %(name)s ON %(table)s (%(columns)s)"
    sql_delete_index = "DROP INDEX %(name)s"
    sql_rename_index = "RENAME INDEX %(old_name)s TO %(new_name)s"

    def quote_value(self, value: Any) -> str:
        text = plain_literal(value)
        if text is not None:
            return text
        if isinstance(value, datetime.datetime):
            text = value.replace(tzinfo=None).isoformat(" ", timespec="microseconds")
            return f"DATETIME({text[:-1]}) YEAR TO FRACTION(5)"
        if isinstance(value, datetime.date):
            return f"'{value.isoformat()}'"  # read as ISO whatever DBDATE says
        if isinstance(value, datetime.time):
            text = value.replace(tzinfo=None).isoformat(timespec="microseconds")
            return f"DATETIME({text[:-1]}) HOUR TO FRACTION(5)"
        if isinstance(value, datetime.timedelta):
            total = value.days * 86400 + value.seconds
            days, rest = divmod(total, 86400)
            hours, rest = divmod(rest, 3600)
            minutes, seconds = divmod(rest, 60)
            frac = f"{value.microseconds:06d}"[:5]
            return (f"INTERVAL({days} {hours:02d}:{minutes:02d}:{seconds:02d}.{frac}) "
                    "DAY(9) TO FRACTION(5)")
        if isinstance(value, uuid.UUID):
            value = value.hex
        if isinstance(value, (bytes, bytearray, memoryview)):
            raise ValueError("Informix has no literal for BYTE values")
        return quoted(str(value))

    def prepare_default(self, value: Any) -> str:
        return self.quote_value(value)

    def _alter_type_text(self, field: Any, new_type: str) -> str:
        # MODIFY (c SERIAL) keeps the column's values and numbers new rows after the largest
        # (an IntegerField primary key made an AutoField, AutoField made BigAutoField).
        return new_type

    def _alter_column_type_sql(self, model: Any, old_field: Any, new_field: Any,
                               new_type: str, old_collation: Any,
                               new_collation: Any) -> Any:
        return (self._modify_sql(new_field, new_type, old_field.null), []), []

    def _alter_column_null_sql(self, model: Any, old_field: Any, new_field: Any) -> Any:
        new_type = new_field.db_parameters(connection=self.connection)["type"]
        return self._modify_sql(new_field, new_type, new_field.null), []

    def _modify_sql(self, field: Any, new_type: str, null: bool) -> str:
        """``MODIFY (column type [DEFAULT x] [NOT NULL])``: Informix's MODIFY restates the
        whole column, so a type change and a NULL change write the same clause (the default
        written in, a MODIFY takes no parameters)."""
        text = f"MODIFY ({self.quote_name(field.column)} {self._alter_type_text(field, new_type)}"
        if field.has_db_default():
            default_sql, params = self.db_default_sql(field)
            text += f" DEFAULT {default_sql % tuple(self.quote_value(p) for p in params)}"
        if not null:
            text += " NOT NULL"
        return text + ")"

    def db_default_sql(self, field: Any) -> Any:
        from django.db.models.expressions import Value

        expr = getattr(field, "_db_default_expression", field.db_default)
        if isinstance(expr, Value):
            return self.quote_value(field.get_db_prep_save(expr.value, self.connection)), []
        sql, params = super().db_default_sql(field)
        # Informix takes no parameters in DDL: the default is written as a literal.
        return sql % tuple(self.quote_value(p) for p in params), []

    def _column_default_sql(self, field: Any) -> str:
        return "%s"

    def _alter_column_default_sql(self, model: Any, old_field: Any, new_field: Any,
                                  drop: bool = False) -> Any:
        sql, params = super()._alter_column_default_sql(model, old_field, new_field, drop)
        return sql.replace(" SERIAL", " INTEGER").replace(" BIGSERIAL", " BIGINT"), params

    def execute(self, sql: Any, params: Any = ()) -> None:
        if sql is None:  # an index _create_index_sql does not make (a foreign key's)
            return
        super().execute(sql, params)

    def _field_should_be_indexed(self, model: Any, field: Any) -> bool:
        # A foreign key's constraint brings an index of its own on Informix; a second index
        # on the same column list is refused (-350).
        if field.remote_field and getattr(field, "db_constraint", False):
            return False
        # TextField is a long LVARCHAR, wider than an index key can be
        # (features.supports_index_on_text_field): db_index on it makes no index, as on MySQL.
        if field.get_internal_type() == "TextField":
            return False
        return bool(super()._field_should_be_indexed(model, field))

    def _unique_should_be_added(self, old_field: Any, new_field: Any) -> bool:
        return bool(super()._unique_should_be_added(old_field, new_field))

    def _create_index_sql(self, model: Any, *, fields: Any = None, name: Any = None,
                          suffix: str = "", using: str = "", db_tablespace: Any = None,
                          col_suffixes: Any = (), sql: Any = None, opclasses: Any = (),
                          condition: Any = None, include: Any = None,
                          expressions: Any = None) -> Any:
        if name is None and fields and len(fields) == 1 and not sql and \
                fields[0].remote_field and getattr(fields[0], "db_constraint", False):
            # _alter_field adds an index when a OneToOneField becomes a ForeignKey; the
            # foreign key's constraint brings its own (_field_should_be_indexed): none here.
            return None
        return super()._create_index_sql(
            model, fields=fields, name=name, suffix=suffix, using=using,
            db_tablespace=None, col_suffixes=col_suffixes, sql=sql, opclasses=opclasses,
            condition=None, include=None, expressions=expressions)
