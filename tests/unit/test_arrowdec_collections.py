"""The C column decoder's collections (_arrowdec.c A_LIST) on golden bytes.

Every value here is written byte by byte from the collection layout of docs/PROTOCOL.md §13
(i32 length, the type table, i32 0, i32 data size, i32 flags, the big-endian elements), not by
the driver's encoder: only the type table comes from ``write_type_table``, since the decoder
compares it with that very table. The expected Arrow buffers (little-endian elements, int32
offsets, validity bits) are literals too. What no server sends (an element equal to its
type's NULL form, a SET holding two equal elements or a NaN) must be refused, so that the row
decoder decides: its values are checked against ``decode_complex``.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import pytest

from ifxwire import arrowtuples as at
from ifxwire.protocol.codes import TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.complextype import parse_type_name, write_type_table
from ifxwire.types.composite import decode_complex

pa = pytest.importorskip("pyarrow")
dec = at._arrowdec
pytestmark = pytest.mark.skipif(dec is None, reason="the C column decoder is not built")

_T = TypeCode
ENC = "iso-8859-1"


def _col(text: str) -> ColumnDesc:
    code = {"LIST": _T.LIST, "MULTISET": _T.MULTISET, "SET": _T.SET}[text.split("(")[0]]
    return ColumnDesc("l", code, 0, type_name=text)


def _value(text: str, elements: bytes, null: bool = False) -> bytes:
    """One collection value, framed by hand: length, table, 0, size, flags, elements."""
    table = write_type_table(parse_type_name(text), ENC)
    flags = 0x80000000 if null else 0
    body = table + struct.pack(">iiI", 0, len(elements), flags) + elements
    return struct.pack(">i", len(body)) + body


def _tuple(payload: bytes) -> bytes:
    return struct.pack(">HhI", 14, 0, len(payload)) + payload + b"\x00" * (len(payload) & 1)


def _decode(text: str, values: list[bytes]) -> Any:
    cols = [_col(text)]
    plan = at.tuple_plan(cols, ENC, False)
    assert plan is not None and plan[0][0] == at.A_LIST
    run = b"".join(_tuple(v) for v in values)
    return dec.decode(run, len(values), at.c_plan(plan, cols, ENC), 1, False)


#: (type, the elements of 3 values as big-endian wire bytes, the expected little-endian data
#: buffer, the expected int32 offsets): value 0 holds elements, value 1 is empty, value 2 is
#: a NULL collection (its validity bit clear, no elements).
GOLDEN = [
    ("LIST(integer not null)",
     bytes.fromhex("00000001 ffffffff 7fffffff 80000001"),
     bytes.fromhex("01000000 ffffffff ffffff7f 01000080"), [0, 4, 4, 4]),
    ("MULTISET(bigint not null)",
     bytes.fromhex("0000010000000002 8000000000000001"),
     bytes.fromhex("0200000000010000 0100000000000080"), [0, 2, 2, 2]),
    ("LIST(smallint not null)",
     bytes.fromhex("7fff 8001 0005 0005"),
     bytes.fromhex("ff7f 0180 0500 0500"), [0, 4, 4, 4]),
    ("LIST(float not null)",  # 1.5, -0.0, a NaN that is not FLOAT's NULL (all ones)
     bytes.fromhex("3ff8000000000000 8000000000000000 7ff8000000000001"),
     bytes.fromhex("000000000000f83f 0000000000000080 010000000000f87f"), [0, 3, 3, 3]),
    ("MULTISET(smallfloat not null)",
     bytes.fromhex("3fc00000 3fc00000 c0200000"),
     bytes.fromhex("0000c03f 0000c03f 000020c0"), [0, 3, 3, 3]),
    # SETs come out sorted ascending (wire order 5, -3, 2)
    ("SET(integer not null)",
     bytes.fromhex("00000005 fffffffd 00000002"),
     bytes.fromhex("fdffffff 02000000 05000000"), [0, 3, 3, 3]),
    ("SET(smallint not null)",
     bytes.fromhex("0064 ff9c 0000"),
     bytes.fromhex("9cff 0000 6400"), [0, 3, 3, 3]),
    ("SET(bigint not null)",
     bytes.fromhex("0000000000000002 8000000000000001 7fffffffffffffff"),
     bytes.fromhex("0100000000000080 0200000000000000 ffffffffffffff7f"), [0, 3, 3, 3]),
    ("SET(float not null)",
     bytes.fromhex("4000000000000000 bff0000000000000"),
     bytes.fromhex("000000000000f0bf 0000000000000040"), [0, 2, 2, 2]),
    ("SET(smallfloat not null)",
     bytes.fromhex("3f800000 bf800000"),
     bytes.fromhex("000080bf 0000803f"), [0, 2, 2, 2]),
]


@pytest.mark.parametrize(("text", "wire", "data", "offsets"), GOLDEN,
                         ids=[g[0] for g in GOLDEN])
def test_golden_collection_buffers(text: str, wire: bytes, data: bytes,
                                   offsets: list[int]) -> None:
    """The Arrow buffers of three hand-framed values (elements, empty, NULL) are the golden
    bytes, and read back as the row codec's values (SETs sorted)."""
    values = [_value(text, wire), _value(text, b""), _value(text, b"", null=True)]
    got = _decode(text, values)
    assert got is not None
    nulls, validity, gdata, goffsets = got[0]
    assert validity is not None and len(validity) == 1
    assert (nulls, validity[0] & 0b111, gdata, goffsets) == (  # (bits past the rows: unused)
        1, 0b011, data, struct.pack("<4i", *offsets))
    col = _col(text)
    field = at_field(col)
    arr = pa.Array.from_buffers(field.type, 3, [pa.py_buffer(validity), pa.py_buffer(goffsets)],
                                null_count=1, children=[pa.Array.from_buffers(
                                    field.type.value_type, offsets[-1],
                                    [None, pa.py_buffer(gdata)], null_count=0)])
    want = [decode_complex(v, 0, len(v)) for v in values]
    row = [None if w is None else (sorted(w) if text.startswith("SET") else list(w))
           for w in want]
    got_py = arr.to_pylist()
    assert [None if g is None else [_bits(x) for x in g] for g in got_py] == \
        [None if r is None else [_bits(x) for x in r] for r in row]


def at_field(col: ColumnDesc) -> Any:
    from ifxwire import arrow as ifx_arrow

    return ifx_arrow._Plan(pa, [col]).schema.field(0)


def _bits(x: Any) -> Any:
    """A float by its bits (NaN payloads and -0.0 compared exactly), other values as they are."""
    return struct.pack("<d", x) if isinstance(x, float) else x


@pytest.mark.parametrize(("text", "null"), [
    ("LIST(integer not null)", "80000000"), ("MULTISET(bigint not null)", "8000000000000000"),
    ("LIST(smallint not null)", "8000"), ("LIST(float not null)", "ffffffffffffffff"),
    ("SET(smallfloat not null)", "ffffffff")])
def test_null_elements_are_left_to_the_row_decoder(text: str, null: str) -> None:
    """An element equal to its type's NULL form (which Informix never sends: collection
    elements are NOT NULL) refuses the run; the row decoder makes it None."""
    width = len(null) // 2
    one = {2: "0001", 4: "00000001" if "float" not in text else "3f800000",
           8: "0000000000000001" if "float" not in text else "3ff0000000000000"}[width]
    value = _value(text, bytes.fromhex(one + null))
    assert _decode(text, [value]) is None
    assert None in decode_complex(value, 0, len(value))
    assert _decode(text, [_value(text, bytes.fromhex(one))]) is not None


@pytest.mark.parametrize(("text", "wire"), [
    ("SET(integer not null)", "00000002 00000002"),  # two equal elements: a Set makes one
    ("SET(float not null)", "0000000000000000 8000000000000000"),  # 0.0 == -0.0
    ("SET(float not null)", "7ff8000000000000 3ff0000000000000"),  # a NaN: no order
    ("SET(smallint not null)", "0001 0002 0001"),
])
def test_sets_the_row_decoder_would_change_are_refused(text: str, wire: str) -> None:
    value = _value(text, bytes.fromhex(wire))
    assert _decode(text, [value]) is None
    row = decode_complex(value, 0, len(value))
    assert len(row) < len(wire.split()) or any(isinstance(x, float) and math.isnan(x)
                                               for x in row)


def test_other_tables_and_ragged_sizes_are_refused() -> None:
    """A value carrying another type's table, or a data size that is not whole elements."""
    good = _value("LIST(float not null)", bytes.fromhex("3ff0000000000000"))
    assert _decode("LIST(float not null)", [good]) is not None
    other = _value("LIST(bigint not null)", bytes.fromhex("0000000000000001"))
    assert _decode("LIST(float not null)", [other]) is None
    ragged = _value("LIST(smallfloat not null)", bytes.fromhex("3f800000 3f80"))
    assert _decode("LIST(smallfloat not null)", [ragged]) is None


def test_plan_kinds() -> None:
    """Which collections the C decoder takes, and with what element kind."""
    def arg(text: str) -> int | None:
        plan = at.tuple_plan([_col(text)], ENC, False)
        assert plan is not None
        return plan[0][2] if plan[0][0] == at.A_LIST else None

    assert arg("LIST(integer not null)") == at.LK_INT
    assert arg("SET(float not null)") == at.LK_FLOAT | at.LK_SET
    assert arg("MULTISET(smallfloat not null)") == at.LK_FLOAT
    assert arg("SET(bigint not null)") == at.LK_INT | at.LK_SET
    assert arg("LIST(int8 not null)") is None  # INT8's 10-byte form: the row codec's
    assert arg("LIST(varchar(10) not null)") is None
    # the pure stride runs (arrowlists) keep to LIST/MULTISET of integers
    assert at._list_table(_col("SET(integer not null)"), ENC) is None
    assert at._list_table(_col("LIST(float not null)"), ENC) is None
    assert at._list_table(_col("MULTISET(integer not null)"), ENC) is not None


# ------------------------------------------------------------------------------------------
# The type-table check (docs/ARROW.md, "The type-table check"): a value's table is compared
# only where complextype.read_type_table reads it, since a value whose table differs goes to
# ComplexDecoder, which decodes it from what read_type_table gives.


def _read_offsets(table: bytes) -> set[int]:
    """The offsets of ``table`` that read_type_table reads (docs/PROTOCOL.md, "Binary value
    layout": header 136 bytes, entries of 414), written out from the layout, not from the C
    decoder: the entry count; per entry the parent and field-name length, the name's bytes up
    to that length, type, length, xid, the i16 0 after it (compared too, one word with its
    neighbours: a stricter check), the extended-name length and bytes, the owner's length and
    bytes, the source type."""
    def length(at_: int) -> int:
        return min(max(struct.unpack_from(">h", table, at_)[0], 0), 128)

    read = {134, 135}
    for e in range(136, len(table), 414):
        read |= set(range(e + 4, e + 8 + length(e + 6)))
        read |= set(range(e + 138, e + 150 + length(e + 148)))
        read |= set(range(e + 278, e + 280 + length(e + 278)))
        read |= set(range(e + 410, e + 414))
    return read


def _same_value(a: Any, b: Any) -> bool:
    return (type(a) is type(b) and list(a) == list(b)
            and getattr(a, "element_type", None) == getattr(b, "element_type", None))


@pytest.mark.parametrize(("text", "wire"), [
    ("LIST(integer not null)", "00000001 ffffffff 7fffffff"),
    ("MULTISET(bigint not null)", "0000010000000002"),
    ("SET(smallint not null)", "0005 fffd"),
    ("LIST(float not null)", "3ff8000000000000"),
])
def test_table_bytes_the_row_decoder_does_not_read_are_not_compared(text: str,
                                                                    wire: str) -> None:
    """Every byte of the value's type table flipped in turn: where read_type_table does not
    read (the header's first 134 bytes, seqno, level, fieldno, alignment, name padding), the
    C decoder still takes the value, with the same buffers, and the row decoder gives the
    same value as for the untouched table; where it reads, the C decoder refuses the run
    (the row decoder then decides). Failed before the check compared only those bytes (the
    whole table was compared, every flip refused)."""
    value = _value(text, bytes.fromhex(wire))
    table = write_type_table(parse_type_name(text), ENC)
    want = _decode(text, [value])
    row = decode_complex(value, 0, len(value))
    assert want is not None
    read = _read_offsets(table)
    assert len(read) == 2 + 2 * (4 + 12 + 2 + 4)  # unnamed root and element: 46 of 964 bytes
    for pos in range(len(table)):
        bad = bytearray(value)
        bad[4 + pos] ^= 0x5A
        got = _decode(text, [bytes(bad)])
        if pos in read:
            assert got is None, pos
        else:
            assert got == want, pos
            assert _same_value(decode_complex(bytes(bad), 0, len(bad)), row), pos


def test_named_entries_compare_their_names_up_to_their_lengths() -> None:
    """A table whose element carries a field name, an extended name and an owner (not one
    our columns produce, but the C decoder takes any table in its plan): their bytes up to
    each length are compared, their padding is not, and the row decoder agrees."""
    from ifxwire.types.complextype import ComplexType

    elem = ComplexType(_T.INTEGER, 4, notnull=True, field="ab", type_name="xyz", owner="own")
    table = write_type_table(ComplexType(_T.LIST, children=(elem,)), ENC)
    elements = bytes.fromhex("00000007 fffffff9")
    body = table + struct.pack(">iiI", 0, len(elements), 0) + elements
    value = struct.pack(">i", len(body)) + body
    plan = ((at.A_LIST, 4, at.LK_INT, table),)
    want = dec.decode(_tuple(value), 1, plan, 1, False)
    assert want is not None and want[0][2] == bytes.fromhex("07000000 f9ffffff")
    row = decode_complex(value, 0, len(value))
    read = _read_offsets(table)
    e = 136 + 414  # the element's entry: its three names are 2, 3 and 3 bytes long
    assert {e + 8, e + 9, e + 150, e + 152, e + 280, e + 282} <= read
    assert not {e + 10, e + 153, e + 283} & read
    for pos in range(len(table)):
        bad = bytearray(value)
        bad[4 + pos] ^= 0x5A
        got = dec.decode(_tuple(bytes(bad)), 1, plan, 1, False)
        if pos in read:
            assert got is None, pos
        else:
            assert got == want, pos
            assert _same_value(decode_complex(bytes(bad), 0, len(bad)), row), pos


def test_a_table_of_another_shape_is_compared_whole() -> None:
    """A plan table whose entry count does not match its length (no table our columns
    produce) is compared byte for byte: even its header padding refuses a value."""
    table = write_type_table(parse_type_name("LIST(integer not null)"), ENC) + b"\x00\x00"
    elements = bytes.fromhex("00000001")
    body = table + struct.pack(">iiI", 0, len(elements), 0) + elements
    value = struct.pack(">i", len(body)) + body
    plan = ((at.A_LIST, 4, at.LK_INT, table),)
    assert dec.decode(_tuple(value), 1, plan, 1, False) is not None
    bad = bytearray(value)
    bad[4 + 10] ^= 0x5A  # header padding: not read by read_type_table, compared here
    assert dec.decode(_tuple(bytes(bad)), 1, plan, 1, False) is None


# ------------------------------------------------------------------------------------------
# Columns.pump: the columnar fetch's receive loop in C (docs/ARROW.md, "Decoded where it
# lies"), over a real socket pair. What it leaves at ``start`` is what the reply parser reads.

PUMP_TEXT = "LIST(integer not null)"
#: an SQ_DONE-like message after the tuples: anything but 14 stops the pump
OTHER = bytes.fromhex("000f 0000 0000 0000 0000")


def _pump_values(n: int) -> list[bytes]:
    """n LIST values: k % 4 elements (0: empty), every 7th a NULL collection."""
    out = []
    for k in range(n):
        elements = b"".join(struct.pack(">i", k * 10 + j - 5) for j in range(k % 4))
        out.append(_value(PUMP_TEXT, elements, null=k % 7 == 3))
    return out


def _pump_columns() -> Any:
    cols = [_col(PUMP_TEXT)]
    plan = at.tuple_plan(cols, ENC, False)
    assert plan is not None
    return at.c_plan(plan, cols, ENC)


def _pump(stream_in_buffer: bytes, stream_on_socket: bytes, *, size: int = 4096,
          close: bool = False, budget: int = 1 << 30, limit: int = 1 << 20,
          min_free: int = 1024, timeout_ms: int = 2000) -> tuple[Any, tuple[Any, ...], bytes]:
    """Run one pump with ``stream_in_buffer`` already received (at offset 7 of the buffer:
    bytes before ``start`` are not the pump's) and the rest coming over a socket pair (in
    a thread, 1 to 997 bytes a send); returns the Columns, pump's answer, and the buffer."""
    import socket
    import threading

    cols = dec.Columns(_pump_columns(), 1, False)
    a, b = socket.socketpair()
    buf = bytearray(max(size, 7 + len(stream_in_buffer)))
    buf[7 : 7 + len(stream_in_buffer)] = stream_in_buffer

    def send() -> None:
        pos, step = 0, 1
        while pos < len(stream_on_socket):
            b.sendall(stream_on_socket[pos : pos + step])
            pos += step
            step = step * 7 % 997 + 1
        if close:
            b.close()

    th = threading.Thread(target=send)
    th.start()
    try:
        got = cols.pump(a.fileno(), buf, 7, 7 + len(stream_in_buffer), budget, limit, min_free,
                        timeout_ms)
    finally:
        th.join()
        a.close()
        if not close:
            b.close()
    return cols, got, bytes(buf)


def test_pump_decodes_a_stream_cut_at_any_byte() -> None:
    """Whatever part of the stream is already in the buffer, the pump receives the rest,
    decodes every tuple (elements, empty and NULL collections) as one ``decode`` of the
    whole run, and stops at the message after them (once its code is in), left in the
    buffer."""
    values = _pump_values(4)  # empty, 1 element, 2 elements, NULL
    run = b"".join(_tuple(v) for v in values)
    want = dec.decode(run, len(values), _pump_columns(), 1, False)
    assert want is not None and want[0][0] == 1 and want[0][3][-4:] == struct.pack("<i", 3)
    stream = run + OTHER
    for cut in range(len(stream) + 1):
        cols, (status, start, end, rows, nbytes, err), buf = _pump(stream[:cut], stream[cut:])
        assert (status, rows, nbytes, err) == (0, len(values), len(run), 0), cut
        # stopped at the other message's code: the parser waits for the rest of it itself
        assert end - start >= 2 and OTHER.startswith(buf[start:end]), cut
        assert cols.rows == len(values), cut
        assert cols.columns() == want, cut
        taken = cols.take()  # the same buffers, handed over (Blocks) instead of copied
        assert [tuple(x if x is None or isinstance(x, int) else bytes(x) for x in item)
                for item in taken] == want, cut


def test_pump_in_a_small_buffer_moves_the_unparsed_bytes_to_its_front() -> None:
    """A buffer of ~2 tuples: the pump compacts it (as Transport.room does) and goes on."""
    values = _pump_values(40)
    run = b"".join(_tuple(v) for v in values)
    cols, (status, start, end, rows, _n, _e), buf = _pump(b"", run + OTHER, size=2 * len(
        _tuple(values[0])) + 40, min_free=len(_tuple(values[0])))
    assert (status, rows) == (0, 40) and OTHER.startswith(buf[start:end])
    assert cols.columns() == dec.decode(run, 40, _pump_columns(), 1, False)


def test_pump_stops_before_a_refused_run_and_what_it_cannot_take() -> None:
    """A NULL element (refused: the row decoder decides), a tuple larger than the buffer,
    over the tuple limit, with a negative size, or past the budget: the pump stops at it,
    having fed the tuples before it, and leaves it for the reply parser."""
    good = [_tuple(v) for v in _pump_values(3)]
    bad = _tuple(_value(PUMP_TEXT, bytes.fromhex("00000001 80000000")))
    stream = good[0] + good[1] + bad + good[2]
    cols, (status, start, end, rows, nbytes, _e), buf = _pump(good[0], stream[len(good[0]):])
    # the run holding ``bad`` is refused whole (good[1] with it when one receive brought
    # both), as the reply parser's decode_tuples refuses it: it goes to the row decoder
    assert status == 0 and rows in (1, 2) and bad in buf[start:end]
    assert stream[nbytes:].startswith(buf[start:end])
    assert cols.rows == rows  # the refused run left no trace in the columns
    fed = b"".join(good[:rows])
    assert cols.columns() == dec.decode(fed, rows, _pump_columns(), 1, False)
    big = _tuple(_value(PUMP_TEXT, b"\x00\x00\x00\x01" * 2000))
    _c, (status, start, _end, rows, _n, _e), buf = _pump(good[0], big)
    assert (status, rows) == (0, 1) and buf[start:start + 8] == big[:8]
    _c, (status, start, _end, rows, _n, _e), buf = _pump(good[0] + good[1], b"",
                                                         limit=len(good[1]) - 9)
    assert (status, rows) == (0, 1) and buf[start:start + 8] == good[1][:8]
    negative = struct.pack(">Hhi", 14, 0, -8)
    _c, (status, start, _end, rows, _n, _e), buf = _pump(good[0] + negative, b"")
    assert (status, rows) == (0, 1) and buf[start:start + 8] == negative
    _c, (status, _s, _e2, rows, nbytes, _e), _b = _pump(b"".join(good), b"",
                                                        budget=len(good[0]) + len(good[1]))
    assert (status, rows, nbytes) == (0, 2, len(good[0]) + len(good[1]))


def test_pump_reports_the_end_of_the_stream_and_a_timeout() -> None:
    """The peer closing mid-tuple is P_EOF and silence P_TIMEOUT (Transport raises them as
    its own receive does); the tuples before are fed, the partial one is left."""
    good = [_tuple(v) for v in _pump_values(2)]
    cols, (status, start, end, rows, _n, _e), buf = _pump(good[0], good[1][:11], close=True)
    assert (status, rows, cols.rows) == (1, 1, 1) and buf[start:end] == good[1][:11]
    cols, (status, start, end, rows, _n, _e), buf = _pump(good[0], b"", timeout_ms=30)
    assert (status, rows) == (3, 1) and start == end


@pytest.mark.parametrize(("text", "null", "fmt"), [
    ("LIST(integer not null)", 0x80000000, ">{}i"),
    ("SET(smallfloat not null)", 0xFFFFFFFF, ">{}f")])
def test_four_byte_elements_in_blocks_and_tail(text: str, null: int, fmt: str) -> None:
    """The 4-byte elements are swapped four at a time (SSE2, arrow14) and the rest one by
    one: every length from 0 to 13 reads back exactly, and a NULL element at any position,
    in a block or in the tail, refuses the run."""
    for n in range(14):
        elems = [float(k) + 0.5 for k in range(n)] if "f" in fmt else \
            [(-1) ** k * (k * 100_003 + 7) for k in range(n)]
        got = _decode(text, [_value(text, struct.pack(fmt.format(n), *elems))])
        assert got is not None
        _nulls, _v, data, offsets = got[0]
        assert list(struct.unpack(f"<{n}{fmt[-1]}", data)) == sorted(elems) if "SET" in text \
            else list(struct.unpack(f"<{n}{fmt[-1]}", data)) == elems
        assert offsets == struct.pack("<2i", 0, n)
        for k in range(n):
            words = [struct.pack(fmt.format(1), e) for e in elems]
            words[k] = struct.pack(">I", null)
            assert _decode(text, [_value(text, b"".join(words))]) is None, (n, k)
