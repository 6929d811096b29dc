"""NUL characters in character data: stored as sent, read back as Informix reads them.

Informix documents that NUL "is used as the end-of-data terminator symbol in columns of the
CHAR data type ... the database server reads only the characters (if any) that precede this
null terminator" (Guide to SQL: Reference, "Nonprintable Characters with CHAR"), while SQL
functions still see the stored byte (ASCII(SUBSTRING(c FROM 2 FOR 1)) gives 0 on a real
server). Before the fix a VARCHAR holding '\\x00' was accepted and every later SELECT of it
closed the session. Every character type and every way a value gets in is checked here, over
real sockets, with the session still usable afterwards.

The driver refuses a str holding NUL as a parameter (tests/integration/test_driver_nul_params.py),
so the bound values here go as :class:`Raw` through a dumper that writes the CHAR bind item
itself, as another client (JDBC, ESQL/C) may send them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import ifxwire
from ifxwire.server import Server
from ifxwire.types.adapters import BindItem


class Raw(str):
    """A str bound as the CHAR item other clients send, NULs and all."""


def _raw_char(value: Raw) -> BindItem:
    data = str(value).encode("iso8859-1")
    return BindItem(0, 0, len(data).to_bytes(2, "big") + data)

TYPES = ["char(6)", "nchar(6)", "varchar(20)", "nvarchar(20)", "lvarchar(100)"]


@pytest.fixture(scope="module")
def conn() -> Iterator[ifxwire.Connection]:
    with Server(port=0) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                            autocommit=True)
        c.cursor().execute("create database nuldb with log")
        c.adapters.register_dumper(Raw, _raw_char)
        yield c
        c.close()


def _table(cur: ifxwire.Cursor, coltype: str) -> None:
    cur.execute("drop table if exists t")
    cur.execute(f"create table t (id integer, v {coltype}, src {coltype})")


@pytest.mark.parametrize("coltype", TYPES)
def test_nul_values_in_every_way_read_back_cut_at_the_nul(
        conn: ifxwire.Connection, coltype: str) -> None:
    cur = conn.cursor()
    _table(cur, coltype)
    cur.execute("insert into t (id, v) values (1, ?)", (Raw("\x00"),))      # bind, alone
    cur.execute("insert into t (id, v) values (2, ?)", (Raw("ab\x00cd"),))  # bind, inside
    cur.execute("insert into t (id, v) values (3, 'ab' || chr(0) || 'cd')")  # concatenation
    cur.execute("insert into t (id, v) values (4, chr(0))")                 # CHR(0)
    cur.execute("insert into t (id, v) values (5, 'xy')")
    cur.execute("update t set v = v || chr(0) || 'zz' where id = 5")       # UPDATE
    cur.execute("insert into t (id, src) values (6, ?)", (Raw("q\x00r"),))
    cur.execute("insert into t (id, v) select 7, src from t where id = 6")  # INSERT ... SELECT
    cur.execute("select id, v from t where id <> 6 order by id")
    got = dict(cur.fetchall())
    assert got == {1: "", 2: "ab", 3: "ab", 4: "", 5: "xy", 7: "q"}
    # The stored value is kept whole: LENGTH sees past the NUL, as on a real server.
    cur.execute("select length(v) from t where id = 2")
    assert cur.fetchone() == (5,)
    # The value is a value, not NULL, and the session is still usable.
    cur.execute("select count(*) from t where v is null")
    assert cur.fetchone() == (1,)  # only row 6, whose v was never set
    cur.execute("select ?::varchar(10) from systables where tabid = 1", (Raw("k\x00l"),))
    assert cur.fetchone() == ("k",)


def test_text_keeps_nul_bytes(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("drop table if exists tt")
    cur.execute("create table tt (id integer, body text)")
    cur.execute("insert into tt values (1, ?)", (ifxwire.Text("a\x00b\x00"),))
    cur.execute("select body from tt")
    assert cur.fetchone() == ("a\x00b\x00",)


def test_chr_range(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("select chr(65), chr(233), chr(null) from systables where tabid = 1")
    assert cur.fetchone() == ("A", "\xe9", None)
    with pytest.raises(ifxwire.DatabaseError):
        cur.execute("select chr(256) from systables where tabid = 1")
        cur.fetchall()
    cur.execute("select 1 from systables where tabid = 1")
    assert cur.fetchone() == (1,)
