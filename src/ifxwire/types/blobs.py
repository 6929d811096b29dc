"""BYTE and TEXT (legacy "simple large objects"): the descriptor that stands in for the data.

A BYTE or TEXT value never travels inside a tuple or a bind item. In its place goes a fixed-size
descriptor; the data follows separately (jdbc-protocol.md 3.4 and 4.6):

* reading: the tuple holds the descriptor, and the client asks for the data with
  ``SQ_ID id SQ_FETCHBLOB <descriptor> SQ_EOT``; the server answers ``SQ_BLOB`` chunks;
* binding: the bind item's data is a descriptor carrying the size, and the data follows the
  whole SQ_BIND as ``SQ_BBIND n`` then, per blob, ``SQ_BLOB`` chunks and an empty ``SQ_BLOB``.

The layout below is what IBM's JDBC 15.0.0.1 reads and writes (``IfxBlob.fromIfx``,
``toIfx``, ``toIfxTuple``; bytecode read with ``javap -c``, docs/PROTOCOL.md section 9):

==========  ======  ==========================================================================
offset      size    meaning
==========  ======  ==========================================================================
8           i32     first byte (1); JDBC's length is ``end - start + 1``
12          i32     last byte (= size; 0 for an empty value)
16 (32)     i32     size in bytes; at 32 when long row ids (SQ_PROTOCOLS bit 70) are in force
38          i16     flags; bit 0 set = NULL (JDBC writes byte 39 = 1)
==========  ======  ==========================================================================

The descriptor is 56 bytes, or 68 with long row ids. Every other byte is opaque to clients,
which echo the descriptor back unchanged in SQ_FETCHBLOB. Our server keeps a handle to the
data at offset 20 (``server/blobs.py``); a real server keeps its blobspace address there.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import replace

from ..protocol.codes import TypeCode
from ..protocol.columns import ColumnDesc
from ..protocol.messages import BLOB_DESCRIPTOR_SIZE, LONG_BLOB_DESCRIPTOR_SIZE

__all__ = [
    "BLOB_DESCRIPTOR_WIDTH",
    "LONG_BLOB_DESCRIPTOR_WIDTH",
    "bind_descriptor",
    "blob_columns",
    "descriptor_is_null",
    "descriptor_size",
    "null_descriptor",
    "server_descriptor",
    "widen_blob_columns",
]

BLOB_DESCRIPTOR_WIDTH = BLOB_DESCRIPTOR_SIZE  # one definition, in the protocol layer
LONG_BLOB_DESCRIPTOR_WIDTH = LONG_BLOB_DESCRIPTOR_SIZE
#: Largest BYTE/TEXT value: the size field is a signed 32-bit integer.
BLOB_MAX = 2**31 - 1

_I32 = struct.Struct(">i")
_RANGE = struct.Struct(">ii")  # first byte, last byte
_U32 = struct.Struct(">I")
_FLAGS_OFFSET = 38
_NULL_FLAG = 1
_HANDLE_OFFSET = 20
_BLOB_TYPES = (TypeCode.BYTE, TypeCode.TEXT)


def _size_offset(width: int) -> int:
    if width == BLOB_DESCRIPTOR_WIDTH:
        return 16
    if width == LONG_BLOB_DESCRIPTOR_WIDTH:
        return 32
    raise ValueError(f"a BYTE/TEXT descriptor is 56 or 68 bytes, not {width}")


def _check_size(size: int) -> None:
    if not 0 <= size <= BLOB_MAX:
        raise ValueError(f"a BYTE/TEXT value holds at most {BLOB_MAX} bytes, not {size}")


def bind_descriptor(size: int, width: int = BLOB_DESCRIPTOR_WIDTH) -> bytes:
    """The descriptor a client binds: zeros except the size (what JDBC's ``toIfx`` sends)."""
    _check_size(size)
    d = bytearray(width)
    _I32.pack_into(d, _size_offset(width), size)
    return bytes(d)


def null_descriptor(width: int = BLOB_DESCRIPTOR_WIDTH) -> bytes:
    """A NULL BYTE/TEXT in a tuple: zeros with the NULL flag (JDBC ``toIfxTuple``)."""
    _size_offset(width)
    d = bytearray(width)
    d[_FLAGS_OFFSET + 1] = _NULL_FLAG
    return bytes(d)


def server_descriptor(size: int, handle: int, width: int = BLOB_DESCRIPTOR_WIDTH) -> bytes:
    """A tuple's descriptor for ``size`` bytes the server can find again by ``handle``."""
    _check_size(size)
    d = bytearray(width)
    _RANGE.pack_into(d, 8, 1, size)
    _I32.pack_into(d, _size_offset(width), size)
    _U32.pack_into(d, _HANDLE_OFFSET, handle)
    return bytes(d)


def descriptor_is_null(descriptor: bytes | bytearray | memoryview) -> bool:
    return bool(descriptor[_FLAGS_OFFSET + 1] & _NULL_FLAG)


def descriptor_size(descriptor: bytes | bytearray | memoryview) -> int:
    """The size field, from the offset the descriptor's width implies."""
    return int(_I32.unpack_from(descriptor, _size_offset(len(descriptor)))[0])


def descriptor_handle(descriptor: bytes | bytearray | memoryview) -> int:
    """The server handle of a descriptor made by :func:`server_descriptor`."""
    return int(_U32.unpack_from(descriptor, _HANDLE_OFFSET)[0])


def blob_columns(columns: Sequence[ColumnDesc]) -> tuple[tuple[int, bool], ...]:
    """``(index, is_text)`` of every BYTE/TEXT column."""
    return tuple(
        (i, c.base == TypeCode.TEXT) for i, c in enumerate(columns) if c.base in _BLOB_TYPES
    )


def widen_blob_columns(columns: list[ColumnDesc], width: int) -> list[ColumnDesc]:
    """The columns as described on this connection: BYTE/TEXT take the descriptor's width."""
    if not any(c.base in _BLOB_TYPES for c in columns):
        return columns
    out = []
    for c in columns:
        if c.base in _BLOB_TYPES and c.enclen != width:
            c = replace(c, enclen=width)
        out.append(c)
    return out
