"""The server's limits (docs/SERVER.md "Limits") and long statements (issue 10 defect 7), over
real sockets: each limit answers with Informix's error or closes only the offending session,
and a healthy session keeps working beside it."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
from collections.abc import Iterator

import pytest
from rawclient import RawClient  # tests/integration is on sys.path

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.login import ConnectRequest, build_connect_request
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server

KW = {"user": "informix", "password": "in4mix"}


def _connect(srv: Server, **extra: object) -> ifxwire.Connection:
    return ifxwire.connect(host=srv.host, port=srv.port, **KW, **extra)  # type: ignore[arg-type]


@pytest.fixture()
def srv() -> Iterator[Server]:
    with Server(port=0, login_timeout=1.0, max_sessions=3, max_statement_bytes=256 * 1024,
                max_message_bytes=1024 * 1024, max_blob_bytes=100_000) as s:
        c = _connect(s, autocommit=True)
        c.cursor().execute("create database d with log")
        c.cursor().execute("create table t (id integer, name varchar(20))")
        c.cursor().executemany("insert into t values (?, ?)", [(i, f"n{i}") for i in range(20)])
        c.close(wait=True)  # the tests count the server's sessions: this one must be gone
        yield s


def _healthy(srv: Server) -> None:
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        cur.execute("select count(*), sum(id) from t")
        assert cur.fetchone() == (20, 190)


# --- defect 7: long and deep statements ------------------------------------------------------
@pytest.mark.parametrize("terms", [500, 1000, 8000])
def test_long_or_chains_work(srv: Server, terms: int) -> None:
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        cur.execute("select id from t where " + " or ".join(f"id = {i}" for i in range(
            terms)) + " order by id")
        assert [r[0] for r in cur.fetchall()] == list(range(20))
        cur.execute("select count(*) from t where " + " and ".join(
            f"id <> {i + 100}" for i in range(terms)))
        assert cur.fetchone() == (20,)
        cur.execute("select " + " || ".join(["'a'"] * 300) + " from t where id = 1")
        assert cur.fetchone() == ("a" * 300,)


def test_long_in_lists_case_and_unions_work(srv: Server) -> None:
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        cur.execute("select count(*) from t where id in (" + ",".join(
            str(i) for i in range(5000)) + ")")
        assert cur.fetchone() == (20,)
        cur.execute("select case " + " ".join(f"when id = {i} then {i * 2}" for i in range(
            300)) + " end from t where id = 7")
        assert cur.fetchone() == (14,)
        cur.execute(" union all ".join(f"select id from t where id = {i}" for i in range(100)))
        assert len(cur.fetchall()) == 20


def test_deep_nesting_is_refused_with_762_and_the_session_goes_on(srv: Server) -> None:
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        cur.execute("select " + "(" * 30 + "1" + ")" * 30 + " from t where id = 1")
        assert cur.fetchone() == (1,)
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute("select " + "(" * 5000 + "1" + ")" * 5000 + " from t")
        assert info.value.sqlcode == -762
        # The driver knows -762 (it was a bare DatabaseError "no description"): Informix's
        # "Stack overflow occurred during statement parse." (JDBC's message catalogue), the
        # statement-too-complex class 54001, an OperationalError as psycopg makes class 54.
        assert type(info.value) is ifxwire.OperationalError
        assert info.value.sqlstate == "54001"
        assert "stack" in str(info.value) and "no description" not in str(info.value)
        cur.execute("select count(*) from t")
        assert cur.fetchone() == (20,)


def test_statement_over_the_limit_is_refused_with_460_without_buffering(srv: Server) -> None:
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        big = "select count(*) from t where name <> '" + "x" * 400_000 + "'"
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute(big)
        assert info.value.sqlcode == -460
        cur.execute("select count(*) from t")
        assert cur.fetchone() == (20,)
    # The receive buffer did not have to hold the text (max_message_bytes is 1 MiB; a 3 MB
    # statement is skipped, not buffered) and the session survives that too.
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute("select 1 from t where name = '" + "y" * 3_000_000 + "'")
        assert info.value.sqlcode == -460
        cur.execute("select count(*) from t")
        assert cur.fetchone() == (20,)


def test_statement_timeout_interrupts_with_213() -> None:
    runaway = "select count(*) from t a, t b, t c, t d, t e, t f, t g"  # 20**7 rows
    with Server(port=0, statement_timeout=0.5) as srv, contextlib.closing(
            _connect(srv, autocommit=True)) as c:
        cur = c.cursor()
        cur.execute("create database d with log")
        cur.execute("create table t (id integer, name varchar(20))")
        cur.executemany("insert into t values (?, ?)", [(i, f"n{i}") for i in range(20)])
        started = time.monotonic()
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute(runaway)
            cur.fetchall()
        assert info.value.sqlcode == -213
        assert time.monotonic() - started < 30  # interrupted, not run to exhaustion
        cur.execute("select count(*) from t")
        assert cur.fetchone() == (20,)
        _healthy(srv)


# --- sessions and logins ---------------------------------------------------------------------
def test_login_timeout_closes_silent_connections(srv: Server) -> None:
    silent = socket.create_connection((srv.host, srv.port), timeout=10)
    half = socket.create_connection((srv.host, srv.port), timeout=10)
    half.sendall(build_connect_request(ConnectRequest("informix", "in4mix", "informix"))[:20])
    for sock in (silent, half):
        started = time.monotonic()
        assert sock.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 8
        sock.close()
    _healthy(srv)


def test_max_sessions_refuses_with_25571(srv: Server) -> None:
    # The fixture's own session was closed just before: its slot is given back before the
    # EXIT is acknowledged, so all three slots are free now (this used to race).
    assert srv.logged_in == 0
    held = [_connect(srv) for _ in range(3)]
    try:
        with pytest.raises(ifxwire.Error) as info:
            _connect(srv)
        assert "25571" in str(info.value)
    finally:
        for c in held:
            c.close()
    deadline = time.monotonic() + 5
    while srv.logged_in and time.monotonic() < deadline:
        time.sleep(0.02)
    _healthy(srv)  # slots are given back


def test_failed_logins_are_slowed_down_per_address() -> None:
    with Server(port=0, failed_login_limit=2) as s:
        times = []
        for _ in range(4):
            started = time.monotonic()
            with pytest.raises(ifxwire.Error):
                ifxwire.connect(host=s.host, port=s.port, user="informix", password="wrong")
            times.append(time.monotonic() - started)
        assert times[-1] >= 0.4 > times[0]  # third failure on: 0.25 s, then 0.5 s ...
        c = _connect(s)  # the right password still gets in (after the delay)
        c.close()
        assert s.throttle.delay("127.0.0.1") == 0.0  # and a success clears the count


# --- buffers ---------------------------------------------------------------------------------
def test_message_over_max_message_bytes_closes_that_session(
        srv: Server, caplog: pytest.LogCaptureFixture) -> None:
    raw = RawClient(srv.host, srv.port)
    w = Writer()
    m.put_id(w, 0)
    # A BIND claiming a 16 MB LVARCHAR value: the buffer may not grow past 1 MiB.
    # type 43 (LVARCHAR), owner "", name "", indicator 0, prec 0, u32 length (jdbc 3.4)
    w.u16(Msg.BIND).u16(1).i16(43).u16(0).u16(0).i16(0).i16(0).u32(16_000_000)
    with caplog.at_level(logging.WARNING, logger="ifxwire.server"):
        raw.sock.sendall(w.getvalue() + os.urandom(1_200_000))
        raw.sock.settimeout(10)
        with contextlib.suppress(ConnectionError):
            while raw.sock.recv(65536):
                pass
    assert any("max_message_bytes" in r.getMessage() and "SQ_BIND" in r.getMessage()
               and "offset" in r.getMessage() for r in caplog.records)
    _healthy(srv)


def test_blob_upload_over_max_blob_bytes_gives_208(srv: Server) -> None:
    with contextlib.closing(_connect(srv, database="d", autocommit=True)) as c:
        cur = c.cursor()
        cur.execute("create table b (id integer, data byte)")
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute("insert into b values (1, ?)", (b"x" * 200_000,))
        assert info.value.sqlcode == -208
        cur.execute("insert into b values (2, ?)", (b"y" * 50_000,))
        cur.execute("select id, length(data) from b")
        assert cur.fetchall() == [(2, 50_000)]


def test_receive_buffer_shrinks_after_a_large_message(
        srv: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    from ifxwire.server import wireio  # where the receive buffer is compacted

    shrinks: list[int] = []
    monkeypatch.setattr(wireio, "release_free_memory", lambda: shrinks.append(1))
    with contextlib.closing(_connect(srv, database="d")) as c:
        cur = c.cursor()
        [session] = [s for s in list(srv._sessions) if s.engine and s.engine.database == "d"]
        cur.execute("select count(*) from t where name <> ?", ("z" * 600_000,))
        assert cur.fetchone() == (20,)
        for _ in range(3):
            cur.execute("select count(*) from t")
            cur.fetchall()
        # The 600 KB message grew the buffer; once it was consumed the buffer went back.
        assert shrinks and len(session.buf) == 256 * 1024
