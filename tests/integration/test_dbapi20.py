"""Stuart Bishop's DB-API 2.0 compliance suite (package ``dbapi-compliance``) against ifxwire.

Adapted only through the suite's hooks: driver, connect_kw_args, lower_func and the tests it
asks drivers to override. Deviations are listed in docs/DRIVER.md with their reasons.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import dbapi20
import pytest
from _aio_facade import AioDriver, BlockingLoop

import ifxwire

DB = "dbapi20_suite"
LOWER = "dbapi20_lower"


class _AioModule:
    """``ifxwire`` as the suite sees a driver module, with ``connect`` answered by the
    asyncio driver behind the blocking facade (tests/integration/_aio_facade.py)."""

    loop: BlockingLoop | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(ifxwire, name)

    def connect(self, *args: Any, **kwargs: Any) -> Any:
        assert self.loop is not None, "the _aio_loop fixture sets the loop"
        return AioDriver(self.loop).connect(*args, **kwargs)


AIO = _AioModule()


@pytest.fixture(autouse=True, scope="module")
def _aio_loop(aio_loop: BlockingLoop) -> Iterator[None]:
    AIO.loop = aio_loop
    yield
    AIO.loop = None


@pytest.fixture(autouse=True, scope="module")
def _database(connect_kwargs: dict[str, Any]) -> None:
    c = ifxwire.connect(**connect_kwargs)
    c.cursor().execute(f"CREATE DATABASE {DB} WITH LOG")
    c.cursor().execute(
        f"CREATE FUNCTION {LOWER}(s VARCHAR(50)) RETURNING VARCHAR(50); "
        "RETURN lower(s); END FUNCTION"
    )
    c.commit()
    c.close()
    DBAPI20Test.connect_kw_args = {**connect_kwargs, "database": DB}


class DBAPI20Test(dbapi20.DatabaseAPI20Test):
    driver = ifxwire
    connect_args = ()
    connect_kw_args: ClassVar[dict[str, Any]] = {}  # filled in by the _database fixture
    lower_func = LOWER

    def test_nextset(self) -> None:
        # Informix statements produce at most one result set, so nextset() is always None.
        con = self._connect()
        try:
            cur = con.cursor()
            cur.execute("SELECT tabid FROM systables WHERE tabid = 1")
            assert cur.nextset() is None
        finally:
            con.close()

    def test_setoutputsize(self) -> None:
        # Values arrive whole, so setoutputsize() has nothing to do: it must simply not fail.
        con = self._connect()
        try:
            cur = con.cursor()
            cur.setoutputsize(100, 0)
            cur.setoutputsize(100)
        finally:
            con.close()

    def test_non_idempotent_close(self) -> None:
        # Replaced, not skipped: dbapi20 expects a second close() to raise; ours is idempotent on
        # purpose (as in sqlite3 and psycopg 3), and the connection is unusable after either.
        con = self._connect()
        con.close()
        con.close()
        with pytest.raises(self.driver.InterfaceError):
            con.cursor()


class TestAsyncioDBAPI20(DBAPI20Test):
    """The same suite on ``ifxwire.aio``, each call made blocking by the facade (issue 24:
    every driver test not about one API runs on both drivers)."""

    driver = AIO
