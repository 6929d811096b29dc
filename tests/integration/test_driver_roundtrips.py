"""Request groups per operation, counted by the server (``Server.request_groups``).

informix-driver needs 5 round trips for a small SELECT and 3 for a prepared INSERT
(peer-informix-driver.md 2.6); these tests pin down what ifxwire needs.
"""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers


@pytest.fixture()
def ac(driver: Any, connect_kwargs: dict[str, Any], dbname: str) -> Any:
    """A connection in autocommit mode, so no BEGIN muddies the counts."""
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    c.execute("CREATE TABLE IF NOT EXISTS rt (a INT, b VARCHAR(10))")
    settle(c)
    yield c
    c.close()


def settle(c: ifxwire.Connection) -> None:
    """Flush deferred groups (the DDL statement's RELEASE) so they do not count below."""
    c.execute("SELECT tabid FROM systables WHERE tabid = 2").fetchall()


class Groups:
    def __init__(self, server: Any) -> None:
        self.server = server
        self.mark = server.request_groups

    def take(self) -> int:
        n = self.server.request_groups - self.mark
        self.mark = self.server.request_groups
        return n


def test_connect_is_three_groups_one_send(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    g = Groups(server)
    c = driver.connect(**connect_kwargs, database=dbname)
    assert g.take() == 3  # PROTOCOLS, INFO, DBOPEN (sent back to back)
    c.close()


def test_select_round_trips(ac: ifxwire.Connection, server: Any) -> None:
    cur = ac.cursor()
    sql = "SELECT tabid, tabname FROM systables WHERE tabid = 1"
    g = Groups(server)
    assert len(cur.execute(sql).fetchall()) == 1
    assert g.take() <= 2
    for _ in range(3):
        assert len(cur.execute(sql).fetchall()) == 1
        assert g.take() == 1
    with_params = "SELECT tabid FROM systables WHERE tabid = ?"
    cur.execute(with_params, (1,)).fetchall()
    assert g.take() == 2
    cur.execute(with_params, (2,)).fetchall()
    assert g.take() == 1
    # Another cursor on the same connection shares the cache.
    ac.cursor().execute(with_params, (3,)).fetchall()
    assert g.take() == 1


def test_empty_select_is_one_group(ac: ifxwire.Connection, server: Any) -> None:
    sql = "SELECT a FROM rt WHERE a = -12345"
    ac.execute(sql).fetchall()
    g = Groups(server)
    assert ac.execute(sql).fetchall() == []
    assert g.take() == 1


def test_prepared_insert_round_trips(ac: ifxwire.Connection, server: Any) -> None:
    cur = ac.cursor()
    sql = "INSERT INTO rt (a) VALUES (?)"
    g = Groups(server)
    cur.execute(sql, (1,))
    assert g.take() == 2  # PREPARE, then ID BIND EXECUTE
    for i in range(5):
        cur.execute(sql, (i,))
        assert g.take() == 1


def test_prepared_insert_of_a_string_describes_its_parameters_once(
    ac: ifxwire.Connection, server: Any
) -> None:
    # A string or bytes value could be bound to a BLOB/CLOB parameter, which needs a smart
    # large object first, so the driver must know the parameter types. An INSERT whose
    # SQ_DESCRIBE lists one target column per ``?`` (as real servers do) needs nothing more;
    # any other statement asks once (ID CIDESCRIBE, as JDBC's prepareStatement does). The
    # statement cache keeps them.
    cur = ac.cursor()
    g = Groups(server)
    for sql, first in (
        ("INSERT INTO rt VALUES (?, ?)", 2),  # PREPARE, then ID BIND EXECUTE
        ("INSERT INTO rt VALUES (?, ? || 'x')", 3),  # not one column per ``?``: CIDESCRIBE
        ("UPDATE rt SET b = ? WHERE a = ?", 3),  # PREPARE, ID CIDESCRIBE, ID BIND EXECUTE
    ):
        cur.execute(sql, ("a", 1) if sql.startswith("UPDATE") else (1, "a"))
        assert g.take() == first, sql
        for i in range(5):
            cur.execute(sql, ("b", i) if sql.startswith("UPDATE") else (i, "b"))
            assert g.take() == 1, sql
    assert cur.description is None


def test_executemany_groups(ac: ifxwire.Connection, server: Any) -> None:
    g = Groups(server)
    ac.cursor().executemany("INSERT INTO rt VALUES (?, 'm')", [(i,) for i in range(300)])
    assert g.take() == 1 + 300


def test_multi_batch_select(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True, fetch_buffer_size=4096)
    c.execute("CREATE TABLE rt_many (a INT, b CHAR(52))")
    c.cursor().executemany("INSERT INTO rt_many VALUES (?, 'x')", [(i,) for i in range(630)])
    sql = "SELECT a, b FROM rt_many"
    c.execute(sql).fetchall()
    g = Groups(server)
    assert len(c.execute(sql).fetchall()) == 630
    # 64 rows per 4 KiB reply: the OPEN group brings 64, then 9 NFETCH groups. The last
    # fetch reply carries SQ_DONE, so no extra empty fetch is needed.
    assert g.take() == 10
    c.close()


def test_transaction_costs(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, server: Any,
    ac: ifxwire.Connection,  # (makes table rt: the test ran only after one that had)
) -> None:
    c = driver.connect(**connect_kwargs, database=dbname)
    cur = c.cursor()
    cur.execute("INSERT INTO rt VALUES (1, 't')")  # warm the statement cache
    c.commit()
    settle(c)
    g = Groups(server)
    cur.execute("INSERT INTO rt VALUES (1, 't')")
    # BEGIN and the statement are two groups, but they travel in one send.
    assert g.take() == 2
    c.commit()
    assert g.take() == 1
    c.close()


def test_cache_disabled_and_eviction(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    sqls = [f"SELECT tabid FROM systables WHERE tabid = {i}" for i in (1, 2, 3)]
    c = driver.connect(**connect_kwargs, database=dbname, statement_cache_size=0)
    settle(c)
    g = Groups(server)
    for _ in range(3):
        c.execute(sqls[0]).fetchall()
    # PREPARE + OPEN each time; the RELEASE of the previous statement (settle's included)
    # rides along with the next PREPARE instead of costing a round trip.
    assert g.take() == 3 * 2 + 3
    c.close()
    c = driver.connect(**connect_kwargs, database=dbname, statement_cache_size=2)
    for sql in sqls:  # the third evicts the first
        assert c.execute(sql).fetchall() == [(int(sql[-1]),)]
    settle(c)
    g = Groups(server)
    c.execute(sqls[2]).fetchall()
    assert g.take() == 1  # still cached
    c.execute(sqls[0]).fetchall()
    # Evicted: prepared again (2 groups), which evicts the least recently used statement,
    # whose deferred RELEASE rides along with the OPEN group.
    assert g.take() == 3
    c.close()


def test_blob_insert_round_trips(ac: ifxwire.Connection, server: Any) -> None:
    # The counts docs/DRIVER.md gives: the INSERT's describe names the BLOB target, so the
    # first execution needs no ID CIDESCRIBE (PREPARE, ifx_lo_create lookup + call,
    # SQ_LODATA, ifx_lo_close lookup + call, the INSERT); then create, write, close, INSERT.
    ac.execute("CREATE TABLE rt_blob (a INT, b BLOB)")
    settle(ac)
    cur = ac.cursor()
    g = Groups(server)
    cur.execute("INSERT INTO rt_blob VALUES (?, ?)", (1, b"x"))
    assert g.take() == 7
    cur.execute("INSERT INTO rt_blob VALUES (?, ?)", (2, b"y"))
    assert g.take() == 4
    assert [bytes(r[0].read()) for r in cur.execute("SELECT b FROM rt_blob ORDER BY a")] == [
        b"x", b"y"]
