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
DATE, MONEY, DATETIME = 7, 8, 10


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
    for row in (item(INTEGER, 0, indicator=-1), struct.pack(">hhh", DATETIME, 0, 0) + b"\0" * 8,
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


# --- DATE and DECIMAL/MONEY (issue 25: adbc_ingest's columns) ----------------------------------


def _date_item(days: int) -> bytes:
    return struct.pack(">hhhi", DATE, 0, 0, days)


def _decimal_item(code: int, data: bytes, prec: int = 0x0C02) -> bytes:
    return struct.pack(">hhhH", code, 0, prec, len(data)) + data + b"\0" * (len(data) & 1)


def _general(buf: bytearray, nparams: int) -> object:
    """What the single-row path (_on_bind) takes: decode_bind_values' values, or its error."""
    from ifxwire.types.bind import decode_bind_values
    from ifxwire.types.errors import CodecError

    try:
        values, end = decode_bind_values(buf, 0, nparams, "utf-8")
    except CodecError:
        return None
    return [v.value for v in values], end


# Base-100 DECIMAL bytes (PROTOCOL.md, SQ_BIND DECIMAL): a head byte (0xC0 + exponent for a
# positive value, its complement for a negative one) then the digit pairs; C1 00 is zero.
_DECIMALS = [b"\xc1\x00", b"\xc1\x0c\x22", b"\xc2\x01\x00\x00", b"\xbe\x57\x41",
             b"\xc0\x32", b"\x3e\x62\x58", b"\xc5" + bytes(range(1, 9)), b"\x00\x00",
             b"\xc1\x9f", b"", b"\xc1"]
_DAYS = [0, 1, -693594, 2958464, 45000, -0x80000000, 2958465, 0x7FFFFFFF]


@pytest.mark.parametrize("code", [DECIMAL, MONEY])
def test_date_and_decimal_rows_decode_as_the_single_row_path_does(code: int) -> None:
    """Every decoder (decode_bind_plain, the pure and the compiled run decoder) gives the
    single-row path's values, or None where that path raises (a day out of range, a digit
    pair over 99, an empty DECIMAL): then the row is left to that path and its error."""
    from ifxwire.server.bindrun import compiled_run_decoder, pure_run_decoder

    for days in _DAYS:
        for dec in _DECIMALS:
            row = (item(INTEGER, 5) + _date_item(days) + _decimal_item(code, dec)
                   + item(VARCHAR, "z"))
            buf = bytearray(row)
            want = _general(buf, 4)
            plain = decode_bind_plain(buf, 0, len(buf), 4, "utf-8")
            assert plain == want or (plain is None and want is None), (days, dec)
            headers = headers_at(buf, 0, len(buf), 4)
            assert headers is not None
            decoders = [pure_run_decoder(headers, "utf-8")]
            fast = compiled_run_decoder(headers, "utf-8")
            if fast is not None:
                decoders.append(fast)
            for decode in decoders:
                assert decode(buf, 0, len(buf)) == plain, (days, dec)
                for end in range(len(row)):  # truncated: never a value from stale bytes
                    assert decode(buf + b"\xee" * 8, 0, end) is None


def test_a_null_date_or_decimal_is_none_as_in_the_single_row_path() -> None:
    row = bytearray(struct.pack(">hhh", DATE, -1, 0) + _date_item(-0x80000000)
                    + _decimal_item(DECIMAL, b"\x00\x00"))
    assert decode_bind_plain(row, 0, len(row), 3, "utf-8") == _general(row, 3)
    assert _general(row, 3) == ([None, None, None], len(row))


def test_a_date_stored_as_a_date_is_decoded_to_its_day_number() -> None:
    """Golden values (arrow9b): with the DATE item's position in ``days`` (the statement
    stores that parameter as a DATE), the pure and the compiled run decoder give the wire's
    day number, the form SQLite stores, where the single-row path gives a ``date``: the two
    agree through ``date_to_days``; the NULL day number is None. A DATE item outside ``days``
    and positions that are not DATE items are decoded as before. Out-of-range day numbers
    go out as they are: the DATE storer refuses them, and the single-row path reports it."""
    import datetime as dt

    from ifxwire.server.bindrun import compiled_run_decoder, date_params, pure_run_decoder
    from ifxwire.server.engine.core import convert
    from ifxwire.server.engine.core.errors import EngineError
    from ifxwire.server.engine.core.ifxtypes import IfxType
    from ifxwire.types.temporal import date_to_days

    golden = {dt.date(1, 1, 1): -693594, dt.date(1899, 12, 31): 0, dt.date(1900, 1, 1): 1,
              dt.date(9999, 12, 31): 2958464}
    for day, number in golden.items():
        assert date_to_days(day) == number
    for days in [*golden.values(), -0x80000000, 2958465, -693595]:
        row = item(INTEGER, 5) + _date_item(days) + _date_item(45000) + item(VARCHAR, "z")
        buf = bytearray(row)
        headers = headers_at(buf, 0, len(buf), 4)
        assert headers is not None
        plain = decode_bind_plain(buf, 0, len(buf), 4, "utf-8")
        number = None if days == -0x80000000 else days
        decoders = [pure_run_decoder(headers, "utf-8", frozenset({1, 3}))]
        fast = compiled_run_decoder(headers, "utf-8", frozenset({1, 3}))
        if fast is not None:
            decoders.append(fast)
        cached = cached_run_decoder(buf, 0, len(buf), 4, "utf-8", frozenset({1}))
        assert cached is not None
        decoders.append(cached)
        for decode in decoders:
            got = decode(buf, 0, len(buf))
            assert got is not None, days
            values, end = got
            assert end == len(row)
            assert values[1] == number and type(values[1]) is type(number), days
            assert values[0] == 5 and values[3] == "z"
            assert values[2] == dt.date(2023, 3, 16)  # not in ``days``: a date, as before
            if plain is not None:  # in range: the same value as the single-row path's
                assert values[1] == (None if plain[0][1] is None else date_to_days(plain[0][1]))
            for end in range(len(row)):
                assert decode(buf + b"\xee" * 8, 0, end) is None
    # The DATE storer takes the day number as it is, and refuses one out of range.
    conv = convert.storer(IfxType(7))
    assert [conv(n) for n in golden.values()] == list(golden.values())
    assert [conv(d) for d in golden] == list(golden.values())
    with pytest.raises(EngineError):  # DT_RANGE
        conv(2958465)
    assert date_params([IfxType(7), IfxType(2), IfxType(7)]) == frozenset({0, 2})
