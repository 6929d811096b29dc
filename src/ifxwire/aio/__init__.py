"""Native asyncio driver: ``conn = await ifxwire.aio.connect(...)``.

Built on asyncio streams with no threads; it reuses the sync driver's sans-I/O pieces
(handshake, request builders, reply parser, statement cache, placeholders, binds, row
decoders) and its session bookkeeping. See docs/POOL_AND_ASYNC.md.

>>> async def main():  # doctest: +SKIP
...     async with await ifxwire.aio.connect("informix://informix:in4mix@db:9088/stores") as c:
...         cur = await c.execute("SELECT customer_num FROM customer WHERE state = ?", ("CA",))
...         async for (num,) in cur:
...             ...
"""

from __future__ import annotations

from .connection import AsyncConnection, connect
from .cursor import AsyncCursor
from .lob import AsyncBlob, AsyncBlobReader, AsyncClob, AsyncTextReader
from .pool import AsyncConnectionPool, PoolClosed, PoolTimeout, create_pool
from .scroll import AsyncScrollCursor

__all__ = [
    "AsyncBlob",
    "AsyncBlobReader",
    "AsyncClob",
    "AsyncConnection",
    "AsyncConnectionPool",
    "AsyncCursor",
    "AsyncScrollCursor",
    "AsyncTextReader",
    "PoolClosed",
    "PoolTimeout",
    "connect",
    "create_pool",
]
