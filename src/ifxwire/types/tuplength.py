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

Later VARCHARs (``merge_later_texts``): a run that ends with a VARCHAR's length byte and the
run after that VARCHAR are read by one ``unpack_from`` the same way, the length read first.
These reads are inside the row's ``try``, so a failing one sends the row to decode_row as the
two reads did, and need no slack: a valid row's reads stay inside the row. Pairs do not chain
(a table cannot be chosen by two lengths): the next pair starts at the run after the merged
one's VARCHAR. Two reads whose targets share a name (two inline DECIMALs both call their
digits ``_x0``...) are left apart. callgrind, a row of INT, VARCHAR, INT, VARCHAR, FLOAT, INT,
NVARCHAR, SMALLINT: 10 583 → 10 262 instructions.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

__all__ = ["merge_first_text", "merge_later_texts"]

#: An unpack at ``o``: the struct run (or inline DECIMAL) right after a VARCHAR.
_AFTER_TEXT = re.compile(r"^(\s*)((?:\w+, )+)= (_[SM]\d+)\.unpack_from\(buf, o\)$")
#: The value statement of a VARCHAR in the loop (its NULL test reads the length ``n``).
_TEXT_VALUE = re.compile(r"c\d+ = None if n == 1 and buf\[_v\] == 0 else ")
#: A statement that reads ``n``.
_LENGTH_USE = re.compile(r"\bn\b")
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


def _text_then_run(body: Sequence[str], i: int) -> re.Match[str] | None:
    """The unpack of the run right after the VARCHAR whose statements start at ``body[i]``
    (``_v = ...``, ``o = _v + n``, the value), or None when they are not that."""
    if i + 3 >= len(body):
        return None
    if body[i + 1].strip() != "o = _v + n" or not _TEXT_VALUE.match(body[i + 2].strip()):
        return None
    return _AFTER_TEXT.match(body[i + 3])


def _renamed(body: Sequence[str], i: int, name: str) -> list[str]:
    """The VARCHAR's statements at ``body[i]`` with its length called ``name``, not ``n``."""
    indent = body[i][: len(body[i]) - len(body[i].lstrip())]
    return [
        body[i],
        f"{indent}o = _v + {name}",
        indent + body[i + 2].strip().replace("None if n == 1", f"None if {name} == 1", 1),
    ]


def _overlap(first: Sequence[str], second: str) -> bool:
    """Whether the targets of a read (``second``, as written) reuse a name of ``first`` other
    than the VARCHAR length ``n`` (which the merge renames)."""
    names = {t for t in first if t and t != "n"}
    return any(t in names for t in second.split(", ") if t)


def _new_table(ns: dict[str, Any], head: str, tail: str, at: int) -> str:
    name = f"_L{len([k for k in ns if k.startswith('_L')])}"
    ns[name] = _table(head, tail, at)
    return name


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
    if start not in lines:
        return None
    i = lines.index(start)
    after = _text_then_run(body, i)
    if after is None or any(_LENGTH_USE.search(line) for line in lines[:i]):
        return None
    if _overlap(targets[:-1], after.group(2)):
        return None
    run = ns[after.group(3)].format.lstrip(">")
    name = _new_table(ns, head[:-1], run, min_len - 1)
    merged_targets = ", ".join([*targets[:-1], after.group(2).rstrip(", ")])
    reads = [
        f"{LENGTH} = buf[p + {min_len - 1}]",
        f"code, size, {merged_targets}, = {name}[{LENGTH}].unpack_from(buf, p)",
    ]
    merged = [*body[:i], *_renamed(body, i, LENGTH), *body[i + 4 :]]
    return reads, merged, min_len + 255 + struct.calcsize(">" + run)


def merge_later_texts(body: Sequence[str], ns: dict[str, Any]) -> list[str]:
    """``body`` with each run that ends with a VARCHAR's length and is followed, after that
    VARCHAR, by another run read by one ``unpack_from`` (the length read first, as for the
    first VARCHAR). Inside the row's ``try``, so a read that fails sends the row to
    decode_row, as the two reads did; a valid row's reads never leave the row."""
    out = list(body)
    i, count = 0, 1
    while i < len(out):
        run = _AFTER_TEXT.match(out[i])
        fmt = "" if run is None else ns[run.group(3)].format.lstrip(">")
        if run is None or not run.group(2).endswith("n, ") or not fmt.endswith("B"):
            i += 1
            continue
        width = struct.calcsize(">" + fmt)
        start = f"_v = o + {width}"
        j = i + 1
        while j < len(out) and out[j].strip() != start:
            if _LENGTH_USE.search(out[j]) or re.match(r"\s*o =", out[j]):
                break
            j += 1
        after = _text_then_run(out, j) if j < len(out) and out[j].strip() == start else None
        if after is None or _overlap(run.group(2).split(", "), after.group(2)):
            # (two inline DECIMALs name their digits alike: the first's would be overwritten)
            i += 1
            continue
        count += 1
        length = f"_n{count}"
        tail = ns[after.group(3)].format.lstrip(">")
        name = _new_table(ns, ">" + fmt[:-1], tail, width - 1)
        targets = ", ".join([run.group(2).removesuffix("n, ").rstrip(", "),
                             after.group(2).rstrip(", ")]).strip(", ")
        ind = run.group(1)
        out[i : j + 4] = [
            f"{ind}{length} = buf[o + {width - 1}]",
            f"{ind}{targets}, = {name}[{length}].unpack_from(buf, o)",
            *out[i + 1 : j],
            *_renamed(out, j, length),
        ]
        # The merged read may end with the next VARCHAR's length, but a table cannot be
        # chosen by two lengths: the next pair starts at the run after that VARCHAR.
        i += 2
    return out
