"""ifxwire-server with every session thread under cProfile (for bench/hotspots.py --server).

    python -m bench.profiled_server --data DIR --out FILE.prof

Prints ``ifxwire-server listening on HOST:PORT`` like the real CLI; on SIGTERM it stops and
writes the merged profile of all sessions. The clock is ``time.thread_time`` (CPU of the
session's own thread), so sessions running side by side do not charge each other.
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

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=":memory:")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    from ifxwire.server import Server
    from ifxwire.server import session as session_mod

    profiles: list[cProfile.Profile] = []
    lock = threading.Lock()
    original = session_mod.Session.run

    def profiled_run(self: session_mod.Session) -> None:
        prof = cProfile.Profile(time.thread_time)
        with lock:
            profiles.append(prof)
        prof.enable()
        try:
            original(self)
        finally:
            prof.disable()

    session_mod.Session.run = profiled_run  # type: ignore[method-assign]
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
