"""The scenario catalogue: names (informix-driver's benchmark names), SQL, sizes and rounds.

Every driver runs the same SQL. A scenario's ``kind`` picks the body the workers run:

query       ``inner`` times: execute(sql, params) + fetchall() on a fresh cursor
latency     ``inner`` single queries, each timed on its own (p50 / p99)
insert      ``inner`` single-row INSERTs, autocommit
executemany one executemany of ``rows`` generated rows, then commit() unless autocommit
connect     ``inner`` times: connect + close
pool        ``inner`` times: pool acquire + query + release
concurrent  ``threads`` threads, one connection each, ``inner`` queries per round in total
swarm       ``threads`` connections (threads, or asyncio tasks when ``aio``), ``inner`` queries
            per round in total, each query timed: throughput and p50 / p99 latency
stream      iterate ``rows`` rows without keeping them; peak RSS growth (fresh process), stopped
            at ``limit_mb`` of growth when set (a driver that materialises the whole result);
            ``grow``: a smaller recorded result served until it carries ``rows`` rows
codec       codec micro-benchmarks (Python drivers only)

``replay`` scenarios are served by the replay server (bench/replay.py) after one recorded live
pass, so their figures measure the client; the others run against the live server and report
the server's share of the wall time.

Every Python worker also measures the *floor* of the read and write scenarios (bench/floor.py):
``pickle.loads`` of the rows the driver returned, ``pickle.dumps`` of the rows it was given.
"""

from __future__ import annotations

import datetime
import fnmatch
from dataclasses import dataclass, field, replace
from decimal import Decimal

DATABASE = "bench"
ALPHA = "abcdefghijklmnopqrstuvwxyz"

SELECT_COLUMNS = "a INT, b VARCHAR(64), c INT, d FLOAT, e VARCHAR(32)"
TYPE_MIX_COLUMNS = "i INT, v VARCHAR(64), m DECIMAL(12,2), dt DATE, f FLOAT, s SMALLINT"
INSERT_SQL = "INSERT INTO bench_ins VALUES (?, ?, ?, ?, ?)"
SELECT_ONE_SQL = "SELECT 1 FROM systables WHERE tabid = 1"
SCALING_SIZES = (1000, 10000, 100000, 1000000)
WIDE_SIZES = (5, 20, 50, 100)


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: str
    group: str
    sql: str = ""
    params: tuple[int, ...] = ()
    rows: int = 0
    inner: int = 1
    rounds: int = 5
    warmup: int = 1
    replay: bool = True
    autocommit: bool = True
    threads: int = 0
    #: swarm: asyncio tasks on one event loop instead of threads.
    aio: bool = False
    #: stream: stop the driver once its RSS has grown this much (0: never).
    limit_mb: int = 0
    #: stream (replay): serve the recorded result's fetch replies again until ``rows`` rows
    #: (bench/replay.py, Key.start_grown).
    grow: bool = False
    #: stream: Python drivers read the result as Arrow record batches
    #: (``Cursor.fetch_record_batch``, issue 25) instead of rows; drivers without an Arrow
    #: API report "unsupported"; JDBC reads the same rows through its ResultSet.
    arrow: bool = False
    #: Table emptied (untimed) before each round of a write scenario.
    table: str = ""
    #: Included in ``--smoke`` (with ``smoke_inner`` / ``smoke_rows`` when set).
    smoke: bool = False
    smoke_inner: int = 0
    smoke_rows: int = 0
    smoke_threads: int = 0
    #: The table that replaces bench_select_1m in --smoke when ``smoke_rows`` is set.
    smoke_table: str = "bench_select_1k"
    note: str = ""
    #: Drivers this scenario cannot run for, with the reason (filled at run time).
    skip: dict[str, str] = field(default_factory=dict)

    @property
    def per_op(self) -> bool:
        """Report per-operation time (wall / inner) rather than per round."""
        return self.inner > 1

    def for_smoke(self) -> Scenario:
        return replace(
            self,
            inner=self.smoke_inner or min(self.inner, 20),
            rows=self.smoke_rows or self.rows,
            threads=self.smoke_threads or self.threads,
            rounds=min(self.rounds, 2),
            warmup=min(self.warmup, 1),
            sql=self.sql.replace("bench_select_1m", self.smoke_table)
            if self.smoke_rows
            else self.sql,
        )


def row5(i: int) -> tuple[int, str, int, float, str]:
    """One row of the 5-column select/insert shape (BenchJdbc.row5 builds the same)."""
    return (
        i,
        f"name{i:07d}{ALPHA[: i % 27]}",
        (i * 7919) % 100003,
        i * 0.25,
        f"e{i % 997:03d}{ALPHA[: i % 13]}",
    )


def type_mix_row(i: int) -> tuple[int, str, Decimal, datetime.date, float, int]:
    return (
        i,
        f"item {i} {ALPHA[: i % 20]}",
        Decimal(i * 317) / 100,
        datetime.date(2000, 1, 1) + datetime.timedelta(days=i),
        i / 7,
        i % 32000,
    )


def _scaling_table(n: int) -> str:
    return {1000: "bench_select_1k", 10000: "bench_select_10k", 100000: "bench_select_100k"}.get(
        n, "bench_select_1m"
    )


def catalogue() -> list[Scenario]:
    """Every scenario, in report order, with full-run rounds (docs/BENCHMARKS.md: run time)."""
    s: list[Scenario] = [
        Scenario(
            "select_one_row",
            "query",
            "select",
            SELECT_ONE_SQL,
            rows=1,
            inner=200,
            rounds=25,
            smoke=True,
            smoke_inner=20,
        ),
        Scenario(
            "select_systables_first_10",
            "query",
            "select",
            "SELECT FIRST 10 * FROM systables",
            rows=10,
            inner=100,
            rounds=25,
            smoke=True,
        ),
        Scenario(
            "select_with_param",
            "query",
            "select",
            "SELECT tabid, tabname FROM systables WHERE tabid = ?",
            params=(1,),
            rows=1,
            inner=200,
            rounds=25,
            smoke=True,
        ),
    ]
    for n, inner, rounds in ((1000, 10, 25), (10000, 2, 20), (100000, 1, 15), (1000000, 1, 3)):
        s.append(
            Scenario(
                f"select_scaling[{n}]",
                "query",
                "scaling",
                f"SELECT * FROM {_scaling_table(n)}",
                rows=n,
                inner=inner,
                rounds=rounds,
                # The two recorded live rounds already warmed every path for 1M rows.
                warmup=0 if n >= 1000000 else 1,
                smoke=n == 1000,
                smoke_inner=2,
            )
        )
    for w in WIDE_SIZES:
        s.append(
            Scenario(
                f"wide_row_select[{w}]",
                "query",
                "wide",
                f"SELECT * FROM bench_wide_{w}",
                rows=1000,
                inner=2,
                rounds=20,
                smoke=w == 20,
                smoke_inner=1,
            )
        )
    s += [
        Scenario(
            "select_type_mix_1000_rows",
            "query",
            "wide",
            "SELECT * FROM bench_type_mix",
            rows=1000,
            inner=4,
            rounds=20,
            smoke=True,
            smoke_inner=1,
        ),
        Scenario(
            "insert_single_row",
            "insert",
            "write",
            INSERT_SQL,
            inner=50,
            rounds=15,
            replay=False,
            table="bench_ins",
            smoke=True,
            smoke_inner=10,
        ),
    ]
    for n, rounds in ((1000, 15), (10000, 8), (100000, 5)):
        s.append(
            Scenario(
                f"executemany_scaling[{n}]",
                "executemany",
                "write",
                INSERT_SQL,
                rows=n,
                rounds=rounds,
                replay=False,
                autocommit=False,
                table="bench_ins",
                smoke=n == 1000,
                note="in a transaction, commit included",
            )
        )
    s += [
        Scenario(
            "executemany_1000_rows",
            "executemany",
            "write",
            INSERT_SQL,
            rows=1000,
            rounds=8,
            replay=False,
            autocommit=True,
            table="bench_ins",
            note="autocommit",
        ),
        Scenario(
            "cold_connect_disconnect",
            "connect",
            "connect",
            rows=0,
            inner=20,
            rounds=20,
            smoke=True,
            smoke_inner=3,
        ),
        Scenario(
            "cold_connect_disconnect_live",
            "connect",
            "connect",
            rows=0,
            inner=20,
            rounds=20,
            replay=False,
            note="live: the server opens and resets a session per connect (its CPU in the share)",
        ),
        Scenario(
            "pool_acquire_query_release",
            "pool",
            "connect",
            SELECT_ONE_SQL,
            rows=1,
            inner=200,
            rounds=15,
            smoke=True,
        ),
    ]
    for t in (2, 4, 8):
        s.append(
            Scenario(
                f"concurrent_pool_throughput[{t}]",
                "concurrent",
                "concurrency",
                SELECT_ONE_SQL,
                rows=1,
                inner=800,
                rounds=10,
                threads=t,
                smoke=t == 2,
                smoke_inner=40,
                note="one connection per thread; inner = queries per round over all threads",
            )
        )
    s += [
        Scenario(
            "select_1_latency_percentiles",
            "latency",
            "latency",
            SELECT_ONE_SQL,
            rows=1,
            inner=1000,
            rounds=5,
            smoke=True,
            smoke_inner=50,
        ),
        Scenario(
            "streaming_fetch_memory[1000000]",
            "stream",
            "memory",
            "SELECT * FROM bench_select_1m",
            rows=1000000,
            rounds=2,
            warmup=0,
            smoke=True,
            smoke_rows=1000,
            note="fresh process per driver; peak RSS growth while iterating",
        ),
        # ---- scale (issue 16; tiny sizes in --smoke)
        Scenario(
            "streaming_fetch_memory[10000000]",
            "stream",
            "scale",
            "SELECT * FROM bench_select_1m",
            rows=10000000,
            rounds=1,
            warmup=0,
            grow=True,
            limit_mb=1024,
            smoke=True,
            smoke_rows=30000,
            # Grown from 10k rows: a 1k-row result fits in too few fetch replies to repeat.
            smoke_table="bench_select_10k",
            note="the 1M-row recording with its fetch replies served until 10M rows; fresh "
            "process per driver; stopped at 1 GiB of RSS growth",
        ),
        Scenario(
            "arrow_record_batch_memory[10000000]",
            "stream",
            "scale",
            "SELECT * FROM bench_select_1m",
            rows=10000000,
            rounds=1,
            warmup=0,
            grow=True,
            arrow=True,
            limit_mb=1024,
            smoke=True,
            smoke_rows=30000,
            smoke_table="bench_select_10k",
            note="issue 25: fetch_record_batch over the grown 1M-row recording (10M rows), "
            "peak RSS growth; JDBC reads the same rows with ResultSet.next(); fresh process "
            "per driver",
        ),
    ]
    for aio in (False, True):
        s.append(
            Scenario(
                "concurrent_connections_asyncio[200]" if aio else "concurrent_connections[200]",
                "swarm",
                "scale",
                SELECT_ONE_SQL,
                rows=1,
                inner=4000,
                rounds=5,
                threads=200,
                aio=aio,
                replay=False,
                smoke=True,
                smoke_inner=40,
                smoke_threads=8,
                note="live; 200 connections, 20 queries each per round, every query timed",
            )
        )
    s += [
        Scenario("codec", "codec", "codec", rounds=9, warmup=1, replay=False, smoke=True),
    ]
    return s


def select(patterns: list[str] | None, smoke: bool) -> list[Scenario]:
    """Scenarios matching any of ``patterns`` (fnmatch; bare names match exactly too)."""
    chosen = []
    for sc in catalogue():
        if smoke and not sc.smoke:
            continue
        if patterns and not any(
            sc.name == p or fnmatch.fnmatchcase(sc.name, p) or sc.name.startswith(p + "[")
            for p in patterns
        ):
            continue
        chosen.append(sc.for_smoke() if smoke else sc)
    return chosen
