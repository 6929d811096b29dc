"""``ifxwire.arrow.read_partitioned`` wall time: N partitions vs 1 (issue 25).

One ifxwire-server loads a table of N rows (INTEGER, VARCHAR(20), DECIMAL(12,2), DATE, FLOAT;
by doubling inside the server, as bench/fixtures.py does) into a data directory and stops;
then ``--servers`` server processes open that same directory (replicas of one database,
each its own process, so the server side can scale past one Python interpreter). Each
configuration reads the whole table ``--repeat`` times into one ``pyarrow.Table``
(``reader.read_all()``) and keeps the best wall time, with the client process's CPU time of
that run (after one untimed warm-up read per configuration):

* ``1 partition``: one connection (the baseline);
* ``P partitions, 1 server``: P connections to the first server;
* ``P partitions, S servers``: P connections spread over the S processes.

Not a test: nothing asserts the ratio; the report states it. On a machine with fewer cores
than servers + 1 the servers compete with each other and with the client for CPU, which the
report prints (``os.cpu_count()`` and the load average) beside the figures.

    python bench/arrow_partition_bench.py [--rows N] [--partitions P] [--servers S] [--repeat K]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLUMNS = "a INTEGER, b VARCHAR(20), c DECIMAL(12,2), d DATE, e FLOAT"


def _load(host: str, port: int, rows: int) -> None:
    import datetime as dt
    from decimal import Decimal

    import ifxwire

    kw = {"host": host, "port": port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_part")
    with ifxwire.connect(**kw, database="bench_part", autocommit=True) as c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE t_part ({COLUMNS})")
        seed = min(rows, 1000)
        day = dt.date(2000, 1, 1)
        cur.executemany("INSERT INTO t_part VALUES (?, ?, ?, ?, ?)",
                        [(i, f"name {i}", Decimal(i) / 100, day + dt.timedelta(days=i % 9000),
                          i / 7) for i in range(seed)])
        have = seed
        while have < rows:
            take = min(have, rows - have)
            cur.execute(f"INSERT INTO t_part SELECT a + {have}, b, c, d, e + {have} "
                        f"FROM t_part WHERE a < {take}")
            have += take


def _read(dsns: list[dict[str, Any]], partitions: int, rows: int) -> tuple[float, float]:
    from ifxwire import arrow

    w0, c0 = time.perf_counter(), time.process_time()
    table = arrow.read_partitioned(dsns, "SELECT * FROM t_part", "a", partitions).read_all()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    assert table.num_rows == rows, table.num_rows
    return wall, cpu


def measure(rows: int, partitions: int, servers: int, repeat: int) -> dict[str, Any]:
    from bench import run as bench_run

    with tempfile.TemporaryDirectory(prefix="ifxwire-part-") as data:
        srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
        try:
            t0 = time.perf_counter()
            _load(srv.host, srv.port, rows)
            load_s = time.perf_counter() - t0
        finally:
            srv.stop()
        procs = [bench_run.ServerProcess(Path(data), subprocess.DEVNULL) for _ in range(servers)]
        try:
            dsns = [{"host": p.host, "port": p.port, "user": "informix", "password": "in4mix",
                     "database": "bench_part"} for p in procs]
            configs = {
                "1 partition": (dsns[:1], 1),
                f"{partitions} partitions, 1 server": (dsns[:1], partitions),
                f"{partitions} partitions, {servers} servers": (dsns, partitions),
            }
            out: dict[str, Any] = {"rows": rows, "partitions": partitions, "servers": servers,
                                   "load_s": load_s, "cpus": os.cpu_count(),
                                   "loadavg": os.getloadavg(), "results": {}}
            for targets, n in configs.values():  # warm-up: imports, server page caches
                _read(targets, n, rows)
            for _ in range(repeat):  # interleaved, so a load spike hits every configuration
                for name, (targets, n) in configs.items():
                    wall, cpu = _read(targets, n, rows)
                    best = out["results"].get(name)
                    if best is None or wall < best["wall"]:
                        out["results"][name] = {"wall": wall, "client_cpu": cpu}
            out["loadavg_after"] = os.getloadavg()
            return out
        finally:
            for p in procs:
                p.stop()


def report(r: dict[str, Any]) -> str:
    base = r["results"]["1 partition"]["wall"]
    lines = [
        f"## read_partitioned, {r['rows']} rows ({COLUMNS})",
        "",
        f"{r['cpus']} CPUs, load average {r['loadavg'][0]:.1f} before / "
        f"{r['loadavg_after'][0]:.1f} after; best wall of the repeats.",
        "",
        "| configuration | wall | client CPU | speed-up vs 1 partition |",
        "|---|---|---|---|",
    ]
    for name, v in r["results"].items():
        lines.append(f"| {name} | {v['wall']:.2f} s | {v['client_cpu']:.2f} s | "
                     f"{base / v['wall']:.2f}× |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--partitions", type=int, default=4)
    p.add_argument("--servers", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", help="also write the figures as JSON here")
    args = p.parse_args(argv)
    r = measure(args.rows, args.partitions, args.servers, args.repeat)
    if args.out:
        Path(args.out).write_text(json.dumps(r, indent=1))
    print(report(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
