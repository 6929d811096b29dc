"""One session's UPDATE+COMMIT loop in the engine itself (no wire, no fsync): the CPU cost of
row-lock mode per transaction (docs/BENCHMARKS.md, "Row locks").

    python bench/engine_locks_cpu.py [--txns 300] [--repeat 3] [--profile] [--contended]

A BUFFERED LOG database, so no COMMIT waits on fsync (that wait bounds bench/server_locks.py's
one-session figure and hides the CPU). Each transaction is 5 single-row UPDATEs and a COMMIT,
as in bench/server_locks.py. Prints transactions/s with and without row locks per run and
the medians; ``--profile`` prints cProfile's top functions of a row-lock run.

``--contended``: every statement commits its own SQLite transaction, as when other sessions
wait for the database's latch (8 writers back to back, bench/server_locks.py), instead of
the one session keeping it open between statements (the latch is never parked). That is
the row-lock path of the 8-writer benchmark without the wire and the other threads, so its
CPU per transaction is the engine's share, measured in one thread without their noise.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time

from ifxwire.server.engine import Engine
from ifxwire.server.engine.features.locks.latch import Latch

#: Rates from the process's CPU time instead of the wall clock (``--cpu``).
CPU_CLOCK = False


def run(row_locks: bool, txns: int, profile: bool = False, contended: bool = False) -> float:
    park = Latch.park
    if contended:
        Latch.park = lambda *_: False  # type: ignore[method-assign]
    try:
        return _run(row_locks, txns, profile)
    finally:
        Latch.park = park  # type: ignore[method-assign]


def _run(row_locks: bool, txns: int, profile: bool) -> float:
    with tempfile.TemporaryDirectory() as d:
        eng = Engine(d, row_locks=row_locks)
        s = eng.session("informix", {})
        for sql in ("CREATE DATABASE locks WITH BUFFERED LOG",
                    "CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW"):
            s.execute(s.prepare(sql), [])
        ins = s.prepare("INSERT INTO t VALUES (?, 0)")
        for i in range(50):
            s.execute(ins, [i])
        up = s.prepare("UPDATE t SET v = v + 1 WHERE id = ?")

        def loop(n: int) -> None:
            for k in range(n):
                s.begin()
                for j in range(5):
                    s.execute(up, [(k * 5 + j) % 50])
                s.commit()

        loop(50)  # warm: plans, triggers, caches
        if profile:
            prof = cProfile.Profile()
            prof.runcall(loop, txns)
            pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        clock = time.process_time if CPU_CLOCK else time.perf_counter
        started = clock()
        loop(txns)
        rate = txns / (clock() - started)
        s.close()
        eng.close()
        return rate


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--txns", type=int, default=300)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--contended", action="store_true",
                   help="each statement its own SQLite transaction, as with other writers")
    p.add_argument("--cpu", action="store_true",
                   help="rates from the process's CPU time, not the wall clock (a busy machine)")
    a = p.parse_args()
    global CPU_CLOCK
    CPU_CLOCK = a.cpu
    plain, rows = [], []
    for _ in range(a.repeat):
        plain.append(run(False, a.txns))
        rows.append(run(True, a.txns, contended=a.contended))
        print(f"  without {plain[-1]:7.0f} tx/s   row locks {rows[-1]:7.0f} tx/s")
    print(f"median: without {statistics.median(plain):.0f} tx/s, row locks "
          f"{statistics.median(rows):.0f} tx/s")
    if a.profile:
        run(True, a.txns, profile=True, contended=a.contended)


if __name__ == "__main__":
    main()
