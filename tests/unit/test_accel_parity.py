"""Corrupted descriptions and rows: the accelerated and the pure path fail alike (defect 2).

A server (or a flipped bit) can describe a column no real server describes: a DECIMAL with a
precision of 8 million, a CHAR of length -1, a start position before the tuple. The C plan
cannot represent some of those shapes; it used to refuse them with a bare ``ValueError``
("bad plan item 1") while the pure path raised a PEP 249 ``InternalError``. Here every shape
of a systematic corpus is built, and rows decoded, with the accelerator switched on and off;
the outcomes (value types and reprs, or exception class and message, and the PEP 249 class the
driver maps it to) must be identical. The C side runs whether or not IFXWIRE_PURE is set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ifxwire import _accel
from ifxwire.client.lifecycle import codec_error
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types import rowcodec
from ifxwire.types.errors import CodecError

pytestmark = pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")

TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 40, 41, 43, 45, 52, 53]
ENCLENS = [
    -1,
    -(2**31),
    0,
    1,
    2,
    4,
    8,
    10,
    56,
    0x7FFF,
    0x10000,
    0x7FFFFFFF,
    (200 << 8) | 2,  # DECIMAL(200,2): precision past 32
    (32 << 8) | 255,  # DECIMAL(32), floating
    (33 << 8) | 0,
    (10 << 8) | 200,  # scale past precision
    (0xFFFF << 8) | 3,
    0x0E0A,  # DATETIME YEAR TO SECOND
    0x094A,  # INTERVAL DAY(3) TO SECOND
    (0x7F << 8) | 0xFF,
]


def shapes() -> Iterator[tuple[str, list[ColumnDesc]]]:
    """Each suspicious column alone, after an INTEGER (so it is plan item 1), in a variable
    layout (after a VARCHAR) and at a start position before or far after the tuple."""
    for t in TYPES:
        for enclen in ENCLENS:
            col = ColumnDesc("c", t, enclen)
            yield f"{t}/{enclen:#x}", [col]
            yield f"int,{t}/{enclen:#x}", [ColumnDesc("i", 2, 4), col]
            yield f"varchar,{t}/{enclen:#x}", [ColumnDesc("v", 13, 10), col]
        for start in (-4, 1 << 20):
            cols = [ColumnDesc("i", 2, 4, start=4), ColumnDesc("c", t, 4, start=start)]
            yield f"{t}@{start}", cols


def build(cols: list[ColumnDesc], accelerated: bool) -> Any:
    """The decoder the driver would use with the accelerator on or off (or the error)."""
    saved = _accel.accelerated
    _accel.accelerated = accelerated
    rowcodec._build_row_decoder.cache_clear()
    try:
        return rowcodec.build_row_decoder(cols, "iso-8859-1")
    finally:
        _accel.accelerated = saved
        rowcodec._build_row_decoder.cache_clear()


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    try:
        value = fn(*args)
    except Exception as exc:
        pep249 = type(codec_error(exc)).__name__ if isinstance(exc, CodecError) else None
        return "error", (type(exc).__name__, str(exc), pep249)
    if isinstance(value, tuple):
        return "row", [(type(v).__name__, repr(v)) for v in value]
    return "built", None


def payloads(rng: random.Random) -> Iterator[bytes]:
    for n in (0, 1, 2, 4, 5, 9, 10, 20, 60, 300):
        yield bytes(n)
        yield b"\xff" * n
        yield bytes(rng.randrange(256) for _ in range(n))
    yield b"\x00\x00\x00\x01\x05hello"
    yield b"\x00\x00\x00\x01\x00\x7f\xff\xff\xf0abc"


SHAPES = list(shapes())


@pytest.mark.parametrize("chunk", range(4))
def test_corrupted_shapes_fail_alike_on_both_paths(chunk: int) -> None:
    rng = random.Random(chunk)
    compared = 0
    for label, cols in SHAPES[chunk::4]:
        pure_build = outcome(build, cols, False)
        fast_build = outcome(build, cols, True)
        assert pure_build == fast_build, label
        if pure_build[0] == "error":
            # Refused at PREPARE: a CodecError the driver reports as a PEP 249 error.
            assert pure_build[1][2] is not None, (label, pure_build)
            continue
        pure, fast = build(cols, False), build(cols, True)
        for data in payloads(rng):
            buf = b"\x00\x0e\x00\x00" + bytes(4) + data + b"\x00" * 8
            for off, size in ((8, len(data)), (8, len(data) + 1), (8, len(data) + 100)):
                got = outcome(fast, buf, off, size)
                want = outcome(pure, buf, off, size)
                assert got == want, (label, data.hex(), off, size)
                if want[0] == "error":
                    assert want[1][2] is not None, (label, want)  # a PEP 249 class
                compared += 1
    assert compared > 1000


def test_the_issue_shape_decimal_with_a_bad_encoded_length() -> None:
    """The reported case: an INTEGER, then a DECIMAL whose encoded length is impossible."""
    cols = [ColumnDesc("i", 2, 4), ColumnDesc("d", 5, 0x7FFFFFFF)]
    pure, fast = outcome(build, cols, False), outcome(build, cols, True)
    assert pure == fast
    assert pure[0] == "error" and pure[1][2] == "InternalError"
    assert "precision" in pure[1][1] and "column 2" in pure[1][1]


def test_a_plan_the_c_side_refuses_falls_back_to_the_pure_decoder() -> None:
    """Belt and braces: whatever make_row_decoder refuses, the pure decoder takes over."""
    cols = [ColumnDesc("i", 2, 4)]
    pure = rowcodec.build_row_decoder(cols, "iso-8859-1")
    pure = getattr(pure, "pure", pure)
    saved = _accel.row_plan
    try:
        _accel.row_plan = lambda columns, encoding="": (False, 4, ((0, -1, 4, None, None, None),))
        assert _accel.c_row_decoder(pure, cols, "iso-8859-1", False) is None
    finally:
        _accel.row_plan = saved
