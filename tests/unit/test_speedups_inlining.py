"""The row decoder's per-cell helpers stay inlined in the built ``_speedups`` (issue 24).

Why: ``decode_row_into`` is inlined into two callers (the tuple path and ``decode_dicts``), so
a helper it calls at one place has two call sites, and gcc -O3 then stopped inlining
``civil_from_days`` (DATE), ``decode_char`` (CHAR) and ``complex_fast`` (collections of
integers): a call per cell, codec decode_date 393 -> 411 instructions a cell, over issue 24's
3 % bound against 9a91c27. They are forced inline (``IFX_ALWAYS_INLINE``); a function that is
inlined everywhere leaves no symbol of its own in the module, which ``nm`` shows without
timing anything. Skipped where it cannot be read: no ``nm``, the module not built, or a
stripped module (no local symbols at all).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

#: Helpers called once per cell from decode_row_into; each must be inlined wherever called.
INLINED = ("civil_from_days", "decode_char", "complex_fast")


def _local_text_symbols() -> set[str]:
    speedups = pytest.importorskip("ifxwire._speedups")
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("no nm on this machine")
    out = subprocess.run([nm, speedups.__file__], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        pytest.skip(f"nm cannot read the module: {out.stderr.strip()[:200]}")
    names = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "t":
            names.add(parts[2].split(".")[0])  # gcc's clones: name.constprop.0, name.isra.0
    if "make_row_decoder" not in names:
        pytest.skip("the module has no local symbols (stripped): nothing to read")
    return names


def test_cell_helpers_have_no_out_of_line_copy() -> None:
    names = _local_text_symbols()
    assert not names & set(INLINED), (
        f"called out of line (a call per cell): {sorted(names & set(INLINED))}")
