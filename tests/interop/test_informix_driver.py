"""informix-driver 2026.9.3 (``informix_db``, a client we did not write) against our server.

A second, independent client suite next to the IBM JDBC one: the peer driver has its own
SQLI implementation and its own value codecs, so every round trip here passes through two
codecs that were written apart (theirs and our server's).  Expected values are what real
Informix 12.10/14.10/15 do, as documented in /work/shared/reference/peer-informix-driver.md
(section 4: behaviours the driver's authors verified on those servers); never what our server
happens to do.  A test our server cannot pass yet fails; none is skipped or xfailed.

Run:  pytest -m interop tests/interop/test_informix_driver.py
      IFXWIRE_INTEROP_SERVER=host:9088:informix pytest tests/interop/test_informix_driver.py
      (the latter against a real Informix, to validate the expectations themselves)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal

import informix_db
import pytest
from informix_driver_support import (
    ALL_TYPE_COLUMNS,
    LITERAL_CASES,
    SERIAL_COLUMNS,
    TYPE_CASES,
    Target,
    TypeCase,
    connect,
    create_table_sql,
    expect_error,
    many,
    query,
    run,
    same_value,
    scalar,
    start_target,
    table_name,
    unique_name,
)

pytestmark = pytest.mark.interop

FETCH_COUNTS = (0, 1, 2, 3, 63, 64, 65, 199, 200, 201, 512, 1025)
FETCH_ROWS = 1025
PLACEHOLDER_STYLES = ("qmark", "numeric")

# --------------------------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    with start_target() as t:
        yield t


@pytest.fixture(scope="module")
def dbname(target: Target) -> Iterator[str]:
    """A logged database created from a connection that has no database."""
    name = unique_name("ifxdrv")
    conn = connect(target, None, autocommit=True)
    try:
        run(conn, f"CREATE DATABASE {name} WITH LOG")
    finally:
        conn.close()
    yield name
    with contextlib.suppress(Exception):
        conn = connect(target, None, autocommit=True)
        try:
            run(conn, f"DROP DATABASE {name}")
        finally:
            conn.close()


@pytest.fixture
def conn(target: Target, dbname: str) -> Iterator[informix_db.Connection]:
    """Autocommit connection to the logged test database."""
    c = connect(target, dbname, autocommit=True)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def txconn(target: Target, dbname: str) -> Iterator[informix_db.Connection]:
    """Non-autocommit connection (the driver sends SQ_BEGIN before the first statement)."""
    c = connect(target, dbname, autocommit=False)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def table(request: pytest.FixtureRequest) -> str:
    return table_name(request)


@pytest.fixture(scope="module")
def fetch_table(target: Target, dbname: str) -> str:
    """FETCH_ROWS rows (id, 30-character VARCHAR): a full read needs many 4096-byte NFETCHes."""
    name = unique_name("fetchrows")
    c = connect(target, dbname, autocommit=False)
    try:
        run(c, f"CREATE TABLE {name} (id INTEGER, s VARCHAR(40))")
        many(
            c, f"INSERT INTO {name} VALUES (?, ?)", [(i, fetch_text(i)) for i in range(FETCH_ROWS)]
        )
        c.commit()
    finally:
        c.close()
    return name


def fetch_text(i: int) -> str:
    return f"row-{i:05d}-" + "x" * 20


def numbered(sql: str, style: str) -> str:
    """sql is written with ?; the numeric style turns the k-th ? into :k (informix_db rewrites
    :N back to ? positionally before sending)."""
    if style == "qmark":
        return sql
    counter = iter(range(1, 1000))
    return re.sub(r"\?", lambda _m: f":{next(counter)}", sql)


def count(conn: informix_db.Connection, table: str, where: str = "") -> int:
    value = scalar(conn, f"SELECT COUNT(*) FROM {table} {where}")
    return int(value)


# --------------------------------------------------------------------------------------------
# Connecting
# --------------------------------------------------------------------------------------------


def test_connect_without_database(target: Target) -> None:
    c = connect(target, None)
    try:
        assert not c.closed
    finally:
        c.close()
    assert c.closed


def test_select_without_database_raises_349(target: Target) -> None:
    c = connect(target, None)
    try:
        expect_error(
            lambda: query(c, "SELECT tabid FROM systables WHERE tabid = 1"),
            -349,
            informix_db.NotSupportedError,
        )
    finally:
        c.close()


def test_connect_with_database(target: Target, dbname: str) -> None:
    for autocommit in (True, False):
        c = connect(target, dbname, autocommit=autocommit)
        try:
            assert query(c, "SELECT tabid FROM systables WHERE tabid = 1") == [(1,)]
        finally:
            c.close()


def test_connect_unknown_database_raises_329(target: Target) -> None:
    expect_error(
        lambda: connect(target, unique_name("nosuchdb")), -329, informix_db.NotSupportedError
    )


def test_wrong_password_is_rejected(target: Target, dbname: str) -> None:
    # Real Informix rejects with -951; informix_db does not decode the rejection's sqlcode
    # (peer report 2.2: "no structured sqlcode decode"), so only the class can be checked.
    with pytest.raises(informix_db.OperationalError) as info:
        connect(target, dbname, password="not-the-password")
    assert str(info.value).startswith("server rejected the connection")
    c = connect(target, dbname)  # the listener is still fine
    c.close()


def test_unknown_user_is_rejected(target: Target) -> None:
    with pytest.raises(informix_db.OperationalError) as info:
        connect(target, None, user="nosuchuser", password="whatever")
    assert str(info.value).startswith("server rejected the connection")


def test_login_version_is_internal_protocol_version(target: Target) -> None:
    # 12.10 sends "9.56", 14.10 "9.59", 15 "15.0.1.0.3" in the login response (peer report 1.2/4).
    # Our server sends the JDBC-parseable "<product> Version <release>" by default (JDBC 4.50
    # throws on a bare "9.59"), and reproduces real servers with login_version="9.59".
    if target.external:
        c = connect(target, None)
        try:
            assert re.fullmatch(r"\d+(\.\d+)+", c.server_version_internal), (
                c.server_version_internal
            )
        finally:
            c.close()
        return
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", login_version="9.59") as srv:
        real_like = Target(srv.host, srv.port, "informix", "informix", "in4mix", external=False)
        c = connect(real_like, None)
        try:
            assert c.server_version_internal == "9.59"
        finally:
            c.close()


def test_server_version_from_dbinfo(conn: informix_db.Connection) -> None:
    full = scalar(conn, "SELECT FIRST 1 DBINFO('version','full') FROM systables")
    assert full.startswith("IBM Informix Dynamic Server Version "), full
    assert conn.server_version == full  # the driver asks DBINFO, and caches the answer


def test_negotiated_capabilities(conn: informix_db.Connection) -> None:
    caps = conn.server_capabilities
    assert caps is not None
    assert caps.violated_assumptions() == []
    assert caps.cap_1 == 316
    assert len(caps.raw_mask) == 9
    assert caps.raw_mask[:8].hex() == "bdbe9ffe7fb7ffef"  # identical on 12.10, 14.10 and 15


# --------------------------------------------------------------------------------------------
# Databases
# --------------------------------------------------------------------------------------------


def _drop_database(target: Target, name: str) -> None:
    with contextlib.suppress(informix_db.Error):
        c = connect(target, None)
        try:
            run(c, f"DROP DATABASE {name}")
        finally:
            c.close()


def test_create_database_with_log_then_connect(target: Target) -> None:
    name = unique_name("newdb")
    c = connect(target, None)
    try:
        run(c, f"CREATE DATABASE {name} WITH LOG")
    finally:
        c.close()
    try:
        c = connect(target, name, autocommit=False)
        try:
            run(c, "CREATE TABLE t (id INTEGER)")
            c.commit()
            run(c, "INSERT INTO t VALUES (1)")
            c.rollback()  # a logged database: the insert is undone
            assert count(c, "t") == 0
        finally:
            c.close()
    finally:
        _drop_database(target, name)


def test_create_database_makes_it_current(target: Target) -> None:
    name = unique_name("curdb")
    c = connect(target, None)
    try:
        run(c, f"CREATE DATABASE {name} WITH LOG")
        assert query(c, "SELECT tabname FROM systables WHERE tabid = 1") == [("systables",)]
    finally:
        c.close()
        _drop_database(target, name)


def test_create_existing_database_raises_330(target: Target, dbname: str) -> None:
    c = connect(target, None)
    try:
        expect_error(
            lambda: run(c, f"CREATE DATABASE {dbname} WITH LOG"), -330, informix_db.DatabaseError
        )
    finally:
        c.close()


def test_drop_database(target: Target) -> None:
    name = unique_name("dropdb")
    c = connect(target, None)
    try:
        run(c, f"CREATE DATABASE {name} WITH LOG")
    finally:
        c.close()
    c = connect(target, None)
    try:
        run(c, f"DROP DATABASE {name}")
    finally:
        c.close()
    expect_error(lambda: connect(target, name), -329, informix_db.NotSupportedError)


# --------------------------------------------------------------------------------------------
# Tables and their description
# --------------------------------------------------------------------------------------------


def test_create_table_every_type(conn: informix_db.Connection, table: str) -> None:
    run(conn, create_table_sql(table, ALL_TYPE_COLUMNS, id_column=False))
    cur = conn.cursor()
    cur.execute(f"SELECT * FROM {table}")
    assert cur.fetchall() == []
    assert cur.description is not None
    got = [(d[0], d[1]) for d in cur.description]
    assert got == [(c.name, c.type_code) for c in ALL_TYPE_COLUMNS]


def test_describe_encoded_lengths(conn: informix_db.Connection, table: str) -> None:
    run(conn, create_table_sql(table, ALL_TYPE_COLUMNS, id_column=False))
    cur = conn.cursor()
    cur.execute(f"SELECT * FROM {table}")
    assert cur.description is not None
    got = {d[0]: (d[2], d[3]) for d in cur.description}
    expected = {c.name: (c.length, c.length) for c in ALL_TYPE_COLUMNS if c.length is not None}
    assert {k: got.get(k) for k in expected} == expected


def test_describe_null_ok(conn: informix_db.Connection, table: str) -> None:
    run(
        conn,
        f"CREATE TABLE {table} (a INTEGER NOT NULL, b INTEGER, c VARCHAR(10) NOT NULL,"
        " d VARCHAR(10), e DECIMAL(8,2) NOT NULL)",
    )
    cur = conn.cursor()
    cur.execute(f"SELECT a, b, c, d, e FROM {table}")
    assert cur.description is not None
    assert [d[6] for d in cur.description] == [False, True, False, True, False]


def test_serial_columns_describe(conn: informix_db.Connection, table: str) -> None:
    for i, group in enumerate(SERIAL_COLUMNS):
        name = f"{table}_{i}"
        run(conn, create_table_sql(name, group))
        cur = conn.cursor()
        cur.execute(f"SELECT {', '.join(c.name for c in group)} FROM {name}")
        assert cur.description is not None
        got = [(d[0], d[1], d[3]) for d in cur.description]
        assert got == [(c.name, c.type_code, c.length) for c in group]


def test_serial_and_serial8_generate_values(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (s SERIAL, s8 SERIAL8, v INTEGER)")
    run(conn, f"INSERT INTO {table} VALUES (0, 0, 1)")
    run(conn, f"INSERT INTO {table} (v) VALUES (2)")
    run(conn, f"INSERT INTO {table} VALUES (100, 200, 3)")
    run(conn, f"INSERT INTO {table} VALUES (0, 0, 4)")
    assert query(conn, f"SELECT s, s8, v FROM {table} ORDER BY v") == [
        (1, 1, 1),
        (2, 2, 2),
        (100, 200, 3),
        (101, 201, 4),
    ]


def test_bigserial_generates_values(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (s BIGSERIAL, v INTEGER)")
    run(conn, f"INSERT INTO {table} VALUES (0, 1)")
    run(conn, f"INSERT INTO {table} (v) VALUES (2)")
    run(conn, f"INSERT INTO {table} VALUES (5000000000, 3)")
    run(conn, f"INSERT INTO {table} (v) VALUES (4)")
    assert query(conn, f"SELECT s, v FROM {table} ORDER BY v") == [
        (1, 1),
        (2, 2),
        (5000000000, 3),
        (5000000001, 4),
    ]


def test_create_existing_table_raises_310(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER)")
    expect_error(
        lambda: run(conn, f"CREATE TABLE {table} (id INTEGER)"), -310, informix_db.ProgrammingError
    )


# --------------------------------------------------------------------------------------------
# DML
# --------------------------------------------------------------------------------------------


def test_dml_rowcount(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v VARCHAR(10))")
    for i in range(1, 6):
        assert run(conn, f"INSERT INTO {table} VALUES ({i}, 'v{i}')") == 1
    assert run(conn, f"UPDATE {table} SET v = 'low' WHERE id <= 2") == 2
    assert run(conn, f"UPDATE {table} SET v = 'none' WHERE id > 100") == 0
    assert run(conn, f"DELETE FROM {table} WHERE id = 5") == 1
    assert run(conn, f"DELETE FROM {table} WHERE id > 100") == 0
    assert query(conn, f"SELECT id, v FROM {table} ORDER BY id") == [
        (1, "low"),
        (2, "low"),
        (3, "v3"),
        (4, "v4"),
    ]
    assert run(conn, f"DELETE FROM {table}") == 4


def test_insert_select_rowcount(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER)")
    run(conn, f"CREATE TABLE {table}_copy (id INTEGER)")
    for i in range(7):
        run(conn, f"INSERT INTO {table} VALUES (?)", (i,))
    assert run(conn, f"INSERT INTO {table}_copy SELECT id FROM {table} WHERE id >= 2") == 5
    assert query(conn, f"SELECT id FROM {table}_copy ORDER BY id") == [(i,) for i in range(2, 7)]


def test_parameterised_insert_describes_its_target_yet_opens_no_cursor(
    conn: informix_db.Connection, table: str
) -> None:
    # Real servers describe the column an INSERT's ``?`` goes into (informix-driver's
    # ``_produces_result_set``, checked on 12.10/14.10/15: type 6 "even though it describes a
    # column"); informix-driver shows it as the description and opens no cursor.
    run(conn, f"CREATE TABLE {table} (id INTEGER)")
    cur = conn.cursor()
    cur.execute(f"INSERT INTO {table} VALUES (?)", (1,))
    assert cur.description is not None
    assert [d[0] for d in cur.description] == ["id"]
    assert cur.rowcount == 1
    assert query(conn, f"SELECT id FROM {table}") == [(1,)]


# --------------------------------------------------------------------------------------------
# Values: parameters, literals, NULL
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", PLACEHOLDER_STYLES)
@pytest.mark.parametrize("case", TYPE_CASES, ids=[c.name for c in TYPE_CASES])
def test_param_round_trip(
    conn: informix_db.Connection, table: str, case: TypeCase, style: str
) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v {case.sql_type})")
    assert (
        run(conn, numbered(f"INSERT INTO {table} (id, v) VALUES (?, ?)", style), (1, case.param))
        == 1
    )
    rows = query(conn, numbered(f"SELECT v FROM {table} WHERE id = ?", style), (1,))
    assert len(rows) == 1
    got = rows[0][0]
    assert same_value(got, case.expected), f"read back {got!r}, expected {case.expected!r}"
    if case.literal is not None:
        # The server's own view of the stored value, independent of both codecs.
        assert count(conn, table, f"WHERE v = {case.literal}") == 1


@pytest.mark.parametrize("case", LITERAL_CASES, ids=[c.name for c in LITERAL_CASES])
def test_literal_round_trip(conn: informix_db.Connection, table: str, case: TypeCase) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v {case.sql_type})")
    assert run(conn, f"INSERT INTO {table} (id, v) VALUES (1, {case.literal})") == 1
    got = scalar(conn, f"SELECT v FROM {table} WHERE id = 1")
    assert same_value(got, case.expected), f"read back {got!r}, expected {case.expected!r}"


def _every_type_table(conn: informix_db.Connection, table: str) -> list[str]:
    run(conn, create_table_sql(table, ALL_TYPE_COLUMNS))
    return [c.name for c in ALL_TYPE_COLUMNS]


@pytest.mark.parametrize("style", PLACEHOLDER_STYLES)
def test_param_null_every_type(conn: informix_db.Connection, table: str, style: str) -> None:
    names = _every_type_table(conn, table)
    marks = ", ".join("?" for _ in range(len(names) + 1))
    sql = numbered(f"INSERT INTO {table} (id, {', '.join(names)}) VALUES ({marks})", style)
    assert run(conn, sql, (1, *([None] * len(names)))) == 1
    rows = query(conn, f"SELECT {', '.join(names)} FROM {table} WHERE id = 1")
    assert rows == [tuple([None] * len(names))]


def test_literal_null_every_type(conn: informix_db.Connection, table: str) -> None:
    names = _every_type_table(conn, table)
    nulls = ", ".join("NULL" for _ in names)
    assert run(conn, f"INSERT INTO {table} (id, {', '.join(names)}) VALUES (1, {nulls})") == 1
    rows = query(conn, f"SELECT {', '.join(names)} FROM {table} WHERE id = 1")
    assert rows == [tuple([None] * len(names))]


def test_omitted_columns_are_null_and_match_is_null(
    conn: informix_db.Connection, table: str
) -> None:
    names = _every_type_table(conn, table)
    run(conn, f"INSERT INTO {table} (id) VALUES (1)")
    assert query(conn, f"SELECT {', '.join(names)} FROM {table}") == [tuple([None] * len(names))]
    for name in names:
        assert count(conn, table, f"WHERE {name} IS NULL") == 1, name
        assert count(conn, table, f"WHERE {name} IS NOT NULL") == 0, name


# One value per column of ALL_TYPE_COLUMNS (same order) for the whole-row tests.
ROW_VALUES: tuple[object, ...] = (
    -32767,
    2147483647,
    -123456789012,
    2**62,
    1.5,
    -0.125,
    Decimal("-1234.56"),
    Decimal("98765.4321"),
    Decimal("19.99"),
    "chr",
    "nch",
    "a varchar",
    "nvc",
    "l" * 301,
    dt.date(2026, 8, 31),
    dt.datetime(2026, 8, 31, 23, 59, 58),
    dt.datetime(2026, 8, 31, 23, 59, 58, 120),
    "17:45:03",
    dt.timedelta(days=12, hours=1, minutes=2, seconds=3),
    informix_db.IntervalYM(25),
    True,
)


def _decoded(value: object) -> object:
    return dt.time(17, 45, 3) if value == "17:45:03" else value


def test_every_type_in_one_row(conn: informix_db.Connection, table: str) -> None:
    names = _every_type_table(conn, table)
    marks = ", ".join("?" for _ in range(len(names) + 1))
    run(conn, f"INSERT INTO {table} (id, {', '.join(names)}) VALUES ({marks})", (1, *ROW_VALUES))
    rows = query(conn, f"SELECT id, {', '.join(names)}, id FROM {table}")
    expected = (1, *(_decoded(v) for v in ROW_VALUES), 1)
    assert len(rows) == 1
    mismatches = {
        n: (g, e)
        for n, g, e in zip(["id", *names, "id"], rows[0], expected, strict=True)
        if not same_value(g, e)
    }
    assert mismatches == {}


def test_every_type_with_one_null_per_row(conn: informix_db.Connection, table: str) -> None:
    """Row k has column k NULL: a NULL encoded with the wrong width shifts every later column."""
    names = _every_type_table(conn, table)
    marks = ", ".join("?" for _ in range(len(names) + 1))
    sql = f"INSERT INTO {table} (id, {', '.join(names)}) VALUES ({marks})"
    for k in range(len(names)):
        values = [None if i == k else v for i, v in enumerate(ROW_VALUES)]
        run(conn, sql, (k, *values))
    rows = query(conn, f"SELECT id, {', '.join(names)}, id FROM {table} ORDER BY id")
    assert len(rows) == len(names)
    for k, row in enumerate(rows):
        expected = (k, *(None if i == k else _decoded(v) for i, v in enumerate(ROW_VALUES)), k)
        assert row == expected, f"row with {names[k]} NULL"


def test_varchar_empty_string_is_not_null(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v VARCHAR(10))")
    run(conn, f"INSERT INTO {table} VALUES (1, '')")
    run(conn, f"INSERT INTO {table} VALUES (2, NULL)")
    run(conn, f"INSERT INTO {table} VALUES (?, ?)", (3, ""))
    run(conn, f"INSERT INTO {table} VALUES (?, ?)", (4, None))
    assert query(conn, f"SELECT id, v FROM {table} ORDER BY id") == [
        (1, ""),
        (2, None),
        (3, ""),
        (4, None),
    ]
    assert query(conn, f"SELECT id FROM {table} WHERE v IS NULL ORDER BY id") == [(2,), (4,)]
    assert query(conn, f"SELECT id FROM {table} WHERE v = '' ORDER BY id") == [(1,), (3,)]


def test_char_empty_string_and_null(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, c CHAR(5), n NCHAR(5))")
    run(conn, f"INSERT INTO {table} VALUES (1, '', '')")
    run(conn, f"INSERT INTO {table} VALUES (2, NULL, NULL)")
    assert query(conn, f"SELECT id, c, n FROM {table} ORDER BY id") == [
        (1, "", ""),
        (2, None, None),
    ]
    assert query(conn, f"SELECT id FROM {table} WHERE c IS NULL") == [(2,)]
    assert query(conn, f"SELECT id FROM {table} WHERE c = ''") == [(1,)]


def test_char_padding(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, c CHAR(8), v VARCHAR(8))")
    run(conn, f"INSERT INTO {table} VALUES (1, 'ab', 'ab')")
    # CHAR keeps its blanks through ||; VARCHAR stores what it was given.
    assert query(conn, f"SELECT c || '|', v || '|' FROM {table}") == [("ab      |", "ab|")]
    assert query(conn, f"SELECT LENGTH(c), OCTET_LENGTH(c), LENGTH(v) FROM {table}") == [(2, 8, 2)]
    # Trailing blanks do not matter in CHAR comparisons.
    assert count(conn, table, "WHERE c = 'ab'") == 1
    assert count(conn, table, "WHERE c = 'ab    '") == 1


def test_char_cast_is_blank_padded(conn: informix_db.Connection) -> None:
    """A CHAR(n) value is n characters long whatever produced it, a cast included."""
    rows = query(
        conn,
        "SELECT 'ab'::CHAR(8) || '|', OCTET_LENGTH('ab'::CHAR(8)), LENGTH('ab'::CHAR(8))"
        " FROM systables WHERE tabid = 1",
    )
    assert rows == [("ab      |", 8, 2)]


def test_lvarchar_lengths_and_nulls(conn: informix_db.Connection, table: str) -> None:
    """LVARCHAR travels in a UDT envelope without pad; NULL keeps its 4-byte length. A trailing
    INTEGER sentinel catches any framing slip."""
    run(conn, f"CREATE TABLE {table} (id INTEGER, a LVARCHAR, b LVARCHAR, sentinel INTEGER)")
    lengths = (0, 1, 2, 3, 11, 255, 256, 2047)
    for i, n in enumerate(lengths):
        run(conn, f"INSERT INTO {table} VALUES (?, ?, ?, ?)", (i, "a" * n, None, -7))
    run(conn, f"INSERT INTO {table} VALUES (100, NULL, NULL, -8)")
    expected = [(i, "a" * n, None, -7) for i, n in enumerate(lengths)] + [(100, None, None, -8)]
    assert query(conn, f"SELECT id, a, b, sentinel FROM {table} ORDER BY id") == expected


DECIMAL_SHAPES: tuple[tuple[str, Decimal], ...] = (
    ("DECIMAL(1,0)", Decimal("7")),
    ("DECIMAL(2,1)", Decimal("-7.5")),
    ("DECIMAL(5,2)", Decimal("123.45")),
    ("DECIMAL(6,3)", Decimal("-123.456")),
    ("DECIMAL(15,5)", Decimal("1234567890.12345")),
    ("DECIMAL(32,0)", Decimal("12345678901234567890123456789012")),
    ("DECIMAL(32,31)", Decimal("0.1234567890123456789012345678901")),
    ("DECIMAL(1)", Decimal("5")),
    ("DECIMAL(2)", Decimal("0.25")),
    ("DECIMAL(31)", Decimal("-98765.4321")),
    ("MONEY(5,0)", Decimal("12345")),
    ("MONEY(16,2)", Decimal("-12345678901234.56")),
)


def test_decimal_shapes_with_sentinel(conn: informix_db.Connection, table: str) -> None:
    """Each DECIMAL/MONEY shape has its own packed width; a wrong width shifts the sentinel."""
    cols = ", ".join(f"d{i} {t}" for i, (t, _v) in enumerate(DECIMAL_SHAPES))
    run(conn, f"CREATE TABLE {table} ({cols}, b1 BOOLEAN, b2 BOOLEAN, sentinel INTEGER)")
    values = [v for _t, v in DECIMAL_SHAPES]
    marks = ", ".join("?" for _ in range(len(values) + 3))
    run(conn, f"INSERT INTO {table} VALUES ({marks})", (*values, True, False, 424242))
    run(conn, f"INSERT INTO {table} (sentinel) VALUES (-1)")
    rows = query(conn, f"SELECT * FROM {table} ORDER BY sentinel DESC")
    assert rows == [(*values, True, False, 424242), (*([None] * len(values)), None, None, -1)]
    assert all(type(v) is Decimal for v in rows[0][: len(values)])


def test_overlong_string_is_truncated(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v VARCHAR(8), c CHAR(4))")
    run(conn, f"INSERT INTO {table} VALUES (?, ?, ?)", (1, "abcdefghijkl", "abcdef"))
    assert query(conn, f"SELECT v, c FROM {table}") == [("abcdefgh", "abcd")]


def test_boolean_param_in_where(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, b BOOLEAN)")
    for i, b in ((1, True), (2, False), (3, None)):
        run(conn, f"INSERT INTO {table} VALUES (?, ?)", (i, b))
    assert query(conn, f"SELECT id FROM {table} WHERE b = ? ORDER BY id", (True,)) == [(1,)]
    assert query(conn, f"SELECT id FROM {table} WHERE b = ? ORDER BY id", (False,)) == [(2,)]
    assert query(conn, f"SELECT id FROM {table} WHERE b IS NULL") == [(3,)]


def test_cast_param_in_projection(conn: informix_db.Connection) -> None:
    assert query(conn, "SELECT ?::INTEGER FROM systables WHERE tabid = 1", (5,)) == [(5,)]


def test_bare_param_in_projection_raises_201(conn: informix_db.Connection) -> None:
    expect_error(
        lambda: query(conn, "SELECT ? FROM systables WHERE tabid = 1", (5,)),
        -201,
        informix_db.ProgrammingError,
    )
    assert query(conn, "SELECT tabid FROM systables WHERE tabid = 1") == [(1,)]


def test_string_bound_to_integer_is_rejected(conn: informix_db.Connection) -> None:
    expect_error(
        lambda: query(conn, "SELECT tabid FROM systables WHERE tabid = ?", ("abc",)),
        (-1213, -415),
        informix_db.DatabaseError,
    )
    assert query(conn, "SELECT tabid FROM systables WHERE tabid = 1") == [(1,)]


def test_backslash_is_not_an_escape(conn: informix_db.Connection) -> None:
    assert query(conn, "SELECT 'a\\b' FROM systables WHERE tabid = 1") == [("a\\b",)]
    expect_error(
        lambda: query(conn, "SELECT 'a\\'b' FROM systables WHERE tabid = 1"),
        -282,
        informix_db.DatabaseError,
    )


def test_utf8_client_locale_round_trip(target: Target, dbname: str, table: str) -> None:
    """client_locale=en_US.utf8: informix_db encodes bound strings as UTF-8 and decodes rows
    as UTF-8; text must come back unchanged and compare equal server-side."""
    text = "Grüße ñandú çà"
    u = connect(target, dbname, client_locale="en_US.utf8")
    try:
        assert u.encoding == "utf-8"
        run(u, f"CREATE TABLE {table} (id INTEGER, v VARCHAR(60))")
        run(u, f"INSERT INTO {table} VALUES (?, ?)", (1, text))
        run(u, f"INSERT INTO {table} VALUES (?, ?)", (2, "plain ascii"))
        assert query(u, f"SELECT id, v FROM {table} ORDER BY id") == [(1, text), (2, "plain ascii")]
        assert query(u, f"SELECT id FROM {table} WHERE v = ?", (text,)) == [(1,)]
    finally:
        u.close()


# --------------------------------------------------------------------------------------------
# executemany
# --------------------------------------------------------------------------------------------


def test_executemany_1000_rows_in_transaction(
    target: Target, dbname: str, txconn: informix_db.Connection, table: str
) -> None:
    run(txconn, f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, s VARCHAR(20))")
    txconn.commit()
    rows = [(i, f"row {i}") for i in range(1000)]
    assert many(txconn, f"INSERT INTO {table} VALUES (?, ?)", rows) == 1000
    txconn.commit()
    other = connect(target, dbname)
    try:
        assert query(other, f"SELECT id, s FROM {table} ORDER BY id") == rows
    finally:
        other.close()


@pytest.mark.parametrize("position", [0, 500, 999], ids=["first", "middle", "last"])
def test_executemany_failure_applies_other_rows(
    txconn: informix_db.Connection, table: str, position: int
) -> None:
    run(txconn, f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, s VARCHAR(20))")
    run(txconn, f"INSERT INTO {table} VALUES (-1, 'existing')")
    txconn.commit()
    rows = [(i, f"row {i}") for i in range(1000)]
    rows[position] = (-1, "duplicate")
    exc = expect_error(
        lambda: many(txconn, f"INSERT INTO {table} VALUES (?, ?)", rows),
        (-268, -239),
        informix_db.IntegrityError,
    )
    assert f"executemany row {position}/1000" in str(exc)
    # The connection is usable and in the same transaction: every other row was applied.
    assert query(txconn, "SELECT tabid FROM systables WHERE tabid = 1") == [(1,)]
    txconn.commit()
    expected = [-1] + [i for i in range(1000) if i != position]
    assert [r[0] for r in query(txconn, f"SELECT id FROM {table} ORDER BY id")] == expected


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


def test_syntax_error_raises_201(conn: informix_db.Connection) -> None:
    expect_error(
        lambda: query(conn, "SELEC tabid FROM systables"), -201, informix_db.ProgrammingError
    )


def test_unknown_table_raises_206(conn: informix_db.Connection) -> None:
    expect_error(
        lambda: query(conn, "SELECT * FROM no_such_table"),
        -206,
        informix_db.ProgrammingError,
        near="no_such_table",
        isamcode=-111,
    )


def test_unknown_column_raises_217(conn: informix_db.Connection) -> None:
    expect_error(
        lambda: query(conn, "SELECT no_such_col FROM systables WHERE tabid = 1"),
        -217,
        informix_db.ProgrammingError,
        near="no_such_col",
    )


def test_duplicate_primary_key_raises_268(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, v INTEGER)")
    run(conn, f"INSERT INTO {table} VALUES (1, 1)")
    expect_error(
        lambda: run(conn, f"INSERT INTO {table} VALUES (1, 2)"),
        -268,
        informix_db.IntegrityError,
        isamcode=-100,
    )
    expect_error(
        lambda: run(conn, f"INSERT INTO {table} VALUES (?, ?)", (1, 3)),
        -268,
        informix_db.IntegrityError,
        isamcode=-100,
    )
    assert query(conn, f"SELECT id, v FROM {table}") == [(1, 1)]


def test_duplicate_unique_index_raises_239(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v INTEGER)")
    run(conn, f"CREATE UNIQUE INDEX {table}_ix ON {table} (id)")
    run(conn, f"INSERT INTO {table} VALUES (1, 1)")
    expect_error(
        lambda: run(conn, f"INSERT INTO {table} VALUES (1, 2)"),
        -239,
        informix_db.IntegrityError,
        isamcode=-100,
    )


def test_null_into_not_null_raises_391(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER, v VARCHAR(10) NOT NULL)")
    expect_error(
        lambda: run(conn, f"INSERT INTO {table} (id) VALUES (1)"), -391, informix_db.IntegrityError
    )
    expect_error(
        lambda: run(conn, f"INSERT INTO {table} VALUES (?, ?)", (2, None)),
        -391,
        informix_db.IntegrityError,
    )
    assert count(conn, table) == 0


def test_division_by_zero_raises_1202(conn: informix_db.Connection) -> None:
    expect_error(
        lambda: query(conn, "SELECT 1/0 FROM systables WHERE tabid = 1"),
        -1202,
        informix_db.DatabaseError,
    )


def test_connection_usable_after_errors(conn: informix_db.Connection) -> None:
    failing = (
        "SELEC 1",
        "SELECT * FROM no_such_table",
        "SELECT no_such_col FROM systables",
        "SELECT no_such_function(1) FROM systables",
        "SELECT 1/0 FROM systables WHERE tabid = 1",
        "CREATE TABLE systables (id INTEGER)",
    )
    for sql in failing:
        with pytest.raises(informix_db.DatabaseError):
            query(conn, sql)
        assert query(conn, "SELECT tabid FROM systables WHERE tabid = 1") == [(1,)], sql


def test_failed_statement_keeps_the_transaction(txconn: informix_db.Connection, table: str) -> None:
    run(txconn, f"CREATE TABLE {table} (id INTEGER PRIMARY KEY)")
    txconn.commit()
    run(txconn, f"INSERT INTO {table} VALUES (1)")
    with pytest.raises(informix_db.IntegrityError):
        run(txconn, f"INSERT INTO {table} VALUES (1)")
    run(txconn, f"INSERT INTO {table} VALUES (2)")
    txconn.commit()
    assert query(txconn, f"SELECT id FROM {table} ORDER BY id") == [(1,), (2,)]


# --------------------------------------------------------------------------------------------
# Transactions (logged database)
# --------------------------------------------------------------------------------------------


def test_rollback_hides_insert(txconn: informix_db.Connection, table: str) -> None:
    run(txconn, f"CREATE TABLE {table} (id INTEGER)")
    txconn.commit()
    run(txconn, f"INSERT INTO {table} VALUES (1)")
    run(txconn, f"INSERT INTO {table} VALUES (?)", (2,))
    assert count(txconn, table) == 2
    txconn.rollback()
    assert count(txconn, table) == 0


def test_commit_persists(
    target: Target, dbname: str, txconn: informix_db.Connection, table: str
) -> None:
    run(txconn, f"CREATE TABLE {table} (id INTEGER)")
    run(txconn, f"INSERT INTO {table} VALUES (1)")
    txconn.commit()
    other = connect(target, dbname)
    try:
        assert query(other, f"SELECT id FROM {table}") == [(1,)]
    finally:
        other.close()


def test_rollback_undoes_create_table(txconn: informix_db.Connection, table: str) -> None:
    run(txconn, f"CREATE TABLE {table} (id INTEGER)")
    txconn.rollback()
    expect_error(
        lambda: query(txconn, f"SELECT id FROM {table}"),
        -206,
        informix_db.ProgrammingError,
        near=table,
    )


def test_autocommit_persists_without_commit(
    target: Target, dbname: str, conn: informix_db.Connection, table: str
) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER)")
    run(conn, f"INSERT INTO {table} VALUES (1)")
    conn.close()
    other = connect(target, dbname, autocommit=False)
    try:
        assert query(other, f"SELECT id FROM {table}") == [(1,)]
    finally:
        other.close()


def test_sql_begin_work_twice_raises_535(conn: informix_db.Connection) -> None:
    run(conn, "BEGIN WORK")
    expect_error(lambda: run(conn, "BEGIN WORK"), -535, informix_db.DatabaseError)
    run(conn, "ROLLBACK WORK")


def test_sql_commit_without_transaction_raises_255(conn: informix_db.Connection) -> None:
    expect_error(lambda: run(conn, "COMMIT WORK"), -255, informix_db.OperationalError)
    expect_error(lambda: run(conn, "ROLLBACK WORK"), -255, informix_db.OperationalError)


def test_sql_begin_then_rollback_discards(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (id INTEGER)")
    run(conn, "BEGIN WORK")
    run(conn, f"INSERT INTO {table} VALUES (1)")
    run(conn, "ROLLBACK WORK")
    assert count(conn, table) == 0
    run(conn, "BEGIN WORK")
    run(conn, f"INSERT INTO {table} VALUES (2)")
    run(conn, "COMMIT WORK")
    assert query(conn, f"SELECT id FROM {table}") == [(2,)]


def test_driver_rollback_after_sql_begin_work(conn: informix_db.Connection, table: str) -> None:
    """The driver learns of BEGIN WORK from its DESCRIBE statement type (34); rollback() then
    really sends SQ_RBWORK."""
    run(conn, f"CREATE TABLE {table} (id INTEGER)")
    run(conn, "BEGIN WORK")
    run(conn, f"INSERT INTO {table} VALUES (1)")
    conn.rollback()
    assert count(conn, table) == 0


# --------------------------------------------------------------------------------------------
# Statement classification: the server's DESCRIBE statement type decides cursor vs execute
# --------------------------------------------------------------------------------------------

ONE = "SELECT tabid FROM systables WHERE tabid = 1"
TWO = "SELECT tabid FROM systables WHERE tabid = 2"
SELECT_FORMS: dict[str, tuple[str, list[tuple[int]]]] = {
    "dash_comment": (f"-- leading comment\n{ONE}", [(1,)]),
    "block_comment": (f"/* leading comment */ {ONE}", [(1,)]),
    "brace_comment": (f"{{ leading comment }} {ONE}", [(1,)]),
    "leading_whitespace_lower_case": (f"  \n\t{ONE.lower()}", [(1,)]),
    "parenthesised": (f"({ONE})", [(1,)]),
    "union": (f"{ONE} UNION {TWO}", [(1,), (2,)]),
    "parenthesised_union_all": (f"({ONE} UNION ALL {TWO})", [(1,), (2,)]),
    "cte": (
        "WITH x AS (SELECT tabid FROM systables WHERE tabid <= 2) SELECT tabid FROM x",
        [(1,), (2,)],
    ),
}


@pytest.mark.parametrize("form", list(SELECT_FORMS))
def test_select_forms_open_a_cursor(conn: informix_db.Connection, form: str) -> None:
    sql, expected = SELECT_FORMS[form]
    cur = conn.cursor()
    cur.execute(sql)
    assert cur.description is not None
    assert sorted(cur.fetchall()) == expected


# --------------------------------------------------------------------------------------------
# Fetching
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", FETCH_COUNTS)
def test_fetch_exact_row_count(conn: informix_db.Connection, fetch_table: str, n: int) -> None:
    rows = query(conn, f"SELECT id, s FROM {fetch_table} WHERE id < {n} ORDER BY id")
    assert len(rows) == n
    assert rows == [(i, fetch_text(i)) for i in range(n)]


def test_fetch_20k_rows(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table}_seed (id INTEGER)")
    many(conn, f"INSERT INTO {table}_seed VALUES (?)", [(i,) for i in range(200)])
    run(conn, f"CREATE TABLE {table} (id INTEGER, a INTEGER, b INTEGER, s VARCHAR(12))")
    inserted = run(
        conn,
        f"INSERT INTO {table} SELECT x.id * 200 + y.id, x.id, y.id, 'payload' "
        f"FROM {table}_seed x, {table}_seed y WHERE x.id < 100",
    )
    assert inserted == 20000
    rows = query(conn, f"SELECT id, a, b, s FROM {table} ORDER BY id")
    assert len(rows) == 20000
    assert rows == [(i, i // 200, i % 200, "payload") for i in range(20000)]


def test_scroll_cursor(conn: informix_db.Connection, fetch_table: str) -> None:
    cur = conn.cursor(scrollable=True)
    try:
        cur.execute(f"SELECT id FROM {fetch_table} WHERE id < 300 ORDER BY id")
        assert cur.fetchone() == (0,)
        assert cur.fetchone() == (1,)
        assert cur.fetch_absolute(150) == (150,)
        assert cur.fetch_prior() == (149,)
        assert cur.fetch_last() == (299,)
        assert cur.fetch_absolute(-2) == (298,)
        assert cur.fetch_absolute(300) is None
        assert cur.fetch_first() == (0,)
    finally:
        cur.close()
    assert query(conn, "SELECT tabid FROM systables WHERE tabid = 1") == [(1,)]


def test_scroll_cursor_for_update_raises_526(txconn: informix_db.Connection, table: str) -> None:
    """Inside a transaction a FOR UPDATE scroll cursor prepares fine and fails at OPEN (-526)."""
    run(txconn, f"CREATE TABLE {table} (id INTEGER)")
    run(txconn, f"INSERT INTO {table} VALUES (1)")
    txconn.commit()
    cur = txconn.cursor(scrollable=True)
    try:
        expect_error(
            lambda: cur.execute(f"SELECT id FROM {table} FOR UPDATE"),
            -526,
            informix_db.ProgrammingError,
        )
    finally:
        cur.close()
    assert query(txconn, f"SELECT id FROM {table}") == [(1,)]


def test_fetch_respects_the_4096_byte_budget(
    conn: informix_db.Connection, fetch_table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """informix_db asks for 4096 bytes per NFETCH; a server that sends more rows than fit is
    not behaving like Informix (whose client buffers are sized by that number)."""
    batches: list[int] = []
    original = informix_db.cursors.Cursor._read_fetch_response

    def counting(self: informix_db.cursors.Cursor) -> None:
        before = len(self._rows)
        original(self)
        batches.append(len(self._rows) - before)

    monkeypatch.setattr(informix_db.cursors.Cursor, "_read_fetch_response", counting)
    rows = query(conn, f"SELECT id, s FROM {fetch_table} ORDER BY id")
    assert len(rows) == FETCH_ROWS
    min_row_bytes = 4 + 1 + len(fetch_text(0))  # INTEGER + VARCHAR length byte + text
    assert sum(batches) == FETCH_ROWS and batches[-1] == 0, batches
    assert max(batches) <= 4096 // min_row_bytes, batches
    assert len(batches) - 1 >= -(-FETCH_ROWS // (4096 // min_row_bytes)), batches


def test_execute_function_returns_its_value(conn: informix_db.Connection) -> None:
    name = unique_name("f")
    run(conn, f"CREATE FUNCTION {name}(x INTEGER) RETURNING INTEGER; RETURN x + 1; END FUNCTION")
    cur = conn.cursor()
    cur.execute(f"EXECUTE FUNCTION {name}(41)")  # statement type 56 with a column: a cursor
    assert cur.description is not None
    assert cur.fetchall() == [(42,)]
    run(conn, f"DROP FUNCTION {name}")


def test_statement_local_variable_of_an_out_parameter(conn: informix_db.Connection,
                                                     table: str) -> None:
    """A function with an OUT parameter called in a WHERE clause gives its value to a
    statement-local variable the select list reads (Guide to SQL: Syntax, "Statement-Local
    Variable Expressions"), with a host variable among the arguments."""
    name = unique_name("slv")
    run(conn, f"CREATE TABLE {table} (n INTEGER)")
    run(conn, f"INSERT INTO {table} VALUES (4)")
    run(conn, f"""CREATE FUNCTION {name}(i INTEGER, OUT r INTEGER) RETURNING INTEGER;
        LET r = i * 3; RETURN 1; END FUNCTION""")
    assert query(conn, f"SELECT n, r FROM {table} WHERE {name}(n + ?, r # INTEGER) = 1",
                 (1,)) == [(4, 15)]
    expect_error(lambda: query(conn, f"SELECT {name}(n, r # INTEGER) FROM {table}"), -9780,
                 informix_db.DatabaseError)
    run(conn, f"DROP FUNCTION {name}")


def test_spl_with_resume_streams_as_a_result_set(conn: informix_db.Connection) -> None:
    """A routine that RETURNs … WITH RESUME is read through the ordinary cursor: many rows,
    several NFETCH round trips, described by its RETURNING clause."""
    name = unique_name("gen")
    run(conn, f"""CREATE FUNCTION {name}(n INTEGER) RETURNING INTEGER AS k, VARCHAR(20);
        DEFINE i INTEGER;
        FOR i = 1 TO n RETURN i, 'row ' || i WITH RESUME; END FOR;
    END FUNCTION""")
    cur = conn.cursor()
    cur.execute(f"EXECUTE FUNCTION {name}(?)", (1500,))
    assert cur.description is not None
    assert [(d[0], d[1]) for d in cur.description] == [("k", 2), ("(expression)", 13)]
    rows = cur.fetchall()
    assert len(rows) == 1500 and rows[0] == (1, "row 1") and rows[-1] == (1500, "row 1500")
    run(conn, f"DROP FUNCTION {name}")


def test_spl_procedure_dml_and_raise_exception(conn: informix_db.Connection, table: str) -> None:
    """EXECUTE PROCEDURE with parameters runs DML; RAISE EXCEPTION's sqlcode, ISAM code and
    text reach the client as the SQ_ERR fields."""
    name = unique_name("p")
    run(conn, f"CREATE TABLE {table} (id INTEGER, amount DECIMAL(10,2))")
    run(conn, f"""CREATE PROCEDURE {name}(i INTEGER, a DECIMAL(10,2))
        IF a < 0 THEN RAISE EXCEPTION -746, -100, 'negative amount ' || a; END IF;
        INSERT INTO {table} VALUES (i, a * 2);
    END PROCEDURE""")
    run(conn, f"EXECUTE PROCEDURE {name}(?, ?)", (1, Decimal("1.25")))
    assert query(conn, f"SELECT id, amount FROM {table}") == [(1, Decimal("2.50"))]
    err = expect_error(lambda: run(conn, f"EXECUTE PROCEDURE {name}(2, -1)"), -746,
                       informix_db.DatabaseError, isamcode=-100)
    assert "negative amount -1.00" in str(err)
    assert scalar(conn, f"SELECT COUNT(*) FROM {table}") == 1
    run(conn, f"DROP PROCEDURE {name}")


def test_spl_trigger_fires_for_executemany(conn: informix_db.Connection, table: str) -> None:
    log = table + "_log"
    run(conn, f"CREATE TABLE {table} (id INTEGER, v INTEGER)")
    run(conn, f"CREATE TABLE {log} (id INTEGER, v INTEGER)")
    run(conn, f"""CREATE TRIGGER {unique_name("trg")} INSERT ON {table}
        REFERENCING NEW AS n FOR EACH ROW (INSERT INTO {log} VALUES (n.id, n.v + 1))""")
    many(conn, f"INSERT INTO {table} VALUES (?, ?)", [(i, i) for i in range(200)])
    assert scalar(conn, f"SELECT COUNT(*) FROM {log}") == 200
    assert same_value(scalar(conn, f"SELECT SUM(v) FROM {log}"), Decimal(20100))


# --------------------------------------------------------------------------------------------
# Description of expressions
# --------------------------------------------------------------------------------------------


def test_constant_description(conn: informix_db.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
    assert cur.description is not None
    assert [d[:4] for d in cur.description] == [("(constant)", 2, 4, 4)]
    assert cur.fetchall() == [(1,)]


def test_identifiers_fold_to_lower_case(conn: informix_db.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT TabID AS MyTab, TABNAME FROM SysTables WHERE TABID = 1")
    assert cur.description is not None
    assert [d[0] for d in cur.description] == ["mytab", "tabname"]
    assert cur.fetchall() == [(1, "systables")]


def test_systables_column_types(conn: informix_db.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT tabid, tabname, nrows FROM systables WHERE tabid = 1")
    assert cur.description is not None
    # tabid INTEGER (not null: serial), tabname VARCHAR(128), nrows FLOAT
    assert [(d[0], d[1]) for d in cur.description] == [
        ("tabid", 6),
        ("tabname", 13),
        ("nrows", 3),
    ]


def test_count_is_decimal(conn: informix_db.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
    assert cur.description is not None
    assert [(d[0], d[1]) for d in cur.description] == [("(count(*))", 5)]
    rows = cur.fetchall()
    assert len(rows) == 1 and same_value(rows[0][0], Decimal(1)), rows


def test_sum_and_avg_are_decimal(conn: informix_db.Connection, table: str) -> None:
    run(conn, f"CREATE TABLE {table} (v INTEGER)")
    run(conn, f"INSERT INTO {table} VALUES (1)")
    run(conn, f"INSERT INTO {table} VALUES (2)")
    cur = conn.cursor()
    cur.execute(f"SELECT SUM(v), AVG(v) FROM {table}")
    assert cur.description is not None
    assert [d[1] for d in cur.description] == [5, 5]
    rows = cur.fetchall()
    assert len(rows) == 1
    total, avg = rows[0]
    assert same_value(total, Decimal(3)), total
    assert same_value(avg, Decimal("1.5")), avg
