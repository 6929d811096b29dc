"""REPEATABLE READ reads in the engine itself (no wire): the CPU a transaction's row S locks
cost (docs/SERVER.md, "Isolation levels"; docs/BENCHMARKS.md, "Row locks").

    python bench/engine_rr_reads.py [--txns 300] [--rows 1000] [--level "REPEATABLE READ"]
    PYTHONPATH=/other/checkout/src python bench/engine_rr_reads.py      # another tree
    perf stat -e instructions python bench/engine_rr_reads.py --txns 300

Each transaction (BEGIN WORK ... COMMIT WORK, one session, a BUFFERED LOG database so no
COMMIT waits on fsync) runs five lookups by primary key (``SELECT v FROM t WHERE id = ?``,
one row examined each) and one scan of ``--rows`` rows (``SELECT SUM(v) FROM t WHERE w >
0``, no index on ``w``: every row examined). Under REPEATABLE READ each examined row is
share-locked (a lock-table entry) until the COMMIT; under COMMITTED READ nothing is. Prints
the lookups' and the scans' microseconds per statement (best of ``--repeat`` runs of the
process's CPU time) so two trees or two levels can be set side by side; instruction counts
come from running it under ``perf stat``.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from ifxwire.server.engine import Engine


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--txns", type=int, default=300)
    p.add_argument("--rows", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--level", default="REPEATABLE READ")
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="ifxwire-rr-") as d:
        eng = Engine(d, row_locks=True)
        s = eng.session("informix", {})
        for sql in ("CREATE DATABASE rr WITH BUFFERED LOG",
                    "CREATE TABLE t (id INT PRIMARY KEY, v INT, w INT) LOCK MODE ROW"):
            s.execute(s.prepare(sql), [])
        ins = s.prepare("INSERT INTO t VALUES (?, ?, ?)")
        s.begin()
        for i in range(a.rows):
            s.execute(ins, [i, i, i + 1])
        s.commit()
        s.execute(s.prepare(f"SET ISOLATION TO {a.level}"), [])
        look = s.prepare("SELECT v FROM t WHERE id = ?")
        scan = s.prepare("SELECT SUM(v) FROM t WHERE w > 0")
        best_look = best_scan = float("inf")
        for _ in range(a.repeat):
            t_look = t_scan = 0.0
            for k in range(a.txns):
                s.begin()
                t0 = time.process_time()
                for j in range(5):
                    list(s.open_cursor(look, [(k * 5 + j) % a.rows]))
                t1 = time.process_time()
                list(s.open_cursor(scan, []))
                t2 = time.process_time()
                s.commit()
                t_look += t1 - t0
                t_scan += t2 - t1
            best_look = min(best_look, t_look / (5 * a.txns) * 1e6)
            best_scan = min(best_scan, t_scan / a.txns * 1e6)
        print(f"{a.level}: lookup {best_look:.1f} us, scan of {a.rows} rows {best_scan:.0f} us"
              f" ({best_scan / a.rows * 1000:.0f} ns/row)")
        s.close()
        eng.close()


if __name__ == "__main__":
    main()
