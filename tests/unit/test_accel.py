"""The optional C accelerator: same rows, same errors as the generated Python decoders.

The equivalence tests build both decoders for one shape (the C one through
``_accel.c_row_decoder``, which ignores IFXWIRE_PURE) and compare them on rows the server's
encoder produced, on those rows damaged, and on random bytes. They are skipped when the
extension is not built; the switch tests run everywhere.
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ifxwire
from ifxwire import _accel
from ifxwire.protocol.codes import TYPE_DISTINCT, Msg
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.complextype import parse_type_name
from ifxwire.types.compositevalues import List, Multiset, Row, Set
from ifxwire.types.errors import CodecDataError, CodecError
from ifxwire.types.numeric import decimal_width
from ifxwire.types.rowcodec import build_row_decoder, build_row_encoder, describe_column

needs_c = pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")
accel_settings = settings(max_examples=300, deadline=None)

Decoder = Callable[[Any, int, int], tuple[Any, ...]]


def both(
    cols: list[ColumnDesc], encoding: str = "iso-8859-1", keep: bool = False
) -> tuple[Decoder, Decoder]:
    """(pure, C) decoders for one shape."""
    built = build_row_decoder(cols, encoding, keep_char_padding=keep)
    pure: Decoder = getattr(built, "pure", built)
    fast = _accel.c_row_decoder(pure, cols, encoding, keep)
    assert fast is not None
    return pure, fast


def outcome(decode: Decoder, buf: Any, off: int, size: int) -> tuple[str, Any]:
    """What a decoder did, comparable across decoders (NaN-safe: types and reprs)."""
    try:
        row = decode(buf, off, size)
    except Exception as exc:
        return "error", (type(exc), str(exc))
    return "row", [(type(v), repr(v)) for v in row]


# ------------------------------------------------------------------------------ column kinds

I16 = st.integers(-32767, 32767)
I32 = st.integers(-(2**31) + 1, 2**31 - 1)
I64 = st.integers(-(2**63) + 1, 2**63 - 1)
BOUND_FLOATS = st.sampled_from([0.0, -0.0, 1e308, -1e-308, 5e-324, float("inf"), float("-inf")])


def texts(max_bytes: int) -> st.SearchStrategy[str]:
    return st.text(st.characters(max_codepoint=0x2FF), max_size=max_bytes)


KINDS: list[tuple[ColumnDesc, st.SearchStrategy[Any]]] = [
    (ColumnDesc("si", 1, 2), I16 | st.sampled_from([-32767, 32767, 0])),
    (ColumnDesc("i", 2, 4), I32 | st.sampled_from([-(2**31) + 1, 2**31 - 1])),
    (ColumnDesc("ser", 6, 4), I32),
    (ColumnDesc("bi", 52, 8), I64 | st.sampled_from([-(2**63) + 1, 2**63 - 1])),
    (ColumnDesc("bs", 53, 8), I64),
    (ColumnDesc("i8", 17, 10), I64 | st.sampled_from([-(2**63) + 1, 2**63 - 1, 2**32, -(2**32)])),
    (ColumnDesc("s8", 18, 10), I64),
    (ColumnDesc("f", 3, 8), st.floats(allow_nan=False) | BOUND_FLOATS),
    (ColumnDesc("sf", 4, 4), st.floats(width=32, allow_nan=False)),
    (ColumnDesc("d", 7, 4), st.dates() | st.sampled_from([date.min, date.max, date(1899, 12, 31)])),
    (ColumnDesc("c", 0, 12), texts(6)),
    (ColumnDesc("nc", 15, 3), texts(3)),
    (ColumnDesc("v", 13, 64), texts(40)),
    (ColumnDesc("nv", 16, 255), texts(120)),
    (describe_column("lv", 43, 2048), texts(300)),
    (describe_column("b", 45, 1), st.booleans()),
    (ColumnDesc("dec", 5, 0x1004), st.decimals(places=4, allow_nan=False, allow_infinity=False)),
    (ColumnDesc("flt", 5, 0x10FF), st.decimals(allow_nan=False, allow_infinity=False)),
    (ColumnDesc("m", 8, 0x0802), st.decimals(-999999, 999999, places=2)),
    (
        ColumnDesc("ts", 10, 0x110D),
        st.datetimes(datetime(1, 1, 1), datetime(9999, 12, 31)).map(
            lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000)
        ),
    ),
    (
        ColumnDesc("iv", 14, 0x094A),
        st.integers(-999 * 86400, 999 * 86400).map(lambda s: timedelta(seconds=s)),
    ),
    (ColumnDesc("byte", 11, 56), st.binary(min_size=56, max_size=56)),
    (ColumnDesc("text", 12, 56), st.binary(min_size=56, max_size=56)),
    # With long row ids (bit 70) BYTE/TEXT descriptors are 68 bytes.
    (ColumnDesc("lbyte", 11, 68), st.binary(min_size=68, max_size=68)),
    (ColumnDesc("ltext", 12, 68), st.binary(min_size=68, max_size=68)),
    (ColumnDesc("blob", 41, 72, xid=10, type_name="blob"), st.binary(max_size=40)),
    (ColumnDesc("dist", 2 | TYPE_DISTINCT, 4, source_type=2), I32),
    # ROW/collections: C decodes collections of integers inline, hands the rest to Python.
    *[(ColumnDesc(name, code, 0, type_name=text, detail=parse_type_name(text)), strat)
      for name, code, text, strat in (
          ("lst", 21, "LIST(integer not null)",
           st.lists(st.integers(-2**31 + 1, 2**31 - 1), max_size=12).map(List)),
          ("set", 19, "SET(smallint not null)",
           st.frozensets(st.integers(-2**15 + 1, 2**15 - 1), max_size=6).map(Set)),
          ("mset", 20, "MULTISET(bigint not null)",
           st.lists(st.integers(-2**63 + 1, 2**63 - 1), max_size=5).map(Multiset)),
          ("row", 22, "ROW(a integer, b varchar(10))",
           st.tuples(st.none() | I32, st.none() | st.text("abc", max_size=5)).map(
               lambda v: Row(v, ("a", "b")))),
      )],
]
#: Code sets with a C fast path, and others through the codec registry.
ENCODINGS = ["iso-8859-1", "utf-8", "ascii", "cp1252", "shift_jis"]
#: Damaged and random bytes also go through a code set in which blanks are not 0x20 bytes.
ANY_ENCODING = [*ENCODINGS, "utf-16-be"]


@st.composite
def shapes(draw: st.DrawFn) -> list[tuple[ColumnDesc, Any]]:
    picked = draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=8))
    return [(replace(c, name=f"{c.name}{i}"), s) for i, (c, s) in enumerate(picked)]


def encode_row(cols: list[ColumnDesc], encoding: str, values: list[Any]) -> bytes:
    """The server's encoder, with values it refuses (too long for the code set, …) as NULL."""
    encoders = [build_row_encoder([c], encoding) for c in cols]
    out = b""
    for enc, v in zip(encoders, values, strict=True):
        try:
            out += enc([v])
        except CodecError:
            out += enc([None])
    return out


# ------------------------------------------------------------------------------- equivalence


def _no_fallback(buf: Any, off: int, size: int) -> tuple[Any, ...]:
    raise AssertionError("the C decoder handed a valid row to the Python decoder")


@needs_c
@accel_settings
@given(shape=shapes(), data=st.data())
def test_encoded_rows_decode_the_same(shape: list[tuple[ColumnDesc, Any]], data: Any) -> None:
    cols = [c for c, _ in shape]
    encoding = data.draw(st.sampled_from(ENCODINGS))
    keep = data.draw(st.booleans())
    pure, fast = both(cols, encoding, keep)
    rows = []
    for _ in range(data.draw(st.integers(1, 4))):
        values = [data.draw(st.none() | s) for _, s in shape]
        rows.append(encode_row(cols, encoding, values))
    buf = b"".join(rows)
    # Valid rows are decoded by C alone: this one fails if it hands a row to the Python decoder.
    c_only = _accel.c_row_decoder(_no_fallback, cols, encoding, keep)
    assert c_only is not None
    off = 0
    for row in rows:
        for b in (buf, bytearray(buf), memoryview(buf)):
            got = outcome(fast, b, off, len(row))
            assert got == outcome(pure, b, off, len(row))
            assert got[0] == "row"
            assert outcome(c_only, b, off, len(row)) == got
        off += len(row)


@needs_c
@accel_settings
@given(shape=shapes(), data=st.data())
def test_damaged_rows_fail_the_same(shape: list[tuple[ColumnDesc, Any]], data: Any) -> None:
    cols = [c for c, _ in shape]
    encoding = data.draw(st.sampled_from(ANY_ENCODING))
    pure, fast = both(cols, encoding, data.draw(st.booleans()))
    row = bytearray(encode_row(cols, encoding, [data.draw(st.none() | s) for _, s in shape]))
    for _ in range(data.draw(st.integers(0, 3))):
        if row:
            row[data.draw(st.integers(0, len(row) - 1))] = data.draw(st.integers(0, 255))
    tail = data.draw(st.binary(max_size=8))
    buf = bytes(row) + tail
    size = data.draw(st.integers(0, len(buf)) | st.just(len(row)) | st.integers(-3, len(buf) + 3))
    off = data.draw(st.integers(0, 2)) if size >= 0 else 0
    assert outcome(fast, buf, off, size) == outcome(pure, buf, off, size)


@needs_c
@accel_settings
@given(shape=shapes(), raw=st.binary(max_size=400), data=st.data())
def test_random_bytes_give_the_same_outcome(
    shape: list[tuple[ColumnDesc, Any]], raw: bytes, data: Any
) -> None:
    cols = [c for c, _ in shape]
    pure, fast = both(cols, data.draw(st.sampled_from(ANY_ENCODING)), data.draw(st.booleans()))
    off = data.draw(st.integers(0, len(raw)))
    size = data.draw(st.integers(0, len(raw) - off))
    assert outcome(fast, raw, off, size) == outcome(pure, raw, off, size)


@st.composite
def decimal_columns(draw: st.DrawFn) -> ColumnDesc:
    precision = draw(st.integers(1, 32))
    scale = draw(st.integers(0, precision) | st.just(255))
    return ColumnDesc("dec", draw(st.sampled_from([5, 8])), (precision << 8) | scale)


@needs_c
@accel_settings
@given(col=decimal_columns(), data=st.data())
def test_decimals_of_every_precision_and_scale(col: ColumnDesc, data: Any) -> None:
    pure, fast = both([col, ColumnDesc("v", 13, 10)])
    width = decimal_width(col.enclen)
    if data.draw(st.booleans()):
        value = data.draw(st.decimals(allow_nan=False, allow_infinity=False, places=None))
        raw = encode_row([col], "ascii", [value])
    else:  # any head byte; base-100 digits, or any byte now and then
        digit = st.integers(0, 99) | st.integers(0, 255)
        raw = bytes([data.draw(st.integers(0, 255))]) + bytes(
            data.draw(st.lists(digit, min_size=width - 1, max_size=width - 1))
        )
    wire = raw + b"\x01\x00"
    assert outcome(fast, wire, 0, len(wire)) == outcome(pure, wire, 0, len(wire))


@needs_c
@pytest.mark.parametrize("head", [0x80, 0xC0])
def test_floating_zero_decodes_as_plain_zero_in_c(head: int) -> None:
    """The server's zero (80 00 …) read back through a floating DECIMAL column is
    Decimal('0'), not Decimal('0E-128'), in C as in Python."""
    col = ColumnDesc("flt", 5, (16 << 8) | 255)
    pure, fast = both([col])
    wire = bytes([head]) + bytes(decimal_width(col.enclen) - 1)
    for decode in (pure, fast):
        (value,) = decode(wire, 0, len(wire))
        assert repr(value) == "Decimal('0')"


@needs_c
@pytest.mark.parametrize("with_starts", [False, True])
def test_fixed_layout_boundaries_and_nulls(with_starts: bool) -> None:
    specs = [(1, 2), (2, 4), (52, 8), (17, 10), (3, 8), (4, 4), (7, 4), (0, 5), (5, 0x0A02)]
    cols, start = [], 0
    for i, (t, e) in enumerate(specs):
        width = 6 if t == 5 else (e if t else 5)
        cols.append(ColumnDesc(f"c{i}", t, e, start=start if with_starts else 0))
        start += width
    pure, fast = both(cols)
    encode = build_row_encoder(cols, "iso-8859-1")
    for values in (
        [None] * len(cols),
        [-32767, -(2**31) + 1, -(2**63) + 1, -(2**63) + 1, -1e308, -3.4e38, date.min, "x", None],
        [32767, 2**31 - 1, 2**63 - 1, 2**63 - 1, 1e308, 3.4e38, date.max, "abcde", Decimal(0)],
        [0, 0, 0, 0, 0.0, 0.0, date(1899, 12, 31), "", Decimal("-1.5")],
    ):
        wire = encode(values)
        assert fast(wire, 0, len(wire)) == pure(wire, 0, len(wire))
    # INT8 magnitudes beyond 64 bits are legal on the wire and come back as Python ints.
    i8 = [ColumnDesc("i8", 17, 10)]
    p8, f8 = both(i8)
    for wire in ("0001ffffffffffffffff", "ffffffffffffffffffff", "ffff0000000000000080"):
        assert f8(bytes.fromhex(wire), 0, 10) == p8(bytes.fromhex(wire), 0, 10)
    assert f8(bytes.fromhex("ffffffffffffffffffff"), 0, 10) == (-(2**64 - 1),)
    # A non-NULL NaN stays a NaN; all-0xFF is NULL.
    fl = [ColumnDesc("f", 3, 8), ColumnDesc("s", 4, 4)]
    _, ff = both(fl)
    row = ff(bytes.fromhex("7ff8000000000000ffffffff"), 0, 12)
    assert row[0] != row[0] and row[1] is None


@needs_c
def test_reconciliation_errors_name_the_columns() -> None:
    cols = [ColumnDesc("v1", 13, 20), ColumnDesc("i", 2, 4), describe_column("b", 45, 1)]
    pure, fast = both(cols, "ascii")
    wire = bytes.fromhex("02686900000007000000000101")
    assert fast(wire, 0, len(wire)) == ("hi", 7, True)
    for size in (len(wire) + 1, len(wire) - 1):
        buf = wire + b"\x00"
        with pytest.raises(CodecError) as info:
            fast(buf, 0, size)
        assert "v1:type=0x000d" in str(info.value) and "b:type=" in str(info.value)
        assert outcome(fast, buf, 0, size) == outcome(pure, buf, 0, size)
    fixed = [ColumnDesc("a", 2, 4), ColumnDesc("dd", 7, 4)]
    pure, fast = both(fixed)
    with pytest.raises(CodecError, match="expected 8 bytes") as err:
        fast(bytes(9), 0, 9)
    assert "a:type=0x0002" in str(err.value)
    with pytest.raises(CodecError, match="buffer holds only"):
        fast(bytes(7), 0, 8)
    # A value out of range keeps its class, as on the pure path.
    with pytest.raises(CodecDataError):
        fast(bytes.fromhex("000000017fffffff"), 0, 8)


@needs_c
def test_bad_text_and_boolean_bytes_fail_like_the_pure_path() -> None:
    cols = [ColumnDesc("v", 13, 10), describe_column("b", 45, 1)]
    pure, fast = both(cols, "utf-8")
    for wire in (
        bytes.fromhex("02c328000000000101"),  # invalid UTF-8
        bytes.fromhex("016b000000000107"),  # BOOLEAN byte 7
        bytes.fromhex("016b00000000020101"),  # BOOLEAN of length 2
    ):
        assert outcome(fast, wire, 0, len(wire))[0] == "error"
        assert outcome(fast, wire, 0, len(wire)) == outcome(pure, wire, 0, len(wire))


@needs_c
def test_no_reference_leaks() -> None:
    cols = [
        ColumnDesc("i", 2, 4),
        ColumnDesc("v", 13, 64),
        ColumnDesc("d", 5, 0x0A02),
        ColumnDesc("dt", 7, 4),
        describe_column("lv", 43, 100),
    ]
    _, fast = both(cols)
    good = build_row_encoder(cols, "iso-8859-1")([7, "abc", Decimal("1.5"), date(2024, 1, 2), "x"])
    bad = good + b"\x00"

    def run(n: int) -> None:
        for _ in range(n):
            fast(good, 0, len(good))
            with contextlib.suppress(CodecError):
                fast(bad, 0, len(bad))

    run(2000)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        run(20000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept after 40000 decodes"


def tuple_message(payload: bytes, size: int | None = None) -> bytes:
    n = len(payload) if size is None else size
    return b"\x00\x0e\x00\x00" + n.to_bytes(4, "big", signed=True) + payload + b"\x00" * (n & 1)


@needs_c
def test_decode_tuples_runs_the_reply_loop() -> None:
    assert int(Msg.TUPLE) == 14  # the code _speedups.c looks for
    cols = [ColumnDesc("i", 2, 4), ColumnDesc("v", 13, 10)]
    pure, fast = both(cols, "ascii")
    encode = build_row_encoder(cols, "ascii")
    good = [encode([i, "x" * (i % 4)]) for i in range(5)]
    bad = encode([9, "abc"])[:-1] + b"\xff"  # not ASCII: a CodecError for that row only
    msgs = [tuple_message(g) for g in good[:2]] + [tuple_message(bad)]
    msgs += [tuple_message(g) for g in good[2:]]
    stream = b"".join(msgs)
    for tail in (b"\x00\x0c", tuple_message(good[0])[:-3], tuple_message(b"", -8), b""):
        for buf in (b"xx" + stream + tail, bytearray(b"xx" + stream + tail)):
            rows: list[tuple[Any, ...]] = []
            pos, err = fast.decode_tuples(buf, 2, len(buf), rows)  # type: ignore[attr-defined]
            assert pos == 2 + len(stream)
            assert rows == [pure(g, 0, len(g)) for g in good]
            assert isinstance(err, CodecError)
            bad_at = 2 + len(msgs[0]) + len(msgs[1]) + 8
            assert outcome(pure, buf, bad_at, len(bad)) == ("error", (type(err), str(err)))
    rows = []
    assert fast.decode_tuples(stream, 0, 7, rows) == (0, None)  # type: ignore[attr-defined]
    assert rows == []


@needs_c
def test_decode_dicts_makes_each_row_a_dict_as_decode_tuples_would() -> None:
    """dict_row's route (Reply.keys): the same loop as decode_tuples (same stop, same
    skipped row and first error), each row appended as dict(zip(keys, row)); a shorter
    keys tuple decides the length, a repeated key keeps the last value, as with zip."""
    cols = [ColumnDesc("i", 2, 4), ColumnDesc("v", 13, 10)]
    pure, fast = both(cols, "ascii")
    encode = build_row_encoder(cols, "ascii")
    good = [encode([i, "x" * (i % 4)]) for i in range(5)]
    bad = encode([9, "abc"])[:-1] + b"\xff"
    stream = b"".join([tuple_message(g) for g in good[:2]] + [tuple_message(bad)]
                      + [tuple_message(g) for g in good[2:]] + [b"\x00\x0c"])
    want = [pure(g, 0, len(g)) for g in good]
    for keys in (("i", "v"), ("i",), ("k", "k")):
        for buf in (stream, bytearray(stream)):
            rows: list[dict[str, Any]] = []
            tuples: list[tuple[Any, ...]] = []
            got = fast.decode_dicts(buf, 0, len(buf), rows, keys)  # type: ignore[attr-defined]
            assert got[0] == fast.decode_tuples(buf, 0, len(buf), tuples)[0] == len(buf) - 2  # type: ignore[attr-defined]
            assert isinstance(got[1], CodecError)
            assert rows == [dict(zip(keys, t, strict=False)) for t in want]
    with pytest.raises(TypeError):
        fast.decode_dicts(stream, 0, len(stream), [], ["i", "v"])  # type: ignore[attr-defined]


@needs_c
def test_decode_dicts_past_eight_columns_with_nulls_repeats_and_containers() -> None:
    """decode_dicts' dicts are copies of a per-call template with the values written in
    (_speedups.c, DictMaker), the emptied tuple reused for the next row: past 8 columns (the
    template's table resized), NULLs, a row the pure decoder rejects in between, repeated
    names anywhere (the last column of a name wins, the first decides the order), each dict
    its own (changing one changes no other), the keys found by equal strings, and a dict
    holding a container tracked by the cyclic GC as PyDict_SetItem would leave it; nothing
    leaked (refcounts of the keys and values, memory over many calls)."""
    lst = "LIST(integer not null)"
    cols = [ColumnDesc(f"c{i}", (2, 13, 3)[i % 3], (4, 20, 8)[i % 3]) for i in range(12)]
    cols.append(ColumnDesc("lst", 21, 0, type_name=lst, detail=parse_type_name(lst)))
    pure, fast = both(cols, "ascii")
    encode = build_row_encoder(cols, "ascii")
    values = [[None if (i + r) % 5 == 0 else (r, f"s{r}", r / 4)[i % 3] for i in range(12)]
              + [List([r, r + 1]) if r % 2 else None] for r in range(7)]
    msgs = [tuple_message(encode(v)) for v in values]
    bad = msgs[3].replace(b"s3", b"s\xff")  # not ASCII: that row skipped, its error kept
    stream = b"".join([*msgs[:3], bad, *msgs[3:]])
    want = [pure(m, 8, int.from_bytes(m[4:8], "big")) for m in msgs]
    names = tuple(c.name for c in cols)
    # The decoder keeps the last call's template for the same keys tuple (identity): names
    # come again, also as an equal tuple of its own, between other keys.
    for keys in (names, ("a", "b", "a", *names[3:9], "b", "z", "a", "lst"), names,
                 tuple("k" for _ in names), tuple(list(names)), names[:5], names):
        for buf in (stream, bytearray(stream)):
            rows: list[dict[str, Any]] = []
            pos, err = fast.decode_dicts(buf, 0, len(buf), rows, keys)  # type: ignore[attr-defined]
            assert pos == len(buf) and isinstance(err, CodecError)
            expect = [dict(zip(keys, t, strict=False)) for t in want]
            assert rows == expect
            assert [list(r) for r in rows] == [list(e) for e in expect]
            assert [gc.is_tracked(r) for r in rows] == [gc.is_tracked(e) for e in expect]
            if keys == names:
                assert [gc.is_tracked(r) for r in rows] == [r % 2 == 1 for r in range(7)]
                probe = "".join(["c", "1", "0"])  # equal to a key, not the same object
                assert [r[probe] for r in rows] == [t[10] for t in want]
            rows[0]["c1"] = "changed"
            rows[0]["new"] = 1
            del rows[0][keys[-1]]
            assert rows[1:] == expect[1:]

    def run(n: int) -> list[int]:
        for _ in range(n):
            fast.decode_dicts(stream, 0, len(stream), [], names)  # type: ignore[attr-defined]
        return [sys.getrefcount(k) for k in (*names, None)]

    run(5)  # anything made once per process made
    first = run(1)
    later = run(50)  # (not inside the assert: pytest's rewriting holds None in locals)
    assert later == first
    kept = tuple(list(names))
    held = sys.getrefcount(kept)
    fast.decode_dicts(stream, 0, len(stream), [], kept)  # type: ignore[attr-defined]
    assert sys.getrefcount(kept) == held + 1  # the decoder's, until other keys come
    fast.decode_dicts(stream, 0, len(stream), [], names)  # type: ignore[attr-defined]
    assert sys.getrefcount(kept) == held
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        run(2000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept after 2000 calls"


@needs_c
def test_decoder_object() -> None:
    cols = [ColumnDesc("i", 2, 4)]
    pure, fast = both(cols)
    assert fast.pure is pure  # type: ignore[attr-defined]
    assert "decode_row" in (fast.__doc__ or "")
    assert "1 columns" in repr(fast)
    with pytest.raises(TypeError):
        fast(b"\x00\x00\x00\x01", 0)  # type: ignore[call-arg]


# ----------------------------------------------------------------------------------- switch


def _probe(env_value: str | None) -> str:
    env = dict(os.environ)
    env.pop("IFXWIRE_PURE", None)
    if env_value is not None:
        env["IFXWIRE_PURE"] = env_value
    code = (
        "import ifxwire\n"
        "from ifxwire.protocol.columns import ColumnDesc\n"
        "from ifxwire.types.rowcodec import build_row_decoder\n"
        "d = build_row_decoder([ColumnDesc('i', 2, 4)], 'ascii')\n"
        "print(ifxwire.accelerated, ifxwire.accelerator_available(), type(d).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_ifxwire_pure_forces_the_python_codecs() -> None:
    assert _probe("1") == f"False {_accel.available} function"


def test_accelerated_when_built_unless_forced_pure() -> None:
    expected = "True True RowDecoder" if _accel.available else "False False function"
    assert _probe(None) == expected
    assert _probe("0") == expected


def test_flags_agree_with_the_decoder_in_use() -> None:
    assert ifxwire.accelerator_available() is _accel.available
    assert ifxwire.accelerated is _accel.accelerated
    assert ifxwire.accelerated == (
        _accel.available and os.environ.get("IFXWIRE_PURE", "") not in ("1", "true", "yes", "on")
    )
    decode = build_row_decoder([ColumnDesc("x", 2, 4)], "ascii")
    assert (type(decode).__name__ == "RowDecoder") is ifxwire.accelerated


@needs_c
@pytest.mark.parametrize("text", ["LIST(integer not null)", "MULTISET(bigint not null)",
                                  "LIST(smallint)", "SET(integer not null)"])
def test_integer_collections_built_in_place_equal_the_pure_decoder(text: str) -> None:
    """The C fast path fills a List/Multiset's item array in place and sets its element type
    through the __slots__ member (SET: a frozenset, built from a list as before): the same
    values, types and element_type as the pure decoder, a NULL element handed to the Python
    path, and nothing kept (items, arrays, element types) after many decodes."""
    code = {"LIST": 21, "MULTISET": 20, "SET": 19}[text.split("(")[0]]
    cols = [ColumnDesc("c", code, 0, type_name=text, detail=parse_type_name(text)),
            ColumnDesc("k", 2, 4)]
    pure, fast = both(cols)
    encode = build_row_encoder(cols, "iso-8859-1")
    wrap = {"LIST": List, "MULTISET": Multiset, "SET": Set}[text.split("(")[0]]
    values = [wrap([]), wrap([5]), wrap(list(range(-3, 200, 7))), None, wrap([32767, -32767])]
    for v in values:
        buf = encode([v, 9])
        got, want = fast(buf, 0, len(buf)), pure(buf, 0, len(buf))
        assert outcome(fast, buf, 0, len(buf)) == outcome(pure, buf, 0, len(buf))
        assert got == want
        if v is not None:
            assert type(got[0]) is wrap and got[0].element_type == want[0].element_type != ""
    if "not null" not in text:  # a NULL element: the Python path's value
        raw = bytearray(encode([wrap([1, 2, 3]), 9]))
        raw[-8:-6] = b"\x80\x00"  # the middle SMALLINT as its NULL (the encoder refuses one)
        got = fast(raw, 0, len(raw))
        assert got == pure(raw, 0, len(raw)) and list(got[0]) == [1, None, 3]
    buf = encode([values[2], 9])

    def run(n: int) -> None:
        for _ in range(n):
            fast(buf, 0, len(buf))

    run(2000)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        run(20000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept after 20000 decodes"
