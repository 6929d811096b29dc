"""ALTER TABLE ... MODIFY of an integer column to SERIAL, SERIAL8 or BIGSERIAL, over sockets.

It was -999, so Django's schema editor kept an INTEGER primary key when a model's key became
an AutoField, and new rows got no number. Informix's MODIFY changes a column's type to any
type its values convert to (IBM, *Guide to SQL: Syntax*, MODIFY clause); the values stay and
the serial counter goes on after the largest of them (IBM, "Inserting Values into Serial
Columns": the next value is one more than the largest). docs/SERVER.md, ALTER TABLE.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)


@pytest.fixture()
def conn(connect_kwargs: dict[str, Any], dbname: str,
         driver: Any) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    for t in ("ms_a", "ms_b", "ms_c", "ms_d"):
        c.execute(f"DROP TABLE IF EXISTS {t}")
    yield c
    c.close()


def test_integer_key_becomes_serial_and_numbers_after_the_largest(
        conn: ifxwire.Connection) -> None:
    conn.execute("CREATE TABLE ms_a (id INT NOT NULL PRIMARY KEY, v CHAR(2))")
    conn.execute("INSERT INTO ms_a VALUES (5, 'x')")
    conn.execute("INSERT INTO ms_a VALUES (2, 'y')")
    conn.execute("ALTER TABLE ms_a MODIFY (id SERIAL NOT NULL)")
    cur = conn.execute("INSERT INTO ms_a (v) VALUES ('z')")
    assert cur.lastrowid == 6
    assert conn.execute("SELECT id FROM ms_a ORDER BY id").fetchall() == [(2,), (5,), (6,)]
    coltype = conn.execute(
        "SELECT c.coltype FROM syscolumns c, systables t WHERE c.tabid = t.tabid AND "
        "t.tabname = 'ms_a' AND c.colname = 'id'").fetchone()[0]
    assert coltype == 256 + 6  # SERIAL, NOT NULL
    # SERIAL to BIGSERIAL with a start value above the largest: numbering goes on from it
    conn.execute("ALTER TABLE ms_a MODIFY (id BIGSERIAL(100) NOT NULL)")
    conn.execute("INSERT INTO ms_a (v) VALUES ('w')")
    assert conn.execute("SELECT MAX(id) FROM ms_a").fetchone() == (100,)


def test_modify_to_serial_refusals(conn: ifxwire.Connection) -> None:
    conn.execute("CREATE TABLE ms_b (id INT, s SERIAL)")
    with pytest.raises(ifxwire.DatabaseError) as info:
        conn.execute("ALTER TABLE ms_b MODIFY (id SERIAL)")
    assert info.value.sqlcode == -362  # one SERIAL column a table
    conn.execute("CREATE TABLE ms_c (id INT)")
    conn.execute("INSERT INTO ms_c VALUES (NULL)")
    with pytest.raises(ifxwire.NotSupportedError) as info:
        conn.execute("ALTER TABLE ms_c MODIFY (id SERIAL)")  # what Informix does: not known
    assert info.value.sqlcode == -999
    conn.execute("CREATE TABLE ms_d (id VARCHAR(10))")
    conn.execute("ALTER TABLE ms_d MODIFY (id SERIAL)")  # empty: any type may become one
    conn.execute("INSERT INTO ms_d VALUES (0)")
    assert conn.execute("SELECT id FROM ms_d").fetchall() == [(1,)]
