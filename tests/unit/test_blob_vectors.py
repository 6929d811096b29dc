"""BYTE/TEXT golden vectors: descriptors, the SQ_BBIND stream, SQ_FETCHBLOB and SQ_BLOB replies.

The expected bytes are written from the witnesses, not produced by our encoders:

* descriptors: JDBC 15.0.0.1 ``IfxBlob`` (``javap -c``): ``toIfx`` puts only the size, at 16
  (32 with long row ids); ``toIfxTuple`` marks NULL with byte 39 = 1; ``fromIfx`` reads the size
  at 16/32, first/last byte at 8/12 (length = last - first + 1) and flags (i16) at 38;
  informix-driver ``_encode_bytes`` builds the same 56 bytes for a bind (peer report 3, BYTE row);
* the stream: peer report 2.4 (BIND+EXECUTE row) and JDBC ``sendBlob``/``sendStreamBlob``:
  ``SQ_BBIND n``, per blob chunks of at most 1024 bytes ``SQ_BLOB len data [pad]`` and
  ``SQ_BLOB 0``;
* SQ_FETCHBLOB: peer report 2.4 ``[short 4][int 38][56-byte descriptor][short 12]``.
"""

from __future__ import annotations

import pytest

import ifxwire
from ifxwire.client.binds import bind_message
from ifxwire.client.replies import Reply
from ifxwire.protocol import messages as m
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.wire import Reader, Writer
from ifxwire.types import blobs as b
from ifxwire.types.rowcodec import build_row_decoder, build_row_encoder, row_width


def h(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


def test_bind_descriptor_holds_only_the_size() -> None:
    assert b.bind_descriptor(5) == bytes(16) + h("00000005") + bytes(36)
    assert b.bind_descriptor(100003, 68) == bytes(32) + h("000186a3") + bytes(32)
    with pytest.raises(ValueError):
        b.bind_descriptor(2**31)
    with pytest.raises(ValueError):
        b.bind_descriptor(1, 60)


def test_null_descriptor_is_jdbc_to_ifx_tuple() -> None:
    assert b.null_descriptor() == bytes(39) + b"\x01" + bytes(16)
    assert b.null_descriptor(68) == bytes(39) + b"\x01" + bytes(28)
    assert b.descriptor_is_null(b.null_descriptor())
    assert not b.descriptor_is_null(b.bind_descriptor(0))


def test_server_descriptor_fields_jdbc_reads() -> None:
    d = b.server_descriptor(300, 7)
    assert len(d) == 56
    assert d[8:12] == h("00000001")  # first byte
    assert d[12:16] == h("0000012c")  # last byte: JDBC length = 300 - 1 + 1
    assert d[16:20] == h("0000012c")  # size
    assert d[38:40] == h("0000")  # not NULL
    assert b.descriptor_size(d) == 300 and b.descriptor_handle(d) == 7
    long = b.server_descriptor(300, 7, 68)
    assert long[32:36] == h("0000012c") and b.descriptor_size(long) == 300
    empty = b.server_descriptor(0, 1)
    assert empty[8:16] == h("00000001 00000000")  # length 0 - 1 + 1 = 0


def test_bbind_stream_chunks_of_1024() -> None:
    w = Writer()
    m.put_bbind(w, [b"abc", b""])
    assert w.getvalue() == h("0029 0002  0027 0003 616263 00  0027 0000  0027 0000")
    w = Writer()
    m.put_bbind(w, [bytes(2050)])
    expected = (
        h("0029 0001")
        + h("0027 0400") + bytes(1024)
        + h("0027 0400") + bytes(1024)
        + h("0027 0002") + bytes(2)
        + h("0027 0000")
    )
    assert w.getvalue() == expected


def test_bind_message_puts_the_stream_after_all_parameters() -> None:
    msg = bind_message([1, b"xyz", None, ifxwire.Text("hi")], "iso-8859-1")
    assert msg == (
        h("0005 0004")
        + h("0002 0000 0a00 00000001")  # INTEGER 1
        + h("000b 0000 0000") + b.bind_descriptor(3)  # BYTE descriptor
        + h("0000 ffff 0000")  # NULL (CHAR)
        + h("000c 0000 0000") + b.bind_descriptor(2)  # TEXT descriptor
        + h("0029 0002 0027 0003 78797a 00 0027 0000 0027 0002 6869 0027 0000")
    )
    long = bind_message([b"z"], "iso-8859-1", blob_width=68)
    assert long == h("0005 0001 000b 0000 0000") + b.bind_descriptor(1, 68) + h(
        "0029 0001 0027 0001 7a 00 0027 0000"
    )


def test_fetchblob_request() -> None:
    d = b.server_descriptor(10, 3)
    w = Writer()
    m.put_fetchblob(w, 0, d)
    assert w.getvalue() == h("0004 0000 0026") + d + h("000c")


def test_server_reads_descriptors_of_the_negotiated_size() -> None:
    for layout, size in ((m.Layout(), 56), (m.Layout(long_rowid=True), 68)):
        d = b.server_descriptor(1, 2, size)
        data = h("0026") + d + h("000c")
        msg = m.read_client_message(Reader(data), layout)
        assert msg.data == d
        assert m.blob_descriptor_size(layout) == size


def test_reply_collects_blob_chunks() -> None:
    data = h("0027 0003 616263 00 0027 0002 6465 000c")
    reply = Reply(m.Layout(), "iso-8859-1", blob_limit=5)
    assert reply.feed(data, 0, len(data)) == len(data)
    assert reply.complete and reply.blob == b"abcde"
    # A zero-length chunk (informix-driver tolerates it as a terminator) adds nothing.
    data = h("0027 0001 7a 00 0027 0000 000c")
    reply = Reply(m.Layout(), "iso-8859-1", blob_limit=1)
    reply.feed(data, 0, len(data))
    assert reply.blob == b"z"


@pytest.mark.parametrize("width", [56, 68])
def test_tuple_descriptor_decodes_to_bytes_or_none(width: int) -> None:
    cols = [ColumnDesc("i", 2, 4), ColumnDesc("b", 11, width), ColumnDesc("t", 12, width)]
    assert row_width(cols) == 4 + 2 * width
    d = b.server_descriptor(9, 1, width)
    payload = build_row_encoder(cols, "iso-8859-1")([5, d, None])
    assert payload == h("00000005") + d + b.null_descriptor(width)
    decode = build_row_decoder(cols, "iso-8859-1")
    assert decode(payload, 0, len(payload)) == (5, d, None)
