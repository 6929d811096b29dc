"""One SPL routine activation (``Frame``) and the signals that carry control flow through the
interpreter's generators (EXIT/CONTINUE, GOTO, RETURN, a handler's unwind).

Split from interp.py (the ~800-line rule): the frame is what the interpreter (interp.py), the
embedded SQL (embedded_sql.py), the SQL runner (sqlrun.py) and the triggers (triggers.py) share;
the signals are plain exceptions the interpreter raises and catches.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...schema.routines import Routine
from . import ast as a

if TYPE_CHECKING:
    from .interp import Runtime
    from .sqlrun import VarRef

Row = tuple[object, ...]


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Jump(Exception):
    """EXIT / CONTINUE travelling to its loop."""

    def __init__(self, exit_: bool, kind: str | None, label: str | None) -> None:
        super().__init__()
        self.exit = exit_
        self.kind = kind
        self.label = label

    def matches(self, kind: str, label: str | None) -> bool:
        if self.label is not None:
            return self.label == label
        return self.kind is None or self.kind == kind


class GotoSignal(Exception):
    """GOTO travelling out to the block that holds its label."""

    def __init__(self, target: str) -> None:
        super().__init__()
        self.target = target


class ReturnSignal(Exception):
    """RETURN (without WITH RESUME) ending the routine after its row was yielded."""


class Trapped(Exception):
    """An error that an enclosing block's ON EXCEPTION traps, travelling out to that block,
    which runs the handler and, WITH RESUME, goes on after its statement that holds the
    failing one."""

    def __init__(self, handler: a.OnException, error: EngineError) -> None:
        super().__init__()
        self.handler = handler
        self.error = error


class Unwind(Exception):
    """A handler without WITH RESUME ran: leave the block that declared it."""

    def __init__(self, handler: a.OnException) -> None:
        super().__init__()
        self.handler = handler


class Frame:
    """One routine activation: its variables, active handlers and open named cursors."""

    __slots__ = ("active", "body", "cursors", "dynamic", "handlers", "routine", "rows",
                 "runtime", "slots")

    def __init__(self, runtime: Runtime, routine: Routine, body: a.RoutineBody) -> None:
        self.runtime = runtime
        self.routine = routine
        self.body = body
        self.slots: list[object] = [UNSET] * body.nslots
        if body.sqlcode_slot >= 0:
            self.slots[body.sqlcode_slot] = 0
        self.handlers: list[a.OnException] = []
        self.active: set[int] = set()
        self.rows: dict[int, dict[str, object]] = {}  # -2: OLD, -3: NEW (trigger rows)
        self.cursors: dict[str, tuple[Any, object]] = {}  # name -> (TableInfo, rowid)
        #: PREPAREd statements and DECLAREd cursors by lower-case name (dynamic.py)
        self.dynamic: dict[str, Any] | None = None

    def read(self, ref: VarRef) -> object:
        decl = ref.decl
        if ref.column is not None:
            row = self.rows.get(decl.slot)
            return None if row is None else row.get(ref.column)
        value = self.runtime.globals.get(decl.name, UNSET) if decl.is_global else (
            self.slots[decl.slot])
        if value is UNSET:
            raise EngineError(sc.VAR_UNDEFINED, near=decl.name)
        return value

    def write(self, decl: a.VarDecl, value: object) -> None:
        if decl.is_global:
            self.runtime.globals[decl.name] = value
        else:
            self.slots[decl.slot] = value


def _label_index(body: list[a.Node], target: str) -> int | None:
    for i, stmt in enumerate(body):
        label = getattr(stmt, "label", None)
        if label is not None and str(label).lower() == target:
            return i
    return None


def _blocks(blk: a.Block) -> Iterator[a.Block]:
    """The blocks directly nested in ``blk`` (for walking declarations)."""
    for h in blk.handlers:
        if h.body is not None:
            yield h.body
    for stmt in blk.body:
        if isinstance(stmt, a.Block):
            yield stmt
        elif isinstance(stmt, a.If):
            yield from (b for _, b in stmt.branches)
            if stmt.orelse is not None:
                yield stmt.orelse
        elif isinstance(stmt, a.Case):
            yield from (b for _, b in stmt.whens)
            if stmt.orelse is not None:
                yield stmt.orelse
        elif isinstance(stmt, (a.For, a.While, a.Loop, a.Foreach)) and stmt.body is not None:
            yield stmt.body


class _StopLoop(Exception):
    pass


