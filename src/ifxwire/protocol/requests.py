"""Request groups the driver sends after login, each built here and nowhere else.

Why a module of its own: the driver's operations (client/ and aio/) used to pack message codes by
hand (``b"\\x00\\x07\\x00\\x0c"`` for ``SQ_EXECUTE SQ_EOT`` in three files, ``*_GROUP`` constants
in two), so a change to a group had to be found in every copy. Each group is one constant or
one small function here, named after what it asks; the message bodies themselves come from
``messages.py`` (``put_*``). tests/unit/test_request_groups.py pins every group's bytes and
checks that client/ and aio/ pack no message code themselves.

The functions on the execute/fetch path are plain ``Struct.pack`` calls and joins, as the inline
code they replace was: no Writer, no per-call allocation beyond the result.
"""

from __future__ import annotations

import struct

from .codes import Msg
from .wire import Writer

__all__ = [
    "BEGIN_GROUP",
    "BLOB_END",
    "COMMIT_GROUP",
    "EOT",
    "EXECUTE_EOT",
    "EXIT_MESSAGE",
    "PING_GROUP",
    "ROLLBACK_GROUP",
    "bbind_head",
    "bind_head",
    "blob_chunk_head",
    "cidescribe_group",
    "execute_group",
    "file_error_answer",
    "file_write_answer",
    "id_group",
    "id_head",
    "nfetch_group",
    "put_file_read_chunk",
    "put_file_read_head",
    "query_open_group",
    "scroll_open_group",
    "sfetch_group",
]

_H = struct.Struct(">H")
_HH = struct.Struct(">HH")
_ID_HEAD = struct.Struct(">Hh")  # SQ_ID id
_ID_ACTION = struct.Struct(">HhHH")  # SQ_ID id <action> SQ_EOT
_OPEN_ID = struct.Struct(">HHh")  # SQ_OPEN SQ_ID id
_NFETCH = struct.Struct(">HiHH")  # SQ_NFETCH size 0 SQ_EOT
_NFETCH_GROUP = struct.Struct(">HhHiHH")  # SQ_ID id SQ_NFETCH size 0 SQ_EOT
_SFETCH_GROUP = struct.Struct(">HhHHiiH")  # SQ_ID id SQ_SFETCH kind index size SQ_EOT

#: ``SQ_EOT`` alone: ends a group whose body was built with ``messages.put_*``.
EOT = _H.pack(Msg.EOT)
#: ``SQ_EXECUTE SQ_EOT``: the tail of every ``ID [BIND] EXECUTE`` group (and of executemany's rows).
EXECUTE_EOT = _HH.pack(Msg.EXECUTE, Msg.EOT)
#: ``SQ_BEGIN SQ_EOT``: opens a transaction in a logged, non-ANSI database.
BEGIN_GROUP = _HH.pack(Msg.BEGIN, Msg.EOT)
#: ``SQ_CMMTWORK SQ_EOT``.
COMMIT_GROUP = _HH.pack(Msg.CMMTWORK, Msg.EOT)
#: ``SQ_RBWORK 0 SQ_EOT``: roll back the whole transaction (savepoint 0).
ROLLBACK_GROUP = struct.pack(">HHH", Msg.RBWORK, 0, Msg.EOT)
#: ``SQ_VERSION SQ_EOT``: the pool's liveness probe, the cheapest request the server answers
#: (no SQL is parsed).
PING_GROUP = _HH.pack(Msg.VERSION, Msg.EOT)
#: ``SQ_EXIT`` alone, no EOT (jdbc-protocol.md 2.9): the goodbye; the server answers SQ_EXIT.
EXIT_MESSAGE = _H.pack(Msg.EXIT)
#: ``SQ_BLOB 0``: the empty chunk that ends one streamed BYTE/TEXT value.
BLOB_END = _HH.pack(Msg.BLOB, 0)
_OPEN_EOT = _HH.pack(Msg.OPEN, Msg.EOT)
_SCROLL = _H.pack(Msg.SCROLL)
_HOLD = _H.pack(Msg.HOLD)


def id_head(stmt_id: int) -> bytes:
    """``SQ_ID id``: the start of a statement's execute group (the rows encoder takes it whole)."""
    return _ID_HEAD.pack(Msg.ID, stmt_id)


def id_group(stmt_id: int, action: int) -> bytes:
    """``SQ_ID id <action> SQ_EOT``: CLOSE, RELEASE (and any other one-word statement action)."""
    return _ID_ACTION.pack(Msg.ID, stmt_id, action, Msg.EOT)


def cidescribe_group(stmt_id: int) -> bytes:
    """``SQ_ID id SQ_CIDESCRIBE SQ_EOT``: describe the parameters, as JDBC's prepareStatement."""
    return _ID_ACTION.pack(Msg.ID, stmt_id, Msg.CIDESCRIBE, Msg.EOT)


def execute_group(stmt_id: int, bind: bytes) -> bytes:
    """``SQ_ID id [BIND] SQ_EXECUTE SQ_EOT``: run a prepared non-query."""
    return b"".join((_ID_HEAD.pack(Msg.ID, stmt_id), bind, EXECUTE_EOT))


def _curname(stmt_id: int, name: bytes) -> list[bytes]:
    parts = [_ID_HEAD.pack(Msg.ID, stmt_id), _HH.pack(Msg.CURNAME, len(name)), name]
    if len(name) & 1:
        parts.append(b"\x00")
    return parts


def query_open_group(
    stmt_id: int, name: bytes, bind: bytes, ret_type: bytes, fetch_size: int
) -> bytes:
    """``ID CURNAME [BIND] OPEN ID [RET_TYPE] NFETCH size 0 EOT``: open a forward cursor and
    fetch its first batch in the same round trip."""
    parts = _curname(stmt_id, name)
    parts += [bind, _OPEN_ID.pack(Msg.OPEN, Msg.ID, stmt_id), ret_type,
              _NFETCH.pack(Msg.NFETCH, fetch_size, 0, Msg.EOT)]
    return b"".join(parts)


def scroll_open_group(
    stmt_id: int, name: bytes, bind: bytes, scrollable: bool, withhold: bool, fetch_size: int
) -> bytes:
    """``ID CURNAME [BIND] [SCROLL] [HOLD] OPEN ...``: a scrollable cursor opens with a bare
    ``OPEN EOT`` (its rows come with SFETCH), a forward one fetches its first batch at once."""
    parts = _curname(stmt_id, name)
    parts.append(bind)
    if scrollable:
        parts.append(_SCROLL)
    if withhold:
        parts.append(_HOLD)
    if scrollable:
        parts.append(_OPEN_EOT)
    else:
        parts += [_OPEN_ID.pack(Msg.OPEN, Msg.ID, stmt_id),
                  _NFETCH.pack(Msg.NFETCH, fetch_size, 0, Msg.EOT)]
    return b"".join(parts)


def nfetch_group(stmt_id: int, fetch_size: int) -> bytes:
    """``SQ_ID id SQ_NFETCH size 0 SQ_EOT``: the next batch of an open forward cursor."""
    return _NFETCH_GROUP.pack(Msg.ID, stmt_id, Msg.NFETCH, fetch_size, 0, Msg.EOT)


def sfetch_group(stmt_id: int, kind: int, index: int, fetch_size: int) -> bytes:
    """``SQ_ID id SQ_SFETCH kind index size SQ_EOT``: one scroll move."""
    return _SFETCH_GROUP.pack(Msg.ID, stmt_id, Msg.SFETCH, kind, index, fetch_size, Msg.EOT)


def bind_head(count: int) -> bytes:
    """``SQ_BIND count``: the head of a parameter set (each value follows it)."""
    return _HH.pack(Msg.BIND, count)


def blob_chunk_head(size: int) -> bytes:
    """``SQ_BLOB size``: the head of one chunk of a streamed BYTE/TEXT value."""
    return _HH.pack(Msg.BLOB, size)


def bbind_head(count: int) -> bytes:
    """``SQ_BBIND count``: announces ``count`` streamed BYTE/TEXT values after a BIND."""
    return _HH.pack(Msg.BBIND, count)


# Answers to the server's SQ_FILE requests (LOAD/UNLOAD against client files, JDBC's
# ``receiveSQFILE``; docs/PROTOCOL.md has the fields).


def file_error_answer(code: int, long_sql: bool) -> bytes:
    """``SQ_ERR code 0 offset 0 SQ_EOT``: a client-file operation failed with errno-like ``code``
    (the offset is an i32 with capability bit 62, else an i16)."""
    w = Writer()
    w.u16(Msg.ERR).i16(code).i16(0)
    if long_sql:
        w.i32(0)
    else:
        w.i16(0)
    w.u16(0).u16(Msg.EOT)
    return bytes(w.buf)


def file_write_answer(total: int) -> bytes:
    """``SQ_FILE_WRITE total SQ_EOT``: all of a write request's data is in the file."""
    return struct.pack(">HiH", Msg.FILE_WRITE, total, Msg.EOT)


def put_file_read_head(w: Writer, left: int) -> None:
    """``SQ_FILE_READ left``: the answer to a read announces how many bytes follow."""
    w.u16(Msg.FILE_READ).i32(left)


def put_file_read_chunk(w: Writer, piece: bytes) -> None:
    """``SQ_FILE_READ size data[pad]``: one piece of the file (the answer ends with ``EOT``)."""
    w.u16(Msg.FILE_READ).u16(len(piece)).padded(piece)
