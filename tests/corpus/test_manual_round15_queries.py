"""FROM-clause names, MERGE aliases, FOR UPDATE OF columns, index key parts and the
DEFAULTs of large objects and primary keys, fifteenth round (issue 23), through the real
driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, MERGE statement (ids_sqs_2030: "The source and
target aliases must be different"), "FOR UPDATE Clause" (ids_sqs_0161: a column "Must be in the
FROM clause table"), "Creating Composite Indexes" (ids_sqs_0409: "You can include up to 16
columns in a composite index"), "DEFAULT clause of CREATE TABLE" (ids_sqs_0101: "NULL is not
a valid default value for a column that is part of a primary key"; for BYTE, TEXT, BLOB and
CLOB columns NULL is the only default). The codes are those of IBM's message catalogue in the
JDBC jar [jcat] whose texts name each case: -223 "Duplicate table name (%s) in the FROM
clause.", -517 "The total size of the index is too large or too many parts in index.", -286
"Default value of the primary key column %s is NULL.", -594 "Cannot specify non-null default
value for blob column.". Inferences: -223 for MERGE's two aliases (the page names no code),
-217 for a FOR UPDATE OF column outside the table (the code for a column no table has). Before
this round the FROM and MERGE cases were -217 (or ran when both names were one table), the
FOR UPDATE OF columns were ignored, 17 index columns were -201 and both DEFAULTs accepted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "qry15") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (a INT, b INT)")
        c.execute("CREATE TABLE u (c INT, d INT)")
        c.execute("INSERT INTO t VALUES (1, 2)")
        c.execute("INSERT INTO u VALUES (1, 5)")
        yield c


@pytest.mark.parametrize("sql", [
    "SELECT * FROM t, t",
    "SELECT * FROM t x, u x",
    "SELECT * FROM t JOIN t ON t.a = t.a",
    "SELECT * FROM t, OUTER t",
    "SELECT * FROM t, (SELECT c FROM u) t",
])
def test_one_name_twice_in_a_from_clause_is_223(cur: ifxwire.Cursor, sql: str) -> None:
    assert sqlcode(cur, sql) == -223


def test_names_that_differ_or_sit_in_a_subquery_pass(cur: ifxwire.Cursor) -> None:
    assert rows(cur, "SELECT t.a, x.a FROM t, t x") == [(1, 1)]
    assert rows(cur, "SELECT a FROM t x WHERE a IN (SELECT c FROM u x)") == [(1,)]
    assert rows(cur, "SELECT a FROM t WHERE a IN (SELECT a FROM t)") == [(1,)]


def test_merge_source_and_target_aliases_must_differ(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "MERGE INTO t AS x USING u AS x ON x.a = x.c "
                        "WHEN MATCHED THEN UPDATE SET b = 9", fetch=False) == -223
    assert sqlcode(cur, "MERGE INTO t USING t ON t.a = t.a "
                        "WHEN MATCHED THEN UPDATE SET b = 9", fetch=False) == -223
    assert rows(cur, "SELECT b FROM t") == [(2,)]
    cur.execute("MERGE INTO t AS x USING u AS y ON x.a = y.c WHEN MATCHED THEN UPDATE SET b = 9")
    assert rows(cur, "SELECT b FROM t") == [(9,)]


@pytest.mark.parametrize("sql", ["SELECT a FROM t FOR UPDATE OF c",
                                 "SELECT a FROM t FOR UPDATE OF u.c",
                                 "SELECT a FROM t FOR UPDATE OF t.zz"])
def test_for_update_of_names_the_from_table_s_columns(cur: ifxwire.Cursor, sql: str) -> None:
    assert sqlcode(cur, sql) == -217


def test_for_update_of_its_own_columns_passes(cur: ifxwire.Cursor) -> None:
    assert rows(cur, "SELECT a FROM t FOR UPDATE OF b") == [(1,)]  # need not be listed
    assert rows(cur, "SELECT a FROM t x FOR UPDATE OF x.b, a") == [(1,)]


def test_an_index_takes_at_most_16_columns(cur: ifxwire.Cursor) -> None:
    cols = [f"c{i}" for i in range(1, 18)]
    cur.execute(f"CREATE TABLE big ({', '.join(c + ' INT' for c in cols)})")
    assert sqlcode(cur, f"CREATE INDEX i17 ON big ({', '.join(cols)})", fetch=False) == -517
    cur.execute(f"CREATE INDEX i16 ON big ({', '.join(cols[:16])})")


@pytest.mark.parametrize(("sql", "code"), [
    ("CREATE TABLE p1 (a INT DEFAULT NULL PRIMARY KEY)", -286),
    ("CREATE TABLE p2 (a INT DEFAULT NULL, b INT, PRIMARY KEY (a, b))", -286),
    ("CREATE TABLE l1 (a INT, b TEXT DEFAULT 'x')", -594),
    ("CREATE TABLE l2 (a INT, b CLOB DEFAULT 'x')", -594),
])
def test_defaults_of_keys_and_large_objects(cur: ifxwire.Cursor, sql: str, code: int) -> None:
    assert sqlcode(cur, sql, fetch=False) == code


def test_their_allowed_neighbours(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE p3 (a INT DEFAULT 0 PRIMARY KEY, b BYTE DEFAULT NULL, "
                "c TEXT, d BLOB DEFAULT NULL)")


def test_one_index_per_columns_and_directions(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0413: several indexes on a set of columns, "provided that each index has a
    unique combination of ascending and descending columns"; a repeat is -350 [jcat], a
    constraint's index counting (IDS 10 Syntax: no ascending index on a column list already
    defined as unique)."""
    cur.execute("CREATE TABLE k (a INT UNIQUE, b INT, c INT)")
    cur.execute("CREATE INDEX k1 ON k (b, c)")
    assert sqlcode(cur, "CREATE INDEX k2 ON k (b, c)", fetch=False) == -350
    assert sqlcode(cur, "CREATE UNIQUE INDEX k3 ON k (b ASC, c ASC)", fetch=False) == -350
    assert sqlcode(cur, "CREATE INDEX k4 ON k (a)", fetch=False) == -350
    # other orders, directions or column lists are other indexes
    for sql in ("CREATE INDEX k5 ON k (c, b)", "CREATE INDEX k6 ON k (b DESC, c DESC)",
                "CREATE INDEX k7 ON k (b, c DESC)", "CREATE INDEX k8 ON k (b)",
                "CREATE INDEX k9 ON k (a DESC)"):
        cur.execute(sql)
    assert rows(cur, "SELECT COUNT(*) FROM sysindexes WHERE tabid = (SELECT tabid FROM "
                     "systables WHERE tabname = 'k')") == [(7,)]
