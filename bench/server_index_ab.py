"""One server, its catalogue index on and off: server CPU per one-row statement (issue 26).

    python bench/server_index_ab.py [--rounds 10] [--batch 3000] [--query SQL]

Why: a change worth about a tenth of a statement's server CPU is below the noise of two
servers side by side on the shared, loaded machine (server_one_row.py: ±20 % per batch).
Here one server (this tree) answers ``--query`` (``SELECT 1 FROM systables WHERE tabid =
1`` by default) on one ifxwire connection to sysmaster, and between batches a side SQLite
connection drops or makes again sysmaster's ``_ifx_systables_tabid`` index
(catalog_tables.CATALOG_INDEXES), which sends every later statement down a full scan of
systables or back to the index lookup: the same process, the same session, the same
statement, batches alternating (which mode goes first alternates by round). Prints each
mode's median server CPU per statement (``/proc/PID/task/*/schedstat``, every thread) and
their ratio.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.server_one_row import ROOT, server_cpu_ns

INDEX = "_ifx_systables_tabid"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--batch", type=int, default=3000)
    p.add_argument("--query", default="SELECT 1 FROM systables WHERE tabid = 1")
    args = p.parse_args(argv)
    data = tempfile.mkdtemp(prefix="ifxwire-index-ab-")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    srv = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", data,
         "--log-level", "WARNING"], stdout=subprocess.PIPE, text=True, env=env)
    assert srv.stdout is not None
    port = int(srv.stdout.readline().strip().rsplit(":", 1)[1])
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2:  # as server_one_row.py pins: the server on one CPU, the client apart
        os.sched_setaffinity(srv.pid, {cpus[-1]})
        os.sched_setaffinity(0, set(cpus[:-1]))
    import ifxwire

    samples: dict[str, list[float]] = {"index": [], "scan": []}
    try:
        conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix",
                               password="in4mix", database="sysmaster", autocommit=True)
        cur = conn.cursor()
        side = sqlite3.connect(os.path.join(data, "sysmaster.ifxdb"), isolation_level=None,
                               timeout=10)
        for round_no in range(args.rounds):
            order = ["index", "scan"] if round_no % 2 == 0 else ["scan", "index"]
            for mode in order:
                if mode == "scan":
                    side.execute(f"DROP INDEX IF EXISTS {INDEX}")
                else:
                    side.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON systables (tabid)")
                for _ in range(50):  # SQLite prepares the statement again for the new schema
                    cur.execute(args.query)
                    cur.fetchall()
                before = server_cpu_ns(srv.pid)
                for _ in range(args.batch):
                    cur.execute(args.query)
                    cur.fetchall()
                samples[mode].append((server_cpu_ns(srv.pid) - before) / args.batch * 1e6)
        side.close()
        conn.close()
    finally:
        srv.terminate()
        srv.wait(10)
    for mode, values in samples.items():
        print(f"{mode:6} median {statistics.median(values):6.1f} µs of server CPU per statement"
              f"   {[round(v) for v in values]}")
    ratio = statistics.median(samples["index"]) / statistics.median(samples["scan"])
    print(f"ratio index / scan {ratio:.2f}   ({args.query})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
