"""IfxPy's catalogue functions (tables, columns, primary_keys, foreign_keys, statistics,
procedures) on the embedded server, in the patterns of IfxPy's test_024 (foreign keys),
test_025 (primary keys), test_061/test_065 (tables with ATTR_CASE and a name filter); our
tables and values, written for this project."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire.compat.ifxpy as IfxPy
import ifxwire.compat.IfxPyDbi as dbapi2

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="module")
def constr(server: Any, dbname: str) -> str:
    return (
        f"SERVER={server.server_name};DATABASE={dbname};HOST={server.host};"
        f"SERVICE={server.port};UID={USER};PWD={PASSWORD}"
    )


@pytest.fixture(scope="module")
def schema(constr: str) -> str:
    conn = IfxPy.connect(constr, "", "")
    for sql in [
        "CREATE TABLE test_primary_keys (id INTEGER NOT NULL, PRIMARY KEY(id))",
        "CREATE TABLE test_keys (name VARCHAR(30) NOT NULL, idf INTEGER NOT NULL,"
        " FOREIGN KEY(idf) REFERENCES test_primary_keys(id), PRIMARY KEY(name))",
        "CREATE TABLE test_foreign_keys (namef VARCHAR(30) NOT NULL, id INTEGER NOT NULL,"
        " FOREIGN KEY(namef) REFERENCES test_keys(name))",
        "CREATE INDEX ix_fk_id ON test_foreign_keys (id)",
        "CREATE TABLE typed (a DECIMAL(8,2), b DATETIME YEAR TO SECOND,"
        " c INTERVAL DAY TO SECOND, d BOOLEAN, e VARCHAR(40), f CHAR(3) NOT NULL)",
        "CREATE VIEW typed_v AS SELECT a, f FROM typed",
        "CREATE PROCEDURE add_one(a INT) RETURNING INT; RETURN a + 1; END PROCEDURE",
    ]:
        IfxPy.exec_immediate(conn, sql)
    IfxPy.close(conn)
    return USER


@pytest.fixture()
def conn(constr: str, schema: str) -> Iterator[IfxPy.IFXConnection]:
    c = IfxPy.connect(constr, "", "")
    yield c
    IfxPy.close(c)


def _all(stmt: IfxPy.IFXStatement) -> list[tuple[Any, ...]]:
    rows = []
    row = IfxPy.fetch_tuple(stmt)
    while row:
        assert isinstance(row, tuple)
        rows.append(row)
        row = IfxPy.fetch_tuple(stmt)
    return rows


def test_tables_filter_and_case(conn: IfxPy.IFXConnection, dbname: str) -> None:
    result = IfxPy.tables(conn, None, "%", "test_keys")
    names = [IfxPy.field_name(result, i) for i in range(IfxPy.num_fields(result))]
    assert names == ["TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS"]
    assert _all(result) == [(dbname, USER, "test_keys", "TABLE", None)]
    # test_061: ATTR_CASE upper on the connection; fetch_both by name.
    IfxPy.set_option(conn, {IfxPy.ATTR_CASE: IfxPy.CASE_UPPER}, 1)
    result = IfxPy.tables(conn, None, USER, "test%")
    seen = []
    row = IfxPy.fetch_both(result)
    while row:
        assert isinstance(row, dict)
        seen.append(row["TABLE_SCHEM"] + row["TABLE_NAME"] + row["TABLE_TYPE"])
        row = IfxPy.fetch_both(result)
    assert seen == [f"{USER}test_foreign_keys" + "TABLE", f"{USER}test_keysTABLE",
                    f"{USER}test_primary_keysTABLE"]  # fmt: skip
    views = _all(IfxPy.tables(conn, None, None, "typed%", "VIEW"))
    assert [r[2:4] for r in views] == [("typed_v", "VIEW")]
    system = _all(IfxPy.tables(conn, None, None, "systables"))
    assert [r[3] for r in system] == ["SYSTEM TABLE"]


def test_columns(conn: IfxPy.IFXConnection) -> None:
    rows = _all(IfxPy.columns(conn, None, None, "typed"))
    assert [(r[3], r[4], r[5], r[6], r[8], r[10], r[16], r[17]) for r in rows] == [
        ("a", IfxPy.SQL_DECIMAL, "DECIMAL", 8, 2, 1, 1, "YES"),
        ("b", IfxPy.SQL_TYPE_TIMESTAMP, "DATETIME YEAR TO SECOND", 14, 0, 1, 2, "YES"),
        ("c", 110, "INTERVAL DAY TO SECOND", 8, 0, 1, 3, "YES"),
        ("d", IfxPy.SQL_BIT, "BOOLEAN", 1, None, 1, 4, "YES"),
        ("e", IfxPy.SQL_VARCHAR, "VARCHAR", 40, None, 1, 5, "YES"),
        ("f", IfxPy.SQL_CHAR, "CHAR", 3, None, 0, 6, "NO"),
    ]
    only = _all(IfxPy.columns(conn, None, None, "typed", "f"))
    assert [r[3] for r in only] == ["f"]


def test_primary_and_foreign_keys(conn: IfxPy.IFXConnection) -> None:
    """test_025 / test_024's calls: keys of a table, keys referencing it, keys it holds."""
    pk = _all(IfxPy.primary_keys(conn, None, USER, "test_keys"))
    assert [(r[2], r[3], r[4]) for r in pk] == [("test_keys", "name", 1)]
    refs = _all(IfxPy.foreign_keys(conn, None, USER, "test_primary_keys"))
    assert [(r[2], r[3], r[6], r[7]) for r in refs] == [
        ("test_primary_keys", "id", "test_keys", "idf")
    ]
    held = _all(IfxPy.foreign_keys(conn, None, None, None, None, USER, "test_keys"))
    assert [(r[2], r[3], r[6], r[7]) for r in held] == [
        ("test_primary_keys", "id", "test_keys", "idf")
    ]
    held = _all(IfxPy.foreign_keys(conn, None, None, None, None, USER, "test_foreign_keys"))
    assert [(r[2], r[3], r[6], r[7], r[8]) for r in held] == [
        ("test_keys", "name", "test_foreign_keys", "namef", 1)
    ]


def test_statistics_and_procedures(conn: IfxPy.IFXConnection) -> None:
    """test_197: a table-statistics row (TYPE 0) comes first; IfxPy hands ``unique`` to ODBC
    as is, so True (SQL_INDEX_ALL) lists every index and False only the unique ones."""
    rows = _all(IfxPy.statistics(conn, None, USER, "test_foreign_keys", True))
    assert rows[0][2:9] == ("test_foreign_keys", None, None, None, IfxPy.SQL_TABLE_STAT, None, None)
    assert ("ix_fk_id", "id", 1) in [(r[5], r[8], r[3]) for r in rows[1:]]
    only_unique = _all(IfxPy.statistics(conn, None, None, "test_foreign_keys", False))
    assert [r[6] for r in only_unique] == [IfxPy.SQL_TABLE_STAT]
    unique = _all(IfxPy.statistics(conn, None, None, "test_keys", False))
    assert [(r[3], r[8]) for r in unique[1:]] == [(0, "name")]
    with pytest.raises(Exception, match="unique must be a boolean"):
        IfxPy.statistics(conn, None, None, "test_keys", 1)
    procs = _all(IfxPy.procedures(conn, None, None, "add_%"))
    assert [(r[2], r[3]) for r in procs] == [("add_one", 1)]


def test_dbi_catalogue_methods(constr: str, schema: str) -> None:
    c = dbapi2.connect(constr)
    try:
        assert [t["TABLE_NAME"] for t in c.tables(table_name="TEST_KEYS")] == ["test_keys"]
        cols = c.columns(table_name="typed", column_names=["A", "f"])
        assert [col["COLUMN_NAME"] for col in cols] == ["a", "f"]
        assert [k["COLUMN_NAME"] for k in c.primary_keys(table_name="test_primary_keys")] == ["id"]
        fks = c.foreign_keys(table_name="test_foreign_keys")
        assert [(k["PKTABLE_NAME"], k["FKCOLUMN_NAME"]) for k in fks] == [("test_keys", "namef")]
        indexes = c.indexes(True, table_name="test_foreign_keys")
        assert "ix_fk_id" in [i["INDEX_NAME"] for i in indexes]
        assert {i["TYPE"] for i in indexes} == {dbapi2.SQL_INDEX_OTHER}
    finally:
        c.close()
