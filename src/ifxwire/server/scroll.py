"""SQ_SFETCH: fetches of a scroll cursor, whose result was fixed at OPEN (insensitive).

What the witnesses say (docs/PROTOCOL.md §15):

* The request is ``u16 fetch type, i32 index, i32 buffer size``. JDBC sends type 6
  (ABSOLUTE, index = the wanted 1-based row) for ``absolute``/``previous``/``first``/
  ``relative``, type 4 (LAST, index 0) for ``last``, and type 1 (NEXT) with the index of the
  wanted row for ``next`` [our server's trace of JDBC 15 and 4.50]. informix-driver sends
  ABSOLUTE and LAST only [P§2.4].
* The reply carries the rows and SQ_TUPID with the row number of the first of them; after
  LAST, TUPID is the row count [P§4]. A real server sends ``TUPLE TUPID`` in that order
  [P: informix_db ``_last_tupid`` comment] and one row for ABSOLUTE and LAST
  (informix-driver takes the last row received as the one asked for and its tests pass on
  real servers).
* NEXT fills the buffer: JDBC keeps the tuples of one reply and moves inside them without a
  round trip (``IfxSqli.repositionIfInTupleBuffer``), and a NEXT with index 0 "scans to the
  last row" on a real server [P§2.4]. So NEXT answers the rows from its index on, as many as
  the buffer size holds (at least one); the other types answer one row.
* Out of range: no row, SQ_DONE with 0 rows; the position moves just outside the result, as
  ESQL/C's FETCH does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.wire import Writer

NEXT, PREVIOUS, FIRST, LAST, CURRENT, ABSOLUTE, RELATIVE = 1, 2, 3, 4, 5, 6, 7
#: The most tuple bytes one NEXT reply carries, whatever buffer size the client asks for.
MAX_BATCH_BYTES = 4 * 1024 * 1024


def target_row(kind: int, index: int, position: int, count: int) -> int | None:
    """The 1-based row a fetch of ``kind`` asks for (None: not a fetch type)."""
    if kind == NEXT:
        return index if index > 0 else position + 1
    return {
        PREVIOUS: position - 1,
        FIRST: 1,
        LAST: count,
        CURRENT: position,
        ABSOLUTE: index,
        RELATIVE: position + index,
    }.get(kind)


def scroll_fetch(
    rows: list[tuple[object, ...]],
    position: int,
    kind: int,
    index: int,
    size: int,
    encode: Callable[[tuple[object, ...]], bytes],
    blob_rows: Any,
    out: Writer,
    layout: m.Layout,
) -> int | None:
    """Answer one SQ_SFETCH into ``out``; returns the cursor's new position (None: an
    unknown fetch type, which the caller refuses)."""
    count = len(rows)
    first = target_row(kind, index, position, count)
    if first is None:
        return None
    if not 1 <= first <= count:
        m.put_done(out, 0, layout)
        return 0 if first < 1 else count + 1
    last = first
    budget = min(max(size, 1), MAX_BATCH_BYTES)
    sent = 0
    while True:
        row = rows[last - 1]
        if blob_rows is not None:
            row = blob_rows(row)[0]
        payload = encode(row)
        m.put_tuple(out, payload)
        sent += len(payload) + 8
        if kind != NEXT or last == count or sent >= budget:
            break
        last += 1
    out.u16(Msg.TUPID).i32(first)
    return last
