"""Run an SQL corpus file against the server through the ifxwire driver and check it.

The file is split into statements by the corpus loader (``loader.statements``: dbaccess
rules, routine bodies kept whole). After a statement, comment lines state what it must do:

* ``-- @rows: <Python literal>``: the rows it returns, compared exactly (``Decimal``, ``date``,
  ``datetime`` and ``timedelta`` may be used in the literal);
* ``-- @error: <sqlcode> [<isamcode>]``: the Informix error it must fail with;
* ``-- @count: <n>``: the row count an INSERT/UPDATE/DELETE reports.

A statement without a directive must simply succeed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import ifxwire

from .loader import statements

_NAMES = {"Decimal": Decimal, "date": dt.date, "datetime": dt.datetime,
          "timedelta": dt.timedelta}


@dataclass
class Statement:
    sql: str
    rows: Any = None
    error: tuple[int, ...] | None = None
    count: int | None = None


def parse_corpus(path: Path) -> list[Statement]:
    """The statements of ``path``, each with the directives that follow it."""
    out: list[Statement] = []
    pending: list[str] = []

    def flush() -> None:
        out.extend(Statement(sql) for sql in statements("\n".join(pending)))
        pending.clear()

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("-- @"):
            pending.append(line)
            continue
        flush()
        if not out:
            raise ValueError(f"{path.name}:{number}: a directive before any statement")
        st = out[-1]
        key, _, value = line[4:].partition(":")
        if key == "rows":
            st.rows = eval(value.strip(), {"__builtins__": {}}, dict(_NAMES))
        elif key == "error":
            st.error = tuple(int(v) for v in value.split())
        elif key == "count":
            st.count = int(value)
        else:
            raise ValueError(f"{path.name}:{number}: unknown directive {key!r}")
    flush()
    return out


def run_checked(conn: ifxwire.Connection, path: Path) -> int:
    """Run every statement of ``path`` on ``conn`` (autocommit) and check its directives;
    returns how many ran."""
    cur = conn.cursor()
    parsed = parse_corpus(path)
    for number, st in enumerate(parsed, 1):
        where = f"{path.name} statement {number}: {st.sql[:80]!r}"
        try:
            cur.execute(st.sql)
            rows = cur.fetchall() if cur.description is not None else None
        except ifxwire.DatabaseError as e:
            if st.error is None:
                raise AssertionError(f"{where} failed: {e}") from e
            got = (getattr(e, "sqlcode", None), getattr(e, "isamcode", None))[: len(st.error)]
            assert got == st.error, f"{where}: expected error {st.error}, got {got}: {e}"
            continue
        assert st.error is None, f"{where}: expected error {st.error}, it succeeded"
        if st.rows is not None:
            assert rows == st.rows, f"{where}:\n  expected {st.rows!r}\n  got      {rows!r}"
        if st.count is not None:
            assert cur.rowcount == st.count, f"{where}: rowcount {cur.rowcount}"
    return len(parsed)
