"""``fetch_record_batch(rows_per_batch=R)`` over BYTE, TEXT, BLOB and CLOB holds one batch's
values, not one fetch reply's (issue 25: "read in bounded memory per batch").

A reply may hold hundreds of rows of large values: a BLOB/CLOB row carries a 72-byte locator
(~400 rows a 64 KiB reply, with any server), IBM's server sends BYTE/TEXT as 56-byte
descriptors (~1000 rows), and ours, which counts BYTE/TEXT bytes against the fetch size,
does the same with a large ``fetch_buffer_size`` (16 MiB here: 200 rows of 64 KiB values in
one reply). Before, the Arrow row path read every value of the reply (BYTE/TEXT in one
pipelined exchange, BLOB/CLOB one by one) before cutting the batches: 200 values alive at once.
Now each batch's values are read when that batch is made (BYTE/TEXT as readers:
``blob_stream``), so the Python memory traced while streaming stays near one batch's worth.

Python allocations are traced (``tracemalloc``: the values are ``bytes``/``str`` until
``pyarrow`` copies them), which is deterministic where RSS is not: the peak while streaming
over what was allocated at ``execute``; bench/arrow_lob_memory.py gives the RSS figures.
Both drivers (``both_drivers``): the asyncio stream reads its readers per batch as well.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.both_drivers

ROWS = 200
SIZE = 65536
PER_BATCH = 4


def _value(kind: str, i: int) -> Any:
    head = f"{i:08d}"
    text = head + "v" * (SIZE - len(head))
    return text if kind in ("TEXT", "CLOB") else text.encode()


@pytest.fixture(scope="module")
def tables(driver: Any, connect_kwargs: dict[str, Any], dbname: str) -> list[str]:
    c = driver.connect(**connect_kwargs, database=dbname)
    cur = c.cursor()
    for kind in ("TEXT", "BYTE", "CLOB", "BLOB"):
        cur.execute(f"CREATE TABLE lob_{kind.lower()} (a INTEGER, v {kind})")
        for i in range(ROWS):
            cur.execute(f"INSERT INTO lob_{kind.lower()} VALUES (?, ?)", (i, _value(kind, i)))
    c.commit()
    c.close()
    return ["TEXT", "BYTE", "CLOB", "BLOB"]


@pytest.mark.parametrize("kind", ["TEXT", "BYTE", "CLOB", "BLOB"])
def test_stream_holds_one_batch_of_values(driver: Any, connect_kwargs: dict[str, Any],
                                          dbname: str, tables: list[str], kind: str) -> None:
    c = driver.connect(**connect_kwargs, database=dbname, fetch_buffer_size=16 * 2**20)
    try:
        cur = c.cursor()
        # The Arrow path's imports and pyarrow's first use, before anything is traced.
        cur.execute(f"SELECT a, v FROM lob_{kind.lower()} WHERE a < 3")
        assert sum(b.num_rows for b in cur.fetch_record_batch(rows_per_batch=2)) == 3
        # The first reply arrives with OPEN, before the Arrow call: readers for it too.
        cur.blob_stream = True
        tracemalloc.start()
        try:
            cur.execute(f"SELECT a, v FROM lob_{kind.lower()} ORDER BY a")
            # From here: the stream's own growth (the test's server runs in this process and
            # has kept the values it serves to SQ_FETCHBLOB since the execute).
            start, _ = tracemalloc.get_traced_memory()
            tracemalloc.reset_peak()
            seen = 0
            for batch in cur.fetch_record_batch(rows_per_batch=PER_BATCH):
                assert batch.num_rows <= PER_BATCH
                got = batch.column(1).to_pylist()
                assert got == [_value(kind, seen + j) for j in range(batch.num_rows)]
                assert batch.column(0).to_pylist() == list(range(seen, seen + batch.num_rows))
                seen += batch.num_rows
                del got, batch
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert seen == ROWS
        # One batch is 4 values of 64 KiB (256 KiB), each met a few times at once (the data
        # read, the value, to_pylist, the expected list): ~1.5 MiB. A reply's values are 200
        # of them, 12.5 MiB once each: growing by more than 5 MiB says it was read whole.
        grown = peak - start
        assert grown < 5 * 2**20, f"{grown / 2**20:.1f} MiB grown for {PER_BATCH}-row batches"
        # The cursor's own setting is left as it was.
        assert cur.blob_stream is True
    finally:
        c.close()


def test_blob_stream_setting_survives_the_stream(driver: Any, connect_kwargs: dict[str, Any],
                                                 dbname: str, tables: list[str]) -> None:
    """The stream fetches BYTE/TEXT as readers for its own replies and then puts the
    cursor's setting back: a later ``fetchall`` reads values, not readers."""
    c = driver.connect(**connect_kwargs, database=dbname, fetch_buffer_size=16 * 2**20)
    try:
        cur = c.cursor()
        assert cur.blob_stream is None
        cur.execute("SELECT a, v FROM lob_text WHERE a < 20 ORDER BY a")
        total = sum(b.num_rows for b in cur.fetch_record_batch(rows_per_batch=3))
        assert total == 20 and cur.blob_stream is None
        cur.execute("SELECT v FROM lob_text WHERE a < 2 ORDER BY a")
        assert cur.fetchall() == [(_value("TEXT", 0),), (_value("TEXT", 1),)]
    finally:
        c.close()


def test_a_table_and_an_unsized_stream_read_the_values(
        driver: Any, connect_kwargs: dict[str, Any], dbname: str, tables: list[str]) -> None:
    """``fetch_arrow_table`` (the whole result kept anyway) and a stream without
    ``rows_per_batch`` (a batch a reply) keep the pipelined read of a reply's BYTE/TEXT
    values; their values are the same."""
    c = driver.connect(**connect_kwargs, database=dbname)
    try:
        cur = c.cursor()
        cur.execute("SELECT a, v FROM lob_byte WHERE a < 10 ORDER BY a")
        table = cur.fetch_arrow_table()
        assert table.column(1).to_pylist() == [_value("BYTE", i) for i in range(10)]
        cur.execute("SELECT a, v FROM lob_byte WHERE a < 10 ORDER BY a")
        batches = list(cur.fetch_record_batch())
        assert [v for b in batches for v in b.column(1).to_pylist()] == [
            _value("BYTE", i) for i in range(10)]
    finally:
        c.close()
