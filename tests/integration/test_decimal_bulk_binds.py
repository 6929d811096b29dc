"""DECIMAL/MONEY binds of a bulk insert, stored and read back (issue 25, ingest14): the
server's batched INSERT decodes each DECIMAL bind (the compiled ``decimal_text`` when the
accelerator is in force, ``numeric.decode_decimal`` and the column's storer on the pure
path) into the text SQLite keeps; whichever path, ``fetchall`` gives the values a column of
that scale holds (rounded half up), equal to single-row INSERTs of the same values, and a
value too large for the column is the single-row path's -1226 at its row. Run pure and
accelerated (``IFXWIRE_PURE=1``)."""

from __future__ import annotations

import itertools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers

_SEQ = itertools.count()

GOLDEN = [Decimal(s) for s in (
    "0", "0.00", "-0.00", "1", "-1", "12345.67", "-12345.67", "0.01", "-0.01", "0.5",
    "9999999999.99", "-9999999999.99", "123.456", "-123.455", "0.005", "-0.005", "1E+3",
    "1E-30", "42", "7.1", "-7.10", "100", "0.99", "-99.995",
)]


def _fixed(d: Decimal) -> Decimal:
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_decimal_binds_of_a_bulk_insert_read_back_exactly(
    conn: ifxwire.Connection, server: Any
) -> None:
    t, one = f"db_{next(_SEQ)}", f"db1_{next(_SEQ)}"
    cols = "i INT, a DECIMAL(12,2), m MONEY(12,2), f DECIMAL(16)"
    conn.execute(f"CREATE TABLE {t} ({cols})")
    conn.execute(f"CREATE TABLE {one} ({cols})")
    rows = [(i, d, -d, d.scaleb(i % 7 - 3))
            for i, d in enumerate(itertools.islice(itertools.cycle(GOLDEN), 1500))]
    rows[700] = (700, None, None, None)
    batched = server.batched_groups
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {t} VALUES (?, ?, ?, ?)", rows)
    assert cur.rowcount == 1500
    assert server.batched_groups - batched > 1000  # (the batched path, not row by row)
    for row in rows[: len(GOLDEN) * 3]:
        cur.execute(f"INSERT INTO {one} VALUES (?, ?, ?, ?)", row)
    got = cur.execute(f"SELECT * FROM {t} ORDER BY i").fetchall()
    assert got[: len(GOLDEN) * 3] == cur.execute(f"SELECT * FROM {one} ORDER BY i").fetchall()
    for (i, d, m, f), back in zip(rows, got, strict=True):
        if d is None:
            assert back == (700, None, None, None)
            continue
        assert back[:3] == (i, _fixed(d), _fixed(m)), (d, back)
        assert str(back[1]) == str(_fixed(d) + 0)  # two fraction digits, no -0.00
        assert back[3] == f, (f, back)
    conn.rollback()


@pytest.mark.parametrize("k", [0, 5, 999])
def test_a_decimal_too_large_is_minus_1226_at_its_row(conn: ifxwire.Connection, k: int) -> None:
    t = f"dl_{next(_SEQ)}"
    conn.execute(f"CREATE TABLE {t} (i INT, a DECIMAL(6,2))")
    rows = [(i, Decimal("9999.99") if i != k else Decimal("10000.00")) for i in range(1000)]
    cur = conn.cursor()
    with pytest.raises(ifxwire.Error) as info:
        cur.executemany(f"INSERT INTO {t} VALUES (?, ?)", rows)
    e = info.value
    assert e.sqlcode == -1226 and e.row_index == k  # type: ignore[attr-defined]
    assert cur.execute(f"SELECT COUNT(*), MIN(a), MAX(a) FROM {t}").fetchone() == (
        999, Decimal("9999.99"), Decimal("9999.99"))
    conn.rollback()


def test_arrow_decimals_ingested_read_back_exactly(conn: ifxwire.Connection) -> None:
    pa = pytest.importorskip("pyarrow")
    t = f"da_{next(_SEQ)}"
    conn.execute(f"CREATE TABLE {t} (i INT, a DECIMAL(12,2))")
    values = [_fixed(d) for d in itertools.islice(itertools.cycle(GOLDEN), 2000)]
    values[3] = None
    table = pa.table({"i": pa.array(range(2000), pa.int32()),
                      "a": pa.array(values, pa.decimal128(12, 2))})
    cur = conn.cursor()
    cur.adbc_ingest(t, table, mode="append")
    got = cur.execute(f"SELECT a FROM {t} ORDER BY i").fetchall()
    assert [r[0] for r in got] == values
    conn.rollback()
