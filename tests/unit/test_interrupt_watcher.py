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
from types import SimpleNamespace

import pytest

from ifxwire.server.interrupt import InterruptGate, InterruptWatcher

pytestmark = pytest.mark.skipif(not hasattr(select, "EPOLLRDHUP"), reason="Linux epoll")


def _busy_gate(sock: socket.socket) -> tuple[InterruptGate, SimpleNamespace]:
    gate = InterruptGate(sock, lambda: 1)  # a request's bytes have arrived: busy
    state = SimpleNamespace(cancelled=False)
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
    gate.state = SimpleNamespace(cancelled=False)  # type: ignore[assignment]
    gate.idle()  # waiting for a request, nothing unread
    watcher = InterruptWatcher()
    watcher._gates[ours.fileno()] = gate
    fd = ours.fileno()
    client.close()
    ours.close()
    watcher._dispatch(fd, select.EPOLLRDHUP)  # must not raise
    assert fd not in watcher._gates
