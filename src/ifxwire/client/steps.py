"""The vocabulary of the sans-I/O core, shared by the sync and asyncio loops (no imports of
the driver, so every module may use it without joining an import circle).

* ``Steps``: a generator that does no I/O and yields what it needs: an ``int`` (the receive
  buffer must hold that many unparsed bytes; sent back 0), a ``memoryview`` (receive into
  it; sent back the count), ``FLUSH`` (write what was queued before going on; the sync
  transport sends at once, so there it is nothing), or an awaitable (asyncio only: an
  application callback's answer, e.g. an async file's ``read``).
* ``Op``: an operation that yields lists of request groups to exchange (each with the reply
  it fills) or ``Steps`` to drive, and returns its result. ``Connection._run`` runs it
  blocking, ``AsyncConnection._run`` awaited (docs/ARCHITECTURE.md, "One core, two loops").
* ``Calls``: a sequence of decisions that yields ``(name, *args)``, "call my driver's
  method ``name``", and is sent back its result (a failure is thrown in, so the sequence's
  clean-up is written once): ``call_each`` runs it calling the methods, ``await_each``
  awaiting them. The pools' acquire is one (client/pool.py ``PoolBase._acquire_calls``).
* ``blocking_method`` / ``awaiting_method``: a public method made of an operation method
  (``seek = awaiting_method(LocatorBase._seek_op)``): it runs the operation with its class's
  ``_do``, blocking or awaited, and takes the operation's parameters, docstring and name, so
  a method that only forwards is declared in one line per driver and documented once
  (docs/ARCHITECTURE.md, "The awaitable surface").
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Coroutine, Generator
from typing import Any, Concatenate, ParamSpec, TypeVar

__all__ = ["FLUSH", "Calls", "Op", "Steps", "await_each", "awaiting_method", "blocking_method",
           "call_each"]

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


def call_each(calls: Calls[_T], driver: object) -> _T:
    """Run ``calls``, calling ``driver``'s method named by each step (``await_each`` awaits
    them); a method's exception is thrown into ``calls``."""
    try:
        step = next(calls)
        while True:
            try:
                got = getattr(driver, step[0])(*step[1:])
            except BaseException as exc:
                step = calls.throw(exc)
            else:
                step = calls.send(got)
    except StopIteration as stop:
        result: _T = stop.value
        return result


async def await_each(calls: Calls[_T], driver: object) -> _T:
    """``call_each`` for coroutine methods (the asyncio pool's)."""
    try:
        step = next(calls)
        while True:
            try:
                got = await getattr(driver, step[0])(*step[1:])
            except BaseException as exc:
                step = calls.throw(exc)
            else:
                step = calls.send(got)
    except StopIteration as stop:
        result: _T = stop.value
        return result


def _named(method: Callable[..., Any], op: Callable[..., Any], name: str | None) -> None:
    """``method`` takes ``op``'s docstring and parameters (``help()``, ``inspect.signature``,
    IDEs) and the public name (``_seek_op`` -> ``seek``, ``_fetch_first_moves`` ->
    ``fetch_first``) qualified by the class whose body
    declares it, in its code too, so that a traceback names the method called."""
    if name is None:
        name = op.__name__.removeprefix("_")
        for suffix in ("_op", "_moves", "_steps"):
            name = name.removesuffix(suffix)
    owner = sys._getframe(2).f_locals.get("__qualname__")  # (the class body's name)
    sig = inspect.signature(op)
    ret = sig.return_annotation
    head, _, inner = ret.partition("[") if isinstance(ret, str) else ("", "", "")
    if head in _OPERATIONS and inner.endswith("]"):
        ret = inner[:-1]  # (``-> Op[int]`` is ``-> int`` on the method, awaited or not)
    method.__signature__ = sig.replace(return_annotation=ret)  # type: ignore[attr-defined]
    method.__doc__ = op.__doc__
    method.__name__ = name
    method.__qualname__ = f"{owner}.{name}" if isinstance(owner, str) else name
    method.__module__ = sys._getframe(2).f_globals.get("__name__", op.__module__)
    code = method.__code__.replace(co_name=name)
    if sys.version_info >= (3, 11):
        code = code.replace(co_qualname=method.__qualname__)
    method.__code__ = code


#: The generic types an operation's result annotation is wrapped in.
_OPERATIONS = frozenset({"Op", "Steps", "CursorOp", "Moves"})


def blocking_method(op: Callable[Concatenate[_S, _P], Op[_T]], name: str | None = None,
                    run: str = "_do", via: str | None = None
                    ) -> Callable[Concatenate[Any, _P], _T]:
    """The public method that runs ``op`` blocking: ``self._do(op(self, ...))``; ``run``
    names another runner than ``_do``, ``via`` an attribute of ``self`` that the operation
    is a method of (an asyncio cursor's sync cursor). Type checkers see ``op``'s parameters
    and its result."""

    def method(self: Any, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        target = self if via is None else getattr(self, via)
        result: _T = getattr(self, run)(op(target, *args, **kwargs))
        return result

    _named(method, op, name)
    return method


def awaiting_method(op: Callable[Concatenate[_S, _P], Op[_T]], name: str | None = None,
                    run: str = "_do", via: str | None = None
                    ) -> Callable[Concatenate[Any, _P], Coroutine[Any, Any, _T]]:
    """``blocking_method``'s asyncio twin: a coroutine method, ``await self._do(op(self,
    ...))``."""

    async def method(self: Any, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        target = self if via is None else getattr(self, via)
        result: _T = await getattr(self, run)(op(target, *args, **kwargs))
        return result

    _named(method, op, name)
    return method
