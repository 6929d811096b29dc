"""pandas through the SQLAlchemy engine: to_sql creates and fills a table, read_sql and
read_sql_table bring the same frame back, value for value and type for type."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

pd = pytest.importorskip("pandas")
from sqlalchemy import Numeric, inspect  # noqa: E402


def _frame() -> Any:
    return pd.DataFrame({
        "id": pd.array([1, 2, 3, 4], dtype="Int64"),
        "qty": pd.array([10, None, -7, 2**40], dtype="Int64"),  # ints with NULLs, BIGINT
        "ratio": [0.5, 1.25e-3, -3.75, 1e300],
        "amount": [Decimal("12.34"), Decimal("-0.01"), Decimal("99999999.99"), None],
        "name": ["alpha", "bêta", "", None],
        # DATETIME YEAR TO FRACTION(5) keeps 10-microsecond steps
        "ts": pd.to_datetime([dt.datetime(2024, 2, 29, 13, 45, 59, 120),
                              dt.datetime(1999, 12, 31, 23, 59, 59),
                              dt.datetime(2000, 1, 1), None]),
        "day": [dt.date(2024, 2, 29), dt.date(1, 1, 1), dt.date(9999, 12, 31), None],
        "flag": [True, False, True, False],
    })


def test_to_sql_and_read_sql_round_trip(engine: Any) -> None:
    df = _frame()
    written = df.to_sql("frame", engine, index=False, dtype={"amount": Numeric(12, 2)})
    assert written == len(df)
    cols = {c["name"]: str(c["type"]) for c in inspect(engine).get_columns("frame")}
    assert cols["qty"] == "BIGINT" and cols["amount"] == "DECIMAL(12, 2)"

    types = {"id": "Int64", "qty": "Int64"}
    back = pd.read_sql("SELECT * FROM frame ORDER BY id", engine, coerce_float=False,
                       dtype=types, parse_dates=["ts"])
    expected = df.astype({"ts": back["ts"].dtype})
    pd.testing.assert_frame_equal(back, expected, check_dtype=True)
    assert back["amount"].tolist()[:3] == [Decimal("12.34"), Decimal("-0.01"),
                                           Decimal("99999999.99")]
    assert back["day"].tolist()[1] == dt.date(1, 1, 1)  # dates outside datetime64's range

    table = pd.read_sql_table("frame", engine, coerce_float=False).astype(types)
    table = table.sort_values("id", ignore_index=True)
    pd.testing.assert_frame_equal(table[["id", "qty", "ratio", "name", "flag"]],
                                  expected[["id", "qty", "ratio", "name", "flag"]])


def test_to_sql_append_and_replace(engine: Any) -> None:
    df = pd.DataFrame({"k": [1, 2], "v": ["a", "b"]})
    df.to_sql("kv", engine, index=False)
    df.to_sql("kv", engine, index=False, if_exists="append")
    assert pd.read_sql("SELECT COUNT(*) AS n FROM kv", engine)["n"].tolist() == [4]
    df.to_sql("kv", engine, index=False, if_exists="replace", chunksize=1)
    assert pd.read_sql("SELECT k, v FROM kv ORDER BY k", engine).to_dict("list") == \
        {"k": [1, 2], "v": ["a", "b"]}
