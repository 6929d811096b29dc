"""ifxwire-server with every session thread under cProfile (for bench/hotspots.py --server).

    python -m bench.profiled_server --data DIR --out FILE.prof

Prints ``ifxwire-server listening on HOST:PORT`` like the real CLI; on SIGTERM it stops and
writes the merged profile of all sessions. The clock is ``time.thread_time`` (CPU of the
session's own thread), so sessions running side by side do not charge each other. Each
connection is profiled from its session's set-up on (``Server._serve_connection``: the session
object, the login, every request, the clean-up). SIGUSR1 leaves every connection accepted so
far out of the profile (fixtures loaded before the measured work, bench/gap.py).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import signal
import sys
import threading
import time
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=":memory:")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    from ifxwire.server import Server, listener

    profiles: list[cProfile.Profile] = []
    lock = threading.Lock()
    original = listener.Server._serve_connection

    def profiled(self: Server, conn: Any, addr: tuple[str, int]) -> None:
        prof = cProfile.Profile(time.thread_time)
        with lock:
            profiles.append(prof)
        prof.enable()
        try:
            original(self, conn, addr)
        finally:
            prof.disable()

    def forget(*_: object) -> None:
        with lock:
            profiles.clear()

    listener.Server._serve_connection = profiled  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR1, forget)
    srv = Server("127.0.0.1", 0, args.data)
    srv.start()
    print(f"ifxwire-server listening on {srv.host}:{srv.port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    srv.stop()
    deadline = time.monotonic() + 10
    while srv._sessions and time.monotonic() < deadline:  # let session threads finish
        time.sleep(0.05)
    with lock:
        profs = [pr for pr in profiles if pr.getstats()]
    if profs:
        stats = pstats.Stats(profs[0])
        for pr in profs[1:]:
            stats.add(pr)
        stats.dump_stats(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
