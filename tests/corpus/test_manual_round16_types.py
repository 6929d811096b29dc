"""Data types and the comparison of character values, sixteenth round (issue 23), through the
real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Reference, "VARCHAR(m,r) data type" (ids_sqr_148):
the server keeps the trailing blanks a user enters in a VARCHAR value, yet "VARCHAR values
are compared with other VARCHAR values (and with other character types) in the same way as
CHAR values are compared: the shorter value is padded on the right with blanks until the
values have equal lengths; then they are compared for their full length". Before this round
``vc = 'xy'`` missed a stored ``'xy  '`` (and ``vc = 'xy  '`` missed ``'xy'``), a CHAR column
compared with a VARCHAR column holding trailing blanks was unequal, and COUNT(DISTINCT)
counted ``'xy'`` and ``'xy  '`` twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "types16") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE v (id INT, vc VARCHAR(10), c CHAR(6), lv LVARCHAR(20), "
                  "nv NVARCHAR(10))")
        c.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?)",
                      [(1, "xy  ", "xy", "xy ", "xy "), (2, "xy", "xy  ", "xy", "xy"),
                       (3, "xz", "xz", "xz", "xz")])
        yield c


def ids(cur: ifxwire.Cursor, where: str, params: Any = None) -> list[int]:
    return [r[0] for r in rows(cur, f"SELECT id FROM v WHERE {where} ORDER BY id", params)]


@pytest.mark.parametrize("col", ["vc", "lv", "nv"])
def test_varchar_keeps_its_blanks_but_compares_without_them(cur: ifxwire.Cursor,
                                                            col: str) -> None:
    """ids_sqr_148: the stored value keeps the blanks the user entered; equality with a
    constant, a parameter or either side of ``=`` ignores them, and so do ``<>`` and ``>``."""
    assert rows(cur, f"SELECT {col} FROM v WHERE id = 1") == [(("xy  " if col == "vc"
                                                                 else "xy "),)]
    assert ids(cur, f"{col} = 'xy'") == [1, 2]
    assert ids(cur, f"{col} = 'xy   '") == [1, 2]
    assert ids(cur, f"'xy' = {col}") == [1, 2]
    assert ids(cur, f"{col} = ?", ("xy ",)) == [1, 2]
    assert ids(cur, f"{col} <> 'xy'") == [3]
    assert ids(cur, f"{col} > 'xy '") == [3]


def test_char_and_varchar_columns_compare_blank_padded(cur: ifxwire.Cursor) -> None:
    """ids_sqr_148 ("and with other character types"): CHAR against VARCHAR, in either
    order, pads the shorter value."""
    assert ids(cur, "vc = c") == [1, 2, 3]
    assert ids(cur, "c = vc") == [1, 2, 3]
    assert ids(cur, "lv = nv") == [1, 2, 3]


def test_an_index_on_varchar_finds_the_padded_rows(cur: ifxwire.Cursor) -> None:
    """The rows an index finds are the rows a scan finds (the index orders by the same
    comparison); DISTINCT counts ``'xy'`` and ``'xy  '`` once, as they are equal."""
    cur.execute("CREATE INDEX v_vc ON v (vc)")
    assert ids(cur, "vc = 'xy'") == [1, 2]
    assert rows(cur, "SELECT COUNT(DISTINCT vc) FROM v") == [(2,)]


def test_like_still_sees_the_blanks(cur: ifxwire.Cursor) -> None:
    """LIKE is a pattern, not a relational comparison: ``'xy  ' LIKE 'xy'`` stays false, the
    pattern matching character by character [inference: ids_sqr_148 speaks of comparison
    only]; LENGTH leaves the trailing blanks out, as it did before this round."""
    assert ids(cur, "vc LIKE 'xy'") == [2]
    assert rows(cur, "SELECT LENGTH(vc) FROM v WHERE id = 1") == [(2,)]


def test_two_expressions_compare_blank_padded(cur: ifxwire.Cursor) -> None:
    """ids_sqr_148's rule holds where neither side is a column: two quoted strings, and an
    expression over a VARCHAR column (``vc || ''`` keeps the stored blanks)."""
    assert rows(cur, "SELECT 'a' = 'a  ', 'a ' = 'a', 'a' < 'a ', 'a' <> 'a ' FROM v "
                     "WHERE id = 1") == [(True, True, False, False)]
    assert ids(cur, "vc || '' = 'xy'") == [1, 2]
    assert rows(cur, "SELECT CASE WHEN 'a' = 'a ' THEN 1 ELSE 0 END FROM v "
                     "WHERE id = 1") == [(1,)]
