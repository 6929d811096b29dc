"""IfxPy programs run on ifxwire.compat.ifxpy against the real embedded server.

Each test is a small program in the style of IfxPy's Examples (Sample1.py) and of its test
suite (tests/test_0xx_*.py: the animals table, the patterns each test exercises), written for
this project; the expected values are what IfxPy's C module builds (ifxpyc.c), see
docs/IFXPY.md.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire.compat.ifxpy as IfxPy

USER, PASSWORD = "informix", "in4mix"
ODBC = "[Informix][Informix ODBC Driver][Informix]"


@pytest.fixture(scope="module")
def constr(server: Any, dbname: str) -> str:
    return (
        f"SERVER={server.server_name};DATABASE={dbname};HOST={server.host};"
        f"SERVICE={server.port};PROTOCOL=onsoctcp;"
    )


@pytest.fixture(scope="module")
def animals(constr: str) -> str:
    """IfxPy's test fixture table (test_000_PrepareDb), with our own rows."""
    conn = IfxPy.connect(constr, USER, PASSWORD)
    try:
        IfxPy.exec_immediate(
            conn,
            "CREATE TABLE animals (id INTEGER, breed VARCHAR(32), name CHAR(16), "
            "weight DECIMAL(7,2))",
        )
        stmt = IfxPy.prepare(conn, "INSERT INTO animals (id, breed, name, weight) VALUES (?,?,?,?)")
        for row in [
            (0, "cat", "Pook", 3.2),
            (1, "dog", "Peaches", 12.3),
            (2, "horse", "Smarty", 350.0),
            (3, "gold fish", "Bubbles", 0.1),
            (4, "budgerigar", "Gizmo", 0.2),
            (5, "goat", "Rickety Ride", 9.7),
            (6, "llama", "Sweater", 150),
        ]:
            assert IfxPy.execute(stmt, row) is True
    finally:
        IfxPy.close(conn)
    return "animals"


@pytest.fixture()
def conn(constr: str, animals: str) -> Iterator[IfxPy.IFXConnection]:
    c = IfxPy.connect(constr, USER, PASSWORD)
    yield c
    if IfxPy.active(c):
        IfxPy.rollback(c)
        IfxPy.close(c)


def test_sample1_program(constr: str) -> None:
    """Examples/Sample1.py's flow: drop (failing is fine), create, insert, fetch_both loop."""
    conn = IfxPy.connect(constr + f"UID={USER};PWD={PASSWORD};", "", "")
    with pytest.raises(Exception, match=r"SQLCODE=-206"):
        IfxPy.exec_immediate(conn, "drop table t1;")
    setup = [
        "create table t1 ( c1 int, c2 char(20), c3 int, c4 int ) ;",
        "insert into t1 values( 1, 'Sunday', 101, 201 );",
        "insert into t1 values( 2, 'Monday', 102, 202 );",
        "insert into t1 values( 3, 'Tuesday', 103, 203 );",
    ]
    for sql in setup:
        assert isinstance(IfxPy.exec_immediate(conn, sql), IfxPy.IFXStatement)
    stmt = IfxPy.exec_immediate(conn, "SELECT * FROM t1")
    seen = []
    row = IfxPy.fetch_both(stmt)
    while row != False:  # noqa: E712 - the comparison Sample1.py makes
        assert isinstance(row, dict)
        seen.append((row[0], row["c1"], row[1], row["c3"], row[3]))
        row = IfxPy.fetch_both(stmt)
    assert seen == [
        (1, 1, "Sunday" + " " * 14, 101, 201),
        (2, 2, "Monday" + " " * 14, 102, 202),
        (3, 3, "Tuesday" + " " * 13, 103, 203),
    ]
    assert IfxPy.free_result(stmt) is True
    assert IfxPy.free_stmt(stmt) is True
    assert IfxPy.close(conn) is True
    # Autocommit is on by default: another connection sees the rows without a commit.
    other = IfxPy.connect(constr, USER, PASSWORD)
    assert IfxPy.autocommit(other) == IfxPy.SQL_AUTOCOMMIT_ON
    count = IfxPy.exec_immediate(other, "SELECT COUNT(*) FROM t1")
    # COUNT(*) is described as DECIMAL, which IfxPy hands over as text.
    assert IfxPy.fetch_tuple(count) == ("3",)
    IfxPy.exec_immediate(other, "drop table t1")
    IfxPy.close(other)


def test_odbc_driver_keyword_ignored(constr: str, animals: str) -> None:
    """IfxPy prefixes DRIVER={IBM INFORMIX ODBC DRIVER}; strings kept from ODBC setups
    carry it too: it selects the ODBC driver, and is dropped here."""
    for text in (
        "DRIVER={IBM INFORMIX ODBC DRIVER (64-bit)};" + constr,
        constr + "DRIVER={IBM INFORMIX ODBC DRIVER};",
    ):
        conn = IfxPy.connect(text, USER, PASSWORD)
        assert IfxPy.fetch_tuple(IfxPy.exec_immediate(conn, "SELECT id FROM animals WHERE id = 0"))
        IfxPy.close(conn)


def test_wrong_password(constr: str) -> None:
    """test_082/test_092: connect raises; conn_error() is 28000, the message Informix's."""
    with pytest.raises(Exception) as info:
        IfxPy.connect(constr, USER, "s3cr3t-pw")
    assert type(info.value) is Exception
    assert IfxPy.conn_error() == "28000"
    msg = IfxPy.conn_errormsg()
    assert msg == str(info.value)
    assert msg[0:68] == ODBC + "Incorrect password or user"
    assert msg.endswith("SQLCODE=-951")
    assert "s3cr3t" not in msg


def test_unreachable_server() -> None:
    with pytest.raises(Exception, match=r"SQLCODE=-908$") as info:
        IfxPy.connect("SERVER=ol_x;DATABASE=d;HOST=127.0.0.1;SERVICE=1;", USER, PASSWORD)
    assert str(info.value).startswith(ODBC + "Attempt to connect to database server (ol_x)")
    assert IfxPy.conn_error() == "08004"


def test_statement_errors(conn: IfxPy.IFXConnection) -> None:
    with pytest.raises(Exception) as info:
        IfxPy.exec_immediate(conn, "SELECT * FROM nosuch")
    expected = ODBC + "The specified table (nosuch) is not in the database. SQLCODE=-206"
    assert str(info.value) == expected
    assert IfxPy.stmt_errormsg() == expected
    assert IfxPy.stmt_error() == "42S02"
    with pytest.raises(Exception, match=r"A syntax error has occurred\. SQLCODE=-201$"):
        IfxPy.exec_immediate(conn, "SELEC id FROM animals")
    assert IfxPy.stmt_error() == "42000"
    # prepare + execute: the error carries IfxPy's "Statement Execute Failed: " prefix.
    stmt = IfxPy.prepare(conn, "SELECT passport FROM animals")
    with pytest.raises(Exception) as info:
        IfxPy.execute(stmt)
    assert str(info.value).startswith("Statement Execute Failed: " + ODBC + "Column (passport)")
    assert IfxPy.stmt_errormsg(stmt) == str(info.value).removeprefix("Statement Execute Failed: ")
    # A successful statement clears the last error.
    IfxPy.exec_immediate(conn, "SELECT id FROM animals")
    assert IfxPy.stmt_errormsg() == "" and IfxPy.stmt_error() == ""


def test_bad_arguments(conn: IfxPy.IFXConnection) -> None:
    stmt = IfxPy.prepare(conn, "SELECT id FROM animals WHERE id = ?")
    with pytest.raises(Exception, match=r"^Param is not a tuple$"):
        IfxPy.execute(stmt, [1])
    with pytest.raises(Exception, match=r"^Supplied connection object Parameter is invalid$"):
        IfxPy.exec_immediate(None, "SELECT 1 FROM systables")
    with pytest.raises(Exception, match=r"^statement must be a string or unicode$"):
        IfxPy.exec_immediate(conn, 42)  # type: ignore[arg-type]
    with pytest.raises(Exception, match=r"^Supplied statement object parameter is invalid$"):
        IfxPy.fetch_tuple(conn)


def test_fetch_shapes_and_end(conn: IfxPy.IFXConnection) -> None:
    """test_034/test_040: tuple, dict, both; False (not None) after the last row, again."""
    sql = "SELECT id, breed, name, weight FROM animals WHERE id < 2 ORDER BY id"
    stmt = IfxPy.exec_immediate(conn, sql)
    assert IfxPy.fetch_tuple(stmt) == (0, "cat", "Pook" + " " * 12, "3.20")
    assert IfxPy.fetch_assoc(stmt) == {
        "id": 1,
        "breed": "dog",
        "name": "Peaches" + " " * 9,
        "weight": "12.30",
    }
    assert IfxPy.fetch_tuple(stmt) is False
    assert IfxPy.fetch_assoc(stmt) is False
    assert IfxPy.fetch_both(stmt) is False
    assert IfxPy.fetch_row(stmt) is False


def test_fetch_row_and_result(conn: IfxPy.IFXConnection) -> None:
    """test_030/test_03a: fetch_row + result by position and by name; an unknown column is
    None; before any row result() is False."""
    stmt = IfxPy.exec_immediate(conn, "SELECT id, breed, name, weight FROM animals WHERE id = 0")
    assert IfxPy.result(stmt, 0) is False
    seen = []
    while IfxPy.fetch_row(stmt):
        breed = IfxPy.result(stmt, 1)
        name = IfxPy.result(stmt, "name")
        seen.append((len(breed), breed, len(name), name))
        assert IfxPy.result(stmt, "passport") is None
        assert IfxPy.result(stmt, 9) is None
    assert seen == [(3, "cat", 16, "Pook            ")]


def test_fetch_row_number(conn: IfxPy.IFXConnection) -> None:
    stmt = IfxPy.exec_immediate(conn, "SELECT id FROM animals")
    with pytest.raises(Exception, match=r"^Requested row number must be a positive value$"):
        IfxPy.fetch_tuple(stmt, -1)
    with pytest.raises(Exception, match=r"^Fetch Failure: .*Fetch type out of range"):
        IfxPy.fetch_tuple(stmt, 3)
    assert IfxPy.stmt_error(stmt) == "HY106"
    assert IfxPy.fetch_tuple(stmt, 0) is not False  # 0 means "the next row"


def test_none_params_bind_null(conn: IfxPy.IFXConnection) -> None:
    """test_049: None binds NULL; rows come back with None."""
    IfxPy.autocommit(conn, IfxPy.SQL_AUTOCOMMIT_OFF)
    insert = "INSERT INTO animals (id, breed, name, weight) VALUES (?, ?, ?, ?)"
    stmt = IfxPy.prepare(conn, insert)
    assert IfxPy.execute(stmt, (None, "ghost", None, None)) is True
    assert IfxPy.num_rows(stmt) == 1
    sel = IfxPy.exec_immediate(
        conn, "SELECT id, breed, name, weight FROM animals WHERE weight IS NULL"
    )
    assert IfxPy.fetch_tuple(sel) == (None, "ghost", None, None)
    assert IfxPy.fetch_tuple(sel) is False
    assert IfxPy.rollback(conn) is True
    sel = IfxPy.exec_immediate(conn, "SELECT COUNT(*) FROM animals WHERE weight IS NULL")
    assert IfxPy.fetch_tuple(sel) == ("0",)


def test_counts_and_transactions(conn: IfxPy.IFXConnection) -> None:
    """test_003/test_020/test_100: num_rows of an UPDATE, num_fields, rollback undoing it."""
    assert IfxPy.autocommit(conn) == 1
    assert IfxPy.autocommit(conn, IfxPy.SQL_AUTOCOMMIT_OFF) is True
    assert IfxPy.autocommit(conn) == 0
    res = IfxPy.exec_immediate(conn, "UPDATE animals SET id = 9")
    assert IfxPy.num_rows(res) == 7
    assert IfxPy.num_fields(res) == 0
    assert IfxPy.num_fields(IfxPy.exec_immediate(conn, "SELECT * FROM animals")) == 4
    assert (
        IfxPy.num_fields(IfxPy.exec_immediate(conn, "SELECT name, breed, 'TEST' FROM animals")) == 3
    )
    assert IfxPy.rollback(conn) is True
    stmt = IfxPy.exec_immediate(conn, "SELECT COUNT(*) FROM animals WHERE id = 9")
    assert IfxPy.fetch_tuple(stmt) == ("0",)
    res = IfxPy.exec_immediate(conn, "DELETE FROM animals WHERE id = 6")
    assert IfxPy.num_rows(res) == 1
    assert IfxPy.commit(conn) is True
    IfxPy.exec_immediate(conn, "INSERT INTO animals VALUES (6, 'llama', 'Sweater', 150)")
    assert IfxPy.commit(conn) is True


def test_field_functions(conn: IfxPy.IFXConnection) -> None:
    """test_110/test_008: field_num/field_name by name and index; False for unknown columns."""
    stmt = IfxPy.exec_immediate(conn, "SELECT * FROM animals ORDER BY breed")
    assert [IfxPy.field_num(stmt, n) for n in ("id", "breed", "name", "weight")] == [0, 1, 2, 3]
    assert IfxPy.field_num(stmt, "test") is False
    assert IfxPy.field_num(stmt, 8) is False
    assert IfxPy.field_num(stmt, 1) == 1
    assert IfxPy.field_num(stmt, "WEIGHT") is False  # names compare with their case
    assert IfxPy.field_name(stmt, 2) == "name"
    assert IfxPy.field_name(stmt, 7) is False
    assert [IfxPy.field_type(stmt, i) for i in range(4)] == ["int", "string", "string", "decimal"]
    assert IfxPy.field_precision(stmt, "weight") == 7
    assert IfxPy.field_scale(stmt, "weight") == 2
    assert IfxPy.field_width(stmt, "name") == 16
    assert IfxPy.field_display_size(stmt, "id") == 11
    assert IfxPy.field_nullable(stmt, "id") is True
    assert IfxPy.field_type(stmt, "nosuch") is False


def test_attr_case_options(constr: str, animals: str) -> None:
    """ATTR_CASE on connect (options dict), then per statement; set_option/get_option."""
    conn = IfxPy.connect(constr, USER, PASSWORD, {IfxPy.ATTR_CASE: IfxPy.CASE_UPPER})
    try:
        stmt = IfxPy.exec_immediate(conn, "SELECT id, breed FROM animals WHERE id = 0")
        assert IfxPy.fetch_assoc(stmt) == {"ID": 0, "BREED": "cat"}
        assert IfxPy.get_option(conn, IfxPy.ATTR_CASE, 1) == IfxPy.CASE_UPPER
        stmt = IfxPy.exec_immediate(
            conn, "SELECT id FROM animals WHERE id = 0", {IfxPy.ATTR_CASE: IfxPy.CASE_LOWER}
        )
        assert IfxPy.fetch_both(stmt) == {"id": 0, 0: 0}
        assert IfxPy.set_option(conn, {IfxPy.SQL_ATTR_AUTOCOMMIT: IfxPy.SQL_AUTOCOMMIT_OFF}, 1)
        assert IfxPy.get_option(conn, IfxPy.SQL_ATTR_AUTOCOMMIT, 1) == 0
        with pytest.raises(Exception, match="ATTR_CASE attribute must be one of"):
            IfxPy.set_option(conn, {IfxPy.ATTR_CASE: 7}, 1)
        # test_054: Informix statements stay forward-only whatever is asked.
        op = {IfxPy.SQL_ATTR_CURSOR_TYPE: IfxPy.SQL_CURSOR_STATIC}
        stmt = IfxPy.exec_immediate(conn, "SELECT * FROM animals", op)
        assert IfxPy.get_option(stmt, IfxPy.SQL_ATTR_CURSOR_TYPE, 0) == 0
        assert IfxPy.cursor_type(stmt) == IfxPy.SQL_CURSOR_FORWARD_ONLY
    finally:
        IfxPy.close(conn)


def test_types_as_ifxpy_builds_them(conn: IfxPy.IFXConnection) -> None:
    """ifxpyc.c's fetch: DECIMAL/MONEY text, DATE date, DATETIME datetime, day-time INTERVAL
    timedelta, BOOLEAN int, BYTE/BLOB bytes, TEXT/CLOB str, INT8 int, FLOAT float."""
    IfxPy.exec_immediate(
        conn,
        "CREATE TABLE typed (d DECIMAL(8,3), m MONEY(8,2), dt DATE, ts DATETIME YEAR TO SECOND,"
        " iv INTERVAL DAY TO SECOND, ym INTERVAL YEAR TO MONTH, bo BOOLEAN, b BYTE, t TEXT,"
        " bl BLOB, cl CLOB, i8 INT8, f FLOAT, sf SMALLFLOAT, vc VARCHAR(10), lv LVARCHAR(100))",
    )
    picture = bytes(range(256)) * 40
    stmt = IfxPy.prepare(conn, "INSERT INTO typed VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
    params = (
        "12.5",
        "7.25",
        datetime.date(1982, 3, 27),
        datetime.datetime(2024, 1, 2, 3, 4, 5),
        datetime.timedelta(days=1, hours=2, minutes=3, seconds=4),
        "2-03",
        True,
        picture,
        "a text\nof two lines",
        b"\x00blob\xff",
        "a clob",
        2**40,
        1.5,
        2.5,
        "vc",
        "lvarchar",
    )
    assert IfxPy.execute(stmt, params) is True
    res = IfxPy.exec_immediate(conn, "SELECT * FROM typed")
    row = IfxPy.fetch_tuple(res)
    assert row == (
        "12.500",
        "7.25",
        datetime.date(1982, 3, 27),
        datetime.datetime(2024, 1, 2, 3, 4, 5),
        datetime.timedelta(days=1, seconds=7384),
        "2-03",
        1,
        picture,
        "a text\nof two lines",
        b"\x00blob\xff",
        "a clob",
        2**40,
        1.5,
        2.5,
        "vc",
        "lvarchar",
    )
    assert isinstance(row, tuple) and type(row[6]) is int
    names = [IfxPy.field_type(res, i) for i in range(IfxPy.num_fields(res))]
    assert names == [
        "decimal", "decimal", "date", "timestamp", "interval", "interval", "string", "string",
        "string", "string", "string", "bigint", "real", "real", "string", "string",
    ]  # fmt: skip


def test_active_close_and_info(server: Any, dbname: str, constr: str, animals: str) -> None:
    """test_116/test_071: active() on None, open and closed handles; close() True."""
    assert IfxPy.active(None) is False
    conn = IfxPy.connect(constr, USER, PASSWORD)
    assert IfxPy.active(conn) is True
    info = IfxPy.server_info(conn)
    assert info.DBMS_NAME[0:3] == "Inf"
    assert info.DBMS_VER == "14.10.FC9"
    assert server.server_name == info.INST_NAME
    assert dbname == info.DB_NAME
    client = IfxPy.client_info(conn)
    assert client.DRIVER_NAME == "ifxwire"
    assert IfxPy.get_db_info(conn, IfxPy.SQL_DBMS_NAME) == info.DBMS_NAME
    assert IfxPy.close(conn) is True
    assert IfxPy.active(conn) is False
    with pytest.raises(Exception, match=r"^Connection is not active$"):
        IfxPy.exec_immediate(conn, "SELECT id FROM animals")


def test_pconnect_reuses(constr: str, animals: str) -> None:
    a = IfxPy.pconnect(constr, USER, PASSWORD)
    b = IfxPy.pconnect(constr, USER, PASSWORD)
    assert a is b
    assert IfxPy.close(a) is True
    assert IfxPy.active(a) is True  # a persistent connection outlives close()
    assert IfxPy.pconnect(constr, USER, PASSWORD) is a


def test_execute_many(conn: IfxPy.IFXConnection) -> None:
    IfxPy.autocommit(conn, IfxPy.SQL_AUTOCOMMIT_OFF)
    stmt = IfxPy.prepare(conn, "INSERT INTO animals (id, breed) VALUES (?, ?)")
    assert IfxPy.execute_many(stmt, ((100, "a"), (101, "b"), (102, None))) == 3
    res = IfxPy.exec_immediate(conn, "SELECT breed FROM animals WHERE id >= 100 ORDER BY id")
    assert [IfxPy.fetch_tuple(res) for _ in range(4)] == [("a",), ("b",), (None,), False]
    IfxPy.rollback(conn)


def test_bind_param_and_serial(conn: IfxPy.IFXConnection) -> None:
    IfxPy.exec_immediate(conn, "CREATE TABLE serials (id SERIAL, name VARCHAR(10))")
    stmt = IfxPy.prepare(conn, "INSERT INTO serials (id, name) VALUES (0, ?)")
    assert IfxPy.bind_param(stmt, 1, "first") is True
    assert IfxPy.execute(stmt) is True
    assert IfxPy.get_last_serial_value(stmt) == "1"
    assert IfxPy.bind_param(stmt, 1, "second") is True
    IfxPy.execute(stmt)
    assert IfxPy.get_last_serial_value(stmt) == "2"
    res = IfxPy.exec_immediate(conn, "SELECT name FROM serials ORDER BY id")
    assert IfxPy.get_last_serial_value(res) is False
    assert [IfxPy.fetch_tuple(res) for _ in range(3)] == [("first",), ("second",), False]
    gap = IfxPy.prepare(conn, "INSERT INTO serials (id, name) VALUES (?, ?)")
    IfxPy.bind_param(gap, 2, "x")
    with pytest.raises(Exception, match=r"^Parameters not bound$"):
        IfxPy.execute(gap)


def test_connect_option_errors(constr: str) -> None:
    with pytest.raises(Exception, match=r"^options Parameter must be of type dictionay$"):
        IfxPy.connect(constr, USER, PASSWORD, [1])
    with pytest.raises(Exception, match=r"Invalid attribute/option identifier 4242"):
        IfxPy.connect(constr, USER, PASSWORD, {4242: 1})
    conn = IfxPy.connect(
        constr, USER, PASSWORD, {IfxPy.SQL_ATTR_AUTOCOMMIT: IfxPy.SQL_AUTOCOMMIT_OFF}
    )
    assert IfxPy.autocommit(conn) == 0
    IfxPy.close(conn)


def test_callproc(conn: IfxPy.IFXConnection) -> None:
    IfxPy.exec_immediate(
        conn, "CREATE PROCEDURE twice(a INT) RETURNING INT; RETURN a * 2; END PROCEDURE"
    )
    IfxPy.exec_immediate(conn, "CREATE PROCEDURE seven() RETURNING INT; RETURN 7; END PROCEDURE")
    stmt, a = IfxPy.callproc(conn, "twice", (21,))
    assert a == 21
    assert IfxPy.fetch_tuple(stmt) == (42,)
    stmt = IfxPy.callproc(conn, "seven")
    assert IfxPy.fetch_tuple(stmt) == (7,)
    with pytest.raises(Exception, match=r"^Empty Procedure Name$"):
        IfxPy.callproc(conn, "")
    with pytest.raises(Exception, match=r"^Statement Execute Failed: .*SQLCODE=-"):
        IfxPy.callproc(conn, "no_such_routine", (1,))


def test_case_applies_to_fetch_keys_only(constr: str, animals: str) -> None:
    """IfxPy's test_115/test_264: under CASE_UPPER, fetch_row + result(stmt, 'breed') still
    finds the column by its server name; fetch_assoc keys are upper-case (and from then on
    the statement's names are, as IfxPy rewrites them in place)."""
    conn = IfxPy.connect(constr, USER, PASSWORD)
    IfxPy.set_option(conn, {IfxPy.ATTR_CASE: IfxPy.CASE_UPPER}, 1)
    stmt = IfxPy.prepare(conn, "SELECT breed FROM animals WHERE id = 0")
    IfxPy.execute(stmt)
    assert IfxPy.fetch_row(stmt, 0) is True
    assert IfxPy.result(stmt, "breed") == "cat"
    assert IfxPy.field_name(stmt, 0) == "breed"
    IfxPy.execute(stmt)
    assert IfxPy.fetch_assoc(stmt) == {"BREED": "cat"}
    assert IfxPy.field_name(stmt, 0) == "BREED"
    IfxPy.close(conn)


def test_field_width_as_odbc_reports(conn: IfxPy.IFXConnection) -> None:
    """IfxPy's test_240: DATE 6, DECIMAL(p,s) p + 2, BLOB 2**31 - 1 (width and display)."""
    IfxPy.exec_immediate(conn, "CREATE TABLE widths (d DATE, m DECIMAL(7,2), p BLOB, n INT)")
    stmt = IfxPy.exec_immediate(conn, "SELECT * FROM widths")
    assert [IfxPy.field_width(stmt, i) for i in range(4)] == [6, 9, 2147483647, 4]
    assert IfxPy.field_display_size(stmt, "p") == 2147483647
    assert IfxPy.get_num_result(stmt) == -1


def test_datetime_time_of_day(conn: IfxPy.IFXConnection) -> None:
    """IfxPy's test_6792: DATETIME HOUR TO SECOND is "time" and comes as datetime.time; a
    DATETIME YEAR TO SECOND is "timestamp". field_type before any fetch loses no row."""
    IfxPy.exec_immediate(
        conn, "CREATE TABLE t6792 (c1 DATETIME HOUR TO SECOND, c2 DATE, c3 DATETIME YEAR TO SECOND)"
    )
    stmt = IfxPy.prepare(conn, "INSERT INTO t6792 VALUES (?, ?, ?)")
    IfxPy.execute(stmt, ("10:42:34", "1981-07-08", "1981-07-08 10:42:34"))
    IfxPy.execute(stmt, ("11:00:00", "1981-07-09", "1981-07-09 11:00:00"))
    res = IfxPy.exec_immediate(conn, "SELECT * FROM t6792 ORDER BY c2")
    assert [IfxPy.field_type(res, i) for i in range(3)] == ["time", "date", "timestamp"]
    assert IfxPy.fetch_tuple(res) == (
        datetime.time(10, 42, 34),
        datetime.date(1981, 7, 8),
        datetime.datetime(1981, 7, 8, 10, 42, 34),
    )
    assert IfxPy.field_type(res, 0) == "time"
    assert IfxPy.fetch_tuple(res)[0] == datetime.time(11, 0)  # type: ignore[index]
    assert IfxPy.fetch_tuple(res) is False
    empty = IfxPy.exec_immediate(conn, "SELECT c1 FROM t6792 WHERE 1 = 0")
    assert IfxPy.field_type(empty, 0) == "timestamp"
    assert IfxPy.fetch_tuple(empty) is False
