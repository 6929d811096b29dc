"""Row factories counted, not timed: user-space instructions and L1 misses per row (callgrind).

    python bench/row_factory_counts.py [--rows 20000] [--no-cache-sim] [SCENARIO ...]

Why: on the shared 2-core host a fetch's client CPU moves by ±10-40 % from run to run, and
``dict_row``'s price against ``tuple_row`` (issue 24: at most 1.5x) was argued from timings
that could not tell two routes apart. valgrind counts whatever the load. ``--cache-sim=yes``
(the default here) adds callgrind's L1 model (32 KB, 8-way, as this host's L1d): the misses
that a per-batch route pays and an instruction count does not show.

The parent starts ifxwire-server outside valgrind, loads ``--rows`` rows of the bench's
five-column row (row_factory_bench.py's table), and runs one child under ``valgrind
--tool=callgrind``; the child runs each scenario once unmeasured, then three times measured
(zero, run, dump; then the objects are dropped and dumped apart as ``free``), and the
parent prints the smallest of the three per row. Scenarios:

* ``tuple_row``, ``dict_row``: ``execute`` + ``fetchall`` on a fresh cursor (the bench's
  work); ``dict_row_batch``: dict_row through its former route (the tuples decoded, then
  ``make_dicts`` per batch: the cursor's ``_direct`` hook bypassed);
* ``pickle_tuples``, ``pickle_dicts``: ``pickle.loads`` of the same rows as tuples and as
  dicts (the bench's "CPython's own price" of the dicts);
* ``decode_tuples``, ``decode_dicts``, ``decode_then_make_dicts``: the C decoder alone over
  the captured reply buffers (no socket, no cursor), tuples, dicts made per row, dicts made
  per batch; ``make_dicts``: ``make_dicts`` alone over batches decoded beforehand.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(1, str(ROOT))

SQL = "SELECT id, name, qty, price, note FROM t"
SCENARIOS = ("tuple_row", "dict_row", "dict_row_batch", "pickle_tuples", "pickle_dicts",
             "decode_tuples", "decode_dicts", "decode_then_make_dicts", "make_dicts")


def _child(port: int, lib: str, names: list[str]) -> None:
    import ctypes

    import ifxwire
    from ifxwire import _speedups  # type: ignore[attr-defined]
    from ifxwire import rows as R
    from ifxwire.client import replies

    cg = ctypes.CDLL(lib) if lib else None
    conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database="rowcounts", autocommit=True)
    captured: list[tuple[Any, bytes, int, int]] = []
    tuples_loop = replies.Reply._tuples

    def spy(self: Any, buf: Any, pos: int, end: int) -> int:
        captured.append((self.decoder, bytes(buf), pos, end))
        return tuples_loop(self, buf, pos, end)

    replies.Reply._tuples = spy  # type: ignore[method-assign]
    cur = conn.cursor()
    cur.execute(SQL)
    tuples = cur.fetchall()
    keys = tuple(d[0] for d in cur.description or ())
    replies.Reply._tuples = tuples_loop  # type: ignore[method-assign]
    blobs = {"tuples": pickle.dumps(tuples, protocol=5),
             "dicts": pickle.dumps([dict(zip(keys, t, strict=True)) for t in tuples],
                                   protocol=5)}

    def decoded(dicts: bool) -> list[list[Any]]:
        out = []
        for dec, buf, pos, end in captured:
            got: list[Any] = []
            if dicts:
                dec.decode_dicts(buf, pos, end, got, keys)
            else:
                dec.decode_tuples(buf, pos, end, got)
            out.append(got)
        return out

    def fetch(factory: Any, batch_route: bool = False) -> Any:
        c = conn.cursor(row_factory=factory)
        if batch_route:
            c._direct = lambda reply, p: None  # type: ignore[method-assign]
        c.execute(SQL)
        return c, c.fetchall()

    ready = decoded(False)
    work: dict[str, Callable[[], Any]] = {
        "tuple_row": lambda: fetch(R.tuple_row),
        "dict_row": lambda: fetch(R.dict_row),
        "dict_row_batch": lambda: fetch(R.dict_row, batch_route=True),
        "pickle_tuples": lambda: pickle.loads(blobs["tuples"]),
        "pickle_dicts": lambda: pickle.loads(blobs["dicts"]),
        "decode_tuples": lambda: decoded(False),
        "decode_dicts": lambda: decoded(True),
        "decode_then_make_dicts": lambda: [(b, _speedups.make_dicts(keys, b))
                                           for b in decoded(False)],
        "make_dicts": lambda: [_speedups.make_dicts(keys, b) for b in ready],
    }
    if cg is not None:
        cg.cg_start()
    for name in names:
        for rnd in range(4):
            made = work[name]()
            if rnd and cg is not None:
                cg.cg_dump(f"{name}:make:{rnd}".encode())
            del made
            if rnd and cg is not None:
                cg.cg_dump(f"{name}:free:{rnd}".encode())
            elif cg is not None:
                cg.cg_zero()
    print(json.dumps({"rows": len(tuples), "replies": len(captured)}))


def _dumps(work: Path) -> dict[tuple[str, str], list[dict[str, int]]]:
    found = []
    for p in work.iterdir():
        m = re.match(r"cg\.out\.\d+\.(\d+)$", p.name)
        if not m:
            continue
        text = p.read_text(errors="replace")
        label = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
        events = re.search(r"^events:\s+(.*)$", text, re.M)
        total = re.search(r"^(?:totals|summary):\s+(.*)$", text, re.M)
        if label and events and total:
            names = events.group(1).split()
            values = [int(v) for v in total.group(1).split()]
            values += [0] * (len(names) - len(values))  # trailing zeros are left out
            found.append((int(m.group(1)), label.group(1).strip(), dict(zip(names, values,
                                                                            strict=True))))
    out: dict[tuple[str, str], list[dict[str, int]]] = {}
    for _, what, ev in sorted(found):
        name, phase, _rnd = what.split(":")
        out.setdefault((name, phase), []).append(ev)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--no-cache-sim", action="store_true")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--lib", default="", help=argparse.SUPPRESS)
    p.add_argument("scenarios", nargs="*", help=f"some of {', '.join(SCENARIOS)} (all)")
    args = p.parse_args()
    names = list(args.scenarios) or list(SCENARIOS)
    if set(names) - set(SCENARIOS):
        p.error(f"unknown scenarios: {sorted(set(names) - set(SCENARIOS))}")
    if args.child:
        _child(args.port, args.lib, names)
        return
    import ifxwire
    from bench.client_instructions import helper_library, start_server

    data = tempfile.mkdtemp(prefix="ifxwire-rowcounts-")
    srv, port = start_server(str(ROOT / "src"), data)
    try:
        kw: dict[str, Any] = {"host": "127.0.0.1", "port": port, "user": "informix",
                              "password": "in4mix", "autocommit": True}
        with ifxwire.connect(**kw) as c:
            c.cursor().execute("CREATE DATABASE rowcounts")
        with ifxwire.connect(**kw, database="rowcounts") as c:
            cur = c.cursor()
            cur.execute("CREATE TABLE t (id INTEGER, name VARCHAR(40), qty INTEGER, "
                        "price FLOAT, note VARCHAR(60))")
            cur.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                            [(i, f"name {i}", i % 97, i * 0.25, f"note number {i}")
                             for i in range(args.rows)])
        work = Path(tempfile.mkdtemp(prefix="cg-rows-"))
        argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                f"--callgrind-out-file={work}/cg.out.%p", "--compress-strings=no"]
        if not args.no_cache_sim:
            argv.append("--cache-sim=yes")
        argv += [sys.executable, str(Path(__file__).resolve()), "--child", "--port", str(port),
                 "--lib", str(helper_library()), *names]
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT / "src"))
        env.pop("IFXWIRE_PURE", None)
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
        if proc.returncode != 0:
            raise SystemExit(proc.stderr[-3000:])
        rows = json.loads(proc.stdout.strip().splitlines()[-1])["rows"]
        print(f"per row, {rows} rows, smallest of 3 runs (callgrind; L1 misses: D1mr + D1mw)")
        print("| scenario | instructions | L1 misses | instructions, freeing | "
              "L1 misses, freeing |")
        print("|---|---|---|---|---|")
        got = _dumps(work)
        for name in names:
            cells = []
            for phase in ("make", "free"):
                runs = got.get((name, phase), [])
                ir = min((r["Ir"] for r in runs), default=0) / rows
                miss = min((r.get("D1mr", 0) + r.get("D1mw", 0) for r in runs), default=0)
                cells += [f"{ir:,.0f}", f"{miss / rows:.1f}" if "D1mr" in runs[0] else "—"]
            print(f"| {name} | " + " | ".join(cells) + " |")
    finally:
        srv.kill()
        srv.wait()


if __name__ == "__main__":
    main()
