"""The engine's OPEN of a cached one-row query in-process, no sockets (issue 26, select_one_row).

    python bench/engine_one_row.py [--src DIR] [--n 20000] [--best 7]
    python bench/engine_one_row.py --src /path/to/other/checkout/src   # another tree

Why: the side-by-side server benchmark (server_one_row.py) moves by ±30 % on the shared,
loaded machine, and most of a statement's server CPU there is the kernel's. This one runs
``EngineSession.open_cursor`` of a prepared statement and reads its row ``--n`` times and
prints the best of ``--best`` runs in µs per statement: the engine and SQLite alone, whose
minimum hardly moves with the load. Cases: ``SELECT 1 FROM systables WHERE tabid = 1`` and
``SELECT tabname FROM systables WHERE tabid = ?`` in sysmaster and in a user database
(with 50 user tables, so systables holds 125 rows), and the sqlite3 module alone running the
engine's SQL of the first (``cursor``, ``execute``, ``fetchmany``, ``close``), the floor;
and ``SELECT colname FROM syscolumns WHERE tabid = ?`` (a table's columns, as JDBC's
getColumns and reflection read them) through syscolumns' index and, with the index dropped
in the same process, by a scan.
``--src`` runs the tree at DIR (its ``src``) in a child process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _best(fn: Callable[[], object], n: int, best: int) -> float:
    times = []
    for _ in range(best):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t) / n * 1e6)
    return min(times)


def _measure(n: int, best: int) -> None:
    from ifxwire.server.engine import Engine

    with tempfile.TemporaryDirectory(prefix="ifxwire-engine-onerow-") as data:
        eng = Engine(Path(data))
        try:
            s = eng.session("informix", {})
            p = s.prepare("CREATE DATABASE bench_one_row WITH LOG")
            s.execute(p, [])
            for i in range(50):
                s.execute(s.prepare(f"CREATE TABLE t{i} (a INT, b VARCHAR(20))"), [])
            s.close()
            for db in ("sysmaster", "bench_one_row"):
                s = eng.session("informix", {})
                s.open_database(db)
                const = s.prepare("SELECT 1 FROM systables WHERE tabid = 1")
                param = s.prepare("SELECT tabname FROM systables WHERE tabid = ?")
                for name, stmt, args in (("select_one_row", const, []),
                                         ("one_row_param", param, [1])):
                    def run(s: Any = s, stmt: Any = stmt, args: list[object] = args) -> None:
                        list(s.open_cursor(stmt, args))
                    run()
                    print(f"{db:14} {name:16} {_best(run, n, best):6.2f} µs")
                _columns(s, db, n, best)
                if db == "sysmaster":
                    conn = s._connection()
                    sql = const.plan.sql

                    def floor(conn: Any = conn, sql: str = sql) -> None:
                        cur = conn.cursor()
                        cur.execute(sql, {})
                        cur.fetchmany(256)
                        cur.close()
                    print(f"{db:14} {'sqlite3 alone':16} {_best(floor, n, best):6.2f} µs")
                s.close()
        finally:
            eng.close()


def _columns(s: Any, db: str, n: int, best: int) -> None:
    """A table's columns by tabid (JDBC getColumns, reflection), through syscolumns' index
    and, with the index dropped in this process, by a scan: the A/B of the index alone."""
    stmt = s.prepare("SELECT colname FROM syscolumns WHERE tabid = ?")
    tabid = 100 if db != "sysmaster" else 1

    def run() -> None:
        list(s.open_cursor(stmt, [tabid]))
    run()
    conn = s._connection()
    have = conn.execute("SELECT sql FROM main.sqlite_master WHERE type = 'index' "
                        "AND name = '_ifx_syscolumns_tabid'").fetchone()
    label = "columns_by_tabid" if have else "columns (no idx)"
    print(f"{db:14} {label:16} {_best(run, n, best):6.2f} µs")
    if have:
        conn.execute("DROP INDEX main._ifx_syscolumns_tabid")
        run()
        print(f"{db:14} {'columns (scan)':16} {_best(run, n, best):6.2f} µs")
        conn.execute(str(have[0]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--src", help="another tree's src directory (run in a child process)")
    p.add_argument("--n", type=int, default=20000)
    p.add_argument("--best", type=int, default=7)
    args = p.parse_args(argv)
    if args.src:
        env = dict(os.environ, PYTHONPATH=args.src)
        return subprocess.call([sys.executable, os.path.abspath(__file__), "--n", str(args.n),
                                "--best", str(args.best)], env=env)
    import ifxwire

    print(f"tree {Path(ifxwire.__file__).parent.parent}")
    _measure(args.n, args.best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
