"""CREATE CAST and DROP CAST: user-defined casts as rows of ``syscasts``.

Guide to SQL: Syntax 14.10, CREATE CAST (ids_sqs_0362): ``CREATE [EXPLICIT | IMPLICIT] CAST
[IF NOT EXISTS] (source AS target [WITH function])``, explicit when neither keyword is
given; DROP CAST (ids_sqs_0711): ``DROP CAST [IF EXISTS] (source AS target)``. The row
(Reference, SYSCASTS, ids_sqr_019): owner, argument_type/argument_xid, result_type/
result_xid, routine_name/routine_owner (NULL for a cast without a routine), class 'E'
explicit, 'I' implicit ('S' built-in, which this server never writes).

What is taken: a cast without a routine between two types of one representation, one of
them a DISTINCT type: a DISTINCT type and its source, two DISTINCT types over one source
("You must specify a function name unless the source data type and the target data type
have identical representations", WITH Clause, ids_sqs_0367). A DISTINCT type's two default
explicit casts must be dropped first to make one implicit ("You can create an implicit cast
between a distinct type and its source type ... you must first drop the default explicit
cast", Reference, "Casts for distinct types", ids_sqr_176). What is refused, and why, is in
docs/SERVER.md ("CREATE CAST and DROP CAST"). The expressions obey the rows: sql/udt_casts.py
reads them (through schema/casts.py) as it types a statement, and calls a cast's function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlglot.tokenizer_core import TokenType

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import IfxType
from ..schema.casts import type_key
from ..sql.hooks import PARSERS
from .access import cat_meta_owner, check_usage, database_level
from .distinct import resolve_column_type


@dataclass
class CastSpec:
    source: IfxType
    target: IfxType
    names: tuple[str, str]  # as written, for messages
    implicit: bool = False
    function: str | None = None
    if_exists: bool = False  # IF NOT EXISTS (CREATE) / IF EXISTS (DROP)


def _operands(p: Any, spec_kind: str) -> tuple[IfxType, IfxType, tuple[str, str], str | None]:
    """``( source AS target [WITH function] )``; WITH only in CREATE CAST."""
    if not p._match(TokenType.L_PAREN):
        raise EngineError(sc.SYNTAX, near="CAST")
    start = p._curr.text if p._curr is not None else ""
    source = p._column_type().meta["ifx"]
    p._expect_word("AS")
    middle = p._curr.text if p._curr is not None else ""
    target = p._column_type().meta["ifx"]
    function = None
    if spec_kind == "create" and p._word() == "WITH":
        p._advance()
        function = p._name()
    if not p._match(TokenType.R_PAREN):
        raise EngineError(sc.SYNTAX, near=p._curr.text if p._curr is not None else "CAST")
    return source, target, (start.lower(), middle.lower()), function


def parse_create_cast(p: Any) -> CastSpec:
    """After CREATE: [EXPLICIT | IMPLICIT] CAST [IF NOT EXISTS] ( … )."""
    implicit = p._word() == "IMPLICIT"
    if p._word() in ("EXPLICIT", "IMPLICIT"):
        p._advance()
    p._expect_word("CAST")
    if_not_exists = p._if_exists(negate=True)
    source, target, names, function = _operands(p, "create")
    return CastSpec(source, target, names, implicit, function, if_not_exists)


def parse_drop_cast(p: Any) -> CastSpec:
    """After DROP: CAST [IF EXISTS] ( source AS target )."""
    p._expect_word("CAST")
    if_exists = p._if_exists(negate=False)
    source, target, names, _ = _operands(p, "drop")
    return CastSpec(source, target, names, if_exists=if_exists)


_key = type_key  # syscasts' (type, xid) for a type, as create_distinct_type writes them


def _resolved(dc: Any, spec: CastSpec) -> tuple[IfxType, IfxType]:
    """Both types resolved against the catalogue (-9628 for a name that is no type)."""
    return (resolve_column_type(dc.conn, spec.source),
            resolve_column_type(dc.conn, spec.target))


def _row(dc: Any, source: IfxType, target: IfxType) -> tuple[Any, ...] | None:
    found: tuple[Any, ...] | None = dc.conn.execute(
        "SELECT owner, class FROM syscasts WHERE argument_type = ? AND argument_xid = ? AND "
        "result_type = ? AND result_xid = ?", (*_key(source), *_key(target))).fetchone()
    return found


def create_cast(dc: Any, spec: CastSpec) -> None:
    source, target = _resolved(dc, spec)
    label = f"{spec.names[0]} to {spec.names[1]}"
    for t in (source, target):
        if t.cx is not None:
            # "Neither the source nor the target types can be a COLLECTION data type"
            # (ids_sqs_0363); named ROW types: casts on them are not kept here
            if t.cx.named:
                raise not_implemented("a cast to or from a named ROW type")
            raise EngineError(sc.CAST_INCOMPATIBLE, near=label)
    if not (source.distinct or target.distinct):
        # "Either the source or the target type, but not both, can be a built-in data type"
        # (ids_sqs_0363) [the code is our inference]
        raise EngineError(sc.CAST_INCOMPATIBLE, near=label)
    for t, name in ((source, spec.names[0]), (target, spec.names[1])):
        if t.distinct:
            # "To create a cast to or from an OPAQUE, DISTINCT, or named ROW data type ...
            # requires the Usage privilege on that data type" (ids_sqs_0362)
            check_usage(dc, t.xid, name)
    if _row(dc, source, target) is not None:
        if spec.if_exists:
            return
        # the code a server sends for a cast that exists is not known to us
        raise EngineError(sc.NOT_IMPLEMENTED, near=label,
                          message=f"A cast from {label} already exists.")
    routine: tuple[str, str] | None = None
    if spec.function is not None:
        # A cast through a routine: the expressions call it where the cast applies
        # (sql/udt_casts.py). A name that is no routine gets -9637 "Cast function (%s) does
        # not exist." (Informix's message list), here at CREATE already (Informix checks
        # when the cast runs).
        found = [r for r in dc.schema.routines.get(spec.function.lower(), [])
                 if r.kind == "function" and len(r.params) == 1]
        if not found:
            raise EngineError(sc.CAST_FUNCTION_MISSING, near=spec.function)
        routine = (spec.function.lower(), found[0].owner)
    elif (source.code, source.collength) != (target.code, target.collength):
        # a cast without a routine between types of different representations: -9923
        # "Cannot create cast between incompatible types." (Informix's message list)
        raise EngineError(sc.CAST_INCOMPATIBLE, near=label)
    dc.conn.execute(
        "INSERT INTO syscasts (owner, argument_type, argument_xid, result_type, result_xid, "
        "routine_name, routine_owner, class) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (dc.user, *_key(source), *_key(target), *(routine or (None, None)),
         "I" if spec.implicit else "E"))


def drop_cast(dc: Any, spec: CastSpec) -> None:
    """-9922 "Cast does not exist in database." (Informix's message list) for a pair with no
    cast; only its owner or a DBA drops it (ids_sqs_0711)."""
    source, target = _resolved(dc, spec)
    label = f"{spec.names[0]} to {spec.names[1]}"
    row = _row(dc, source, target)
    if row is None:
        if spec.if_exists:
            return
        raise EngineError(sc.CAST_NOT_FOUND, near=label)
    owner = str(row[0] or "").strip()
    if owner != dc.user and database_level(dc.conn, dc.user, cat_meta_owner(dc.conn)) != "D":
        raise EngineError(sc.NOT_IMPLEMENTED, near=label,
                          message=f"No permission: {dc.user} does not own the cast {label}")
    dc.conn.execute(
        "DELETE FROM syscasts WHERE argument_type = ? AND argument_xid = ? AND result_type = ?"
        " AND result_xid = ?", (*_key(source), *_key(target)))


# The statement parser (sql layer) reads these through its hooks (sql/hooks.py).
PARSERS.create_cast = parse_create_cast
PARSERS.drop_cast = parse_drop_cast
