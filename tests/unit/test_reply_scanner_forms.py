"""executemany's reply scanner (client/batch.py ``ReplyTally._read_fast`` and its C twin
``scan_done_replies``) on the EXECUTE replies real servers send, byte for byte.

Real servers put SQ_INSERTDONE before SQ_DONE and follow an EXECUTE's SQ_DONE with SQ_COST
(docs/PROTOCOL.md §17: nmap reads ``INSERTDONE(18) DONE(16) COST(10) EOT(2)`` after an
INSERT's SQ_COMMAND and ``DONE COST EOT`` elsewhere; informix-driver reads
``[INSERTDONE] DONE COST EOT``). Our server sends ``DONE [INSERTDONE] EOT``. The scanner must
take every one of these forms without falling back to the Reply parser, with the row counts
and the serial (lastrowid) the parser would give.
"""

from __future__ import annotations

from typing import Any

import pytest

from ifxwire import _accel
from ifxwire.client.batch import _fast_replies, _Pipeline
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg

#: The pure loop (None) and the C one when it is built (it ignores IFXWIRE_PURE).
SCANNERS = [None] + ([_accel.c_reply_scanner()] if _accel.c_reply_scanner() else [])

# 14.10's layout as nmap meets it: 4-byte rowid, INSERTDONE with the i64 bigserial.
LAYOUT = m.Layout(long_rowid=False, bigint=True)

DONE_1_SERIAL_0 = "000f" "0000" "00000001" "00000000" "00000000"  # DONE: 1 row
DONE_1_SERIAL_42 = "000f" "0000" "00000001" "00000000" "0000002a"  # DONE: 1 row, serial 42
COST = "0037" "00000001" "00000004"  # SQ_COST: 1 estimated row, cost 4
EOT = "000c"
# SQ_INSERTDONE: INT8 serial8 = 2**32 + 5 (sign 1, low 5, high 1), bigserial 0.
INSERTDONE_SERIAL8 = "005e" "0001" "00000005" "00000001" "0000000000000000"
# SQ_INSERTDONE: serial8 0, bigserial 77.
INSERTDONE_BIGSERIAL = "005e" "0000" "00000000" "00000000" "000000000000004d"


class _Transport:
    def __init__(self, data: bytes) -> None:
        self.buf = bytearray(data)
        self.start = 0
        self.end = len(data)


class _Conn:
    def __init__(self, data: bytes) -> None:
        self._layout = LAYOUT
        self._transport = _Transport(data)


def _pipeline(scan: Any) -> _Pipeline:
    """The reply-reading state of a pipeline, without a connection behind it."""
    pipe = _Pipeline.__new__(_Pipeline)
    pipe.rows = 0
    pipe.lastrowid = None
    pipe._last_done = None
    pipe._last_fields = None
    (pipe._done_eot, pipe._done_cost_eot, pipe._done_body,
     pipe._insert_body) = _fast_replies(LAYOUT)
    pipe._scan = scan
    pipe._scan_layout = (
        LAYOUT.long_rowid, LAYOUT.bigint, Msg.DONE, Msg.INSERTDONE, Msg.EOT, Msg.COST)
    return pipe


REAL_FORMS = [
    # nmap's INSERT reply: INSERTDONE DONE COST EOT, 48 bytes with the tag.
    pytest.param(INSERTDONE_SERIAL8 + DONE_1_SERIAL_0 + COST + EOT, 2**32 + 5, id="ins-done-cost"),
    pytest.param(INSERTDONE_BIGSERIAL + DONE_1_SERIAL_0 + COST + EOT, 77, id="ins-big-done-cost"),
    pytest.param(DONE_1_SERIAL_42 + COST + EOT, 42, id="done-cost"),
    pytest.param(INSERTDONE_SERIAL8 + DONE_1_SERIAL_0 + EOT, 2**32 + 5, id="ins-done"),
    # Our server's forms stay taken.
    pytest.param(DONE_1_SERIAL_42 + EOT, 42, id="done"),
    pytest.param(DONE_1_SERIAL_0 + INSERTDONE_SERIAL8 + EOT, 2**32 + 5, id="done-ins"),
]


@pytest.mark.parametrize("scan", SCANNERS, ids=lambda s: "pure" if s is None else "c")
@pytest.mark.parametrize(("hexreply", "serial"), REAL_FORMS)
def test_a_real_server_reply_is_taken_by_the_scanner(scan: Any, hexreply: str, serial: int) -> None:
    reply = bytes.fromhex(hexreply)
    pipe = _pipeline(scan)
    conn = _Conn(reply * 3)
    assert pipe._read_fast(conn, 10) == 3  # type: ignore[arg-type]
    assert conn._transport.start == 3 * len(reply)
    assert pipe.rows == 3
    assert pipe.lastrowid == serial
    done = pipe.last_done
    assert done is not None and done.rows == 1


@pytest.mark.parametrize("scan", SCANNERS, ids=lambda s: "pure" if s is None else "c")
def test_a_mixed_run_counts_each_reply_once(scan: Any) -> None:
    """Replies of every form one after another (what a real server's executemany of an
    INSERT into a table with a SERIAL8 column and then a plain UPDATE could give)."""
    forms = [
        INSERTDONE_SERIAL8 + DONE_1_SERIAL_0 + COST + EOT,
        DONE_1_SERIAL_42 + COST + EOT,
        DONE_1_SERIAL_0 + EOT,
        INSERTDONE_BIGSERIAL + DONE_1_SERIAL_0 + COST + EOT,
        "000f" "0000" "00000000" "00000000" "00000000" + COST + EOT,  # no row changed
    ]
    data = bytes.fromhex("".join(forms))
    pipe = _pipeline(scan)
    conn = _Conn(data)
    assert pipe._read_fast(conn, 2) == 2  # type: ignore[arg-type]
    assert (pipe.rows, pipe.lastrowid) == (2, 42)
    assert pipe._read_fast(conn, 100) == 3  # type: ignore[arg-type]
    assert conn._transport.start == len(data)
    assert (pipe.rows, pipe.lastrowid) == (4, 77)
    assert pipe.last_done == m.Done(0, 0, 0, 0)


def test_the_pure_loop_reads_real_server_replies_in_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DONE COST EOT`` (real servers' and our server's answer to an INSERT since the
    nineteenth session) is read by the pure loop in slices, as ``DONE EOT`` was: no reply goes
    through ``_other_reply``, the one-reply-at-a-time path. Until the twentieth session every
    such reply did, and a pure executemany of 10k rows cost its client 1.4-1.6x the CPU it had
    against the server before (``make bench``'s executemany rows)."""
    pipe = _pipeline(None)
    one_by_one: list[int] = []

    def counted(buf: bytearray, pos: int, end: int) -> Any:
        one_by_one.append(pos)
        return _Pipeline._other_reply(pipe, buf, pos, end)

    monkeypatch.setattr(pipe, "_other_reply", counted)
    plain = bytes.fromhex(DONE_1_SERIAL_0 + COST + EOT)
    last = bytes.fromhex(DONE_1_SERIAL_42 + COST + EOT)
    data = plain * 299 + last + bytes.fromhex(DONE_1_SERIAL_0 + EOT) * 3
    conn = _Conn(data)
    assert pipe._read_fast(conn, 1000) == 303  # type: ignore[arg-type]
    assert one_by_one == []
    assert conn._transport.start == len(data)
    assert (pipe.rows, pipe.lastrowid) == (303, 42)
    # A COST whose tag is wrong in its high byte is not a run: the one-reply path judges it.
    odd = bytearray(plain)
    odd[16] = 0x01  # the high byte of the COST tag (DONE is 16 bytes with its tag)
    conn = _Conn(bytes(odd))
    assert pipe._read_fast(conn, 10) == 0  # type: ignore[arg-type]
    assert one_by_one == [0]


BAD_FORMS = [
    pytest.param(INSERTDONE_SERIAL8 + INSERTDONE_SERIAL8 + DONE_1_SERIAL_0 + EOT, id="two-ins"),
    pytest.param(
        INSERTDONE_SERIAL8 + DONE_1_SERIAL_0 + INSERTDONE_SERIAL8 + EOT, id="ins-around-done"),
    pytest.param(COST + DONE_1_SERIAL_0 + EOT, id="cost-first"),
    pytest.param(DONE_1_SERIAL_0 + COST + COST + EOT, id="two-costs"),
    pytest.param(DONE_1_SERIAL_0 + COST + "000d" + "00" * 20, id="cost-then-err"),
    pytest.param(INSERTDONE_SERIAL8 + EOT, id="ins-without-done"),
]


@pytest.mark.parametrize("scan", SCANNERS, ids=lambda s: "pure" if s is None else "c")
@pytest.mark.parametrize("hexreply", BAD_FORMS)
def test_other_shapes_are_left_to_the_reply_parser(scan: Any, hexreply: str) -> None:
    pipe = _pipeline(scan)
    conn = _Conn(bytes.fromhex(hexreply))
    assert pipe._read_fast(conn, 10) == 0  # type: ignore[arg-type]
    assert conn._transport.start == 0
    assert (pipe.rows, pipe.lastrowid) == (0, None)


@pytest.mark.parametrize("scan", SCANNERS, ids=lambda s: "pure" if s is None else "c")
def test_a_reply_cut_anywhere_waits_for_its_end(scan: Any) -> None:
    whole = bytes.fromhex(INSERTDONE_SERIAL8 + DONE_1_SERIAL_0 + COST + EOT)
    for cut in range(1, len(whole)):
        pipe = _pipeline(scan)
        conn = _Conn(whole[:cut])
        assert pipe._read_fast(conn, 10) == 0, cut  # type: ignore[arg-type]
        assert conn._transport.start == 0


def test_the_pure_loop_checks_tags_per_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure loop checks the tags of a slice of up to _RUN replies at once (one extended
    slice per tag byte), not three tags per reply in Python (issue 24's 3 % check: 9
    bytecodes per row of a pure executemany); a slice where one reply differs falls back to
    the reply-by-reply loop, which stops at that reply."""
    from ifxwire.client import batch

    calls: list[int] = []
    real = batch._tags_hold

    def counted(chunk: bytearray, size: int, cost_at: int, k: int) -> bool:
        calls.append(k)
        return real(chunk, size, cost_at, k)

    monkeypatch.setattr(batch, "_tags_hold", counted)
    pipe = _pipeline(None)
    plain = bytes.fromhex(DONE_1_SERIAL_0 + COST + EOT)
    conn = _Conn(plain * 299 + bytes.fromhex(DONE_1_SERIAL_42 + COST + EOT))
    assert pipe._read_fast(conn, 1000) == 300  # type: ignore[arg-type]
    assert calls == [128, 128, 44]
    assert (pipe.rows, pipe.lastrowid) == (300, 42)
    # Reply 50 of 100 has a wrong EOT high byte: 50 are taken, the rest is not a run.
    data = bytearray(plain * 100)
    data[50 * len(plain) + len(plain) - 2] = 0x01
    calls.clear()
    pipe = _pipeline(None)
    conn = _Conn(bytes(data))
    monkeypatch.setattr(pipe, "_other_reply", lambda buf, pos, end: None)
    assert pipe._read_fast(conn, 1000) == 50  # type: ignore[arg-type]
    assert conn._transport.start == 50 * len(plain)
    assert pipe.rows == 50 and calls == [100, 50]  # (the second: the slice from reply 50)
