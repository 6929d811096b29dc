"""Iteration over a forward-only cursor's rows: ``for row in cursor``.

A generator rather than ``Cursor.__next__``: resuming a generator costs about half of calling
a Python ``__next__`` from the interpreter's FOR_ITER (no new frame per row), which is the
whole per-row cost of iterating once the rows are decoded (bench/gap.py; the 10M-row stream
spends it 10M times). The generator keeps the cursor's position in ``_pos`` after every row,
as ``__next__`` does, so fetchone/fetchmany/scroll/rownumber may be mixed with iteration; and
it follows the cursor to a new batch or a new result (``_rows`` replaced by a fetch, an
execute or close), never serving rows the cursor no longer holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

__all__ = ["iterate_rows"]


class _Buffered(Protocol):
    """What iteration needs of a cursor: its row buffer, position and ``fetchone``."""

    _rows: list[tuple[Any, ...]]
    _pos: int

    def fetchone(self) -> tuple[Any, ...] | None: ...


def iterate_rows(cur: _Buffered) -> Iterator[tuple[Any, ...]]:
    while True:
        rows = cur._rows
        pos = cur._pos
        n = len(rows)
        while pos < n:
            cur._pos = pos + 1
            yield rows[pos]
            if cur._rows is not rows:
                break
            pos = cur._pos
        else:
            # The batch is used up: fetchone fetches the next one (or raises, or ends).
            row = cur.fetchone()
            if row is None:
                return
            yield row
