"""Results JSON -> Markdown tables (median, IQR, ratios vs informix-driver) and a PNG chart.

    python bench/report.py bench/results/latest.json        # rewrites latest.md / latest.png

Ratios are ``baseline median / driver median`` for times (so 2.0 means "twice as fast as
informix-driver", below 1.0 means slower) and ``driver / baseline`` for throughput.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench import targets

BASELINE = "informix-driver"
OURS = ("ifxwire", "ifxwire-accel")
DRIVER_ORDER = ("ifxwire", "ifxwire-accel", "informix-driver", "jdbc")
#: Whose floor a driver without one of its own (JDBC) is compared with, in this order.
FLOOR_SOURCES = ("ifxwire", "ifxwire-accel", "informix-driver")

Stat = tuple[float, float]  # (median, IQR)


def med_iqr(values: list[float]) -> Stat | None:
    vals = [v for v in values if v is not None and not math.isnan(v)]
    if not vals:
        return None
    if len(vals) == 1:
        return vals[0], 0.0
    q = statistics.quantiles(vals, n=4, method="inclusive")
    return statistics.median(vals), q[2] - q[0]


def fmt_time(seconds: float | None) -> str:
    if seconds is None or math.isnan(seconds):
        return "–"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_stat(st: Stat | None) -> str:
    if st is None:
        return "–"
    m, iqr = st
    pct = f" ±{iqr / m * 100:.0f}%" if m else ""
    return f"{fmt_time(m)}{pct}"


def fmt_ratio(r: float | None) -> str:
    if r is None or math.isnan(r) or math.isinf(r):
        return "–"
    return f"{r:.2f}×"


def per_op(rounds: list[dict[str, Any]], field: str) -> list[float]:
    return [r[field] / max(1, r.get("ops", 1)) for r in rounds if r.get(field) is not None]


class Summary:
    """Per scenario and driver: the statistics every table uses."""

    def __init__(self, sc: dict[str, Any]) -> None:
        self.sc = sc
        self.kind: str = sc["kind"]
        self.stats: dict[str, dict[str, Any]] = {}
        for d, e in sc["drivers"].items():
            rounds = e.get("rounds") or []
            s: dict[str, Any] = {"status": e.get("status"), "reason": e.get("reason")}
            if rounds:
                s["wall"] = med_iqr(per_op(rounds, "wall"))
                s["cpu"] = med_iqr(per_op(rounds, "cpu"))
                walls = sum(r["wall"] for r in rounds)
                srv = [r["server_cpu"] for r in rounds if r.get("server_cpu") is not None]
                s["server_share"] = sum(srv) / walls if srv and walls else None
                if self.kind == "latency":
                    s["p50"] = med_iqr([r["p50"] for r in rounds])
                    s["p99"] = med_iqr([r["p99"] for r in rounds])
                if self.kind in ("concurrent", "swarm"):
                    s["qps"] = med_iqr([r["ops"] / r["wall"] for r in rounds])
                if self.kind == "swarm":
                    s["p50"] = med_iqr([r["p50"] for r in rounds])
                    s["p99"] = med_iqr([r["p99"] for r in rounds])
                if self.kind == "stream":
                    g = [r["peak_growth"] for r in rounds if r.get("peak_growth") is not None]
                    s["growth"] = med_iqr([float(x) for x in g])
                    s["rows_per_s"] = med_iqr([r["rows"] / r["wall"] for r in rounds if r["wall"]])
                if self.kind == "codec":
                    cases: dict[str, list[float]] = {}
                    for r in rounds:
                        for k, v in r.get("codec_ns", {}).items():
                            cases.setdefault(k, []).append(v)
                    s["codec"] = {k: med_iqr(v) for k, v in cases.items()}
            floor = per_op(e.get("floor_rounds") or [], "cpu")
            if floor:
                s["floor"] = med_iqr(floor)
            for field in ("sys", "minflt"):  # bench/kernel.py
                got = per_op(rounds, field)
                if got:
                    s[field] = med_iqr(got)
                got = per_op(e.get("floor_rounds") or [], field)
                if got:
                    s["floor_" + field] = med_iqr(got)
            live = e.get("live")
            if live:
                b = live[-1]
                if b.get("server_cpu") is not None and b.get("wall"):
                    s["live_server_share"] = b["server_cpu"] / b["wall"]
                s["live_wall"] = b["wall"] / max(1, b.get("ops", 1))
            if e.get("replay"):
                s["replay"] = e["replay"]
            self.stats[d] = s

    def value(self, d: str, field: str) -> float | None:
        st = self.stats.get(d, {}).get(field)
        return None if st is None else st[0]

    def floor(self, d: str) -> tuple[float, str] | None:
        """(floor CPU per operation, the driver whose worker measured it) for driver ``d``.

        Each Python driver is compared with the floor of its own rows, measured in its own
        worker; the JVM has no pickle, so JDBC is compared with the floor of ifxwire's worker
        (the same row values, as Python objects)."""
        for who in (d, *FLOOR_SOURCES):
            v = self.value(who, "floor")
            if v:
                return v, who
        return None

    def x_floor(self, d: str) -> float | None:
        """The driver's client CPU as a multiple of the floor (1.0 = as cheap as pickle)."""
        f, cpu = self.floor(d), self.value(d, "cpu")
        if f is None or cpu is None:
            return None
        return cpu / f[0]

    def ratio(self, d: str, field: str, higher_better: bool = False) -> float | None:
        """None unless both runs completed (a run stopped at its bound compares with nothing)."""
        if any(self.stats.get(x, {}).get("status") != "ok" for x in (d, BASELINE)):
            return None
        ours, base = self.value(d, field), self.value(BASELINE, field)
        if ours is None or base is None or ours == 0 or base == 0:
            return None
        return ours / base if higher_better else base / ours


def drivers_in(data: dict[str, Any]) -> list[str]:
    present = {d for sc in data["scenarios"] for d in sc["drivers"]}
    return [d for d in DRIVER_ORDER if d in present]


def status_cell(s: dict[str, Any]) -> str | None:
    if s.get("status") == "ok" and s.get("wall") is not None:
        return None
    reason = " ".join(str(s.get("reason") or s.get("status") or "no data").split())
    return f"{s.get('status')}: {reason[:80].replace('|', '/')}"


def render(data: dict[str, Any]) -> tuple[str, list[str]]:
    meta = data["meta"]
    summaries = [Summary(sc) for sc in data["scenarios"]]
    by_name = {s.sc["name"]: s for s in summaries}
    drivers = drivers_in(data)
    others = [d for d in drivers if d != BASELINE]
    problems: list[str] = []
    out: list[str] = []
    w = out.append
    m = meta["machine"]
    w(f"# ifxwire benchmark results ({meta['mode']})\n")
    w(
        f"{meta['started']} · {meta['seconds'] / 60:.1f} min · {m['cpus']} CPUs · "
        f"{m['implementation']} {m['python']} · {m['platform']} · commit {meta.get('git')}\n"
    )
    load = m.get("load") or {}
    foreign = load.get("foreign_cpu_share")
    if foreign is not None:
        warn = (
            " **(noisy run: compare ratios only, and rerun what matters)**" if foreign > 0.1 else ""
        )
        w(
            f"Machine load: other processes used {foreign:.0%} of the {m['cpus']} CPUs during "
            f"the run, the bench {load.get('bench_cpu_share') or 0:.0%}; load average "
            f"{load.get('load1_start', 0):.1f} at the start, {load.get('load1_end', 0):.1f} at "
            f"the end.{warn}\n"
        )
    placement = m.get("placement")
    if placement:
        w(
            f"Placement: the servers on CPU {placement['servers']}, the drivers on CPU "
            f"{placement['drivers']} (as client and server on separate hosts; `--no-pin` lets "
            "the scheduler choose).\n"
        )
    else:
        w("Placement: unpinned (the scheduler placed servers and drivers).\n")
    w("| Driver | Status | Version / note |")
    w("|---|---|---|")
    for d, info in meta["drivers"].items():
        note = info.get("version") or ""
        if info.get("note"):
            note = f"{note} {info['note']}".strip()
        note = " ".join(str(note).split())[:200].replace("|", "/")
        w(f"| {d} | {info.get('status')} | {note} |")
    w("")
    w(
        "Ratios are informix-driver's median divided by the driver's median: **above 1× is "
        "faster than informix-driver**, below 1× slower. Times are per operation (per round "
        "for single-operation scenarios); ± is the IQR as a share of the median. Read "
        "scenarios are served by the replay server (client-only figures); write scenarios run "
        "against the live ifxwire-server (see *server share*). Method: docs/BENCHMARKS.md.\n"
    )

    # ---------------------------------------------------------------- targets
    w("## Targets (issue 16: against the floor and the rivals, same run)\n")
    out.extend(targets.markdown(targets.evaluate(targets.ISSUE_16, by_name)))
    w("")
    w(
        "Floor targets: the driver's client CPU over the floor measured in its own worker "
        "(*Client CPU against the floor* below). Ratio targets are judged on ifxwire pure "
        "Python, the accelerated figure is shown beside them.\n"
    )
    w("### First-wave targets (ifxwire pure vs informix-driver)\n")
    out.extend(targets.markdown(targets.evaluate(targets.WAVE_1, by_name)))
    w("")

    # ---------------------------------------------------------------- floor
    floored = [s for s in summaries if any(s.floor(d) for d in drivers)]
    if floored:
        w("## Client CPU against the floor\n")
        w(
            "*Floor*: the CPU `pickle.loads` needs to build the rows one operation returned "
            "(read scenarios) or `pickle.dumps` needs to serialise each row it sent (writes), "
            "measured right after each round in the same worker (ifxwire pure's worker here; "
            "each driver's own in the details). *× floor*: the driver's client CPU over its "
            "floor; 1× would be as cheap as unpickling. JDBC is compared with ifxwire's floor. "
            "What the floor is and is not: docs/BENCHMARKS.md.\n"
        )
        w("| Scenario | Floor | " + " | ".join(f"{d} × floor" for d in drivers) + " |")
        w("|---|---|" + "---|" * len(drivers))
        for s in floored:
            ref = s.floor("ifxwire") or next(f for f in map(s.floor, drivers) if f)
            cells = [fmt_ratio(s.x_floor(d)) for d in drivers]
            w(f"| {s.sc['name']} | {fmt_time(ref[0])} | " + " | ".join(cells) + " |")
        w("")

    # ---------------------------------------------------------------- kernel share
    faulted = [s for s in summaries if s.kind == "query" and any(
        s.value(d, "minflt") is not None for d in drivers)]
    if faulted:
        w("## The kernel's part (read scenarios)\n")
        w(
            "Minor page faults per operation, and the system CPU's share of the client CPU "
            "(Python workers; the JVM's is not separable), for each driver and for the floor "
            "in ifxwire pure's worker. Fresh pages for new row objects are faulted in and "
            "zeroed by the kernel: why the larger fetches cost Python more than the JVM "
            "(bench/kernel.py, docs/BENCHMARKS.md). The fault counts are exact; the system "
            "share is the kernel's tick-sampled split of CPU time (median system time over "
            "median CPU), coarse for short operations.\n"
        )
        w("| Scenario | " + " | ".join(drivers) + " | floor |")
        w("|---|" + "---|" * (len(drivers) + 1))

        def kernel_cell(faults: float | None, sys_s: float | None, cpu: float | None) -> str:
            if faults is None:
                return "–"
            share = "" if sys_s is None or not cpu else f" ({sys_s / cpu:.0%} sys)"
            return f"{faults:,.0f}{share}"

        for s in faulted:
            cells = [
                kernel_cell(s.value(d, "minflt"), s.value(d, "sys"), s.value(d, "cpu"))
                for d in drivers
            ]
            cells.append(kernel_cell(
                s.value("ifxwire", "floor_minflt"),
                s.value("ifxwire", "floor_sys"),
                s.value("ifxwire", "floor"),
            ))
            w(f"| {s.sc['name']} | " + " | ".join(cells) + " |")
        w("")

    # ---------------------------------------------------------------- ratio summary
    w("## Ratios vs informix-driver (wall / client CPU)\n")
    w("| Scenario | " + " | ".join(others) + " |")
    w("|---|" + "---|" * len(others))
    for s in summaries:
        if s.kind in ("codec", "stream", "latency"):
            continue
        cells = []
        for d in others:
            st = s.stats.get(d)
            if st is None:
                cells.append("–")
                continue
            bad = status_cell(st)
            if bad:
                cells.append(bad.split(":")[0])
                continue
            qps = s.kind in ("concurrent", "swarm")
            wr = s.ratio(d, "qps" if qps else "wall", higher_better=qps)
            cr = s.ratio(d, "cpu")
            cells.append(f"{fmt_ratio(wr)} / {fmt_ratio(cr)}")
        w(f"| {s.sc['name']} | " + " | ".join(cells) + " |")
    w("")

    # ---------------------------------------------------------------- details
    w("## Details\n")
    w(
        "| Scenario | Driver | Wall | Client CPU | Wall ratio | CPU ratio | Floor | × floor | "
        "Server share | Live server share |"
    )
    w("|---|---|---|---|---|---|---|---|---|---|")
    for s in summaries:
        if s.kind in ("codec", "stream"):
            continue
        for d in drivers:
            st = s.stats.get(d)
            if st is None:
                continue
            bad = status_cell(st)
            if bad:
                w(f"| {s.sc['name']} | {d} | {bad} | | | | | | | |")
                if st.get("status") == "error":
                    problems.append(f"{s.sc['name']} / {d}: {st.get('reason')}")
                continue
            share = st.get("server_share")
            live = st.get("live_server_share")
            wall_r = "" if d == BASELINE else fmt_ratio(s.ratio(d, "wall"))
            cpu_r = "" if d == BASELINE else fmt_ratio(s.ratio(d, "cpu"))
            fl = s.floor(d)
            own = "–" if fl is None else fmt_time(fl[0]) + ("" if fl[1] == d else f" ({fl[1]})")
            w(
                f"| {s.sc['name']} | {d} | {fmt_stat(st['wall'])} | {fmt_stat(st['cpu'])} | "
                f"{wall_r} | {cpu_r} | {own} | {fmt_ratio(s.x_floor(d))} | "
                f"{'–' if share is None else f'{share:.0%}'} | "
                f"{'–' if live is None else f'{live:.0%}'} |"
            )
    w("")
    w(
        "*Server share*: CPU time of the process answering the client (the replay server for "
        "read scenarios, ifxwire-server for writes) divided by the client's wall time. *Live "
        "server share*: the same for ifxwire-server during the recorded live round, i.e. what "
        "a live read benchmark would have measured.\n"
    )

    # ---------------------------------------------------------------- latency / concurrency
    lat = [s for s in summaries if s.kind == "latency"]
    if lat:
        w("## Latency (select_one_row, 1000 sequential queries per round)\n")
        w("| Driver | p50 | p99 | p50 ratio | p99 ratio |")
        w("|---|---|---|---|---|")
        for s in lat:
            for d in drivers:
                st = s.stats.get(d, {})
                if status_cell(st):
                    w(f"| {d} | {status_cell(st)} | | | |")
                    continue
                r50 = "" if d == BASELINE else fmt_ratio(s.ratio(d, "p50"))
                r99 = "" if d == BASELINE else fmt_ratio(s.ratio(d, "p99"))
                w(f"| {d} | {fmt_stat(st['p50'])} | {fmt_stat(st['p99'])} | {r50} | {r99} |")
        w("")
    conc = [s for s in summaries if s.kind == "concurrent"]
    if conc:
        w("## Concurrent throughput (queries per second, one connection per thread)\n")
        w("| Scenario | " + " | ".join(drivers) + " |")
        w("|---|" + "---|" * len(drivers))
        for s in conc:
            cells = []
            for d in drivers:
                st = s.stats.get(d, {})
                q = st.get("qps")
                cells.append("–" if q is None else f"{q[0]:,.0f}")
            w(f"| {s.sc['name']} | " + " | ".join(cells) + " |")
        w("")

    swarms = [s for s in summaries if s.kind == "swarm"]
    if swarms:
        w("## Many connections (live ifxwire-server, every query timed)\n")
        w("| Scenario | Driver | Queries/s | p50 | p99 | Client CPU / query | Server share |")
        w("|---|---|---|---|---|---|---|")
        for s in swarms:
            for d in drivers:
                st = s.stats.get(d, {})
                bad = status_cell(st)
                if bad:
                    w(f"| {s.sc['name']} | {d} | {bad} | | | | |")
                    continue
                share = st.get("server_share")
                w(
                    f"| {s.sc['name']} | {d} | {st['qps'][0]:,.0f} | {fmt_stat(st['p50'])} | "
                    f"{fmt_stat(st['p99'])} | {fmt_stat(st['cpu'])} | "
                    f"{'–' if share is None else f'{share:.0%}'} |"
                )
        w("")

    # ---------------------------------------------------------------- memory
    mem = [s for s in summaries if s.kind == "stream"]
    if mem:
        w("## Streaming memory (peak RSS growth while iterating, fresh process)\n")
        w("| Scenario | Driver | Peak RSS growth | Rows/s | Wall | Client CPU | Server share |")
        w("|---|---|---|---|---|---|---|")
        for s in mem:
            for d in drivers:
                st = s.stats.get(d, {})
                bad = status_cell(st)
                if bad and st.get("status") != "stopped":
                    w(f"| {s.sc['name']} | {d} | {bad} | | | | |")
                    if st.get("status") == "error":
                        problems.append(f"{s.sc['name']} / {d}: {st.get('reason')}")
                    continue
                g = st.get("growth")
                shown = "–" if g is None else f"{g[0] / 2**20:.1f} MB"
                rate = st.get("rows_per_s")
                share = st.get("server_share")
                if bad:  # stopped at its bound: the growth is where it stood, not a peak
                    shown, rate = f"> {shown} ({bad})", None
                w(
                    f"| {s.sc['name']} | {d} | {shown} | "
                    f"{'–' if not rate else f'{rate[0]:,.0f}'} | {fmt_stat(st['wall'])} | "
                    f"{fmt_stat(st['cpu'])} | {'–' if share is None else f'{share:.0%}'} |"
                )
        w("")

    # ---------------------------------------------------------------- codec
    for s in summaries:
        if s.kind != "codec":
            continue
        py = [d for d in drivers if s.stats.get(d, {}).get("codec")]
        if not py:
            continue
        w("## Codec micro-benchmarks (ns per cell / per parameter, median)\n")
        w("| Case | " + " | ".join(py) + " | ifxwire ratio |")
        w("|---|" + "---|" * (len(py) + 1))
        cases = list(s.stats[py[0]]["codec"])
        for case in cases:
            cells = []
            for d in py:
                v = s.stats[d]["codec"].get(case)
                cells.append("–" if v is None else f"{v[0]:.0f}")
            ours = s.stats.get("ifxwire", {}).get("codec", {}).get(case)
            base = s.stats.get(BASELINE, {}).get("codec", {}).get(case)
            ratio = base[0] / ours[0] if ours and base else None
            w(f"| {case} | " + " | ".join(cells) + f" | {fmt_ratio(ratio)} |")
        w("")

    # ---------------------------------------------------------------- replay health
    rows = []
    for s in summaries:
        for d in drivers:
            rp = s.stats.get(d, {}).get("replay")
            if rp and (rp.get("length_mismatch") or rp.get("exhausted") or rp.get("errors")):
                rows.append(
                    f"| {s.sc['name']} | {d} | {rp.get('length_mismatch')} | "
                    f"{rp.get('exhausted')} | {'; '.join(rp.get('errors') or [])[:100]} |"
                )
    if rows:
        w("## Replay anomalies\n")
        w("| Scenario | Driver | Length mismatches | Script exhausted | Errors |")
        w("|---|---|---|---|---|")
        out.extend(rows)
        w("")
    if problems:
        w("## Problems\n")
        out.extend(f"- {p}" for p in problems)
        w("")
    return "\n".join(out) + "\n", problems


def summarise(data: dict[str, Any]) -> dict[str, Any]:
    """The figures the tables show, for the results JSON: per scenario and driver the medians
    (per operation), the floor and × floor, the ratios, and the targets with met / not met."""
    summaries = [Summary(sc) for sc in data["scenarios"]]
    by_name = {s.sc["name"]: s for s in summaries}
    scen: dict[str, Any] = {}
    for s in summaries:
        per: dict[str, Any] = {}
        for d, st in s.stats.items():
            row: dict[str, Any] = {"status": st.get("status")}
            fields = ("wall", "cpu", "sys", "minflt", "qps", "p50", "p99", "growth", "rows_per_s")
            for field in fields:
                if st.get(field) is not None:
                    row[field] = st[field][0]
            fl = s.floor(d)
            if fl is not None:
                row["floor_cpu"], row["floor_from"] = fl
                row["x_floor"] = s.x_floor(d)
            if d != BASELINE:
                row["wall_ratio"] = s.ratio(d, "wall")
                row["cpu_ratio"] = s.ratio(d, "cpu")
            per[d] = row
        scen[s.sc["name"]] = per
    return {
        "targets_issue_16": targets.as_json(targets.evaluate(targets.ISSUE_16, by_name)),
        "targets_wave_1": targets.as_json(targets.evaluate(targets.WAVE_1, by_name)),
        "scenarios": scen,
    }


def chart(data: dict[str, Any], path: Path) -> str | None:
    """Horizontal bars: wall and CPU ratio vs informix-driver per scenario; None if written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: no chart"
    summaries = [Summary(sc) for sc in data["scenarios"]]
    drivers = [d for d in drivers_in(data) if d != BASELINE]
    rows = [s for s in summaries if s.kind not in ("codec", "stream", "latency")]
    if not rows or not drivers:
        return "nothing to chart"
    everyone = drivers_in(data)
    fig, axes = plt.subplots(1, 3, figsize=(20, 0.38 * len(rows) + 2), sharey=True)
    colors = {
        "ifxwire": "#1f77b4",
        "ifxwire-accel": "#2ca02c",
        "informix-driver": "#7f7f7f",
        "jdbc": "#d62728",
    }

    def bars(ax: Any, who: list[str], value: Callable[[Summary, str], float | None]) -> None:
        height = 0.8 / len(who)
        for k, d in enumerate(who):
            ys, xs = [], []
            for i, s in enumerate(rows):
                r = value(s, d)
                if r is not None:
                    ys.append(i + k * height - 0.4 + height / 2)
                    xs.append(r)
            ax.barh(ys, xs, height=height, label=d, color=colors.get(d))
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log")
        ax.grid(axis="x", which="both", alpha=0.3)

    for ax, field, title in ((axes[0], "wall", "wall time"), (axes[1], "cpu", "client CPU")):

        def ratio(s: Summary, d: str, field: str = field) -> float | None:
            f = "qps" if (s.kind in ("concurrent", "swarm") and field == "wall") else field
            return s.ratio(d, f, higher_better=f == "qps")

        bars(ax, drivers, ratio)
        ax.set_title(f"{title}: informix-driver / driver (>1 = faster)")
    bars(axes[2], everyone, Summary.x_floor)
    axes[2].set_title("client CPU × floor (pickle = 1; lower is better)")
    axes[0].set_yticks(range(len(rows)))
    axes[0].set_yticklabels([s.sc["name"] for s in rows], fontsize=8)
    axes[0].invert_yaxis()
    axes[1].legend(loc="lower right", fontsize=8)
    axes[2].legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


def write(data: dict[str, Any], md_path: Path, png_path: Path) -> tuple[str, list[str]]:
    md, problems = render(data)
    note = chart(data, png_path)
    if note is None:
        md += f"\n![ratios vs informix-driver, and client CPU against the floor]({png_path.name})\n"
    else:
        md += f"\n(Chart not drawn: {note}.)\n"
    md_path.write_text(md, encoding="utf-8")
    return md, problems


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    src = Path(args[0]) if args else Path(__file__).parent / "results" / "latest.json"
    data = json.loads(src.read_text())
    data["summary"] = summarise(data)
    src.write_text(json.dumps(data, indent=1, default=str) + "\n")
    md, _ = write(data, src.with_suffix(".md"), src.with_suffix(".png"))
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
