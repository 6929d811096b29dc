"""The benchmark issues' targets, checked against one run's results (bench/report.py).

Each target reads the medians of one run (never figures from different runs) and says what was
measured and whether the goal is met; ``evaluate`` returns rows for the Markdown table and the
``summary`` of the results JSON. Issue 16's targets are against the floor (bench/floor.py) and
against the rivals; the first wave's are kept below them, so a regression shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.report import Summary

MB = 2**20
#: Read scenarios whose client CPU is compared with JDBC's: those the replay server serves.
READ_KINDS = ("query", "latency", "pool", "concurrent", "stream")


@dataclass
class Row:
    target: str
    scenario: str
    goal: str
    measured: str
    value: float | None
    met: bool | None


Check = Callable[[dict[str, "Summary"]], Row]


def _x(v: float | None) -> str:
    return "–" if v is None else f"{v:.2f}×"


def floor_target(label: str, name: str, driver: str, most: float) -> Check:
    """Client CPU of ``driver`` ≤ ``most`` × the floor."""

    def check(by: dict[str, Summary]) -> Row:
        s = by.get(name)
        v = s.x_floor(driver) if s else None
        return Row(label, name, f"≤ {most:g}× floor ({driver})", _x(v), v,
                   None if v is None else v <= most)

    return check


def rival_target(label: str, name: str, field: str, least: float) -> Check:
    """ifxwire pure ≥ ``least`` × faster than informix-driver (``field``: wall or cpu); the
    accelerated figure is shown beside it, the goal is judged on pure Python."""

    def check(by: dict[str, Summary]) -> Row:
        s = by.get(name)
        v = s.ratio("ifxwire", field) if s else None
        acc = s.ratio("ifxwire-accel", field) if s else None
        shown = _x(v) + (f" (accelerated {_x(acc)})" if acc is not None else "")
        return Row(label, name, f"≥ {least:g}× informix-driver", shown, v,
                   None if v is None else v >= least)

    return check


def memory_target(label: str, name: str, driver: str, most_mb: float) -> Check:
    def check(by: dict[str, Summary]) -> Row:
        s = by.get(name)
        v = s.value(driver, "growth") if s else None
        shown = "–" if v is None else f"{v / MB:.1f} MB ({driver})"
        return Row(label, name, f"≤ {most_mb:g} MB", shown, v,
                   None if v is None else v <= most_mb * MB)

    return check


def pure_beats_jdbc(by: dict[str, Summary]) -> Row:
    """JDBC's client CPU over ifxwire pure's, in every replay-served read scenario (> 1: pure
    uses less); the measured cell names the closest one and every one that fails."""
    ratios: list[tuple[float, str]] = []
    for name, s in by.items():
        if s.kind not in READ_KINDS or not s.sc.get("replay", True):
            continue
        ours, jdbc = s.value("ifxwire", "cpu"), s.value("jdbc", "cpu")
        if ours and jdbc:
            ratios.append((jdbc / ours, name))
    label = "Pure Python: less client CPU than IBM JDBC"
    if not ratios:
        return Row(label, "every read scenario", "> 1× in each", "–", None, None)
    worst, where = min(ratios)
    losing = [n for r, n in sorted(ratios) if r <= 1.0]
    shown = f"lowest {worst:.2f}× ({where}); {len(ratios) - len(losing)} of {len(ratios)} met"
    if losing:
        shown += "; not met: " + ", ".join(losing)
    return Row(label, "every read scenario", "> 1× in each", shown, worst, not losing)


ISSUE_16: list[Check] = [
    floor_target("Fetch 100k rows, client CPU", "select_scaling[100000]", "ifxwire-accel", 1.2),
    floor_target("Fetch 100k rows, client CPU", "select_scaling[100000]", "ifxwire", 3.5),
    pure_beats_jdbc,
    floor_target("executemany 10k, client CPU", "executemany_scaling[10000]", "ifxwire-accel", 4),
    floor_target("executemany 10k, client CPU", "executemany_scaling[10000]", "ifxwire", 8),
    floor_target("executemany 100k, client CPU", "executemany_scaling[100000]", "ifxwire-accel", 4),
    floor_target("executemany 100k, client CPU", "executemany_scaling[100000]", "ifxwire", 8),
    rival_target("executemany 100k in a transaction, wall", "executemany_scaling[100000]",
                 "wall", 3),
    rival_target("Cold connect + close, wall", "cold_connect_disconnect", "wall", 2.5),
    memory_target("10M-row streamed fetch, peak RSS growth",
                  "streaming_fetch_memory[10000000]", "ifxwire", 20),
    memory_target("10M-row streamed fetch, peak RSS growth",
                  "streaming_fetch_memory[10000000]", "ifxwire-accel", 20),
    # Issue 25: the same 10M rows as Arrow record batches (fetch_record_batch).
    memory_target("10M rows through fetch_record_batch, peak RSS growth",
                  "arrow_record_batch_memory[10000000]", "ifxwire", 64),
    memory_target("10M rows through fetch_record_batch, peak RSS growth",
                  "arrow_record_batch_memory[10000000]", "ifxwire-accel", 64),
]

#: The first benchmark issue's targets (ifxwire pure against informix-driver).
WAVE_1: list[Check] = [
    rival_target("SELECT 100k rows, client CPU", "select_scaling[100000]", "cpu", 2.5),
    rival_target("executemany 100k in a transaction, client CPU",
                 "executemany_scaling[100000]", "cpu", 3),
    rival_target("executemany 100k in a transaction, wall", "executemany_scaling[100000]",
                 "wall", 2),
    rival_target("select_one_row, wall", "select_one_row", "wall", 2),
    rival_target("cold connect, wall", "cold_connect_disconnect", "wall", 1.5),
    memory_target("streaming 1M rows, peak RSS growth", "streaming_fetch_memory[1000000]",
                  "ifxwire", 20),
]


def evaluate(checks: list[Check], by: dict[str, Summary]) -> list[Row]:
    return [check(by) for check in checks]


def markdown(rows: list[Row]) -> list[str]:
    out = ["| Target | Scenario | Goal | Measured | Met? |", "|---|---|---|---|---|"]
    for r in rows:
        met = "–" if r.met is None else ("yes" if r.met else "**no**")
        measured = r.measured if r.value is not None else "not measured"
        out.append(f"| {r.target} | {r.scenario} | {r.goal} | {measured} | {met} |")
    return out


def as_json(rows: list[Row]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]
