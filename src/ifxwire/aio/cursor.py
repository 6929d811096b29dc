"""``AsyncCursor``: a sync ``Cursor`` (result state, row buffer, deferred CLOSE) whose
operations are awaited; it makes this driver's LOB objects and readers, and answers the one
hook whose work differs (docs/POOL_AND_ASYNC.md, "How it is built").
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any, TypeVar

from ..client import lob as _lob
from ..client.awaiting import AsyncSession
from ..client.batch import execute_many_op
from ..client.cursor import NO_ROW, Cursor, CursorOp
from ..client.dbapi import AsyncDbapiConnection
from ..client.facade import Forward
from ..client.resources import AsyncClosing
from ..client.statements import Description, Prepared
from ..client.steps import Op, await_each, awaiting_method
from ..rows import BaseRowFactory
from ..types.adapters import AdaptersMap
from . import lob as _alob
from .arrow import AsyncArrowMixin

__all__ = ["AsyncCursor"]

_T = TypeVar("_T")


class AsyncCursor(AsyncArrowMixin, AsyncClosing):
    """``AsyncConnection.cursor()``: ``ifxwire.Cursor`` with coroutine fetches."""

    _cur: Cursor
    _session: AsyncSession  # what its operations run on; ``connection``: client/dbapi.py
    connection: AsyncDbapiConnection[AsyncCursor]

    def __init__(self, session: AsyncSession, connection: AsyncDbapiConnection[AsyncCursor],
                 cur: Cursor) -> None:
        """(Made by ``AsyncConnection.cursor``, as both; ``cur``: the sync cursor it drives.)"""
        self._session = session
        self.connection = connection
        self._cur = cur
        cur.serve_as(self)  # row factories are called with this cursor

    # The sync cursor's attributes, read (and where plain, set) through it: see ``Cursor``.
    name = Forward[str | None]("name", settable=True, via="_cur")
    statement_timeout = Forward[float | None]("statement_timeout", settable=True, via="_cur")
    description = Forward[tuple[Description, ...] | None]("description", via="_cur")
    rowcount = Forward[int]("rowcount", via="_cur")
    lastrowid = Forward[int | None]("lastrowid", via="_cur")
    arraysize = Forward[int]("arraysize", settable=True, via="_cur")
    collections = Forward[str]("collections", settable=True, via="_cur")  # Cursor's
    rownumber = Forward[int | None]("rownumber", via="_cur")
    row_factory = Forward[BaseRowFactory]("row_factory", settable=True, via="_cur")
    adapters = Forward[AdaptersMap]("adapters", via="_cur")
    batch_size = Forward[int]("batch_size", via="_cur")
    lob_materialize_limit = Forward[int | None]("lob_materialize_limit", True, via="_cur")
    blob_stream = Forward[bool | None]("blob_stream", settable=True, via="_cur")
    closed = Forward[bool]("closed", via="_cur")

    def __repr__(self) -> str:
        return f"<ifxwire AsyncCursor {self._cur.state_text()}>"

    async def execute(self, operation: str, parameters: object = None) -> AsyncCursor:
        """As ``Cursor.execute``."""
        cur = self._cur
        cur.ensure_open()
        await self._locked(cur.execute_op(operation, cur.execute_args(operation, parameters)))
        return self

    def _locked(self, op: Op[_T]) -> Coroutine[Any, Any, _T]:
        """Every request's frame (``run_cursor_op``; plain: no coroutine added per fetch)."""
        return self._session.run_cursor_op(op, self, self._cur.statement_timeout)

    async def run(self, make: Callable[[Cursor], CursorOp[_T]]) -> _T:
        """``Cursor.run`` awaited: ``make(sync cursor)`` in ``_locked``'s frame."""
        return await self._do(make(self._cur))

    async def _do(self, op: Op[_T]) -> _T:
        """``op`` in ``_locked``'s frame, this cursor open (``awaiting_method``'s runner)."""
        self._cur.ensure_open()
        return await self._locked(op)

    def lob_factory(self) -> _lob.LobFactory:
        """The asyncio driver's objects for BLOB/CLOB values (``Cursor.blobs_op`` asks)."""
        session = self._session
        return lambda locator, clob: (_alob.AsyncClob if clob else _alob.AsyncBlob)(
            session, locator)

    def blob_reader(self, p: Prepared) -> Callable[[bytes, bool], object]:
        """The asyncio reader of a BYTE/TEXT value of ``p``'s result (TEXT decoded)."""
        session = self._session

        def make(descriptor: bytes, is_text: bool) -> object:
            reader = _alob.AsyncBlobReader(session, p.stmt_id, descriptor)
            return _alob.AsyncTextReader(reader, session.encoding) if is_text else reader

        return make

    async def _lob_txn_interrupted(self) -> None:
        """Cancelled: nothing may be awaited; the transaction is the server's."""
        self._session.session.abandon_lob_txn()

    async def executemany(self, operation: str, seq_of_parameters: Iterable[object]) -> AsyncCursor:
        """As ``Cursor.executemany`` (``batch.execute_many_op``)."""
        cur = self._cur
        cur.ensure_open()
        await self._locked(execute_many_op(cur, operation, seq_of_parameters))
        return self

    callproc = awaiting_method(Cursor.procedure_op, "callproc", via="_cur")
    adbc_ingest = awaiting_method(Cursor.adbc_ingest_op, via="_cur")

    # PEP 249's methods that need no I/O are the sync cursor's.
    nextset = Forward[Callable[[], None]]("nextset", via="_cur")
    setinputsizes = Forward[Callable[[object], None]]("setinputsizes", via="_cur")
    setoutputsize = Forward[Callable[..., None]]("setoutputsize", via="_cur")

    async def fetch_more(self) -> bool:
        """``Cursor.fetch_more`` awaited; False at the end of the result."""
        cur = self._cur
        if cur.ended():  # (raises the error the result ended with, if any; no I/O)
            return False
        return await self._locked(cur.fetch_op())

    # The sync fetch loops (kept inline there: the hot path), awaiting ``fetch_more``.

    async def fetchone(self) -> tuple[Any, ...] | None:
        cur = self._cur
        row = cur.take_one()
        if row is not NO_ROW:
            return row  # type: ignore[no-any-return]
        cur.ensure_result()
        while await self.fetch_more():
            row = cur.take_one()
            if row is not NO_ROW:
                return row  # type: ignore[no-any-return]
        return None

    async def fetchmany(self, size: int | None = None) -> list[tuple[Any, ...]]:
        cur = self._cur
        want = cur.fetch_count(size)
        out = cur.take(want)
        while len(out) < want and await self.fetch_more():
            out += cur.take(want - len(out))
        return out

    async def fetchall(self) -> list[tuple[Any, ...]]:
        cur = self._cur
        cur.ensure_result()
        out = cur.take(sys.maxsize)
        while await self.fetch_more():
            out += cur.take(sys.maxsize)
        return out

    async def scroll(self, value: int, mode: str = "relative") -> None:
        """Move forward in the result, as ``Cursor.scroll`` (forward-only: never back)."""
        await await_each(self._cur.forward_calls(value, mode), self)

    def __aiter__(self) -> AsyncIterator[tuple[Any, ...]]:
        return self

    async def __anext__(self) -> tuple[Any, ...]:
        row = self._cur.take_one()
        if row is not NO_ROW:
            return row  # type: ignore[no-any-return]
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def close(self) -> None:
        """As ``Cursor.close`` (no I/O: the CLOSE goes with the next request)."""
        self._cur.close()
