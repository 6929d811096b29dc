"""Framing primitives: a writer that applies SQLI's even-padding rule and a restartable reader.

After login SQLI has no outer length framing: a message ends where its own layout says, so a
parser must know every field's size and must be able to stop half way when the bytes have not
all arrived yet.  ``Reader`` raises ``NeedMore`` in that case; the caller keeps the start
position, receives more bytes, and parses the message again.  Both the driver and the server
use these two classes, which is why they know nothing about sockets.
"""

from __future__ import annotations

import struct

_U16 = struct.Struct(">H")
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_I64 = struct.Struct(">q")

u16_at = _U16.unpack_from
i16_at = _I16.unpack_from
i32_at = _I32.unpack_from
i32_pair_at = struct.Struct(">ii").unpack_from
u32_at = _U32.unpack_from
i64_at = _I64.unpack_from


class NeedMore(Exception):
    """The buffer ends inside a message; receive more bytes and parse it again."""


class ProtocolViolation(Exception):
    """The bytes cannot be a valid message (unknown code, impossible length, bad marker)."""

    def __init__(self, message: str, offset: int = -1) -> None:
        super().__init__(message if offset < 0 else f"{message} (at byte offset {offset})")
        self.detail = message
        self.offset = offset


class Writer:
    """Appends big-endian fields to one bytearray, so a whole request group is one send."""

    __slots__ = ("buf",)

    def __init__(self, buf: bytearray | None = None) -> None:
        self.buf = bytearray() if buf is None else buf

    def u16(self, v: int) -> Writer:
        self.buf += _U16.pack(v)
        return self

    def i16(self, v: int) -> Writer:
        self.buf += _I16.pack(v)
        return self

    def i32(self, v: int) -> Writer:
        self.buf += _I32.pack(v)
        return self

    def u32(self, v: int) -> Writer:
        self.buf += _U32.pack(v)
        return self

    def i64(self, v: int) -> Writer:
        self.buf += _I64.pack(v)
        return self

    def raw(self, data: bytes | bytearray | memoryview) -> Writer:
        self.buf += data
        return self

    def padded(self, data: bytes | bytearray | memoryview) -> Writer:
        """Data followed by one zero byte when its length is odd (the even-padding rule)."""
        self.buf += data
        if len(data) & 1:
            self.buf.append(0)
        return self

    def charstr(self, data: bytes) -> Writer:
        """CHARSTR: u16 length, the bytes, a pad byte when the length is odd."""
        self.buf += _U16.pack(len(data))
        return self.padded(data)

    def longstr(self, data: bytes) -> Writer:
        """The u32-length string form used for SQL text once the 64K limit is removed."""
        self.buf += _U32.pack(len(data))
        return self.padded(data)

    def getvalue(self) -> bytes:
        return bytes(self.buf)


class Reader:
    """Reads fields from a buffer at ``pos``; raises ``NeedMore`` when the buffer is too short.

    The reader never copies the buffer.  ``end`` bounds it, so a view over the front of a
    larger receive buffer costs nothing.
    """

    __slots__ = ("buf", "end", "pos")

    def __init__(self, buf: bytes | bytearray | memoryview, pos: int = 0, end: int = -1) -> None:
        self.buf = buf
        self.pos = pos
        self.end = len(buf) if end < 0 else end

    def _take(self, n: int) -> int:
        p = self.pos
        if p + n > self.end:
            raise NeedMore
        self.pos = p + n
        return p

    def u16(self) -> int:
        v: int = u16_at(self.buf, self._take(2))[0]
        return v

    def i16(self) -> int:
        v: int = i16_at(self.buf, self._take(2))[0]
        return v

    def i32(self) -> int:
        v: int = i32_at(self.buf, self._take(4))[0]
        return v

    def i32_pair(self) -> tuple[int, int]:
        """Two i32 in one unpack: SQ_COST's body, which ends every real server's reply to a
        statement (half the calls of two ``i32``)."""
        v: tuple[int, int] = i32_pair_at(self.buf, self._take(8))
        return v

    def u32(self) -> int:
        v: int = u32_at(self.buf, self._take(4))[0]
        return v

    def i64(self) -> int:
        v: int = i64_at(self.buf, self._take(8))[0]
        return v

    def u8(self) -> int:
        return int(self.buf[self._take(1)])

    def raw(self, n: int) -> bytes:
        if n < 0:
            raise ProtocolViolation(f"negative length {n}", self.pos)
        p = self._take(n)
        return bytes(self.buf[p : p + n])

    def skip(self, n: int) -> None:
        self._take(n)

    def padded(self, n: int) -> bytes:
        """n bytes of data followed by a pad byte when n is odd."""
        data = self.raw(n)
        if n & 1:
            self._take(1)
        return data

    def charstr(self) -> bytes:
        return self.padded(self.u16())

    def longstr(self) -> bytes:
        return self.padded(self.u32())

    @property
    def remaining(self) -> int:
        return self.end - self.pos


def pad_len(n: int) -> int:
    """Length of an item of n bytes once the even-padding rule is applied."""
    return n + (n & 1)
