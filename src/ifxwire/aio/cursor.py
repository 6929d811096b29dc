"""The asyncio cursor: the sync ``Cursor``'s operations, awaited.

An ``AsyncCursor`` owns a sync :class:`ifxwire.Cursor` bound to the connection's core and
runs its operations (``_execute_op``, ``_fetch_op``, ``batch.execute_many_steps``) with
awaiting loops (``AsyncConnection._run``/``_drive``); result state, the finalizer that
defers a CLOSE and the row buffer are the sync cursor's. What stays here: the PEP 249-like
surface as coroutines, the objects this driver makes of LOB and BYTE/TEXT values
(``lob_factory``, ``blob_reader``: the sync cursor's operations ask for them), and the one
hook whose work differs (``_lob_txn_interrupted``: a cancelled task may not await).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any, TypeVar

from ..client import lob as _lob
from ..client.batch import execute_many_op
from ..client.cursor import NO_ROW, Cursor, CursorOp
from ..client.dbapi import AsyncDbapiConnection
from ..client.resources import AsyncClosing
from ..client.statements import Description, Prepared
from ..client.steps import Op, await_each, awaiting_method
from ..rows import BaseRowFactory
from ..types.adapters import AdaptersMap
from . import lob as _alob
from .arrow import AsyncArrowMixin
from .session import AsyncSession, Forward

__all__ = ["AsyncCursor"]

log = logging.getLogger("ifxwire.aio")

_T = TypeVar("_T")


class AsyncCursor(AsyncArrowMixin, AsyncClosing):
    """Create with ``AsyncConnection.cursor()``. Fetches are coroutines; ``async for`` works.
    The Arrow methods come from :class:`ifxwire.aio.arrow.AsyncArrowMixin`."""

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

    # ------------------------------------------------------------------ attributes
    # The sync cursor's, read (and where plain, set) through it.
    #: The server cursor's name while a result is open (for WHERE CURRENT OF); assign one
    #: before ``execute`` to choose it.
    name = Forward[str | None]("name", settable=True, via="_cur")
    #: Seconds each of this cursor's requests may run before it is cancelled (-213); None:
    #: the connection's ``statement_timeout``.
    statement_timeout = Forward[float | None]("statement_timeout", settable=True, via="_cur")
    description = Forward[tuple[Description, ...] | None]("description", via="_cur")
    rowcount = Forward[int]("rowcount", via="_cur")
    lastrowid = Forward[int | None]("lastrowid", via="_cur")
    arraysize = Forward[int]("arraysize", settable=True, via="_cur")
    collections = Forward[str]("collections", settable=True, via="_cur")  # Cursor's
    rownumber = Forward[int | None]("rownumber", via="_cur")
    #: What fetches return, as ``Cursor.row_factory`` (the rows are made by the sync
    #: cursor's code this cursor drives; the factory is called with this cursor).
    row_factory = Forward[BaseRowFactory]("row_factory", settable=True, via="_cur")
    #: This cursor's loaders and dumpers (a copy of the connection's, made on first use),
    #: as ``Cursor.adapters``.
    adapters = Forward[AdaptersMap]("adapters", via="_cur")
    batch_size = Forward[int]("batch_size", via="_cur")
    #: BLOB/CLOB values up to this many bytes come as bytes/str; None: the connection's.
    lob_materialize_limit = Forward[int | None]("lob_materialize_limit", True, via="_cur")
    #: BYTE/TEXT values come as asyncio readers when True; None: the connection's.
    blob_stream = Forward[bool | None]("blob_stream", settable=True, via="_cur")
    closed = Forward[bool]("closed", via="_cur")

    def __repr__(self) -> str:
        return f"<ifxwire AsyncCursor {self._cur.state_text()}>"

    # ------------------------------------------------------------------ execute

    async def execute(self, operation: str, parameters: object = None) -> AsyncCursor:
        """Prepare (or reuse) and run ``operation``; ``?``, ``:1`` or ``:name`` markers."""
        cur = self._cur
        cur.ensure_open()
        await self._locked(cur.execute_op(operation, cur.execute_args(operation, parameters)))
        return self

    def _locked(self, op: Op[_T]) -> Coroutine[Any, Any, _T]:
        """A cursor operation run under the connection's lock and this cursor's timeout, on
        a usable connection: the frame of every request the cursor makes (to await; a plain
        method, so that it adds no coroutine to each fetch)."""
        return self._session.run_cursor_op(op, self, self._cur.statement_timeout)

    async def run(self, make: Callable[[Cursor], CursorOp[_T]]) -> _T:
        """Run the cursor operation ``make(cursor)`` (``cursor``: the sync cursor this one
        drives) in the frame of ``_locked``: the awaiting twin of ``Cursor.run``."""
        return await self._do(make(self._cur))

    async def _do(self, op: Op[_T]) -> _T:
        """``op`` in the frame of ``_locked``, this cursor open (``run``; the methods made by
        ``awaiting_method``)."""
        self._cur.ensure_open()
        return await self._locked(op)

    def lob_factory(self) -> _lob.LobFactory:
        """The asyncio driver's objects for BLOB/CLOB values (``Cursor.blobs_op`` asks)."""
        return _alob.lob_factory(self._session)

    def blob_reader(self, p: Prepared) -> Callable[[bytes, bool], object]:
        """The asyncio reader of a BYTE/TEXT value of ``p``'s result."""
        return _alob.blob_reader_maker(self._session, p)

    async def _lob_txn_interrupted(self) -> None:
        """Cancelled: nothing may be awaited; the transaction is the server's."""
        self._session.session.abandon_lob_txn()

    async def executemany(self, operation: str, seq_of_parameters: Iterable[object]) -> AsyncCursor:
        """Run a non-query once per parameter set, pipelined like the sync driver: every row
        is attempted; the first failure is raised afterwards with ``row_index`` and
        ``errors``; ``rowcount`` sums the successful rows."""
        cur = self._cur
        cur.ensure_open()
        await self._locked(execute_many_op(cur, operation, seq_of_parameters))
        return self

    callproc = awaiting_method(Cursor.procedure_op, "callproc", via="_cur")
    adbc_ingest = awaiting_method(Cursor.adbc_ingest_op, via="_cur")

    # PEP 249's methods that need no I/O are the sync cursor's: ``nextset`` (one result set
    # at most), ``setinputsizes`` and ``setoutputsize`` (accepted and ignored).
    nextset = Forward[Callable[[], None]]("nextset", via="_cur")
    setinputsizes = Forward[Callable[[object], None]]("setinputsizes", via="_cur")
    setoutputsize = Forward[Callable[..., None]]("setoutputsize", via="_cur")

    # ------------------------------------------------------------------ fetching

    async def fetch_more(self) -> bool:
        """The next batch into the sync cursor's buffer, awaited (``Cursor.fetch_more``);
        False at the end of the result."""
        cur = self._cur
        if cur.ended():  # (raises the error the result ended with, if any; no I/O)
            return False
        return await self._locked(cur.fetch_op())

    # The loops of the sync cursor's fetches, awaiting the next batch where those block;
    # the row buffer is the sync cursor's, reached through its cursor API (``take``...).

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

    # ------------------------------------------------------------------ lifecycle

    async def close(self) -> None:
        """Close the cursor; an open result's server cursor is closed with the next request
        (no I/O here)."""
        self._cur.close()  # (no I/O: the sync close only queues the CLOSE)
