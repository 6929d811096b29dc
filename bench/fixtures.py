"""The bench database: the tables the chosen scenarios read or write, loaded through the server.

The 1M-row table is built by doubling inside the server (``INSERT ... SELECT``), the smaller
scaling tables are its prefixes; values come from bench/scenarios.py (``row5``,
``type_mix_row``; BenchJdbc builds identical rows for its inserts).
"""

from __future__ import annotations

import time

from bench.scenarios import (
    DATABASE,
    SELECT_COLUMNS,
    TYPE_MIX_COLUMNS,
    Scenario,
    row5,
    type_mix_row,
)


def needed_tables(scenarios: list[Scenario]) -> set[str]:
    names: set[str] = set()
    for sc in scenarios:
        for word in sc.sql.replace(",", " ").split():
            if word.startswith("bench_"):
                names.add(word)
        if sc.table:
            names.add(sc.table)
    return names


def load_fixtures(host: str, port: int, tables: set[str]) -> dict[str, float]:
    """Create the bench database and the tables the chosen scenarios read or write."""
    import ifxwire

    timings: dict[str, float] = {}
    conn = ifxwire.connect(
        host=host, port=port, user="informix", password="in4mix", autocommit=True
    )
    cur = conn.cursor()
    cur.execute(f"CREATE DATABASE {DATABASE} WITH LOG")
    scaling = {
        "bench_select_1k": 1000,
        "bench_select_10k": 10000,
        "bench_select_100k": 100000,
        "bench_select_1m": 1000000,
    }
    want = {t: n for t, n in scaling.items() if t in tables}
    if want:
        t0 = time.perf_counter()
        top = max(want.values())
        cur.execute(f"CREATE TABLE bench_base ({SELECT_COLUMNS})")
        cur.executemany(
            "INSERT INTO bench_base VALUES (?, ?, ?, ?, ?)", [row5(i) for i in range(1000)]
        )
        have = 1000
        while have < top:
            # Doubling inside the server: a few statements instead of a million binds.
            cur.execute(
                f"INSERT INTO bench_base SELECT a + {have}, b, c, d + {have * 0.25}, e "
                f"FROM bench_base WHERE a < {top - have}"
            )
            have = min(2 * have, top)
        for table, n in want.items():
            cur.execute(f"CREATE TABLE {table} ({SELECT_COLUMNS})")
            cur.execute(f"INSERT INTO {table} SELECT * FROM bench_base WHERE a < {n}")
        cur.execute("DROP TABLE bench_base")
        timings["select tables"] = time.perf_counter() - t0
    for table in sorted(tables):
        if table.startswith("bench_wide_"):
            w = int(table.rsplit("_", 1)[1])
            cols = ", ".join(f"c{k} INT" for k in range(1, w + 1))
            cur.execute(f"CREATE TABLE {table} ({cols})")
            marks = ", ".join("?" * w)
            cur.executemany(
                f"INSERT INTO {table} VALUES ({marks})",
                [tuple(i * w + k for k in range(w)) for i in range(1000)],
            )
    if "bench_type_mix" in tables:
        cur.execute(f"CREATE TABLE bench_type_mix ({TYPE_MIX_COLUMNS})")
        cur.executemany(
            "INSERT INTO bench_type_mix VALUES (?, ?, ?, ?, ?, ?)",
            [type_mix_row(i) for i in range(1000)],
        )
    if "bench_ins" in tables:
        cur.execute(f"CREATE TABLE bench_ins ({SELECT_COLUMNS})")
    for table in sorted(t for t in tables if t != "bench_ins"):
        cur.execute(f"SELECT COUNT(*) FROM {table}")
        (count,) = cur.fetchone() or (None,)
        timings[f"rows {table}"] = float(count or 0)
    conn.close()
    return timings
