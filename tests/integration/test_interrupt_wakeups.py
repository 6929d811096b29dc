"""The interrupt watcher is not woken by ordinary requests (server/interrupt.py, issue 26).

Linux wakes an epoll waiter whose mask holds EPOLLPRI whenever ordinary data reaches the
socket (``sock_def_readable``'s wake-up key includes EPOLLPRI), even though epoll then
finds no urgent data and reports nothing. With EPOLLPRI watched all the time, every
request woke the server's interrupt thread once: a context switch per round trip. It is
now watched only while a session works on a request. These tests count the watcher
thread's voluntary context switches (``/proc/self/task/TID/status``) over many one-row
statements, and check that cancels (the byte that arrives during a request, and one that
arrives while the session is idle) still mean what they meant. Real server, real sockets.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.server.interrupt import ARM_AFTER

pytestmark = pytest.mark.skipif(
    not hasattr(select, "EPOLLRDHUP") or not Path("/proc/self/task").is_dir(),
    reason="Linux epoll and /proc")

USER, PASSWORD = "informix", "in4mix"
LONG_QUERY = "SELECT COUNT(*) FROM n a, n b, n c, n d"


@pytest.fixture(scope="module")
def srv() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, statement_timeout=60) as s:
        with ifxwire.connect(host=s.host, port=s.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.execute("CREATE DATABASE wakeups")
            c.execute("CREATE TABLE n (i INTEGER)")
            c.cursor().executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(1000)])
        yield s


@pytest.fixture()
def kw(srv: Any) -> dict[str, Any]:
    return {"host": srv.host, "port": srv.port, "user": USER, "password": PASSWORD,
            "database": "wakeups", "autocommit": True}


def _server_fd(srv: Any, c: Any) -> int:
    """The server's fd of the connection ``c`` (its session's socket)."""
    port = c._transport.sock.getsockname()[1]
    for s in list(srv._sessions):
        if s.peer.endswith(f":{port}"):
            return int(s.sock.fileno())
    raise AssertionError("no session for this connection")


def _switches(thread: threading.Thread) -> int:
    assert thread.native_id is not None
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


def test_requests_do_not_wake_the_interrupt_watcher(srv: Any, kw: dict[str, Any]) -> None:
    statements = 1000
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        cur.execute("SELECT i FROM n WHERE i = ?", (1,))  # the watcher thread runs from here
        watcher = srv.interrupts._thread
        assert watcher is not None and watcher.is_alive()
        before = _switches(watcher)
        started = time.monotonic()
        for k in range(statements):
            cur.execute("SELECT i FROM n WHERE i = ?", (k % 1000,))
            assert cur.fetchall() == [(k % 1000,)]
        elapsed = time.monotonic() - started
        woken = _switches(watcher) - before
    # Before the change: about one wake-up per statement (1000). Now its ticks (one per
    # ARM_AFTER seconds) and little else.
    assert woken < statements // 4 + 2 * elapsed / ARM_AFTER, (woken, elapsed)


def test_an_idle_server_does_not_tick(srv: Any, kw: dict[str, Any]) -> None:
    """With no request running, the watcher sleeps in epoll without a timeout: before, it
    ticked every ARM_AFTER seconds (50 wake-ups a second on an idle server)."""
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        cur.execute("SELECT i FROM n WHERE i = 1")
        assert cur.fetchall() == [(1,)]
        watcher = srv.interrupts._thread
        assert watcher is not None and watcher.is_alive()
        time.sleep(4 * ARM_AFTER)  # a tick that finds nothing running puts it to sleep
        ticks, before = srv.interrupts.ticks, _switches(watcher)
        time.sleep(25 * ARM_AFTER)
        assert srv.interrupts.ticks == ticks
        assert _switches(watcher) - before <= 1  # (before the change: about 25)
        # and it wakes for the next request: a long one is armed by the ticks again
        sock = c._transport.sock
        assert isinstance(sock, socket.socket)
        timer = threading.Timer(0.3, lambda: sock.send(b"\x42", socket.MSG_OOB))
        timer.start()
        started = time.monotonic()
        with pytest.raises(ifxwire.OperationalError) as info:
            c.execute(LONG_QUERY)
        timer.join()
        assert info.value.sqlcode == -213
        assert time.monotonic() - started < 20
        assert srv.interrupts.ticks > ticks


def test_a_steady_stream_of_requests_keeps_the_watcher_ticking(
        srv: Any, kw: dict[str, Any]) -> None:
    """Statements that keep coming, each shorter than a tick, with the client's own time
    between them (so the session waits for its client at nearly every tick): the watcher
    keeps ticking instead of falling asleep at each such tick, so the requests do not have
    to wake it through the eventfd (issue 26, ninth round: before, about one wake-up per
    tick, an eventfd write in the session and a second wake-up of the watcher's thread)."""
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        cur.execute("SELECT i FROM n WHERE i = ?", (1,))
        assert cur.fetchall() == [(1,)]
        watcher = srv.interrupts
        wakes, ticks = watcher.wakes, watcher.ticks
        deadline = time.monotonic() + 30 * ARM_AFTER
        while time.monotonic() < deadline:
            cur.execute("SELECT i FROM n WHERE i = ?", (1,))
            assert cur.fetchall() == [(1,)]
            time.sleep(ARM_AFTER / 10)  # the client's own work: the session waits
        ticked, woken = watcher.ticks - ticks, watcher.wakes - wakes
    assert ticked >= 5, ticked  # it did tick meanwhile
    # Now none, but for a stall of the client longer than a tick on a loaded machine; the
    # old rule: about one per tick (23 wake-ups in 28 ticks).
    assert woken * 4 <= ticked, (woken, ticked)


def test_short_requests_make_no_epoll_calls(srv: Any, kw: dict[str, Any]) -> None:
    """A request shorter than a tick leaves the socket's epoll mask alone (arming EPOLLPRI
    per request cost two epoll_ctl: as much as the wake-ups it saved)."""
    import select as select_module

    calls = 0
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        cur.execute("SELECT i FROM n WHERE i = 1")
        session = next(s for s in list(srv._sessions) if s.gate._poller is not None
                       and s.gate._fd == _server_fd(srv, c))
        real = session.gate._poller

        class Counting:
            def modify(self, fd: int, mask: int) -> None:
                nonlocal calls
                calls += 1
                real.modify(fd, mask)

        session.gate._poller = Counting()  # type: ignore[assignment]
        try:
            for _ in range(200):
                cur.execute("SELECT i FROM n WHERE i = 1")
                assert cur.fetchall() == [(1,)]
        finally:
            session.gate._poller = real
    # A statement that happened to be running at two ticks in a row is armed (and disarmed).
    assert calls <= 10, calls
    assert isinstance(real, select_module.epoll)


def test_a_cancel_during_a_request_still_interrupts_it(srv: Any, kw: dict[str, Any]) -> None:
    with ifxwire.connect(**kw) as c:
        for _ in range(20):  # idle and busy, many times over, before the cancel
            assert c.execute("SELECT COUNT(*) FROM n").fetchone() == (1000,)
        sock = c._transport.sock
        assert isinstance(sock, socket.socket)
        timer = threading.Timer(0.3, lambda: sock.send(b"\x42", socket.MSG_OOB))
        timer.start()
        started = time.monotonic()
        with pytest.raises(ifxwire.OperationalError) as info:
            c.execute(LONG_QUERY)
        timer.join()
        assert info.value.sqlcode == -213
        assert time.monotonic() - started < 20
        assert c.execute("SELECT COUNT(*) FROM n").fetchone() == (1000,)


def test_an_urgent_byte_while_idle_cancels_nothing_later(srv: Any, kw: dict[str, Any]) -> None:
    """Not watched while idle, the byte stays in the socket until the session's next read
    steps over it: the statements after it must run to their end, the long one too."""
    with ifxwire.connect(**kw, statement_timeout=1.5) as c:
        sock = c._transport.sock
        assert isinstance(sock, socket.socket)
        sock.send(b"\x42", socket.MSG_OOB)
        time.sleep(0.2)
        assert c.execute("SELECT COUNT(*) FROM n").fetchone() == (1000,)
        # A statement that runs until its timeout: -213 with the timeout's text, so it was
        # not the stale byte that stopped it.
        with pytest.raises(ifxwire.OperationalError) as info:
            c.execute(LONG_QUERY)
        assert "statement_timeout=1.5 s" in str(info.value)
        assert c.execute("SELECT COUNT(*) FROM n").fetchone() == (1000,)


def _session_of(srv: Any, c: Any) -> Any:
    port = c._transport.sock.getsockname()[1]
    for s in list(srv._sessions):
        if s.peer.endswith(f":{port}"):
            return s
    raise AssertionError("no session for this connection")


def _until_waiting(session: Any) -> None:
    """Until the session waits in recv for its next group (its reply sent)."""
    deadline = time.monotonic() + 10
    while not (session.gate._waiting and session.start == session.end
               and not session.pending):
        assert time.monotonic() < deadline, "the session did not go back to waiting"
        time.sleep(0.005)
    time.sleep(0.02)  # (past the flag, into recv_into)


def test_the_idle_wait_keeps_the_gate_and_the_latch_in_step(
        srv: Any, kw: dict[str, Any]) -> None:
    """WireIO._await_request, the wait between groups with InterruptGate.idle/busy and the
    engine's rl_leave/rl_enter inlined (issue 26, eleventh round), does what those calls
    did: while the session waits it is marked waiting and holds no request latch (another
    session may commit its parked transaction), each group counts as one request, and a
    gate the watcher armed during the request is disarmed when the session waits again."""
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        for _ in range(3):
            cur.execute("SELECT i FROM n WHERE i = ?", (1,))
            cur.fetchall()
        session = _session_of(srv, c)
        gate, es = session.gate, session.engine
        _until_waiting(session)
        assert es._rl_in is False  # rl_leave: the latch is free while the client thinks
        assert es._rl_use.acquire(blocking=False)  # (and free for another session)
        es._rl_use.release()
        before = gate._requests
        for k in range(5):
            cur.execute("SELECT i FROM n WHERE i = ?", (k,))
            assert cur.fetchall() == [(k,)]
        _until_waiting(session)
        assert gate._requests == before + 5  # busy: one request per group
        assert es._rl_in is False
        # As if the watcher had armed EPOLLPRI during a long request (InterruptGate.tick).
        with gate._lock:
            gate._armed = True
            gate._waiting = False
        cur.execute("SELECT i FROM n WHERE i = ?", (2,))
        assert cur.fetchall() == [(2,)]
        _until_waiting(session)
        assert gate._armed is False  # idle: disarmed while the session waits
        assert gate._waiting is True
