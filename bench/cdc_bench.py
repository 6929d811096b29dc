"""Change-capture throughput: ifxwire.cdc against IBM's change-stream client on one stream.

One ifxwire-server in its own process (``python -m ifxwire.server``, data in a temporary
directory), so that neither client shares an interpreter (and its GIL) with the server; N
changes (committed transactions of ``--per-txn`` inserts each) are written to a table with
full-row logging; then each client replays the same stream from sequence 1, decoding every
row, ``--runs`` times in turn, and the events per second, the client's CPU per event and the
ratios (ifxwire.cdc / IBM) are printed. IBM's client (ifx-changestream-client 1.1.5 on JDBC
4.50.12) comes from scripts/fetch_changestream.sh (cache, never the repository) and runs
bench/cdc/StreamClientBench.java, which times its own loop (JVM start-up is left out; ours
is timed the same way, from opening the stream to its TIMEOUT). CPU: the reading thread's
own (``time.thread_time``; the JVM's ``getCurrentThreadCpuTime``, JIT and GC threads not
counted); the server's, per client run, from /proc (its process, every thread, the
session's set-up included); the 1-minute load average after each run (the machine is
shared: the ratio, not the rates, is the figure to compare).

Run:  python -m bench.cdc_bench [--changes 20000] [--per-txn 10] [--max-records 64] [--runs 3]
      [--read-depth 2]   (ifxwire.cdc's reads in flight, cdc.READ_DEPTH)
      [--in-process]   (the server as a thread of this process, as the first version ran it)
Pure Python unless the environment says otherwise: ``IFXWIRE_PURE=0 python -m bench.cdc_bench``
runs client and server with the compiled CDC loops (ifxwire._cdcspeed, docs/CDC_SERVER.md).
This is a separate command, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass
class Target:
    host: str
    port: int
    server_name: str
    pid: int = 0  # the server's process (0: in this process)

    def cpu(self) -> float:
        """The server process's CPU seconds so far (/proc/PID/stat utime + stime, all its
        threads); 0 when it runs in this process or /proc is not there."""
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def _server(data: str, in_process: bool) -> Iterator[Target]:
    """The server: a child process (``python -m ifxwire.server``), or a thread of this one."""
    if in_process:
        with Server(port=0, data=data) as srv:
            yield Target(srv.host, srv.port, srv.server_name)
        return
    proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", "0", "--data",
                             data], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "ifxwire-server listening on HOST:PORT"
        if "listening on" not in line:
            raise SystemExit(f"the server did not start: {line!r}")
        host, _, port = line.rsplit(" ", 1)[1].strip().rpartition(":")
        yield Target(host, int(port), "informix", proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)


def _ours(kw: dict[str, object], max_records: int) -> tuple[int, float, float, float]:
    """Events, seconds from opening the stream to its TIMEOUT (as IBM's client is timed, less
    the timeout's wait), the reading thread's CPU, and the close's seconds (timed apart: with
    reads in flight the close cancels one that waits for changes, docs/CDC.md)."""
    conn = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)  # type: ignore[arg-type]
    n = 0
    t0 = time.perf_counter()
    c0 = time.thread_time()
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
        cpu = time.thread_time() - c0
        t1 = time.perf_counter()
    closing = time.perf_counter() - t1
    conn.close()
    return n, elapsed - 1.0, cpu, closing  # the final read waits the 1 s timeout for nothing


def _classpath() -> str:
    fetch = subprocess.run(["bash", str(ROOT / "scripts" / "fetch_changestream.sh")],
                           capture_output=True, text=True, timeout=900, check=True)
    return fetch.stdout.strip()


def _ibm(srv: Target, max_records: int, classpath: str) -> tuple[int, float, float]:
    proc = subprocess.run(
        ["java", "-cp", classpath, str(ROOT / "bench" / "cdc" / "StreamClientBench.java"),
         srv.host, str(srv.port), srv.server_name, "informix", "in4mix", "bench", "t", "1",
         str(max_records)], capture_output=True, text=True, timeout=1800)
    line = [x for x in proc.stdout.splitlines() if x.startswith("EVENTS ")]
    if not line:
        raise SystemExit(f"IBM client failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    parts = line[-1].split()
    # The JVM timed from init() to the empty getRecords(), whose read waited the 1 s timeout.
    return int(parts[1]), float(parts[3]) - 1.0, float(parts[5])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--changes", type=int, default=20000)
    ap.add_argument("--per-txn", type=int, default=10)
    ap.add_argument("--max-records", type=int, default=64)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--read-depth", type=int, default=cdc.READ_DEPTH,
                    help="ifxwire.cdc's reads in flight after a full read (cdc.READ_DEPTH)")
    ap.add_argument("--in-process", action="store_true",
                    help="run the server as a thread of this process (shares its GIL)")
    args = ap.parse_args()
    cdc.READ_DEPTH = args.read_depth
    os.environ.setdefault("IFXWIRE_PURE", "1")
    from ifxwire import _cdcaccel

    # The server child inherits IFXWIRE_PURE: both sides run the same way.
    print(f"IFXWIRE_PURE={os.environ['IFXWIRE_PURE']}: compiled CDC loops "
          f"{'in use' if _cdcaccel.accelerated else 'not in use'} (docs/CDC_SERVER.md)")
    classpath = _classpath()
    ratios: list[float] = []
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as data, _server(data, args.in_process) as srv:
        kw: dict[str, object] = {"host": srv.host, "port": srv.port, "user": "informix",
                                 "password": "in4mix"}
        t0 = time.perf_counter()
        _fill(kw, args.changes, args.per_txn)
        print(f"wrote {args.changes} changes in {time.perf_counter() - t0:.1f} s")
        for run in range(1, args.runs + 1):
            s0 = srv.cpu()
            ibm_n, ibm_s, ibm_cpu = _ibm(srv, args.max_records, classpath)
            s1 = srv.cpu()
            our_n, our_s, our_cpu, our_close = _ours(kw, args.max_records)
            s2 = srv.cpu()
            ours, ibm = our_n / our_s, ibm_n / ibm_s
            ratios.append(ours / ibm)
            load = os.getloadavg()[0]
            loads.append(load)
            print(f"run {run}: ifxwire.cdc {our_n} events in {our_s:.2f} s = {ours:,.0f}/s, "
                  f"CPU {our_cpu / our_n * 1e6:.1f} us/event; IBM change-stream client 1.1.5 "
                  f"{ibm_n} events in {ibm_s:.2f} s = {ibm:,.0f}/s, CPU "
                  f"{ibm_cpu / ibm_n * 1e6:.1f} us/event; ratio {ours / ibm:.2f}; server CPU "
                  f"{(s2 - s1) / our_n * 1e6:.1f} / {(s1 - s0) / ibm_n * 1e6:.1f} us/event; "
                  f"ifxwire.cdc close {our_close * 1000:.0f} ms; load {load:.1f}", flush=True)
    print(f"ratio ifxwire.cdc / IBM: median {statistics.median(ratios):.2f} "
          f"(runs: {', '.join(f'{r:.2f}' for r in ratios)}); 1-minute load average "
          f"{min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
