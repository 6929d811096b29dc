"""INTERSECT ALL, MINUS ALL and EXCEPT ALL, twelfth round (issue 23), through the real driver
and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "Set operators in combined queries"
(ids_sqs_1822: the grammar is UNION [ALL], INTERSECT, MINUS, EXCEPT), "MINUS operator"
(ids_sqs_1836: "MINUS does not support the ALL keyword"). IBM's message catalogue has no code
of its own for the keyword, so the refusal is the grammar's, -201 near ALL (inferred); it was
-999 (sqlglot read them as the standard's multiset operators, which nothing ran).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "setall") as conn:
        c = conn.cursor()
        for name, values in (("t1", [1, 2, 2, 3]), ("t2", [2, 2, 4])):
            c.execute(f"CREATE TABLE {name} (col1 INT)")
            c.executemany(f"INSERT INTO {name} VALUES (?)", [(v,) for v in values])
        yield c


@pytest.mark.parametrize("op", ["INTERSECT ALL", "MINUS ALL", "EXCEPT ALL"])
def test_all_after_intersect_minus_except_is_a_syntax_error(cur: ifxwire.Cursor,
                                                             op: str) -> None:
    """Only UNION takes ALL (ids_sqs_1822, ids_sqs_1836): -201 at the top level, in a
    subquery, in a view's query and after another set operator."""
    assert sqlcode(cur, f"SELECT col1 FROM t1 {op} SELECT col1 FROM t2") == -201
    assert sqlcode(cur, f"SELECT col1 FROM t1 WHERE col1 IN (SELECT col1 FROM t1 {op} "
                        "SELECT col1 FROM t2)") == -201
    assert sqlcode(cur, f"CREATE VIEW v1 AS SELECT col1 FROM t1 {op} "
                        "SELECT col1 FROM t2") == -201
    assert sqlcode(cur, f"SELECT col1 FROM t1 UNION SELECT col1 FROM t2 {op} "
                        "SELECT col1 FROM t1") == -201


def test_the_operators_without_all_and_union_all(cur: ifxwire.Cursor) -> None:
    """The distinct results the pages define (ids_sqs_1834, ids_sqs_1836) and UNION ALL's
    duplicates stay as they were."""
    assert rows(cur, "SELECT col1 FROM t1 INTERSECT SELECT col1 FROM t2") == [(2,)]
    assert rows(cur, "SELECT col1 FROM t1 MINUS SELECT col1 FROM t2 ORDER BY 1") == [
        (1,), (3,)]
    assert rows(cur, "SELECT col1 FROM t1 EXCEPT SELECT col1 FROM t2 ORDER BY 1") == [
        (1,), (3,)]
    assert rows(cur, "SELECT COUNT(*) FROM (SELECT col1 FROM t1 UNION ALL "
                     "SELECT col1 FROM t2)") == [(7,)]
