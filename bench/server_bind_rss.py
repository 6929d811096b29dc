"""Server RSS after a burst of large binds (issue 10's figure, round 3 of hostile input).

``python bench/server_bind_rss.py`` starts ``ifxwire-server`` in its own process, opens
``SESSIONS`` sessions that each prepare ``STATEMENTS`` INSERTs and execute each once with a
``VALUE_BYTES`` BYTE value (all sessions stay open), then prints the server's
RSS (from /proc) at its baseline, at the peak sampled during the burst, and after it.
A measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import ifxwire

SESSIONS = 8
STATEMENTS = 32
#: Under 1 MiB: a BYTE value that size is held in memory as the statement's bind value (a
#: larger one goes into the database as it arrives, server/blobs.py).
VALUE_BYTES = 900 * 1024


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 2**20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    port = free_port()
    data = tempfile.mkdtemp(prefix="bind-rss-")  # on disk: the rows are not in the RSS
    proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", str(port),
                             "--data", data], stdout=subprocess.DEVNULL)
    kw = {"host": "127.0.0.1", "port": port, "user": "informix", "password": "in4mix"}
    try:
        for _ in range(100):
            try:
                ifxwire.connect(**kw).close()
                break
            except ifxwire.Error:
                time.sleep(0.1)
        with ifxwire.connect(**kw, autocommit=True) as c:
            c.execute("CREATE DATABASE burst WITH LOG")
            c.execute("CREATE TABLE t (id INTEGER, b BYTE)")
        time.sleep(0.5)
        base = rss_mib(proc.pid)
        peak = base
        conns = [ifxwire.connect(**kw, database="burst", autocommit=True)
                 for _ in range(SESSIONS)]
        for c in conns:
            c.execute("SET LOCK MODE TO WAIT 60")  # one database write lock: take turns
        value = bytes(VALUE_BYTES)

        def burst(conn: ifxwire.Connection) -> None:
            for i in range(STATEMENTS):
                # A distinct statement text each: STATEMENTS prepared statements per session.
                conn.cursor().execute(f"INSERT INTO t VALUES ({i}, ?)", (value,))

        threads = [threading.Thread(target=burst, args=(c,)) for c in conns]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            peak = max(peak, rss_mib(proc.pid))
            time.sleep(0.02)
        time.sleep(1.0)
        after = rss_mib(proc.pid)
        for c in conns:
            c.close()
        time.sleep(1.0)
        closed = rss_mib(proc.pid)
        print(f"{SESSIONS} sessions x {STATEMENTS} binds of {VALUE_BYTES >> 10} KiB: server RSS "
              f"baseline {base:.0f} MiB, peak {peak:.0f} MiB, after the burst {after:.0f} MiB "
              f"(sessions still open), {closed:.0f} MiB once they closed")
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
