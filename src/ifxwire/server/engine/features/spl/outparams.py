"""OUT and INOUT parameters of SPL routines.

Informix passes an OUT or INOUT argument by reference: the caller names an SPL variable (or,
in SQL, a statement-local variable ``name # type``), the routine sees the variable's value
(NULL for OUT) and the variable takes the parameter's last value when the routine ends. Any
other argument is -9752 "Argument must be a Statement Local Variable or SPL variable or
argument for an OUT or INOUT parameter" (Guide to SQL: Syntax, "OUT and INOUT parameters";
the code and text from the message catalogue in the JDBC jar).

Here SPL callers (CALL, LET, EXECUTE … INTO, FOREACH EXECUTE) pass variables, and a query's
WHERE clause statement-local variables (engine/slv.py); other SQL callers (EXECUTE FUNCTION
from a client, a function in a select list) cannot, so they get -9752 — which is also what
makes JDBC's CallableStatement switch to the fast path (PROTOCOL.md §10).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from sqlglot import exp

from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...schema.routines import Routine
from ...sql.hooks import TRANSLATION
from . import ast as a

Row = tuple[object, ...]


def refuse_outputs(routine: Routine, overloads: int = 1) -> None:
    """An SQL call with no variables to receive an OUT value (no SLV): -9752. The error
    carries the routine's fast-path signature, so the wire session can hand the client a
    handle to call it by (lobwire.FastPath.out_parameters)."""
    if routine.outputs():
        exc = EngineError(sc.OUT_ARGUMENT, near=routine.name)
        types = ", ".join(t.sql().lower() for _, t in routine.params)
        exc.signature = (  # type: ignore[attr-defined]
            f"{routine.kind} {routine.owner}.{routine.name}({types})")
        exc.unique = overloads == 1  # type: ignore[attr-defined]
        raise exc


def out_targets(routine: Routine, args: Sequence[exp.Expr],
                scope: dict[str, a.VarDecl]) -> list[a.VarDecl]:
    """The variables an SPL call passes for the routine's OUT/INOUT parameters."""
    targets: list[a.VarDecl] = []
    for i in routine.outputs():
        arg = args[i] if i < len(args) else None
        decl = None
        if isinstance(arg, exp.Column) and not arg.table:
            decl = scope.get(arg.name.lower())
        if decl is None or decl.row:
            raise EngineError(sc.OUT_ARGUMENT, near=routine.name)
        targets.append(decl)
    return targets


def named_args(routine: Routine, args: list[exp.Expr]) -> list[exp.Expr]:
    """Guide to SQL: Syntax, "Arguments": an argument may name its parameter, ``p(t = 'a',
    n = 'b')``, in any order after the positional ones. ``name = expr`` is read as a named
    argument only when ``name`` is one of the routine's parameters (otherwise it is a
    comparison, as before)."""
    names = [n.lower() for n, _ in routine.params]

    def param_of(arg: exp.Expr) -> int | None:
        if isinstance(arg, exp.EQ) and isinstance(arg.this, exp.Column) and not arg.this.table:
            name = arg.this.name.lower()
            if name in names:
                return names.index(name)
        return None

    if not any(param_of(x) is not None for x in args):
        return list(args)
    placed: dict[int, exp.Expr] = {}
    named = False
    for i, arg in enumerate(args):
        at = param_of(arg)
        if at is None:
            if named and isinstance(arg, exp.EQ) and isinstance(arg.this, exp.Column) \
                    and not arg.this.table:
                # a named argument whose name no parameter has: -695 "Argument is not a
                # parameter of procedure (%s)." (Informix message catalogue)
                raise EngineError(sc.NOT_A_PARAMETER, near=routine.name)
            if named:
                raise EngineError(sc.SYNTAX, near="=")  # positional after named
            placed[i] = arg
        elif at in placed:
            # a parameter given twice (by name, or by position and by name): -671
            # "Routine invocation(%s) has duplicate parameter name." (message catalogue)
            raise EngineError(sc.DUPLICATE_ARGUMENT, near=routine.name)
        else:
            named = True
            placed[at] = arg.expression
    if sorted(placed) != list(range(len(placed))):
        raise not_implemented("named arguments that leave out a parameter before another")
    return [placed[i] for i in range(len(placed))]


def input_exprs(routine: Routine, args: Sequence[exp.Expr]) -> list[exp.Expr]:
    """The argument expressions the routine receives: an OUT parameter starts as NULL (its
    variable may not have a value yet), an INOUT one with its variable's value."""
    return [exp.Null() if i < len(routine.modes) and routine.modes[i] == "OUT" else arg
            for i, arg in enumerate(args)]


def input_values(routine: Routine, args: Sequence[object]) -> list[object]:
    """A fast-path call's argument values: an OUT parameter starts as NULL whatever the
    client bound for it (JDBC binds a typed NULL)."""
    return [None if i < len(routine.modes) and routine.modes[i] == "OUT" else v
            for i, v in enumerate(args)]


def with_outputs(rows: Iterator[Row], outs: list[object],
                 deliver: Callable[[Row], None]) -> Iterator[Row]:
    """The routine's rows; once they are all read (the routine ended normally) its OUT
    values go to the caller's variables. A routine that fails or is abandoned delivers
    nothing, as its variables are then undefined."""
    try:
        yield from rows
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    deliver(tuple(outs))


def call_of(expr: exp.Expr, routines: Sequence[Routine]) -> a.CallSpec | None:
    """``LET v = f(x, out_var)``: a single function call whose routine has OUT parameters
    is run as a routine call (an SQL expression could not assign ``out_var``)."""
    if not isinstance(expr, exp.Anonymous) or not any(r.outputs() for r in routines):
        return None
    name = str(expr.this).lower()
    call = a.CallSpec(0, name=name, kind="function")
    call.args = list(expr.expressions)
    return call


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.input_exprs = input_exprs
