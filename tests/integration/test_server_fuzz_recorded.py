"""Mutated RECORDED real requests against the server.

The corpus is bytes real clients put on the wire: IBM's JDBC driver (the C> blocks of
tests/interop/jdbc/captures, recorded independently of our code), and request streams recorded
here through a small TCP proxy while informix-driver and ifxwire run a workload. Each case
replays a client's stream with one mutation (bit flips, a length field set to huge, negative
or zero, truncation, splicing two streams, repeating a group) on a fresh connection, while a
healthy session queries in another thread. Asserted: no unclassified server error (traceback),
every session closed for a violation is logged with the message and byte offset, the healthy
session's answers stay right, the server's memory stays bounded, and no connection is left
open past the login timeout. Deterministic seeds; bounded in count and time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import logging
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire
from ifxwire import List, Row, Set
from ifxwire.server import Server

CAPTURES = Path(__file__).resolve().parents[1] / "interop" / "jdbc" / "captures"
CASES = 400
TIME_BUDGET = 20.0
RSS_BOUND = 200 * 1024 * 1024  # growth allowed over the whole run (max_message_bytes is 1 MiB)


def jdbc_streams() -> list[list[bytes]]:
    """Per capture file: the client's TCP reads, login PDU first."""
    streams = []
    for path in sorted(CAPTURES.glob("*session*.hex")):
        blocks: list[bytes] = []
        current: list[str] | None = None
        for line in path.read_text().splitlines():
            if line.startswith(("C>", "S>")):
                if current is not None:
                    blocks.append(bytes.fromhex("".join(current)))
                current = [] if line.startswith("C>") else None
            elif current is not None and line and not line.startswith("#"):
                current.append(line.replace(" ", ""))
        if current is not None:
            blocks.append(bytes.fromhex("".join(current)))
        if len(blocks) > 1:
            streams.append(blocks)
    return streams


class _Recorder:
    """A TCP proxy in front of the server that keeps every client->server read."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.streams: list[list[bytes]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            reads: list[bytes] = []
            self.streams.append(reads)
            threading.Thread(target=self._pump, args=(client, server, reads), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, None), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, keep: list[bytes] | None) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                if keep is not None:
                    keep.append(data)
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.listener.close()


def _workload_ifxwire(port: int) -> None:
    with contextlib.closing(ifxwire.connect(host="127.0.0.1", port=port, user="informix",
                                            password="in4mix", database="fz")) as c:
        cur = c.cursor()
        cur.execute("select id, name from t where id < ? order by id", (5,))
        cur.fetchall()
        cur.executemany("insert into w values (?, ?)", [(i, f"w{i}") for i in range(6)])
        cur.execute("insert into b values (1, ?)", (b"\x00\x01" * 500,))
        cur.execute("select data from b")
        cur.fetchall()
        c.commit()


def _workload_ifxwire_sessions(port: int, files: Path) -> None:
    """What came after issue 10: smart LOBs (fast path, SQ_LODATA writes and reads), SQ_FILE
    both ways, ROW and collection binds, scroll and hold cursors, a cancelled statement."""
    src = files / "src.bin"
    src.write_bytes(bytes(range(256)) * 12)
    with contextlib.closing(ifxwire.connect(host="127.0.0.1", port=port, user="informix",
                                            password="in4mix", database="fz")) as c:
        cur = c.cursor()
        cur.execute("insert into lob values (?, ?, ?)", (1, b"\x01\x02" * 3000, "clob " * 200))
        cur.execute("insert into lob values (?, ?, ?)", (2, io.BytesIO(b"file-like" * 300), None))
        cur.execute("select b, c from lob where id = 1")
        b, cl = cur.fetchone()
        b.read(100)
        b.seek(-10, 2)
        b.read()
        cl.read(5)
        b.close()
        cl.close()
        cur.execute(f"select lotofile(b, '{files / 'out.bin'}!', 'client') from lob where id = 1")
        cur.fetchall()
        cur.execute(f"insert into lob values (3, filetoblob('{src}', 'client'), null)")
        cur.execute("insert into comp values (?, ?, ?)",
                    (1, Row((7, Set({dt.date(2024, 1, 1)})), ("x", "y")), List(["a", "bb"])))
        cur.execute("select r, l from comp")
        cur.fetchall()
        scroll = c.cursor(scrollable=True)
        scroll.execute("select id from t order by id")
        scroll.fetch_last()
        scroll.fetch_absolute(10)
        scroll.fetch_prior()
        scroll.close()
        held = c.cursor(withhold=True)
        held.execute("select id, name from t")
        held.fetchone()
        c.commit()
        held.fetchmany(5)
        held.close()
        cur.statement_timeout = 0.3
        with contextlib.suppress(ifxwire.OperationalError):
            cur.execute("select count(*) from t a, t b, t c, t d, t e")
        cur.statement_timeout = None
        c.rollback()


def _workload_informix_driver(port: int) -> None:
    informix_db = pytest.importorskip("informix_db")
    conn = informix_db.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                               database="fz", server="informix", autocommit=True,
                               connect_timeout=10, read_timeout=10)
    with contextlib.closing(conn):
        cur = conn.cursor()
        cur.execute("select id, name from t where id < ? order by id", (7,))
        cur.fetchall()
        cur.execute("insert into w values (?, ?)", (100, "drv"))
        cur.execute("select ifx_lo_open(b, 4) from lob where id = 0")
        fd = cur.fetchone()[0]
        conn.fast_path_call("function informix.ifx_lo_close(integer)", fd)
        scroll = conn.cursor(scrollable=True)
        scroll.execute("select id from t order by id")
        scroll.fetch_last()
        scroll.fetch_absolute(3)
        scroll.fetch_prior()


def _mutate(rng: random.Random, streams: list[list[bytes]]) -> tuple[str, bytes]:
    stream = rng.choice(streams)
    login, groups = stream[0], list(stream[1:])
    kind = rng.choice(["bitflip", "length", "truncate", "splice", "repeat", "login"])
    body = bytearray(b"".join(groups))
    if kind == "bitflip" and body:
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(body))
            body[i] ^= 1 << rng.randrange(8)
    elif kind == "length" and len(body) > 8:
        i = rng.randrange(len(body) - 4)
        width = rng.choice([2, 4])
        value = rng.choice([0, 0xFF, 0x7FFF, 0x8000, 0xFFFF] if width == 2 else
                           [0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x00FFFFFF])
        body[i : i + width] = value.to_bytes(width, "big")
    elif kind == "truncate" and body:
        del body[rng.randrange(len(body)):]
    elif kind == "splice":
        other = b"".join(rng.choice(streams)[1:])
        body = body[: rng.randrange(len(body) + 1)] + other[rng.randrange(len(other) + 1):]
    elif kind == "repeat" and groups:
        g = rng.choice(groups)
        body += g * rng.randint(2, 50)
    elif kind == "login":
        pdu = bytearray(login)
        for _ in range(rng.randint(1, 6)):
            pdu[rng.randrange(len(pdu))] = rng.randrange(256)
        return kind, bytes(pdu[: rng.randint(1, len(pdu))])
    return kind, login + bytes(body)


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture()
def server() -> Iterator[Server]:
    with Server(port=0, login_timeout=1.0, max_message_bytes=1024 * 1024,
                failed_login_limit=0, statement_timeout=2.0) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                            autocommit=True)
        cur = c.cursor()
        cur.execute("create database fz with log")
        cur.execute("create table t (id integer primary key, name varchar(20))")
        cur.execute("create table w (id integer, name varchar(20))")
        cur.execute("create table b (id integer, data byte)")
        cur.executemany("insert into t values (?, ?)", [(i, f"n{i}") for i in range(40)])
        cur.execute("create table lob (id integer, b blob, c clob)")
        cur.execute("insert into lob values (0, ?, ?)", (b"lob zero", "clob zero"))
        cur.execute("create table comp (id integer, r row(x int, y set(date not null)),"
                    " l list(varchar(10) not null))")
        # The database and tables the JDBC session captures use (scripts/capture_jdbc_sessions.py).
        cur.execute("create database cap with log")
        cur.execute("create table n (i integer)")
        cur.executemany("insert into n values (?)", [(i,) for i in range(1000)])
        cur.execute("create table cur_t (i integer, v integer)")
        cur.executemany("insert into cur_t values (?, ?)", [(i, 10 * i) for i in range(10)])
        c.close()
        yield srv


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="RSS read from /proc")
def test_mutated_recorded_requests(server: Server, tmp_path: Path) -> None:
    recorder = _Recorder((server.host, server.port))
    try:
        _workload_ifxwire(recorder.port)
        _workload_ifxwire_sessions(recorder.port, tmp_path)
        _workload_informix_driver(recorder.port)
    finally:
        recorder.close()
    ours = [s for s in recorder.streams if len(s) > 1]
    assert len(ours) >= 3, "the workloads were not recorded"
    jdbc = jdbc_streams()
    # The captures of smart LOBs, SQ_FILE, scroll cursors and cancel are in the corpus.
    assert len(jdbc) >= 22, len(jdbc)
    corpus = jdbc + ours

    records = _Records()
    logger = logging.getLogger("ifxwire.server")
    logger.addHandler(records)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    wrong: list[str] = []
    stop = threading.Event()

    def healthy() -> None:
        with contextlib.closing(ifxwire.connect(host=server.host, port=server.port,
                                                user="informix", password="in4mix",
                                                database="fz")) as c:
            cur = c.cursor()
            while not stop.is_set():
                cur.execute("select count(*), sum(id) from t where name like 'n%'")
                row = cur.fetchone()
                if row != (40, 780):
                    wrong.append(repr(row))
                time.sleep(0.01)

    watcher = threading.Thread(target=healthy)
    rss_before = _rss()
    peak = rss_before
    kinds: dict[str, int] = {}
    watcher.start()
    try:
        rng = random.Random(20261010)
        deadline = time.monotonic() + TIME_BUDGET
        for _ in range(CASES):
            if time.monotonic() > deadline:
                break
            kind, data = _mutate(rng, corpus)
            kinds[kind] = kinds.get(kind, 0) + 1
            with socket.create_connection((server.host, server.port), timeout=5) as sock, \
                    contextlib.suppress(OSError):
                sock.sendall(data)
                sock.settimeout(0.05)
                while sock.recv(65536):
                    pass
            peak = max(peak, _rss())
    finally:
        stop.set()
        watcher.join(timeout=30)
        logger.removeHandler(records)
        logger.setLevel(old_level)
    assert not watcher.is_alive()
    assert not wrong, f"the healthy session got wrong answers: {wrong[:3]}"
    assert sum(kinds.values()) >= 50, kinds
    errors = [r.getMessage() for r in records.records if r.levelno >= logging.ERROR]
    assert not errors, f"unclassified server errors: {errors[:3]}"
    violations = [r.getMessage() for r in records.records if "protocol violation" in
                  r.getMessage()]
    assert violations, "no mutation was detected as a violation"
    unplaced = [v for v in violations if not re.search(r"at byte offset \d+", v)]
    assert not unplaced, f"violations logged without an offset: {unplaced[:3]}"
    assert peak - rss_before < RSS_BOUND, (peak - rss_before) // 2**20
    # Nothing stays open past the login timeout (1 s): only the healthy session was left,
    # and it has closed too.
    deadline = time.monotonic() + 5
    while server._sessions and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server._sessions
