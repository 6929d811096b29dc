"""One ``unpack_from`` for the tuple loop's row head *and* the struct run after its first
VARCHAR: the VARCHAR's length byte is read first and picks, from a table of 256 precompiled
structs, the one that skips exactly that many bytes of text.

Why: each ``unpack_from`` costs about a thousand machine instructions in CPython 3.11 (the
call, the buffer export, the result tuple), and the bench's 5-column row (INT, VARCHAR, INT,
FLOAT, VARCHAR) needs two. Reading the length byte and indexing a list costs a fifth of that:
callgrind counts 7 371 → 7 046 instructions a row of select_scaling's shape (1000 rows)
for this alone (6 918 with the NULL tests of rowcodec.py's ``_SMALL``).

From the row's start the merged struct reads the header, the lead, up to 255 bytes of text
it skips and the run after it, so the loop uses it only while that many bytes are left in the
window (``slack``); the window's last rows go through the plain loop. A row whose length byte
lies (points past the row) is read as far as the struct goes and then fails the row's size
check and goes to decode_row (in the plain loop the same row fails the run's unpack or the
size check: the same fallback). The structs are made on first use of each length (most columns
see a few dozen lengths), and tables are shared by every decoder with the same formats.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

__all__ = ["merge_first_text"]

#: The unpack of the struct run (or inline DECIMAL) that directly follows the first VARCHAR.
_AFTER_TEXT = re.compile(r"^(\s*)((?:\w+, )+)= (_[SM]\d+)\.unpack_from\(buf, o\)$")
#: The name the loop gives the first VARCHAR's length (``n`` is the run's own, after it).
LENGTH = "_n1"


class _Fill:
    """What a table holds for a length not seen yet: makes that length's struct, puts it in
    the table, and reads with it (so later rows index the struct directly, with no test)."""

    __slots__ = ("at", "head", "table", "tail")

    def __init__(self, table: list[Any], at: int, head: str, tail: str) -> None:
        self.table, self.at, self.head, self.tail = table, at, head, tail

    def unpack_from(self, buf: Any, pos: int) -> tuple[Any, ...]:
        length = buf[pos + self.at]
        made = struct.Struct(f"{self.head}{length + 1}x{self.tail}")
        self.table[length] = made
        return made.unpack_from(buf, pos)


@lru_cache(maxsize=64)
def _table(head: str, tail: str, at: int) -> list[Any]:
    table: list[Any] = []
    table += [_Fill(table, at, head, tail)] * 256
    return table


def merge_first_text(
    body: Sequence[str], head: str, targets: Sequence[str], min_len: int, ns: dict[str, Any]
) -> tuple[list[str], list[str], int] | None:
    """The merged form of the loop's row, or None when the row does not start that way.

    ``head`` is the struct format the loop reads at the row's start (SQ_TUPLE header and the
    lead run, ending with the first VARCHAR's length byte ``B`` into ``n``); ``body`` the
    row's statements. Returns (the statements reading the row's head, the body without the
    run's own unpack, the bytes a window must still hold from the row's start).
    """
    if not targets or targets[-1] != "n" or not head.endswith("B"):
        return None
    start = f"_v = p + {min_len}"
    lines = [line.strip() for line in body]
    try:
        i = lines.index(start)
    except ValueError:
        return None
    if i + 3 >= len(lines) or any(re.search(r"\bn\b", line) for line in lines[:i]):
        return None
    text_line = lines[i + 2]
    after = _AFTER_TEXT.match(body[i + 3])
    if (
        lines[i + 1] != "o = _v + n"
        or not re.match(r"c\d+ = None if n == 1 and buf\[_v\] == 0 else ", text_line)
        or after is None
    ):
        return None
    run = ns[after.group(3)].format.lstrip(">")
    name = f"_L{len([k for k in ns if k.startswith('_L')])}"
    ns[name] = _table(head[:-1], run, min_len - 1)
    merged_targets = ", ".join([*targets[:-1], after.group(2).rstrip(", ")])
    reads = [
        f"{LENGTH} = buf[p + {min_len - 1}]",
        f"code, size, {merged_targets}, = {name}[{LENGTH}].unpack_from(buf, p)",
    ]
    indent = body[i][: len(body[i]) - len(body[i].lstrip())]
    merged = [
        *body[:i],
        body[i],
        f"{indent}o = _v + {LENGTH}",
        indent + text_line.replace("None if n == 1", f"None if {LENGTH} == 1", 1),
        *body[i + 4 :],
    ]
    return reads, merged, min_len + 255 + struct.calcsize(">" + run)
