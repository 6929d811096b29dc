"""Fixtures for driver tests over real sockets.

* ``server``: one in-process ifxwire-server for the whole session (``Server(port=0)``).
* ``dbname`` / ``conn``: a logged database created once per test module, and a fresh
  connection to it per test (autocommit off, as PEP 249 wants).
* ``driver``: what ``conn`` is made with: the sync driver, or in a module marked
  ``pytestmark = pytest.mark.both_drivers`` the sync driver and then the asyncio driver
  behind a blocking facade (_aio_facade.py, which says which modules stay single and why).
  A test of such a module marked ``one_driver`` (it checks the sync driver's internals)
  runs on the sync driver only.
* ``tls_certificate`` (tests/conftest.py): a throwaway self-signed (certificate, key).
* ``fake``: a scripted SQLI server (``FakeServer``) for what the real server cannot stage on
  purpose: unknown message codes, a peer that hangs up mid-reply or never answers, and exact
  records of the request groups the driver sent. It answers with the same protocol builders
  the real server uses, so only the scenario is fake, not the bytes.
"""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from _aio_facade import AioDriver, BlockingLoop, SyncDriver

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import SERVER_PROTOCOLS, Msg, StmtType, TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.login import (
    ConnectResponse,
    build_connect_response,
    packet_length,
    parse_connect_request,
)
from ifxwire.protocol.wire import NeedMore, Reader, Writer

USER = "informix"
PASSWORD = "in4mix"


# ------------------------------------------------------------------------------------------
# The real server
# ------------------------------------------------------------------------------------------


@pytest.fixture()
def sigint_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in the main thread for the test, as in an interactive
    program, even when pytest was started as a background job (`cmd &`, nohup), which
    inherits SIGINT ignored: Python then installs no handler and a Ctrl-C test would wait."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:") as srv:
        yield srv


@pytest.fixture(scope="session")
def connect_kwargs(server: Any) -> dict[str, Any]:
    return {"host": server.host, "port": server.port, "user": USER, "password": PASSWORD}


def _module_db_name(request: pytest.FixtureRequest) -> str:
    name = re.sub(r"[^a-z0-9_]", "_", request.module.__name__.rsplit(".", 1)[-1].lower())
    return ("d_" + name)[:60]


@pytest.fixture(scope="module")
def dbname(
    request: pytest.FixtureRequest, connect_kwargs: dict[str, Any], driver: SyncDriver | AioDriver
) -> str:
    """A logged database for this test module (created once, left for the session); the
    asyncio run of a ``both_drivers`` module has one of its own."""
    name = _module_db_name(request) + driver.suffix
    c = ifxwire.connect(**connect_kwargs)
    try:
        c.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
    finally:
        c.close()
    return name


DRIVERS = ["sync", "asyncio"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run a ``both_drivers`` module's tests that use ``driver`` (or ``conn``) twice."""
    node = metafunc.definition
    if "driver" in metafunc.fixturenames and node.get_closest_marker("both_drivers"):
        # Module scope: a module's tests run on one driver, then on the other, each with a
        # database of its own (``dbname``), so tables a test leaves do not meet the other run.
        # A ``one_driver`` test shares the sync run (and its database).
        drivers = DRIVERS[:1] if node.get_closest_marker("one_driver") else DRIVERS
        metafunc.parametrize("driver", drivers, indirect=True, scope="module")


@pytest.fixture(scope="session")
def aio_loop() -> Iterator[BlockingLoop]:
    """The event loop the asyncio facade runs each call on (in the test's thread)."""
    loop = BlockingLoop()
    try:
        yield loop
    finally:
        loop.close()


@pytest.fixture(scope="module")
def driver(request: pytest.FixtureRequest) -> SyncDriver | AioDriver:
    """``driver.connect(...)``: ``ifxwire.connect`` or the asyncio driver made blocking."""
    if getattr(request, "param", "sync") == "sync":
        return SyncDriver()
    return AioDriver(request.getfixturevalue("aio_loop"))


@pytest.fixture()
def conn(
    driver: SyncDriver | AioDriver, connect_kwargs: dict[str, Any], dbname: str
) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname)
    try:
        yield c
    finally:
        c.close()


# ------------------------------------------------------------------------------------------
# The scripted fake server
# ------------------------------------------------------------------------------------------

Hook = Callable[[list[m.ClientMsg]], "bytes | None"]


def int_col(name: str) -> ColumnDesc:
    return ColumnDesc(name, TypeCode.INTEGER, 4)


class FakeServer:
    """Accepts connections and answers each request group from a tiny in-memory model.

    ``results`` maps SQL text to ``(columns, rows)``; any other SQL is a non-query answered
    with SQ_DONE(rows=1). ``hook(group)`` may return raw reply bytes to send instead, or
    ``HANGUP`` to close the socket; ``silent`` makes the server read and never answer.
    ``groups`` records every request group as a list of message names.
    """

    HANGUP = b"__hangup__"

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.host, self.port = self.sock.getsockname()[:2]
        self.results: dict[str, tuple[list[ColumnDesc], list[tuple[Any, ...]]]] = {}
        self.groups: list[list[str]] = []
        self.hook: Hook | None = None
        self.silent = False
        self.optofc_close = True
        self.db_flags = 0x1
        self.login_envs: list[dict[str, str]] = []
        self.recv_calls = 0
        #: When set, SQ_EXIT is acknowledged only once this event is set; a session whose
        #: event is not set within ``exit_gate_timeout`` seconds closes without answering.
        #: ``accepted`` counts TCP connections and ``client_gone`` the sessions whose client
        #: closed the socket after the goodbye.
        self.exit_gate: threading.Event | None = None
        self.exit_gate_timeout: float | None = 30.0
        #: Sent at once on SQ_EXIT, before the gate (e.g. an SQ_XACTSTAT, as a server may
        #: send ahead of its acknowledgement).
        self.exit_prefix = b""
        self.accepted = 0
        self.client_gone = 0
        self._stop = False
        self._threads: list[threading.Thread] = []
        self._conns: list[socket.socket] = []
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()

    def kwargs(self, **extra: Any) -> dict[str, Any]:
        return {"host": self.host, "port": self.port, "user": USER, "password": PASSWORD} | extra

    def close(self) -> None:
        self._stop = True
        self.sock.close()
        for c in self._conns:
            with contextlib.suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)
            c.close()

    def names(self, since: int = 0) -> list[str]:
        return [" ".join(g) for g in self.groups[since:]]

    # ---------------------------------------------------------------- session

    def _accept(self) -> None:
        while not self._stop:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self._conns.append(c)
            self.accepted += 1
            t = threading.Thread(target=self._session, args=(c,), daemon=True)
            t.start()

    def _session(self, c: socket.socket) -> None:
        buf = bytearray()
        try:
            while True:
                try:
                    n = packet_length(buf)
                    if len(buf) >= n:
                        break
                except NeedMore:
                    pass
                chunk = c.recv(65536)
                if not chunk:
                    return
                buf += chunk
            req = parse_connect_request(bytes(buf[:n]))
            del buf[:n]
            self.login_envs.append(dict(req.env))
            ok = req.password == PASSWORD
            resp = ConnectResponse(accepted=ok, svc_error=0 if ok else -951)
            c.sendall(build_connect_response(resp))
            if not ok:
                return
            state = _State()
            while True:
                group: list[m.ClientMsg] = []
                while True:
                    r = Reader(buf)
                    try:
                        msg = m.read_client_message(r, state.layout)
                    except NeedMore:
                        chunk = c.recv(65536)
                        self.recv_calls += 1
                        if not chunk:
                            return
                        buf += chunk
                        continue
                    # Keep the BIND bytes' offsets valid: copy the message out before trimming.
                    del buf[: r.pos]
                    if msg.code == Msg.EXIT:
                        if self.exit_prefix:
                            c.sendall(self.exit_prefix)
                        gate = self.exit_gate
                        if gate is not None and not gate.wait(self.exit_gate_timeout):
                            return
                        c.sendall(b"\x00\x38")
                        if gate is not None:
                            while c.recv(65536):
                                pass
                            self.client_gone += 1
                        return
                    group.append(msg)
                    if msg.code == Msg.EOT:
                        break
                self.groups.append([_name(x.code) for x in group])
                if self.silent:
                    continue
                if self.hook is not None:
                    out = self.hook(group)
                    if out == self.HANGUP:
                        c.close()
                        return
                    if out is not None:
                        c.sendall(out)
                        continue
                c.sendall(self._answer(state, group))
        except OSError:
            return
        finally:
            with contextlib.suppress(OSError):
                c.close()

    def _answer(self, st: _State, group: list[m.ClientMsg]) -> bytes:
        w = Writer()
        for msg in group:
            code = msg.code
            if code == Msg.PROTOCOLS:
                st.layout = m.Layout.negotiate(SERVER_PROTOCOLS, msg.data)
                m.put_protocols(w, SERVER_PROTOCOLS)
            elif code == Msg.DBOPEN:
                m.put_done(w, 0, st.layout, warnings=self.db_flags)
            elif code == Msg.PREPARE:
                st.next_id += 1
                sql = msg.sql.decode("iso-8859-1")
                st.stmts[st.next_id] = sql
                st.current = st.next_id
            elif code == Msg.NDESCRIBE:
                sql = st.stmts[st.current]
                cols = self.results[sql][0] if sql in self.results else []
                stype = StmtType.SELECT if cols else StmtType.INSERT
                m.put_describe(w, stype, st.current, cols, 4 * len(cols), st.layout)
            elif code == Msg.ID:
                st.current = msg.number
            elif code == Msg.OPEN:
                sql = st.stmts[st.current]
                st.cursor = iter(self.results[sql][1])
                st.fetched = 0
            elif code == Msg.NFETCH:
                sql = st.stmts[st.current]
                cols = self.results[sql][0]
                budget = max(msg.number, 4096)
                sent = 0
                assert st.cursor is not None
                ended = True
                for row in st.cursor:
                    payload = b"".join(
                        b"\x80\x00\x00\x00" if v is None else int(v).to_bytes(4, "big", signed=True)
                        for v in row
                    )
                    assert len(payload) == 4 * len(cols)
                    m.put_tuple(w, payload)
                    st.fetched += 1
                    sent += len(payload) + 8
                    if sent >= budget:
                        ended = False
                        break
                if ended:
                    m.put_done(w, st.fetched, st.layout)
                    if self.optofc_close:
                        w.u16(Msg.CLOSE)
            elif code == Msg.EXECUTE:
                m.put_done(w, 1, st.layout, serial=7)
        w.u16(Msg.EOT)
        return bytes(w.buf)


class _State:
    def __init__(self) -> None:
        self.layout = m.Layout()
        self.next_id = -1
        self.current = 0
        self.stmts: dict[int, str] = {}
        self.cursor: Iterator[tuple[Any, ...]] | None = None
        self.fetched = 0


def _name(code: int) -> str:
    try:
        return Msg(code).name
    except ValueError:
        return str(code)


@pytest.fixture()
def fake() -> Iterator[FakeServer]:
    srv = FakeServer()
    try:
        yield srv
    finally:
        srv.close()


# ---- the driver fuzz suites (fuzzreplay.py, fuzzharness.py) --------------------------------


@pytest.fixture(scope="module")
def replay() -> Iterator[Any]:
    """A server that answers with recorded (mutated) replies, for a fuzz test module."""
    from fuzzreplay import ReplayServer

    srv = ReplayServer()
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture()
def guarded() -> Iterator[None]:
    """tracemalloc and a watchdog around a fuzz test (fuzzharness.guarding)."""
    from fuzzharness import guarding

    with guarding():
        yield
