"""Server and client memory for one large captured transaction (issue 27: "1M changes
streamed with client and server memory flat (peak RSS growth at most 32 MB each)").

An ifxwire-server child process; one transaction of ``--changes`` INSERTs (executemany, in
batches of 10000) into a table with full-row logging, committed, then streamed whole by
ifxwire.cdc from sequence 1 in a second child process (the reader, so that its peak RSS is
its own, not the writer's). Prints the server's peak and current RSS (``/proc/<pid>/status``
VmHWM, VmRSS) at each step, the reader's at its start and end, and each one's peak growth.
Linux only.

The writer takes ``LOCK TABLE t IN EXCLUSIVE MODE`` first, as IBM advises for a change of most
of a table's rows (ids_sqt_373: one table lock however many rows); with ``--row-locks`` it does
not, and the server's lock table holds one entry per inserted row until the COMMIT (about
120 bytes each). The stream's own cost is printed apart: the server's peak is reset
(``/proc/<pid>/clear_refs``) after the COMMIT, so "during the stream" is that phase alone.

Run:  python -m bench.cdc_memory [--changes 200000] [--row-locks]   (a separate command, not a test)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import ifxwire
from ifxwire import cdc


def _rss(pid: int | str) -> tuple[int, int]:
    """(peak, current) RSS in MB."""
    with open(f"/proc/{pid}/status") as f:
        d = dict(line.split(":", 1) for line in f)
    return int(d["VmHWM"].split()[0]) // 1024, int(d["VmRSS"].split()[0]) // 1024


def _reset_peak(pid: int) -> bool:
    """Start the process's VmHWM again from its current RSS (Linux 4.0+; False if refused)."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _mb(pid: int | str) -> str:
    peak, now = _rss(pid)
    return f"peak {peak} MB, now {now} MB"


def _read(where: str, changes: int) -> None:
    """The reader child: streams the table's changes from sequence 1 until a TIMEOUT."""
    host, _, port = where.rpartition(":")
    r = ifxwire.connect(host=host, port=int(port), user="informix", password="in4mix",
                        database="syscdcv1", autocommit=True)
    n = 0
    t0 = time.perf_counter()
    with cdc.open_stream(r, tables=["mem:t"], from_sequence=1, timeout=2) as events:
        start = _rss("self")
        print(f"reader at start: {_mb('self')}", flush=True)
        for ev in events:
            if ev.kind is cdc.EventKind.TIMEOUT:
                break
            n += 1
    end = _rss("self")
    print(f"reader after its {n} events ({time.perf_counter() - t0:.0f} s): {_mb('self')}; "
          f"peak growth {end[0] - start[1]} MB", flush=True)
    r.close()
    assert n == changes + 3, n  # TABSCHEMA, BEGIN, the changes, COMMIT


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--changes", type=int, default=200000)
    ap.add_argument("--row-locks", action="store_true",
                    help="no LOCK TABLE before the inserts: one row lock per inserted row")
    ap.add_argument("--read", help=argparse.SUPPRESS)  # host:port: be the reader child
    args = ap.parse_args()
    if args.read:
        _read(args.read, args.changes)
        return
    os.environ.setdefault("IFXWIRE_PURE", "1")
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", "0",
                                 "--data", data], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout is not None
            host, _, port = proc.stdout.readline().rsplit(" ", 1)[1].strip().rpartition(":")
            kw = {"host": host, "port": int(port), "user": "informix", "password": "in4mix"}
            c = ifxwire.connect(**kw)  # type: ignore[arg-type]
            c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
            c.cursor().execute("CREATE DATABASE mem WITH LOG")
            c.close()
            w = ifxwire.connect(**kw, database="mem")  # type: ignore[arg-type]
            w.cursor().execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(8,2))")
            w.commit()
            r = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)  # type: ignore[arg-type]
            r.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('mem:t', 1)")
            r.close()
            start = _rss(proc.pid)
            print(f"server at start: {_mb(proc.pid)}", flush=True)
            t0 = time.perf_counter()
            cur = w.cursor()
            if not args.row_locks:
                cur.execute("LOCK TABLE t IN EXCLUSIVE MODE")
            for k in range(0, args.changes, 10000):
                cur.executemany("INSERT INTO t VALUES (?, ?, ?)",
                                [(i, f"name{i}", "1.50")
                                 for i in range(k, min(k + 10000, args.changes))])
            print(f"{args.changes} inserts in one transaction "
                  f"({time.perf_counter() - t0:.0f} s): {_mb(proc.pid)}", flush=True)
            t0 = time.perf_counter()
            w.commit()
            print(f"after its commit ({time.perf_counter() - t0:.0f} s): {_mb(proc.pid)}",
                  flush=True)
            w.close()
            hwm_before, committed = _rss(proc.pid)
            reset = _reset_peak(proc.pid)
            subprocess.run([sys.executable, "-m", "bench.cdc_memory", "--changes",
                            str(args.changes), "--read", f"{host}:{port}"], check=True)
            peak = _rss(proc.pid)[0]
            during = (f"peak growth during the stream {peak - committed} MB" if reset
                      else "(the peak could not be reset: no figure for the stream alone)")
            print(f"server after the stream: {_mb(proc.pid)}; {during}")
            print(f"server overall: peak growth {max(peak, hwm_before) - start[1]} MB "
                  f"({'one table lock' if not args.row_locks else 'a row lock per insert'})")
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
