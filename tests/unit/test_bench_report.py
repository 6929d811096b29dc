"""The benchmark report's floor column and target checks (bench/report.py, bench/targets.py),
on hand-made results: the figures are invented, the arithmetic and the verdicts are not."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import floor, report, targets  # noqa: E402


def _rounds(cpu: float, n: int = 3, **extra: Any) -> list[dict[str, Any]]:
    return [{"wall": cpu * 1.2, "cpu": cpu, "ops": 1, **extra} for _ in range(n)]


def _scenario(name: str, kind: str, drivers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "kind": kind, "replay": kind != "executemany", "drivers": drivers}


def _data() -> dict[str, Any]:
    fetch = _scenario(
        "select_scaling[100000]",
        "query",
        {
            "ifxwire": {"rounds": _rounds(0.120), "floor_rounds": _rounds(0.040)},
            "ifxwire-accel": {"rounds": _rounds(0.050), "floor_rounds": _rounds(0.040)},
            "informix-driver": {"rounds": _rounds(0.400), "floor_rounds": _rounds(0.050)},
            "jdbc": {"rounds": _rounds(0.100)},
        },
    )
    mix = _scenario(
        "select_type_mix_1000_rows",
        "query",
        {
            "ifxwire": {"rounds": _rounds(0.004), "floor_rounds": _rounds(0.001)},
            "jdbc": {"rounds": _rounds(0.002)},
        },
    )
    em = _scenario(
        "executemany_scaling[10000]",
        "executemany",
        {
            "ifxwire": {"rounds": _rounds(0.030), "floor_rounds": _rounds(0.003)},
            "ifxwire-accel": {"rounds": _rounds(0.011), "floor_rounds": _rounds(0.003)},
            "informix-driver": {"rounds": _rounds(0.150)},
        },
    )
    for sc in (fetch, mix, em):
        for e in sc["drivers"].values():
            e["status"] = "ok"
    return {"scenarios": [fetch, mix, em]}


def _by_name() -> dict[str, report.Summary]:
    return {sc["name"]: report.Summary(sc) for sc in _data()["scenarios"]}


def test_x_floor_uses_the_drivers_own_floor_and_ifxwires_for_jdbc() -> None:
    s = _by_name()["select_scaling[100000]"]
    assert s.floor("informix-driver") == (0.050, "informix-driver")
    assert abs((s.x_floor("ifxwire") or 0) - 3.0) < 1e-9
    assert abs((s.x_floor("informix-driver") or 0) - 8.0) < 1e-9
    assert s.floor("jdbc") == (0.040, "ifxwire")
    assert abs((s.x_floor("jdbc") or 0) - 2.5) < 1e-9


def test_targets_judge_each_goal_from_the_runs_medians() -> None:
    rows = {(r.target, r.goal): r for r in targets.evaluate(targets.ISSUE_16, _by_name())}
    pure = rows[("Fetch 100k rows, client CPU", "≤ 3.5× floor (ifxwire)")]
    accel = rows[("Fetch 100k rows, client CPU", "≤ 1.2× floor (ifxwire-accel)")]
    assert pure.met is True and abs((pure.value or 0) - 3.0) < 1e-9
    assert accel.met is False and abs((accel.value or 0) - 1.25) < 1e-9
    jdbc = rows[("Pure Python: less client CPU than IBM JDBC", "> 1× in each")]
    assert jdbc.met is False and "select_type_mix_1000_rows" in jdbc.measured
    em_pure = rows[("executemany 10k, client CPU", "≤ 8× floor (ifxwire)")]
    assert em_pure.met is False and abs((em_pure.value or 0) - 10.0) < 1e-9
    missing = rows[("Cold connect + close, wall", "≥ 2.5× informix-driver")]
    assert missing.met is None and missing.value is None


def test_summary_carries_floor_and_targets_into_the_json() -> None:
    summary = report.summarise(_data())
    row = summary["scenarios"]["select_scaling[100000]"]["ifxwire-accel"]
    assert row["floor_from"] == "ifxwire-accel" and abs(row["x_floor"] - 1.25) < 1e-9
    assert any(t["met"] is False for t in summary["targets_issue_16"])
    md, problems = report.render({"meta": _meta(), **_data()})
    assert "ifxwire-accel × floor" in md and not problems


def test_kernel_part_is_reported_per_driver_and_for_the_floor() -> None:
    """Faults and system time per operation (bench/kernel.py) reach the report's table and the
    JSON; a driver that reports faults but no system time (the JVM) shows the faults alone."""
    data = _data()
    fetch = data["scenarios"][0]["drivers"]
    fetch["ifxwire"]["rounds"] = _rounds(0.120, sys=0.030, minflt=6000.0)
    fetch["ifxwire"]["floor_rounds"] = _rounds(0.040, sys=0.010, minflt=5000.0)
    fetch["jdbc"]["rounds"] = _rounds(0.100, minflt=12.0)
    md, problems = report.render({"meta": _meta(), **data})
    assert not problems
    section = md.split("## The kernel's part")[1].split("\n## ")[0]
    line = next(x for x in section.splitlines() if x.startswith("| select_scaling[100000]"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    drivers = report.drivers_in(data)
    assert cells[1 + drivers.index("ifxwire")] == "6,000 (25% sys)"
    assert cells[1 + drivers.index("jdbc")] == "12"
    assert cells[1 + drivers.index("informix-driver")] == "–"
    assert cells[-1] == "5,000 (25% sys)"
    row = report.summarise(data)["scenarios"]["select_scaling[100000]"]["ifxwire"]
    assert row["minflt"] == 6000.0 and row["sys"] == pytest.approx(0.030)


def test_kernel_sample_counts_faults_of_fresh_pages() -> None:
    import mmap

    from bench import kernel

    start = kernel.sample()
    pages = mmap.mmap(-1, 64 * mmap.PAGESIZE)
    for i in range(0, len(pages), mmap.PAGESIZE):
        pages[i] = 1
    grown = kernel.since(start)
    pages.close()
    assert grown["minflt"] >= 64 and grown["sys"] >= 0


def test_kernel_tool_prints_the_page_cost_and_both_decodes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import kernel

    assert kernel.main(["--rows", "3000", "--rounds", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("a fresh page: ") and "faults touching" in out[0]
    assert out[1].startswith("ifxwire pure tuple loop") and "3000 rows" in out[1]
    assert out[2].startswith("pickle.loads (the floor)") and "faults" in out[2]


def test_floor_rounds_time_what_they_say() -> None:
    rows = [(i, f"s{i}", i * 0.5) for i in range(2000)]
    blob = floor.freeze(rows)
    res = floor.loads_round(blob, 3)
    assert res["ops"] == 3 and res["cpu"] >= 0 and res["bytes"] == len(blob)
    assert floor.dumps_round([rows], 1)["ops"] == 1


def test_a_floor_round_is_the_median_of_its_measurements(monkeypatch: Any) -> None:
    """Each floor round runs the body REPEAT times and reports the median CPU: one outlier
    measurement (here a clock that jumps 50 ms on the second run) does not become the floor."""
    clock = iter([0.0, 0.010, 1.0, 1.060, 2.0, 2.012])
    monkeypatch.setattr(floor.time, "process_time", lambda: next(clock))
    runs: list[int] = []
    res = floor.timed(lambda: runs.append(1), 1)
    assert len(runs) == floor.REPEAT == 3
    assert res["cpu"] == pytest.approx(0.012)
    assert res["cpu_samples"] == pytest.approx([0.010, 0.060, 0.012])


def _meta() -> dict[str, Any]:
    return {
        "mode": "test",
        "started": "now",
        "seconds": 1.0,
        "git": None,
        "drivers": {},
        "machine": {"cpus": 2, "implementation": "CPython", "python": "3", "platform": "x"},
    }


def _stream_data(stopped: bool) -> dict[str, Any]:
    ours = {"status": "ok", "rounds": _rounds(1.5, n=1, peak_growth=2 * 2**20, rows=10_000_000)}
    rival: dict[str, Any] = {
        "status": "ok", "rounds": _rounds(9.0, n=1, peak_growth=2**30 + 5 * 2**20, rows=412_345)}
    if stopped:
        rival.update(status="stopped", reason="stopped at 1029 MB of RSS growth (bound "
                     "1024 MB) after 8.7 s, 412,345 rows")
    sc = _scenario("stream_rows_memory[10000000]", "stream",
                   {"ifxwire-accel": ours, "informix-driver": rival})
    return {"meta": {"mode": "live", "started": "now", "seconds": 60.0,
                     "machine": {"cpus": 2, "implementation": "CPython", "python": "3.11",
                                 "platform": "linux"},
                     "drivers": {"ifxwire-accel": {"status": "ok"},
                                 "informix-driver": {"status": "ok"}}},
            "scenarios": [sc]}


def test_a_rival_stopped_at_its_memory_bound_is_a_result_not_a_problem() -> None:
    """Issue 25: `make bench` failed (exit 2) when the memory guard stopped informix-driver in
    the 10M-row stream, as designed. A stopped run is shown in the table, with how far it got,
    and is not among the problems that make bench/run.py exit non-zero."""
    md, problems = report.render(_stream_data(stopped=True))
    assert problems == []
    line = next(x for x in md.splitlines() if "| informix-driver |" in x and "stream" in x)
    assert "stopped at 1029 MB" in line and "412,345 rows" in line and line.count("> ") == 1
    ours = next(x for x in md.splitlines() if "| ifxwire-accel |" in x and "stream" in x)
    assert "2.0 MB" in ours and "stopped" not in ours


def test_a_stream_that_failed_is_still_a_problem() -> None:
    data = _stream_data(stopped=False)
    data["scenarios"][0]["drivers"]["informix-driver"].update(status="error", reason="boom")
    _, problems = report.render(data)
    assert problems == ["stream_rows_memory[10000000] / informix-driver: boom"]
