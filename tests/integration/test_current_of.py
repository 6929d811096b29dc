"""UPDATE/DELETE ... WHERE CURRENT OF a client's FOR UPDATE cursor, sync and asyncio.

The engine compiles a single-table FOR UPDATE query with a hidden rowid and the session keeps
the rowid of the row it sent last (one row per fetch for update cursors); these tests pin the
row that changes, the errors, and that the cached plain statement is not changed by it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio

pytestmark = pytest.mark.both_drivers


@pytest.fixture()
def kw(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("DROP TABLE IF EXISTS co")
        c.execute("CREATE TABLE co (id INTEGER, v INTEGER)")
        c.cursor().executemany("INSERT INTO co VALUES (?, ?)", [(i, 10 * i) for i in range(6)])
    return {**connect_kwargs, "database": dbname}


def _rows(kw: dict[str, Any]) -> list[tuple[Any, ...]]:
    with ifxwire.connect(**kw) as c:
        return c.execute("SELECT id, v FROM co ORDER BY id").fetchall()


def test_update_and_delete_where_current_of(driver: Any, kw: dict[str, Any], server: Any) -> None:
    with driver.connect(**kw) as c:
        cur, upd = c.cursor(), c.cursor()
        cur.execute("SELECT id, v FROM co WHERE id < 5 ORDER BY id FOR UPDATE")
        name = cur.name
        assert name is not None and name.startswith("_ifxc")
        before = server.request_groups
        seen = []
        for ident, v in cur:
            seen.append(ident)
            if ident % 2:
                upd.execute(f"DELETE FROM co WHERE CURRENT OF {name}")
            else:
                upd.execute(f"UPDATE co SET v = ? WHERE CURRENT OF {name}", (v + 1,))
            assert upd.rowcount == 1
        assert seen == [0, 1, 2, 3, 4]
        # An update cursor sends one row per fetch: the row held is the row changed.
        assert server.request_groups - before >= 5
        c.commit()
    assert _rows(kw) == [(0, 1), (2, 21), (4, 41), (5, 50)]


def test_cached_plain_statement_is_unchanged(driver: Any, kw: dict[str, Any]) -> None:
    with driver.connect(**kw) as c:
        cur = c.cursor()
        cur.execute("SELECT id FROM co ORDER BY id FOR UPDATE")
        c.execute(f"UPDATE co SET v = 7 WHERE CURRENT OF {cur.name}")
        c.execute("UPDATE co SET v = 7")  # the same text without the clause: every row
        assert c.execute("SELECT COUNT(*) FROM co WHERE v = 7").fetchone() == (6,)
        c.rollback()


def test_errors(driver: Any, kw: dict[str, Any]) -> None:
    with driver.connect(**kw) as c:
        with pytest.raises(ifxwire.ProgrammingError) as info:
            c.execute("UPDATE co SET v = 0 WHERE CURRENT OF nosuch")
        assert info.value.sqlcode == -259  # no such cursor open
        plain = c.cursor(scrollable=True)  # open, but not FOR UPDATE
        plain.execute("SELECT id FROM co")
        with pytest.raises(ifxwire.DatabaseError) as info:
            c.execute(f"UPDATE co SET v = 0 WHERE CURRENT OF {plain.name}")
        # -290 "Cursor not declared with FOR UPDATE clause." (IBM's message catalogue;
        # ids_sqs_1275: the cursor must have been declared FOR UPDATE); it was a -999.
        assert info.value.sqlcode == -290
        done = c.cursor()
        done.execute("SELECT id FROM co WHERE id = 0 FOR UPDATE")
        name = done.name
        assert done.fetchall() == [(0,)]
        with pytest.raises(ifxwire.ProgrammingError) as info:
            c.execute(f"UPDATE co SET v = 0 WHERE CURRENT OF {name}")
        assert info.value.sqlcode == -259  # read to its end: closed (OPTOFC)
        c.rollback()
    assert _rows(kw)[0] == (0, 0)


def test_update_of_list_limits_the_columns(driver: Any, kw: dict[str, Any]) -> None:
    """ids_sqs_1275: with FOR UPDATE OF columns, UPDATE … WHERE CURRENT OF may set only
    those; another is -364 "Column (%s) not declared for UPDATE OF." (IBM's message
    catalogue), naming it, and the row is unchanged. It ran before. DELETE is not limited."""
    with driver.connect(**kw) as c:
        cur, upd = c.cursor(), c.cursor()
        cur.execute("SELECT id, v FROM co WHERE id = 2 FOR UPDATE OF v")
        assert cur.fetchone() == (2, 20)
        with pytest.raises(ifxwire.DatabaseError) as info:
            upd.execute(f"UPDATE co SET id = 9 WHERE CURRENT OF {cur.name}")
        assert info.value.sqlcode == -364 and "id" in str(info.value)
        upd.execute(f"UPDATE co SET V = 7 WHERE CURRENT OF {cur.name}")
        assert upd.rowcount == 1
        c.commit()
    assert _rows(kw)[2] == (2, 7)


def test_asyncio_where_current_of(kw: dict[str, Any]) -> None:
    async def go() -> None:
        c = await aio.connect(**kw)
        try:
            cur, upd = c.cursor(), c.cursor()
            await cur.execute("SELECT id, v FROM co ORDER BY id FOR UPDATE")
            async for ident, v in cur:
                await upd.execute(f"UPDATE co SET v = ? WHERE CURRENT OF {cur.name}",
                                  (v + ident,))
            await c.commit()
        finally:
            await c.close()

    asyncio.run(asyncio.wait_for(go(), 60))
    assert _rows(kw) == [(i, 11 * i) for i in range(6)]


def test_a_name_chosen_by_the_application(driver: Any, kw: dict[str, Any]) -> None:
    with driver.connect(**kw) as c:
        cur = c.cursor()
        cur.name = "upd_cursor"
        cur.execute("SELECT id FROM co WHERE id = 2 OR id = 3 ORDER BY id FOR UPDATE")
        assert cur.name == "upd_cursor"
        assert cur.fetchone() == (2,)
        c.execute("UPDATE co SET v = -1 WHERE CURRENT OF upd_cursor")
        c.commit()
        with pytest.raises(ifxwire.ProgrammingError):
            cur.name = "not a name"
    assert _rows(kw)[2] == (2, -1)
