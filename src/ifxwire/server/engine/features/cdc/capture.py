"""Capture sessions: what one reader of the change log (a CDC session of cdc_opensess) has
asked for, and the rendering of the log's transactions into the record bytes of
protocol/cdc.py for its smart-large-object reads (LoSession.iter_read).

Kept apart from hub.py, which keeps the log itself (appending, numbering, crash safety,
recovery) and the sessions' registry: a session only reads the log (``Hub.read_from``,
``Hub.read_chunk``) and waits on the hub's condition for new transactions. Each session
renders with its own table identifiers and columns (render.py's renderers, cached per table
and row shape), one read's worth of records at a time (``max_recs``), so the reader's pace
bounds what it holds.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .....protocol import cdc as rec
from .....types import cdcrow
from ...core.ifxtypes import IfxType
from .render import renderer

if TYPE_CHECKING:
    from .hub import Change, Hub, Txn

#: BEGINTX and COMMTX whole, common header included, in one pack each: ``rec.begin`` and
#: ``rec.commit``'s bytes without their two calls and join (two records per transaction;
#: tests/unit/test_cdc_capture_paths.py compares the bytes)
_BEGIN = struct.Struct(rec.COMMON.format + rec._BEGIN.format[1:]).pack
_BEGIN_HEAD = (rec.COMMON_SIZE + rec._BEGIN.size, 0, rec.PKTSCHEME_LRECBINARY, rec.BEGINTX)
_COMMIT = struct.Struct(rec.COMMON.format + rec._COMMIT.format[1:]).pack
_COMMIT_HEAD = (rec.COMMON_SIZE + rec._COMMIT.size, 0, rec.PKTSCHEME_LRECBINARY, rec.COMMTX)

#: Seconds a read waiting for new transactions sleeps at most between looks at the log and
#: at a cancel (a commit and a cancel wake it at once: Hub.lock, FunctionState.on_cancel).
WAIT_STEP = 0.5


@dataclass
class Capture:
    """One table a capture session watches."""

    tabkey: str
    user_data: int
    names: list[str]  # the captured columns, fixed-length ones first (TABSCHEMA order)
    types: list[IfxType]
    announced: bool = False

    def schema_record(self) -> bytes:
        descs = [t.describe(n) for n, t in zip(self.names, self.types, strict=True)]
        widths = [w for w in map(cdcrow.width, descs) if w is not None]
        text = ", ".join(f"{n} {t.sql()}" for n, t in zip(self.names, self.types, strict=True))
        return rec.tabschema(self.user_data, sum(widths), len(widths), len(descs) - len(widths),
                             text)


def order_columns(names: Sequence[str], types: Sequence[IfxType]
                  ) -> tuple[list[str], list[IfxType]]:
    """Fixed-length columns first, then variable-length ones, each group in the order given
    (the guide, CDC_REC_TABSCHEMA: "Names of any fixed-length columns appear before names of
    any variable-length columns")."""
    pairs = list(zip(names, types, strict=True))

    def fixed(p: tuple[str, IfxType]) -> bool:
        return cdcrow.width(p[1].describe(p[0])) is not None

    ordered = [p for p in pairs if fixed(p)] + [p for p in pairs if not fixed(p)]
    return [n for n, _ in ordered], [t for _, t in ordered]


class CdcSession:
    """A capture session: its tables, its position in the log, and the bytes not yet read."""

    def __init__(self, hub: Hub, sid: int, owner: int, timeout: int, max_recs: int,
                 encoding: str = "utf-8") -> None:
        self.hub = hub
        self.encoding = encoding  # of the reading session's locale, as its tuples are
        self.sid = sid
        self.owner = owner
        self.timeout = timeout
        self.max_recs = max(1, max_recs)
        self.tables: dict[str, Capture] = {}
        self.active = False
        self.closed = False
        self.position = 0  # the next BEGINTX sequence to consider
        self.last_seq = 0
        self.queue: list[bytes] = []  # whole records not yet read
        self.partial = b""  # the rest of a record a short read cut
        self.current = b""  # that record whole (cdc_recboundary)
        #: a chunked transaction being rendered, a chunk a read: it and its next change
        self.inside: Txn | None = None
        self.next_change = 0
        self._plans: dict[str, Callable[[int, tuple[object, ...], int, int], bytes]] = {}
        self._encoders: dict[tuple[object, ...], Any] = {}
        #: ``_plans`` of the transactions logged with the same shapes text (Txn.shapes_text):
        #: a transaction like the one before renders without looking its renderers up again
        self._plans_by_shapes: dict[str, dict[str, Callable[[int, tuple[object, ...], int,
                                                               int], bytes]]] = {}

    def activate(self, position: int) -> None:
        self.active = True
        self.position = max(position, 1)
        for cap in self.tables.values():
            self._announce(cap)

    def _announce(self, cap: Capture) -> None:
        if self.active and not cap.announced:
            cap.announced = True
            self.queue.append(cap.schema_record())

    def add(self, cap: Capture) -> None:
        self.tables[cap.tabkey] = cap
        self._plans_by_shapes.clear()  # a table's renderer follows its Capture
        self._announce(cap)

    # ---- reading ---------------------------------------------------------------------------
    def read(self, n: int, stop: Callable[[], bool] | None = None) -> bytes:
        """Up to ``n`` bytes and at most ``max_recs`` whole records (a record longer than ``n``
        comes in pieces); waits up to the session's timeout, then a CDC_REC_TIMEOUT.
        ``stop``: whether the client has cancelled the request (its urgent byte,
        server/interrupt.py): the wait then ends at once with the same CDC_REC_TIMEOUT, so a
        client closing with a read in flight is not held up to the timeout (ifxwire.cdc's
        close does so, docs/CDC.md "Reading ahead"). A record queued is never dropped."""
        if self.partial:
            out, self.partial = self.partial[:n], self.partial[n:]
            return out
        if not self.queue:
            self._fill(stop)
        queue = self.queue
        if not queue:
            return self._take([rec.timeout(self.last_seq)], n)
        take = queue[:self.max_recs]
        del queue[:self.max_recs]  # (the queue was copied whole at every read)
        return self._take(take, n)

    def rewind_record(self) -> None:
        """cdc_recboundary: the next read starts the record a short read cut over again."""
        if self.partial:
            self.partial = self.current

    def _take(self, records: list[bytes], n: int) -> bytes:
        """``records`` joined, as many as fit in ``n`` bytes (the rest back at the head of
        the queue; a first record longer than ``n``: its first piece). Nearly every read's
        records fit: one join then, and the record by record loop (``_take_each``) only when
        they do not; both give the same bytes (tests/unit/test_cdc_capture_paths.py)."""
        out = b"".join(records)
        if len(out) <= n:
            return out
        return self._take_each(records, n)

    def _take_each(self, records: list[bytes], n: int) -> bytes:
        out: list[bytes] = []
        size = 0
        for i, r in enumerate(records):
            if size + len(r) > n:
                if not out:  # one record bigger than the buffer: its first piece
                    self.partial = r[n:]
                    self.current = r
                    return r[:n]
                self.queue[:0] = records[i:]
                break
            out.append(r)
            size += len(r)
        return b"".join(out)

    def _fill(self, stop: Callable[[], bool] | None = None) -> None:
        deadline = None if self.timeout < 0 else time.monotonic() + self.timeout
        while self.active and not self.closed:
            if self.inside is not None:  # one chunk per fill: the reader's pace bounds memory
                self._next_chunk(self.inside)
                if self.queue:
                    return
                continue
            txns = self.hub.read_from(self.position)
            for txn in txns:
                self.position = txn.begin_seq + 1
                self._render(txn)
                if self.inside is not None:
                    break
            if self.queue:
                return
            if txns:
                continue
            with self.hub.lock:
                if self.closed or (self.hub.last_begin >= self.position
                                   and self.hub.read_from(self.position, 1)):
                    continue
                left = None if deadline is None else deadline - time.monotonic()
                if (left is not None and left <= 0) or (stop is not None and stop()):
                    return
                self.hub.lock.wait(WAIT_STEP if left is None else min(left, WAIT_STEP))

    def _render(self, txn: Txn) -> None:
        tables = self.tables
        if txn.chunked:
            if any(t in tables for t in txn.shapes):
                self.queue.append(rec.begin(txn.begin_seq, txn.txid, txn.begin_time,
                                            txn.user_id))
                self.inside = txn
                self.next_change = 0
                self._plans = self._plans_for(txn)
            return
        records = self._changes(txn, txn.changes, 0, self._plans_for(txn))
        if not records:  # none of this session's tables
            return
        queue = self.queue
        queue.append(_BEGIN(*_BEGIN_HEAD, txn.begin_seq, txn.txid, txn.begin_time,
                            txn.user_id))
        queue.extend(records)
        queue.append(self._end(txn))

    def _plans_for(self, txn: Txn
                   ) -> dict[str, Callable[[int, tuple[object, ...], int, int], bytes]]:
        """The renderers of ``txn``'s tables, by table: shared by the transactions logged
        with the same shapes text, so that most transactions find them made."""
        if not txn.shapes_text:
            return {}
        plans = self._plans_by_shapes.get(txn.shapes_text)
        if plans is None:
            if len(self._plans_by_shapes) >= 64:
                self._plans_by_shapes.clear()
            plans = self._plans_by_shapes[txn.shapes_text] = {}
        return plans

    def _next_chunk(self, txn: Txn) -> None:
        """The next chunk of a chunked transaction's records, or its end record."""
        chunk = self.hub.read_chunk(txn.begin_seq, self.next_change)
        if chunk is None:
            self.inside = None
            self.queue.append(self._end(txn))
            return
        first, changes = chunk
        self.next_change = first + len(changes)
        self.queue.extend(self._changes(txn, changes, first, self._plans))

    def _end(self, txn: Txn) -> bytes:
        self.last_seq = txn.end_seq
        if txn.committed:
            return _COMMIT(*_COMMIT_HEAD, txn.end_seq, txn.txid, txn.end_time)
        return rec.rollback(txn.end_seq, txn.txid)

    def _changes(self, txn: Txn, changes: list[Change], first: int,
                 plans: dict[str, Callable[[int, tuple[object, ...], int, int], bytes]]
                 ) -> list[bytes]:
        """The records of those of ``changes`` (the transaction's from its change
        ``first`` on) that touch this session's tables; the change at index i is numbered
        ``begin_seq + 1 + i``. One pass, no list of the session's changes made first, the
        last table's renderer kept at hand (a transaction's changes are mostly of one
        table): the server's cost per event (docs/CDC_SERVER.md)."""
        tables = self.tables
        txid = txn.txid
        out: list[bytes] = []
        append = out.append
        truncate = rec.TRUNCATE
        last: str | None = None
        render: Callable[[int, tuple[object, ...], int, int], bytes] | None = None
        for seq, c in enumerate(changes, txn.begin_seq + 1 + first):
            table = c.table
            if table != last:
                if table not in tables:
                    continue
                last, render = table, plans.get(table)
            if c.recnum == truncate:
                append(rec.truncate(seq, txid, tables[table].user_data))
                continue
            if render is None:
                render = plans[table] = self._plan(table, txn.shapes[table])
            append(render(c.recnum, c.values, seq, txid))
        return out

    def _plan(self, table: str, shape: list[tuple[str, str]]
              ) -> Callable[[int, tuple[object, ...], int, int], bytes]:
        """``(record number, stored row, sequence, transaction) -> record bytes`` for rows of
        ``table`` written with ``shape`` (the columns and types when the row was logged),
        cached per shape: render.py's generated function per captured table and shape, or
        its compiled twin when ifxwire._cdcaccel is in use (issue 27's benchmark: rendering
        was most of the server's time per event)."""
        cap = self.tables[table]
        key = (table, cap.user_data, tuple(cap.names), tuple(t for _, t in shape))
        render = self._encoders.get(key)
        if render is not None:
            return cast(Callable[[int, tuple[object, ...], int, int], bytes], render)
        made = self._encoders[key] = renderer(cap.user_data, cap.names, cap.types, shape,
                                             self.encoding, table)
        return made
