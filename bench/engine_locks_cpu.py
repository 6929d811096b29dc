"""One session's UPDATE+COMMIT loop in the engine itself (no wire, no fsync): the CPU cost of
row-lock mode per transaction (docs/BENCHMARKS.md, "Row locks").

    python bench/engine_locks_cpu.py [--txns 300] [--repeat 3] [--profile]

A BUFFERED LOG database, so no COMMIT waits on fsync (that wait bounds bench/server_locks.py's
one-session figure and hides the CPU). Each transaction is 5 single-row UPDATEs and a COMMIT,
as in bench/server_locks.py. Prints transactions/s with and without row locks per run and
the medians; ``--profile`` prints cProfile's top functions of a row-lock run.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time

from ifxwire.server.engine import Engine


def run(row_locks: bool, txns: int, profile: bool = False) -> float:
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
        started = time.perf_counter()
        loop(txns)
        rate = txns / (time.perf_counter() - started)
        s.close()
        eng.close()
        return rate


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--txns", type=int, default=300)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    a = p.parse_args()
    plain, rows = [], []
    for _ in range(a.repeat):
        plain.append(run(False, a.txns))
        rows.append(run(True, a.txns))
        print(f"  without {plain[-1]:7.0f} tx/s   row locks {rows[-1]:7.0f} tx/s")
    print(f"median: without {statistics.median(plain):.0f} tx/s, row locks "
          f"{statistics.median(rows):.0f} tx/s")
    if a.profile:
        run(True, a.txns, profile=True)


if __name__ == "__main__":
    main()
