"""Record real server replies, mutate them, serve them to the driver (see test_driver_fuzz.py).

* ``Recorder`` is a forwarding proxy in front of the real embedded server. It keeps each
  connection's two byte streams; ``Recording.split`` cuts the server's stream into the login
  response and one reply per request group (the driver's own ``Reply`` parser finds each
  reply's SQ_EOT, with a decoder that only skips tuples), and checks that as many request
  groups went the other way.
* ``field_offsets`` lists where every integer field of a reply (or of the login response)
  sits, by running the driver's parsers with a ``Reader`` that notes each integer it reads,
  plus the size field of every SQ_TUPLE. These are the length fields the mutations target.
* ``ReplayServer`` answers the login with the recorded (maybe mutated) response and each
  request group with the next recorded reply, one of which may be mutated. After the mutated
  reply it half-closes the connection (the driver then meets EOF rather than waiting for a
  reply that will not come), unless the case asks to hold it open to exercise read_timeout.
"""

from __future__ import annotations

import contextlib
import random
import select
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ifxwire.client import replies as _replies
from ifxwire.client.replies import Reply
from ifxwire.protocol import fastpath as fp
from ifxwire.protocol import login as _login
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.login import packet_length
from ifxwire.protocol.wire import NeedMore, ProtocolViolation, Reader

EXIT = struct.pack(">H", Msg.EXIT)


# ------------------------------------------------------------------------------------------
# Recording
# ------------------------------------------------------------------------------------------


@dataclass
class Session:
    """One recorded conversation: the login response and the reply to each request group."""

    login: bytes
    replies: list[bytes]
    layout: m.Layout

    def all_messages(self) -> list[bytes]:
        return [self.login, *self.replies]


@dataclass
class _Conn:
    to_server: bytearray = field(default_factory=bytearray)
    to_client: bytearray = field(default_factory=bytearray)


class Listener:
    """A TCP listener on 127.0.0.1 that runs ``serve(sock)`` in a thread per connection
    (TCP_NODELAY on: what is sent goes out at once) and closes the socket afterwards."""

    def __init__(self, serve: Callable[[socket.socket], None]) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.host, self.port = self.sock.getsockname()[:2]
        self.serve = serve
        self.accepted = 0
        self._open: set[socket.socket] = set()
        self.threads: list[threading.Thread] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def kwargs(self, **extra: Any) -> dict[str, Any]:
        return {"host": self.host, "port": self.port, "user": "informix", "password": "x"} | extra

    def _accept(self) -> None:
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.accepted += 1
            self._open.add(c)
            t = threading.Thread(target=self._run, args=(c,), daemon=True)
            t.start()
            self.threads.append(t)

    def _run(self, c: socket.socket) -> None:
        try:
            with contextlib.suppress(OSError, ProtocolViolation):
                self.serve(c)
        finally:
            self._open.discard(c)
            with contextlib.suppress(OSError):
                c.close()

    def close(self) -> None:
        self.sock.close()
        for c in list(self._open):
            with contextlib.suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)


class Recorder(Listener):
    """A proxy to ``(host, port)`` that keeps both directions of every connection."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.conns: list[_Conn] = []
        super().__init__(self._proxy)

    def _proxy(self, c: socket.socket) -> None:
        rec = _Conn()
        self.conns.append(rec)
        up = socket.create_connection(self.upstream)
        up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        back = threading.Thread(target=pump, args=(up, c, rec.to_client), daemon=True)
        back.start()
        pump(c, up, rec.to_server)
        back.join(5)
        up.close()

    def sessions(self) -> list[Session]:
        self.sock.close()
        for t in self.threads:
            t.join(5)
        return [split(c.to_server, c.to_client) for c in self.conns]


def pump(src: socket.socket, dst: socket.socket, buf: bytearray | None = None) -> None:
    """Copy ``src`` to ``dst`` (keeping a copy in ``buf``) until EOF, then half-close. An
    urgent byte (the client's cancel, docs/PROTOCOL.md §14) is passed on as urgent, outside
    the stream, as it came. A socket the other direction's thread closed meanwhile ends it
    (``select`` then refuses its fd -1 with ValueError)."""
    with contextlib.suppress(OSError, ValueError):
        while True:
            readable, _, urgent = select.select([src], [], [src])
            if urgent:
                with contextlib.suppress(OSError):
                    dst.send(src.recv(1, socket.MSG_OOB), socket.MSG_OOB)
            if not readable:
                continue
            data = src.recv(65536)
            if not data:
                break
            if buf is not None:
                buf += data
            dst.sendall(data)
    with contextlib.suppress(OSError):
        dst.shutdown(socket.SHUT_WR)


def _skip_row(buf: Any, off: int, size: int) -> tuple[Any, ...]:
    return ()


def _reply(layout: m.Layout) -> Reply:
    r = Reply(layout, "iso-8859-1", _skip_row, False, 1 << 30, 1 << 40, 1 << 40)
    r.lodata = bytearray()  # an SQ_LODATA read's data: taken and forgotten
    r.lodata_limit = 1 << 40
    return r


def _reply_end(r: Reply, data: bytes, pos: int) -> int:
    """Where the server's part of one exchange ends: its SQ_EOT, or an SQ_FILE request (with
    a write request's data) the client must answer before the server goes on."""
    while True:
        pos = r.feed(data, pos, len(data))
        req = r.file_request
        if req is None:
            break
        if req.data:
            req.data.clear()
        if req.op != fp.FILE_WRITE or req.finished:
            r.complete = True
            break
        if r.need and pos >= len(data):
            break
    return pos


def split(to_server: bytes | bytearray, to_client: bytes | bytearray) -> Session:
    """Cut a recorded conversation into the login response and one reply per group."""
    requests = bytes(to_server)
    data = bytes(to_client)
    login_end = packet_length(data)
    replies: list[bytes] = []
    pos = login_end
    layout = m.Layout()
    while pos < len(data) and data[pos : pos + 2] != EXIT:
        r = _reply(layout)
        end = _reply_end(r, data, pos)
        if not r.complete:
            raise AssertionError(f"recorded reply {len(replies)} is incomplete")
        if r.protocols is not None:
            layout = m.Layout.negotiate(r.protocols, _client_mask(requests))
        replies.append(data[pos:end])
        pos = end
    groups = 0
    r2 = Reader(requests, packet_length(requests))
    state = _Requests()
    while r2.remaining:
        code = state.read(r2, layout)
        if code == Msg.EXIT:
            break
        groups += code == Msg.EOT
    if len(replies) != groups:
        raise AssertionError(f"{groups} request groups but {len(replies)} replies recorded")
    return Session(data[:login_end], replies, layout)


class _Requests:
    """Reads a client's stream message by message, including what ``read_client_message``
    leaves to the session: an SQ_LODATA write's data chunks and the answers to SQ_FILE
    requests (a read's size and data chunks, a write's total, an error)."""

    def __init__(self) -> None:
        self.file_data = False  # inside an SQ_FILE read answer's data chunks

    def read(self, r: Reader, layout: m.Layout) -> int:
        at = r.pos
        code = r.u16()
        if code == Msg.FILE_READ:
            if self.file_data:
                r.padded(r.u16())
            else:
                r.i32()
                self.file_data = True
            return code
        if code == Msg.FILE_WRITE:
            r.i32()
            return code
        if code == Msg.ERR:
            m.read_err(r, layout)
            return code
        self.file_data = False
        r.pos = at
        msg = m.read_client_message(r, layout)
        item = msg.item
        if msg.code == Msg.LODATA and isinstance(item, fp.LoDataRequest) and (
            item.op == fp.LO_WRITE_OP
        ):
            left = max(item.length, 0)
            while left > 0:
                n = r.u16()
                if n == 0 or n > left:
                    raise ProtocolViolation(f"SQ_LODATA chunk of {n}", r.pos)
                r.skip(n + (n & 1))
                left -= n
        return int(msg.code)


def _client_mask(to_server: bytes) -> bytes:
    r = Reader(to_server, packet_length(to_server))
    msg = m.read_client_message(r, m.Layout())
    assert msg.code == Msg.PROTOCOLS
    return msg.data


# ------------------------------------------------------------------------------------------
# Where the integer fields are
# ------------------------------------------------------------------------------------------


class _NotingReader(Reader):
    """A Reader that notes (offset, width) of every integer it reads."""

    __slots__ = ()
    noted: ClassVar[list[tuple[int, int]]] = []

    def _note(self, width: int) -> None:
        if self.pos + width <= self.end:
            _NotingReader.noted.append((self.pos, width))

    def u16(self) -> int:
        self._note(2)
        return super().u16()

    def i16(self) -> int:
        self._note(2)
        return super().i16()

    def i32(self) -> int:
        self._note(4)
        return super().i32()

    def u32(self) -> int:
        self._note(4)
        return super().u32()


@contextlib.contextmanager
def _noting() -> Iterator[list[tuple[int, int]]]:
    modules = (_replies, _login)
    saved = [getattr(mod, "Reader") for mod in modules]  # noqa: B009
    _NotingReader.noted = []
    for mod in modules:
        setattr(mod, "Reader", _NotingReader)  # noqa: B010
    try:
        yield _NotingReader.noted
    finally:
        for mod, original in zip(modules, saved, strict=True):
            setattr(mod, "Reader", original)  # noqa: B010


def field_offsets(data: bytes, layout: m.Layout | None) -> list[tuple[int, int]]:
    """(offset, width) of each integer field of a reply (``layout``) or login response."""
    with _noting() as noted:
        if layout is None:
            with contextlib.suppress(ProtocolViolation, NeedMore):
                _login._parse_connect_response(data, "iso-8859-1")
        else:
            with contextlib.suppress(ProtocolViolation, NeedMore):
                _reply(layout).feed(data, 0, len(data))
        found = list(noted)
    pos = 0
    while layout is not None and pos + 8 <= len(data):
        # SQ_TUPLE headers are read without a Reader; find them by walking the tuples.
        if data[pos : pos + 2] == struct.pack(">H", Msg.TUPLE):
            size = struct.unpack_from(">i", data, pos + 4)[0]
            found.append((pos + 4, 4))
            pos += 8 + size + (size & 1)
        else:
            break
    return sorted(set(found))


def tuple_payloads(data: bytes) -> list[tuple[int, int]]:
    """(offset, size) of the payload of each SQ_TUPLE at the start of a reply."""
    out = []
    pos = 0
    while pos + 8 <= len(data) and data[pos : pos + 2] == struct.pack(">H", Msg.TUPLE):
        size = struct.unpack_from(">i", data, pos + 4)[0]
        out.append((pos + 8, size))
        pos += 8 + size + (size & 1)
    return out


# ------------------------------------------------------------------------------------------
# Mutations
# ------------------------------------------------------------------------------------------

#: Values written into an integer field: zero, all ones (-1), the largest positive, a huge
#: length that would be 2 GB, the most negative, and small off-by-ones.
FIELD_VALUES = {
    2: [0x0000, 0xFFFF, 0x7FFF, 0x8000, 0x0001, 0x7FFE],
    4: [0x00000000, 0xFFFFFFFF, 0x7FFFFFFF, 0x7FFFFFF0, 0x80000000, 0x00010000],
}


@dataclass(frozen=True)
class Mutation:
    """One change to one recorded message (index 0 is the login response)."""

    target: int
    kind: str
    data: bytes  # the mutated bytes of that message

    def describe(self) -> str:
        return f"{self.kind} of message {self.target}"


def mutations(session: Session, rng: random.Random, count: int) -> Iterator[Mutation]:
    """``count`` mutations: every kind, spread over every recorded message."""
    messages = session.all_messages()
    fields = [
        field_offsets(msg, None if i == 0 else session.layout) for i, msg in enumerate(messages)
    ]
    kinds: list[tuple[str, Callable[[int, bytes], bytes]]] = [
        ("field", lambda i, d: _set_field(d, fields[i], rng)),
        ("field", lambda i, d: _set_field(d, fields[i], rng)),
        ("field", lambda i, d: _set_field(d, fields[i], rng)),
        ("bit flips", lambda i, d: _flip(d, rng)),
        ("bit flips", lambda i, d: _flip(d, rng)),
        ("truncation", lambda i, d: d[: rng.randrange(len(d))]),
        ("duplication", lambda i, d: _duplicate(d, rng)),
        ("splice", lambda i, d: _splice(d, rng.choice(messages), rng)),
        ("cell length", lambda i, d: _poke_payload(d, rng)),
        ("swap", lambda i, d: rng.choice(messages[1:])),
    ]
    with_rows = [i for i, msg in enumerate(messages) if i and tuple_payloads(msg)]
    for n in range(count):
        target = n % len(messages) if n < 2 * len(messages) else rng.randrange(len(messages))
        kind, mutate = kinds[n % len(kinds)] if n < len(kinds) else rng.choice(kinds)
        if kind == "cell length" and with_rows:
            target = rng.choice(with_rows)
        original = messages[target]
        data = mutate(target, original) if original else original
        if data == original:
            data = _flip(original, rng) if original else b"\xff\xff"
            kind = "bit flips"
        yield Mutation(target, kind, data)


def _set_field(data: bytes, fields: list[tuple[int, int]], rng: random.Random) -> bytes:
    if not fields:
        return _flip(data, rng)
    at, width = rng.choice(fields)
    value = rng.choice(FIELD_VALUES[width])
    out = bytearray(data)
    out[at : at + width] = value.to_bytes(width, "big")
    return bytes(out)


def _flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        bit = rng.randrange(len(out) * 8)
        out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def _duplicate(data: bytes, rng: random.Random) -> bytes:
    a = rng.randrange(len(data))
    b = rng.randint(a + 1, min(len(data), a + 64))
    return data[:b] + data[a:b] + data[b:]


def _splice(data: bytes, other: bytes, rng: random.Random) -> bytes:
    a = rng.randrange(len(data))
    b = rng.randrange(len(other))
    return data[:a] + other[b : b + rng.randint(1, 64)] + data[a + rng.randint(0, 64) :]


def _poke_payload(data: bytes, rng: random.Random) -> bytes:
    """Overwrite a byte or an i32 inside a row, where VARCHAR/LVARCHAR lengths live."""
    rows = [(at, size) for at, size in tuple_payloads(data) if size > 0]
    if not rows:
        return _flip(data, rng)
    at, size = rng.choice(rows)
    pos = at + rng.randrange(size)
    out = bytearray(data)
    if rng.random() < 0.5:
        out[pos] = rng.choice([0x00, 0x01, 0xFE, 0xFF])
    else:
        end = min(pos + 4, len(out))
        out[pos:end] = rng.choice([b"\x7f\xff\xff\xf0", b"\xff\xff\xff\xff"])[: end - pos]
    return bytes(out)


# ------------------------------------------------------------------------------------------
# Replaying
# ------------------------------------------------------------------------------------------


@dataclass
class Script:
    """What the replay server answers on its next connection."""

    session: Session
    mutation: Mutation | None = None
    hold_open: bool = False  # after the mutated reply, keep the socket open (no EOF)


class ReplayServer(Listener):
    """Serves each connection the script set when it was accepted."""

    def __init__(self) -> None:
        self.script: Script | None = None
        super().__init__(self._serve)

    def _serve(self, c: socket.socket) -> None:
        script = self.script
        assert script is not None
        self._converse(c, script)

    def _converse(self, c: socket.socket, script: Script) -> None:
        messages = script.session.all_messages()
        mut = script.mutation
        if mut is not None:
            messages[mut.target] = mut.data
        buf = bytearray()
        while True:
            with contextlib.suppress(NeedMore):
                n = packet_length(buf)
                if len(buf) >= n:
                    break
            if not _recv_into(c, buf):
                return
        del buf[:n]
        layout = m.Layout()
        client_mask = b""
        requests = _Requests()
        for index, answer in enumerate(messages):
            if index:  # wait for one whole request group
                while True:
                    r = Reader(bytes(buf), 0)
                    in_file_data = requests.file_data  # restored when the group is incomplete
                    try:
                        codes = []
                        while True:
                            at = r.pos
                            code = requests.read(r, layout)
                            codes.append(code)
                            if code == Msg.PROTOCOLS:
                                r.pos = at
                                client_mask = m.read_client_message(r, layout).data
                            if code in (Msg.EOT, Msg.EXIT):
                                break
                        break
                    except NeedMore:
                        requests.file_data = in_file_data
                        if not _recv_into(c, buf):
                            return
                del buf[: r.pos]
                if codes[-1] == Msg.EXIT:
                    c.sendall(EXIT)
                    return
            c.sendall(answer)
            if index == 1:
                with contextlib.suppress(ProtocolViolation, NeedMore):
                    rr = _reply(m.Layout())
                    rr.feed(answer, 0, len(answer))
                    if rr.protocols is not None:
                        layout = m.Layout.negotiate(rr.protocols, client_mask)
            if mut is not None and index == mut.target:
                if script.hold_open:
                    while _recv_into(c, buf):
                        pass
                    return
                c.shutdown(socket.SHUT_WR)
                while _recv_into(c, buf):
                    pass
                return
        # Replies exhausted (the scenario went further than recorded): hang up.


def _recv_into(c: socket.socket, buf: bytearray) -> bool:
    data = c.recv(65536)
    buf += data
    return bool(data)
