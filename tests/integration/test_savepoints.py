"""Connection.savepoint / AsyncConnection.savepoint over SAVEPOINT, ROLLBACK WORK TO SAVEPOINT
and RELEASE SAVEPOINT (client/savepoints.py; docs/DRIVER.md §5)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio

pytestmark = pytest.mark.both_drivers


@pytest.fixture(scope="module", autouse=True)
def table(connect_kwargs: dict[str, Any], dbname: str) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE sp_t (a INTEGER)")
        c.execute(f"CREATE DATABASE {dbname}_unl")


def _rows(conn: ifxwire.Connection) -> list[int]:
    return [r[0] for r in conn.execute("SELECT a FROM sp_t ORDER BY a").fetchall()]


def test_a_block_keeps_its_work_or_rolls_it_back(conn: ifxwire.Connection) -> None:
    conn.execute("DELETE FROM sp_t")
    conn.commit()
    sp = conn.savepoint("first")  # autocommit off, no transaction yet: BEGIN goes first
    assert conn.in_transaction and sp.name == "first"
    conn.execute("INSERT INTO sp_t VALUES (1)")
    with sp:
        conn.execute("INSERT INTO sp_t VALUES (2)")
    assert sp.released
    with pytest.raises(ZeroDivisionError), conn.savepoint() as inner:
        conn.execute("INSERT INTO sp_t VALUES (3)")
        with conn.savepoint("nested"):
            conn.execute("INSERT INTO sp_t VALUES (4)")
        assert _rows(conn) == [1, 2, 3, 4]
        1 / 0  # noqa: B018
    assert inner.released and inner.name.startswith("_ifxsp")
    assert conn.in_transaction and _rows(conn) == [1, 2]  # back to before the savepoint
    with pytest.raises(ifxwire.IntegrityError), conn.savepoint("dup"):
        conn.execute("INSERT INTO sp_t VALUES (5)")
        raise ifxwire.IntegrityError("a failure inside the block")
    conn.commit()
    assert _rows(conn) == [1, 2]


def test_explicit_rollback_keeps_the_savepoint(conn: ifxwire.Connection) -> None:
    conn.execute("DELETE FROM sp_t")
    sp = conn.savepoint("keep")
    for v in (10, 11):
        conn.execute("INSERT INTO sp_t VALUES (?)", (v,))
        sp.rollback()  # may be rolled back to again and again
        assert _rows(conn) == []
    sp.release()
    with pytest.raises(ifxwire.ProgrammingError, match="keep was released"):
        sp.rollback()
    with pytest.raises(ifxwire.ProgrammingError, match="was released"):
        sp.release()
    conn.rollback()


def test_a_commit_inside_the_block_ends_the_savepoint(conn: ifxwire.Connection) -> None:
    conn.execute("DELETE FROM sp_t")
    with conn.savepoint("gone") as sp:
        conn.execute("INSERT INTO sp_t VALUES (7)")
        conn.commit()
    assert sp.released and not conn.in_transaction
    assert _rows(conn) == [7]
    conn.rollback()


def test_misuse_is_a_typed_error_and_costs_no_round_trip(
    driver: Any, conn: ifxwire.Connection, server: Any, connect_kwargs: dict[str, Any],
    dbname: str,
) -> None:
    conn.autocommit = True
    before = server.request_groups
    with pytest.raises(ifxwire.ProgrammingError, match="autocommit is on") as info:
        conn.savepoint("x")
    assert info.value.sqlstate == "25000"
    conn.autocommit = False
    for bad in ("1x", "a b", "x; DROP TABLE sp_t", "", "y" * 129):
        with pytest.raises(ifxwire.ProgrammingError, match="invalid savepoint name"):
            conn.savepoint(bad)
    assert server.request_groups == before
    with driver.connect(**connect_kwargs, database=f"{dbname}_unl") as unlogged:
        with pytest.raises(ifxwire.NotSupportedError) as err:
            unlogged.savepoint("u")  # no transaction log
        assert err.value.sqlcode == -256
        assert unlogged.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1").fetchall() \
            == [(1,)]


def test_asyncio_savepoints(connect_kwargs: dict[str, Any], dbname: str) -> None:
    async def rows(conn: aio.AsyncConnection) -> list[int]:
        cur = await conn.execute("SELECT a FROM sp_t ORDER BY a")
        return [r[0] for r in await cur.fetchall()]

    async def go() -> None:
        conn = await aio.connect(**connect_kwargs, database=dbname)
        try:
            await conn.execute("DELETE FROM sp_t")
            async with conn.savepoint("a1") as sp:
                await conn.execute("INSERT INTO sp_t VALUES (1)")
            assert sp.released
            with pytest.raises(KeyError):
                async with conn.savepoint():
                    await conn.execute("INSERT INTO sp_t VALUES (2)")
                    raise KeyError("boom")
            assert await rows(conn) == [1]
            sp2 = await conn.savepoint("a2")
            await conn.execute("INSERT INTO sp_t VALUES (3)")
            await sp2.rollback()
            await sp2.release()
            assert await rows(conn) == [1]
            await conn.commit()
            await conn.set_autocommit(True)
            with pytest.raises(ifxwire.ProgrammingError, match="autocommit is on"):
                await conn.savepoint("x")
        finally:
            await conn.close()

    asyncio.run(go())
