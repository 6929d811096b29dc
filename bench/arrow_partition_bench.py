"""``ifxwire.arrow.read_partitioned`` wall time: N partitions vs 1 (issue 25).

One ifxwire-server loads a table of N rows (INTEGER, VARCHAR(20), DECIMAL(12,2), DATE, FLOAT;
by doubling inside the server, as bench/fixtures.py does) into a data directory and stops;
then ``--servers`` server processes open that same directory (replicas of one database,
each its own process, so the server side can scale past one Python interpreter). Each
configuration reads the whole table ``--repeat`` times into one ``pyarrow.Table``
(``reader.read_all()``) and keeps the best wall time, with the client process's CPU time of
that run (after one untimed warm-up read per configuration):

* ``1 partition``: one connection (the baseline);
* ``P partitions, 1 server``: P connections to the first server;
* ``P partitions, S servers``: P connections spread over the S processes.

Then the same reads against the replay server (bench/replay.py, issue 25's alternative to
4 server processes), so the figures measure the client and the wire rather than the embedded
server's scans (pure Python over SQLite, ~5 µs of its CPU a row):

* ``--servers`` replay processes start, each forwarding to one of the live servers. The
  1-partition read is recorded once through the first of them (its connection: login, the
  MIN/MAX, the whole SELECT, the close); the P-partition read is recorded once with slice i's
  connection going through replay process i (``read_partitioned`` puts slice i on
  ``dsn[i % len(dsn)]``; slice 0's connection also carries the MIN/MAX). A replay process
  records the first connection of a key, so each slice's conversation (its own statement,
  its own range) is recorded once, from the real server.
* Each recording is then served by its own process: ``1 partition (replay)`` reads its own
  recording, ``P partitions (replay, S processes)`` reads the P recordings in parallel. Every
  read checks the row count, and the replay processes' counters (length mismatches, turns
  exhausted, errors) are printed: a replay that does not fit cannot pass unnoticed.

Server CPU is the serving processes' CPU (``/proc``) during the measured read: the sum over
the ifxwire-server processes, or over the replay processes.

Not a test: nothing asserts the ratio; the report states it. On a machine with fewer cores
than servers + 1 the servers compete with each other and with the client for CPU, which the
report prints (``os.cpu_count()`` and the load average) beside the figures.

``--jdbc`` (live mode): IBM JDBC 15.0.0.1 reads the same ranges beside, as Spark's JDBC
source reads a table with ``partitionColumn``, ``lowerBound``, ``upperBound`` and
``numPartitions`` (https://spark.apache.org/docs/latest/sql-data-sources-jdbc.html: one query
per partition, each with its own range of the column, read in parallel, at most
``numPartitions`` concurrent connections). Spark's own WHERE clauses (``JDBCRelation.
columnPartition``: the first partition ``col < b1 OR col IS NULL``, then ``col >= bi AND col <
bi+1``, the last ``col >= bN-1``) are the ones ``read_partitioned`` sends, so JDBC gets
``read_partitioned``'s exact statements and cut points (``arrowpart._bounds`` of the column's
MIN and MAX, which Spark takes from the user instead of a query). Each slice is read by a
thread of its own on a connection of its own (BenchJdbc's ``partitioned`` kind, typed getters
into column arrays: bench/jdbc_side.py); the JVM is started once, apart, and its reads join
the same interleaved rounds as ifxwire's. Its client CPU is the whole JVM's.

    python -m bench.arrow_partition_bench [--rows N] [--partitions P] [--servers S]
        [--repeat K] [--mode live|replay|both] [--index] [--jdbc]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLUMNS = "a INTEGER, b VARCHAR(20), c DECIMAL(12,2), d DATE, e FLOAT"


def _load(host: str, port: int, rows: int, index: bool) -> None:
    import datetime as dt
    from decimal import Decimal

    import ifxwire

    kw = {"host": host, "port": port, "user": "informix", "password": "in4mix"}
    with ifxwire.connect(**kw, autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_part")
    with ifxwire.connect(**kw, database="bench_part", autocommit=True) as c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE t_part ({COLUMNS})")
        seed = min(rows, 1000)
        day = dt.date(2000, 1, 1)
        cur.executemany("INSERT INTO t_part VALUES (?, ?, ?, ?, ?)",
                        [(i, f"name {i}", Decimal(i) / 100, day + dt.timedelta(days=i % 9000),
                          i / 7) for i in range(seed)])
        have = seed
        while have < rows:
            take = min(have, rows - have)
            cur.execute(f"INSERT INTO t_part SELECT a + {have}, b, c, d, e + {have} "
                        f"FROM t_part WHERE a < {take}")
            have += take
        if index:
            cur.execute("CREATE INDEX t_part_a ON t_part (a)")


def _dsn(host: str, port: int) -> dict[str, Any]:
    return {"host": host, "port": port, "user": "informix", "password": "in4mix",
            "database": "bench_part"}


def _read(dsns: list[dict[str, Any]], partitions: int, rows: int) -> tuple[float, float]:
    from ifxwire import arrow

    w0, c0 = time.perf_counter(), time.process_time()
    table = arrow.read_partitioned(dsns, "SELECT * FROM t_part", "a", partitions).read_all()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    assert table.num_rows == rows, table.num_rows
    return wall, cpu


def _cpu(pids: Sequence[int]) -> float:
    from bench.procstat import process_cpu

    return sum(process_cpu(pid) or 0.0 for pid in pids)


#: A configuration: (DSNs, partitions, pids of the processes that serve it).
Config = tuple[list[dict[str, Any]], int, list[int]]


#: A JDBC configuration: (BenchJdbc ``setup`` fields, pids of the processes that serve it).
JdbcConfig = tuple[dict[str, Any], list[int]]


def _best_of(configs: dict[str, Config], rows: int, repeat: int,
             out: dict[str, Any], side: Any = None,
             jdbc: dict[str, JdbcConfig] | None = None) -> None:
    """Best wall of ``repeat`` reads per configuration (interleaved, so a load spike hits
    every one), with the client's CPU and the serving processes' CPU of that read; the JDBC
    configurations (``side``: a bench.jdbc_side.JdbcSide) in the same rounds."""
    jdbc = jdbc or {}
    for targets, n, _ in configs.values():  # warm-up: imports, server page caches
        _read(targets, n, rows)
    for fields, _ in jdbc.values():  # warm-up: the JVM's class loading and JIT
        side.round_once(fields, rows)
    for _ in range(repeat):
        for name, (targets, n, pids) in configs.items():
            s0 = _cpu(pids)
            wall, cpu = _read(targets, n, rows)
            server = _cpu(pids) - s0
            best = out.get(name)
            if best is None or wall < best["wall"]:
                out[name] = {"wall": wall, "client_cpu": cpu, "server_cpu": server}
        for name, (fields, pids) in jdbc.items():
            s0 = _cpu(pids)
            r = side.round_once(fields, rows)
            server = _cpu(pids) - s0
            best = out.get(name)
            if best is None or r["wall"] < best["wall"]:
                out[name] = {"wall": r["wall"], "client_cpu": r["cpu"], "server_cpu": server}


def jdbc_slices(rows: int, partitions: int, dsns: list[dict[str, Any]]) -> dict[str, Any]:
    """BenchJdbc ``partitioned`` setup fields: ``read_partitioned``'s statements and cut
    points for column ``a`` (0 .. rows - 1, as ``_load`` fills it), slice i on ``dsns[i %
    len(dsns)]`` as ``read_partitioned`` places it."""
    from ifxwire.arrowpart import _bounds

    base = "SELECT * FROM (SELECT * FROM t_part) AS ifx_part"
    col = "ifx_part.a"
    if partitions == 1:
        slices: list[tuple[str, list[int]]] = [(base, [])]
    else:
        cuts = _bounds(0, rows - 1, partitions)
        slices = [(f"{base} WHERE {col} < ? OR {col} IS NULL", [cuts[0]])]
        slices += [(f"{base} WHERE {col} >= ? AND {col} < ?", [a, b])
                   for a, b in itertools.pairwise(cuts)]
        slices.append((f"{base} WHERE {col} >= ?", [cuts[-1]]))
    fields: dict[str, Any] = {"kind": "partitioned", "threads": len(slices),
                              "db": "bench_part"}
    for i, (sql, params) in enumerate(slices):
        d = dsns[i % len(dsns)]
        fields.update({f"sql{i}": sql, f"params{i}": params or None,
                       f"host{i}": d["host"], f"port{i}": d["port"]})
    return fields


class _Replay:
    """One bench/replay.py process (JSON lines on stdin/stdout), forwarding to ``upstream``."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        from bench import run as bench_run

        self.proc = bench_run.LineProcess(
            "replay", [sys.executable, "-m", "bench.replay", "--upstream",
                       f"{upstream[0]}:{upstream[1]}"],
            bench_run.child_env(), subprocess.DEVNULL, role="servers")
        self.pid = int(self.proc.read(60)["pid"])

    def call(self, cmd: str, key: str) -> dict[str, Any]:
        reply = self.proc.call(json.dumps({"cmd": cmd, "key": key}), timeout=600)
        if not reply.get("ok"):
            raise RuntimeError(f"replay {cmd} {key}: {reply.get('error')}")
        return reply

    def close(self) -> None:
        self.proc.close(json.dumps({"cmd": "quit"}))


def _recorded(replays: list[_Replay], key: str, read: Callable[[list[dict[str, Any]]], Any],
              ) -> list[dict[str, Any]]:
    """Record ``read`` (given one DSN per replay process) once, then serve each process's
    recording: the DSNs that replay it."""
    ports = [r.call("record", key)["port"] for r in replays]
    read([_dsn("127.0.0.1", port) for port in ports])
    for r in replays:
        r.call("stop_record", key)
    return [_dsn("127.0.0.1", r.call("serve", key)["port"]) for r in replays]


def measure_replay(live: list[dict[str, Any]], rows: int, partitions: int,
                   repeat: int) -> dict[str, Any]:
    """1 partition vs ``partitions`` partitions, each slice's recording replayed by its own
    process (see the module's docstring)."""
    replays = [_Replay((live[i % len(live)]["host"], live[i % len(live)]["port"]))
               for i in range(partitions)]
    try:
        one = _recorded(replays[:1], "one", lambda d: _read(d, 1, rows))
        many = _recorded(replays, "many", lambda d: _read(d, partitions, rows))
        pids = [r.pid for r in replays]
        configs: dict[str, Config] = {
            "1 partition (replay)": (one, 1, pids[:1]),
            f"{partitions} partitions (replay, {partitions} processes)":
                (many, partitions, pids),
        }
        results: dict[str, Any] = {}
        _best_of(configs, rows, repeat, results)
        stats = {f"{key} {i}": replays[i].call("stats", key)
                 for key, count in (("one", 1), ("many", partitions)) for i in range(count)}
        return {"results": results, "stats": stats}
    finally:
        for r in replays:
            r.close()


def measure(rows: int, partitions: int, servers: int, repeat: int, mode: str = "both",
            index: bool = False, jdbc: bool = False) -> dict[str, Any]:
    from bench import run as bench_run

    with tempfile.TemporaryDirectory(prefix="ifxwire-part-") as data:
        srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
        try:
            t0 = time.perf_counter()
            _load(srv.host, srv.port, rows, index)
            load_s = time.perf_counter() - t0
        finally:
            srv.stop()
        procs = [bench_run.ServerProcess(Path(data), subprocess.DEVNULL) for _ in range(servers)]
        try:
            dsns = [_dsn(p.host, p.port) for p in procs]
            pids = [p.pid for p in procs]
            out: dict[str, Any] = {"rows": rows, "partitions": partitions, "servers": servers,
                                   "index": index, "load_s": load_s, "cpus": os.cpu_count(),
                                   "loadavg": os.getloadavg(), "results": {}}
            if mode in ("live", "both"):
                configs: dict[str, Config] = {
                    "1 partition": (dsns[:1], 1, pids[:1]),
                    f"{partitions} partitions, 1 server": (dsns[:1], partitions, pids[:1]),
                    f"{partitions} partitions, {servers} servers": (dsns, partitions, pids),
                }
                side: Any = None
                jconfigs: dict[str, JdbcConfig] = {}
                if jdbc:
                    from bench.jdbc_side import JdbcSide, JdbcUnavailable

                    try:
                        side = JdbcSide()
                        out["jdbc_start"] = side.start
                        jconfigs = {
                            "JDBC 1 partition": (jdbc_slices(rows, 1, dsns[:1]), pids[:1]),
                            f"JDBC {partitions} partitions, 1 server":
                                (jdbc_slices(rows, partitions, dsns[:1]), pids[:1]),
                            f"JDBC {partitions} partitions, {servers} servers":
                                (jdbc_slices(rows, partitions, dsns), pids),
                        }
                    except JdbcUnavailable as exc:
                        out["jdbc_error"] = str(exc)
                try:
                    _best_of(configs, rows, repeat, out["results"], side, jconfigs)
                finally:
                    if side is not None:
                        side.close()
            if mode in ("replay", "both"):
                rep = measure_replay(dsns, rows, partitions, repeat)
                out["results"].update(rep["results"])
                out["replay_stats"] = rep["stats"]
            out["loadavg_after"] = os.getloadavg()
            return out
        finally:
            for p in procs:
                p.stop()


def report(r: dict[str, Any]) -> str:
    res = r["results"]
    lines = [
        f"## read_partitioned, {r['rows']} rows ({COLUMNS})"
        + (", index on a" if r.get("index") else ""),
        "",
        f"{r['cpus']} CPUs, load average {r['loadavg'][0]:.1f} before / "
        f"{r['loadavg_after'][0]:.1f} after; best wall of the repeats.",
        "",
        "| configuration | wall | client CPU | server CPU | speed-up vs 1 partition |",
        "|---|---|---|---|---|",
    ]
    for name, v in res.items():
        base = res["1 partition (replay)" if "replay" in name else
                   "JDBC 1 partition" if name.startswith("JDBC") else "1 partition"]["wall"]
        lines.append(f"| {name} | {v['wall']:.2f} s | {v['client_cpu']:.2f} s | "
                     f"{v['server_cpu']:.2f} s | {base / v['wall']:.2f}× |")
    if "jdbc_error" in r:
        lines += ["", f"IBM JDBC not run: {r['jdbc_error']}"]
    elif "jdbc_start" in r:
        st = r["jdbc_start"]
        lines += ["", f"IBM JDBC {st['version']} (Java {st['java']}), typed getters, one "
                  "thread and connection per slice; client CPU = the JVM's (every thread). "
                  f"JVM start apart: {st['wall'] * 1000:.0f} ms wall"
                  + ("" if st["cpu"] is None else f", {st['cpu'] * 1000:.0f} ms CPU")
                  + "; its warm-up read is not counted.", "",
                  "| configuration | JDBC wall / ifxwire wall | JDBC client CPU / ifxwire's |",
                  "|---|---|---|"]
        for name, v in res.items():
            ours = res.get(name[len("JDBC "):]) if name.startswith("JDBC ") else None
            if ours is not None:
                lines.append(f"| {name[len('JDBC '):]} | {v['wall'] / ours['wall']:.2f}× | "
                             f"{v['client_cpu'] / ours['client_cpu']:.1f}× |")
    stats = r.get("replay_stats")
    if stats:
        bad = {k: v for k, v in stats.items()
               if v["length_mismatch"] or v["exhausted"] or v["errors"]}
        lines += ["", "Replay: " + (f"mismatches {bad}" if bad else
                                    "every recording served whole (no length mismatch, "
                                    "nothing exhausted, no error)")]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--partitions", type=int, default=4)
    p.add_argument("--servers", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--mode", choices=("live", "replay", "both"), default="both",
                   help="real servers, the replay server, or both (default)")
    p.add_argument("--index", action="store_true", help="an index on the partition column")
    p.add_argument("--jdbc", action="store_true",
                   help="IBM JDBC reading the same ranges beside (live mode; Spark's path)")
    p.add_argument("--out", help="also write the figures as JSON here")
    args = p.parse_args(argv)
    r = measure(args.rows, args.partitions, args.servers, args.repeat, args.mode, args.index,
                args.jdbc)
    if args.out:
        Path(args.out).write_text(json.dumps(r, indent=1))
    print(report(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
