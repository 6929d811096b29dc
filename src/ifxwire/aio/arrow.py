"""The Arrow methods of ``ifxwire.aio`` cursors (a mixin of :class:`AsyncCursor`): the sync
cursor's Arrow API, awaited where it does I/O. The work, and the blocking spellings' bridge
onto the event loop, are client/arrowfetch.py's (its docstring says what they may not do).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol

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
        on the connection's event loop (``arrowfetch.blocking_reader``: not on its thread)."""
        from ..client import arrowfetch

        return arrowfetch.blocking_reader(self._cur, self.fetch_more, self._session.loop,
                                          rows_per_batch)

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """The Arrow PyCapsule stream interface over the remaining rows (blocking; see
        ``fetch_record_batch``)."""
        return self.fetch_record_batch().__arrow_c_stream__(requested_schema)
