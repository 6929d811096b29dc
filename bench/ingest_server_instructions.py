"""Server user-space instructions per row of one ``adbc_ingest`` (or ``executemany``) of the
ingest bench's shapes, for one or more source trees (issue 25's ingest wall is the server's).

    python bench/ingest_server_instructions.py --src DIR [--src DIR2 ...] [--shape mixed]
        [--method adbc_ingest|executemany] [--few 50000] [--many 150000]

Why: on the shared 2-core machine the server's CPU time per run moves by 15 % and more with
the load; valgrind counts instructions exactly whatever the load. For each tree, its
ifxwire-server (``DIR/src`` on PYTHONPATH; build its C accelerator first) runs under
``valgrind --tool=cachegrind --cache-sim=no`` twice, the client (that tree's too, outside
valgrind) inserting ``--few`` and then ``--many`` rows of the shape
(bench/arrow_ingest_bench.py's tables) into a fresh table in one transaction; the server
is stopped and valgrind's total read. (many − few) / (many − few rows) is the server's
instructions per row: every thread, the interpreter, the sqlite3 module and SQLite, the
user-space side of system calls (the kernel's share is not counted); start-up, login and
the CREATE TABLE cancel out. Slow: minutes per tree on a loaded machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The client side, run by this tree's interpreter with the measured tree first on sys.path.
_CLIENT = r"""
import json, sys
tree, host, port, method, shape, rows = sys.argv[1:7]
sys.path[:0] = [tree + "/src", tree]
from bench.arrow_ingest_bench import SHAPES, _table
import ifxwire
kw = dict(host=host, port=int(port), user="informix", password="in4mix")
with ifxwire.connect(**kw, autocommit=True) as c:
    c.cursor().execute("CREATE DATABASE b WITH LOG")
table = _table(shape, int(rows))
with ifxwire.connect(**kw, database="b") as c:
    cur = c.cursor()
    cur.execute(f"CREATE TABLE t ({SHAPES[shape]})")
    c.commit()
    if method == "adbc_ingest":
        cur.adbc_ingest("t", table, mode="append")
    else:
        tuples = list(zip(*[col.to_pylist() for col in table.columns], strict=True))
        cur.executemany("INSERT INTO t (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)", tuples)
    c.commit()
    assert cur.execute("SELECT count(*) FROM t").fetchone() == (int(rows),)
print(json.dumps({"rows": int(rows)}))
"""


def instructions(tree: Path, rows: int, method: str, shape: str) -> int:
    """The server's total instructions for start-up, ``rows`` rows and the stop."""
    with tempfile.TemporaryDirectory(prefix="ifxwire-ingest-ir-") as tmp:
        out = Path(tmp) / "cg.out"
        data = Path(tmp) / "data"
        data.mkdir()
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        srv = subprocess.Popen(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             f"--cachegrind-out-file={out}", "-q", sys.executable, "-m", "ifxwire.server",
             "--port", "0", "--data", str(data), "--log-level", "WARNING"],
            stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert srv.stdout is not None
            line = srv.stdout.readline().strip()
            host, _, port = line.rpartition(" ")[2].rpartition(":")
            subprocess.run([sys.executable, "-c", _CLIENT, str(tree), host, port, method,
                            shape, str(rows)], check=True, capture_output=True, timeout=7200)
        finally:
            for _ in range(3):  # (under valgrind a SIGTERM is now and then not acted on)
                srv.send_signal(signal.SIGTERM)
                try:
                    srv.wait(timeout=60)
                    break
                except subprocess.TimeoutExpired:
                    continue
            else:
                srv.kill()
                srv.wait()
        time.sleep(0.5)
        m = re.search(r"^summary:\s*(\d+)", out.read_text(), re.MULTILINE)
        if m is None:
            raise RuntimeError(f"no cachegrind summary for {tree}")
        return int(m.group(1))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/ingest_server_instructions.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", action="append", type=Path,
                   help="a source tree's root (repeatable; default this one)")
    p.add_argument("--shape", default="mixed", choices=("mixed", "numeric+text"))
    p.add_argument("--method", default="adbc_ingest", choices=("adbc_ingest", "executemany"))
    p.add_argument("--few", type=int, default=50_000)
    p.add_argument("--many", type=int, default=150_000)
    args = p.parse_args(argv)
    results = []
    for tree in args.src or [ROOT]:
        few = instructions(tree.resolve(), args.few, args.method, args.shape)
        many = instructions(tree.resolve(), args.many, args.method, args.shape)
        per = (many - few) / (args.many - args.few)
        results.append({"tree": str(tree), "few": few, "many": many, "per_row": per})
        print(f"{tree}: {per:,.0f} server instructions per row ({args.method}, {args.shape}; "
              f"{few:,} at {args.few} rows, {many:,} at {args.many})", flush=True)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
