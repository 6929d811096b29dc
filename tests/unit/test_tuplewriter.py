"""The server's compiled SQ_TUPLE writer against the pure encoder, byte for byte.

The pure encoder (types/rowcodec.py ``build_row_encoder`` + ``put_tuple``) is the reference
(server/tuples.py): for every column type the server sends, NULLs, range boundaries and
values the inline C paths must hand back to Python, both give the same bytes or raise the same
exception with the same message. Skipped only when the extension is not built (a machine
without a compiler), which the pure tests then cover alone.
"""

from __future__ import annotations

import functools
import gc
import sys
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest

from ifxwire.protocol import messages as m
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.wire import Writer
from ifxwire.server import tuples
from ifxwire.types.blobs import null_descriptor
from ifxwire.types.rowcodec import build_row_encoder, describe_column

pytestmark = pytest.mark.skipif(tuples._module is None, reason="ifxwire._tuplewriter not built")


class Text(str):
    """A str subclass: the C path must leave it to the Python encoder."""


class Int(int):
    pass


class Stamp(datetime):
    """A datetime subclass: the C path must leave it to the Python encoder."""


DATETIMES: list[Any] = [
    None, datetime(2024, 2, 29, 13, 45, 59), datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59,
    999999), datetime(2000, 1, 2, 3, 4, 5, 123456), datetime(2000, 1, 2, 3, 4, 5, 10),
    date(2024, 2, 29), date(1, 1, 1), time(23, 59, 59, 999999), time(0, 0), time(12, 30, 1, 5),
    datetime(2024, 1, 1, tzinfo=timezone.utc), time(1, 2, tzinfo=timezone.utc),
    Stamp(2024, 5, 6, 7, 8, 9), "2024-01-01 00:00:00", 5, timedelta(hours=1)]

class Dec(Decimal):
    """A Decimal subclass: the C path must leave it to the Python encoder."""


DECIMALS: list[Any] = [
    None, *[Decimal(t) for t in (
        "0", "-0", "0.00", "-0.00", "1", "-1", "12.50", "-12.50", "123456.78", "-123456.78",
        "99999999.99", "-99999999.99", "100000000.00", "0.01", "-0.01", "0.05", "0.10", "1.005",
        "1.00", "12.3", "12.345", "7.000", "-7.000", "0.001", "-0.001", "0.0000001", "1E+2",
        "1E-7", "NaN", "sNaN", "Infinity", "-Infinity", "0.5", "-0.5", "9", "99", "999",
        "1000000", "10", "100", "0.9", "0.99", "0.999", "-0.999", "5.0000000",
        "12345678901234567890123456789012", "1234567890123456.7890123456789012",
        "0.12345678901234567890123456789012", "-0.12345678901234567890123456789012",
        "9.9", "-9.9", "1234567.1234567", "-1234567.1234567", "0000012.50")],
    Dec("1.00"), 5, 2.5, "1.00", True]

# (column, values): every value once in a one-column row and in a row with other columns.
CASES: list[tuple[ColumnDesc, list[Any]]] = [
    (ColumnDesc("si", 1, 2), [None, 0, 1, -1, 32767, -32767, -32768, 32768, True, Int(5),
                              2.0, "7", Decimal(3)]),
    (ColumnDesc("i", 2, 4), [None, 0, 2**31 - 1, -(2**31 - 1), -(2**31), 2**31, 10**30,
                             False, Int(-9), 3.5, "x"]),
    (ColumnDesc("ser", 6, 4), [None, 1, 2**31 - 1]),
    (ColumnDesc("bi", 52, 8), [None, 0, 2**63 - 1, -(2**63 - 1), -(2**63), 2**63, 2**100,
                               -(2**100), Int(1)]),
    (ColumnDesc("bs", 53, 8), [None, 2**40]),
    (ColumnDesc("i8", 17, 10), [None, 0, -1234567890123, 2**63 - 1]),
    (ColumnDesc("s8", 18, 10), [None, 99]),
    (ColumnDesc("f", 3, 8), [None, 0.0, -0.0, 1.5, 1e308, -1e-308, 5e-324, float("inf"),
                             float("-inf"), float("nan"), 3, Decimal("1.25"), "1"]),
    (ColumnDesc("sf", 4, 4), [None, 0.25, 1e39, 3]),
    (ColumnDesc("d", 5, 0x0A02), [None, Decimal("123456.78"), Decimal("-0.01"), 5]),
    (ColumnDesc("mo", 8, 0x0802), [None, Decimal("99.50")]),
    *[(ColumnDesc(f"dec{q:04x}", 5, q), DECIMALS) for q in (
        0x0A02, 0x0A03, 0x0C00, 0x0101, 0x0100, 0x2010, 0x200F, 0x2000, 0x2020, 0x1005, 0x10FF,
        0x0E07, 0x0503)],
    (ColumnDesc("mo2", 8, 0x0C02), DECIMALS),
    (ColumnDesc("dt", 7, 4), [None, date(2024, 2, 29), date(1, 1, 1), date(9999, 12, 31),
                              date(1899, 12, 31), date(1900, 3, 1), date(2000, 2, 29),
                              date(2100, 3, 1), datetime(2024, 1, 2), datetime(2024, 1, 2, 3),
                              "2024-01-01", 5]),
    (ColumnDesc("ys", 10, 0x0E0A), [None, datetime(2024, 2, 29, 13, 45, 59)]),
    *[(ColumnDesc(f"dt{q:04x}", 10, q), DATETIMES) for q in (
        0x130F, 0x110D, 0x0F0B, 0x0E0A, 0x0C08, 0x0A06, 0x0804, 0x0602, 0x0400,
        0x0424, 0x0446, 0x066A, 0x096D, 0x0B6F, 0x048A, 0x04AC, 0x03CD)],
    (ColumnDesc("iv", 14, 0x094A), [None, timedelta(days=12, hours=3, minutes=4, seconds=5)]),
    (ColumnDesc("c", 0, 5), [None, "", "abc", "abcde", "abcdef", "\x00ab", "a\x00", "é",
                             "ééé", "€", "\ud800", Text("ab"), 5, b"ab"]),
    (ColumnDesc("c1", 0, 1), [None, "", "a", "ab"]),
    (ColumnDesc("nc", 15, 4), [None, "xy", "wxyz1"]),
    (ColumnDesc("v", 13, 20), [None, "", "hi", "x" * 20, "x" * 21, "\x00", "\x00a", "é" * 10,
                               "é" * 11, "€", "\ud800", Text("t"), 1]),
    (ColumnDesc("v255", 13, 0), [None, "y" * 255, "y" * 256]),
    (ColumnDesc("vr", 13, (5 << 8) | 64), [None, "z" * 64, "z" * 65]),
    (ColumnDesc("nv", 16, 10), [None, "nv", "n" * 11]),
    (describe_column("lv", 43, 2048), [None, "", "lvc", "a\x00", "\x00a", "é", "\ud800",
                                       "L" * 5000, Text("q")]),
    (ColumnDesc("lv0", 43, 0), [None, "x" * 3000]),
    (describe_column("b", 45, 1), [None, True, False, 1, 0, 2, "t"]),
    (ColumnDesc("by", 11, 56), [None, null_descriptor(56), bytes(range(56)), b"short"]),
    (ColumnDesc("tx", 12, 56), [None, bytes(56)]),
]

ENCODINGS = ["utf-8", "iso8859-1", "ascii", "cp1252", "euc_jp"]


def outcome(fn: Any, row: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(row)
    except Exception as exc:  # the exact type and message are what must match
        return type(exc).__name__, str(exc)


def both(cols: list[ColumnDesc], encoding: str) -> tuple[Any, Any]:
    writer = tuples.make_tuple_writer(cols, encoding)
    assert writer is not None
    return build_row_encoder(cols, encoding), writer


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize(("col", "values"), CASES, ids=[c.name for c, _ in CASES])
def test_one_column_rows_match(col: ColumnDesc, values: list[Any], encoding: str) -> None:
    pure, fast = both([col], encoding)
    for v in values:
        assert outcome(fast, (v,)) == outcome(pure, (v,)), (col, v)


@pytest.mark.parametrize("q", [0x0D0A, 0x0E0B, 0x0F0A, 0x0E1A, 0x0EA0])
def test_a_bad_datetime_qualifier_raises_as_the_pure_encoder_does(q: int) -> None:
    """A qualifier the C path cannot lay out goes to the Python encoder for every value."""
    pure, fast = both([ColumnDesc("bad", 10, q)], "utf-8")
    for v in DATETIMES:
        assert outcome(fast, (v,)) == outcome(pure, (v,)), (hex(q), v)


@pytest.mark.parametrize("encoding", ["utf-8", "iso8859-1", "cp1252"])
def test_wide_rows_match(encoding: str) -> None:
    """All columns in one row, each value in turn against the first value of the others:
    one value the C path hands back must not disturb the cells before and after it."""
    cols = [c for c, _ in CASES]
    pure, fast = both(cols, encoding)
    base = [vals[1] for _, vals in CASES]
    assert outcome(fast, tuple(base)) == outcome(pure, tuple(base))
    assert fast([None] * len(cols)) == pure([None] * len(cols))
    for i, (_, vals) in enumerate(CASES):
        for v in vals:
            row = list(base)
            row[i] = v
            assert outcome(fast, row) == outcome(pure, row), (cols[i], v)


def test_row_length_and_shape() -> None:
    cols = [ColumnDesc("i", 2, 4), ColumnDesc("v", 13, 10)]
    pure, fast = both(cols, "utf-8")
    for row in [(1,), (1, "a", 2), [1, "a"], (1, "a")]:
        assert outcome(fast, row) == outcome(pure, row)
    with pytest.raises(TypeError):
        fast(5)


def reference_write(pure: Any, rows: list[Any], budget: int) -> tuple[bytes, int, int, bool]:
    """server/session.py's pure fetch loop."""
    out = Writer()
    count = sent = 0
    it = iter(rows)
    for row in it:
        payload = pure(row)
        m.put_tuple(out, payload)
        count += 1
        sent += len(payload) + 8
        if sent >= budget:
            return bytes(out.buf), count, sent, False
    return bytes(out.buf), count, sent, True


@pytest.mark.parametrize("budget", [0, 1, 40, 100, 10**6])
def test_write_frames_and_budget(budget: int) -> None:
    cols = [ColumnDesc("a", 2, 4), ColumnDesc("b", 13, 64), ColumnDesc("c", 2, 4),
            ColumnDesc("d", 3, 8), ColumnDesc("e", 13, 32), ColumnDesc("dt", 7, 4)]
    rows = [(i, f"name{i:07d}" + "x" * (i % 3), i * 7, i * 0.25, None if i % 4 else "e",
             date(2020, 1, 1 + i % 28)) for i in range(50)]
    pure, fast = both(cols, "utf-8")
    want = reference_write(pure, rows, budget)
    buf = bytearray(b"head")
    it = iter(rows)
    count, sent, exhausted = fast.write(buf, it, budget)
    assert (bytes(buf[4:]), count, sent, exhausted) == want
    # the rows after the budget are still in the iterator, in order
    assert list(it) == rows[count:]


@pytest.mark.parametrize("budget", [0, 1, 40, 100, 10**6])
def test_pure_write_tuples_is_the_fetch_loop(budget: int) -> None:
    """tuples.pure_write_tuples (Session._query_group with the pure encoder) writes what the
    fetch loop writes and stops where it stops."""
    cols = [ColumnDesc("a", 2, 4), ColumnDesc("b", 13, 64), ColumnDesc("d", 3, 8)]
    rows = [(i, f"n{i}" + "x" * (i % 3), i * 0.5) for i in range(50)]
    pure = build_row_encoder(cols, "utf-8")
    data, count, _sent, exhausted = reference_write(pure, rows, budget)
    out = Writer()
    it = iter(rows)
    assert tuples.pure_write_tuples(pure, out, it, budget) == (count, exhausted)
    assert bytes(out.buf) == data
    assert list(it) == rows[count:]


def test_write_odd_payload_is_padded() -> None:
    _pure, fast = both([ColumnDesc("v", 13, 10)], "utf-8")
    buf = bytearray()
    assert fast.write(buf, iter([("ab",), ("abc",)]), 10**6) == (2, 3 + 8 + 4 + 8, True)
    assert bytes(buf) == bytes.fromhex("000e 0000 00000003 026162 00 000e 0000 00000004 03616263")


def test_write_errors_propagate_after_earlier_rows() -> None:
    pure, fast = both([ColumnDesc("i", 2, 4)], "utf-8")
    buf = bytearray()
    with pytest.raises(Exception) as info:
        fast.write(buf, iter([(1,), (2**40,)]), 10**6)
    assert outcome(pure, (2**40,)) == (type(info.value).__name__, str(info.value))
    assert bytes(buf) == bytes.fromhex("000e 0000 00000004 00000001")

    def failing() -> Any:
        yield (7,)
        raise KeyError("from the iterator")

    buf.clear()
    with pytest.raises(KeyError):
        fast.write(buf, failing(), 10**6)
    assert bytes(buf) == bytes.fromhex("000e 0000 00000004 00000007")


def test_no_reference_leaks() -> None:
    cols = [ColumnDesc("i", 2, 4), ColumnDesc("v", 13, 20), ColumnDesc("d", 5, 0x0A02)]
    _pure, fast = both(cols, "utf-8")
    # Values made at run time: a constant such as 2**40 is shared with other code objects,
    # whose references come and go with the garbage collector (CI saw 17 -> 6 with no leak).
    row = (int("1099511627776"), Text("é"), Decimal("1.5"))
    gc.collect()
    values = [sys.getrefcount(v) for v in row]
    for _ in range(100):
        outcome(fast, row)
        fast.write(bytearray(), iter([(5, *row[1:])]), 10)
    gc.collect()
    assert [sys.getrefcount(v) for v in row] == values


def test_pure_selected_by_environment() -> None:
    """IFXWIRE_PURE=1 gives the server the pure encoder (no ``write``)."""
    enc = tuples.row_encoder([ColumnDesc("i", 2, 4)], "utf-8")
    assert hasattr(enc, "write") == tuples.accelerated


# ------------------------------------------------------------- the engine's loaders, batched


def python_loop(loaders: list[Any], batch: list[tuple[Any, ...]]) -> tuple[str, Any]:
    """engine/session.py _stream's Python loop over one batch (what load_rows must match)."""
    out = []
    try:
        for row in batch:
            vals = list(row)
            for i, f in enumerate(loaders):
                if f is not None and vals[i] is not None:
                    vals[i] = f(vals[i])
            out.append(tuple(vals))
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return "ok", out


def test_load_rows_matches_the_loaders() -> None:
    from ifxwire.protocol.codes import TypeCode as T
    from ifxwire.server.engine.core import convert
    from ifxwire.server.engine.core.ifxtypes import IfxType

    types = [IfxType(T.SMALLINT), IfxType(T.INTEGER), IfxType(T.BIGINT), IfxType(T.FLOAT),
             IfxType(T.SMALLFLOAT), IfxType(T.VARCHAR, 20), IfxType(T.CHAR, 5),
             IfxType(T.LVARCHAR, 100), IfxType(T.DECIMAL, prec=10, scale=2),
             IfxType(T.DATE), IfxType(T.BOOLEAN), IfxType(T.NCHAR, 3)]
    loaders = [convert.loader(t) for t in types]
    steps = tuple(
        (i, *getattr(f, "batch_kind", (0, 0, 0)), f) if f not in (
            convert._load_chars, convert._load_float) else
        (i, 3 if f is convert._load_chars else 2, 0, 0, f)
        for i, f in enumerate(loaders) if f is not None)
    good = (1, 2, 3, 1.5, 2.5, "ab", "c", "lv", "1.25", 45000, 1, "é")
    variants: list[tuple[int, Any]] = [
        (0, 32767), (0, -32767), (0, 40000), (0, True), (0, 2.0), (0, 2.5), (0, "7"),
        (1, 2**31 - 1), (1, 2**31), (1, -(2**31)), (2, 2**63 - 1), (2, 2**70), (3, 7),
        (3, "x"), (4, 3), (5, "a\x00b"), (5, "\x00"), (5, 5), (5, b"by"), (5, "é\x00"),
        (5, "€\x00x"), (5, "\U0001f600\x00"), (6, "abc"), (7, "x\x00"), (8, 3), (9, 1.0),
        (10, 0), (11, "éé"),
    ]
    for i, v in variants:
        row = list(good)
        row[i] = v
        batch = [good, tuple(row), (None,) * len(good), good]
        got = tuples._module.load_rows(batch, steps)  # type: ignore[union-attr]
        want = python_loop(loaders, batch)
        if got is None:  # only when the Python loop raises
            assert want[0] != "ok", (i, v)
        else:
            assert ("ok", got) == want, (i, v)
    # a row every loader keeps is not copied
    plain = (1, 2, 3, 1.5, 2.5, "ab", "c", "lv", None, None, None, "é")
    assert tuples._module.load_rows([plain], steps)[0] is plain  # type: ignore[union-attr]
    # shapes it leaves to the Python loop
    assert tuples._module.load_rows([list(good)], steps) is None  # type: ignore[union-attr]
    assert tuples._module.load_rows([good[:3]], steps) is None  # type: ignore[union-attr]


DT_TEXTS = ["2024-02-29 13:45:59.12345", "0001-01-01 00:00:00.00000", "9999-12-31 23:59:59.99999",
            "2024-02-29 13:45:59.1", "2024-02-29 13:45:59.123456", "2024-02-29 13:45:59",
            "2024-02-29T13:45:59.5", "2023-02-29 13:45:59.5", "2024-13-01 00:00:00.0",
            "2024-01-01 24:00:00.0", "2024-01-01 00:60:00.0", "2024-01-01 00:00:60.0",
            " 2024-01-01 00:00:00.0", "2024-01-01 00:00:00.0 ", "024-01-01 00:00:00.0",
            "2024-1-01 00:00:00.0", "2024-01-01 00:00:00.", "2024-01-01", "2024-01-01 05",
            "2024-01-01 05:06", "0000-01-01 00:00:00.0", "2024/01/01 00:00:00.0",
            "13:45:59.12345", "13:45", "13", "23:59:59.99999", "24:00:00.0", "x", "",
            "２０２４-01-01 00:00:00.0", "2024-01-01 00:00:00.0\x00", 20240101, 5.5, b"2024"]


@pytest.mark.parametrize("q", [(0, 15), (0, 13), (0, 11), (0, 10), (0, 8), (0, 6), (0, 4),
                               (0, 2), (2, 4), (4, 6), (6, 10), (6, 15), (6, 8), (6, 6),
                               (8, 10), (10, 13), (12, 13)])
def test_load_rows_datetime_and_date_match_the_loaders(q: tuple[int, int]) -> None:
    """Stored DATETIME text and DATE numbers: the compiled loader (L_DT, L_DATE) makes what
    the Python loaders make, and leaves to them (and their errors) every other text."""
    from ifxwire.protocol.codes import TypeCode as T
    from ifxwire.server.engine.core import convert
    from ifxwire.server.engine.core.ifxtypes import IfxType

    start, end = q
    loaders = [convert.loader(IfxType(T.DATETIME, start=start, end=end)),
               convert.loader(IfxType(T.DATE))]
    steps = tuple((i, *f.batch_kind, f) for i, f in enumerate(loaders))  # type: ignore[union-attr]
    epoch = -693594  # day 0 is 1899-12-31: ordinal 1 is day -693594
    days: list[Any] = [0, 1, -1, 45000, epoch, epoch - 1, 2958464, 2958465, 2**70, 1.0,
                       "45000", True]
    from ifxwire.server.engine.core.values import format_dt

    good = (format_dt([2000, 1, 1, 0, 0, 0, 0], start, end), 1)
    assert python_loop(loaders, [good])[0] == "ok", good
    for text in [good[0], *DT_TEXTS]:
        for n in days:
            batch = [good, (text, n), (None, None)]
            got = tuples._module.load_rows(batch, steps)  # type: ignore[union-attr]
            want = python_loop(loaders, batch)
            if got is None:  # only when the Python loop raises
                assert want[0] != "ok", (text, n)
            else:
                assert ("ok", got) == want, (text, n)
                for g, w in zip(got, want[1], strict=True):  # same types, not just equal
                    assert [type(x) for x in g] == [type(x) for x in w], (text, n)


def test_batch_loader_selection() -> None:
    from ifxwire.protocol.codes import TypeCode as T
    from ifxwire.server.engine.core import convert
    from ifxwire.server.engine.core.ifxtypes import IfxType

    loaders = [convert.loader(IfxType(T.INTEGER)), None]
    fast = convert.batch_loader(loaders)
    assert (fast is not None) == tuples.accelerated
    assert convert.batch_loader([None, None]) is None
    if fast is not None:
        # a partial of the C function (no Python frame per OPEN; issue 26, eleventh round)
        # that loads as load_rows does, and leaves to the Python loop what it leaves
        assert isinstance(fast, functools.partial)
        assert fast([(7, "x"), (None, None)]) == [(7, "x"), (None, None)]
        assert fast([(2**40, "x")]) is None  # out of INTEGER's range: the Python loop
        assert fast([[7, "x"]]) is None
        with pytest.raises(TypeError):
            tuples._module.load_planned(fast.args[0])  # type: ignore[union-attr]


def test_the_engine_finds_the_compiled_helpers_when_they_are_built() -> None:
    """The engine's converters import ``ifxwire._tuplewriter`` by a relative path; when the
    engine moved a package deeper (issue 26's layers) that path silently found nothing and
    every SELECT lost the compiled loader without a failing test."""
    import importlib.util

    from ifxwire.server.engine.core import convert

    built = importlib.util.find_spec("ifxwire._tuplewriter") is not None
    assert (convert._tw is not None) == built
