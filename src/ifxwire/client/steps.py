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
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

__all__ = ["FLUSH", "Op", "Steps"]

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
