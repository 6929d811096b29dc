"""``ifxwire.cdc`` for asyncio: ``Capture``'s statements, decoding and close sequence, awaited
(docs/CDC.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from .. import cdc as _cdc
from ..cdc import Capture, Event, EventKind, StreamCancelled, StreamError
from ..client.resources import AsyncClosing
from ..client.steps import await_each
from ..errors import InterfaceError
from .connection import AsyncConnection

__all__ = ["AsyncChangeStream", "Event", "EventKind", "StreamCancelled", "StreamError",
           "open_stream"]


class AsyncChangeStream(Capture, AsyncClosing):
    """An open capture session; ``async for`` its events, ``await close()`` (or leave its
    ``async with``) to end the capture."""

    conn: AsyncConnection

    async def __aiter__(self) -> AsyncIterator[Event]:
        while not self.closed:
            # ifxwire.cdc.ChangeStream.__iter__ awaited: a full read keeps the next reads in
            # flight while its events are handed out (docs/CDC.md "Reading ahead").
            try:
                events = await self.conn.run(self.next_read_op)
            except StreamCancelled:
                await self.close()  # the connection's cancel(): ended as a close ends it
                raise
            for ev in events:
                yield ev

    def _drain(self) -> None:
        # The blocking connection's way to read a pending read ahead; an asyncio stream's is
        # read by the asyncio connection (``drain_steps``), never by this.
        raise InterfaceError("an asyncio change stream is drained by the asyncio connection")

    async def close(self) -> None:
        """End the capture (``Capture.close_calls`` awaited)."""
        await await_each(self.close_calls(), self)

    async def _cut_short(self) -> None:
        await self.conn.drive(self.cut_short_steps())

    async def _end_session(self) -> None:
        async with self.conn.cursor() as cur:
            await cur.run(self.close_op)

    async def _close_conn(self) -> None:
        await self.conn.close()


async def open_stream(conn_or_dsn: AsyncConnection | str, tables: Sequence[str],
                      columns: dict[str, Sequence[str]] | Sequence[str] | None = None,
                      from_sequence: int | None = None, timeout: int = 5,
                      max_records: int = 64) -> AsyncChangeStream:
    """``ifxwire.cdc.open_stream`` for an ``AsyncConnection`` (or a URL it connects with)."""
    if isinstance(conn_or_dsn, str):
        from .connection import connect

        conn = await connect(conn_or_dsn, database=_cdc.CDC_DATABASE)
        owned = True
    else:
        conn, owned = conn_or_dsn, False
    stream = AsyncChangeStream(conn, owned)
    try:
        async with conn.cursor() as cur:
            await cur.run(lambda c: stream.open_op(c, list(tables), columns, from_sequence,
                                                   timeout, max_records))
    except BaseException:
        if owned and not conn.closed:
            await conn.close()
        raise
    stream.hook_cancel(conn.session)
    return stream
