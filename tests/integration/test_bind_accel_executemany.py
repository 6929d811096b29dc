"""executemany through the C bind encoder stores the same rows as through the Python one."""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire import _accel
from ifxwire.client import binds

pytestmark = pytest.mark.both_drivers

_SEQ = itertools.count()


def rows(n: int) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for i in range(n):
        out.append(
            (
                i,
                f"name-{i:08d}-abcdefghijklmnopqrstuvwxyz" + "é" * (i % 3),
                i % 1000 if i % 17 else None,
                i * 1.5,
                f"note {i}",
                Decimal(i) / 4,
                date(2024, 1, 1 + i % 28),
            )
        )
    # Edge values: the INTEGER limit, negative zero, an empty string.
    out.append((n, "edge", -2147483647, -0.0, "", Decimal("-0.01"), date(1, 1, 1)))
    return out


def load(conn: ifxwire.Connection, accelerated: bool, data: list[tuple[Any, ...]]) -> Any:
    name = f"bind_accel_{next(_SEQ)}"
    conn.execute(
        f"CREATE TABLE {name} (id INT, name VARCHAR(64), qty INT, price FLOAT,"
        " note VARCHAR(32), amt DECIMAL(16,2), day DATE)"
    )
    conn.commit()
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {name} VALUES (?, ?, ?, ?, ?, ?, ?)", data)
    conn.commit()
    used = {type(e).__name__ for e in binds._FAST.values() if e is not None}
    assert ("BindEncoder" in used) == accelerated, used
    return cur.execute(f"SELECT * FROM {name} ORDER BY id").fetchall()


@pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")
def test_executemany_same_rows_pure_and_accelerated(
    conn: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = rows(3000)
    try:
        monkeypatch.setattr(_accel, "accelerated", False)
        binds._FAST.clear()
        pure = load(conn, False, data)
        monkeypatch.setattr(_accel, "accelerated", True)
        binds._FAST.clear()
        fast = load(conn, True, data)
    finally:
        binds._FAST.clear()
    assert len(pure) == len(data)
    assert fast == pure
    assert [r[0] for r in fast] == [r[0] for r in data]
    assert fast[5][1] == data[5][1] and fast[17][2] is None
