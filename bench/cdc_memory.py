"""Server memory for one large captured transaction (issue 27: "1M changes streamed with client
and server memory flat").

An ifxwire-server child process; one transaction of ``--changes`` INSERTs (executemany) into a
table with full-row logging, committed, then streamed whole by ifxwire.cdc from sequence 1.
Prints the server's peak and current RSS (``/proc/<pid>/status`` VmHWM, VmRSS) at each step.
Linux only.

Run:  python -m bench.cdc_memory [--changes 200000]      (a separate command, not a test)
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


def _mb(pid: int) -> str:
    with open(f"/proc/{pid}/status") as f:
        d = dict(line.split(":", 1) for line in f)
    return (f"peak {int(d['VmHWM'].split()[0]) // 1024} MB, "
            f"now {int(d['VmRSS'].split()[0]) // 1024} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--changes", type=int, default=200000)
    args = ap.parse_args()
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
            print(f"server at start: {_mb(proc.pid)}")
            t0 = time.perf_counter()
            w.cursor().executemany("INSERT INTO t VALUES (?, ?, ?)",
                                   [(i, f"name{i}", "1.50") for i in range(args.changes)])
            print(f"{args.changes} inserts in one transaction "
                  f"({time.perf_counter() - t0:.0f} s): {_mb(proc.pid)}")
            w.commit()
            print(f"after its commit: {_mb(proc.pid)}")
            n = 0
            with cdc.open_stream(r, tables=["mem:t"], from_sequence=1, timeout=1) as events:
                for ev in events:
                    if ev.kind is cdc.EventKind.TIMEOUT:
                        break
                    n += 1
            print(f"after streaming its {n} events: {_mb(proc.pid)}")
            w.close()
            r.close()
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
