"""The driver against a hostile or broken server: lengths that lie, replies that never end.

Every scenario is staged by the scripted ``FakeServer`` (conftest.py), which answers chosen
request groups with crafted bytes. Each test checks what docs/DRIVER.md ("Guarantees under a
hostile or broken server") promises: a PEP 249 error naming the message, the field and the
offset; the connection marked broken; memory bounded (tracemalloc) and no wait for bytes the
description cannot justify. Sync and ``ifxwire.aio`` run the same scenarios; the accelerated
and pure paths are covered by the two runs of the suite (scripts/test.sh).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fuzzreplay import Listener, pump

import ifxwire
import ifxwire.aio as aio
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import CLIENT_PROTOCOLS, SERVER_PROTOCOLS, Msg, StmtType, TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.login import ConnectResponse, build_connect_response
from ifxwire.protocol.wire import Writer
from ifxwire.types.blobs import server_descriptor

FakeServer = Any
SQL = "SELECT a FROM t"
USER_OK, PASSWORD_OK = "informix", "in4mix"  # what FakeServer accepts
LAYOUT = m.Layout.negotiate(SERVER_PROTOCOLS, CLIENT_PROTOCOLS)
#: Peak traced allocation a refused reply may cost (the receive buffer is 256 KiB).
MEMORY_BOUND = 8 * 1024 * 1024


def int_col(name: str) -> ColumnDesc:
    return ColumnDesc(name, TypeCode.INTEGER, 4)


def tuple_msg(payload: bytes, size: int | None = None) -> bytes:
    n = len(payload) if size is None else size
    return struct.pack(">Hhi", Msg.TUPLE, 0, n) + payload + b"\0" * (len(payload) & 1)


def answer_fetch(fake: FakeServer, reply: bytes) -> None:
    """Answer the OPEN/NFETCH group of ``SQL`` with ``reply`` (the PREPARE is answered by the
    fake itself, describing one INTEGER column)."""
    fake.results[SQL] = ([int_col("a")], [(1,)])

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if any(msg.code == Msg.NFETCH for msg in group):
            return reply
        return None

    fake.hook = hook


def answer_prepare(fake: FakeServer, reply: bytes) -> None:
    def hook(group: list[m.ClientMsg]) -> bytes | None:
        if any(msg.code == Msg.PREPARE for msg in group):
            return reply
        return None

    fake.hook = hook


#: Where SQ_DESCRIBE's column count sits: code, type, id, cost, tuple size (i32 with bit 69).
DESCRIBE_COUNT_AT = 2 + 2 + 2 + 4 + (4 if LAYOUT.large_tuple else 2)


def describe(columns: list[ColumnDesc], tuple_size: int | None = None) -> bytes:
    w = Writer()
    size = sum(c.enclen for c in columns) if tuple_size is None else tuple_size
    m.put_describe(w, StmtType.SELECT, 0, columns, size, LAYOUT)
    return bytes(w.buf)


# The same scenario through the sync driver and through ifxwire.aio: each returns the exception
# the statement raised and whether the connection is marked broken afterwards. The read
# timeout only turns a driver that waits for bytes it should have refused into a failure
# (the expected error is the 08S01 refusal, raised at once, not the 08006 timeout).
READ_TIMEOUT = 5.0


def sync_select(fake: FakeServer, **kw: Any) -> tuple[BaseException, bool]:
    kw.setdefault("read_timeout", READ_TIMEOUT)
    conn = ifxwire.connect(**fake.kwargs(**kw))
    try:
        with pytest.raises(ifxwire.Error) as info:
            conn.cursor().execute(SQL).fetchall()
        return info.value, conn.broken
    finally:
        conn.close()


def aio_select(fake: FakeServer, **kw: Any) -> tuple[BaseException, bool]:
    kw.setdefault("read_timeout", READ_TIMEOUT)

    async def go() -> tuple[BaseException, bool]:
        conn = await aio.connect(**fake.kwargs(**kw))
        try:
            with pytest.raises(ifxwire.Error) as info:
                cur = await conn.execute(SQL)
                await cur.fetchall()
            return info.value, conn.broken
        finally:
            await conn.close()

    return asyncio.run(asyncio.wait_for(go(), 30))


DRIVERS = {"sync": sync_select, "aio": aio_select}


@pytest.fixture(params=sorted(DRIVERS))
def select(request: pytest.FixtureRequest) -> Callable[..., tuple[BaseException, bool]]:
    return DRIVERS[request.param]


@pytest.fixture()
def traced() -> Iterator[Callable[[], int]]:
    """tracemalloc running for the test; call the fixture's value for the peak so far."""
    tracemalloc.start()
    try:
        yield lambda: tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def assert_refused(exc: BaseException, broken: bool, *words: str) -> None:
    assert isinstance(exc, ifxwire.OperationalError), repr(exc)
    assert exc.sqlstate == "08S01"
    text = str(exc)
    for word in (*words, "offset"):
        assert word in text, text
    assert broken


# ------------------------------------------------------------------------------------------
# Defect 1: unbounded lengths
# ------------------------------------------------------------------------------------------


def test_tuple_claiming_2gb_is_refused_before_its_bytes(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]], traced: Any
) -> None:
    # read_timeout None: a driver that waited for the claimed bytes would hang forever.
    answer_fetch(fake, tuple_msg(b"\0\0\0\1" * 25, size=0x7FFFFFF0))
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_TUPLE", "size field 2147483632", "4 bytes")
    assert traced() < MEMORY_BOUND


def test_a_flipped_length_byte_is_refused(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]], traced: Any
) -> None:
    good = tuple_msg(b"\0\0\0\1")
    flipped = good[:4] + b"\x01" + good[5:]  # size 4 -> 0x01000004
    answer_fetch(fake, flipped + tuple_msg(b"\0\0\0\2"))
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_TUPLE", f"size field {0x01000004}")
    assert traced() < MEMORY_BOUND


def test_a_fetch_reply_may_not_bring_rows_without_end(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]], traced: Any
) -> None:
    # Well-formed rows, far more than the 64 KiB fetch asked for, and never an SQ_EOT.
    answer_fetch(fake, tuple_msg(b"\0\0\0\1") * 60_000)
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_TUPLE", "bytes of rows", "fetch size")
    assert traced() < MEMORY_BOUND


def test_describe_name_table_claiming_2gb_is_refused(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]], traced: Any
) -> None:
    body = bytearray(describe([int_col("a")]))
    struct.pack_into(">i", body, DESCRIBE_COUNT_AT + 2, 0x7FFFFFF0)  # the name table size
    answer_prepare(fake, bytes(body))
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_DESCRIBE", "name table size 2147483632")
    assert traced() < MEMORY_BOUND


def test_describe_negative_column_count_is_refused(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]]
) -> None:
    body = bytearray(describe([int_col("a")]))
    struct.pack_into(">h", body, DESCRIBE_COUNT_AT, -3)
    answer_prepare(fake, bytes(body) + b"\0\x0c")
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_DESCRIBE", "negative column count -3")


def test_a_message_that_never_ends_is_refused(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]], traced: Any
) -> None:
    # SQ_INFO entries without the terminating 0: one message growing past every bound.
    entry = struct.pack(">hH", 1, 50_000) + b"x" * 50_000
    answer_prepare(fake, struct.pack(">H", Msg.INFO) + entry * 100)
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_INFO", "incomplete after")
    assert traced() < 4 * MEMORY_BOUND  # the message cap is 4 MiB, received in place


def test_a_reply_of_endless_small_messages_is_refused(
    fake: FakeServer, select: Callable[..., tuple[BaseException, bool]]
) -> None:
    cost = struct.pack(">Hii", Msg.COST, 1, 1)
    answer_prepare(fake, cost * 20_000)
    exc, broken = select(fake)
    assert_refused(exc, broken, "SQ_COST", "messages in one reply")


def test_blob_data_beyond_its_descriptor_is_refused(fake: FakeServer) -> None:
    cols = [ColumnDesc("b", TypeCode.BYTE, 56)]
    fake.results[SQL] = (cols, [])
    row = tuple_msg(server_descriptor(3, 1))
    w = Writer()
    m.put_done(w, 1, LAYOUT)
    w.u16(Msg.CLOSE).u16(Msg.EOT)

    def hook(group: list[m.ClientMsg]) -> bytes | None:
        codes = [msg.code for msg in group]
        if Msg.NFETCH in codes:
            return row + bytes(w.buf)
        if Msg.FETCHBLOB in codes:
            chunk = struct.pack(">HH", Msg.BLOB, 1000) + b"z" * 1000
            return chunk * 50 + b"\0\x0c"
        return None

    fake.hook = hook
    exc, broken = sync_select(fake)
    assert_refused(exc, broken, "SQ_BLOB", "more than the 3 its descriptor announced")


def test_a_refused_reply_breaks_the_connection_and_the_pool_drops_it(fake: FakeServer) -> None:
    with ifxwire.create_pool(**fake.kwargs(), max_size=1, ping_after=None) as pool:
        conn = pool.acquire()
        answer_fetch(fake, tuple_msg(b"", size=0x7FFFFFF0))
        with pytest.raises(ifxwire.OperationalError, match="SQ_TUPLE"):
            conn.cursor().execute(SQL)
        assert conn.broken
        with pytest.raises(ifxwire.InterfaceError, match="broken"):
            conn.cursor()
        pool.release(conn)
        fake.hook = None
        again = pool.acquire()
        assert again is not conn and not again.broken
        assert again.cursor().execute(SQL).fetchall() == [(1,)]
        pool.release(again)


# ------------------------------------------------------------------------------------------
# Defect 2: the accelerated and the pure path raise the same PEP 249 error
# ------------------------------------------------------------------------------------------


def _end_of_result() -> bytes:
    w = Writer()
    m.put_done(w, 1, LAYOUT)
    w.u16(Msg.CLOSE).u16(Msg.EOT)
    return bytes(w.buf)


CORRUPT_RESULTS: dict[str, tuple[list[ColumnDesc], bytes | None]] = {
    # An INTEGER, then a DECIMAL whose encoded length is no DECIMAL(p,s): the case.
    "decimal length": ([int_col("i"), ColumnDesc("d", TypeCode.DECIMAL, 0x7FFFFFFF)], None),
    "money scale": ([int_col("i"), ColumnDesc("m", TypeCode.MONEY, (40 << 8) | 2)], None),
    "char length": ([int_col("i"), ColumnDesc("c", TypeCode.CHAR, -1)], None),
    "start before the tuple": (
        [ColumnDesc("i", TypeCode.INTEGER, 4, start=4), ColumnDesc("j", 2, 4, start=-4)],
        None,
    ),
    # A VARCHAR whose length byte runs past the tuple's end.
    "truncated varchar": (
        [int_col("i"), ColumnDesc("v", TypeCode.VARCHAR, 20)],
        tuple_msg(b"\0\0\0\1" + b"\x09abc"),
    ),
    "truncated decimal": (
        [int_col("i"), ColumnDesc("d", TypeCode.DECIMAL, (10 << 8) | 2)],
        tuple_msg(b"\0\0\0\1\xc1\x01"),
    ),
    "date out of range": ([ColumnDesc("d", TypeCode.DATE, 4)], tuple_msg(b"\x7f\xff\xff\xff")),
    "boolean byte": (
        [int_col("i"), ColumnDesc("b", TypeCode.BOOLEAN, 1)],
        tuple_msg(b"\0\0\0\1\0\0\0\0\1\x07"),
    ),
    "lvarchar past the tuple": (
        [ColumnDesc("l", TypeCode.LVARCHAR, 100)],
        tuple_msg(b"\0\0\0\0\x50abc"),
    ),
}


def _corrupt_outcome(fake: FakeServer, accelerated: bool) -> tuple[str, str, bool]:
    from ifxwire import _accel
    from ifxwire.types import rowcodec

    saved = _accel.accelerated
    _accel.accelerated = accelerated
    rowcodec._build_row_decoder.cache_clear()
    try:
        conn = ifxwire.connect(**fake.kwargs(read_timeout=READ_TIMEOUT))
        try:
            with pytest.raises(ifxwire.Error) as info:
                conn.cursor().execute(SQL).fetchall()
            # The reply was read to its end: the connection goes on.
            usable = not conn.broken and conn.cursor().execute("UPDATE t SET a = 1").rowcount == 1
            return type(info.value).__name__, str(info.value), usable
        finally:
            conn.close()
    finally:
        _accel.accelerated = saved
        rowcodec._build_row_decoder.cache_clear()


@pytest.mark.parametrize("case", sorted(CORRUPT_RESULTS))
def test_corrupt_results_raise_the_same_error_on_both_codec_paths(
    fake: FakeServer, case: str
) -> None:
    from ifxwire import _accel

    if not _accel.available:
        pytest.skip("the C accelerator is not built: there is only one path")
    cols, row = CORRUPT_RESULTS[case]
    fake.results[SQL] = (cols, [])
    if row is not None:
        answer = row + _end_of_result()
        fake.hook = lambda group: answer if any(x.code == Msg.NFETCH for x in group) else None
    pure = _corrupt_outcome(fake, accelerated=False)
    fast = _corrupt_outcome(fake, accelerated=True)
    assert pure == fast
    kind, text, usable = pure
    assert kind in ("InternalError", "DataError"), text
    assert usable


# ------------------------------------------------------------------------------------------
# Defect 3: connect_timeout covers the whole login; pool timeouts hold while servers hang
# ------------------------------------------------------------------------------------------


def never_answer(c: socket.socket) -> None:
    while c.recv(65536):
        pass


def drip_login(c: socket.socket) -> None:
    """Read the login request, then send a valid acceptance one byte every 50 ms."""
    c.recv(65536)
    for b in build_connect_response(ConnectResponse(accepted=True)):
        c.sendall(bytes([b]))
        time.sleep(0.05)
    never_answer(c)


@contextlib.contextmanager
def listening(behaviour: Callable[[socket.socket], None]) -> Iterator[Listener]:
    lst = Listener(behaviour)
    try:
        yield lst
    finally:
        lst.close()


def sync_connect(kw: dict[str, Any]) -> None:
    ifxwire.connect(**kw).close()


def aio_connect(kw: dict[str, Any]) -> None:
    async def go() -> None:
        conn = await aio.connect(**kw)
        await conn.close()

    asyncio.run(asyncio.wait_for(go(), 30))


CONNECTS = {"sync": sync_connect, "aio": aio_connect}
#: A bound on how long a 0.5 s connect_timeout may take to fire (loaded CI machines).
LATE = 5.0


def timed_failure(fn: Callable[[], object]) -> tuple[ifxwire.Error, float]:
    started = time.monotonic()
    with pytest.raises(ifxwire.Error) as info:
        fn()
    return info.value, time.monotonic() - started


@pytest.mark.parametrize("how", sorted(CONNECTS))
@pytest.mark.parametrize("server", ["silent", "drip", "groups"])
def test_connect_timeout_bounds_the_whole_login(how: str, server: str, fake: FakeServer) -> None:
    """A server that accepts the TCP connection and then does not answer the login (or the
    session groups, or answers one byte at a time) fails the connect within connect_timeout,
    even with no read_timeout."""
    connect = CONNECTS[how]
    if server == "groups":
        fake.silent = True  # answers the login, never the session groups
        exc, took = timed_failure(lambda: connect(fake.kwargs(connect_timeout=0.5)))
    else:
        with listening(never_answer if server == "silent" else drip_login) as lst:
            exc, took = timed_failure(lambda: connect(lst.kwargs(connect_timeout=0.5)))
    assert isinstance(exc, ifxwire.OperationalError), repr(exc)
    assert exc.sqlstate == "08001"
    assert "did not complete within connect_timeout=0.5 s" in str(exc)
    assert took < LATE


@contextlib.contextmanager
def full_backlog() -> Iterator[int]:
    """A port whose accept queue is full: the kernel drops further SYNs, so a TCP connect to
    it hangs until the client gives up (the listener never accepts)."""
    lst = socket.socket()
    held: list[socket.socket] = []
    try:
        lst.bind(("127.0.0.1", 0))
        lst.listen(0)
        port = lst.getsockname()[1]
        for _ in range(4):
            s = socket.socket()
            held.append(s)
            s.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                s.connect(("127.0.0.1", port))
        time.sleep(0.1)
        yield port
    finally:
        for s in (*held, lst):
            s.close()


@pytest.mark.parametrize("how", sorted(CONNECTS))
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_connect_timeout_bounds_the_tcp_connect(how: str, host: str) -> None:
    """A TCP connect that never completes fails at connect_timeout (08001), whether the host
    is an IPv4 literal (the driver's own connect, without getaddrinfo) or a name
    (socket.create_connection)."""
    with full_backlog() as port:
        exc, took = timed_failure(lambda: CONNECTS[how](
            {"host": host, "port": port, "user": "u", "password": "p", "connect_timeout": 0.5}))
    assert isinstance(exc, ifxwire.OperationalError), repr(exc)
    assert exc.sqlstate == "08001"
    assert "timed out after 0.5 s" in str(exc) or "within connect_timeout=0.5 s" in str(exc)
    assert took < LATE


@pytest.mark.parametrize("read_timeout", [None, 5.0])
def test_connect_timeout_ends_with_the_login(read_timeout: float | None, fake: FakeServer) -> None:
    """Once logged in, only read_timeout bounds a wait: a reply slower than connect_timeout is
    waited for: the login's deadline is cleared, with or without a read timeout."""
    def slow(group: list[m.ClientMsg]) -> bytes | None:
        if any(msg.code == Msg.PREPARE for msg in group):
            time.sleep(0.6)
        return None

    fake.results[SQL] = ([int_col("a")], [(1,)])
    conn = ifxwire.connect(**fake.kwargs(connect_timeout=0.2, read_timeout=read_timeout))
    try:
        fake.hook = slow
        assert conn.cursor().execute(SQL).fetchall() == [(1,)]
        assert not conn.broken
    finally:
        conn.close()


def test_pool_acquire_times_out_while_a_connect_hangs() -> None:
    with listening(never_answer) as lst:
        pool = ifxwire.create_pool(**lst.kwargs(connect_timeout=1.0), max_size=2)
        try:
            exc, took = timed_failure(lambda: pool.acquire(timeout=0.3))
            assert isinstance(exc, ifxwire.PoolTimeout)
            assert took < 1.0  # did not wait for the connect's own timeout
            # The connect left behind fails at its own timeout and gives its slot back.
            deadline = time.monotonic() + 10
            while pool.size and time.monotonic() < deadline:
                time.sleep(0.05)
            assert pool.size == 0
        finally:
            pool.close()


def test_create_pool_min_size_times_out_while_connects_hang() -> None:
    with listening(never_answer) as lst:
        exc, took = timed_failure(
            lambda: ifxwire.create_pool(**lst.kwargs(connect_timeout=3.0), min_size=2, timeout=0.3)
        )
        assert isinstance(exc, ifxwire.PoolTimeout)
        assert took < 3.0


def test_a_connect_the_acquirer_gave_up_on_joins_the_pool(fake: FakeServer) -> None:
    """The slow connect is not wasted: it lands in the idle list when it completes."""

    def slow_proxy(c: socket.socket) -> None:
        up = socket.create_connection((fake.host, fake.port))
        time.sleep(0.6)  # the login stalls this long, then everything flows
        threading.Thread(target=pump, args=(up, c), daemon=True).start()
        pump(c, up)

    with (
        listening(slow_proxy) as lst,
        ifxwire.create_pool(**lst.kwargs(user=USER_OK, password=PASSWORD_OK)) as pool,
    ):
        exc, _ = timed_failure(lambda: pool.acquire(timeout=0.2))
        assert isinstance(exc, ifxwire.PoolTimeout)
        deadline = time.monotonic() + 10
        while not pool.idle_count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool.idle_count == 1 and pool.size == 1
        conn = pool.acquire(timeout=0.2)
        assert not conn.broken
        pool.release(conn)


def test_pool_ping_gets_only_the_time_left(fake: FakeServer) -> None:
    with ifxwire.create_pool(**fake.kwargs(), max_size=1, ping_after=0.0) as pool:
        pool.release(pool.acquire())
        fake.silent = True  # the idle connection's server stops answering
        exc, took = timed_failure(lambda: pool.acquire(timeout=0.5))
        assert isinstance(exc, ifxwire.PoolTimeout)
        assert took < LATE



def test_close_waits_at_most_its_timeout_for_a_dripping_goodbye(fake: FakeServer) -> None:
    """close() waits for the goodbye with one deadline: a server answering SQ_EXIT with an
    endless drip of SQ_XACTSTAT bytes cannot hold it."""
    from ifxwire.client.connection import CLOSE_TIMEOUT

    def drip_on_exit(c: socket.socket) -> None:
        up = socket.create_connection((fake.host, fake.port))
        threading.Thread(target=pump, args=(up, c), daemon=True).start()
        while data := c.recv(65536):
            if data.endswith(struct.pack(">H", Msg.EXIT)):
                up.close()
                xactstat = struct.pack(">Hhhh", Msg.XACTSTAT, 1, 0, 0)
                while True:
                    for b in xactstat:
                        c.sendall(bytes([b]))
                        time.sleep(0.2)
            up.sendall(data)

    with listening(drip_on_exit) as lst:
        conn = ifxwire.connect(**lst.kwargs(user=USER_OK, password=PASSWORD_OK))
        started = time.monotonic()
        conn.close()
        took = time.monotonic() - started
    assert conn.closed
    assert took < CLOSE_TIMEOUT + LATE
