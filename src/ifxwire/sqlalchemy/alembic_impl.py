"""Alembic support: the ``informix`` migration impl and Informix spellings of its DDL.

Imported by the dialect when Alembic is installed (Alembic finds impls by dialect name, not
by entry point). Informix differs from Alembic's defaults in: ``ALTER TABLE t ADD (col …)``
and ``DROP col`` (no COLUMN keyword), ``RENAME TABLE a TO b``, ``RENAME COLUMN t.a TO b``, and
column changes through ``ALTER TABLE t MODIFY (col type [DEFAULT …] [NOT NULL])``, which
restates the whole column, so a change needs the column's existing type.
"""

from __future__ import annotations

from typing import Any

from alembic.ddl.base import (
    AddColumn,
    ColumnName,
    DropColumn,
    RenameTable,
    alter_table,
    format_column_name,
    format_server_default,
    format_table_name,
    format_type,
)
from alembic.ddl.impl import DefaultImpl
from alembic.util import CommandError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import DDLElement


class InformixImpl(DefaultImpl):
    __dialect__ = "informix"
    transactional_ddl = True  # DDL is transactional in a logged database

    def alter_column(
        self, table_name: str, column_name: str, *, nullable: bool | None = None,
        server_default: Any = False, name: str | None = None, type_: Any = None,
        schema: str | None = None, existing_type: Any = None,
        existing_server_default: Any = None, existing_nullable: bool | None = None,
        **kw: Any,
    ) -> None:
        if type_ is not None or nullable is not None or server_default is not False:
            new_type = type_ if type_ is not None else existing_type
            if new_type is None:
                raise CommandError(
                    f"Informix changes a column by restating it (ALTER TABLE … MODIFY); "
                    f"give existing_type for {table_name}.{column_name}")
            default = existing_server_default if server_default is False else server_default
            if default is False:
                default = None  # Alembic's "not given"
            null = existing_nullable if nullable is None else nullable
            self._exec(ModifyColumn(table_name, column_name, new_type, default,
                                    null is not False, schema))
        if name is not None:
            self._exec(ColumnName(table_name, column_name, name, schema=schema))


class ModifyColumn(DDLElement):
    """``ALTER TABLE t MODIFY (col type [DEFAULT d] [NOT NULL])``."""

    def __init__(self, table_name: str, column_name: str, type_: Any, default: Any,
                 nullable: bool, schema: str | None) -> None:
        self.table_name, self.column_name, self.schema = table_name, column_name, schema
        self.type_, self.default, self.nullable = type_, default, nullable


@compiles(ModifyColumn, "informix")
def _modify_column(element: ModifyColumn, compiler: Any, **kw: Any) -> str:
    spec = (f"{format_column_name(compiler, element.column_name)} "
            f"{format_type(compiler, element.type_)}")
    if element.default is not None:
        spec += f" DEFAULT {format_server_default(compiler, element.default)}"
    if not element.nullable:
        spec += " NOT NULL"
    return f"{alter_table(compiler, element.table_name, element.schema)} MODIFY ({spec})"


@compiles(AddColumn, "informix")
def _add_column(element: AddColumn, compiler: Any, **kw: Any) -> str:
    spec = compiler.get_column_specification(element.column)
    return f"{alter_table(compiler, element.table_name, element.schema)} ADD ({spec})"


@compiles(DropColumn, "informix")
def _drop_column(element: DropColumn, compiler: Any, **kw: Any) -> str:
    name = format_column_name(compiler, element.column.name)
    return f"{alter_table(compiler, element.table_name, element.schema)} DROP {name}"


@compiles(RenameTable, "informix")
def _rename_table(element: RenameTable, compiler: Any, **kw: Any) -> str:
    old = format_table_name(compiler, element.table_name, element.schema)
    new = format_table_name(compiler, element.new_table_name, None)
    return f"RENAME TABLE {old} TO {new}"


@compiles(ColumnName, "informix")
def _rename_column(element: ColumnName, compiler: Any, **kw: Any) -> str:
    table = format_table_name(compiler, element.table_name, element.schema)
    old = format_column_name(compiler, element.column_name)
    return f"RENAME COLUMN {table}.{old} TO {format_column_name(compiler, element.newname)}"
