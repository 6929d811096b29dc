"""What ifxwire.otel costs: ``select_one_row`` (bench/scenarios.py) not instrumented, and
instrumented, and not instrumented against the main branch's driver, in one run.

    python bench/otel_overhead.py [--rounds 9] [--inner 300] [--ref main]

Why: instrument() wraps the driver's methods in place and uninstrument() puts them back, so
a driver that is not instrumented runs exactly the code it runs without ifxwire.otel. The
figures check that (``plain / main`` should be 1.00 within noise) and say what a span costs
when it is on: ``sdk`` is the OpenTelemetry SDK's TracerProvider and MeterProvider (spans
made, attributes set, the duration histogram recorded; the span processor drops them, so
no exporter's cost is counted), ``api`` is instrument() with no SDK configured (the API's
no-op tracer).

Set-up: ifxwire-server in a process of its own; each mode runs in a fresh client process
(the main branch's from its ``src`` taken with ``git archive``), with the pure-Python
codecs (IFXWIRE_PURE=1: the archive has no built accelerator), all modes taking turns round
by round, so a burst of load on a shared machine hits them alike. Each round times ``inner``
execute-and-fetchall calls; printed: the median per call of each mode and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SELECT_ONE_SQL = "SELECT 1 FROM systables WHERE tabid = 1"  # bench/scenarios.py's
ROOT = Path(__file__).resolve().parent.parent
MODES = ("plain", "api", "sdk", "main")
DATABASE = "otel_bench"


def worker(mode: str, port: int, inner: int) -> None:
    """One round in this process: ``inner`` timed calls; prints seconds per call."""
    import ifxwire

    if mode in ("api", "sdk"):
        import ifxwire.otel

        if mode == "sdk":
            from opentelemetry.sdk.metrics import MeterProvider
            from opentelemetry.sdk.metrics.export import InMemoryMetricReader
            from opentelemetry.sdk.trace import SpanProcessor, TracerProvider

            tp = TracerProvider()
            tp.add_span_processor(SpanProcessor())  # the base class: drops every span
            mp = MeterProvider(metric_readers=[InMemoryMetricReader()])
            ifxwire.otel.instrument(tracer_provider=tp, meter_provider=mp)
        else:
            ifxwire.otel.instrument()
    conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database=DATABASE)
    cur = conn.cursor()
    for _ in range(50):  # warm: the statement cache, the decoder
        cur.execute(SELECT_ONE_SQL)
        cur.fetchall()
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(inner):
        cur.execute(SELECT_ONE_SQL)
        cur.fetchall()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    conn.close()
    print(json.dumps({"wall": elapsed / inner, "cpu": cpu / inner, "driver": ifxwire.__file__}))


def _start_server(data: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", data],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if "listening on" in line:
            port = int(line.rsplit(":", 1)[1])
            subprocess.run(
                [sys.executable, "-c", "import ifxwire, sys; ifxwire.connect(host='127.0.0.1', "
                 "port=int(sys.argv[1]), user='informix', password='in4mix', autocommit=True"
                 f").cursor().execute('CREATE DATABASE {DATABASE}')", str(port)],
                check=True,
            )
            return proc, port
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("ifxwire-server did not start")


def _main_src(ref: str, into: str) -> str:
    """The ``src`` tree of ``ref`` (a branch of this repository), extracted, with this
    tree's built extension modules copied in when their C sources are the same in ``ref``
    (some stay in use under IFXWIRE_PURE=1, so a tree without them is not comparable)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    package = ROOT / "src" / "ifxwire"
    same_c = subprocess.run(
        ["git", "-C", str(ROOT), "diff", "--quiet", ref, "--", *map(str, package.glob("*.c"))]
    ).returncode == 0
    if same_c:
        for built in package.glob("*.so"):
            shutil.copy2(built, os.path.join(into, "src", "ifxwire", built.name))
    else:
        print(f"note: the C sources differ from {ref}; {ref} runs without built extensions")
    return os.path.join(into, "src")


def _round(mode: str, port: int, inner: int, main_src: str) -> tuple[float, float, str]:
    env = {**os.environ, "IFXWIRE_PURE": "1"}
    if mode == "main":
        env["PYTHONPATH"] = main_src
        worker_mode = "plain"
    else:
        env["PYTHONPATH"] = str(ROOT / "src")
        worker_mode = mode
    out = subprocess.run(
        [sys.executable, __file__, "--worker", worker_mode, "--port", str(port),
         "--inner", str(inner)],
        env=env, capture_output=True, text=True,
    )
    if out.returncode:
        raise SystemExit(f"the {mode} worker failed:\n{out.stderr}")
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return float(got["wall"]), float(got["cpu"]), str(got["driver"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--inner", type=int, default=300)
    ap.add_argument("--ref", default="main", help="the branch to compare with")
    ap.add_argument("--worker", choices=("plain", "api", "sdk"))
    ap.add_argument("--port", type=int)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.port, args.inner)
        return
    with tempfile.TemporaryDirectory() as tmp:
        main_src = _main_src(args.ref, tmp)
        data = os.path.join(tmp, "data")
        os.mkdir(data)
        server, port = _start_server(data)
        try:
            wall: dict[str, list[float]] = {m: [] for m in MODES}
            cpu: dict[str, list[float]] = {m: [] for m in MODES}
            drivers: dict[str, str] = {}
            for r in range(args.rounds):
                # Each round in another order, so no mode always follows the same one.
                order = MODES[r % len(MODES):] + MODES[:r % len(MODES)]
                for mode in order:
                    w, c, drivers[mode] = _round(mode, port, args.inner, main_src)
                    wall[mode].append(w)
                    cpu[mode].append(c)
        finally:
            server.terminate()
            server.wait()
    mw = {m: statistics.median(v) for m, v in wall.items()}
    mc = {m: statistics.median(v) for m, v in cpu.items()}
    print(f"select_one_row, {args.rounds} rounds x {args.inner} calls, median per call "
          "(IFXWIRE_PURE=1); wall, and the client process's CPU:")
    for mode in MODES:
        print(f"  {mode:6s} {mw[mode] * 1e6:8.1f} us wall {mc[mode] * 1e6:8.1f} us cpu"
              f"   ({drivers[mode]})")
    for a, b, what in (("plain", "main", "not instrumented, against " + args.ref),
                       ("api", "plain", "instrument(), no SDK"),
                       ("sdk", "plain", "instrument() with the SDK")):
        print(f"  {a} / {b}: wall {mw[a] / mw[b]:.3f}, cpu {mc[a] / mc[b]:.3f}  ({what})")


if __name__ == "__main__":
    main()
