"""Routine resolution: which of the routines named in a call it means.

Informix resolves an overloaded name by the number and the types of the arguments. Here the
candidates are those of the right kind (EXECUTE FUNCTION needs a function) whose parameter
count admits the argument count (parameters with a DEFAULT may be left out); among several,
each argument scores by how closely its type matches the parameter's (same type, then same
family, then any numeric for a numeric), and the best total wins. An argument of unknown
type (a ``?``) fits any parameter. A DISTINCT argument prefers its own type, then its source
(ids_udr_074). Equal best scores are ambiguous, as on Informix.
"""

from __future__ import annotations

from collections.abc import Sequence

from .....protocol.codes import TypeCode
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import IfxType
from ...schema.routines import Routine
from ...sql.hooks import TRANSLATION

T = TypeCode


def _family(t: IfxType) -> str:
    if t.is_integer:
        return "int"
    if t.code in (T.FLOAT, T.SMALLFLOAT):
        return "float"
    if t.is_decimal:
        return "dec"
    if t.is_string:
        return "str"
    return str(int(t.code))


def _score(param: IfxType, arg: IfxType | None) -> int:
    if arg is None or arg.code == -1:
        return 1
    if arg.distinct or param.distinct:
        # DISTINCT types (fidelity48): its own type first, then its source; any other pair
        # only through an implicit cast, which the call checks (udt_casts.argument_fits)
        if arg.distinct and param.distinct and arg.xid == param.xid:
            return 5
        return 4 if arg.distinct and not param.distinct and param.code == arg.code else 1
    if param.key == arg.nullable().key or param.code == arg.code:
        return 4
    if _family(param) == _family(arg):
        return 3
    if param.is_numeric and arg.is_numeric:
        return 2
    return 0 if arg.is_string or param.is_string else -100


def candidates(routines: Sequence[Routine], kind: str, nargs: int) -> list[Routine]:
    out = []
    for r in routines:
        if kind == "function" and not r.function:
            continue
        if r.required() <= nargs <= len(r.params):
            out.append(r)
    return out


def choose(name: str, found: Sequence[Routine], arg_types: Sequence[IfxType | None]
           ) -> Routine:
    if not found:
        raise EngineError(sc.NO_ROUTINE, near=name)
    if len(found) == 1:
        return found[0]
    scored = sorted(((sum(_score(p, a) for (_, p), a in zip(r.params, arg_types, strict=False)),
                      r) for r in found), key=lambda x: -x[0])
    if scored[0][0] < 0:
        raise EngineError(sc.NO_ROUTINE, near=name)
    if scored[0][0] == scored[1][0]:
        raise EngineError(sc.ROUTINE_AMBIGUOUS, near=name)
    return scored[0][1]


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.candidates = candidates
