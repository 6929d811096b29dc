"""Replies shaped as real servers shape them, checked over raw sockets against our server.

The witnesses are clients written against real Informix servers (docs/PROTOCOL.md §2, §3, §5,
§6, §7): nmap's ``nselib/informix.lua`` (tested by its author on IDS 11.50), which reads fixed
byte counts and so records the exact replies it met, IBM JDBC's parsers, and informix-driver's
notes. tests/interop/test_nmap.py runs nmap's scripts themselves; these tests pin each fact
without nmap, so they run everywhere.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import (
    DBFLAG_EXTENSION,
    DBFLAG_INFORMIX,
    DBFLAG_LOGGED,
    Msg,
)
from ifxwire.protocol.login import (
    ConnectRequest,
    build_connect_request,
    packet_length,
    parse_connect_response,
)
from ifxwire.protocol.wire import Reader, Writer
from ifxwire.server import Server
from ifxwire.types.bind import encode_bind_params

#: The capability bytes nmap's informix.lua offers (7 bytes: no bit 50, no bit 63).
NMAP_PROTOCOLS = bytes.fromhex("fffc7ffc3c8c8a")
SERVER_NAME = "ol_replies"


@pytest.fixture(scope="module")
def srv() -> Iterator[Server]:
    with Server(port=0, data=":memory:", server_name=SERVER_NAME,
                users={"informix": "in4mix"}, failed_login_limit=0) as s:
        c = ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                            server=SERVER_NAME)
        try:
            c.cursor().execute("CREATE DATABASE replies WITH LOG")
        finally:
            c.close()
        c = ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                            server=SERVER_NAME, database="replies")
        try:
            cur = c.cursor()
            cur.execute("CREATE TABLE t (n INTEGER, s CHAR(4))")
            cur.execute("INSERT INTO t VALUES (1, 'ab')")
            cur.execute("INSERT INTO t VALUES (2, 'cd')")
            c.commit()
        finally:
            c.close()
        yield s


def _login(srv: Server, server: str, password: str = "in4mix") -> tuple[socket.socket, Any]:
    sock = socket.create_connection((srv.host, srv.port), timeout=10)
    sock.sendall(build_connect_request(ConnectRequest("informix", password, server)))
    buf = b""
    while len(buf) < 2 or len(buf) < packet_length(buf):
        chunk = sock.recv(4096)
        assert chunk, "the server closed before its login answer"
        buf += chunk
    return sock, parse_connect_response(buf[: packet_length(buf)])


def _raw(srv: Server, protocols: bytes = NMAP_PROTOCOLS) -> RawClient:
    return RawClient(srv.host, srv.port, protocols=protocols, server=SERVER_NAME)


def _open(c: RawClient, name: bytes = b"replies") -> Any:
    w = Writer()
    m.put_dbopen(w, name)
    return c.send(w)


# ---- login ---------------------------------------------------------------------------------


def test_a_wrong_server_name_is_rejected_with_the_servers_own_name(srv: Server) -> None:
    """-761 carries the server's DBSERVERNAME where nmap reads it to retry with (was: the
    client's application id "sqli", and nmap's informix-brute retried with it for ever)."""
    sock, resp = _login(srv, "on_nmap_dummy")
    sock.close()
    assert not resp.accepted
    assert resp.svc_error == -761
    assert resp.applid == SERVER_NAME


def test_other_answers_keep_the_application_id(srv: Server) -> None:
    sock, resp = _login(srv, SERVER_NAME, password="wrong")
    sock.close()
    assert (resp.accepted, resp.svc_error, resp.applid) == (False, -951, "sqli")
    sock, resp = _login(srv, SERVER_NAME)
    sock.close()
    assert (resp.accepted, resp.applid) == (True, "sqli")


def test_a_rejected_client_may_still_say_goodbye(srv: Server) -> None:
    """After a rejection nmap sends SQ_EXIT and reads; it must meet end-of-file, not a reset
    (was: ECONNRESET, which nmap's brute engine takes for a broken connection and retries)."""
    sock, resp = _login(srv, SERVER_NAME, password="wrong")
    try:
        assert resp.svc_error == -951
        sock.sendall(Writer().u16(Msg.EXIT).getvalue())
        time.sleep(0.3)  # let a reset, if any, arrive before the read
        assert sock.recv(16) == b""
    finally:
        sock.close()


def test_a_bare_exit_instead_of_a_login_is_refused_at_once(srv: Server) -> None:
    """nmap closes unused connections with a bare SQ_EXIT (0x0038); read as a login length of
    56 it made the server wait for bytes that never came, and nmap's read timed out (20 s) in
    a loop. No connection request is shorter than 100 bytes."""
    with socket.create_connection((srv.host, srv.port), timeout=10) as sock:
        sock.sendall(b"\x00\x38")
        started = time.monotonic()
        assert sock.recv(16) == b""
        assert time.monotonic() - started < 5


# ---- replies -------------------------------------------------------------------------------


def test_dbopen_answers_done_with_the_extension_flag_and_a_cost(srv: Server) -> None:
    c = _raw(srv)
    try:
        r = _open(c)
        assert r.codes == [Msg.DONE, Msg.COST, Msg.EOT]
        assert r.dones[0].warnings == DBFLAG_LOGGED | DBFLAG_INFORMIX | DBFLAG_EXTENSION
    finally:
        c.close()


def test_prepare_with_wantdone_answers_describe_done_cost(srv: Server) -> None:
    c = _raw(srv, protocols=bytes.fromhex("fffc7ffc3c8caa9706"))
    try:
        _open(c)
        w = Writer()
        m.put_prepare(w, b"SELECT n, s FROM t ORDER BY n", 0, c.layout)  # + NDESCRIBE WANTDONE
        r = c.send(w)
        assert r.codes == [Msg.DESCRIBE, Msg.DONE, Msg.COST, Msg.EOT]
        assert [col.name for col in r.describes[0].columns] == ["n", "s"]
    finally:
        c.close()


def test_a_client_without_bits_50_and_63_gets_short_offsets_and_sends_a_short_size(
    srv: Server,
) -> None:
    """nmap offers neither four-byte describe offsets (50) nor the 2 GB fetch buffer (63):
    its SQ_DESCRIBE has i16 name-table size and name offsets, its NFETCH an i16 size."""
    c = _raw(srv)
    try:
        assert not c.layout.long_offsets and not c.layout.long_fetch
        _open(c)
        w = Writer()
        # nmap's PREPARE: the even-length text carries its C terminator inside the length.
        sql = b"SELECT n, s FROM t ORDER BY n"
        assert len(sql) % 2 == 1
        m.put_prepare(w, sql + b"\0", 0, c.layout)
        r = c.send(w)
        assert r.errors == []
        d = r.describes[0]
        assert [col.name for col in d.columns] == ["n", "s"]
        w = Writer()
        m.put_id(w, d.stmt_id)
        m.put_curname(w, b"_ifxc0000000000002")
        w.u16(Msg.OPEN)
        m.put_id(w, d.stmt_id)
        w.u16(Msg.NFETCH).i16(4096).u16(0)
        r = c.send(w)
        assert r.errors == []
        assert len(r.tuples) == 2
        assert r.codes[-3:] == [Msg.DONE, Msg.COST, Msg.EOT]
        assert r.dones[-1].rows == 2
    finally:
        c.close()


def test_a_terminated_even_length_statement_runs(srv: Server) -> None:
    c = _raw(srv)
    try:
        _open(c)
        w = Writer()
        # put_command adds NDESCRIBE EXECUTE RELEASE
        m.put_command(w, b"UPDATE t SET n = n WHERE n = 1\0", c.layout)
        r = c.send(w)
        assert r.errors == [] and r.dones[-1].rows == 1
    finally:
        c.close()


def test_dblist_lists_the_databases(srv: Server) -> None:
    c = _raw(srv)
    try:
        r = c.send(Writer().u16(Msg.DBLIST))
        assert r.codes == [Msg.DBLIST, Msg.EOT]
        assert b"replies" in r.databases and b"sysmaster" in r.databases
    finally:
        c.close()


def test_exit_is_answered_at_once_then_the_server_hangs_up(srv: Server) -> None:
    """SQ_EXIT gets SQ_EXIT (what JDBC, informix-driver and nmap read) and end-of-file, at
    once, also with a transaction open (docs/PROTOCOL.md §7)."""
    c = _raw(srv)
    try:
        _open(c)
        assert c.send(Writer().u16(Msg.BEGIN)).errors == []
        assert c.command("UPDATE t SET n = n").errors == []
        c.sock.sendall(Writer().u16(Msg.EXIT).getvalue())
        started = time.monotonic()
        got = b""
        while chunk := c.sock.recv(16):
            got += chunk
        assert got == b"\x00\x38"
        assert time.monotonic() - started < 1.0
    finally:
        c.sock.close()


# ---- PREPARE groupings: reply shapes and one write per reply -------------------------------


def _read_until_eot(c: RawClient) -> bytes:
    """The raw bytes of one reply, up to and with its SQ_EOT (read by RawClient's parser)."""
    received = bytearray(c.buf)
    recv = c._recv

    def tap() -> None:
        n = len(c.buf)
        recv()
        received.extend(c.buf[n:])

    c._recv = tap  # type: ignore[method-assign]
    try:
        c.read_reply()
    finally:
        del c._recv
    return bytes(received[: len(received) - len(c.buf)])


def test_command_answers_describe_done_cost_as_nmap_reads_it(srv: Server) -> None:
    """COMMAND NDESCRIBE EXECUTE RELEASE EOT (JDBC executeUpdate; nmap for every statement
    that is not a SELECT): nmap reads the DESCRIBE, a tag, and then exactly 26 bytes after an
    SQ_DONE tag (DONE 14, COST 10, EOT 2) or 46 after an SQ_INSERTDONE tag (INSERTDONE 18,
    DONE 16, COST 10, EOT 2). Was: DESCRIBE DONE EOT (16 bytes, nmap waited for 10 more) and
    DESCRIBE DONE INSERTDONE EOT."""
    c = _raw(srv)
    try:
        _open(c)
        assert c.command("CREATE TABLE cmd_s8 (id SERIAL8, v CHAR(2))").errors == []
        assert not c.layout.long_rowid and c.layout.bigint  # nmap's capabilities
        for sql, tag, rest in (
            (b"UPDATE t SET n = n WHERE n = 1", Msg.DONE, 26),
            (b"INSERT INTO cmd_s8 (v) VALUES ('a')", Msg.INSERTDONE, 46),
        ):
            w = Writer()
            m.put_command(w, sql, c.layout)
            m.put_eot(w)
            c.sock.sendall(w.getvalue())
            raw = _read_until_eot(c)
            r = Reader(raw)
            assert r.u16() == Msg.DESCRIBE
            m.read_describe(r, c.layout)
            assert r.u16() == tag
            assert len(raw) - r.pos == rest, sql
            assert raw[-12:] == Writer().u16(Msg.COST).i32(0).i32(0).u16(Msg.EOT).getvalue()
    finally:
        c.close()


def test_a_prepared_execute_answers_insertdone_done_cost(srv: Server) -> None:
    """ID [BIND] EXECUTE EOT (JDBC executeUpdate of a PreparedStatement, informix-driver,
    every executemany row): real servers answer [INSERTDONE] DONE COST EOT, the form of a
    COMMAND's EXECUTE above (informix-driver's EXECUTE readers: "DONE + COST + EOT" with an
    SQ_INSERTDONE read before the DONE; docs/PROTOCOL.md §6). Was: DONE [INSERTDONE] EOT."""
    c = _raw(srv)
    cost_eot = Writer().u16(Msg.COST).i32(0).i32(0).u16(Msg.EOT).getvalue()
    try:
        _open(c)
        assert c.command("CREATE TABLE px_s8 (id SERIAL8, v CHAR(2))").errors == []
        for sql, params, serial8 in (
            (b"UPDATE t SET n = n WHERE n = ?", [1], None),
            (b"INSERT INTO px_s8 (v) VALUES (?)", ["a"], 1),
            (b"INSERT INTO px_s8 (v) VALUES ('b')", [], 2),
        ):
            w = Writer()
            m.put_prepare(w, sql, len(params), c.layout)
            m.put_eot(w)
            c.sock.sendall(w.getvalue())
            r = Reader(_read_until_eot(c))
            assert r.u16() == Msg.DESCRIBE
            sid = m.read_describe(r, c.layout).stmt_id
            w = Writer()
            m.put_id(w, sid)
            if params:
                w.u16(Msg.BIND).raw(encode_bind_params(params, "utf-8"))
            w.u16(Msg.EXECUTE).u16(Msg.EOT)
            c.sock.sendall(w.getvalue())
            raw = _read_until_eot(c)
            r = Reader(raw)
            if serial8 is not None:
                assert r.u16() == Msg.INSERTDONE, sql
                assert m.read_insertdone(r, c.layout).serial8 == serial8
            assert r.u16() == Msg.DONE, sql
            assert m.read_done(r, c.layout).rows == 1
            assert raw[r.pos :] == cost_eot, sql
            w = Writer()
            m.put_id(w, sid)
            w.u16(Msg.RELEASE).u16(Msg.EOT)
            c.sock.sendall(w.getvalue())
            _read_until_eot(c)
    finally:
        c.close()


class _RecordingSocket:
    """A session's socket whose writes are recorded; everything else is the socket's."""

    def __init__(self, sock: Any, writes: list[bytes]) -> None:
        self._sock = sock
        self._writes = writes

    def sendall(self, data: bytes | bytearray) -> None:
        self._writes.append(bytes(data))
        self._sock.sendall(data)

    def sendmsg(self, parts: list[Any], *args: Any) -> int:
        self._writes.append(b"".join(bytes(p) for p in parts))
        return int(self._sock.sendmsg(parts, *args))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def test_each_reply_leaves_in_one_write(srv: Server) -> None:
    """A real server sends a reply in one packet. libsqli ends a reply at an SQ_EOT that no
    byte follows within SQLI_EOT_WAIT_MS (1 ms), so a reply written in pieces (a PREPARE's
    DONE, then its COST EOT) would read as two replies. libsqli's groups, in libsqli's own
    sends (ID BIND alone, then EXECUTE EOT): every reply is one write holding all of it."""
    writes: list[bytes] = []
    c = _raw(srv)
    try:
        _open(c)
        # Every write of this session's socket, recorded at the socket (the session sends
        # from more than one place: _flush, _send, and the inlined flush of _await_request).
        port = c.sock.getsockname()[1]
        (session,) = [s for s in list(srv._sessions) if s.peer.endswith(f":{port}")]
        session.sock = _RecordingSocket(session.sock, writes)
        writes.clear()
        w = Writer()
        m.put_prepare(w, b"INSERT INTO t (n, s) VALUES (?, ?)", 2, c.layout)
        m.put_eot(w)
        c.sock.sendall(w.getvalue())
        prepare = _read_until_eot(c)
        assert writes == [prepare]
        r = Reader(prepare)
        assert r.u16() == Msg.DESCRIBE
        sid = m.read_describe(r, c.layout).stmt_id
        assert r.u16() == Msg.DONE
        m.read_done(r, c.layout)
        assert (r.u16(), r.i32(), r.i32(), r.u16()) == (Msg.COST, 0, 0, Msg.EOT)

        writes.clear()
        w = Writer()
        m.put_id(w, sid)
        w.u16(Msg.BIND).raw(encode_bind_params([9, "zz"], "utf-8"))
        c.sock.sendall(w.getvalue())
        time.sleep(0.05)  # libsqli's EXECUTE EOT is a send of its own
        c.sock.sendall(Writer().u16(Msg.EXECUTE).u16(Msg.EOT).getvalue())
        execute = _read_until_eot(c)
        assert writes == [execute]
        assert Reader(execute).u16() == Msg.DONE
        assert execute.endswith(Writer().u16(Msg.COST).i32(0).i32(0).u16(Msg.EOT).getvalue())

        writes.clear()
        w = Writer()
        m.put_command(w, b"DELETE FROM t WHERE n = 9", c.layout)
        m.put_eot(w)
        c.sock.sendall(w.getvalue())
        assert writes == [_read_until_eot(c)]
    finally:
        c.close()
