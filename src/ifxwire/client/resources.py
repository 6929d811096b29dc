"""``with`` and ``async with`` for objects that close: the block's value is the object and
leaving it closes the object. One pair for every such object of both drivers (cursors, LOBs,
BYTE/TEXT readers, change streams, pools); a connection's exit, which also ends its
transaction, is its own."""

from __future__ import annotations

from types import TracebackType
from typing import TypeVar

__all__ = ["AsyncClosing", "Closing"]

_S = TypeVar("_S", bound="Closing")
_A = TypeVar("_A", bound="AsyncClosing")


class Closing:
    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class AsyncClosing:
    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self: _A) -> _A:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()
