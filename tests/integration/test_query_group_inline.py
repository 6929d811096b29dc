"""A query's groups served inline (issue 26, select_one_row) answer as the general path does.

Session._serve parses `ID [CURNAME] [BIND] OPEN ID NFETCH EOT`, `ID CLOSE EOT` and
`ID RELEASE EOT` in a few byte reads instead of going through read_client_message and the
handler table, and _judge
steps over SQ_CURNAME by its length. The general path still serves every message when the
server traces (Server(trace=True) turns the inline path off), so the same conversation is held
with a tracing server and with a normal one and every reply must be the same; and the strict
checker must still refuse a bad group that contains a CURNAME before any of it runs.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rawclient import RawClient, Reply  # tests/integration is on sys.path (rootdir insertion)

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server
from ifxwire.types.bind import encode_bind_params


def _bind(w: Writer, *values: object) -> Writer:
    return w.u16(Msg.BIND).raw(encode_bind_params(values, "iso-8859-1"))


def _query(sid: int, name: bytes, *params: object, fetch: int = 4096) -> Writer:
    w = Writer()
    m.put_id(w, sid)
    m.put_curname(w, name)
    if params:
        _bind(w, *params)
    w.u16(Msg.OPEN)
    m.put_id(w, sid)
    m.put_nfetch(w, fetch)
    return w


def _close(sid: int, release: bool = False) -> Writer:
    w = Writer()
    m.put_id(w, sid)
    w.u16(Msg.RELEASE if release else Msg.CLOSE)
    return w


def _prepare(c: RawClient, sql: str) -> int:
    w = Writer()
    m.put_prepare(w, sql.encode(), sql.count("?"), c.layout)
    reply = c.send(w)
    assert reply.errors == [], reply.errors
    return reply.describes[0].stmt_id


def _conversation(c: RawClient, db: str) -> list[Reply]:
    """Every reply of a session that uses the inline messages in their usual and odd forms."""
    replies = [c.command(f"create database {db} with log"),
               c.command("create table t (a int, b varchar(10))")]
    for i in range(1, 4):
        replies.append(c.command(f"insert into t values ({i}, 'v{'x' * i}')"))
    sid = _prepare(c, "select a, b from t where a >= ? order by a")
    replies.append(c.send(_query(sid, b"cur", 1)))  # odd-length name: a pad byte follows
    replies.append(c.send(_close(sid)))
    replies.append(c.send(_query(sid, b"c2", 2)))  # the cached re-execute
    replies.append(c.send(_close(sid)))
    # OPEN again without CLOSE, the first cursor having been read to its end.
    replies.append(c.send(_query(sid, b"c2", 3)))
    replies.append(c.send(_query(sid, b"c2", 3)))
    replies.append(c.send(_close(sid)))
    replies.append(c.send(_close(sid, release=True)))
    # The released statement: -208 before a CURNAME, -267 otherwise.
    replies.append(c.send(_query(sid, b"c2", 1)))
    w = Writer()
    m.put_id(w, sid)
    m.put_nfetch(w, 4096)
    replies.append(c.send(w))
    # No parameters; OPEN then ID NFETCH in the same group; a fetch buffer of 1 byte (the
    # server's minimum applies); a small buffer over many rows.
    sid = _prepare(c, "select a from t order by a")
    w = Writer()
    m.put_id(w, sid)
    m.put_curname(w, b"c3")
    w.u16(Msg.OPEN)
    m.put_id(w, sid)
    m.put_nfetch(w, 1)
    replies.append(c.send(w))
    replies.append(c.send(_close(sid)))
    # A NFETCH after the CLOSE of a cursor read to its end.
    w = Writer()
    m.put_id(w, sid)
    m.put_nfetch(w, 4096)
    replies.append(c.send(w))
    # Not a query: OPEN of an INSERT is refused (-400).
    ins = _prepare(c, "insert into t values (9, 'n')")
    replies.append(c.send(_query(ins, b"c4")))
    return replies


@pytest.fixture()
def tracing_server(tmp_path: Path) -> Iterator[Any]:
    with Server(port=0, data=":memory:", trace=True, trace_dir=tmp_path) as srv:
        yield srv


@pytest.fixture()
def plain_server() -> Iterator[Any]:
    with Server(port=0, data=":memory:") as srv:
        yield srv


def test_inline_replies_equal_general_path(tracing_server: Any, plain_server: Any) -> None:
    got = []
    for srv in (tracing_server, plain_server):
        c = RawClient(srv.host, srv.port)
        try:
            got.append(_conversation(c, "inline_q"))
        finally:
            c.close()
    general, inline = got
    assert inline == general
    # and they are what the statements should give
    first = general[5]
    assert first.errors == [] and len(first.tuples) == 3 and [d.rows for d in first.dones] == [3]
    assert first.costs == [(0, 0)]
    assert [d.rows for d in general[7].dones] == [2]
    assert [len(general[i].tuples) for i in (9, 10)] == [1, 1]
    assert [e.sqlcode for e in general[13].errors] == [-208]
    assert [e.sqlcode for e in general[14].errors] == [-267]
    assert len(general[15].tuples) == 3
    # An NFETCH after the CLOSE of a cursor read to its end: -400 ("Fetch attempted on
    # unopen cursor"); it got an SQ_DONE repeating the old row count.
    assert [e.sqlcode for e in general[17].errors] == [-400]
    assert [e.sqlcode for e in general[18].errors] == [-400]


def _wait_closed(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    got = b""
    while chunk := sock.recv(65536):
        got += chunk
    return got


@pytest.mark.parametrize("name", [b"c", b"cur2"], ids=["odd", "even"])
def test_bad_group_with_curname_runs_nothing(plain_server: Any, name: bytes) -> None:
    """_judge steps over CURNAME by its length (it used to parse it): a group
    `ID ins EXECUTE ID q CURNAME name EXECUTE EOT` is still refused whole, before its INSERT
    runs (CURNAME may not be followed by EXECUTE)."""
    c = RawClient(plain_server.host, plain_server.port)
    c.command("create database inline_bad with log")
    c.command("create table t (a int)")
    ins = _prepare(c, "insert into t values (1)")
    q = _prepare(c, "select a from t")
    bad = Writer()
    m.put_id(bad, ins)
    bad.u16(Msg.EXECUTE)
    m.put_id(bad, q)
    m.put_curname(bad, name)
    bad.u16(Msg.EXECUTE).u16(Msg.EOT)
    c.sock.sendall(bad.getvalue())
    assert _wait_closed(c.sock) == b""
    c.sock.close()
    c = RawClient(plain_server.host, plain_server.port)
    try:
        w = Writer()
        m.put_dbopen(w, b"inline_bad")
        assert c.send(w).errors == []
        q = _prepare(c, "select count(*) from t")
        reply = c.send(_query(q, b"n"))
        assert reply.errors == [] and reply.tuples[0][0] == 0x80  # DECIMAL zero: no row ran
    finally:
        c.close()


class _RecordingClient(RawClient):
    """A RawClient that keeps every byte the server sent (after the login)."""

    received: bytearray | None = None  # None during the login

    def __init__(self, host: str, port: int) -> None:
        super().__init__(host, port)
        self.received = bytearray()

    def _recv(self) -> None:
        before = len(self.buf)
        super()._recv()
        if self.received is not None:
            self.received += self.buf[before:]


def _jdbc_conversation(c: RawClient, db: str) -> list[Reply]:
    """IBM JDBC's and informix-driver's group shapes, whose bare messages (NDESCRIBE,
    WANTDONE, CIDESCRIBE) the inline path serves and whose PREPARE _judge parses once for
    both itself and the handler (issue 26)."""
    replies = [c.command(f"create database {db} with log"),
               c.command("create table t (a int, b varchar(10))"),
               c.command("insert into t values (1, 'one')")]
    for sql in ("select a, b from t where a = ?", "select 1 from systables where tabid = 1",
                "insert into t values (?, ?)"):
        w = Writer()
        m.put_prepare(w, sql.encode(), sql.count("?"), c.layout)  # PREPARE NDESCRIBE WANTDONE
        reply = c.send(w)
        replies.append(reply)
        sid = reply.describes[0].stmt_id
        w = Writer()
        m.put_id(w, sid)
        w.u16(Msg.CIDESCRIBE)
        replies.append(c.send(w))
        if sql.startswith("insert"):
            # libsqli's ID BIND EXECUTE WANTDONE: the EXECUTE's own SQ_DONE only
            w = Writer()
            m.put_id(w, sid)
            _bind(w, 2, "two")
            w.u16(Msg.EXECUTE).u16(Msg.WANTDONE)
            replies.append(c.send(w))
        else:
            replies.append(c.send(_query(sid, b"_ifxc0000000000001", *([1] if "?" in sql
                                                                        else []))))
            replies.append(c.send(_close(sid)))
        replies.append(c.send(_close(sid, release=True)))
        # The released statement: its describe is refused (-267), the group goes on.
        w = Writer()
        m.put_id(w, sid)
        w.u16(Msg.CIDESCRIBE)
        replies.append(c.send(w))
    # A PREPARE that fails: NDESCRIBE and WANTDONE answer nothing more.
    w = Writer()
    m.put_prepare(w, b"selec a from t", 0, c.layout)
    replies.append(c.send(w))
    # Two groups in one write: the second PREPARE is judged while the first is served.
    w = Writer()
    m.put_prepare(w, b"select b from t where a = 1", 0, c.layout)
    m.put_eot(w)
    m.put_prepare(w, b"select count(*) from t", 0, c.layout)
    m.put_eot(w)
    c.sock.sendall(w.getvalue())
    replies.append(c.read_reply())
    replies.append(c.read_reply())
    return replies


def test_jdbc_shaped_groups_equal_general_path(tracing_server: Any, plain_server: Any) -> None:
    got: list[tuple[list[Reply], bytes]] = []
    for srv in (tracing_server, plain_server):
        c = _RecordingClient(srv.host, srv.port)
        try:
            got.append((_jdbc_conversation(c, "inline_j"), bytes(c.received or b"")))
        finally:
            c.close()
    (general, general_bytes), (inline, inline_bytes) = got
    assert inline == general
    assert inline_bytes == general_bytes  # the IDESCRIBE replies too, byte for byte
    prepare = general[3]
    assert prepare.errors == [] and [d.rows for d in prepare.dones] == [0]
    assert prepare.costs == [(0, 0)]
    assert general[4].codes[0] == Msg.IDESCRIBE
    assert len(general[5].tuples) == 1
    insert = next(r for r in general if r.codes[:1] == [Msg.DONE])
    assert [d.rows for d in insert.dones] == [1]  # one SQ_DONE: the EXECUTE's
    assert [e.sqlcode for e in general[8].errors] == [-267]
    assert general[-3].errors and general[-3].errors[0].sqlcode == -201
    assert general[-2].errors == [] and general[-1].errors == []
    assert general[-2].describes[0].stmt_id != general[-1].describes[0].stmt_id


def test_a_prepare_group_is_parsed_once(plain_server: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """`PREPARE NDESCRIBE WANTDONE EOT` and `ID CIDESCRIBE EOT` take one full parse per
    statement (the PREPARE's, by _judge, reused by the loop), where they took four: _judge's
    and the loop's of the PREPARE, and the loop's of NDESCRIBE and WANTDONE, then one more of
    CIDESCRIBE."""
    from ifxwire.server import wireio

    calls: list[int] = []
    real = wireio.m.read_client_message

    def counting(r: Any, layout: Any) -> Any:
        msg = real(r, layout)
        calls.append(msg.code)
        return msg

    c = RawClient(plain_server.host, plain_server.port)
    try:
        c.command("create database inline_once")
        monkeypatch.setattr(wireio.m, "read_client_message", counting)
        for _ in range(3):
            w = Writer()
            m.put_prepare(w, b"select 1 from systables where tabid = 1", 0, c.layout)
            sid = c.send(w).describes[0].stmt_id
            w = Writer()
            m.put_id(w, sid)
            w.u16(Msg.CIDESCRIBE)
            assert c.send(w).codes == [Msg.IDESCRIBE, Msg.EOT]
            assert c.send(_close(sid, release=True)).errors == []
        assert calls == [Msg.PREPARE] * 3
    finally:
        monkeypatch.undo()
        c.close()
