"""Large-object streaming: 1 GiB into a BLOB and a BYTE column from a file, and back out.

    python bench/lob_bench.py                    # 1 GiB per transfer, 3 rounds (~10 minutes)
    python bench/lob_bench.py --smoke            # 32 MiB per transfer, 1 round (seconds)
    python bench/lob_bench.py --size-mb 256 --drivers ifxwire --repeat 1

Not a timed test: a measurement, run by ``make bench`` (after the suite, bench/run.py calls
``main``) and by its ``--smoke`` run. For each driver and column kind (BLOB, BYTE) a fresh
worker process connects, then on a signal writes the file's content into a new row
(``write``) or reads that row's value into another file (``read``). The drivers take turns
transfer by transfer, the first one alternating between rounds, and each transfer starts once
the server has gone idle, so load from elsewhere on the machine and work left over from the
previous transfer fall on both drivers alike. Reported per transfer (medians over the rounds):

* MB/s (10^6 bytes per second of wall time, file reading/writing included);
* client peak RSS growth: the worker's VmHWM during the transfer minus its VmRSS just before
  (the peak is reset first through /proc/self/clear_refs);
* server peak RSS growth: the ifxwire-server process's VmHWM during the transfer (reset through
  /proc/<pid>/clear_refs by the orchestrator just before the signal) minus its VmRSS when idle
  (after the tables were created, before any value was stored).

How each driver moves the data (the fastest way each offers for a file):

* ifxwire BLOB: the open file bound to the BLOB parameter (``ifx_lo_create`` + pipelined 1 MiB
  SQ_LODATA writes); read: ``Blob.copy_to(file)`` (1 MiB SQ_LODATA reads).
* ifxwire BYTE: the open file bound to the BYTE parameter (SQ_BLOB chunks sent as read); read:
  ``cursor.blob_stream = True`` and the ``BlobReader`` copied to the file.
* informix-driver BLOB: ``write_blob_column`` with the file's bytes (FILETOBLOB over SQ_FILE);
  read: ``read_blob_column`` (LOTOFILE over SQ_FILE), written to the file. It has no API
  taking a file, so it holds the whole value in memory: that is what its figures show.
* informix-driver BYTE: the bytes as a parameter; read: the fetched bytes, written out.

Goals (issue 11): client growth <= 32 MB, server growth <= 64 MB for ifxwire, and ifxwire at
least twice informix-driver's MB/s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench import procstat

DATABASE = "lobbench"
DRIVERS = ("ifxwire", "informix-driver")
KINDS = ("blob", "byte")
MIB = 1024 * 1024
GOAL_CLIENT_MB = 32
GOAL_SERVER_MB = 64
GOAL_RATIO = 2.0


def log(msg: str) -> None:
    print(f"[lob-bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------ worker


def _status_kb(pid: int | str, field: str) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def _connect(driver: str, host: str, port: int) -> Any:
    if driver == "ifxwire":
        import ifxwire

        return ifxwire.connect(host=host, port=port, user="informix", password="in4mix",
                               database=DATABASE, autocommit=True)
    import informix_db

    return informix_db.connect(host=host, port=port, user="informix", password="in4mix",
                               database=DATABASE, server="informix", autocommit=True,
                               read_timeout=3600)


def _transfer(driver: str, conn: Any, kind: str, direction: str, path: str, row: int) -> int:
    """One transfer; returns the bytes moved."""
    table = "lb_blob" if kind == "blob" else "lb_byte"
    cur = conn.cursor()
    if driver == "ifxwire":
        if direction == "write":
            with open(path, "rb") as f:
                cur.execute(f"INSERT INTO {table} VALUES (?, ?)", (row, f))
            return os.path.getsize(path)
        if kind == "byte":
            cur.blob_stream = True
        cur.execute(f"SELECT v FROM {table} WHERE id = ?", (row,))
        (value,) = cur.fetchone()
        total = 0
        with open(path, "wb") as out:
            if kind == "blob":
                with value:
                    total = value.copy_to(out)
            else:
                buf = bytearray(MIB)
                view = memoryview(buf)
                while got := value.readinto(view):
                    out.write(view[:got])
                    total += got
                value.close()
        return total
    # informix-driver
    if direction == "write":
        with open(path, "rb") as f:
            data = f.read()
        if kind == "blob":
            cur.write_blob_column(f"INSERT INTO {table} VALUES (?, BLOB_PLACEHOLDER)", data,
                                  (row,))
        else:
            cur.execute(f"INSERT INTO {table} VALUES (?, ?)", (row, data))
        return len(data)
    if kind == "blob":
        data = cur.read_blob_column(f"SELECT v FROM {table} WHERE id = ?", (row,)) or b""
    else:
        cur.execute(f"SELECT v FROM {table} WHERE id = ?", (row,))
        data = cur.fetchone()[0]
    with open(path, "wb") as out:
        out.write(data)
    return len(data)


def worker(args: argparse.Namespace) -> int:
    """``ready`` after connecting; on ``go`` one transfer; prints one JSON line each."""
    conn = _connect(args.driver, args.host, args.port)
    print(json.dumps({"ready": True}), flush=True)
    sys.stdin.readline()
    procstat.reset_peak_rss()
    before = _status_kb("self", "VmRSS")
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    try:
        n = _transfer(args.driver, conn, args.kind, args.direction, args.file, args.row)
    except Exception as exc:  # reported, not raised: the orchestrator records it
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}), flush=True)
        return 1
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    peak = _status_kb("self", "VmHWM")
    conn.close()
    print(json.dumps({"ok": True, "bytes": n, "seconds": wall, "client_cpu": cpu,
                      "client_growth": (peak - before) * 1024}), flush=True)
    return 0


# ------------------------------------------------------------------------------------ orchestrator


def _make_source(path: Path, size: int) -> None:
    """A file of ``size`` bytes that does not compress (a random MiB repeated)."""
    block = os.urandom(MIB)
    with open(path, "wb") as f:
        left = size
        while left > 0:
            f.write(block[: min(left, MIB)])
            left -= MIB


def _same(a: Path, b: Path) -> bool:
    """Sizes equal and the first, middle and last MiB equal (cheap, outside the timing)."""
    size = a.stat().st_size
    if b.stat().st_size != size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        for at in {0, max(0, size // 2 - MIB // 2), max(0, size - MIB)}:
            fa.seek(at)
            fb.seek(at)
            if fa.read(MIB) != fb.read(MIB):
                return False
    return True


def _run_one(server: Any, driver: str, kind: str, direction: str, path: Path, row: int,
             stderr: Any, idle_kb: int) -> dict[str, Any]:
    import subprocess

    from bench.run import child_env

    argv = [sys.executable, "-m", "bench.lob_bench", "--worker", "--driver", driver,
            "--kind", kind, "--direction", direction, "--file", str(path), "--row", str(row),
            "--host", server.host, "--port", str(server.port)]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                            text=True, cwd=Path(__file__).resolve().parent.parent,
                            env=child_env())
    assert proc.stdin is not None and proc.stdout is not None
    try:
        if not json.loads(proc.stdout.readline() or "{}").get("ready"):
            return {"ok": False, "error": "worker did not connect (see the log)"}
        with open(f"/proc/{server.pid}/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        server_before = _status_kb(server.pid, "VmRSS")
        cpu0 = procstat.process_cpu(server.pid)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        server_peak = _status_kb(server.pid, "VmHWM")
        cpu1 = procstat.process_cpu(server.pid)
        res: dict[str, Any] = json.loads(line) if line else {"ok": False, "error": "no answer"}
        # Over the server's idle size (measured before anything was stored), not just over
        # its size before this transfer: memory kept from earlier transfers counts too.
        res["server_growth"] = (server_peak - min(idle_kb, server_before)) * 1024
        if cpu0 is not None and cpu1 is not None:
            res["server_cpu"] = cpu1 - cpu0
        return res
    finally:
        proc.wait(600)


def _wait_idle(pid: int, quiet: float = 0.3, limit: float = 60.0) -> None:
    """Until the server used no CPU for ``quiet`` seconds: work a transfer left behind (the
    session ending, garbage being collected) is not charged to the next one."""
    deadline = time.monotonic() + limit
    last = procstat.process_cpu(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = procstat.process_cpu(pid)
        if now is None or last is None or now - last < 0.015:
            return
        last = now


def run(size: int, drivers: list[str], out_dir: Path | None = None,
        profile: str | None = None, kinds: tuple[str, ...] = KINDS,
        logging: str = "log", data_dir: str | None = None, repeat: int = 1) -> dict[str, Any]:
    """Start a server, run every transfer ``repeat`` times, return the results (and write
    them when asked).

    The drivers take turns transfer by transfer (BLOB write by each, then BLOB read by each,
    …), the first to go alternating from round to round, so a change in the machine's load
    falls on both; before each transfer the server is left to go idle."""
    import ifxwire
    from bench.run import ServerProcess

    if data_dir is None:
        data_dir = _default_dir(size, len(drivers))
    work = Path(tempfile.mkdtemp(prefix="ifxwire-lobbench-", dir=data_dir))
    log_path = (out_dir / "raw" if out_dir else work)
    log_path.mkdir(parents=True, exist_ok=True)
    stderr = open(log_path / "lob_bench.log", "w", encoding="utf-8")  # noqa: SIM115
    argv = None
    if profile:  # the server's sessions under cProfile (bench/profiled_server.py)
        (work / "data").mkdir()
        argv = [sys.executable, "-m", "bench.profiled_server", "--data", str(work / "data"),
                "--out", profile]
    server = ServerProcess(work / "data", stderr, argv)
    results: dict[str, Any] = {"size": size, "logging": logging, "data_dir": str(work.parent),
                               "repeat": repeat, "drivers": {d: {} for d in drivers},
                               "load": {"start": round(os.getloadavg()[0], 1)},
                               "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    loads = []

    def connect(database: str | None = DATABASE) -> Any:
        return ifxwire.connect(host=server.host, port=server.port, user="informix",
                               password="in4mix", database=database, autocommit=True)

    try:
        log(f"ifxwire-server pid {server.pid}; {size / MIB:.0f} MiB per transfer, "
            f"{repeat} round(s)")
        with connect(None) as c:
            c.execute(f"CREATE DATABASE {DATABASE}" + (" WITH LOG" if logging == "log" else ""))
            c.execute("CREATE TABLE lb_blob (id INTEGER, v BLOB)")
            c.execute("CREATE TABLE lb_byte (id INTEGER, v BYTE)")
        source = work / "source.bin"
        _make_source(source, size)
        idle_kb = _status_kb(server.pid, "VmRSS")
        # Untimed: store and free one value per driver and table, so the files have grown
        # to size before anything is measured (else the first transfer pays for it).
        log("priming the database files ...")
        with connect() as c:
            for table in ("lb_blob", "lb_byte"):
                for row in range(len(drivers)):
                    with open(source, "rb") as f:
                        c.execute(f"INSERT INTO {table} VALUES (?, ?)", (100 + row, f))
                c.execute(f"DELETE FROM {table}")
        for rnd in range(repeat):
            order = drivers if rnd % 2 == 0 else drivers[::-1]
            for kind in kinds:
                for direction in ("write", "read"):
                    for driver in order:
                        row = drivers.index(driver) + 1
                        path = (source if direction == "write"
                                else work / f"out-{driver}-{kind}.bin")
                        name = f"{kind}_{direction}"
                        log(f"round {rnd + 1}: {driver} {kind} {direction} ...")
                        os.sync()  # earlier writes are not this transfer's to wait for
                        _wait_idle(server.pid)
                        loads.append(os.getloadavg()[0])
                        res = _run_one(server, driver, kind, direction, path, row, stderr,
                                       idle_kb)
                        if res.get("ok") and direction == "read":
                            res["verified"] = _same(source, path)
                            path.unlink()
                        if res.get("ok"):
                            res["mb_s"] = res["bytes"] / res["seconds"] / 1e6
                            log(f"  {res['mb_s']:.1f} MB/s in {res['seconds']:.2f} s (client "
                                f"CPU {res['client_cpu']:.2f} s, server CPU "
                                f"{res.get('server_cpu', 0):.2f} s), client "
                                f"+{res['client_growth'] / MIB:.1f} MiB, server "
                                f"+{res['server_growth'] / MIB:.1f} MiB")
                        else:
                            log(f"  failed: {res.get('error')}")
                        results["drivers"][driver].setdefault(name, {"runs": []})[
                            "runs"].append(res)
                with connect() as c:  # the objects go: the space is reused next round
                    c.execute(f"DELETE FROM lb_{kind}")
    finally:
        server.stop()
        stderr.close()
        shutil.rmtree(work, ignore_errors=True)
    for per in results["drivers"].values():
        for entry in per.values():
            entry.update(_summary(entry["runs"]))
    results["load"]["end"] = round(os.getloadavg()[0], 1)
    if loads:
        results["load"]["median"] = round(statistics.median(loads), 1)
    results["report"] = report(results)
    if out_dir is not None:
        stem = "lob_smoke" if size < 1024 * MIB else "lob_latest"
        (out_dir / f"{stem}.json").write_text(json.dumps(results, indent=1) + "\n")
        (out_dir / f"{stem}.md").write_text(results["report"] + "\n")
    return results


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the runs (MB/s, CPU), the worst memory growth, and whether all held."""
    good = [r for r in runs if r.get("ok")]
    if len(good) < len(runs) or not good:
        bad = next((r for r in runs if not r.get("ok")), {})
        return {"ok": False, "error": bad.get("error", "no run")}
    med = statistics.median
    return {"ok": True, "mb_s": med(r["mb_s"] for r in good),
            "mb_s_range": [min(r["mb_s"] for r in good), max(r["mb_s"] for r in good)],
            "seconds": med(r["seconds"] for r in good),
            "client_cpu": med(r["client_cpu"] for r in good),
            "server_cpu": med(r.get("server_cpu", float("nan")) for r in good),
            "client_growth": max(r["client_growth"] for r in good),
            "server_growth": max(r["server_growth"] for r in good),
            "verified": all(r.get("verified", True) for r in good)}


def _default_dir(size: int, drivers: int = 2) -> str | None:
    """/dev/shm when it has room for the source file, every driver's object and value, the
    primed free space and the WAL (the figures then measure drivers, protocol and server, not
    this machine's disk); else the temp dir."""
    shm = "/dev/shm"
    if os.path.isdir(shm) and shutil.disk_usage(shm).free > (3 + 3 * drivers) * size:
        return shm
    return None


def report(results: dict[str, Any]) -> str:
    size = results["size"]
    db = "logged" if results.get("logging", "log") == "log" else "unlogged"
    load = results.get("load", {})
    rounds = results.get("repeat", 1)
    lines = [f"### Large objects: {size / MIB:.0f} MiB per transfer ({db} database, data in "
             f"{results.get('data_dir')}), {rounds} round(s), drivers interleaved", "",
             f"Load average {load.get('start', '?')} at the start, {load.get('end', '?')} at the "
             f"end, median {load.get('median', '?')} at the transfers: wall-clock MB/s is only "
             "as good as the machine was quiet; CPU seconds are each process's own. Figures "
             "are medians over the rounds (MB/s range in brackets); memory growth is the "
             "largest seen.", "",
             "| driver | transfer | MB/s | client CPU s | server CPU s | client peak RSS growth |"
             " server peak RSS growth | check |", "|---|---|---:|---:|---:|---:|---:|---|"]
    for driver, per in results["drivers"].items():
        for name, res in per.items():
            if not res.get("ok"):
                lines.append(f"| {driver} | {name} | failed: {res.get('error')} | | | | | |")
                continue
            checks = [] if res.get("verified", True) else ["DATA DIFFERS"]
            if driver == "ifxwire":
                checks.append("client ok" if res["client_growth"] <= GOAL_CLIENT_MB * 1e6
                              else f"client > {GOAL_CLIENT_MB} MB")
                checks.append("server ok" if res["server_growth"] <= GOAL_SERVER_MB * 1e6
                              else f"server > {GOAL_SERVER_MB} MB")
            lo, hi = res.get("mb_s_range", [res["mb_s"], res["mb_s"]])
            spread = f" ({lo:.0f}–{hi:.0f})" if rounds > 1 else ""
            lines.append(
                f"| {driver} | {name} | {res['mb_s']:.1f}{spread} | {res['client_cpu']:.2f} | "
                f"{res.get('server_cpu', float('nan')):.2f} | {res['client_growth'] / 1e6:.1f} MB"
                f" | {res['server_growth'] / 1e6:.1f} MB | {' '.join(checks)} |")
    ours = results["drivers"].get("ifxwire", {})
    theirs = results["drivers"].get("informix-driver", {})
    if ours and theirs:
        lines += ["", "| transfer | MB/s ratio (ifxwire / informix-driver) | per round | "
                  "client CPU ratio (informix-driver / ifxwire) |", "|---|---:|---|---:|"]
        for name, res in ours.items():
            other = theirs.get(name, {})
            if res.get("ok") and other.get("ok"):
                ratio = res["mb_s"] / other["mb_s"]
                mark = "" if ratio >= GOAL_RATIO else f" (goal {GOAL_RATIO:.0f}x)"
                per_round = ", ".join(
                    f"{a['mb_s'] / b['mb_s']:.2f}" for a, b in
                    zip(res.get("runs", [res]), other.get("runs", [other]), strict=False)
                    if a.get("ok") and b.get("ok"))
                cpu = other["client_cpu"] / max(res["client_cpu"], 1e-9)
                lines.append(f"| {name} | {ratio:.2f}x{mark} | {per_round} | {cpu:.1f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/lob_bench.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--smoke", action="store_true", help="32 MiB per transfer")
    p.add_argument("--size-mb", type=int, default=1024, help="MiB per transfer (default 1024)")
    p.add_argument("--drivers", nargs="+", choices=DRIVERS, default=list(DRIVERS))
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    p.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    p.add_argument("--logging", choices=("log", "none"), default="log",
                   help="the database's logging: WITH LOG (default; a commit is flushed to "
                   "disk) or none")
    p.add_argument("--data-dir", help="where the server's files and the source file go "
                   "(default: /dev/shm when it has room, else the temp directory)")
    p.add_argument("--profile", metavar="FILE", help="profile the server's sessions into FILE")
    p.add_argument("--repeat", type=int, help="rounds of every transfer, medians reported "
                   "(default 3; 1 with --smoke)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--driver", help=argparse.SUPPRESS)
    p.add_argument("--kind", help=argparse.SUPPRESS)
    p.add_argument("--direction", help=argparse.SUPPRESS)
    p.add_argument("--file", help=argparse.SUPPRESS)
    p.add_argument("--row", type=int, help=argparse.SUPPRESS)
    p.add_argument("--host", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        return worker(args)
    drivers = list(args.drivers)
    with contextlib.suppress(ImportError):
        import informix_db  # noqa: F401
    if "informix-driver" in drivers and "informix_db" not in sys.modules:
        log("informix-driver is not installed: ifxwire only")
        drivers.remove("informix-driver")
    size = (32 if args.smoke else args.size_mb) * MIB
    repeat = args.repeat or (1 if args.smoke else 3)
    results = run(size, drivers, Path(args.out), args.profile, tuple(args.kinds), args.logging,
                  args.data_dir, max(repeat, 1))
    print(results["report"])
    failed = any(not r.get("ok") or not r.get("verified", True)
                 for per in results["drivers"].values() for r in per.values())
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
