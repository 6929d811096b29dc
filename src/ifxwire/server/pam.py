"""PAM challenge/response login: ``Server(pam=...)`` / ``ifxwire-server --pam``.

An Informix listener configured for PAM (sqlhosts option ``s=4``) authenticates through a
PAM conversation instead of the login packet's password. The messages are in
``protocol/pam.py`` (docs/PROTOCOL.md §16); this module runs the server's side:

* the SQ_PROTOCOLS reply carries bit 44 (PAM), which clients that can do PAM take as "PAM
  follows" (JDBC ``isPAMAuthentication``);
* the client sends ``SQ_ACK SQ_EOT``; the server then walks a **conversation**: a generator
  that yields ``(style, prompt)`` pairs, receives the client's answer for the prompt styles
  (None for the error/information styles, which clients do not answer) and returns True to
  accept the login or False to refuse it (SQ_EXIT; the session ends);
* the login packet's password is not checked (PAM decides); a client that does not start
  the exchange (it sends anything but ``SQ_ACK SQ_EOT`` after the PROTOCOLS reply) has its
  session closed with a log line. Clients that can do PAM say ``CLNT_PAM_CAPABLE=1`` in their
  login environment (JDBC always does); the server does not require it [I: what a real PAM
  listener answers a client without it is not known to us].

``Server(pam=True)`` asks "Password: " (echo off) and checks the answer against the server's
users; ``Server(pam=callable)`` takes ``callable(user)`` returning a conversation, for
multi-step dialogues (a password, then a one-time token, ...).
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING

from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.pam import (
    PAM_ERROR_MSG,
    PAM_PROMPT_ECHO_OFF,
    needs_answer,
    put_accept,
    put_challenge,
)
from ..protocol.wire import ProtocolViolation, Writer

if TYPE_CHECKING:
    from .session import Session

log = logging.getLogger("ifxwire.server")

#: Yields (style, prompt), receives the answer (None for styles 3 and 4), returns accepted.
Conversation = Generator[tuple[int, str], "str | None", bool]
ConversationFactory = Callable[[str], Conversation]
#: SQ_PROTOCOLS bit 44: PAM (byte 5, 0x08).
PAM_BYTE, PAM_BIT = 5, 0x08


def password_conversation(users: Mapping[str, str]) -> ConversationFactory:
    """The default conversation: "Password: " (echo off), checked against ``users``."""

    def converse(user: str) -> Conversation:
        answer = yield PAM_PROMPT_ECHO_OFF, "Password: "
        expected = users.get(user)
        ok = expected is not None and answer is not None and hmac.compare_digest(
            answer.encode(), expected.encode())
        if not ok:
            yield PAM_ERROR_MSG, "Authentication failure"
        return ok

    return converse


def pam_conversation(pam: object, users: Mapping[str, str]) -> ConversationFactory | None:
    """The server's ``pam`` option: None/False (off), True (password_conversation), or a
    callable returning a conversation for a user name."""
    if pam is None or pam is False:
        return None
    if pam is True:
        return password_conversation(users)
    if callable(pam):
        return pam
    raise TypeError(f"pam must be a bool or a callable, not {type(pam).__name__}")


def with_pam_bit(mask: bytes) -> bytes:
    """The server's SQ_PROTOCOLS mask with bit 44 set."""
    padded = bytearray(mask.ljust(PAM_BYTE + 1, b"\0"))
    padded[PAM_BYTE] |= PAM_BIT
    return bytes(padded)


def pam_login(session: Session, user: str, converse: ConversationFactory) -> bool:
    """Run ``PROTOCOLS EOT`` (answered with bit 44), ``ACK EOT`` and the conversation on a
    session that has just been accepted; False when the conversation refuses the login
    (SQ_EXIT has then been sent). Bounded by the session's login timeout."""
    first = _group(session, Msg.PROTOCOLS)
    out = Writer()
    session.layout = m.Layout.negotiate(session.server.protocols, first.data)
    session.blobs.width = m.blob_descriptor_size(session.layout)
    m.put_protocols(out, with_pam_bit(session.server.protocols))
    session._send(out.u16(Msg.EOT).getvalue())
    _group(session, Msg.ACK)
    talk = converse(user)
    answer: str | None = None
    try:
        style, prompt = next(talk)
        while True:
            out = Writer()
            put_challenge(out, style, prompt.encode(session.encoding, errors="replace"))
            session._send(out.u16(Msg.EOT).getvalue())
            answer = None
            if needs_answer(style):
                reply = _group(session, Msg.RESPONSE)
                answer = bytes(reply.data).decode(session.encoding, errors="replace")
            style, prompt = talk.send(answer)
    except StopIteration as done:
        accepted = bool(done.value)
    if not accepted:
        session._send(Writer().u16(Msg.EXIT).getvalue())
        log.info("session %s: PAM login of %r refused", session.peer, user)
        return False
    out = Writer()
    put_accept(out)
    session._send(out.u16(Msg.EOT).getvalue())
    return True


def _group(session: Session, code: int) -> m.ClientMsg:
    """The next request group, which must be ``<code> EOT``."""
    msg = session._next_message()
    session.start = session._msg_end
    if msg.code != code:
        raise ProtocolViolation(
            f"message {msg.code} where the PAM login expects {Msg(code).name}", msg.offset)
    eot = session._next_message()
    session.start = session._msg_end
    if eot.code != Msg.EOT:
        raise ProtocolViolation("a PAM message without its SQ_EOT", eot.offset)
    session.server.trace_in(session, "SQ_" + Msg(code).name, "")
    return msg
