"""The connect loop's decisions, shared by ``Connection`` (blocking) and ``aio.connect``.

An ``Attempts`` walks the addresses of a connect (a sqlhosts group's members, a secondary
server) and says after each failure whether to go on: a redirect (with redirects left) sends
the login to its target, a failure that makes the next address worth trying (``unreachable``:
not reached, no answer in time, dropped) moves on, anything else (a refused login) is final.
The loop itself is ``connect_calls``, run blocking by ``Connection`` and awaited by
``aio.connect``: each driver only opens, logs in and closes at one address (docs/DRIVER.md
§16); the rules and the loop are written once here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from .dsn import Address, ConnectParams, member_params, unreachable
from .handshake import Redirected, follow_redirect
from .steps import Calls

__all__ = ["Attempts", "connect_calls"]

log = logging.getLogger("ifxwire.client")


class Attempts:
    """Iterate for ``(address, params to log in there with)``; after a failure at one, call
    ``failed``; when the iteration ends, raise ``error()``."""

    __slots__ = ("_last", "_todo")

    def __init__(self, params: ConnectParams) -> None:
        self._todo = member_params(params)
        self._last: BaseException | None = None

    def __iter__(self) -> Iterator[tuple[Address, ConnectParams]]:
        while self._todo:
            yield self._todo.pop(0)

    def only(self) -> tuple[Address, ConnectParams] | None:
        """The one attempt, taken, when exactly one is left (the common connect: one host,
        no group), for the driver to make without the loop (``connect_calls`` then goes on
        with what ``failed`` leaves, with this object); None otherwise."""
        todo = self._todo
        return todo.pop() if len(todo) == 1 else None

    def failed(self, addr: Address, member: ConnectParams, exc: BaseException) -> bool:
        """True when the next attempt may go on after ``exc`` at ``addr``; False when the
        caller must re-raise it. A redirect with none left to follow raises itself."""
        if isinstance(exc, Redirected):
            self._todo = [follow_redirect(member, exc)]
            log.debug("login at %s:%d redirected to %s", addr.host, addr.port, exc.near)
            return True
        if not unreachable(exc):
            return False
        self._last = exc
        log.debug("connect to %s:%d failed: %s", addr.host, addr.port, exc)
        return True

    def error(self) -> BaseException:
        """What to raise when every address failed: the last failure."""
        assert self._last is not None
        return self._last


def connect_calls(params: ConnectParams, attempts: Attempts | None = None) -> Calls[Any]:
    """The connect loop of both drivers (``client.steps.Calls``): ``("_connect_at", address,
    member params)`` for each address in turn until one is connected and logged in (what it
    returned is the result); a redirect is followed, a failure that makes the next address
    worth trying moves on, any other is raised, and the last failure when none is left.
    ``attempts``: those left after a first one made outside the loop (``Attempts.only``)."""
    if attempts is None:
        attempts = Attempts(params)
    for addr, member in attempts:
        try:
            return (yield ("_connect_at", addr, member))
        except BaseException as exc:
            if not attempts.failed(addr, member, exc):
                raise
    raise attempts.error()
