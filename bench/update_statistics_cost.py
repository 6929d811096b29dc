"""What UPDATE STATISTICS costs now that it counts rows (issue 23, twenty-seventh session).

    nice -n 10 python bench/update_statistics_cost.py [--rows 200000] [--best 5]

Why: the statement used to return at once; it now writes systables.nrows (``COUNT(*)``) and
each index's sysindices nrows/nunique (``COUNT(DISTINCT first key column)``), so its cost is
linear in the table's rows, once per index plus once (features/ddl_statistics.py). This
runs the engine in-process (no sockets) on a table of ``--rows`` rows with a unique index
and a duplicates index, and prints the best CPU time (``time.process_time``) of ``--best``
runs of ``UPDATE STATISTICS LOW FOR TABLE`` beside the sqlite3 module's own ``SELECT
COUNT(*)`` of the same table (the floor), so the ratio, not the machine's load, is the figure
to read.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _best(fn: Callable[[], object], best: int) -> float:
    times = []
    for _ in range(best):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--best", type=int, default=5)
    args = parser.parse_args()
    from ifxwire.server.engine import Engine

    with tempfile.TemporaryDirectory(prefix="ifxwire-ustats-") as data:
        eng = Engine(Path(data))
        try:
            s = eng.session("informix", {})
            s.execute(s.prepare("CREATE DATABASE bench_ustats WITH LOG"), [])
            s.close()
            s = eng.session("informix", {})
            s.open_database("bench_ustats")
            s.execute(s.prepare("CREATE TABLE t (a INT, b INT, c VARCHAR(20))"), [])
            conn = s._connection()  # bulk load straight into SQLite: the load is not measured
            conn.execute("BEGIN")
            conn.executemany("INSERT INTO t VALUES (?, ?, ?)",
                             ((i, i % 100, f"row {i}") for i in range(args.rows)))
            conn.execute("COMMIT")
            s.execute(s.prepare("CREATE UNIQUE INDEX t_a ON t (a)"), [])
            s.execute(s.prepare("CREATE INDEX t_b ON t (b)"), [])
            stats = s.prepare("UPDATE STATISTICS LOW FOR TABLE t")
            ustats = _best(lambda: s.execute(stats, []), args.best)
            floor = _best(lambda: conn.execute("SELECT COUNT(*) FROM t").fetchone(), args.best)
            print(f"rows {args.rows}: UPDATE STATISTICS LOW FOR TABLE t {ustats * 1e3:.1f} ms "
                  f"CPU; sqlite3 SELECT COUNT(*) FROM t alone {floor * 1e3:.1f} ms CPU; "
                  f"ratio {ustats / floor:.1f}")
            s.close()
        finally:
            eng.close()


if __name__ == "__main__":
    main()
