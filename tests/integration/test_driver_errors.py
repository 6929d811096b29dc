"""Server errors carry their numbers; the connection survives them; stale statements recover."""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers


def test_unknown_table(conn: ifxwire.Connection) -> None:
    with pytest.raises(ifxwire.ProgrammingError) as info:
        conn.execute("SELECT * FROM no_such_table")
    e = info.value
    assert e.sqlcode == -206
    assert e.isamcode == -111
    assert e.sqlstate == "42S02"
    assert e.near == "no_such_table"
    assert "no_such_table" in str(e)
    assert "[-206]" in str(e)
    assert conn.execute("SELECT tabid FROM systables WHERE tabid = 1").fetchall() == [(1,)]


def test_syntax_error_offset(conn: ifxwire.Connection) -> None:
    with pytest.raises(ifxwire.ProgrammingError) as info:
        conn.execute("SELECT FROM WHERE")
    assert info.value.sqlcode == -201
    assert info.value.sqlstate is not None and info.value.sqlstate.startswith("42")


def test_integrity_errors(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE er_pk (id INT PRIMARY KEY, v VARCHAR(5) NOT NULL)")
    cur.execute("INSERT INTO er_pk VALUES (1, 'a')")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO er_pk VALUES (?, ?)", (1, "b"))
    assert info.value.sqlcode in (-239, -268)
    assert info.value.sqlstate is not None and info.value.sqlstate.startswith("23")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO er_pk VALUES (?, ?)", (2, None))
    assert info.value.sqlcode == -391
    # Still in the same transaction, still usable.
    assert cur.execute("SELECT COUNT(*) FROM er_pk").fetchone() == (1,)


def test_error_inside_fetch_group(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE er_div (a INT)")
    cur.execute("INSERT INTO er_div VALUES (0)")
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("SELECT 1 / a FROM er_div").fetchall()
    assert info.value.sqlcode is not None and info.value.sqlcode < 0
    assert cur.execute("SELECT a FROM er_div").fetchall() == [(0,)]


def test_stale_cached_statement_is_reprepared(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str
) -> None:
    a = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    b = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    a.execute("CREATE TABLE er_alter (x INT)")
    a.execute("INSERT INTO er_alter VALUES (1)")
    sql = "SELECT * FROM er_alter"
    assert a.execute(sql).fetchall() == [(1,)]
    b.execute("ALTER TABLE er_alter ADD (y INT)")
    # The server answers the cached statement with -710; the driver prepares it again once.
    cur = a.execute(sql)
    assert [d[0] for d in cur.description or ()] == ["x", "y"]
    assert cur.fetchall() == [(1, None)]
    a.close()
    b.close()


def test_own_ddl_clears_the_cache(conn: ifxwire.Connection) -> None:
    conn.execute("CREATE TABLE er_own (x INT)")
    sql = "SELECT * FROM er_own"
    assert conn.execute(sql).description == (("x", 2, 11, 4, 10, 0, True),)
    conn.execute("DROP TABLE er_own")
    conn.execute("CREATE TABLE er_own (x INT, z CHAR(3))")
    assert len(conn.execute(sql).description or ()) == 2


def test_wrong_parameter_count_sends_nothing(conn: ifxwire.Connection, server: Any) -> None:
    g = server.request_groups
    with pytest.raises(ifxwire.ProgrammingError):
        conn.execute("SELECT tabid FROM systables WHERE tabid = ?", (1, 2))
    assert server.request_groups == g


def test_refusal_text_keeps_its_punctuation_in_a_latin1_session(
        conn: ifxwire.Connection) -> None:
    """Our refusal texts are written with typographic dots; a client in a Latin-1 code set
    read them as '?' (found with the fourth round's manual corpus)."""
    with pytest.raises(ifxwire.Error) as info:
        conn.execute("SELECT tabid FROM systables WHERE tabid = 1 INTO EXTERNAL er_dots "
                     "USING (DATAFILES ('DISK:/tmp/er_dots.unl'))")
    assert info.value.sqlcode == -999
    assert info.value.near is not None and "SELECT ... INTO EXTERNAL" in info.value.near
    assert "?" not in info.value.near
    assert conn.execute("SELECT tabid FROM systables WHERE tabid = 1").fetchall() == [(1,)]
