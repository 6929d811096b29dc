"""The server's interrupt watcher (server/interrupt.py) against stale epoll events.

``epoll`` reports events by fd number. A session whose client went away is closed, and a new
connection accepted at once gets the same number; an event gathered for the old socket but
handled after the new session registered must not interrupt the new session's request. Seen
once in a full run: a fresh connection's CREATE FUNCTION answered -213 (test_smart_lobs,
accelerated pass). Real sockets (a socketpair), no server.
"""

from __future__ import annotations

import select
import socket
import time
from types import SimpleNamespace
from typing import Any

import pytest

from ifxwire.server.interrupt import ARM_AFTER, InterruptGate, InterruptWatcher

pytestmark = pytest.mark.skipif(not hasattr(select, "EPOLLRDHUP"), reason="Linux epoll")


def _busy_gate(sock: socket.socket) -> tuple[InterruptGate, SimpleNamespace]:
    gate = InterruptGate(sock, lambda: 1)  # a request's bytes have arrived: busy
    state = SimpleNamespace(cancelled=False, on_cancel=None)
    gate.state = state  # type: ignore[assignment]
    return gate, state


def test_a_stale_gone_event_does_not_interrupt_a_live_session() -> None:
    ours, client = socket.socketpair()
    try:
        gate, state = _busy_gate(ours)
        watcher = InterruptWatcher()
        watcher._gates[ours.fileno()] = gate  # registered, as a session does at login
        # The event was for the previous socket with this number: this one's client is there.
        watcher._dispatch(ours.fileno(), select.EPOLLRDHUP)
        assert state.cancelled is False
        assert watcher._gates.get(ours.fileno()) is gate  # still watched
        # When this client really goes, its request is interrupted.
        client.close()
        watcher._dispatch(ours.fileno(), select.EPOLLRDHUP)
        assert state.cancelled is True
    finally:
        ours.close()
        client.close()


def test_a_gone_event_for_a_socket_closed_meanwhile_does_not_kill_the_watcher() -> None:
    """The session may close its socket between the event and its handling: fileno() is then
    -1, which the FIONREAD ioctl refused with ValueError, ending the watcher thread (and with
    it every later cancel) — seen as a thread exception in a full run."""
    ours, client = socket.socketpair()
    gate = InterruptGate(ours, lambda: 0)
    gate.state = SimpleNamespace(cancelled=False, on_cancel=None)  # type: ignore[assignment]
    gate.idle()  # waiting for a request, nothing unread
    watcher = InterruptWatcher()
    watcher._gates[ours.fileno()] = gate
    fd = ours.fileno()
    client.close()
    ours.close()
    watcher._dispatch(fd, select.EPOLLRDHUP)  # must not raise
    assert fd not in watcher._gates


def _tcp_pair() -> tuple[socket.socket, socket.socket]:
    """A loopback TCP connection (urgent data needs TCP; a socketpair has none)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname()[:2])
        ours, _ = listener.accept()
    return ours, client


def _until(predicate: Any, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return bool(predicate())


def test_a_long_request_is_armed_by_the_ticks_and_disarmed_when_idle() -> None:
    """EPOLLPRI is watched only for a request busy at two ticks in a row (issue 26: armed
    all the time, every ordinary request woke the watcher); a byte sent before the arming
    is reported at it, one sent while idle is never taken for a cancel."""
    ours, client = _tcp_pair()
    watcher = InterruptWatcher()
    try:
        gate = InterruptGate(ours, lambda: 0)
        state = SimpleNamespace(cancelled=False, on_cancel=None)
        gate.state = state  # type: ignore[assignment]
        watcher.register(gate)
        gate.idle()
        gate.busy()  # a request arrived: nothing armed yet
        assert gate._armed is False
        client.send(b"\x42", socket.MSG_OOB)  # the cancel comes before the arming
        assert _until(lambda: state.cancelled)
        assert gate._armed is True and gate.cancels == 1
        gate.idle()  # answered: disarmed, the flag cleared
        assert gate._armed is False and state.cancelled is False
        client.send(b"\x42", socket.MSG_OOB)  # a late cancel: nobody reads it
        time.sleep(5 * ARM_AFTER)
        assert state.cancelled is False and gate.cancels == 1
    finally:
        watcher.stop()
        ours.close()
        client.close()


def test_the_watcher_sleeps_while_idle_and_wakes_for_a_request() -> None:
    """No ticks while every session waits for its client (an idle server's watcher ticked
    every ARM_AFTER seconds); the first request after that wakes it, and a long request
    is still armed and cancelled. stop() ends a sleeping watcher."""
    ours, client = _tcp_pair()
    watcher = InterruptWatcher()
    try:
        gate = InterruptGate(ours, lambda: 0)
        state = SimpleNamespace(cancelled=False, on_cancel=None)
        gate.state = state  # type: ignore[assignment]
        gate.idle()
        watcher.register(gate)
        assert _until(lambda: watcher._asleep)
        ticks = watcher.ticks
        time.sleep(10 * ARM_AFTER)
        assert watcher.ticks == ticks  # asleep: no ticks
        gate.busy()  # a request arrived: the watcher wakes and ticks again
        assert not watcher._asleep
        client.send(b"\x42", socket.MSG_OOB)
        assert _until(lambda: state.cancelled)
        assert watcher.ticks >= ticks + 2 and gate._armed is True
        gate.idle()
        assert _until(lambda: watcher._asleep)
        thread = watcher._thread
        assert thread is not None
    finally:
        watcher.stop()
        ours.close()
        client.close()
    thread.join(2)
    assert not thread.is_alive()
