"""executemany's many-rows encoder (client/binds.rows_encoder): the C ``encode_rows`` and its
pure twin take the same parameter sets, give the bytes the row-by-row path gives
(``head + bind_message(values) + tail``) and stop at the same set, for the same reason."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ifxwire import _accel
from ifxwire.client import binds
from ifxwire.protocol.codes import Msg
from ifxwire.types.bind import encode_bind_value
from ifxwire.types.bind_compile import RowsEncoder, compile_bind_encoder, compile_rows_encoder

HEAD = b"\x00\x04\x00\x07"
TAIL = b"\x00\x07\x00\x0c"
END = object()
PATTERN = (int, str, type(None), float, bool, Decimal)


def pure_rows(pattern: tuple[type, ...], encoding: str) -> RowsEncoder:
    rows = compile_rows_encoder(pattern, encoding, int(Msg.BIND))
    assert rows is not None
    return rows


def c_rows(pattern: tuple[type, ...], encoding: str) -> RowsEncoder | None:
    if not _accel.available:
        return None
    enc = _accel.c_bind_encoder(lambda v: b"", pattern, encoding, int(Msg.BIND))
    return None if enc is None else enc.encode_rows  # type: ignore[attr-defined,no-any-return]


def expected_group(values: Any, encoding: str) -> bytes:
    """The group built value by value with the generic encoder, not with the compiled encoders
    (C or generated Python) that the many-rows encoders share: a bug they have in common
    must show here."""
    values = tuple(values)
    return (HEAD + struct.pack(">HH", Msg.BIND, len(values))
            + b"".join(encode_bind_value(v, encoding) for v in values) + TAIL)


def run(rows: RowsEncoder, sets: list[Any], max_rows: int = 1000, max_bytes: int = 1 << 20
        ) -> tuple[bytes, int, Any, Any]:
    it = iter(sets[1:])
    chunk, count, pending, exc = rows(sets[0], it, HEAD, TAIL, END, max_rows, max_bytes)
    return chunk, count, pending, None if exc is None else (type(exc), str(exc))


def both(pattern: tuple[type, ...], encoding: str = "utf-8") -> list[RowsEncoder]:
    found = [pure_rows(pattern, encoding)]
    c = c_rows(pattern, encoding)
    if c is not None:
        found.append(c)
    return found


def row(i: int) -> tuple[Any, ...]:
    return (i, f"name {i} é", None, i / 3, bool(i % 2), Decimal(i) / 8)


def test_same_bytes_as_the_row_by_row_path() -> None:
    sets = [row(i) for i in range(50)] + [list(row(50))]
    want = b"".join(expected_group(s, "utf-8") for s in sets)
    for rows in both(PATTERN):
        assert run(rows, sets) == (want, 51, END, None)


@pytest.mark.parametrize(
    "odd",
    [
        (1, "a", None, 1.0, True),  # too short
        (1, "a", None, 1.0, True, Decimal(1), 2),  # too long
        (True, "a", None, 1.0, True, Decimal(1)),  # a bool where the pattern has an int
        (2**31, "a", None, 1.0, True, Decimal(1)),  # an int INTEGER cannot hold
        (1, "a" * 40000, None, 1.0, True, Decimal(1)),  # longer than a CHAR bind
        (1, "a", None, float("nan"), True, Decimal(1)),  # not finite
        (1, "a", 3, 1.0, True, Decimal(1)),  # another type
        "abcdef",  # not a tuple or list
        None,
        {"a": 1},
    ],
)
def test_stops_at_the_first_set_it_does_not_take(odd: Any) -> None:
    sets = [row(0), row(1), odd, row(3)]
    want = expected_group(row(0), "utf-8") + expected_group(row(1), "utf-8")
    for rows in both(PATTERN):
        chunk, count, pending, exc = run(rows, sets)
        assert (chunk, count, exc) == (want, 2, None)
        assert pending is odd
        # and a first set it does not take: nothing consumed
        assert run(rows, [odd, row(1)]) == (b"", 0, odd, None)


def test_stops_at_the_limits_with_the_next_set_pending() -> None:
    sets = [row(i) for i in range(10)]
    one = len(expected_group(row(0), "utf-8"))
    for rows in both(PATTERN):
        assert run(rows, sets, max_rows=3)[1:3] == (3, sets[3])
        _chunk, count, pending, _ = run(rows, sets, max_bytes=2 * one)
        assert (count, pending) == (2, sets[2])
        assert run(rows, sets[:3], max_rows=3)[1:3] == (3, END)


def test_an_iterator_that_raises_keeps_the_rows_before_it() -> None:
    def gen() -> Iterator[Any]:
        yield row(1)
        yield row(2)
        raise RuntimeError("boom")

    for rows in both(PATTERN):
        chunk, count, pending, exc = rows(row(0), gen(), HEAD, TAIL, END, 1000, 1 << 20)
        assert count == 3 and pending is END
        assert chunk == b"".join(expected_group(row(i), "utf-8") for i in range(3))
        assert isinstance(exc, RuntimeError) and str(exc) == "boom"


def test_a_callable_that_raises_base_exception_stops_the_batch() -> None:
    class Stop(BaseException):
        pass

    class Odd(Decimal):
        pass

    def boom(value: object, encoding: str) -> bytes:
        raise Stop

    from ifxwire.types import bind as _bind

    _bind._BY_TYPE[Odd] = boom
    try:
        pattern = (int, Odd)
        for rows in both(pattern):
            sets = [(1, Odd(1)), (2, Odd(2))]
            chunk, count, pending, exc = run(rows, sets)
            assert (chunk, count, pending) == (b"", 0, END)
            assert exc is not None and exc[0] is Stop
    finally:
        del _bind._BY_TYPE[Odd]


@pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")
@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.integers(-(2**32), 2**32), st.booleans()),
            st.one_of(st.text(max_size=20), st.none()),
            st.floats(allow_nan=True, allow_infinity=True),
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 40),
    st.sampled_from(["utf-8", "iso-8859-1", "ascii"]),
)
def test_c_and_pure_agree(sets: list[Any], max_rows: int, encoding: str) -> None:
    pattern = tuple(type(v) for v in sets[0])
    if compile_bind_encoder(pattern, encoding, int(Msg.BIND)) is None:
        return
    pure, c = pure_rows(pattern, encoding), c_rows(pattern, encoding)
    assert c is not None
    got_pure = run(pure, sets, max_rows=max_rows)
    assert got_pure == run(c, sets, max_rows=max_rows)
    count = got_pure[1]
    assert got_pure[0] == b"".join(expected_group(s, encoding) for s in sets[:count])


def test_rows_encoder_picks_the_accelerated_one_when_in_use() -> None:
    binds._FAST.clear()
    enc = binds.rows_encoder(row(0), "utf-8")
    assert enc is not None
    assert (type(getattr(enc, "__self__", None)).__name__ == "BindEncoder") == _accel.accelerated
    assert binds.rows_encoder(row(0), "utf-8") is enc or _accel.accelerated
    assert binds.rows_encoder("abc", "utf-8") is None
    assert binds.rows_encoder((b"blob",), "utf-8") is None  # BYTE needs SQ_BBIND: generic
    assert binds.rows_encoder((), "utf-8") is None


@pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")
def test_c_loops_keep_no_references() -> None:
    """encode_rows and scan_done_replies, over good runs, refused sets, iterators that raise
    and replies of every shape, leave every reference count and the heap as they found them."""
    import gc
    import sys
    import tracemalloc

    from ifxwire.protocol import messages as m
    from ifxwire.protocol.wire import Writer

    c = c_rows(PATTERN, "utf-8")
    scan = _accel.c_reply_scanner()
    assert c is not None and scan is not None
    good = [row(i) for i in range(20)]
    odd = (1, "a")
    layout = m.Layout(bigint=True)
    w = Writer()
    for i in range(30):
        m.put_done(w, 1, layout, serial=i)
        if i % 2:
            m.put_insertdone(w, -(2**40) - i, 2**40, layout)
        m.put_eot(w)
    replies = bytes(w.buf) + b"\x00\x0d"
    tracked = (good[3], good[3][1], odd, END)

    def boom() -> Iterator[Any]:
        yield good[1]
        raise RuntimeError("boom")

    def run(n: int) -> None:
        for _ in range(n):
            c(good[0], iter(good[1:]), HEAD, TAIL, END, 1000, 1 << 20)
            c(good[0], iter([*good[1:5], odd, good[5]]), HEAD, TAIL, END, 1000, 1 << 20)
            c(good[0], iter(good[1:]), HEAD, TAIL, END, 3, 1 << 20)
            c(good[0], boom(), HEAD, TAIL, END, 1000, 1 << 20)
            scan(replies, 0, len(replies), 100, False, True, Msg.DONE, Msg.INSERTDONE, Msg.EOT,
                 Msg.COST)

    run(200)
    refs = [sys.getrefcount(x) for x in tracked]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        run(2000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept"
    assert [sys.getrefcount(x) for x in tracked] == refs
