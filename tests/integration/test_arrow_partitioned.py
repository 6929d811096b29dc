"""``ifxwire.arrow.read_partitioned`` over the real server: N ranges, N connections, one stream.

The rows must be exactly the query's (compared with fetchall, order aside), each slice must
run on a connection of its own, and a failing slice must surface as PartitionError with the
other slices stopped and every connection closed.
"""

from __future__ import annotations

import datetime as dt
import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire import arrow as ifx_arrow
from ifxwire import arrowpart

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI

ROWS = 6_000


@pytest.fixture(scope="module")
def table(connect_kwargs: dict[str, Any], dbname: str) -> str:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE tp (k INTEGER, d DATE, f FLOAT, v VARCHAR(20))")
        day = dt.date(2000, 1, 1)
        cur.executemany("INSERT INTO tp VALUES (?, ?, ?, ?)",
                        [(None if i % 97 == 0 else i * 3 - 5000,
                          None if i % 89 == 0 else day + dt.timedelta(days=i % 700),
                          i / 7, f"row {i}") for i in range(ROWS)])
    return "tp"


@pytest.fixture()
def dsn(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    return {**connect_kwargs, "database": dbname}


def _partition_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("ifxwire-partition-")]


@pytest.fixture(autouse=True)
def no_threads_left() -> Iterator[None]:
    yield
    assert _partition_threads() == []


def _rows(dsn: dict[str, Any], sql: str) -> list[tuple[Any, ...]]:
    with ifxwire.connect(**dsn) as conn:
        return conn.cursor().execute(sql).fetchall()


def _key(row: tuple[Any, ...]) -> str:
    return repr(row)


@pytest.mark.parametrize(("column", "n"), [("k", 4), ("k", 1), ("d", 3), ("f", 5), ("k", 64)])
def test_partitions_return_exactly_the_querys_rows(
    dsn: dict[str, Any], table: str, column: str, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Any] = []
    real = arrowpart._connect

    def counting(*args: Any) -> Any:
        conn = real(*args)
        opened.append(conn)  # kept alive: ids of closed connections would be reused
        return conn

    monkeypatch.setattr(arrowpart, "_connect", counting)
    sql = f"SELECT k, d, f, v FROM {table} WHERE v <> 'row 7'"
    reader = ifx_arrow.read_partitioned(dsn, sql, partition_on=column, partitions=n)
    assert isinstance(reader, pa.RecordBatchReader)
    got = reader.read_all()
    # One connection per slice (the MIN/MAX one is slice 1's).
    assert len({id(c) for c in opened}) == len(opened) == n
    want = _rows(dsn, sql)
    rows = list(zip(*(got.column(i).to_pylist() for i in range(4)), strict=True))
    assert sorted(rows, key=_key) == sorted(want, key=_key)
    assert got.schema.names == ["k", "d", "f", "v"]


def test_url_dsn_parameters_and_empty_result(connect_kwargs: dict[str, Any], dbname: str,
                                             table: str) -> None:
    kw = connect_kwargs
    url = f"informix://{kw['user']}:{kw['password']}@{kw['host']}:{kw['port']}/{dbname}"
    reader = ifx_arrow.read_partitioned(url, f"SELECT k FROM {table} WHERE k > ?", "k", 3,
                                        parameters=(14_000,))
    assert sorted(reader.read_all().column(0).to_pylist()) == [
        i * 3 - 5000 for i in range(ROWS) if i % 97 and i * 3 - 5000 > 14_000]
    sql = f"SELECT k, v FROM {table} WHERE k > 1000000000"
    empty = ifx_arrow.read_partitioned(url, sql, "k", 4)
    assert empty.read_all().num_rows == 0
    # A list of DSNs (replicas of the same data): the slices are spread over them.
    both = ifx_arrow.read_partitioned([url, {**kw, "database": dbname}],
                                      f"SELECT k FROM {table}", "k", 5)
    assert both.read_all().num_rows == ROWS


def test_a_failing_partition_stops_the_others(dsn: dict[str, Any], table: str) -> None:
    # Division by zero at k = 4000 only: the slice holding it fails (-1202), the others stop.
    sql = f"SELECT k, 100 / (k - 4000) AS q FROM {table}"
    with pytest.raises(arrowpart.PartitionError) as info:
        # Raised by the call when the failure arrives before the first slice's schema, else
        # by the read: either way before any wrong result.
        ifx_arrow.read_partitioned(dsn, sql, "k", 4, rows_per_batch=50).read_all()
    err = info.value
    assert err.partition == 2 and "partition 3 of 4 (4000 <= k < 8499)" in str(err)
    assert isinstance(err, ifxwire.DatabaseError)
    assert isinstance(err.__cause__, ifxwire.DataError) and "-1202" in str(err)
    assert _partition_threads() == []


def test_dropping_the_reader_early_closes_every_connection(dsn: dict[str, Any],
                                                            table: str) -> None:
    reader = ifx_arrow.read_partitioned(dsn, f"SELECT * FROM {table}", "k", 4,
                                        rows_per_batch=10)
    assert reader.read_next_batch().num_rows <= 10
    assert _partition_threads()  # still streaming
    # pyarrow's close() keeps its Python batch source; dropping the reader closes it.
    del reader
    gc.collect()
    assert _partition_threads() == []


def test_refusals(dsn: dict[str, Any], table: str) -> None:
    with pytest.raises(ifxwire.ProgrammingError):
        ifx_arrow.read_partitioned(dsn, f"SELECT * FROM {table}", "k; DROP TABLE tp", 2)
    with pytest.raises(ifxwire.ProgrammingError):
        ifx_arrow.read_partitioned(dsn, f"SELECT * FROM {table}", "k", 0)
    with pytest.raises(ifxwire.NotSupportedError):
        ifx_arrow.read_partitioned(dsn, f"SELECT * FROM {table}", "v", 2)
    with pytest.raises(ifxwire.ProgrammingError):  # the server's own error, before any slice
        ifx_arrow.read_partitioned(dsn, "SELECT * FROM no_such_table", "k", 2)
