"""SQ_DONE and SQ_COST packed whole (issue 26) give the bytes the field-at-a-time form gave.

put_done/put_cost are written on every statement's reply; they became one struct pack each.
The reference below is the former field-at-a-time writer, kept here as the golden form, plus
captured bytes (jdbc-protocol.md 6(b), 2.4) for the cases real servers were seen to send.
"""

from __future__ import annotations

import struct

import pytest

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer

LAYOUTS = [m.Layout(long_rowid=False), m.Layout(long_rowid=True)]


def _done_fields(rows: int, layout: m.Layout, serial: int, rowid: int, warnings: int) -> bytes:
    w = Writer().u16(Msg.DONE).i16(warnings)
    if layout.long_rowid:
        w.i64(rows).i64(rowid)
    else:
        w.i32(rows).i32(rowid)
    return w.i32(serial).getvalue()


@pytest.mark.parametrize("layout", LAYOUTS, ids=["short", "long_rowid"])
@pytest.mark.parametrize(
    ("rows", "serial", "rowid", "warnings"),
    [(0, 0, 0, 0), (1, 0, 0, 0), (100000, 7, 0, 0), (0, 0, 0, 1), (5, -3, 257, 0x0102),
     (2**31 - 1, 2**31 - 1, 2**31 - 1, -1), (0, -(2**31), 0, -(2**15))],
)
def test_done_matches_fields(
    layout: m.Layout, rows: int, serial: int, rowid: int, warnings: int
) -> None:
    w = Writer(bytearray(b"prefix"))
    m.put_done(w, rows, layout, serial=serial, rowid=rowid, warnings=warnings)
    assert bytes(w.buf) == b"prefix" + _done_fields(rows, layout, serial, rowid, warnings)


def test_done_captured_bytes() -> None:
    w = Writer()
    m.put_done(w, 1, m.Layout())
    m.put_done(w, 0, m.Layout(), warnings=1)
    assert w.getvalue() == bytes.fromhex(
        "000f 0000 00000001 00000000 00000000 000f 0001 00000000 00000000 00000000")


def test_done_long_rowid_counts_past_i32() -> None:
    w = Writer()
    m.put_done(w, 2**40, m.Layout(long_rowid=True))
    assert w.getvalue() == _done_fields(2**40, m.Layout(long_rowid=True), 0, 0, 0)


def test_done_out_of_range_still_refused() -> None:
    # The field-at-a-time form raised struct.error for a count its field cannot hold.
    with pytest.raises(struct.error):
        m.put_done(Writer(), 2**31, m.Layout(long_rowid=False))


@pytest.mark.parametrize(("rows", "cost"), [(0, 0), (1, 0), (0, 1), (-1, 2**31 - 1)])
def test_cost_matches_fields(rows: int, cost: int) -> None:
    w = Writer(bytearray(b"x"))
    m.put_cost(w, rows, cost)
    assert bytes(w.buf) == b"x" + Writer().u16(Msg.COST).i32(rows).i32(cost).getvalue()


def test_cost_zero_bytes() -> None:
    w = Writer()
    m.put_cost(w, 0, 0)
    assert w.getvalue() == bytes.fromhex("0037 00000000 00000000")


def _reply_bytes(costs: int = 1) -> bytes:
    w = Writer()
    m.put_done(w, 1, m.Layout())
    for _ in range(costs):
        w.u16(Msg.COST).i32(7).i32(-2)
    return w.u16(Msg.EOT).getvalue()


def test_the_reply_parser_reads_cost_without_the_message_chain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQ_COST ends a real server's reply to every statement: ``Reply.feed`` reads it in
    place (issue 24's 3 % check: ~85 bytecodes a statement less), giving what the general
    path (``_message``) gives: the pair, the message count. Only DONE reaches ``_message``
    (it reached it twice before)."""
    from ifxwire.client.replies import Reply

    seen: list[int] = []
    general = Reply._message

    def counted(self: Reply, code: int, r: object, at: int) -> None:
        seen.append(code)
        general(self, code, r, at)  # type: ignore[arg-type]

    monkeypatch.setattr(Reply, "_message", counted)
    data = bytearray(_reply_bytes())
    reply = Reply(m.Layout(), "utf-8")
    assert reply.feed(data, 0, len(data)) == len(data)
    assert reply.complete and reply.cost == (7, -2) and reply.messages == 2
    assert reply.done is not None and reply.done.rows == 1
    assert seen == [int(Msg.DONE)]
    # Traced, cut inside the COST, or past the message limit: the general path, same result.
    traced = Reply(m.Layout(), "utf-8", trace=True)
    assert traced.feed(data, 0, len(data)) == len(data)
    assert traced.cost == (7, -2) and traced.names == ["DONE", "COST", "EOT"]
    cut = Reply(m.Layout(), "utf-8")
    at = cut.feed(data, 0, len(data) - 5)
    assert not cut.complete and cut.cost is None
    assert cut.feed(data, at, len(data)) == len(data)
    assert cut.complete and cut.cost == (7, -2) and cut.messages == 2
