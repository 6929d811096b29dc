"""Golden byte vectors for the login exchange and every SQLI message we build or parse.

Every expected byte string below is copied from an independent source, never produced by our
own encoder: ``jdbc-protocol.md`` (bytes the IBM JDBC driver sent or accepted, [V] items) or
``peer-informix-driver.md`` (bytes informix-driver exchanges with real Informix servers).  Both
live in ../shared/reference; the section is named beside each vector.
"""

from __future__ import annotations

import pytest

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import CLIENT_PROTOCOLS, SERVER_PROTOCOLS, Msg, capability_set
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.login import (
    ConnectRequest,
    ConnectResponse,
    build_connect_request,
    build_connect_response,
    parse_connect_request,
    parse_connect_response,
)
from ifxwire.protocol.wire import NeedMore, ProtocolViolation, Reader, Writer


def h(s: str) -> bytes:
    return bytes.fromhex("".join(s.split()))


NARROW = m.Layout(long_sql=False)
WIDE = m.Layout(long_sql=True)

# jdbc-protocol.md 1.3: the 165-byte accept packet both JDBC jars accepted from the mock.
ACCEPT_PACKET = h(
    "00a5 02 3c 0000"
    "0064 0065 0000003d 0006"
    + b"IEEEM\0".hex()
    + "006c"
    + (b"sqlexec" + b"\0" * 5).hex()
    + "002e"
    + b"IBM Informix Dynamic Server Version 14.10.FC9\0".hex()
    + "000c"
    + b"RDS#R000000\0".hex()
    + "0005"
    + b"sqli\0".hex()
    + "0000013c 00000000 00000000"
    + "0001 0000 0000"
    + (b"ol" + b"\0" * 6).hex()
    + "0000003d"
    + b"tlitcp\0\0".hex()
    + "00000001"
    # SQ_ASCINITRESP: 6 filler bytes (zeros, PROTOCOL.md §2), svcError, osError, warnings, nmsgs.
    + "0066 000000000000 0000 0000 0000 0000"
    + "007f"
)

# jdbc-protocol.md 1.2: start of the PDU JDBC 15.0.0.1 sent for alice/secret, server "mock".
REQUEST_PREFIX = h(
    "0064 0065 0000003d 0006 494545454d00 006c 73716c657865630000000000 0006 392e32383000"
    "000c 524453235230303030303000 0005 73716c6900 0000013c 00000000 00000000 0001"
    "0006 616c69636500 0007 73656372657400 6f6c000000000000 0000003d 746c697463700000"
    "00000001 0068 000b 00000003 0005 6d6f636b00 0000 0000 0000 0000 0000 006a"
)


class TestLogin:
    def test_accept_packet_matches_jdbc_validated_bytes(self) -> None:
        # The JDBC-validated bytes with the SL header's options at 0x1000, what a live 15.0
        # accept carried (lakeflow informix_api_doc.md; PROTOCOL.md §2): JDBC, nmap,
        # informix-driver, libsqli and our driver all skip the field.
        got = build_connect_response(ConnectResponse(accepted=True))
        assert got[4:6] == h("1000")
        assert got == ACCEPT_PACKET[:4] + h("1000") + ACCEPT_PACKET[6:]

    def test_only_an_accept_carries_the_live_options(self) -> None:
        rejected = build_connect_response(ConnectResponse(accepted=False, svc_error=-951))
        redirect = build_connect_response(ConnectResponse(accepted=False, redirect="a|b|1"))
        assert rejected[4:6] == redirect[4:6] == h("0000")  # no witness shows other values

    def test_our_parser_reads_an_accept_whatever_its_options(self) -> None:
        for options in ("0000", "1000", "ffff"):
            resp = parse_connect_response(ACCEPT_PACKET[:4] + h(options) + ACCEPT_PACKET[6:])
            assert resp.accepted and resp.cap1 == 316 and resp.svc_error == 0

    def test_reject_packet_is_accept_with_type_3_and_svc_error(self) -> None:
        # jdbc-protocol.md 1.3: "the same bytes with SLType 03 and svcError fc49 (-951)".
        expected = bytearray(ACCEPT_PACKET)
        expected[2] = 3
        at = ACCEPT_PACKET.index(h("0066 000000000000")) + 8
        expected[at : at + 2] = h("fc49")
        got = build_connect_response(ConnectResponse(accepted=False, svc_error=-951))
        assert got == bytes(expected)

    def test_initresp_filler_reads_as_no_error_for_every_known_parser(self) -> None:
        # JDBC and nmap skip 6 bytes after the 0066 tag and read svcError after them; libsqli
        # reads its error code 6 bytes after the tag (the filler's last two bytes) and logs in
        # to real servers, so a real accept has zeros there (PROTOCOL.md §2).
        tag = len(ACCEPT_PACKET) - 18  # 0066, 6 filler bytes, 4 × i16, 007f
        assert ACCEPT_PACKET[tag + 6 : tag + 8] == h("0000")  # libsqli
        assert ACCEPT_PACKET[tag + 8 : tag + 10] == h("0000")  # JDBC, nmap
        rejected = build_connect_response(ConnectResponse(accepted=False, svc_error=-951))
        assert rejected[tag + 8 : tag + 10] == h("fc49")
        # A real 14.10.13.10 rejecting a login has zeros there too: libsqli read svcError=0
        # in its reject and took it for a "soft reject" (its commit 2b4dbd1, PROTOCOL.md §2).
        assert rejected[tag + 6 : tag + 8] == h("0000")

    def test_parse_accept_packet(self) -> None:
        resp = parse_connect_response(ACCEPT_PACKET)
        assert resp.accepted
        assert resp.version == "IBM Informix Dynamic Server Version 14.10.FC9"
        assert resp.cap1 == 316
        assert resp.svc_error == 0

    def test_parse_reject(self) -> None:
        resp = parse_connect_response(
            build_connect_response(ConnectResponse(False, svc_error=-951))
        )
        assert not resp.accepted and resp.svc_error == -951

    def test_request_prefix_matches_jdbc_capture(self) -> None:
        pdu = build_connect_request(ConnectRequest("alice", "secret", "mock", env={"A": "b"}))
        # SL header: total length, CONREQ (1), SQLI 6.00 (60), options 0.
        assert pdu[:6] == len(pdu).to_bytes(2, "big") + h("01 3c 0000")
        assert pdu[6 : 6 + len(REQUEST_PREFIX)] == REQUEST_PREFIX
        assert pdu.endswith(h("007f"))

    def test_request_round_trip(self) -> None:
        req = ConnectRequest(
            "informix",
            None,
            "srv",
            env={"CLIENT_LOCALE": "en_US.utf8"},
            pid=7,
            hostname="h",
            cwd="/",
            app_name="app",
        )
        got = parse_connect_request(build_connect_request(req))
        assert got == req

    def test_truncated_request_is_a_violation(self) -> None:
        pdu = build_connect_request(ConnectRequest("u", "p", "s"))
        with pytest.raises(ProtocolViolation):
            parse_connect_request(pdu[:-5])


class TestCapabilities:
    def test_server_mask_is_what_a_real_14_10_sends(self) -> None:
        # peer report 2.3: first 8 bytes bdbe9ffe7fb7ffef on 12.10, 14.10 and 15; 14.10's ninth
        # byte is f8.
        assert h("bdbe9ffe7fb7ffef f8") == SERVER_PROTOCOLS

    def test_named_parameter_idescribe_has_a_flags_short(self) -> None:
        # jdbc-protocol.md 3.3: with bit 52 and nparams != 0, i16 flags follows the count.
        lay = m.Layout(named_params=True)
        w = Writer()
        m.put_idescribe(w, [ColumnDesc("p1", 2, 4)], lay)
        assert w.getvalue() == h(
            "007d 0001 0000 0002 00000000 0000 0000 0000 0000 00000000 00000004"
        )
        assert m.read_idescribe(Reader(w.getvalue(), 2), lay) == [ColumnDesc("p1", 2, 4)]

    def test_server_mask_never_enables_pam_or_private_server(self) -> None:
        bits = capability_set(SERVER_PROTOCOLS)
        assert 44 not in bits and 59 not in bits

    def test_feature_index_is_msb_first(self) -> None:
        assert capability_set(b"\x80") == {0}
        assert capability_set(b"\x00\x00\x00\x00\x00\x00\x02") == {54}

    def test_layout_requires_both_sides(self) -> None:
        # informix-driver offers 8 bytes (no byte 8), so long row ids never apply to it even
        # though real 15.0 servers answer byte 8 = 0xff (peer report 2.3).
        real_15 = h("bdbe9ffe7fb7ffefff")
        peer_offer = h("fffc7ffc3c8caa97")
        lay = m.Layout.negotiate(real_15, peer_offer)
        assert lay.long_sql and not lay.long_rowid and not lay.large_tuple
        assert m.Layout.negotiate(real_15, CLIENT_PROTOCOLS).long_rowid

    def test_protocols_message(self) -> None:
        # jdbc-protocol.md 2.1: client sends u16 126, u16 9, 9 bytes, 1 pad byte, then EOT.
        w = Writer()
        m.put_protocols(w, CLIENT_PROTOCOLS)
        m.put_eot(w)
        assert w.getvalue() == h("007e 0009 fffc7ffc3c8caa9706 00 000c")


class TestClientMessages:
    def test_prepare_narrow(self) -> None:
        # jdbc-protocol.md 6(b): 0002 0000 <CHARSTR sql> 0016 0031 000c
        w = Writer()
        m.put_prepare(w, b"select 1", 0, NARROW)
        m.put_eot(w)
        assert w.getvalue() == h("0002 0000 0008") + b"select 1" + h("0016 0031 000c")

    def test_prepare_wide_matches_informix_driver(self) -> None:
        # peer report 2.4: SELECT 1 FROM systables WHERE tabid = 1 ->
        # 00 02 00 00 00 00 00 27 <39 bytes> 00 00 16 00 31 00 0c
        sql = b"SELECT 1 FROM systables WHERE tabid = 1"
        w = Writer()
        m.put_prepare(w, sql, 0, WIDE)
        m.put_eot(w)
        assert w.getvalue() == h("0002 0000 00000027") + sql + h("00 0016 0031 000c")

    def test_nfetch(self) -> None:
        # peer report 2.4: 00 04 00 00 00 09 00 00 10 00 00 00 00 0c (ID 0, NFETCH 4096, 0, EOT)
        w = Writer()
        m.put_id(w, 0)
        m.put_nfetch(w, 4096)
        m.put_eot(w)
        assert w.getvalue() == h("0004 0000 0009 00001000 0000 000c")

    def test_curname_open_nfetch_group(self) -> None:
        # peer report 2.4 CURNAME+OPEN+NFETCH (18-char cursor name, id 0).
        name = b"_ifxc0000000000001"
        w = Writer()
        m.put_id(w, 0)
        m.put_curname(w, name)
        w.u16(Msg.OPEN)
        m.put_id(w, 0)
        m.put_nfetch(w, 4096)
        m.put_eot(w)
        expected = h("0004 0000 0003 0012") + name + h("0006 0004 0000 0009 00001000 0000 000c")
        assert w.getvalue() == expected

    def test_rollback_carries_savepoint_short(self) -> None:
        # jdbc-protocol.md 6(d) and peer report 2.4: 0014 0000 000c
        w = Writer()
        m.put_rbwork(w)
        m.put_eot(w)
        assert w.getvalue() == h("0014 0000 000c")

    def test_info_env_matches_informix_driver_replay(self) -> None:
        # peer report 2.2: the 48-byte SQ_INFO JDBC sends (DBTEMP=/tmp, SUBQCACHESZ=10).
        w = Writer()
        m.put_info_env(w, [(b"DBTEMP", b"/tmp"), (b"SUBQCACHESZ", b"10")])
        m.put_eot(w)
        assert w.getvalue() == h(
            "005100060026000c00040006444254454d5000042f746d70000b535542514341434845535a"
            "000002313000000000000c"
        )

    def test_dbopen(self) -> None:
        # jdbc-protocol.md 2.4: u16 36, CHARSTR dbname, u16 flags=0
        w = Writer()
        m.put_dbopen(w, b"testdb")
        m.put_eot(w)
        assert w.getvalue() == h("0024 0006") + b"testdb" + h("0000 000c")

    def test_command_group(self) -> None:
        # jdbc-protocol.md 3.2: COMMAND(0, sql) NDESCRIBE EXECUTE RELEASE EOT
        w = Writer()
        m.put_command(w, b"drop table t", NARROW)
        m.put_eot(w)
        assert w.getvalue() == h("0001 0000 000c") + b"drop table t" + h("0016 0007 000b 000c")


def parse_all(data: bytes, layout: m.Layout) -> list[m.ClientMsg]:
    r = Reader(data)
    out = []
    while r.remaining:
        out.append(m.read_client_message(r, layout))
    return out


class TestServerParsesClientMessages:
    def test_jdbc_prepared_insert_bind_execute(self) -> None:
        # jdbc-protocol.md 6(c): ID BIND 1 x INT 42, EXECUTE, EOT
        data = h("0004 0003 0005 0001 0002 0000 0a00 0000002a 0007 000c")
        msgs = parse_all(data, NARROW)
        assert [x.code for x in msgs] == [Msg.ID, Msg.BIND, Msg.EXECUTE, Msg.EOT]
        assert msgs[0].number == 3 and msgs[1].number == 1
        assert data[msgs[1].bind_start : msgs[1].bind_end] == h("0002 0000 0a00 0000002a")

    def test_informix_driver_bind_three_params(self) -> None:
        # peer report 2.4: (42, 'hello', None)
        data = h(
            "0004 0000 0005 0003 0002 0000 0a00 0000002a 0000 0000 0000 0005 68656c6c6f00"
            "0000 ffff 0000 0007 000c"
        )
        msgs = parse_all(data, WIDE)
        assert [x.code for x in msgs] == [Msg.ID, Msg.BIND, Msg.EXECUTE, Msg.EOT]

    def test_sfetch(self) -> None:
        # peer report 2.4: 00 04 00 00 00 17 00 06 00 00 00 03 00 00 10 00 00 0c
        msgs = parse_all(h("0004 0000 0017 0006 00000003 00001000 000c"), WIDE)
        assert msgs[1].extra == (6, 3, 4096)

    def test_ret_type_with_udt_names(self) -> None:
        # jdbc-protocol.md 4.3 captured cols=[13/20, 2/4, 43 ""/"" 2048, 45 ""/"boolean" 1, 13/20]
        data = (
            h("0064 0001 0005 000d 00000014 0002 00000004 002b 0000 0000 00000800002d 0000 0007")
            + b"boolean"
            + h("00 00000001 000d 00000014 0009 00001000 0000 000c")
        )
        msgs = parse_all(data, NARROW)
        assert msgs[0].extra == (1, 13, 2, 43, 45, 13)
        assert [x.code for x in msgs[1:]] == [Msg.NFETCH, Msg.EOT]

    def test_unknown_code_is_a_violation_naming_the_offset(self) -> None:
        with pytest.raises(ProtocolViolation, match="offset 2"):
            parse_all(h("000c 7777"), NARROW)

    def test_truncated_message_needs_more(self) -> None:
        with pytest.raises(NeedMore):
            m.read_client_message(Reader(h("0002 0000 0008 7365")), NARROW)


class TestServerMessages:
    def test_describe_select_constant(self) -> None:
        # jdbc-protocol.md 3.3 captured DESCRIBE for SELECT 1 FROM systables WHERE tabid=1.
        expected = h(
            "0008 0002 0003 00000000 0004 0001 0000000b"
            "00000000 00000000 0102 00000000 0000 0000 0000 0000 00000000 00000004"
            "28636f6e7374616e742900 00"
        )
        w = Writer()
        m.put_describe(w, 2, 3, [ColumnDesc("(constant)", 0x102, 4)], 4, NARROW)
        assert w.getvalue() == expected
        d = m.read_describe(Reader(expected, 2), NARROW)
        assert (d.stmt_type, d.stmt_id, d.tuple_size) == (2, 3, 4)
        assert d.columns == [ColumnDesc("(constant)", 0x102, 4)]

    def test_describe_insert_no_columns(self) -> None:
        # jdbc-protocol.md 6(c): 0008 0006 <id> 00000000 0000 0000 00000000
        w = Writer()
        m.put_describe(w, 6, 1, [], 0, NARROW)
        assert w.getvalue() == h("0008 0006 0001 00000000 0000 0000 00000000")

    def test_idescribe_one_integer(self) -> None:
        # jdbc-protocol.md 3.3: 007d 0001 0002 00000000 0000 0000 0000 0000 00000000 00000004
        expected = h("007d 0001 0002 00000000 0000 0000 0000 0000 00000000 00000004")
        w = Writer()
        m.put_idescribe(w, [ColumnDesc("p1", 2, 4)], NARROW)
        assert w.getvalue() == expected
        assert m.read_idescribe(Reader(expected, 2), NARROW) == [ColumnDesc("p1", 2, 4)]

    def test_tuple_and_done(self) -> None:
        # jdbc-protocol.md 6(b): TUPLE 000e 0000 00000004 00000001, DONE rows=1
        w = Writer()
        m.put_tuple(w, h("00000001"))
        m.put_done(w, 1, NARROW)
        assert w.getvalue() == h("000e 0000 00000004 00000001 000f 0000 00000001 00000000 00000000")

    def test_done_after_dbopen_carries_flags(self) -> None:
        # jdbc-protocol.md 2.4: 000f 0001 00000000 00000000 00000000 000c
        w = Writer()
        m.put_done(w, 0, NARROW, warnings=1)
        assert w.getvalue() == h("000f 0001 00000000 00000000 00000000")

    def test_done_long_rowid(self) -> None:
        data = h("0000 0000000000000005 0000000000000000 00000007")
        d = m.read_done(Reader(data), m.Layout(long_rowid=True))
        assert (d.rows, d.serial) == (5, 7)

    def test_err_narrow(self) -> None:
        # jdbc-protocol.md 3.3 captured: 000d ff37 0000 0008 0000 (-201, offset 8, empty text)
        w = Writer()
        m.put_err(w, -201, 0, 8, b"", NARROW)
        assert w.getvalue() == h("000d ff37 0000 0008 0000")
        e = m.read_err(Reader(w.getvalue(), 2), NARROW)
        assert (e.sqlcode, e.isamcode, e.offset, e.text) == (-201, 0, 8, b"")

    def test_err_wide_is_what_informix_driver_reads(self) -> None:
        # peer report 2.5: [short sqlcode][short isam][int offset][short nearLen][near][pad]
        w = Writer()
        m.put_err(w, -206, -111, 14, b"nosuch", WIDE)
        assert w.getvalue() == h("000d ff32 ff91 0000000e 0006") + b"nosuch"
        e = m.read_err(Reader(w.getvalue(), 2), WIDE)
        assert (e.sqlcode, e.isamcode, e.offset, e.text) == (-206, -111, 14, b"nosuch")

    def test_insertdone(self) -> None:
        # jdbc-protocol.md 6: 005e <INT8 N> <i64 N>; INT8 layout per 4.2.
        w = Writer()
        m.put_insertdone(w, 42, 42, NARROW)
        assert w.getvalue() == h("005e 0001 0000002a 00000000 000000000000002a")
        got = m.read_insertdone(Reader(w.getvalue(), 2), NARROW)
        assert (got.serial8, got.bigserial) == (42, 42)

    def test_insertdone_negative_int8(self) -> None:
        # jdbc-protocol.md 4.2: -1234567890123 -> FFFF 71FB04CB 0000011F
        data = h("FFFF 71FB04CB 0000011F 0000000000000000")
        assert m.read_insertdone(Reader(data), NARROW).serial8 == -1234567890123


def test_cost_body_read_as_one_pair() -> None:
    """SQ_COST's body (two i32: estimated rows, cost) read by ``Reader.i32_pair``: the values
    of the two ``i32`` reads it replaces, signs kept, and NeedMore on a cut body with the
    position untouched (the reply is parsed again when more bytes arrive)."""
    body = bytes.fromhex("00000001" "fffffffe")
    r = Reader(body)
    assert r.i32_pair() == (1, -2)
    assert r.pos == 8
    cut = Reader(body[:7])
    with pytest.raises(NeedMore):
        cut.i32_pair()
    assert cut.pos == 0


def test_reply_parser_keeps_the_cost_of_done_cost_eot() -> None:
    from ifxwire.client.replies import Reply

    data = bytes.fromhex("000f" "0000" "00000001" "00000000" "00000000" "0037" "00000003"
                         "00000009" "000c")
    reply = Reply(m.Layout(), "iso-8859-1")
    assert reply.feed(data, 0, len(data)) == len(data)
    assert reply.complete
    assert reply.cost == (3, 9)
    assert reply.done is not None and reply.done.rows == 1


class TestLakeflowFacts:
    """Facts of lakeflow's informix_api_doc.md (JDBC 15.0.1.3 bytecode and live 15.0 traces;
    docs/PROTOCOL.md §3, §18) that our code depends on."""

    def test_the_protocols_group_is_the_16_bytes_jdbc_writes_at_once(self) -> None:
        # A live trace saw JDBC's offer as one 16-byte write: 126, length 9, the 9 bytes and a
        # pad byte, then EOT (sendProtocols, then receiveMessage's flip()).
        from ifxwire.client.handshake import session_groups

        group = session_groups(None, "iso-8859-1")[0]
        assert group == h("007e 0009 fffc7ffc3c8caa9706 00 000c")

    @pytest.mark.parametrize("index, bit, feature", [
        (6, 0x02, 54), (6, 0x08, 52),
        (7, 0x80, 56), (7, 0x10, 59), (7, 0x04, 61), (7, 0x02, 62), (7, 0x01, 63),
        (8, 0x04, 69), (8, 0x02, 70),
    ])
    def test_jdbc_s_byte_and_bit_map_is_our_feature_index(
            self, index: int, bit: int, feature: int) -> None:
        # JDBC's handlers map these response bytes/bits to those features; ours computes
        # 8*byte + (7 - bit position): the two agree for every bit JDBC reads.
        mask = bytearray(9)
        mask[index] = bit
        assert capability_set(bytes(mask)) == {feature}
        assert (feature in capability_set(SERVER_PROTOCOLS)) == (feature not in (59, 69, 70))
