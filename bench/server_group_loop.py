"""A cached query group's one-step path in-process, no round trip (issue 26, select_one_row).

    python bench/server_group_loop.py [--src DIR] [--n 20000] [--best 9] [--calls]

Why: the side-by-side server benchmarks measure a statement's whole server CPU, of which
most is the kernel's round trip, and they move by tens of per cent on the shared machine.
This one measures only the user-space work the server adds per statement: an in-process
ifxwire-server, one ifxwire connection that runs ``SELECT 1 FROM systables WHERE tabid =
1`` in sysmaster (select_one_row) until its group is cached; then, while that session's
thread waits in ``recv`` for a client that sends nothing more, this thread puts the group's
bytes in the session's receive buffer and calls ``Session._query_group`` ``--n`` times (the
queued reply dropped each time), best of ``--best`` runs in µs per group. It checks the
reply is the one the client got. ``--calls``: Python function calls per group (cProfile
over ``--n`` groups, divided by ``--n``), a count the load does not move.
``--src`` runs the tree at DIR (its ``src``) in a child process.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONST = "SELECT 1 FROM systables WHERE tabid = 1"
PARAM = "SELECT tabname FROM systables WHERE tabid = ?"


def _measure(n: int, best: int, calls: bool, case: str | None) -> None:
    import ifxwire
    from ifxwire.server import Server

    try:
        from ifxwire.server.onestep import serve_compiled as step
    except ImportError:  # a tree before _groupstep (issue 26, eleventh round)
        step = None
    print(f"one-step path: {'compiled' if step is not None else 'Python'}", flush=True)

    with Server(port=0, data=":memory:") as srv:
        conn = ifxwire.connect(host=srv.host, port=srv.port, user="informix",
                               password="in4mix", database="sysmaster", autocommit=True)
        try:
            for label, sql, params in (("select_one_row", CONST, ()),
                                       ("one_row_param", PARAM, (1,))):
                if case is not None and label != case:
                    continue
                cur = conn.cursor()
                for _ in range(50):
                    cur.execute(sql, params) if params else cur.execute(sql)
                    cur.fetchall()
                (session,) = list(srv._sessions)
                # Let the session's thread send its last reply and wait in recv_into.
                time.sleep(0.05)
                while session.pending or session.start != session.end:
                    time.sleep(0.01)
                _number, (head, tail, _name, _size, nparams) = max(
                    ((k, v) for k, v in session._groups.items()), key=lambda kv: kv[0])
                # The group the client last sent is still at the front of the buffer (it was
                # compacted to there, and recv_into has not written since).
                buf = session.buf
                at = buf.find(tail, len(head))
                group = bytes(buf[: at + len(tail)])
                assert group.startswith(head) and (nparams > 0 or at == len(head)), nparams
                buf = session.buf
                size = len(group)

                def once(reps: int, session: object = session, buf: bytearray = buf,
                         group: bytes = group, size: int = size) -> None:
                    s = session
                    py_qg = s._query_group  # type: ignore[attr-defined]
                    # As Session._serve: the compiled step first, when there is one.
                    qg = py_qg if step is None else (lambda: step(s) or py_qg())
                    pending = s.pending  # type: ignore[attr-defined]
                    for _ in range(reps):
                        buf[:size] = group
                        s.start = 0  # type: ignore[attr-defined]
                        s.end = size  # type: ignore[attr-defined]
                        if not qg():
                            raise SystemExit("the group was not served in one step")
                        pending.clear()

                buf[:size] = group
                session.start, session.end = 0, size
                if not ((step is not None and step(session)) or session._query_group()):
                    print(f"{label}: not served in one step (skipped)")
                    cur.close()
                    continue
                reply = bytes(session.pending)
                session.pending.clear()
                once(1000)
                times = []
                for _ in range(best):
                    t = time.perf_counter_ns()
                    once(n)
                    times.append((time.perf_counter_ns() - t) / n / 1000)
                line = f"{label:16s} {min(times):7.2f} µs per group (reply {len(reply)} bytes)"
                if calls:
                    prof = cProfile.Profile()
                    prof.enable()
                    once(n)
                    prof.disable()
                    stats = pstats.Stats(prof)
                    total = stats.total_calls  # type: ignore[attr-defined]
                    if os.environ.get("GROUP_LOOP_LIST"):
                        stats.sort_stats("ncalls").print_stats(60)
                    # (less the lambda above, which Session._serve does not have)
                    lam = 0 if step is None else 1
                    line += f", {(total - 2) / n - lam:.1f} Python calls per group"
                print(line, flush=True)
                session.start = session.end = 0
                cur.close()
        finally:
            conn.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--src", help="run the tree at this src directory instead")
    p.add_argument("--n", type=int, default=20000)
    p.add_argument("--best", type=int, default=9)
    p.add_argument("--calls", action="store_true")
    p.add_argument("--case", choices=("select_one_row", "one_row_param"),
                   help="only this statement")
    args = p.parse_args(argv)
    if args.src:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([args.src, str(ROOT)]))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--n", str(args.n),
               "--best", str(args.best)] + (["--calls"] if args.calls else []) + (
                   ["--case", args.case] if args.case else [])
        print(f"tree {args.src}", flush=True)
        return subprocess.call(cmd, env=env)
    import ifxwire
    print(f"tree {Path(ifxwire.__file__).parent.parent}", flush=True)
    _measure(args.n, args.best, args.calls, args.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
