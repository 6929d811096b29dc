"""Large data sent as length-prefixed chunks, gathered by the kernel in bounded batches.

SQ_BLOB replies (SQ_FETCHBLOB), SQ_LODATA read replies and SQ_FILE write requests all carry
their data as ``[prefix] u16 n, data, pad`` chunks. The data comes in pieces as it is read
(a value of any size); each piece is cut into chunks that point into it (protocol/gather.py,
no copy next to the headers) and a batch goes out once ``flush`` bytes are held, so memory
stays bounded whatever the size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol.gather import add_chunks


class ChunkedSender:
    __slots__ = ("chunk", "flush", "held", "parts", "prefix", "send_parts")

    def __init__(self, send_parts: Callable[[list[Any]], None], chunk: int, flush: int,
                 prefix: bytes = b"", head: bytes = b"") -> None:
        self.send_parts = send_parts  # Session._send_parts: what is queued, then the parts
        self.chunk = chunk
        self.flush = flush
        self.prefix = prefix
        self.parts: list[Any] = [head] if head else []
        self.held = 0

    def add(self, piece: Any) -> None:
        """One piece of the data (valid until the next is asked for: sent before then)."""
        self.held += add_chunks(self.parts, piece, self.chunk, self.prefix)
        if self.held >= self.flush:
            self.send_parts(self.parts)
            self.parts.clear()
            self.held = 0

    def finish(self, tail: bytes = b"", always: bool = False) -> None:
        """Send what is held, then ``tail``; ``always``: even when nothing is (so what the
        session queued before goes out now)."""
        if tail:
            self.parts.append(tail)
        if self.parts or always:
            self.send_parts(self.parts)
        self.parts = []
        self.held = 0
