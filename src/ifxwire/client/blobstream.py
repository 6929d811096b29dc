"""BYTE and TEXT in constant memory: file-like parameters streamed up, readers streamed down.

Binding: a file-like object for a BYTE/TEXT parameter is sent as JDBC's ``setBinaryStream``
is (``IfxSqli.sendStreamBlob``): its descriptor with the size in SQ_BIND, then after the last
parameter ``SQ_BBIND n`` and, per BYTE/TEXT parameter in order, 1024-byte ``SQ_BLOB`` chunks and
an empty one — read from the object and sent as they are read, never held whole. The size must
be known first: a seekable object is measured, any other is spooled to a temporary file.

Reading: with ``cursor.blob_stream = True`` (or the connection's), BYTE/TEXT values come as
``BlobReader`` objects (TEXT: a text wrapper over one). The data is asked for only when the
reader is first read (``ID SQ_FETCHBLOB descriptor EOT``), and the ``SQ_BLOB`` chunks of the
reply are taken off the socket as the reader is read, so a value of any size holds one receive
buffer. While a reader is part way through its value the connection is busy with it: the next
request first reads the rest of that reply and drops it (reading on then raises).
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import DataError, InterfaceError
from ..protocol import messages as m
from ..protocol.codes import Msg, TypeCode
from ..protocol.gather import IOV_MAX
from ..protocol.requests import (
    BLOB_END,
    COMMIT_GROUP,
    EOT,
    EXECUTE_EOT,
    bbind_head,
    blob_chunk_head,
    id_head,
)
from ..protocol.wire import Writer, u16_at
from ..types import blobs as _blobs
from ..types.bind import BLOB_BIND_TYPES, _item
from ..types.values import Text
from .binds import bind_message
from .sources import SourceChanged, remaining, source_error, source_label
from .steps import FLUSH, Steps

if TYPE_CHECKING:
    # The session as this module needs it; the public Connection adds the PEP 249 surface
    # (and imports this module: naming it here would make an import circle).
    from .lifecycle import StatementSession as Connection
    from .statements import Prepared

__all__ = ["BlobReader", "StreamedBlob", "execute_streamed_steps", "reader_for"]

_T = TypeCode
_CHUNK = m.BLOB_UPLOAD_CHUNK
#: The buffer of ``BlobReader.read_steps`` (lob.CHUNK, the LOB objects' piece).
_READ = 1024 * 1024
_SPOOL = 1024 * 1024
#: Reads of at least this many bytes of a chunk go straight into the reader's buffer.
_DIRECT = 8192


class StreamedBlob:
    """A BYTE/TEXT parameter whose data is read from a file-like object while it is sent."""

    __slots__ = ("_descriptor", "label", "size", "source", "text")

    def __init__(self, source: Any, text: bool, encoding: str) -> None:
        self.text = text
        self.label = source_label(source)
        size = remaining(source)
        if size is None or _gives_text(source):
            source, size = _spool(source, encoding)
        if size > _blobs.BLOB_MAX:
            raise DataError(f"a BYTE/TEXT value holds at most 2 GiB - 1, not {size} bytes")
        self.source = source
        self.size = size
        self._descriptor = b""

    @classmethod
    def of(cls, value: object, encoding: str) -> StreamedBlob:
        """bytes / Text values of a statement that also streams become streamed too."""
        if isinstance(value, Text):
            return cls(io.BytesIO(value.encode(encoding)), True, encoding)
        return cls(io.BytesIO(bytes(value)), False, encoding)  # type: ignore[call-overload]

    def _ifx_bind_item(self, encoding: str) -> bytes:
        return _item(_T.TEXT if self.text else _T.BYTE, 0, self._descriptor)

    def frames(self, framer: _Framer) -> Iterator[list[Any]]:
        """The value as SQ_BLOB chunks, a block at a time: lists of buffers to send (valid
        until the next block is asked for: the framer's buffer is reused). A source that ends
        before the size announced in SQ_BIND, or still has data after it (a file that shrank
        or grew meanwhile), raises SourceChanged once what it gave has been framed."""
        left = self.size
        view = framer.view
        while left > 0:
            got = self._read_into(view[: min(len(view), left)])
            if not got:
                raise SourceChanged(self.label, self.size, self.size - left)
            left -= got
            yield framer.frame(got)
        if self._read_into(view[:1]):
            raise SourceChanged(self.label, self.size, self.size, more=True)

    def _read_into(self, view: memoryview) -> int:
        """Fill ``view`` from the source as far as it goes; the bytes read."""
        source = self.source
        readinto = getattr(source, "readinto", None)
        want = len(view)
        got = 0
        try:
            while got < want:
                if readinto is not None:
                    n = readinto(view[got:])
                else:
                    piece = source.read(want - got)
                    n = len(piece)
                    view[got : got + n] = piece
                if not n:
                    break
                got += n
        except Exception as exc:
            raise source_error(exc, source) from exc
        return got


class _Framer:
    """1024-byte SQ_BLOB chunks (what JDBC and informix-driver send, docs/PROTOCOL.md §9)
    without a copy or a Python call per chunk: one reused buffer the source is read into and
    a fixed list of (header, slice) pairs over it, which ``sendmsg`` gathers (one call per
    ``BLOCK`` bytes)."""

    #: Bytes per block: IOV_MAX buffers of (header, chunk) pairs.
    BLOCK = _CHUNK * (IOV_MAX // 2)

    def __init__(self) -> None:
        self.buf = bytearray(self.BLOCK)
        self.view = memoryview(self.buf)
        head = blob_chunk_head(_CHUNK)
        self.iov: list[Any] = []
        for at in range(0, self.BLOCK, _CHUNK):
            self.iov += (head, self.view[at : at + _CHUNK])

    def frame(self, n: int) -> list[Any]:
        """The buffers carrying the first ``n`` bytes of the buffer as SQ_BLOB chunks."""
        whole = n // _CHUNK
        parts = self.iov[: 2 * whole]
        rest = n - whole * _CHUNK
        if rest:
            parts += (blob_chunk_head(rest), self.view[whole * _CHUNK : n])
            if rest & 1:
                parts.append(b"\0")
        return parts


def _gives_text(source: Any) -> bool:
    return isinstance(source, io.TextIOBase)


def _spool(source: Any, encoding: str) -> tuple[Any, int]:
    """Copy a non-seekable (or text) object to a temporary file: constant memory, known size."""
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - the caller reads it, then drops it
    size = 0
    while True:
        try:
            piece = source.read(_SPOOL)
        except Exception as exc:
            spool.close()
            raise source_error(exc, source) from exc
        if not piece:
            break
        if isinstance(piece, str):
            piece = piece.encode(encoding)
        spool.write(piece)
        size += len(piece)
    spool.seek(0)
    return spool, size


def _group_parts(head: bytes, blobs: Sequence[StreamedBlob]) -> Iterator[list[Any]]:
    """The statement group: ``head`` (ID, SQ_BIND), SQ_BBIND, each blob's SQ_BLOB chunks and
    its empty SQ_BLOB, EXECUTE, EOT — as lists of buffers of about ``_Framer.BLOCK`` bytes,
    each valid until the next is taken."""
    framer = _Framer()
    lead = [head, bbind_head(len(blobs))]
    for index, blob in enumerate(blobs):
        try:
            for parts in blob.frames(framer):
                yield lead + parts
                lead = []
        except SourceChanged:
            # The chunks are self-delimiting: end this value and the others as they stand,
            # and the group without EXECUTE (BIND BBIND BLOB... EOT, the bind-only group
            # informix-driver sends): the wire stays in step and nothing runs.
            yield [*lead, *[BLOB_END] * (len(blobs) - index), EOT]
            raise
        lead.append(BLOB_END)
    yield [*lead, EXECUTE_EOT]


class StreamedGroups:
    """The requests of a statement with streamed BYTE/TEXT parameters and their replies: the
    deferred groups and a BEGIN go first, then the statement in pieces read from the sources,
    then a COMMIT (ANSI autocommit). The sync and asyncio drivers send them the same way."""

    def __init__(self, conn: Connection, p: Prepared, values: list[object],
                 adapters: Any) -> None:
        encoding = conn.encoding
        self.blobs: list[StreamedBlob] = []
        for i, v in enumerate(values):
            if isinstance(v, BLOB_BIND_TYPES):
                v = values[i] = StreamedBlob.of(v, encoding)
            if isinstance(v, StreamedBlob):
                v._descriptor = _blobs.bind_descriptor(v.size, conn._blob_width)
                self.blobs.append(v)
        self.head = id_head(p.stmt_id) + bind_message(
            values, encoding, adapters, conn._blob_width)
        self.groups: list[tuple[bytes, Any]] = []
        self.begin = conn._begin_reply(p, self.groups)
        self.reply = conn._reply()
        self.commit = None
        self.tail: list[tuple[bytes, Any]] = []
        if conn._ansi_autocommit():
            self.commit = conn._reply()
            self.tail.append((COMMIT_GROUP, self.commit))
        conn._check()
        self.deferred, conn._deferred = conn._deferred, []

    def prefix(self) -> bytes:
        return b"".join([*self.deferred, *(g for g, _ in self.groups)])

    def parts(self) -> Iterator[list[Any]]:
        """The statement group in blocks of buffers (each valid until the next is taken)."""
        return _group_parts(self.head, self.blobs)

    def suffix(self) -> bytes:
        return b"".join(g for g, _ in self.tail)

    def replies(self, conn: Connection, tail: bool = True) -> list[Any]:
        """Every reply to read, in order (``tail=False``: the statement's group was ended
        without EXECUTE, and the COMMIT after it was not sent)."""
        return ([conn._reply() for _ in self.deferred] + [r for _, r in self.groups]
                + [self.reply] + ([r for _, r in self.tail] if tail else []))


SOURCE_FAILED = "a BYTE/TEXT source failed while it was being sent"


def execute_streamed_steps(conn: Connection, p: Prepared, values: list[object], adapters: Any,
                           executed: Callable[..., None]) -> Steps[None]:
    """The statement's group goes out in blocks read from the sources as they are sent (a
    ``FLUSH`` step after each, so the asyncio loop writes it before the next is read: memory
    stays one block), then every reply is read; ``executed(p, begin, reply, commit)`` takes
    the result (the cursor's). A source that fails part way leaves the server waiting for the
    rest of the group: the connection is given up, cleanly."""
    plan = StreamedGroups(conn, p, values, adapters)
    conn._send(plan.prefix())
    sent = False
    changed: SourceChanged | None = None
    try:
        yield FLUSH
        try:
            for parts in plan.parts():
                conn._send_parts(parts)
                yield FLUSH
        except SourceChanged as exc:
            changed = exc  # the group was ended without EXECUTE: in step
        sent = True
        if changed is None:
            conn._send(plan.suffix())
        for r in plan.replies(conn, tail=changed is None):
            yield from conn._read_steps(r)
    except BaseException:
        if not conn.broken:
            conn._fail(InterfaceError(SOURCE_FAILED if not sent else
                                      "a streamed statement was interrupted"))
        raise
    if changed is not None:
        if not p.cached:
            conn._retire(p)
        raise changed
    try:
        executed(p, plan.begin, plan.reply, plan.commit)
    finally:
        if not p.cached:
            conn._retire(p)


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


class BlobReader(io.RawIOBase):
    """A BYTE (or, wrapped, TEXT) value read from the server as it is consumed."""

    def __init__(self, conn: Connection, stmt_id: int, descriptor: bytes) -> None:
        super().__init__()
        self._conn = conn
        self._stmt_id = stmt_id
        self._descriptor = descriptor
        self._epoch = conn._epoch
        self.size = _blobs.descriptor_size(descriptor)
        self._state = "new"  # new, streaming, done
        self._left = 0  # data bytes of the current SQ_BLOB still on the wire
        self._pad = 0
        self._error: Exception | None = None
        self._end: Any = None  # the reply that ends the value, while it is being read

    def readable(self) -> bool:
        return True

    def __len__(self) -> int:
        return self.size

    # The reader's work, shared with the asyncio reader (aio/lob.py), which awaits the steps.
    @property
    def unstarted(self) -> bool:
        return self._state == "new"

    @property
    def streaming(self) -> bool:
        """Part way through the value: the connection is busy with it."""
        return self._state == "streaming"

    def start_request(self) -> bytes:
        """The group that asks for the value (``ID SQ_FETCHBLOB descriptor EOT``), after
        the checks: an open connection, the database the value came from."""
        conn = self._conn
        conn._check()
        if conn._epoch != self._epoch:
            raise InterfaceError("the BYTE/TEXT value belongs to a database no longer open")
        w = Writer()
        m.put_fetchblob(w, self._stmt_id, self._descriptor)
        return bytes(w.buf)

    def started(self, owner: Any) -> None:
        """The request is sent: ``owner`` (this reader, or the asyncio one over it) is the
        connection's active stream until the value's end."""
        self._conn._active_stream = owner
        self._state = "streaming"

    def ready(self) -> bool:
        """Whether there is more to read; raises the error that ended the value."""
        if self._error is not None:
            raise self._error
        return self._state != "done"

    def drain_steps(self) -> Steps[None]:
        """Read and drop the rest (before another request). Reading on afterwards raises,
        rather than look like the end of the value."""
        sink = memoryview(bytearray(64 * 1024))
        dropped = self._state == "streaming"
        while self._state == "streaming":
            try:
                yield from self.fill_steps(sink)
            except Exception:
                break
        self._conn._active_stream = None
        if dropped and self._error is None:
            self._error = InterfaceError(
                "the rest of this BYTE/TEXT value was dropped: the connection was used for "
                "another request before the reader reached its end")

    def close_steps(self) -> Steps[None] | None:
        """What closing either driver's reader must read first, or None: the rest of a value
        read part way, on a usable connection (then dropped on purpose: nothing to report)."""
        conn = self._conn
        if self._state != "streaming" or conn.closed or conn.broken:
            return None
        return self._close_drain_steps()

    def _close_drain_steps(self) -> Steps[None]:
        yield from self.drain_steps()
        self._error = None

    def readinto(self, b: Any) -> int:
        conn = self._conn
        with conn._lock:
            n: int = conn._drive(self.readinto_steps(self, memoryview(b).cast("B")))
            return n

    def readinto_steps(self, owner: Any, out: memoryview) -> Steps[int]:
        """One ``readinto`` of either driver, without I/O: the first asks for the value
        (``start_request``, sent after the deferred groups, whose replies are read here;
        ``owner`` becomes the connection's active stream), then value bytes are copied into
        ``out`` (``fill_steps``). An interruption part way through the value breaks the
        session: the rest of it would be taken for the next request's reply."""
        if self.closed:
            raise ValueError("I/O operation on a closed reader")
        conn = self._conn
        if self._state == "new":
            yield from conn.prefix_steps([self.start_request()])
            self.started(owner)
        if not self.ready():
            return 0
        try:
            return (yield from self.fill_steps(out))
        except BaseException:
            if self._state == "streaming" and not conn.broken:
                conn.break_session(InterfaceError("a BYTE/TEXT read was interrupted"))
            raise

    def read_steps(self, owner: Any, size: int) -> Steps[bytes]:
        """Up to ``size`` bytes (all the rest when -1), by ``readinto_steps``: the asyncio
        reader's ``read`` (the sync one's comes from ``io.RawIOBase``)."""
        out = bytearray()
        buf = memoryview(bytearray(_READ if size < 0 else min(size, _READ)))
        while size < 0 or len(out) < size:
            want = len(buf) if size < 0 else min(len(buf), size - len(out))
            got = yield from self.readinto_steps(owner, buf[:want])
            if not got:
                break
            out += buf[:got]
        return bytes(out)

    def fill_steps(self, out: memoryview) -> Generator[int | memoryview, int, int]:
        """``_fill`` without I/O (steps as ``Connection._read_steps``; the asyncio reader
        awaits them). More bytes are asked for only when nothing was copied yet, so if the
        wait is given up (a cancellation) no progress is lost and the call can be repeated."""
        conn = self._conn
        t = conn._transport
        done = 0
        while done < len(out):
            if self._left:
                if t.start == t.end:
                    if done:
                        return done
                    want = min(self._left, len(out))
                    if want >= _DIRECT:
                        # Straight into the caller's buffer: one copy instead of two.
                        n = yield out[:want]
                        self._left -= n
                        return n
                    yield 1
                n = min(self._left, len(out) - done, t.end - t.start)
                out[done : done + n] = t.view[t.start : t.start + n]
                t.start += n
                self._left -= n
                done += n
                continue
            if self._pad:
                if t.end - t.start < 1:
                    if done:
                        return done
                    yield 1
                t.start += 1
                self._pad = 0
            if t.end - t.start < 4:
                if done:
                    return done
                if t.end - t.start < 2:
                    yield 2
                    continue
            code = u16_at(t.buf, t.start)[0]
            if code == Msg.BLOB:
                if t.end - t.start < 4:
                    yield 4
                    continue
                n = u16_at(t.buf, t.start + 2)[0]
                t.start += 4
                self._left = n
                self._pad = n & 1
                continue
            # Anything else ends the value: SQ_EOT, or SQ_ERR … SQ_EOT; read it as a reply
            # (kept, so a read interrupted for more bytes goes on where it stopped).
            if self._end is None:
                self._end = conn._reply()
            yield from conn._read_steps(self._end)
            reply, self._end = self._end, None
            self._state = "done"
            conn._active_stream = None
            if reply.error is not None:
                self._error = conn._server_error(reply.error)
                raise self._error
            return done
        return done

    def _drain(self) -> None:
        """Called by the connection before another request."""
        self._conn._drive(self.drain_steps())

    def close(self) -> None:
        steps = self.close_steps()
        if steps is not None:
            with self._conn._lock:
                self._conn._drive(steps)
        super().close()


def reader_for(conn: Connection, stmt_id: int, descriptor: bytes, text: bool) -> Any:
    """The value of one BYTE/TEXT cell: a BlobReader, or for TEXT a text reader over one."""
    raw = BlobReader(conn, stmt_id, descriptor)
    if not text:
        return raw
    return io.TextIOWrapper(io.BufferedReader(raw), encoding=conn.encoding)


def wrap_rows(p: Prepared, rows: list[tuple[Any, ...]],
              make: Callable[[bytes, bool], object]) -> list[tuple[Any, ...]]:
    """Rows with each non-NULL BYTE/TEXT descriptor replaced by ``make(descriptor, is_text)``
    (a reader of the sync or the asyncio driver)."""
    out = []
    for row in rows:
        values = list(row)
        for i, is_text in p.blobs:
            d = values[i]
            if d is None:
                continue
            values[i] = None if _blobs.descriptor_is_null(d) else make(d, is_text)
        out.append(tuple(values))
    return out
