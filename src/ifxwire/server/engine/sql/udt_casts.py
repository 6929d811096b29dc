"""DISTINCT types in expressions: what ``syscasts`` allows (issue 23, fidelity46).

A DISTINCT type "cannot be compared directly to its source type. To compare the two types,
you must first explicitly cast one type to the other" (Guide to SQL: Reference, "DISTINCT
data types", ids_sqr_116; "Casts for distinct types", ids_sqr_176). The casts CREATE
DISTINCT TYPE registers are explicit, and "a DISTINCT type based on a built-in source type
does not inherit the built-in casts" (ids_sqr_116). So, as the compiler types expressions:

* an operator (comparison or arithmetic) between a DISTINCT type and another type resolves
  only through an implicit cast from one operand's type to the other's; otherwise no
  routine takes the pair: -674 "Routine (equal) can not be resolved." ("Manipulating
  Distinct Types", ids_sqs_0375; "Routine resolution with built-in data types as source",
  ids_udr_081: ``4.8 + col1`` fails) [the code is inferred: Informix resolves operators as
  routines named equal, plus, …, and -674 is its code for a routine it cannot resolve];
* an assignment (INSERT, UPDATE) of another type's value to a DISTINCT type's column, or of
  a DISTINCT type's value to another type's column, needs an implicit cast: -9632 "Value
  does not match the type of column (%s)." (Informix's message list: "Automatic
  conversions between data types require implicit casts"; "Explicit casts with distinct
  types", ids_ddi_337: "you must explicitly cast the values to the distinct type");
* ``CAST(x AS t)`` and ``x::t`` take an explicit or an implicit cast. From a DISTINCT type
  to a built-in type the cast to its source may be followed by a built-in cast
  (ids_udr_081: ``col1::INT`` of a distinct FLOAT succeeds); the other way no chain is
  made (ids_ddi_337: ``70::num_type`` of a distinct NUMERIC "returns error because no cast
  exists to convert directly from an INT type to num_type"): -9634 "No cast from %s.".

NULL, an untyped parameter (a host variable takes the type it is compared with or assigned
to) and a quoted string constant pass freely [inferred: no page says what a quoted string
does next to a DISTINCT type; a quoted string is the input form of every type, as for the
collection, ROW and opaque types' literals, and the tests of earlier rounds rely on it].
A cast WITH a function calls that function (``cast_call``; ids_sqs_0367).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.ifxtypes import IfxType
from ..schema.casts import CastRow

#: the routine Informix resolves for an operator (Guide to SQL: Syntax, "Relational
#: Operator" and "Arithmetic Operators": equal(), plus(), …)
OPERATOR_ROUTINES: dict[type[exp.Expr], str] = {
    exp.EQ: "equal", exp.NEQ: "notequal", exp.LT: "lessthan", exp.GT: "greaterthan",
    exp.LTE: "lessthanorequal", exp.GTE: "greaterthanorequal", exp.NullSafeEQ: "equal",
    exp.NullSafeNEQ: "notequal", exp.Add: "plus", exp.Sub: "minus", exp.Mul: "times",
    exp.Div: "divide", exp.Between: "greaterthanorequal", exp.In: "equal",
}

CastFinder = Callable[[IfxType, IfxType], CastRow | None]


def _t(node: exp.Expr) -> IfxType | None:
    t = node.meta.get("t")
    return t if isinstance(t, IfxType) else None


def is_udt(t: IfxType | None) -> bool:
    return t is not None and t.distinct and bool(t.xid)


def same_type(a: IfxType, b: IfxType) -> bool:
    """One type as casts see it: one DISTINCT type, or one built-in type (any length)."""
    if a.distinct or b.distinct:
        return a.distinct and b.distinct and a.xid == b.xid
    return a.code == b.code


def passes_freely(node: exp.Expr) -> bool:
    """NULL, an untyped parameter, a quoted string constant (see the module's note)."""
    t = _t(node)
    if t is None or t.code == -1 or node.meta.get("null"):
        return True
    inner = node
    while isinstance(inner, exp.Paren):
        inner = inner.this
    # (a DECIMAL constant is a string literal too once typed: its value is no str)
    return isinstance(inner, exp.Literal) and isinstance(inner.meta.get("const"), str)


def retyped(node: exp.Expr, t: IfxType) -> exp.Expr:
    """``node`` as a value of ``t``, which shares its representation (no conversion)."""
    out = exp.Paren(this=node)
    for key in ("const", "null"):
        if key in node.meta:
            out.meta[key] = node.meta[key]
    out.meta["t"] = t.nullable()
    return out


def operands(find: CastFinder | None, node: exp.Expr, left: exp.Expr, right: exp.Expr
             ) -> tuple[exp.Expr, exp.Expr]:
    """The operands of an operator where one is a DISTINCT type: the same type, or one
    brought to the other's type by an implicit cast; -674 naming the operator's routine
    when no cast does it."""
    lt, rt = _t(left), _t(right)
    if find is None or lt is None or rt is None or not (is_udt(lt) or is_udt(rt)):
        return left, right
    if passes_freely(left) or passes_freely(right) or same_type(lt, rt):
        return left, right
    routine = OPERATOR_ROUTINES.get(type(node), "equal")
    to_left = find(rt, lt)
    if to_left is not None and to_left.implicit:
        return left, _implicit(to_left, right, lt, routine)
    to_right = find(lt, rt)
    if to_right is not None and to_right.implicit:
        return _implicit(to_right, left, rt, routine), right
    raise EngineError(sc.NO_ROUTINE, near=routine)


def _implicit(row: CastRow, node: exp.Expr, target: IfxType, routine: str) -> exp.Expr:
    if row.routine is not None:
        # an operand converted by a cast function inside an operator: not done here
        raise EngineError(sc.NOT_IMPLEMENTED, near=routine, message=(
            f"an implicit cast through the function {row.routine} in an operator"))
    return retyped(node, target)


def _syscasts_source(find: CastFinder | None, node: exp.Expr, target: IfxType
                     ) -> IfxType | None:
    """The type ``node`` is converted from when syscasts decides the conversion to
    ``target`` (a DISTINCT type on either side, a value that does not pass freely, two
    types); None when the built-in conversions apply."""
    src = _t(node)
    if find is None or src is None or not (is_udt(src) or is_udt(target)):
        return None
    if passes_freely(node) or same_type(src, target):
        return None
    return src


def assignment(find: CastFinder | None, node: exp.Expr, target: IfxType, column: str,
               call: Callable[[str], exp.Expr]) -> exp.Expr | None:
    """A value assigned to a column of type ``target``: None when it needs nothing of
    syscasts, the value converted by an implicit cast, or -9632 naming the column."""
    src = _syscasts_source(find, node, target)
    if find is None or src is None:
        return None
    row = find(src, target)
    if row is None or not row.implicit:
        raise EngineError(sc.VALUE_TYPE_MISMATCH, near=column)
    if row.routine is not None:
        return call(row.routine)
    return retyped(node, target)


def explicit(find: CastFinder | None, node: exp.Expr, target: IfxType,
             call: Callable[[str], exp.Expr], name: str = "") -> exp.Expr | None:
    """``CAST(node AS target)``: None when syscasts has nothing to say (the built-in
    conversions apply), the value cast, or -9634 "No cast from a to b."."""
    src = _syscasts_source(find, node, target)
    if find is None or src is None:
        return None
    row = find(src, target)
    if row is not None:
        return call(row.routine) if row.routine is not None else retyped(node, target)
    if is_udt(src) and not is_udt(target) and target.cx is None:
        # a DISTINCT type to a built-in type: its cast to its source, then the built-in
        # cast from the source (ids_udr_081)
        source = replace(src.nullable(), distinct=False, xid=0)
        first = find(src, source)
        if first is not None and first.routine is None:
            return retyped(node, source)
    raise EngineError(sc.NO_CAST, near=f"{_name(src)} to {name or _name(target)}")


def _name(t: IfxType) -> str:
    return f"distinct of {t.sql()}" if is_udt(t) else t.sql()


def argument_fits(find: CastFinder | None, arg: IfxType | None, param: IfxType,
                  free: bool = False) -> bool:
    """Whether a value of ``arg`` may be passed to a routine's parameter of type ``param``
    (fidelity48). "A distinct data type can be passed to all routines defined for the
    source; however, the source data type cannot be passed to routines defined for the
    distinct data type" (Database Design, ids_dmdo_031). Routine resolution takes, for a
    DISTINCT argument, a parameter of that type, of its source type, or of a type an implicit
    cast leads to (User-Defined Routines, ids_udr_074, ids_udr_078); the source's built-in
    casts are not inherited (ids_udr_081), so a DISTINCT of INT does not reach a DECIMAL
    parameter [inferred]. A value of another type reaches a DISTINCT parameter only through
    an implicit cast. NULL, a ``?`` and a quoted string pass (``passes_freely``)."""
    if find is None or arg is None or arg.code == -1 or free:
        return True
    if not (is_udt(arg) or is_udt(param)) or same_type(arg, param):
        return True
    if is_udt(arg) and not param.distinct and param.code == arg.code:
        return True  # its source type
    row = find(arg, param)
    if row is not None and row.implicit and row.routine is not None:
        raise EngineError(sc.NOT_IMPLEMENTED, near=row.routine, message=(
            f"an implicit cast through the function {row.routine} in a routine's argument"))
    return row is not None and row.implicit


def check_arguments(find: CastFinder | None, name: str, args: list[tuple[IfxType | None, bool]],
                    params: list[IfxType]) -> None:
    """-674 "Routine (name) can not be resolved." when an argument (its type, whether it
    passes freely) does not fit its parameter (``argument_fits``)."""
    for (arg, free), param in zip(args, params, strict=False):
        if not argument_fits(find, arg, param, free):
            raise EngineError(sc.NO_ROUTINE, near=name)


def free_text(node: exp.Expr) -> bool:
    """An argument not yet translated that passes freely: NULL, ``?``, a quoted string."""
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, (exp.Null, exp.Placeholder)) or (
        isinstance(node, exp.Literal) and node.is_string)


def compatible(find: CastFinder | None, a: IfxType, b: IfxType) -> bool:
    """Two branch types that may share one result (CASE, UNION; fidelity48): when one is a
    DISTINCT type, the same type or an implicit cast either way [inferred: the pages ask the
    branches to be "of the same data type or be compatible data types" (Guide to SQL: Syntax,
    "CASE expressions data type compatibility", ids_sqs_2105), and a DISTINCT type is
    compatible with another only through an implicit cast (ids_sqr_116)]."""
    if find is None or not (is_udt(a) or is_udt(b)) or same_type(a, b):
        return True
    for row in (find(a, b), find(b, a)):
        if row is not None and row.implicit and row.routine is None:
            return True
    return False


def branches(find: CastFinder | None, results: list[exp.Expr]) -> None:
    """The result branches of a CASE, DECODE, NVL, NVL2 or COALESCE: -800 "Corresponding
    data types must be compatible in CASE expression or DECODE function." when a DISTINCT
    type meets a type it is not compatible with (``compatible``; NULL, ``?`` and a quoted
    string pass freely)."""
    typed_ = [t for r in results if not passes_freely(r) and (t := _t(r)) is not None]
    if find is None or not any(is_udt(t) for t in typed_):
        return
    for other in typed_[1:]:
        if not compatible(find, typed_[0], other):
            raise EngineError(sc.CASE_TYPES)
