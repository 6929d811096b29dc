"""Run the ifxwire benchmark suite: ifxwire (pure, accelerated), informix-driver, IBM JDBC.

    python bench/run.py                      # everything (16 minutes on 2 busy cores)
    python bench/run.py --smoke              # a small subset, under a minute (CI)
    python bench/run.py --only 'select_*' executemany_scaling --drivers ifxwire informix-driver
    python bench/run.py --list

What happens (docs/BENCHMARKS.md has the method and the caveats):

1. ifxwire-server starts as a separate process (``python -m ifxwire.server``) on a temporary
   data directory, and fixtures are loaded through it.
2. One worker process per driver (bench/worker.py; a JVM running bench/jdbc/BenchJdbc.java for
   JDBC) so each driver's client CPU time is its own process's and nothing else's.
3. Read scenarios are recorded once per driver through the replay server (bench/replay.py) and
   then served from the recording, so they measure the client; write scenarios run live and
   report the server's share of the wall time.
4. Rounds are interleaved: in round r every driver runs once, in an order rotated by r.
   Warm-up rounds (more for the JVM) are not counted.
5. Results go to ``--out`` (default bench/results/): latest.json, latest.md, latest.png.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import hashlib
import json
import os
import platform
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    # Run as a script: import the bench package from the repository root, and keep bench/ off
    # sys.path so none of its modules can shadow a standard-library one.
    sys.path[0] = str(ROOT)

from bench import lineproto, procstat  # noqa: E402
from bench.fixtures import load_fixtures, needed_tables  # noqa: E402
from bench.scenarios import DATABASE, Scenario, catalogue, select  # noqa: E402

PY_DRIVERS = ("ifxwire", "ifxwire-accel", "informix-driver")
ALL_DRIVERS = (*PY_DRIVERS, "jdbc")
BASELINE = "informix-driver"
#: Scenario kinds measured against the floor (bench/floor.py): the fetch bodies and the writes.
FLOOR_KINDS = ("query", "latency", "pool", "concurrent", "insert", "executemany")
JDBC_VERSION = "15.0.0.1"
CALL_TIMEOUT = 600.0


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class BenchError(RuntimeError):
    pass


# ------------------------------------------------------------------------------------ placement

#: Which CPUs the servers (ifxwire-server, the replay server) and the driver workers run on;
#: None when not pinned. Set by ``place`` before any child starts.
PLACEMENT: dict[str, list[int]] | None = None


def place(pin: bool) -> dict[str, list[int]] | None:
    """Servers on the last allowed CPU, drivers on the others (with two or more CPUs).

    Why: a client and a server that share a core hand over without a cross-core wake-up, which
    on this class of machine makes every round trip much cheaper than between two cores. Left
    to the scheduler, each worker lands on one side or the other for stretches of rounds, and
    round-trip-bound figures (cold connect above all) came out bimodal: 1.2x to 2.1x for the
    same code in consecutive runs. Pinned, every driver meets the same topology, the one of a
    real deployment where client and server never share a CPU (docs/BENCHMARKS.md). These are
    logical CPUs: with SMT the last one may share a physical core with a driver's, and a cgroup
    CPU quota is not visible in the affinity mask.
    """
    global PLACEMENT
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    PLACEMENT = (
        {"servers": cpus[-1:], "drivers": cpus[:-1]} if pin and len(cpus) >= 2 else None
    )
    return PLACEMENT


def _pinned(role: str) -> Any:
    """A preexec_fn that pins the child to its role's CPUs (None when not pinned). A refusal
    (a container that forbids it) leaves the child where the scheduler puts it: a raising
    preexec_fn would abort the whole run."""
    if PLACEMENT is None:
        return None
    cpus = set(PLACEMENT[role])

    def pin() -> None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, cpus)

    return pin


# ------------------------------------------------------------------------------------ processes


class LineProcess:
    """A child speaking one-line requests / one-line JSON replies on stdin/stdout."""

    def __init__(
        self, name: str, argv: list[str], env: dict[str, str], stderr: Any, role: str = "drivers"
    ) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
            cwd=ROOT,
            env=env,
            preexec_fn=_pinned(role),  # safe: the orchestrator starts no threads
        )
        self._sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def read(self, timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        assert self.proc.stdout is not None
        if not self._sel.select(timeout):
            raise BenchError(f"{self.name}: no answer within {timeout:.0f} s")
        line = self.proc.stdout.readline()
        if not line:
            raise BenchError(f"{self.name}: exited (code {self.proc.poll()}); see the log")
        try:
            reply: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BenchError(f"{self.name}: not JSON: {line[:200]!r}") from exc
        return reply

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise BenchError(f"{self.name}: exited (code {self.proc.poll()})") from None

    def call(self, line: str, timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        self.send(line)
        return self.read(timeout)

    def close(self, quit_line: str = "quit") -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(Exception):
                self.call(quit_line, timeout=20)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ServerProcess:
    """ifxwire-server as a separate process (its CPU is never the client's)."""

    def __init__(self, data_dir: Path, stderr: Any, argv: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            argv
            or [
                sys.executable,
                "-m",
                "ifxwire.server",
                "--port",
                "0",
                "--data",
                str(data_dir),
                "--log-level",
                "WARNING",
            ],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=ROOT,
            env=child_env(),
            preexec_fn=_pinned("servers"),  # the orchestrator starts no threads
        )
        assert self.proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        if not sel.select(60):
            self.proc.kill()
            raise BenchError("ifxwire-server did not start within 60 s")
        line = self.proc.stdout.readline().strip()
        prefix = "ifxwire-server listening on "
        if not line.startswith(prefix):
            self.proc.kill()
            raise BenchError(f"unexpected ifxwire-server output: {line!r}")
        host, _, port = line[len(prefix) :].rpartition(":")
        self.host, self.port = host, int(port)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    env.update(extra)
    return env


# ------------------------------------------------------------------------------------ drivers


def accelerator_present() -> tuple[bool, str]:
    """Does ``ifxwire.accelerated`` exist and is it true (in a fresh interpreter)?"""
    code = (
        "import ifxwire, json\n"
        "flag = getattr(ifxwire, 'accelerated', None)\n"
        "probe = getattr(ifxwire, 'accelerator_available', None)\n"
        "probed = bool(probe()) if callable(probe) else False\n"
        "print(json.dumps([flag is not None, bool(flag), probed]))\n"
    )
    env = child_env()
    env.pop("IFXWIRE_PURE", None)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    if out.returncode != 0:
        return False, f"import failed: {out.stderr.strip()[-300:]}"
    has_attr, flag, probe = json.loads(out.stdout)
    if flag or probe:
        return True, "ifxwire.accelerated is true"
    if not has_attr:
        return False, "absent: ifxwire has no 'accelerated' attribute (no C accelerator yet)"
    return False, "absent: ifxwire.accelerated is false (accelerator not built)"


def cache_root() -> Path:
    return Path(os.environ.get("IFXWIRE_CACHE", Path.home() / ".cache" / "ifxwire"))


def jdbc_classpath(log_file: Any) -> tuple[str | None, str]:
    """Compile BenchJdbc.java against the cached jar; (classpath, note)."""
    jar = cache_root() / "jdbc" / f"jdbc-{JDBC_VERSION}.jar"
    if not jar.is_file():
        return None, f"{jar} missing: run scripts/fetch_jdbc.sh {JDBC_VERSION}"
    javac, java = shutil.which("javac"), shutil.which("java")
    if not javac or not java:
        return None, "java/javac not on PATH (JDK 17 needed)"
    src = ROOT / "bench" / "jdbc" / "BenchJdbc.java"
    digest = hashlib.sha256(src.read_bytes() + jar.read_bytes()).hexdigest()[:16]
    build = cache_root() / "jdbc" / "build" / f"bench-{JDBC_VERSION}-{digest}"
    if not (build / "BenchJdbc.class").is_file():
        tmp = build.with_name(build.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        proc = subprocess.run(
            [javac, "-cp", str(jar), "-d", str(tmp), str(src)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            log_file.write(proc.stdout + proc.stderr)
            return None, f"javac BenchJdbc.java failed: {proc.stderr.strip()[-300:]}"
        shutil.rmtree(build, ignore_errors=True)
        tmp.rename(build)
    return os.pathsep.join([str(build), str(jar)]), f"IBM JDBC {JDBC_VERSION} ({jar.name})"


def start_worker(driver: str, jdbc_cp: str | None, stderr: Any) -> LineProcess:
    if driver == "jdbc":
        assert jdbc_cp is not None
        java = shutil.which("java") or "java"
        argv = [java, f"-Difxbench.jar=jdbc-{JDBC_VERSION}", "-cp", jdbc_cp, "BenchJdbc"]
        return LineProcess(driver, argv, child_env(), stderr)
    pure = "0" if driver == "ifxwire-accel" else "1"
    argv = [sys.executable, "-m", "bench.worker", "--driver", driver]
    return LineProcess(driver, argv, child_env(IFXWIRE_PURE=pure), stderr)


# ------------------------------------------------------------------------------------ the run


def recording_key(driver: str, sc: Scenario) -> str:
    """Scenarios that send the same requests share a recording (query + stream of one SQL)."""
    family = "fetch" if sc.kind in ("query", "stream") else sc.kind
    if sc.arrow:
        family = "arrow"  # Arrow fetches ask for larger replies: a recording of their own
    inner = 1 if sc.kind == "stream" else sc.inner
    return f"{driver}|{family}|{sc.sql}|{sc.params}|{inner}|{sc.threads}"


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.raw = self.out / "raw"
        self.raw.mkdir(parents=True, exist_ok=True)
        self.log_file = open(self.raw / "bench.log", "w", encoding="utf-8")  # noqa: SIM115
        self.workers: dict[str, LineProcess] = {}
        self.driver_info: dict[str, dict[str, Any]] = {}
        self.server: ServerProcess | None = None
        self.replay: LineProcess | None = None
        self.replay_pid = 0
        self.admin: Any = None
        self.jdbc_cp: str | None = None
        self.recorded: dict[str, dict[str, Any]] = {}
        self.key_uses: dict[str, int] = {}

    # ---------------------------------------------------------------- setup

    def discover(self, wanted: list[str]) -> list[str]:
        active: list[str] = []
        for d in wanted:
            info: dict[str, Any] = {"status": "ok"}
            if d == "ifxwire-accel":
                ok, note = accelerator_present()
                if not ok:
                    self.driver_info[d] = {"status": "absent", "note": note}
                    log(f"ifxwire-accel: {note}")
                    continue
            if d == "jdbc":
                self.jdbc_cp, note = jdbc_classpath(self.log_file)
                if self.jdbc_cp is None:
                    self.driver_info[d] = {"status": "absent", "note": note}
                    log(f"jdbc: {note}")
                    continue
                info["note"] = note
            w = start_worker(d, self.jdbc_cp, self.log_file)
            hello = w.call("hello", timeout=120)
            if not hello.get("ok"):
                w.close()
                note = hello.get("unavailable") or hello.get("error") or "?"
                self.driver_info[d] = {"status": "absent", "note": note}
                log(f"{d}: unavailable: {note}")
                continue
            info.update({k: v for k, v in hello.items() if k != "ok"})
            self.driver_info[d] = info
            self.workers[d] = w
            active.append(d)
        return active

    def start_servers(self, scenarios: list[Scenario]) -> dict[str, float]:
        data = Path(tempfile.mkdtemp(prefix="ifxwire-bench-"))
        self.data_dir = data
        self.server = ServerProcess(data, self.log_file)
        log(f"ifxwire-server pid {self.server.pid} on {self.server.host}:{self.server.port}")
        t0 = time.perf_counter()
        fixtures = load_fixtures(self.server.host, self.server.port, needed_tables(scenarios))
        fixtures["load seconds"] = time.perf_counter() - t0
        log(f"fixtures loaded in {fixtures['load seconds']:.1f} s")
        import ifxwire

        self.admin = ifxwire.connect(
            host=self.server.host,
            port=self.server.port,
            user="informix",
            password="in4mix",
            database=DATABASE,
            autocommit=True,
        )
        if any(sc.replay for sc in scenarios):
            self.replay = LineProcess(
                "replay",
                [
                    sys.executable,
                    "-m",
                    "bench.replay",
                    "--upstream",
                    f"{self.server.host}:{self.server.port}",
                ],
                child_env(),
                self.log_file,
                role="servers",
            )
            self.replay_pid = int(self.replay.read(60)["pid"])
        return fixtures

    def close(self) -> None:
        for w in self.workers.values():
            w.close()
        if self.replay is not None:
            self.replay.close(json.dumps({"cmd": "quit"}))
        if self.admin is not None:
            with contextlib.suppress(Exception):
                self.admin.close()
        if self.server is not None:
            self.server.stop()
            shutil.rmtree(self.data_dir, ignore_errors=True)
        self.log_file.close()

    # ---------------------------------------------------------------- helpers

    def rcall(self, cmd: str, key: str = "", **extra: Any) -> dict[str, Any]:
        assert self.replay is not None
        reply = self.replay.call(json.dumps({"cmd": cmd, "key": key, **extra}), timeout=120)
        if not reply.get("ok"):
            raise BenchError(f"replay {cmd} {key}: {reply.get('error')}")
        return reply

    def setup_line(self, sc: Scenario, port: int, quick: bool) -> str:
        assert self.server is not None
        return lineproto.encode(
            "setup",
            kind=sc.kind,
            host=self.server.host,
            port=port,
            db=DATABASE,
            sql=sc.sql,
            params=sc.params,
            rows=sc.rows,
            inner=sc.inner,
            autocommit=sc.autocommit,
            threads=sc.threads,
            aio=sc.aio or None,
            limit_mb=sc.limit_mb or None,
            arrow=sc.arrow or None,
            quick=quick,
        )

    def server_pid(self, sc: Scenario) -> int:
        assert self.server is not None
        return self.replay_pid if sc.replay else self.server.pid

    def pre_round(self, sc: Scenario) -> None:
        if sc.table:
            cur = self.admin.cursor()
            cur.execute(f"DELETE FROM {sc.table}")
            cur.close()

    def timed_round(self, w: LineProcess, sc: Scenario) -> dict[str, Any]:
        self.pre_round(sc)
        pid = self.server_pid(sc)
        s0 = procstat.process_cpu(pid)
        res = w.call("round")
        s1 = procstat.process_cpu(pid)
        if res.get("ok") and s0 is not None and s1 is not None:
            res["server_cpu"] = s1 - s0
        return res

    def check(
        self, sc: Scenario, d: str, res: dict[str, Any], expected: int | None = None
    ) -> str | None:
        """Why a round's result is wrong (row count, error), or None."""
        if not res.get("ok"):
            return str(res.get("error") or res.get("unsupported") or res)
        if sc.kind in ("query", "pool", "concurrent", "swarm") and "rows" in res:
            ops = res.get("ops", sc.inner)
            if res["rows"] != sc.rows * ops:
                return f"{d}: {res['rows']} rows, expected {sc.rows * ops}"
        want = sc.rows if expected is None else expected
        if sc.kind == "stream" and res.get("rows") != want and not res.get("stopped"):
            return f"{d}: streamed {res.get('rows')} rows, expected {want}"
        return None

    # ---------------------------------------------------------------- one scenario

    def prepare_driver(
        self, sc: Scenario, d: str, w: LineProcess, entry: dict[str, Any], setup: bool = True
    ) -> bool:
        """Record (if needed) and set the worker up; False when the driver sits this one out."""
        assert self.server is not None
        quick = self.args.smoke
        if not sc.replay:
            res = w.call(self.setup_line(sc, self.server.port, quick))
            return self._setup_ok(sc, d, res, entry)
        key = recording_key(d, sc)
        if key not in self.recorded:
            port = self.rcall("record", key)["port"]
            res = w.call(self.setup_line(sc, port, quick))
            if not self._setup_ok(sc, d, res, entry):
                self.rcall("drop", key)
                return False
            self.rcall("mark", key)
            live: list[dict[str, Any]] = []
            for _ in range(2):  # A (first use: prepares) and B (steady state)
                s0 = procstat.process_cpu(self.server.pid)
                r = w.call("round")
                s1 = procstat.process_cpu(self.server.pid)
                # A grown scenario records the smaller result it grows from.
                problem = self.check(sc, d, r, r.get("rows") if sc.grow else None)
                if problem:
                    w.call("teardown")
                    self.rcall("drop", key)
                    entry.update(status="error", reason=f"live recording: {problem}")
                    return False
                if s0 is not None and s1 is not None:
                    r["server_cpu"] = s1 - s0
                live.append(r)
                self.rcall("mark", key)
            w.call("teardown")
            info = self.rcall("stop_record", key)
            self.recorded[key] = {"live": live, "recording": info}
        rec = self.recorded[key]
        entry["live"] = rec["live"]
        entry["recording"] = {k: v for k, v in rec["recording"].items() if k != "ok"}
        if not setup:
            return True
        port = self._serve_port(key)
        res = w.call(self.setup_line(sc, port, quick))
        return self._setup_ok(sc, d, res, entry)

    def _serve_port(self, key: str) -> int:
        rec = self.recorded[key]
        if "port" not in rec:
            rec["port"] = self.rcall("serve", key)["port"]
        return int(rec["port"])

    def _setup_ok(self, sc: Scenario, d: str, res: dict[str, Any], entry: dict[str, Any]) -> bool:
        if res.get("ok"):
            return True
        if "unsupported" in res:
            entry.update(status="unsupported", reason=res["unsupported"])
            log(f"  {d}: unsupported: {res['unsupported']}")
        else:
            entry.update(status="error", reason=res.get("error"))
            log(f"  {d}: setup failed: {res.get('error')}")
        return False

    def release_key(self, d: str, sc: Scenario) -> None:
        key = recording_key(d, sc)
        self.key_uses[key] = self.key_uses.get(key, 1) - 1
        if self.key_uses[key] <= 0 and key in self.recorded and self.replay is not None:
            stats = self.rcall("stats", key)
            self.recorded[key]["stats"] = stats
            self.rcall("drop", key)
            del self.recorded[key]

    def run_scenario(self, sc: Scenario, drivers: list[str]) -> dict[str, Any]:
        started = time.perf_counter()
        result: dict[str, Any] = {**asdict(sc), "drivers": {}}
        result.pop("skip", None)
        entries: dict[str, dict[str, Any]] = {}
        ready: list[str] = []
        for d in drivers:
            entry: dict[str, Any] = {"status": "ok", "rounds": []}
            entries[d] = entry
            if sc.kind == "codec" and d == "jdbc":
                entry.update(status="unsupported", reason="codec micro-benchmarks are Python-only")
                continue
            if sc.kind == "stream":
                ready.append(d)
                continue
            try:
                if self.prepare_driver(sc, d, self.workers[d], entry):
                    ready.append(d)
            except BenchError as exc:
                entry.update(status="error", reason=str(exc))
                log(f"  {d}: {exc}")
        if sc.kind == "stream":
            self.run_stream(sc, ready, entries)
        else:
            self.run_rounds(sc, ready, entries)
        for d in ready:
            if sc.kind != "stream":
                with contextlib.suppress(BenchError):
                    self.workers[d].call("teardown")
            if sc.replay:
                st = self.recorded.get(recording_key(d, sc), {})
                if st:
                    entries[d]["replay"] = self.rcall("stats", recording_key(d, sc))
                self.release_key(d, sc)
        result["drivers"] = entries
        result["seconds"] = time.perf_counter() - started
        return result

    def warmups(self, sc: Scenario, d: str) -> int:
        if d != "jdbc":
            return sc.warmup
        # The JIT needs more: a few extra rounds for small bodies, one for big ones.
        return sc.warmup + (1 if sc.rows * sc.inner >= 100000 else 3)

    def run_rounds(self, sc: Scenario, ready: list[str], entries: dict[str, Any]) -> None:
        alive = list(ready)
        for d in list(alive):
            for _ in range(self.warmups(sc, d)):
                res = self.timed_round(self.workers[d], sc)
                problem = self.check(sc, d, res)
                if problem:
                    entries[d].update(status="error", reason=f"warm-up: {problem}")
                    alive.remove(d)
                    log(f"  {d}: warm-up failed: {problem}")
                    break
        floors = [d for d in alive if d in PY_DRIVERS and self.capture_floor(sc, d, entries[d])]
        for r in range(sc.rounds):
            order = alive[r % len(alive) :] + alive[: r % len(alive)] if alive else []
            for d in order:
                if entries[d]["status"] != "ok":
                    continue
                try:
                    res = self.timed_round(self.workers[d], sc)
                except BenchError as exc:
                    res = {"ok": False, "error": str(exc)}
                problem = self.check(sc, d, res)
                if problem:
                    entries[d].update(status="error", reason=problem)
                    log(f"  {d}: round {r} failed: {problem}")
                    continue
                res.pop("ok", None)
                entries[d]["rounds"].append(res)
                if d in floors:
                    self.floor_round(d, entries[d])

    def capture_floor(self, sc: Scenario, d: str, entry: dict[str, Any]) -> bool:
        """Take the rows the floor is made of (bench/floor.py); False: no floor here."""
        if sc.kind not in FLOOR_KINDS:
            return False
        try:
            res = self.workers[d].call("capture")
        except BenchError as exc:
            res = {"ok": False, "error": str(exc)}
        if not res.get("ok"):
            entry["floor_error"] = res.get("error") or res.get("unsupported")
            log(f"  {d}: no floor: {entry['floor_error']}")
            return False
        entry["floor_rounds"] = []
        return True

    def floor_round(self, d: str, entry: dict[str, Any]) -> None:
        """The floor, right after the driver's round, in the same worker (bench/floor.py)."""
        try:
            res = self.workers[d].call("floor")
        except BenchError as exc:
            res = {"ok": False, "error": str(exc)}
        if res.pop("ok", False):
            entry["floor_rounds"].append(res)
        else:
            entry["floor_error"] = res.get("error") or res.get("unsupported")

    def run_stream(self, sc: Scenario, ready: list[str], entries: dict[str, Any]) -> None:
        """Streaming memory: a fresh worker process per driver and round."""
        assert self.server is not None
        for r in range(sc.rounds):
            order = ready[r % len(ready) :] + ready[: r % len(ready)] if ready else []
            for d in order:
                entry = entries[d]
                if entry["status"] != "ok":
                    continue
                if sc.replay and recording_key(d, sc) not in self.recorded:
                    # Record with the long-lived worker, then measure in a fresh process.
                    try:
                        if not self.prepare_driver(sc, d, self.workers[d], entry, setup=False):
                            continue
                    except BenchError as exc:
                        entry.update(status="error", reason=str(exc))
                        continue
                fresh = start_worker(d, self.jdbc_cp, self.log_file)
                expected = None
                try:
                    fresh.call("hello", timeout=120)
                    if sc.replay:
                        key = recording_key(d, sc)
                        rec = self.recorded[key]
                        entry["live"] = rec["live"]
                        port = self._serve_port(key)
                        if sc.grow:
                            base = int(rec["live"][-1]["rows"])
                            grown = self.rcall("serve_grown", key, base=base, target=sc.rows)
                            port, expected = int(grown["port"]), int(grown["rows"])
                            entry["grown"] = {k: v for k, v in grown.items() if k != "ok"}
                    else:
                        port = self.server.port
                    res = fresh.call(self.setup_line(sc, port, False))
                    if not self._setup_ok(sc, d, res, entry):
                        continue
                    res = self.timed_round(fresh, sc)
                    if res.get("stopped"):
                        # A bounded run (limit_mb): reported as stopped, with its figures
                        # and how far it got (issue 25: "stopped after N s, M rows").
                        entry.update(status="stopped",
                                     reason=f"{res['stopped']}, {res.get('rows', 0):,} rows")
                    problem = self.check(sc, d, res, expected)
                    if problem:
                        entry.update(status="error", reason=problem)
                        continue
                    res.pop("ok", None)
                    entry["rounds"].append(res)
                except BenchError as exc:
                    entry.update(status="error", reason=str(exc))
                finally:
                    fresh.close()

    # ---------------------------------------------------------------- everything

    def run(self, scenarios: list[Scenario], drivers: list[str]) -> dict[str, Any]:
        t0 = time.perf_counter()
        started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        active = self.discover(drivers)
        if not active:
            raise BenchError("no driver available")
        fixtures = self.start_servers(scenarios)
        for sc in scenarios:
            if sc.replay:
                for d in active:
                    key = recording_key(d, sc)
                    self.key_uses[key] = self.key_uses.get(key, 0) + 1
        results = []
        for i, sc in enumerate(scenarios, 1):
            log(f"({i}/{len(scenarios)}) {sc.name}")
            res = self.run_scenario(sc, active)
            results.append(res)
            log(f"  done in {res['seconds']:.1f} s")
        return {
            "meta": {
                "started": started,
                "seconds": time.perf_counter() - t0,
                "mode": "smoke" if self.args.smoke else "full",
                "baseline": BASELINE,
                "machine": {
                    "cpus": os.cpu_count(),
                    "platform": platform.platform(),
                    "python": platform.python_version(),
                    "implementation": platform.python_implementation(),
                    "placement": PLACEMENT,
                },
                "git": git_commit(),
                "drivers": self.driver_info,
                "fixtures": fixtures,
            },
            "scenarios": results,
        }


def machine_snapshot() -> dict[str, float]:
    """Machine-wide busy CPU (from /proc/stat), our own CPU (this process and its waited-for
    children), the load average and the time: two snapshots tell how much CPU *other* work
    took during the run, i.e. how trustworthy the figures are."""
    import resource

    snap: dict[str, float] = {"t": time.monotonic(), "load1": os.getloadavg()[0]}
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
        ticks = os.sysconf("SC_CLK_TCK")
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        snap["busy"] = (sum(fields[:8]) - idle) / ticks
    except (OSError, ValueError):
        pass
    own = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        ru = resource.getrusage(who)
        own += ru.ru_utime + ru.ru_stime
    snap["own"] = own
    return snap


def machine_load(a: dict[str, float], b: dict[str, float]) -> dict[str, float | None]:
    elapsed = b["t"] - a["t"]
    cpus = os.cpu_count() or 1
    foreign = None
    if "busy" in a and "busy" in b and elapsed > 0:
        other = (b["busy"] - a["busy"]) - (b["own"] - a["own"])
        foreign = max(0.0, other) / (elapsed * cpus)
    return {
        "foreign_cpu_share": foreign,
        "bench_cpu_share": (b["own"] - a["own"]) / (elapsed * cpus) if elapsed > 0 else None,
        "load1_start": a["load1"],
        "load1_end": b["load1"],
    }


def git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=10,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


@contextlib.contextmanager
def bench_session(args: argparse.Namespace) -> Iterator[Bench]:
    b = Bench(args)
    try:
        yield b
    finally:
        b.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="bench/run.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--smoke", action="store_true", help="small subset, under a minute")
    p.add_argument("--only", nargs="+", metavar="SCENARIO", help="names or fnmatch patterns")
    p.add_argument("--drivers", nargs="+", choices=ALL_DRIVERS, default=list(ALL_DRIVERS))
    p.add_argument("--rounds", type=int, help="measured rounds per scenario (overrides)")
    p.add_argument("--out", default=str(ROOT / "bench" / "results"), help="results directory")
    p.add_argument("--list", action="store_true", help="list the scenarios and exit")
    p.add_argument(
        "--no-pin",
        action="store_true",
        help="let the scheduler place servers and drivers (default: servers on the last CPU)",
    )
    args = p.parse_args(argv)
    if args.list:
        for sc in catalogue():
            flags = "replay" if sc.replay else "live"
            print(f"{sc.name:40} {sc.kind:12} {flags:7} rounds={sc.rounds} inner={sc.inner}")
        print(f"{LOB_SCENARIO:40} {'lob':12} {'live':7} bench/lob_bench.py (1 GiB; --smoke 32 MiB)")
        return 0
    # The large-object streams run after the suite, in bench/lob_bench.py (its own server and
    # a fresh process per transfer, so peak RSS is measurable).
    lobs = not args.only or any(fnmatch.fnmatchcase(LOB_SCENARIO, pat) for pat in args.only)
    only = [pat for pat in args.only or [] if not fnmatch.fnmatchcase(LOB_SCENARIO, pat)]
    if args.only and not only:
        return run_lobs(args)
    scenarios = select(args.only, args.smoke)
    if not scenarios:
        p.error("no scenario matches --only")
    if args.rounds:
        from dataclasses import replace

        scenarios = [replace(sc, rounds=args.rounds) for sc in scenarios]
    place(not args.no_pin)
    before = machine_snapshot()
    with bench_session(args) as b:
        data = b.run(scenarios, list(args.drivers))
    data["meta"]["machine"]["load"] = machine_load(before, machine_snapshot())
    out = Path(args.out)
    stem = "smoke" if args.smoke else "latest"
    from bench import report

    # The raw rounds first, so a report that fails cannot cost the run its results.
    (out / f"{stem}.json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    data["summary"] = report.summarise(data)
    (out / f"{stem}.json").write_text(json.dumps(data, indent=1, default=str) + "\n")

    md, problems = report.write(data, out / f"{stem}.md", out / f"{stem}.png")
    log(f"results: {out / (stem + '.json')}, {out / (stem + '.md')}")
    print(md)
    if not args.only or any(fnmatch.fnmatch("composite_fetch", pat) for pat in args.only):
        # Issue 13's composite-fetch measure (bench/composite_bench.py), own processes.
        from bench import composite_bench

        rows = 3_000 if args.smoke else 100_000
        results = composite_bench.run(rows, 2 if args.smoke else 3)
        text = composite_bench.report(results)
        (out / f"{stem}-composite.json").write_text(json.dumps(results, indent=1) + "\n")
        with (out / f"{stem}.md").open("a") as fh:
            fh.write("\n" + text + "\n")
        print(text)
    status = 0
    if problems:
        for line in problems:
            log(f"PROBLEM: {line}")
        status = 1
    if lobs:
        status = run_lobs(args) or status
    return status


LOB_SCENARIO = "lob_stream"


def run_lobs(args: argparse.Namespace) -> int:
    """bench/lob_bench.py with this run's drivers (those it knows) and size."""
    from bench import lob_bench

    drivers = [d for d in args.drivers if d in lob_bench.DRIVERS]
    if not drivers:
        log("lob_stream: none of the chosen drivers streams LOBs here; skipped")
        return 0
    log("lob_stream: bench/lob_bench.py" + (" --smoke" if args.smoke else ""))
    argv = ["--drivers", *drivers, "--out", str(args.out)]
    return lob_bench.main([*argv, "--smoke"] if args.smoke else argv)


if __name__ == "__main__":
    raise SystemExit(main())
