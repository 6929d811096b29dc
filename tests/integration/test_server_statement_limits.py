"""Prepared statements per session are bounded, and large bind values are not kept.

A session may hold at most ``max_statements`` prepared statements (-257, Informix's "System
limit on maximum number of statements exceeded, maximum is %s"); bind values over 64 KiB in
all are let go once the statement ran with them (server/statements.py). Real server, real
sockets: the driver for the limit, a raw client for what the driver never does (EXECUTE again
without a new SQ_BIND).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient

import ifxwire
from ifxwire.client.binds import bind_message
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server


@pytest.fixture(scope="module")
def srv() -> Iterator[Server]:
    with Server(port=0, max_statements=5) as s:
        with ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                             autocommit=True) as c:
            c.execute("CREATE DATABASE stl WITH LOG")
            # TEXT columns: three LVARCHAR(32000) would make a row over Informix's 32,767
            # bytes, which CREATE TABLE refuses (-499) as a real server does.
            c.execute("CREATE TABLE t (id INTEGER, a TEXT, b TEXT, c TEXT)")
        yield s


def _kw(s: Server) -> dict[str, Any]:
    return {"host": s.host, "port": s.port, "user": "informix", "password": "in4mix",
            "database": "stl", "autocommit": True}


def test_the_statement_past_the_limit_is_refused_and_the_session_goes_on(srv: Server) -> None:
    with ifxwire.connect(**_kw(srv)) as conn:
        cursors = []
        for i in range(5):  # the driver keeps each prepared (its statement cache)
            cur = conn.cursor()
            cur.execute(f"SELECT {i} FROM systables WHERE tabid = 1")
            cursors.append(cur)
        with pytest.raises(ifxwire.DatabaseError) as err:
            conn.execute("SELECT 99 FROM systables WHERE tabid = 1")
        assert err.value.sqlcode == -257
        assert err.value.near == "5"  # the maximum, which the %s of Informix's text names
        # A statement already prepared still runs; closing cursors frees their statements.
        assert cursors[0].execute("SELECT 0 FROM systables WHERE tabid = 1").fetchone() == (0,)
    with ifxwire.connect(**_kw(srv)) as other:  # the limit is per session
        assert other.execute("SELECT 7 FROM systables WHERE tabid = 1").fetchone() == (7,)


def _prepare_insert(raw: RawClient) -> int:
    w = Writer()
    m.put_prepare(w, b"INSERT INTO t VALUES (?, ?, ?, ?)", 4, raw.layout)
    reply = raw.send(w)
    assert not reply.errors, reply.errors
    return int(reply.describes[0].stmt_id)


def _execute(raw: RawClient, sid: int, values: tuple[object, ...] | None) -> Any:
    w = Writer()
    m.put_id(w, sid)
    if values is not None:
        w.buf += bind_message(values, "iso-8859-1")
    w.u16(Msg.EXECUTE)
    return raw.send(w)


@pytest.fixture()
def raw(srv: Server) -> Iterator[RawClient]:
    c = RawClient(srv.host, srv.port)
    assert not c.command("DATABASE stl").errors
    # The previous test's session may still be ending with the database write lock.
    assert not c.command("SET LOCK MODE TO WAIT 10").errors
    yield c
    c.close()


def test_small_bind_values_stay_for_another_execute(raw: RawClient) -> None:
    sid = _prepare_insert(raw)
    assert _execute(raw, sid, (1, "a", "b", "c")).dones[0].rows == 1
    # EXECUTE again without SQ_BIND: the values are the statement's still (as Informix).
    assert _execute(raw, sid, None).dones[0].rows == 1


def test_large_bind_values_are_let_go_after_the_execute(raw: RawClient) -> None:
    sid = _prepare_insert(raw)
    big = ("x" * 30000, "y" * 30000, "z" * 30000)
    assert _execute(raw, sid, (2, *big)).dones[0].rows == 1
    again = _execute(raw, sid, None)
    assert [e.sqlcode for e in again.errors] == [-254]
    # A new SQ_BIND works as always, and the session is fine.
    assert _execute(raw, sid, (3, *big)).dones[0].rows == 1
    assert raw.command("DELETE FROM t WHERE id = 3").dones[0].rows == 1
