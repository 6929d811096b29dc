"""Writing one field of a ROW variable: ``LET row_var.base = row_var.base * pct`` (Guide to
SQL: Tutorial, "Update a row-type expression", ids_sqt_468) and ``LET a.zip.z_code = 32601``
(ids_sqt_452, a field of a nested ROW); reading one is the engine's own ``row.field``
(sqlrun.substitute).

A ROW value's storage is the JSON array of its fields' storage values, a nested ROW or
collection as its JSON (composite.py); the new value comes already converted to the field's
type (``field_type``), so the field is replaced in that array. A variable with no value yet,
or NULL, is first a ROW whose fields are all NULL [our reading: the pages assign into
variables they have filled, and say nothing of an empty one].
"""

from __future__ import annotations

import json

from .....protocol.codes import TypeCode
from .....types.complextype import ComplexType
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import IfxType
from ..composite_types import complex_type, type_of
from . import ast as a
from .frame import UNSET


def _path(decl: a.VarDecl, fields: list[str]) -> list[tuple[int, ComplexType]]:
    """(index, field node) of each field along ``fields``; -217 for a name that is none."""
    t = decl.type
    node = t.cx if t is not None else None
    out: list[tuple[int, ComplexType]] = []
    for name in fields:
        if node is None or node.code != TypeCode.ROW:
            raise EngineError(sc.NO_COLUMN, near=f"{decl.name}.{'.'.join(fields)}")
        names = [c.field for c in node.children]
        if name.lower() not in names:
            raise EngineError(sc.NO_COLUMN, near=f"{decl.name}.{'.'.join(fields)}")
        i = names.index(name.lower())
        child = node.children[i]
        out.append((i, child))
        node = child if child.is_complex else None
    return out


def field_type(decl: a.VarDecl, fields: list[str]) -> IfxType:
    """The type a value for ``decl.fields`` is converted to."""
    _, child = _path(decl, fields)[-1]
    return complex_type(child) if child.is_complex else type_of(child).nullable()


def _nulls(node: ComplexType) -> list[object]:
    return [_nulls(c) if c.code == TypeCode.ROW else None for c in node.children]


def with_field(decl: a.VarDecl, current: object, fields: list[str], value: object) -> str:
    """The variable's new storage: ``current`` with the field at ``fields`` set to ``value``."""
    path = _path(decl, fields)
    assert decl.type is not None and decl.type.cx is not None
    data = json.loads(current) if isinstance(current, str) and current is not UNSET else None
    if data is None:
        data = _nulls(decl.type.cx)
    holder = data
    for i, child in path[:-1]:
        if holder[i] is None:
            holder[i] = _nulls(child)
        holder = holder[i]
    i, child = path[-1]
    holder[i] = json.loads(value) if child.is_complex and isinstance(value, str) else value
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
