"""CPU profile of ifxwire on SELECT 100k rows, executemany 100k and cold connect.

    python bench/hotspots.py [--rows 100000] [--top 15] [--out bench/results/raw]
    python bench/hotspots.py --server      # also profile ifxwire-server's side of both

With ``--server`` the server runs under bench/profiled_server.py and the SELECT is also run
live, so the server's fetch path shows up in its profile (``server.prof`` / ``server.txt``).

The server runs as its own process (as in bench/run.py). The SELECT is served by the replay
server, so the client never waits for SQLite; executemany runs live (pipelined requests cannot
be replayed). cProfile uses ``time.process_time`` as its clock, so time spent blocked in
``recv``/``send`` is not counted: the figures are client CPU. cProfile adds a fixed cost per
call, which inflates small, frequently called functions; read shares, not absolute times.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.fixtures import load_fixtures
from bench.run import LineProcess, ServerProcess, child_env
from bench.scenarios import DATABASE, INSERT_SQL, row5


def profile(label: str, fn: Any, repeat: int, top: int, out: Path) -> list[dict[str, Any]]:
    fn()  # warm: prepare, statement cache, decoder compilation
    prof = cProfile.Profile(time.process_time)
    c0 = time.process_time()
    prof.enable()
    for _ in range(repeat):
        fn()
    prof.disable()
    total = time.process_time() - c0
    prof.dump_stats(out / f"profile_{label}.prof")
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    (out / f"profile_{label}.txt").write_text(buf.getvalue())
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    rows = []
    for (path, line, func), (_cc, ncalls, tt, ct, _callers) in raw.items():
        rows.append(
            {
                "function": f"{Path(path).name}:{line}({func})",
                "calls": ncalls,
                "tottime": tt,
                "cumtime": ct,
                "tot_pct": 100 * tt / total,
                "cum_pct": 100 * ct / total,
            }
        )
    rows.sort(key=lambda r: -r["tottime"])
    print(f"\n== {label}: {repeat} runs, {total:.2f} s CPU under the profiler")
    print(f"{'tottime':>8} {'tot%':>6} {'cum%':>6} {'calls':>10}  function")
    for r in rows[:top]:
        print(
            f"{r['tottime']:8.3f} {r['tot_pct']:5.1f}% {r['cum_pct']:5.1f}% {r['calls']:>10}  "
            f"{r['function']}"
        )
    return rows[:top]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rows", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--out", default=str(Path(__file__).parent / "results" / "raw"))
    p.add_argument("--server", action="store_true", help="profile the server's sessions too")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("IFXWIRE_PURE", "1")
    import ifxwire

    data = Path(tempfile.mkdtemp(prefix="ifxwire-prof-"))
    log = open(out / "hotspots.log", "w", encoding="utf-8")  # noqa: SIM115
    server_prof = out / "server.prof"
    argv_server = None
    if args.server:
        argv_server = [sys.executable, "-m", "bench.profiled_server", "--data", str(data)]
        argv_server += ["--out", str(server_prof)]
    server = ServerProcess(data, log, argv_server)
    replay = None
    try:
        table = {1000: "bench_select_1k", 10000: "bench_select_10k"}.get(
            args.rows, "bench_select_100k"
        )
        load_fixtures(server.host, server.port, {table, "bench_ins"})
        replay = LineProcess(
            "replay",
            [sys.executable, "-m", "bench.replay", "--upstream", f"{server.host}:{server.port}"],
            child_env(),
            log,
        )
        replay.read(60)

        def rcall(cmd: str) -> dict[str, Any]:
            assert replay is not None
            reply: dict[str, Any] = replay.call(json.dumps({"cmd": cmd, "key": "prof"}))
            return reply

        sql = f"SELECT * FROM {table}"

        def connect(port: int, autocommit: bool = True) -> Any:
            return ifxwire.connect(
                host=server.host,
                port=port,
                user="informix",
                password="in4mix",
                database=DATABASE,
                autocommit=autocommit,
            )

        def fetch(conn: Any) -> int:
            cur = conn.cursor()
            cur.execute(sql)
            n = len(cur.fetchall())
            cur.close()
            return n

        # Record: setup, A, B (see bench/replay.py), then profile against the replay.
        port = rcall("record")["port"]
        conn = connect(port)
        rcall("mark")
        for _ in range(2):
            fetch(conn)
            rcall("mark")
        conn.close()
        rcall("stop_record")
        conn = connect(rcall("serve")["port"])
        results = {
            f"select_{args.rows}": profile(
                f"select_{args.rows}", lambda: fetch(conn), args.repeat, args.top, out
            )
        }
        conn.close()
        if args.server:
            live = connect(server.port)
            for _ in range(args.repeat):
                fetch(live)
            live.close()

        batch = [row5(i) for i in range(args.rows)]
        wconn = connect(server.port, autocommit=False)
        admin = connect(server.port)

        def insert() -> None:
            admin.cursor().execute("DELETE FROM bench_ins")
            cur = wconn.cursor()
            cur.executemany(INSERT_SQL, batch)
            wconn.commit()
            cur.close()

        results[f"executemany_{args.rows}"] = profile(
            f"executemany_{args.rows}", insert, max(1, args.repeat - 1), args.top, out
        )
        wconn.close()
        admin.close()

        def connects() -> None:
            for _ in range(100):
                connect(server.port).close()

        results["cold_connect_x100"] = profile(
            "cold_connect_x100", connects, args.repeat, args.top, out
        )
        (out / "hotspots.json").write_text(json.dumps(results, indent=1) + "\n")
    finally:
        if replay is not None:
            replay.close(json.dumps({"cmd": "quit"}))
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
        log.close()
    if args.server and server_prof.exists():
        buf = io.StringIO()
        st = pstats.Stats(str(server_prof), stream=buf)
        st.sort_stats("tottime").print_stats(args.top)
        st.sort_stats("cumulative").print_stats(args.top)
        (out / "server.txt").write_text(buf.getvalue())
        print("\n== ifxwire-server (all sessions: fixtures, live SELECTs, executemany)")
        print(buf.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
