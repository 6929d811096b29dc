"""The wire side of smart large objects: fast-path calls, SQ_LODATA streams, client files.

``FastPath`` answers the messages that run outside the statement flow (docs/PROTOCOL.md §11):
``SQ_GETROUTINE`` (resolve a signature, hand out a handle), ``SQ_EXFPROUTINE`` + ``SQ_BIND``
(run it, answer every return value in ``SQ_FPROUTINE``) and ``SQ_LODATA`` (read or write an open
object). Data moves in constant memory both ways: a read is answered chunk by chunk as the
pieces come out of SQLite, a write is stored chunk by chunk as the bytes arrive, whatever the
size announced.

``ClientFiles`` lets ``LOTOFILE``/``FILETOBLOB`` with ``'client'`` use a file on the client
(§12): the server sends an ``SQ_FILE`` request in the middle of its reply and reads the client's
answer. The client sent its whole request group before it started reading, so its answers
follow that group in the stream; they are read from there and cut out of the receive buffer,
leaving the rest of the group for the session loop.

``locator_encoder`` sends BLOB/CLOB locators in the form the client asked for: binary when it
sent ``SQ_RET_TYPE`` with SENDRECV (44) for the column (JDBC), the 144-digit text form when it
did not (what real servers sent informix-driver) — types/smartlob.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..protocol import fastpath as fp
from ..protocol import messages as m
from ..protocol.codes import Msg, TypeCode
from ..protocol.columns import ColumnDesc
from ..protocol.gather import add_chunks
from ..protocol.wire import NeedMore, ProtocolViolation, Reader, Writer, u16_at
from ..types.bind import decode_bind_values
from ..types.errors import CodecError
from ..types.fpvalues import encode_typed_item
from ..types.smartlob import (
    LO_READWITHSEEK,
    LO_SEEK_SET,
    LO_WRITE,
    LODATA_BUFFER,
    locator_text,
)
from .chunked import ChunkedSender
from .engine import EngineError
from .engine import routine_call as rc
from .engine import sqlcodes as sc

if TYPE_CHECKING:
    from .session import Session

_LOB_XIDS = (10, 11)
#: Replies are sent in pieces of about this size while a read streams out.
_STREAM_FLUSH = 1024 * 1024
#: An SQ_LODATA read reply of at most this much data is built whole and leaves with the
#: group's end in one write, as every other reply does (PROTOCOL.md, "Every reply leaves the
#: server in one write"); a larger one is streamed.
_WHOLE_READ = 256 * 1024
_FILE_WRITE_PREFIX = bytes([0, Msg.FILE_WRITE])
_EOT = bytes([0, Msg.EOT])


def is_lob_column(col: ColumnDesc) -> bool:
    return col.base == TypeCode.UDTFIXED and col.xid in _LOB_XIDS


def locator_encoder(
    columns: Sequence[ColumnDesc], encode: Callable[[Sequence[object]], bytes], binary: bool
) -> Callable[[Sequence[object]], bytes]:
    """``encode`` with BLOB/CLOB locators turned into their text form unless ``binary``."""
    lobs = [i for i, c in enumerate(columns) if is_lob_column(c)]
    if not lobs or binary:
        return encode
    def encode_row(values: Sequence[object]) -> bytes:
        row = list(values)
        for i in lobs:
            v = row[i]
            if v is not None:
                row[i] = locator_text(v)  # type: ignore[arg-type]
        return encode(row)

    return encode_row


def wants_binary(ret_types: Sequence[int]) -> bool:
    """Whether SQ_RET_TYPE asked for the binary (SENDRECV, 44) form of UDT columns."""
    return any(t & 0xFF == TypeCode.SENDRECV for t in ret_types)


class FastPath:
    """Fast-path calls and SQ_LODATA for one wire session."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.routines: list[tuple[str | None, str, rc.Routine]] = []  # (database, text, routine)
        # a call waiting for its arguments: routine, argument count, OUT values wanted
        self.call: tuple[rc.Routine, int, bool] | None = None

    def reset(self) -> None:
        """The database changed: stored routines must be resolved again."""
        self.call = None
        self.routines = [r for r in self.routines if r[2].builtin is not None]

    # ---- fast path ----------------------------------------------------------------------------
    def getroutine(self, req: fp.RoutineLookup, out: Writer) -> None:
        s = self.s
        eng = s.engine
        assert eng is not None
        if req.by_id:
            # JDBC's second look-up of a handle our -9752 gave it (PROTOCOL.md §10).
            handle = req.routine_id
            if not 0 <= handle < len(self.routines):
                raise EngineError(sc.NO_ROUTINE, near=str(handle))
        elif req.want_fparam:
            raise EngineError(sc.NOT_IMPLEMENTED,
                              message="SQ_FPARAM of a routine looked up by name")
        else:
            handle = self.register(req.signature.decode(s.encoding, errors="replace"))
        fp.put_routine_handle(out, (eng.database or "").encode(s.encoding), handle, s.layout)
        if req.want_fparam:
            spl = self._stored(handle)
            # An INOUT argument is reported like an OUT one (mode 1), so that its value comes
            # back too [guess: JDBC reads values for mode 1 only].
            args = [(t.describe(name), 0 if m == "IN" else 1)
                    for (name, t), m in zip(spl.params, spl.modes, strict=False)]
            fp.put_fparam(out, list(self.routines[handle][2].returns), args, s.layout,
                          spl.procid)

    def _stored(self, handle: int) -> Any:
        """The SPL routine behind a handle (engine/routines.Routine)."""
        eng = self.s.engine
        assert eng is not None
        routine = eng.current_schema().procs.get(self.routines[handle][2].procid)
        if routine is None:
            raise EngineError(sc.NO_ROUTINE, near=str(handle))
        return routine

    def register(self, text: str) -> int:
        """The handle of the routine ``text`` names in the current database (resolved now)."""
        eng = self.s.engine
        assert eng is not None
        routine = rc.resolve(eng, text)
        database = eng.database
        handle = next((h for h, (db, known, _) in enumerate(self.routines)
                       if known == text and db == database), len(self.routines))
        if handle == len(self.routines):
            self.routines.append((database, text, routine))
        else:
            self.routines[handle] = (database, text, routine)
        return handle

    def describe(self, req: fp.RoutineDescribe, out: Writer) -> None:
        """SQ_CFPDESCRIBE of a handle: the routine's arguments with their modes."""
        eng = self.s.engine
        assert eng is not None
        if not req.by_id or not 0 <= req.number < len(self.routines):
            raise EngineError(sc.NOT_IMPLEMENTED, message=(
                "SQ_CFPDESCRIBE by routine name is not supported"))
        routine = self._stored(req.number)
        modes = {"IN": 0, "OUT": 1, "INOUT": 2}
        args = [(name, t.describe(name), modes.get(m, 0))
                for (name, t), m in zip(routine.params, routine.modes, strict=False)]
        fp.put_ifpdescribe(out, args, self.s.layout, self.s.encoding)

    def out_parameters(self, exc: EngineError) -> EngineError:
        """The PREPARE of a call to a routine with OUT parameters fails with -9752; its
        error text tells the client the routine's fast-path handle, ``database:handle:
        unique`` (JDBC's IfxSqli.addException and IfxCallableStatement constructor parse
        exactly that: PROTOCOL.md §10), so the client can run the call by fast path."""
        text = getattr(exc, "signature", "")
        if not text:
            return exc
        eng = self.s.engine
        assert eng is not None
        handle = self.register(text)
        unique = int(getattr(exc, "unique", True))
        return EngineError(exc.sqlcode, exc.isamcode,
                           near=f"{eng.database or ''}:{handle}:{unique}")

    def exfproutine(self, req: fp.RoutineCall, out: Writer) -> None:
        eng = self.s.engine
        assert eng is not None
        if not 0 <= req.handle < len(self.routines):
            raise EngineError(sc.NO_ROUTINE, near=str(req.handle))
        database, text, routine = self.routines[req.handle]
        if routine.builtin is None and database != eng.database:
            routine = rc.resolve(eng, text)  # the handle's routine, in the current database
            self.routines[req.handle] = (eng.database, text, routine)
        if req.nparams != routine.nparams:
            raise EngineError(sc.HOSTVAR_COUNT)
        if req.want_fparam and (routine.builtin is not None or req.nparams == 0):
            raise EngineError(sc.NOT_IMPLEMENTED,
                              message="SQ_FPARAM of a routine without OUT parameters")
        if req.nparams == 0:
            self._run(routine, [], out)
            self.call = (routine, -1, False)  # informix-driver follows with an empty SQ_BIND
        else:
            self.call = (routine, req.nparams, req.want_fparam)

    def bind(self, msg: m.ClientMsg, out: Writer) -> None:
        """The arguments of the pending call (or informix-driver's empty SQ_BIND after one
        without arguments)."""
        assert self.call is not None
        routine, n, outputs = self.call
        self.call = None
        if n < 0:
            if msg.number:
                raise EngineError(sc.HOSTVAR_COUNT)
            return
        if msg.number != n:
            raise EngineError(sc.HOSTVAR_COUNT)
        s = self.s
        try:
            values, _ = decode_bind_values(s.buf, msg.bind_start, msg.number, s.encoding,
                                           s.blobs.width)
        except CodecError as exc:
            raise EngineError(sc.NO_CONVERSION, message=str(exc)) from None
        self._run(routine, [v.value for v in values], out, outputs)

    def _run(self, routine: rc.Routine, args: list[Any], out: Writer,
             outputs: bool = False) -> None:
        """Run the call and answer SQ_FPROUTINE: the return values, preceded by the OUT
        values when the call came with SQ_FPARAM (JDBC reads them first, in the order of the
        FPARAM's OUT arguments: IfxCallableStatement.executeFastPath)."""
        s = self.s
        eng = s.engine
        assert eng is not None
        outs: list[Any] | None = [] if outputs else None
        values = rc.execute(eng, routine, args, outs)
        columns = list(routine.returns)
        if outs is not None:
            spl = eng.current_schema().procs.get(routine.procid)
            assert spl is not None
            columns = [spl.params[i][1].describe(spl.params[i][0])
                       for i in spl.outputs()] + columns
            values = outs + values
        try:
            items = [encode_typed_item(v, col, s.encoding)
                     for v, col in zip(values, columns, strict=True)]
        except (CodecError, ValueError) as exc:
            # A value that does not fit the declared return type: the call's error, not the
            # session's.
            raise EngineError(sc.NO_CONVERSION, message=str(exc)) from None
        fp.put_fproutine(out, items)

    # ---- SQ_LODATA -------------------------------------------------------------------------
    def lodata(self, req: fp.LoDataRequest, out: Writer) -> None:
        s = self.s
        eng = s.engine
        assert eng is not None
        ls = eng.lo
        if req.op == LO_WRITE:
            self._write(req, out)
            return
        if req.op == LO_READWITHSEEK:
            ls.seek(req.fd, req.offset, LO_SEEK_SET)
        elif req.op != 0:
            raise EngineError(sc.LO_ERROR, sc.ISAM_LO_BAD_FLAGS)
        if ls.live(req.fd):
            # A capture session's records: the client may have sent its next read already,
            # which can wait for changes; this reply must not wait with it (docs/CDC.md
            # "Reading ahead").
            s.flush_group = True
        size, pieces = ls.iter_read(req.fd, req.length)
        chunk = req.bufsize if 0 < req.bufsize <= LODATA_BUFFER else LODATA_BUFFER
        fp.put_lodata_reply(out, req.op, size)
        if size == 0:
            out.i16(0)  # JDBC reads one more short when nothing comes (receiveLODATA)
            return
        if size <= _WHOLE_READ:
            parts: list[Any] = []
            for piece in pieces:  # (each piece is valid only until the next: copied now)
                add_chunks(parts, piece, chunk)
                out.buf += b"".join(parts)
                parts.clear()
            return
        # Stream: what the group has so far goes first, then the data in pieces, gathered
        # with their chunk headers by the kernel (protocol/gather.py).
        s._queue(out.buf)
        out.buf.clear()
        sender = ChunkedSender(s._send_parts, chunk, _STREAM_FLUSH)
        for piece in pieces:
            sender.add(piece)
        sender.finish(always=True)

    def _write(self, req: fp.LoDataRequest, out: Writer) -> None:
        """Store the data chunks that follow the header as they arrive; on an error the rest
        is still read (the stream must stay in step) and the error answered."""
        s = self.s
        eng = s.engine
        assert eng is not None
        s.start = s._msg_end
        chunks = self._chunks(req.length)
        try:
            written = eng.lo.write_stream(req.fd, req.length, chunks)
        except EngineError:
            for _ in chunks:
                pass
            raise
        finally:
            s._msg_end = s.start
        fp.put_lodata_reply(out, LO_WRITE, written)

    def _chunks(self, length: int) -> Iterator[memoryview]:
        """The ``u16 n, data, pad`` chunks of an SQ_LODATA write, straight off the socket."""
        s = self.s
        remaining = max(length, 0)
        while remaining > 0:
            while s.end - s.start < 2:
                s._recv_more()
            n = u16_at(s.buf, s.start)[0]
            if n == 0 or n > remaining:
                raise ProtocolViolation(f"SQ_LODATA: a chunk of {n} bytes with {remaining} due",
                                        s.start)
            total = 2 + n + (n & 1)
            while s.end - s.start < total:
                s._recv_more()
            # A view of the receive buffer, released before the buffer may move (the
            # consumer copies it before asking for the next piece).
            piece = s.view[s.start + 2 : s.start + 2 + n]
            s.start += total
            remaining -= n
            try:
                yield piece
            finally:
                piece.release()


class ClientFiles:
    """Files on the client over SQ_FILE, for one wire session (``lo_session.ClientFiles``)."""

    #: Flags of our open requests (JDBC IfxSmBlob LO_O_*): binary; writes truncate. A read
    #: request does not set LO_O_RDONLY (16): JDBC would mark the client's file read-only.
    READ_FLAGS = 64
    WRITE_FLAGS = 32 | 4 | 64
    MODE = 0o644

    def __init__(self, session: Session) -> None:
        self.s = session

    # ---- the exchanges ----------------------------------------------------------------------
    def read_client_file(self, name: str) -> Iterator[bytes]:
        self._request(lambda w: fp.put_file_open(w, self._name(name), self.MODE, self.READ_FLAGS,
                                                 0), name)
        return self._read_pieces(name)

    def _read_pieces(self, name: str) -> Iterator[bytes]:
        stage = "request"  # request, head, data, closing, closed
        try:
            self._send(lambda w: fp.put_file_read_request(w, fp.FILE_CHUNK, -1))
            stage = "head"
            total = self._reply_head(name)
            stage = "data"
            done = 0
            while True:
                code, piece = self._reply_chunk(name)
                if code == Msg.EOT:
                    break
                done += len(piece)
                yield piece
            stage = "closing"
            if done != total:
                raise EngineError(sc.BAD_FILENAME, near=name,
                                  message=f"client sent {done} of {total} bytes")
            self._request(fp.put_file_close, name)
            stage = "closed"
        finally:
            if stage == "data":
                # The reader stopped early (storing the data failed): take the rest of the
                # client's answer off the wire and close the file, so the stream stays in step.
                while self._reply_chunk(name)[0] != Msg.EOT:
                    pass
                self._request(fp.put_file_close, name)
            elif stage == "head":
                # The client refused the read (no such file: SQ_ERR … EOT, already taken off
                # the wire by _reply_head). Nothing more of it is coming; reading another head
                # here waited forever for an answer the client never sends (IfxPy's
                # FILETOCLOB('C:\…', 'client') tests hung both sides). Close the file the
                # open request named, as after a read.
                self._request(fp.put_file_close, name)

    def write_client_file(self, name: str, chunks: Iterable[bytes | memoryview]) -> None:
        self._request(lambda w: fp.put_file_open(w, self._name(name), self.MODE,
                                                 self.WRITE_FLAGS, 0), name)
        w = Writer()
        fp.put_file_write_head(w)
        sender = ChunkedSender(self.s._send_parts, fp.FILE_CHUNK, _STREAM_FLUSH,
                               _FILE_WRITE_PREFIX, bytes(w.buf))
        for piece in chunks:
            sender.add(piece)
        sender.finish(_EOT)
        self._answer(name, Msg.FILE_WRITE)
        self._request(fp.put_file_close, name)

    # ---- plumbing ---------------------------------------------------------------------------
    def _name(self, name: str) -> bytes:
        return name.encode(self.s.encoding, errors="replace")

    def _send(self, build: Callable[[Writer], None]) -> None:
        s = self.s
        out = s.current_out
        if out is not None and out.buf:
            s._queue(out.buf)  # the reply so far goes before the request
            out.buf.clear()
        w = Writer()
        build(w)
        s._queue(w.buf)
        s._flush()

    def _request(self, build: Callable[[Writer], None], name: str) -> None:
        self._send(build)
        self._answer(name, Msg.EOT)

    def _reply_start(self) -> int:
        """Where the client's answers start: after the rest of the group being answered."""
        s = self.s
        while True:
            r = Reader(s.buf, s.start, s.end)
            try:
                while True:
                    msg = m.read_client_message(r, s.layout)
                    if msg.code == Msg.EOT and msg.offset > s.start:
                        return r.pos
            except NeedMore:
                s._recv_more(compact=False)

    def _take(self, parse: Callable[[Reader], Any]) -> Any:
        """Parse one client answer at the reply start and cut it out of the buffer."""
        s = self.s
        while True:
            at = self._reply_start()
            r = Reader(s.buf, at, s.end)
            try:
                value = parse(r)
            except NeedMore:
                s._recv_more(compact=False)
                continue
            n = r.pos - at
            s.buf[at : s.end - n] = s.buf[r.pos : s.end]
            s.end -= n
            return value

    def _answer(self, name: str, expected: int) -> int:
        """The client's answer to a request: SQ_EOT (open, close), ``SQ_FILE_WRITE total EOT``
        (write), or ``SQ_ERR … EOT`` (JDBC ``sendSQFILEError``): -9815 naming the file."""
        layout = self.s.layout

        def parse(r: Reader) -> tuple[int, int]:
            code = r.u16()
            value = 0
            if code == Msg.ERR:
                value = _client_error(r, layout)
            elif code == Msg.FILE_WRITE and expected == Msg.FILE_WRITE:
                value = r.i32()
                if r.u16() != Msg.EOT:
                    raise ProtocolViolation("SQ_FILE write answer without SQ_EOT", r.pos)
            elif code != Msg.EOT or expected != Msg.EOT:
                raise ProtocolViolation(f"SQ_FILE answered with message {code}", r.pos - 2)
            return code, value

        code, value = self._take(parse)
        if code == Msg.ERR:
            raise EngineError(sc.BAD_FILENAME, near=name, message=f"client file error {value}")
        return int(value)

    def _reply_head(self, name: str) -> int:
        layout = self.s.layout

        def parse(r: Reader) -> tuple[int, int]:
            code = r.u16()
            if code == Msg.FILE_READ:
                return code, r.i32()
            if code == Msg.ERR:
                return code, _client_error(r, layout)
            raise ProtocolViolation(f"SQ_FILE read answered with message {code}", r.pos - 2)

        code, value = self._take(parse)
        if code == Msg.ERR:
            raise EngineError(sc.BAD_FILENAME, near=name, message=f"client file error {value}")
        return int(value)

    def _reply_chunk(self, name: str) -> tuple[int, bytes]:
        def parse(r: Reader) -> tuple[int, bytes]:
            code = r.u16()
            if code == Msg.EOT:
                return code, b""
            if code != Msg.FILE_READ:
                raise ProtocolViolation(f"SQ_FILE data: message {code}", r.pos - 2)
            return code, r.padded(r.u16())

        result: tuple[int, bytes] = self._take(parse)
        return result


def _client_error(r: Reader, layout: m.Layout) -> int:
    """A client's SQ_FILE failure (JDBC ``sendSQFILEError``): an SQ_ERR whose sqlcode is the
    client's error number (2 no such file, 9 bad descriptor, …), then SQ_EOT."""
    err = m.read_err(r, layout)
    if r.u16() != Msg.EOT:
        raise ProtocolViolation("SQ_FILE error answer without SQ_EOT", r.pos)
    return int(err.sqlcode)


__all__ = ["ClientFiles", "FastPath", "is_lob_column", "locator_encoder", "wants_binary"]
