"""Run an SQL corpus file against the server through the ifxwire driver and check it.

A corpus file is a script as dbaccess would run it: statements end with ``;``, and a CREATE
PROCEDURE / CREATE FUNCTION runs up to its ``END PROCEDURE`` / ``END FUNCTION`` (and any
DOCUMENT clause) whatever semicolons its body holds. After a statement, comment lines state
what it must do:

* ``-- @rows: <Python literal>``: the rows it returns, compared exactly (``Decimal``, ``date``,
  ``datetime`` and ``timedelta`` may be used in the literal);
* ``-- @error: <sqlcode> [<isamcode>]``: the Informix error it must fail with;
* ``-- @count: <n>``: the row count an INSERT/UPDATE/DELETE or EXECUTE reports.

A statement without a directive must simply succeed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import ifxwire

_ROUTINE = re.compile(r"^\s*CREATE\s+(DBA\s+)?(PROCEDURE|FUNCTION)\b", re.IGNORECASE)
_END = re.compile(r"\bEND\s+(PROCEDURE|FUNCTION)\b", re.IGNORECASE)
_NAMES = {"Decimal": Decimal, "date": dt.date, "datetime": dt.datetime,
          "timedelta": dt.timedelta}


@dataclass
class Statement:
    sql: str
    line: int
    rows: Any = None
    error: tuple[int, ...] | None = None
    count: int | None = None
    directives: list[str] = field(default_factory=list)


def _scan(text: str) -> list[tuple[str, int, str]]:
    """Split into (kind, line, text) pieces: 'sql' up to a top-level ';', or 'directive'."""
    out: list[tuple[str, int, str]] = []
    buf: list[str] = []
    line = 1
    start_line = 1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        if ch in "'\"":
            j = i + 1
            while j < n:
                if text[j] == ch:
                    if j + 1 < n and text[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            buf.append(text[i : j + 1])
            line += text.count("\n", i, j + 1)
            i = j + 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comment = text[i:j]
            if comment.startswith("-- @"):
                if "".join(buf).strip():
                    raise ValueError(f"line {line}: a directive inside a statement")
                out.append(("directive", line, comment[4:].strip()))
            i = j
            continue
        if ch == "{":
            j = text.find("}", i)
            j = n if j < 0 else j + 1
            line += text.count("\n", i, j)
            i = j
            continue
        if not "".join(buf).strip() and not ch.isspace():
            start_line = line
        if ch == ";":
            sql = "".join(buf).strip()
            routine = bool(_ROUTINE.match(sql))
            if routine and not _END.search(sql):
                buf.append(ch)
                i += 1
                continue
            out.append(("sql", start_line, sql))
            buf = []
            i += 1
            continue
        buf.append(ch)
        i += 1
    if "".join(buf).strip():
        raise ValueError(f"line {start_line}: the last statement has no ';'")
    return out


def parse_corpus(path: Path) -> list[Statement]:
    statements: list[Statement] = []
    for kind, line, text in _scan(path.read_text()):
        if kind == "sql":
            statements.append(Statement(text, line))
            continue
        if not statements:
            raise ValueError(f"{path.name}:{line}: a directive before any statement")
        st = statements[-1]
        st.directives.append(text)
        key, _, value = text.partition(":")
        if key == "rows":
            st.rows = eval(value.strip(), {"__builtins__": {}}, dict(_NAMES))
        elif key == "error":
            st.error = tuple(int(v) for v in value.split())
        elif key == "count":
            st.count = int(value)
        else:
            raise ValueError(f"{path.name}:{line}: unknown directive {key!r}")
    return statements


def run_corpus(path: Path, connect_kwargs: dict[str, Any], dbname: str) -> int:
    """Run every statement of ``path`` in a new logged database; return how many ran."""
    statements = parse_corpus(path)
    with ifxwire.connect(**connect_kwargs, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute(f"CREATE DATABASE {dbname} WITH LOG")
        for st in statements:
            where = f"{path.name}:{st.line}: {st.sql[:80]!r}"
            try:
                cur.execute(st.sql)
                rows = cur.fetchall() if cur.description is not None else None
            except ifxwire.DatabaseError as e:
                code = getattr(e, "sqlcode", None)
                isam = getattr(e, "isamcode", None)
                if st.error is None:
                    raise AssertionError(f"{where} failed: {e}") from e
                got = (code, isam)[: len(st.error)]
                assert got == st.error, f"{where}: expected error {st.error}, got {got}: {e}"
                continue
            assert st.error is None, f"{where}: expected error {st.error}, it succeeded"
            if st.rows is not None:
                assert rows == st.rows, f"{where}:\n  expected {st.rows!r}\n  got      {rows!r}"
            if st.count is not None:
                assert cur.rowcount == st.count, f"{where}: rowcount {cur.rowcount}"
        cur.execute("CLOSE DATABASE")
        cur.execute(f"DROP DATABASE {dbname}")
    return len(statements)
