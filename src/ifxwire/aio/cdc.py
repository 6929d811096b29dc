"""Change data capture for asyncio: ``ifxwire.cdc`` with awaited calls and reads.

The same statements in the same order, the same record decoding (``ifxwire.cdc.Decoder``) and
the same events; only the waiting differs (docs/CDC.md).

    async with await ifxwire.aio.cdc.open_stream(aconn, tables=["shop:orders"]) as events:
        async for ev in events:
            ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from types import TracebackType

from .. import cdc as _cdc
from ..cdc import Decoder, Event, EventKind, StreamError, check, columns_for, open_args, start_args
from ..client.fastpath import read_into_op
from ..protocol.columns import ColumnDesc
from .connection import AsyncConnection

__all__ = ["AsyncChangeStream", "Event", "EventKind", "StreamError", "open_stream"]


async def _call(conn: AsyncConnection, sql: str, args: Sequence[object]) -> int:
    cur = conn.cursor()
    try:
        await cur.execute(sql, tuple(args))
        row = await cur.fetchone()
    finally:
        await cur.close()
    return int(row[0]) if row else -1


async def _explain(conn: AsyncConnection, err: BaseException) -> None:
    """ifxwire.cdc._explain for an asyncio connection: the code's name and text from
    syscdcerrcodes, best effort."""
    if not isinstance(err, StreamError) or err.code >= 0 or conn.closed:
        return
    try:
        cur = conn.cursor()
        try:
            await cur.execute(_cdc.SQL_ERRCODE, (err.code,))
            row = await cur.fetchone()
        finally:
            await cur.close()
    except Exception:
        return
    if row and row[0]:
        err.describe(str(row[0]), str(row[1] or ""))


async def _describe(conn: AsyncConnection, table: str, columns: Sequence[str] | None
                    ) -> list[ColumnDesc]:
    cur = conn.cursor()
    try:
        await cur.execute(_cdc.SQL_DESCRIBE.format(
            columns=", ".join(columns) if columns else "*", table=table))
        return list(cur._cur._columns)
    finally:
        await cur.close()


async def _server_name(conn: AsyncConnection) -> str:
    cur = conn.cursor()
    try:
        await cur.execute(_cdc.SQL_SERVER)
        row = await cur.fetchone()
    finally:
        await cur.close()
    return str(row[0]).strip() if row and row[0] else ""


class AsyncChangeStream:
    """An open capture session; ``async for`` its events, ``await close()`` (or leave its
    ``async with``) to end the capture."""

    def __init__(self, conn: AsyncConnection, owned: bool) -> None:
        self.conn = conn
        self._owned = owned
        self.session = -1
        self.closed = False
        self._started: list[str] = []
        self._sink = bytearray(_cdc.READ_SIZE)
        self.decoder = Decoder({}, conn.encoding)

    async def _open(self, tables: Sequence[str],
                    columns: dict[str, Sequence[str]] | Sequence[str] | None,
                    from_sequence: int | None, timeout: int, max_records: int) -> None:
        conn = self.conn
        try:
            self.session = check(await _call(
                conn, _cdc.SQL_OPEN, open_args(await _server_name(conn), timeout, max_records)),
                "cdc_opensess")
            for label, name in enumerate(tables, 1):
                cols = columns_for(columns, name)
                check(await _call(conn, _cdc.SQL_FULLROW, (name, 1)),
                      f"cdc_set_fullrowlogging of {name}")
                if cols is None:  # every column: the description names them
                    self.decoder.tables[label] = (name, await _describe(conn, name, cols))
                names = cols or [c.name for c in self.decoder.tables[label][1]]
                check(await _call(conn, _cdc.SQL_START,
                                  start_args(self.session, name, names, label)),
                      f"cdc_startcapture of {name}")
                self._started.append(name)
                if cols is not None:  # named: the server has checked them
                    self.decoder.tables[label] = (name, await _describe(conn, name, cols))
            check(await _call(conn, _cdc.SQL_ACTIVATE, (self.session, int(from_sequence or 0))),
                  "cdc_activatesess")
        except BaseException as e:
            await _explain(conn, e)
            await self.close()
            raise

    async def __aiter__(self) -> AsyncIterator[Event]:
        while not self.closed:
            conn = self.conn
            async with conn._lock:
                n = await conn._run(read_into_op(conn._core, self.session,
                                                 memoryview(self._sink), len(self._sink)))
            if n <= 0:
                raise StreamError("the capture session's read returned nothing")
            for ev in self.decoder.feed(memoryview(self._sink)[:n]):
                yield ev

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        conn = self.conn
        try:
            if not conn.closed and self.session >= 0:
                for name in self._started:
                    await _call(conn, _cdc.SQL_END, (self.session, name))
                await _call(conn, _cdc.SQL_CLOSE, (self.session,))
        except Exception:
            pass
        finally:
            if self._owned:
                await conn.close()

    async def __aenter__(self) -> AsyncChangeStream:
        return self

    async def __aexit__(self, et: type[BaseException] | None, ev: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


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
        await stream._open(list(tables), columns, from_sequence, timeout, max_records)
    except BaseException:
        if owned and not conn.closed:
            await conn.close()
        raise
    return stream
