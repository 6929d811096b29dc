"""bench/gap.py's results as Markdown: per case the CPU against the floor, then by function.

    python bench/gap_report.py bench/results/gap.json     # rewrites gap.md next to it
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PERF_ROWS = 12


def _us(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def _per(case: dict[str, Any]) -> str:
    return "connect" if case["case"].startswith("connect") else "row"


def headline(case: dict[str, Any]) -> str:
    n, per = case["rows"], _per(case)
    cpu = case["cpu"]
    line = f"client CPU {cpu * 1e3:.1f} ms = **{cpu / n * 1e6:.3f} µs per {per}**"
    fl = case.get("floor")
    if fl:
        line += (
            f"; floor {fl * 1e3:.1f} ms = {fl / n * 1e6:.3f} µs per {per}; "
            f"**{cpu / fl:.2f}× floor**, {(cpu - fl) / n * 1e6:.3f} µs per {per} beyond it"
        )
    srv = case.get("server_per_unit")
    if srv:
        line += (
            f"; ifxwire-server CPU {srv * 1e6:.2f} µs per {per} (all rounds; /proc counts "
            f"10 ms ticks); wall {case['wall'] * 1e3:.0f} ms"
        )
    return line + "."


def profile_table(rows: list[dict[str, Any]], per: str, what: str = "own time") -> list[str]:
    out = [f"| Function ({what}) | calls / {per} | µs / {per} | share |", "|---|---|---|---|"]
    for r in rows:
        out.append(
            f"| `{r['function']}` | {r['calls_per_row']:.2f} | {r['us_per_row']:.3f} | "
            f"{r['share']:.0%} |"
        )
    return out


def perf_table(op: list[dict[str, Any]], fl: list[dict[str, Any]] | None, per: str) -> list[str]:
    floor_by = {(r["dso"], r["symbol"]): r for r in fl or []}
    out = [
        f"| Symbol (self samples) | Object | driver µs / {per} | floor µs / {per} |",
        "|---|---|---|---|",
    ]
    shown = set()
    for r in op[:PERF_ROWS]:
        key = (r["dso"], r["symbol"])
        shown.add(key)
        f = floor_by.get(key)
        out.append(
            f"| `{r['symbol']}` | {r['dso']} | {r['us_per_row']:.3f} | "
            f"{_us(f['us_per_row'] if f else None) if fl is not None else ''} |"
        )
    for r in (fl or [])[:6]:
        key = (r["dso"], r["symbol"])
        if key not in shown:
            out.append(f"| `{r['symbol']}` | {r['dso']} | – | {r['us_per_row']:.3f} |")
    return out


def callgrind_table(cg: dict[str, Any]) -> list[str]:
    floor_by = {(r["function"], r["object"]): r["ir_per_row"] for r in cg.get("floor", [])}
    out = ["| Function (self) | Object | driver instructions / row | floor instructions / row |",
           "|---|---|---|---|"]  # fmt: skip
    shown = set()
    for r in cg.get("op", []):
        key = (r["function"], r["object"])
        shown.add(key)
        f = floor_by.get(key)
        out.append(
            f"| `{r['function']}` | {r['object']} | {r['ir_per_row']:.0f} | "
            f"{'–' if f is None else f'{f:.0f}'} |"
        )
    for r in cg.get("floor", [])[:8]:
        if (r["function"], r["object"]) not in shown:
            out.append(f"| `{r['function']}` | {r['object']} | – | {r['ir_per_row']:.0f} |")
    return out


def render(res: dict[str, Any]) -> str:
    meta = res.get("meta", {})
    out = [
        "# Where the gap to the floor is (bench/gap.py)\n",
        f"{meta.get('started', '?')} · load average {meta.get('load1', 0):.1f} at the end · "
        f"perf {'on' if res.get('perf') else 'off'}. Medians of the unprofiled rounds; the "
        "tables spread that CPU over functions by their share of the profile (cProfile: "
        "Python functions and the C functions they call, own time; perf: native symbols, "
        "self samples). Method: bench/gap.py's docstring and docs/BENCHMARKS.md.\n",
    ]
    for case in res.get("cases", []):
        per = _per(case)
        out.append(f"## {case['case']}, {case['flavour']}\n")
        out.append(headline(case) + "\n")
        out.extend(profile_table(case.get("profile", []), per))
        out.append("")
        if case.get("inclusive"):
            out.extend(profile_table(case["inclusive"][:8], per, "with callees"))
            out.append("")
        if case.get("perf"):
            out.extend(perf_table(case["perf"], case.get("perf_floor"), per))
            out.append("")
    for cg in res.get("callgrind", []):
        out.append(f"## {cg['case']}, accelerated: instructions (callgrind)\n")
        out.extend(callgrind_table(cg))
        out.append("")
    for srv in res.get("server", []):
        per = "connect" if srv["case"].startswith("connect") else "row"
        out.append(f"## ifxwire-server's side of {srv['case']} (cProfile, shares)\n")
        out.append(
            f"{srv['units']} {per}s; CPU under the profiler {srv['profiled_cpu']:.2f} s. The "
            f"shares are spread over the unprofiled server's {srv['per_unit'] * 1e6:.1f} µs "
            f"per {per} (the pure client's runs above).\n"
        )
        out.extend(profile_table(srv.get("profile", []), per))
        out.append("")
        if srv.get("inclusive"):
            out.extend(profile_table(srv["inclusive"][:10], per, "with callees"))
            out.append("")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    src = Path(args[0]) if args else Path(__file__).parent / "results" / "gap.json"
    md = render(json.loads(src.read_text()))
    src.with_suffix(".md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
