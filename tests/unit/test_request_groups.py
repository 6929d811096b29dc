"""Request groups: golden bytes for each builder in protocol/requests.py, and a check that the
driver (client/, aio/) packs no message code by hand, so the groups stay in one place.

The golden bytes are written out by hand from the message layouts in docs/PROTOCOL.md (u16
message codes, big-endian fields, SQ_EOT = 0x000c), not computed with the builders' own code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ifxwire.protocol import requests as rq
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer

SRC = Path(__file__).resolve().parents[2] / "src" / "ifxwire"


@pytest.mark.parametrize(
    ("built", "golden"),
    [
        (rq.EOT, "000c"),
        (rq.EXECUTE_EOT, "0007 000c"),
        (rq.BEGIN_GROUP, "0023 000c"),
        (rq.COMMIT_GROUP, "0013 000c"),
        (rq.ROLLBACK_GROUP, "0014 0000 000c"),
        (rq.PING_GROUP, "0035 000c"),
        (rq.EXIT_MESSAGE, "0038"),
        (rq.BLOB_END, "0027 0000"),
        (rq.id_head(7), "0004 0007"),
        (rq.id_group(7, Msg.RELEASE), "0004 0007 000b 000c"),
        (rq.id_group(300, Msg.CLOSE), "0004 012c 000a 000c"),
        (rq.cidescribe_group(2), "0004 0002 007c 000c"),
        (rq.execute_group(3, b""), "0004 0003 0007 000c"),
        (rq.execute_group(3, bytes.fromhex("0005 0000")), "0004 0003 0005 0000 0007 000c"),
        (rq.nfetch_group(5, 4096), "0004 0005 0009 00001000 0000 000c"),
        (rq.sfetch_group(5, 6, 10, 4096), "0004 0005 0017 0006 0000000a 00001000 000c"),
        (rq.bind_head(2), "0005 0002"),
        (rq.bbind_head(1), "0029 0001"),
        (rq.blob_chunk_head(1024), "0027 0400"),
        (rq.file_write_answer(10), "006b 0000000a 000c"),
        (rq.file_error_answer(-2, False), "000d fffe 0000 0000 0000 000c"),
        (rq.file_error_answer(-2, True), "000d fffe 0000 00000000 0000 000c"),
        # ID CURNAME(len 3, padded) OPEN ID NFETCH: an odd cursor name gets one pad byte.
        (rq.query_open_group(1, b"abc", b"", b"", 4096),
         "0004 0001 0003 0003 616263 00 0006 0004 0001 0009 00001000 0000 000c"),
        (rq.query_open_group(1, b"ab", bytes.fromhex("0005 0000"), b"\x00\x0e", 100),
         "0004 0001 0003 0002 6162 0005 0000 0006 0004 0001 000e 0009 00000064 0000 000c"),
        # A scrollable cursor opens with OPEN EOT (rows come with SFETCH); HOLD after SCROLL.
        (rq.scroll_open_group(1, b"ab", b"", True, True, 100),
         "0004 0001 0003 0002 6162 0018 002b 0006 000c"),
        (rq.scroll_open_group(1, b"ab", b"", False, True, 100),
         "0004 0001 0003 0002 6162 002b 0006 0004 0001 0009 00000064 0000 000c"),
    ],
)
def test_group_bytes(built: bytes, golden: str) -> None:
    assert built.hex() == bytes.fromhex(golden).hex()


def test_file_read_answer_bytes() -> None:
    w = Writer()
    rq.put_file_read_head(w, 3)
    rq.put_file_read_chunk(w, b"xyz")
    w.raw(rq.EOT)
    assert bytes(w.buf).hex() == bytes.fromhex("006a 00000003 006a 0003 78797a 00 000c").hex()


# ------------------------------------------------------------------------------------------
# No hand-packed message codes outside protocol/
# ------------------------------------------------------------------------------------------

#: Calls that put a message code into request bytes when given one.
_PACKERS = {"pack", "pack_into", "u16", "i16", "u32", "i32"}


def _mentions_msg(node: ast.AST) -> bool:
    return any(
        isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
        and sub.value.id == "Msg"
        for sub in ast.walk(node)
    )


def hand_packed(tree: ast.AST) -> list[tuple[int, str]]:
    """Places in ``tree`` that build request bytes from message codes: a packer or ``bytes()``
    given a ``Msg.X``, or a bytes literal of the form ``\\x00 <code> ...`` (two bytes or more
    starting with a zero byte, as every u16 message code does)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else (
                func.id if isinstance(func, ast.Name) else "")
            if (name in _PACKERS or name == "bytes") and any(
                _mentions_msg(arg) for arg in node.args
            ):
                found.append((node.lineno, f"{name}(... Msg ...)"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, bytes)
              and len(node.value) >= 2 and node.value[0] == 0):
            found.append((node.lineno, f"bytes literal {node.value!r}"))
    return found


def test_detector_finds_the_old_forms() -> None:
    """The forms the driver used before the groups moved to protocol/ are all caught."""
    old = '''
EXECUTE_EOT = b"\\x00\\x07\\x00\\x0c"
BEGIN = bytes([0, Msg.BEGIN, 0, Msg.EOT])
head = _ID.pack(Msg.ID, sid)
w.u16(Msg.ID).i16(sid)
'''
    assert len(hand_packed(ast.parse(old))) == 4
    assert hand_packed(ast.parse('pad = b"\\x00"\nif code == Msg.EOT: pass\n')) == []


@pytest.mark.parametrize("package", ["client", "aio"])
def test_no_hand_packed_requests(package: str) -> None:
    problems = [
        f"{path.relative_to(SRC)}:{line}: {what}"
        for path in sorted((SRC / package).rglob("*.py"))
        for line, what in hand_packed(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert problems == [], "build request bytes in protocol/requests.py:\n" + "\n".join(problems)
