"""``adbc_ingest`` through the column-wise bind encoder (client/arrowbind.py, arrowingest.py),
and the blocking Arrow stream of asyncio cursors (aio/arrow.py), on the real server.

What ``fetchall`` reads back must equal the input; a row the server refuses keeps its index
in the whole input (slices, batches, and slices sent as tuples counted alike); the column
encoder must actually be the one used for the shapes it covers.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire.client import arrowbind, arrowingest

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI
pytestmark = pytest.mark.both_drivers  # sync and asyncio (tests/integration/_aio_facade.py)


@pytest.fixture()
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Small slices (several per batch, several chunks per slice), and a record of whether
    each slice went column-wise (True) or as tuples (False)."""
    monkeypatch.setattr(arrowingest, "SLICE_ROWS", 700)
    seen: list[bool] = []
    real = arrowbind.encode_batch

    def spy(*args: Any) -> Any:
        got = real(*args)
        seen.append(got is not None)
        return got

    monkeypatch.setattr(arrowbind, "encode_batch", spy)
    return seen


def _data(n: int) -> Any:
    def nulls(values: list[Any], every: int) -> list[Any]:
        return [None if i % every == 3 else v for i, v in enumerate(values)]

    return pa.table({
        "k": pa.array(range(n), pa.int32()),
        "sm": pa.array(nulls([i % 32767 - 16000 for i in range(n)], 7), pa.int16()),
        "big": pa.array(nulls([(i * 7919) << (i % 30) if i % 3 else -i for i in range(n)], 5),
                        pa.int64()),
        "f": pa.array(nulls([i / 3 for i in range(n)], 11), pa.float64()),
        "ok": pa.array(nulls([i % 2 == 0 for i in range(n)], 13), pa.bool_()),
        "day": pa.array(nulls([dt.date(2000, 1, 1) + dt.timedelta(days=i) for i in range(n)], 4),
                        pa.date32()),
        "s": pa.array(nulls([f"row {i} " + "é" * (i % 5) for i in range(n)], 6), pa.string()),
        "d": pa.array(nulls([Decimal(i).scaleb(-2) for i in range(n)], 9), pa.decimal128(10, 2)),
        "ts": pa.array(nulls([dt.datetime(2024, 1, 1, 0, 0, i % 60, i * 10) for i in range(n)], 8),
                       pa.timestamp("us")),
    })


def test_ingest_round_trip_column_wise(conn: ifxwire.Connection, encoded: list[bool]) -> None:
    data = _data(3000)
    cur = conn.cursor()
    # Two record batches (the reader's): slices of 700 cut each; every slice column-wise.
    source = pa.Table.from_batches(data.to_batches(max_chunksize=1800))
    assert cur.adbc_ingest("ing_cols", source.slice(0, 0), mode="replace") == 0
    # Committed first: the server reloads its catalogue per row for DATE, DECIMAL and
    # DATETIME binds into a table created in the open transaction (~15 ms a row).
    conn.commit()
    assert cur.adbc_ingest("ing_cols", source, mode="append") == 3000
    assert encoded and all(encoded) and len(encoded) == 5
    cur.execute("SELECT * FROM ing_cols ORDER BY k")
    assert cur.fetchall() == [tuple(r.values()) for r in data.to_pylist()]
    assert cur.execute("SELECT count(*) FROM ing_cols").fetchone() == (3000,)


def test_ingest_row_errors_keep_their_index(conn: ifxwire.Connection,
                                            encoded: list[bool]) -> None:
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS ing_err")
    cur.execute("CREATE TABLE ing_err (k INTEGER NOT NULL, f FLOAT)")
    k: list[int | None] = list(range(2000))
    k[1700] = None  # refused by the server: -391 in a slice sent column-wise
    f = [float(i) for i in range(2000)]
    f[1234] = float("nan")  # refused by the FLOAT encoder: its slice goes as tuples
    data = pa.table({"k": pa.array(k, pa.int32()), "f": pa.array(f)})
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.adbc_ingest("ing_err", data, mode="append")
    err: Any = info.value
    assert err.row_index == 1234
    assert [i for i, _ in err.errors] == [1234, 1700]
    assert err.errors[1][1].sqlcode == -391
    assert encoded == [True, False, True]
    assert cur.execute("SELECT count(*), sum(k) FROM ing_err").fetchone() == (
        1998, sum(range(2000)) - 1234 - 1700)


def test_ingest_empty_binary_and_latin1(conn: ifxwire.Connection, encoded: list[bool]) -> None:
    cur = conn.cursor()
    empty = pa.table({"k": pa.array([], pa.int32())})
    assert cur.adbc_ingest("ing_empty", empty, mode="replace") == 0
    assert cur.execute("SELECT count(*) FROM ing_empty").fetchone() == (0,)
    assert encoded == []
    blobs = pa.table({"k": pa.array([1, 2], pa.int32()), "b": pa.array([b"\x00\xff", None])})
    assert cur.adbc_ingest("ing_bin", blobs, mode="replace") == 2  # BYTE: as tuples
    assert encoded == [False]
    assert cur.execute("SELECT k, b FROM ing_bin ORDER BY k").fetchall() == [
        (1, b"\x00\xff"), (2, None)]


def test_asyncio_stream_from_the_facade(conn: ifxwire.Connection) -> None:
    """``__arrow_c_stream__`` on both drivers; on asyncio the loop is not running between
    the facade's calls, so each batch runs the loop until it is in."""
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS ing_stream")
    cur.execute("CREATE TABLE ing_stream (k INTEGER, v VARCHAR(20))")
    cur.executemany("INSERT INTO ing_stream VALUES (?, ?)", [(i, f"v{i}") for i in range(5000)])
    cur.execute("SELECT * FROM ing_stream ORDER BY k")
    table = pa.RecordBatchReader.from_stream(cur).read_all()
    assert table.num_rows == 5000 and table.column("v")[4999].as_py() == "v4999"
    polars = pytest.importorskip("polars")
    cur.execute("SELECT * FROM ing_stream ORDER BY k")
    assert polars.DataFrame(cur)["k"].sum() == sum(range(5000))


@pytest.mark.one_driver  # the asyncio spellings themselves
def test_asyncio_ingest_and_stream_across_threads(connect_kwargs: dict[str, Any],
                                                  dbname: str) -> None:
    polars = pytest.importorskip("polars")

    async def go() -> None:
        async with await aio.connect(**connect_kwargs, database=dbname) as c:
            cur = c.cursor()
            data = _data(2500)
            assert await cur.adbc_ingest("ing_aio", data.slice(0, 0), mode="replace") == 0
            await c.commit()  # (see test_ingest_round_trip_column_wise)
            assert await cur.adbc_ingest("ing_aio", data, mode="append") == 2500
            await cur.execute("SELECT * FROM ing_aio ORDER BY k")
            assert await cur.fetchall() == [tuple(r.values()) for r in data.to_pylist()]
            await cur.execute("SELECT k, s FROM ing_aio ORDER BY k")
            # On the loop's thread the blocking stream would wait for itself: refused.
            with pytest.raises(ifxwire.InterfaceError, match="to_thread"):
                pa.RecordBatchReader.from_stream(cur)
            # From another thread, each batch is fetched by the running loop.
            df = await asyncio.to_thread(polars.DataFrame, cur)
            assert df.height == 2500 and df["s"][7] == "row 7 éé"
            await cur.execute("SELECT k FROM ing_aio ORDER BY k")

            def read() -> Any:
                return cur.fetch_record_batch(rows_per_batch=100).read_all()

            got = await asyncio.to_thread(read)
            assert got.column("k").to_pylist() == list(range(2500))
            # The connection is still in step: a query after the streams.
            await cur.execute("SELECT count(*) FROM ing_aio")
            assert await cur.fetchone() == (2500,)

    asyncio.run(asyncio.wait_for(go(), 120))


def test_ingest_encodes_while_the_server_holds_a_full_window(
        conn: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25 (ingest15): the client encodes the next rows right after sending a chunk, with
    up to a whole window (MAX_IN_FLIGHT groups) at the server, and a slice at a time that the
    server's share of the window outlasts. Before, each chunk's send was followed by reading
    replies down to half the window, and 32,768-row slices (~30 ms to encode a mixed row's
    worth) left the server idle: ~1 s of a million mixed rows' wall. Pinned here as the order
    of events (send, read, encode) and the slice sizes, which timing on a shared machine is
    not."""
    from ifxwire.client import batch

    events: list[tuple[str, int]] = []
    real_encode = arrowbind.encode_batch
    real_take = batch.PipelineState._take_chunk
    real_rows = batch.PipelineState._read_rows
    real_one = batch.Pipeline.read_one

    def encode(pa_: Any, part: Any, *rest: Any) -> Any:
        events.append(("encode", part.num_rows))
        return real_encode(pa_, part, *rest)

    def take(self: Any) -> bytes:
        events.append(("send", self.in_flight))
        return real_take(self)

    def rows(self: Any, conn_: Any) -> int:
        got = real_rows(self, conn_)
        if got:
            events.append(("read", got))
        return got

    def one(self: Any) -> Any:
        events.append(("read", 1))
        return (yield from real_one(self))

    monkeypatch.setattr(arrowbind, "encode_batch", encode)
    monkeypatch.setattr(batch.PipelineState, "_take_chunk", take)
    monkeypatch.setattr(batch.PipelineState, "_read_rows", rows)
    monkeypatch.setattr(batch.Pipeline, "read_one", one)
    n = 40_000
    data = pa.table({
        "a": pa.array(range(n), pa.int32()),
        "b": pa.array([i / 7 for i in range(n)]),
        "c": pa.array([Decimal(i).scaleb(-2) for i in range(n)], pa.decimal128(12, 2)),
        "e": pa.array([f"name {i % 997}" for i in range(n)], pa.string()),
    })
    cur = conn.cursor()
    assert cur.adbc_ingest("ing_window", data.slice(0, 0), mode="replace") == 0
    conn.commit()  # (see test_ingest_round_trip_column_wise)
    assert cur.adbc_ingest("ing_window", data, mode="append") == n
    assert cur.execute("SELECT count(*), sum(a) FROM ing_window").fetchone() == (
        n, sum(range(n)))
    sizes = [k for what, k in events if what == "encode"]
    assert sum(sizes) == n and max(sizes) <= 4 * batch.CHUNK_ROWS
    # The window's bound is kept: what is unanswered, this chunk included, at each send.
    sends = [k for what, k in events if what == "send"]
    assert len(sends) > 60 and max(sends) <= batch.MAX_IN_FLIGHT
    # Each slice after the first is encoded right after a send: no reply is read (waited
    # for) in between, so the server has the whole window to run meanwhile.
    for before, after in itertools.pairwise(events):
        if after[0] == "encode":
            assert before[0] == "send", events[:40]
