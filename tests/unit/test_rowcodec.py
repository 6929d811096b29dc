"""Row codec: tuple layouts from jdbc-protocol.md 4.3 and peer-informix-driver.md 3.2."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from ifxwire.protocol.codes import TYPE_DISTINCT, TYPE_NOTNULL, XID_BOOLEAN, XID_LVARCHAR
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.errors import CodecDataError, CodecError, CodecNotSupported
from ifxwire.types.rowcodec import (
    build_row_decoder,
    build_row_encoder,
    describe_column,
    fixed_width,
    is_variable,
    max_tuple_size,
    row_width,
)

H = bytes.fromhex

# jdbc 4.3: "Example with 13 columns, 80 bytes: smallint@0, int@2, int8@6, bigint@16, float@24,
# smallfloat@32, decimal(10,2)@36 (6 bytes), money(8,2)@42 (5), date@47, datetime Y-S@51 (8),
# datetime Y-F3@59 (10), char(5)@69, interval D(3)-S@74 (6)".
FIXED13 = [
    # (name, type, enclen, start, value, wire: the scalar vectors of test_codec_vectors.py)
    ("si", 1, 2, 0, -5, "fffb"),
    ("i", 2, 4, 2, 42, "0000002a"),
    ("i8", 17, 10, 6, -1234567890123, "ffff71fb04cb0000011f"),
    ("bi", 52, 8, 16, 2**62, "4000000000000000"),
    ("f", 3, 8, 24, 1.5, "3ff8000000000000"),
    ("sf", 4, 4, 32, 0.25, "3e800000"),
    ("d", 5, 0x0A02, 36, Decimal("123456.78"), "c30c22384e00"),
    ("m", 8, 0x0802, 42, Decimal("99.50"), "c163320000"),
    ("dt", 7, 4, 47, date(2024, 2, 29), "0000b126"),
    ("ys", 10, 0x0E0A, 51, datetime(2024, 2, 29, 13, 45, 59), "c71418021d0d2d3b"),
    ("yf", 10, 0x110D, 59, datetime(2024, 2, 29, 13, 45, 59, 123000), "c71418021d0d2d3b0c1e"),
    ("c", 0, 5, 69, "abc", "6162632020"),
    ("iv", 14, 0x094A, 74, timedelta(days=12, hours=3, minutes=4, seconds=5), "c5000c030405"),
]
FIXED13_NULL = (
    "8000" "80000000" "00000000000000000000" "8000000000000000" "ffffffffffffffff" "ffffffff"
    "000000000000" "0000000000" "80000000" "0000000000000000" "00000000000000000000"
    "0020202020" "000000000000"
)  # fmt: skip


def fixed13(with_starts: bool) -> list[ColumnDesc]:
    return [
        ColumnDesc(name=n, type=t, enclen=e, start=s if with_starts else 0)
        for n, t, e, s, _v, _w in FIXED13
    ]


@pytest.mark.parametrize("with_starts", [True, False])
def test_fixed_layout_13_columns(with_starts: bool) -> None:
    cols = fixed13(with_starts)
    wire = H("".join(w for *_, w in FIXED13))
    values = tuple(v for *_, v, _w in FIXED13)
    assert len(wire) == 80 == row_width(cols)
    offsets = [0]
    for col in cols[:-1]:
        width = fixed_width(col)
        assert width is not None
        offsets.append(offsets[-1] + width)
    assert offsets == [s for _n, _t, _e, s, _v, _w in FIXED13]
    assert build_row_encoder(cols, "ascii")(values) == wire
    decode = build_row_decoder(cols, "ascii")
    assert decode(wire, 0, 80) == values
    assert decode(b"\x00" * 6 + wire + b"\xee" * 3, 6, 80) == values
    assert decode(memoryview(b"xx" + wire), 2, 80) == values
    assert decode(bytearray(wire), 0, 80) == values


def test_fixed_layout_nulls() -> None:
    cols = fixed13(True)
    wire = H(FIXED13_NULL)
    assert build_row_encoder(cols, "ascii")([None] * 13) == wire
    assert build_row_decoder(cols, "ascii")(wire, 0, 80) == (None,) * 13


def test_fixed_layout_uses_described_start_positions() -> None:
    # jdbc 4.3: each column is read at its columnStartPos; a gap is skipped.
    cols = [ColumnDesc("a", 1, 2, start=0), ColumnDesc("b", 1, 2, start=4)]
    assert build_row_decoder(cols, "ascii")(H("0001eeee0002"), 0, 6) == (1, 2)


@pytest.mark.parametrize("size", [79, 81])
def test_fixed_layout_size_mismatch_names_columns(size: int) -> None:
    decode = build_row_decoder(fixed13(True), "ascii")
    with pytest.raises(CodecError) as info:
        decode(bytes(100), 0, size)
    message = str(info.value)
    assert "expected 80" in message
    for name, *_ in FIXED13:
        assert f"{name}:type=" in message


def test_truncated_buffer_is_an_error() -> None:
    decode = build_row_decoder(fixed13(True), "ascii")
    with pytest.raises(CodecError, match="buffer holds only"):
        decode(bytes(40), 0, 80)


# -------------------------------------------------------------------------- variable layout


def jdbc_variable_columns(described: bool) -> list[ColumnDesc]:
    """jdbc 4.3 capture `cols=[13/20, 2/4, 43 ""/"" 2048, 45 ""/"boolean" 1, 13/20]`; real
    servers describe the same columns as 40/'lvarchar' and 41/'boolean' (peer 3.1)."""
    if described:
        lvc = describe_column("lv", 43, 2048)
        boolean = describe_column("b", 45, 1)
    else:
        lvc = ColumnDesc("lv", 43, 2048)
        boolean = ColumnDesc("b", 45, 1, type_name="boolean")
    return [ColumnDesc("v1", 13, 20), ColumnDesc("i", 2, 4), lvc, boolean, ColumnDesc("v2", 13, 20)]


@pytest.mark.parametrize("described", [True, False])
def test_variable_layout(described: bool) -> None:
    cols = jdbc_variable_columns(described)
    assert all(is_variable(c) for c in cols if c.name != "i")
    row = ("hi", 7, "lvc", True, "")
    # varchar 1+len; int 4; lvarchar flag + i32 len + data; boolean flag + i32 1 + byte; empty 00
    wire = H("0268690000000700000000036c766300000000010100")
    assert build_row_encoder(cols, "ascii")(row) == wire
    decode = build_row_decoder(cols, "ascii")
    assert decode(wire, 0, len(wire)) == row
    assert decode(memoryview(wire + wire), len(wire), len(wire)) == row
    nulls = H("010080000000010000000001000000000100")
    assert build_row_encoder(cols, "ascii")([None] * 5) == nulls
    assert decode(nulls, 0, len(nulls)) == (None,) * 5
    assert row_width(cols) == 21 + 4 + 2053 + 6 + 21


def test_variable_layout_boolean_t_f() -> None:
    # peer 3.2: real servers' BOOLEAN envelope with 't'/'f'
    cols = [describe_column("b", 45, 1), describe_column("c", 45, 1)]
    assert build_row_decoder(cols, "ascii")(H("000000000174000000000166"), 0, 12) == (True, False)


def test_variable_layout_framing_errors() -> None:
    cols = jdbc_variable_columns(True)
    decode = build_row_decoder(cols, "ascii")
    wire = H("0268690000000700000000036c766300000000010100")
    with pytest.raises(CodecError, match="consumed"):
        decode(wire + b"\x00", 0, len(wire) + 1)
    with pytest.raises(CodecError, match="v1:type=0x000d"):
        decode(wire[:-3], 0, len(wire) - 3)
    bad_len = bytearray(wire)
    bad_len[8] = 0x7F  # LVARCHAR length (bytes 8..11) far past the tuple
    with pytest.raises(CodecError):
        decode(bytes(bad_len), 0, len(wire))


def test_char_padding_option() -> None:
    cols = [ColumnDesc("c", 0, 5), ColumnDesc("n", 15, 4)]
    wire = b"ab   xy  "
    assert build_row_decoder(cols, "ascii")(wire, 0, 9) == ("ab", "xy")
    kept = build_row_decoder(cols, "ascii", keep_char_padding=True)(wire, 0, 9)
    assert kept == ("ab   ", "xy  ")


def test_distinct_type_forces_sequential_layout() -> None:
    col = ColumnDesc("d", 2 | TYPE_DISTINCT, 4, source_type=2)
    assert is_variable(col) and fixed_width(col) == 4
    cols = [col, ColumnDesc("v", 13, 10)]
    wire = H("0000000503616263")
    assert build_row_decoder(cols, "ascii")(wire, 0, 8) == (5, "abc")


def test_byte_text_descriptor_is_opaque() -> None:
    cols = [ColumnDesc("b", 11, 56), ColumnDesc("t", 12, 56), ColumnDesc("i", 2, 4)]
    desc = bytes(range(1, 57))  # byte 39 is even: not NULL
    desc_null = bytearray(56)
    desc_null[39] = 1  # jdbc 4.6: flags short at offset 38, bit 0 = NULL
    wire = desc + bytes(desc_null) + H("00000001")
    assert build_row_decoder(cols, "ascii")(wire, 0, len(wire)) == (bytes(desc), None, 1)
    assert build_row_encoder(cols, "ascii")([desc, None, 1]) == wire


def test_other_udt_is_raw_bytes() -> None:
    cols = [ColumnDesc("blob", 41, 72, xid=10, type_name="blob"), ColumnDesc("i", 2, 4)]
    wire = H("0000000003aabbcc00000009")
    assert build_row_decoder(cols, "ascii")(wire, 0, len(wire)) == (H("aabbcc"), 9)


def test_unsupported_types_fail_at_build_time() -> None:
    with pytest.raises(CodecNotSupported):
        build_row_decoder([ColumnDesc("s", 24, 0)], "ascii")  # ROWREF
    with pytest.raises(CodecNotSupported):
        build_row_encoder([ColumnDesc("r", 22, 0)], "ascii")


def test_struct_run_post_processing() -> None:
    # A NaN that is not all-0xFF is a value; all-0xFF is NULL.
    cols = [ColumnDesc("f", 3, 8), ColumnDesc("s", 4, 4), ColumnDesc("i8", 17, 10)]
    decode = build_row_decoder(cols, "ascii")
    row = decode(H("7ff8000000000000ffffffff00010000000000000000"), 0, 22)
    assert row[0] != row[0] and row[1] is None and row[2] == 0


def test_bad_date_keeps_data_error_class() -> None:
    decode = build_row_decoder([ColumnDesc("d", 7, 4)], "ascii")
    with pytest.raises(CodecDataError):
        decode(H("7fffffff"), 0, 4)


def test_encoder_errors_name_the_column() -> None:
    encode = build_row_encoder([ColumnDesc("a", 2, 4), ColumnDesc("name", 13, 3)], "ascii")
    with pytest.raises(CodecDataError, match="'name'"):
        encode([1, "toolong"])
    with pytest.raises(CodecError, match="2 columns"):
        encode([1])


def test_single_column_returns_one_tuple_and_is_cached() -> None:
    cols = [ColumnDesc("i", 2, 4)]
    decode = build_row_decoder(cols, "ascii")
    assert decode(H("00000001"), 0, 4) == (1,)
    assert build_row_decoder(list(cols), "ascii") is decode


def test_describe_column() -> None:
    b = describe_column("flag", 45, 1, nullable=False)
    assert (b.type, b.xid, b.type_name, b.enclen) == (41 | TYPE_NOTNULL, XID_BOOLEAN, "boolean", 1)
    lv = describe_column("t", 43, 2048)
    assert (lv.type, lv.xid, lv.type_name, lv.enclen) == (40, XID_LVARCHAR, "lvarchar", 2048)
    assert describe_column("i", 2, 0).enclen == 4  # fixed types carry their wire width
    assert describe_column("x", 2, 4, distinct=True).distinct


@pytest.mark.parametrize(
    ("col", "width", "variable"),
    [
        (ColumnDesc("a", 0, 10), 10, False),
        (ColumnDesc("a", 5, (16 << 8) | 255), 10, False),
        (ColumnDesc("a", 10, 0x130F), 11, False),
        (ColumnDesc("a", 13, 20), None, True),
        (ColumnDesc("a", 16, 20), None, True),
        (ColumnDesc("a", 52, 8), 8, False),
        (ColumnDesc("a", 53, 8), 8, False),
        (ColumnDesc("a", 43, 100), None, True),
        (ColumnDesc("a", 41, 1, xid=5), None, True),
    ],
)
def test_widths(col: ColumnDesc, width: int | None, variable: bool) -> None:
    assert fixed_width(col) == width
    assert is_variable(col) is variable


# ------------------------------------------------------------- generated SQ_TUPLE loop (pure)


def pure_decoder(cols: list[ColumnDesc], encoding: str) -> Any:
    """The generated Python decoder, also when the C accelerator wraps it."""
    decode = build_row_decoder(cols, encoding)
    return getattr(decode, "pure", decode)


def tuple_msg(payload: bytes, size: int | None = None) -> bytes:
    n = len(payload) if size is None else size
    return b"\x00\x0e\x00\x00" + n.to_bytes(4, "big", signed=True) + payload + b"\x00" * (n & 1)


def row_by_row(decode: Any, buf: bytes, pos: int) -> tuple[int, list[Any], Any]:
    """What Reply._tuples did before decode_tuples: the reference for every run."""
    rows: list[Any] = []
    first: Any = None
    while len(buf) - pos >= 8 and buf[pos] == 0 and buf[pos + 1] == 14:
        size = int.from_bytes(buf[pos + 4 : pos + 8], "big", signed=True)
        nxt = pos + 8 + size + (size & 1)
        if size < 0 or nxt > len(buf):
            break
        try:
            rows.append(decode(buf, pos + 8, size))
        except CodecError as exc:
            first = first or (type(exc), str(exc))
        pos = nxt
    return pos, rows, first


@contextmanager
def counted_table_reads(loop: Any) -> Iterator[dict[str, int]]:
    """Reads through each of the loop's length tables (types/tuplength.py), by table name,
    while the block runs: the tables are shared by decoders of the same formats, so their
    filled entries would not show which loop read them."""
    loop_globals = loop.__globals__
    tables = {k: v for k, v in loop_globals.items() if k.startswith("_L")}
    reads = dict.fromkeys(tables, 0)

    class Counted:
        def __init__(self, name: str, entry: Any) -> None:
            self.name, self.entry = name, entry

        def unpack_from(self, buf: Any, pos: int) -> Any:
            reads[self.name] += 1
            return self.entry.unpack_from(buf, pos)

    for name, table in tables.items():
        loop_globals[name] = [Counted(name, entry) for entry in table]
    try:
        yield reads
    finally:
        loop_globals.update(tables)


def in_pieces(loop: Any, stream: bytes, piece: int) -> tuple[int, list[Any], Any]:
    """decode_tuples fed ``piece`` more bytes at a time, as a reply arrives in small receives:
    windows that small never hold a merged read's slack, so the plain loop decodes them."""
    buf, rows, first, pos, end = bytearray(stream), [], None, 0, 0
    while pos < len(stream):
        end = min(max(end, pos) + piece, len(stream))
        new, err = loop(buf, pos, end, rows)
        if first is None and err is not None:
            first = (type(err), str(err))
        if new == pos and end == len(stream):
            break
        pos = new
    return pos, rows, first


TUPLE_SHAPES: list[tuple[list[ColumnDesc], list[tuple[Any, ...]]]] = [
    (  # the select_scaling shape: a struct run read with the header, then VARCHARs
        [
            ColumnDesc("id", 2, 4),
            ColumnDesc("name", 13, 64),
            ColumnDesc("qty", 2, 4),
            ColumnDesc("price", 3, 8),
            ColumnDesc("tag", 13, 32),
        ],
        [(1, "a", 2, 0.5, ""), (None, None, None, None, None), (3, "é" * 64, -4, -1.5, "x")],
    ),
    (  # VARCHAR first: no struct run at offset 0
        [ColumnDesc("v", 13, 10), ColumnDesc("i", 2, 4), ColumnDesc("c", 0, 3)],
        [("", 1, "ab"), (None, None, None), ("\x01", 0, "abc")],
    ),
    (  # fixed layout, packed
        [ColumnDesc("s", 1, 2), ColumnDesc("i8", 17, 10), ColumnDesc("d", 7, 4)],
        [(1, -(2**40), date(2024, 2, 29)), (None, None, None)],
    ),
    (  # fixed layout at described start positions, first column not at 0
        [ColumnDesc("a", 1, 2, start=2), ColumnDesc("b", 1, 2, start=4)],
        [],
    ),
    ([ColumnDesc("only", 13, 5)], [("abc",), (None,), ("",)]),
]


@pytest.mark.parametrize("shape", range(len(TUPLE_SHAPES)))
def test_decode_tuples_matches_row_by_row(shape: int) -> None:
    cols, values = TUPLE_SHAPES[shape]
    decode = pure_decoder(cols, "iso-8859-1")
    batch = decode.decode_tuples
    encode = build_row_encoder(cols, "iso-8859-1")
    payloads = [encode(v) for v in values]
    if shape == 3:  # no encoder for start positions: hand-made 6-byte tuples
        payloads = [H("000000010002"), H("00008000ffff")]
    good = [tuple_msg(p) for p in payloads]
    bad = [  # each a CodecError for that row only
        tuple_msg(payloads[0] + b"\x00"),
        tuple_msg(payloads[0][:-1]),
        tuple_msg(b""),
        tuple_msg(b"\x00"),
        tuple_msg(b"\xff" * 13),
    ]
    stream = b"".join(good + bad[:2] + good + bad[2:] + good)
    tails = [b"", b"\x00\x0c", b"\x00\x0e\x00", good[0][:-1], tuple_msg(b"", -8), b"\x00\x0f"]
    for tail in tails:
        data = b"xx" + stream + tail
        want = row_by_row(decode, data, 2)
        assert want[0] == 2 + len(stream)
        for buf in (data, bytearray(data)):
            rows: list[Any] = []
            pos, err = batch(buf, 2, len(buf), rows)
            assert (pos, rows) == want[:2]
            assert (type(err), str(err)) == want[2]
    rows = []
    assert batch(memoryview(stream), 0, len(stream), rows) == (0, None)  # left to Reply
    assert batch(stream, 0, 7, rows) == (0, None)
    assert batch(stream, 0, len(stream) + 100, rows)[0] == len(stream)  # end past the buffer
    assert rows == want[1]


def test_reply_uses_the_generated_loop() -> None:
    from ifxwire.client.replies import Reply
    from ifxwire.protocol import messages as m
    from ifxwire.protocol.wire import ProtocolViolation

    cols, values = TUPLE_SHAPES[0]
    decode = pure_decoder(cols, "iso-8859-1")
    encode = build_row_encoder(cols, "iso-8859-1")
    msgs = [tuple_msg(encode(v)) for v in values * 50]
    stream = b"".join(msgs) + b"\x00\x0c"
    limit = max_tuple_size(cols)
    reply = Reply(m.Layout(), "iso-8859-1", decode, tuple_limit=limit, tuple_budget=len(stream))
    # fed in pieces, as the receive buffer fills: incomplete tuples set ``need``
    pos, cut = 0, 37
    while not reply.complete:
        pos = reply.feed(stream, pos, min(cut, len(stream)))
        cut += 37
    assert pos == len(stream)
    assert reply.rows == [tuple(v) for v in values * 50]
    reply = Reply(m.Layout(), "iso-8859-1", decode, tuple_limit=limit, tuple_budget=len(stream))
    assert reply.feed(msgs[0][:-2], 0, len(msgs[0]) - 2) == 0
    assert reply.need == len(msgs[0])
    with pytest.raises(ProtocolViolation, match="negative size"):
        Reply(m.Layout(), "iso-8859-1", decode).feed(tuple_msg(b"", -8), 0, 8)


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8", "ascii", "cp1252"])
def test_text_window_spanning_buffers_matches_row_by_row(encoding: str) -> None:
    """Text values sliced from the decoded 64 KiB windows (Latin-1 and UTF-8 connections) are
    the values decode_row gives, across window edges, for non-ASCII text and for a VARCHAR
    whose length byte points past its tuple."""
    cols = [
        ColumnDesc("id", 2, 4),
        ColumnDesc("name", 13, 64),
        ColumnDesc("code", 0, 5),
        ColumnDesc("tag", 13, 32),
    ]
    decode = pure_decoder(cols, encoding)
    encode = build_row_encoder(cols, encoding)
    accented = "ascii" not in encoding
    values = [
        (i, f"name {i}" + "é" * (i % 3 if accented else 0), "ab" if i % 4 else None, "t" * (i % 30))
        for i in range(4000)
    ]
    msgs = [tuple_msg(encode(v)) for v in values]
    lying = bytearray(msgs[7])
    lying[8 + 4] = 60  # the first VARCHAR claims 60 bytes: past the tuple's end
    stream = b"".join(msgs[:2000]) + bytes(lying) + b"".join(msgs[2000:])
    if encoding == "ascii":  # a byte ASCII refuses: that row's CodecError, the others decoded
        bad = bytearray(msgs[3])
        bad[8 + 5] = 0xE9
        stream += bytes(bad)
    assert len(stream) > 2 * 65536
    want = row_by_row(decode, stream, 0)
    rows: list[Any] = []
    pos, err = decode.decode_tuples(bytearray(stream), 0, len(stream), rows)
    assert (pos, rows) == want[:2]
    assert (type(err), str(err)) == want[2]
    assert err is not None  # the lying row is refused, not sliced short
    assert rows[:2000] == values[:2000]


def test_inline_decimal_and_date_in_the_batch_loop_match_row_by_row() -> None:
    """The batch loop decodes fixed-scale DECIMAL and DATE without a call; every value, and
    every malformed value (a digit above 99, a day count no date has), is what decode_row
    gives."""
    cols = [
        ColumnDesc("i", 2, 4),
        ColumnDesc("m", 5, (12 << 8) | 2),
        ColumnDesc("d", 7, 4),
        ColumnDesc("f", 5, (16 << 8) | 255),
        ColumnDesc("n", 8, (5 << 8) | 5),
    ]
    decode = pure_decoder(cols, "iso-8859-1")
    encode = build_row_encoder(cols, "iso-8859-1")
    values = [
        (1, Decimal("12.34"), date(2000, 1, 1), Decimal("0.5"), Decimal("0.12345")),
        (2, Decimal("-12.34"), date(1, 1, 1), Decimal("-7"), Decimal("-0.00001")),
        (3, None, None, None, None),
        (4, Decimal("0.00"), date(9999, 12, 31), Decimal("1E+20"), Decimal("0")),
        (5, Decimal("9999999999.99"), date(2024, 2, 29), Decimal("123.456"), Decimal("0.99999")),
    ]
    msgs = [tuple_msg(encode(v)) for v in values]
    bad_digit = bytearray(msgs[0])
    bad_digit[8 + 4 + 2] = 0xA5  # a base-100 digit above 99 in the DECIMAL(12,2)
    bad_day = bytearray(msgs[0])
    bad_day[8 + 4 + 7 : 8 + 4 + 11] = (2**31 - 1).to_bytes(4, "big")  # no such date
    stream = b"".join(msgs) + bytes(bad_digit) + bytes(bad_day) + b"".join(msgs)
    want = row_by_row(decode, stream, 0)
    rows: list[Any] = []
    pos, err = decode.decode_tuples(bytearray(stream), 0, len(stream), rows)
    assert (pos, rows) == want[:2]
    assert (type(err), str(err)) == want[2]
    assert err is not None and len(rows) == 2 * len(values)
    assert rows[: len(values)] == values
    assert "_mul(" in decode.decode_tuples.__doc__  # the inline form is what ran
    assert "_fromordinal(" in decode.decode_tuples.__doc__


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8"])
def test_tuple_larger_than_the_window_matches_row_by_row(encoding: str) -> None:
    """A tuple longer than the loop's 64 KiB window (an LVARCHAR of 100 000 bytes) is its own
    window; the rows around it, and a malformed row after it, are decoded as decode_row
    decodes them, with the error's offsets counted in the caller's buffer."""
    cols = [
        describe_column("id", 2, 4),
        describe_column("name", 13, 40),
        describe_column("big", 43, 200000),
        describe_column("tag", 13, 10),
    ]
    decode = pure_decoder(cols, encoding)
    encode = build_row_encoder(cols, encoding)
    values = [
        (i, f"n{i}", ("é" if i % 2 else "x") * (100000 if i == 3 else i), "t") for i in range(9)
    ]
    msgs = [tuple_msg(encode(v)) for v in values]
    bad = bytearray(msgs[5])
    bad[8 + 4] = 30  # the name claims 30 bytes: past its value
    stream = b"xyz" + b"".join(msgs[:5]) + bytes(bad) + b"".join(msgs[5:])
    want = row_by_row(decode, stream, 3)
    rows: list[Any] = []
    pos, err = decode.decode_tuples(bytearray(stream), 3, len(stream), rows)
    assert (pos, rows) == want[:2] and pos == len(stream)
    assert (type(err), str(err)) == want[2]
    assert err is not None and len(rows) == len(values)
    assert rows[:5] == values[:5]


def _exact(rows: list[Any]) -> list[Any]:
    """Rows with each Decimal as its (sign, digits, exponent): Decimal("1.50") == Decimal("1.5"),
    but a DECIMAL(p,2) must come back with two fraction digits."""
    return [tuple(v.as_tuple() if isinstance(v, Decimal) else v for v in r) for r in rows]


@pytest.mark.parametrize("followed", [False, True])
@pytest.mark.parametrize(("precision", "scale"), [(12, 2), (5, 5), (16, 3), (32, 0), (1, 0)])
def test_inline_decimal_exact_for_every_head_byte(
    precision: int, scale: int, followed: bool
) -> None:
    """The inline DECIMAL's per-head-byte table against decode_row, value and exponent, for
    every head byte (positive, negative, NULL, exponents the column cannot hold) with digit
    bytes both valid and not (above 99), including digits beyond the scale; last in the row,
    and followed by a DATE and a SMALLINT (read by the same unpack_from as its digits)."""
    import random

    from ifxwire.types import numeric as _num

    cols = [ColumnDesc("i", 2, 4), ColumnDesc("m", 5, (precision << 8) | scale)]
    tail = b""
    if followed:
        cols += [ColumnDesc("d", 7, 4), ColumnDesc("s", 1, 2)]
        tail = (8000).to_bytes(4, "big") + (-3).to_bytes(2, "big", signed=True)
    decode = pure_decoder(cols, "iso-8859-1")
    assert "_mul(" in decode.decode_tuples.__doc__
    assert ", c2, c3, = _M" in decode.decode_tuples.__doc__ or not followed  # one unpack
    width = _num.decimal_width((precision << 8) | scale)
    rnd = random.Random(precision * 100 + scale)
    msgs = []
    for head in range(256):
        for digits in (
            bytes(width - 1),
            bytes(rnd.randrange(100) for _ in range(width - 1)),
            bytes(rnd.choice((0, 1, 99, 100, 255)) for _ in range(width - 1)),
        ):
            msgs.append(tuple_msg(b"\x00\x00\x00\x07" + bytes([head]) + digits + tail))
    stream = b"".join(msgs)
    want = row_by_row(decode, stream, 0)
    rows: list[Any] = []
    pos, err = decode.decode_tuples(bytearray(stream), 0, len(stream), rows)
    assert pos == want[0] == len(stream)
    assert _exact(rows) == _exact(want[1])
    assert (type(err), str(err)) == ((type(None), "None") if want[2] is None else want[2])
    assert len(rows) > 256  # most rows decode: the table's branch ran, not only the fallback


FIRST_TEXT_SHAPES = {
    "run after the text": [
        ColumnDesc("id", 2, 4),
        ColumnDesc("name", 13, 255),
        ColumnDesc("qty", 2, 4),
        ColumnDesc("price", 3, 8),
        ColumnDesc("tag", 13, 32),
    ],
    "text first, run last": [ColumnDesc("name", 13, 255), ColumnDesc("qty", 1, 2)],
    "inline DECIMAL after the text": [
        ColumnDesc("i", 2, 4),
        ColumnDesc("v", 13, 255),
        ColumnDesc("m", 5, (12 << 8) | 2),
        ColumnDesc("d", 7, 4),
    ],
    "two inline DECIMALs around a later text": [  # their digits' names must not collide
        ColumnDesc("v", 13, 255),
        ColumnDesc("m", 5, (12 << 8) | 2),
        ColumnDesc("i", 2, 4),
        ColumnDesc("w", 13, 40),
        ColumnDesc("k", 5, (16 << 8) | 4),
    ],
}


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8"])
@pytest.mark.parametrize("shape", sorted(FIRST_TEXT_SHAPES))
def test_first_text_length_picks_one_struct_for_the_row(shape: str, encoding: str) -> None:
    """The loop reads the row's head and the run after its first VARCHAR with one struct
    chosen by the VARCHAR's length (types/tuplength.py): every length 0-255, NULL, and rows
    whose lengths lie (past the row, short of it, the size one byte off) anywhere in the
    windows decode as decode_row decodes them, the bad ones with decode_row's error."""
    import random

    cols = FIRST_TEXT_SHAPES[shape]
    decode = pure_decoder(cols, encoding)
    encode = build_row_encoder(cols, encoding)
    assert "_L0[_n1].unpack_from(buf, p)" in decode.decode_tuples.__doc__
    text = next(k for k, c in enumerate(cols) if c.base == 13)
    fallback = 0
    decode_row = decode.decode_tuples.__globals__["_decode_row"]

    def counted(*args: Any) -> Any:
        nonlocal fallback
        fallback += 1
        return decode_row(*args)

    rnd = random.Random(len(cols))
    msgs, lying = [], 0
    for i in range(3000):
        length = i % 257
        row: list[Any] = []
        for k, col in enumerate(cols):
            if k == text:
                row.append(None if length == 256 else ("é" if i % 5 == 0 else "a") * length)
            elif col.base == 5:
                row.append(Decimal(i if (i // 3 + k) % 2 else -i) / 100)
            elif col.base == 7:
                row.append(date(2000, 1, 1) + timedelta(days=i))
            elif col.base == 13:
                row.append("t" * (i % 33))
            else:
                row.append(i if col.base != 3 else i * 0.5)
        if encoding != "iso-8859-1" and length > 127 and row[text] is not None:
            row[text] = "a" * length  # two bytes a character would not fit a VARCHAR(255)
        msg = bytearray(tuple_msg(encode(tuple(row))))
        at = 8 + (4 if text else 0)  # the first VARCHAR's length byte
        kind = rnd.randrange(40)
        if kind == 0 and msg[at] != 255:
            msg[at] = 255  # past the row
            lying += 1
        elif kind == 1 and msg[at] > 0:
            msg[at] -= 1  # short of the row: the rest is read as the next columns
            lying += 1
        elif kind == 2:
            msg = bytearray(tuple_msg(bytes(msg[8 : 8 + int.from_bytes(msg[4:8], "big")]) + b"\0"))
            lying += 1
        msgs.append(bytes(msg))
    stream = b"".join(msgs)
    assert len(stream) > 2 * 65536 and lying > 100
    want = row_by_row(decode, stream, 0)
    table = decode.decode_tuples.__globals__["_L0"]
    rows: list[Any] = []
    loop_globals = decode.decode_tuples.__globals__
    loop_globals["_decode_row"] = counted
    try:
        with counted_table_reads(decode.decode_tuples) as reads:
            pos, err = decode.decode_tuples(bytearray(stream), 0, len(stream), rows)
    finally:
        loop_globals["_decode_row"] = decode_row
    assert pos == want[0] == len(stream)
    assert _exact(rows) == _exact(want[1])
    assert (type(err), str(err)) == want[2]
    assert fallback == lying  # only the lying rows went to decode_row
    assert reads["_L0"] > 0.9 * len(msgs)  # most rows were read by the merged struct
    assert any(isinstance(entry, struct.Struct) for entry in table)  # made on first use
    pieces = in_pieces(decode.decode_tuples, stream, 200)
    assert _exact(pieces[1]) == _exact(want[1]) and pieces[::2] == want[::2]


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8"])
def test_later_texts_pair_their_runs_in_one_read(encoding: str) -> None:
    """After the first, each run that ends with a VARCHAR's length is read together with the
    run after that VARCHAR (types/tuplength.py, merge_later_texts), in the merged loop and in
    the window's last rows alike: values of either sign, NULLs, every length 0-255, and lying
    lengths of the later VARCHARs decode as decode_row decodes them."""
    import random

    cols = [
        ColumnDesc("a", 2, 4),
        ColumnDesc("b", 13, 255),
        ColumnDesc("c", 2, 4),
        ColumnDesc("d", 13, 255),
        ColumnDesc("e", 3, 8),
        ColumnDesc("f", 2, 4),
        ColumnDesc("g", 16, 40),
        ColumnDesc("h", 1, 2),
    ]
    decode = pure_decoder(cols, encoding)
    encode = build_row_encoder(cols, encoding)
    source = decode.decode_tuples.__doc__
    assert "_L0[_n1]" in source and "[_n2].unpack_from(buf, o)" in source
    rnd = random.Random(8)
    msgs, lying = [], 0
    for i in range(3000):
        b = None if i % 97 == 0 else "b" * (i % 256)
        d = None if i % 89 == 0 else "d" * ((i * 7) % 256)
        row = (None if i % 50 == 0 else rnd.randint(-(2**31) + 1, 2**31 - 1), b,
               rnd.randint(-(2**31) + 1, 2**31 - 1), d, rnd.uniform(-1e9, 1e9),
               None if i % 60 == 0 else -i, "g" * (i % 41), (-1) ** i * (i % 32000))  # fmt: skip
        msg = bytearray(tuple_msg(encode(row)))
        at_d = 8 + 4 + 1 + (1 if b is None else len(b)) + 4  # d's length byte
        at_g = at_d + 1 + (1 if d is None else len(d)) + 8 + 4
        kind = rnd.randrange(30)
        if kind == 0 and msg[at_d] != 255:
            msg[at_d] = 255
            lying += 1
        elif kind == 1 and msg[at_g] > 1:
            msg[at_g] -= 2
            lying += 1
        msgs.append(bytes(msg))
    stream = b"".join(msgs)
    want = row_by_row(decode, stream, 0)
    rows: list[Any] = []
    with counted_table_reads(decode.decode_tuples) as reads:
        pos, err = decode.decode_tuples(bytearray(stream), 0, len(stream), rows)
    assert pos == want[0] == len(stream)
    assert rows == want[1]
    assert (type(err), str(err)) == want[2]
    assert len(rows) == len(msgs) - lying
    assert len(reads) == 3 and all(reads.values()), reads  # the head, a pair in each loop
    assert in_pieces(decode.decode_tuples, stream, 200) == want  # the plain loop's pair


BOUNDED_SHAPES: dict[str, list[ColumnDesc]] = {
    "select_scaling": TUPLE_SHAPES[0][0],
    "text first": [ColumnDesc("v", 13, 255), ColumnDesc("i", 2, 4), ColumnDesc("w", 13, 9)],
    "decimal and date": [ColumnDesc("i", 2, 4), ColumnDesc("v", 13, 64),
                         ColumnDesc("m", 5, (12 << 8) | 2), ColumnDesc("d", 7, 4)],
    # a fixed layout whose columns leave a gap: its rows are longer than its columns' widths
    "gap": [ColumnDesc("i", 2, 4, start=0), ColumnDesc("c", 0, 6, start=8)],
    # the same without text: read in place, so a row read past ``end`` would find real bytes
    "gap, no text": [ColumnDesc("i", 2, 4, start=0), ColumnDesc("j", 2, 4, start=8)],
}


@pytest.mark.parametrize("shape", sorted(BOUNDED_SHAPES))
def test_rows_read_without_an_end_test_never_pass_the_window(shape: str) -> None:
    """The loop reads a row with no test of its end while the window holds the longest row
    the shape can have (tuploop.py, bounded_loop): the window cut at every byte of its last
    rows, and rows whose header or lengths lie, give what decode_row gives row by row (no row
    read short from a cut window, no row lost)."""
    cols = BOUNDED_SHAPES[shape]
    decode = pure_decoder(cols, "iso-8859-1")
    assert "while p <= safe:" in decode.decode_tuples.__doc__
    # a shape without text reads the buffer in place: its positions count from src's start
    assert ("    buf = src\n" in decode.decode_tuples.__doc__) is (shape == "gap, no text")
    if shape.startswith("gap"):
        tail = b"abcdef" if shape == "gap" else b"\0\0\0\x07"
        payloads = [i.to_bytes(4, "big") + b"\0" * 4 + tail for i in range(60)]
    else:
        encode = build_row_encoder(cols, "iso-8859-1")
        rows = []
        for i in range(60):
            row: list[Any] = []
            for col in cols:
                if col.base == 13:
                    row.append(None if i % 11 == 0 else "x" * ((i * 37) % (col.enclen + 1)))
                elif col.base == 5:
                    row.append(Decimal(i) / 100)
                elif col.base == 7:
                    row.append(date(2001, 1, 1) + timedelta(days=i))
                else:
                    row.append(i)
            rows.append(tuple(row))
        payloads = [encode(r) for r in rows]
    msgs = [tuple_msg(p) for p in payloads]
    msgs[-9] = tuple_msg(payloads[-9] + b"\xff" * 3)  # a row longer than its columns
    if not shape.startswith("gap"):  # a first VARCHAR length pointing past its row
        first = next(k for k, c in enumerate(cols) if c.base == 13)
        lying = bytearray(payloads[-5])
        lying[4 * first] = 255  # (the first VARCHAR is column 0 or 1, after an INT)
        msgs[-5] = tuple_msg(bytes(lying))
    msgs[-1] = tuple_msg(payloads[-1], len(payloads[-1]) + 300)  # a header past the end
    stream = b"".join(msgs)
    assert len(row_by_row(decode, stream, 0)[1]) == len(msgs) - (
        2 if shape.startswith("gap") else 3)
    for end in range(max(0, len(stream) - 1500), len(stream) + 1):
        want = row_by_row(decode, stream[:end], 0)
        rows_got: list[Any] = []
        pos, err = decode.decode_tuples(bytearray(stream), 0, end, rows_got)
        assert (pos, rows_got) == want[:2], end
        assert (err and (type(err), str(err))) == want[2]
