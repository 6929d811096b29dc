"""Fast-path routine calls: find a routine by its signature and run it with bound arguments.

A client names a routine the way JDBC's ``IfxSmartBlob`` does, ``function
informix.ifx_lo_open(blob ,integer)``: kind, optional owner, name, argument types. Built-in
routines (``lo_functions.BUILTINS``) are matched by name and argument count. Any other routine
the database knows — a ``CREATE FUNCTION``/``CREATE PROCEDURE`` or SPL routine — runs through
the engine's own statement path as ``EXECUTE FUNCTION name(?, …)``, so whatever SQL can
execute, fast path executes too, and its result columns are the return values. The handle a
client caches is an index into the session's table of resolved routines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...protocol.columns import ColumnDesc
from . import sqlcodes as sc
from .errors import EngineError
from .lo_functions import BUILTINS, Builtin, run_builtin

if TYPE_CHECKING:
    from .session import EngineSession, Prepared

_SIGNATURE = re.compile(
    r"^\s*(?:(function|procedure|routine)\s+)?"
    r"(?:(?P<owner>[\w$]+|\"[^\"]+\")\s*\.\s*)?(?P<name>[\w$]+|\"[^\"]+\")"
    r"\s*(?:\((?P<args>.*)\))?\s*$",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Signature:
    kind: str  # "function", "procedure" or "" when not given
    owner: str
    name: str
    args: tuple[str, ...] | None  # None when the text has no argument list


def parse_signature(text: str) -> Signature:
    """``[function|procedure] [owner.]name[(type, …)]``; -674 naming the text otherwise."""
    m = _SIGNATURE.match(text)
    if m is None:
        raise EngineError(sc.NO_ROUTINE, near=text.strip()[:128])
    kind = (m.group(1) or "").lower()
    owner = (m.group("owner") or "").strip('"')
    name = m.group("name").strip('"').lower()
    raw = m.group("args")
    args: tuple[str, ...] | None = None
    if raw is not None:
        args = tuple(" ".join(a.split()).lower() for a in raw.split(",")) if raw.strip() else ()
    return Signature(kind, owner, name, args)


@dataclass(slots=True)
class Routine:
    """A resolved routine: what to run and the types of what it returns."""

    signature: Signature
    builtin: Builtin | None = None
    nparams: int = 0
    function: bool = True
    returns: list[ColumnDesc] = field(default_factory=list)
    prepared: Prepared | None = None


def resolve(es: EngineSession, text: str) -> Routine:
    """The routine a GETROUTINE signature names, or -674 ("Routine (%s) can not be
    resolved.")."""
    sig = parse_signature(text)
    b = BUILTINS.get(sig.name)
    if b is not None and (sig.args is None or len(sig.args) == len(b.params)):
        return Routine(sig, b, len(b.params), True, list(b.returns))
    if es.database is None:
        raise EngineError(sc.NO_DB_SELECTED)
    stored = es.routine(sig.name)
    if stored is None or (sig.args is not None and len(sig.args) != len(stored.params)):
        raise EngineError(sc.NO_ROUTINE, near=sig.name)
    function = stored.function
    if (sig.kind == "procedure" and function) or (sig.kind == "function" and not function):
        raise EngineError(sc.NO_ROUTINE, near=sig.name)
    nparams = len(stored.params)
    marks = ", ".join("?" * nparams)
    verb = "FUNCTION" if function else "PROCEDURE"
    prepared = es.prepare(f"EXECUTE {verb} {sig.name}({marks})")
    return Routine(sig, None, nparams, function, list(prepared.columns), prepared)


def execute(es: EngineSession, routine: Routine, args: Sequence[Any]) -> list[Any]:
    """Run a resolved routine; returns its return values (the first row, for a routine that
    returns rows)."""
    if len(args) != routine.nparams:
        raise EngineError(sc.HOSTVAR_COUNT)
    if routine.builtin is not None:
        return run_builtin(es.lo, routine.builtin, list(args))
    prepared = routine.prepared
    assert prepared is not None
    if not prepared.is_query:
        es.execute(prepared, args)
        return []
    rows = es.open_cursor(prepared, args)
    try:
        first = next(iter(rows), None)
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    if first is None:
        return [None] * len(routine.returns)
    return list(first)
