"""The session without a socket, for a loop that does the I/O itself (client/awaiting.py).

``SessionCore`` is the sync ``Connection``'s whole state machine (statement cache,
transactions, deferred CLOSE/RELEASE groups, database and logging mode, error mapping) over an
``OutboxTransport``: the sync receive buffer with no socket behind it. Sends queue in the
outbox; the loop writes them before it next waits, fills the buffer from its own stream, and
runs the session's operations and read steps (client/steps.py) with awaits where the sync
``Connection._run`` / ``_drive`` block. Nothing here waits: a blocking receive or exchange is
a bug, and raises.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from ..errors import InternalError
from .connection import Connection
from .dsn import ConnectParams
from .replies import Reply
from .transport import Transport

__all__ = ["OutboxTransport", "SessionCore"]


class OutboxTransport(Transport):
    """``Transport``'s buffer without its socket: sends queue in ``outbox``; ``closer``
    closes the loop's stream. ``sock``: the stream's socket, for the out-of-band cancel
    only (``Connection.cancel`` and ``interrupt``: nothing else touches it)."""

    __slots__ = ("closer", "outbox")

    def __init__(self, closer: Callable[[], object], sock: object = None) -> None:
        super().__init__(cast(socket.socket, sock))
        self.closer = closer
        self.outbox: list[bytes] = []

    def send(self, data: bytes | bytearray) -> None:
        self.outbox.append(bytes(data))

    def send_parts(self, parts: Sequence[Any]) -> None:
        self.outbox.append(b"".join(parts))

    def recv_direct(self, view: memoryview) -> int:
        raise InternalError("blocking receive attempted on a session without a socket")

    def settimeout(self, timeout: float | None) -> None:
        pass

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.closer()


class SessionCore(Connection):
    """The sync connection's state machine over an ``OutboxTransport``; it does no I/O."""

    def __init__(self, params: ConnectParams, transport: OutboxTransport) -> None:
        self._outbox_transport = transport
        #: Messages a client file streams (``_send_stream``), sent by the loop one write
        #: at a time, never queued whole.
        self.stream_out: Iterator[bytes] | None = None
        super().__init__(params)

    def _open(self, params: ConnectParams) -> Transport:
        return self._outbox_transport

    def _exchange(self, groups: Sequence[tuple[bytes, Reply]]) -> None:
        raise InternalError("blocking exchange attempted on a session without a socket")

    def _send_stream(self, messages: Iterator[bytes]) -> None:
        self.stream_out = messages

    @property
    def server_version(self) -> str:
        """No I/O here: the loop asked for the release at connect (``release_op``)."""
        return self._server_release or self.server_version_internal

    def close(self, wait: bool = False) -> None:
        """No I/O: mark closed and drop the stream (the loop says goodbye first)."""
        self.begin_close(False)
        self.end_close()
