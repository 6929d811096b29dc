"""Wire-level behaviour against a scripted server: groupings, streaming, adversity.

These scenarios need a server that misbehaves on purpose (unknown message codes, hanging up,
never answering) or that records exactly which groups arrived, which the real embedded server
is not for. See ``FakeServer`` in conftest.py.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import Any

import pytest

import ifxwire
from ifxwire.client.transport import INITIAL_BUFFER, Transport
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import CLIENT_PROTOCOLS, SERVER_PROTOCOLS, Msg, TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.wire import Writer

SELECT_1 = "SELECT a FROM t1"
PASSWORD = "in4mix"
LAYOUT = m.Layout.negotiate(SERVER_PROTOCOLS, CLIENT_PROTOCOLS)
# The fixture's class (conftest modules are not importable by name when several exist).
FakeServer = Any


def int_col(name: str) -> ColumnDesc:
    return ColumnDesc(name, TypeCode.INTEGER, 4)


def _connect(fake: FakeServer, **kw: object) -> ifxwire.Connection:
    return ifxwire.connect(**fake.kwargs(database="logdb", **kw))


def test_connect_sends_jdbc_groups_and_env(fake: FakeServer) -> None:
    c = _connect(fake)
    assert fake.names() == ["PROTOCOLS EOT", "INFO EOT", "DBOPEN EOT"]
    env = fake.login_envs[0]
    assert env["CLIENT_LOCALE"] == "en_US.8859-1"
    # Without db_locale, DB_LOCALE is the client locale, as a CSDK client sets it (GLS guide).
    assert env["DB_LOCALE"] == "en_US.8859-1"
    assert env["DBDATE"] == "Y4MD-"
    assert env["IFX_UPDDESC"] == "1"
    assert "CLNT_PAM_CAPABLE" not in env
    assert c.logging_mode == "logged"
    c.close()


def test_unpipelined_connect_same_groups(fake: FakeServer) -> None:
    c = _connect(fake, pipelined_connect=False)
    assert fake.names() == ["PROTOCOLS EOT", "INFO EOT", "DBOPEN EOT"]
    c.close()


def test_first_select_two_groups_then_one(fake: FakeServer) -> None:
    fake.results[SELECT_1] = ([int_col("a")], [(1,), (2,), (3,)])
    c = _connect(fake)
    cur = c.cursor()
    start = len(fake.groups)
    assert cur.execute(SELECT_1).fetchall() == [(1,), (2,), (3,)]
    assert fake.names(start) == [
        "PREPARE NDESCRIBE WANTDONE EOT",
        "ID CURNAME OPEN ID NFETCH EOT",
    ]
    assert cur.rowcount == 3
    start = len(fake.groups)
    assert cur.execute(SELECT_1).fetchall() == [(1,), (2,), (3,)]
    assert fake.names(start) == ["ID CURNAME OPEN ID NFETCH EOT"]
    c.close()


def test_no_optofc_close_is_deferred_not_a_round_trip(fake: FakeServer) -> None:
    fake.optofc_close = False
    fake.results[SELECT_1] = ([int_col("a")], [(1,)])
    c = _connect(fake)
    cur = c.cursor()
    cur.execute(SELECT_1).fetchall()
    start = len(fake.groups)
    cur.execute(SELECT_1).fetchall()
    # The CLOSE for the first result travels in the same send as the next request.
    assert fake.names(start) == ["ID CLOSE EOT", "ID CURNAME OPEN ID NFETCH EOT"]
    c.close()


def test_abandoned_result_closed_with_next_request(fake: FakeServer) -> None:
    fake.results[SELECT_1] = ([int_col("a")], [(i,) for i in range(5000)])
    c = _connect(fake, fetch_buffer_size=4096)
    cur = c.cursor()
    cur.execute(SELECT_1)
    assert cur.fetchone() == (0,)
    start = len(fake.groups)
    cur.execute("INSERT INTO t1 VALUES (1)")
    assert fake.names(start)[0] == "ID CLOSE EOT"
    assert "ID EXECUTE EOT" in fake.names(start) or "ID BIND EXECUTE EOT" in fake.names(start)
    c.close()


def test_garbage_collected_cursor_closes_its_result(fake: FakeServer) -> None:
    fake.results[SELECT_1] = ([int_col("a")], [(i,) for i in range(5000)])
    c = _connect(fake, fetch_buffer_size=4096)
    cur = c.cursor()
    cur.execute(SELECT_1)
    cur.fetchone()
    del cur
    start = len(fake.groups)
    # The statement is free again: reused from the cache (no PREPARE), after a deferred CLOSE.
    assert len(c.execute(SELECT_1).fetchall()) == 5000
    names = fake.names(start)
    assert names[0] == "ID CLOSE EOT"
    assert names[1] == "ID CURNAME OPEN ID NFETCH EOT"
    c.close()


def test_streaming_keeps_one_batch(fake: FakeServer) -> None:
    n = 50_000
    fake.results[SELECT_1] = ([int_col("a")], [(i,) for i in range(n)])
    c = _connect(fake, fetch_buffer_size=8192)
    cur = c.execute(SELECT_1)
    biggest = 0
    count = 0
    for row in cur:
        assert row[0] == count
        count += 1
        biggest = max(biggest, cur.batch_size)
    assert count == n
    assert cur.rowcount == n
    assert biggest <= 8192 // 12 + 1
    c.close()


def test_unknown_message_breaks_connection(fake: FakeServer) -> None:
    c = _connect(fake)

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if group[0].code == Msg.PREPARE:
            return b"\x00\x0f" + b"\x00" * 14 + b"\x01\x2c\x00\x0c"  # DONE, then code 300
        return None

    fake.hook = hook
    cur = c.cursor()
    with pytest.raises(ifxwire.InterfaceError, match="300"):
        cur.execute("SELECT 1 FROM x")
    assert c.broken
    with pytest.raises(ifxwire.InterfaceError):
        cur.execute("SELECT 1 FROM x")
    c.close()
    assert c.closed


@pytest.mark.parametrize("size", [-8, -1, -0x7FFFFFFF])
def test_negative_tuple_size_breaks_the_connection_instead_of_looping(
    fake: FakeServer, size: int
) -> None:
    fake.results[SELECT_1] = ([int_col("a")], [(1,)])
    c = _connect(fake, read_timeout=5)

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if any(msg.code == Msg.NFETCH for msg in group):
            return Writer().u16(Msg.TUPLE).i16(0).i32(size).u16(Msg.EOT).getvalue()
        return None

    fake.hook = hook
    started = time.monotonic()
    with pytest.raises((ifxwire.OperationalError, ifxwire.InterfaceError), match="negative"):
        c.cursor().execute(SELECT_1).fetchall()
    assert time.monotonic() - started < 5
    assert c.broken
    c.close()


def test_hangup_mid_reply_is_operational_error(fake: FakeServer) -> None:
    c = _connect(fake)
    fake.hook = lambda g: fake.HANGUP
    with pytest.raises(ifxwire.OperationalError) as info:
        c.cursor().execute("INSERT INTO t VALUES (1)")
    assert info.value.sqlstate == "08006"
    assert c.broken
    with pytest.raises(ifxwire.InterfaceError):
        c.cursor().execute("INSERT INTO t VALUES (1)")
    c.close()


def test_read_timeout_never_hangs(fake: FakeServer) -> None:
    c = _connect(fake, read_timeout=0.3)
    fake.silent = True
    t0 = time.monotonic()
    with pytest.raises(ifxwire.OperationalError, match="timed out"):
        c.cursor().execute("INSERT INTO t VALUES (1)")
    assert time.monotonic() - t0 < 5
    assert c.broken
    t0 = time.monotonic()
    c.close()
    assert time.monotonic() - t0 < 3


def test_close_does_not_hang_on_silent_server(fake: FakeServer) -> None:
    c = _connect(fake)
    fake.silent = True
    t0 = time.monotonic()
    c.close()
    assert time.monotonic() - t0 < 5
    assert c.closed


def test_error_is_raised_after_the_whole_reply(fake: FakeServer) -> None:
    c = _connect(fake)

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if group[0].code == Msg.PREPARE:
            w = Writer()
            m.put_err(w, -206, -111, 14, b"nosuch", LAYOUT)
            m.put_cost(w, 1, 2)  # more messages after the error must still be consumed
            w.u16(Msg.EOT)
            return bytes(w.buf)
        return None

    fake.hook = hook
    with pytest.raises(ifxwire.ProgrammingError) as info:
        c.cursor().execute("SELECT * FROM nosuch")
    e = info.value
    assert (e.sqlcode, e.isamcode, e.near, e.offset) == (-206, -111, "nosuch", 14)
    fake.hook = None
    # The stream is still in sync.
    c.cursor().execute("INSERT INTO t VALUES (1)")
    assert not c.broken
    c.close()


def test_bad_password_sqlcode(fake: FakeServer) -> None:
    with pytest.raises(ifxwire.OperationalError) as info:
        ifxwire.connect(**fake.kwargs(password="wrong"))
    assert info.value.sqlcode == -951


def test_trace_logs_messages_not_password(
    fake: FakeServer, caplog: pytest.LogCaptureFixture
) -> None:
    fake.results[SELECT_1] = ([int_col("a")], [(1,)])
    with caplog.at_level(logging.DEBUG, logger="ifxwire"):
        c = _connect(fake, trace=True)
        c.execute(SELECT_1).fetchall()
        c.close()
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "PREPARE NDESCRIBE WANTDONE EOT" in text
    assert "DESCRIBE" in text and "TUPLE" in text
    assert SELECT_1 in text  # statement log on ifxwire.client
    assert PASSWORD not in text
    assert PASSWORD.encode().hex() not in text


def test_executemany_window_and_chunks(fake: FakeServer) -> None:
    c = _connect(fake, autocommit=True)
    cur = c.cursor()
    start = len(fake.groups)
    n = 5000
    cur.executemany("INSERT INTO t VALUES (?)", ((i,) for i in range(n)))
    assert cur.rowcount == n
    assert cur.lastrowid == 7
    names = fake.names(start)
    assert names[0] == "PREPARE NDESCRIBE WANTDONE EOT"
    assert names[1:] == ["ID BIND EXECUTE EOT"] * n
    c.close()


def test_executemany_failures_keep_going(fake: FakeServer) -> None:
    c = _connect(fake, autocommit=True)
    counter = {"n": 0}

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if group[0].code == Msg.ID and any(x.code == Msg.EXECUTE for x in group):
            i = counter["n"]
            counter["n"] += 1
            if i in (0, 50, 99):
                w = Writer()
                m.put_err(w, -268, -100, 0, b"pk", LAYOUT)
                w.u16(Msg.EOT)
                return bytes(w.buf)
        return None

    fake.hook = hook
    cur = c.cursor()
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(100)])
    e = info.value
    assert e.row_index == 0  # type: ignore[attr-defined]
    assert [i for i, _ in e.errors] == [0, 50, 99]  # type: ignore[attr-defined]
    assert str(e.message).startswith("executemany row 0:")
    assert e.sqlcode == -268
    assert cur.rowcount == 97
    fake.hook = None
    cur.execute("INSERT INTO t VALUES (1)")
    c.close()


def test_minus_710_reprepares_once(fake: FakeServer) -> None:
    fake.results[SELECT_1] = ([int_col("a")], [(1,)])
    c = _connect(fake)
    c.execute(SELECT_1).fetchall()
    state = {"fail": True}

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if state["fail"] and any(x.code == Msg.OPEN for x in group):
            state["fail"] = False
            w = Writer()
            m.put_err(w, -710, 0, 0, b"t1", LAYOUT)
            w.u16(Msg.EOT)
            return bytes(w.buf)
        return None

    fake.hook = hook
    start = len(fake.groups)
    assert c.execute(SELECT_1).fetchall() == [(1,)]
    assert fake.names(start) == [
        "ID CURNAME OPEN ID NFETCH EOT",  # answered -710
        "ID CLOSE EOT",  # in case the error came after OPEN (harmless otherwise)
        "ID RELEASE EOT",  # the stale statement; both deferred into the same send as ...
        "PREPARE NDESCRIBE WANTDONE EOT",  # ... the new PREPARE
        "ID CURNAME OPEN ID NFETCH EOT",
    ]
    c.close()


def test_receive_buffer_grows_for_big_messages_and_shrinks_back() -> None:
    a, b = socket.socketpair()
    try:
        t = Transport(a)
        big = bytes(range(256)) * (5 * INITIAL_BUFFER // 256)  # 5x the buffer
        b.sendall(b"xy")
        t.fill()
        t.start += 1  # leave one unparsed byte so the growth must keep it
        threading.Thread(target=b.sendall, args=(big,), daemon=True).start()
        while t.end - t.start < 1 + len(big):
            t.fill(1 + len(big))
        assert bytes(t.view[t.start : t.start + 1]) == b"y"
        assert bytes(t.view[t.start + 1 : t.start + 1 + len(big)]) == big
        assert len(t.buf) >= len(big)
        t.start = t.end  # all consumed
        b.sendall(b"z")
        t.fill()
        assert len(t.buf) == INITIAL_BUFFER
        assert bytes(t.view[t.start : t.end]) == b"z"
    finally:
        a.close()
        b.close()


def test_a_statement_reply_one_receive_brings_is_read_without_the_steps(
    connect_kwargs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24's 3 % check (count24): a new reply's ``need`` is 0, so ``_read`` fed it the
    empty buffer and sent every statement's reply through the ``_read_steps`` generator
    (~70 bytecodes and a second ``feed`` per statement). The empty buffer is now filled
    first and the reply parsed without the steps when one receive brings it whole."""
    from ifxwire.client.wire import WireSession

    made: list[int] = []
    steps = WireSession._read_steps

    def counted(self: WireSession, reply: Any) -> Any:
        made.append(reply.consumed)
        return steps(self, reply)

    c = ifxwire.connect(**connect_kwargs, database="sysmaster", autocommit=True)
    try:
        monkeypatch.setattr(WireSession, "_read_steps", counted)
        for _ in range(20):
            cur = c.cursor()
            cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
            assert cur.fetchall() == [(1,)]
            cur.close()
    finally:
        c.close()
    # (a reply the server's one send does not bring in one receive may still take them)
    assert len(made) <= 2, made


def test_a_login_response_one_receive_brings_is_read_without_its_generator(
    connect_kwargs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """count24: the login response is taken from the buffer when one receive brings it
    whole (``Transport.login_packet``); ``login_packet_steps``, a generator resumed twice
    through the login's steps, only waits for a response cut across receives."""
    made: list[int] = []
    steps = Transport.login_packet_steps

    def counted(self: Transport) -> Any:
        made.append(self.end - self.start)
        return steps(self)

    monkeypatch.setattr(Transport, "login_packet_steps", counted)
    for _ in range(5):
        c = ifxwire.connect(**connect_kwargs, database="sysmaster")
        assert c.server_version_internal
        c.close()
    assert len(made) <= 1, made
    # A response cut across receives still goes through the steps (and logs in).
    t = Transport(socket.socket())
    t.buf[0:3] = b"\x00\x40\x01"
    t.start, t.end = 0, 3
    assert t.login_packet() is None and t.start == 0
