"""What the manual-round tests (test_manual_*.py) run a statement with: its rows, or the
sqlcode it fails with. One place, so each round's file keeps only its cases."""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire


def rows(cur: ifxwire.Cursor, sql: str, params: Any = None, *,
         strip: bool = False) -> list[tuple[Any, ...]]:
    """The statement's rows as tuples; ``strip``: CHAR values without their padding (the
    manuals print them so)."""
    cur.execute(sql, params)
    if strip:
        return [tuple(v.rstrip() if isinstance(v, str) else v for v in r)
                for r in cur.fetchall()]
    return [tuple(r) for r in cur.fetchall()]


def sqlcode(cur: ifxwire.Cursor, sql: str, params: Any = None, *, fetch: bool = True) -> int:
    """The sqlcode the statement fails with; ``fetch``: the error may come at the fetch (a
    query's rows are computed as they are read), so the rows are fetched too. A statement
    that succeeds fails the test."""
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql, params)
        if fetch:
            cur.fetchall()
    return int(info.value.sqlcode)  # type: ignore[attr-defined]
