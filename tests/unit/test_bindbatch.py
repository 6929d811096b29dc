"""server/bindbatch.py: a run of ``ID n BIND … EXECUTE EOT`` groups decoded and converted in
one call gives, row for row, what the statement's binder gives for what decode_bind_plain
decodes, and stops before the first group it cannot take (the server then serves that group
and the rest the general way).

The compiled ``_bindbatch.insert_run`` and its pure twin ``pure_insert_run`` are both checked
against that reference. The BIND items are written by hand from PROTOCOL.md's layout
(as tests/unit/test_bindrun.py does), and the storers are the engine's own
(``convert.storer`` of real column types), so the check covers each storer's declared first
test (``convert.BIND_CHECK``) against its code.
"""

from __future__ import annotations

import datetime as dt
import importlib
import random
import struct
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from ifxwire.server import bindbatch, purerun
from ifxwire.server.bindrun import date_params, headers_at
from ifxwire.server.engine.core.convert import BIND_CHECK, row_tuple_binder, storer
from ifxwire.server.engine.core.ifxtypes import IfxType
from ifxwire.types.bind import decode_bind_plain

CHAR, SMALLINT, INTEGER, FLOAT, DECIMAL, DATE, VARCHAR, BIGINT = 0, 1, 2, 3, 5, 7, 13, 52
_FMT = {SMALLINT: ">h", INTEGER: ">i", BIGINT: ">q", FLOAT: ">d"}


def item(code: int, value: object, indicator: int = 0) -> bytes:
    """One BIND item: type, indicator, precision (0), then the value (text: u16 length, the
    UTF-8 bytes, a pad byte to an even length); a NULL (indicator -1) has no value."""
    head = struct.pack(">hhh", code, indicator, 0)
    if indicator:
        return head
    if code in (CHAR, VARCHAR):
        data = str(value).encode()
        return head + struct.pack(">H", len(data)) + data + b"\0" * (len(data) & 1)
    return head + struct.pack(_FMT[code], value)

try:
    _compiled = importlib.import_module("ifxwire._bindbatch").insert_run
except ImportError:  # pragma: no cover - built without a compiler
    _compiled = None

HEAD = bytes([0, 4, 0, 1, 0, 5])  # ID 1 BIND (nparams follows)
TAIL = bytes([0, 7, 0, 12])  # EXECUTE EOT
IMPLS: list[Any] = [pytest.param(bindbatch.pure_insert_run, id="pure"),
                    pytest.param(purerun.insert_run, id="generated")]  # (the pure server's)
if _compiled is not None:
    IMPLS.append(pytest.param(_compiled, id="compiled"))


def _t(code: int, size: int = 0, prec: int = 0, scale: int = 0) -> IfxType:
    return IfxType(code, size=size, prec=prec, scale=scale)


def date_item(d: dt.date | None) -> bytes:
    if d is None:
        return struct.pack(">hhhi", DATE, 0, 0, -0x80000000)
    return struct.pack(">hhhi", DATE, 0, 0, (d - dt.date(1899, 12, 31)).days)


def dec_item(x: Decimal) -> bytes:
    """DECIMAL as the client sends it: our own encoder of the digits (types.numeric)."""
    from ifxwire.types import numeric

    data = numeric.encode_decimal(x, (16 << 8) | 255)
    return struct.pack(">hhhH", DECIMAL, 0, 0, len(data)) + data + b"\0" * (len(data) & 1)


def group(items: list[bytes]) -> bytes:
    return HEAD + struct.pack(">H", len(items)) + b"".join(items) + TAIL


def reference(buf: bytearray, pos: int, end: int, nparams: int, convs: list[Any],
              max_rows: int) -> tuple[list[tuple[object, ...]], int, int]:
    """What the server's Python loop does: decode_bind_plain, then the binder; a row it
    cannot decode or bind ends the run."""
    binder = row_tuple_binder(convs)
    rows: list[tuple[object, ...]] = []
    last = pos
    head = HEAD + struct.pack(">H", nparams)
    while len(rows) < max_rows and buf.startswith(head, pos, end):
        plain = decode_bind_plain(buf, pos + 8, end, nparams, "utf-8")
        if plain is None or not buf.startswith(TAIL, plain[1], end):
            break
        try:
            rows.append(binder(plain[0]))
        except Exception:
            break
        last, pos = pos, plain[1] + 4
    return rows, pos, last


COLUMNS = {  # column type -> (item code, a value maker)
    "int": (_t(2), INTEGER, lambda r: r.randint(-2**31 + 1, 2**31 - 1)),
    "small": (_t(1), SMALLINT, lambda r: r.randint(-32767, 32767)),
    "big": (_t(52), BIGINT, lambda r: r.randint(-2**63 + 1, 2**63 - 1)),
    "float": (_t(3), FLOAT, lambda r: r.uniform(-1e9, 1e9)),
    # (VARCHAR(3): longer values are truncated by its storer)
    "varchar": (_t(13, size=3), VARCHAR, lambda r: "é" * r.randint(0, 3) + "ab"[: r.randint(0, 2)]),
    "char": (_t(0, size=5), CHAR, lambda r: "x" * r.randint(0, 5)),
}


def _convs(types: list[IfxType]) -> list[Any]:
    return [storer(t) for t in types]


def _steps(data: bytearray, types: list[IfxType]) -> tuple[bindbatch.Step, ...]:
    headers = headers_at(data, 8, len(data), len(types))
    assert headers is not None
    steps = bindbatch.plan(headers, _convs(types), date_params(types))
    assert steps is not None
    return steps


@pytest.mark.parametrize("impl", IMPLS)
def test_random_runs_equal_the_binder_of_the_plain_decoder(impl: Callable[..., Any]) -> None:
    rnd = random.Random(26)
    names = list(COLUMNS)
    for _ in range(60):
        sig = [rnd.choice(names) for _ in range(rnd.randint(1, 6))]
        types = [COLUMNS[n][0] for n in sig]
        data = bytearray(b"".join(
            group([item(COLUMNS[n][1], COLUMNS[n][2](rnd)) for n in sig]) for _ in range(20)))
        steps = _steps(data, types)
        got = impl(data, 0, len(data), HEAD + struct.pack(">H", len(sig)), TAIL, steps,
                   "utf-8", 1000)
        want = reference(data, 0, len(data), len(sig), _convs(types), 1000)
        assert got == want and len(got[0]) == 20 and got[1] == len(data)


@pytest.mark.parametrize("impl", IMPLS)
def test_dates_and_decimals_as_the_storers_make_them(impl: Callable[..., Any]) -> None:
    types = [_t(7), _t(5, prec=12, scale=2), _t(13, size=30)]
    days = [dt.date(1, 1, 1), dt.date(1899, 12, 31), dt.date(9999, 12, 31), dt.date(2026, 11, 30)]
    decs = [Decimal("0"), Decimal("-0.01"), Decimal("1234567890.12"), Decimal("0.005")]
    data = bytearray(b"".join(group([date_item(days[i % 4]), dec_item(decs[i % 4]),
                                     item(VARCHAR, f"r{i}")]) for i in range(8)))
    steps = _steps(data, types)
    assert steps[0][1] == 2  # the DATE as its day number (bindrun's rule), no date object
    rows, pos, last = impl(data, 0, len(data), HEAD + b"\0\3", TAIL, steps, "utf-8", 100)
    assert [r[0] for r in rows] == [-693594, 0, 2958464, 46355] * 2
    assert [r[1] for r in rows] == ["0.00", "-0.01", "1234567890.12", "0.01"] * 2  # rounded
    assert pos == len(data) and last == len(data) - len(group([date_item(days[3]),
                                                             dec_item(decs[3]),
                                                             item(VARCHAR, "r7")]))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("bad", ["null", "type", "range", "encoding", "tail", "max_rows"])
def test_the_run_stops_before_the_group_it_cannot_take(impl: Callable[..., Any],
                                                       bad: str) -> None:
    """Row 3 of 6 is one the plan does not fit or a storer refuses: rows 0-2 come back, the
    position is row 3's start, and nothing of row 3 or after is taken."""
    types = [_t(1), _t(13, size=4)]  # SMALLINT, VARCHAR(4)
    good = [group([item(SMALLINT, i), item(VARCHAR, "ab")]) for i in range(6)]
    rows_bytes = list(good)
    max_rows = 100
    if bad == "null":  # a NULL of a third type (neither the step's nor CHAR)
        rows_bytes[3] = group([item(INTEGER, 0, indicator=-1), item(VARCHAR, "ab")])
    elif bad == "type":
        rows_bytes[3] = group([item(INTEGER, 3), item(VARCHAR, "ab")])
    elif bad == "range":  # an INTEGER column's storer would take it; SMALLINT's refuses
        types = [_t(1), _t(13, size=4)]
        rows_bytes = [group([item(INTEGER, 40000 if i == 3 else i), item(VARCHAR, "ab")])
                      for i in range(6)]
    elif bad == "encoding":
        rows_bytes[3] = group([item(SMALLINT, 3), item(VARCHAR, "ab")[:8] + b"\xff\xfe"])
    elif bad == "tail":
        rows_bytes[3] = rows_bytes[3][:-2] + b"\0\x0b"  # EXECUTE then not EOT
    else:
        max_rows = 3
    data = bytearray(b"".join(rows_bytes))
    steps = _steps(data, types)
    rows, pos, last = impl(data, 0, len(data), HEAD + b"\0\2", TAIL, steps, "utf-8", max_rows)
    assert [r[0] for r in rows] == [0, 1, 2]
    assert pos == sum(map(len, rows_bytes[:3])) and last == sum(map(len, rows_bytes[:2]))
    want = reference(data, 0, len(data), 2, _convs(types), max_rows)
    if bad in ("null", "type"):  # not the plan's shape: the general loop decodes such a row
        assert len(want[0]) == 6 and want[0][:3] == rows
    else:  # refused (by a storer, the text's encoding, the group's bytes): the same stop
        assert (rows, pos, last) == want


@pytest.mark.parametrize("impl", IMPLS)
def test_nulls_of_the_steps_type_or_of_char_are_none(impl: Callable[..., Any]) -> None:
    """decode_bind_plain takes a NULL item (indicator -1 or -2, no value) of any plain type;
    the run takes those of the step's type and of CHAR (how our driver sends None), and each
    storer gets None (CHAR's and DECIMAL's are called with it, the others pass it)."""
    types = [_t(1), _t(13, size=4), _t(7), _t(0, size=2), _t(5, prec=6, scale=2)]
    nulls = [group([item(SMALLINT, 0, indicator=-1), item(CHAR, 0, indicator=-1),
                    item(DATE, 0, indicator=-2), item(CHAR, 0, indicator=-1),
                    item(DECIMAL, 0, indicator=-1)])]
    first = group([item(SMALLINT, 1), item(VARCHAR, "ab"), date_item(dt.date(2000, 1, 1)),
                   item(CHAR, "z"), dec_item(Decimal("1.5"))])
    data = bytearray(first + nulls[0] * 3 + first)
    steps = _steps(data, types)
    got = impl(data, 0, len(data), HEAD + b"\0\5", TAIL, steps, "utf-8", 100)
    assert got == reference(data, 0, len(data), 5, _convs(types), 100)
    assert got[0][1:4] == [(None, None, None, None, None)] * 3 and len(got[0]) == 5


@pytest.mark.parametrize("impl", IMPLS)
def test_a_run_cut_at_any_byte_takes_only_whole_groups(impl: Callable[..., Any]) -> None:
    types = [_t(2), _t(3), _t(7), _t(13, size=9), _t(0, size=3)]
    one = [group([item(INTEGER, i), item(FLOAT, i / 3), date_item(dt.date(2000, 1, 1 + i)),
                  item(VARCHAR, "é" * i), item(CHAR, "ab")]) for i in range(3)]
    data = bytearray(b"".join(one) + b"\xaa" * 16)  # stale bytes past the end
    steps = _steps(data, types)
    full = sum(map(len, one))
    for end in range(full + 1):
        got = impl(data, 0, end, HEAD + b"\0\5", TAIL, steps, "utf-8", 100)
        whole = sum(1 for k in range(1, 4) if sum(map(len, one[:k])) <= end)
        assert len(got[0]) == whole and got[1] == sum(map(len, one[:whole]))
        assert got == reference(data, 0, end, 5, _convs(types), 100)
    assert impl(data, 0, full, HEAD + b"\0\5", TAIL, steps, "utf-8", 100)[0][2][:4] == (
        2, 2 / 3, 36525 + 2, "éé")  # (2000-01-01 is day 36525)


def test_the_storers_declare_their_first_test() -> None:
    """Each BIND_CHECK restates its storer's first ``if``: a value it passes is returned
    unchanged by the storer, a value just outside is not passed (the storer is called)."""
    int_conv = storer(_t(1))
    assert getattr(int_conv, BIND_CHECK) == (1, -32767, 32767)
    for v in (-32767, 0, 32767, None):
        assert int_conv(v) is v
    assert not bindbatch._kept(32768, *getattr(int_conv, BIND_CHECK))
    date_conv = storer(_t(7))
    check = getattr(date_conv, BIND_CHECK)
    assert date_conv(-693594) == -693594 and bindbatch._kept(-693594, *check)
    assert not bindbatch._kept(-693595, *check)
    f = storer(_t(3))
    assert bindbatch._kept(1.5, *getattr(f, BIND_CHECK)) and f(1.5) == 1.5
    assert not bindbatch._kept(float("inf"), *getattr(f, BIND_CHECK))
    assert getattr(storer(_t(13, size=8)), BIND_CHECK) == (3, 8, -1)  # a one-byte code set
    from dataclasses import replace

    from ifxwire.server.engine.core.values import DEFAULT_CTX

    s = storer(_t(13, size=8), replace(DEFAULT_CTX, encoding="utf-8"))
    assert getattr(s, BIND_CHECK) == (3, 2, 8) and s("abcd") == "abcd"  # UTF-8: 8 bytes
    for text in ("abcdefgh", "abcdéfg", "ab€de", "éééé", "abcdefghi", "abcdéfgh", "ab€def"):
        kept = bindbatch._kept(text, *getattr(s, BIND_CHECK))
        assert kept == (len(text.encode()) <= 8) and (s(text) == text) == kept
    assert getattr(storer(_t(0, size=8)), BIND_CHECK) == (3, -1, -1)  # CHAR: always called
    assert getattr(storer(_t(5, prec=8, scale=2)), BIND_CHECK) == (5, 8, 2)  # text in C
    assert getattr(storer(_t(8, prec=8, scale=2)), BIND_CHECK) == (5, 8, 2)  # MONEY
    assert getattr(storer(_t(5, prec=8, scale=255)), BIND_CHECK) == (4, 0, 0)  # floating


def test_plan_refuses_other_counts_and_kinds() -> None:
    data = bytearray(group([item(INTEGER, 1)]))
    headers = headers_at(data, 8, len(data), 1)
    assert headers is not None
    assert bindbatch.plan(headers, []) is None
    conv = storer(_t(2))
    assert bindbatch.cached_plan(headers, [conv], frozenset(), "utf-8") == bindbatch.plan(
        headers, [conv])
    assert bindbatch.plan([b"\0\x0a\0\0\0\0"], [conv]) is None  # DATETIME: not a plain kind


def test_a_plan_cleared_by_another_session_between_lookups_is_planned_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The plan cache is every session thread's: another thread may clear it between a
    membership test and the read that follows (a KeyError then ended the session: the lead's
    review). One lookup, and a miss plans anew. The dict here answers as that race does."""

    class Cleared(dict[Any, Any]):
        def __contains__(self, key: object) -> bool:
            return True  # seen before the other thread's clear()...

        def __getitem__(self, key: Any) -> Any:
            raise KeyError(key)  # ...gone when read

    monkeypatch.setattr(bindbatch, "_PLANS", Cleared())
    data = bytearray(group([item(INTEGER, 1)]))
    headers = headers_at(data, 8, len(data), 1)
    assert headers is not None
    conv = storer(_t(2))
    assert bindbatch.cached_plan(headers, [conv], frozenset(), "utf-8") == bindbatch.plan(
        headers, [conv])


@pytest.mark.skipif(_compiled is None, reason="the C helper is not built")
def test_compiled_refuses_a_step_it_does_not_know() -> None:
    assert _compiled is not None
    bad = ((b"\0\2\0\0\0\0", 9, 4, 0, None, 1, 0, 1, int),)
    with pytest.raises(ValueError):
        _compiled(bytearray(8), 0, 8, HEAD + b"\0\1", TAIL, bad, "utf-8", 10)
    with pytest.raises(TypeError):
        _compiled(bytearray(8), 0, 8, HEAD, TAIL, [], "utf-8", 10)


@pytest.mark.skipif(_compiled is None, reason="the C helper is not built")
def test_compiled_passes_an_interrupt_from_a_storer_through() -> None:
    """Only an Exception ends the run quietly; anything else (KeyboardInterrupt) is raised."""
    assert _compiled is not None

    def stop(v: object) -> object:
        raise KeyboardInterrupt

    data = bytearray(group([item(INTEGER, 1)]))
    steps = ((bytes(data[8:14]), 2, 4, -0x80000000, None, 0, 0, 0, stop),)
    with pytest.raises(KeyboardInterrupt):
        _compiled(data, 0, len(data), HEAD + b"\0\1", TAIL, steps, "utf-8", 10)


def _dec_raw(raw: bytes) -> bytes:
    """A DECIMAL item of these base-100 bytes (head byte and digits) as they are."""
    return struct.pack(">hhhH", DECIMAL, 0, 0, len(raw)) + raw + b"\0" * (len(raw) & 1)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("prec,scale", [(12, 2), (5, 0), (16, 7), (32, 30), (3, 3)])
def test_decimal_text_is_the_storers_and_skips_it_only_without_rounding(
    impl: Callable[..., Any], prec: int, scale: int
) -> None:
    """A DECIMAL bind into a fixed-scale column: the text the column's storer makes, for
    values that need no rounding (made in C without calling the storer), need rounding or
    are too large (the storer is called: its result, or the run stops at that row), zero and
    negative zero, NULL, and bytes sent unnormalised (leading and trailing zero digits)."""
    from ifxwire.types import numeric

    rnd = random.Random(prec * 100 + scale)
    conv = storer(_t(5, prec=prec, scale=scale))
    calls: list[object] = []

    def counted(v: object) -> object:
        calls.append(v)
        return conv(v)

    setattr(counted, BIND_CHECK, getattr(conv, BIND_CHECK))
    values: list[Decimal] = [Decimal(0), Decimal("-0.0"), Decimal(1).scaleb(-scale),
                             -Decimal(1).scaleb(-scale)]
    for _ in range(300):
        digits = rnd.randint(1, prec)
        frac = rnd.randint(0, min(digits, scale + 2))  # now and then more than the scale
        x = Decimal(rnd.randint(-10**digits + 1, 10**digits - 1)).scaleb(-frac)
        values.append(x)
    raws = [numeric.encode_decimal(x, (32 << 8) | 255) for x in values]
    raws += [b"\xc1\x00\x05\x00", b"\xc0\x00\x00\x10", b"\x3e\x62\x00"]  # 5, 0.0016, -1 (0-pads)
    raws += [b"\x80\x00", b"\x00\x00\x01"]  # a zero; NULL
    taken_whole = [r for r in raws
                   if (lambda d: d is None or -d.as_tuple().exponent <= scale)(  # type: ignore[operator]
                       numeric.decode_decimal(r, 0, len(r)))]
    for raw in raws:
        data = bytearray(group([item(INTEGER, 1), _dec_raw(raw)]))
        types = [_t(2), _t(5, prec=prec, scale=scale)]
        headers = headers_at(data, 8, len(data), 2)
        assert headers is not None
        steps = bindbatch.plan(headers, [storer(types[0]), counted])
        assert steps is not None and steps[1][5:8] == (5, prec, scale)
        calls.clear()
        got = impl(data, 0, len(data), HEAD + b"\0\2", TAIL, steps, "utf-8", 10)
        want = reference(data, 0, len(data), 2, _convs(types), 10)
        assert got == want, (raw.hex(), got, want)
        if impl is _compiled and raw in taken_whole:
            d = numeric.decode_decimal(raw, 0, len(raw))
            if d is None or d.adjusted() < prec - scale or d.is_zero():
                assert calls == [], raw.hex()  # made in C: the storer not called


@pytest.mark.parametrize("impl", IMPLS)
def test_varchar_text_within_its_utf8_bytes_is_kept_without_the_storer(
        impl: Callable[..., Any]) -> None:
    """In a UTF-8 database a VARCHAR(8)'s storer returns a str of at most 8 UTF-8 bytes as it
    is (and cuts a longer one at a whole character): the run keeps the first kind without
    calling it and gives the second to it, with the storer's result either way."""
    from dataclasses import replace

    from ifxwire.server.engine.core.values import DEFAULT_CTX

    conv = storer(_t(13, size=8), replace(DEFAULT_CTX, encoding="utf-8"))
    calls: list[object] = []

    def counted(v: object) -> object:
        calls.append(v)
        return conv(v)

    setattr(counted, BIND_CHECK, getattr(conv, BIND_CHECK))
    texts = ["abcdefgh", "abcdéfg", "ab€de", "éééé", "abcdefghi", "abcdéfgh", "ab€def", "ab"]
    data = bytearray(b"".join(group([item(VARCHAR, x)]) for x in texts))
    headers = headers_at(data, 8, len(data), 1)
    assert headers is not None
    steps = bindbatch.plan(headers, [counted])
    assert steps is not None
    rows, pos, _last = impl(data, 0, len(data), HEAD + b"\0\1", TAIL, steps, "utf-8", 100)
    assert pos == len(data) and [r[0] for r in rows] == [conv(x) for x in texts]
    assert calls == ["abcdefghi", "abcdéfgh"]  # only the values it cuts (9 bytes each)


@pytest.mark.parametrize("impl", IMPLS)
def test_other_items_into_a_decimal_column_go_through_its_storer(
        impl: Callable[..., Any]) -> None:
    """An INTEGER, FLOAT or text item bound into a DECIMAL(8,2) column: the step reads that
    item's kind and gives the value to the storer (the DECIMAL text shortcut is only for a
    DECIMAL item); a step plan naming the shortcut for another kind is refused by the C."""
    types = [_t(5, prec=8, scale=2)] * 3
    data = bytearray(b"".join(group([item(INTEGER, i), item(FLOAT, i / 8),
                                     item(VARCHAR, f"{i}.125")]) for i in range(5)))
    steps = _steps(data, types)
    assert [st[5] for st in steps] == [4, 4, 4]
    got = impl(data, 0, len(data), HEAD + b"\0\3", TAIL, steps, "utf-8", 100)
    assert got == reference(data, 0, len(data), 3, _convs(types), 100) and len(got[0]) == 5
    assert got[0][1] == ("1.00", "0.13", "1.13")
