"""Server CPU per one-row statement, two server trees side by side (issue 26, select_one_row).

    python bench/server_one_row.py --base /path/to/other/checkout/src [--rounds 8] [--batch 1000]
    IFXWIRE_PURE=1 python bench/server_one_row.py --base ...     # both servers pure

Why side by side: on the shared 2-CPU machine one server measured after the other meets
another load, and the per-statement figure moved by ±30 % between runs. Here both servers
run at once, pinned to the same CPU, and the client alternates batches of ``--batch``
statements between them, so each round puts them under the same load; which server goes
first alternates from round to round (the first one after a switch pays more); the report
is the median per server and their ratio. Use an even ``--rounds``.

Statements, each executed and fetched with ifxwire (accelerated unless IFXWIRE_PURE=1 says
otherwise; the servers follow the same variable) on one connection per server, so after the
first run they come from the driver's statement cache (one ``ID CURNAME [BIND] OPEN ID
NFETCH EOT`` group per statement):

* ``select_one_row``: ``SELECT 1 FROM systables WHERE tabid = 1``
* ``one_row_param``: ``SELECT tabname FROM systables WHERE tabid = ?`` with (1,)
* ``user_table_row``: ``SELECT b FROM t WHERE a = ?`` with (1,) on a 100-row table of a
  user database (the OPEN of a query on a user table also checks its schema version)
* ``logged_table_row``: the same in a database created WITH LOG, where the server's row
  locks apply (the default since the seventeenth session: each OPEN also asks the lock
  table whether another session holds rows of the table)
* ``informix-driver``: the parameterised one through informix-driver, which prepares,
  describes, binds, opens, fetches, closes and releases every time (six round trips)

CPU is the server's threads' run time from ``/proc/PID/task/*/schedstat`` (nanoseconds;
it was utime + stime in 10 ms ticks, which put ±10 µs on a 1000-statement batch), so every
thread counts, the interrupt watcher's too. ``--ticks`` measures the old way.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.server_cost import server_cpu

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD = "informix", "in4mix"


def server_cpu_ns(pid: int) -> float:
    """Seconds of CPU every live thread of ``pid`` has run (schedstat: nanoseconds). A
    thread that ended meanwhile takes its time with it; the server's session threads live
    as long as their connections, the benchmark's whole run."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        # (a thread may end between the listing and the read)
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9

CONST = "SELECT 1 FROM systables WHERE tabid = 1"
PARAM = "SELECT tabname FROM systables WHERE tabid = ?"
USER_TABLE = "SELECT b FROM t WHERE a = ?"


def _start(src: str, pure: bool) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ, PYTHONPATH=src)
    env.pop("IFXWIRE_PURE", None)
    if pure:
        env["IFXWIRE_PURE"] = "1"
    srv = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data",
         tempfile.mkdtemp(prefix="ifxwire-onerow-"), "--log-level", "WARNING"],
        stdout=subprocess.PIPE, text=True, env=env)
    assert srv.stdout is not None
    return srv, int(srv.stdout.readline().strip().rsplit(":", 1)[1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--base", required=True, help="the other tree's src directory")
    p.add_argument("--this", default=str(ROOT / "src"))
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--batch", type=int, default=1000)
    p.add_argument("--no-informix-driver", action="store_true")
    p.add_argument("--no-pin", action="store_true",
                   help="leave the servers and the client where the scheduler puts them")
    p.add_argument("--ticks", action="store_true",
                   help="server CPU from /proc/PID/stat (10 ms ticks), as before")
    args = p.parse_args(argv)
    cpu_of = server_cpu if args.ticks else server_cpu_ns

    import ifxwire

    pure = os.environ.get("IFXWIRE_PURE") == "1"
    trees = {"base": args.base, "this": args.this}
    servers = {name: _start(src, pure) for name, src in trees.items()}
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2 and not args.no_pin:
        for srv, _port in servers.values():
            os.sched_setaffinity(srv.pid, {cpus[-1]})
        os.sched_setaffinity(0, set(cpus[:-1]))
    try:
        cases: dict[str, dict[str, Callable[[], None]]] = {}
        for name, (_srv, port) in servers.items():
            conn = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                                   database="sysmaster", autocommit=True)
            cur = conn.cursor()

            def const(cur: Any = cur) -> None:
                cur.execute(CONST)
                cur.fetchall()

            def param(cur: Any = cur) -> None:
                cur.execute(PARAM, (1,))
                cur.fetchall()

            cases.setdefault("select_one_row", {})[name] = const
            cases.setdefault("one_row_param", {})[name] = param
            # the same on a user table of a user database (its OPEN checks the table's
            # schema version, -710; systables of sysmaster has no such check)
            uconn = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                                    autocommit=True)
            ucur = uconn.cursor()
            ucur.execute("CREATE DATABASE bench_onerow")
            ucur.execute("CREATE TABLE t (a INT, b VARCHAR(20))")
            ucur.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"row {i}") for i in range(100)])

            def user(ucur: Any = ucur) -> None:
                ucur.execute(USER_TABLE, (1,))
                ucur.fetchall()

            cases.setdefault("user_table_row", {})[name] = user
            lconn = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                                    autocommit=True)
            lcur = lconn.cursor()
            lcur.execute("CREATE DATABASE bench_onerow_log WITH LOG")
            lcur.execute("CREATE TABLE t (a INT, b VARCHAR(20))")
            lcur.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"row {i}") for i in range(100)])

            def logged(lcur: Any = lcur) -> None:
                lcur.execute(USER_TABLE, (1,))
                lcur.fetchall()

            cases.setdefault("logged_table_row", {})[name] = logged
            if not args.no_informix_driver:
                import informix_db

                idb = informix_db.connect(host="127.0.0.1", port=port, user=USER,
                                          password=PASSWORD, database="sysmaster",
                                          server="informix", autocommit=True)
                icur = idb.cursor()

                def driver(icur: Any = icur) -> None:
                    icur.execute(PARAM, (1,))
                    icur.fetchall()

                cases.setdefault("informix-driver", {})[name] = driver
        samples: dict[tuple[str, str], list[float]] = {}
        for round_no in range(args.rounds):
            for case, by_tree in cases.items():
                per = args.batch if case != "informix-driver" else max(args.batch // 4, 100)
                # Which server goes first alternates by round: the first batch after the
                # other server ran costs more (measured: the same tree against itself gave
                # 0.68 for select_one_row when "base" always went first).
                order = list(by_tree.items())
                if round_no % 2:
                    order.reverse()
                for name, fn in order:
                    pid = servers[name][0].pid
                    for _ in range(20):
                        fn()
                    before = cpu_of(pid)
                    for _ in range(per):
                        fn()
                    samples.setdefault((case, name), []).append(
                        (cpu_of(pid) - before) / per * 1e6)
    finally:
        for srv, _port in servers.values():
            srv.terminate()
            srv.wait(10)
    flavour = "pure" if pure else "accelerated"
    clock = "utime+stime ticks" if args.ticks else "schedstat"
    print(f"servers {flavour}{', unpinned' if args.no_pin else ''}; base {args.base}; "
          f"this {args.this}; {args.rounds} rounds, medians (µs of server CPU per statement, "
          f"{clock})")
    for case in cases:
        base = samples[(case, "base")]
        this = samples[(case, "this")]
        b, t = statistics.median(base), statistics.median(this)
        print(f"{case:16} base {b:7.1f}  this {t:7.1f}  ratio {t / b:5.2f}   "
              f"base {[round(v) for v in base]} this {[round(v) for v in this]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
