"""IBM JDBC beside the Arrow benches (issue 25: "IBM JDBC reading the same rows (Spark's path)
reported beside").

The Arrow benches (bench/arrow_bench.py, bench/arrow_partition_bench.py) run in Python and
time ifxwire in their own process; IBM JDBC cannot run there. This starts the JVM worker that
bench/run.py uses (bench/jdbc/BenchJdbc.java, compiled against the cached jar by
``run.jdbc_classpath``) and drives it with the same line protocol, so the JDBC figures come
from the same server, the same rows and the same run.

What is timed, and why so:

* **JVM start apart.** Starting the JVM, loading the driver class and answering ``hello`` is
  reported on its own (wall, and the JVM's CPU from /proc at that moment): a Spark executor
  pays it once per process, not per query, and it would otherwise swamp a 100k-row read.
  The first connection (``setup``) is not timed either, as ifxwire's connect is not.
* **Client CPU of the whole JVM** for each read (BenchJdbc sums every thread's
  /proc/self/task/*/schedstat: JIT and GC threads count, as they do for a real application),
  against ifxwire's client CPU in the same bench. The first read after setup (``first``) pays
  class loading and the JIT compiling the read loop; the best of the following reads is the
  warm figure, as ifxwire's best-of-the-repeats is.

Reads are ``kind=columns`` (every row through the typed getter of its column's
``java.sql.Types`` into column arrays: Spark's ``JdbcUtils`` getters, held as
``fetch_arrow_table`` holds columns) and ``kind=query`` (``getObject`` into a row array, what
a plain JDBC application does; BenchJdbc's ``fetchAll``).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Mapping
from typing import Any

from bench import lineproto, procstat
from bench import run as bench_run


class JdbcUnavailable(RuntimeError):
    """No JDK or no cached jar: the bench reports the reason instead of JDBC's figures."""


class JdbcSide:
    """One BenchJdbc JVM, started now (its start measured apart)."""

    def __init__(self, stderr: Any = subprocess.DEVNULL) -> None:
        cp, note = bench_run.jdbc_classpath(_Log())
        if cp is None:
            raise JdbcUnavailable(note)
        t0 = time.perf_counter()
        self.proc = bench_run.start_worker("jdbc", cp, stderr)
        hello = self.proc.call("hello", timeout=120)
        self.start_wall = time.perf_counter() - t0
        self.start_cpu = procstat.process_cpu(self.proc.pid)
        if not hello.get("ok"):
            self.close()
            raise JdbcUnavailable(str(hello.get("error")))
        self.version = str(hello.get("version", "?"))
        self.java = str(hello.get("java", "?"))

    def reads(self, fields: Mapping[str, Any], repeat: int,
              rows: int | None = None) -> dict[str, Any]:
        """``setup`` with ``fields``, one first read, then ``repeat`` reads: the first read's
        wall and CPU, and the best (least CPU) of the others with its wall."""
        reply = self.proc.call(lineproto.encode("setup", **fields), timeout=600)
        if not reply.get("ok"):
            raise RuntimeError(f"BenchJdbc setup {fields.get('kind')}: {reply}")
        try:
            first = self._round(rows)
            best: dict[str, Any] | None = None
            for _ in range(repeat):
                r = self._round(rows)
                if best is None or r["cpu"] < best["cpu"]:
                    best = r
            assert best is not None
            return {"first_cpu": first["cpu"], "first_wall": first["wall"],
                    "cpu": best["cpu"], "wall": best["wall"]}
        finally:
            self.proc.call("teardown", timeout=60)

    def round_once(self, fields: Mapping[str, Any], rows: int | None = None) -> dict[str, Any]:
        """``setup``, one read (wall, cpu), ``teardown``: for benches that interleave their
        configurations read by read."""
        reply = self.proc.call(lineproto.encode("setup", **fields), timeout=600)
        if not reply.get("ok"):
            raise RuntimeError(f"BenchJdbc setup {fields.get('kind')}: {reply}")
        try:
            return self._round(rows)
        finally:
            self.proc.call("teardown", timeout=60)

    def _round(self, rows: int | None) -> dict[str, Any]:
        r = self.proc.call("round", timeout=3600)
        if not r.get("ok"):
            raise RuntimeError(f"BenchJdbc round: {r.get('error')}")
        if rows is not None and int(r.get("rows", -1)) != rows:
            raise RuntimeError(f"BenchJdbc read {r.get('rows')} rows, not {rows}")
        return {"cpu": float(r["cpu"]), "wall": float(r["wall"])}

    @property
    def start(self) -> dict[str, Any]:
        return {"wall": self.start_wall, "cpu": self.start_cpu, "version": self.version,
                "java": self.java}

    def close(self) -> None:
        self.proc.close()


class _Log:
    """``jdbc_classpath`` writes javac's output to a log file; here it is dropped (the
    reason comes back as the note)."""

    def write(self, text: str) -> int:
        return len(text)
