"""PAM challenge/response login messages, both directions (sans-I/O).

The exchange, as IBM JDBC 15.0.0.1 runs it (``IfxSqli.handlePAMAuthentication``,
``readPAMChallengeMessage``, ``sendPAMResponseMessage``, ``sendACK``; docs/PROTOCOL.md §16):

* after the SQ_PROTOCOLS reply, when the server's mask has bit 44, the client sends
  ``SQ_ACK (128) SQ_EOT``;
* the server sends ``SQ_CHALLENGE (129) u16 style, u16 length, prompt (+ pad) SQ_EOT``;
  styles are PAM's: 1 prompt with echo off, 2 prompt with echo on, 3 error message, 4 text;
* for styles other than 3 and 4 the client answers ``SQ_RESPONSE (130) u16 length, answer
  (+ pad) SQ_EOT`` (at most 512 bytes); for 3 and 4 it answers nothing and reads on;
* the server ends with ``SQ_ACCEPT (127) SQ_EOT`` (logged in) or ``SQ_EXIT (56)`` (refused).
"""

from __future__ import annotations

from dataclasses import dataclass

from .codes import Msg
from .wire import ProtocolViolation, Reader, Writer

__all__ = [
    "ACK_GROUP",
    "PAM_ERROR_MSG",
    "PAM_MAX_MESSAGE",
    "PAM_PROMPT_ECHO_OFF",
    "PAM_PROMPT_ECHO_ON",
    "PAM_TEXT_INFO",
    "PamMessage",
    "needs_answer",
    "put_accept",
    "put_challenge",
    "read_server_message",
    "response_group",
]

PAM_PROMPT_ECHO_OFF = 1
PAM_PROMPT_ECHO_ON = 2
PAM_ERROR_MSG = 3
PAM_TEXT_INFO = 4
#: The longest answer JDBC sends (``PAMResponseImpl.PAM_MAX_MESSAGE_SIZE``; -79886 beyond).
PAM_MAX_MESSAGE = 512

#: ``SQ_ACK SQ_EOT``: the client is ready for challenges (JDBC ``sendACK`` then ``flip``).
ACK_GROUP = bytes(Writer().u16(Msg.ACK).u16(Msg.EOT).buf)


def needs_answer(style: int) -> bool:
    """Whether a challenge of this style is answered (JDBC: all but 3 and 4)."""
    return style not in (PAM_ERROR_MSG, PAM_TEXT_INFO)


def response_group(answer: bytes) -> bytes:
    """``SQ_RESPONSE u16 len, answer + pad, SQ_EOT``."""
    if len(answer) > PAM_MAX_MESSAGE:
        raise ValueError(f"a PAM answer may have at most {PAM_MAX_MESSAGE} bytes")
    w = Writer().u16(Msg.RESPONSE).u16(len(answer)).padded(answer)
    return bytes(w.u16(Msg.EOT).buf)


def put_challenge(w: Writer, style: int, prompt: bytes) -> None:
    """``SQ_CHALLENGE u16 style, u16 len, prompt + pad`` (the caller adds SQ_EOT)."""
    w.u16(Msg.CHALLENGE).u16(style).u16(len(prompt)).padded(prompt)


def put_accept(w: Writer) -> None:
    w.u16(Msg.ACCEPT)


@dataclass(frozen=True)
class PamMessage:
    """One server message of the exchange: ``code`` is CHALLENGE, ACCEPT or EXIT."""

    code: int
    style: int = 0
    prompt: bytes = b""


def read_server_message(r: Reader) -> PamMessage:
    """The next server message of the exchange with its SQ_EOT (none after SQ_EXIT);
    raises NeedMore until it has arrived whole, ProtocolViolation for anything else."""
    at = r.pos
    code = r.u16()
    if code == Msg.EXIT:
        return PamMessage(code)
    if code == Msg.CHALLENGE:
        style = r.u16()
        length = r.u16()
        if length > PAM_MAX_MESSAGE:
            raise ProtocolViolation(f"SQ_CHALLENGE of {length} bytes (at most 512)", at)
        msg = PamMessage(code, style, bytes(r.padded(length)))
    elif code == Msg.ACCEPT:
        msg = PamMessage(code)
    else:
        raise ProtocolViolation(f"message {code} where a PAM challenge was expected", at)
    end = r.pos
    if r.u16() != Msg.EOT:
        raise ProtocolViolation("a PAM message without its SQ_EOT", end)
    return msg

