"""Codec micro-benchmarks: one cell decoded, one parameter encoded, per driver.

Cases (nanoseconds per operation, lower is better):

``decode_<type>``  per cell, in row context: a 10-column row of that type decoded by the
                   driver's fastest row path (ifxwire: ``build_row_decoder``; informix-driver:
                   ``compile_row_decoder``, its Phase 38 codegen), divided by 10. The payload
                   bytes are the same for both (made by ifxwire-server's row encoder).
``scalar_<type>``  one call of the per-value decoder (ifxwire: ``numeric.decode_integer(buf,
                   off)`` and friends; informix-driver: ``converters._decode_int(raw)`` and
                   friends, which take a slice the caller must cut: the slice is included).
``encode_<type>``  one parameter (ifxwire: ``bind.encode_bind_value``, the complete SQ_BIND
                   item; informix-driver: ``converters.encode_param``, ``(type, prec, data)``
                   before its framing, so it does slightly less work than ours).

Each case is calibrated once (about 10 ms per measurement, 2 ms with ``quick``) and measured
once per round with ``timeit``; the orchestrator interleaves rounds between drivers.
"""

from __future__ import annotations

import datetime
import timeit
from collections.abc import Callable
from decimal import Decimal
from typing import Any

NCOLS = 10
UTF8_TEXT = "naïve café ü ß € ñ"

# (case, type code, encoded length, value)
_CELL_TYPES: list[tuple[str, int, int, object]] = [
    ("int", 2, 4, 123456789),
    ("smallint", 1, 2, 1234),
    ("bigint", 52, 8, 1234567890123),
    ("float", 3, 8, 3.14159265),
    ("date", 7, 4, datetime.date(2024, 5, 17)),
    ("decimal", 5, (12 << 8) | 2, Decimal("12345.67")),
    ("datetime", 10, (14 << 8) | (0 << 4) | 10, datetime.datetime(2024, 5, 17, 13, 45, 30)),
    ("varchar_short", 13, 64, "short"),
    ("varchar_long", 13, 255, "x" * 60 + "long value"),
    ("varchar_utf8", 13, 64, UTF8_TEXT),
]

_PARAMS: list[tuple[str, object]] = [
    ("int", 123456789),
    ("str_short", "short"),
    ("str_long", "x" * 200),
    ("str_utf8", UTF8_TEXT),
    ("decimal", Decimal("12345.67")),
    ("date", datetime.date(2024, 5, 17)),
    ("datetime", datetime.datetime(2024, 5, 17, 13, 45, 30, 123456)),
    ("float", 3.14159265),
]


def _payload(type_code: int, enclen: int, value: object, encoding: str) -> tuple[bytes, list[Any]]:
    """A 10-column row payload (ifxwire-server's encoder) and ifxwire's column descriptors."""
    from ifxwire.protocol.columns import ColumnDesc
    from ifxwire.types.rowcodec import build_row_encoder

    cols = [ColumnDesc(f"c{i}", type_code, enclen) for i in range(NCOLS)]
    payload = build_row_encoder(cols, encoding)([value] * NCOLS)
    return bytes(payload), cols


def _encoding(case: str) -> str:
    return "utf-8" if case.endswith("utf8") else "iso-8859-1"


def ifxwire_cases() -> dict[str, tuple[Callable[..., object], tuple[Any, ...], int]]:
    """case -> (function, args, operations per call)."""
    from ifxwire.types import bind, numeric, temporal, text
    from ifxwire.types.rowcodec import build_row_decoder

    cases: dict[str, tuple[Callable[..., object], tuple[Any, ...], int]] = {}
    for case, tc, enclen, value in _CELL_TYPES:
        enc = _encoding(case)
        payload, cols = _payload(tc, enclen, value, enc)
        dec = build_row_decoder(cols, enc)
        got = dec(payload, 0, len(payload))
        if got[0] != value and not (case == "datetime" and str(got[0]) == str(value)):
            raise AssertionError(f"ifxwire decodes {case} as {got[0]!r}, expected {value!r}")
        cases[f"decode_{case}"] = (dec, (payload, 0, len(payload)), NCOLS)
    one = {c: _payload(tc, el, v, _encoding(c))[0] for c, tc, el, v in _CELL_TYPES}
    dt_dec = temporal.datetime_decoder((14 << 8) | 10)
    cases.update(
        scalar_int=(numeric.decode_integer, (one["int"], 0), 1),
        scalar_smallint=(numeric.decode_smallint, (one["smallint"], 0), 1),
        scalar_bigint=(numeric.decode_bigint, (one["bigint"], 0), 1),
        scalar_float=(numeric.decode_float, (one["float"], 0), 1),
        scalar_date=(temporal.decode_date, (one["date"], 0), 1),
        scalar_decimal=(
            numeric.decode_decimal,
            (one["decimal"], 0, numeric.decimal_width((12 << 8) | 2), 2),
            1,
        ),
        scalar_datetime=(dt_dec, (one["datetime"], 0), 1),
        scalar_varchar_short=(text.decode_varchar, (one["varchar_short"], 0, "iso-8859-1"), 1),
        scalar_varchar_long=(text.decode_varchar, (one["varchar_long"], 0, "iso-8859-1"), 1),
        scalar_varchar_utf8=(text.decode_varchar, (one["varchar_utf8"], 0, "utf-8"), 1),
    )
    for case, value in _PARAMS:
        cases[f"encode_{case}"] = (bind.encode_bind_value, (value, _encoding(case)), 1)
    return cases


def informix_db_cases() -> dict[str, tuple[Callable[..., object], tuple[Any, ...], int]]:
    from informix_db import converters as cv
    from informix_db._resultset import ColumnInfo, compile_column_readers, compile_row_decoder

    cases: dict[str, tuple[Callable[..., object], tuple[Any, ...], int]] = {}
    for case, tc, enclen, value in _CELL_TYPES:
        enc = _encoding(case)
        payload, _ = _payload(tc, enclen, value, enc)
        infos = [ColumnInfo(f"c{i}", tc, tc, enclen) for i in range(NCOLS)]
        readers = compile_column_readers(infos)
        dec = compile_row_decoder(readers, infos)
        if dec is None:
            raise AssertionError(f"informix-driver has no codegen decoder for {case}")
        got = dec(payload, 0, enc)
        if str(got[0]) != str(value):
            raise AssertionError(f"informix-driver decodes {case} as {got[0]!r}, not {value!r}")
        cases[f"decode_{case}"] = (dec, (payload, 0, enc), NCOLS)

    def sliced(fn: Callable[..., object], width: int, *extra: object) -> Callable[[bytes], object]:
        def call(buf: bytes) -> object:
            return fn(buf[0:width], *extra)

        return call

    one = {c: _payload(tc, el, v, _encoding(c))[0] for c, tc, el, v in _CELL_TYPES}

    def varchar(encoding: str) -> Callable[[bytes], object]:
        def call(buf: bytes) -> object:
            n = buf[0]
            return cv._decode_varchar(buf[1 : 1 + n], encoding)

        return call

    dt_len = (14 << 8) | 10
    cases.update(
        scalar_int=(sliced(cv._decode_int, 4), (one["int"],), 1),
        scalar_smallint=(sliced(cv._decode_smallint, 2), (one["smallint"],), 1),
        scalar_bigint=(sliced(cv._decode_bigint, 8), (one["bigint"],), 1),
        scalar_float=(sliced(cv._decode_float, 8), (one["float"],), 1),
        scalar_date=(sliced(cv._decode_date, 4), (one["date"],), 1),
        scalar_decimal=(sliced(cv._decode_decimal, 8), (one["decimal"],), 1),
        scalar_datetime=(sliced(cv._decode_datetime, 8, dt_len), (one["datetime"],), 1),
        scalar_varchar_short=(varchar("iso-8859-1"), (one["varchar_short"],), 1),
        scalar_varchar_long=(varchar("iso-8859-1"), (one["varchar_long"],), 1),
        scalar_varchar_utf8=(varchar("utf-8"), (one["varchar_utf8"],), 1),
    )
    for case, value in _PARAMS:
        cases[f"encode_{case}"] = (cv.encode_param, (value, _encoding(case)), 1)
    return cases


def make_body(driver: str, quick: bool = False) -> Callable[[], dict[str, Any]]:
    """A worker body measuring every case once per call; calibrated on creation."""
    cases = informix_db_cases() if driver == "informix-driver" else ifxwire_cases()
    target = 0.002 if quick else 0.01
    timers: dict[str, tuple[timeit.Timer, int, int]] = {}
    for name, (fn, args, per_call) in cases.items():
        t = timeit.Timer("fn(*args)", globals={"fn": fn, "args": args})
        t.timeit(50)  # warm caches (the first call of a codegen decoder, lazy imports)
        per = t.timeit(500) / 500
        number = max(100, int(target / max(per, 1e-9)))
        timers[name] = (t, number, per_call)

    def body() -> dict[str, Any]:
        out: dict[str, float] = {}
        for name, (t, number, per_call) in timers.items():
            out[name] = t.timeit(number) / (number * per_call) * 1e9
        return {"ops": len(out), "codec_ns": out}

    return body
