"""The driver's side of a PAM login: ``connect(..., pam_callback=answer)``.

When the server's SQ_PROTOCOLS reply has bit 44 (PAM), the login continues with a
challenge/response conversation before the session groups (the messages and their evidence:
protocol/pam.py, docs/PROTOCOL.md §16). Each challenge is handed to the application's
callback as a :class:`PamChallenge`; the callback returns the answer (a str), or None to end
the login. Challenges of the error and information styles are shown to the callback too, and
not answered (as JDBC does). Both drivers run ``pam_steps``; only the
waiting differs.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InterfaceError, OperationalError, protocol_error
from ..protocol.codes import Msg
from ..protocol.pam import (
    ACK_GROUP,
    PAM_ERROR_MSG,
    PAM_MAX_MESSAGE,
    PAM_PROMPT_ECHO_OFF,
    PAM_PROMPT_ECHO_ON,
    PAM_TEXT_INFO,
    PamMessage,
    needs_answer,
    read_server_message,
    response_group,
)
from ..protocol.wire import NeedMore, ProtocolViolation, Reader

if TYPE_CHECKING:
    from .transport import Transport


class _Session(Protocol):
    """What the PAM conversation needs of the connection."""

    encoding: str
    _transport: Transport

    def _send(self, data: bytes | bytearray) -> None: ...

__all__ = [
    "PAM_ERROR_MSG",
    "PAM_PROMPT_ECHO_OFF",
    "PAM_PROMPT_ECHO_ON",
    "PAM_TEXT_INFO",
    "PamCallback",
    "PamChallenge",
    "PamState",
    "no_callback",
    "pam_steps",
]


@dataclass(frozen=True)
class PamChallenge:
    """One PAM prompt or message from the server.

    ``style``: 1 ``PAM_PROMPT_ECHO_OFF`` (a secret: do not echo the answer), 2
    ``PAM_PROMPT_ECHO_ON``, 3 ``PAM_ERROR_MSG``, 4 ``PAM_TEXT_INFO`` (3 and 4 take no
    answer)."""

    style: int
    prompt: str

    @property
    def needs_answer(self) -> bool:
        return needs_answer(self.style)

    @property
    def echo(self) -> bool:
        return self.style != PAM_PROMPT_ECHO_OFF


#: The application's answerer: a challenge in, the answer (None: give up) out; for the
#: asyncio driver it may also be a coroutine function.
PamCallback = Callable[[PamChallenge], "str | Awaitable[str | None] | None"]


class PamState:
    """The conversation as the driver sees it: what arrived, what to answer."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.messages: list[str] = []  # the error/info texts, for the failure message

    def parse(self, buf: bytearray | memoryview, start: int, end: int
              ) -> tuple[PamMessage, int] | None:
        """The next server message and where it ends, or None until it has arrived."""
        r = Reader(buf, start, end)
        try:
            msg = read_server_message(r)
        except NeedMore:
            return None
        except ProtocolViolation as exc:
            raise protocol_error(f"PAM login: {exc}") from None
        return msg, r.pos

    def step(self, msg: PamMessage) -> PamChallenge | None:
        """None when the server accepted the login; the challenge to hand to the callback
        otherwise; raises when the server ended the conversation."""
        if msg.code == Msg.ACCEPT:
            return None
        if msg.code == Msg.EXIT:
            raise self.refused()
        return self.challenge(msg)

    def challenge(self, msg: PamMessage) -> PamChallenge:
        ch = PamChallenge(msg.style, msg.prompt.decode(self.encoding, errors="replace"))
        if not ch.needs_answer:
            self.messages.append(ch.prompt)
        return ch

    def answer(self, ch: PamChallenge, answer: object) -> bytes:
        """The SQ_RESPONSE group for ``answer``; raises when the callback gave up or
        answered with something else than a str."""
        if answer is None:
            raise OperationalError(f"the PAM callback gave no answer to {ch.prompt!r}; "
                                   "the login was abandoned", sqlstate="28000")
        if not isinstance(answer, str):
            raise InterfaceError(
                f"the PAM callback must return a str or None, not {type(answer).__name__}")
        data = answer.encode(self.encoding, errors="replace")
        if len(data) > PAM_MAX_MESSAGE:
            raise InterfaceError(f"a PAM answer may have at most {PAM_MAX_MESSAGE} bytes")
        return response_group(data)

    def refused(self) -> OperationalError:
        said = "; ".join(m for m in self.messages if m)
        return OperationalError(
            "PAM authentication failed" + (f": {said}" if said else "")
            + " (the server ended the session)",
            sqlstate="28000",
        )


def no_callback() -> InterfaceError:
    return InterfaceError(
        "the server asks for PAM (challenge/response) authentication; pass "
        "pam_callback=... to connect() to answer its prompts"
    )


def pam_steps(conn: _Session, callback: PamCallback) -> Generator[Any, Any, None]:
    """The PAM conversation without I/O, for the sync and the asyncio connection: sends go
    through ``conn._send``; yields an ``int`` when it needs more bytes in the receive buffer
    and the callback's answer when that is awaitable (an asyncio callback may be a
    coroutine function)."""
    state = PamState(conn.encoding)
    t = conn._transport
    conn._send(ACK_GROUP)
    while True:
        got = state.parse(t.buf, t.start, t.end)
        if got is None:
            yield 0
            continue
        msg, t.start = got
        ch = state.step(msg)
        if ch is None:
            return
        answer = callback(ch)
        if inspect.isawaitable(answer):
            answer = yield answer
        if ch.needs_answer:
            conn._send(state.answer(ch, answer))
