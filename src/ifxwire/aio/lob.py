"""Large objects in the asyncio driver: ``AsyncBlob``/``AsyncClob`` (``ifxwire.Blob``/``Clob``
with coroutine methods; ``tell()`` needs no I/O and stays plain) and the BYTE/TEXT readers
``AsyncBlobReader``/``AsyncTextReader`` (``cursor.blob_stream = True``). Each method awaits the
operation or steps the sync object runs blocking (client/lob.py, client/blobstream.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from ..client import blobstream as _bs
from ..client.lob import CHUNK, ClobText, LocatorBase, P, apieces
from ..client.resources import AsyncClosing
from ..client.steps import Op, Steps, awaiting_method
from ..errors import InterfaceError
from ..protocol.codes import XID_CLOB

if TYPE_CHECKING:
    # The session these objects run on; the AsyncConnection that makes them adds the PEP 249
    # surface (and imports this module: naming it here would make an import circle).
    from ..client.awaiting import AsyncSession as AsyncConnection

__all__ = ["AsyncBlob", "AsyncBlobReader", "AsyncClob", "AsyncSmartLob", "AsyncTextReader"]

L = TypeVar("L", bound="AsyncSmartLob")
_R = TypeVar("_R")


class _Chunks(Generic[P]):
    """``chunks(size)`` and ``async for``: ``read(size)`` awaited until the end (a smart LOB's
    short piece, a reader's empty one)."""

    _short_ends = False

    def chunks(self, size: int = CHUNK) -> AsyncIterator[P]:
        read: Callable[[int], Awaitable[P]] = self.read  # type: ignore[attr-defined]
        return apieces(read, size, self._short_ends)  # (``read``: each class's own)

    def __aiter__(self) -> AsyncIterator[P]:
        return self.chunks()


class AsyncSmartLob(LocatorBase, AsyncClosing):
    """A smart large object on the server, for the asyncio driver. Not task-safe (like a
    file): one task at a time uses a given object. Each method awaits one of
    ``LocatorBase``'s operations (client/lob.py) under the connection's lock."""

    _short_ends = True

    def __init__(self, connection: AsyncConnection, locator: bytes) -> None:
        super().__init__(locator)
        self.connection = connection
        self._session = connection.session

    async def _do(self, op: Op[_R]) -> _R:
        return await self.connection.run(lambda _: op)

    async def open(self: L, mode: str = "r") -> L:
        """As ``Blob.open``: ``"r"``, ``"r+"``, ``"w"`` (truncates) or ``"a"``."""
        await self._do(self._open_op(mode))
        return self

    # (close, seek, size, truncate, readinto, write_from, copy_to: ``LocatorBase``'s list,
    # made coroutines here because ``_do`` is one)


class AsyncBlob(AsyncSmartLob, _Chunks[bytes]):
    """A BLOB value for the asyncio driver (see ``ifxwire.Blob``)."""

    read = awaiting_method(LocatorBase._read_bytes_op, "read")
    write = awaiting_method(LocatorBase._write_bytes_op, "write")

    async def readall(self) -> bytes:
        return await self.read(-1)


class AsyncClob(ClobText, AsyncSmartLob, _Chunks[str]):
    """A CLOB value for the asyncio driver (see ``ifxwire.Clob``): ``read(n)`` counts
    characters, positions count bytes."""

    type_name = "clob"
    _kind = XID_CLOB

    read = awaiting_method(LocatorBase._read_text_op, "read")
    write = awaiting_method(LocatorBase._write_text_op, "write")


class AsyncBlobReader(AsyncClosing, _Chunks[bytes]):
    """A BYTE value read from the server as it is consumed (``await r.read(n)``,
    ``readinto``, ``async for chunk in r``): ``BlobReader``'s steps, awaited."""

    def __init__(self, aconn: AsyncConnection, stmt_id: int, descriptor: bytes) -> None:
        self.connection = aconn
        self._raw = _bs.BlobReader(aconn.session, stmt_id, descriptor)
        self.size = self._raw.size

    def __len__(self) -> int:
        return self.size

    @property
    def closed(self) -> bool:
        return self._raw.closed

    async def readinto(self, b: bytearray | memoryview) -> int:
        steps = self._raw.readinto_steps(self, memoryview(b).cast("B"))
        return await self.connection.drive(steps)

    async def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all the rest when -1)."""
        return await self.connection.drive(self._raw.read_steps(self, size))

    def drain_steps(self) -> Steps[None]:
        """Before another request: read and drop the rest (``BlobReader.drain_steps``)."""
        return self._raw.drain_steps()

    def _drain(self) -> None:
        raise InterfaceError("an asyncio BYTE/TEXT reader is drained by the asyncio connection")

    async def close(self) -> None:
        steps = self._raw.close_steps()
        if steps is not None:
            await self.connection.drive(steps)
        self._raw.close()


class AsyncTextReader(AsyncClosing, _Chunks[str]):
    """A TEXT value read as it is consumed: ``await r.read(n)`` counts characters."""

    def __init__(self, raw: AsyncBlobReader, encoding: str) -> None:
        self.raw = raw
        self._text = ClobText()
        self._encoding = encoding

    async def read(self, size: int = -1) -> str:
        raw = self.raw
        return await raw.connection.drive(self._text.read_text_op(
            size, self._encoding, lambda n: raw._raw.read_steps(raw, n)))

    async def close(self) -> None:
        await self.raw.close()

