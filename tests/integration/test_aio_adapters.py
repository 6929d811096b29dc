"""The asyncio driver honours loaders and dumpers at every level, as the sync one does.

Found tried as a new user would (issue 24): after ``ifxwire.adapters.register_dumper(Color,
...)`` the sync cursor bound a Color and the asyncio cursor raised 07006 "cannot bind a
Color", because it passed no adapters to the binder and kept the compiled rows encoder (which
knows no user dumpers) in executemany.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
import ifxwire.aio


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"


@pytest.fixture()
def table(connect_kwargs: dict[str, Any], dbname: str) -> Iterator[None]:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.cursor().execute("DROP TABLE IF EXISTS aad")
        c.cursor().execute("CREATE TABLE aad (id INT, s CHAR(1), x DECIMAL(6,2))")
    yield


@pytest.fixture()
def global_color_dumper() -> Iterator[None]:
    ifxwire.adapters.register_dumper(Color, lambda e: e.value)
    try:
        yield
    finally:
        ifxwire.adapters.reset_dumper(Color)


def _run(connect_kwargs: dict[str, Any], dbname: str,
         body: Callable[[ifxwire.aio.AsyncConnection], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        conn = await ifxwire.aio.connect(**connect_kwargs, database=dbname, autocommit=True)
        try:
            return await body(conn)
        finally:
            await conn.close()

    return asyncio.run(main())


async def _rows(conn: ifxwire.aio.AsyncConnection) -> list[tuple[Any, ...]]:
    cur = conn.cursor()
    await cur.execute("SELECT id, s, x FROM aad ORDER BY id")
    return await cur.fetchall()


def test_global_dumper(table: None, global_color_dumper: None,
                       connect_kwargs: dict[str, Any], dbname: str) -> None:
    async def body(conn: ifxwire.aio.AsyncConnection) -> list[tuple[Any, ...]]:
        cur = conn.cursor()
        await cur.execute("INSERT INTO aad VALUES (?, ?, ?)", (1, Color.RED, 1.5))
        await cur.executemany("INSERT INTO aad VALUES (?, ?, ?)",
                              [(2, Color.GREEN, 2), (3, Color.RED, 3)])
        return await _rows(conn)

    assert _run(connect_kwargs, dbname, body) == [
        (1, "r", Decimal("1.50")), (2, "g", Decimal("2.00")), (3, "r", Decimal("3.00"))]


def test_connection_and_cursor_adapters(table: None, connect_kwargs: dict[str, Any],
                                        dbname: str) -> None:
    async def body(conn: ifxwire.aio.AsyncConnection) -> tuple[Any, ...]:
        conn.adapters.register_dumper(Color, lambda e: e.value)
        cur = conn.cursor()
        cur.adapters.register_dumper(bool, lambda b: "Y" if b else "N")
        await cur.executemany("INSERT INTO aad (id, s) VALUES (?, ?)",
                              [(1, Color.GREEN), (2, True)])
        await conn.cursor().execute("INSERT INTO aad (id, s) VALUES (?, ?)", (3, True))
        reader = conn.cursor()
        reader.adapters.register_loader("decimal", float)
        await reader.execute("INSERT INTO aad (id, x) VALUES (?, ?)", (4, Decimal("2.25")))
        await reader.execute("SELECT x FROM aad WHERE id = 4")
        loaded = await reader.fetchone()
        return (await _rows(conn), loaded)

    rows, loaded = _run(connect_kwargs, dbname, body)
    assert [r[:2] for r in rows] == [(1, "g"), (2, "Y"), (3, "t"), (4, None)]
    assert loaded == (2.25,) and type(loaded[0]) is float


def test_without_dumper_the_error_names_the_type(table: None, connect_kwargs: dict[str, Any],
                                                 dbname: str) -> None:
    async def body(conn: ifxwire.aio.AsyncConnection) -> None:
        with pytest.raises(ifxwire.ProgrammingError, match="Color"):
            await conn.cursor().execute("INSERT INTO aad (id, s) VALUES (?, ?)", (1, Color.RED))
        cur = conn.cursor()  # the connection is still usable
        await cur.execute("SELECT COUNT(*) FROM aad")
        assert await cur.fetchone() == (0,)

    _run(connect_kwargs, dbname, body)
