"""The ifxwire driver calling SPL routines and firing triggers on the embedded server."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire


def test_callproc_and_execute_function(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE cp_log (id INTEGER, amount DECIMAL(10,2))")
    cur.execute("""CREATE PROCEDURE cp_add(i INTEGER, a DECIMAL(10,2))
        IF a < 0 THEN RAISE EXCEPTION -746, -100, 'no negative amounts'; END IF;
        INSERT INTO cp_log VALUES (i, a);
    END PROCEDURE""")
    assert cur.callproc("cp_add", [1, Decimal("2.50")]) == [1, Decimal("2.50")]
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.callproc("cp_add", [2, Decimal("-1")])
    assert (info.value.sqlcode, info.value.isamcode) == (-746, -100)  # type: ignore[attr-defined]
    assert "no negative amounts" in str(info.value)
    cur.execute("""CREATE FUNCTION cp_rows(n INTEGER) RETURNING INTEGER AS i, DECIMAL(10,2);
        DEFINE k INTEGER;
        FOR k = 1 TO n RETURN k, k / 4 WITH RESUME; END FOR;
    END FUNCTION""")
    cur.execute("EXECUTE FUNCTION cp_rows(?)", [20000])
    assert cur.description is not None and [d[0] for d in cur.description] == [
        "i", "(expression)"]
    n = 0
    for k, v in cur:
        n += 1
        assert (k, v) == (n, Decimal(n) / 4)
    assert n == 20000
    conn.commit()
    cur.execute("SELECT * FROM cp_log")
    assert cur.fetchall() == [(1, Decimal("2.50"))]


def test_executemany_fires_row_triggers_in_a_transaction(conn: ifxwire.Connection,
                                                         server: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE tr_main (id INTEGER, v INTEGER)")
    cur.execute("CREATE TABLE tr_log (id INTEGER, v INTEGER)")
    cur.execute("""CREATE TRIGGER tr_main_ins INSERT ON tr_main REFERENCING NEW AS n
        FOR EACH ROW (INSERT INTO tr_log VALUES (n.id, n.v * 2))""")
    conn.commit()
    cur.execute("INSERT INTO tr_main VALUES (0, 0)")  # the transaction holds the write lock
    before = server.batched_groups
    cur.executemany("INSERT INTO tr_main VALUES (?, ?)", [(i, i) for i in range(1, 501)])
    conn.commit()
    assert server.batched_groups == before  # a table with triggers is never batched
    cur.execute("SELECT COUNT(*), SUM(v) FROM tr_log")
    assert cur.fetchall() == [(Decimal(501), Decimal(250500))]
