"""Indexes on temporary tables, twenty-eighth round (issue 23), through the real driver and the
embedded server over sockets. The statements are ours, modelled on the pages.

Pages: Guide to SQL: Syntax 14.10, CREATE INDEX (ids_sqs_0401: an index on "a standard or
temporary table"), DROP INDEX (ids_sqs_0718: the index "Must exist in the database"),
RENAME INDEX (ids_sqs_0941), CREATE TEMP TABLE (ids_sqs_0575: a temporary table is visible
to its session only). Before this round DROP INDEX and RENAME INDEX of a temporary table's
index were -319 "The index does not exist", and a second CREATE INDEX of its name was -999.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def conn(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Connection]:
    with fresh_database(connect_kwargs, "tempidx28") as c:
        yield c


def test_drop_and_rename_a_temp_tables_index(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE tt (a INT, b INT)")
    cur.execute("CREATE INDEX ix ON tt (a)")
    cur.execute("RENAME INDEX ix TO iy")
    assert sqlcode(cur, "DROP INDEX ix", fetch=False) == -319  # renamed away
    cur.execute("DROP INDEX iy")
    assert sqlcode(cur, "DROP INDEX iy", fetch=False) == -319
    cur.execute("DROP INDEX IF EXISTS iy")
    cur.execute("CREATE INDEX ix ON tt (a)")  # the name is free again


def test_a_renamed_unique_index_still_holds(conn: ifxwire.Connection) -> None:
    """A unique index keeps its key under its new name (one NULL only, as Informix's unique
    keys have it), and DROP INDEX lets the duplicates in."""
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE tt (a INT, b INT)")
    cur.execute("CREATE UNIQUE INDEX ux ON tt (b)")
    cur.execute("INSERT INTO tt VALUES (1, NULL)")
    cur.execute("RENAME INDEX ux TO uy")
    assert sqlcode(cur, "INSERT INTO tt VALUES (2, NULL)", fetch=False) == -239
    cur.execute("INSERT INTO tt VALUES (2, 5)")
    assert sqlcode(cur, "INSERT INTO tt VALUES (3, 5)", fetch=False) == -239
    cur.execute("DROP INDEX uy")
    cur.execute("INSERT INTO tt VALUES (3, 5)")
    cur.execute("INSERT INTO tt VALUES (4, NULL)")
    assert rows(cur, "SELECT COUNT(*) FROM tt") == [(4,)]


def test_names_are_one_space_and_drop_table_takes_them(conn: ifxwire.Connection) -> None:
    """-316 for a second index of the name, on a temporary or a permanent table, also as the
    new name of a RENAME INDEX; DROP TABLE removes the temporary table's indexes."""
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE tt (a INT)")
    cur.execute("CREATE TABLE p (a INT)")
    cur.execute("CREATE INDEX pix ON p (a)")
    cur.execute("CREATE INDEX ix ON tt (a)")
    assert sqlcode(cur, "CREATE INDEX ix ON tt (a)", fetch=False) == -316
    assert sqlcode(cur, "CREATE INDEX ix ON p (a)", fetch=False) == -316
    assert sqlcode(cur, "RENAME INDEX ix TO pix", fetch=False) == -316
    assert sqlcode(cur, "RENAME INDEX pix TO ix", fetch=False) == -316
    cur.execute("DROP TABLE tt")
    assert sqlcode(cur, "DROP INDEX ix", fetch=False) == -319
    cur.execute("CREATE INDEX ix ON p (a DESC)")


def test_another_session_does_not_see_them(conn: ifxwire.Connection,
                                           connect_kwargs: dict[str, Any]) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE tt (a INT)")
    cur.execute("CREATE INDEX ix ON tt (a)")
    database = rows(cur, "SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")[0][0]
    with ifxwire.connect(**connect_kwargs, database=str(database).strip(),
                         autocommit=True) as other:
        ocur = other.cursor()
        assert sqlcode(ocur, "DROP INDEX ix", fetch=False) == -319
        assert sqlcode(ocur, "RENAME INDEX ix TO iy", fetch=False) == -319
        ocur.execute("CREATE TEMP TABLE tt (a INT)")  # its own, with its own index ix
        ocur.execute("CREATE INDEX ix ON tt (a)")
        ocur.execute("DROP INDEX ix")
    cur.execute("RENAME INDEX ix TO iy")  # still there in the first session
    cur.execute("DROP INDEX iy")
