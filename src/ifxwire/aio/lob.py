"""Large objects in the asyncio driver: ``AsyncBlob``/``AsyncClob`` and BYTE/TEXT streams.

``AsyncBlob`` and ``AsyncClob`` are ``ifxwire.Blob``/``Clob`` with coroutine methods
(``await lob.read(n)``, ``readinto``, ``write``, ``seek``, ``size``, ``truncate``, ``close``,
``async for chunk in lob``, ``async with lob``); ``tell()`` needs no I/O and stays plain. They
send the same messages (client/lob.py, docs/PROTOCOL.md §11) through ``aio/fastpath.py``.

Binding works as in the sync driver: bytes, str and file-likes for BLOB/CLOB parameters are
stored in new objects first; file-likes for BYTE/TEXT are streamed in the statement's group.
A file-like may be a plain one (its ``read`` is called directly: a regular file's read does
not block for long) or one whose ``read`` is a coroutine (aiofiles and similar) for BLOB/CLOB.

``AsyncBlobReader`` is the asyncio ``BlobReader`` (``cursor.blob_stream = True``): a BYTE (or,
through ``AsyncTextReader``, TEXT) value read from the socket as it is consumed.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from ..client import blobstream as _bs
from ..client import fastpath as _fp
from ..client import lob as _lob
from ..client.lob import CHUNK, ClobText, LocatorBase, P, decode_clob, encode_clob
from ..client.sources import SourceChanged, source_error
from ..errors import DataError, InterfaceError, ProgrammingError
from ..protocol import messages as m
from ..protocol.codes import XID_CLOB
from ..protocol.wire import Writer
from ..types import smartlob as slo
from . import fastpath as afp

if TYPE_CHECKING:
    from ..client.statements import Prepared
    from .connection import AsyncConnection
    from .cursor import AsyncCursor

__all__ = ["AsyncBlob", "AsyncBlobReader", "AsyncClob", "AsyncSmartLob", "AsyncTextReader"]

L = TypeVar("L", bound="AsyncSmartLob")


class AsyncSmartLob(LocatorBase):
    """A smart large object on the server, for the asyncio driver. Not task-safe (like a
    file): one task at a time uses a given object."""

    def __init__(self, connection: AsyncConnection, locator: bytes) -> None:
        super().__init__(locator)
        self.connection = connection
        self._held = False  # the caller holds the connection's lock (a fetch materialising)

    # ---- I/O through aio/fastpath.py ----------------------------------------------------------
    async def _call(self, signature: str, *args: object) -> list[Any]:
        if self._held:
            return await afp.call_held(self.connection, signature, args)
        return await afp.call(self.connection, signature, args)

    async def _read_into_sink(self, sink: bytearray | memoryview, n: int) -> int:
        fd = await self._ensure(False)
        await self._sync(fd)
        if self._held:
            got = await afp.read_into_held(self.connection, fd, sink, n)
        else:
            got = await afp.read_into(self.connection, fd, sink, n)
        self._pos += got
        self._server_pos = self._pos
        return got

    async def _write_pieces(self, pieces: afp.Pieces) -> int:
        fd = await self._ensure(True)
        await self._sync(fd)
        n = await afp.write_pieces(self.connection, fd, pieces)
        self._pos += n
        self._server_pos = self._pos
        return n

    def _check(self) -> None:
        if self._closed:
            raise InterfaceError(f"the {type(self).__name__} is closed")
        self.connection._core._check()

    async def _ensure(self, write: bool) -> int:
        self._check()
        if self._fd is None or (write and not self._writable):
            pos = self._pos
            await self.open("r+" if write else "r")
            self._pos = pos
        assert self._fd is not None
        return self._fd

    async def _sync(self, fd: int) -> None:
        if self._server_pos != self._pos and not self._append:
            moved = await self._call(_lob.SIG_SEEK, fd, self._pos, slo.LO_SEEK_SET, 0)
            self._server_pos = _lob.returned_int(moved, "ifx_lo_seek")

    # ---- open / close -------------------------------------------------------------------------
    async def open(self: L, mode: str = "r") -> L:
        """As ``Blob.open``: ``"r"``, ``"r+"``, ``"w"`` (truncates) or ``"a"``."""
        flags = _lob.open_flags(mode)
        self._check()
        if self._fd is not None:
            await self._close_fd()
        opened = await self._call(_lob.SIG_OPEN, self._udt(), flags)
        self._opened(_lob.returned(opened, "ifx_lo_open"), flags)
        if mode.startswith("w"):
            await self._call(_lob.SIG_TRUNCATE, self._fd, 0)
        return self

    async def close(self) -> None:
        """Close the server descriptor (the object stays: a row holds it)."""
        if self._closed:
            return
        self._closed = True
        conn = self.connection
        if self._fd is not None and not conn.closed and not conn.broken:
            await self._close_fd()

    async def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            await self._call(_lob.SIG_CLOSE, fd)

    async def __aenter__(self: L) -> L:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __del__(self) -> None:
        # As the sync object: an open descriptor is closed with the next request.
        fd = getattr(self, "_fd", None)
        if fd is None or getattr(self, "_closed", True):
            return
        try:
            core = self.connection._core
            cached = core._routines.get((core.database, _lob.SIG_CLOSE))
            if cached is not None and not core.closed and not core.broken:
                core._defer(_fp.exfp_group(core, cached[0], cached[1], [fd])[0])
        except Exception:  # never raise from a finalizer
            pass

    # ---- positions ----------------------------------------------------------------------------
    def tell(self) -> int:
        self._check()
        return self._pos

    async def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Move the position (a server call only from the end, which needs the size)."""
        self._check()
        size = await self.size() if whence == io.SEEK_END else 0
        self._pos = _lob.seek_target(self._pos, offset, whence, size)
        return self._pos

    async def size(self) -> int:
        fd = await self._ensure(False)
        stat = await self._call(_lob.SIG_STAT, fd, _lob._STAT_PLACEHOLDER)
        return _lob.stat_size(_lob.returned(stat, "ifx_lo_stat"))

    async def truncate(self, size: int | None = None) -> int:
        target = self._pos if size is None else size
        if target < 0:
            raise DataError(f"negative truncate size {target}")
        fd = await self._ensure(True)
        await self._call(_lob.SIG_TRUNCATE, fd, target)
        return target

    # ---- bytes --------------------------------------------------------------------------------
    async def _read_stream(self, sinks: Iterable[memoryview],
                           on_data: Callable[[memoryview], object] | None = None,
                           window: int = _fp.READ_WINDOW) -> int:
        fd = await self._ensure(False)
        await self._sync(fd)
        try:
            if self._held:
                got = await afp.read_pipelined_held(self.connection, fd, sinks, on_data,
                                                    window)
            else:
                got = await afp.read_pipelined(self.connection, fd, sinks, on_data, window)
        except BaseException:
            self._server_pos = -1
            raise
        self._pos += got
        self._server_pos = self._pos
        return got

    async def _read_bytes(self, n: int) -> bytes:
        if 0 <= n <= _fp.READ_MESSAGE:
            out = bytearray()
            if n:
                await self._read_into_sink(out, n)
            return bytes(out)
        if n < 0:
            out = bytearray()
            await self._read_stream(_fp.rotating(_fp.READ_MESSAGE), out.extend)
            return bytes(out)
        buf = bytearray(n)
        del buf[await self._read_stream(_fp.slices(memoryview(buf))) :]
        return bytes(buf)

    async def readinto(self, b: bytearray | memoryview) -> int:
        """Fill ``b`` from the position; returns the bytes read (fewer at the end)."""
        view = memoryview(b).cast("B")
        if len(view) <= _fp.READ_MESSAGE:
            return await self._read_into_sink(view, len(view)) if len(view) else 0
        return await self._read_stream(_fp.slices(view))

    async def write_from(self, source: Any, chunk: int = _fp.WRITE_MESSAGE) -> int:
        """Copy a binary file-like object (plain or with a coroutine ``read``) in at the
        position, ``chunk`` bytes at a time."""
        return await self._write_pieces(_source_pieces(source, chunk, None))

    async def copy_to(self, target: Any, chunk: int = _fp.COPY_MESSAGE) -> int:
        """Copy from the position to the end into a binary file-like object (its ``write``
        may be a coroutine); returns the bytes copied. Reads are pipelined (as the sync
        ``Blob.copy_to``: 4 MiB reads, ``COPY_WINDOW`` in flight)."""
        size = max(1, min(chunk, _fp.COPY_MESSAGE))
        return await self._read_stream(_fp.rotating(size, _fp.COPY_WINDOW + 1), target.write,
                                       _fp.COPY_WINDOW)


class AsyncBlob(AsyncSmartLob):
    """A BLOB value for the asyncio driver (see ``ifxwire.Blob``)."""

    async def read(self, size: int | None = -1) -> bytes:
        return await self._read_bytes(-1 if size is None else size)

    async def readall(self) -> bytes:
        return await self._read_bytes(-1)

    async def write(self, data: bytes | bytearray | memoryview) -> int:
        view = memoryview(data).cast("B")
        return await self._write_pieces(_lob._split(view))

    def chunks(self, size: int = CHUNK) -> AsyncIterator[bytes]:
        return _apieces(self.read, size, True)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.chunks()


class AsyncClob(ClobText, AsyncSmartLob):
    """A CLOB value for the asyncio driver (see ``ifxwire.Clob``): ``read(n)`` counts
    characters, positions count bytes."""

    type_name = "clob"
    _kind = XID_CLOB

    def __init__(self, connection: AsyncConnection, locator: bytes) -> None:
        super().__init__(connection, locator)
        self._reset_text()

    async def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._reset_text()
        return await super().seek(offset, whence)

    async def read(self, size: int | None = -1) -> str:
        n = -1 if size is None else size
        encoding = self.connection.encoding
        while (want := self._want(n)) and self._feed(await self._read_bytes(want), encoding):
            pass
        return self._take(n)

    async def write(self, text: str) -> int:
        data = encode_clob(text, self.connection.encoding)
        self._reset_text()
        await self._write_pieces(_lob._split(data))
        return len(text)

    def chunks(self, size: int = CHUNK) -> AsyncIterator[str]:
        return _apieces(self.read, size, True)

    def __aiter__(self) -> AsyncIterator[str]:
        return self.chunks()


async def _apieces(read: Callable[[int], Awaitable[P]], size: int, short_ends: bool
                   ) -> AsyncIterator[P]:
    """``await read(size)`` until an empty piece, or (``short_ends``) a short one."""
    while True:
        piece = await read(size)
        if piece:
            yield piece
        if not piece or (short_ends and len(piece) < size):
            return


# --------------------------------------------------------------------------------------------
# Creating objects (binds) and fetching them (results)
# --------------------------------------------------------------------------------------------


async def _source_pieces(source: Any, chunk: int, encoding: str | None
                         ) -> AsyncIterator[bytes | memoryview]:
    """A file-like's data in pieces; ``encoding`` set: text is encoded (a CLOB)."""
    if not inspect.iscoroutinefunction(getattr(source, "read", None)):
        pieces = (_lob._text_pieces(source, chunk, encoding) if encoding is not None
                  else _lob._file_pieces(source, chunk))
        for piece in pieces:
            yield piece
        return
    import codecs

    encoder = codecs.getincrementalencoder(encoding or "ascii")("strict")
    while True:
        try:
            piece = await source.read(chunk)
        except Exception as exc:
            raise source_error(exc, source) from exc
        if not piece:
            if encoding is not None:
                tail = encoder.encode("", final=True)
                if tail:
                    yield tail
            return
        if isinstance(piece, str):
            if encoding is None:
                raise ProgrammingError(
                    "a BLOB needs a binary file-like object (this one gives str)")
            try:
                yield encoder.encode(piece)
            except UnicodeEncodeError as exc:
                raise DataError(f"CLOB text cannot be encoded in {encoding}: {exc}") from None
        else:
            yield bytes(piece)


async def create_lob(aconn: AsyncConnection, source: object, clob: bool) -> AsyncSmartLob:
    """Async twin of ``client.lob.create_lob`` (the caller holds the connection's lock)."""
    core = aconn._core
    if hasattr(source, "read") and inspect.iscoroutinefunction(source.read):
        pieces: afp.Pieces = _source_pieces(
            source, _fp.WRITE_MESSAGE // 4 if clob else _fp.WRITE_MESSAGE,
            core.encoding if clob else None)
    else:
        pieces = _lob.source_pieces(source, clob, core.encoding)
    locator, fd = _lob.created(await afp.call_held(aconn, _lob.SIG_CREATE, _lob.CREATE_ARGS))
    try:
        await afp.write_pieces_held(aconn, fd, pieces)
    except BaseException:
        if not core.closed and not core.broken:
            try:
                await afp.call_held(aconn, _lob.SIG_CLOSE, (fd,))
                await afp.call_held(aconn, _lob.SIG_RELEASE, (_lob._Udt("blob", locator),))
            except Exception:  # the original error matters; the session end frees it anyway
                pass
        raise
    await afp.call_held(aconn, _lob.SIG_CLOSE, (fd,))
    return (AsyncClob if clob else AsyncBlob)(aconn, locator)


async def materialize(lob: AsyncSmartLob, limit: int) -> object:
    """The value as bytes/str when it holds at most ``limit`` bytes, else the object (the
    caller holds the connection's lock)."""
    lob._held = True
    try:
        head = await lob._read_bytes(limit + 1)
        if len(head) > limit:
            lob._pos = 0
            if isinstance(lob, AsyncClob):
                lob._reset_text()
            return lob
        await lob.close()
    finally:
        lob._held = False
    return decode_clob(head, lob.connection.encoding) if isinstance(lob, AsyncClob) else head


async def wrap_rows(aconn: AsyncConnection, lobs: Sequence[tuple[int, bool]],
                    rows: list[tuple[Any, ...]], limit: int) -> list[tuple[Any, ...]]:
    out = []
    for row in rows:
        values = list(row)
        for i, clob in lobs:
            data = values[i]
            if data is None:
                continue
            locator = slo.decode_locator_field(data)
            lob = AsyncClob(aconn, locator) if clob else AsyncBlob(aconn, locator)
            values[i] = await materialize(lob, limit) if limit > 0 else lob
        out.append(tuple(values))
    return out


async def prepare_params(aconn: AsyncConnection, p: Prepared, values: Sequence[object]
                         ) -> list[object]:
    """Async twin of ``client.lob.prepare_params`` (the caller holds the lock)."""
    core = aconn._core
    if _lob.wants_describe(p, values):
        group = _lob.idescribe_group(core, p)
        await aconn._exchange([group])
        _lob.described(core, p, group[1])
    out = list(values)
    actions = list(_lob.param_actions(p, values))
    if any(action == "lob" and _lob._several_writes(values[i]) for i, action, _ in actions):
        await aconn._lob_txn_begin()
    for i, action, flag in actions:
        if action == "lob":
            out[i] = await create_lob(aconn, values[i], flag)
        elif inspect.iscoroutinefunction(getattr(values[i], "read", None)):
            raise ProgrammingError(
                f"parameter {i + 1}: a BYTE/TEXT value streams from a plain file-like object "
                "(its size is needed first); this one's read is a coroutine")
        else:
            out[i] = _bs.StreamedBlob(values[i], flag, core.encoding)
    return out


async def execute_streamed(cursor: AsyncCursor, p: Prepared, values: list[object]) -> None:
    """Async twin of ``client.blobstream.execute_streamed``: the statement goes out in pieces
    of about 512 KiB, each written before the next is read from its source."""
    aconn = cursor.connection
    core = aconn._core
    cur = cursor._cur
    plan = _bs.StreamedGroups(core, p, values, None)
    core._send(plan.prefix())
    sent = False
    changed: SourceChanged | None = None
    try:
        await aconn._flush()
        try:
            for parts in plan.parts():
                core._send(b"".join(parts))
                await aconn._flush()
        except SourceChanged as exc:
            changed = exc  # the group was ended without EXECUTE: in step
            await aconn._flush()
        sent = True
        if changed is None:
            core._send(plan.suffix())
            await aconn._flush()
        for r in plan.replies(core, tail=changed is None):
            await aconn._read(r)
    except BaseException:
        if not core.broken:
            core._fail(InterfaceError(_bs.SOURCE_FAILED if not sent else
                                      "a streamed statement was interrupted"))
        raise
    if changed is not None:
        if not p.cached:
            core._retire(p)
        raise changed
    try:
        cur._executed(p, plan.begin, plan.reply, plan.commit)
    finally:
        if not p.cached:
            core._retire(p)


# --------------------------------------------------------------------------------------------
# BYTE/TEXT readers
# --------------------------------------------------------------------------------------------


class AsyncBlobReader:
    """A BYTE value read from the server as it is consumed (``await r.read(n)``,
    ``readinto``, ``async for chunk in r``); the asyncio ``BlobReader``."""

    def __init__(self, aconn: AsyncConnection, stmt_id: int, descriptor: bytes) -> None:
        self.connection = aconn
        self._raw = _bs.BlobReader(aconn._core, stmt_id, descriptor)
        self.size = self._raw.size

    def __len__(self) -> int:
        return self.size

    @property
    def closed(self) -> bool:
        return self._raw.closed

    async def _start(self) -> None:
        raw = self._raw
        aconn = self.connection
        core = aconn._core
        core._check()
        if core._epoch != raw._epoch:
            raise InterfaceError("the BYTE/TEXT value belongs to a database no longer open")
        w = Writer()
        m.put_fetchblob(w, raw._stmt_id, raw._descriptor)
        await aconn._exchange([], tail=[bytes(w.buf)])
        core._active_stream = self
        raw._state = "streaming"

    async def _fill(self, view: memoryview) -> int:
        """The sync reader's resumable ``_fill`` steps, awaited."""
        return await self.connection._drive(self._raw._fill_steps(view))

    async def readinto(self, b: bytearray | memoryview) -> int:
        raw = self._raw
        if raw.closed:
            raise ValueError("I/O operation on a closed reader")
        async with self.connection._lock:
            if raw._state == "new":
                await self._start()
            if raw._error is not None:
                raise raw._error
            if raw._state == "done":
                return 0
            try:
                return await self._fill(memoryview(b).cast("B"))
            except BaseException:
                core = self.connection._core
                if not core.broken and raw._state == "streaming":
                    core._fail(InterfaceError("a BYTE/TEXT read was interrupted"))
                raise

    async def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all the rest when -1)."""
        out = bytearray()
        buf = bytearray(CHUNK if size < 0 else min(size, CHUNK))
        while size < 0 or len(out) < size:
            want = len(buf) if size < 0 else min(len(buf), size - len(out))
            got = await self.readinto(memoryview(buf)[:want])
            if not got:
                break
            out += buf[:got]
        return bytes(out)

    def chunks(self, size: int = CHUNK) -> AsyncIterator[bytes]:
        return _apieces(self.read, size, False)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.chunks()

    async def _adrain(self) -> None:
        """Before another request: read and drop the rest (as ``BlobReader._drain``)."""
        raw = self._raw
        sink = memoryview(bytearray(64 * 1024))
        dropped = raw._state == "streaming"
        while raw._state == "streaming":
            try:
                await self._fill(sink)
            except Exception:
                break
        self.connection._core._active_stream = None
        if dropped and raw._error is None:
            raw._error = InterfaceError(
                "the rest of this BYTE/TEXT value was dropped: the connection was used for "
                "another request before the reader reached its end")

    def _drain(self) -> None:
        raise InterfaceError("an asyncio BYTE/TEXT reader is drained by the asyncio connection")

    async def close(self) -> None:
        raw = self._raw
        aconn = self.connection
        if raw._state == "streaming" and not aconn.closed and not aconn.broken:
            async with aconn._lock:
                await self._adrain()
                raw._error = None
        raw.close()

    async def __aenter__(self) -> AsyncBlobReader:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class AsyncTextReader:
    """A TEXT value read as it is consumed: ``await r.read(n)`` counts characters."""

    def __init__(self, raw: AsyncBlobReader, encoding: str) -> None:
        self.raw = raw
        self._text = ClobText()
        self._text._reset_text()
        self._encoding = encoding

    async def read(self, size: int = -1) -> str:
        t = self._text
        while want := t._want(size):
            if not t._feed(await self.raw.read(want), self._encoding):
                break
        return t._take(size)

    def chunks(self, size: int = CHUNK) -> AsyncIterator[str]:
        return _apieces(self.read, size, False)

    def __aiter__(self) -> AsyncIterator[str]:
        return self.chunks()

    async def close(self) -> None:
        await self.raw.close()

    async def __aenter__(self) -> AsyncTextReader:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def wrap_blob_rows(aconn: AsyncConnection, p: Prepared, rows: list[tuple[Any, ...]]
                   ) -> list[tuple[Any, ...]]:
    """Rows with BYTE/TEXT descriptors turned into asyncio readers."""

    def make(descriptor: bytes, is_text: bool) -> object:
        reader = AsyncBlobReader(aconn, p.stmt_id, descriptor)
        return AsyncTextReader(reader, aconn.encoding) if is_text else reader

    return _bs.wrap_rows(p, rows, make)
