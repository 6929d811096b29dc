"""Savepoints for the asyncio driver: ``client/savepoints.py`` with awaits.

``conn.savepoint(name)`` returns an ``AsyncSavepoint`` that is set by awaiting it
(``sp = await conn.savepoint()``) or by entering it (``async with conn.savepoint("x"):``).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from types import TracebackType
from typing import Any, Protocol

from ..client.savepoints import SavepointOwner, SavepointState, check_savepoint, savepoint_sql
from ..errors import Error


class _Session(SavepointOwner, Protocol):
    """What a savepoint needs of its asyncio connection."""

    @property
    def autocommit(self) -> bool: ...

    async def execute(self, sql: str, params: object = None) -> Any: ...

__all__ = ["AsyncSavepoint"]

log = logging.getLogger("ifxwire.aio")


class AsyncSavepoint(SavepointState):
    """A savepoint in an asyncio connection's open transaction."""

    def __init__(self, conn: _Session, name: str | None) -> None:
        super().__init__(check_savepoint(name, conn.autocommit))
        self.connection = conn
        self._set = False

    async def _run(self, action: str) -> None:
        cur = await self.connection.execute(savepoint_sql(action, self.name))
        await cur.close()

    async def _ensure_set(self) -> AsyncSavepoint:
        if not self._set:
            check_savepoint(self.name, self.connection.autocommit)
            await self._run("set")
            self._set = True
        return self

    def __await__(self) -> Generator[Any, None, AsyncSavepoint]:
        return self._ensure_set().__await__()

    async def rollback(self) -> None:
        """Undo what the transaction did since the savepoint; the savepoint stays set."""
        self._live("roll back to")
        await self._run("rollback")

    async def release(self) -> None:
        """Forget the savepoint (its work stays part of the transaction)."""
        self._live("release")
        await self._run("release")
        self.released = True

    async def __aenter__(self) -> AsyncSavepoint:
        return await self._ensure_set()

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        try:
            for action in self._exit_actions(self.connection, exc):
                await getattr(self, action)()
        except Error as err:
            self._exit_failed(exc, err)
