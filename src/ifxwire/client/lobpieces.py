"""A value's bytes for a smart large object, cut into SQ_LODATA write messages.

Bytes, str (a CLOB's text in the connection's code set) and file-like objects (plain, or with a
coroutine ``read`` for the asyncio driver) become pieces of at most ``WRITE_MESSAGE`` bytes,
read from the file as they are taken, so storing any size holds a bounded buffer. No session
and no I/O on the wire here: ``client/fastpath.py`` sends the pieces, ``client/lob.py`` and
``aio/lob.py`` choose what to send. Kept apart so that it imports nothing of the session
layers (tests/unit/test_driver_core.py keeps it out of the import circle).
"""

from __future__ import annotations

import codecs
import inspect
import io
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any

from ..errors import DataError, ProgrammingError
from .sources import source_error

__all__ = ["WRITE_MESSAGE", "Pieces", "binary_pieces", "decode_clob", "encode_clob", "slices",
           "source_pieces", "split_pieces"]

#: Bytes of data per SQ_LODATA write message: one round trip each, pipelined in a window
#: (``fastpath.WRITE_WINDOW``).
WRITE_MESSAGE = 1024 * 1024

#: What ``fastpath.write_pieces_op`` sends: each piece one SQ_LODATA write message.
Pieces = Iterable[bytes | bytearray | memoryview] | AsyncIterable[bytes | bytearray | memoryview]

_NOT_BINARY = "a BLOB needs a binary file-like object (this one gives str)"


def slices(view: memoryview, size: int) -> Iterator[memoryview]:
    """``view`` cut into consecutive parts of at most ``size`` bytes."""
    for at in range(0, len(view), size):
        yield view[at : at + size]


def decode_clob(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DataError(f"CLOB bytes are not valid {encoding}: {exc}") from None


def encode_clob(text: str, encoding: str) -> bytes:
    """``text`` in the code set; what cannot be encoded is a DataError (one message for a
    str value and for text read from a file)."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise DataError(f"CLOB text cannot be encoded in {encoding}: {exc}") from None


def _encode_piece(encoder: codecs.IncrementalEncoder, piece: str, encoding: str) -> bytes:
    """One piece of a text file through its incremental encoder (a character split across two
    reads stays whole), failing as ``encode_clob`` does."""
    try:
        return encoder.encode(piece)
    except UnicodeEncodeError as exc:
        raise DataError(f"CLOB text cannot be encoded in {encoding}: {exc}") from None


def split_pieces(data: bytes | bytearray | memoryview) -> Iterator[memoryview]:
    """``data`` in SQ_LODATA write messages of at most WRITE_MESSAGE bytes."""
    return slices(memoryview(data).cast("B"), WRITE_MESSAGE)


def source_pieces(source: object, clob: bool, encoding: str) -> Pieces:
    """The bytes of a value for a new object, in pieces of at most ``WRITE_MESSAGE`` (a
    file-like object is read as they are taken; one whose ``read`` is a coroutine gives an
    async iterable, for the asyncio driver)."""
    if isinstance(source, str):
        return split_pieces(encode_clob(source, encoding))
    if isinstance(source, (bytes, bytearray, memoryview)):
        return split_pieces(source)
    if hasattr(source, "read"):
        chunk = WRITE_MESSAGE // 4 if clob else WRITE_MESSAGE
        if inspect.iscoroutinefunction(source.read):
            return _async_pieces(source, chunk, encoding if clob else None)
        return _text_pieces(source, chunk, encoding) if clob else _file_pieces(source, chunk)
    raise ProgrammingError(
        f"cannot store a {type(source).__name__} in a {'CLOB' if clob else 'BLOB'}")


def binary_pieces(source: Any, chunk: int) -> Pieces:
    """A binary file-like's data in pieces (async ones when its ``read`` is a coroutine)."""
    if inspect.iscoroutinefunction(getattr(source, "read", None)):
        return _async_pieces(source, chunk, None)
    return _file_pieces(source, chunk)


def _read_source(read: Any, chunk: Any) -> Any:
    """One read of a file-like object; its failure becomes a DataError naming it (the
    original is the cause), so callers see one PEP 249 class whatever the object raised."""
    try:
        return read(chunk)
    except Exception as exc:
        raise source_error(exc, getattr(read, "__self__", None)) from exc


def _file_pieces(source: Any, chunk: int) -> Iterator[bytes | memoryview]:
    """A binary file-like object's data in pieces of ``chunk`` bytes. With ``readinto`` the
    pieces are views of one reused buffer, each valid until the next is taken (every consumer
    sends a piece before asking for the next)."""
    readinto = getattr(source, "readinto", None)
    if readinto is not None and not isinstance(source, io.TextIOBase):
        view = memoryview(bytearray(chunk))
        while True:
            got = 0
            while got < chunk:
                n = _read_source(readinto, view[got:])
                if n is None:
                    raise DataError("the file-like object has no data ready (non-blocking)",
                                    sqlstate="22000")
                if not n:
                    break
                got += n
            if not got:
                return
            yield view[:got]
            if got < chunk:
                return
    read = source.read
    while True:
        piece = _read_source(read, chunk)
        if not piece:
            return
        if isinstance(piece, str):
            raise ProgrammingError(_NOT_BINARY)
        yield piece


def _text_pieces(source: Any, chunk: int, encoding: str) -> Iterator[bytes]:
    encoder = codecs.getincrementalencoder(encoding)("strict")
    read = source.read
    while True:
        piece = _read_source(read, chunk)
        if not piece:
            tail = encoder.encode("", final=True)
            if tail:
                yield tail
            return
        if isinstance(piece, (bytes, bytearray)):
            yield bytes(piece)  # a binary file into a CLOB: already in the code set
            continue
        yield _encode_piece(encoder, piece, encoding)


async def _async_pieces(source: Any, chunk: int, encoding: str | None
                        ) -> AsyncIterator[bytes | memoryview]:
    """The data of a file-like whose ``read`` is a coroutine (aiofiles and similar);
    ``encoding`` set: text is encoded (a CLOB)."""
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
                raise ProgrammingError(_NOT_BINARY)
            yield _encode_piece(encoder, piece, encoding)
        else:
            yield bytes(piece)
