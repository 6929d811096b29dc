"""The row-lock latch alone under contention: N threads take it around a short SQLite write
and do some Python outside it, as row-lock sessions do around each statement
(features/locks/latch.py; docs/BENCHMARKS.md "Row locks: 8 writers of one table").

    python bench/latch_contention.py [--threads 8] [--seconds 2] [--repeat 3] [SRC ...]

Each SRC is a tree's ``src`` directory whose ``latch.py`` is loaded (default: this
checkout's); trees run in turn, round after round. Prints per run the acquires, the
condition waits per acquire (a waiter woken to find the latch taken again waits again) and
the process's CPU per acquire. Why a separate measure: the server's own figures move with
everything else a statement does and with the machine's load; this one isolates how a
release wakes the waiters.
"""

from __future__ import annotations

import argparse
import importlib.util
import sqlite3
import statistics
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LATCH = "ifxwire/server/engine/features/locks/latch.py"


def _load(src: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("latch_under_test", Path(src) / LATCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_once(src: str, threads: int, seconds: float) -> tuple[int, float, float]:
    """(acquires, waits per acquire, CPU microseconds per acquire)."""
    latch: Any = _load(src).Latch()
    waits = [0]
    cond = latch._cond
    wait = cond.wait

    def counting(timeout: float | None = None) -> bool:
        waits[0] += 1
        return bool(wait(timeout))

    cond.wait = counting
    acquires = [0]
    stop = time.monotonic() + seconds

    def worker() -> None:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        conn.execute("CREATE TABLE t (a INT)")
        me = object()
        while time.monotonic() < stop:
            latch.acquire(me)
            acquires[0] += 1
            conn.execute("INSERT INTO t VALUES (1)")  # lets the GIL go, as SQLite calls do
            latch.release(me)
            sum(range(300))  # the statement's Python outside the latch

    started = time.process_time()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    cpu = time.process_time() - started
    n = max(acquires[0], 1)
    return acquires[0], waits[0] / n, cpu / n * 1e6


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("src", nargs="*", help="trees' src directories (default: this one)")
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    trees = args.src or [str(ROOT / "src")]
    results: dict[str, list[tuple[int, float, float]]] = {t: [] for t in trees}
    for _ in range(args.repeat):
        for tree in trees:
            r = run_once(tree, args.threads, args.seconds)
            results[tree].append(r)
            print(f"  {r[0]:7d} acquires, {r[1]:5.2f} waits/acquire, {r[2]:6.1f} us CPU/acquire"
                  f"  {tree}", flush=True)
    for tree in trees:
        acq = [r[0] for r in results[tree]]
        w = [r[1] for r in results[tree]]
        c = [r[2] for r in results[tree]]
        print(f"median {statistics.median(acq):.0f} acquires ({min(acq)}-{max(acq)}), "
              f"{statistics.median(w):.2f} waits/acquire ({min(w):.2f}-{max(w):.2f}), "
              f"{statistics.median(c):.1f} us CPU/acquire ({min(c):.1f}-{max(c):.1f})  {tree}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
