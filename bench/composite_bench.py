"""Composite fetch cost: 10 integers as a LIST(INTEGER NOT NULL) versus as 10 INTEGER columns.

Issue 13 asks that fetching N rows holding a 10-element LIST(INTEGER NOT NULL) costs the client
at most 3x the CPU of the same 10 integers as scalar columns, with the pure-Python and the
accelerated codecs. Each mode runs in its own process (``IFXWIRE_PURE`` is read at import):
it starts ifxwire-server in a process of its own, placed as bench/run.py places servers and
drivers (the server on the last CPU, the worker on the others), loads both tables, then
fetches each table a few times and keeps the smallest **client-thread** CPU time
(``time.thread_time`` of the fetching thread). Not a test: ``make bench`` runs it with 100k
rows, the smoke run with a few thousand; nothing asserts the ratio, the report states it.

Why the server is not in the worker's process (it was until the ninth session): its threads
then took the GIL from the fetching thread, and the ratio of one build swung from 2.0× to
3.3× between runs of the same code.

    python bench/composite_bench.py [--rows N] [--repeat K]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO = 3.0


def _worker(rows: int, repeat: int) -> dict[str, object]:
    import tempfile

    sys.path.insert(0, str(ROOT))
    from bench import run as bench_run

    placement = bench_run.place(True)
    if placement is not None:
        os.sched_setaffinity(0, placement["drivers"])
    with tempfile.TemporaryDirectory(prefix="ifxwire-composite-") as data:
        srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
        try:
            return _measure(srv.host, srv.port, rows, repeat)
        finally:
            srv.stop()


def _measure(host: str, port: int, rows: int, repeat: int) -> dict[str, object]:
    """Load both tables, then the best client-thread CPU of fetching each ``repeat`` times."""
    import ifxwire
    from ifxwire import _accel

    kw = {"host": host, "port": port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_composite")
    with ifxwire.connect(**kw, database="bench_composite", autocommit=True) as c:
        cur = c.cursor()
        cols = ", ".join(f"c{i} INTEGER" for i in range(10))
        cur.execute(f"CREATE TABLE scalars ({cols})")
        cur.execute("CREATE TABLE lists (l LIST(INTEGER NOT NULL))")
        data = [[r * 10 + i for i in range(10)] for r in range(rows)]
        marks = ", ".join("?" * 10)
        cur.executemany(f"INSERT INTO scalars VALUES ({marks})", data)
        cur.executemany("INSERT INTO lists VALUES (?)", [[ifxwire.List(d)] for d in data])
        best: dict[str, float] = {}
        arrow = _arrow_available()
        paths = ("fetchall", "arrow") if arrow else ("fetchall",)
        if arrow:  # the lazy imports and first decoder builds are not a fetch's cost
            for table in ("scalars", "lists"):
                cur.execute(f"SELECT * FROM {table}")
                cur.fetch_arrow_table()
        got: Any = None
        for table in ("scalars", "lists") * repeat:
            for path in paths:
                # The previous fetch's result is freed before the clock starts: assigned
                # over inside the timed span, a fetchall's 100k tuples (1.1M objects) were
                # freed on the next fetch's clock, adding 15-27 ms to every Arrow fetch (and
                # making the LIST/scalar ratio look smaller than it is) until 2026-11-29.
                got = None
                t0 = time.thread_time()
                cur.execute(f"SELECT * FROM {table}")
                got = cur.fetchall() if path == "fetchall" else cur.fetch_arrow_table()
                spent = time.thread_time() - t0
                assert len(got) == rows
                key = table if path == "fetchall" else f"{table}_arrow"
                best[key] = min(best.get(key, spent), spent)
                if path == "fetchall" and table == "lists":
                    assert got[-1][0] == data[-1]
                elif table == "lists":
                    assert got.column(0)[rows - 1].as_py() == data[-1]
    out: dict[str, object] = {
        "accelerated": bool(_accel.accelerated),
        "rows": rows,
        "scalar_s": best["scalars"],
        "list_s": best["lists"],
        "ratio": best["lists"] / best["scalars"],
    }
    if "lists_arrow" in best:
        out.update(scalar_arrow_s=best["scalars_arrow"], list_arrow_s=best["lists_arrow"],
                   arrow_ratio=best["lists_arrow"] / best["scalars_arrow"])
    return out


def _arrow_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def run(rows: int, repeat: int) -> list[dict[str, object]]:
    """Both modes, each in a fresh interpreter."""
    results = []
    for pure in (True, False):
        env = {**os.environ, "IFXWIRE_PURE": "1" if pure else ""}
        if not pure:
            env.pop("IFXWIRE_PURE")
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", "--rows", str(rows), "--repeat", str(repeat)],
            capture_output=True, text=True, env=env, timeout=3600, cwd=ROOT,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"composite bench worker failed:\n{proc.stderr[-3000:]}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["mode"] = "pure" if pure else (
            "accelerated" if result["accelerated"] else "accelerated (not built: pure)")
        results.append(result)
    return results


def report(results: list[dict[str, object]]) -> str:
    lines = [
        "## Composite fetch: LIST(INTEGER NOT NULL) of 10 vs 10 INTEGER columns "
        "(client-thread CPU, best of the repeats)",
        "",
        f"| mode | path | rows | 10 INTEGER columns | LIST of 10 | ratio | "
        f"target ≤ {TARGET_RATIO:g}× |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for path, s, li, ra in (("fetchall", "scalar_s", "list_s", "ratio"),
                                ("fetch_arrow_table", "scalar_arrow_s", "list_arrow_s",
                                 "arrow_ratio")):
            if ra not in r:
                continue
            ratio = float(r[ra])  # type: ignore[arg-type]
            lines.append(
                f"| {r['mode']} | {path} | {r['rows']} | "
                f"{float(r[s]) * 1000:.1f} ms | "  # type: ignore[arg-type]
                f"{float(r[li]) * 1000:.1f} ms | {ratio:.2f}× | "  # type: ignore[arg-type]
                f"{'met' if ratio <= TARGET_RATIO else 'missed'} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/composite_bench.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", help="write the results as JSON here")
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.rows, args.repeat)))
        return 0
    results = run(args.rows, args.repeat)
    print(report(results))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
