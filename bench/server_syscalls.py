"""System calls of ifxwire-server per one-row statement, per client, for one or two trees.

    python bench/server_syscalls.py [--base DIR/src] [--statements 2000]
    python bench/server_syscalls.py --clients ifxwire,jdbc,informix-driver

Why: after issue 26's earlier rounds most of a cached one-row statement's server CPU is the
kernel's (docs/BENCHMARKS.md, *The server's one-row statements*), so what the wire layer asks
of the kernel per statement is the figure to move. ``strace -c -f`` is attached to the whole
server process (every thread) for ``--statements`` executions of ``SELECT 1 FROM systables
WHERE tabid = 1`` after a warm-up, then detached; the counts are divided by the number of
statements. strace slows every call down, so only the counts are reported, not times.
strace cannot see a thread woken in the kernel for nothing (an epoll waiter that finds no
event and sleeps again, no system call returning), so a second pass without strace counts
the context switches of all the server's threads (``voluntary_ctxt_switches`` +
``nonvoluntary_ctxt_switches`` of ``/proc/PID/task/*/status``) and their CPU (schedstat)
per statement.

Clients, each on its own connection to sysmaster:

* ``ifxwire``: ``cursor.execute`` + ``fetchall`` (the driver's statement cache: one
  ``ID CURNAME OPEN ID NFETCH EOT`` group per statement after the first);
* ``jdbc``: IBM JDBC (bench/jdbc/BenchJdbc.java, the cached jar), ``prepareStatement``,
  ``executeQuery``, ``next``/``getObject``, close (what an application without a statement
  cache sends: PREPARE, DESCRIBE, OPEN, FETCH, CLOSE, RELEASE);
* ``informix-driver``: its ``execute`` + ``fetchall`` (prepare ... release every time).

Needs strace (``apt-get install -y strace``) and, for ``jdbc``, java/javac and the jar
(scripts/fetch_jdbc.sh).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.server_one_row import CONST, PASSWORD, USER, _start

ROOT = Path(__file__).resolve().parent.parent


def strace_counts(pid: int, work: Callable[[], None]) -> dict[str, int]:
    """Calls per system call name made by every thread of ``pid`` while ``work`` runs."""
    fd, name = tempfile.mkstemp(prefix="ifxwire-strace-", suffix=".txt")
    os.close(fd)
    tracer = subprocess.Popen(["strace", "-c", "-f", "-p", str(pid), "-o", name],
                              stderr=subprocess.PIPE, text=True)
    assert tracer.stderr is not None
    # strace says "Process N attached" per thread; the first line is enough to know it runs,
    # and a short pause lets it reach the other threads.
    tracer.stderr.readline()
    time.sleep(0.5)
    try:
        work()
    finally:
        tracer.send_signal(signal.SIGINT)
        tracer.communicate(timeout=60)
    counts: dict[str, int] = {}
    for line in Path(name).read_text().splitlines():
        words = line.split()
        # "% time seconds usecs/call calls [errors] syscall"
        if len(words) >= 5 and words[0][0].isdigit() and words[-1] != "total":
            counts[words[-1]] = int(words[3])
    os.unlink(name)
    return counts


def thread_counters(pid: int) -> tuple[int, float]:
    """(context switches, CPU seconds) summed over the live threads of ``pid``."""
    switches, cpu = 0, 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
            ran = int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
        for key in ("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:"):
            switches += int(status.split("\n" + key)[1].split()[0])
        cpu += ran
    return switches, cpu / 1e9


def _clients(port: int, which: list[str], n: int) -> dict[str, tuple[Callable[[], None], Any]]:
    """Per client: a function running ``n`` statements (warmed up once), and what to close."""
    import ifxwire

    found: dict[str, tuple[Callable[[], None], Any]] = {}
    if "ifxwire" in which:
        conn = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                               database="sysmaster", autocommit=True)
        cur = conn.cursor()

        def ifx() -> None:
            for _ in range(n):
                cur.execute(CONST)
                cur.fetchall()

        found["ifxwire"] = (ifx, conn)
    if "informix-driver" in which:
        import informix_db

        idb = informix_db.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                                  database="sysmaster", server="informix", autocommit=True)
        icur = idb.cursor()

        def drv() -> None:
            for _ in range(n):
                icur.execute(CONST)
                icur.fetchall()

        found["informix-driver"] = (drv, idb)
    if "jdbc" in which:
        from bench.lineproto import encode
        from bench.run import LineProcess, child_env, jdbc_classpath

        cp, note = jdbc_classpath(sys.stderr)
        if cp is None:
            print(f"jdbc skipped: {note}", file=sys.stderr)
        else:
            java = shutil.which("java") or "java"
            worker = LineProcess("jdbc", [java, "-cp", cp, "BenchJdbc"], child_env(),
                                 sys.stderr)
            worker.send(encode("setup", kind="query", host="127.0.0.1", port=port,
                               db="sysmaster", sql=CONST, inner=n))
            reply = worker.read()
            if not reply.get("ok"):
                raise SystemExit(f"jdbc setup failed: {reply}")

            def jdbc(worker: Any = worker) -> None:
                worker.send("round")
                got = worker.read()
                if not got.get("ok"):
                    raise SystemExit(f"jdbc round failed: {got}")

            found["jdbc"] = (jdbc, worker)
    return found


def _close(thing: Any) -> None:
    if hasattr(thing, "proc"):  # a LineProcess
        thing.send("quit")
        thing.read()
        thing.proc.wait(30)
    else:
        thing.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--base", help="another tree's src directory, measured the same way")
    p.add_argument("--this", default=str(ROOT / "src"))
    p.add_argument("--statements", type=int, default=2000)
    p.add_argument("--clients", default="ifxwire,jdbc,informix-driver")
    args = p.parse_args(argv)
    if shutil.which("strace") is None:
        raise SystemExit("strace not found (apt-get install -y strace)")
    pure = os.environ.get("IFXWIRE_PURE") == "1"
    which = args.clients.split(",")
    trees = {"this": args.this} if args.base is None else {"base": args.base, "this": args.this}
    n = args.statements
    results: dict[tuple[str, str], tuple[dict[str, int], float]] = {}
    for tree, src in trees.items():
        srv, port = _start(src, pure)
        try:
            for client, (work, closer) in _clients(port, which, n).items():
                work()  # warm-up: caches filled, JIT done
                counts = strace_counts(srv.pid, work)
                switches0, cpu0 = thread_counters(srv.pid)
                work()
                switches1, cpu1 = thread_counters(srv.pid)
                counts["(context switches, no strace)"] = switches1 - switches0
                results[(tree, client)] = (counts, cpu1 - cpu0)
                _close(closer)
        finally:
            srv.terminate()
            srv.wait(10)
    print(f"servers {'pure' if pure else 'accelerated'}; {n} statements per client; "
          f"`{CONST}`; system calls per statement (strace -c -f on the server process)")
    for client in which:
        rows = {tree: results.get((tree, client)) for tree in trees}
        if not any(rows.values()):
            continue
        names = sorted({name for r in rows.values() if r for name in r[0]},
                       key=lambda name: -max(r[0].get(name, 0) for r in rows.values() if r))
        head = "  ".join(f"{tree:>8}" for tree in trees)
        print(f"\n{client}:{'':<22}{head}")
        totals = "  ".join(
            f"{sum(v for k, v in r[0].items() if not k.startswith('(')) / n:8.2f}"
            if r else f"{'-':>8}" for r in rows.values())
        print(f"  {'all system calls':<28}{totals}")
        cpus = "  ".join(f"{r[1] / n * 1e6:8.1f}" if r else f"{'-':>8}" for r in rows.values())
        print(f"  {'(server CPU µs, no strace)':<28}{cpus}")
        for name in names:
            per = "  ".join(f"{r[0].get(name, 0) / n:8.2f}" if r else f"{'-':>8}"
                            for r in rows.values())
            if any(r and r[0].get(name, 0) / n >= 0.01 for r in rows.values()):
                print(f"  {name:<28}{per}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
