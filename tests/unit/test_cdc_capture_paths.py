"""The capture session's read path (features/cdc/capture.py) gives the bytes it gave before
it was made cheaper (docs/CDC_SERVER.md "The server's cost per event"): one join for a read's
records when they fit, one pass over a transaction's changes with no list of the session's
changes made first, and a queue no longer copied at every read.

``OldPath`` is the previous code of those methods, kept here as the reference; both sessions
read the same log (a real Hub on SQLite files): several transactions on two captured tables
and one that is not, a transaction touching none of them, a TRUNCATE, a rollback, a
transaction logged in chunks, NULLs, and a row bigger than a read (cut in pieces, then
``cdc_recboundary``'s rewind), read with several buffer sizes and records per read, in the
pure and in the compiled renderer."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ifxwire import _cdcaccel
from ifxwire.protocol import cdc as rec
from ifxwire.server.engine.core import ifxtypes as it
from ifxwire.server.engine.core.ifxtypes import IfxType, T
from ifxwire.server.engine.features.cdc import hub as hubmod
from ifxwire.server.engine.features.cdc.capture import Capture, CdcSession, order_columns
from ifxwire.server.engine.features.cdc.hub import LOG_NAME, Change, Hub, Pending, Txn

Plans = dict[str, Callable[[int, tuple[object, ...], int, int], bytes]]


class OldPath(CdcSession):
    """The read path before the change, method for method."""

    def read(self, n: int, stop: Callable[[], bool] | None = None) -> bytes:
        if self.partial:
            out, self.partial = self.partial[:n], self.partial[n:]
            return out
        if not self.queue:
            self._fill(stop)
        if not self.queue:
            return self._take([rec.timeout(self.last_seq)], n)
        take, self.queue = self.queue[:self.max_recs], self.queue[self.max_recs:]
        return self._take(take, n)

    def _take(self, records: list[bytes], n: int) -> bytes:
        out: list[bytes] = []
        size = 0
        for i, r in enumerate(records):
            if size + len(r) > n:
                if not out:
                    self.partial = r[n:]
                    self.current = r
                    return r[:n]
                self.queue[:0] = records[i:]
                break
            out.append(r)
            size += len(r)
        return b"".join(out)

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
        mine = [(i, c) for i, c in enumerate(txn.changes) if c.table in tables]
        if not mine:
            return
        out = [rec.begin(txn.begin_seq, txn.txid, txn.begin_time, txn.user_id)]
        out.extend(self._old_changes(txn, mine, self._plans_for(txn)))
        out.append(self._end(txn))
        self.queue.extend(out)

    def _next_chunk(self, txn: Txn) -> None:
        chunk = self.hub.read_chunk(txn.begin_seq, self.next_change)
        if chunk is None:
            self.inside = None
            self.queue.append(self._end(txn))
            return
        first, changes = chunk
        self.next_change = first + len(changes)
        tables = self.tables
        mine = [(first + i, c) for i, c in enumerate(changes) if c.table in tables]
        self.queue.extend(self._old_changes(txn, mine, self._plans))

    def _old_changes(self, txn: Txn, mine: list[tuple[int, Change]], plans: Plans
                     ) -> list[bytes]:
        tables = self.tables
        seq = txn.begin_seq
        txid = txn.txid
        out = []
        for i, c in mine:
            if c.recnum == rec.TRUNCATE:
                out.append(rec.truncate(seq + 1 + i, txid, tables[c.table].user_data))
                continue
            render = plans.get(c.table)
            if render is None:
                render = plans[c.table] = self._plan(c.table, txn.shapes[c.table])
            out.append(render(c.recnum, c.values, seq + 1 + i, txid))
        return out


A = [("id", IfxType(T.INTEGER)), ("name", it.varchar(20)), ("qty", IfxType(T.SMALLINT))]
B = [("k", IfxType(T.INTEGER)), ("note", IfxType(T.LVARCHAR, size=3000)),
     ("f", IfxType(T.FLOAT))]
C = [("x", IfxType(T.INTEGER))]  # not captured by the sessions


def _shape(cols: list[tuple[str, IfxType]]) -> list[tuple[str, str]]:
    return [(n, t.key) for n, t in cols]


SHAPES = {"d:a": _shape(A), "d:b": _shape(B), "d:c": _shape(C)}


def _txn(*changes: Change) -> Pending:
    p = Pending({t: SHAPES[t] for t in {c.table for c in changes}}, 1)
    for c in changes:
        p.add(c)
    return p


def _fill_log(hub: Hub, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ins, dele, bef, aft = rec.INSERT, rec.DELETE, rec.UPDBEF, rec.UPDAFT
    hub.append(_txn(*[Change(ins, "d:a", (i, f"n{i}", i % 7)) for i in range(10)]), True, 0)
    hub.append(_txn(Change(ins, "d:b", (1, "short", 1.5)), Change(ins, "d:c", (9,)),
                    Change(ins, "d:a", (None, None, None)),
                    Change(bef, "d:a", (3, "n3", 3)), Change(aft, "d:a", (3, "three", 4)),
                    Change(dele, "d:b", (1, "short", 1.5))), True, 0)
    hub.append(_txn(Change(ins, "d:c", (1,)), Change(ins, "d:c", (2,))), True, 0)  # none
    hub.append(_txn(Change(ins, "d:a", (50, "rolled", 1))), False, 0)
    hub.append(_txn(Change(ins, "d:a", (60, "t", 1)), Change(rec.TRUNCATE, "d:a", ()),
                    Change(ins, "d:b", (2, "x" * 2500, None))), True, 0)  # 2500: > a read
    hub.append(_txn(Change(rec.TRUNCATE, "d:b", ())), True, 0)
    # a transaction logged in chunks of 3 (docs/CDC_SERVER.md "Chunked capture")
    monkeypatch.setattr(hubmod, "CHUNK", 3)
    db = sqlite3.connect(str(tmp / "d.ifxdb"), isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    p = Pending(dict(SHAPES), 1)
    p.conn = db
    for i in range(11):
        table = ("d:a", "d:c", "d:b")[i % 3]
        row: tuple[object, ...] = ((100 + i, f"c{i}", i) if table == "d:a" else
                                   (i,) if table == "d:c" else (i, f"note {i}", i / 4))
        p.add(Change(rec.INSERT, table, row))
    hub.stash(db, p, 0)
    db.execute("COMMIT")
    hub.append(p, True, 0, db)
    monkeypatch.setattr(hubmod, "CHUNK", 1000)
    hub.append(_txn(*[Change(ins, "d:b", (i, "y" * i, float(i))) for i in range(40)]), True, 0)


def _session(cls: type[CdcSession], hub: Hub, max_recs: int) -> CdcSession:
    s = cls(hub, 1, 1, 0, max_recs)
    for label, (table, cols) in enumerate((("d:a", A), ("d:b", B)), 1):
        names, types = order_columns([n for n, _ in cols], [t for _, t in cols])
        s.add(Capture(table, label, names, types))
    s.activate(1)
    return s


def _reads(s: CdcSession, n: int) -> list[bytes]:
    out = []
    for k in range(10_000):
        got = s.read(n)
        out.append(got)
        if k in (4, 40):
            s.rewind_record()  # cdc_recboundary: the cut record again, or nothing
        if got[12:16] == rec.TIMEOUT.to_bytes(4, "big") and not s.partial:
            return out
    raise AssertionError("the stream never timed out")


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
@pytest.mark.parametrize(("n", "max_recs"), [(256 * 1024, 64), (256 * 1024, 1),
                                             (256 * 1024, 5), (1000, 64), (97, 3),
                                             (3000, 4)])
def test_the_faster_read_path_gives_the_old_bytes(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  compiled: bool, n: int,
                                                  max_recs: int) -> None:
    if compiled and not _cdcaccel.accelerated:
        pytest.skip("the compiled CDC loops are not in use (IFXWIRE_PURE, or not built)")
    if not compiled:
        monkeypatch.setattr(_cdcaccel, "renderer", lambda pure, plan, user_data: pure)
    hub = Hub(str(tmp_path / LOG_NAME), str(tmp_path))
    _fill_log(hub, tmp_path, monkeypatch)
    new = _reads(_session(CdcSession, hub, max_recs), n)
    old = _reads(_session(OldPath, hub, max_recs), n)
    assert new == old
    stream = b"".join(new)
    # the log's whole mix came through: both tables' rows, a rollback, truncates, the
    # chunked transaction's rows of the two captured tables and none of the other's
    assert b"x" * 2500 in stream and b"rolled" in stream and b"three" in stream
    assert b"c9" in stream and b"note 8" in stream and len(new) > 3


def test_a_transaction_of_no_captured_table_gives_no_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub(str(tmp_path / LOG_NAME), str(tmp_path))
    hub.append(_txn(Change(rec.INSERT, "d:c", (1,))), True, 0)
    s: Any = _session(CdcSession, hub, 64)
    first = s.read(4096)  # the two TABSCHEMA records, then only the TIMEOUT
    assert first.count((rec.TABSCHEMA).to_bytes(4, "big")) >= 2
    assert s.read(4096)[12:16] == rec.TIMEOUT.to_bytes(4, "big")
