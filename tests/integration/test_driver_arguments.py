"""Wrong arguments to PEP 249 calls raise PEP 249 errors, never a bare TypeError (defect 8).

``cursor.execute(None)`` and ``executemany(sql, None)`` used to fail with ``TypeError`` from
deep inside the driver. Each misuse here must raise ``ProgrammingError`` or
``InterfaceError`` (both ``ifxwire.Error``), send nothing, and leave the connection usable;
the same calls through ``ifxwire.aio``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio

pytestmark = pytest.mark.both_drivers

SELECT = "SELECT tabid FROM systables WHERE tabid = ?"
INSERT = "INSERT INTO args_t VALUES (?)"

#: (label, call on a cursor). Every one is a programming mistake the driver must name.
MISUSES: list[tuple[str, Callable[[Any], Any]]] = [
    ("execute(None)", lambda c: c.execute(None)),
    ("execute(bytes)", lambda c: c.execute(b"SELECT 1 FROM systables")),
    ("execute(int)", lambda c: c.execute(42)),
    ("execute(list)", lambda c: c.execute(["SELECT 1"])),
    ("params int", lambda c: c.execute(SELECT, 1)),
    ("params str", lambda c: c.execute(SELECT, "1")),
    ("params set", lambda c: c.execute(SELECT, {1})),
    ("params generator", lambda c: c.execute(SELECT, (x for x in (1,)))),
    ("params too many", lambda c: c.execute(SELECT, (1, 2))),
    ("params mapping for ?", lambda c: c.execute(SELECT, {"a": 1})),
    ("params object", lambda c: c.execute(SELECT, (object(),))),
    ("executemany(sql, None)", lambda c: c.executemany(INSERT, None)),
    ("executemany(sql, 5)", lambda c: c.executemany(INSERT, 5)),
    ("executemany(None, rows)", lambda c: c.executemany(None, [(1,)])),
    ("executemany(bytes, rows)", lambda c: c.executemany(INSERT.encode(), [(1,)])),
    ("executemany row int", lambda c: c.executemany(INSERT, [5])),
    ("callproc(None)", lambda c: c.callproc(None)),
    ("callproc(name, None)", lambda c: c.callproc("no_such_proc", None)),
    ("callproc(name, 5)", lambda c: c.callproc("no_such_proc", 5)),
    ("fetchmany(str)", lambda c: c.fetchmany("3")),
    ("fetchmany(float)", lambda c: c.fetchmany(2.5)),
    ("scroll(str)", lambda c: c.scroll("1")),
    ("scroll mode", lambda c: c.scroll(1, mode=None)),
]


@pytest.fixture(scope="module", autouse=True)
def table(connect_kwargs: dict[str, Any], dbname: str) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname) as c:
        c.execute("CREATE TABLE args_t (n INTEGER)")


def _check(exc: BaseException) -> None:
    assert isinstance(exc, (ifxwire.ProgrammingError, ifxwire.InterfaceError)), repr(exc)
    assert not isinstance(exc, TypeError)


@pytest.mark.parametrize(("label", "call"), MISUSES, ids=[m[0] for m in MISUSES])
def test_sync_misuse_raises_a_pep249_error(
    label: str, call: Callable[[Any], Any], conn: ifxwire.Connection
) -> None:
    cur = conn.cursor()
    cur.execute("SELECT tabid FROM systables WHERE tabid < 5")  # a result to fetch from
    with pytest.raises(ifxwire.Error) as info:
        call(cur)
    _check(info.value)
    assert not conn.broken
    assert conn.cursor().execute(SELECT, (1,)).fetchall() == [(1,)]


def test_arraysize_must_be_an_int(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.ProgrammingError):
        cur.arraysize = "10"  # type: ignore[assignment]
    cur.arraysize = 3
    assert len(cur.execute("SELECT tabid FROM systables").fetchmany()) == 3


def test_connection_execute_none(conn: ifxwire.Connection) -> None:
    with pytest.raises(ifxwire.ProgrammingError, match="must be a str"):
        conn.execute(None)  # type: ignore[arg-type]


def _arun(fn: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(fn(), 30))


AIO_MISUSES = [m for m in MISUSES if not m[0].startswith("scroll")]  # no AsyncCursor.scroll


@pytest.mark.parametrize(("label", "call"), AIO_MISUSES, ids=[m[0] for m in AIO_MISUSES])
def test_aio_misuse_raises_a_pep249_error(
    label: str, call: Callable[[Any], Any], connect_kwargs: dict[str, Any], dbname: str
) -> None:

    async def go() -> None:
        conn = await aio.connect(**connect_kwargs, database=dbname)
        try:
            cur = conn.cursor()
            await cur.execute("SELECT tabid FROM systables WHERE tabid < 5")
            with pytest.raises(ifxwire.Error) as info:
                result = call(cur)
                if asyncio.iscoroutine(result):
                    await result
            _check(info.value)
            assert not conn.broken
            check = await conn.execute(SELECT, (1,))
            assert await check.fetchall() == [(1,)]
        finally:
            await conn.close()

    _arun(go)


BAD_OPTIONS = [
    {"host": b"127.0.0.1"},
    {"port": "ninety"},
    {"port": 70000},
    {"user": 7},
    {"database": ["db"]},
    {"connect_timeout": "5"},
    {"connect_timeout": 0},
    {"read_timeout": float("inf")},
    {"fetch_buffer_size": 65536.0},
    {"statement_cache_size": "many"},
    {"autocommit": "no"},
    {"env": "DBDATE=Y4MD-"},
]


@pytest.mark.parametrize("bad", BAD_OPTIONS, ids=[next(iter(b)) + repr(b) for b in BAD_OPTIONS])
def test_connection_options_of_the_wrong_type_are_interface_errors(driver: Any,
    bad: dict[str, Any], connect_kwargs: dict[str, Any]
) -> None:
    kw = {**connect_kwargs, **bad}
    with pytest.raises(ifxwire.InterfaceError, match=next(iter(bad))):
        driver.connect(**kw)

    async def go() -> None:
        await aio.connect(**kw)

    with pytest.raises(ifxwire.InterfaceError, match=next(iter(bad))):
        asyncio.run(go())
