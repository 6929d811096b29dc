"""What the manual-round tests (test_manual_*.py) run a statement with: its rows, or the
sqlcode it fails with. One place, so each round's file keeps only its cases."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
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


_DATABASES = itertools.count()


@contextmanager
def fresh_database(connect_kwargs: dict[str, Any], prefix: str) -> Iterator[ifxwire.Connection]:
    """A new logged database named ``prefix_N`` and an autocommit connection to it: one per
    case, so that routines and tables a case creates never meet the next case's."""
    name = f"{prefix}_{next(_DATABASES)}"
    with ifxwire.connect(**connect_kwargs, autocommit=True) as conn:
        conn.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
    conn = ifxwire.connect(**connect_kwargs, database=name, autocommit=True)
    try:
        yield conn
    finally:
        conn.close()


def dollar_accounts(c: ifxwire.Cursor) -> None:
    """The DISTINCT type ``dollars`` over DECIMAL(10,2) and table ``acct`` of two rows with a
    dollars column and a plain DECIMAL one (the casts and SPL rounds' schema, modelled on
    the pages' ``CREATE DISTINCT TYPE dollars AS DECIMAL``)."""
    c.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
    c.execute("CREATE TABLE acct (id INT, bal dollars, plain DECIMAL(10,2))")
    c.execute("INSERT INTO acct VALUES (1, 12.5::dollars, 12.5)")
    c.execute("INSERT INTO acct VALUES (2, 7.25::dollars, 1.0)")
