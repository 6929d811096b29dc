"""Gathered sends: large data framed in protocol chunks without copying it into one buffer.

Large values travel as runs of small chunks, each with a header: ``u16 39, u16 n`` (SQ_BLOB),
``i16 n`` (SQ_LODATA), ``u16 106/107, u16 n`` (SQ_FILE). Copying the data next to its headers
into one buffer costs a pass over every byte, and for 1024-byte SQ_BLOB chunks also a Python
call per KiB. Instead the driver and the server keep a list of buffers (header, slice of the
data, header, slice, …, a pad byte where a chunk is odd) and hand it to ``socket.sendmsg``:
the kernel gathers them, and the data is copied once, into the socket.

``send_parts`` falls back to one joined ``sendall`` where ``sendmsg`` is not available (TLS
sockets, the asyncio driver's outbox).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from typing import Any

__all__ = ["IOV_MAX", "add_chunks", "send_parts"]

#: Buffers per ``sendmsg`` call (the kernel's limit, 1024 on Linux).
IOV_MAX = 1024
try:
    IOV_MAX = max(16, min(int(os.sysconf("SC_IOV_MAX")), 1024))
except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
    IOV_MAX = 16

_PAD = b"\0"
_U16 = struct.Struct(">H")

Buffer = Any  # bytes, bytearray or memoryview


def add_chunks(parts: list[Buffer], data: Buffer, chunk: int, prefix: bytes = b"") -> int:
    """Append ``data`` to ``parts`` cut in ``chunk``-byte pieces, each preceded by ``prefix``
    and its ``u16`` length and followed by a pad byte when odd; returns the bytes added."""
    view = memoryview(data).cast("B")
    n = len(view)
    if not n:
        return 0
    append = parts.append
    whole = n - n % chunk
    if whole:
        head = prefix + _U16.pack(chunk)
        odd = chunk & 1
        for at in range(0, whole, chunk):
            append(head)
            append(view[at : at + chunk])
            if odd:
                append(_PAD)
    rest = n - whole
    if rest:
        append(prefix + _U16.pack(rest))
        append(view[whole:])
        if rest & 1:
            append(_PAD)
    return n + (len(prefix) + 2) * (-(-n // chunk)) + (chunk & 1) * (whole // chunk) + (rest & 1)


def send_parts(sock: Any, parts: Sequence[Buffer]) -> None:
    """Send ``parts`` in order: ``sendmsg`` in batches of ``IOV_MAX`` buffers, going on where
    a partial send stopped; one joined ``sendall`` where ``sendmsg`` is unavailable."""
    sendmsg = getattr(sock, "sendmsg", None)
    if sendmsg is None:
        sock.sendall(b"".join(parts))
        return
    i = 0
    count = len(parts)
    while i < count:
        # The parts themselves when they fit one call (the usual case), else one slice.
        batch = parts if count <= IOV_MAX else parts[i : i + IOV_MAX]
        try:
            sent = sendmsg(batch)
        except NotImplementedError:  # ssl.SSLSocket
            sock.sendall(b"".join(parts[i:]))
            return
        i += len(batch)
        if sent == sum(map(len, batch)):
            continue
        # Partial send: find where it stopped (rare: a timeout set on the socket, a signal).
        total = 0
        for k, part in enumerate(batch):
            total += len(part)
            if total > sent:
                rest = memoryview(part).cast("B")[len(part) - (total - sent) :]
                sock.sendall(b"".join([rest, *batch[k + 1 :]]))
                break
