"""What bounds a cold connect: a raw socket doing ifxwire's 3 round trips with pre-built bytes,
next to ifxwire and informix-driver, all served by the bench's replay server.

    python bench/connect_floor.py [--connects 200] [--repeat 7]

Why: ``cold_connect_disconnect`` compares ifxwire with informix-driver, but neither figure says
how much of a connect is the driver's own work. The floor here sends the exact bytes ifxwire
sends (its login packet, its three session groups in one send, SQ_EXIT), waits for each reply
by its recorded length, and parses nothing: what is left is the kernel (socket, TCP connect
and close, one send and one blocking receive per round trip) and the server. A driver's
distance from it is its own Python; the round trips it adds cost what the floor's cost.

Set-up as in bench/run.py: ifxwire-server and the replay server (bench/replay.py) in their
own processes on the last CPU, this process (the client) on the others. Each client's
conversation is recorded once through the replay server, then served from the recording, so
the server side is the same cheap replay for all three. The clients take turns connect by
connect (so a burst of load elsewhere on the machine hits all of them alike), and each
connect-and-close is timed on its own: the client thread's CPU time and the wall time.
Printed: the medians per connect-and-close (robust to the preempted outliers of a shared
machine) and, for the drivers, the wall ratio to informix-driver.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench import run
from bench.scenarios import DATABASE

USER, PASSWORD = "informix", "in4mix"
EXIT = b"\x00\x38"


class RawClient:
    """ifxwire's connect-and-close bytes, sent by hand; replies are waited for by length."""

    def __init__(self) -> None:
        from ifxwire.client.dsn import resolve
        from ifxwire.client.handshake import login_request, session_groups
        from ifxwire.locales import codec_for_locale

        params = resolve("127.0.0.1", {"user": USER, "password": PASSWORD, "port": 1,
                                       "database": DATABASE})
        encoding = codec_for_locale(params.client_locale)
        self.login, _ = login_request(params, encoding)
        self.groups = b"".join(session_groups(DATABASE, encoding))
        self.sizes: tuple[int, int, int] | None = None
        self.pending: socket.socket | None = None

    def learn(self, port: int) -> None:
        """One exchange through the recording proxy: the reply sizes to wait for later."""
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sizes = []
        for request in (self.login, self.groups, EXIT):
            s.sendall(request)
            time.sleep(0.3)  # every reply byte is in by then (a few hundred bytes, locally)
            sizes.append(len(s.recv(65536)))
        s.close()
        self.sizes = (sizes[0], sizes[1], sizes[2])

    def connect_close(self, port: int) -> None:
        assert self.sizes is not None
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(("127.0.0.1", port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buf = bytearray(4096)
        view = memoryview(buf)
        for request, size in zip((self.login, self.groups, EXIT), self.sizes, strict=True):
            s.sendall(request)
            _recv_exactly(s, view, size)
        s.close()

    def connect_close_deferred(self, port: int) -> None:
        """The same bytes, but SQ_EXIT's acknowledgement is read by the next connect (before
        its TCP connect), as ifxwire's close() does: two waits per connect-and-close."""
        assert self.sizes is not None
        buf = bytearray(4096)
        view = memoryview(buf)
        if self.pending is not None:
            _recv_exactly(self.pending, view, self.sizes[2])
            self.pending.close()
            self.pending = None
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(("127.0.0.1", port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for request, size in zip((self.login, self.groups), self.sizes[:2], strict=True):
            s.sendall(request)
            _recv_exactly(s, view, size)
        s.sendall(EXIT)
        self.pending = s


def _recv_exactly(s: socket.socket, view: memoryview, size: int) -> None:
    got = 0
    while got < size:
        n = s.recv_into(view[got:])
        if not n:
            raise RuntimeError("the replay server closed the connection")
        got += n


def timed(body: Callable[[], None]) -> tuple[float, float]:
    """(thread CPU µs, wall µs) of one call of ``body``."""
    c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
    body()
    return (time.thread_time_ns() - c0) / 1000, (time.perf_counter_ns() - w0) / 1000


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--connects", type=int, default=2000, help="per client")
    p.add_argument("--no-pin", action="store_true")
    args = p.parse_args(argv)

    import informix_db

    import ifxwire

    placement = run.place(not args.no_pin)
    if placement is not None:
        os.sched_setaffinity(0, set(placement["drivers"]))
    data = Path(tempfile.mkdtemp(prefix="ifxwire-floor-"))
    log = open(data / "servers.log", "w")  # noqa: SIM115 (open for the whole run)
    server = run.ServerProcess(data / "db", log)
    replay = run.LineProcess(
        "replay",
        [sys.executable, "bench/replay.py", "--upstream", f"{server.host}:{server.port}"],
        run.child_env(),
        log,
        role="servers",
    )
    try:
        replay.read()
        with ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute(f"CREATE DATABASE {DATABASE} WITH LOG")

        raw = RawClient()

        def ifx(port: int) -> None:
            ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                            database=DATABASE, autocommit=True).close()

        def idrv(port: int) -> None:
            informix_db.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                                database=DATABASE, server="informix", autocommit=True).close()

        clients: dict[str, Callable[[int], None]] = {
            "raw socket, 3 round trips": raw.connect_close,
            "raw socket, EXIT ack deferred": raw.connect_close_deferred,
            f"ifxwire ({'accelerated' if ifxwire.accelerated else 'pure'})": ifx,
            "informix-driver": idrv,
        }
        ports: dict[str, int] = {}
        for i, (name, fn) in enumerate(clients.items()):
            key = f"floor{i}"
            rec = replay.call(f'{{"cmd": "record", "key": "{key}"}}')["port"]
            if name.startswith("raw socket"):  # the raw client learns its reply sizes instead
                raw.learn(rec)
            else:
                fn(rec)
            replay.call(f'{{"cmd": "stop_record", "key": "{key}"}}')
            ports[name] = replay.call(f'{{"cmd": "serve", "key": "{key}"}}')["port"]
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in clients}
        bodies = [(name, lambda fn=fn, port=ports[name]: fn(port)) for name, fn in clients.items()]
        for _ in range(50):  # warm-up
            for _, body in bodies:
                body()
        for _ in range(args.connects):
            for name, body in bodies:
                results[name].append(timed(body))
        print(f"per connect-and-close, medians of {args.connects} (placement: {placement})")
        print(f"{'client':32s} {'client CPU':>11s} {'wall':>9s}  wall ratio to informix-driver")
        rival = statistics.median(s[1] for s in results["informix-driver"])
        for name, samples in results.items():
            cpu = statistics.median(s[0] for s in samples)
            wall = statistics.median(s[1] for s in samples)
            print(f"{name:32s} {cpu:8.1f} µs {wall:6.1f} µs  {rival / wall:.2f}x")
        stats: dict[str, Any] = {
            name: replay.call(f'{{"cmd": "stats", "key": "floor{i}"}}')
            for i, name in enumerate(clients)
        }
        for name, st in stats.items():
            if st.get("length_mismatch") or st.get("exhausted") or st.get("errors"):
                print(f"warning: {name}: the replay did not fit: {st}")
    finally:
        replay.close()
        server.stop()
        log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
