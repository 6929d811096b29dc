"""``AsyncSavepoint``: client/savepoints.py's operations, awaited (set when awaited or entered)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from types import TracebackType
from typing import Any, Protocol

from ..client.savepoints import SavepointOwner, SavepointState, check_savepoint
from ..client.steps import Op

__all__ = ["AsyncSavepoint"]


class _Session(SavepointOwner, Protocol):
    """What a savepoint needs of its asyncio connection."""

    def cursor(self) -> Any: ...


class AsyncSavepoint(SavepointState):
    """A savepoint in an asyncio connection's open transaction."""

    def __init__(self, conn: _Session, name: str | None) -> None:
        super().__init__(check_savepoint(name, conn.autocommit))
        self.connection = conn
        self._set = False

    async def _run(self, make: Callable[[Any], Op[None]]) -> None:
        async with self.connection.cursor() as cur:
            await cur.run(make)

    async def _ensure_set(self) -> AsyncSavepoint:
        if not self._set:
            await self._run(lambda cur: self.action_op(cur, "set"))
            self._set = True
        return self

    def __await__(self) -> Generator[Any, None, AsyncSavepoint]:
        return self._ensure_set().__await__()

    async def rollback(self) -> None:
        """Undo what the transaction did since the savepoint; the savepoint stays set."""
        await self._run(lambda cur: self.action_op(cur, "rollback"))

    async def release(self) -> None:
        """Forget the savepoint (its work stays part of the transaction)."""
        await self._run(lambda cur: self.action_op(cur, "release"))

    async def __aenter__(self) -> AsyncSavepoint:
        return await self._ensure_set()

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        actions = self.exit_actions(self.connection, exc)
        if actions:
            await self._run(lambda cur: self.exit_op(cur, actions, exc))
