"""A benchmark worker: one Python driver in its own process, driven over stdin/stdout.

``python -m bench.worker --driver ifxwire`` (run from the repository root). The orchestrator
sends ``hello``, then per scenario ``setup`` (connect, build parameters: untimed), ``round``
(one timed body) as often as it likes, ``teardown``; finally ``quit``. See bench/lineproto.py.
``capture`` (read scenarios: one untimed operation whose rows are kept, pickled) and ``floor``
(one timed floor round: bench/floor.py) measure the floor next to the driver.

Client CPU is ``time.process_time()`` of this process (all threads; the server runs in another
process, so none of its work is counted); its kernel part and the minor page faults are
reported beside it (bench/kernel.py). Wall time is ``time.perf_counter()``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench import floor, kernel, lineproto, procstat
from bench.drivers import Adapter, DriverUnavailable, load
from bench.scenarios import row5
from bench.swarm import Swarm, Unsupported, latency_summary

Body = Callable[[], dict[str, Any]]


class Worker:
    def __init__(self, adapter: Adapter) -> None:
        self.a = adapter
        self.conns: list[Any] = []
        self.pool: Any = None
        self.body: Body | None = None
        self.swarm: Swarm | None = None
        #: Read scenarios: runs one untimed operation and returns its rows (for the floor).
        self.sample: Callable[[], list[Any]] | None = None
        #: The floor round of the current scenario, once known (bench/floor.py).
        self.floor: Callable[[], dict[str, Any]] | None = None
        self.floor_ops = 1

    # ---------------------------------------------------------------- commands

    def hello(self) -> dict[str, Any]:
        return {
            "ok": True,
            "driver": self.a.name,
            "version": self.a.version,
            "pool": self.a.pool_unavailable(),
            "python": sys.version.split()[0],
        }

    def setup(self, f: dict[str, str]) -> dict[str, Any]:
        self.teardown()
        kind = f["kind"]
        host, port = f.get("host", "127.0.0.1"), int(f.get("port", "0"))
        db = f.get("db") or None
        sql = f.get("sql", "")
        params = [int(p) for p in f.get("params", "").split(",") if p]
        rows = int(f.get("rows", "0"))
        inner = int(f.get("inner", "1"))
        autocommit = f.get("autocommit", "1") == "1"
        threads = int(f.get("threads", "0"))
        a = self.a

        if kind == "codec":
            from bench import codec_bench

            self.body = codec_bench.make_body(a.name, quick=f.get("quick") == "1")
            return {"ok": True}
        if kind == "connect":

            def connect_body() -> dict[str, Any]:
                for _ in range(inner):
                    a.close(a.connect(host, port, db, True))
                return {"ops": inner}

            self.body = connect_body
            return {"ok": True}
        if kind == "pool":
            why = a.pool_unavailable()
            if why is not None:
                return {"ok": False, "unsupported": why}
            pool, acquire, release = a.make_pool(host, port, db, 1)
            self.pool = pool

            def pool_body() -> dict[str, Any]:
                n = 0
                for _ in range(inner):
                    c = acquire()
                    n += a.fetch_all(c, sql, params)
                    release(c)
                return {"ops": inner, "rows": n}

            self.body = pool_body

            def pool_sample() -> list[Any]:
                c = acquire()
                try:
                    return a.fetch_rows(c, sql, params)
                finally:
                    release(c)

            self.sample_reads(pool_sample, inner)
            return {"ok": True}
        if kind == "concurrent":
            self.conns = [a.connect(host, port, db, True) for _ in range(threads)]
            self.body = self._concurrent_body(sql, params, inner, threads)
            first = self.conns[0]
            self.sample_reads(lambda: a.fetch_rows(first, sql, params), inner)
            return {"ok": True}
        if kind == "swarm":
            try:
                self.swarm = Swarm(a, host, port, db, threads, aio=f.get("aio") == "1")
            except Unsupported as exc:
                return {"ok": False, "unsupported": str(exc)}
            self.body = self.swarm.body(sql, params, inner)
            return {"ok": True}

        conn = a.connect(host, port, db, autocommit)
        self.conns = [conn]
        if kind in ("query", "latency"):
            self.sample_reads(lambda: a.fetch_rows(conn, sql, params), inner)
        if kind == "query":

            def query_body() -> dict[str, Any]:
                n = 0
                for _ in range(inner):
                    n += a.fetch_all(conn, sql, params)
                return {"ops": inner, "rows": n}

            self.body = query_body
        elif kind == "latency":

            def latency_body() -> dict[str, Any]:
                lat: list[float] = []
                clock = time.perf_counter
                for _ in range(inner):
                    t0 = clock()
                    a.fetch_all(conn, sql, params)
                    lat.append(clock() - t0)
                return {"ops": inner, **latency_summary(lat)}

            self.body = latency_body
        elif kind == "insert":
            data = [row5(i) for i in range(inner)]

            def insert_body() -> dict[str, Any]:
                for r in data:
                    a.execute(conn, sql, r)
                if not autocommit:
                    a.commit(conn)
                return {"ops": inner}

            self.body = insert_body
            one_each = [[r] for r in data]
            self.floor = lambda: floor.dumps_round(one_each, inner)
        elif kind == "executemany":
            batch = [row5(i) for i in range(rows)]

            def executemany_body() -> dict[str, Any]:
                a.executemany(conn, sql, batch)
                if not autocommit:
                    a.commit(conn)
                return {"ops": 1, "rows": rows}

            self.body = executemany_body
            self.floor = lambda: floor.dumps_round([batch], 1)
        elif kind == "stream":
            limit = int(f.get("limit_mb", "0") or 0) * 2**20
            stream = a.stream
            if f.get("arrow"):
                stream_arrow = getattr(a, "stream_arrow", None)
                if stream_arrow is None:
                    return {"ok": False, "unsupported": "no Arrow fetch API"}
                stream = stream_arrow
                # pyarrow's own import (tens of MB of libraries) is not streaming memory: it
                # is loaded here, before the RSS baseline, as an Arrow user has it loaded.
                importlib.import_module("pyarrow")

            def stream_body() -> dict[str, Any]:
                gc.collect()
                before = procstat.rss_bytes() or 0
                reset = procstat.reset_peak_rss()
                progress = [0]
                stopped = None
                guard = procstat.RssGuard(before, limit)
                try:
                    with guard:
                        try:
                            n = stream(conn, sql, progress)
                        except KeyboardInterrupt:
                            if guard.why is None:
                                raise
                            n, stopped = progress[0], guard.why
                except KeyboardInterrupt:
                    # the guard's own interrupt, raised at __exit__'s entry (before its code
                    # ran): the guard is ended here instead
                    if guard.why is None:
                        raise
                    guard.finish()
                    n, stopped = progress[0], guard.why
                peak = procstat.peak_rss_bytes() or 0
                out: dict[str, Any] = {
                    "ops": 1,
                    "rows": n,
                    "rss_before": before,
                    "peak_rss": peak,
                    "peak_growth": peak - before if reset else None,
                }
                if stopped:
                    out["stopped"] = stopped
                    # The connection is mid-result: drop it rather than close it politely.
                    self.conns = []
                return out

            self.body = stream_body
        else:
            return {"ok": False, "error": f"unknown kind {kind!r}"}
        return {"ok": True}

    def _concurrent_body(self, sql: str, params: list[int], inner: int, threads: int) -> Body:
        a = self.a
        conns = self.conns
        per_thread = max(1, inner // threads)

        def body() -> dict[str, Any]:
            errors: list[BaseException] = []
            counts = [0] * threads

            def run(k: int) -> None:
                try:
                    c = conns[k]
                    for _ in range(per_thread):
                        counts[k] += a.fetch_all(c, sql, params)
                except BaseException as exc:  # reported, not swallowed
                    errors.append(exc)

            ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            if errors:
                raise errors[0]
            return {"ops": per_thread * threads, "rows": sum(counts)}

        return body

    def sample_reads(self, run: Callable[[], list[Any]], ops: int) -> None:
        """Remember how to take one operation's rows; ``capture`` runs it (untimed)."""
        self.sample = run
        self.floor_ops = ops

    def capture(self) -> dict[str, Any]:
        """One more operation, untimed, whose rows become the floor's pickle."""
        if self.sample is None:
            if self.floor is None:
                return {"ok": False, "unsupported": "no floor for this scenario"}
            return {"ok": True}
        rows = self.sample()
        blob = floor.freeze(rows)
        ops = self.floor_ops
        del rows
        self.floor = lambda: floor.loads_round(blob, ops)
        return {"ok": True, "bytes": len(blob)}

    def floor_round(self) -> dict[str, Any]:
        if self.floor is None:
            return {"ok": False, "unsupported": "no floor for this scenario"}
        return self.floor()

    def round(self) -> dict[str, Any]:
        if self.body is None:
            return {"ok": False, "error": "round before setup"}
        gc.collect()
        k0 = kernel.sample()
        c0, t0 = time.process_time(), time.perf_counter()
        extra = self.body()
        t1, c1 = time.perf_counter(), time.process_time()
        return {"ok": True, "wall": t1 - t0, "cpu": c1 - c0, **kernel.since(k0), **extra}

    def teardown(self) -> dict[str, Any]:
        for c in self.conns:
            try:
                self.a.close(c)
            except Exception as exc:  # a failed close must not hide the results
                print(f"worker {self.a.name}: close failed: {exc!r}", file=sys.stderr)
        self.conns = []
        if self.pool is not None:
            try:
                self.a.close_pool(self.pool)
            except Exception as exc:
                print(f"worker {self.a.name}: pool close failed: {exc!r}", file=sys.stderr)
            self.pool = None
        if self.swarm is not None:
            try:
                self.swarm.close()
            except Exception as exc:
                print(f"worker {self.a.name}: swarm close failed: {exc!r}", file=sys.stderr)
            self.swarm = None
        self.body = None
        self.sample = None
        self.floor = None
        return {"ok": True}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--driver", required=True)
    args = p.parse_args(argv)
    out = sys.stdout
    # Keep stray prints (driver warnings) off the protocol channel.
    sys.stdout = sys.stderr

    def reply(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    try:
        worker = Worker(load(args.driver))
    except DriverUnavailable as exc:
        reply({"ok": False, "unavailable": str(exc)})
        return 0
    for line in sys.stdin:
        op, fields = lineproto.decode(line)
        if not op:
            continue
        if op == "quit":
            worker.teardown()
            reply({"ok": True})
            return 0
        try:
            if op == "hello":
                reply(worker.hello())
            elif op == "setup":
                reply(worker.setup(fields))
            elif op == "round":
                reply(worker.round())
            elif op == "capture":
                reply(worker.capture())
            elif op == "floor":
                reply(worker.floor_round())
            elif op == "teardown":
                reply(worker.teardown())
            else:
                reply({"ok": False, "error": f"unknown command {op!r}"})
        except Exception as exc:
            tb = traceback.format_exc(limit=6)
            print(tb, file=sys.stderr)
            reply({"ok": False, "error": f"{type(exc).__name__}: {exc}", "traceback": tb})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
