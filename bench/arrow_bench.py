"""Arrow fetch cost: ``fetch_arrow_table`` vs ``fetchall`` vs informix-driver + pandas.

Issue 25's fetch target, measured as composite_bench.py measures: each mode (pure,
accelerated) runs in a fresh interpreter (``IFXWIRE_PURE`` is read at import) that starts
ifxwire-server in a process of its own, loads two 5-column tables of N rows, then fetches each
a few times per method and keeps the smallest **client-thread** CPU time
(``time.thread_time``). Shapes:

* ``numeric``: INTEGER, BIGINT, FLOAT, SMALLINT, DATE (all fixed-width);
* ``fixed``: INTEGER, FLOAT, DECIMAL(12,2), DATE, CHAR(20) (fixed layout);
* ``mixed``: the same with VARCHAR(20) (sequential layout; issue 25's mixed 5-column shape).

Accelerated, every shape takes the C tuple decoder (ifxwire/_arrowdec.c); pure, ``numeric``
and ``fixed`` the strided gather (arrowcols.py) and ``mixed`` the generated column walker
(arrowtuples.py); docs/ARROW.md, "How it is built".

Methods: ``floor`` (``pickle.loads`` of the same rows as tuples: what CPython needs just to
build them), ``fetchall``, ``fetch_arrow_table``, and informix-driver's ``fetchall`` followed
by ``pandas.DataFrame(rows)`` (what users do today). Not a test: nothing asserts a ratio; the
report states them.

``--jdbc``: IBM JDBC 15.0.0.1 reads the same tables from the same server in the accelerated
mode's run (bench/jdbc_side.py: a JVM of its own, its start reported apart), through the typed
``ResultSet`` getters into column arrays (Spark's JDBC source's getters) and through
``getObject`` per column; its client CPU is the whole JVM's (every thread, JIT and GC
included), its first read (class loading, JIT) apart from the best of the following ones.

    python bench/arrow_bench.py [--rows N] [--repeat K] [--jdbc] [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SHAPES = {
    "numeric": "a INTEGER, b BIGINT, c FLOAT, d SMALLINT, e DATE",
    "fixed": "a INTEGER, b FLOAT, c DECIMAL(12,2), d DATE, e CHAR(20)",
    "mixed": "a INTEGER, b FLOAT, c DECIMAL(12,2), d DATE, e VARCHAR(20)",
}


def _rows(shape: str, n: int) -> list[tuple[Any, ...]]:
    import datetime as dt
    from decimal import Decimal

    day = dt.date(2000, 1, 1)
    if shape == "numeric":
        return [(i, i * 1_000_003, i / 7, i % 30000, day + dt.timedelta(days=i % 9000))
                for i in range(n)]
    return [(i, i / 7, Decimal(i) / 100, day + dt.timedelta(days=i % 9000), f"name {i}")
            for i in range(n)]  # "fixed" and "mixed": the same values, CHAR vs VARCHAR


def _worker(rows: int, repeat: int, jdbc: bool = False) -> dict[str, Any]:
    import tempfile

    sys.path.insert(0, str(ROOT))
    from bench import run as bench_run

    placement = bench_run.place(True)
    if placement is not None:
        os.sched_setaffinity(0, placement["drivers"])
    with tempfile.TemporaryDirectory(prefix="ifxwire-arrow-") as data:
        srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
        try:
            return _measure(srv.host, srv.port, rows, repeat, jdbc)
        finally:
            srv.stop()


def _best(fn: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best


def _measure(host: str, port: int, rows: int, repeat: int, jdbc: bool = False
             ) -> dict[str, Any]:
    import ifxwire
    from ifxwire import _accel

    kw = {"host": host, "port": port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_arrow")
    out: dict[str, Any] = {"accelerated": bool(_accel.accelerated), "rows": rows, "shapes": {}}
    rival: Any = None
    try:
        import informix_db
        import pandas

        rival = informix_db.connect(host=host, port=port, user="informix", password="in4mix",
                                    database="bench_arrow", server="informix", autocommit=True)
    except Exception as exc:  # reported, not hidden
        out["rival_error"] = f"{type(exc).__name__}: {exc}"
    side: Any = None
    if jdbc:
        from bench.jdbc_side import JdbcSide, JdbcUnavailable

        try:
            side = JdbcSide()
            out["jdbc_start"] = side.start
        except JdbcUnavailable as exc:
            out["jdbc_error"] = str(exc)
    with ifxwire.connect(**kw, database="bench_arrow", autocommit=True) as c:
        cur = c.cursor()
        for shape, cols in SHAPES.items():
            data = _rows(shape, rows)
            cur.execute(f"CREATE TABLE t_{shape} ({cols})")
            cur.executemany(f"INSERT INTO t_{shape} VALUES (?, ?, ?, ?, ?)", data)
            sql = f"SELECT * FROM t_{shape}"
            cur.execute(sql)
            fetched = cur.fetchall()
            assert len(fetched) == rows
            blob = pickle.dumps(fetched, protocol=pickle.HIGHEST_PROTOCOL)
            del fetched, data
            res: dict[str, float] = {"floor": _best(lambda blob=blob: pickle.loads(blob), repeat)}

            def fetchall(sql: str = sql) -> None:
                cur.execute(sql)
                assert len(cur.fetchall()) == rows

            def arrow(sql: str = sql) -> None:
                cur.execute(sql)
                assert cur.fetch_arrow_table().num_rows == rows

            res["fetchall"] = _best(fetchall, repeat)
            res["fetch_arrow_table"] = _best(arrow, repeat)
            if rival is not None:
                def rival_df(sql: str = sql) -> None:
                    rc = rival.cursor()
                    rc.execute(sql)
                    df = pandas.DataFrame(rc.fetchall())
                    assert len(df) == rows

                res["informix_driver_pandas"] = _best(rival_df, repeat)
            if side is not None:
                fields = {"host": host, "port": port, "db": "bench_arrow", "sql": sql,
                          "inner": 1}
                out.setdefault("jdbc", {})[shape] = {
                    kind: side.reads({"kind": kind, **fields}, repeat, rows)
                    for kind in ("columns", "query")}
            out["shapes"][shape] = res
    if rival is not None:
        rival.close()
    if side is not None:
        side.close()
    return out


def run(rows: int, repeat: int, jdbc: bool = False) -> list[dict[str, Any]]:
    """Both modes, each in a fresh interpreter; with ``jdbc`` IBM JDBC beside in the
    accelerated one (its figures do not depend on the mode)."""
    results = []
    for pure in (True, False):
        env = {**os.environ, "IFXWIRE_PURE": "1"}
        if not pure:
            env.pop("IFXWIRE_PURE")
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", "--rows", str(rows), "--repeat", str(repeat),
             *(["--jdbc"] if jdbc and not pure else [])],
            capture_output=True, text=True, env=env, timeout=3600, cwd=ROOT,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"arrow bench worker failed:\n{proc.stderr[-3000:]}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["mode"] = "pure" if pure else (
            "accelerated" if result["accelerated"] else "accelerated (not built: pure)")
        results.append(result)
    return results


def report(results: list[dict[str, Any]]) -> str:
    lines = [
        "## Arrow fetch (client-thread CPU, best of the repeats)",
        "",
        "| mode | shape | rows | floor (pickle) | fetchall | fetch_arrow_table | "
        "informix-driver + DataFrame | arrow/floor | fetchall/arrow | rival/arrow |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for shape, s in r["shapes"].items():
            arrow = s["fetch_arrow_table"]
            rival = s.get("informix_driver_pandas")
            lines.append(
                f"| {r['mode']} | {shape} | {r['rows']} | {s['floor'] * 1000:.1f} ms | "
                f"{s['fetchall'] * 1000:.1f} ms | {arrow * 1000:.1f} ms | "
                + (f"{rival * 1000:.1f} ms" if rival else r.get("rival_error", "-"))
                + f" | {arrow / s['floor']:.2f}× | {s['fetchall'] / arrow:.2f}× | "
                + (f"{rival / arrow:.1f}×" if rival else "-") + " |"
            )
    for r in results:
        if "jdbc" in r or "jdbc_error" in r:
            lines += ["", *jdbc_report(r)]
    return "\n".join(lines)


def jdbc_report(r: dict[str, Any]) -> list[str]:
    """IBM JDBC beside this mode's ``fetch_arrow_table`` and ``fetchall`` (same server, rows,
    run): the JVM's CPU per read, first read and warm, and the ratios to ours."""
    if "jdbc_error" in r:
        return [f"IBM JDBC not run: {r['jdbc_error']}"]
    st = r["jdbc_start"]
    lines = [
        f"### IBM JDBC beside ({r['mode']} ifxwire), JVM process CPU per read",
        "",
        f"IBM JDBC {st['version']}, Java {st['java']}. JVM start apart (not in any read): "
        f"{st['wall'] * 1000:.0f} ms wall, "
        + ("–" if st["cpu"] is None else f"{st['cpu'] * 1000:.0f} ms CPU")
        + " (start, driver class loaded, `hello` answered). *first*: the first read after "
        "connecting (class loading, JIT); *warm*: best of the following reads.",
        "",
        "| shape | rows | JDBC getters, first | JDBC getters, warm | JDBC getObject, warm | "
        "fetch_arrow_table | fetchall | getters/arrow | getters/fetchall |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for shape, j in r["jdbc"].items():
        s = r["shapes"][shape]
        cols, obj = j["columns"], j["query"]
        lines.append(
            f"| {shape} | {r['rows']} | {cols['first_cpu'] * 1000:.1f} ms | "
            f"{cols['cpu'] * 1000:.1f} ms | {obj['cpu'] * 1000:.1f} ms | "
            f"{s['fetch_arrow_table'] * 1000:.1f} ms | {s['fetchall'] * 1000:.1f} ms | "
            f"{cols['cpu'] / s['fetch_arrow_table']:.1f}× | {cols['cpu'] / s['fetchall']:.2f}× |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/arrow_bench.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--jdbc", action="store_true",
                   help="IBM JDBC beside (the accelerated mode's run; bench/jdbc_side.py)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", help="write the results as JSON here")
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.rows, args.repeat, args.jdbc)))
        return 0
    results = run(args.rows, args.repeat, args.jdbc)
    print(report(results))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
