"""Splitting SQL text into statements at ``;``, as Informix tools do.

A ``;`` ends a statement unless it is inside a ``'…'``/``"…"`` literal or a comment (``--``,
``/* */``, Informix's ``{ }``), or inside the body of ``CREATE [DBA] PROCEDURE|FUNCTION``, which
ends at ``END PROCEDURE``/``END FUNCTION``.
"""

from __future__ import annotations

import re

from ..client.placeholders import _find_end, _skip_quoted

_ROUTINE = re.compile(r"^\s*CREATE\s+(?:DBA\s+)?(PROCEDURE|FUNCTION)\b", re.IGNORECASE)


def _code_only(text: str) -> str:
    """``text`` with literals and comments blanked out (same length)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = _skip_quoted(text, i, ch)
        elif text.startswith("--", i):
            j = _find_end(text, i, "\n")
        elif text.startswith("/*", i):
            j = _find_end(text, i + 2, "*/")
        elif ch == "{":
            j = _find_end(text, i, "}")
        else:
            out.append(ch)
            i += 1
            continue
        out.append(" " * (j - i))
        i = j
    return "".join(out)


def split(text: str) -> tuple[list[str], str]:
    """(complete statements without their ``;``, the unfinished rest)."""
    code = _code_only(text)
    statements: list[str] = []
    start = 0
    pos = 0
    while True:
        semi = code.find(";", pos)
        if semi < 0:
            break
        head = code[start:semi]
        routine = _ROUTINE.match(head)
        if routine is not None:
            end = re.search(rf"\bEND\s+{routine.group(1)}\b", head, re.IGNORECASE)
            if end is None:
                pos = semi + 1
                continue
        stmt = text[start:semi].strip()
        if stmt:
            statements.append(stmt)
        start = pos = semi + 1
    return statements, text[start:]


def is_complete(text: str) -> bool:
    """Whether ``text`` ends with a finished statement (only blanks after its ``;``)."""
    statements, rest = split(text)
    return bool(statements) and not _code_only(rest).strip()
