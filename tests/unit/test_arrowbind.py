"""The column-wise bind encoder (client/arrowbind.py) gives, for every row of an Arrow batch,
the bytes executemany's tuple path gives for the row as a tuple:
``id_head + bind_message(row) + EXECUTE_EOT`` (client/binds.py is the specification)."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from decimal import Decimal
from typing import Any

import pytest

from ifxwire.client import arrowbind
from ifxwire.client.binds import bind_message
from ifxwire.protocol.requests import EXECUTE_EOT, id_head

pa = pytest.importorskip("pyarrow")
pytest.importorskip("numpy")

HEAD = id_head(7)


def _expected(batch: Any, encoding: str) -> list[bytes]:
    cols = [c.to_pylist() for c in batch.columns]
    rows = zip(*cols, strict=True)
    return [HEAD + bind_message(list(row), encoding) + EXECUTE_EOT for row in rows]


def _rows(batch: Any, encoding: str = "utf-8") -> list[bytes] | None:
    got = arrowbind.encode_batch(pa, batch, HEAD, encoding)
    if got is None:
        return None
    out, starts = got
    data = out.tobytes()
    return [data[a:b] for a, b in itertools.pairwise(starts)]


def _batch(n: int, seed: int, nulls: bool) -> Any:
    rnd = random.Random(seed)

    def maybe(v: Any) -> Any:
        return None if nulls and rnd.random() < 0.2 else v

    edges = [0, 1, -1, 2**31 - 1, -(2**31) + 1, -(2**31), 2**31, 2**62, -(2**63) + 1]
    ints = [maybe(rnd.choice([*edges, rnd.randrange(-2**40, 2**40)])) for _ in range(n)]
    return pa.record_batch({
        "i16": pa.array([maybe(rnd.randrange(-32767, 32768)) for _ in range(n)], pa.int16()),
        "i32": pa.array([maybe(rnd.randrange(-2**31 + 1, 2**31)) for _ in range(n)], pa.int32()),
        "i64": pa.array(ints, pa.int64()),
        "u32": pa.array([maybe(rnd.randrange(0, 2**32)) for _ in range(n)], pa.uint32()),
        "f64": pa.array([maybe(rnd.uniform(-1e300, 1e300)) for _ in range(n)], pa.float64()),
        "f32": pa.array([maybe(rnd.uniform(-1e6, 1e6)) for _ in range(n)], pa.float32()),
        "ok": pa.array([maybe(rnd.random() < 0.5) for _ in range(n)], pa.bool_()),
        "day": pa.array([maybe(dt.date(1, 1, 1) + dt.timedelta(days=rnd.randrange(3652058)))
                         for _ in range(n)], pa.date32()),
        "s": pa.array([maybe("".join(rnd.choice("ab é€x") for _ in range(rnd.randrange(9))))
                       for _ in range(n)], pa.string()),
        "ls": pa.array([maybe("q" * rnd.randrange(4)) for _ in range(n)], pa.large_string()),
        "dec": pa.array([maybe(Decimal(rnd.randrange(-10**11, 10**11)).scaleb(-2))
                         for _ in range(n)], pa.decimal128(12, 2)),
        "ts": pa.array([maybe(dt.datetime(2024, 1, 2, 3, 4, 5, rnd.randrange(10**6)))
                        for _ in range(n)], pa.timestamp("us")),
    })


@pytest.mark.parametrize("nulls", [False, True])
@pytest.mark.parametrize("encoding", ["utf-8", "iso-8859-1"])
def test_every_row_is_the_tuple_paths_bytes(nulls: bool, encoding: str) -> None:
    batch = _batch(300, 1 if nulls else 2, nulls)
    if encoding != "utf-8":  # é and € are per value there: text Latin-1 cannot hold goes as tuples
        batch = batch.set_column(8, "s", pa.array(
            [None if v is None else v.replace("€", "e") for v in batch.column(8).to_pylist()]))
    assert _rows(batch, encoding) == _expected(batch, encoding)
    for i in range(batch.num_columns):  # each column alone, and sliced (an offset into buffers)
        one = batch.select([i]).slice(7, 250)
        assert _rows(one, encoding) == _expected(one, encoding), batch.schema.names[i]


def test_uniform_rows_take_the_strided_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arrowbind, "_per_value", None)  # every column here is vectorised
    batch = pa.record_batch({"a": pa.array(range(1000), pa.int32()),
                             "b": pa.array([x / 3 for x in range(1000)]),
                             "c": pa.array([True, False] * 500)})
    assert _rows(batch) == _expected(batch, "utf-8")
    assert _rows(batch.slice(3, 1)) == _expected(batch.slice(3, 1), "utf-8")
    nulls = pa.record_batch({"n": pa.array([None] * 5, pa.int32()),
                             "s": pa.array(["", "a", "bb", "", "ccc"])})
    assert _rows(nulls) == _expected(nulls, "utf-8")


@pytest.mark.parametrize("column", [
    pa.array([1.0, float("nan")]),                   # refused by the FLOAT encoder
    pa.array(["a\x00b", "c"]),                       # a NUL is refused
    pa.array([b"xy", b"z"]),                         # BYTE data follows SQ_BIND
    pa.array([2**63 - 1, -(2**63)], pa.int64()),     # -(2**63) is beyond BIGINT
    pa.array([dt.date(1, 1, 1), None], pa.date32()).cast(pa.int32()).cast(pa.date32()),
])
def test_values_the_tuple_path_refuses_or_sends_apart_make_none(column: Any) -> None:
    batch = pa.record_batch({"c": column})
    if column.type == pa.date32():  # a valid one: kept; a day before 0001-01-01 is refused
        assert _rows(batch) == _expected(batch, "utf-8")
        batch = pa.record_batch({"c": pa.array([-719163], pa.int32()).cast(pa.date32())})
    assert _rows(batch) is None


def test_long_strings_and_non_ascii_latin1_go_per_value() -> None:
    batch = pa.record_batch({"s": pa.array(["x" * 40000, "é", None])})
    assert _rows(batch) == _expected(batch, "utf-8")
    assert _rows(batch, "iso-8859-1") == _expected(batch, "iso-8859-1")


@pytest.mark.parametrize(("precision", "scale"), [(1, 0), (5, 0), (7, 1), (12, 2), (9, 5),
                                                  (18, 0), (18, 3), (18, 17), (18, 18)])
def test_decimals_are_encode_decimal_binds_bytes(precision: int, scale: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arrowbind, "_per_value", None)  # DECIMAL(p <= 18) is vectorised
    rnd = random.Random(precision * 100 + scale)
    top = 10**precision - 1
    values = [0, top, -top, 1, -1, 10, -10, 100, -100, 10 ** (precision - 1), None]
    values += [rnd.randrange(-top, top + 1) for _ in range(300)]
    values += [rnd.randrange(-9, 10) * 10 ** rnd.randrange(precision) for _ in range(100)]
    values = [None if v is None else max(-top, min(top, v)) for v in values]
    column = pa.array([None if v is None else Decimal(v).scaleb(-scale) for v in values],
                      pa.decimal128(precision, scale))
    batch = pa.record_batch({"d": column})
    assert _rows(batch) == _expected(batch, "utf-8")
    assert _rows(batch.slice(5, 50)) == _expected(batch.slice(5, 50), "utf-8")
