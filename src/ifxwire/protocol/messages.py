"""Every SQLI message after login: build and parse, in both directions.

Client requests are built by appending to a ``Writer`` (a whole group goes out in one send) and
parsed by the server with ``read_client_message``.  Server replies are built by the ``put_*``
functions and parsed by the driver with ``read_server_message``.  Layout switches that depend on
the negotiated SQ_PROTOCOLS bits live in ``Layout``; see docs/PROTOCOL.md for each message's
evidence.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..types.numeric import decode_int8, encode_int8
from .codes import (
    CAP_BIGINT,
    CAP_FOUR_BYTE_OFFSETS,
    CAP_LARGE_TUPLE,
    CAP_LONG_ROWID,
    CAP_NAMED_PARAMETERS,
    CAP_REMOVE_64K,
    CAP_TWO_GB_FETCH,
    NAMED_IN_BIND,
    InfoType,
    Msg,
    capability_set,
)
from .columns import ColumnDesc
from .wire import NeedMore, ProtocolViolation, Reader, Writer, i16_at, u16_at, u32_at


@dataclass(frozen=True, slots=True)
class Layout:
    """Field widths fixed by the capabilities both sides agreed on.

    A feature is in force when the server enables it and the client offered it; informix-driver
    (which always uses the u32 SQL length and i32 error offset) works against real servers for
    exactly this reason (peer-informix-driver.md 2.3/2.4).
    """

    long_sql: bool = False  # bit 62: u32 SQL text length, i32 SQ_ERR offset
    large_tuple: bool = False  # bit 69: i32 tuple size in SQ_DESCRIBE
    long_rowid: bool = False  # bit 70: i64 rows / rowid in SQ_DONE
    bigint: bool = True  # bit 54: SQ_INSERTDONE carries an i64 bigserial
    named_params: bool = False  # bit 52: SQ_IDESCRIBE carries a flags short
    long_offsets: bool = True  # bit 50: SQ_DESCRIBE's name-table size and name offsets are i32
    long_fetch: bool = True  # bit 63: SQ_NFETCH's buffer size is an i32

    @classmethod
    def negotiate(cls, server_mask: bytes, client_mask: bytes) -> Layout:
        both = capability_set(server_mask) & capability_set(client_mask)
        return cls(
            long_sql=CAP_REMOVE_64K in both,
            large_tuple=CAP_LARGE_TUPLE in both,
            long_rowid=CAP_LONG_ROWID in both,
            bigint=CAP_BIGINT in both,
            named_params=CAP_NAMED_PARAMETERS in both,
            long_offsets=CAP_FOUR_BYTE_OFFSETS in both,
            long_fetch=CAP_TWO_GB_FETCH in both,
        )


# --------------------------------------------------------------------------------------------
# Client -> server: builders (used by the driver)
# --------------------------------------------------------------------------------------------


def put_sql(w: Writer, sql: bytes, layout: Layout) -> None:
    if layout.long_sql:
        w.longstr(sql)
    else:
        if len(sql) > 0xFFFF:
            raise ValueError(f"SQL text of {len(sql)} bytes exceeds 65535 without bit 62")
        w.charstr(sql)


def put_prepare(w: Writer, sql: bytes, nparams: int, layout: Layout) -> None:
    """PREPARE + NDESCRIBE + WANTDONE, the grouping both JDBC and informix-driver send."""
    w.u16(Msg.PREPARE).u16(nparams)
    put_sql(w, sql, layout)
    w.u16(Msg.NDESCRIBE).u16(Msg.WANTDONE)


def put_command(w: Writer, sql: bytes, layout: Layout) -> None:
    """COMMAND + NDESCRIBE + EXECUTE + RELEASE: JDBC's executeUpdate grouping."""
    w.u16(Msg.COMMAND).u16(0)
    put_sql(w, sql, layout)
    w.u16(Msg.NDESCRIBE).u16(Msg.EXECUTE).u16(Msg.RELEASE)


def put_id(w: Writer, stmt_id: int) -> None:
    w.u16(Msg.ID).i16(stmt_id)


def put_curname(w: Writer, name: bytes) -> None:
    w.u16(Msg.CURNAME).charstr(name)


_RET_TYPE_BY_XID = {3: 46, 4: 47, 1: 43, 5: 45}  # IMPEXP, IMPEXPBIN, LVARCHAR, BOOLEAN


def ret_type_message(columns: Sequence[ColumnDesc], encoding: str) -> bytes:
    """SQ_RET_TYPE as JDBC's ``IfxSqli.sendType`` builds it [B]: direction 1 (fetch), the
    column count, then per column its type, and for variable-length columns other than
    VARCHAR/NVARCHAR the type the client wants instead -- 43/45/46/47 by extended id (or the
    source type of a DISTINCT), 44 SENDRECV otherwise (ROW and collections) -- with owner and
    name (empty for 43), then the encoded length. Asking for SENDRECV is what makes a server
    send ROW/collection values in binary (docs/PROTOCOL.md §13)."""
    w = Writer()
    w.u16(Msg.RET_TYPE).u16(1).u16(len(columns))
    for col in columns:
        base = col.base
        variable = (base in (13, 16) or base in NAMED_IN_BIND
                    or bool(col.type & 0x0800))
        t = base
        if variable and base not in (13, 16):
            key = col.source_type if col.type & 0x0800 else col.xid
            t = _RET_TYPE_BY_XID.get(key, 44)
        w.u16(t)
        if t == 43:
            w.charstr(b"").charstr(b"")
        elif variable and t not in (13, 16):
            w.charstr(col.owner.encode(encoding)).charstr(col.type_name.encode(encoding))
        w.i32(col.enclen)
    return bytes(w.buf)


def put_nfetch(w: Writer, size: int) -> None:
    w.u16(Msg.NFETCH).i32(size).u16(0)


def put_protocols(w: Writer, mask: bytes) -> None:
    w.u16(Msg.PROTOCOLS).u16(len(mask)).padded(mask)


def put_info_env(w: Writer, env: Sequence[tuple[bytes, bytes]]) -> None:
    """SQ_INFO / INFO_ENV with the totals JDBC computes (jdbc-protocol.md 2.3)."""

    def even(n: int) -> int:
        return n + (n & 1)

    total = 4 + sum(even(len(k)) + even(len(v)) + 4 for k, v in env) + 2
    max_name = even(max((len(k) for k, _ in env), default=0))
    max_value = even(max((len(v) for _, v in env), default=0))
    w.u16(Msg.INFO).u16(InfoType.ENV).u16(total).u16(max_name).u16(max_value)
    for k, v in env:
        w.charstr(k).charstr(v)
    w.u16(0).u16(InfoType.DONE)


def put_dbopen(w: Writer, name: bytes) -> None:
    w.u16(Msg.DBOPEN).charstr(name).u16(0)


def put_rbwork(w: Writer) -> None:
    # The savepoint short is required: without it a real server waits for two more bytes
    # (peer-informix-driver.md 2.4).
    w.u16(Msg.RBWORK).u16(0)


def put_eot(w: Writer) -> None:
    w.u16(Msg.EOT)


# SQ_FETCHBLOB carries the BYTE/TEXT descriptor: 56 bytes, 68 with long row ids (bit 70).
BLOB_DESCRIPTOR_SIZE = 56
LONG_BLOB_DESCRIPTOR_SIZE = 68


def blob_descriptor_size(layout: Layout) -> int:
    """BYTE/TEXT descriptor size on a connection: 68 bytes with long row ids, else 56."""
    return LONG_BLOB_DESCRIPTOR_SIZE if layout.long_rowid else BLOB_DESCRIPTOR_SIZE


#: Client BYTE/TEXT uploads go in chunks of this size: what JDBC (``sendStreamBlob``) and
#: informix-driver send, so a real server has seen exactly this.
BLOB_UPLOAD_CHUNK = 1024
#: Server SQ_BLOB chunks stay below 32768: JDBC reads the length as a signed short.
BLOB_REPLY_CHUNK = 32766


_BLOB_HEAD = struct.Struct(">HH")


def put_blob_chunks(w: Writer, data: bytes | bytearray | memoryview, chunk: int) -> None:
    """``SQ_BLOB u16 n, data, pad`` for each ``chunk``-sized piece of ``data`` (none if empty)."""
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data.cast("B")
    n = len(view)
    whole = n - n % chunk
    if whole and not chunk & 1:
        # Whole even-sized chunks need no pad: one join instead of three writes each (a 1 GiB
        # BYTE upload is a million chunks).
        head = _BLOB_HEAD.pack(Msg.BLOB, chunk)
        parts: list[bytes | memoryview] = []
        for at in range(0, whole, chunk):
            parts.append(head)
            parts.append(view[at : at + chunk])
        w.raw(b"".join(parts))
    else:
        whole = 0
    for at in range(whole, n, chunk):
        piece = view[at : at + chunk]
        w.u16(Msg.BLOB).u16(len(piece)).padded(piece)


def put_bbind(w: Writer, blobs: Sequence[bytes | bytearray | memoryview]) -> None:
    """The BYTE/TEXT data after an SQ_BIND: ``SQ_BBIND n``, then per blob its chunks and an
    empty ``SQ_BLOB`` (JDBC ``sendBlob``/``sendStreamBlob``, jdbc-protocol.md 3.4)."""
    w.u16(Msg.BBIND).u16(len(blobs))
    for data in blobs:
        put_blob_chunks(w, data, BLOB_UPLOAD_CHUNK)
        w.u16(Msg.BLOB).u16(0)


def put_fetchblob(w: Writer, stmt_id: int, descriptor: bytes) -> None:
    """``SQ_ID id SQ_FETCHBLOB descriptor SQ_EOT``: ask for one BYTE/TEXT value's data."""
    w.u16(Msg.ID).i16(stmt_id).u16(Msg.FETCHBLOB).padded(descriptor).u16(Msg.EOT)


# --------------------------------------------------------------------------------------------
# Client -> server: parsed form (used by the server)
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class ClientMsg:
    """One parsed client message; only the fields its code uses are set."""

    code: int
    offset: int
    sql: bytes = b""
    number: int = 0  # PREPARE numqmarks, ID statement id, NFETCH size, DBOPEN flags, ...
    name: bytes = b""  # CURNAME, DBOPEN database
    data: bytes = b""  # PROTOCOLS mask, BLOB chunk, FETCHBLOB descriptor
    env: dict[str, str] = field(default_factory=dict)
    extra: tuple[int, ...] = ()  # SFETCH (scroll type, index, size); RET_TYPE column types
    bind_start: int = 0  # BIND: where its parameter bytes start in the buffer
    bind_end: int = 0
    item: object = None  # GETROUTINE, EXFPROUTINE, LODATA: the parsed request (fastpath.py)


# Messages with no payload after the code.
_BARE = frozenset(
    {
        Msg.OPEN,
        Msg.EXECUTE,
        Msg.CLOSE,
        Msg.RELEASE,
        Msg.EOT,
        Msg.CMMTWORK,
        Msg.NDESCRIBE,
        Msg.SCROLL,
        Msg.DBLIST,
        Msg.BEGIN,
        Msg.DBCLOSE,
        Msg.HOLD,
        Msg.WANTDONE,
        Msg.VERSION,
        Msg.EXIT,
        Msg.AUTOFREE,
        Msg.CIDESCRIBE,
        Msg.BATCHSTART,
        Msg.BATCHEND,
        Msg.ACK,
    }
)
#: The client messages that are their code alone.
BARE_CODES = _BARE


_FASTPATH = frozenset({Msg.GETROUTINE, Msg.EXFPROUTINE, Msg.LODATA, Msg.CFPDESCRIBE,
                       Msg.FPARAM})

# Value widths of fixed-size bind types; -2 = u16 length prefix, -4 = u32 length prefix.
_BIND_WIDTH = {1: 2, 2: 4, 3: 8, 4: 4, 6: 4, 7: 4, 17: 10, 18: 10, 52: 8, 53: 8}
_BIND_WIDTH.update(dict.fromkeys((0, 5, 8, 10, 13, 14, 15, 16), -2))
_BIND_WIDTH.update(dict.fromkeys((40, 41, 43, 44, 45), -4))
# ROW and collections: i32 length + value (J§3.4; [B] IfxSqli.sendBind writes toIfx() padded).
# JDBC binds a java.util.Collection as SENDRECV 44, named e.g. "multiset (  int  not null) ",
# with the same i32 length + value (our trace of JDBC 15 setObject; docs/PROTOCOL.md §13).
_BIND_WIDTH.update(dict.fromkeys((19, 20, 21, 22), -4))
_BIND_WIDTH.update(dict.fromkeys((11, 12), BLOB_DESCRIPTOR_SIZE))


def skip_bind_params(
    buf: bytes | bytearray | memoryview,
    pos: int,
    end: int,
    n: int,
    blob_width: int = BLOB_DESCRIPTOR_SIZE,
) -> int:
    """Find where ``n`` SQ_BIND parameters (jdbc-protocol.md 3.4) end, without decoding them.

    The server decodes the values afterwards; this only frames the message, so it reads the
    buffer directly (it runs once per row of a pipelined executemany). ``blob_width`` is the
    size of a BYTE/TEXT descriptor on this connection (68 with long row ids).
    """
    for _ in range(n):
        at = pos
        if pos + 2 > end:
            raise NeedMore
        base = buf[pos + 1]  # low byte of the i16 type: the flags live in the high byte
        pos += 2
        if base in NAMED_IN_BIND:
            k = 0
            for _name in range(2):  # CHARSTR owner, CHARSTR type name
                if pos + 2 > end:
                    raise NeedMore
                k = u16_at(buf, pos)[0]
                pos += 2 + k + (k & 1)
            if k == 0 and (base == 41 or base == 45):
                # informix-driver bound bool as (45, ind, prec, 01) until 2026.08.31.1: a real
                # server reads a type name there and stops answering (41 the same). Refused at
                # once, by name, rather than misread (docs/PROTOCOL.md "Field reports").
                raise ProtocolViolation(
                    f"SQ_BIND: a type-{base} (BOOLEAN) item without its type name; real "
                    "servers stop answering such a bind. Bind 't'/'f' as CHAR, or type 45 "
                    "named 'boolean' as JDBC does", at)
        if pos + 4 > end:
            raise NeedMore
        indicator = i16_at(buf, pos)[0]
        pos += 4
        if indicator == -1 or indicator == -2:
            continue
        if indicator != 0:
            raise ProtocolViolation(f"SQ_BIND: indicator {indicator}", at)
        width = blob_width if base == 11 or base == 12 else _BIND_WIDTH.get(base)
        if width is None:
            raise ProtocolViolation(f"SQ_BIND: parameter type {base} is not supported", at)
        if width == -2:
            if pos + 2 > end:
                raise NeedMore
            width = u16_at(buf, pos)[0]
            pos += 2
        elif width == -4:
            if pos + 4 > end:
                raise NeedMore
            width = u32_at(buf, pos)[0]
            pos += 4
        pos += width + (width & 1)
    if pos > end:
        raise NeedMore
    return pos


def read_client_message(r: Reader, layout: Layout) -> ClientMsg:
    """Parse one client message at ``r.pos`` (raises NeedMore, leaving the caller to rewind)."""
    at = r.pos
    code = r.u16()
    m = ClientMsg(code, at)
    if code in _BARE:
        return m
    if code == Msg.ID:
        m.number = r.i16()
    elif code == Msg.PREPARE or code == Msg.COMMAND:
        m.number = r.u16()
        m.sql = r.longstr() if layout.long_sql else r.charstr()
    elif code == Msg.CURNAME:
        m.name = r.charstr()
    elif code == Msg.BIND:
        m.number = r.u16()
        m.bind_start = r.pos
        r.pos = skip_bind_params(r.buf, r.pos, r.end, m.number, blob_descriptor_size(layout))
        m.bind_end = r.pos
    elif code == Msg.NFETCH:
        m.number = r.i32() if layout.long_fetch else r.i16()
        r.u16()
    elif code == Msg.RBWORK:
        m.number = r.u16()
    elif code == Msg.SFETCH:
        m.extra = (r.u16(), r.i32(), r.i32())
    elif code == Msg.DBOPEN:
        m.name = r.charstr()
        m.number = r.u16()
    elif code == Msg.PROTOCOLS or code == Msg.RESPONSE:
        m.data = r.padded(r.u16())
    elif code == Msg.INFO:
        _read_info(r, m)
    elif code == Msg.RET_TYPE:
        direction = r.u16()
        types = [direction]
        for _ in range(r.u16()):
            t = r.i16()
            if 43 <= (t & 0xFF) <= 47:
                r.charstr()
                r.charstr()
            r.i32()
            types.append(t)
        m.extra = tuple(types)
    elif code == Msg.FETCHBLOB:
        m.data = r.raw(blob_descriptor_size(layout))
    elif code == Msg.BLOB:
        m.data = r.padded(r.u16())
    elif code == Msg.BBIND:
        m.number = r.u16()
    elif code == Msg.SVPT_SET:
        m.name = r.charstr()
        m.number = r.u16()  # 1 = UNIQUE
    elif code == Msg.SVPT_RELEASE or code == Msg.SVPT_ROLLBACK:
        m.name = r.charstr()
    elif code in _FASTPATH:
        from . import fastpath  # the fast-path module builds on this one

        if code == Msg.GETROUTINE:
            m.item = fastpath.read_getroutine(r, layout)
        elif code == Msg.EXFPROUTINE:
            m.item = fastpath.read_exfproutine(r, layout)
        elif code == Msg.CFPDESCRIBE:
            m.item = fastpath.read_cfpdescribe(r, layout)
        elif code == Msg.FPARAM:
            fastpath.read_fparam(r)
        else:  # LODATA: only the header; a write's data chunks are streamed by the session
            m.item = fastpath.read_lodata(r)
    else:
        raise ProtocolViolation(f"unknown client message code {code}", at)
    return m


def _read_info(r: Reader, m: ClientMsg) -> None:
    while True:
        at = r.pos
        kind = r.u16()
        if kind == InfoType.DONE:
            return
        if kind != InfoType.ENV:
            raise ProtocolViolation(f"SQ_INFO: unsupported info type {kind}", at)
        r.u16()
        r.u16()
        r.u16()
        while True:
            name = r.charstr()
            if not name:
                break
            m.env[name.decode("iso-8859-1")] = r.charstr().decode("iso-8859-1")


# --------------------------------------------------------------------------------------------
# Server -> client: builders (used by the server)
# --------------------------------------------------------------------------------------------


def put_describe(
    w: Writer,
    stmt_type: int,
    stmt_id: int,
    columns: Sequence[ColumnDesc],
    tuple_size: int,
    layout: Layout,
    cost: int = 0,
    encoding: str = "iso-8859-1",
) -> None:
    names = [c.name.encode(encoding) for c in columns]
    table = b"".join(n + b"\0" for n in names)
    w.u16(Msg.DESCRIBE).i16(stmt_type).i16(stmt_id).i32(cost)
    if layout.large_tuple:
        w.i32(tuple_size)
    else:
        w.i16(min(tuple_size, 0x7FFF))
    long_offsets = layout.long_offsets
    w.i16(len(columns))
    if long_offsets:
        w.i32(len(table))
    else:
        w.i16(len(table))
    index = 0
    for c, n in zip(columns, names, strict=False):
        if long_offsets:
            w.i32(index)
        else:
            w.i16(index)
        w.i32(c.start).i16(c.type).i32(c.xid)
        w.charstr(c.owner.encode(encoding)).charstr(c.type_name.encode(encoding))
        w.i16(c.reference).i16(c.alignment).i32(c.source_type).i32(c.enclen)
        index += len(n) + 1
    w.padded(table)


def put_idescribe(
    w: Writer, params: Sequence[ColumnDesc], layout: Layout, encoding: str = "iso-8859-1"
) -> None:
    w.u16(Msg.IDESCRIBE).i16(len(params))
    if layout.named_params and params:
        # With named parameters in force a flags short follows (0: no names, not a UDR);
        # jdbc-protocol.md 3.3 recvIDescribe.
        w.i16(0)
    for p in params:
        w.i16(p.type).i32(p.xid)
        w.charstr(p.owner.encode(encoding)).charstr(p.type_name.encode(encoding))
        w.i16(p.reference).i16(p.alignment).i32(p.source_type).i32(p.enclen)


def put_tuple(w: Writer, payload: bytes | bytearray) -> None:
    w.u16(Msg.TUPLE).i16(0).i32(len(payload)).padded(payload)


# SQ_DONE and SQ_COST packed whole: the reply to every statement carries them, and one pack
# costs a fifth of the field-at-a-time Writer calls (issue 26, select_one_row). The bytes are
# the same: code, warnings, rows, rowid (both 8 bytes with long_rowid), serial; tests/unit/
# test_done_cost.py compares them with the field-at-a-time form.
_DONE_LONG = struct.Struct(">Hhqqi")
_DONE_SHORT = struct.Struct(">Hhiii")
_COST = struct.Struct(">Hii")
_COST_ZERO = _COST.pack(Msg.COST, 0, 0)


def put_done(
    w: Writer, rows: int, layout: Layout, serial: int = 0, rowid: int = 0, warnings: int = 0
) -> None:
    w.buf += (_DONE_LONG if layout.long_rowid else _DONE_SHORT).pack(
        Msg.DONE, warnings, rows, rowid, serial)


def put_insertdone(w: Writer, serial8: int, bigserial: int, layout: Layout) -> None:
    w.u16(Msg.INSERTDONE).raw(encode_int8(serial8))
    if layout.bigint:
        w.i64(bigserial)


def put_err(
    w: Writer, sqlcode: int, isamcode: int, offset: int, text: bytes, layout: Layout
) -> None:
    w.u16(Msg.ERR).i16(sqlcode).i16(isamcode)
    if layout.long_sql:
        w.i32(offset)
    else:
        w.i16(offset)
    w.charstr(text)


def put_cost(w: Writer, rows: int, cost: int) -> None:
    w.buf += _COST_ZERO if rows == 0 and cost == 0 else _COST.pack(Msg.COST, rows, cost)


def put_xactstat(w: Writer, event: int, new_level: int, old_level: int) -> None:
    w.u16(Msg.XACTSTAT).i16(event).i16(new_level).i16(old_level)


def put_version(w: Writer, version: bytes) -> None:
    w.u16(Msg.VERSION).charstr(version)


def put_dblist(w: Writer, names: list[bytes]) -> None:
    """SQ_DBLIST's answer: each database name as a CHARSTR, an empty one ends the list
    (JDBC IfxSqli.receiveDBList, nmap informix.lua; docs/PROTOCOL.md §5)."""
    w.u16(Msg.DBLIST)
    for name in names:
        w.charstr(name)
    w.u16(0)


# --------------------------------------------------------------------------------------------
# Server -> client: parsed form (used by the driver)
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Describe:
    stmt_type: int
    stmt_id: int
    cost: int
    tuple_size: int
    columns: list[ColumnDesc]


@dataclass(slots=True)
class Done:
    warnings: int
    rows: int
    rowid: int
    serial: int


@dataclass(slots=True)
class ServerError:
    sqlcode: int
    isamcode: int
    offset: int
    text: bytes


@dataclass(slots=True)
class InsertDone:
    serial8: int
    bigserial: int | None


def _read_type_fields(r: Reader, encoding: str, name: str = "", start: int = 0) -> ColumnDesc:
    """The type block DESCRIBE columns and IDESCRIBE parameters share: type, xid, owner,
    type name, reference, alignment, source type, encoded length."""
    tcode = r.i16() & 0xFFFF
    xid = r.i32()
    owner = r.charstr().decode(encoding, errors="replace")
    tname = r.charstr().decode(encoding, errors="replace")
    ref, align, source, enclen = r.i16(), r.i16(), r.i32(), r.i32()
    return ColumnDesc(name, tcode, enclen, xid, owner, tname, start, ref, align, source)


#: Bytes a DESCRIBE column record takes at least: index, start, type, xid, two empty
#: CHARSTRs, reference, alignment, source type, encoded length.
DESCRIBE_COLUMN_MIN = 30
#: Name-table bytes allowed per column: Informix identifiers and labels are at most 128
#: bytes, so this is generous; a larger table is a corrupted length, not a long name.
DESCRIBE_NAME_MAX = 1024


def read_describe(r: Reader, layout: Layout, encoding: str = "iso-8859-1") -> Describe:
    stmt_type = r.i16()
    stmt_id = r.i16()
    cost = r.i32()
    tuple_size = r.i32() if layout.large_tuple else r.i16()
    at = r.pos
    n = r.i16()
    if n < 0:
        raise ProtocolViolation(f"SQ_DESCRIBE: negative column count {n}", at)
    at = r.pos
    long_offsets = layout.long_offsets
    table_size = r.i32() if long_offsets else r.i16()
    if not 0 <= table_size <= (n + 1) * DESCRIBE_NAME_MAX:
        raise ProtocolViolation(
            f"SQ_DESCRIBE: name table size {table_size} for {n} columns "
            f"(at most {(n + 1) * DESCRIBE_NAME_MAX})",
            at,
        )
    if r.remaining < n * (DESCRIBE_COLUMN_MIN - (0 if long_offsets else 2)) + table_size:
        # Not all here yet: say so before parsing n columns again on every receive.
        raise NeedMore
    raw_cols = []
    for _ in range(n):
        index = r.i32() if long_offsets else r.i16()
        start = r.i32()
        raw_cols.append((index, _read_type_fields(r, encoding, start=start)))
    table = r.padded(table_size)
    cols = []
    for index, col in raw_cols:
        end = table.find(b"\0", index)
        name = table[index : end if end >= 0 else len(table)].decode(encoding, errors="replace")
        cols.append(replace(col, name=name))
    return Describe(stmt_type, stmt_id, cost, tuple_size, cols)


def read_idescribe(r: Reader, layout: Layout, encoding: str = "iso-8859-1") -> list[ColumnDesc]:
    params = []
    at = r.pos
    n = r.i16()
    if n < 0:
        raise ProtocolViolation(f"SQ_IDESCRIBE: negative parameter count {n}", at)
    named = False
    if layout.named_params and n:
        named = bool(r.i16() & 1)
        if named:
            r.i16()
    for i in range(n):
        name = f"p{i + 1}"
        if named:
            r.u8()
            name = r.charstr().decode(encoding, errors="replace")
        params.append(_read_type_fields(r, encoding, name=name))
    return params


def read_done(r: Reader, layout: Layout) -> Done:
    warnings = r.i16()
    if layout.long_rowid:
        rows, rowid = r.i64(), r.i64()
    else:
        rows, rowid = r.i32(), r.i32()
    return Done(warnings, rows, rowid, r.i32())


def read_err(r: Reader, layout: Layout) -> ServerError:
    sqlcode = r.i16()
    isam = r.i16()
    if sqlcode == -619:
        r.i16()
        if layout.long_sql:
            r.i16()
        return ServerError(sqlcode, isam, 0, r.charstr())
    offset = r.i32() if layout.long_sql else r.i16()
    if sqlcode == -368:
        return ServerError(sqlcode, isam, offset, b"")
    text = r.charstr()
    if sqlcode in (0, -937):
        r.padded(5)
        text = r.charstr()
    return ServerError(sqlcode, isam, offset, text)


def read_insertdone(r: Reader, layout: Layout) -> InsertDone:
    at = r.pos
    r.skip(10)
    serial8 = decode_int8(r.buf, at) or 0
    return InsertDone(serial8, r.i64() if layout.bigint else None)
