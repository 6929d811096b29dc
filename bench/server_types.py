"""ifxwire-server's CPU per fetched row, by column type, for one or more server versions.

    python bench/server_types.py [--rows 131072] [--repeat 3] [--server-src SRC ...]

Each ``--server-src`` (default: this checkout's ``src``) runs as its own server process
(accelerated when its extensions are built); one table per column type holds an INTEGER and
four columns of that type, ``--rows`` rows made inside the server by doubling. The client
(ifxwire as installed here) fetches ``SELECT *`` of each table ``--repeat`` times; the figure
is the server process's CPU (utime + stime from /proc) per row, best of the repeats. The
servers run one after the other, the tables in the same order, so the ratios of one run
compare versions under the same load.

Why per type: the row5 shape of bench/server_select.py (INTEGER, VARCHAR, FLOAT) does not
show what a column of DATETIME, DATE or DECIMAL costs the server, and those are the types of
real Informix schemas (a DATETIME column cost the server ~24 us a value before the compiled
loader and writer took it, twenty-fifth session). Not a test: nothing asserts a figure.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHAPES: dict[str, tuple[str, str]] = {
    "integer": ("INTEGER", "i"),
    "smallint": ("SMALLINT", "MOD(i, 30000)"),
    "bigint": ("BIGINT", "i * 100000"),
    "float": ("FLOAT", "i * 0.25"),
    "varchar": ("VARCHAR(20)", "'n' || i"),
    "decimal": ("DECIMAL(12,2)", "i / 100"),
    "money": ("MONEY(10,2)", "i / 100"),
    "date": ("DATE", "DATE('2020-01-01') + MOD(i, 3000)"),
    "datetime": ("DATETIME YEAR TO SECOND",
                 "DATETIME(2020-01-01 00:00:00) YEAR TO SECOND + MOD(i, 3000) UNITS SECOND"),
    "datetime_fraction": ("DATETIME YEAR TO FRACTION(3)",
                          "DATETIME(2020-01-01 00:00:00.000) YEAR TO FRACTION(3)"
                          " + MOD(i, 3000) UNITS SECOND"),
}


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(src: str, rows: int, repeat: int) -> dict[str, float]:
    """Server CPU per row (us) of SELECT * for each shape, against a server from ``src``."""
    import ifxwire

    data = tempfile.mkdtemp(prefix="ifxwire-srvtypes-")
    env = dict(os.environ, PYTHONPATH=src)
    env.pop("IFXWIRE_PURE", None)
    srv = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", "0", "--data",
                            data, "--log-level", "WARNING"], stdout=subprocess.PIPE, text=True,
                           env=env)
    try:
        assert srv.stdout is not None
        port = int(srv.stdout.readline().strip().rsplit(":", 1)[1])
        kw = {"host": "127.0.0.1", "port": port, "user": "informix", "password": "in4mix"}
        with ifxwire.connect(**kw, autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE bench_types WITH LOG")
        out: dict[str, float] = {}
        with ifxwire.connect(**kw, database="bench_types", autocommit=True) as c:
            cur = c.cursor()
            cur.execute("CREATE TABLE seed (i INTEGER)")
            cur.executemany("INSERT INTO seed VALUES (?)", [(i,) for i in range(1024)])
            while True:
                cur.execute("SELECT COUNT(*) FROM seed")
                have = int(cur.fetchone()[0])
                if have >= rows:
                    break
                # (FIRST is -944 in INSERT … SELECT, as on Informix; the ids are 0..have-1)
                cur.execute(f"INSERT INTO seed SELECT i + {have} FROM seed "
                            f"WHERE i < {rows - have}")
            for name, (typ, expr) in SHAPES.items():
                cur.execute(f"CREATE TABLE t_{name} (a INTEGER, v {typ}, w {typ}, x {typ}, "
                            f"y {typ})")
                cur.execute(f"INSERT INTO t_{name} SELECT i, {expr}, {expr}, {expr}, {expr} "
                            "FROM seed")
            for name in SHAPES:
                best = float("inf")
                for _ in range(repeat):
                    k = c.cursor()
                    before = _cpu(srv.pid)
                    k.execute(f"SELECT * FROM t_{name}")
                    n = len(k.fetchall())
                    best = min(best, _cpu(srv.pid) - before)
                    k.close()
                out[name] = best * 1e6 / n
        return out
    finally:
        srv.terminate()
        srv.wait()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server-src", action="append", help="a source tree (repeatable)")
    p.add_argument("--rows", type=int, default=131072)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    srcs = args.server_src or [str(ROOT / "src")]
    results = [measure(src, args.rows, args.repeat) for src in srcs]
    load = os.getloadavg()[0]
    print(f"## Server CPU per fetched row (INTEGER + 4 columns of the type), {args.rows} rows, "
          f"best of {args.repeat}; {os.cpu_count()} CPUs, load average {load:.1f}\n")
    head = " | ".join(f"`{s}`" for s in srcs)
    ratio = " | ratio last/first" if len(srcs) > 1 else ""
    print(f"| type | {head}{ratio} |")
    print("|---|" + "---|" * (len(srcs) + (1 if ratio else 0)))
    for name in SHAPES:
        cells = " | ".join(f"{r[name]:.2f} us" for r in results)
        extra = f" | {results[-1][name] / results[0][name]:.2f}" if ratio else ""
        print(f"| {name} | {cells}{extra} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
