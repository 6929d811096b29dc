"""The C SQ_BIND encoder gives byte-for-byte what the generated Python encoder gives.

Both encoders are built for one value-type pattern (the C one through
``_accel.c_bind_encoder``, which ignores IFXWIRE_PURE) and compared with each other and with
the generic per-value path (``encode_bind_value``) on random rows. Where the Python encoder
raises (so that ``bind_message`` falls back to the generic path), the C encoder must raise
too. Skipped when the extension is not built.
"""

from __future__ import annotations

import contextlib
import gc
import math
import struct
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ifxwire import _accel
from ifxwire.client import binds
from ifxwire.errors import DataError
from ifxwire.protocol.codes import Msg
from ifxwire.types.bind import BIND_CHAR_MAX, encode_bind_value
from ifxwire.types.bind_compile import compile_bind_encoder

pytestmark = pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")

Encoder = Callable[[Sequence[object]], bytes]
_HEAD = struct.Struct(">HH")
ENCODINGS = ["iso-8859-1", "utf-8", "ascii", "cp1252"]


def pure_encoder(pattern: tuple[type, ...], encoding: str) -> Encoder:
    built = compile_bind_encoder(pattern, encoding, Msg.BIND)
    assert built is not None
    pure: Encoder = getattr(built, "pure", built)
    return pure


def encoders(values: Sequence[object], encoding: str) -> tuple[Encoder, Encoder]:
    """(Python generated, C) encoders for the exact types of ``values``."""
    pattern = tuple(map(type, values))
    pure = pure_encoder(pattern, encoding)
    fast = _accel.c_bind_encoder(pure, pattern, encoding, Msg.BIND)
    assert fast is not None
    assert type(fast).__name__ == "BindEncoder"
    return pure, fast


def generic(values: Sequence[object], encoding: str) -> bytes:
    return _HEAD.pack(Msg.BIND, len(values)) + b"".join(
        encode_bind_value(v, encoding) for v in values
    )


def outcome(encode: Encoder, values: Sequence[object]) -> bytes | None:
    """The bytes, or None when the encoder raised (the caller's cue to fall back)."""
    try:
        return encode(values)
    except Exception:
        return None


def check(values: Sequence[object], encoding: str) -> bytes | None:
    pure, fast = encoders(values, encoding)
    want = outcome(pure, values)
    got = outcome(fast, values)
    assert got == want, (values, encoding)
    if want is not None:
        assert want == generic(values, encoding)
        # Lists are rows too (executemany passes whatever the caller gave).
        assert fast(list(values)) == want
    return got


INT32 = 2147483647
ints = st.one_of(
    st.integers(-INT32, INT32),
    st.sampled_from([-INT32 - 1, -INT32, -INT32 + 1, -1, 0, 1, INT32 - 1, INT32, INT32 + 1]),
    st.integers(-(2**70), 2**70),
)
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1.7976931348623157e308]),
)
texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(max_codepoint=0xFF), max_size=40),
    st.text(alphabet="abcdefgh", max_size=9),
    st.sampled_from(["", "a", "ab", "é", "\u20ac", "\U0001f600", "x\x00y", "\ud800"]),
)
callables = st.one_of(
    st.decimals(places=None),
    st.decimals(min_value=-(10**20), max_value=10**20, places=4),
    st.dates(),
    st.datetimes(),
    st.times(),
    st.timedeltas(),
)
values_st = st.one_of(ints, floats, texts, st.none(), st.booleans(), callables)


@settings(max_examples=400, deadline=None)
@given(st.lists(values_st, max_size=12), st.sampled_from(ENCODINGS))
def test_random_rows_match(values: list[Any], encoding: str) -> None:
    check(tuple(values), encoding)


BY_KIND: list[st.SearchStrategy[Any]] = [ints, floats, texts, st.none(), st.booleans()]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, len(BY_KIND) - 1), max_size=8), st.data())
def test_same_encoder_many_rows(kinds: list[int], data: st.DataObject) -> None:
    """One encoder, then many rows of the same pattern with other values (executemany)."""
    rows = [
        tuple(data.draw(BY_KIND[k]) for k in kinds) for _ in range(data.draw(st.integers(1, 6)))
    ]
    rows = [r for r in rows if tuple(map(type, r)) == tuple(map(type, rows[0]))]
    pure, fast = encoders(rows[0], "utf-8")
    for row in rows:
        assert outcome(fast, row) == outcome(pure, row)


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8", "ascii", "cp1252"])
@pytest.mark.parametrize("n", [0, 1, 2, BIND_CHAR_MAX - 1, BIND_CHAR_MAX, BIND_CHAR_MAX + 1])
def test_char_lengths(encoding: str, n: int) -> None:
    got = check((7, "x" * n, 1.5), encoding)
    assert (got is None) == (n > BIND_CHAR_MAX)


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8"])
def test_a_nul_is_refused_at_every_length_and_position(encoding: str) -> None:
    """The C encoder's NUL check: a NUL anywhere in a string of any length is refused, and no
    string without one is, whatever its bytes (0x80 and up, 0x01, multi-byte characters).
    (A word-at-a-time check was tried against memchr here: 5 instructions a row fewer on
    the bench's 5-column rows, not worth its code; docs/BENCHMARKS.md.)"""
    fillers = ["x", "\x01", "\x80", "\xff", "é"]
    for n in range(0, 41):
        for fill in fillers:
            clean = fill * n
            fast = encoders((clean,), encoding)[1]
            if len(clean.encode(encoding)) <= BIND_CHAR_MAX:
                assert fast((clean,)) == generic((clean,), encoding), (n, fill)
            for at in range(n):
                dirty = clean[:at] + "\x00" + clean[at + 1:]
                with pytest.raises(ValueError, match="NUL"):
                    fast((dirty,))


@pytest.mark.parametrize("encoding", ["iso-8859-1", "utf-8"])
def test_multibyte_lengths(encoding: str) -> None:
    # 'é' is 1 byte in Latin-1 and 2 in UTF-8: the limit is on bytes, not characters.
    half = BIND_CHAR_MAX // 2
    for s in ("é" * half, "é" * (half + 1), "é" * half + "a", "€", "ab€"):
        got = check((s,), encoding)
        size = len(s.encode(encoding, "replace"))
        if encoding == "utf-8":
            assert (got is None) == (size > BIND_CHAR_MAX)
        elif "€" in s:
            assert got is None
        else:
            assert (got is None) == (size > BIND_CHAR_MAX)


def test_exact_bytes() -> None:
    values = (-INT32, "abc", -0.0, None, True, False, "")
    _, fast = encoders(values, "iso-8859-1")
    assert fast(values) == bytes.fromhex(
        "0005 0007"
        "0002 0000 0a00 80000001"
        "0000 0000 0000 0003 61626300"
        "0003 0000 0000 8000000000000000"
        "0000 ffff 0000"
        "0000 0000 0000 0001 7400"
        "0000 0000 0000 0001 6600"
        "0000 0000 0000 0000"
    )


@pytest.mark.parametrize(
    "row",
    [
        (1, "a"),  # too short
        (1, "a", 2.0, None),  # too long
        (1, "a", 2),  # int where a float was
        (True, "a", 2.0),  # bool where an int was
        (1, b"a", 2.0),  # bytes where a str was
        (1, "a", None),  # None where a float was
        (1.0, "a", 2.0),  # float where an int was
    ],
)
def test_wrong_length_or_type_raises(row: tuple[Any, ...]) -> None:
    _, fast = encoders((1, "a", 2.0), "utf-8")
    with pytest.raises((TypeError, ValueError)):
        fast(row)


def test_subclass_of_callable_type_raises() -> None:
    class D(Decimal):
        pass

    _, fast = encoders((Decimal("1.5"),), "utf-8")
    with pytest.raises(TypeError):
        fast((D("1.5"),))
    with pytest.raises(TypeError):
        fast(42)  # not a sequence
    with pytest.raises(TypeError):
        fast()  # type: ignore[call-arg]


def test_bind_message_falls_back_on_c_refusals() -> None:
    """Rows the C encoder refuses still bind, generically, through bind_message."""
    binds._FAST.clear()
    try:
        for row in [
            (1, "a", 2.5),
            (2**40, "a", 2.5),  # BIGINT
            (1, "a" * 40000, 2.5),  # LVARCHAR
        ]:
            assert binds.bind_message(row, "utf-8") == generic(row, "utf-8")
        with pytest.raises(DataError):  # the generic path's error, not the C encoder's
            binds.bind_message((1, "a", math.inf), "utf-8")
    finally:
        binds._FAST.clear()


def test_patterns_without_encoder() -> None:
    pure = pure_encoder((int,), "utf-8")
    assert _accel.c_bind_encoder(pure, (int, object), "utf-8", Msg.BIND) is None
    assert _accel.c_bind_encoder(pure, (int, bytes), "utf-8", Msg.BIND) is None
    assert _accel.c_bind_encoder(pure, (int,), "no-such-codec", Msg.BIND) is None
    assert compile_bind_encoder((bytes,), "utf-8", Msg.BIND) is None


def test_hook_follows_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_accel, "accelerated", False)
    assert not hasattr(compile_bind_encoder((int,), "utf-8", Msg.BIND), "pure")
    monkeypatch.setattr(_accel, "accelerated", True)
    fast = compile_bind_encoder((int,), "utf-8", Msg.BIND)
    assert type(fast).__name__ == "BindEncoder"


def test_callable_results_must_be_bytes() -> None:
    from ifxwire import _speedups  # type: ignore[attr-defined]
    from ifxwire.types.bind import fast_bind_constants

    def bad(value: object, encoding: str) -> object:
        return "not bytes"

    def boom(value: object, encoding: str) -> bytes:
        raise RuntimeError("boom")

    for fn in (bad, boom):
        enc = _speedups.make_bind_encoder(
            (Decimal,), (_accel.B_CALL,), (fn,), "utf-8", 2, 5, fast_bind_constants(), None
        )
        with pytest.raises((TypeError, RuntimeError)):
            enc((Decimal(1),))
    # Kinds are tied to their types: the C code never reads a Decimal as an int.
    with pytest.raises(ValueError):
        _speedups.make_bind_encoder(
            (Decimal,), (_accel.B_INT,), (None,), "utf-8", 2, 5, fast_bind_constants(), None
        )


def test_no_reference_leaks() -> None:
    good = (
        123,
        "name-00000001-abc",
        7,
        1.5,
        "nöte",
        None,
        True,
        Decimal("12.50"),
        date(2024, 5, 1),
    )
    _, fast = encoders(good, "utf-8")
    bad_rows: list[tuple[Any, ...]] = [
        (2**33, *good[1:]),
        (good[0], "x" * 40000, *good[2:]),
        (*good[:3], math.nan, *good[4:]),
        (*good[:4], "\ud800", *good[5:]),
        good[:3],
        (*good[:7], Decimal("NaN"), good[8]),
    ]
    tracked = (good[1], good[7], fast)
    refs = [sys.getrefcount(x) for x in tracked]
    singletons = [sys.getrefcount(x) for x in (None, True)]

    def run(n: int) -> None:
        for _ in range(n):
            fast(good)
            for row in bad_rows:
                with contextlib.suppress(Exception):
                    fast(row)

    run(1000)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        run(50_000 // (1 + len(bad_rows)))
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept after 50000 encodes"
    assert [sys.getrefcount(x) for x in tracked] == refs
    # None and True are shared with everything else in the process: a leak of one reference
    # per encode would add thousands.
    after = [sys.getrefcount(x) for x in (None, True)]
    assert all(a - b < 1000 for a, b in zip(after, singletons, strict=True)), (singletons, after)


def test_datetime_callables() -> None:
    row = (
        Decimal("-0.001"),
        date(1, 1, 1),
        datetime(2024, 2, 29, 23, 59, 59, 999999),
        time(12, 0),
        timedelta(days=-3, seconds=5),
    )
    for encoding in ENCODINGS:
        assert check(row, encoding) is not None
