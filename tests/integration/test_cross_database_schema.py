"""Another database's catalogue as a session sees it after that database's schema changes:
a table created, altered or dropped there (by another session or by this one) is seen at
once, as Informix sees it (docs/SERVER.md "Other databases of the server"). Over sockets,
against the real embedded server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire

HOME, OTHER = "xs_home", "xs_other"


@pytest.fixture(scope="module")
def dbs(connect_kwargs: dict[str, Any]) -> None:
    create_logged_databases(connect_kwargs, HOME, OTHER, "syscdcv1")
    o = ifxwire.connect(**connect_kwargs, database=OTHER, autocommit=True)
    try:
        o.cursor().execute("CREATE TABLE t0 (a INT)")
        o.cursor().execute("INSERT INTO t0 VALUES (1)")
    finally:
        o.close()


@pytest.fixture()
def home(connect_kwargs: dict[str, Any], dbs: None) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database=HOME, autocommit=True)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture()
def other(connect_kwargs: dict[str, Any], dbs: None) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database=OTHER, autocommit=True)
    try:
        yield c
    finally:
        c.close()


def _rows(c: ifxwire.Connection, sql: str) -> list[tuple[Any, ...]]:
    cur = c.cursor()
    cur.execute(sql)
    return list(cur.fetchall())


def test_table_created_by_another_session(home: ifxwire.Connection,
                                          other: ifxwire.Connection) -> None:
    assert _rows(home, f"SELECT a FROM {OTHER}:t0") == [(1,)]  # attaches xs_other
    with pytest.raises(ifxwire.DatabaseError) as e:
        home.cursor().execute(f"SELECT * FROM {OTHER}:made_later")
    assert e.value.sqlcode == -206
    other.cursor().execute("CREATE TABLE made_later (id INT, note VARCHAR(20))")
    other.cursor().execute("INSERT INTO made_later VALUES (7, 'seven')")
    assert _rows(home, f"SELECT id, note FROM {OTHER}:made_later") == [(7, "seven")]
    assert _rows(home, f"SELECT id FROM {OTHER}:informix.made_later") == [(7,)]
    # altered there: the next statement here sees the new column ...
    other.cursor().execute("ALTER TABLE made_later ADD extra INT")
    other.cursor().execute("UPDATE made_later SET extra = 70")
    assert _rows(home, f"SELECT * FROM {OTHER}:made_later") == [(7, "seven", 70)]
    # ... and a dropped table is gone (-206), here as in Informix
    other.cursor().execute("DROP TABLE made_later")
    with pytest.raises(ifxwire.DatabaseError) as e:
        home.cursor().execute(f"SELECT * FROM {OTHER}:made_later")
    assert e.value.sqlcode == -206
    # writes into the other database see its new tables too
    other.cursor().execute("CREATE TABLE written (id INT)")
    home.cursor().execute(f"INSERT INTO {OTHER}:written VALUES (3)")
    assert _rows(other, "SELECT id FROM written") == [(3,)]
    other.cursor().execute("CREATE TABLE written2 (id INT)")
    home.cursor().execute(f"INSERT INTO {OTHER}:written2 VALUES (4)")
    assert _rows(other, "SELECT id FROM written2") == [(4,)]


def test_table_created_by_the_same_session(home: ifxwire.Connection) -> None:
    cur = home.cursor()
    assert _rows(home, f"SELECT a FROM {OTHER}:t0") == [(1,)]
    cur.execute(f"DATABASE {OTHER}")
    cur.execute("CREATE TABLE mine_later (b INT)")
    cur.execute("INSERT INTO mine_later VALUES (5)")
    cur.execute(f"DATABASE {HOME}")
    assert _rows(home, f"SELECT b FROM {OTHER}:mine_later") == [(5,)]


def test_fullrowlogging_on_a_table_created_after_the_attach(
        connect_kwargs: dict[str, Any], other: ifxwire.Connection, dbs: None) -> None:
    cdc = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        cur = cdc.cursor()
        cur.execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging(?, 1)",
                    (f"{OTHER}:informix.t0",))
        assert cur.fetchone() == (0,)
        other.cursor().execute("CREATE TABLE cdc_later (id INT)")
        cur.execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging(?, 1)",
                    (f"{OTHER}:informix.cdc_later",))
        assert cur.fetchone() == (0,)
        assert _rows(cdc, f"SELECT COUNT(*) FROM {OTHER}:cdc_later") == [(0,)]
    finally:
        cdc.close()
