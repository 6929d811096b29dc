"""The server's CPU time for one bulk insert of the ingest bench's rows, per source tree and
set-up: the data directory (tmpfs or disk) and the CPU placement (pinned as
bench/arrow_ingest_bench.py pins, or left to the scheduler), trees alternated.

    python bench/ingest_server_cpu.py --src DIR [--src DIR2 ...] [--rows 1000000]
        [--shape mixed] [--method adbc_ingest|executemany|both] [--data /dev/shm --data /tmp]
        [--pin yes --pin no] [--rounds 2]

Why (issue 25, ingest14): ingest13 saw the bench's server spend 3.3 s on 1M mixed rows where
a probe spent ~1.9 s and suspected the bench's set-up (CPU pinning, the data directory on
disk, the shapes run before). Each measurement here starts a fresh ifxwire-server of that
tree (``DIR/src`` first on PYTHONPATH; build its accelerator first; IFXWIRE_PURE is passed
through), inserts the rows into a fresh table in one transaction (``both``: an
``executemany`` of them first, then the table dropped, as the bench orders its methods) and
reports the server process's CPU (user + system, /proc) over the measured insert and its
commit, and the wall. CPU time moves with the machine's load; compare the rows of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_CLIENT = r"""
import json, os, sys, time
tree, host, port, method, shape, rows, pid = sys.argv[1:8]
sys.path[:0] = [tree + "/src", tree]
from bench.arrow_ingest_bench import SHAPES, _process_cpu, _table
import ifxwire
kw = dict(host=host, port=int(port), user="informix", password="in4mix")
with ifxwire.connect(**kw, autocommit=True) as c:
    c.cursor().execute("CREATE DATABASE b WITH LOG")
table = _table(shape, int(rows))
tuples = list(zip(*[col.to_pylist() for col in table.columns], strict=True))
sql = "INSERT INTO t (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)"
with ifxwire.connect(**kw, database="b") as c:
    cur = c.cursor()
    if method == "both":
        cur.execute(f"CREATE TABLE t ({SHAPES[shape]})"); c.commit()
        cur.executemany(sql, tuples); c.commit()
        cur.execute("DROP TABLE t"); c.commit()
        method = "adbc_ingest"
    cur.execute(f"CREATE TABLE t ({SHAPES[shape]})"); c.commit()
    s0, w0 = _process_cpu(int(pid)), time.perf_counter()
    if method == "adbc_ingest":
        cur.adbc_ingest("t", table, mode="append")
    else:
        cur.executemany(sql, tuples)
    c.commit()
    wall, server = time.perf_counter() - w0, _process_cpu(int(pid)) - s0
    assert cur.execute("SELECT count(*) FROM t").fetchone() == (int(rows),)
print(json.dumps({"server_cpu": round(server, 2), "wall": round(wall, 2)}))
"""


def measure(tree: Path, data_root: str, pin: bool, method: str, shape: str,
            rows: int) -> dict[str, Any]:
    """One fresh server of ``tree`` with its data under ``data_root``, one insert."""
    env = {**os.environ, "PYTHONPATH": f"{tree}/src{os.pathsep}{tree}"}
    cpus = sorted(os.sched_getaffinity(0))
    pinned = pin and len(cpus) >= 2
    with tempfile.TemporaryDirectory(prefix="ifxwire-cpu-", dir=data_root) as data:
        srv = subprocess.Popen(
            [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", data,
             "--log-level", "WARNING"],
            stdout=subprocess.PIPE, text=True, env=env,
            preexec_fn=(lambda: os.sched_setaffinity(0, set(cpus[-1:]))) if pinned else None)
        try:
            assert srv.stdout is not None
            port = srv.stdout.readline().strip().rsplit(":", 1)[1]
            client = subprocess.run(
                [sys.executable, "-c", _CLIENT, str(tree), "127.0.0.1", port, method, shape,
                 str(rows), str(srv.pid)],
                capture_output=True, text=True, env=env, timeout=3600,
                preexec_fn=(lambda: os.sched_setaffinity(0, set(cpus[:-1]))) if pinned
                else None)
            if client.returncode:
                raise RuntimeError(client.stderr[-2000:])
            return dict(json.loads(client.stdout.strip().splitlines()[-1]))
        finally:
            srv.terminate()
            try:
                srv.wait(30)
            except subprocess.TimeoutExpired:
                srv.kill()
                srv.wait()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/ingest_server_cpu.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", action="append", type=Path, help="a source tree (repeatable)")
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--shape", default="mixed", choices=("mixed", "numeric+text"))
    p.add_argument("--method", default="adbc_ingest",
                   choices=("adbc_ingest", "executemany", "both"))
    p.add_argument("--data", action="append", help="data directory roots (repeatable)")
    p.add_argument("--pin", action="append", choices=("yes", "no"))
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args(argv)
    trees = args.src or [ROOT]
    print("| round | tree | data | pinned | load | server CPU | wall |")
    print("|---|---|---|---|---|---|---|")
    for r in range(args.rounds):
        for data in args.data or ["/dev/shm", tempfile.gettempdir()]:
            for pin in args.pin or ["no", "yes"]:
                for tree in trees:
                    load = Path("/proc/loadavg").read_text().split()[0]
                    got = measure(tree.resolve(), data, pin == "yes", args.method,
                                  args.shape, args.rows)
                    print(f"| {r + 1} | {tree} | {data} | {pin} | {load} | "
                          f"{got['server_cpu']:.2f} s | {got['wall']:.2f} s |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
