"""A minimal SQLI client for tests that need to send exact message sequences.

It uses the protocol layer's builders and parsers directly, so a test can drive messages that
the driver never sends (savepoint and SQ_BATCH messages, odd groupings) and read the reply.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import CLIENT_PROTOCOLS, Msg
from ifxwire.protocol.login import (
    ConnectRequest,
    build_connect_request,
    packet_length,
    parse_connect_response,
)
from ifxwire.protocol.wire import NeedMore, Reader, Writer


@dataclass
class Reply:
    describes: list[m.Describe] = field(default_factory=list)
    dones: list[m.Done] = field(default_factory=list)
    errors: list[m.ServerError] = field(default_factory=list)
    tuples: list[bytes] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    blob: bytes = b""
    tupids: list[int] = field(default_factory=list)
    costs: list[tuple[int, int]] = field(default_factory=list)
    databases: list[bytes] = field(default_factory=list)


class RawClient:
    def __init__(self, host: str, port: int, user: str = "informix", password: str = "in4mix",
                 protocols: bytes = CLIENT_PROTOCOLS, server: str = "informix",
                 env: dict[str, str] | None = None, database: str | None = None):
        self.sock = socket.create_connection((host, port), timeout=10)
        self.buf = b""
        self.offered = protocols
        self.sock.sendall(build_connect_request(
            ConnectRequest(user, password, server, database=database, env=env or {})))
        while len(self.buf) < 2 or len(self.buf) < packet_length(self.buf):
            self._recv()
        n = packet_length(self.buf)
        resp = parse_connect_response(self.buf[:n])
        self.buf = self.buf[n:]
        assert resp.accepted, resp
        self.layout = m.Layout()
        w = Writer()
        m.put_protocols(w, protocols)
        r = self.send(w)
        assert r.codes[0] == Msg.PROTOCOLS

    def _recv(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("server closed the connection")
        self.buf += chunk

    def send(self, w: Writer) -> Reply:
        """Send ``w`` plus SQ_EOT and read one reply."""
        m.put_eot(w)
        self.sock.sendall(w.getvalue())
        return self.read_reply()

    def read_reply(self) -> Reply:
        """Read one reply (up to SQ_EOT)."""
        reply = Reply()
        while True:
            r = Reader(self.buf)
            try:
                code = r.u16()
                if code == Msg.PROTOCOLS:
                    mask = r.padded(r.u16())
                    self.layout = m.Layout.negotiate(mask, self.offered)
                elif code == Msg.DESCRIBE:
                    reply.describes.append(m.read_describe(r, self.layout))
                elif code == Msg.DONE:
                    reply.dones.append(m.read_done(r, self.layout))
                elif code == Msg.ERR:
                    reply.errors.append(m.read_err(r, self.layout))
                elif code == Msg.COST:
                    reply.costs.append((r.i32(), r.i32()))  # estimated rows, cost
                elif code == Msg.DBLIST:
                    while name := r.charstr():
                        reply.databases.append(name)
                elif code == Msg.TUPLE:
                    r.i16()
                    reply.tuples.append(r.padded(r.i32()))
                elif code == Msg.INSERTDONE:
                    m.read_insertdone(r, self.layout)
                elif code == Msg.IDESCRIBE:
                    m.read_idescribe(r, self.layout)
                elif code == Msg.TUPID:
                    reply.tupids.append(r.i32())
                elif code == Msg.BLOB:
                    reply.blob += r.padded(r.u16())
                elif code == Msg.DBLIST:
                    # CHARSTR names ended by an empty one (JDBC IfxSqli.receiveDBList)
                    names = []
                    while name := r.charstr():
                        names.append(name)
                    reply.databases = names
                elif code not in (Msg.EOT, Msg.CLOSE):
                    raise AssertionError(f"unexpected reply message {code}")
            except NeedMore:
                self._recv()
                continue
            self.buf = self.buf[r.pos :]
            reply.codes.append(code)
            if code == Msg.EOT:
                return reply

    def command(self, sql: str) -> Reply:
        w = Writer()
        m.put_command(w, sql.encode(), self.layout)
        return self.send(w)

    def close(self) -> None:
        """SQ_EXIT, then wait until the server hangs up: it acknowledges only after it rolled
        back and released the session's locks, so the next test cannot meet them (was: a
        race, -242 in the test after a raw session)."""
        try:
            self.sock.sendall(Writer().u16(Msg.EXIT).getvalue())
            self.sock.settimeout(10)
            while self.sock.recv(65536):
                pass
        except OSError:
            pass
        finally:
            self.sock.close()
