"""The C column decoder (ifxwire._arrowdec) on crafted SQ_TUPLE runs, against the row codecs.

The integration tests (test_arrow_tuples.py) compare with fetchall over the real server; these
cover what a server does not send: every DECIMAL and DATETIME encoding of random values
compared with the driver's own scalar decoders, and the runs the C decoder must refuse (so
that the row decoder gives the exact error): bytes not in the code set, a BOOLEAN byte out of
range, a tuple whose columns do not add up to its size, a DECIMAL wider than its precision.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import struct
from decimal import Decimal
from typing import Any

import pytest

from ifxwire import arrowtuples as at
from ifxwire.protocol.codes import TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types import numeric as num
from ifxwire.types import temporal as tmp

pa = pytest.importorskip("pyarrow")
dec = at._arrowdec
pytestmark = pytest.mark.skipif(dec is None, reason="the C column decoder is not built")

_T = TypeCode


def _tuple(payload: bytes) -> bytes:
    return struct.pack(">HhI", 14, 0, len(payload)) + payload + b"\x00" * (len(payload) & 1)


def _run(payloads: list[bytes]) -> bytes:
    return b"".join(_tuple(p) for p in payloads)


def _c_plan(cols: list[ColumnDesc], encoding: str = "iso-8859-1") -> tuple[Any, ...]:
    plan = at.tuple_plan(cols, encoding, False)
    assert plan is not None
    return tuple((k, w, a) for k, w, a, _, _ in plan)


def test_tuple_run_counts_complete_tuples_only() -> None:
    run = _run([b"\x00\x00\x00\x01", b"\x00" * 3, b""])
    buf = run + b"\x00\x0e\x00\x00\x00\x00\x00\x09abc"  # a partial tuple stays for later
    assert dec.tuple_run(buf, 0, len(buf)) == (len(run), 3)
    assert dec.tuple_run(b"\x00\x0f" + run, 0, len(run) + 2) == (0, 0)


def test_decimals_equal_the_row_codec() -> None:
    rnd = random.Random(25)
    for p, s in [(10, 2), (8, 2), (32, 6), (5, 0), (1, 0), (16, 16), (31, 30), (18, 4)]:
        enclen = (p << 8) | s
        col = ColumnDesc("d", _T.DECIMAL, enclen)
        values: list[Decimal | None] = [None, Decimal(0)]
        for _ in range(300):
            digits = rnd.randint(1, p)
            v = Decimal(rnd.randrange(10**digits)).scaleb(-min(s, digits) if s else 0)
            values.append(-v if rnd.random() < 0.5 else v)
        payloads = [num.encode_decimal(v, enclen) for v in values]
        got = dec.decode(_run(payloads), len(payloads), _c_plan([col]), 1, False)
        nulls, validity, data, _offsets = got[0]
        arr = pa.Array.from_buffers(pa.decimal128(p, s), len(payloads),
                                    [pa.py_buffer(validity) if validity else None,
                                     pa.py_buffer(data)], null_count=nulls)
        want = [num.decode_decimal(pl, 0, len(pl), s) for pl in payloads]
        assert arr.to_pylist() == want, (p, s)


def test_floating_decimals_equal_float_of_the_row_codec() -> None:
    rnd = random.Random(26)
    enclen = (15 << 8) | 255
    col = ColumnDesc("d", _T.DECIMAL, enclen)
    values = [Decimal(rnd.randrange(-10**15, 10**15)).scaleb(rnd.randint(-110, 100))
              for _ in range(300)] + [None, Decimal("1e-130"), Decimal(0)]
    payloads = [num.encode_decimal(v, enclen) for v in values]
    nulls, validity, data, _ = dec.decode(_run(payloads), len(payloads), _c_plan([col]), 1,
                                          False)[0]
    got = pa.Array.from_buffers(pa.float64(), len(payloads),
                                [pa.py_buffer(validity) if validity else None,
                                 pa.py_buffer(data)], null_count=nulls).to_pylist()
    want = [None if (d := num.decode_decimal(pl, 0, len(pl), 255)) is None else float(d)
            for pl in payloads]
    assert got == want


@pytest.mark.parametrize(("end", "unit"), [
    (tmp._DAY, "date32"), (tmp._HOUR, "s"), (tmp._MINUTE, "s"), (tmp._SECOND, "s"),
    (tmp._SECOND + 1, "ms"), (tmp._SECOND + 3, "ms"), (tmp._SECOND + 4, "us"),
    (tmp._SECOND + 5, "us"),
])
def test_datetimes_equal_the_row_codec(end: int, unit: str) -> None:
    rnd = random.Random(end)
    q = tmp.datetime_qualifier(tmp._YEAR, end)
    col = ColumnDesc("t", _T.DATETIME, q)
    values: list[Any] = [None, dt.datetime(1, 1, 1), dt.datetime(9999, 12, 31, 23, 59, 59, 999999)]
    values += [dt.datetime(1, 1, 1) + dt.timedelta(microseconds=rnd.randrange(315_537_897_600
                                                                              * 10**6))
               for _ in range(300)]
    payloads = [tmp.encode_datetime(v, q) for v in values]
    nulls, validity, data, _ = dec.decode(_run(payloads), len(payloads), _c_plan([col]), 1,
                                          False)[0]
    t = pa.date32() if unit == "date32" else pa.timestamp(unit)
    got = pa.Array.from_buffers(t, len(payloads), [pa.py_buffer(validity) if validity else None,
                                                   pa.py_buffer(data)], null_count=nulls)
    decode = tmp.datetime_decoder(q)
    assert got.to_pylist() == [decode(pl, 0) for pl in payloads]


def _one(cols: list[ColumnDesc], payload: bytes, encoding: str = "iso-8859-1") -> Any:
    enc = at.enc_kind(encoding)
    return dec.decode(_run([payload]), 1, _c_plan(cols, encoding), enc, False)


def test_refused_runs_are_left_to_the_row_decoder() -> None:
    varchar = ColumnDesc("v", _T.VARCHAR, 20)
    assert _one([varchar], b"\x02\xc3\xa9", "utf-8")[0][2] == "é".encode()
    assert _one([varchar], b"\x02\xc3\x28", "utf-8") is None  # not UTF-8
    assert _one([varchar], b"\x01\xe9", "ascii") is None  # not ASCII
    assert _one([varchar], b"\x01\xe9")[0][2] == "é".encode()  # Latin-1 transcoded
    assert _one([varchar], b"\x03ab") is None  # the length runs past the tuple
    assert _one([varchar], b"\x01ab") is None  # columns end before the tuple does
    boolean = ColumnDesc("b", _T.BOOLEAN, 1)
    assert _one([boolean], b"\x00\x00\x00\x00\x01\x07") is None  # not a BOOLEAN byte
    small = ColumnDesc("d", _T.DECIMAL, (3 << 8) | 0)
    assert _one([small], num.encode_decimal(Decimal(999), (3 << 8) | 0)) is not None
    # 1000 in DECIMAL(3,0)'s bytes: more digits than the precision (pyarrow refuses it too)
    assert _one([small], num.encode_decimal(Decimal(1000), (4 << 8) | 0)[: len(
        num.encode_decimal(Decimal(999), (3 << 8) | 0))]) is None
    date_time = ColumnDesc("t", _T.DATETIME, tmp.datetime_qualifier(tmp._YEAR, tmp._DAY))
    assert _one([date_time], bytes([0xC7, 20, 24, 2, 30])) is None  # February 30th


def test_other_code_sets_decode_text_in_python() -> None:
    plan = at.tuple_plan([ColumnDesc("v", _T.VARCHAR, 20)], "cp1252", False)
    assert plan is not None and plan[0][0] == at.A_RAW


def test_pure_walker_skips_and_reports_a_bad_row_as_the_row_decoder_does() -> None:
    from ifxwire.types.rowcodec import build_row_decoder

    cols = (ColumnDesc("k", _T.INTEGER, 4), ColumnDesc("v", _T.VARCHAR, 20))
    good = [struct.pack(">i", i) + bytes([len(str(i))]) + str(i).encode() for i in range(3)]
    bad = struct.pack(">i", 9) + b"\x05ab"  # the VARCHAR says 5 bytes, the tuple holds 2
    buf = _run([good[0], bad, good[1], good[2]]) + b"\x00\x0c"  # then another message
    runs = at.ColumnRuns(at.column_walker(cols, "iso-8859-1", False), 2)
    got: list[Any] = []
    pos, err = runs.decode_tuples(buf, 0, len(buf), got)
    assert pos == len(buf) - 2 and len(got) == 1
    assert got[0].ntuples == 3 and got[0].columns == [[0, 1, 2], ["0", "1", "2"]]
    rows: list[Any] = []
    row_pos, row_err = build_row_decoder(list(cols), "iso-8859-1").decode_tuples(
        buf, 0, len(buf), rows)
    assert row_pos == pos and rows == [(0, "0"), (1, "1"), (2, "2")]
    assert type(err) is type(row_err) and str(err) == str(row_err)


def test_pure_walker_hands_decimals_and_dates_over_as_arrow_integers() -> None:
    """The pure walker is fetchall's own tuple loop appending to columns (issue 25: it cost
    ~1.9x fetchall when it built a Decimal per value for pyarrow to convert): DECIMAL(p <= 18)
    comes out unscaled and DATE as days from 1970, inline or redone by decode_row (negative,
    NULL, out of range), and column_batch gives exactly the row decoder's values."""
    from ifxwire.types.rowcodec import build_row_decoder

    cols = (ColumnDesc("d", _T.DECIMAL, (12 << 8) | 2), ColumnDesc("day", _T.DATE, 4),
            ColumnDesc("v", _T.VARCHAR, 20), ColumnDesc("w", _T.DECIMAL, (20 << 8) | 3))
    values = [(Decimal("12.34"), 0, "a", Decimal("1.5")), (Decimal("-0.05"), -693594, "", None),
              (None, -2**31, "b", Decimal("-12345678901234567.891")),
              (Decimal("9999999999.99"), 2958464, "c", Decimal(0))]
    payloads = [num.encode_decimal(d, (12 << 8) | 2) + struct.pack(">i", day)
                + bytes([len(v)]) + v.encode()
                + num.encode_decimal(w, (20 << 8) | 3) for d, day, v, w in values]
    buf = _run(payloads)
    walk = at.column_walker(cols, "iso-8859-1", False)
    out: list[list[Any]] = [[] for _ in cols]
    assert walk(buf, 0, len(buf), out)[1:] == (4, None)
    assert out[0] == [1234, -5, None, 999999999999]  # unscaled, no Decimal made
    assert out[1][0] == (dt.date(1899, 12, 31) - dt.date(1970, 1, 1)).days
    assert all(type(v) is int for v in out[1][:2])
    assert walk.raw == {0: (at.RAW_DECIMAL, 2), 1: (at.RAW_DATE, 0)}  # type: ignore[attr-defined]
    from ifxwire import arrow as ifx_arrow

    plan = ifx_arrow._Plan(pa, list(cols))
    batch = at.column_batch(pa, plan.schema, plan.converters,
                            [at.ColumnRun(out, 4)], walk.raw)  # type: ignore[attr-defined]
    decode = build_row_decoder(list(cols), "iso-8859-1")
    want = [decode(buf, pos + 8, len(p))
            for pos, p in zip(_offsets(payloads), payloads, strict=True)]
    assert [tuple(r.values()) for r in batch.to_pylist()] == want


def _offsets(payloads: list[bytes]) -> list[int]:
    out, pos = [], 0
    for p in payloads:
        out.append(pos)
        pos += 8 + len(p) + (len(p) & 1)
    return out


# --- A_LIST: LIST/MULTISET of SMALLINT/INTEGER/BIGINT as Arrow list arrays (issue 25/13) ---


def _list_col(text: str, code: int = _T.LIST) -> ColumnDesc:
    return ColumnDesc("l", code, 0, type_name=text)


def _list_value(text: str, value: Any) -> bytes:
    from ifxwire.types.complextype import parse_type_name
    from ifxwire.types.composite import encode_complex

    return encode_complex(parse_type_name(text), value)


@pytest.mark.parametrize(("text", "code", "width"), [
    ("LIST(integer not null)", _T.LIST, 4), ("MULTISET(bigint not null)", _T.MULTISET, 8),
    ("LIST(smallint not null)", _T.LIST, 2), ("LIST(integer)", _T.LIST, 4)])
def test_integer_collections_decode_as_the_row_codec(text: str, code: int, width: int) -> None:
    """Offsets, elements and NULL lists from the C decoder equal the row codec's values."""
    from ifxwire.types.composite import decode_complex

    col = _list_col(text, code)
    plan = at.tuple_plan([col, ColumnDesc("k", _T.INTEGER, 4)], "iso-8859-1", False)
    assert plan is not None and plan[0][0] == at.A_LIST and plan[0][1] == width
    top = (1 << (8 * width - 1)) - 1
    values = [[1, 2, 3], [], None, [top, -top, 0] * 7, [5]]
    payloads = [_list_value(text, v) + struct.pack(">i", k) for k, v in enumerate(values)]
    got = dec.decode(_run(payloads), len(payloads), at.c_plan(plan, [col, col], "iso-8859-1"),
                     1, False)
    assert got is not None
    nulls, validity, data, offsets = got[0]
    ints = struct.unpack(f"<{len(data) // width}{'hiq'[width // 4]}", data)
    ends = struct.unpack(f"<{len(values) + 1}i", offsets)
    rows = [None if validity and not validity[0] >> k & 1 else list(ints[ends[k]:ends[k + 1]])
            for k in range(len(values))]
    want = [decode_complex(p, 0, len(p) - 4) for p in payloads]
    assert rows == [None if w is None else list(w) for w in want] == values
    assert nulls == 1


def test_integer_collections_left_to_the_row_decoder() -> None:
    """A NULL element, another type table, a size that is not whole elements: refused."""
    col = _list_col("LIST(integer)")
    plan = at.tuple_plan([col], "iso-8859-1", False)
    assert plan is not None
    c_plan = at.c_plan(plan, [col], "iso-8859-1")
    good = _list_value("LIST(integer)", [1, 2])
    assert dec.decode(_run([good]), 1, c_plan, 1, False) is not None
    with_null = good[:-4] + struct.pack(">I", 0x80000000)  # INTEGER's NULL as an element
    assert dec.decode(_run([with_null]), 1, c_plan, 1, False) is None
    other = _list_value("LIST(bigint)", [1, 2])
    assert dec.decode(_run([other]), 1, c_plan, 1, False) is None
    ragged = bytearray(good)
    ragged[-16:-12] = struct.pack(">i", 7)  # the data size: 7 bytes of 4-byte elements
    assert dec.decode(_run([bytes(ragged)]), 1, c_plan, 1, False) is None
    # SET is decoded too, its elements sorted (test_arrow_collections.py)
    set_plan = at.tuple_plan([_list_col("SET(integer not null)", _T.SET)], "iso-8859-1", False)
    assert set_plan is not None and set_plan[0][0] == at.A_LIST
    assert set_plan[0][2] == at.LK_INT | at.LK_SET


def test_runs_in_several_buffers_decode_as_their_join() -> None:
    """A reply received in several recvs: its runs are read in turn, never joined (a copy of
    every byte); a tuple cut between two buffers is refused."""
    cols = [ColumnDesc("k", _T.INTEGER, 4), ColumnDesc("v", _T.VARCHAR, 20),
            _list_col("LIST(integer not null)")]
    plan = at.tuple_plan(cols, "iso-8859-1", False)
    assert plan is not None
    c_plan = at.c_plan(plan, cols, "iso-8859-1")
    payloads = [struct.pack(">i", k) + bytes([k % 5]) + b"x" * (k % 5)
                + _list_value("LIST(integer not null)", list(range(k % 4)))
                for k in range(9)]
    runs = [_tuple(p) for p in payloads]
    joined = dec.decode(b"".join(runs), 9, c_plan, 1, False)
    assert joined is not None
    parts = [b"".join(runs[:2]), b"", b"".join(runs[2:7]), b"".join(runs[7:]), b""]
    assert dec.decode(parts, 9, c_plan, 1, False) == joined
    whole = b"".join(runs)
    cut = len(runs[0]) + 5
    assert dec.decode([whole[:cut], whole[cut:]], 9, c_plan, 1, False) is None
    assert dec.decode(parts, 8, c_plan, 1, False) is None  # bytes left over


# --- Columns: runs fed where they lie in the receive buffer (no copy) -----------------------


def _fed_cols() -> tuple[list[ColumnDesc], tuple[Any, ...]]:
    cols = [ColumnDesc("k", _T.INTEGER, 4), ColumnDesc("v", _T.VARCHAR, 20),
            ColumnDesc("b", _T.BOOLEAN, 1), ColumnDesc("d", _T.DECIMAL, (10 << 8) | 2),
            _list_col("LIST(integer not null)")]
    plan = at.tuple_plan(cols, "iso-8859-1", False)
    assert plan is not None and plan[-1][0] == at.A_LIST
    return cols, at.c_plan(plan, cols, "iso-8859-1")


def _fed_row(k: int) -> bytes:
    """A row of _fed_cols: NULLs in every column now and then, lists of 0 to 11 elements."""
    bool_item = b"\x01\x00\x00\x00\x01\x00" if k % 7 == 3 else (
        b"\x00\x00\x00\x00\x01" + (b"t" if k % 2 else b"f"))
    return (struct.pack(">i", k if k % 5 else -2**31)
            + (bytes([1, 0]) if k % 6 == 1 else bytes([k % 4]) + b"xyz"[: k % 4])
            + bool_item
            + num.encode_decimal(None if k % 9 == 4 else Decimal(k) / 8, (10 << 8) | 2)
            + _list_value("LIST(integer not null)", None if k % 8 == 5 else list(range(k % 12))))


def test_columns_fed_run_by_run_equal_one_decode() -> None:
    """Runs fed one by one from a buffer with other bytes around them (as the receive buffer
    holds them) give exactly the buffers decode() gives for their join."""
    _, c_plan = _fed_cols()
    payloads = [_fed_row(k) for k in range(300)]
    want = dec.decode(_run(payloads), len(payloads), c_plan, 1, False)
    assert want is not None and want[0][0] > 0 and want[-1][0] > 0  # NULLs in INTEGER, LIST
    for cuts in ([0, 300], [0, 1, 2, 70, 71, 300], [0, 150, 299, 300],
                 [*range(0, 300, 13), 300]):
        cols = dec.Columns(c_plan, 1, False)
        for lo, hi in itertools.pairwise(cuts):
            run = _run(payloads[lo:hi])
            buf = bytearray(b"\xee" * 11 + run + b"\x00\x0e\x00")  # junk around the run
            assert cols.feed(buf, 11, 11 + len(run), hi - lo) is True
        assert cols.rows == 300
        assert cols.columns() == want


def _as_bytes(cols: list[Any]) -> list[tuple[Any, ...]]:
    return [tuple(x if x is None or isinstance(x, int) else bytes(x) for x in item)
            for item in cols]


def test_columns_take_hands_over_the_buffers_without_a_copy() -> None:
    """take() gives the buffers columns() copies (NULLs in every column, text, BOOLEAN bits,
    list elements and offsets), as read-only Blocks that own the memory: they outlive the
    Columns, pyarrow wraps them where they are, and the spent Columns refuses more rows
    (feed, pump) while take()/columns() give the same Blocks again."""
    _, c_plan = _fed_cols()
    payloads = [_fed_row(k) for k in range(300)]
    run = _run(payloads)
    want = dec.decode(run, len(payloads), c_plan, 1, False)
    assert want is not None and all(item[1] is not None for item in want)  # NULLs everywhere
    for cuts in ([0, 300], [0, 1, 2, 299, 300]):
        cols = dec.Columns(c_plan, 1, False)
        for lo, hi in itertools.pairwise(cuts):
            part = _run(payloads[lo:hi])
            assert cols.feed(part, 0, len(part), hi - lo)
            if lo == 1:  # a value of another type table between: refused, no trace
                other = _list_value("LIST(bigint not null)", [7])
                bad = _run([_fed_row(1)[: -len(_list_value("LIST(integer not null)", [0]))]
                            + other])
                assert cols.feed(bad, 0, len(bad), 1) is False
        taken = cols.take()
        assert _as_bytes(taken) == want
        assert cols.take() is taken and cols.columns() is taken
        for item in taken:
            for block in item[1:]:
                if block is not None:
                    assert type(block) is dec.Block and memoryview(block).readonly
        with pytest.raises(ValueError):
            cols.feed(part, 0, len(part), hi - lo)
        with pytest.raises(ValueError):
            cols.pump(0, bytearray(16), 0, 0, 1 << 20, 1 << 20, 8, 1)
        del cols
        assert _as_bytes(taken) == want  # the Blocks own what they hold
        nulls, validity, data, offsets = taken[-1]  # the LIST column
        elems = pa.Array.from_buffers(pa.int32(), len(data) // 4, [None, pa.py_buffer(data)])
        arr = pa.Array.from_buffers(pa.list_(pa.int32()), 300,
                                    [pa.py_buffer(validity), pa.py_buffer(offsets)],
                                    null_count=nulls, children=[elems])
        assert arr.offsets.buffers()[1].address == pa.py_buffer(offsets).address
        assert arr.values.buffers()[1].address == pa.py_buffer(data).address
        del taken, data, validity, offsets
        assert arr.to_pylist()[:6] == [[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3], None]
    empty = dec.Columns(c_plan, 1, False)
    assert _as_bytes(empty.take()) == dec.decode(b"", 0, c_plan, 1, False)


def test_columns_in_use_by_a_pump_cannot_be_taken() -> None:
    """While a pump waits for bytes without the GIL (holding the columns' buffers), another
    thread's take() or feed() is refused (ValueError) instead of freeing or growing what the
    pump writes into; once the pump has returned, take() works."""
    import socket
    import threading
    import time

    _, c_plan = _fed_cols()
    run = _run([_fed_row(k) for k in range(5)])
    cols = dec.Columns(c_plan, 1, False)
    assert cols.feed(run, 0, len(run), 5)
    a, b = socket.socketpair()
    got: list[Any] = []
    th = threading.Thread(target=lambda: got.append(
        cols.pump(a.fileno(), bytearray(4096), 0, 0, 1 << 20, 1 << 20, 512, 5000)))
    th.start()
    try:
        time.sleep(0.2)  # the pump is in poll(2) by now (nothing was sent)
        assert th.is_alive()
        with pytest.raises(ValueError, match="in use"):
            cols.take()
        with pytest.raises(ValueError, match="in use"):
            cols.feed(run, 0, len(run), 5)
    finally:
        b.close()
        th.join()
        a.close()
    assert got and got[0][0] == 1  # P_EOF: the peer closed
    assert _as_bytes(cols.take()) == dec.decode(run, 5, c_plan, 1, False)


def test_columns_batch_is_made_of_the_columns_own_buffers() -> None:
    """The record batch of a Columns (fetch_arrow_table's one batch) wraps the buffers the
    decoder wrote: the batch's buffers are the Blocks take() handed over, not copies."""
    cols_desc, c_plan = _fed_cols()
    plan = at.tuple_plan(cols_desc, "iso-8859-1", False)
    assert plan is not None
    payloads = [_fed_row(k) for k in range(50)]
    run = _run(payloads)
    cols = dec.Columns(c_plan, 1, False)
    assert cols.feed(run, 0, len(run), 50)
    batch = at.columns_batch(pa, _fed_schema(plan, cols_desc), plan, [None] * 5, cols)
    blocks = cols.take()  # the same Blocks again
    k_col, list_col = batch.column(0), batch.column(4)
    assert k_col.buffers()[1].address == pa.py_buffer(blocks[0][2]).address
    assert list_col.values.buffers()[1].address == pa.py_buffer(blocks[4][2]).address
    assert batch.column(0).to_pylist()[:6] == [None, 1, 2, 3, 4, None]
    assert list_col.to_pylist()[13:15] == [None, [0, 1]]


def test_columns_refused_run_leaves_no_trace() -> None:
    """A run the decoder refuses (here: a LIST value whose type table differs from the
    column's by one byte, or a NULL element) returns False and keeps nothing of itself (no
    NULL count, validity bit, BOOLEAN bit, string or element bytes): the rows fed before and
    after it decode as if it had never been fed, and the row decoder gets it whole."""
    _, c_plan = _fed_cols()
    good = [_fed_row(k) for k in range(40)]
    table = c_plan[-1][3]
    bad_table = bytearray(_fed_row(5 * 8 + 1))  # a list value, NULLs in other columns
    at_list = len(bad_table) - len(_list_value("LIST(integer not null)", list(range(41 % 12))))
    table_at = at_list + 4
    assert bytes(bad_table[table_at:table_at + len(table)]) == table  # the golden table
    # the element entry's type word (136 + 414 + 138, low byte): INTEGER (2) becomes FLOAT
    # (3), a byte the row decoder reads (a byte it does not read would not refuse the run:
    # test_arrowdec_collections.py, "The type-table check")
    bad_table[table_at + 136 + 414 + 139] ^= 0x01
    bad_null = bytearray(_fed_row(23))  # 11 elements, the last one INTEGER's NULL
    bad_null[-4:] = b"\x80\x00\x00\x00"
    for bad in (bytes(bad_table), bytes(bad_null)):
        # the bad row comes after rows with NULLs, a true BOOLEAN, text and list elements
        refused = [_fed_row(k) for k in range(100, 107)] + [bad]
        cols = dec.Columns(c_plan, 1, False)
        assert cols.feed(_run(good[:25]), 0, len(_run(good[:25])), 25)
        assert cols.feed(_run(refused), 0, len(_run(refused)), len(refused)) is False
        assert cols.rows == 25
        rest = _run(good[25:])
        assert cols.feed(rest, 0, len(rest), 15)
        assert cols.columns() == dec.decode(_run(good), 40, c_plan, 1, False)
        assert dec.decode(_run([bad]), 1, c_plan, 1, False) is None  # the row decoder's


def test_columns_refuse_what_decode_refuses() -> None:
    """feed() checks what decode() checks: a bad framing, a count that does not match, a
    position outside the buffer (ValueError), A_RAW columns (ValueError)."""
    _, c_plan = _fed_cols()
    run = _run([_fed_row(k) for k in range(3)])
    cols = dec.Columns(c_plan, 1, False)
    assert cols.feed(run, 0, len(run), 2) is False  # bytes left over
    assert cols.feed(run, 0, len(run) - 1, 3) is False  # a tuple cut short
    assert cols.rows == 0 and cols.columns() == dec.decode(b"", 0, c_plan, 1, False)
    with pytest.raises(ValueError):
        cols.feed(run, 0, len(run) + 1, 3)
    set_col = _list_col("SET(varchar(10) not null)", _T.SET)  # left to the row codec
    raw = at.tuple_plan([set_col], "iso-8859-1", False)
    assert raw is not None and raw[0][0] == at.A_RAW
    with pytest.raises(ValueError):
        dec.Columns(at.c_plan(raw, [set_col], "iso-8859-1"), 1, False)
    assert at.TupleRuns(at.c_plan(raw, [set_col], "iso-8859-1"), 1, False).new_columns is None


def test_tuple_runs_feed_in_order_around_a_refused_run() -> None:
    """The reply loop's view: runs fed into one Columns per stretch, a refused run kept as a
    copy between them (new Columns after it), so the batches come out in row order."""
    cols_desc, c_plan = _fed_cols()
    plan = at.tuple_plan(cols_desc, "iso-8859-1", False)
    assert plan is not None
    raw = at.TupleRuns(c_plan, 1, False)
    other = _list_value("LIST(bigint not null)", [7])
    bad = _fed_row(1)[: -len(_list_value("LIST(integer not null)", [0]))] + other
    parts = [[_fed_row(k) for k in range(0, 10)], [_fed_row(k) for k in range(10, 20)], [bad],
             [_fed_row(k) for k in range(21, 30)]]
    rows: list[Any] = []
    for payloads in parts:
        buf = bytearray(_run(payloads))
        assert raw.decode_tuples(buf, 0, len(buf), rows) == (len(buf), None)
    assert [type(r).__name__ for r in rows] == ["FedRun", "TupleRun", "FedRun"]
    assert [r.ntuples for r in rows] == [20, 1, 9]
    assert rows[0].cols is not rows[2].cols and raw.cols is rows[2].cols

    def by_rows(runs: list[at.TupleRun]) -> Any:
        return pa.record_batch([pa.array([-1] * sum(r.ntuples for r in runs), pa.int32())],
                               names=["k"])

    schema = pa.schema([pa.field(f.name, f.type) for f in _fed_schema(plan, cols_desc)])
    still_open = at.fed_batches(pa, schema, plan, [None] * 5, rows, raw.cols, by_rows)
    assert [b.num_rows for b in still_open] == [20, 1]  # the open Columns wait for more
    assert raw.close() is rows[2].cols and raw.cols is None
    done = at.fed_batches(pa, schema, plan, [None] * 5, rows, None, by_rows)
    assert [b.num_rows for b in done] == [20, 1, 9]
    assert done[0].column(0).to_pylist()[:6] == [None, 1, 2, 3, 4, None]
    assert done[2].column(0).to_pylist()[0] == 21


def test_columns_left_open_by_a_reply_come_before_a_refused_run_of_the_next() -> None:
    """fetch_arrow_table keeps the Columns open across replies; when the next reply's first
    run is refused, the open Columns is closed with no FedRun of that reply: its rows (the
    previous reply's) must still come out, before the refused run's."""
    cols_desc, c_plan = _fed_cols()
    plan = at.tuple_plan(cols_desc, "iso-8859-1", False)
    assert plan is not None
    raw = at.TupleRuns(c_plan, 1, False)
    schema = _fed_schema(plan, cols_desc)

    def by_rows(runs: list[at.TupleRun]) -> Any:
        return pa.record_batch([pa.array([-1] * sum(r.ntuples for r in runs), pa.int32())],
                               names=["k"])

    first: list[Any] = []
    buf = bytearray(_run([_fed_row(k) for k in range(1, 11)]))
    raw.decode_tuples(buf, 0, len(buf), first)
    assert at.fed_batches(pa, schema, plan, [None] * 5, first, raw.cols, by_rows) == []
    pending = raw.cols
    second: list[Any] = []
    bad = bytearray(_run([_fed_row(1)[:-4] + b"\x80\x00\x00\x00"]))  # a NULL element
    raw.decode_tuples(bad, 0, len(bad), second)
    good = bytearray(_run([_fed_row(k) for k in range(12, 15)]))
    raw.decode_tuples(good, 0, len(good), second)
    assert [type(r).__name__ for r in second] == ["TupleRun", "FedRun"]
    got = at.fed_batches(pa, schema, plan, [None] * 5, second, raw.cols, by_rows, pending)
    assert [b.num_rows for b in got] == [10, 1]
    assert got[0].column(0).to_pylist() == [1, 2, 3, 4, None, 6, 7, 8, 9, None]
    assert got[1].column(0).to_pylist() == [-1]


def _fed_schema(plan: Any, cols: list[ColumnDesc]) -> Any:
    from ifxwire import arrow

    return arrow._Plan(pa, cols).schema
