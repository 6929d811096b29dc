"""ifxwire-server's SELECT against Python's sqlite3 on the same file (issue 26, Speed).

    python bench/server_select.py [--rows 100000] [--repeat 5] [--one-row 2000]
    python bench/server_select.py --profile srv.prof       # the server under cProfile
    python bench/server_select.py --server-src /other/checkout/src   # compare a version

What a new user sees: ``SELECT * FROM t`` of ``--rows`` 5-column rows (bench/scenarios.py's
``row5`` shape) fetched with ifxwire's ``fetchall`` from a live ifxwire-server, and the same
query run by the sqlite3 module (``fetchall``) on the SQLite file the server keeps the table
in, in the same run, alternating. The ratio is the server's wall over sqlite3's; issue 26's
target is at most 2x. Also reported: the server's CPU per fetched SELECT (utime + stime from
/proc, 10 ms ticks) and, for ``select_one_row`` (``SELECT 1 FROM systables WHERE tabid = 1``,
execute + fetchall on one connection, its statement cached), the server's CPU per statement.

The server runs as its own process (``--server-src`` chooses its source tree); the client is
ifxwire as installed here (pure or accelerated as ``IFXWIRE_PURE`` says). With two or more
CPUs the server is pinned to the last CPU and this process to the others, as bench/run.py
places them. Benchmarks are a separate command, never a timed test.
"""

from __future__ import annotations

import argparse
import glob
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.scenarios import DATABASE, SELECT_COLUMNS, row5
from bench.server_cost import server_cpu

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD = "informix", "in4mix"
TABLE = "bench_srv_select"


def _sqlite_file(data: str) -> str:
    """The SQLite file that holds the bench database's tables."""
    for path in glob.glob(os.path.join(data, "**", "*"), recursive=True):
        if not os.path.isfile(path):
            continue
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                if db.execute("SELECT 1 FROM sqlite_master WHERE name = ?",
                              (TABLE,)).fetchone():
                    return path
        except sqlite3.Error:
            continue
    raise SystemExit(f"no SQLite file under {data} holds {TABLE}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--server-src", default=str(ROOT / "src"))
    p.add_argument("--rows", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--one-row", type=int, default=2000, help="select_one_row statements per sample")
    p.add_argument("--profile", help="run the server under cProfile, write its profile here")
    p.add_argument("--no-pin", action="store_true")
    args = p.parse_args(argv)

    import ifxwire

    data = tempfile.mkdtemp(prefix="ifxwire-srvsel-")
    env = dict(os.environ, PYTHONPATH=args.server_src)
    env.pop("IFXWIRE_PURE", None)  # the server as users run it: accelerated when built
    cmd = [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", data,
           "--log-level", "WARNING"]
    if args.profile:
        env["PYTHONPATH"] = os.pathsep.join([args.server_src, str(ROOT)])
        cmd = [sys.executable, "-m", "bench.profiled_server", "--data", data,
               "--out", args.profile]
    srv = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2 and not args.no_pin:
        os.sched_setaffinity(srv.pid, {cpus[-1]})
        os.sched_setaffinity(0, set(cpus[:-1]))
    try:
        assert srv.stdout is not None
        port = int(srv.stdout.readline().strip().rsplit(":", 1)[1])
        kw: dict[str, Any] = {"host": "127.0.0.1", "port": port, "user": USER,
                              "password": PASSWORD}
        setup = ifxwire.connect(**kw, autocommit=True)
        cur = setup.cursor()
        cur.execute(f"CREATE DATABASE {DATABASE} WITH LOG")
        cur.execute(f"CREATE TABLE {TABLE} ({SELECT_COLUMNS})")
        setup.close()
        setup = ifxwire.connect(**kw, database=DATABASE, autocommit=True)
        cur = setup.cursor()
        # 1000 rows bound, then doubled inside the server (bench/fixtures.py does the same)
        cur.executemany(f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, ?)",
                        [row5(i) for i in range(min(1000, args.rows))])
        have = min(1000, args.rows)
        while have < args.rows:
            cur.execute(f"INSERT INTO {TABLE} SELECT a + {have}, b, c, d + {have * 0.25}, e "
                        f"FROM {TABLE} WHERE a < {args.rows - have}")
            have = min(2 * have, args.rows)
        setup.close()
        if args.profile:
            srv.send_signal(signal.SIGUSR1)  # the set-up out of the profile
            time.sleep(0.2)
        conn = ifxwire.connect(**kw, database=DATABASE, autocommit=True)
        cur = conn.cursor()
        path = _sqlite_file(data)
        lite = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        sql = f"SELECT * FROM {TABLE}"

        def server_select() -> int:
            cur.execute(sql)
            return len(cur.fetchall())

        def sqlite_select() -> int:
            return len(lite.execute(sql).fetchall())

        def one_row() -> int:
            n = 0
            for _ in range(args.one_row):
                cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
                n += len(cur.fetchall())
            return n

        for fn in (server_select, sqlite_select, one_row):
            fn()  # warm: prepare, statement cache, page cache (in the profile, if any)
        walls: dict[str, list[float]] = {"server": [], "sqlite3": [], "one_row": []}
        cpu: dict[str, list[float]] = {"server": [], "one_row": []}
        ratios: list[float] = []
        for _ in range(args.repeat):
            c0 = server_cpu(srv.pid)
            t0 = time.perf_counter()
            n = server_select()
            walls["server"].append(time.perf_counter() - t0)
            cpu["server"].append(server_cpu(srv.pid) - c0)
            assert n == args.rows, n
            t0 = time.perf_counter()
            n = sqlite_select()
            walls["sqlite3"].append(time.perf_counter() - t0)
            assert n == args.rows, n
            ratios.append(walls["server"][-1] / walls["sqlite3"][-1])
            c0 = server_cpu(srv.pid)
            t0 = time.perf_counter()
            one_row()
            walls["one_row"].append(time.perf_counter() - t0)
            cpu["one_row"].append(server_cpu(srv.pid) - c0)
        conn.close()
        lite.close()
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(timeout=60)

    def med(xs: list[float]) -> float:
        return statistics.median(xs)

    mode = "pure" if not getattr(ifxwire, "accelerated", False) else "accelerated"
    print(f"client ifxwire {mode}; server from {args.server_src}; {args.rows} rows, "
          f"{args.repeat} samples (medians; every sample in brackets)")
    print(f"SELECT * wall, ifxwire-server: {med(walls['server']) * 1e3:8.1f} ms  "
          f"[{', '.join(f'{w * 1e3:.0f}' for w in walls['server'])}]")
    print(f"SELECT * wall, sqlite3 fetchall: {med(walls['sqlite3']) * 1e3:6.1f} ms  "
          f"[{', '.join(f'{w * 1e3:.0f}' for w in walls['sqlite3'])}]")
    print(f"ratio server / sqlite3:          {med(ratios):6.2f}x  "
          f"[{', '.join(f'{r:.2f}' for r in ratios)}]")
    print(f"server CPU per SELECT *:       {med(cpu['server']) * 1e3:8.1f} ms  "
          f"({med(cpu['server']) / args.rows * 1e6:.2f} us per row)")
    per = [c / args.one_row * 1e6 for c in cpu["one_row"]]
    print(f"select_one_row server CPU:     {med(per):8.1f} us per statement  "
          f"[{', '.join(f'{c:.0f}' for c in per)}]; wall "
          f"{med(walls['one_row']) / args.one_row * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
