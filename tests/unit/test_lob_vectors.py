"""Smart-LOB and fast-path golden vectors (docs/PROTOCOL.md §11, §12).

The client bytes are JDBC's own: captured from IBM JDBC 15.0.0.1 and 4.50.10 (identical) with
a TCP proxy between ``LobChecks.lob_smartblob``/``lob_streams``/``lob_client_files`` and
ifxwire-server (capabilities bits 52 and 62 in force). Layouts are confirmed in the bytecode
(``IfxSqli.getHandle``/``sendFastPath``/``sendLoData``/``executeWriteSmBlob``,
``IfxLobDescriptor.getRawLobDescriptor``). Server answers are what JDBC reads
(``receiveHandle``/``receiveFastPath``/``receiveLODATA``/``receiveSQFILE``): the bytes below
were accepted by it in those runs; the FPROUTINE name rule and the empty-read short come from
the bytecode. The routine handles and the locator bytes are our server's.
"""

from __future__ import annotations

import pytest

from ifxwire.client import fastpath as cfp
from ifxwire.client import lob as clob
from ifxwire.client.replies import Reply
from ifxwire.protocol import fastpath as fp
from ifxwire.protocol.messages import Layout
from ifxwire.protocol.wire import Reader, Writer
from ifxwire.types import smartlob as slo

JDBC = Layout(long_sql=True, named_params=True)  # what JDBC 4.50/15 negotiate with us
SIG_CREATE = b"function informix.ifx_lo_create( ifx_lo_spec,integer,blob)"


def h(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", "").replace("\n", ""))


def zeros(n: int) -> str:
    return "00" * n


#: ifx_lo_spec as JDBC's IfxLobDescriptor(Connection) builds it (596 bytes).
JDBC_SPEC = h(
    "dadafeed" + zeros(11) + "01" + zeros(4) + "ffff" + zeros(5) + "01" + zeros(4) + "ffff"
    + zeros(2) + "ffffffff" + zeros(532) + "ffffffffffffffff" + zeros(16))
#: A locator as our server made it (JDBC sent it back unchanged).
LOCATOR = h(
    "00000001 00000000 00000001 02cdd9da 84f8492c 95b716c8 f031d26b 9da597ba b1bbab0b"
    + zeros(32) + "00000000")


class _Conn:
    """What the group builders need of a connection."""

    _layout = JDBC
    encoding = "iso-8859-1"
    _blob_width = 56

    def _encode_sql(self, text: str) -> bytes:
        return text.encode(self.encoding)

    def _reply(self) -> Reply:
        return Reply(JDBC, self.encoding)


# --------------------------------------------------------------------------------------------
# Fast path
# --------------------------------------------------------------------------------------------


def test_getroutine_is_jdbc_get_handle() -> None:
    jdbc = h("0065 00 0000003a") + SIG_CREATE + h("0000 000c")
    group, _ = cfp.getroutine_group(_Conn(), SIG_CREATE.decode())  # type: ignore[arg-type]
    assert group == jdbc
    lookup = fp.read_getroutine(Reader(jdbc, 2, len(jdbc)), JDBC)
    assert lookup.signature == SIG_CREATE and not lookup.by_id and not lookup.want_fparam
    # Without bit 52 there is no by-id byte; without bit 62 the length is a u16.
    w = Writer()
    fp.put_getroutine(w, b"f(integer)", Layout())
    assert bytes(w.buf) == h("0065 000a") + b"f(integer)" + h("0000")


def test_routine_handle_reply() -> None:
    w = Writer()
    fp.put_routine_handle(w, b"capdb", 12, JDBC)
    assert bytes(w.buf) == h("0065 0005 6361706462 00 0000000c")
    r = Reader(bytes(w.buf), 2, len(w.buf))
    assert fp.read_routine_handle(r, JDBC) == (b"capdb", 12)


def test_cfpdescribe_is_jdbc_send_cfp_describe() -> None:
    """SQ_CFPDESCRIBE (131) as IfxSqli.sendCFPDescribe writes it (bytecode): with bit 52 and a
    signature ``db^handle`` (what a -9752 error text gave), u8 1, the database, the handle;
    by name, u8 0 (bit 52 only), u16 0 procedure / 1 function, the name, the argument count."""
    by_id = h("0083 01 0005 6f75746462 00 00000007")
    d = fp.read_cfpdescribe(Reader(by_id, 2, len(by_id)), JDBC)
    assert (d.by_id, d.name, d.number) == (True, b"outdb", 7)
    by_name = h("0083 00 0001 0008") + b"op_split" + h("00000003")
    d = fp.read_cfpdescribe(Reader(by_name, 2, len(by_name)), JDBC)
    assert (d.by_id, d.name, d.number, d.procedure) == (False, b"op_split", 3, False)
    plain = h("0083 0000 0003") + b"ppp" + h("00 00000001")
    d = fp.read_cfpdescribe(Reader(plain, 2, len(plain)), Layout())
    assert (d.by_id, d.name, d.number, d.procedure) == (False, b"ppp", 1, True)


def test_ifpdescribe_is_what_recv_idescribe_true_reads() -> None:
    """SQ_IFPDESCRIBE, the answer to SQ_CFPDESCRIBE (IfxSqli.recvIDescribe(true), bytecode):
    with bit 52 a flags short (1: names follow), per argument u8 flags and its name, the
    IDESCRIBE fields, then the mode short (0 IN, 1 OUT, 2 INOUT: setMode)."""
    from ifxwire.protocol.columns import ColumnDesc

    args = [("a", ColumnDesc("a", 2, 4), 0), ("trail", ColumnDesc("trail", 13, 40), 2)]
    w = Writer()
    fp.put_ifpdescribe(w, args, JDBC, "iso-8859-1")
    assert bytes(w.buf) == h(
        "0084 0002 0001"
        "00 0001 61 00  0002 00000000 0000 0000 0000 0000 00000000 00000004 0000"
        "00 0005 747261696c 00  000d 00000000 0000 0000 0000 0000 00000000 00000028 0002")
    r = Reader(bytes(w.buf), 2, len(w.buf))
    assert fp.read_ifpdescribe(r, JDBC) == [("a", 2, 0), ("trail", 13, 2)] and not r.remaining
    w = Writer()
    fp.put_ifpdescribe(w, args[:1], Layout(), "iso-8859-1")  # no bit 52: no flags, no names
    assert bytes(w.buf) == h("0084 0001 0002 00000000 0000 0000 0000 0000 00000000 00000004 0000")


def test_fparam_is_what_receive_fparam_reads() -> None:
    """SQ_FPARAM (IfxSqli.receiveFParam, readFPTypeInfo, bytecode): INT8 funcState, i32
    request, u8 isDone, i32 id (first FPARAM), INT8 row, i32 colid, i16 nrets and their
    FPTypeInfos (u8 null, i16 type, i32 xid, i32 length, i16 precision, i16 scale), i16 nargs,
    i16 flags (bit 52), each argument's FPTypeInfo and mode (1: its value comes back). INT8
    zero is JDBC's IfxToJavaLongInt layout, i16 sign 1 and two zero u32s."""
    from ifxwire.protocol.columns import ColumnDesc

    integer, dec = ColumnDesc("", 2, 4), ColumnDesc("", 5, (8 << 8) | 2)
    w = Writer()
    fp.put_fparam(w, [integer], [(integer, 0), (dec, 1)], JDBC, 7)
    int8_zero = "0001 00000000 00000000"
    assert bytes(w.buf) == h(
        f"0068 {int8_zero} 00000000 01 00000007 {int8_zero} 00000000"
        "0001  00 0002 00000000 00000004 0000 0000"
        "0002 0000  00 0002 00000000 00000004 0000 0000 0000"
        "00 0005 00000000 00000802 0008 0002 0001")
    r = Reader(bytes(w.buf), 2, len(w.buf))
    assert fp.read_fparam_reply(r, JDBC) == (1, [0, 1]) and not r.remaining
    client = h(f"0068 {int8_zero} 00000000 01 000c")
    r = Reader(client, 2, len(client))
    fp.read_fparam(r)
    assert r.u16() == 12


def test_exfproutine_with_udt_int_and_locator_arguments() -> None:
    """ifx_lo_create(spec, 8, blob): JDBC's exact call, database named the first time and
    empty once the handle is cached."""
    bind = (h("0005 0003 002c 0000 000b") + b"ifx_lo_spec" + h("00 0000 0000 00000254") + JDBC_SPEC
            + h("0002 0000 0a00 00000008")
            + h("002c 0000 0004") + b"blob" + h("0000 0000 00000048") + bytes(72))
    first = h("0066 0005 6361706462 00 00000000 0003 0000") + bind + h("000c")
    cached = h("0066 0000 00000000 0003 0000") + bind + h("000c")
    conn = _Conn()
    args = (clob._Udt("ifx_lo_spec", JDBC_SPEC), slo.LO_RDWR, clob._ZERO_LOCATOR)
    assert cfp.exfp_group(conn, b"capdb", 0, args)[0] == first  # type: ignore[arg-type]
    assert cfp.exfp_group(conn, b"", 0, args)[0] == cached  # type: ignore[arg-type]
    call = fp.read_exfproutine(Reader(first, 2, len(first)), JDBC)
    assert (call.database, call.handle, call.nparams, call.want_fparam) == (b"capdb", 0, 3, False)


def test_default_spec_is_jdbcs() -> None:
    assert slo.build_lo_spec() == JDBC_SPEC
    assert clob._DEFAULT_SPEC.data == JDBC_SPEC
    assert slo.lo_spec_sbspace(JDBC_SPEC) == ""


def test_jdbc_seek_arguments_decode() -> None:
    """ifx_lo_seek(fd 1, 100, whence 0, 0): JDBC types the offsets INT8 (17, prec 0x1300,
    ``i16 sign, u32 low, u32 high``); the server's bind decoder reads them."""
    from ifxwire.types.bind import decode_bind_values

    items = h("0002 0000 0a00 00000001 0011 0000 1300 0001 00000064 00000000"
              "0002 0000 0a00 00000000 0011 0000 1300 0001 00000000 00000000")
    values, end = decode_bind_values(items, 0, 4, "iso-8859-1")
    assert [v.value if hasattr(v, "value") else v for v in values] == [1, 100, 0, 0]
    assert end == len(items)


def test_open_with_a_locator_argument() -> None:
    """ifx_lo_open(blob, 8): the locator goes as a SENDRECV item named ``blob``."""
    group = cfp.exfp_group(_Conn(), b"capdb", 6, [clob._Udt("blob", LOCATOR), 8])[0]  # type: ignore[arg-type]
    assert group == h("0066 0005 6361706462 00 00000006 0002 0000 0005 0002 002c 0000 0004") + (
        b"blob" + h("0000 0000 00000048") + LOCATOR + h("0002 0000 0a00 00000008 000c"))


def test_fproutine_reply_names_only_udts() -> None:
    """``receiveFastPath``: a value's owner and type name are read only for extended types
    (base >= 18 and not 52/53); ifx_lo_create answers a blob locator and an integer."""
    reply = h("0067 0002 0029 0008") + b"informix" + h("0004") + b"blob" + h(
        "0000 0000 00000048") + LOCATOR + h("0002 0000 0a00 00000001 000c")
    r = Reply(JDBC, "iso-8859-1")
    assert r.feed(reply, 0, len(reply)) == len(reply) and r.complete
    assert r.fp_values == [LOCATOR, 1]
    # The server's encoder gives the bytes JDBC accepted: the built-in INTEGER without names.
    from ifxwire.protocol.columns import ColumnDesc
    from ifxwire.types.fpvalues import encode_typed_item

    blob = ColumnDesc("", 41, 72, xid=10, owner="informix", type_name="blob")
    w = Writer()
    fp.put_fproutine(w, [encode_typed_item(LOCATOR, blob, "iso-8859-1"),
                         encode_typed_item(1, ColumnDesc("", 2, 4), "iso-8859-1")])
    assert bytes(w.buf) + h("000c") == reply


# --------------------------------------------------------------------------------------------
# SQ_LODATA
# --------------------------------------------------------------------------------------------


def test_lodata_write_header_and_chunks() -> None:
    """``sendLoData`` + ``executeWriteSmBlob``: op 2 (write), fd, the byte count, the
    buffer size 32000, then ``u16 n, data`` chunks of 32000 and EOT."""
    data = bytes(range(256)) * 200  # 51200 bytes: 32000 + 19200
    group, _ = cfp.lodata_write_group(_Conn(), 1, data)  # type: ignore[arg-type]
    assert group[:14] == h("0061 0002 0001 0000c800 7d00 7d00")
    assert group[14 : 14 + 32000] == data[:32000]
    assert group[14 + 32000 : 16 + 32000] == h("4b00")
    assert group[-2:] == h("000c") and len(group) == 14 + 32000 + 2 + 19200 + 2
    # What JDBC sent for a 10 MB write's first message (fd 1, 50000 bytes):
    w = Writer()
    fp.put_lodata(w, 2, 1, 50000, 32000)
    assert bytes(w.buf) == h("0061 0002 0001 0000c350 7d00")


def test_lodata_read_request_and_reply() -> None:
    group, reply = cfp.lodata_read_group(_Conn(), 1, 10, bytearray())  # type: ignore[arg-type]
    assert group == h("0061 0000 0001 0000000a 7d00 000c")  # JDBC's read of 10 bytes
    answer = h("0061 0000 0000000a 000a 234261809fbeddfc1b3a 000c")  # accepted by JDBC
    assert reply.feed(answer, 0, len(answer)) == len(answer)
    assert reply.lodata_size == 10 and bytes(reply.lodata or b"") == h("234261809fbeddfc1b3a")
    # Nothing to read: JDBC's receiveLODATA reads one more short after the size.
    empty = Reply(JDBC, "iso-8859-1")
    empty.lodata = bytearray()
    tail = h("0061 0000 00000000 0000 000c")
    assert empty.feed(tail, 0, len(tail)) == len(tail) and empty.lodata_size == 0


def test_lodata_write_reply() -> None:
    r = Reply(JDBC, "iso-8859-1")
    answer = h("0061 0002 0000c350 000c")
    assert r.feed(answer, 0, len(answer)) == len(answer) and r.lodata_size == 50000


# --------------------------------------------------------------------------------------------
# SQ_FILE (LOTOFILE / FILETOBLOB with 'client')
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wire", "op"),
    [
        # open: name, mode 0o644, flags 0x40 (read), offset 0 — as our server asks JDBC
        (h("0062 0000 002b") + b"/tmp/ifxcheck-lob3591107471013578031/in.bin"
         + h("00 000001a4 00000040 00000000 000c"), fp.FILE_OPEN),
        (h("0062 0002 7d00 ffffffff 000c"), fp.FILE_READ),  # read all, 32000 a chunk
        (h("0062 0001 000c"), fp.FILE_CLOSE),
    ],
)
def test_sq_file_requests_jdbc_answered(wire: bytes, op: int) -> None:
    r = Reply(JDBC, "iso-8859-1")
    r.feed(wire, 0, len(wire))
    assert r.file_request is not None and r.file_request.op == op


def test_lodata_read_announcing_more_than_asked_is_refused() -> None:
    """A server (or a flipped bit) announcing more data than the read asked for is a protocol
    violation before any of it is awaited."""
    from ifxwire.protocol.wire import ProtocolViolation

    _, reply = cfp.lodata_read_group(_Conn(), 1, 10, bytearray())  # type: ignore[arg-type]
    answer = h("0061 0000 00100000")
    with pytest.raises(ProtocolViolation):
        reply.feed(answer, 0, len(answer))


def test_sq_file_write_request_is_taken_in_batches() -> None:
    """The data of an SQ_FILE write (``0062 0003 (006b len data)… 000c``, as our server sends
    LOTOFILE's object, chunks of 32000 like JDBC's) comes to the caller a batch at a time."""
    from ifxwire.client import replies

    chunk = bytes(range(250)) * 128  # 32000 bytes
    n = replies.FILE_WRITE_BATCH // len(chunk) + 2
    wire = h("0062 0003") + (h("006b 7d00") + chunk) * n + h("000c 000c")
    r = Reply(JDBC, "iso-8859-1")
    pos, got, rounds = 0, 0, 0
    while not r.complete:
        pos = r.feed(wire, pos, len(wire))
        req = r.file_request
        if req is not None:
            got += sum(map(len, req.data or []))
            (req.data or []).clear()
            if req.finished:
                r.file_request = None
        rounds += 1
        assert rounds < 10
    assert got == n * len(chunk) and rounds >= 3  # header, at least two batches, the rest
