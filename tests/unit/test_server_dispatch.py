"""Session._handle's table of handlers (issue 24; server/handlers.py): the messages it serves,
each by a method of the session."""

from __future__ import annotations

from ifxwire.protocol.codes import Msg
from ifxwire.server import handlers, session

# The messages the if/elif served before it became a table; a code missing here is answered
# with -999 "not supported", so dropping one by mistake would break clients quietly.
SERVED = {
    "ID", "PROTOCOLS", "INFO", "PREPARE", "COMMAND", "NDESCRIBE", "WANTDONE", "CIDESCRIBE",
    "CURNAME", "BIND", "BBIND", "BLOB", "FETCHBLOB", "SCROLL", "HOLD", "OPEN", "SFETCH",
    "NFETCH", "RET_TYPE", "GETROUTINE", "EXFPROUTINE", "LODATA", "FPARAM", "CFPDESCRIBE",
    "EXECUTE", "CLOSE", "RELEASE", "DBOPEN", "DBLIST", "DBCLOSE", "BEGIN", "CMMTWORK",
    "RBWORK", "BATCHSTART", "BATCHEND", "SVPT_SET", "SVPT_RELEASE", "SVPT_ROLLBACK", "VERSION",
}


def test_table_serves_the_same_messages() -> None:
    assert {Msg(code).name for code in handlers.HANDLERS} == SERVED


def test_every_handler_is_a_session_method() -> None:
    for code, handler in handlers.HANDLERS.items():
        name = handler.__name__
        assert name.startswith("_on_"), (Msg(code).name, name)
        assert getattr(session.Session, name) is handler


def test_messages_handled_elsewhere_are_not_in_the_table() -> None:
    """EOT ends a group and EXIT the session in _serve itself, before _handle."""
    assert Msg.EOT not in handlers.HANDLERS
    assert Msg.EXIT not in handlers.HANDLERS
