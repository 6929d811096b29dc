"""Row factories' client CPU: fetchall of N five-column rows as tuples, dicts, namedtuples, Rows.

Issue 24 asks that ``dict_row`` over 100k rows costs at most 1.5x the client CPU of the
default ``tuple_row`` in the accelerated path, and that the default costs nothing extra. Each
mode (pure, accelerated) runs in its own process (``IFXWIRE_PURE`` is read at import); the
worker starts ifxwire-server in a process of its own (bench/run.py's ``ServerProcess``, so the
server's threads never take the GIL from the fetching thread), loads one table of the bench's
five-column row (INTEGER, VARCHAR, INTEGER, FLOAT, VARCHAR), then fetches it with each factory
in turn, ``--repeat`` rounds interleaved, timing each fetch by the client process's CPU
(``time.process_time``: every thread of the client, none of the server, which is another
process); also ``dict_row`` through its former route (tuples, then the dicts made per
batch) on a second cursor. The headline ratio is the house method's: each round's
``dict_row`` divided by the same round's ``tuple_row``, the median of those per-round ratios
of one run (on the shared host a ratio within one round moves less than a best-of figure:
both fetches meet the same load); best-of-N is shown beside it. Not a test: nothing asserts
the ratio, the report states it.

    python bench/row_factory_bench.py [--rows 100000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO = 1.5
FACTORIES = ("tuple_row", "dict_row", "namedtuple_row", "Row")
#: dict_row through its former route (tuples decoded, then dicts made per batch), measured
#: beside the others on another cursor: what RowDecoder.decode_dicts saves, same process.
BATCH_ROUTE = "dict_row, tuples then make_dicts"


def _worker(rows: int, repeat: int) -> dict[str, object]:
    import tempfile

    sys.path.insert(0, str(ROOT))
    from bench import run as bench_run

    placement = bench_run.place(True)
    if placement is not None:
        os.sched_setaffinity(0, placement["drivers"])
    with tempfile.TemporaryDirectory(prefix="ifxwire-rowfactory-") as data:
        srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
        try:
            return _measure(srv.host, srv.port, rows, repeat)
        finally:
            srv.stop()


def _measure(host: str, port: int, rows: int, repeat: int) -> dict[str, object]:
    import ifxwire
    from ifxwire import rows as R

    kw: dict[str, Any] = {"host": host, "port": port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_rowfactory")
    with ifxwire.connect(**kw, database="bench_rowfactory", autocommit=True) as c:
        cur = c.cursor()
        cur.execute("CREATE TABLE t (id INTEGER, name VARCHAR(40), qty INTEGER, price FLOAT, "
                    "note VARCHAR(60))")
        cur.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                        [(i, f"name {i}", i % 97, i * 0.25, f"note number {i}")
                         for i in range(rows)])
        # dict_row's former route, for comparison: the decoded tuples first, then the dicts
        # made from each batch (make_dicts), as without RowDecoder.decode_dicts.
        batch = c.cursor(row_factory=R.dict_row)
        batch._direct = lambda reply, p: None  # type: ignore[method-assign]
        best: dict[str, float] = {}
        rounds: dict[str, list[float]] = {}
        for rnd in range(repeat):
            # The two dict_row routes swap places every other round: a position in the round
            # (what ran and was freed just before) must not pass for a difference of routes.
            order = (*FACTORIES, BATCH_ROUTE) if rnd % 2 == 0 else (
                "tuple_row", BATCH_ROUTE, *FACTORIES[1:])
            for name in order:
                which = batch if name == BATCH_ROUTE else cur
                if name != BATCH_ROUTE:
                    cur.row_factory = getattr(R, name)
                t0 = time.process_time()
                which.execute("SELECT id, name, qty, price, note FROM t")
                got = which.fetchall()
                spent = time.process_time() - t0
                assert len(got) == rows
                best[name] = min(best.get(name, spent), spent)
                rounds.setdefault(name, []).append(spent)
                del got
        floor = _container_floor(cur, repeat)
    return {"accelerated": bool(ifxwire.accelerated), "rows": rows, "best_s": best,
            "rounds_s": rounds, "floor_s": floor}


def _container_floor(cur: Any, repeat: int) -> dict[str, float]:
    """What CPython's own loader needs to build the same rows as tuples and as dicts.

    ``pickle.loads`` builds each container through the public C API (a tuple from the
    stack; a dict, then ``PyDict_SetItem`` per column with the memoised key object) and the
    values the same way for both, so the difference of the two loads is, near enough (it also
    holds pickle's five memo reads of the keys per row), the price of the dict containers:
    the part of ``dict_row``'s cost no decoder avoids. The report sets our ``dict_row``'s
    extra beside it.
    """
    import pickle

    from ifxwire import rows as R

    cur.row_factory = R.tuple_row
    cur.execute("SELECT id, name, qty, price, note FROM t")
    tuples = cur.fetchall()
    names = [d[0] for d in cur.description]
    blobs = {
        "tuples": pickle.dumps(tuples, protocol=5),
        "dicts": pickle.dumps([dict(zip(names, t, strict=True)) for t in tuples], protocol=5),
    }
    del tuples
    best: dict[str, float] = {}
    for _ in range(repeat):
        for kind, blob in blobs.items():
            t0 = time.process_time()
            made = pickle.loads(blob)
            spent = time.process_time() - t0
            best[kind] = min(best.get(kind, spent), spent)
            del made
    return best


def run(rows: int, repeat: int) -> list[dict[str, Any]]:
    """Both modes, each in a fresh interpreter."""
    results = []
    for pure in (True, False):
        env = dict(os.environ)
        env.pop("IFXWIRE_PURE", None)
        if pure:
            env["IFXWIRE_PURE"] = "1"
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", "--rows", str(rows), "--repeat", str(repeat)],
            capture_output=True, text=True, env=env, timeout=3600, cwd=ROOT,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"row factory bench worker failed:\n{proc.stderr[-3000:]}")
        result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        result["mode"] = "pure" if pure else (
            "accelerated" if result["accelerated"] else "accelerated (not built: pure)")
        results.append(result)
    return results


def round_ratios(r: dict[str, Any], name: str) -> list[float]:
    """``name``'s CPU ÷ the same round's ``tuple_row``, every round of one run, sorted."""
    rounds = r["rounds_s"]
    return sorted(t / b for t, b in zip(rounds[name], rounds["tuple_row"], strict=True))


def report(results: list[dict[str, Any]]) -> str:
    """The markdown report: per mode, the median of the rounds (headline) and best-of-N."""
    lines = [
        "## Row factories: fetchall of 5-column rows (client process CPU)",
        "",
        "Per factory: the median of the rounds' CPU, and its ratio the median of the per-round "
        "ratios to the same round's `tuple_row` (the headline); best of the rounds beside.",
        "",
        "| mode | rows | rounds | " + " | ".join(FACTORIES)
        + f" | dict_row / tuple_row, median of rounds (target ≤ {TARGET_RATIO:g}×) "
        "| best-of-N: tuple_row, dict_row, ratio |",
        "|---|---|---|" + "---|" * len(FACTORIES) + "---|---|",
    ]
    floors = []
    for r in results:
        rounds, best = r["rounds_s"], r["best_s"]
        med = {n: statistics.median(rounds[n]) for n in rounds}
        cells = [f"{med['tuple_row'] * 1000:.1f} ms"] + [
            f"{med[n] * 1000:.1f} ms ({statistics.median(round_ratios(r, n)):.2f}×)"
            for n in FACTORIES[1:]]
        dict_ratios = round_ratios(r, "dict_row")
        ratio = statistics.median(dict_ratios)
        best_ratio = best["dict_row"] / best["tuple_row"]
        lines.append(
            f"| {r['mode']} | {r['rows']} | {len(dict_ratios)} | " + " | ".join(cells)
            + f" | **{ratio:.2f}×** ({dict_ratios[0]:.2f}–{dict_ratios[-1]:.2f}) "
            f"{'met' if ratio <= TARGET_RATIO else 'missed'} "
            f"| {best['tuple_row'] * 1000:.1f} ms, {best['dict_row'] * 1000:.1f} ms, "
            f"{best_ratio:.2f}× |")
        floor = r["floor_s"]
        extra = floor["dicts"] - floor["tuples"]
        base = med["tuple_row"]
        floors.append(
            f"* {r['mode']}: CPython's own loader builds the rows as tuples in "
            f"{floor['tuples'] * 1000:.1f} ms and as dicts in {floor['dicts'] * 1000:.1f} ms "
            f"(`pickle.loads`, best of the rounds), {extra * 1000:.1f} ms more for the dicts; "
            f"`dict_row` cost {(med['dict_row'] - base) * 1000:.1f} ms more than `tuple_row` "
            f"(medians). `tuple_row` plus the loader's extra would be "
            f"{(base + extra) / base:.2f}×.")
    per_round = []
    for r in results:
        cells = []
        for name in ("dict_row", BATCH_ROUTE):
            ratios = round_ratios(r, name)
            cells.append(f"{name} {statistics.median(ratios):.2f}× "
                         f"({ratios[0]:.2f}–{ratios[-1]:.2f})")
        per_round.append(f"* {r['mode']}: " + "; ".join(cells))
    return "\n".join(
        [*lines, "", "The dict containers' price (same rows, same process):", "", *floors,
         "", "Per round, ÷ the same round's tuple_row: median (range) of the rounds:", "",
         *per_round])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        print(json.dumps(_worker(args.rows, args.repeat)))
        return
    print(report(run(args.rows, args.repeat)))


if __name__ == "__main__":
    main()
