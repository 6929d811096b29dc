"""What the asyncio objects declare of their sync twins, written once here so that aio/
keeps only the awaitable surface (docs/ARCHITECTURE.md, "What aio/ keeps"):

* ``Forward``: an attribute that is the twin's, read (and set) through it: one line per
  attribute instead of a property pair (``AsyncConnection.row_factory``, the cursor's).
* ``same_arguments`` / ``same_method_arguments``: a function or method that takes another's
  arguments, so the signature is written once (``ifxwire.aio.connect`` takes
  ``ifxwire.connect``'s, ``AsyncConnection.cursor`` ``Connection.cursor``'s): help(),
  ``inspect.signature``, mypy and pyright read the sync one's (jedi without running the code
  shows ``*args, **kwargs``).

No imports of the driver, so any module may use it without joining an import circle.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

__all__ = ["Forward", "same_arguments", "same_method_arguments"]

_V = TypeVar("_V")
_T = TypeVar("_T")
_P = ParamSpec("_P")


class Forward(Generic[_V]):
    """An attribute that is another object's (``via``: an asyncio connection's session
    core, an asyncio cursor's sync cursor), read and, when ``settable``, set through it
    (``cast`` applied first)."""

    __slots__ = ("cast", "name", "settable", "via")

    def __init__(self, name: str, settable: bool = False,
                 cast: Callable[[Any], Any] | None = None, via: str = "_core") -> None:
        self.name = name
        self.settable = settable
        self.cast = cast
        self.via = via

    def __get__(self, obj: object, owner: type | None = None) -> _V:
        if obj is None:
            return self  # type: ignore[return-value]
        value: _V = getattr(getattr(obj, self.via), self.name)
        return value

    def __set__(self, obj: object, value: _V) -> None:
        if not self.settable:
            raise AttributeError(f"{self.name} is read-only")
        setattr(getattr(obj, self.via), self.name,
                value if self.cast is None else self.cast(value))


def same_arguments(sync: Callable[_P, object]
                   ) -> Callable[[Callable[..., Awaitable[_T]]], Callable[_P, Awaitable[_T]]]:
    """A decorator: the coroutine function takes ``sync``'s arguments (its signature, with
    the coroutine's own return annotation)."""

    def same(f: Callable[..., Awaitable[_T]]) -> Callable[_P, Awaitable[_T]]:
        _take_signature(f, sync)
        return f

    return same


def same_method_arguments(sync: Callable[Concatenate[Any, _P], object]
                          ) -> Callable[[Callable[..., _T]], Callable[Concatenate[Any, _P], _T]]:
    """``same_arguments`` for a method: ``self`` is the method's own class."""

    def same(f: Callable[..., _T]) -> Callable[Concatenate[Any, _P], _T]:
        _take_signature(f, sync)
        return f

    return same


def _take_signature(f: Callable[..., Any], sync: Callable[..., Any]) -> None:
    f.__signature__ = inspect.signature(sync).replace(  # type: ignore[attr-defined]
        return_annotation=inspect.signature(f).return_annotation)
