"""The compiled executemany row decoder (``decode_bind_row`` in _tuplewriter.c) against its
reference, bindrun.pure_run_decoder: the same values and end offset, or None, for the same
bytes (issue 26). Rows are built by hand from PROTOCOL.md's BIND item layout (tests in
test_bindrun.py give the helpers' meaning); truncations, NULL sentinels, NaNs, text that
does not decode and headers that differ are all compared."""

from __future__ import annotations

import math
import random
import struct

import pytest

from ifxwire import _accel
from ifxwire.server import bindrun
from ifxwire.server.bindrun import compiled_run_decoder, headers_at, pure_run_decoder

pytestmark = pytest.mark.skipif(bindrun._tw is None, reason="ifxwire._tuplewriter not built")

SMALLINT, INTEGER, FLOAT, CHAR, VARCHAR, SERIAL, BIGINT, BIGSERIAL = 1, 2, 3, 0, 13, 6, 52, 53
NCHAR, NVARCHAR = 15, 16
CODES = [SMALLINT, INTEGER, SERIAL, BIGINT, BIGSERIAL, FLOAT, CHAR, VARCHAR, NCHAR, NVARCHAR]
_FMT = {SMALLINT: ">h", INTEGER: ">i", SERIAL: ">i", BIGINT: ">q", BIGSERIAL: ">q"}


def item(code: int, value: bytes | float | int, prec: int = 0) -> bytes:
    head = struct.pack(">hhh", code, 0, prec)
    if code in (CHAR, VARCHAR, NCHAR, NVARCHAR):
        assert isinstance(value, bytes)
        return head + struct.pack(">H", len(value)) + value + b"\0" * (len(value) & 1)
    if code == FLOAT:
        return head + (value if isinstance(value, bytes) else struct.pack(">d", value))
    return head + struct.pack(_FMT[code], value)


def value(rnd: random.Random, code: int) -> bytes | float | int:
    if code in (CHAR, VARCHAR, NCHAR, NVARCHAR):
        pool = [b"", b"a", b"ab", "héllo".encode(), b"\xff\xfe", b"x" * rnd.randint(0, 300),
                "日本".encode()]
        return rnd.choice(pool)
    if code == FLOAT:
        return rnd.choice([0.0, -0.0, 2.5, -1e300, math.inf, -math.inf, math.nan,
                           b"\xff" * 8, b"\x7f\xf8" + b"\0" * 6, rnd.random()])
    fmt = _FMT[code]
    bits = struct.calcsize(fmt) * 8
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return rnd.choice([lo, lo + 1, hi, 0, -1, rnd.randint(lo, hi)])


def same(a: object, b: object) -> bool:
    """Equal, NaN equal to NaN (the pure decoder returns NaN for a NaN that is not NULL)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        (va, pa), (vb, pb) = a, b
        return pa == pb and len(va) == len(vb) and all(
            type(x) is type(y) and (x == y or (isinstance(x, float) and x != x and y != y))
            for x, y in zip(va, vb, strict=True))
    return a == b


def compiled(headers: list[bytes], encoding: str) -> bindrun.RunDecoder:
    decoder = compiled_run_decoder(headers, encoding)
    assert decoder is not None
    return decoder


@pytest.mark.parametrize("encoding", ["utf-8", "iso-8859-1", "ascii", "cp1252"])
def test_random_rows_agree(encoding: str) -> None:
    rnd = random.Random(26)
    for _ in range(300):
        sig = [rnd.choice(CODES) for _ in range(rnd.randint(1, 7))]
        first = b"".join(item(c, value(rnd, c)) for c in sig)
        headers = headers_at(bytearray(first), 0, len(first), len(sig))
        assert headers is not None
        pure = pure_run_decoder(headers, encoding)
        fast = compiled(headers, encoding)
        for _ in range(8):
            row = b"".join(item(c, value(rnd, c)) for c in sig)
            lead = bytes(rnd.randint(0, 5))
            buf = bytearray(lead + row + b"\0\x04\0\x0c")  # the EXECUTE EOT that follows
            start = len(lead)
            for end in (start + len(row), len(buf), start + len(row) - 1,
                        start + rnd.randint(0, len(row)), len(buf) + 10):
                a, b = fast(buf, start, end), pure(buf, start, end)
                assert same(a, b), (sig, row, end, a, b)


def test_headers_that_differ_give_none() -> None:
    row = item(INTEGER, 5, 0x0A00) + item(VARCHAR, b"ab", 64)
    headers = headers_at(bytearray(row), 0, len(row), 2)
    assert headers is not None
    other = bytearray(item(INTEGER, 5, 0x0A01) + item(VARCHAR, b"ab", 64))
    nullrow = bytearray(struct.pack(">hhh", INTEGER, -1, 0x0A00) + item(VARCHAR, b"ab", 64))
    for enc in ("utf-8",):
        fast, pure = compiled(headers, enc), pure_run_decoder(headers, enc)
        assert fast(bytearray(row), 0, len(row)) == pure(bytearray(row), 0, len(row)) == (
            [5, "ab"], len(row))
        for buf in (other, nullrow):
            assert fast(buf, 0, len(buf)) is None and pure(buf, 0, len(buf)) is None


def test_null_sentinels_and_float_forms() -> None:
    row = (item(SMALLINT, -0x8000) + item(INTEGER, -0x80000000) + item(BIGINT, -(1 << 63))
           + item(FLOAT, b"\xff" * 8) + item(FLOAT, math.nan) + item(FLOAT, -0.0))
    buf = bytearray(row)
    headers = headers_at(buf, 0, len(buf), 6)
    assert headers is not None
    got = compiled(headers, "utf-8")(buf, 0, len(buf))
    assert got is not None
    values, end = got
    assert values[:4] == [None, None, None, None] and end == len(buf)
    assert math.isnan(values[4]) and math.copysign(1.0, values[5]) == -1.0  # type: ignore[arg-type]
    assert same(got, pure_run_decoder(headers, "utf-8")(buf, 0, len(buf)))


def test_undecodable_text_and_unknown_codec_give_none() -> None:
    row = bytearray(item(VARCHAR, b"\xff\xfe"))
    headers = headers_at(row, 0, len(row), 1)
    assert headers is not None
    for enc in ("utf-8", "ascii", "no-such-codec"):
        assert compiled(headers, enc)(row, 0, len(row)) is None
        assert pure_run_decoder(headers, enc)(row, 0, len(row)) is None


def test_the_server_uses_the_compiled_decoder_when_accelerated() -> None:
    row = bytearray(item(INTEGER, 1, 0x0A00))
    headers = headers_at(row, 0, len(row), 1)
    assert headers is not None
    decoder = bindrun.run_decoder(headers, "utf-8")
    # the compiled decoder is a closure over decode_bind_row; the pure one is exec'd source
    assert ("decode_row" in decoder.__code__.co_freevars) is _accel.accelerated
    assert decoder(row, 0, len(row)) == ([1], len(row))
