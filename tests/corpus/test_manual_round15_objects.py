"""Sequences, synonyms and ALTER TABLE's DROP clause, fifteenth round (issue 23), through the
real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "ALTER SEQUENCE statement" (ids_sqs_0281),
"RESTART WITH Option" (ids_sqs_0283), "DROP SEQUENCE statement" (ids_sqs_0734: the sequence
"Must exist in the current database"); the IDS 10 RENAME TABLE page ("An error occurs if
old_table is a synonym"). The codes are those of IBM's message catalogue in the JDBC jar
[jcat] whose texts name each case: -8300 "The specified sequence object (%s) is not in the
database.", -8309 "Cannot RESTART the sequence at a value less than MINVALUE or greater than
MAXVALUE.", -19821 "Cannot rename a table using a synonym.", -19822 "Cannot alter or truncate a
table or drop a table or view using a synonym.", -370 "Cannot drop last column.". That a
server sends each for these statements is our inference from the texts. Before this round a
missing sequence was -206, RESTART WITH 0 restarted at START WITH, RENAME, ALTER and TRUNCATE
through a synonym reached the table (DROP was -206) and dropping the last column was -999.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "obj15") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (a INT, b INT)")
        c.execute("INSERT INTO t VALUES (1, 2)")
        c.execute("CREATE SYNONYM sy FOR t")
        yield c


@pytest.mark.parametrize("sql", ["DROP SEQUENCE nosuch", "ALTER SEQUENCE nosuch INCREMENT BY 2",
                                 "RENAME SEQUENCE nosuch TO other"])
def test_a_missing_sequence_is_8300(cur: ifxwire.Cursor, sql: str) -> None:
    assert sqlcode(cur, sql, fetch=False) == -8300
    with pytest.raises(ifxwire.ProgrammingError, match="nosuch"):
        cur.execute(sql)
    cur.execute("DROP SEQUENCE IF EXISTS nosuch")  # IF EXISTS: no error (ids_sqs_0734)


def test_restart_with_zero_is_a_value(cur: ifxwire.Cursor) -> None:
    """0 is a RESTART value like any other: below a MINVALUE of 1 it is -8309; with
    MINVALUE 0 the next value is 0. A bare RESTART still restarts at START WITH."""
    cur.execute("CREATE SEQUENCE s START WITH 5")  # MINVALUE 1 by default
    assert sqlcode(cur, "ALTER SEQUENCE s RESTART WITH 0", fetch=False) == -8309
    cur.execute("CREATE SEQUENCE z START WITH 4 MINVALUE 0 MAXVALUE 10")
    assert rows(cur, "SELECT z.NEXTVAL FROM t") == [(4,)]
    cur.execute("ALTER SEQUENCE z RESTART")
    assert rows(cur, "SELECT z.NEXTVAL FROM t") == [(4,)]
    cur.execute("ALTER SEQUENCE z RESTART WITH 0")
    assert rows(cur, "SELECT z.NEXTVAL FROM t") == [(0,)]


def test_a_table_is_not_renamed_altered_truncated_or_dropped_through_a_synonym(
        cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "RENAME TABLE sy TO t9", fetch=False) == -19821
    assert sqlcode(cur, "ALTER TABLE sy ADD (c INT)", fetch=False) == -19822
    assert sqlcode(cur, "TRUNCATE sy", fetch=False) == -19822
    assert sqlcode(cur, "DROP TABLE sy", fetch=False) == -19822
    cur.execute("CREATE VIEW v AS SELECT a FROM t")
    cur.execute("CREATE SYNONYM vs FOR v")
    assert sqlcode(cur, "DROP VIEW vs", fetch=False) == -19822
    # nothing happened to the table; the synonym still reads it, and DML goes through it
    assert rows(cur, "SELECT * FROM sy") == [(1, 2)]
    cur.execute("INSERT INTO sy VALUES (3, 4)")
    assert rows(cur, "SELECT COUNT(*) FROM t") == [(2,)]
    cur.execute("DROP SYNONYM sy")
    cur.execute("RENAME TABLE t TO t9")  # by its own name


def test_dropping_the_last_column_is_370(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE one (x INT)")
    assert sqlcode(cur, "ALTER TABLE one DROP (x)", fetch=False) == -370
    assert sqlcode(cur, "ALTER TABLE t DROP (a, b)", fetch=False) == -370
    cur.execute("ALTER TABLE one ADD (y INT), DROP (x)")  # a column is left
    assert rows(cur, "SELECT colname FROM syscolumns c, systables s WHERE c.tabid = s.tabid "
                     "AND s.tabname = 'one'", strip=True) == [("y",)]
