"""Load SQL corpus files into ifxwire-server through the real driver.

A corpus file is a script as dbaccess would run it: statements separated by semicolons,
comments in ``--``, ``{ }`` or ``/* */``, strings in single or double quotes (doubled to
escape). SPL routine bodies (``CREATE [DBA] PROCEDURE|FUNCTION … END PROCEDURE|FUNCTION``)
hold semicolons of their own and are kept whole.

Used by the corpus tests and meant for any test that wants stores_demo::

    from tests.corpus.loader import create_database
    create_database(connect_kwargs, "stores_demo")      # schema + data, logged database
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import ifxwire

CORPUS = Path(__file__).parent
STORES_DEMO = CORPUS / "stores_demo"

_ROUTINE_START = re.compile(r"\s*create\s+(dba\s+)?(procedure|function)\b", re.IGNORECASE)
_ROUTINE_END = re.compile(r"\bend\s+(procedure|function)\b[^;]*$", re.IGNORECASE)


def _segments(text: str) -> Iterator[str]:
    """Split at top-level semicolons, dropping comments, keeping quoted text intact."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = i + 1
            while j < n:
                if text[j] == ch:
                    if j + 1 < n and text[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif ch == "{":
            j = text.find("}", i)
            i = n if j < 0 else j + 1
            out.append(" ")
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif ch == ";":
            yield "".join(out)
            out = []
            i += 1
        else:
            out.append(ch)
            i += 1
    yield "".join(out)


def statements(text: str) -> list[str]:
    """The statements of a script, in order, without their terminating semicolons."""
    result: list[str] = []
    pending: list[str] | None = None
    for seg in _segments(text):
        if pending is not None:
            pending.append(seg)
            joined = ";".join(pending)
            if _ROUTINE_END.search(joined):
                result.append(joined.strip())
                pending = None
            continue
        if _ROUTINE_START.match(seg) and not _ROUTINE_END.search(seg):
            pending = [seg]
            continue
        if seg.strip():
            result.append(seg.strip())
    if pending is not None:
        result.append(";".join(pending).strip())
    return result


def run_script(conn: ifxwire.Connection, path: Path | str) -> int:
    """Execute every statement of ``path`` on ``conn``; returns how many ran. A failing
    statement raises the driver's error with the statement attached as a note."""
    text = Path(path).read_text(encoding="utf-8")
    cur = conn.cursor()
    count = 0
    try:
        for stmt in statements(text):
            try:
                cur.execute(stmt)
            except ifxwire.Error as e:
                e.add_note(f"while running {Path(path).name} statement {count + 1}: {stmt}")
                raise
            count += 1
    finally:
        cur.close()
    return count


def create_database(connect_kwargs: Mapping[str, Any], name: str = "stores_demo", *,
                    data: bool = True, log: str = "WITH LOG") -> str:
    """Create database ``name`` (``log``: '' unlogged, 'WITH LOG', 'WITH LOG MODE ANSI')
    holding stores_demo's schema and, unless ``data`` is false, its rows. Returns ``name``."""
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    try:
        conn.cursor().execute(f"CREATE DATABASE {name} {log}".strip())
        run_script(conn, STORES_DEMO / "schema.sql")
        if data:
            run_script(conn, STORES_DEMO / "data.sql")
    finally:
        conn.close()
    return name
