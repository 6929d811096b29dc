"""Peak RSS growth of ``fetch_record_batch`` over BYTE, TEXT, BLOB and CLOB values (issue 25:
"BYTE/TEXT/BLOB/CLOB -> large_binary/large_string, read in bounded memory per batch").

For each kind, one ifxwire-server (its own process) holds a table ``(a INTEGER, v <kind>)`` of
``--rows`` rows of ``--size`` bytes each (32 rows inserted, then doubled inside the server).
Each configuration then streams the whole table in a fresh client process (so its RSS baseline
is its own): ifxwire and pyarrow imported and one 3-row stream read first (the Arrow path's
imports and pyarrow's first use are not the stream's), ``gc.collect()``, the peak RSS reset
(/proc/self/clear_refs), ``execute`` and every batch read and dropped. Reported: the peak RSS
growth over the baseline after the first quarter of the rows and after all of them (a stream
in bounded memory grows no further after its first batches), the largest batch, the wall.

Configurations (``--configs``):

* ``batch``: ``fetch_record_batch(rows_per_batch=R)`` with ``cursor.blob_stream = True`` set
  before ``execute`` (the first reply arrives with OPEN, before the Arrow call);
* ``batch-eager``: the same without ``blob_stream`` before ``execute``: the first reply's
  BYTE/TEXT values are read whole at ``execute``, as ``fetchall`` reads them;
* ``reply``: ``fetch_record_batch()`` (one batch a fetch reply).

``--fetch-buffer-size`` sets the connection's fetch size (64 KiB by default). Our server counts
BYTE/TEXT bytes against it (a reply of 64 KiB values holds one row); IBM's server sends the
56-byte descriptors only, so its replies hold ~1000 rows of them: ``--fetch-buffer-size
16777216`` makes ours send 256 rows of 64 KiB values a reply, which is what a real server's
reply of descriptors comes to for the client. BLOB/CLOB rows carry 72-byte locators: ~400 a
reply at 64 KiB, with either server.

    python bench/arrow_lob_memory.py [--rows 20000] [--size 65536] [--rows-per-batch 64]
        [--kinds TEXT BYTE CLOB BLOB] [--configs batch batch-eager reply]
        [--fetch-buffer-size N] [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MB = 2**20
KINDS = ("TEXT", "BYTE", "CLOB", "BLOB")
CONFIGS = ("batch", "batch-eager", "reply")


def _kw(host: str, port: int) -> dict[str, Any]:
    return {"host": host, "port": port, "user": "informix", "password": "in4mix"}


def _load(host: str, port: int, kind: str, rows: int, size: int) -> float:
    import ifxwire

    t0 = time.perf_counter()
    with ifxwire.connect(**_kw(host, port), autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE bench_lobmem")
    with ifxwire.connect(**_kw(host, port), database="bench_lobmem") as c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE t_lob (a INTEGER, v {kind})")
        seed = min(rows, 32)
        for i in range(seed):  # (one execute a row: executemany of BLOB/CLOB fails, -9810)
            head = f"{i:08d}"
            text = head + "x" * (size - len(head))
            cur.execute("INSERT INTO t_lob VALUES (?, ?)",
                        (i, text if kind in ("TEXT", "CLOB") else text.encode()))
        have = seed
        while have < rows:
            take = min(have, rows - have)
            cur.execute(f"INSERT INTO t_lob SELECT a + {have}, v FROM t_lob WHERE a < {take}")
            have += take
        c.commit()
    return time.perf_counter() - t0


def _stream(host: str, port: int, rows: int, config: str, rows_per_batch: int,
            fetch_buffer_size: int) -> dict[str, Any]:
    """One configuration in this (fresh) process: see the module's docstring."""
    import gc

    import pyarrow  # noqa: F401  (loaded before the baseline, as an Arrow user has it)

    import ifxwire
    from bench import procstat

    conn = ifxwire.connect(**_kw(host, port), database="bench_lobmem",
                           fetch_buffer_size=fetch_buffer_size)
    cur = conn.cursor()
    cur.execute("SELECT a, v FROM t_lob WHERE a < 3")
    for _ in cur.fetch_record_batch(2):
        pass
    gc.collect()
    base = procstat.rss_bytes()
    reset = procstat.reset_peak_rss()
    t0 = time.perf_counter()
    cur.blob_stream = config == "batch"
    cur.execute("SELECT a, v FROM t_lob")
    seen, largest, quarter = 0, 0, None
    for batch in cur.fetch_record_batch(None if config == "reply" else rows_per_batch):
        seen += batch.num_rows
        largest = max(largest, batch.num_rows)
        del batch
        if quarter is None and seen >= rows // 4:
            quarter = procstat.peak_rss_bytes()
    wall = time.perf_counter() - t0
    peak = procstat.peak_rss_bytes()
    conn.close()
    if seen != rows:
        raise RuntimeError(f"streamed {seen} rows, not {rows}")
    ok = reset and base is not None and peak is not None
    return {"config": config, "rows": seen, "largest_batch": largest, "wall": wall,
            "growth_quarter": (quarter - base) if ok and quarter is not None else None,
            "growth": (peak - base) if ok else None}


def run(rows: int, size: int, rows_per_batch: int, kinds: list[str], configs: list[str],
        fetch_buffer_size: int) -> dict[str, Any]:
    from bench import run as bench_run

    out: dict[str, Any] = {"rows": rows, "size": size, "rows_per_batch": rows_per_batch,
                           "fetch_buffer_size": fetch_buffer_size, "cpus": os.cpu_count(),
                           "loadavg": os.getloadavg(), "kinds": {}}
    for kind in kinds:
        with tempfile.TemporaryDirectory(prefix="ifxwire-lobmem-") as data:
            srv = bench_run.ServerProcess(Path(data), subprocess.DEVNULL)
            try:
                res: dict[str, Any] = {"load_s": _load(srv.host, srv.port, kind, rows, size)}
                for config in configs:
                    proc = subprocess.run(
                        [sys.executable, __file__, "--worker", "--host", srv.host,
                         "--port", str(srv.port), "--rows", str(rows), "--config", config,
                         "--rows-per-batch", str(rows_per_batch),
                         "--fetch-buffer-size", str(fetch_buffer_size)],
                        capture_output=True, text=True, cwd=ROOT, timeout=3600,
                        env=bench_run.child_env())
                    if proc.returncode != 0:
                        raise RuntimeError(f"{kind} {config}: {proc.stderr[-3000:]}")
                    res[config] = json.loads(proc.stdout.strip().splitlines()[-1])
                out["kinds"][kind] = res
            finally:
                srv.stop()
    out["loadavg_after"] = os.getloadavg()
    return out


def report(r: dict[str, Any]) -> str:
    def mb(v: int | None) -> str:
        return "–" if v is None else f"{v / MB:.1f} MB"

    lines = [
        f"## fetch_record_batch over LOB values: {r['rows']} rows of {r['size']} bytes, "
        f"rows_per_batch={r['rows_per_batch']}, fetch_buffer_size={r['fetch_buffer_size']}",
        "",
        f"{r['cpus']} CPUs, load average {r['loadavg'][0]:.1f} before / "
        f"{r['loadavg_after'][0]:.1f} after. Peak RSS growth of a fresh client process over "
        "its baseline (pyarrow loaded, one small stream read first).",
        "",
        "| kind | configuration | largest batch | growth after 1/4 of the rows | "
        "growth after all | wall | MB/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, res in r["kinds"].items():
        for config in CONFIGS:
            v = res.get(config)
            if v is None:
                continue
            rate = r["rows"] * r["size"] / 1e6 / v["wall"]
            lines.append(f"| {kind} | {config} | {v['largest_batch']} | "
                         f"{mb(v['growth_quarter'])} | {mb(v['growth'])} | {v['wall']:.2f} s | "
                         f"{rate:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/arrow_lob_memory.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=20_000)
    p.add_argument("--size", type=int, default=65536, help="bytes of each value")
    p.add_argument("--rows-per-batch", type=int, default=64)
    p.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    p.add_argument("--configs", nargs="+", choices=CONFIGS, default=list(CONFIGS))
    p.add_argument("--fetch-buffer-size", type=int, default=65536)
    p.add_argument("--out", help="also write the figures as JSON here")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--host", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--config", choices=CONFIGS, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(_stream(args.host, args.port, args.rows, args.config,
                                 args.rows_per_batch, args.fetch_buffer_size)))
        return 0
    r = run(args.rows, args.size, args.rows_per_batch, args.kinds, args.configs,
            args.fetch_buffer_size)
    if args.out:
        Path(args.out).write_text(json.dumps(r, indent=1) + "\n")
    print(report(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
