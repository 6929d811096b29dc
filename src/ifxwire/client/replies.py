"""Sans-I/O reply parsing: server messages from a buffer, up to and including SQ_EOT.

A ``Reply`` is fed ``(buffer, start, end)`` and returns where it stopped; it never touches a
socket, so the sync connection and a future asyncio protocol share it unchanged. Feeding stops
at the SQ_EOT that ends the reply (later bytes belong to the next pipelined reply) or when a
message is incomplete (``need`` then says how many bytes the message takes, if known).

Why the rules look like this:

* SQ_ERR is remembered, not raised: the server still sends the rest of the reply, and the
  stream must be read to SQ_EOT to stay in sync (JDBC does the same).
* SQ_TUPLE is the hot path. Consecutive tuples are decoded in place by the statement's cached
  row decoder, straight from the receive buffer; no slice, no intermediate object per row.
  A row that cannot be decoded is remembered like a server error, so the stream stays in sync.
* Any other unknown code cannot be skipped (SQLI has no outer framing, so its length is
  unknowable): the reply raises ``UnknownMessage`` and the connection must be abandoned.
* A length is never trusted further than the description allows (docs/DRIVER.md, "Guarantees
  under a hostile or broken server"). An SQ_TUPLE is refused before its bytes are awaited when
  it claims more than ``tuple_limit``; the rows of one fetch reply may not exceed
  ``tuple_budget`` bytes; SQ_BLOB data may not exceed the size its descriptor announced; any
  other message may not grow beyond ``MAX_MESSAGE_BYTES`` while incomplete, and a reply may not
  hold more than ``MAX_MESSAGES`` of them. The checks run once per message run or per
  incomplete message, never per cell. Offsets in the errors count from the reply's first byte.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..protocol import fastpath as fp
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.columns import ColumnDesc
from ..protocol.wire import (
    NeedMore,
    ProtocolViolation,
    Reader,
    i16_at,
    i32_at,
    i32_pair_at,
    u16_at,
)
from ..types.errors import CodecError

__all__ = ["Reply", "UnknownMessage"]

RowDecoder = Callable[[Any, int, int], tuple[Any, ...]]

_TUPLE = int(Msg.TUPLE)
_EOT = int(Msg.EOT)
_COST = int(Msg.COST)
_FILE_WRITE = int(Msg.FILE_WRITE)
#: Bytes of an SQ_FILE write taken before the caller writes them out (client/clientfiles.py).
FILE_WRITE_BATCH = 1024 * 1024

#: The largest non-tuple message the driver waits for. The biggest legitimate one is the
#: SQ_DESCRIBE of a 32767-column result (about 1.5 MiB); every other message is built from u16
#: lengths.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: Non-tuple messages in one reply. A real reply holds a handful (DESCRIBE, DONE, COST, ...);
#: BYTE/TEXT data chunks are bounded by their descriptor's size instead.
MAX_MESSAGES = 10_000
#: Message names a traced reply keeps (the trace line shows them).
_TRACE_NAMES = 512


class UnknownMessage(ProtocolViolation):
    """The server sent a message code this driver does not know; the stream is lost."""

    def __init__(self, code: int, offset: int) -> None:
        super().__init__(f"unknown server message code {code} (0x{code:04x})", offset)
        self.code = code


class Reply:
    """What one reply told us. Fields stay None/empty for messages that did not come."""

    __slots__ = (
        "blob",
        "blob_limit",
        "closed",
        "complete",
        "consumed",
        "cost",
        "decode_error",
        "decoder",
        "describe",
        "done",
        "dones",
        "encoding",
        "error",
        "exit",
        "file_pending",
        "file_request",
        "file_writing",
        "fp_args",
        "fp_values",
        "fparam",
        "idescribe",
        "insertdone",
        "keys",
        "layout",
        "lodata",
        "lodata_body",
        "lodata_got",
        "lodata_left",
        "lodata_limit",
        "lodata_pad",
        "lodata_size",
        "messages",
        "names",
        "need",
        "protocols",
        "routine",
        "rows",
        "shift",
        "tupid",
        "tuple_budget",
        "tuple_bytes",
        "tuple_limit",
        "version",
        "xactstat",
    )

    def __init__(
        self,
        layout: m.Layout,
        encoding: str,
        decoder: RowDecoder | None = None,
        trace: bool = False,
        tuple_limit: int = 0,
        tuple_budget: int = 0,
        blob_limit: int = 0,
    ) -> None:
        self.layout = layout
        self.encoding = encoding
        self.decoder = decoder
        self.rows: list[tuple[Any, ...]] = []
        #: Column names when the rows are decoded straight into dicts ``{name: value}``
        #: (``dict_row`` on the accelerated decoder: set by the cursor, rows.direct_keys).
        self.keys: tuple[str, ...] | None = None
        self.blob: bytearray | None = None  # SQ_BLOB chunks, answering SQ_FETCHBLOB
        self.complete = False
        self.need = 0
        self.consumed = 0
        self.describe: m.Describe | None = None
        self.done: m.Done | None = None
        self.dones = 0
        self.insertdone: m.InsertDone | None = None
        self.error: m.ServerError | None = None
        self.decode_error: CodecError | None = None
        self.closed = False
        self.exit = False
        self.protocols: bytes | None = None
        self.version: str | None = None
        self.idescribe: list[ColumnDesc] | None = None
        self.cost: tuple[int, int] | None = None
        self.tupid: int | None = None
        self.xactstat: tuple[int, int, int] | None = None
        self.names: list[str] | None = [] if trace else None
        #: Largest SQ_TUPLE payload to wait for (see Prepared.tuple_limit).
        self.tuple_limit = tuple_limit
        #: Tuple bytes (headers included) this reply may carry; a fetch asks for fewer.
        self.tuple_budget = tuple_budget
        self.tuple_bytes = 0
        #: BYTE/TEXT bytes this reply may carry: the size the fetched descriptor announced.
        self.blob_limit = blob_limit
        self.messages = 0
        #: Buffer position + shift = offset in the reply (for error messages).
        self.shift = 0
        # Fast path and smart LOBs (protocol/fastpath.py): the routine handle, the return
        # values, SQ_LODATA's byte count and data, an SQ_FILE request the caller must answer.
        self.routine: tuple[bytes, int] | None = None
        self.fp_values: list[Any] | None = None
        # A routine with OUT parameters (client/routines.py): SQ_IFPDESCRIBE's arguments and
        # the server's SQ_FPARAM.
        self.fp_args: list[fp.RoutineArg] | None = None
        self.fparam: fp.FParam | None = None
        self.lodata_size: int | None = None
        self.lodata: bytearray | memoryview | None = None  # where read data goes (set by caller)
        self.lodata_left = 0  # data bytes of an SQ_LODATA read still to come (-1: a short)
        self.lodata_limit = 0  # the bytes the read asked for: a larger answer is refused
        self.lodata_body = 0  # data bytes of the current chunk not received yet
        self.lodata_pad = 0  # its pad byte, still to skip
        self.lodata_got = 0  # data bytes put in the sink so far
        self.file_request: fp.FileRequest | None = None
        self.file_writing = False  # inside an SQ_FILE write request's data chunks
        self.file_pending = 0  # bytes of those chunks not yet handed to the caller

    def feed(self, buf: Any, pos: int, end: int) -> int:
        """Parse complete messages in ``buf[pos:end]``; return the position after the last one.

        Sets ``complete`` once SQ_EOT (or SQ_EXIT) has been consumed. Raises UnknownMessage or
        ProtocolViolation when the bytes cannot be a reply.
        """
        first = pos
        self.shift = self.consumed - first
        try:
            while True:
                if self.lodata_left or self.lodata_body or self.lodata_pad:
                    pos = self._lodata_chunks(buf, pos, end)
                    if self.need:
                        return pos
                    continue
                if end - pos < 2:
                    self.need = 2
                    return pos
                if self.file_writing:
                    # The caller writes out what was taken, then feeds the rest.
                    return self._file_chunks(buf, pos, end)
                code = (buf[pos] << 8) | buf[pos + 1]
                if code == _TUPLE:
                    pos = self._tuples(buf, pos, end)
                    if self.need:
                        return pos
                    continue
                if code == _EOT:
                    pos += 2
                    self.complete = True
                    self.need = 0
                    if self.names is not None:
                        self.names.append("EOT")
                    return pos
                if (code == _COST and end - pos >= 10 and self.names is None
                        and self.messages < MAX_MESSAGES):
                    # SQ_COST (two i32), which ends a real server's reply to every statement
                    # (and ours since the nineteenth session): read here, as ``_message``
                    # would, without a Reader and its chain of codes (issue 24's 3 % check).
                    self.cost = i32_pair_at(buf, pos + 2)
                    pos += 10
                    self.messages += 1
                    continue
                r = Reader(buf, pos + 2, end)
                try:
                    self._message(code, r, pos)
                except ProtocolViolation as exc:
                    if isinstance(exc, UnknownMessage) or exc.offset < 0:
                        raise
                    # The message parsers count in buffer positions; report reply offsets
                    # and name the message.
                    detail = exc.detail
                    if not detail.startswith("SQ_"):
                        detail = f"{_name(code)}: {detail}"
                    raise ProtocolViolation(detail, exc.offset + self.shift) from None
                except NeedMore:
                    self.need = 0
                    if end - pos > MAX_MESSAGE_BYTES:
                        raise ProtocolViolation(
                            f"{_name(code)}: message still incomplete after "
                            f"{end - pos} bytes (at most {MAX_MESSAGE_BYTES} are accepted)",
                            pos + self.shift,
                        ) from None
                    return pos
                pos = r.pos
                self.messages += 1  # once parsed whole: a retry after NeedMore is not another
                if self.exit:
                    self.complete = True
                    return pos
                if self.file_request is not None:
                    self.need = 0
                    return pos  # the caller answers it, then feeds the rest of the reply
        finally:
            self.consumed += pos - first

    def _tuples(self, buf: Any, pos: int, end: int) -> int:
        """Decode a run of SQ_TUPLE messages; the tight loop of the driver."""
        decode = self.decoder
        if decode is None:
            raise ProtocolViolation("SQ_TUPLE without a described result", pos + self.shift)
        append = self.rows.append
        self.need = 0
        start = pos
        keys = self.keys
        if keys is not None:
            # dict_row, accelerated: each row made a dict as it is decoded, while its values
            # are in the cache, and its tuple freed at once (docs/BENCHMARKS.md, "Row
            # factories": a third fewer cache misses than dicts made from a batch of tuples).
            pos, err = decode.decode_dicts(buf, pos, end, self.rows, keys)  # type: ignore[attr-defined]
            if err is not None and self.decode_error is None:
                self.decode_error = err
            append = functools.partial(_append_dict, self.rows, keys)
        else:
            batch = getattr(decode, "decode_tuples", None)
            if batch is not None:
                # The decoder runs the whole loop itself (in C when accelerated, else a
                # generated Python loop) and stops at anything else (another message, an
                # incomplete tuple, a negative size, a memoryview in the pure path), which the
                # loop below then handles.
                pos, err = batch(buf, pos, end, self.rows)
                if err is not None and self.decode_error is None:
                    self.decode_error = err
        while end - pos >= 8 and buf[pos + 1] == _TUPLE and buf[pos] == 0:
            size: int = i32_at(buf, pos + 4)[0]
            if size < 0:
                # Checked first: a size of -8 would otherwise leave pos where it is, forever.
                raise ProtocolViolation(
                    f"SQ_TUPLE: negative size field {size}", pos + 4 + self.shift
                )
            nxt = pos + 8 + size + (size & 1)
            if nxt > end:
                if size > self.tuple_limit:
                    # Refused before a byte of it is awaited: a flipped length bit must not
                    # make the driver allocate (or wait for) what no row of this shape can be.
                    raise ProtocolViolation(
                        f"SQ_TUPLE: size field {size} exceeds the {self.tuple_limit} bytes "
                        "the column descriptions allow",
                        pos + 4 + self.shift,
                    )
                self.need = nxt - pos
                break
            try:
                append(decode(buf, pos + 8, size))
            except CodecError as exc:
                if self.decode_error is None:
                    self.decode_error = exc
            pos = nxt
        else:
            if end - pos < 8 and end - pos >= 2 and buf[pos + 1] == _TUPLE and buf[pos] == 0:
                self.need = 8
        total = self.tuple_bytes + pos - start
        self.tuple_bytes = total
        if total > self.tuple_budget:
            raise ProtocolViolation(
                f"SQ_TUPLE: the reply carries {total} bytes of rows, more than the "
                f"{self.tuple_budget} its fetch size allows",
                pos + self.shift,
            )
        names = self.names
        if names is not None and len(names) < _TRACE_NAMES:
            names.append("TUPLE")
        return pos

    def _lodata_chunks(self, buf: Any, pos: int, end: int) -> int:
        """The data of an SQ_LODATA read as it arrives (``i16 n, data, pad`` chunks until the
        announced size; one bare short when nothing was read: JDBC ``receiveLODATA``), put in
        ``self.lodata`` (a bytearray grows; a memoryview is filled from its start). A chunk
        may be taken in parts, so its data can also be received straight into the sink
        (``direct_target``)."""
        self.need = 0
        while True:
            if self.lodata_body:
                take = min(self.lodata_body, end - pos)
                if not take:
                    self.need = 1
                    return pos
                sink = self.lodata
                if isinstance(sink, bytearray):
                    sink += buf[pos : pos + take]
                elif sink is not None:
                    got = self.lodata_got
                    sink[got : got + take] = buf[pos : pos + take]
                self.lodata_got += take
                self.lodata_body -= take
                pos += take
                continue
            if self.lodata_pad:
                if end - pos < 1:
                    self.need = 1
                    return pos
                self.lodata_pad = 0
                pos += 1
                continue
            if not self.lodata_left:
                return pos
            if end - pos < 2:
                self.need = 2
                return pos
            if self.lodata_left < 0:
                self.lodata_left = 0
                return pos + 2
            n = i16_at(buf, pos)[0]
            if n <= 0 or n > self.lodata_left:
                raise ProtocolViolation(
                    f"SQ_LODATA: a chunk of {n} bytes with {self.lodata_left} to come",
                    pos + self.shift)
            self.lodata_left -= n
            self.lodata_body = n
            self.lodata_pad = n & 1
            pos += 2

    def direct_target(self) -> memoryview | None:
        """Where the rest of the current SQ_LODATA chunk goes, when the data may be received
        straight into it (a memoryview sink), else None."""
        sink = self.lodata
        if not self.lodata_body or not isinstance(sink, memoryview):
            return None
        return sink[self.lodata_got : self.lodata_got + self.lodata_body]

    def direct_received(self, n: int) -> None:
        """``n`` bytes of the current chunk were received into ``direct_target``."""
        self.lodata_got += n
        self.lodata_body -= n
        self.consumed += n

    def _file_chunks(self, buf: Any, pos: int, end: int) -> int:
        """The data chunks of an SQ_FILE write request (``u16 107, u16 n, data, pad`` … up to
        its SQ_EOT), appended to the request's ``data``; returns after about
        ``FILE_WRITE_BATCH`` bytes so the caller writes them out (constant memory)."""
        req = self.file_request
        assert req is not None and req.data is not None
        start = pos
        self.need = 0
        while end - pos >= 2:
            code = u16_at(buf, pos)[0]
            if code == _EOT:
                self.file_writing = False
                req.finished = True
                self.file_pending = 0
                return pos + 2
            if code != _FILE_WRITE:
                raise ProtocolViolation(
                    f"SQ_FILE write: message {code} among the data chunks", pos + self.shift)
            if end - pos < 4:
                break
            n = u16_at(buf, pos + 2)[0]
            nxt = pos + 4 + n + (n & 1)
            if nxt > end:
                if pos == start:
                    self.need = nxt - pos
                return pos
            req.data.append(bytes(buf[pos + 4 : pos + 4 + n]))
            self.file_pending += n
            pos = nxt
            if self.file_pending >= FILE_WRITE_BATCH:
                self.file_pending = 0
                return pos
        if pos == start:
            self.need = 4 if end - pos >= 2 else 2
        self.file_pending = 0
        return pos

    def _message(self, code: int, r: Reader, at: int) -> None:
        """One non-tuple message whose code has been read; ``r`` sits after the code, which
        is at buffer position ``at``."""
        layout = self.layout
        if self.messages >= MAX_MESSAGES:
            raise ProtocolViolation(f"more than {MAX_MESSAGES} messages in one reply", at)
        if code == Msg.DONE:
            self.done = m.read_done(r, layout)
            self.dones += 1
        elif code == Msg.DESCRIBE:
            self.describe = m.read_describe(r, layout, self.encoding)
        elif code == Msg.ERR:
            err = m.read_err(r, layout)
            # sqlcode 100 is "no data", a warning; 0 is a warning carrying an SQLSTATE.
            if err.sqlcode < 0 and self.error is None:
                self.error = err
        elif code == Msg.CLOSE:
            self.closed = True
        elif code == Msg.INSERTDONE:
            self.insertdone = m.read_insertdone(r, layout)
        elif code == Msg.COST:
            self.cost = r.i32_pair()
        elif code == Msg.XACTSTAT:
            self.xactstat = (r.i16(), r.i16(), r.i16())
        elif code == Msg.PROTOCOLS:
            self.protocols = r.padded(r.u16())
        elif code == Msg.VERSION:
            self.version = r.charstr().decode(self.encoding, errors="replace")
        elif code == Msg.IDESCRIBE:
            self.idescribe = m.read_idescribe(r, layout, self.encoding)
        elif code == Msg.TUPID:
            self.tupid = r.i32()
        elif code == Msg.BLOB:
            chunk = r.padded(r.u16())
            if self.blob is None:
                self.blob = bytearray()
            if len(self.blob) + len(chunk) > self.blob_limit:
                raise ProtocolViolation(
                    f"SQ_BLOB: {len(self.blob) + len(chunk)} bytes of BYTE/TEXT data, more "
                    f"than the {self.blob_limit} its descriptor announced",
                    at,
                )
            self.blob += chunk
        elif code == Msg.INFO:
            while True:
                kind = r.i16()
                if kind == 0:
                    break
                r.padded(r.u16())
        elif code == Msg.FPROUTINE:
            self.fp_values = [v.value for v in fp.read_fproutine(r, self.encoding)]
        elif code == Msg.GETROUTINE:
            self.routine = fp.read_routine_handle(r, layout)
        elif code == Msg.IFPDESCRIBE:
            self.fp_args = fp.read_ifpdescribe_args(r, layout, self.encoding)
        elif code == Msg.FPARAM:
            self.fparam = fp.read_fparam_desc(r, layout)
        elif code == Msg.LODATA:
            op, size = r.u16(), r.i32()
            if op != fp.LO_WRITE_OP and size > self.lodata_limit:
                raise ProtocolViolation(
                    f"SQ_LODATA: {size} bytes announced for a read of {self.lodata_limit}", at)
            self.lodata_size = size
            if op != fp.LO_WRITE_OP:
                self.lodata_left = size if size > 0 else -1
        elif code == Msg.FILE:
            self.file_request = fp.read_file_request(r)
            self.file_writing = self.file_request.op == fp.FILE_WRITE
        elif code == Msg.REASSOC:
            pass
        elif code == Msg.EXIT:
            self.exit = True
        else:
            raise UnknownMessage(code, at + self.shift)
        names = self.names
        if names is not None and len(names) < _TRACE_NAMES:
            names.append(Msg(code).name)


def _append_dict(rows: list[Any], keys: tuple[str, ...], row: tuple[Any, ...]) -> None:
    """The Python loop's append in a reply decoded to dicts (Reply.keys)."""
    rows.append(dict(zip(keys, row, strict=False)))


def _name(code: int) -> str:
    try:
        return f"SQ_{Msg(code).name}"
    except ValueError:
        return f"message {code}"
