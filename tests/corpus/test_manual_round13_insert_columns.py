"""A column named twice in an INSERT column list, thirteenth round (issue 23), through the real
driver and the embedded server over sockets.

Source: IBM's message catalogue in the JDBC jar (sql_en_US.properties), -681 "Column specified
more than once in the INSERT list.": the code a server sends for exactly this statement.
Before this round the server let SQLite take one of the two values and reported one row
inserted. A delimited identifier keeps its case (DELIMIDENT); an undelimited one folds, so
`(a, A)` names one column twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "inscols13") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (a INT, b INT)")
        yield c


def test_a_column_twice_is_681(cur: ifxwire.Cursor) -> None:
    """VALUES and SELECT forms, the same name in another case; nothing is inserted."""
    assert sqlcode(cur, "INSERT INTO t (a, b, a) VALUES (1, 2, 3)") == -681
    assert sqlcode(cur, "INSERT INTO t (a, b, A) VALUES (1, 2, 3)") == -681
    cur.execute("INSERT INTO t VALUES (1, 2)")
    assert sqlcode(cur, "INSERT INTO t (b, b) SELECT a, b FROM t") == -681
    assert rows(cur, "SELECT a, b FROM t") == [(1, 2)]


def test_each_column_once_runs(cur: ifxwire.Cursor) -> None:
    cur.execute("INSERT INTO t (b, a) VALUES (1, 2)")
    cur.execute("INSERT INTO t (a) SELECT b FROM t")
    assert rows(cur, "SELECT a, b FROM t ORDER BY 1") == [(1, None), (2, 1)]
