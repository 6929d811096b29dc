"""IfxPyDbi programs run on ifxwire.compat.IfxPyDbi against the real embedded server.

Modelled on IfxPy's Examples/DbAPI_Sample1.py, DbAPI_Sample_Params.py and
DbAPI_Sample_executemany.py (programs written for this project, not copies), plus the error
classes and description shape IfxPyDbi.py gives (docs/IFXPY.md).
"""

from __future__ import annotations

import decimal
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire.compat.IfxPyDbi as dbapi2

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="module")
def constr(server: Any, dbname: str) -> str:
    return (
        f"SERVER={server.server_name};DATABASE={dbname};HOST={server.host};"
        f"SERVICE={server.port};UID={USER};PWD={PASSWORD}"
    )


@pytest.fixture()
def conn(constr: str) -> Iterator[dbapi2.Connection]:
    c = dbapi2.connect(constr, "", "")
    yield c
    if c.conn_handler is not None:
        c.close()


def test_sample_program(conn: dbapi2.Connection, constr: str) -> None:
    """DbAPI_Sample1's flow: drop (may fail), create, inserts, commit, select, fetchall."""
    cur = conn.cursor()
    with pytest.raises(dbapi2.Error):
        cur.execute("drop table days;")
    assert cur.execute("create table days ( c1 int, c2 char(20), c3 int, c4 int ) ") is True
    cur.execute("insert into days values( 1, 'Sunday', 101, 201 )")
    cur.execute("insert into days values( 2, 'Monday', 102, 202 )")
    assert cur.rowcount == 1
    assert conn.commit() is True
    cur.execute("SELECT * FROM days ORDER BY c1")
    assert cur.rowcount == -1
    rows = cur.fetchall()
    assert rows == [(1, "Sunday" + " " * 14, 101, 201), (2, "Monday" + " " * 14, 102, 202)]
    assert cur.fetchone() is None
    assert cur.close() is True
    # IfxPyDbi connections autocommit: a second connection sees the rows.
    other = dbapi2.connect(constr)
    c2 = other.cursor()
    c2.execute("SELECT COUNT(*) FROM days")
    assert c2.fetchone() == (decimal.Decimal(2),)
    other.close()


def test_params_and_executemany(conn: dbapi2.Connection) -> None:
    """DbAPI_Sample_Params / DbAPI_Sample_executemany: qmark parameters, executemany."""
    cur = conn.cursor()
    cur.execute("create table week ( c1 int, c2 char(20), c3 int, c4 int )")
    days = [
        (1, "Sunday", 101, 201),
        (2, "Monday", 102, 202),
        (3, "Tuesday", 103, 203),
        (4, "Wednesday", 104, 204),
    ]
    assert cur.executemany("INSERT INTO week VALUES (?,?,?,?)", days) is True
    assert cur.rowcount == 4
    cur.execute("UPDATE week SET c2 = 'Wednesday!' WHERE c1 = (?)", (4,))
    assert cur.rowcount == 1
    cur.execute("UPDATE week SET c3 = (?) WHERE c1 = 4", [1004])
    cur.execute("select * FROM week WHERE c1 = ?", (4,))
    row = cur.fetchone()
    assert row is not None
    assert (row[1].rstrip(), row[2], row[3]) == ("Wednesday!", 1004, 204)
    cur.execute("select c1 FROM week ORDER BY c1")
    assert cur.fetchmany(2) == [(1,), (2,)]
    cur.arraysize = 1
    assert cur.fetchmany() == [(3,)]
    assert [r for r in cur] == [(4,)]
    cur.execute("insert into week (c1, c2) values (?, ?)", (None, None))
    cur.execute("select c1, c2 from week where c1 is null")
    assert cur.fetchall() == [(None, None)]


def test_description_and_types(conn: dbapi2.Connection) -> None:
    cur = conn.cursor()
    cur.execute("create table money_t (id int, amount decimal(10,2), name varchar(20), d date)")
    cur.execute("insert into money_t values (1, 12.5, 'x', '03/27/1982')")
    cur.execute("select id, amount, name, d from money_t")
    desc = cur.description
    assert desc is not None
    assert [d[0] for d in desc] == ["id", "amount", "name", "d"]
    assert desc[0][1] == dbapi2.NUMBER and desc[0][1] is dbapi2.NUMBER
    assert desc[1][1] is dbapi2.DECIMAL
    assert desc[2][1] is dbapi2.STRING
    assert desc[3][1] is dbapi2.DATE
    assert desc[1][4:6] == [10, 2]
    row = cur.fetchone()
    assert row is not None
    assert row[1] == decimal.Decimal("12.50") and isinstance(row[1], decimal.Decimal)
    conn.set_fix_return_type(False)
    cur = conn.cursor()
    cur.execute("select amount from money_t")
    assert cur.fetchone() == ("12.50",)
    cur.execute("delete from money_t")
    assert cur.description is None


def test_error_classes(conn: dbapi2.Connection, constr: str) -> None:
    cur = conn.cursor()
    with pytest.raises(dbapi2.ProgrammingError) as info:
        cur.execute("select * from nosuch")
    assert str(info.value).startswith(
        "IfxPyDbi::ProgrammingError: Statement Execute Failed: "
        "[Informix][Informix ODBC Driver][Informix]The specified table (nosuch)"
    )
    assert cur.messages == [info.value]
    cur.execute("create table uniq (id int primary key)")
    cur.execute("insert into uniq values (1)")
    with pytest.raises(dbapi2.IntegrityError):
        cur.execute("insert into uniq values (1)")
    with pytest.raises(dbapi2.ProgrammingError):  # SQLSTATE 28000: IfxPyDbi's table says so
        dbapi2.connect(constr.replace(PASSWORD, "wrong-one"))
    with pytest.raises(dbapi2.InterfaceError, match="to be of type String"):
        cur.execute(42)  # type: ignore[arg-type]
    cur.execute("delete from uniq")
    with pytest.raises(dbapi2.ProgrammingError, match="did not produce any result set"):
        cur.fetchone()
    assert issubclass(dbapi2.IntegrityError, dbapi2.DatabaseError)
    assert issubclass(dbapi2.DatabaseError, dbapi2.Error)


def test_connection_extras(constr: str) -> None:
    head, _, _ = constr.partition(";UID=")
    c = dbapi2.connect(head, USER, PASSWORD)
    assert str(c.dbms_name).startswith("Inf")
    assert c.server_info() == (c.dbms_name, c.dbms_ver)
    assert c.get_option(dbapi2.SQL_ATTR_AUTOCOMMIT) == dbapi2.SQL_AUTOCOMMIT_ON
    assert c.set_autocommit(False) is True
    assert c.get_option(dbapi2.SQL_ATTR_AUTOCOMMIT) == dbapi2.SQL_AUTOCOMMIT_OFF
    cur = c.cursor()
    cur.execute("create table txn (id int)")
    cur.execute("insert into txn values (1)")
    c.rollback()
    cur.execute("select count(*) from systables where tabname = 'txn'")
    assert cur.fetchone() == (decimal.Decimal(0),)
    assert c.close() is True
    with pytest.raises(dbapi2.ProgrammingError, match="no longer active"):
        c.cursor()
    with pytest.raises(dbapi2.ProgrammingError):
        cur.execute("select 1 from systables")


def test_callproc(conn: dbapi2.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE PROCEDURE plus(a INT, b INT) RETURNING INT; RETURN a + b; END PROCEDURE")
    assert cur.callproc("plus", [2, 3]) == (2, 3)
    assert cur.fetchall() == [(5,)]
    with pytest.raises(dbapi2.InterfaceError):
        cur.callproc("plus", 5)  # type: ignore[arg-type]
