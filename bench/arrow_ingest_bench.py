"""Arrow bulk ingest: ``adbc_ingest`` (column-wise bind encoder) vs the previous
``adbc_ingest`` (Python tuples per batch) vs ``executemany`` of ready-made tuples.

Issue 25's ingest target: ``adbc_ingest`` of an Arrow table in one transaction at least 1.5x
faster (wall) and at most 0.5x the client CPU of our ``executemany`` of the same rows as
tuples. Each mode (pure, accelerated) runs in a fresh interpreter (``IFXWIRE_PURE`` is read
at import) that starts ifxwire-server in a process of its own; each method inserts the N rows
into a freshly created, committed table in one transaction (``commit()`` included), a few
times, keeping the smallest client-thread CPU (``time.thread_time``) and the smallest wall.

Methods:

* ``executemany``: ``cur.executemany(sql, rows)`` with the rows already a list of tuples
  (building them is not counted: the issue's baseline);
* ``tuples ingest``: what ``adbc_ingest`` did before the column encoder, per record batch
  ``to_pylist`` of each column, ``zip`` into tuples, ``executemany``;
* ``adbc_ingest``: ``cur.adbc_ingest(table, arrow_table, mode="append")``.

Shapes: ``numeric+text`` = int32, int64, float64, date32, string (every column vectorised);
``mixed`` = int32, float64, decimal128(12,2), date32, string (issue 25's mixed shape; the
DECIMAL column is encoded value by value). Not a test: the report states the ratios.

Targets (``--target``): ``empty`` (the default: a freshly created, committed, empty table,
``mode="append"``), ``existing`` (the same table already holding N/4 committed rows: an
append after the table's largest rowid), ``create`` (no table: ``adbc_ingest`` with
``mode="create"``, the other methods run CREATE TABLE in their transaction first).

    python bench/arrow_ingest_bench.py [--rows N] [--repeat K] [--target T] [--out results.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SHAPES = {
    "numeric+text": "a INTEGER, b BIGINT, c FLOAT, d DATE, e VARCHAR(20)",
    "mixed": "a INTEGER, b FLOAT, c DECIMAL(12,2), d DATE, e VARCHAR(20)",
}


def _table(shape: str, n: int) -> Any:
    import pyarrow as pa

    day0 = dt.date(2000, 1, 1)
    a = pa.array(range(n), pa.int32())
    d = pa.array([day0 + dt.timedelta(days=i % 9000) for i in range(n)], pa.date32())
    e = pa.array([f"name {i % 997}" for i in range(n)], pa.string())
    if shape == "numeric+text":
        return pa.table({"a": a, "b": pa.array([i * 1_000_003 for i in range(n)], pa.int64()),
                         "c": pa.array([i / 7 for i in range(n)]), "d": d, "e": e})
    return pa.table({"a": a, "b": pa.array([i / 7 for i in range(n)]),
                     "c": pa.array([Decimal(i % 10_000_000).scaleb(-2) for i in range(n)],
                                   pa.decimal128(12, 2)), "d": d, "e": e})


def _worker(rows: int, repeat: int, target: str = "empty") -> dict[str, Any]:
    import tempfile

    sys.path.insert(0, str(ROOT))
    from bench import run as bench_run

    placement = bench_run.place(True)
    if placement is not None:
        os.sched_setaffinity(0, placement["drivers"])
    with tempfile.TemporaryDirectory(prefix="ifxwire-ingest-") as data:
        srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
        try:
            return _measure(srv.host, srv.port, rows, repeat, srv.proc.pid, target)
        finally:
            srv.stop()


def _process_cpu(pid: int | None) -> float:
    """The server process's CPU (user + system, all its threads) so far, in seconds; 0 where
    /proc is not there. Why: the ingest's wall is mostly the server's (REPORT arrow9)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _measure(host: str, port: int, rows: int, repeat: int,
             server_pid: int | None = None, target: str = "empty") -> dict[str, Any]:
    import ifxwire
    from ifxwire import _accel

    kw = {"host": host, "port": port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_ingest WITH LOG")
    out: dict[str, Any] = {"accelerated": bool(_accel.accelerated), "rows": rows, "shapes": {},
                           "target": target}
    create = target == "create"
    prefill = rows // 4 if target == "existing" else 0
    with ifxwire.connect(**kw, database="bench_ingest") as c:
        cur = c.cursor()
        for shape, cols in SHAPES.items():
            table = _table(shape, rows)
            tuples = list(zip(*[col.to_pylist() for col in table.columns], strict=True))
            sql = f"INSERT INTO t ({', '.join(table.column_names)}) VALUES (?, ?, ?, ?, ?)"

            def fresh(cols: str = cols, sql: str = sql,
                      first: list[tuple[Any, ...]] = tuples[:prefill]) -> None:
                cur.execute("DROP TABLE IF EXISTS t")
                if not create:
                    cur.execute(f"CREATE TABLE t ({cols})")
                    if first:
                        cur.executemany(sql, first)
                c.commit()  # (the server is slow on binds into a table of the open transaction)

            def made(cols: str = cols) -> None:
                if create:
                    cur.execute(f"CREATE TABLE t ({cols})")

            def executemany(tuples: list[tuple[Any, ...]] = tuples, sql: str = sql) -> None:
                made()
                cur.executemany(sql, tuples)

            def tuples_ingest(table: Any = table, sql: str = sql) -> None:
                made()
                for batch in table.to_batches():
                    columns = [col.to_pylist() for col in batch.columns]
                    cur.executemany(sql, list(zip(*columns, strict=True)))

            def ingest(table: Any = table) -> None:
                cur.adbc_ingest("t", table, mode="create" if create else "append")

            res: dict[str, dict[str, float]] = {}
            for name, fn in (("executemany", executemany), ("tuples_ingest", tuples_ingest),
                             ("adbc_ingest", ingest)):
                cpu = wall = server = float("inf")
                for _ in range(repeat):
                    fresh()
                    s0 = _process_cpu(server_pid)
                    w0, t0 = time.perf_counter(), time.thread_time()
                    fn()
                    c.commit()
                    cpu = min(cpu, time.thread_time() - t0)
                    wall = min(wall, time.perf_counter() - w0)
                    server = min(server, _process_cpu(server_pid) - s0)
                    assert cur.execute("SELECT count(*) FROM t").fetchone() == (rows + prefill,)
                res[name] = {"cpu": cpu, "wall": wall, "server_cpu": server}
            out["shapes"][shape] = res
    return out


def run(rows: int, repeat: int, target: str = "empty") -> list[dict[str, Any]]:
    results = []
    for pure in (True, False):
        env = {**os.environ, "IFXWIRE_PURE": "1"}
        if not pure:
            env.pop("IFXWIRE_PURE")
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", "--rows", str(rows), "--repeat", str(repeat),
             "--target", target],
            capture_output=True, text=True, env=env, timeout=7200, cwd=ROOT,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"ingest bench worker failed:\n{proc.stderr[-3000:]}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["mode"] = "pure" if pure else (
            "accelerated" if result["accelerated"] else "accelerated (not built: pure)")
        results.append(result)
    return results


def report(results: list[dict[str, Any]]) -> str:
    lines = [
        "## Arrow ingest (client-thread CPU and wall, best of the repeats), target "
        + str(results[0].get("target", "empty") if results else "empty"),
        "",
        "| mode | shape | rows | executemany CPU / wall | tuples ingest CPU / wall | "
        "adbc_ingest CPU / wall | CPU vs executemany | wall speed-up vs executemany | "
        "CPU vs tuples ingest |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for shape, s in r["shapes"].items():
            em, old, new = s["executemany"], s["tuples_ingest"], s["adbc_ingest"]
            lines.append(
                f"| {r['mode']} | {shape} | {r['rows']} | "
                + " | ".join(f"{m['cpu']:.2f} s / {m['wall']:.2f} s" for m in (em, old, new))
                + f" | {new['cpu'] / em['cpu']:.2f}× | {em['wall'] / new['wall']:.2f}× | "
                f"{new['cpu'] / old['cpu']:.2f}× |"
            )
    lines += ["", "Server process CPU (best of the repeats): executemany / tuples ingest / "
              "adbc_ingest", ""]
    for r in results:
        for shape, s in r["shapes"].items():
            if all("server_cpu" in m for m in s.values()):
                lines.append(f"- {r['mode']}, {shape}: " + " / ".join(
                    f"{s[k]['server_cpu']:.2f} s"
                    for k in ("executemany", "tuples_ingest", "adbc_ingest")))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/arrow_ingest_bench.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=200_000)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--target", choices=("empty", "existing", "create"), default="empty",
                   help="the table the rows go into (see above; default empty)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", help="write the results as JSON here")
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.rows, args.repeat, args.target)))
        return 0
    results = run(args.rows, args.repeat, args.target)
    print(report(results))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
