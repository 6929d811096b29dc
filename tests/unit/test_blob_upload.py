"""BlobUpload.take_run: the server's fast path over runs of SQ_BLOB messages must collect
exactly what the message-by-message path does (whole 1024-byte chunks, odd sizes with their
pad, the empty chunk that ends a value, a limit crossed part way)."""

from __future__ import annotations

import pytest

from ifxwire.protocol import messages as m
from ifxwire.protocol.wire import Writer
from ifxwire.server.blobs import BlobUpload
from ifxwire.server.engine import EngineError


def stream(pieces: list[bytes]) -> bytearray:
    w = Writer()
    for p in pieces:
        m.put_blob_chunks(w, p, 1024) if p else w.u16(39).u16(0)
    return w.buf


def run(upload: BlobUpload, buf: bytearray, limit: int = 1 << 30) -> EngineError | None:
    """The session loop, reduced: take runs; anything else is one message (the empty SQ_BLOB)."""
    pos = 0
    while pos < len(buf):
        stop, err = upload.take_run(buf, pos, len(buf), limit)
        if err is not None:
            return err
        if stop == pos:  # the empty SQ_BLOB ending a value
            assert buf[pos : pos + 4] == b"\x00\x27\x00\x00"
            upload.chunk(b"", limit)
            stop = pos + 4
        pos = stop
    return None


@pytest.mark.parametrize("sizes", [
    [5 * 1024], [7], [1023, 1024, 1025], [3 * 1024 + 1, 9 * 1024], [0], [2048, 1]])
def test_runs_collect_the_same_bytes(sizes: list[int]) -> None:
    values = [bytes((i * 7 + n) & 0xFF for i in range(n)) for n in sizes]
    pieces: list[bytes] = []
    for v in values:
        # Sent as the clients do: whole 1024-byte chunks, then the rest, then the end marker.
        pieces += [v, b""] if v else [b""]
    params: list[object] = [None] * len(values)
    up = BlobUpload(params, list(range(len(values))))
    up.start(len(values))
    assert run(up, stream(pieces)) is None
    assert params == values and up.complete


def test_odd_chunks_inside_a_run() -> None:
    """Chunks of other sizes between whole ones (a client free to choose its chunk size)."""
    w = Writer()
    data = b""
    for n in (1024, 1024, 3, 1024, 500, 1024):
        piece = bytes([n & 0xFF]) * n
        w.u16(39).u16(n).padded(piece)
        data += piece
    w.u16(39).u16(0)
    params: list[object] = [None]
    up = BlobUpload(params, [0])
    up.start(1)
    assert run(up, w.buf) is None
    assert params == [data]


def test_a_limit_crossed_in_a_run_is_refused() -> None:
    params: list[object] = [None]
    up = BlobUpload(params, [0])
    up.start(1)
    err = run(up, stream([bytes(10 * 1024), b""]), limit=4000)
    assert err is not None and err.sqlcode == -208
    assert up.refused and not up.complete
