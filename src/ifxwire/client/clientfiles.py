"""SQ_FILE from the driver's side: the server reads and writes files on the client.

``LOTOFILE(lob, 'file', 'client')`` and ``FILETOBLOB('file', 'client')`` make the server send
``SQ_FILE`` requests in the middle of its reply (docs/PROTOCOL.md §12); the driver answers each
against the local file system, as JDBC's ``receiveSQFILE`` does, and then reads on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from ..protocol import fastpath as fp
from ..protocol.requests import (
    EOT,
    file_error_answer,
    file_write_answer,
    put_file_read_chunk,
    put_file_read_head,
)
from ..protocol.wire import Writer
from .lobpieces import WRITE_MESSAGE
from .replies import Reply
from .sources import SourceChanged

if TYPE_CHECKING:
    from ..protocol.messages import Layout


class _Session(Protocol):
    """What answering SQ_FILE requests needs of the connection."""

    encoding: str
    _layout: Layout
    _client_file: Any
    _file_changed: Any

    def _send(self, data: bytes | bytearray) -> None: ...

    def _send_stream(self, messages: Iterator[bytes]) -> None: ...

__all__ = ["answer_file_request"]

#: Bytes per message of a client file's data (the size of a smart-LOB write message: sent
#: whole, then the next is read from the file).
_MESSAGE = WRITE_MESSAGE


# JDBC IfxSmBlob LO_O_* flags in an SQ_FILE open request.
_O_EXCL = 1
_O_APPEND = 2
#: Client error numbers JDBC reports (IfxSmBlob EBADF/ENOENT/EEXIST...).
_ENOENT, _EIO, _EBADF, _EEXIST = 2, 5, 9, 17


class _ClientFile:
    __slots__ = ("flags", "handle", "name", "offset")

    def __init__(self, name: str, flags: int, offset: int) -> None:
        self.name = name
        self.flags = flags
        self.offset = offset
        self.handle: Any = None  # open while a write request's data arrives


def _error_answer(conn: _Session, code: int) -> bytes:
    return file_error_answer(code, conn._layout.long_sql)


def answer_file_request(conn: _Session, reply: Reply) -> None:
    """Answer the SQ_FILE request a reply stopped at, against the local file system, as JDBC's
    ``receiveSQFILE`` does; the caller then reads the rest of the reply. A write request
    comes back here with each batch of its data, and is answered after its last."""
    req = reply.file_request
    assert req is not None
    if req.op == fp.FILE_WRITE:
        _write_batch(conn, reply, req)
        return
    reply.file_request = None
    state: _ClientFile | None = conn._client_file
    eot = EOT
    if req.op == fp.FILE_OPEN:
        name = req.name.decode(conn.encoding, errors="replace")
        if req.flags & _O_EXCL and os.path.exists(name):
            conn._send(_error_answer(conn, _EEXIST))
            return
        conn._client_file = _ClientFile(name, req.flags, req.offset)
        conn._file_changed = None  # a note left by an earlier exchange is not about this one
        conn._send(eot)
    elif req.op == fp.FILE_CLOSE:
        conn._client_file = None
        conn._send(eot)
    elif req.op == fp.FILE_READ:
        if state is None:
            conn._send(_error_answer(conn, _EBADF))
            return
        conn._send_stream(_file_answer(conn, state, req.bufsize or fp.FILE_CHUNK, req.amount))


def _write_batch(conn: _Session, reply: Reply, req: fp.FileRequest) -> None:
    """Write out the chunks taken so far; after the last, answer with the total size (or the
    error, which is kept until then: the server's data must still be read)."""
    state: _ClientFile | None = conn._client_file
    if state is None:
        req.error = req.error or _EBADF
    elif not req.error:
        try:
            if state.handle is None:
                mode = "r+b" if os.path.exists(state.name) else "wb"
                state.handle = open(state.name, mode)  # noqa: SIM115 - closed at the end
                if state.flags & _O_APPEND:
                    if state.offset:
                        state.handle.seek(state.offset)
                    else:
                        state.handle.seek(0, os.SEEK_END)
            for piece in req.data or ():
                state.handle.write(piece)
        except OSError:
            req.error = _EIO
    if req.data:
        req.data.clear()
    if not req.finished:
        return
    reply.file_request = None
    total = 0
    handle = state.handle if state is not None else None
    if handle is not None:
        state.handle = None  # type: ignore[union-attr]
        try:
            with handle:
                if not req.error:
                    handle.truncate()
                    total = handle.tell()
        except OSError:
            req.error = req.error or _EIO
    if req.error:
        conn._send(_error_answer(conn, req.error))
        return
    conn._send(file_write_answer(total))


def _file_answer(conn: _Session, state: _ClientFile, bufsize: int, amount: int
                 ) -> Iterator[bytes]:
    """The answer to an SQ_FILE read, in messages of about ``_MESSAGE`` bytes made as the
    file is read: the sync driver sends each at once, the asyncio one between awaits, so a
    file of any size is never held whole."""
    try:
        f = open(state.name, "rb")  # noqa: SIM115 - closed below
    except OSError:
        yield _error_answer(conn, _ENOENT)
        return
    with f:
        size = os.fstat(f.fileno()).st_size
        if state.offset > size:
            yield _error_answer(conn, _EBADF)
            return
        f.seek(state.offset)
        left = size - state.offset if amount < 0 else min(amount, size - state.offset)
        chunk = min(bufsize, 32766)
        w = Writer()
        put_file_read_head(w, left)
        announced = left
        while left > 0:
            piece = f.read(min(chunk, left))
            if not piece:
                # The file shrank since its size was announced: the server refuses the short
                # answer (-9815); the error the caller gets says by how much.
                conn._file_changed = SourceChanged(f"client file {state.name!r}", announced,
                                                   announced - left)
                break
            put_file_read_chunk(w, piece)
            left -= len(piece)
            if len(w.buf) >= _MESSAGE:
                yield bytes(w.buf)
                w.buf.clear()
        w.raw(EOT)
        yield bytes(w.buf)
