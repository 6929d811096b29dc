"""callproc with OUT and INOUT parameters against the real server, sync and asyncio
(client/routines.py; docs/DRIVER.md "Stored routines")."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire import InOutParam, OutParam

pytestmark = pytest.mark.both_drivers

ROUTINES = (
    """CREATE FUNCTION cp_split(a INTEGER, OUT twice INTEGER, INOUT trail VARCHAR(40))
        RETURNING INTEGER;
        IF a < 0 THEN RAISE EXCEPTION -746, 0, 'negative'; END IF;
        LET twice = a * 2;
        LET trail = NVL(trail, '') || '+' || a;
        RETURN a + 1;
    END FUNCTION""",
    """CREATE PROCEDURE cp_half(a INTEGER, OUT half DECIMAL(8,2))
        LET half = a / 2;
    END PROCEDURE""",
    "CREATE TABLE cp_log (v INTEGER)",
    """CREATE PROCEDURE cp_insert(a INTEGER, OUT total INTEGER)
        INSERT INTO cp_log VALUES (a);
        SELECT COUNT(*) INTO total FROM cp_log;
    END PROCEDURE""",
    "CREATE PROCEDURE cp_plain(a INTEGER) END PROCEDURE",
)


@pytest.fixture(scope="module", autouse=True)
def routines(connect_kwargs: dict[str, Any], dbname: str) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        cur = c.cursor()
        for sql in ROUTINES:
            cur.execute(sql)


def _usable(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
    assert cur.fetchall() == [(1,)]


def test_out_and_inout_values_come_back_and_the_return_value_is_a_result(
        conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    for a in (5, 7, 5):  # the second and third calls reuse the cached handle
        params = [a, OutParam(), InOutParam("start")]
        assert cur.callproc("cp_split", params) == [a, a * 2, f"start+{a}"]
        assert params[1].__class__ is OutParam  # the caller's sequence is left alone
        assert cur.description is not None and len(cur.description) == 1
        assert cur.description[0][1] == ifxwire.NUMBER
        assert cur.fetchall() == [(a + 1,)] and cur.rowcount == 1
    assert len(conn._out_routines) == 1
    # A plain value for an INOUT parameter is an input whose new value still comes back;
    # OutParam for an INOUT parameter sends NULL in.
    assert cur.callproc("cp_split", (3, OutParam(), "x")) == [3, 6, "x+3"]
    assert cur.callproc("cp_split", (4, OutParam(), OutParam())) == [4, 8, "+4"]
    _usable(conn)


def test_a_procedure_leaves_no_result_set(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    assert cur.callproc("cp_half", (7, OutParam())) == [7, Decimal("3.5")]
    assert cur.description is None
    with pytest.raises(ifxwire.ProgrammingError):
        cur.fetchall()


def test_wrong_use_is_a_clear_error_and_the_connection_goes_on(
        conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.ProgrammingError, match="cp_split has OUT or INOUT") as info:
        cur.callproc("cp_split", (1, 2, "x"))
    assert info.value.sqlcode == -9752
    with pytest.raises(ifxwire.ProgrammingError, match=r"parameter 2 \(twice\) of cp_split is "
                       "an OUT parameter"):
        cur.callproc("cp_split", (1, 2, InOutParam("x")))
    with pytest.raises(ifxwire.ProgrammingError, match="cp_plain has no OUT or INOUT"):
        cur.callproc("cp_plain", (OutParam(),))
    for name, args in (("cp_half", (1, OutParam(), 3)), ("cp_nosuch", (OutParam(),))):
        with pytest.raises(ifxwire.DatabaseError) as err:  # no routine takes these arguments
            cur.callproc(name, args)
        assert err.value.sqlcode == -674
    _usable(conn)
    # An error inside the routine is the call's; the next call runs again.
    with pytest.raises(ifxwire.DatabaseError) as err:
        cur.callproc("cp_split", (-1, OutParam(), InOutParam("x")))
    assert err.value.sqlcode == -746
    assert cur.callproc("cp_split", (2, OutParam(), InOutParam(""))) == [2, 4, "+2"]
    _usable(conn)


def test_call_function_points_to_callproc(conn: ifxwire.Connection) -> None:
    with pytest.raises(ifxwire.ProgrammingError, match=r"use cursor\.callproc"):
        conn.call_function("cp_half", 1, OutParam())
    _usable(conn)


def test_the_call_joins_the_transaction(conn: ifxwire.Connection) -> None:
    """Autocommit off in a logged database: BEGIN goes first (JDBC executeFastPath), so
    rollback undoes what the routine wrote."""
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM cp_log")
    (before,) = cur.fetchone() or (0,)
    conn.commit()
    assert cur.callproc("cp_insert", (1, OutParam())) == [1, before + 1]
    assert conn.in_transaction
    conn.rollback()
    cur.execute("SELECT COUNT(*) FROM cp_log")
    assert cur.fetchall() == [(before,)]
    assert cur.callproc("cp_insert", (2, OutParam())) == [2, before + 1]
    conn.commit()
    cur.execute("SELECT COUNT(*) FROM cp_log")
    assert cur.fetchall() == [(before + 1,)]


def test_a_replaced_routine_is_described_again(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE FUNCTION cp_swap(a INTEGER, OUT b INTEGER) RETURNING INTEGER; "
                "LET b = a; RETURN 1; END FUNCTION")
    assert cur.callproc("cp_swap", (3, OutParam())) == [3, 3]
    cur.execute("DROP FUNCTION cp_swap")
    cur.execute("CREATE PROCEDURE cp_swap(a INTEGER, OUT b INTEGER) LET b = a * 10; "
                "END PROCEDURE")
    conn.commit()
    # The cached handle no longer resolves (-674, nothing ran): described again, called once.
    assert cur.callproc("cp_swap", (3, OutParam())) == [3, 30]
    assert cur.description is None
    _usable(conn)


def test_asyncio_callproc(connect_kwargs: dict[str, Any], dbname: str) -> None:
    async def go() -> None:
        conn = await aio.connect(**connect_kwargs, database=dbname)
        try:
            cur = conn.cursor()
            for a in (5, 6):
                got = await cur.callproc("cp_split", [a, OutParam(), InOutParam("s")])
                assert got == [a, a * 2, f"s+{a}"]
                assert await cur.fetchall() == [(a + 1,)]
            assert await cur.callproc("cp_half", (9, OutParam())) == [9, Decimal("4.5")]
            assert cur.description is None
            with pytest.raises(ifxwire.ProgrammingError, match="an IN parameter"):
                await cur.callproc("cp_half", (OutParam(), OutParam()))
            with pytest.raises(ifxwire.ProgrammingError, match="cp_split has OUT or INOUT"):
                await cur.callproc("cp_split", (1, 2, "x"))
            await cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
            assert await cur.fetchall() == [(1,)]
            await conn.commit()
        finally:
            await conn.close()

    asyncio.run(go())


def test_round_trips(server: Any, conn: ifxwire.Connection) -> None:
    """First call: PREPARE (-9752), then CFPDESCRIBE + GETROUTINE in one send, then the call
    (JDBC: 4 round trips); a repeated call is the EXFPROUTINE group alone."""
    cur = conn.cursor()
    conn.commit()
    conn._out_routines.clear()
    counts = []
    for _ in range(2):
        before = server.request_groups
        cur.callproc("cp_half", (3, OutParam()))
        counts.append(server.request_groups - before)
    # The first: PREPARE; CFPDESCRIBE, JDBC's unanswered lone EOT, GETROUTINE; BEGIN (autocommit
    # is off) and the call. The second runs inside that transaction.
    assert counts == [5, 1]
