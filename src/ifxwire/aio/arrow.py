"""The Arrow methods of ``ifxwire.aio`` cursors (a mixin of :class:`AsyncCursor`).

The sync cursor's Arrow API, awaited where it does I/O: ``fetch_arrow_table`` and ``fetch_df``
are coroutines, ``fetch_record_batches`` an async iterator (``adbc_ingest``, made of the sync
cursor's ``adbc_ingest_op``, is ``AsyncCursor``'s). The work is
the sync driver's (client/arrowfetch.py, client/arrowingest.py): the same decoders, the same
column-wise bind encoder and pipelined executemany steps, driven by the asyncio connection.

The blocking spellings, ``fetch_record_batch()`` (a ``pyarrow.RecordBatchReader``) and the
Arrow PyCapsule stream ``__arrow_c_stream__`` (what ``polars.DataFrame(cur)``,
``duckdb.from_arrow(cur)`` and ``pyarrow.RecordBatchReader.from_stream(cur)`` call), cannot
await: their consumer asks for each batch synchronously. They fetch each batch on the
connection's event loop: from another thread (``await asyncio.to_thread(polars.DataFrame,
cur)``) the batch is fetched by the loop while that thread waits; with the loop not running
(a script between ``run_until_complete`` calls) the loop is run until the batch is in. Asked
for a batch on the loop's own thread, while it runs, they raise ``InterfaceError`` instead
of blocking the loop forever: use ``fetch_arrow_table`` or ``fetch_record_batches`` there.
"""

from __future__ import annotations

import asyncio
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Coroutine,
    Iterator,
)
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..errors import InterfaceError

if TYPE_CHECKING:
    from ..client.arrowfetch import Cursor as ArrowCursor

    # What the mixin needs of the sync cursor and of the asyncio connection, named as
    # Protocols so that this module stays out of the client/aio import circle
    # (tests/unit/test_driver_core.py).

    class _Cursor(ArrowCursor, Protocol):
        def ensure_open(self) -> None: ...

    class _Connection(Protocol):
        @property
        def loop(self) -> asyncio.AbstractEventLoop: ...

__all__ = ["AsyncArrowMixin"]

_R = TypeVar("_R")

_ON_LOOP = (
    "a blocking Arrow stream of an asyncio cursor cannot be read on its event loop's own "
    "thread (each batch needs the loop): use 'await cur.fetch_arrow_table()' or "
    "'async for batch in cur.fetch_record_batches()', or read the stream in another thread "
    "('await asyncio.to_thread(polars.DataFrame, cur)')"
)


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _run_on(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, _R]) -> _R:
    """Run ``coro`` on ``loop`` from synchronous code and wait for its result."""
    if _on_loop_thread(loop):
        coro.close()
        raise InterfaceError(_ON_LOOP)
    if loop.is_running():
        return asyncio.run_coroutine_threadsafe(coro, loop).result()
    if loop.is_closed():
        coro.close()
        raise InterfaceError("the asyncio connection's event loop is closed")
    return loop.run_until_complete(coro)


async def _await(aw: Awaitable[_R]) -> _R:
    """``aw`` as a coroutine (what ``run_coroutine_threadsafe`` takes: an async iterator's
    ``__anext__()`` or ``aclose()`` is only awaitable)."""
    return await aw


class AsyncArrowMixin:
    """Arrow methods; the class using it has ``_cur`` (a sync Cursor) and ``_session``."""

    _cur: _Cursor
    _session: _Connection

    if TYPE_CHECKING:
        async def fetch_more(self) -> bool: ...

    async def fetch_arrow_table(self) -> Any:
        """The remaining rows as a ``pyarrow.Table`` (needs ``ifxwire[arrow]``)."""
        from ..client import arrowfetch

        return await arrowfetch.atable(self._cur, self.fetch_more)

    def fetch_record_batches(self, rows_per_batch: int | None = None) -> AsyncIterator[Any]:
        """``async for batch in cur.fetch_record_batches()``: ``pyarrow.RecordBatch``es of the
        remaining rows, one fetch reply at a time (at most ``rows_per_batch`` rows each)."""
        from ..client import arrowfetch

        return arrowfetch.aiter_batches(self._cur, self.fetch_more, rows_per_batch)

    async def fetch_df(self, **to_pandas: Any) -> Any:
        """The remaining rows as a pandas DataFrame through Arrow (``Table.to_pandas`` kwargs)."""
        from ..client import arrowfetch

        return arrowfetch.to_pandas(await self.fetch_arrow_table(), to_pandas)

    def fetch_record_batch(self, rows_per_batch: int | None = None) -> Any:
        """A blocking ``pyarrow.RecordBatchReader`` over the remaining rows, each batch fetched
        on the connection's event loop (module docstring: not on the loop's own thread)."""
        from .. import arrow as _arrow
        from ..client import arrowfetch

        pa = _arrow.require_pyarrow()
        loop = self._session.loop
        if _on_loop_thread(loop):
            raise InterfaceError(_ON_LOOP)
        cur = self._cur
        cur.ensure_result()
        schema = _arrow.arrow_schema(cur.result_columns())
        it = arrowfetch.aiter_batches(self._cur, self.fetch_more, rows_per_batch)

        def batches() -> Iterator[Any]:
            try:
                while True:
                    try:
                        batch = _run_on(loop, _await(it.__anext__()))
                    except StopAsyncIteration:
                        return
                    yield batch
            finally:
                if not loop.is_closed() and not _on_loop_thread(loop):
                    _run_on(loop, _await(it.aclose()))  # type: ignore[attr-defined]

        return pa.RecordBatchReader.from_batches(schema, batches())

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """The Arrow PyCapsule stream interface over the remaining rows (blocking; see
        ``fetch_record_batch``)."""
        return self.fetch_record_batch().__arrow_c_stream__(requested_schema)
