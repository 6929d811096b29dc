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
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

__all__ = ["FLUSH", "Calls", "Op", "Steps", "await_each", "call_each"]

_T = TypeVar("_T")


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
