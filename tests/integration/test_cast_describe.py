"""A CAST's result is described with the cast's type (issue 23): a widening cast between
varying character types (VARCHAR(10) to LVARCHAR(4000) or VARCHAR(50)) changes no stored
value, and the server used to describe the source column's type, so a client sized its
buffers by the column and the output row limit (-528, which a migration tool's Informix
connector probes with such casts: docs/SERVER.md) never counted the cast."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire.server import Server

_USERS = {"informix": "in4mix"}


pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)


@pytest.fixture(scope="module")
def cur(driver: Any) -> Iterator[ifxwire.Cursor]:
    with Server(port=0, data=":memory:", users=_USERS) as srv:
        conn = driver.connect(host=srv.host, port=srv.port, user="informix",
                               password=_USERS["informix"], autocommit=True)
        c = conn.cursor()
        c.execute("CREATE DATABASE castdesc")
        c.execute("CREATE TABLE t (name VARCHAR(10), n INTEGER, fixed CHAR(4))")
        c.execute("INSERT INTO t VALUES ('abc', 1, 'xy')")
        yield c
        conn.close()


@pytest.mark.parametrize(("sql", "type_code", "size", "value"), [
    ("SELECT CAST(name AS LVARCHAR(4000)) FROM t", 43, 4000, "abc"),
    ("SELECT name::LVARCHAR(4000) FROM t", 43, 4000, "abc"),
    ("SELECT CAST(name AS VARCHAR(50)) FROM t", 13, 50, "abc"),
    ("SELECT CAST(name AS VARCHAR(10)) FROM t", 13, 10, "abc"),
    ("SELECT CAST(n AS LVARCHAR(100)) FROM t", 43, 100, "1"),
    ("SELECT CAST(name AS CHAR(20)) FROM t", 0, 20, "abc"),  # (the driver trims CHAR)
])
def test_a_cast_is_described_with_its_own_type(cur: ifxwire.Cursor, sql: str, type_code: int,
                                                size: int, value: str) -> None:
    cur.execute(sql)
    assert cur.description is not None
    assert cur.description[0][1:3] == (type_code, size)
    assert cur.fetchall() == [(value,)]


def test_a_wide_cast_counts_in_the_output_row_limit(cur: ifxwire.Cursor) -> None:
    """Two LVARCHAR(20000) casts pass 32,767 bytes of described row: -528 at PREPARE, as a
    real server answers the migration tool that halves such casts until it is accepted."""
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("SELECT CAST(name AS LVARCHAR(20000)), CAST(name AS LVARCHAR(20000)) FROM t")
    assert info.value.sqlcode == -528
    cur.execute("SELECT CAST(name AS LVARCHAR(16000)), CAST(name AS LVARCHAR(16000)) FROM t")
    assert cur.fetchall() == [("abc", "abc")]
