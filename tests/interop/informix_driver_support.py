"""Helpers for test_informix_driver.py: informix-driver 2026.9.3 (informix_db) vs our server.

Everything here is about the peer driver (a client we did not write): where to connect, how to
connect, and the value table the type tests share.  Expected values are what real Informix
12.10/14.10/15 produce (see /work/shared/reference/peer-informix-driver.md, section 4), never
what our server happens to do.

``IFXWIRE_INTEROP_SERVER=host:port:servername`` (+ ``IFXWIRE_INTEROP_USER`` /
``IFXWIRE_INTEROP_PASSWORD``) points the suite at another server, e.g. a real Informix, to
validate the expectations themselves; otherwise an in-process ``ifxwire.server.Server`` on an
in-memory store is started.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import secrets
import struct
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import informix_db
import pytest
from informix_db import IntervalYM

REPO = Path(__file__).resolve().parents[2]

# A hung server must fail a test, not the whole run.
READ_TIMEOUT = 20.0
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    server_name: str
    user: str
    password: str
    external: bool


def _server_class() -> Any:
    try:
        from ifxwire.server import Server
    except ModuleNotFoundError as exc:
        if exc.name not in ("ifxwire", "ifxwire.server"):
            raise
        sys.path.insert(0, str(REPO / "src"))
        from ifxwire.server import Server
    return Server


@contextmanager
def start_target() -> Iterator[Target]:
    """Our server (in-process, in-memory), or IFXWIRE_INTEROP_SERVER when set."""
    external = os.environ.get("IFXWIRE_INTEROP_SERVER", "").strip()
    if external:
        host, port, name = external.split(":")
        yield Target(
            host,
            int(port),
            name,
            os.environ.get("IFXWIRE_INTEROP_USER", "informix"),
            os.environ.get("IFXWIRE_INTEROP_PASSWORD", "in4mix"),
            external=True,
        )
        return
    with _server_class()(port=0, data=":memory:") as srv:
        yield Target(srv.host, srv.port, "informix", "informix", "in4mix", external=False)


def connect(
    target: Target,
    database: str | None = None,
    *,
    autocommit: bool = True,
    password: str | None = None,
    user: str | None = None,
    **kwargs: Any,
) -> informix_db.Connection:
    return informix_db.connect(
        host=target.host,
        port=target.port,
        user=target.user if user is None else user,
        password=target.password if password is None else password,
        database=database,
        server=target.server_name,
        autocommit=autocommit,
        connect_timeout=CONNECT_TIMEOUT,
        read_timeout=READ_TIMEOUT,
        **kwargs,
    )


def unique_name(prefix: str) -> str:
    """A fresh lower-case identifier (a real server keeps what earlier runs created)."""
    return f"{prefix}_{secrets.token_hex(4)}"


def create_logged_database(
    target: Target, prefix: str, setup: Callable[[informix_db.Connection], object] | None = None
) -> str:
    """A fresh logged database, made from a connection that has none (as a real server needs:
    CREATE DATABASE makes it current only for that session), then ``setup`` run in it with
    autocommit. The modules' fixtures share this rather than each spelling it out."""
    name = unique_name(prefix)
    c = connect(target, None, autocommit=True)
    try:
        run(c, f"CREATE DATABASE {name} WITH LOG")
    finally:
        c.close()
    if setup is not None:
        c = connect(target, name, autocommit=True)
        try:
            setup(c)
        finally:
            c.close()
    return name


def table_name(request: pytest.FixtureRequest, prefix: str = "t") -> str:
    """A per-test table name derived from the test id, short enough for any identifier limit."""
    base = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower()).strip("_")
    return f"{prefix}_{base[:60]}_{secrets.token_hex(3)}"


def query(conn: informix_db.Connection, sql: str, params: Sequence[Any] | None = None) -> list[Any]:
    cur = conn.cursor()
    try:
        cur.execute(sql, params)
        return list(cur.fetchall())
    finally:
        cur.close()


def run(conn: informix_db.Connection, sql: str, params: Sequence[Any] | None = None) -> int:
    """Execute a statement that returns no rows; return the rowcount."""
    cur = conn.cursor()
    try:
        cur.execute(sql, params)
        return cur.rowcount
    finally:
        cur.close()


def many(conn: informix_db.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> int:
    """executemany; return the rowcount."""
    cur = conn.cursor()
    try:
        cur.executemany(sql, rows)
        return cur.rowcount
    finally:
        cur.close()


def scalar(conn: informix_db.Connection, sql: str, params: Sequence[Any] | None = None) -> Any:
    rows = query(conn, sql, params)
    assert len(rows) == 1 and len(rows[0]) == 1, f"{sql!r} returned {rows!r}"
    return rows[0][0]


def expect_error(
    fn: Callable[[], object],
    sqlcode: int | tuple[int, ...],
    exc_class: type[BaseException],
    *,
    near: str | None = None,
    isamcode: int | None = None,
) -> BaseException:
    """Run fn; it must raise exactly exc_class carrying sqlcode (one of them), near, isamcode."""
    codes = (sqlcode,) if isinstance(sqlcode, int) else sqlcode
    try:
        fn()
    except informix_db.Error as exc:
        got = getattr(exc, "sqlcode", None)
        assert got in codes, f"expected sqlcode {codes}, got {got}: {type(exc).__name__}: {exc}"
        assert type(exc) is exc_class, (
            f"expected {exc_class.__name__}, got {type(exc).__name__}: {exc}"
        )
        if near is not None:
            assert getattr(exc, "near", None) == near, f"near token: {exc}"
        if isamcode is not None:
            assert getattr(exc, "isamcode", None) == isamcode, f"isamcode: {exc}"
        return exc
    raise AssertionError(f"no error raised, expected sqlcode {codes}")


def f32(value: float) -> float:
    """What a SMALLFLOAT (IEEE single) holds for value."""
    return float(struct.unpack("!f", struct.pack("!f", value))[0])


# --------------------------------------------------------------------------------------------
# Type table
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypeCase:
    """One value of one column type.

    param:    what the test binds (a Python value informix_db can encode).
    expected: what informix_db must decode when the server returns the stored value.
    literal:  the same value as SQL text, or None when no exact literal exists; used both to
              insert via plain SQL and as a server-side oracle (``WHERE v = <literal>``).
    """

    name: str
    sql_type: str
    param: Any
    expected: Any
    literal: str | None


_DT = dt.datetime(2026, 8, 31, 12, 30, 15)
_TD = dt.timedelta(days=3, hours=4, minutes=5, seconds=6)
_LV = "lv" * 100  # 200 characters

TYPE_CASES: tuple[TypeCase, ...] = (
    TypeCase("smallint", "SMALLINT", 32767, 32767, "32767"),
    TypeCase("smallint_neg", "SMALLINT", -32767, -32767, "-32767"),
    TypeCase("integer", "INTEGER", 2147483647, 2147483647, "2147483647"),
    TypeCase("integer_neg", "INTEGER", -2147483647, -2147483647, "-2147483647"),
    TypeCase("int8", "INT8", 123456789012, 123456789012, "123456789012"),
    TypeCase("int8_neg", "INT8", -123456789012, -123456789012, "-123456789012"),
    TypeCase("int8_small", "INT8", 10, 10, "10"),
    TypeCase("int8_max", "INT8", 2**63 - 1, 2**63 - 1, str(2**63 - 1)),
    TypeCase("bigint", "BIGINT", 2**63 - 1, 2**63 - 1, str(2**63 - 1)),
    TypeCase("bigint_neg", "BIGINT", -(2**63 - 1), -(2**63 - 1), str(-(2**63 - 1))),
    TypeCase("bigint_small", "BIGINT", 42, 42, "42"),
    TypeCase("smallfloat", "SMALLFLOAT", 1.5, 1.5, "1.5"),
    TypeCase("smallfloat_inexact", "SMALLFLOAT", 0.1, f32(0.1), None),
    TypeCase("float", "FLOAT", 0.25, 0.25, "0.25"),
    TypeCase("float_pi", "FLOAT", 3.141592653589793, 3.141592653589793, None),
    TypeCase("float_neg", "FLOAT", -2.5e-10, -2.5e-10, None),
    TypeCase(
        "decimal", "DECIMAL(10,2)", Decimal("12345678.91"), Decimal("12345678.91"), "12345678.91"
    ),
    TypeCase("decimal_neg", "DECIMAL(10,2)", Decimal("-1234.56"), Decimal("-1234.56"), "-1234.56"),
    TypeCase("decimal_zero", "DECIMAL(10,2)", Decimal("0"), Decimal("0"), "0"),
    TypeCase("decimal_fraction", "DECIMAL(10,2)", Decimal("0.05"), Decimal("0.05"), "0.05"),
    TypeCase(
        "decimal_float", "DECIMAL(16)", Decimal("1234.5678"), Decimal("1234.5678"), "1234.5678"
    ),
    TypeCase("decimal_float_small", "DECIMAL(16)", Decimal("0.001"), Decimal("0.001"), "0.001"),
    TypeCase(
        "decimal_large",
        "DECIMAL(32,10)",
        Decimal("1234567890123456789012.1234567891"),
        Decimal("1234567890123456789012.1234567891"),
        "1234567890123456789012.1234567891",
    ),
    TypeCase("money", "MONEY(8,2)", Decimal("-99.99"), Decimal("-99.99"), "-99.99"),
    TypeCase("money_pos", "MONEY(8,2)", Decimal("123456.78"), Decimal("123456.78"), "123456.78"),
    TypeCase("char", "CHAR(10)", "abc", "abc", "'abc'"),
    TypeCase("char_full", "CHAR(5)", "abcde", "abcde", "'abcde'"),
    TypeCase("nchar", "NCHAR(10)", "xyz", "xyz", "'xyz'"),
    TypeCase("varchar", "VARCHAR(50)", "hello world", "hello world", "'hello world'"),
    TypeCase("varchar_trailing_blanks", "VARCHAR(50)", "ab  ", "ab  ", "'ab  '"),
    TypeCase("varchar_quote", "VARCHAR(50)", "it's", "it's", "'it''s'"),
    TypeCase("varchar_odd_length", "VARCHAR(50)", "abcde", "abcde", "'abcde'"),
    TypeCase("varchar_latin1", "VARCHAR(50)", "café ñandú", "café ñandú", "'café ñandú'"),
    TypeCase("varchar_255", "VARCHAR(255)", "v" * 255, "v" * 255, "'" + "v" * 255 + "'"),
    TypeCase("nvarchar", "NVARCHAR(50)", "nv text", "nv text", "'nv text'"),
    TypeCase("lvarchar", "LVARCHAR", _LV, _LV, f"'{_LV}'"),
    TypeCase("lvarchar_long", "LVARCHAR(3000)", "x" * 2001, "x" * 2001, None),
    TypeCase("date", "DATE", dt.date(2026, 8, 31), dt.date(2026, 8, 31), "'2026-08-31'"),
    TypeCase("date_epoch", "DATE", dt.date(1899, 12, 31), dt.date(1899, 12, 31), "MDY(12,31,1899)"),
    TypeCase("date_old", "DATE", dt.date(1, 1, 1), dt.date(1, 1, 1), "MDY(1,1,1)"),
    TypeCase(
        "datetime_second",
        "DATETIME YEAR TO SECOND",
        _DT,
        _DT,
        "DATETIME(2026-08-31 12:30:15) YEAR TO SECOND",
    ),
    TypeCase(
        "datetime_fraction",
        "DATETIME YEAR TO FRACTION(5)",
        _DT.replace(microsecond=123450),
        _DT.replace(microsecond=123450),
        "DATETIME(2026-08-31 12:30:15.12345) YEAR TO FRACTION(5)",
    ),
    # FRACTION(5) resolves to 10 us: 999999 us is stored as .99999 (peer report, section 4).
    TypeCase(
        "datetime_fraction_truncated",
        "DATETIME YEAR TO FRACTION(5)",
        _DT.replace(microsecond=999999),
        _DT.replace(microsecond=999990),
        "DATETIME(2026-08-31 12:30:15.99999) YEAR TO FRACTION(5)",
    ),
    # A fraction bound into a YEAR TO SECOND column is truncated by the server.
    TypeCase(
        "datetime_fraction_into_second",
        "DATETIME YEAR TO SECOND",
        _DT.replace(microsecond=500000),
        _DT,
        "DATETIME(2026-08-31 12:30:15) YEAR TO SECOND",
    ),
    TypeCase(
        "datetime_hour_to_second",
        "DATETIME HOUR TO SECOND",
        "12:30:15",
        dt.time(12, 30, 15),
        "DATETIME(12:30:15) HOUR TO SECOND",
    ),
    TypeCase(
        "interval_day_to_second",
        "INTERVAL DAY TO SECOND",
        _TD,
        _TD,
        "INTERVAL(3 04:05:06) DAY TO SECOND",
    ),
    TypeCase(
        "interval_day_to_second_neg",
        "INTERVAL DAY TO SECOND",
        -_TD,
        -_TD,
        "INTERVAL(-3 04:05:06) DAY TO SECOND",
    ),
    TypeCase(
        "interval_year_to_month",
        "INTERVAL YEAR TO MONTH",
        IntervalYM(63),
        IntervalYM(63),
        "INTERVAL(5-03) YEAR TO MONTH",
    ),
    TypeCase(
        "interval_year_to_month_neg",
        "INTERVAL YEAR TO MONTH",
        IntervalYM(-14),
        IntervalYM(-14),
        "INTERVAL(-1-02) YEAR TO MONTH",
    ),
    TypeCase("boolean_true", "BOOLEAN", True, True, "'t'"),
    TypeCase("boolean_false", "BOOLEAN", False, False, "'f'"),
    # str parameters are sent as CHAR and converted by the server to the column type.
    TypeCase("str_to_integer", "INTEGER", "42", 42, "42"),
    TypeCase("str_to_decimal", "DECIMAL(10,2)", "12.5", Decimal("12.5"), "12.5"),
    TypeCase("str_to_date", "DATE", "2026-08-31", dt.date(2026, 8, 31), "MDY(8,31,2026)"),
    TypeCase(
        "str_to_datetime",
        "DATETIME YEAR TO SECOND",
        "2026-08-31 12:30:15",
        _DT,
        "DATETIME(2026-08-31 12:30:15) YEAR TO SECOND",
    ),
    TypeCase("int_to_decimal", "DECIMAL(10,2)", 7, Decimal("7"), "7"),
    TypeCase("int_to_float", "FLOAT", 7, 7.0, "7"),
)

LITERAL_CASES: tuple[TypeCase, ...] = tuple(c for c in TYPE_CASES if c.literal is not None)


def same_value(got: Any, expected: Any) -> bool:
    """Exact comparison: equal value and the same Python type (1 == 1.0 == True is not enough)."""
    return type(got) is type(expected) and got == expected


@dataclass(frozen=True)
class ColumnSpec:
    """A column of the every-type table and how real Informix describes it.

    type_code is informix_db's base type code; length the described encoded length
    (None: not asserted).
    """

    name: str
    sql_type: str
    type_code: int
    length: int | None


# Every supported type except the serials (one table may hold SERIAL plus SERIAL8, and
# BIGSERIAL needs a table of its own); see SERIAL_COLUMNS.
ALL_TYPE_COLUMNS: tuple[ColumnSpec, ...] = (
    ColumnSpec("c_smallint", "SMALLINT", 1, 2),
    ColumnSpec("c_integer", "INTEGER", 2, 4),
    ColumnSpec("c_int8", "INT8", 17, 10),
    ColumnSpec("c_bigint", "BIGINT", 52, 8),
    ColumnSpec("c_smallfloat", "SMALLFLOAT", 4, 4),
    ColumnSpec("c_float", "FLOAT", 3, 8),
    ColumnSpec("c_decimal", "DECIMAL(10,2)", 5, (10 << 8) | 2),
    ColumnSpec("c_decimal_p", "DECIMAL(16)", 5, (16 << 8) | 255),
    ColumnSpec("c_money", "MONEY(8,2)", 8, (8 << 8) | 2),
    ColumnSpec("c_char", "CHAR(10)", 0, 10),
    ColumnSpec("c_nchar", "NCHAR(10)", 15, 10),
    ColumnSpec("c_varchar", "VARCHAR(50)", 13, 50),
    ColumnSpec("c_nvarchar", "NVARCHAR(50)", 16, 50),
    ColumnSpec("c_lvarchar", "LVARCHAR", 40, None),  # described as UDTVAR 'lvarchar'
    ColumnSpec("c_date", "DATE", 7, 4),
    ColumnSpec("c_dt_second", "DATETIME YEAR TO SECOND", 10, (14 << 8) | (0 << 4) | 10),
    ColumnSpec("c_dt_fraction", "DATETIME YEAR TO FRACTION(5)", 10, (19 << 8) | (0 << 4) | 15),
    ColumnSpec("c_dt_time", "DATETIME HOUR TO SECOND", 10, (6 << 8) | (6 << 4) | 10),
    ColumnSpec("c_iv_ds", "INTERVAL DAY TO SECOND", 14, (8 << 8) | (4 << 4) | 10),
    ColumnSpec("c_iv_ym", "INTERVAL YEAR TO MONTH", 14, (6 << 8) | (0 << 4) | 2),
    ColumnSpec("c_boolean", "BOOLEAN", 41, 1),  # described as UDTFIXED 'boolean'
)

SERIAL_COLUMNS: tuple[tuple[ColumnSpec, ...], ...] = (
    (ColumnSpec("c_serial", "SERIAL", 6, 4), ColumnSpec("c_serial8", "SERIAL8", 18, 10)),
    (ColumnSpec("c_bigserial", "BIGSERIAL", 53, 8),),
)


def create_table_sql(table: str, columns: Sequence[ColumnSpec], *, id_column: bool = True) -> str:
    cols = [f"{c.name} {c.sql_type}" for c in columns]
    if id_column:
        cols.insert(0, "id INTEGER")
    return f"CREATE TABLE {table} ({', '.join(cols)})"
