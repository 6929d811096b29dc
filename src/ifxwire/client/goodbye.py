"""Goodbyes whose acknowledgement is read later.

``Connection.close()`` sends SQ_EXIT and returns; the server's acknowledgement (SQ_EXIT, after
it has rolled back and released the session) is read here, and the socket closed, at the
latest:

* by the next ``connect()`` in this process (sync or asyncio), before its TCP connect: a
  program that closes a connection and opens another never meets the old session's locks
  (the next session cannot start before the old one is acknowledged gone);
* when more than ``MAX_PENDING`` goodbyes wait (the oldest first), so sockets cannot pile up;
* at interpreter exit.

Each waits at most ``CLOSE_TIMEOUT`` seconds from its ``close()``, as ``close()`` itself did
when it waited: a server that never answers costs the next connect that much, once.

Why: a connect-and-close used to wait for three replies (login, session groups, goodbye);
the third wait is a whole round trip of wall time in which nothing but the server's clean-up
happens, and it now overlaps with whatever the program does next. libpq, asyncpg and MySQL's
clients do not wait for a goodbye at all; this keeps the one guarantee that matters within a
process. ``close(wait=True)`` still waits, for the program that must know the session is
gone before another *process* goes on (docs/DRIVER.md §1).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections import deque
from typing import TYPE_CHECKING

from ..errors import Error
from ..protocol.codes import Msg
from ..protocol.requests import EXIT_MESSAGE

if TYPE_CHECKING:
    from .steps import Steps
    from .transport import Transport

__all__ = ["CLOSE_TIMEOUT", "MAX_PENDING", "ack_steps", "finish", "leave", "pending", "say_exit",
           "settle"]

#: How long a goodbye may take, from close() to the acknowledgement.
CLOSE_TIMEOUT = 2.0
#: Goodbyes left unread at most; the oldest is read when one more is left.
MAX_PENDING = 64

#: (an int: compared per message read, without the enum's attribute lookup)
_XACTSTAT = int(Msg.XACTSTAT)

_pending: deque[Transport] = deque()
_lock = threading.Lock()


def say_exit(t: Transport) -> bool:
    """Send SQ_EXIT on ``t`` (the asyncio transport queues it), with one deadline for the
    whole goodbye: a server dripping bytes cannot stretch it. False (``t`` closed) when it
    could not be sent; never raises. Both drivers' ``close`` start here."""
    try:
        t.set_deadline(time.monotonic() + CLOSE_TIMEOUT, "no goodbye in time", "08006")
        t.min_free = 1  # the ack is 2 bytes: no need for the result-size buffer
        t.send(EXIT_MESSAGE)
    except Error:
        t.close()
        return False
    return True


def leave(t: Transport, wait: bool) -> None:
    """The goodbye was sent on ``t`` (``say_exit``): read its acknowledgement now (``wait``)
    or later (``settle``). Never raises: a goodbye not acknowledged only closes the socket."""
    if wait:
        finish(t)
        return
    with _lock:
        _pending.append(t)
        oldest = _pending.popleft() if len(_pending) > MAX_PENDING else None
    if oldest is not None:
        finish(oldest)


def settle() -> None:
    """Read every pending acknowledgement (each within its own deadline) and close the
    sockets; called by every connect before its TCP connect."""
    while _pending:
        with _lock:
            if not _pending:
                return
            t = _pending.popleft()
        finish(t)


def pending() -> bool:
    """Whether goodbyes wait to be read (the asyncio connect then ``settle``s in a thread:
    the reads block, its event loop must not)."""
    return bool(_pending)


def ack_steps(t: Transport) -> Steps[None]:
    """Read the acknowledgement of a goodbye from ``t``'s buffer, without I/O (steps as
    ``Connection._read_steps``: an ``int`` is "the buffer must hold this many unparsed
    bytes"). The server may send SQ_XACTSTAT first; anything else ends the wait. ``finish``
    drives it blocking, ``AsyncConnection.close`` awaited."""
    for _ in range(64):
        while t.end - t.start < 2:
            yield 2
        code = (t.buf[t.start] << 8) | t.buf[t.start + 1]
        t.start += 2
        if code != _XACTSTAT:
            return
        while t.end - t.start < 6:
            yield 6
        t.start += 6


def finish(t: Transport) -> None:
    """Read the acknowledgement of the goodbye sent on ``t`` (``ack_steps``, blocking) and
    close it."""
    try:
        # The common case without the generator (issue 24's 3 % check): one receive brings
        # the acknowledgement, with no SQ_XACTSTAT before it (ack_steps' rule: anything
        # but SQ_XACTSTAT ends the wait). What it leaves undone, the steps go on with.
        if t.end - t.start < 2:
            t.fill(2)
        buf, start = t.buf, t.start
        if t.end - start < 2 or ((buf[start] << 8) | buf[start + 1]) == _XACTSTAT:
            for need in ack_steps(t):
                t.fill(need)
        else:
            t.start = start + 2
    except Error:
        pass
    t.close()


def _forget() -> None:
    """In a forked child: the parent reads its own goodbyes; the child only drops its copies
    of the sockets (closing a copy does not end the parent's connection), and gets a lock of
    its own (another thread may have held the parent's at the fork)."""
    global _lock
    _lock = threading.Lock()
    _pending.clear()


atexit.register(settle)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)
