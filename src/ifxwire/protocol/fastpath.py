"""Fast-path routine calls, smart-LOB data and client files: the messages, both directions.

Three message families travel outside the statement flow (docs/PROTOCOL.md §11, §12):

* **Fast path** runs a routine by handle, without PREPARE: ``SQ_GETROUTINE`` (101) looks a
  routine up by its signature and answers with a handle; ``SQ_EXFPROUTINE`` (102) runs it with
  an ``SQ_BIND`` of arguments and is answered by ``SQ_FPROUTINE`` (103) carrying every return
  value. JDBC calls ``ifx_lo_*`` this way (``IfxSqli.getHandle``/``sendFastPath``/
  ``receiveFastPath``, bytecode); informix-driver's ``fast_path_call`` sends the same bytes.
* **SQ_LODATA** (97) reads or writes the data of an open smart large object
  (``IfxSqli.sendLoData``/``receiveLODATA``/``executeWriteSmBlob``, bytecode).
* **SQ_FILE** (98) lets the server use a file on the client during ``LOTOFILE``/``FILETOBLOB``
  with ``'client'``: the server sends a request in the middle of its reply, the client answers
  with ``SQ_FILE_READ`` (106) / ``SQ_FILE_WRITE`` (107) / ``SQ_EOT`` and the server continues
  (``IfxSqli.receiveSQFILE``, bytecode; informix-driver ``_handle_sq_file``).

A fast-path value (an argument or a return value) has exactly the layout of an ``SQ_BIND`` item
(``i16 type, [owner, name], i16 indicator, i16 prec, data``), so the bind codec encodes and
decodes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types.bind import BindValue, decode_bind_values
from ..types.errors import CodecError
from ..types.numeric import decode_int8, encode_int8
from .codes import Msg, TypeCode
from .columns import ColumnDesc
from .messages import Layout, skip_bind_params
from .wire import NeedMore, ProtocolViolation, Reader, Writer

__all__ = [
    "FParam",
    "FileRequest",
    "LoDataRequest",
    "RoutineArg",
    "RoutineCall",
    "RoutineDescribe",
    "RoutineLookup",
    "put_cfpdescribe",
    "put_exfproutine",
    "put_file_close",
    "put_file_open",
    "put_file_read_request",
    "put_file_write_data",
    "put_fparam_request",
    "put_fproutine",
    "put_getroutine",
    "put_getroutine_by_id",
    "put_lodata",
    "put_lodata_chunk",
    "put_lodata_reply",
    "put_routine_handle",
    "read_cfpdescribe",
    "read_file_request",
    "read_fparam",
    "read_fparam_desc",
    "read_fparam_reply",
    "read_fproutine",
    "read_ifpdescribe",
    "read_ifpdescribe_args",
    "read_routine_handle",
]

#: The SQ_LODATA operation whose reply carries no data (a write).
LO_WRITE_OP = 2
#: SQ_FILE operation types (JDBC ``IfxSmBlob.FILE_OPEN`` …).
FILE_OPEN = 0
FILE_CLOSE = 1
FILE_READ = 2
FILE_WRITE = 3
#: Chunk size of SQ_FILE transfers: the server names it in a read request; informix-driver
#: answers with 32000 when it is 0. Our server asks for and sends 32000-byte chunks.
FILE_CHUNK = 32000


def _put_str(w: Writer, data: bytes, layout: Layout) -> None:
    """JDBC ``getJavaToIfxCharBytes``: a u32 length once bit 62 is in force, else u16."""
    if layout.long_sql:
        w.longstr(data)
    else:
        w.charstr(data)


# --------------------------------------------------------------------------------------------
# Fast path
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class RoutineLookup:
    """SQ_GETROUTINE as the server reads it."""

    signature: bytes
    by_id: bool = False
    routine_id: int = 0
    want_fparam: bool = False


@dataclass(slots=True)
class RoutineCall:
    """SQ_EXFPROUTINE as the server reads it; the arguments follow in an SQ_BIND."""

    database: bytes
    handle: int
    nparams: int
    want_fparam: bool = False


@dataclass(slots=True)
class RoutineDescribe:
    """SQ_CFPDESCRIBE (131) as the server reads it: JDBC asks for the argument description
    of a routine it will call by fast path, by its handle (``by_id``) or by name
    (``IfxSqli.sendCFPDescribe``)."""

    by_id: bool
    name: bytes  # by_id: the routine's database; else its name
    number: int  # by_id: the handle; else the number of arguments
    procedure: bool = False


def read_cfpdescribe(r: Reader, layout: Layout) -> RoutineDescribe:
    """``[bit 52: u8 1, CHARSTR database, i32 handle | u8 0, u16 0 procedure / 1 function,
    CHARSTR name, i32 nargs]``; without bit 52 the by-name form without its u8."""
    if layout.named_params and r.u8() == 1:
        return RoutineDescribe(True, r.charstr(), r.i32())
    procedure = r.u16() == 0
    name = r.charstr()
    return RoutineDescribe(False, name, r.i32(), procedure)


def put_ifpdescribe(w: Writer, args: list[tuple[str, ColumnDesc, int]], layout: Layout,
                    encoding: str) -> None:
    """SQ_IFPDESCRIBE (``IfxSqli.recvIDescribe(true)``): the IDESCRIBE layout with, under bit
    52, a flags short (1: argument names follow) and per argument its flags byte and name,
    then per argument a mode short (0 IN, 1 OUT, 2 INOUT; ``IfxResultSetMetaData.setMode``)."""
    w.u16(Msg.IFPDESCRIBE).i16(len(args))
    named = layout.named_params and bool(args)
    if named:
        w.i16(1)
    for name, p, mode in args:
        if named:
            w.buf.append(0)
            w.charstr(name.encode(encoding))
        w.i16(p.type).i32(p.xid)
        w.charstr(p.owner.encode(encoding)).charstr(p.type_name.encode(encoding))
        w.i16(p.reference).i16(p.alignment).i32(p.source_type).i32(p.enclen).i16(mode)


def _put_fp_type(w: Writer, p: ColumnDesc) -> None:
    """An FPTypeInfo (``IfxSqli.readFPTypeInfo``): u8 null flag, i16 type, i32 xid, i32
    length, i16 precision, i16 scale (a DECIMAL's or MONEY's, from its encoded length;
    0 for other types [I])."""
    w.buf.append(0)
    decimal = p.base in (TypeCode.DECIMAL, TypeCode.MONEY)
    prec, scale = (p.enclen >> 8, p.enclen & 0xFF) if decimal else (0, 0)
    w.i16(p.type).i32(p.xid).i32(p.enclen).i16(prec).i16(scale)


def put_fparam(w: Writer, returns: list[ColumnDesc], args: list[tuple[ColumnDesc, int]],
               layout: Layout, routine_id: int = 0) -> None:
    """SQ_FPARAM (104) as ``IfxSqli.receiveFParam`` reads it, without argument names: INT8
    funcState, i32 request, u8 isDone, i32 id (read while the client's FPARAM is not yet
    partial, so in the first one), INT8 row, i32 colid, i16 nrets and their FPTypeInfos,
    i16 nargs, i16 flags (bit 52 only; 0: no names), each argument's FPTypeInfo and its mode
    (1: a value comes back for it)."""
    w.u16(Msg.FPARAM).raw(encode_int8(0)).i32(0)
    w.buf.append(1)
    w.i32(routine_id).raw(encode_int8(0)).i32(0).i16(len(returns))
    for p in returns:
        _put_fp_type(w, p)
    w.i16(len(args))
    if layout.named_params:
        w.i16(0)
    for p, mode in args:
        _put_fp_type(w, p)
        w.i16(mode)


@dataclass(slots=True)
class RoutineArg:
    """One argument of a routine as SQ_IFPDESCRIBE describes it: its name (empty without bit
    52), its type and its mode (0 IN, 1 OUT, 2 INOUT)."""

    name: str
    desc: ColumnDesc
    mode: int


def read_ifpdescribe_args(r: Reader, layout: Layout, encoding: str) -> list[RoutineArg]:
    """SQ_IFPDESCRIBE after its code, as JDBC reads it (``recvIDescribe(true)``)."""
    n = r.i16()
    named = layout.named_params and n > 0 and r.i16() & 1
    out = []
    for _ in range(n):
        name = b""
        if named:
            r.u8()
            name = r.charstr()
        kind, xid = r.i16(), r.i32()
        owner, type_name = r.charstr(), r.charstr()
        reference, alignment, source, enclen = r.i16(), r.i16(), r.i32(), r.i32()
        text = name.decode(encoding, errors="replace")
        desc = ColumnDesc(text, kind, enclen, xid, owner.decode(encoding, errors="replace"),
                          type_name.decode(encoding, errors="replace"), 0, reference,
                          alignment, source)
        out.append(RoutineArg(text, desc, r.i16()))
    return out


def read_ifpdescribe(r: Reader, layout: Layout) -> list[tuple[str, int, int]]:
    """SQ_IFPDESCRIBE after its code: (name, type, mode) per argument (the trace's view)."""
    return [(a.name, a.desc.type, a.mode)
            for a in read_ifpdescribe_args(r, layout, "iso-8859-1")]


@dataclass(slots=True)
class FParam:
    """A server's SQ_FPARAM: the routine's return types and each argument's type and mode
    (JDBC expects a value back for the arguments of mode 1: ``readFPTypeInfo``)."""

    returns: list[ColumnDesc]
    args: list[tuple[ColumnDesc, int]]


def _read_fp_type(r: Reader) -> ColumnDesc:
    """An FPTypeInfo: u8 null flag, i16 type, i32 xid, i32 length, i16 precision, i16 scale.
    A DECIMAL's or MONEY's encoded length is taken from its precision and scale (what JDBC
    reports as such), whatever the length field holds."""
    r.u8()
    kind, xid, length, prec, scale = r.i16(), r.i32(), r.i32(), r.i16(), r.i16()
    if kind & 0xFF in (TypeCode.DECIMAL, TypeCode.MONEY):
        length = (prec << 8) | (scale & 0xFF)
    return ColumnDesc("", kind, length, xid)


def read_fparam_desc(r: Reader, layout: Layout) -> FParam:
    """A server's first SQ_FPARAM after its code (``receiveFParam``)."""
    r.raw(10)
    r.i32()
    r.u8()
    r.i32()
    r.raw(10)
    r.i32()
    returns = [_read_fp_type(r) for _ in range(r.i16())]
    nargs = r.i16()
    named = layout.named_params and r.i16() & 1
    args = []
    for _ in range(nargs):
        if named:
            r.u8()
            r.charstr()
        desc = _read_fp_type(r)
        args.append((desc, r.i16()))
    return FParam(returns, args)


def read_fparam_reply(r: Reader, layout: Layout) -> tuple[int, list[int]]:
    """The number of return values and each argument's mode (the trace's view)."""
    f = read_fparam_desc(r, layout)
    return len(f.returns), [mode for _, mode in f.args]


def put_fparam_request(w: Writer) -> None:
    """The client's SQ_FPARAM after the arguments of a call with OUT parameters, as JDBC's
    ``sendFParam`` writes it for a first call: INT8 funcState 0 (JDBC's 10-byte layout), i32
    request 0, u8 isDone 0, with no pad: the message is odd-sized and SQ_EOT follows at an
    odd offset (captured, tests/unit/test_callproc_vectors.py)."""
    w.u16(Msg.FPARAM).raw(encode_int8(0)).i32(0)
    w.buf.append(0)


def put_cfpdescribe(w: Writer, database: bytes, handle: int) -> None:
    """``SQ_CFPDESCRIBE`` of a handle a -9752 gave (``sendCFPDescribe``): u8 1 (by id), the
    database, the handle (bit 52 only: without it there is no by-id form). JDBC ends it
    with SQ_EOT and then sends another, lone, SQ_EOT that the server does not answer
    (docs/PROTOCOL.md §10): the caller appends both."""
    w.u16(Msg.CFPDESCRIBE)
    w.buf.append(1)
    w.charstr(database).i32(handle)


def put_getroutine_by_id(w: Writer, database: bytes, handle: int, layout: Layout) -> None:
    """``SQ_GETROUTINE`` by id with the FPARAM flag (``getHandle`` for a call with OUT
    parameters): u8 1, the database as the signature string, the handle, u16 1."""
    w.u16(Msg.GETROUTINE)
    w.buf.append(1)
    _put_str(w, database, layout)
    w.i32(handle).u16(1)


def read_fparam(r: Reader) -> None:
    """The client's SQ_FPARAM after the arguments of a call (``IfxSqli.sendFParam``): INT8
    funcState, i32 request, u8 isDone — echoed state the server does not need."""
    r.raw(10)
    r.i32()
    r.u8()


def put_getroutine(w: Writer, signature: bytes, layout: Layout) -> None:
    """``SQ_GETROUTINE``: with named parameters (bit 52) a by-id byte (0) comes first; the
    signature is the u32/u16 string of ``getJavaToIfxCharBytes``; then the fparam flag (0)."""
    w.u16(Msg.GETROUTINE)
    if layout.named_params:
        w.buf.append(0)
    _put_str(w, signature, layout)
    w.u16(0)


def read_getroutine(r: Reader, layout: Layout) -> RoutineLookup:
    by_id = False
    if layout.named_params:
        by_id = r.u8() == 1
    signature = r.longstr() if layout.long_sql else r.charstr()
    routine_id = r.i32() if by_id else 0
    return RoutineLookup(signature, by_id, routine_id, r.u16() != 0)


def put_routine_handle(w: Writer, database: bytes, handle: int, layout: Layout) -> None:
    """The answer to SQ_GETROUTINE: the routine's database (named parameters only) and handle
    (``IfxSqli.receiveHandle``)."""
    w.u16(Msg.GETROUTINE)
    if layout.named_params:
        w.charstr(database)
    w.i32(handle)


def read_routine_handle(r: Reader, layout: Layout) -> tuple[bytes, int]:
    database = r.charstr() if layout.named_params else b""
    return database, r.i32()


def put_exfproutine(w: Writer, database: bytes, handle: int, nparams: int, layout: Layout,
                    want_fparam: bool = False) -> None:
    """``SQ_EXFPROUTINE``; the caller appends ``SQ_BIND`` when there are arguments (JDBC
    ``sendFastPath`` sends none for a routine without parameters), and ``SQ_FPARAM`` when
    ``want_fparam`` (a call with OUT parameters: ``put_fparam_request``)."""
    w.u16(Msg.EXFPROUTINE)
    if layout.named_params:
        w.charstr(database)
    w.i32(handle).u16(nparams).u16(1 if want_fparam else 0)


def read_exfproutine(r: Reader, layout: Layout) -> RoutineCall:
    database = r.charstr() if layout.named_params else b""
    handle = r.i32()
    nparams = r.u16()
    return RoutineCall(database, handle, nparams, r.u16() != 0)


def put_fproutine(w: Writer, items: list[bytes]) -> None:
    """``SQ_FPROUTINE``: the count, then each return value as a bind-format item."""
    w.u16(Msg.FPROUTINE).i16(len(items))
    for item in items:
        w.raw(item)


def read_fproutine(r: Reader, encoding: str) -> list[BindValue]:
    """The return values of a fast-path call (raises NeedMore until all have arrived).

    A value has the SQ_BIND item layout but one more type carries an owner and a type name:
    JDBC's ``receiveFastPath`` reads them for ``(type & 0xFF) >= 18`` (not 52/53), SQ_BIND
    for ``> 18``, so a SERIAL8 (18) value is framed by ``_read_serial8``. A fast-path reply
    carries a handful of values: they are framed one at a time."""
    n = r.i16()
    values = []
    for _ in range(n):
        start = r.pos
        if r.end - start < 2:
            raise NeedMore
        if r.buf[start + 1] == TypeCode.SERIAL8:
            values.append(_read_serial8(r))
            continue
        r.pos = skip_bind_params(r.buf, start, r.end, 1)
        try:
            (value,), end = decode_bind_values(r.buf, start, 1, encoding)
        except CodecError as exc:
            raise ProtocolViolation(f"SQ_FPROUTINE: {exc}", start) from None
        if end != r.pos:
            raise ProtocolViolation("SQ_FPROUTINE: a value ends where it should not", start)
        values.append(value)
    return values


def _read_serial8(r: Reader) -> BindValue:
    """A SERIAL8 fast-path value: ``i16 type, CHARSTR owner, CHARSTR name, i16 indicator,
    i16 prec``, then (not NULL) the INT8 (``i16 sign, u32 low, u32 high``)."""
    kind = r.i16()
    r.charstr()
    r.charstr()
    indicator, prec = r.i16(), r.i16()
    if indicator:
        return BindValue(kind, indicator, prec, None)
    return BindValue(kind, indicator, prec, decode_int8(r.raw(10), 0))


# --------------------------------------------------------------------------------------------
# SQ_LODATA
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class LoDataRequest:
    """An SQ_LODATA request header; for a write the data chunks follow it in the stream."""

    op: int
    fd: int
    length: int
    bufsize: int
    offset: int = 0
    whence: int = 0


def put_lodata(
    w: Writer, op: int, fd: int, length: int, bufsize: int, offset: int | None = None
) -> None:
    """``u16 97, u16 op, u16 fd, i32 length, u16 bufsize`` and, for READWITHSEEK, the INT8
    offset and ``u16 1`` (JDBC writes LO_SEEK_CUR there) — JDBC ``sendLoData``."""
    w.u16(Msg.LODATA).u16(op).u16(fd & 0xFFFF).i32(length).u16(bufsize)
    if offset is not None:
        w.raw(encode_int8(offset)).u16(1)


def put_lodata_chunk(w: Writer, data: bytes | bytearray | memoryview) -> None:
    """One chunk of written data: ``u16 n, data, pad`` (JDBC ``executeWriteSmBlob``)."""
    w.u16(len(data)).padded(data)


def read_lodata(r: Reader) -> LoDataRequest:
    op = r.u16()
    fd = r.i16()
    length = r.i32()
    bufsize = r.u16()
    req = LoDataRequest(op, fd, length, bufsize)
    if op == 1:
        at = r.pos
        r.skip(10)
        req.offset = decode_int8(r.buf, at) or 0
        req.whence = r.u16()
    return req


def put_lodata_reply(w: Writer, op: int, size: int) -> None:
    """The reply header: ``u16 97, u16 op, i32 size`` (bytes read or written; a negative size
    is an ISAM error code, which JDBC reports as -9810)."""
    w.u16(Msg.LODATA).u16(op).i32(size)


# --------------------------------------------------------------------------------------------
# SQ_FILE (server -> client requests; client answers)
# --------------------------------------------------------------------------------------------


def put_file_open(w: Writer, name: bytes, mode: int, flags: int, offset: int) -> None:
    w.u16(Msg.FILE).u16(FILE_OPEN).charstr(name).i32(mode).i32(flags).i32(offset).u16(Msg.EOT)


def put_file_read_request(w: Writer, bufsize: int, amount: int) -> None:
    """Ask the client for ``amount`` bytes of the open file (-1: to its end)."""
    w.u16(Msg.FILE).u16(FILE_READ).u16(bufsize).i32(amount).u16(Msg.EOT)


def put_file_write_data(w: Writer, chunk: bytes | bytearray | memoryview) -> None:
    """One ``SQ_FILE_WRITE`` chunk inside a write request (opened by ``put_file_write_head``)."""
    w.u16(Msg.FILE_WRITE).u16(len(chunk)).padded(chunk)


def put_file_write_head(w: Writer) -> None:
    w.u16(Msg.FILE).u16(FILE_WRITE)


def put_file_close(w: Writer) -> None:
    w.u16(Msg.FILE).u16(FILE_CLOSE).u16(Msg.EOT)


@dataclass(slots=True)
class FileRequest:
    """One SQ_FILE request as the client reads it. For a write the data is in ``data``."""

    op: int
    name: bytes = b""
    mode: int = 0
    flags: int = 0
    offset: int = 0
    bufsize: int = 0
    amount: int = 0
    data: list[bytes] | None = None  # a write's chunks taken so far and not yet written out
    finished: bool = False  # a write's SQ_EOT was read
    error: int = 0  # a write that failed on the client: the errno to answer with at its end


def read_file_request(r: Reader) -> FileRequest:
    """An SQ_FILE request after its code, up to and including the EOT that ends it; for a
    write, only the operation: its data chunks and EOT follow, and the reply parser takes
    them a batch at a time (client/replies.py ``_file_chunks``), so a file of any size passes
    in constant memory."""
    at = r.pos
    op = r.u16()
    req = FileRequest(op)
    if op == FILE_OPEN:
        req.name = r.charstr()
        req.mode, req.flags, req.offset = r.i32(), r.i32(), r.i32()
    elif op == FILE_READ:
        req.bufsize = r.u16()
        req.amount = r.i32()
    elif op == FILE_WRITE:
        req.data = []
        return req
    elif op != FILE_CLOSE:
        raise ProtocolViolation(f"SQ_FILE: unknown operation {op}", at)
    if r.u16() != Msg.EOT:
        raise ProtocolViolation("SQ_FILE request without its SQ_EOT", at)
    return req


