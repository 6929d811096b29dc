"""executemany against EXECUTE replies shaped as real servers shape them.

Real servers answer ``ID BIND EXECUTE EOT`` with ``[INSERTDONE] DONE COST EOT``
(docs/PROTOCOL.md §6 and §17: nmap and informix-driver), and so does our server now (it sent
``DONE [INSERTDONE] EOT`` before). A proxy between the driver and the server checks that
every row reply of the pipelined executemany has the real form, byte for byte as it passes,
so the driver's reply scanner (pure and C) meets those bytes over a real socket, and the row
count and lastrowid must come out right with no reply left to the slow parser. On the sync
and the asyncio driver (both run the same pipelined executemany, client/batch.py).
"""

from __future__ import annotations

import contextlib
import itertools
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire import _accel
from ifxwire.client import batch
from ifxwire.protocol.codes import Msg

pytestmark = pytest.mark.both_drivers

_SEQ = itertools.count()
_EXECUTE_EOT = struct.pack(">HH", Msg.EXECUTE, Msg.EOT)
_COST = struct.pack(">Hii", Msg.COST, 0, 0)


class CheckingProxy:
    """Forwards one client connection to the server. Once the client has sent an EXECUTE EOT
    (the executemany rows, sent only after the PREPARE's reply is through), every server reply
    must be ``[INSERTDONE] DONE COST EOT`` (counted in ``self.checked``) or a bare EOT (BEGIN,
    COMMIT, RELEASE); anything else fails the test (``self.error``). Bytes pass unchanged."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.armed = threading.Event()
        self.done_size = 0  # set by the test from the negotiated layout before arming matters
        self.insert_size = 0
        self.checked = 0
        self.error: str | None = None
        self._threads: list[threading.Thread] = []
        self._socks: list[socket.socket] = []
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)

    def _accept(self) -> None:
        try:
            client, _ = self.listener.accept()
        except OSError:
            return
        server = socket.create_connection(self.upstream)
        self._socks += [client, server]
        up = threading.Thread(target=self._client_to_server, args=(client, server), daemon=True)
        down = threading.Thread(target=self._server_to_client, args=(server, client), daemon=True)
        up.start()
        down.start()
        self._threads += [up, down]

    def _client_to_server(self, client: socket.socket, server: socket.socket) -> None:
        tail = b""
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                if _EXECUTE_EOT in tail + data:
                    self.armed.set()
                tail = data[-3:]
                server.sendall(data)
        _shut(server)

    def _server_to_client(self, server: socket.socket, client: socket.socket) -> None:
        pending = bytearray()
        with contextlib.suppress(OSError):  # the client may be gone before the server's EXIT
            while data := server.recv(65536):
                if not self.armed.is_set():
                    client.sendall(data)  # the login, PREPARE and anything before the rows
                    continue
                pending += data
                out, used = self._check(pending)
                del pending[:used]
                if out:
                    client.sendall(out)
        _shut(client)

    def _check(self, buf: bytearray) -> tuple[bytes, int]:
        """The whole replies at the front of ``buf`` once checked, and how many bytes of
        ``buf`` they took."""
        pos = 0
        while len(buf) - pos >= 2:
            code = int.from_bytes(buf[pos : pos + 2], "big")
            if code == Msg.EOT:
                pos += 2
                continue
            at = pos
            if code == Msg.INSERTDONE:
                at += self.insert_size
            need = at + self.done_size + len(_COST) + 2
            if len(buf) < need:
                break
            if int.from_bytes(buf[at : at + 2], "big") != Msg.DONE:
                self.error = f"unexpected reply message {code} at {pos}"
                return bytes(buf), len(buf)
            at += self.done_size
            if int.from_bytes(buf[at : at + 2], "big") != Msg.COST or int.from_bytes(
                    buf[at + len(_COST) : need], "big") != Msg.EOT:
                self.error = f"a row reply not ended by COST EOT at {at}"
                return bytes(buf), len(buf)
            self.checked += 1
            pos = need
        return bytes(buf[:pos]), pos

    def close(self) -> None:
        for s in [self.listener, *self._socks]:
            _shut(s, socket.SHUT_RDWR)  # wakes a thread blocked in accept or recv
            s.close()
        for t in self._threads:
            t.join(5)


def _shut(sock: socket.socket, how: int = socket.SHUT_WR) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(how)


@pytest.fixture()
def proxy(connect_kwargs: dict[str, Any]) -> Iterator[CheckingProxy]:
    p = CheckingProxy((connect_kwargs["host"], connect_kwargs["port"]))
    try:
        yield p
    finally:
        p.close()


ACCELERATION = [False] + ([True] if _accel.c_reply_scanner() is not None else [])


@pytest.mark.parametrize("accelerated", ACCELERATION, ids=lambda a: "c" if a else "pure")
@pytest.mark.parametrize("column", ["SERIAL8", "BIGSERIAL", "SERIAL"])
def test_executemany_takes_real_server_row_replies(
    connect_kwargs: dict[str, Any], dbname: str, proxy: CheckingProxy, driver: Any,
    monkeypatch: pytest.MonkeyPatch, accelerated: bool, column: str,
) -> None:
    monkeypatch.setattr(_accel, "accelerated", accelerated)
    slow: list[object] = []
    parsed = batch.ReplyTally._count_reply

    def spy(self: batch.ReplyTally, done: Any, serial: int) -> None:
        slow.append(done)
        parsed(self, done, serial)

    monkeypatch.setattr(batch.ReplyTally, "_count_reply", spy)
    table = f"emr_{next(_SEQ)}"
    with ifxwire.connect(**connect_kwargs, database=dbname) as setup:
        setup.execute(f"CREATE TABLE {table} (id {column}, v VARCHAR(20))")
        setup.commit()
    kwargs = dict(connect_kwargs, port=proxy.port, database=dbname)
    with driver.connect(**kwargs) as conn:
        layout = conn._layout
        wide = 8 if layout.long_rowid else 4
        proxy.done_size = 2 + 2 + 2 * wide + 4
        proxy.insert_size = 2 + 10 + (8 if layout.bigint else 0)
        cur = conn.cursor()
        n = 300
        cur.executemany(f"INSERT INTO {table} (v) VALUES (?)", [(f"r{i}",) for i in range(n)])
        assert proxy.error is None
        assert proxy.checked == n
        assert cur.rowcount == n
        assert cur.lastrowid == n  # the last serial the server handed out (1..n)
        # The scanner took the replies: the slow parser reads only one the pipeline waited
        # for on an empty buffer (each such wait takes one; 1 in a quiet run). Before the
        # scanner knew these forms, all n went to the parser (the proxy then rewrote our
        # server's old form into this one).
        assert len(slow) < n // 10
        conn.commit()
        assert cur.execute(f"SELECT COUNT(*), MAX(id) FROM {table}").fetchone() == (n, n)
