"""The documents that list facts from the code must list the same facts."""

from __future__ import annotations

import re
from pathlib import Path

from ifxwire.server.engine.core import sqlcodes

ROOT = Path(__file__).resolve().parents[2]


def test_server_md_lists_every_sqlcode_the_engine_sends() -> None:
    doc = (ROOT / "docs" / "SERVER.md").read_text()
    listed = {(m.group(2), int(m.group(1))) for m in re.finditer(r"\| (-?\d+) \| `(\w+)` \|", doc)}
    in_code = {
        (name, value)
        for name, value in vars(sqlcodes).items()
        if name.isupper() and isinstance(value, int)
    }
    assert in_code, "sqlcodes.py defines no codes"
    assert listed == in_code


def test_driver_md_guarantees_name_tests_that_exist() -> None:
    """Each promise in DRIVER.md's hostile-server section names the tests that check it."""
    doc = (ROOT / "docs" / "DRIVER.md").read_text()
    section = doc.split("## 12. Guarantees under a hostile or broken server", 1)[1]
    named = set(re.findall(r"`(test_\w+)(?:\.py)?`", section))  # tests and test files
    defined = set()
    files = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        files.add(path.stem)
        defined |= set(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.M))
    assert len(named) > 20
    missing = {n for n in named if n not in defined and n not in files}
    assert not missing, missing
