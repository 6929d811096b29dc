"""The client's user-space instructions per operation of every ``make bench`` scenario (issue 24).

    python bench/client_instructions.py --src /tmp/benchbase/src --src src [--only PATTERN ...]
        [--modes pure accel] [--few 1 --many 3] [--json out.json]

Why: issue 24 bounds every scenario's client CPU at 3 % over 9a91c27's, and on the shared
2-core host a short scenario's client CPU swings by ±40 % per run even quiet, while this
host's perf has no hardware counters. valgrind counts instructions exactly, whatever the
load, so the bound is checked here by counting, not timing.

Method, per tree (``--src``; the first is the base of the ratio) and per flavour (pure:
``IFXWIRE_PURE=1``; accelerated: the tree's compiled ``_speedups``):

* the tree's ifxwire-server runs outside valgrind (``python -m ifxwire.server`` with the
  tree's src on PYTHONPATH) with the bench fixtures, as ``bench/run.py`` starts it;
* one client process per scenario runs under ``valgrind --tool=callgrind
  --instr-atstart=no``, with the tree's ``ifxwire`` and this tree's bench bodies
  (``bench.worker.Worker.setup``, the same adapter and SQL for both trees: the same
  method); start-up, imports, connect and set-up run uninstrumented;
* after one warm-up round the child starts callgrind's instrumentation, zeroes the counters,
  runs ``--few`` rounds and dumps, runs ``--many`` rounds and dumps (callgrind client
  requests through a tiny C helper compiled on first use); (many − few) / ((many − few
  rounds) × operations per round) is the client's instructions per operation, every
  thread's, interpreter included, anything per dump cancelled;
* the live server serves every scenario (``make bench`` replays the read scenarios from a
  recording of the same server's replies: the same bytes reach the client);
* ``codec``: each of ``bench.codec_bench.ifxwire_cases()``'s cases counted per call the
  same way (few / many calls), instead of the timed micro-benchmark's calibrated loops;
* stream scenarios count the adapter's ``stream`` (or ``stream_arrow``) alone, without the
  RSS guard's polling thread (whose wake-ups depend on wall time, not on the work).

Sizes reduced for valgrind (``REDUCED``; the table says which): results of 100k rows and
more are read at 10k rows, the 100k-row executemany at 10k rows, the 200-connection swarms
at 20 connections and 400 queries a round, long ``inner`` loops at 50 operations (a per
operation figure does not depend on how many are counted).

Slow: a few minutes per tree and flavour on a quiet machine; ``--only`` picks scenarios
(the bench's fnmatch patterns). ``--no-valgrind`` runs the same children without valgrind
(every count 0): the smoke test's quick check that every scenario's body runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path.insert(1, str(ROOT))

from bench.scenarios import DATABASE, Scenario, catalogue  # noqa: E402

MODES = ("pure", "accel")
#: Operations counted per round at most, for ``inner`` loops (per operation figures).
MAX_INNER = 50
#: Rows read or written at most per operation (``select_scaling``, streams, executemany).
MAX_ROWS = 10000
HELPER_C = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cg_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""


@dataclass(frozen=True)
class Counted:
    """One scenario as counted: the bench's scenario, reduced for valgrind, and why."""

    name: str
    scenario: Scenario
    reduced: str = ""


def reduce(sc: Scenario) -> Counted:
    """``sc`` at the size counted under valgrind (``reduced`` says what changed)."""
    notes: list[str] = []
    new = sc
    if sc.kind in ("query", "stream", "executemany") and sc.rows > MAX_ROWS:
        notes.append(f"{sc.rows:,} → {MAX_ROWS:,} rows")
        sql = re.sub(r"bench_select_(1m|100k)", "bench_select_10k", sc.sql)
        new = replace(new, rows=MAX_ROWS, sql=sql, grow=False, limit_mb=0)
    if sc.kind == "swarm":
        notes.append(f"{sc.threads} → 20 connections, {sc.inner} → 400 queries a round")
        new = replace(new, threads=20, inner=400)
    elif sc.inner > MAX_INNER and sc.kind != "concurrent":
        notes.append(f"inner {sc.inner} → {MAX_INNER}")
        new = replace(new, inner=MAX_INNER)
    elif sc.kind == "concurrent" and sc.inner > 200:
        notes.append(f"inner {sc.inner} → 200")
        new = replace(new, inner=200)
    if sc.kind == "query" and new.rows >= MAX_ROWS and new.inner > 1:
        notes.append(f"inner {new.inner} → 1")
        new = replace(new, inner=1)
    return Counted(sc.name, new, "; ".join(notes))


def plan(patterns: list[str] | None = None) -> list[Counted]:
    """Every scenario ``make bench`` runs for ifxwire (or those matching ``patterns``)."""
    import fnmatch

    out = []
    for sc in catalogue():
        if patterns and not any(
            sc.name == p or fnmatch.fnmatchcase(sc.name, p) or sc.name.startswith(p + "[")
            for p in patterns
        ):
            continue
        out.append(reduce(sc))
    return out


def helper_library() -> Path:
    """The callgrind client-request helper, compiled once into TMPDIR (gcc, valgrind's header)."""
    cache = Path(tempfile.gettempdir()) / "ifxwire-cg-helper"
    lib = cache / "libcgreq.so"
    if lib.exists():
        return lib
    cache.mkdir(parents=True, exist_ok=True)
    src = cache / "cgreq.c"
    src.write_text(HELPER_C)
    tmp = cache / f"libcgreq.{os.getpid()}.so"
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(tmp), str(src)], check=True)
    tmp.replace(lib)
    return lib


# --------------------------------------------------------------------------- the child


class Requests:
    """callgrind's client requests (no-ops outside valgrind)."""

    def __init__(self, lib: str) -> None:
        import ctypes

        self._lib = ctypes.CDLL(lib) if lib else None

    def start(self) -> None:
        if self._lib is not None:
            self._lib.cg_start()

    def zero(self) -> None:
        if self._lib is not None:
            self._lib.cg_zero()

    def dump(self, label: str) -> None:
        if self._lib is not None:
            self._lib.cg_dump(label.encode())

    def stop(self) -> None:
        if self._lib is not None:
            self._lib.cg_stop()


def _fields(sc: Scenario, port: int) -> dict[str, str]:
    f = {
        "kind": sc.kind,
        "host": "127.0.0.1",
        "port": str(port),
        "db": DATABASE,
        "sql": sc.sql,
        "params": ",".join(str(p) for p in sc.params),
        "rows": str(sc.rows),
        "inner": str(sc.inner),
        "autocommit": "1" if sc.autocommit else "0",
        "threads": str(sc.threads),
    }
    if sc.aio:
        f["aio"] = "1"
    if sc.arrow:
        f["arrow"] = "1"
    return f


def child(args: argparse.Namespace) -> int:
    """Count one scenario in this process; prints one JSON line."""
    import gc

    import ifxwire
    from bench.drivers import load
    from bench.worker import Worker

    req = Requests(args.lib)
    where = str(Path(ifxwire.__file__).resolve().parent.parent)
    sc = reduce(next(s for s in catalogue() if s.name == args.scenario)).scenario
    driver = "ifxwire-accel" if args.mode == "accel" else "ifxwire"
    if sc.kind == "codec":
        return _child_codec(driver, req, args)
    w = Worker(load(driver))
    res = w.setup(_fields(sc, args.port))
    if not res.get("ok"):
        print(json.dumps({"unsupported": res.get("unsupported") or res.get("error"),
                          "src": where}))
        return 0
    body = w.body
    assert body is not None
    if sc.kind == "stream":
        a, conn, sql = w.a, w.conns[0], sc.sql
        stream = cast(Any, a).stream_arrow if sc.arrow else a.stream

        def stream_body() -> dict[str, Any]:
            return {"ops": 1, "rows": stream(conn, sql, [0])}

        body = stream_body
    try:
        ops = int(body()["ops"])  # warm-up: caches, lazy imports, the statement cache
    except Exception as exc:  # a tree without the feature (e.g. no Arrow API)
        print(json.dumps({"unsupported": f"{type(exc).__name__}: {exc}", "src": where}))
        return 0
    gc.collect()
    req.start()
    req.zero()
    for _ in range(args.few):
        body()
    req.dump("few")
    for _ in range(args.many):
        body()
    req.dump("many")
    req.stop()
    w.teardown()
    print(json.dumps({"ops": ops, "src": where}))
    return 0


def _child_codec(driver: str, req: Requests, args: argparse.Namespace) -> int:
    from bench.codec_bench import ifxwire_cases
    from bench.drivers import load

    load(driver)  # checks the flavour took effect
    cases = ifxwire_cases()
    few, many = args.few * 100, args.many * 100
    names = []
    req.start()
    for name, (fn, fargs, per_call) in cases.items():
        for _ in range(50):
            fn(*fargs)
        req.zero()
        for _ in range(few):
            fn(*fargs)
        req.dump(f"few {name}")
        for _ in range(many):
            fn(*fargs)
        req.dump(f"many {name}")
        names.append([name, per_call])
    req.stop()
    import ifxwire

    print(json.dumps({"codec": names, "few": few, "many": many,
                      "src": str(Path(ifxwire.__file__).resolve().parent.parent)}))
    return 0


# --------------------------------------------------------------------------- the parent


def read_dumps(out_dir: Path) -> list[tuple[str, int]]:
    """(label, instructions) of each callgrind dump in ``out_dir``, in dump order."""
    found = []
    for p in out_dir.iterdir():
        m = re.match(r"cg\.out\.\d+\.(\d+)$", p.name)
        if not m:
            continue
        text = p.read_text(errors="replace")
        label = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
        total = re.search(r"^(?:totals|summary):\s+(\d+)", text, re.M)
        if label and total:
            found.append((int(m.group(1)), label.group(1).strip(), int(total.group(1))))
    return [(label, n) for _, label, n in sorted(found)]


def per_op(dumps: list[tuple[str, int]], few: int, many: int, ops: int) -> float:
    """Instructions per operation from the few/many dumps."""
    d = dict(dumps)
    return (d["many"] - d["few"]) / ((many - few) * ops)


def start_server(src: str, data: str) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ, PYTHONPATH=src)
    env.pop("IFXWIRE_PURE", None)
    srv = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", data,
         "--log-level", "WARNING"],
        stdout=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
    assert srv.stdout is not None
    line = srv.stdout.readline().strip()
    if "listening on" not in line:
        srv.kill()
        raise SystemExit(f"{src}: ifxwire-server did not start: {line!r}")
    return srv, int(line.rsplit(":", 1)[1])


def count_one(src: str, port: int, c: Counted, mode: str, args: argparse.Namespace
              ) -> dict[str, Any]:
    """Run one child (under valgrind unless --no-valgrind) and return its counts."""
    work = Path(tempfile.mkdtemp(prefix="cg-"))
    # PYTHONHASHSEED fixed: str hashes decide dict and set layouts, which moved a count by
    # ~0.5 % between two runs of the same tree.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, str(ROOT)]), PYTHONHASHSEED="0")
    env.pop("IFXWIRE_PURE", None)
    if mode == "pure":
        env["IFXWIRE_PURE"] = "1"
    lib = "" if args.no_valgrind else str(helper_library())
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", "--scenario", c.name,
            "--mode", mode, "--port", str(port), "--few", str(args.few), "--many",
            str(args.many), "--lib", lib]
    if not args.no_valgrind:
        argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                f"--callgrind-out-file={work}/cg.out.%p", "--compress-strings=no", *argv]
    t0 = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=str(ROOT))
    out: dict[str, Any] = {"seconds": round(time.monotonic() - t0, 1)}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        out["error"] = (proc.stderr or proc.stdout)[-1500:]
        shutil.rmtree(work, ignore_errors=True)
        return out
    got = json.loads(lines[-1])
    if got.get("src") != str(Path(src).resolve()):
        raise SystemExit(f"the child imported ifxwire from {got.get('src')}, not {src}")
    if "unsupported" in got:
        out["unsupported"] = got["unsupported"]
    elif args.no_valgrind:
        out["per_op"] = 0.0
    elif "codec" in got:
        dumps = read_dumps(work)
        cases: dict[str, float] = {}
        d = dict(dumps)
        for name, per_call in got["codec"]:
            cases[name] = (d[f"many {name}"] - d[f"few {name}"]) / (
                (got["many"] - got["few"]) * per_call)
        out["cases"] = cases
    else:
        out["per_op"] = per_op(read_dumps(work), args.few, args.many, got["ops"])
        out["ops"] = got["ops"]
    shutil.rmtree(work, ignore_errors=True)
    return out


def count_tree(src: str, counted: list[Counted], args: argparse.Namespace
               ) -> dict[str, dict[str, dict[str, Any]]]:
    """Every scenario × flavour of one tree, against the tree's own server."""
    from bench.fixtures import load_fixtures, needed_tables

    data = tempfile.mkdtemp(prefix="ifxwire-ci-")
    srv, port = start_server(src, data)
    results: dict[str, dict[str, dict[str, Any]]] = {}
    try:
        load_fixtures("127.0.0.1", port, needed_tables([c.scenario for c in counted]))
        for c in counted:
            for mode in args.modes:
                r = count_one(src, port, c, mode, args)
                results.setdefault(c.name, {})[mode] = r
                shown = r.get("per_op", r.get("unsupported", r.get("error", "")))
                if "cases" in r:
                    shown = f"{len(r['cases'])} cases"
                print(f"[{src}] {c.name} {mode}: {shown} ({r['seconds']} s)",
                      file=sys.stderr, flush=True)
    finally:
        srv.terminate()
        srv.wait(20)
        shutil.rmtree(data, ignore_errors=True)
    return results


def table(srcs: list[str], counted: list[Counted],
          res: dict[str, dict[str, dict[str, dict[str, Any]]]], modes: list[str]) -> str:
    """The markdown table: per scenario and flavour, base and new per operation, new/base."""
    base, new = srcs[0], srcs[-1]
    head = "| scenario (as counted) |"
    rule = "|---|"
    for m in modes:
        head += f" {m}: base | {m}: new | {m}: new/base |"
        rule += "---:|---:|---:|"
    lines = [head, rule]

    def cell(r: dict[str, Any]) -> str:
        if "per_op" in r:
            return f"{r['per_op']:,.0f}"
        return "n/a" if "unsupported" in r else "error"

    for c in counted:
        label = c.name + (f" ({c.reduced})" if c.reduced else "")
        if c.scenario.kind == "codec":
            names = sorted({n for m in modes for s in (base, new)
                            for n in res[s][c.name][m].get("cases", {})})
            for n in names:
                row = f"| codec {n} |"
                for m in modes:
                    b = res[base][c.name][m].get("cases", {}).get(n)
                    w = res[new][c.name][m].get("cases", {}).get(n)
                    ratio = f"{w / b:.3f}" if b and w else "—"
                    row += (f" {b:,.0f} |" if b else " n/a |") + (
                        f" {w:,.0f} |" if w else " n/a |") + f" {ratio} |"
                lines.append(row)
            continue
        row = f"| {label} |"
        for m in modes:
            b, w = res[base][c.name][m], res[new][c.name][m]
            ratio = "—"
            if b.get("per_op") and w.get("per_op"):
                ratio = f"{w['per_op'] / b['per_op']:.3f}"
                if w["per_op"] / b["per_op"] > 1.03:
                    ratio = f"**{ratio}**"
            row += f" {cell(b)} | {cell(w)} | {ratio} |"
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--src", action="append", default=[],
                   help="a tree's src directory (repeat; the first is the ratio's base)")
    p.add_argument("--only", nargs="*", help="scenario names or fnmatch patterns")
    p.add_argument("--modes", nargs="*", default=list(MODES), choices=MODES)
    p.add_argument("--few", type=int, default=1, help="rounds in the first dump")
    p.add_argument("--many", type=int, default=3, help="rounds in the second dump")
    p.add_argument("--json", help="write every count here")
    p.add_argument("--parallel", action="store_true", help="count the trees at once")
    p.add_argument("--reuse", action="append", default=[],
                   help="a --json file of an earlier run: its trees' counts are taken from it "
                   "(a read-only base need not be counted again)")
    p.add_argument("--no-valgrind", action="store_true",
                   help="run the children without valgrind (smoke: bodies only, counts 0)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--scenario", help=argparse.SUPPRESS)
    p.add_argument("--mode", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--lib", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return child(args)
    if args.many <= args.few:
        p.error("--many must be more than --few")
    srcs = [str(Path(s).resolve()) for s in (args.src or [str(ROOT / "src")])]
    counted = plan(args.only)
    if not counted:
        p.error("no scenario matches --only")
    res: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    earlier: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for path in args.reuse:  # (several runs of one tree, each with its own --only, merge)
        for s, by in json.loads(Path(path).read_text())["results"].items():
            earlier.setdefault(s, {}).update(by)
    for s in srcs:
        if s in earlier and all(c.name in earlier[s] for c in counted):
            res[s] = {c.name: earlier[s][c.name] for c in counted}
    todo = [s for s in srcs if s not in res]
    if args.parallel and len(todo) > 1:
        with ThreadPoolExecutor(len(todo)) as ex:
            done = list(ex.map(lambda s: count_tree(s, counted, args), todo))
    else:
        done = [count_tree(s, counted, args) for s in todo]
    res.update(zip(todo, done, strict=True))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"srcs": srcs, "counted": [asdict(c) for c in counted], "results": res},
            indent=1, default=str))
    print(table(srcs, counted, res, args.modes))
    errors = [(s, n, m) for s in srcs for n, by in res[s].items() for m, r in by.items()
              if "error" in r]
    for s, n, m in errors:
        print(f"\n{s} {n} {m}: {res[s][n][m]['error']}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
