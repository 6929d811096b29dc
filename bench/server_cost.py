"""ifxwire-server's own CPU per cold connect + close and per executemany row, per client.

    python bench/server_cost.py [--connects 400] [--rows 100000] [--repeat 3]
    python bench/server_cost.py --server-src /path/to/other/checkout/src   # compare a version

Why a separate measurement: the bench's cold connect is served by the replay server (its
figures are the client's), and its live scenarios report the server's CPU only as a share of
a wall time that, on a shared machine, moves with everyone else's load. CPU time consumed by
the server process (utime + stime from /proc, 10 ms ticks, hence hundreds of operations per
sample) is what the server work of issue 16 changes, and it hardly depends on the load.

Each sample: 20 warm-up operations, then ``--connects`` connect(database) + close, or one
executemany of ``--rows`` 5-column rows in a transaction, commit, then a DELETE of them
(counted too: small next to the insert, and the same for every client). Clients: ifxwire (as
installed here; pure or accelerated as IFXWIRE_PURE says) and informix-driver, alternating.
The server runs from ``--server-src`` (default: this checkout's ``src``), on a fresh data
directory. Prints medians and every sample.
"""

from __future__ import annotations

import argparse
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

from bench.scenarios import DATABASE, INSERT_SQL, row5

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD = "informix", "in4mix"


def server_cpu(pid: int) -> float:
    """Seconds of CPU (user + system) the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--server-src", default=str(ROOT / "src"))
    p.add_argument("--connects", type=int, default=400)
    p.add_argument("--rows", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)

    import informix_db

    import ifxwire

    data = tempfile.mkdtemp(prefix="ifxwire-cost-")
    env = dict(os.environ, PYTHONPATH=args.server_src)
    srv = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", data,
         "--log-level", "WARNING"],
        stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert srv.stdout is not None
        port = int(srv.stdout.readline().strip().rsplit(":", 1)[1])
        kw: dict[str, Any] = {"host": "127.0.0.1", "port": port, "user": USER,
                              "password": PASSWORD}
        setup = ifxwire.connect(**kw, autocommit=True)
        setup.cursor().execute(f"CREATE DATABASE {DATABASE} WITH LOG")
        setup.cursor().execute(
            "CREATE TABLE bench_ins (a INT, b VARCHAR(64), c INT, d FLOAT, e VARCHAR(32))")
        setup.close()
        idb = {"host": "127.0.0.1", "port": port, "user": USER, "password": PASSWORD,
               "database": DATABASE, "server": "informix"}
        rows = [row5(i) for i in range(args.rows)]

        def connect_ifx() -> None:
            ifxwire.connect(**kw, database=DATABASE, autocommit=True).close()

        def connect_idb() -> None:
            informix_db.connect(**idb, autocommit=True).close()

        def insert(conn: Any) -> None:
            conn.cursor().executemany(INSERT_SQL, rows)
            conn.commit()
            conn.cursor().execute("DELETE FROM bench_ins")
            conn.commit()
            conn.close()

        cases: list[tuple[str, int, Callable[[], None]]] = [
            ("connect + close, ifxwire", args.connects, connect_ifx),
            ("connect + close, informix-driver", args.connects, connect_idb),
            (f"executemany {args.rows}, ifxwire", args.rows,
             lambda: insert(ifxwire.connect(**kw, database=DATABASE))),
            (f"executemany {args.rows}, informix-driver", args.rows,
             lambda: insert(informix_db.connect(**idb, autocommit=False))),
        ]
        samples: dict[str, list[float]] = {}
        for _ in range(args.repeat):
            for name, per, fn in cases:
                if name.startswith("connect"):
                    for _ in range(20):
                        fn()
                    before = server_cpu(srv.pid)
                    for _ in range(per):
                        fn()
                else:
                    before = server_cpu(srv.pid)
                    fn()
                samples.setdefault(name, []).append((server_cpu(srv.pid) - before) / per * 1e6)
        flavour = "pure" if os.environ.get("IFXWIRE_PURE") == "1" else "as installed"
        print(f"server: {args.server_src}; ifxwire {flavour}")
        for name, values in samples.items():
            unit = "connect" if name.startswith("connect") else "row"
            print(f"{name:40} {statistics.median(values):8.1f} µs of server CPU per {unit}  "
                  f"samples {[round(v, 1) for v in values]}")
    finally:
        srv.terminate()
        srv.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
