"""The vocabulary of the sans-I/O core, shared by the sync and asyncio loops (no imports of
the driver, so every module may use it without joining an import circle).

* ``Steps``: a generator that does no I/O and yields what it needs: an ``int`` (the receive
  buffer must hold that many unparsed bytes; sent back 0), a ``memoryview`` (receive into
  it; sent back the count), ``FLUSH`` (write what was queued before going on; the sync
  transport sends at once, so there it is nothing), or an awaitable (asyncio only: an
  application callback's answer, e.g. an async file's ``read``).
* ``Op``: an operation that yields lists of request groups to exchange (each with the reply
  it fills), hooks ``(name, *args)`` or ``Steps`` to drive, and returns its result.
* ``Calls``: a sequence of decisions that yields ``(name, *args)``, "call my driver's
  method ``name``", and is sent back its result (a failure is thrown in, so the sequence's
  clean-up is written once). The pools' acquire is one (client/pool.py
  ``PoolBase._acquire_calls``).
* ``call_each`` / ``await_each``: the one loop that runs both (``_LOOP``), compiled blocking
  and awaiting; ``Connection._run`` is ``call_each`` with the socket's exchange and drive,
  ``AsyncSession._run`` ``await_each`` with the stream's (docs/ARCHITECTURE.md, "One loop,
  two builds").
* ``blocking_method`` / ``awaiting_method``: a public method made of an operation method
  (``read = awaiting_method(LocatorBase._read_bytes_op, "read")``): it runs the operation
  with its class's ``_do``, blocking or awaited, and takes the operation's parameters,
  docstring and name, so a method that only forwards is declared in one line per driver and
  documented once (docs/ARCHITECTURE.md, "The awaitable surface"). ``Forwarded`` declares
  one once for both drivers, on the class that holds the operation; ``made_for`` makes it
  for each driver's class.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Coroutine, Generator
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    ParamSpec,
    Protocol,
    TypeVar,
    overload,
)

__all__ = ["FLUSH", "Calls", "Forwarded", "Op", "Steps", "await_each", "awaiting_method",
           "awaiting_run", "blocking_method", "blocking_run", "call_each", "made_for"]

_T = TypeVar("_T")
_P = ParamSpec("_P")
_S = TypeVar("_S")


class _Flush:
    """The type of ``FLUSH`` (one instance)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "FLUSH"


#: A step: write what is queued before the next step (memory stays bounded when data is
#: produced as it is sent).
FLUSH = _Flush()

Steps = Generator[Any, Any, _T]
#: (The groups are ``list[tuple[bytes, Reply]]``; typed loosely here to keep this module free
#: of imports.)
Op = Generator[Any, Any, _T]
#: (name, *args) tuples out, the named method's results in.
Calls = Generator[tuple[Any, ...], Any, _T]


# The one loop, as source text compiled for each use: ``call_each`` (blocking),
# ``await_each`` (awaiting) and the sessions' ``_run`` (``blocking_run``, ``awaiting_run``:
# the same with the session's own ``_exchange`` and ``_drive``, one call less per operation).
# ``{await_}`` is where they differ (nothing, or ``await``): the three calls that do the I/O.
# What each thing an operation yields means, throwing a failure back in and the
# StopIteration result are written here once. Why text and not a generator both loops
# drive: a stepper generator between the loop and the operation cost 4 % of select_one_row's
# client instructions (docs/ARCHITECTURE.md, "One loop, two builds"); compiled from this
# text, each loop is what was written by hand before, and a traceback shows these lines.
_LOOP_LINE = sys._getframe().f_lineno + 2
_LOOP = """\
{async_}def {name}({params}):
    try:
        step = next(calls)
        while True:
            try:
                if step.__class__ is list:  # request groups: send them, read the replies
                    got = {await_}{exchange}(step)
                elif step.__class__ is tuple:  # a hook: (name, *args), hooks' method
                    got = {await_}getattr(hooks, step[0])(*step[1:])
                else:  # a Steps generator (read steps)
                    got = {await_}{drive}(step)
            except BaseException as exc:  # into the operation: its clean-up runs
                step = calls.throw(exc)
            else:
                step = calls.send(got)
    except StopIteration as stop:
        return stop.value
"""


def _compiled(name: str, awaiting: bool, doc: str, session: bool = False) -> Any:
    """``_LOOP`` compiled as ``name``, its lines numbered as in this file; ``session``: as
    a method whose I/O is its own ``_exchange`` and ``_drive``."""
    text = _LOOP.format(
        async_="async " if awaiting else "", await_="await " if awaiting else "", name=name,
        params="self, calls, hooks=None" if session else
        "calls, hooks=None, exchange=None, drive=None",
        exchange="self._exchange" if session else "exchange",
        drive="self._drive" if session else "drive")
    code = compile("\n" * (_LOOP_LINE - 1) + text, __file__, "exec")
    space: dict[str, Any] = {}
    exec(code, {"__name__": __name__}, space)
    loop = space[name]
    loop.__doc__ = doc
    loop.__module__ = __name__
    return loop


def blocking_run(doc: str) -> Any:
    """The one loop as a sync session's ``_run(op, hooks=None)`` method: ``call_each`` with
    the session's ``_exchange`` and ``_drive`` (the hot path: no call between them)."""
    return _session_run(doc, False)


def awaiting_run(doc: str) -> Any:
    """``blocking_run``'s awaiting build: ``await_each`` with the asyncio session's own
    ``_exchange`` and ``_drive`` (one coroutine less per operation)."""
    return _session_run(doc, True)


def _session_run(doc: str, awaiting: bool) -> Any:
    loop = _compiled("_run", awaiting, doc, session=True)
    owner = sys._getframe(2).f_locals.get("__qualname__")  # (the class body's name)
    if isinstance(owner, str):
        loop.__qualname__ = f"{owner}._run"
    return loop


if TYPE_CHECKING:
    def call_each(calls: Op[_T], hooks: object = None,
                  exchange: Callable[..., Any] | None = None,
                  drive: Callable[..., Any] | None = None) -> _T: ...

    async def await_each(calls: Op[_T], hooks: object = None,
                         exchange: Callable[..., Any] | None = None,
                         drive: Callable[..., Any] | None = None) -> _T: ...
else:
    call_each = _compiled("call_each", False, """The blocking loop: run ``calls`` (a ``Calls``
    sequence on ``hooks``' methods, or an operation with the session's ``exchange`` and
    ``drive``: ``Connection._run``), making each call; ``await_each`` awaits them.""")
    await_each = _compiled("await_each", True, """The awaiting loop: ``call_each`` awaiting
    each call (``AsyncSession._run``'s operations, the asyncio pool's and connect's
    ``Calls`` on coroutine methods).""")


def _named(method: Callable[..., Any], op: Callable[..., Any], name: str | None,
           where: type | None = None) -> None:
    """``method`` takes ``op``'s docstring and parameters (``help()``, ``inspect.signature``,
    IDEs) and the public name (``_seek_op`` -> ``seek``, ``_fetch_first_moves`` ->
    ``fetch_first``) qualified by the class whose body declares it (or ``where``, the class
    it is made for: ``Forwarded``), in its code too, so that a traceback names the method
    called."""
    if name is None:
        name = op.__name__.removeprefix("_")
        for suffix in ("_op", "_moves", "_steps"):
            name = name.removesuffix(suffix)
    owner = (sys._getframe(2).f_locals.get("__qualname__") if where is None  # (the class body)
             else where.__qualname__)
    sig = inspect.signature(op)
    ret = sig.return_annotation
    head, _, inner = ret.partition("[") if isinstance(ret, str) else ("", "", "")
    if head in _OPERATIONS and inner.endswith("]"):
        ret = inner[:-1]  # (``-> Op[int]`` is ``-> int`` on the method, awaited or not)
    method.__signature__ = sig.replace(return_annotation=ret)  # type: ignore[attr-defined]
    method.__doc__ = op.__doc__
    method.__name__ = name
    method.__qualname__ = f"{owner}.{name}" if isinstance(owner, str) else name
    method.__module__ = (sys._getframe(2).f_globals.get("__name__", op.__module__)
                         if where is None else where.__module__)
    code = method.__code__.replace(co_name=name)
    if sys.version_info >= (3, 11):
        code = code.replace(co_qualname=method.__qualname__)
    method.__code__ = code


#: The generic types an operation's result annotation is wrapped in.
_OPERATIONS = frozenset({"Op", "Steps", "CursorOp", "Moves"})


def blocking_method(op: Callable[Concatenate[_S, _P], Op[_T]], name: str | None = None,
                    run: str = "_do", via: str | None = None, where: type | None = None
                    ) -> Callable[Concatenate[Any, _P], _T]:
    """The public method that runs ``op`` blocking: ``self._do(op(self, ...))``; ``run``
    names another runner than ``_do``, ``via`` an attribute of ``self`` that the operation
    is a method of (an asyncio cursor's sync cursor), ``where`` the class it is made for when
    not the class body calling this (``made_for``). Type checkers see ``op``'s parameters
    and its result."""

    def method(self: Any, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        target = self if via is None else getattr(self, via)
        result: _T = getattr(self, run)(op(target, *args, **kwargs))
        return result

    _named(method, op, name, where)
    return method


def awaiting_method(op: Callable[Concatenate[_S, _P], Op[_T]], name: str | None = None,
                    run: str = "_do", via: str | None = None, where: type | None = None
                    ) -> Callable[Concatenate[Any, _P], Coroutine[Any, Any, _T]]:
    """``blocking_method``'s asyncio twin: a coroutine method, ``await self._do(op(self,
    ...))``."""

    async def method(self: Any, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        target = self if via is None else getattr(self, via)
        result: _T = await getattr(self, run)(op(target, *args, **kwargs))
        return result

    _named(method, op, name, where)
    return method


class _Blocking(Protocol):
    """What type checkers take for a driver class whose methods block (``Closing``)."""

    def __enter__(self) -> Any: ...


class _Awaiting(Protocol):
    """... and for one whose methods are coroutines (``AsyncClosing``)."""

    def __aenter__(self) -> Any: ...


class Forwarded(Generic[_S, _P, _T]):
    """A method that only runs an operation, declared once, on the class shared by both
    drivers that holds the operation (``seek = Forwarded(_seek_op)`` on ``LocatorBase``):
    ``made_for`` makes it, for each driver's class, a ``blocking_method`` or an
    ``awaiting_method`` of that class (real functions in the class: ``help()``,
    ``inspect.signature``, tracebacks as for a method written there). Type checkers read
    this declaration: an object used with ``with`` (``Closing``) has a plain method, one
    used with ``async with`` (``AsyncClosing``) a coroutine method, with ``op``'s
    parameters and result either way."""

    def __init__(self, op: Callable[Concatenate[_S, _P], Op[_T]]) -> None:
        self.op = op

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Forwarded[_S, _P, _T]: ...

    @overload
    def __get__(self, obj: _Awaiting, owner: type | None = None
                ) -> Callable[_P, Coroutine[Any, Any, _T]]: ...

    @overload
    def __get__(self, obj: _Blocking, owner: type | None = None) -> Callable[_P, _T]: ...

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        # (``made_for`` put a method on every class with a runner; this one has none)
        raise AttributeError(f"{type(obj).__name__} runs no operations (it has no _do)")


def made_for(cls: type) -> None:
    """Give ``cls`` (a class with a runner, ``_do``: blocking or a coroutine) a method made
    of each ``Forwarded`` it inherits and does not override (``__init_subclass__`` of the
    class declaring them calls this)."""
    runner = getattr(cls, "_do", None)
    if runner is None:
        return
    make = awaiting_method if inspect.iscoroutinefunction(runner) else blocking_method
    declared = {attr: value for klass in reversed(cls.__mro__)
                for attr, value in vars(klass).items() if isinstance(value, Forwarded)}
    for attr, value in declared.items():
        if inspect.getattr_static(cls, attr) is value:
            setattr(cls, attr, make(value.op, attr, where=cls))
