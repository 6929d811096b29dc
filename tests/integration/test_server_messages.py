"""Messages our driver never sends but real clients do: savepoints (JDBC setSavepoint etc.)
and the SQ_BATCH brackets JDBC puts around batches in ANSI databases."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer


@pytest.fixture()
def raw(server: Any) -> Iterator[RawClient]:
    c = RawClient(server.host, server.port)
    yield c
    c.close()


def _count(c: RawClient, table: str) -> int:
    w = Writer()
    m.put_prepare(w, f"select count(*) from {table}".encode(), 0, c.layout)
    sid = c.send(w).describes[0].stmt_id
    w = Writer()
    m.put_id(w, sid)
    m.put_curname(w, b"_ifxc_count")
    w.u16(Msg.OPEN)
    m.put_id(w, sid)
    m.put_nfetch(w, 4096)
    reply = c.send(w)
    w = Writer()
    m.put_id(w, sid)
    w.u16(Msg.RELEASE)
    c.send(w)
    # COUNT(*) is DECIMAL(15,0): a small positive value is C1 <n> (or 80 00 for zero).
    data = reply.tuples[0]
    return 0 if data[0] == 0x80 else data[1]


def test_savepoint_messages(raw: RawClient) -> None:
    raw.command("create database svpt_msgs with log")
    raw.command("create table t (a int)")
    assert raw.send(Writer().u16(Msg.BEGIN)).errors == []
    raw.command("insert into t values (1)")
    assert raw.send(Writer().u16(Msg.SVPT_SET).charstr(b"sp1").u16(0)).errors == []
    raw.command("insert into t values (2)")
    assert _count(raw, "t") == 2
    assert raw.send(Writer().u16(Msg.SVPT_ROLLBACK).charstr(b"sp1")).errors == []
    assert _count(raw, "t") == 1
    assert raw.send(Writer().u16(Msg.SVPT_RELEASE).charstr(b"sp1")).errors == []
    err = raw.send(Writer().u16(Msg.SVPT_ROLLBACK).charstr(b"sp1")).errors
    assert [e.sqlcode for e in err] == [-999]
    assert raw.send(Writer().u16(Msg.CMMTWORK)).errors == []
    assert _count(raw, "t") == 1


def test_batch_brackets_in_an_ansi_database(raw: RawClient) -> None:
    raw.command("create database batch_ansi with log mode ansi")
    raw.command("create table t (a int)")
    w = Writer()
    m.put_prepare(w, b"insert into t values (?)", 1, raw.layout)
    sid = raw.send(w).describes[0].stmt_id
    # ID BIND BATCHSTART EXECUTE BIND EXECUTE BATCHEND EOT (IfxSqli batch path, bytecode).
    w = Writer()
    m.put_id(w, sid)
    for i, extra in ((1, Msg.BATCHSTART), (2, None)):
        w.u16(Msg.BIND).u16(1).i16(2).i16(0).i16(0x0A00).i32(i)
        if extra is not None:
            w.u16(extra)
        w.u16(Msg.EXECUTE)
    w.u16(Msg.BATCHEND)
    reply = raw.send(w)
    assert reply.errors == []
    assert [d.rows for d in reply.dones] == [1, 1]
    assert raw.send(Writer().u16(Msg.CMMTWORK)).errors == []
    assert _count(raw, "t") == 2


def test_a_message_larger_than_the_receive_buffer(server: Any) -> None:
    # The session's receive buffer starts at 256 KiB; a longer statement makes it grow.
    import ifxwire

    with ifxwire.connect(
        host=server.host, port=server.port, user="informix", password="in4mix", autocommit=True
    ) as conn:
        padding = " " * 600_000
        cur = conn.cursor()
        cur.execute(f"select count(*) from sysmaster:systables where tabid = 1{padding}")
        assert cur.fetchone() == (1,)


def test_batched_inserts_never_read_stale_buffer_bytes(raw: RawClient) -> None:
    # The receive buffer is reused: after a burst of complete groups, a shorter burst that ends
    # with an incomplete group (EXECUTE sent, EOT not yet) lies over the old bytes, and at the
    # missing EOT's place the buffer still holds the EOT of an older group. The batch must not
    # count that group as complete.
    raw.command("create database batch_stale with log")
    raw.command("create table t (a int)")
    assert raw.send(Writer().u16(Msg.BEGIN)).errors == []
    raw.command("insert into t values (0)")  # takes the write lock: inserts may be batched
    w = Writer()
    m.put_prepare(w, b"insert into t values (?)", 1, raw.layout)
    sid = raw.send(w).describes[0].stmt_id

    def group(i: int) -> bytes:
        g = Writer()
        m.put_id(g, sid)
        g.u16(Msg.BIND).u16(1).i16(2).i16(0).i16(0x0A00).i32(i)
        g.u16(Msg.EXECUTE).u16(Msg.EOT)
        return g.getvalue()

    raw.sock.sendall(b"".join(group(i) for i in range(1, 41)))
    for _ in range(40):
        assert raw.read_reply().dones[0].rows == 1
    time.sleep(0.2)  # let the server drain the buffer, so the next burst lands at its start
    tail = group(99)
    raw.sock.sendall(b"".join(group(i) for i in range(41, 51)) + tail[:-2])
    time.sleep(0.2)
    raw.sock.sendall(tail[-2:])
    for _ in range(11):
        reply = raw.read_reply()
        assert reply.errors == [] and reply.dones[0].rows == 1
    assert raw.send(Writer().u16(Msg.CMMTWORK)).errors == []
    assert _count(raw, "t") == 52
