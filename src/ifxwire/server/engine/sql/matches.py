"""Informix MATCHES patterns (* ? [..] [^..] and an escape character) as SQLite GLOB patterns
and as the regular expressions the ``ifx_matches`` function tests them with (moved out of
functions.py, unchanged)."""

from __future__ import annotations

import re
from functools import lru_cache


def matches_to_glob(pattern: str, escape: str = "\\") -> str:
    """Informix MATCHES pattern (* ? [..] [^..], escape char) as a SQLite GLOB pattern."""
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if escape and ch == escape and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(f"[{nxt}]" if nxt in "*?[]" else nxt)
            i += 2
            continue
        if ch == "[":
            j = pattern.find("]", i + 1)
            if j < 0:
                out.append("[[]")
                i += 1
                continue
            out.append(pattern[i : j + 1])
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def glob_regex(glob: str) -> re.Pattern[str]:
    parts = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if ch == "*":
            parts.append(".*")
        elif ch == "?":
            parts.append(".")
        elif ch == "[":
            j = glob.find("]", i + 2)
            body = glob[i + 1 : j]
            if body.startswith("^"):
                body = "^" + re.escape(body[1:]).replace("\\-", "-")
            else:
                body = re.escape(body).replace("\\-", "-")
            parts.append(f"[{body}]")
            i = j
        else:
            parts.append(re.escape(ch))
        i += 1
    return re.compile("".join(parts), re.DOTALL)
