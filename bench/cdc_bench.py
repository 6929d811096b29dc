"""Change-capture throughput: ifxwire.cdc against IBM's change-stream client on one stream.

One embedded server (data in a temporary directory); N changes (committed transactions of
``--per-txn`` inserts each) are written to a table with full-row logging; then each client
replays the same stream from sequence 1, decoding every row, and the events per second are
printed with their ratio (ifxwire.cdc / IBM). IBM's client (ifx-changestream-client 1.1.5 on
JDBC 4.50.12) comes from scripts/fetch_changestream.sh (cache, never the repository) and runs
bench/cdc/StreamClientBench.java, which times its own loop (JVM start-up is left out; ours
is timed the same way, from opening the stream to its TIMEOUT).

Run:  python -m bench.cdc_bench [--changes 20000] [--per-txn 10] [--max-records 64]
This is a separate command, not a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

import ifxwire
from ifxwire import cdc
from ifxwire.server import Server

ROOT = Path(__file__).resolve().parents[1]


def _fill(kw: dict[str, object], changes: int, per_txn: int) -> None:
    c = ifxwire.connect(**kw)  # type: ignore[arg-type]
    c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
    c.cursor().execute("CREATE DATABASE bench WITH LOG")
    c.close()
    m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)  # type: ignore[arg-type]
    w = ifxwire.connect(**kw, database="bench")  # type: ignore[arg-type]
    w.cursor().execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(8,2), "
                       "qty SMALLINT)")
    w.commit()
    m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('bench:informix.t', 1)")
    m.close()
    cur = w.cursor()
    for start in range(0, changes, per_txn):
        for i in range(start, min(start + per_txn, changes)):
            cur.execute("INSERT INTO t VALUES (?, ?, ?, ?)", (i, f"name{i}", "12.50", i % 100))
        w.commit()
    w.close()


def _ours(kw: dict[str, object], max_records: int) -> tuple[int, float]:
    conn = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)  # type: ignore[arg-type]
    n = 0
    t0 = time.perf_counter()
    with cdc.open_stream(conn, tables=["bench:informix.t"],
                         columns=["id", "name", "price", "qty"], from_sequence=1, timeout=1,
                         max_records=max_records) as events:
        for ev in events:
            if ev.kind is cdc.EventKind.TIMEOUT:
                break
            if ev.row is not None:
                ev.row[0]
            n += 1
    elapsed = time.perf_counter() - t0
    conn.close()
    return n, elapsed - 1.0  # the final read waits the 1 s timeout for nothing


def _ibm(srv: Server, max_records: int) -> tuple[int, float]:
    fetch = subprocess.run(["bash", str(ROOT / "scripts" / "fetch_changestream.sh")],
                           capture_output=True, text=True, timeout=900, check=True)
    proc = subprocess.run(
        ["java", "-cp", fetch.stdout.strip(),
         str(ROOT / "bench" / "cdc" / "StreamClientBench.java"),
         srv.host, str(srv.port), srv.server_name, "informix", "in4mix", "bench", "t", "1",
         str(max_records)], capture_output=True, text=True, timeout=1800)
    line = [x for x in proc.stdout.splitlines() if x.startswith("EVENTS ")]
    if not line:
        raise SystemExit(f"IBM client failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    parts = line[-1].split()
    # The JVM timed from init() to the empty getRecords(), whose read waited the 1 s timeout.
    return int(parts[1]), float(parts[3]) - 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--changes", type=int, default=20000)
    ap.add_argument("--per-txn", type=int, default=10)
    ap.add_argument("--max-records", type=int, default=64)
    args = ap.parse_args()
    os.environ.setdefault("IFXWIRE_PURE", "1")
    with tempfile.TemporaryDirectory() as data, Server(port=0, data=data) as srv:
        kw: dict[str, object] = {"host": srv.host, "port": srv.port, "user": "informix",
                                 "password": "in4mix"}
        t0 = time.perf_counter()
        _fill(kw, args.changes, args.per_txn)
        print(f"wrote {args.changes} changes in {time.perf_counter() - t0:.1f} s")
        ibm_n, ibm_s = _ibm(srv, args.max_records)
        our_n, our_s = _ours(kw, args.max_records)
    ours = our_n / our_s
    ibm = ibm_n / ibm_s
    print(f"ifxwire.cdc: {our_n} events in {our_s:.2f} s = {ours:,.0f} events/s")
    print(f"IBM change-stream client 1.1.5: {ibm_n} events in {ibm_s:.2f} s = {ibm:,.0f} events/s")
    print(f"ratio ifxwire.cdc / IBM: {ours / ibm:.2f}")


if __name__ == "__main__":
    main()
