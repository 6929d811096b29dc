"""server/bindrun.py: a compiled run decoder gives exactly what decode_bind_plain gives, or
None (then the server decodes that row with decode_bind_plain).

The BIND items are written here by hand from the layout PROTOCOL.md documents (6-byte header
type/indicator/precision, then the value; text values with a 16-bit length and a pad byte to
an even length), not with our encoder."""

from __future__ import annotations

import math
import random
import struct

import pytest

from ifxwire.server.bindrun import cached_run_decoder, headers_at, run_decoder
from ifxwire.types.bind import decode_bind_plain

SMALLINT, INTEGER, FLOAT, CHAR, VARCHAR, SERIAL, BIGINT, DECIMAL = 1, 2, 3, 0, 13, 6, 52, 5


def item(code: int, value: object, prec: int = 0, indicator: int = 0,
         encoding: str = "utf-8") -> bytes:
    head = struct.pack(">hhh", code, indicator, prec)
    if indicator:
        return head
    if code in (CHAR, VARCHAR):
        data = str(value).encode(encoding)
        return head + struct.pack(">H", len(data)) + data + b"\0" * (len(data) & 1)
    if code == FLOAT:
        return head + struct.pack(">d", value)
    fmt = {SMALLINT: ">h", INTEGER: ">i", SERIAL: ">i", BIGINT: ">q"}[code]
    return head + struct.pack(fmt, value)


def both(data: bytes, nparams: int, encoding: str = "utf-8") -> tuple[object, object]:
    buf = bytearray(data)
    headers = headers_at(buf, 0, len(buf), nparams)
    assert headers is not None
    return run_decoder(headers, encoding)(buf, 0, len(buf)), decode_bind_plain(
        buf, 0, len(buf), nparams, encoding)


def test_the_five_column_row_decodes_as_the_plain_decoder_does() -> None:
    row = (item(INTEGER, 7, 0x0A00) + item(VARCHAR, "héllo", 64) + item(INTEGER, -3)
           + item(FLOAT, 2.5) + item(VARCHAR, "odd"))
    fast, plain = both(row, 5)
    assert fast == plain == ([7, "héllo", -3, 2.5, "odd"], len(row))


@pytest.mark.parametrize("encoding", ["utf-8", "iso-8859-1"])
def test_random_rows_of_one_signature_agree_with_the_plain_decoder(encoding: str) -> None:
    rnd = random.Random(16)
    codes = [SMALLINT, INTEGER, SERIAL, BIGINT, FLOAT, CHAR, VARCHAR]
    for _ in range(200):
        sig = [rnd.choice(codes) for _ in range(rnd.randint(1, 6))]
        first = b"".join(item(c, _value(rnd, c), encoding=encoding) for c in sig)
        decoder = run_decoder(headers_at(bytearray(first), 0, len(first), len(sig)) or [],
                              encoding)
        for _ in range(10):
            data = bytearray(b"".join(item(c, _value(rnd, c), encoding=encoding) for c in sig))
            got = decoder(data, 0, len(data))
            want = decode_bind_plain(data, 0, len(data), len(sig), encoding)
            assert got is not None and _same(got, want)


def test_sentinels_and_nan_are_what_the_plain_decoder_says() -> None:
    row = (item(INTEGER, -0x80000000) + item(SMALLINT, -0x8000) + item(BIGINT, -(2**63))
           + item(FLOAT, math.nan) + item(FLOAT, math.inf))
    fast, plain = both(row, 5)
    assert fast is not None and _same(fast, plain)
    assert fast[0][:3] == [None, None, None]
    nan_null = bytearray(item(FLOAT, 0.0)[:6] + b"\xff" * 8)
    headers = headers_at(nan_null, 0, len(nan_null), 1)
    assert headers is not None
    assert run_decoder(headers, "utf-8")(nan_null, 0, len(nan_null)) == decode_bind_plain(
        nan_null, 0, len(nan_null), 1, "utf-8")


def test_a_row_unlike_the_first_is_left_to_the_plain_decoder() -> None:
    first = item(INTEGER, 1) + item(VARCHAR, "a", 10)
    decoder = run_decoder(headers_at(bytearray(first), 0, len(first), 2) or [], "utf-8")
    for other in (item(INTEGER, 1, indicator=-1) + item(VARCHAR, "a", 10),  # a NULL
                  item(INTEGER, 1) + item(VARCHAR, "a", 11),  # another precision
                  item(SMALLINT, 1) + item(VARCHAR, "a", 10),  # another type
                  item(INTEGER, 1) + item(VARCHAR, "\udcff".encode("utf-8", "surrogatepass")
                                          .decode("latin-1"), 10, encoding="latin-1")):
        assert decoder(bytearray(other), 0, len(other)) is None
    # headers_at refuses what the compiled decoders do not handle: NULLs, named and other types
    for row in (item(INTEGER, 0, indicator=-1), struct.pack(">hhh", DECIMAL, 0, 0) + b"\0" * 8,
                struct.pack(">hhh", 0x100 | INTEGER, 0, 0) + b"\0" * 4):
        assert headers_at(bytearray(row), 0, len(row), 1) is None


def test_every_truncation_gives_none_or_the_plain_result() -> None:
    row = item(INTEGER, 5) + item(VARCHAR, "abc") + item(FLOAT, 1.5) + item(CHAR, "xy")
    buf = bytearray(row + b"\xee" * 16)  # stale bytes past the end must never be read
    headers = headers_at(buf, 0, len(row), 4)
    assert headers is not None
    decoder = run_decoder(headers, "utf-8")
    for end in range(len(row) + 1):
        got = decoder(buf, 0, end)
        assert got == decode_bind_plain(buf, 0, end, 4, "utf-8")
        assert (got is not None) == (end == len(row))


def test_decoders_are_shared_and_bounded() -> None:
    from ifxwire.server import bindrun

    row = bytearray(item(INTEGER, 1))
    a = cached_run_decoder(row, 0, len(row), 1, "utf-8")
    assert a is not None and a is cached_run_decoder(row, 0, len(row), 1, "utf-8")
    for prec in range(bindrun.RUN_DECODERS_MAX + 5):
        other = bytearray(item(INTEGER, 1, prec))
        cached_run_decoder(other, 0, len(other), 1, "utf-8")
    assert len(bindrun._RUN_DECODERS) <= bindrun.RUN_DECODERS_MAX


def _value(rnd: random.Random, code: int) -> object:
    if code == SMALLINT:
        return rnd.randint(-0x7FFF, 0x7FFF)
    if code in (INTEGER, SERIAL):
        return rnd.randint(-0x7FFFFFFF, 0x7FFFFFFF)
    if code == BIGINT:
        return rnd.randint(-(2**63) + 1, 2**63 - 1)
    if code == FLOAT:
        return rnd.choice([rnd.uniform(-1e9, 1e9), 0.0, -0.0, 1e308])
    return "".join(rnd.choice("abcé ü'\"") for _ in range(rnd.randint(0, 9)))


def _same(a: object, b: object) -> bool:
    """Equal, with NaN equal to NaN and -0.0 told from 0.0."""
    return repr(a) == repr(b)
