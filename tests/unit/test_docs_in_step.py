"""The documents that list facts from the code must list the same facts."""

from __future__ import annotations

import re
from pathlib import Path

from ifxwire.server.engine import sqlcodes

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
