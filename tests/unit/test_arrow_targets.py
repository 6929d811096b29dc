"""bench/arrow_targets.py's status table with IBM JDBC beside (issue 25, arrow15): the JDBC
figures of the 100k fetch and of the partitioned read are reported, as ratios to ours, with
the one-line commands that produced them; they are judged against nothing (the issue asks
only that they be reported beside)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import arrow_targets  # noqa: E402


def _args(jdbc: bool) -> argparse.Namespace:
    return argparse.Namespace(rows=100000, repeat=3, jdbc=jdbc, ingest_rows=100000,
                              partition_rows=1000000)


def _results() -> dict[str, object]:
    read = {"first_cpu": 0.5, "first_wall": 2.0, "cpu": 0.2, "wall": 1.0}
    fetch = {"mode": "accelerated", "rows": 100000, "shapes": {
        "mixed": {"floor": 0.1, "fetchall": 0.1, "fetch_arrow_table": 0.0125,
                  "informix_driver_pandas": 1.0}},
        "jdbc": {"mixed": {"columns": read, "query": read}}}
    ours = {"wall": 10.0, "client_cpu": 0.2, "server_cpu": 3.0}
    theirs = {"wall": 5.0, "client_cpu": 2.0, "server_cpu": 3.0}
    part = {"rows": 1000000, "results": {
        "1 partition": ours, "4 partitions, 4 servers": ours,
        "JDBC 1 partition": theirs, "JDBC 4 partitions, 4 servers": theirs}}
    return {"fetch": [fetch], "partition": part}


def test_jdbc_rows_report_ratios_to_ours_with_their_commands() -> None:
    table = arrow_targets.status(_results(), _args(True))
    jdbc = [line for line in table if "IBM JDBC beside" in line]
    assert len(jdbc) == 3, table
    fetch, one, four = jdbc
    assert "mixed 16.0×" in fetch and "| – |" in fetch
    assert "`python bench/arrow_bench.py --rows 100000 --repeat 3 --jdbc`" in fetch
    assert "1 partition" in one and "wall 0.50×, client CPU 10.0× ours" in one
    assert "4 partitions, 4 servers" in four
    assert "`python -m bench.arrow_partition_bench --rows 1000000 --repeat 3 --jdbc`" in four
    # the judged rows stay judged: 0.125× the floor, 8× less than fetchall, 80× the rival
    judged = [line for line in table if line.startswith("| fetch_arrow_table")]
    assert [line.split("|")[4].strip() for line in judged] == ["yes", "yes", "yes"]


def test_without_jdbc_no_jdbc_row_and_no_flag() -> None:
    res = _results()
    res["fetch"][0].pop("jdbc")  # type: ignore[index]
    part = res["partition"]["results"]  # type: ignore[index]
    for name in [n for n in part if n.startswith("JDBC")]:
        del part[name]
    table = arrow_targets.status(res, _args(False))
    assert not [line for line in table if "JDBC" in line or "--jdbc" in line], table
