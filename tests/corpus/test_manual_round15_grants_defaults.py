"""GRANT, DEFAULT clauses and WITH CHECK OPTION refusals, fifteenth round (issue 23), through
the real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "DEFAULT clause of CREATE TABLE"
(ids_sqs_0101: "You cannot specify default values for SERIAL, BIGSERIAL, or SERIAL8 columns";
with NULL as the default "you cannot specify a NOT NULL constraint"), "DEFAULT clause of ALTER
TABLE" (ids_sqs_0080), "WITH CHECK OPTION Keywords" (ids_sqs_0648) and "Union Views"
(ids_sqs_0645: no WITH CHECK OPTION with a set operator). The codes are those of IBM's message
catalogue in the JDBC jar [jcat] whose texts name each case: -299 "Cannot grant permission to
self.", -298 "Cannot grant permission to public with grant option.", -323 "Cannot grant
permission on temporary table.", -592 "Cannot specify column to be not null when the default
value is null.", -593 "Cannot specify default value for SERIAL column.", -940 "The statement
failed because the WITH CHECK OPTION keywords are not supported in UNION, INTERSECT, or MINUS
views.". No page names the GRANT codes: that a server sends them here is our inference from
the texts. Before this round the three GRANTs and the two DEFAULTs were accepted, and the
union view WITH CHECK OPTION was -999.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "grant15") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (a INT, b INT)")
        yield c


def _user(cur: ifxwire.Cursor) -> str:
    return str(rows(cur, "SELECT USER FROM systables WHERE tabid = 1")[0][0]).strip()


def test_grants_the_catalogue_refuses(cur: ifxwire.Cursor) -> None:
    me = _user(cur)
    assert sqlcode(cur, f"GRANT SELECT ON t TO {me}", fetch=False) == -299
    assert sqlcode(cur, "GRANT SELECT ON t TO PUBLIC WITH GRANT OPTION", fetch=False) == -298
    cur.execute("CREATE TEMP TABLE tt (x INT)")
    assert sqlcode(cur, "GRANT SELECT ON tt TO joe", fetch=False) == -323
    # their neighbours stay accepted
    cur.execute("GRANT SELECT ON t TO PUBLIC")
    cur.execute("GRANT SELECT ON t TO joe WITH GRANT OPTION")
    cur.execute(f"REVOKE SELECT ON t FROM {me}")  # not granted: nothing to remove


@pytest.mark.parametrize(("sql", "code"), [
    ("CREATE TABLE d1 (a SERIAL DEFAULT 3)", -593),
    ("CREATE TABLE d2 (a SERIAL8 DEFAULT 3)", -593),
    ("CREATE TABLE d3 (a BIGSERIAL DEFAULT 3)", -593),
    ("CREATE TABLE d4 (a INT DEFAULT NULL NOT NULL)", -592),
    ("ALTER TABLE t ADD (c INT DEFAULT NULL NOT NULL)", -592),
    ("ALTER TABLE t MODIFY (a SERIAL DEFAULT 1)", -593),
])
def test_defaults_the_page_refuses(cur: ifxwire.Cursor, sql: str, code: int) -> None:
    assert sqlcode(cur, sql, fetch=False) == code


def test_defaults_the_page_allows(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE ok1 (a INT DEFAULT NULL, b INT DEFAULT 5 NOT NULL, s SERIAL)")
    cur.execute("INSERT INTO ok1 (s) VALUES (0)")
    assert rows(cur, "SELECT a, b, s FROM ok1") == [(None, 5, 1)]


def test_with_check_option_on_a_union_view_is_940(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE u (c INT)")
    assert sqlcode(cur, "CREATE VIEW vu AS SELECT a FROM t UNION SELECT c FROM u "
                        "WITH CHECK OPTION", fetch=False) == -940
    cur.execute("CREATE VIEW vu AS SELECT a FROM t UNION SELECT c FROM u")
    cur.execute("CREATE VIEW vc AS SELECT a, b FROM t WHERE a > 0 WITH CHECK OPTION")
    assert sqlcode(cur, "INSERT INTO vc VALUES (-1, 2)", fetch=False) == -385  # unchanged
