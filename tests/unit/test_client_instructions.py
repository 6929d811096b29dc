"""bench/client_instructions.py (issue 24's 3 % bound, counted): it must count every scenario
``make bench`` runs, at a size valgrind can finish, and read callgrind's dumps right.

Counts, not timings: the smoke run goes through every chosen scenario's body without valgrind
(each count is then 0), against a real ifxwire-server on a free port."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import client_instructions as ci  # noqa: E402
from bench.fixtures import needed_tables  # noqa: E402
from bench.scenarios import catalogue  # noqa: E402


def test_every_bench_scenario_is_counted_at_a_bounded_size() -> None:
    counted = ci.plan()
    assert [c.name for c in counted] == [s.name for s in catalogue()]
    for c in counted:
        sc = c.scenario
        assert sc.rows <= ci.MAX_ROWS, c.name
        assert sc.threads <= 20, c.name
        assert sc.inner <= 400, c.name
        assert "bench_select_1m" not in sc.sql and "bench_select_100k" not in sc.sql, c.name
        original = next(s for s in catalogue() if s.name == c.name)
        assert bool(c.reduced) == (sc != original), c.name
    # The fixtures a reduced plan needs stay small (no 100k/1M-row tables to build).
    tables = needed_tables([c.scenario for c in counted])
    assert not {"bench_select_100k", "bench_select_1m"} & tables


def test_per_operation_is_the_difference_of_the_two_dumps(tmp_path: Path) -> None:
    def dump(n: int, label: str, total: int) -> None:
        (tmp_path / f"cg.out.4242.{n}").write_text(
            f"# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 4242\n"
            f"cmd: python\npart: {n}\n\ndesc: I1 cache:\n"
            f"desc: Trigger: Client Request: {label}\n\npositions: line\n"
            f"events: Ir\nsummary: {total}\n\nfn=(1) x\n1 {total}\n\ntotals: {total}\n")

    dump(2, "many", 1_000_000 + 3 * 150_000)
    dump(1, "few", 1_000_000 + 1 * 150_000)
    (tmp_path / "cg.out.4242").write_text("events: Ir\ntotals: 99\n")  # the final dump
    dumps = ci.read_dumps(tmp_path)
    assert dumps == [("few", 1_150_000), ("many", 1_450_000)]
    # 2 rounds more of 10 operations each: 15,000 per operation; the 1,000,000 cancels.
    assert ci.per_op(dumps, 1, 3, 10) == 15_000


def test_the_smoke_run_goes_through_the_bodies_against_a_real_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc = ci.main(["--no-valgrind", "--src", str(ROOT / "src"), "--only", "select_one_row",
                  "executemany_scaling[1000]"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "| select_one_row (inner 200 → 50) | 0 | 0 |" in out
    assert "| executemany_scaling[1000] | 0 | 0 |" in out
    assert "error" not in out
