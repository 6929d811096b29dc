"""The executemany fast paths give exactly what the generic code gives, bytes and errors alike.

Compiled bind encoders (one per value-type pattern), the DONE/EOT reply shortcut, the
tuple/list shortcut in ``arrange``, the cached capability sets and connect packet, and the
IPv4-literal connect.
"""

from __future__ import annotations

import random
import socket
import struct
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest

from ifxwire import _accel
from ifxwire.client import binds
from ifxwire.client.batch import _fast_replies, _Pipeline
from ifxwire.client.dsn import ConnectParams
from ifxwire.client.handshake import login_request
from ifxwire.client.placeholders import arrange, plan_sql
from ifxwire.client.transport import _connect
from ifxwire.errors import DatabaseError, ProgrammingError
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import CLIENT_PROTOCOLS, SERVER_PROTOCOLS, Msg, capability_set
from ifxwire.protocol.wire import Writer
from ifxwire.types.bind import encode_bind_value
from ifxwire.types.bind_compile import compile_bind_encoder
from ifxwire.types.values import IntervalYM

_HEAD = struct.Struct(">HH")


def generic(values: Any, encoding: str) -> bytes:
    return _HEAD.pack(Msg.BIND, len(values)) + b"".join(
        encode_bind_value(v, encoding) for v in values
    )


def generic_error(values: Any, encoding: str) -> DatabaseError | None:
    for i, v in enumerate(values):
        try:
            encode_bind_value(v, encoding)
        except Exception as exc:
            return binds.param_error(i, v, exc)
    return None


INTS = [0, 1, -1, 2**31 - 1, -(2**31 - 1), 2**31, -(2**31), 2**31 - 2, 2**62, -(2**63 - 1)]
FLOATS = [0.0, -0.0, 0.25, 1e300, -1e-300, 5e-324, 1.7976931348623157e308]
STRS = ["", "a", "ab", "é", "name0000001abc", "x" * 32767, "y" * 32766, "z" * 32768]
OTHERS: list[object] = [
    None,
    True,
    False,
    Decimal("1.5"),
    Decimal("-0"),
    date(2024, 2, 29),
    datetime(2024, 1, 2, 3, 4, 5, 6000),
    time(12, 30, 1),
    timedelta(days=3, seconds=7),
    IntervalYM(27),
]


def sample(rng: random.Random) -> object:
    pool = rng.choice([INTS, FLOATS, STRS, OTHERS])
    return rng.choice(pool)


@pytest.mark.parametrize("encoding", ["utf-8", "iso-8859-1"])
def test_compiled_encoder_matches_generic(encoding: str) -> None:
    rng = random.Random(1234)
    for _ in range(600):
        row = tuple(sample(rng) for _ in range(rng.randint(0, 8)))
        assert binds.bind_message(row, encoding) == generic(row, encoding), row
        assert binds.bind_message(list(row), encoding) == generic(row, encoding), row


def test_compiled_encoder_refuses_what_it_does_not_handle() -> None:
    enc = compile_bind_encoder((int, float, str), "ascii", Msg.BIND)
    assert enc is not None
    assert enc((5, 0.5, "abc")) == generic((5, 0.5, "abc"), "ascii")
    for row in [(2**31, 0.5, "a"), (1, float("inf"), "a"), (1, float("nan"), "a"), (1, 1.0, "é")]:
        with pytest.raises(Exception):  # noqa: B017 - any failure sends the row to the generic path
            enc(row)
    assert compile_bind_encoder((int, type("X", (), {})), "ascii", Msg.BIND) is None


class MyInt(int):
    pass


@pytest.mark.parametrize(
    "row",
    [
        (2**63, "a"),
        (1, float("nan")),
        (float("-inf"),),
        ("é", 1),
        (complex(1, 2),),
        (object(),),
        (MyInt(7), "a"),
        (datetime(2024, 1, 1).astimezone(), 1),
    ],
)
def test_errors_and_fallbacks_are_unchanged(row: tuple[object, ...]) -> None:
    expected = generic_error(row, "ascii")
    if expected is None:
        assert binds.bind_message(row, "ascii") == generic(row, "ascii")
        return
    with pytest.raises(type(expected)) as info:
        binds.bind_message(row, "ascii")
    assert str(info.value) == str(expected)
    assert info.value.sqlstate == expected.sqlstate


def test_bigint_rows_keep_the_generic_bytes() -> None:
    row = (2**40, -(2**40), 3)
    for _ in range(3):
        assert binds.bind_message(row, "utf-8") == generic(row, "utf-8")


def test_arrange_shortcut_matches() -> None:
    plan = plan_sql("INSERT INTO t VALUES (?, ?)")
    assert arrange(plan, (1, 2)) == (1, 2)
    assert arrange(plan, [1, 2]) == [1, 2]
    with pytest.raises(ProgrammingError, match=r"needs 2 parameter\(s\), 3 were given"):
        arrange(plan, (1, 2, 3))
    with pytest.raises(ProgrammingError, match="must be a sequence"):
        arrange(plan, "ab")
    numeric = plan_sql("INSERT INTO t VALUES (:2, :1)")
    assert arrange(numeric, (1, 2)) == [2, 1]
    named = plan_sql("INSERT INTO t VALUES (:a)")
    with pytest.raises(ProgrammingError, match="as a mapping"):
        arrange(named, (1,))


class _FakeTransport:
    def __init__(self, data: bytes) -> None:
        self.buf = bytearray(data)
        self.start = 0
        self.end = len(data)


class _FakeConn:
    def __init__(self, layout: m.Layout, data: bytes) -> None:
        self._layout = layout
        self._transport = _FakeTransport(data)


def _reply(layout: m.Layout, rows: int, serial: int, serial8: int | None) -> bytes:
    w = Writer()
    m.put_done(w, rows, layout, serial=serial)
    if serial8 is not None:
        m.put_insertdone(w, serial8, serial8, layout)
    m.put_eot(w)
    return bytes(w.buf)


#: The pure reply loop (None) and the C one when it is built: the same outcome for each input.
SCANNERS = [None] + ([_accel.c_reply_scanner()] if _accel.c_reply_scanner() else [])


def bare_pipeline(layout: m.Layout, scan: Any) -> _Pipeline:
    pipe = _Pipeline.__new__(_Pipeline)
    pipe.rows = 0
    pipe.lastrowid = None
    pipe._last_done = None
    pipe._last_fields = None
    (pipe._done_eot, pipe._done_cost_eot, pipe._done_body,
     pipe._insert_body) = _fast_replies(layout)
    pipe._scan = scan
    pipe._scan_layout = (
        layout.long_rowid, layout.bigint, Msg.DONE, Msg.INSERTDONE, Msg.EOT, Msg.COST)
    return pipe


@pytest.mark.parametrize("scan", SCANNERS)
@pytest.mark.parametrize("long_rowid", [False, True])
@pytest.mark.parametrize("bigint", [False, True])
@pytest.mark.parametrize("serial8", [None, 0, 5, 2**40, -(2**40)])
def test_fast_reply_matches_reply_parser(
    long_rowid: bool, bigint: bool, serial8: int | None, scan: Any
) -> None:
    layout = m.Layout(long_rowid=long_rowid, bigint=bigint)
    data = _reply(layout, 1, 7, serial8) + b"\x00\x0c"
    conn = _FakeConn(layout, data)
    pipe = bare_pipeline(layout, scan)
    assert pipe._read_fast(conn, 1) == 1  # type: ignore[arg-type]
    assert conn._transport.start == len(data) - 2
    assert pipe.rows == 1
    assert pipe.last_done == m.Done(0, 1, 0, 7)
    assert pipe.lastrowid == (serial8 or 7)
    # Incomplete or different replies are left to the Reply path, untouched.
    for cut in (len(data) - 3, 3, 1):
        short = _FakeConn(layout, data[:cut])
        assert not pipe._read_fast(short, 1)  # type: ignore[arg-type]
        assert short._transport.start == 0
    assert not pipe._read_fast(_FakeConn(layout, b"\x00\x0c"), 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("scan", SCANNERS)
@pytest.mark.parametrize("long_rowid", [False, True])
@pytest.mark.parametrize("bigint", [False, True])
def test_fast_replies_read_together_up_to_the_limit(
    long_rowid: bool, bigint: bool, scan: Any
) -> None:
    """Several buffered replies are consumed in one call, never past ``limit`` nor past a
    reply of another shape; the sums and the last fields are those of the row-by-row reads."""
    layout = m.Layout(long_rowid=long_rowid, bigint=bigint)
    replies = [
        _reply(layout, 1, 0, None),
        _reply(layout, 1, 9, 2**40),
        _reply(layout, 0, 0, None),
        _reply(layout, 3, 11, None),
    ]
    other = b"\x00\x0d" + b"\x00" * 30  # SQ_ERR: not a fast reply
    data = b"".join(replies) + other
    pipe = bare_pipeline(layout, scan)
    conn = _FakeConn(layout, data)
    assert pipe._read_fast(conn, 2) == 2  # type: ignore[arg-type]
    assert conn._transport.start == len(replies[0]) + len(replies[1])
    assert (pipe.rows, pipe.lastrowid) == (2, 2**40)
    assert pipe._read_fast(conn, 100) == 2  # type: ignore[arg-type]
    assert conn._transport.start == len(data) - len(other)
    assert (pipe.rows, pipe.lastrowid) == (5, 11)
    assert pipe.last_done == m.Done(0, 3, 0, 11)
    assert pipe._read_fast(conn, 100) == 0  # type: ignore[arg-type]


def test_capability_set_cached_and_unchanged() -> None:
    for mask in (CLIENT_PROTOCOLS, SERVER_PROTOCOLS, b"\x80\x01", b""):
        expected = frozenset(
            8 * i + (7 - b) for i, byte in enumerate(mask) for b in range(8) if byte & (1 << b)
        )
        assert capability_set(mask) == expected
        assert capability_set(bytearray(mask)) == expected


def test_login_request_cached_bytes_are_stable() -> None:
    params = ConnectParams(addresses=[], server="ol", user="u", password="p")
    first, user = login_request(params, "utf-8")
    again, _ = login_request(params, "utf-8")
    assert user == "u"
    assert first == again
    other, _ = login_request(
        ConnectParams(addresses=[], server="ol", user="u", password="q"), "utf-8"
    )
    assert other != first


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_connect_literal_and_name(host: str) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        sock = _connect(host, port, 5.0)
        try:
            assert sock.gettimeout() == 5.0
            assert sock.getpeername()[1] == port
        finally:
            sock.close()


def test_connect_refused_is_oserror() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(OSError):
        _connect("127.0.0.1", port, 2.0)


def _raw_reply(layout: m.Layout, warn: int, rows: int, rowid: int, serial: int,
               ins: tuple[int, int, int, int] | None, *, ins_first: bool = False,
               cost: bool = False) -> bytes:
    """A reply built field by field (any values, also ones no server sends): our server's
    DONE [INSERTDONE] EOT, or with ``ins_first``/``cost`` a real server's [INSERTDONE] DONE
    [COST] EOT (docs/PROTOCOL.md §17)."""
    wide = "q" if layout.long_rowid else "i"
    done = struct.pack(f">Hh{wide}{wide}i", Msg.DONE, warn, rows, rowid, serial)
    insert = b""
    if ins is not None:
        sign, low, high, big = ins
        insert = struct.pack(">HhII", Msg.INSERTDONE, sign, low, high)
        if layout.bigint:
            insert += struct.pack(">q", big)
    out = insert + done if ins_first else done + insert
    if cost:
        out += struct.pack(">Hii", Msg.COST, 3, 17)
    return out + struct.pack(">H", Msg.EOT)


@pytest.mark.skipif(len(SCANNERS) < 2, reason="the C accelerator is not built")
@pytest.mark.parametrize("seed", range(40))
def test_c_reply_loop_matches_the_pure_one(seed: int) -> None:
    rnd = random.Random(seed)
    layout = m.Layout(long_rowid=rnd.random() < 0.5, bigint=rnd.random() < 0.5)
    lim = (2**63 - 1) if layout.long_rowid else (2**31 - 1)
    parts = []
    for _ in range(rnd.randint(1, 30)):
        ins = None
        if rnd.random() < 0.5:
            ins = (
                rnd.choice([0, 1, -1, 7, -300]),
                rnd.randrange(2**32),
                rnd.choice([0, 1, rnd.randrange(2**32), 2**32 - 1]),
                rnd.choice([0, 0, 5, -(2**63), 2**63 - 1]),
            )
        parts.append(
            _raw_reply(
                layout,
                rnd.randint(-(2**15), 2**15 - 1),
                # (row counts whose sum leaves int64 stop the C loop early: never sent)
                rnd.choice([0, 1, -1, 5, 2**31 - 1, -(2**31), -lim - 1]),
                rnd.randint(-lim - 1, lim),
                rnd.choice([0, 0, 3, -(2**31), 2**31 - 1]),
                ins,
                ins_first=rnd.random() < 0.5,
                cost=rnd.random() < 0.5,
            )
        )
        if rnd.random() < 0.05:
            parts.append(b"\x00\x0d" + bytes(20))  # SQ_ERR: both stop there
    data = b"".join(parts)
    data = data[: rnd.randint(len(data) // 2, len(data))]  # maybe cut mid-reply
    limit = rnd.randint(1, 40)
    outcomes = []
    for scan in SCANNERS:
        pipe = bare_pipeline(layout, scan)
        conn = _FakeConn(layout, data)
        count = pipe._read_fast(conn, limit)  # type: ignore[arg-type]
        outcomes.append(
            (count, conn._transport.start, pipe.rows, pipe.lastrowid, pipe._last_fields)
        )
    assert outcomes[0] == outcomes[1]


def test_a_str_parameter_binds_with_one_python_call_below_it() -> None:
    """The generic str bind (every str parameter of a single execute) encodes and packs its
    CHAR item inline: one Python call (encode_str) below ``_bind_str``, where it made three
    (encode_str, _item, _pad) before the NUL check was paid for (issue 24's 3 % count:
    codec encode_str 1.029-1.037 of 9a91c27's instructions, now 0.74-0.76). A count, not a
    timing; the bytes are the vectors' (test_codec_vectors.py)."""
    import sys

    from ifxwire.types import bind

    calls: list[str] = []

    def profile(frame: Any, event: str, arg: object) -> None:
        if event == "call":
            calls.append(frame.f_code.co_name)

    for value in ("odd", "even", ""):
        calls.clear()
        sys.setprofile(profile)
        try:
            item = bind._bind_str(value, "utf-8")
        finally:
            sys.setprofile(None)
        assert calls == ["_bind_str", "encode_str"], calls
        raw = value.encode()
        assert item == struct.pack(">hhhH", 0, 0, 0, len(raw)) + raw + b"\x00" * (len(raw) & 1)
