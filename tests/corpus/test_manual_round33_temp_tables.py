"""What a temporary table refuses, with the message catalogue's codes, thirty-third session
(issue 23), through the real driver and the embedded server over sockets. The statements
are ours.

Pages: Guide to SQL: Syntax, CREATE TEMP TABLE, "Column definition" (ids_sqs_0576: "You
cannot define a referential constraint on the column"; the key was made here before).
Codes from IBM JDBC's message catalogue [jcat]: -548 "No referential constraint or trigger
allowed on a TEMP table.", -337 "Cannot create view on temporary table (%s).", -532 "Cannot
alter temporary table (%s).", -884 "Cannot alter an index on a temporary table." (the three
were -999, -999 and -319 or -999). That every ALTER TABLE form is refused with -532 is our
inference from the catalogue text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "temp33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE parent (id INT PRIMARY KEY)")
        c.execute("CREATE TEMP TABLE tt (a INT, b CHAR(5))")
        yield c


@pytest.mark.parametrize("ddl", [
    "CREATE TEMP TABLE tf (a INT REFERENCES parent (id))",
    "CREATE TEMP TABLE tf (a INT, FOREIGN KEY (a) REFERENCES parent (id))",
    "CREATE TEMP TABLE tf (a INT, CONSTRAINT fk_tf FOREIGN KEY (a) REFERENCES parent)",
])
def test_no_referential_constraint_on_a_temp_table(cur: ifxwire.Cursor, ddl: str) -> None:
    assert sqlcode(cur, ddl, fetch=False) == -548
    # nothing was made: the name is free, and other keys are still taken
    cur.execute("CREATE TEMP TABLE tf (a INT PRIMARY KEY, b INT UNIQUE, c INT CHECK (c > 0))")
    assert sqlcode(cur, "INSERT INTO tf VALUES (1, 1, 0)", fetch=False) == -530


def test_no_view_on_a_temp_table(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "CREATE VIEW tv AS SELECT a FROM tt", fetch=False) == -337
    assert sqlcode(cur, "CREATE VIEW tv AS SELECT p.id FROM parent p, tt WHERE p.id = tt.a",
                   fetch=False) == -337
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'tv'") == [(0,)]


@pytest.mark.parametrize("ddl", [
    "ALTER TABLE tt ADD (c INT)",
    "ALTER TABLE tt DROP b",
    "ALTER TABLE tt MODIFY (b CHAR(10))",
    "ALTER TABLE tt ADD CONSTRAINT UNIQUE (a)",
])
def test_a_temp_table_is_not_altered(cur: ifxwire.Cursor, ddl: str) -> None:
    assert sqlcode(cur, ddl, fetch=False) == -532
    cur.execute("INSERT INTO tt VALUES (1, 'x')")
    assert rows(cur, "SELECT * FROM tt", strip=True) == [(1, "x")]


def test_an_index_of_a_temp_table_is_not_altered(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX tti ON tt (a)")
    assert sqlcode(cur, "ALTER INDEX tti TO CLUSTER", fetch=False) == -884
    cur.execute("DROP INDEX tti")
    assert sqlcode(cur, "ALTER INDEX tti TO CLUSTER", fetch=False) == -319
