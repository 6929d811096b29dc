"""DISTINCT types through the real server (issue 13, second round): CREATE DISTINCT TYPE, the
explicit casts between a distinct type and its source, the catalog rows, DROP TYPE.

Codes are the Informix message catalogue's ([jcat], docs/SERVER.md); the coltype of a
distinct column is 0x800 + the source code as the Guide to SQL lists IDSSECURITYLABEL (2061,
a distinct VARCHAR).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers


def _code(cur: Any, sql: str, params: Any = None) -> int:
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql, params)
    return int(info.value.sqlcode)


@pytest.fixture()
def cur(conn: Any) -> Any:
    c = conn.cursor()
    c.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
    c.execute("CREATE DISTINCT TYPE label_t AS VARCHAR(8)")
    c.execute("CREATE TABLE acct (id INT, bal dollars, tag label_t NOT NULL)")
    yield c
    conn.rollback()


def test_distinct_columns_store_their_source_values_and_cast_both_ways(cur: Any) -> None:
    cur.execute("INSERT INTO acct VALUES (1, 12.5::dollars, CAST('ab' AS label_t))")
    cur.execute("INSERT INTO acct VALUES (?, ?, ?)", [2, Decimal("-0.01"), "xyz"])
    cur.execute("INSERT INTO acct VALUES (3, NULL, 'q')")
    cur.execute("SELECT id, bal, tag, bal::DECIMAL(10,2) + 1, CAST(tag AS VARCHAR(8)) || '!' "
                "FROM acct ORDER BY id")
    assert cur.fetchall() == [
        (1, Decimal("12.50"), "ab", Decimal("13.50"), "ab!"),
        (2, Decimal("-0.01"), "xyz", Decimal("0.99"), "xyz!"),
        (3, None, "q", None, "q!"),
    ]
    cur.execute("SELECT id FROM acct WHERE bal = 12.50::dollars")
    assert cur.fetchall() == [(1,)]
    cur.execute("SELECT SUM(bal::DECIMAL(10,2)) FROM acct")
    assert cur.fetchone() == (Decimal("12.49"),)
    # the source type's rules hold: too many digits, a NOT NULL distinct column
    assert _code(cur, "INSERT INTO acct VALUES (4, 123456789.0::dollars, 'x')") == -1226
    assert _code(cur, "INSERT INTO acct (id) VALUES (5)") == -391
    cur.execute("SELECT COUNT(*) FROM acct")  # and the connection goes on
    assert cur.fetchone() == (3,)


def test_catalog_rows(cur: Any) -> None:
    cur.execute("SELECT c.colname, c.coltype, c.collength, x.name, x.mode, x.type "
                "FROM syscolumns c, systables t, OUTER sysxtdtypes x "
                "WHERE c.tabid = t.tabid AND t.tabname = 'acct' "
                "AND x.extended_id = c.extended_id ORDER BY c.colno")
    assert cur.fetchall() == [
        ("id", 2, 4, None, None, None),
        ("bal", 0x800 + 5, 10 * 256 + 2, "dollars", "D", 5),
        ("tag", 0x800 + 0x100 + 13, 8, "label_t", "D", 13),
    ]


def test_ddl_errors_and_drop_type(cur: Any) -> None:
    assert _code(cur, "CREATE DISTINCT TYPE dollars AS INT") == -9996
    assert _code(cur, "CREATE ROW TYPE dollars (a INT)") == -9991
    assert _code(cur, "CREATE TEMP TABLE t2 (a no_such_t)") == -9628
    assert _code(cur, "SELECT 1::no_such_t FROM acct") == -9628
    assert _code(cur, "DROP TYPE dollars RESTRICT") == -9630  # acct.bal uses it
    assert _code(cur, "DROP TYPE no_such_t RESTRICT") == -9628
    cur.execute("CREATE ROW TYPE pt_t (x INT)")
    assert _code(cur, "DROP TYPE pt_t RESTRICT") == -9641  # a ROW type: DROP ROW TYPE
    cur.execute("DROP TABLE acct")
    cur.execute("DROP TYPE dollars RESTRICT")
    cur.execute("SELECT COUNT(*) FROM sysxtdtypes WHERE name = 'dollars'")
    assert cur.fetchone() == (0,)
    assert _code(cur, "CREATE TEMP TABLE t3 (a dollars)") == -9628
    # sources we do not take are refused, not half-built
    assert _code(cur, "CREATE DISTINCT TYPE s_t AS SERIAL") == -999
    assert _code(cur, "CREATE DISTINCT TYPE l_t AS LIST(INT NOT NULL)") == -999
    assert _code(cur, "CREATE ROW TYPE money_row (d label_t)") == -999  # not as a field
    assert _code(cur, "CREATE TEMP TABLE t4 (s SET(label_t NOT NULL))") == -999
