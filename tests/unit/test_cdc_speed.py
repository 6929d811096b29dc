"""The compiled CDC loops (``ifxwire._cdcspeed``, docs/CDC_SERVER.md "Compiled loops") against their
Python twins, which are the reference: the server's record renderer gives the same bytes (or
raises the same exception) for stored rows of every column type a capture carries, good
values, NULLs and the values the compiled path hands back to Python; and the client's record
loop gives the same events, in the same order, with the same errors, for the same bytes.

Both twins are built here from one plan (``render.build``; ``Decoder.fast``), whatever
IFXWIRE_PURE says: the compiled module is tested wherever it is built."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from ifxwire import _cdcaccel
from ifxwire.cdc import Decoder, Event, StreamError
from ifxwire.protocol import cdc as rec
from ifxwire.protocol.codes import TimeUnit
from ifxwire.server.engine.core import ifxtypes as it
from ifxwire.server.engine.core.ifxtypes import IfxType, T
from ifxwire.server.engine.features.cdc import render
from ifxwire.server.engine.features.cdc.capture import Capture, order_columns

needs_c = pytest.mark.skipif(not _cdcaccel.available, reason="ifxwire._cdcspeed is not built")

LOC = bytes(range(72))
#: (name, type, stored values: good ones, NULL, and ones the compiled path gives to Python)
COLUMNS: list[tuple[str, IfxType, list[object]]] = [
    ("i", IfxType(T.INTEGER), [0, 1, -1, 2147483647, -2147483647, None, True, 7.0,
                               2147483648, -2147483648, 10**30, "12"]),
    ("s", IfxType(T.SMALLINT), [5, -32767, 32767, None, 32768, -40000, False]),
    ("sr", IfxType(T.SERIAL), [1, 99, None]),
    ("b8", IfxType(T.BIGINT), [0, 2**62, -(2**62), None]),
    ("i8", IfxType(T.INT8), [3, -(2**40), None]),
    ("f", IfxType(T.FLOAT), [1.5, -0.0, 1e300, None, 3]),
    ("sf", IfxType(T.SMALLFLOAT), [2.25, None]),
    ("d", it.decimal(8, 2), ["12.50", "0.00", "0.05", "000123.40", "999999.99", "-3.00",
                             "12.5", "12", "1.234", "abc", "", ".", "1.2.3", "1234567.00",
                             "١٢.٥٠", " 1.00", None, 7, 2.5, "00000000000000000000001.00"]),
    ("d3", it.decimal(9, 3), ["1.500", "0.001", "123456.789", "0.000", "10.010", "-1.000"]),
    ("d0", it.decimal(5, 0), ["12345", "0", "7.", "100000", None]),
    ("df", it.decimal(10), ["3.25", "100", None]),
    ("d32", it.decimal(32, 31), ["1." + "0" * 30 + "1", "0." + "9" * 31]),
    ("m", IfxType(T.MONEY, prec=10, scale=2), ["99.95", "0.10", None]),
    ("dt", IfxType(T.DATE), [45000, 0, None]),
    ("ts", it.datetime_type(TimeUnit.YEAR, TimeUnit.SECOND), ["2026-11-29 16:50:00", None]),
    ("iv", it.interval_type(TimeUnit.DAY, TimeUnit.SECOND), [3600, None]),
    ("c", it.char(5), ["ab", "abcde", "", None]),
    ("v", it.varchar(10), ["", "abc", "0123456789", "01234567890", "é", "éééééé", "a\x00b",
                           "\x00", "\ud800", "日本", None, 5, b"xy"]),
    ("v255", it.varchar(255), ["x" * 255, "x" * 256, "é" * 128]),
    ("nv", IfxType(T.NVARCHAR, size=6), ["nv", "toolong!", None]),
    ("lv", IfxType(T.LVARCHAR, size=100), ["long text", "", None]),
    ("ok", IfxType(T.BOOLEAN), [1, 0, None]),
    ("bl", IfxType(T.BLOB), [LOC, None]),
    ("cl", IfxType(T.CLOB), [LOC, None]),
]


def _outcome(f: Callable[[], bytes]) -> object:
    try:
        return f()
    except Exception as e:
        return (type(e), str(e))


def _twins(names: list[str], types: list[IfxType], encoding: str = "utf-8", label: int = 3
           ) -> tuple[Any, Any]:
    shape = [(n, t.key) for n, t in zip(names, types, strict=True)]
    ordered, otypes = order_columns(names, types)
    pure, plan = render.build(label, ordered, otypes, shape, encoding)
    c = _cdcaccel.c_renderer(pure, plan, label)
    assert c is not None
    return pure, c


@needs_c
@pytest.mark.parametrize("encoding", ["utf-8", "iso-8859-1", "ascii", "cp1252"])
def test_renderer_gives_the_pure_bytes_for_every_column_type(encoding: str) -> None:
    for name, typ, values in COLUMNS:
        # the column alone, and between an INTEGER and a VARCHAR (offsets, sizes)
        for names, types in (([name], [typ]),
                             (["k", name, "tail"], [IfxType(T.INTEGER), typ, it.varchar(8)])):
            pure, c = _twins(names, types, encoding)
            for v in values:
                row = (v,) if len(names) == 1 else (42, v, "end")
                for recnum in (rec.INSERT, rec.DELETE, rec.UPDBEF, rec.UPDAFT):
                    want = _outcome(lambda: pure(recnum, row, 123456789012, 77))  # noqa: B023
                    got = _outcome(lambda: c(recnum, row, 123456789012, 77))  # noqa: B023
                    assert got == want, (encoding, name, v)


@needs_c
def test_renderer_hands_odd_arguments_to_python() -> None:
    """Header values out of the struct's range or not ints, short rows, rows that are not
    tuples: the pure renderer answers (its bytes or its exception)."""
    pure, c = _twins(["i", "v"], [IfxType(T.INTEGER), it.varchar(10)])
    cases: list[tuple[object, ...]] = [
        (rec.INSERT, (1, "a"), 2**63, 1), (rec.INSERT, (1, "a"), 5, 2**31),
        (2**31, (1, "a"), 5, 1), (rec.INSERT, (1,), 5, 1), (rec.INSERT, [1, "a"], 5, 1),
        (rec.INSERT, (1, "a"), -(2**63), -(2**31)), (True, (1, "a"), 5, 1),
        (rec.INSERT, (1, "a"), 5.0, 1), (rec.INSERT, (1, "a", "extra"), 5, 1),
    ]
    for args in cases:
        assert _outcome(lambda: c(*args)) == _outcome(lambda: pure(*args)), args  # noqa: B023


@needs_c
def test_renderer_over_a_wide_row_of_everything() -> None:
    names = [n for n, _, _ in COLUMNS]
    types = [t for _, t, _ in COLUMNS]
    pure, c = _twins(names, types)
    for k in range(max(len(v) for _, _, v in COLUMNS)):
        row = tuple(vals[k % len(vals)] for _, _, vals in COLUMNS)
        assert _outcome(lambda: c(rec.INSERT, row, 9, 8)) == _outcome(  # noqa: B023
            lambda: pure(rec.INSERT, row, 9, 8))  # noqa: B023


def _stream(encoding: str = "utf-8") -> tuple[bytes, dict[int, tuple[str, list[Any]]]]:
    """A stream of two captured tables with every column type and their good values (the
    server's renderer makes the records), with transactions, a truncate and an error."""
    tables: dict[int, tuple[str, list[Any]]] = {}
    out = [rec.begin(1, 1, 100, 0)]
    good = {"i": [0, 5, -7, None], "s": [1, None], "sr": [3], "b8": [2**62, None], "i8": [9],
            "f": [1.5, None], "sf": [2.25], "d": ["12.50", "0.00", "-3.00", None],
            "d3": ["1.500"], "d0": ["12345"], "df": ["3.25"], "d32": ["0." + "9" * 31],
            "m": ["99.95"], "dt": [45000], "ts": ["2026-11-29 16:50:00", None],
            "iv": [3600], "c": ["ab"], "v": ["abc", "", "é", None], "v255": ["x" * 255],
            "nv": ["nv"], "lv": ["long text", None], "ok": [1, None], "bl": [LOC, None],
            "cl": [LOC]}
    seq = 2
    for label, cols in ((1, COLUMNS[:12]), (2, COLUMNS[12:])):
        names = [n for n, _, _ in cols]
        types = [t for _, t, _ in cols]
        ordered, otypes = order_columns(names, types)
        cap = Capture(f"db:t{label}", label, ordered, otypes)
        out.append(cap.schema_record())
        descs = [t.describe(n) for n, t in zip(ordered, otypes, strict=True)]
        tables[label] = (f"db:informix.t{label}", descs)
        pure, _ = _twins(names, types, encoding, label)
        for k in range(6):
            row = tuple(good[n][k % len(good[n])] for n in names)
            for recnum in (rec.INSERT, rec.UPDBEF, rec.UPDAFT, rec.DELETE):
                out.append(pure(recnum, row, seq, 1))
                seq += 1
    out.append(rec.truncate(seq, 1, 2))
    out.append(rec.commit(seq + 1, 1, 101))
    out.append(rec.rollback(seq + 2, 2))
    out.append(rec.timeout(seq + 2))
    out.append(rec.error(1, -83701))
    return b"".join(out), tables


def _decoders(tables: dict[int, tuple[str, list[Any]]], encoding: str = "utf-8"
              ) -> tuple[Decoder, Decoder]:
    pure = Decoder(dict(tables), encoding)
    pure.fast = None
    fast = Decoder(dict(tables), encoding)
    fast.fast = _cdcaccel.c_decode_data()
    assert fast.fast is not None
    return pure, fast


def _events(d: Decoder, stream: bytes, step: int) -> list[object]:
    out: list[object] = []
    try:
        for i in range(0, len(stream), step):
            for ev in d.feed(stream[i:i + step]):
                out.append((ev, type(ev.row).__name__, ev.row._fields if ev.row else None))
    except Exception as e:
        out.append((type(e), str(e)))
    return out


@needs_c
@pytest.mark.parametrize("step", [1, 7, 100, 4096, 10**7])
def test_record_loop_gives_the_pure_events(step: int) -> None:
    stream, tables = _stream()
    pure, fast = _decoders(tables)
    want = _events(pure, stream, step)
    assert len(want) == 56 and all(isinstance(w[0], Event) for w in want)
    loop, taken = fast.fast, []
    assert loop is not None

    def counted(*args: Any) -> tuple[list[Any], list[int]]:
        got = loop(*args)
        taken.extend(got[0])
        return got
    fast.fast = counted
    assert _events(fast, stream, step) == want
    # the compiled loop made the data events whenever their records came whole
    # (the data events, the BEGIN and the COMMIT)
    assert len(taken) == (50 if step > len(stream) else len(taken)) and taken


@needs_c
def test_record_loop_stops_where_python_raises() -> None:
    """A malformed data record, a record of an unknown table, a row the decoder refuses, a
    time no datetime holds: the events before it, then the same error; BEGINTX/COMMTX with
    short headers or a payload: the same events."""
    stream, tables = _stream()
    first = stream.index(rec.data(rec.INSERT, 0, 0, 0, [], b"")[8:16], 200) - 8
    bad_cases = [
        rec.data(rec.INSERT, 5, 1, 9, [], b"\x00\x00\x00\x01"),  # table 9: no schema
        rec.data(rec.INSERT, 5, 1, 1, [], b"\x00"),  # a row too short for its columns
        b"\x00\x00\x00\x25" + stream[first + 4:first + 40],  # header size not 36 + 4n
        rec.begin(5, 1, 10**15, 0),  # a time no datetime holds
        rec.commit(5, 1, -(10**15)),
    ]
    odd_cases = [
        bytes.fromhex("00000010" "00000000" "00000042" "00000001"),  # a BEGINTX of 16 bytes
        bytes.fromhex("00000020" "00000000" "00000042" "00000002") + bytes(16),  # COMMTX, 32
        bytes.fromhex("00000028" "00000004" "00000042" "00000001") + bytes(28),  # payload
    ]
    for bad in bad_cases + odd_cases:
        cut = stream.index(rec.commit(0, 0, 0)[8:16], first + 1) - 8  # before the COMMIT
        s = stream[:cut] + bad + stream[cut:]
        pure, fast = _decoders(tables)
        want = _events(pure, s, len(s))
        if bad in bad_cases:
            assert isinstance(want[-1], tuple) and isinstance(want[-1][0], type)
            assert issubclass(want[-1][0], Exception)
        assert _events(fast, s, len(s)) == want


@needs_c
def test_record_loop_leaves_the_rest_when_the_consumer_stops() -> None:
    """A consumer leaving after a few events: the records after them stay in the decoder,
    as with the Python loop, and are handed out by the next feed."""
    stream, tables = _stream()
    got = []
    for d in _decoders(tables):
        events = d.feed(stream)
        head = [next(events) for _ in range(7)]
        events.close()  # type: ignore[attr-defined]
        got.append((head, bytes(d.buf), list(d.feed(b""))))
    assert got[0] == got[1]


def test_switch_follows_ifxwire_pure() -> None:
    pure = os.environ.get("IFXWIRE_PURE", "").strip().lower() in ("1", "true", "yes", "on")
    assert _cdcaccel.accelerated == (_cdcaccel.available and not pure)
    assert (_cdcaccel.decode_data() is None) == (not _cdcaccel.accelerated)
    pure_render, plan = render.build(1, ["i"], [IfxType(T.INTEGER)],
                                     [("i", IfxType(T.INTEGER).key)], "utf-8")
    chosen = _cdcaccel.renderer(pure_render, plan, 1)
    assert (chosen is pure_render) == (not _cdcaccel.accelerated)
    assert StreamError  # the public error class is unchanged


@needs_c
def test_log_body_parser_gives_the_json_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """hub._changes with the compiled parser against json: the same Changes (or the same
    error) for the bodies the hub writes and for hand-made odd ones; the plain ones (integers,
    strings without escapes, NULLs) are taken by the parser itself."""
    from ifxwire.server.engine.features.cdc import hub as H

    parse = _cdcaccel.c_parse_changes()
    assert parse is not None
    plain = [
        [H.Change(40, "db:t", (1, "abc", "12.50", None, -7, 0, 10**17, -(10**18) + 1))],
        [H.Change(41, "db:t", ()), H.Change(43, "db:u", ("", " sp ", "{b}"))],
        [],
    ]
    odd = [
        [H.Change(40, "db:t", (1.5, float("inf"), float("nan"), -0.0, 1e300))],
        [H.Change(40, "db:t", (b"\x00\xff", "quote\" back\\slash", "é日本", "a\nb", "\x01"))],
        [H.Change(40, "db:t", (True, False, 10**18, -(10**30), '{"b": x'))],
    ]
    texts = [H._body(c) for c in plain + odd] + [
        ' [ [40 ,"db:t",[ 1 , null ]] ]\n', "[[40, \"db:t\", [-0]]]", "[[40, \"db:t\", [01]]]",
        "[[40, \"db:t\", [1]]] x", "[[40, \"db:t\", [[1]]]]", "[[40, \"db:t\", [1], 9]]",
        "[[40, \"db:t\", \"ab\"]]", "[[40, \"db:t\"]]", "[[40, \"db:t\", [1,]]]", "[", "",
        "[[40, \"db:t\", [1e5, 2E-3, -]]]", "{}", "[[40, \"db:t\", [\"unterminated]]]",
        "[[40, \"db:t\", [1]],]", "[[40, \"db:t\", [NaN, Infinity]]]",
    ]
    for text in texts:
        monkeypatch.setattr(H, "_PARSE", None)
        want = _outcome(lambda: H._changes(text))  # noqa: B023
        monkeypatch.setattr(H, "_PARSE", parse)
        assert _outcome(lambda: H._changes(text)) == want, text  # noqa: B023
    for changes in plain:
        got = parse(H._body(changes), H.Change)
        assert got == changes  # taken by the compiled parser, not handed to json
        assert all(type(c.values) is tuple for c in got)
    for changes in odd:
        assert parse(H._body(changes), H.Change) is None
