"""``AsyncScrollCursor``: ``ScrollCursor``'s moves (client/scroll.py), their SFETCHes awaited."""

from __future__ import annotations

import sys
from typing import Any, TypeVar

from ..client.facade import Forward
from ..client.scroll import Moves, ScrollCursor
from ..client.steps import awaiting_method
from .cursor import AsyncCursor

__all__ = ["AsyncScrollCursor"]

T = TypeVar("T")
Row = tuple[Any, ...]


class AsyncScrollCursor(AsyncCursor):
    """``AsyncCursor`` plus ``ScrollCursor``'s moves, awaited."""

    _cur: ScrollCursor

    scrollable = Forward[bool]("scrollable", via="_cur")
    withhold = Forward[bool]("withhold", via="_cur")

    async def _drive(self, moves: Moves[T]) -> T:
        plan, done = self._cur.first_plan(moves)
        if plan is None:
            return done  # type: ignore[return-value]
        return await self._locked(self._cur.moves_op(moves, plan))

    async def fetchone(self) -> Row | None:
        if not self._cur.scrollable:
            return await super().fetchone()
        return await self._drive(self._cur.fetchone_moves())

    async def fetchmany(self, size: int | None = None) -> list[Row]:
        if not self._cur.scrollable:
            return await super().fetchmany(size)
        return await self._drive(self._cur.fetchmany_moves(size))

    async def fetchall(self) -> list[Row]:
        if not self._cur.scrollable:
            return await super().fetchall()
        return await self._drive(self._cur.fetchmany_moves(sys.maxsize))

    async def __anext__(self) -> Row:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def scroll(self, value: int, mode: str = "relative") -> None:
        """As ``ScrollCursor.scroll`` (a forward-only cursor moves forward only)."""
        cur = self._cur
        if not cur.scrollable:
            await super().scroll(value, mode)
            return
        await self._drive(cur.scroll_moves(value, mode))

    # (their parameters and docstrings are the moves')
    fetch_first = awaiting_method(ScrollCursor.fetch_first_moves, run="_drive", via="_cur")
    fetch_last = awaiting_method(ScrollCursor.fetch_last_moves, run="_drive", via="_cur")
    fetch_prior = awaiting_method(ScrollCursor.fetch_prior_moves, run="_drive", via="_cur")
    fetch_relative = awaiting_method(ScrollCursor.fetch_relative_moves, run="_drive",
                                     via="_cur")
    fetch_absolute = awaiting_method(ScrollCursor.fetch_absolute_moves, run="_drive",
                                     via="_cur")
