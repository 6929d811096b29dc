"""Golden byte vectors for the session features: scroll fetches, hold cursors, cancel.

Every expected byte string is copied from an independent witness, never produced by our own
encoder: ``peer-informix-driver.md`` (bytes informix-driver exchanges with real servers) and
the JDBC 15.0.0.1 bytecode (``javap -c -p``, method named beside each vector).
"""

from __future__ import annotations

from ifxwire.client.cancel import CANCEL_BYTE
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.requests import sfetch_group
from ifxwire.protocol.wire import Reader
from ifxwire.server.grammar import allowed


def h(s: str) -> bytes:
    return bytes.fromhex("".join(s.split()))


# peer-informix-driver.md 2.4, "SFETCH": ABSOLUTE (6) of row 3 with a 4096-byte buffer.
SFETCH_ABSOLUTE_3 = h("0004 0000 0017 0006 00000003 00001000 000c")


def test_sfetch_group_matches_informix_driver_bytes() -> None:
    assert sfetch_group(0, 6, 3, 4096) == SFETCH_ABSOLUTE_3


def test_server_reads_the_sfetch_vector() -> None:
    r = Reader(SFETCH_ABSOLUTE_3)
    first = m.read_client_message(r, m.Layout())
    second = m.read_client_message(r, m.Layout())
    assert (first.code, first.number) == (Msg.ID, 0)
    assert second.code == Msg.SFETCH and second.extra == (6, 3, 4096)
    assert m.read_client_message(r, m.Layout()).code == Msg.EOT


def test_scroll_and_hold_open_order_is_in_the_catalogue() -> None:
    # JDBC IfxSqli.sendQuery: [BIND] [AUTOFREE] SCROLL (24, for TYPE_SCROLL_INSENSITIVE)
    # HOLD (43, holdable result sets) OPEN; informix-driver: CURNAME SCROLL OPEN.
    assert (Msg.SCROLL, Msg.HOLD) == (24, 43)
    for a, b in [(Msg.CURNAME, Msg.SCROLL), (Msg.SCROLL, Msg.HOLD), (Msg.HOLD, Msg.OPEN),
                 (Msg.BIND, Msg.SCROLL), (Msg.BIND, Msg.HOLD), (Msg.CURNAME, Msg.HOLD)]:
        assert allowed(a, b), (a, b)
    assert not allowed(Msg.HOLD, Msg.SCROLL)


def test_cancel_byte_is_jdbcs() -> None:
    # com.informix.asf.Connection.sOOBSocket: bipush 66; Socket.sendUrgentData
    assert CANCEL_BYTE == bytes([66]) == b"\x42"


# PAM messages as IBM JDBC 15.0.0.1 writes and reads them (javap -c -p on IfxSqli):
# sendACK: writeSmallInt(128), flip: sendEOT -> 0080 000c.
PAM_ACK = h("0080 000c")
# readPAMChallengeMessage: readSmallInt (code 129), readSmallInt (style), readSmallInt (len),
# readPadded(len); receiveEOT. Style 1 (PAM_PROMPT_ECHO_OFF), "Password: " (10 bytes).
PAM_CHALLENGE = h("0081 0001 000a") + b"Password: " + h("000c")
# sendPAMResponseMessage: writeSmallInt(130), writeSmallInt(len), writePadded(bytes); sendEOT.
# "in4mix" (6 bytes, no pad); "abc" (3 bytes, one pad byte).
PAM_RESPONSE = h("0082 0006") + b"in4mix" + h("000c")
PAM_RESPONSE_ODD = h("0082 0003") + b"abc" + h("00 000c")
PAM_ACCEPT = h("007f 000c")


def test_pam_client_messages() -> None:
    from ifxwire.protocol.pam import ACK_GROUP, response_group

    assert ACK_GROUP == PAM_ACK
    assert response_group(b"in4mix") == PAM_RESPONSE
    assert response_group(b"abc") == PAM_RESPONSE_ODD


def test_pam_server_messages_round_trip_the_vectors() -> None:
    from ifxwire.protocol.pam import put_accept, put_challenge, read_server_message
    from ifxwire.protocol.wire import Writer

    w = Writer()
    put_challenge(w, 1, b"Password: ")
    assert bytes(w.u16(Msg.EOT).buf) == PAM_CHALLENGE
    w = Writer()
    put_accept(w)
    assert bytes(w.u16(Msg.EOT).buf) == PAM_ACCEPT
    got = read_server_message(Reader(PAM_CHALLENGE))
    assert (got.code, got.style, got.prompt) == (Msg.CHALLENGE, 1, b"Password: ")
    assert read_server_message(Reader(PAM_ACCEPT)).code == Msg.ACCEPT
    assert read_server_message(Reader(h("0038"))).code == Msg.EXIT


def test_server_reads_the_pam_response_vector() -> None:
    r = Reader(PAM_RESPONSE_ODD)
    msg = m.read_client_message(r, m.Layout())
    assert msg.code == Msg.RESPONSE and bytes(msg.data) == b"abc"
    assert m.read_client_message(r, m.Layout()).code == Msg.EOT
