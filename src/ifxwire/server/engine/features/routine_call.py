"""Fast-path routine calls: find a routine by its signature and run it with bound arguments.

A client names a routine the way JDBC's ``IfxSmartBlob`` does, ``function
informix.ifx_lo_open(blob ,integer)``: kind, optional owner, name, argument types. Built-in
routines (``lo_functions.BUILTINS``) are matched by name and argument count. Any other routine
the database knows — a ``CREATE FUNCTION``/``CREATE PROCEDURE``, SPL or not — is looked up in
the catalog at GETROUTINE (an unknown one is -674 then, as on a real server) and run by the SPL
engine's entry point for calls from outside SQL (``EngineSession.call_routine``,
spl/calls.py), which resolves overloads by the signature's types; its return values are the
fast path's. The handle a client caches is an index into the session's table of resolved
routines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ....protocol.columns import ColumnDesc
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from .lobs.lo_functions import BUILTINS, Builtin, run_builtin
from .spl.parser import parse_types
from .spl.resolve import candidates

if TYPE_CHECKING:
    from .session_api import FeatureSession

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
        # Commas inside a type (decimal(8,2)) do not separate arguments.
        parts = re.split(r",(?![^()]*\))", raw)
        args = tuple(" ".join(a.split()).lower() for a in parts) if raw.strip() else ()
    return Signature(kind, owner, name, args)


@dataclass(slots=True)
class Routine:
    """A resolved routine: what to run and the types of what it returns."""

    signature: Signature
    builtin: Builtin | None = None
    nparams: int = 0
    function: bool = True
    returns: list[ColumnDesc] = field(default_factory=list)
    text: str = ""  # a stored routine: the signature to call it by
    procid: int = 0  # a stored routine: its sysprocedures.procid


def resolve(es: FeatureSession, text: str) -> Routine:
    """The routine a GETROUTINE signature names, or -674 ("Routine (%s) can not be
    resolved.")."""
    sig = parse_signature(text)
    b = BUILTINS.get(sig.name)
    if b is not None and (sig.args is None or len(sig.args) == len(b.params)):
        return Routine(sig, b, len(b.params), True, list(b.returns))

    stored = es.routines(sig.name)  # -349 without a database
    if sig.owner:
        stored = [r for r in stored if r.owner.lower() == sig.owner.lower()]
    if sig.args is not None:
        stored = candidates(stored, "function" if sig.kind == "function" else "any",
                            len(sig.args))
        stored = _same_types(stored, sig.args, es.current_schema().types)
    if sig.kind == "procedure":
        stored = [r for r in stored if not r.function]
    if not stored:
        raise EngineError(sc.NO_ROUTINE, near=sig.name)
    first = stored[0]
    nparams = len(sig.args) if sig.args is not None else len(first.params)
    names = first.return_names or [None] * len(first.returns)
    returns = [t.describe(n or "") for n, t in zip(names, first.returns, strict=False)]
    kind = sig.kind if sig.kind in ("function", "procedure") else (
        "function" if first.function else "procedure")
    name = f"{sig.owner}.{sig.name}" if sig.owner else sig.name
    args = f"({', '.join(sig.args)})" if sig.args is not None else ""
    return Routine(sig, None, nparams, first.function, returns, f"{kind} {name}{args}",
                   first.procid)


def _same_types(stored: list[Any], args: tuple[str, ...],
                types: dict[str, Any]) -> list[Any]:
    """The overloads whose parameter types are the signature's (as spl/calls.py chooses when
    it runs the routine); all of them when the type names do not parse."""
    try:
        keys = [t.nullable().key for t in parse_types(", ".join(args), types=types)]
    except EngineError:
        return stored
    return [r for r in stored if [t.key for _, t in r.params][: len(keys)] == keys]


def execute(es: FeatureSession, routine: Routine, args: Sequence[Any],
            outs: list[Any] | None = None) -> list[Any]:
    """Run a resolved routine; returns its return values (the first row, for a routine that
    returns rows). ``outs`` (a routine with OUT parameters) receives their values: the rows
    are then all read, as the values exist only once the routine has ended."""
    if len(args) != routine.nparams:
        raise EngineError(sc.HOSTVAR_COUNT)
    if routine.builtin is not None:
        return run_builtin(es.lo, routine.builtin, list(args))
    rows = es.call_routine(routine.text, args, outs)
    try:
        first = next(iter(rows), None)
        if outs is not None:
            for _ in rows:
                pass
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    if first is None:
        return [None] * len(routine.returns)
    return list(first)[: len(routine.returns)]
