"""Concurrent writers of one table: 8 sessions updating disjoint rows in transactions.

    python bench/server_locks.py --row-locks                       # this checkout, row locks
    python bench/server_locks.py --server-src /work/main/src       # before (no row locks)
    python bench/server_locks.py --server-src A/src --server-src B/src --repeat 5
                                                  # trees side by side, rounds interleaved

Each session (a process of its own, so the clients do not share a GIL) runs, for
``--seconds``, transactions of ``--updates`` single-row UPDATEs of its own rows and a COMMIT
(with ``--think-ms`` of client work after each UPDATE),
under SET LOCK MODE TO WAIT (without row locks a transaction holds SQLite's write lock from
its first UPDATE to its COMMIT, so the others queue; under NOT WAIT they would fail -346/-107
instead). Prints committed transactions per second, over all sessions, per run and the
median, and checks every committed update is in the table. Also prints the server
process's CPU (utime + stime from /proc) per committed transaction over the measured seconds:
with no client time the server's CPU bounds the throughput, and the CPU figure moves less
with the machine's load than transactions per second. Several ``--server-src`` run side by
side, one round of each in turn, with the median and range of each.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD = "informix", "in4mix"
ROWS_PER_SESSION = 50


def _worker(port: int, me: int, updates: int, think: float, start: float, stop: float,
            out: mp.Queue) -> None:  # type: ignore[type-arg]
    import ifxwire

    c = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                        database="locks", autocommit=True, read_timeout=120)
    cur = c.cursor()
    cur.execute("SET LOCK MODE TO WAIT")
    first = me * ROWS_PER_SESSION
    done = errors = n = 0
    while time.time() < start:
        time.sleep(0.001)
    while time.time() < stop:
        try:
            cur.execute("BEGIN WORK")
            for _ in range(updates):
                cur.execute("UPDATE t SET v = v + 1 WHERE id = ?", (first + n % ROWS_PER_SESSION,))
                n += 1
                if think:
                    time.sleep(think)
            cur.execute("COMMIT WORK")
            done += 1
        except ifxwire.Error:
            errors += 1
            n -= n % updates or updates
            cur.execute("ROLLBACK WORK")
    c.close()
    out.put((done, errors))


def _cpu(pid: int) -> float:
    """utime + stime of a process, in seconds (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _switches(pid: int) -> int:
    """Context switches of all the process's threads so far (each a thread that slept on a
    lock or a socket and was woken; Linux /proc)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.endswith("ctxt_switches:", 0, line.find(":") + 1):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass  # a thread that ended meanwhile
    return total


def run_once(server_src: str, row_locks: bool, sessions: int, updates: int,
             seconds: float, think: float = 0.0) -> tuple[float, int, float, float]:
    """One run: (committed transactions per second, failed ones, server CPU seconds and
    server thread context switches per committed transaction)."""
    import ifxwire

    data = tempfile.mkdtemp(prefix="ifxwire-locks-")
    env = dict(os.environ, PYTHONPATH=server_src)
    cmd = [sys.executable, "-m", "ifxwire.server", "--host", "127.0.0.1", "--port", "0",
           "--data", data] + (["--row-locks"] if row_locks else [])
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    assert proc.stdout is not None
    port = 0
    for line in proc.stdout:
        m = re.search(r"listening on [\d.]+:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    try:
        c = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                            autocommit=True)
        cur = c.cursor()
        cur.execute("CREATE DATABASE locks WITH LOG")
        cur.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
        cur.execute("BEGIN WORK")
        cur.executemany("INSERT INTO t VALUES (?, 0)",
                        [(i,) for i in range(sessions * ROWS_PER_SESSION)])
        cur.execute("COMMIT WORK")
        out: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        start = time.time() + 1.0
        stop = start + seconds
        procs = [mp.Process(target=_worker, args=(port, i, updates, think, start, stop, out))
                 for i in range(sessions)]
        for p in procs:
            p.start()
        while time.time() < start:
            time.sleep(0.001)
        cpu0, sw0 = _cpu(proc.pid), _switches(proc.pid)
        # measured until just before the sessions stop (their threads then end, and with
        # them their switch counts); the transactions are scaled to the same window
        time.sleep(max(stop - 0.1 - time.time(), 0))
        window = time.time() - start
        cpu1, sw1 = _cpu(proc.pid), _switches(proc.pid)
        results = [out.get(timeout=seconds + 120) for _ in procs]
        for p in procs:
            p.join()
        done = sum(r[0] for r in results)
        errors = sum(r[1] for r in results)
        cur.execute("SELECT sum(v) FROM t")
        total = cur.fetchone()[0]
        c.close()
        assert int(total) == done * updates, (total, done, updates)
        in_window = max(done * window / seconds, 1)
        return done / seconds, errors, (cpu1 - cpu0) / in_window, (sw1 - sw0) / in_window
    finally:
        proc.terminate()
        proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--server-src", action="append",
                   help="the tree whose server runs (repeat to compare; default: this one)")
    p.add_argument("--row-locks", action="store_true", help="start the server with --row-locks")
    p.add_argument("--sessions", type=int, default=8)
    p.add_argument("--updates", type=int, default=5, help="UPDATEs per transaction")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--think-ms", type=float, default=0.0,
                   help="client work after each UPDATE, in the transaction (an application's "
                   "own time between statements)")
    args = p.parse_args(argv)
    trees = args.server_src or [str(ROOT / "src")]
    rates: dict[str, list[float]] = {t: [] for t in trees}
    cpus: dict[str, list[float]] = {t: [] for t in trees}
    switches: dict[str, list[float]] = {t: [] for t in trees}
    for _ in range(args.repeat):
        for tree in trees:
            rate, errors, cpu, sw = run_once(tree, args.row_locks, args.sessions, args.updates,
                                         args.seconds, args.think_ms / 1000)
            rates[tree].append(rate)
            cpus[tree].append(cpu)
            switches[tree].append(sw)
            print(f"  {rate:8.1f} transactions/s  ({errors} failed), server CPU "
                  f"{cpu * 1e6:6.0f} us/transaction, {sw:5.1f} switches/transaction  {tree}",
                  flush=True)
    for tree in trees:
        r, c, w = rates[tree], cpus[tree], switches[tree]
        print(f"median {statistics.median(r):.1f} transactions/s ({min(r):.0f}-{max(r):.0f}), "
              f"server CPU {statistics.median(c) * 1e6:.0f} us/transaction "
              f"({min(c) * 1e6:.0f}-{max(c) * 1e6:.0f}), {statistics.median(w):.1f} "
              f"context switches/transaction ({min(w):.1f}-{max(w):.1f}) "
              f"({args.sessions} sessions x {args.updates} updates, think {args.think_ms:g} ms, "
              f"server {'--row-locks' if args.row_locks else 'default'} from {tree})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
