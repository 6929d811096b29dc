"""Golden vectors of callproc with OUT/INOUT parameters (docs/PROTOCOL.md §10).

The client bytes are IBM JDBC's own: ``IfxCheck.spl_out_parameters`` (``{call spl_op(?, ?,
?)}`` with ``registerOutParameter``) captured with a TCP proxy in front of ifxwire-server, in
database ``capdb``; JDBC 15.0.0.1 and 4.50.10 sent identical bytes (4.50.10 sends the lone
EOT after SQ_CFPDESCRIBE in a TCP segment of its own). Layouts are those of
``IfxSqli.sendCFPDescribe``/``getHandle``/``sendFastPath``/``sendFParam`` (bytecode). The
server answers are our server's bytes that JDBC read and accepted in the same run
(``receiveIFPDescribe``/``receiveHandle``/``receiveFParam``/``receiveFastPath``).
"""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire
from ifxwire.client import routines
from ifxwire.client.replies import Reply
from ifxwire.protocol.messages import Layout

JDBC = Layout(long_sql=True, named_params=True)


def h(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


# spl_op(a INTEGER, OUT twice INTEGER, INOUT trail VARCHAR(40)) RETURNING INTEGER
PREPARE = h("0002 0003 00000021") + b"execute procedure spl_op(?, ?, ?)" + h("00 0016 0031 000c")
ERR_9752 = h("000d d9e8 0000 00000000 0009") + b"capdb:0:1" + h("00 000c")
CFPDESCRIBE = h("0083 01 0005 6361706462 00 00000000 000c 000c")
IFPDESCRIBE = h(
    "0084 0003 0001"
    "00 0001 61 00 0002 00000000 0000 0000 0000 0000 00000000 00000004 0000"
    "00 0005 7477696365 00 0002 00000000 0000 0000 0000 0000 00000000 00000004 0001"
    "00 0005 747261696c 00 000d 00000000 0000 0000 0000 0000 00000000 00000028 0002"
    "000c")
GETROUTINE = h("0065 01 00000005 6361706462 00 00000000 0001 000c")
INT8_ZERO = "0001 00000000 00000000"
HANDLE_FPARAM = h(
    f"0065 0005 6361706462 00 00000000  0068 {INT8_ZERO} 00000000 01 00000001 {INT8_ZERO}"
    "00000000 0001  00 0002 00000000 00000004 0000 0000"
    "0003 0000"
    "00 0002 00000000 00000004 0000 0000 0000"
    "00 0002 00000000 00000004 0000 0000 0001"
    "00 000d 00000000 00000028 0000 0000 0001"
    "000c")


def exfproutine(a: int) -> bytes:
    return h(
        "0066 0005 6361706462 00 00000000 0003 0001"
        f"0005 0003  0002 0000 0a00 {a:08x}  0002 ffff 0000  0000 0000 0000 0005") + (
        b"start" + h(f"00  0068 {INT8_ZERO} 00000000 00  000c"))


FPROUTINE_5 = h("0067 0003 0002 0000 0a00 0000000a  000d 0000 0000 0007") + b"start+5" + h(
    "00 0002 0000 0a00 00000006 000c")


class _Conn:
    _layout = JDBC
    encoding = "iso-8859-1"

    def __init__(self) -> None:
        self.deferred: list[bytes] = []

    def _encode_sql(self, text: str) -> bytes:
        return text.encode(self.encoding)

    def _reply(self) -> Reply:
        return Reply(JDBC, self.encoding)

    def _defer(self, group: bytes) -> None:
        self.deferred.append(group)

    def _server_error(self, err: Any) -> Exception:
        return ifxwire.DatabaseError(str(err.sqlcode), sqlcode=err.sqlcode)


def _fed(reply: Reply, data: bytes) -> Reply:
    assert reply.feed(data, 0, len(data)) == len(data) and reply.complete
    return reply


def _described() -> routines.OutRoutine:
    conn: Any = _Conn()
    groups = routines.describe_groups(conn, b"capdb", 0)
    _fed(groups[0][1], IFPDESCRIBE)
    _fed(groups[1][1], HANDLE_FPARAM)
    return routines.described(conn, "spl_op", groups)


def test_prepare_is_jdbcs_prepare_call_and_the_9752_names_the_handle() -> None:
    conn: Any = _Conn()
    group, reply = routines.prepare_group(conn, "spl_op", 3)
    assert group == PREPARE
    _fed(reply, ERR_9752)
    assert routines.handle_from_prepare(conn, "spl_op", reply) == (b"capdb", 0)


def test_describe_groups_are_jdbcs_cfpdescribe_and_getroutine_by_id() -> None:
    conn: Any = _Conn()
    groups = routines.describe_groups(conn, b"capdb", 0)
    assert [g for g, _ in groups] == [CFPDESCRIBE, GETROUTINE]
    found = _described()
    assert [(a.name, a.desc.type, a.mode) for a in found.args] == [
        ("a", 2, 0), ("twice", 2, 1), ("trail", 13, 2)]
    assert (found.database, found.handle) == (b"capdb", 0)
    assert [d.type for d in found.fparam.returns] == [2]
    assert [mode for _, mode in found.fparam.args] == [0, 1, 1]


@pytest.mark.parametrize("a", [5, 7])
def test_call_is_jdbcs_exfproutine_bind_fparam(a: int) -> None:
    """OUT ``twice`` goes as an INTEGER NULL, INOUT ``trail`` as its CHAR value, then the
    client's SQ_FPARAM without a pad (the message is odd-sized)."""
    conn: Any = _Conn()
    values = [a, ifxwire.OutParam(), ifxwire.InOutParam("start")]
    group, _ = routines.call_group(conn, _described(), values)
    assert group == exfproutine(a)


def test_fproutine_gives_out_values_then_return_values() -> None:
    conn: Any = _Conn()
    found = _described()
    values = [5, ifxwire.OutParam(), ifxwire.InOutParam("start")]
    reply = _fed(Reply(JDBC, "iso-8859-1"), FPROUTINE_5)
    assert routines.outputs(conn, found, values, reply) == ([5, 10, "start+5"], [6])


def test_wrong_marks_name_the_parameter() -> None:
    conn: Any = _Conn()
    found = _described()
    with pytest.raises(ifxwire.ProgrammingError, match=r"parameter 2 \(twice\) of spl_op is an "
                       "OUT parameter"):
        routines.call_group(conn, found, [5, 6, "x"])
    with pytest.raises(ifxwire.ProgrammingError, match=r"parameter 1 \(a\) of spl_op is an IN"):
        routines.call_group(conn, found, [ifxwire.InOutParam(1), ifxwire.OutParam(), "x"])
    with pytest.raises(ifxwire.ProgrammingError, match="takes 3 arguments, 2 given"):
        routines.call_group(conn, found, [5, ifxwire.OutParam()])
    # A plain value for an INOUT parameter is its input; its new value still comes back.
    group, _ = routines.call_group(conn, found, [5, ifxwire.OutParam(), "start"])
    assert group == exfproutine(5)


# spl_op_s8(a INT8, OUT b SERIAL8) RETURNING SERIAL8 with a = 2**40 (IfxCheck.spl_out_serial8):
# the values 2**40 + 1 (OUT) and 2**40 + 2 (returned), as JDBC read them once the names were
# there. ``receiveFastPath`` reads an owner and a type name for (type & 0xFF) >= 18 but 52/53
# (bytecode: ``bipush 18; if_icmplt``); without them JDBC took 0x1300 (the precision) for a
# name length and hung (seen before the fix).
FPROUTINE_S8 = h(
    "0067 0002"
    "0012 0000 0000 0000 1300 0001 00000001 00000100"
    "0012 0000 0000 0000 1300 0001 00000002 00000100"
    "000c")


def test_a_serial8_fast_path_value_carries_names() -> None:
    from ifxwire.protocol.columns import ColumnDesc
    from ifxwire.types.fpvalues import encode_typed_item

    serial8 = ColumnDesc("", 18, 8)
    item = encode_typed_item(2**40 + 1, serial8, "iso-8859-1")
    assert item == FPROUTINE_S8[4:4 + len(item)]
    assert encode_typed_item(None, serial8, "iso-8859-1") == h("0012 0000 0000 ffff 0000")
    # INT8 (17) and BIGINT (52) stay without names, as before.
    assert encode_typed_item(5, ColumnDesc("", 17, 8), "iso-8859-1")[:6] == h("0011 0000 1300")
    reply = _fed(Reply(JDBC, "iso-8859-1"), FPROUTINE_S8)
    assert reply.fp_values == [2**40 + 1, 2**40 + 2]
    null = _fed(Reply(JDBC, "iso-8859-1"), h("0067 0001 0012 0000 0000 ffff 0000 000c"))
    assert null.fp_values == [None]


def test_an_out_serial8_goes_as_jdbcs_typed_null() -> None:
    """JDBC bound the OUT SERIAL8 as ``0012 ffff 0000``: the type SQ_FPARAM declared (not the
    registered java.sql.Types.BIGINT), and SQ_BIND's rule: no names at 18."""
    from ifxwire.protocol.columns import ColumnDesc

    assert routines._typed_null(ColumnDesc("b", 18, 8), "iso-8859-1") == h("0012 ffff 0000")
