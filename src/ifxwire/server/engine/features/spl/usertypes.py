"""The DISTINCT types an SPL routine names for its parameters, return values and variables.

The SPL parser reads no catalogue, so a type name that is no built-in type comes out of it as
a named placeholder (``SplCursor.ifx_type``); CREATE PROCEDURE/FUNCTION resolves the
header's and checks the variables' against the database (a name that is no type is -9628,
as in a column definition; a DISTINCT type without Usage privilege -9997), and the
interpreter resolves the variables' again each time it parses the stored text
(``Interp.body``). Why a DISTINCT type keeps its own IfxType rather than its source's: a
routine taking one is another routine than one taking the source (overloads), and a source
value passed to it is refused (-674, ``udt_casts.argument_fits``): "the source data type
cannot be passed to routines defined for the distinct data type" (Database Design,
ids_dmdo_031). A named ROW type is taken for a variable (thirty-third session: its fields
are read and written as ``v.field``, sqlrun.is_row), and stays refused (-999) for a
parameter or return value, whose catalogue rows are not written for one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...core.ifxtypes import IfxType
from . import ast as a
from .frame import _blocks


def is_placeholder(t: IfxType | None) -> bool:
    """A type the parser left as a name to look up."""
    return t is not None and t.cx is not None and t.cx.named and not t.cx.children


def resolve(t: IfxType, types: Mapping[str, IfxType], rows: bool = False) -> IfxType:
    """``t`` with a placeholder replaced by the DISTINCT type of that name (``types``:
    ``Schema.types``, the database's named types); with ``rows`` (variables) a named ROW
    type too."""
    if not is_placeholder(t):
        return t
    assert t.cx is not None
    name = t.cx.type_name
    found = types.get(name)
    if found is None:
        raise EngineError(sc.TYPE_NOT_FOUND, near=name)
    if not found.distinct and not (rows and found.cx is not None and found.cx.named):
        raise not_implemented(f"SPL type {name}")
    return replace(found, notnull=False)


def declarations(blk: a.Block) -> Iterator[a.VarDecl]:
    """Every variable a block and its nested blocks declare."""
    yield from blk.scope.values()
    for inner in _blocks(blk):
        yield from declarations(inner)


def resolve_variables(blk: a.Block, types: Mapping[str, IfxType]) -> list[IfxType]:
    """Resolve the placeholder types of the variables ``blk`` declares, in place; returns
    the DISTINCT types they name (the caller checks Usage on them at CREATE)."""
    named: list[IfxType] = []
    for decl in declarations(blk):
        if is_placeholder(decl.type):
            assert decl.type is not None
            decl.type = resolve(decl.type, types, rows=True)
            if decl.type.distinct:
                named.append(decl.type)
    return named
