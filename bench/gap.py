"""Where the gap to the floor is: ifxwire's client CPU beyond pickle's, function by function.

    python bench/gap.py                   # fetch 100k (replay), executemany 10k/100k (live),
                                          # cold connect; pure and accelerated; cProfile
    python bench/gap.py --perf            # + perf samples (cpu-clock) of driver and floor
    python bench/gap.py --callgrind       # + valgrind instruction counts of the C path (slow)
    python bench/gap.py --server          # + ifxwire-server's share (executemany, connect)

Writes ``gap.md`` and ``gap.json`` to ``--out`` (default bench/results/), raw profiles to
``raw/``. docs/BENCHMARKS.md (*What bounds each figure*) is written from its output.

Each case runs in a child process (``--child``: pure or accelerated by IFXWIRE_PURE) that
measures, alternately, the operation (a fetch served by the replay server, an executemany
against the live ifxwire-server, a connect + close) and its floor (bench/floor.py) on the same
rows. Then, on the same child: cProfile on ``time.process_time`` (own time per function,
scaled to the unprofiled CPU, so µs per row add up to the measured figure; cProfile's per-call
cost inflates small functions, so small entries read high), and optionally ``perf record -e
cpu-clock -p CHILD`` over a loop of the operation and a loop of the floor (C symbols, kernel
excluded at perf_event_paranoid 2), and callgrind (``--instr-atstart=no``, switched on around
the loops by callgrind_control) for exact instruction counts. ifxwire-server's side comes from
bench/profiled_server.py, with the sessions opened before the measured work left out.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import json
import os
import pstats
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench import floor, lineproto, procstat
from bench.fixtures import load_fixtures
from bench.run import LineProcess, ServerProcess, child_env
from bench.scenarios import DATABASE, INSERT_SQL, row5

TOP = 14

# ==================================================================================== child


class Child:
    """One ifxwire flavour in its own process; the parent drives it over bench/lineproto."""

    def __init__(self) -> None:
        import ifxwire

        self.ifx = ifxwire
        self.conn: Any = None
        self.op: Any = None
        #: The floor's body, untimed (bench/floor.py); None when the case has no floor.
        self.floor_body: floor.Body | None = None
        self.rows = 1

    def connect(self, port: int, autocommit: bool = True) -> Any:
        return self.ifx.connect(
            host="127.0.0.1",
            port=port,
            user="informix",
            password="in4mix",
            database=DATABASE,
            autocommit=autocommit,
        )

    def setup(self, f: dict[str, str]) -> dict[str, Any]:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        port, what = int(f["port"]), f["what"]
        if what == "fetch":
            conn = self.conn = self.connect(port)
            sql = f["sql"]

            def fetch() -> list[Any]:
                cur = conn.cursor()
                cur.execute(sql)
                rows: list[Any] = cur.fetchall()
                cur.close()
                return rows

            rows = fetch()  # round A of the recording: prepares
            blob = floor.freeze(rows)
            self.rows = len(rows)
            del rows
            self.op = lambda: len(fetch())
            self.floor_body = floor.loads_body(blob, 1)
        elif what == "executemany":
            conn = self.conn = self.connect(port, autocommit=False)
            batch = [row5(i) for i in range(int(f["rows"]))]
            self.rows = len(batch)

            def insert() -> None:
                cur = conn.cursor()
                cur.executemany(INSERT_SQL, batch)
                cur.close()
                conn.commit()

            self.op = insert
            self.floor_body = floor.dumps_body([batch], 1)
        elif what == "connect":
            n = self.rows = int(f["n"])

            def connects() -> None:
                for _ in range(n):
                    self.connect(port).close()

            self.op = connects
            self.floor_body = None
        else:
            return {"ok": False, "error": f"unknown setup {what!r}"}
        return {"ok": True, "rows": self.rows, "accelerated": bool(self.ifx.accelerated)}

    def floor(self, f: dict[str, str]) -> dict[str, Any]:
        if self.floor_body is None:
            return {"ok": False, "error": "no floor"}
        return floor.timed(self.floor_body, 1)

    def run(self, f: dict[str, str]) -> dict[str, Any]:
        gc.collect()  # as before every bench round (and every floor round)
        c0, t0 = time.process_time(), time.perf_counter()
        self.op()
        return {"ok": True, "cpu": time.process_time() - c0, "wall": time.perf_counter() - t0}

    def profile(self, f: dict[str, str]) -> dict[str, Any]:
        prof = cProfile.Profile(time.process_time)
        c0 = time.process_time()
        prof.enable()
        self.op()
        prof.disable()
        total = time.process_time() - c0
        path = f["out"]
        prof.dump_stats(path)
        return {"ok": True, "cpu": total, "prof": path}

    def loop(self, f: dict[str, str]) -> dict[str, Any]:
        body = self.op if f["what"] == "op" else self.floor_body
        assert body is not None
        for _ in range(int(f["n"])):
            body()
        return {"ok": True}


def child_main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr
    child = Child()
    for line in sys.stdin:
        op, fields = lineproto.decode(line)
        if not op:
            continue
        if op == "quit":
            out.write('{"ok": true}\n')
            out.flush()
            return 0
        try:
            reply = getattr(child, op)(fields)
        except Exception as exc:
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


# ==================================================================================== tools


def perf_works() -> bool:
    if not shutil.which("perf"):
        return False
    proc = subprocess.run(
        ["perf", "record", "-q", "-e", "cpu-clock", "-o", "/dev/null", "true"],
        capture_output=True,
        timeout=30,
    )
    return proc.returncode == 0


def perf_symbols(data: Path, samples_per: float) -> list[dict[str, Any]]:
    """(share, dso, symbol) of a perf.data, self time only, as µs per row."""
    proc = subprocess.run(
        ["perf", "report", "-i", str(data), "--stdio", "--no-children", "-g", "none",
         "--sort", "dso,sym", "-q", "--percent-limit", "0.5"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    out = []
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) < 4 or not parts[0].endswith("%"):
            continue
        share = float(parts[0].rstrip("%")) / 100
        dso = parts[1]
        sym = " ".join(parts[3:]) if parts[2] == "[.]" else " ".join(parts[2:])
        out.append({"dso": dso, "symbol": sym, "share": share, "us_per_row": share * samples_per})
    return out


_CG_LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*?)(?:\s+\[(.*)\])?\s*$")


def callgrind_functions(dump: Path, rows: int) -> list[dict[str, Any]]:
    """Instructions per row by function (self cost) from a callgrind dump; TOTAL first."""
    proc = subprocess.run(
        ["callgrind_annotate", "--threshold=99.5", str(dump)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    out = []
    for line in proc.stdout.splitlines():
        match = _CG_LINE.match(line)
        if not match:
            continue
        ir = int(match.group(1).replace(",", ""))
        where, obj = match.group(2), match.group(3) or ""
        if where == "PROGRAM TOTALS":
            out.insert(0, {"function": "TOTAL", "object": "", "ir_per_row": ir / rows})
            continue
        func = where.rsplit(":", 1)[-1]
        out.append({"function": func, "object": Path(obj).name, "ir_per_row": ir / rows})
    return out


def profile_rows(
    path: Path, cpu_per_row: float, rows: int, top: int, inclusive: bool = False
) -> list[dict[str, Any]]:
    """cProfile time per function, scaled so the own-time shares add up to the unprofiled
    CPU. ``inclusive``: time including callees instead, without the wrappers that hold
    (nearly) everything."""
    st = pstats.Stats(str(path))
    raw: dict[Any, Any] = st.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values()) or 1.0
    rows_out = []
    for (file, line, func), (_cc, ncalls, tt, ct, _callers) in raw.items():
        share = (ct if inclusive else tt) / total
        if inclusive and share > 0.95:
            continue
        name = f"{func} ({Path(file).name}:{line})" if line else func
        rows_out.append(
            {
                "function": name,
                "calls_per_row": ncalls / rows,
                "share": share,
                "us_per_row": share * cpu_per_row * 1e6,
            }
        )
    rows_out.sort(key=lambda r: -r["share"])
    return rows_out[:top]


# ==================================================================================== parent


class Gap:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.raw = self.out / "raw"
        self.raw.mkdir(parents=True, exist_ok=True)
        self.log = open(self.raw / "gap.log", "w", encoding="utf-8")  # noqa: SIM115
        self.perf = args.perf and perf_works()
        self.results: dict[str, Any] = {"cases": [], "server": [], "perf": self.perf}

    def child(self, pure: bool, valgrind: Path | None = None) -> LineProcess:
        argv = [sys.executable, "-m", "bench.gap", "--child"]
        if valgrind is not None:
            argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={valgrind}", *argv]  # fmt: skip
        env = child_env(IFXWIRE_PURE="1" if pure else "0")
        return LineProcess("gap", argv, env, self.log)

    def call(self, w: LineProcess, op: str, **fields: object) -> dict[str, Any]:
        reply = w.call(lineproto.encode(op, **fields), timeout=1800)
        if not reply.get("ok"):
            raise RuntimeError(f"{op}: {reply.get('error')}")
        return reply

    def measure_case(
        self,
        label: str,
        pure: bool,
        setup: dict[str, object],
        server_pid: int | None,
        before_op: Any,
        loops: int,
    ) -> dict[str, Any]:
        """Unprofiled op / floor rounds, then cProfile, then perf, on one child."""
        w = self.child(pure)
        try:
            info = self.call(w, "setup", **setup)
            rows = int(info["rows"])
            cpu, wall, floors, server = [], [], [], []
            for _ in range(self.args.repeat):
                before_op()
                s0 = procstat.process_cpu(server_pid) if server_pid else None
                r = self.call(w, "run")
                s1 = procstat.process_cpu(server_pid) if server_pid else None
                cpu.append(r["cpu"])
                wall.append(r["wall"])
                if s0 is not None and s1 is not None:
                    server.append(s1 - s0)
                if setup["what"] != "connect":
                    floors.append(self.call(w, "floor")["cpu"])
            case: dict[str, Any] = {
                "case": label,
                "flavour": "pure" if pure else "accelerated",
                "accelerated": info["accelerated"],
                "rows": rows,
                "cpu": statistics.median(cpu),
                "wall": statistics.median(wall),
                "floor": statistics.median(floors) if floors else None,
                "server_cpu": statistics.median(server) if server else None,
                # Summed over the rounds: /proc counts in 10 ms ticks.
                "server_per_unit": sum(server) / (rows * len(server)) if server else None,
            }
            tag = f"{label}_{case['flavour']}".replace(" ", "_")
            before_op()
            prof = self.call(w, "profile", out=str(self.raw / f"gap_{tag}.prof"))
            path, per_row = Path(prof["prof"]), case["cpu"] / rows
            case["profile"] = profile_rows(path, per_row, rows, TOP)
            case["inclusive"] = profile_rows(path, per_row, rows, TOP, inclusive=True)
            if self.perf:
                case["perf"] = self.perf_window(w, "op", loops, tag, case["cpu"] / rows)
                if floors:
                    case["perf_floor"] = self.perf_window(
                        w, "floor", loops, tag + "_floor", case["floor"] / rows
                    )
        finally:
            w.close()
        log(f"{label} ({case['flavour']}): {case['cpu'] * 1e3:.1f} ms CPU"
            + (f", floor {case['floor'] * 1e3:.1f} ms" if case["floor"] else ""))  # fmt: skip
        return case

    def perf_window(
        self, w: LineProcess, what: str, n: int, tag: str, cpu_per_row: float
    ) -> list[dict[str, Any]]:
        data = self.raw / f"perf_{tag}.data"
        rec = subprocess.Popen(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4999", "-p", str(w.pid),
             "-o", str(data)],
            stdout=self.log, stderr=self.log,
        )  # fmt: skip
        time.sleep(0.5)  # perf attaches
        try:
            self.call(w, "loop", what=what, n=n)
        finally:
            rec.send_signal(signal.SIGINT)
            rec.wait(60)
        return perf_symbols(data, cpu_per_row * 1e6)

    def callgrind_case(
        self, label: str, setup: dict[str, object], loops: int, before_op: Any
    ) -> dict[str, Any]:
        """Accelerated only: instructions per row of the op and of its floor."""
        out: dict[str, Any] = {"case": label}
        for what in ("op", "floor"):
            dump = self.raw / f"callgrind_{label.replace(' ', '_')}_{what}.out"
            with contextlib.suppress(FileNotFoundError):
                dump.unlink()
            w = self.child(False, valgrind=dump)
            try:
                rows = int(self.call(w, "setup", **setup)["rows"])
                before_op()
                self.call(w, "loop", what=what, n=1)  # warm: decoder plans, caches
                subprocess.run(["callgrind_control", "-i", "on", str(w.pid)],
                               capture_output=True, timeout=120)  # fmt: skip
                before_op()
                self.call(w, "loop", what=what, n=loops)
                subprocess.run(["callgrind_control", "-i", "off", str(w.pid)],
                               capture_output=True, timeout=120)  # fmt: skip
            finally:
                w.close()
            out[what] = callgrind_functions(dump, rows * loops)[:TOP]
        return out

    def run(self) -> dict[str, Any]:
        import ifxwire

        args = self.args
        data = Path(tempfile.mkdtemp(prefix="ifxwire-gap-"))
        server = ServerProcess(data, self.log)
        replay: LineProcess | None = None
        flavours = [True] + ([False] if ifxwire.accelerator_available() else [])
        try:
            table = {10000: "bench_select_10k"}.get(args.rows, "bench_select_100k")
            load_fixtures(server.host, server.port, {table, "bench_ins"})
            admin = ifxwire.connect(host=server.host, port=server.port, user="informix",
                                    password="in4mix", database=DATABASE, autocommit=True)

            def empty() -> None:
                admin.cursor().execute("DELETE FROM bench_ins")

            replay = LineProcess(
                "replay",
                [sys.executable, "-m", "bench.replay", "--upstream",
                 f"{server.host}:{server.port}"],
                child_env(), self.log,
            )  # fmt: skip
            replay.read(60)
            serve = record(replay, server.port, f"SELECT * FROM {table}")
            fetch = {"what": "fetch", "port": serve, "sql": f"SELECT * FROM {table}"}
            cases = self.results["cases"]
            for pure in flavours:
                cases.append(self.measure_case(
                    f"fetch {args.rows}", pure, fetch, None, lambda: None, 10))  # fmt: skip
                for n in args.em:
                    em = {"what": "executemany", "port": server.port, "rows": n}
                    cases.append(self.measure_case(f"executemany {n}", pure, em, server.pid,
                                                   empty, max(1, 30000 // n)))  # fmt: skip
                con = {"what": "connect", "port": server.port, "n": 100}
                cases.append(self.measure_case("connect x100", pure, con, server.pid,
                                               lambda: None, 5))  # fmt: skip
            if args.callgrind and shutil.which("valgrind") and len(flavours) > 1:
                cg = self.results.setdefault("callgrind", [])
                cg.append(self.callgrind_case(f"fetch {args.rows}", fetch, 2, lambda: None))
                n = min(args.em)
                em = {"what": "executemany", "port": server.port, "rows": n}
                cg.append(self.callgrind_case(f"executemany {n}", em, 1, empty))
            admin.close()
        finally:
            if replay is not None:
                replay.close(json.dumps({"cmd": "quit"}))
            server.stop()
            shutil.rmtree(data, ignore_errors=True)
        if args.server:
            self.results["server"] = self.server_side()
        return self.results

    def unprofiled_server(self, what: str) -> float | None:
        """ifxwire-server's CPU per row (per connect) from the unprofiled pure runs: the
        largest case of that kind, whose tick-rounded total is the most precise."""
        cases = [c for c in self.results["cases"]
                 if c["case"].startswith(what) and c["flavour"] == "pure"
                 and c.get("server_per_unit")]  # fmt: skip
        if not cases:
            return None
        return float(max(cases, key=lambda c: c["rows"])["server_per_unit"])

    def server_side(self) -> list[dict[str, Any]]:
        """ifxwire-server's own profile for executemany and for connects (pure client)."""
        out = []
        for label, setup_of, n_ops in (
            (f"executemany {min(self.args.em)}", "executemany", 3),
            ("connect x300", "connect", 1),
        ):
            data = Path(tempfile.mkdtemp(prefix="ifxwire-gap-srv-"))
            prof = self.raw / f"server_{label.replace(' ', '_')}.prof"
            server = ServerProcess(
                data, self.log,
                [sys.executable, "-m", "bench.profiled_server", "--data", str(data),
                 "--out", str(prof)],
            )  # fmt: skip
            try:
                load_fixtures(server.host, server.port, {"bench_ins"})
                # Sessions opened so far (fixtures) stay out of the profile.
                os.kill(server.pid, signal.SIGUSR1)
                time.sleep(0.2)
                if setup_of == "executemany":
                    setup: dict[str, object] = {"what": "executemany", "port": server.port,
                                                "rows": min(self.args.em)}  # fmt: skip
                    units = min(self.args.em) * n_ops
                else:
                    setup = {"what": "connect", "port": server.port, "n": 300}
                    units = 300
                w = self.child(True)
                try:
                    self.call(w, "setup", **setup)
                    s0 = procstat.process_cpu(server.pid) or 0.0
                    for _ in range(n_ops):
                        self.call(w, "run")
                    s1 = procstat.process_cpu(server.pid) or 0.0
                finally:
                    w.close()
            finally:
                server.stop()
                shutil.rmtree(data, ignore_errors=True)
            # The profiled server's CPU is inflated by cProfile: its shares are spread over the
            # unprofiled server's CPU per unit when known.
            per_unit = self.unprofiled_server(setup_of) or (s1 - s0) / units
            found = prof.exists()
            out.append({
                "case": label, "units": units, "profiled_cpu": s1 - s0, "per_unit": per_unit,
                "profile": profile_rows(prof, per_unit, units, TOP) if found else [],
                "inclusive": profile_rows(prof, per_unit, units, TOP, True) if found else [],
            })  # fmt: skip
            log(f"server side of {label}: {per_unit * 1e6:.1f} µs per unit")
        return out


def record(replay: LineProcess, upstream_port: int, sql: str) -> int:
    """Record setup, A and B of one fetch through the replay proxy; the port that serves it."""
    import ifxwire

    def rcall(cmd: str) -> dict[str, Any]:
        reply: dict[str, Any] = replay.call(json.dumps({"cmd": cmd, "key": "gap"}))
        return reply

    port = rcall("record")["port"]
    conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database=DATABASE, autocommit=True)  # fmt: skip
    rcall("mark")
    for _ in range(2):
        cur = conn.cursor()
        cur.execute(sql)
        cur.fetchall()
        cur.close()
        rcall("mark")
    conn.close()
    rcall("stop_record")
    return int(rcall("serve")["port"])


def log(msg: str) -> None:
    print(f"[gap {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--rows", type=int, default=100000, help="rows of the fetch (100000)")
    p.add_argument("--em", type=int, nargs="+", default=[10000, 100000],
                   help="executemany sizes (10000 100000)")
    p.add_argument("--repeat", type=int, default=5, help="unprofiled rounds per case")
    p.add_argument("--perf", action="store_true", help="sample with perf (cpu-clock)")
    p.add_argument("--callgrind", action="store_true", help="instruction counts (valgrind)")
    p.add_argument("--server", action="store_true", help="profile ifxwire-server's share")
    p.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = p.parse_args(argv)  # fmt: skip
    if args.child:
        return child_main()
    from bench import gap_report

    results = Gap(args).run()
    results["meta"] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "load1": os.getloadavg()[0],
        "args": vars(args),
    }
    out = Path(args.out)
    (out / "gap.json").write_text(json.dumps(results, indent=1) + "\n")
    md = gap_report.render(results)
    (out / "gap.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
