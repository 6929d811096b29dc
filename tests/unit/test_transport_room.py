"""Transport.room's fast path (the buffer fully parsed, a working size): it rewinds and
offers the whole buffer, while the general path still grows, shrinks and compacts.

Why a test: the fast path is what every reply's receive takes (issue 24's 3 % check, the
cold connect's three reads); a change that sent it down the general path, or let it keep a
grown buffer, would only show as noise in a benchmark.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from ifxwire.client.transport import INITIAL_BUFFER, LOGIN_BUFFER, MIN_FREE, Transport

Pair = tuple[Transport, socket.socket]


@pytest.fixture
def pair() -> Iterator[Pair]:
    a, b = socket.socketpair()
    try:
        yield Transport(a), b
    finally:
        a.close()
        b.close()


def test_parsed_buffer_is_offered_whole_from_its_start(pair: Pair) -> None:
    t, peer = pair
    buf = t.buf
    t.start = t.end = 100
    view = t.room(2)
    assert (t.start, t.end) == (0, 0)
    assert t.buf is buf and len(view) == LOGIN_BUFFER
    peer.sendall(b"\x01\x02\x03")
    t.fill(2)
    assert bytes(t.buf[t.start : t.end]) == b"\x01\x02\x03"


def test_logged_in_buffer_grows_to_its_working_size(pair: Pair) -> None:
    t, _ = pair
    t.logged_in()
    view = t.room()
    assert len(t.buf) == INITIAL_BUFFER and len(view) == INITIAL_BUFFER
    assert t.room() is t.view  # (now the fast path: nothing pending, room enough)


def test_big_need_and_big_buffer_take_the_general_path(pair: Pair) -> None:
    t, _ = pair
    t.logged_in()
    t.room()
    t.room(INITIAL_BUFFER * 5)  # a large message announced: grows (at most doubling)
    assert len(t.buf) == INITIAL_BUFFER * 2
    t._replace(INITIAL_BUFFER * 8, 0, 0)
    view = t.room(10)  # parsed, oversized: shrinks back to the working size
    assert len(t.buf) == INITIAL_BUFFER and len(view) == INITIAL_BUFFER


def test_pending_bytes_are_compacted_not_dropped(pair: Pair) -> None:
    t, _ = pair
    t.logged_in()
    t.room()
    size = len(t.buf)
    t.buf[size - 10 : size] = b"0123456789"
    t.start, t.end = size - 10, size
    view = t.room(20)
    assert bytes(t.buf[0:10]) == b"0123456789" and (t.start, t.end) == (0, 10)
    assert len(view) >= MIN_FREE


def test_a_parsed_buffer_is_filled_without_the_room_call(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fill`` takes ``room``'s fast path inline (count24: the call was ~1 % of a cold
    connect's instructions); pending bytes or an oversized need still go through ``room``."""
    t, peer = pair
    t.logged_in()
    t.room()  # (the first receive after the login grows the buffer to its working size)
    calls: list[int] = []
    room = Transport.room

    def counted(self: Transport, need: int = 0) -> memoryview:
        calls.append(need)
        return room(self, need)

    monkeypatch.setattr(Transport, "room", counted)
    t.start = t.end = 7  # everything parsed
    peer.sendall(b"\x00\x0c")
    t.fill(2)
    assert calls == [] and (t.start, t.end) == (0, 2)
    assert bytes(t.buf[0:2]) == b"\x00\x0c"
    peer.sendall(b"\x00\x0c")
    t.fill(4)  # pending bytes: compacted by room
    assert calls == [4] and bytes(t.buf[t.start : t.end]) == b"\x00\x0c\x00\x0c"
    t.start = t.end
    peer.sendall(b"xy")
    t.fill(INITIAL_BUFFER * 2)  # a need beyond the working size: room grows the buffer
    assert calls == [4, INITIAL_BUFFER * 2] and len(t.buf) >= INITIAL_BUFFER * 2
