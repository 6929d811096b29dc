"""Gathered sends (protocol/gather.py): the chunk framing and the partial-send resumption.

The expected bytes are written out by hand from the chunk layouts docs/PROTOCOL.md records
with their evidence (SQ_BLOB ``u16 39, u16 n, data, pad``; SQ_LODATA ``u16 n, data, pad``;
SQ_FILE_WRITE ``u16 107, u16 n, data, pad``), not produced by another encoder of ours.
"""

from __future__ import annotations

import socket
import threading

import pytest

from ifxwire.protocol.gather import add_chunks, send_parts


def _joined(data: bytes, chunk: int, prefix: bytes = b"") -> tuple[bytes, int]:
    parts: list[object] = []
    n = add_chunks(parts, data, chunk, prefix)
    return b"".join(parts), n  # type: ignore[arg-type]


def test_blob_chunks_with_an_odd_tail() -> None:
    out, n = _joined(b"abcde", 4, b"\x00\x27")
    assert out == bytes.fromhex("0027 0004 61626364 0027 0001 65 00")
    assert n == len(out)


def test_odd_chunk_size_pads_every_whole_chunk() -> None:
    out, n = _joined(b"abcdefg", 3)
    assert out == bytes.fromhex("0003 616263 00 0003 646566 00 0001 67 00")
    assert n == len(out)


def test_exact_multiple_and_empty() -> None:
    out, n = _joined(b"abcd", 2, b"\x00\x6b")
    assert out == bytes.fromhex("006b 0002 6162 006b 0002 6364")
    assert n == len(out)
    assert _joined(b"", 2) == (b"", 0)


def test_parts_are_views_not_copies() -> None:
    data = bytearray(b"x" * 10)
    parts: list[object] = []
    add_chunks(parts, data, 4)
    data[0:1] = b"y"
    assert bytes(parts[1]) == b"yxxx"  # type: ignore[arg-type]


class _Trickle:
    """A socket whose sendmsg takes at most ``limit`` bytes per call (a partial send)."""

    def __init__(self, sock: socket.socket, limit: int) -> None:
        self.sock = sock
        self.limit = limit

    def sendmsg(self, buffers: list[object]) -> int:
        data = b"".join(buffers)  # type: ignore[arg-type]
        return self.sock.send(data[: self.limit])

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)


@pytest.mark.parametrize("limit", [1, 7, 10_000])
def test_send_parts_goes_on_after_a_partial_send(limit: int) -> None:
    a, b = socket.socketpair()
    try:
        parts: list[object] = []
        payload = bytes(range(256)) * 40
        add_chunks(parts, payload, 1024, b"\x00\x27")
        expected = b"".join(parts)  # type: ignore[arg-type]
        got = bytearray()

        def drain() -> None:
            while len(got) < len(expected):
                piece = b.recv(65536)
                if not piece:
                    return
                got.extend(piece)

        t = threading.Thread(target=drain)
        t.start()
        send_parts(_Trickle(a, limit), parts)
        t.join(10)
        assert bytes(got) == expected
    finally:
        a.close()
        b.close()


def test_send_parts_over_more_buffers_than_iov_max() -> None:
    a, b = socket.socketpair()
    try:
        parts: list[object] = []
        payload = b"z" * (3000 * 2)
        add_chunks(parts, payload, 2)  # 6000 buffers: several sendmsg batches
        expected = b"".join(parts)  # type: ignore[arg-type]
        got = bytearray()

        def drain() -> None:
            while len(got) < len(expected):
                got.extend(b.recv(65536))

        t = threading.Thread(target=drain)
        t.start()
        send_parts(a, parts)
        t.join(10)
        assert bytes(got) == expected
    finally:
        a.close()
        b.close()
