"""Random and truncated messages against the server: it never crashes, never hangs, and a
well-behaved session running at the same time keeps getting right answers.

The run is bounded in count and time.  Any exception a session does not classify (a protocol
violation, a need for more bytes, or an Informix error) is logged by the server as an
"internal error"; the test fails if one appears, because it means some malformed input reached
code that did not expect it.
"""

from __future__ import annotations

import contextlib
import logging
import random
import socket
import time
from collections.abc import Iterator

import pytest

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import CLIENT_PROTOCOLS, Msg
from ifxwire.protocol.login import ConnectRequest, build_connect_request, packet_length
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server

CASES = 250
TIME_BUDGET = 25.0


class _InternalErrors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture()
def server() -> Iterator[Server]:
    with Server(port=0, data=":memory:") as srv:
        yield srv


def _login(sock: socket.socket) -> None:
    sock.sendall(build_connect_request(ConnectRequest("informix", "in4mix", "informix")))
    head = sock.recv(2)
    n = packet_length(head)
    got = len(head)
    while got < n:
        chunk = sock.recv(n - got)
        if not chunk:
            raise ConnectionError("server closed during login")
        got += len(chunk)


def _valid_groups(rng: random.Random) -> list[bytes]:
    """Well-formed request groups to mutate or cut."""
    lay = m.Layout(long_sql=True)
    out = []
    w = Writer()
    m.put_protocols(w, CLIENT_PROTOCOLS)
    m.put_eot(w)
    out.append(w.getvalue())
    w = Writer()
    m.put_prepare(w, b"select tabid, tabname from systables where tabid > ?", 1, lay)
    m.put_eot(w)
    out.append(w.getvalue())
    w = Writer()
    m.put_id(w, 0)
    w.u16(Msg.BIND).u16(2).i16(2).i16(0).i16(0x0A00).i32(rng.randint(-5, 5))
    w.i16(0).i16(0).i16(0).u16(3).padded(b"abc")
    w.u16(Msg.EXECUTE)
    m.put_eot(w)
    out.append(w.getvalue())
    w = Writer()
    m.put_info_env(w, [(b"DBTEMP", b"/tmp"), (b"OPTOFC", b"1")])
    m.put_eot(w)
    out.append(w.getvalue())
    w = Writer()
    m.put_dbopen(w, b"fuzzdb")
    m.put_eot(w)
    out.append(w.getvalue())
    return out


def _fuzz_case(rng: random.Random) -> tuple[str, bytes, bool]:
    """(kind, bytes, login_first)."""
    groups = _valid_groups(rng)
    kind = rng.choice(["random", "truncated", "bitflip", "unknown_code", "login_garbage", "huge"])
    if kind == "random":
        return kind, rng.randbytes(rng.randint(1, 300)), True
    if kind == "truncated":
        g = b"".join(rng.sample(groups, k=rng.randint(1, len(groups))))
        return kind, g[: rng.randint(1, len(g) - 1)], True
    if kind == "bitflip":
        g = bytearray(b"".join(groups))
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(g))
            g[i] ^= 1 << rng.randrange(8)
        return kind, bytes(g), True
    if kind == "unknown_code":
        return kind, Writer().u16(rng.choice([0, 13, 77, 999, 0xFFFF])).u16(12).getvalue(), True
    if kind == "huge":
        # A PREPARE claiming a 100 MB statement, then silence.
        return kind, Writer().u16(Msg.PREPARE).u16(0).u32(100_000_000).getvalue(), True
    pkt = bytearray(build_connect_request(ConnectRequest("informix", "in4mix", "informix")))
    for _ in range(rng.randint(1, 8)):
        pkt[rng.randrange(len(pkt))] = rng.randrange(256)
    return kind, bytes(pkt[: rng.randint(1, len(pkt))]), False


def test_fuzzed_sessions_never_hurt_the_server(server: Server) -> None:
    catcher = _InternalErrors()
    logging.getLogger("ifxwire.server").addHandler(catcher)
    try:
        good = ifxwire.connect(
            host=server.host, port=server.port, user="informix", password="in4mix", autocommit=True
        )
        cur = good.cursor()
        cur.execute("create database fuzzdb with log")
        cur.execute("create table t (id integer primary key, name varchar(20))")
        cur.executemany("insert into t values (?, ?)", [(i, f"n{i}") for i in range(50)])
        rng = random.Random(20261122)
        deadline = time.monotonic() + TIME_BUDGET
        kinds: dict[str, int] = {}
        for case in range(CASES):
            if time.monotonic() > deadline:
                break
            kind, data, login_first = _fuzz_case(rng)
            kinds[kind] = kinds.get(kind, 0) + 1
            with socket.create_connection((server.host, server.port), timeout=5) as sock:
                try:
                    if login_first:
                        _login(sock)
                    sock.sendall(data)
                    sock.settimeout(0.05)
                    with contextlib.suppress(TimeoutError, ConnectionError):
                        sock.recv(65536)
                except ConnectionError:
                    pass  # the server closed the session: an allowed answer to garbage
            if case % 10 == 0:
                cur.execute("select count(*), sum(id) from t where name like 'n%'")
                assert cur.fetchone() == (50, 1225), f"wrong answer after case {case} ({kind})"
        assert sum(kinds.values()) >= 50, kinds
        cur.execute("select count(*) from t")
        assert cur.fetchone()[0] == 50
        good.close()
        # The server still accepts new sessions after everything above.
        again = ifxwire.connect(
            host=server.host,
            port=server.port,
            user="informix",
            password="in4mix",
            database="fuzzdb",
        )
        again.cursor().execute("select first 1 id from t")
        again.close()
    finally:
        logging.getLogger("ifxwire.server").removeHandler(catcher)
    internal = [r.getMessage() for r in catcher.records]
    assert not internal, f"unclassified server errors: {internal[:5]}"


def test_session_sockets_are_released(server: Server) -> None:
    """Sessions that sent garbage are torn down, not left holding threads."""
    rng = random.Random(7)
    for _ in range(20):
        with socket.create_connection((server.host, server.port), timeout=5) as sock:
            _login(sock)
            sock.sendall(Writer().u16(4242).u16(12).getvalue() + rng.randbytes(10))
            sock.settimeout(2)
            # A violation closes the session: the read returns EOF (b"") promptly.
            assert sock.recv(100) == b""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and server._sessions:
        time.sleep(0.05)
    assert not server._sessions
