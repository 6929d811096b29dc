"""The round trip's floor under select_one_row: server CPU of a replayed reply (issue 26).

    python bench/server_floor.py [--rounds 8] [--batch 3000] [--base DIR/src]

Why: after issue 26's rounds, what is left of a cached one-row statement's server CPU is
mostly the kernel's (a ``recv`` that sleeps, the wake-up, a loopback ``send``), and the
brief asked how far above that floor the server still is. Here the same ifxwire client
(``SELECT 1 FROM systables WHERE tabid = 1``, execute + fetchall, its statement cached)
talks to two server processes pinned to the same CPU, batches alternating (which goes
first alternates by round), as bench/server_one_row.py does:

* ``server``: ifxwire-server of this tree (and ``base``: of ``--base``, when given);
* ``replay``: a relay in front of a second ifxwire-server of this tree that forwards the
  login and the warm-up statements, then stops forwarding and answers every request with
  the last reply it relayed (the same bytes: a cached statement's reply does not change).
  Its loop is one ``recv_into`` and one ``sendall`` per statement, the least a Python
  server can do for that client, with the client's own pace between requests.

CPU is every thread's run time (``/proc/PID/task/*/schedstat``). Prints the medians, and
``server - replay``: the part of a statement's server CPU above the round trip's floor.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.server_one_row import CONST, PASSWORD, ROOT, USER, _start, server_cpu_ns

#: Requests the relay forwards before it replays (login, then the client's warm-up).
FORWARD = 200


def _relay(port: int) -> tuple[subprocess.Popen[str], int]:
    """The replaying relay in its own process, in front of the server on ``port``."""
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--relay", str(port)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def relay_main(upstream_port: int) -> int:
    """Forward FORWARD requests to the server, then answer each alone (see the docstring)."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen()
    print(ls.getsockname()[1], flush=True)
    client, _ = ls.accept()
    ls.close()
    up = socket.create_connection(("127.0.0.1", upstream_port))
    for s in (client, up):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    last = b""
    lock = threading.Lock()

    def back() -> None:  # the server's bytes to the client (a reply may come in pieces)
        nonlocal last
        while True:
            data = up.recv(262144)
            if not data:
                return
            with lock:
                last = data
            client.sendall(data)

    threading.Thread(target=back, daemon=True).start()
    buf = bytearray(262144)
    view = memoryview(buf)
    for _ in range(FORWARD):
        n = client.recv_into(view)
        if not n:
            return 0
        up.sendall(view[:n])
    # The client waits for the answer to the last forwarded request before it sends again.
    request = bytes(view[:n])
    n = client.recv_into(view)
    with lock:
        reply = last
    while n:
        if view[:n] != request:
            raise SystemExit("relay: a request unlike the cached statement's")
        client.sendall(reply)
        n = client.recv_into(view)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--batch", type=int, default=3000)
    p.add_argument("--base", help="another tree's src: its server measured too")
    p.add_argument("--relay", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.relay is not None:
        return relay_main(args.relay)
    import ifxwire

    pure = os.environ.get("IFXWIRE_PURE") == "1"
    procs: dict[str, subprocess.Popen[str]] = {}
    ports: dict[str, int] = {}
    procs["server"], ports["server"] = _start(str(ROOT / "src"), pure)
    if args.base:
        procs["base"], ports["base"] = _start(args.base, pure)
    upstream, up_port = _start(str(ROOT / "src"), pure)
    procs["replay"], ports["replay"] = _relay(up_port)
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2:
        for proc in procs.values():
            os.sched_setaffinity(proc.pid, {cpus[-1]})
        os.sched_setaffinity(0, set(cpus[:-1]))
    runs: dict[str, Callable[[], None]] = {}
    try:
        for name, port in ports.items():
            conn = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                                   database="sysmaster", autocommit=True)
            cur = conn.cursor()

            def run(cur: Any = cur) -> None:
                cur.execute(CONST)
                cur.fetchall()

            for _ in range(FORWARD + 20):  # the relay replays from here on
                run()
            runs[name] = run
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for round_no in range(args.rounds):
            order = list(runs.items())
            if round_no % 2:
                order.reverse()
            for name, fn in order:
                pid = procs[name].pid
                for _ in range(20):
                    fn()
                before = server_cpu_ns(pid)
                for _ in range(args.batch):
                    fn()
                samples[name].append((server_cpu_ns(pid) - before) / args.batch * 1e6)
    finally:
        for proc in [*procs.values(), upstream]:
            proc.terminate()
            proc.wait(10)
    print(f"{'pure' if pure else 'accelerated'}; {args.rounds} rounds of {args.batch}; "
          "µs of server CPU per select_one_row, median [range]")
    med = {name: statistics.median(v) for name, v in samples.items()}
    for name, values in samples.items():
        print(f"{name:7} {med[name]:7.1f}  [{min(values):.1f}-{max(values):.1f}]  "
              f"{[round(v, 1) for v in values]}")
    for name in ("server", "base"):
        if name in med:
            print(f"{name} - replay: {med[name] - med['replay']:.1f} µs above the floor")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
