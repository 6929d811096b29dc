"""ROW/collection parameters through the real server: the driver encodes them (types/bind.py,
docs/TYPES.md §4), the server decodes them, and until the engine stores composite values it
refuses them with -1260 while the session stays usable."""

from __future__ import annotations

import pytest

import ifxwire


@pytest.mark.parametrize("value", [
    ifxwire.List([1, 2]),
    ifxwire.Set({"a", "é"}),
    ifxwire.Multiset([], "decimal(5,2)"),
    ifxwire.Row((1, None, "x"), ("a", "b", "c")),
])
def test_composite_parameter_refused_cleanly(conn: ifxwire.Connection, value: object) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE t_cb (i INT)")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("INSERT INTO t_cb VALUES (?)", [value])
    assert info.value.sqlcode == -1260
    cur.execute("INSERT INTO t_cb VALUES (?)", [5])
    cur.execute("SELECT i FROM t_cb")
    assert cur.fetchall() == [(5,)]


def test_plain_list_parameter_names_the_wrappers(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.Error, match=r"ifxwire\.List"):
        cur.execute("SELECT ? FROM systables WHERE tabid = 1", [[1, 2]])
    with pytest.raises(ifxwire.DataError, match="element 1"):
        cur.execute("SELECT ? FROM systables WHERE tabid = 1", [ifxwire.List([1, "x"])])
    cur.execute("SELECT tabid FROM systables WHERE tabid = 1")
    assert cur.fetchone() == (1,)
