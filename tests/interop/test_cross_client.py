"""Cross-client type checks: a value one driver writes, another driver reads, both ways.

* ifxwire writes (its own binds), informix-driver (``informix_db``) reads, and the reverse.
* ifxwire writes, IBM JDBC reads (``xclient_read_types`` in IfxCheck.java) and the reverse
  (``xclient_write_types``), when the JDBC checks exist (see test_jdbc.py's CHECKS).

Every type of docs/TYPES.md has at least one case, at its boundary where the other driver can
carry it. Each case gets its own table ``x_<name>`` with rows (1, value) and (2, NULL), so a
failure names exactly one type. Expected values are the clients' documented Python types;
where the two drivers differ (INTERVAL YEAR TO MONTH classes, DATETIME MONTH TO DAY) a case
lists both forms.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import informix_db
import pytest
from informix_driver_support import Target, connect, query, run, same_value, start_target

import ifxwire
from conftest import JDBC_VERSIONS, LOCALE_MODES, IfxCheckRunner
from conftest import Target as JdbcTarget
from ifxwire.types.values import DateTimeFields, IntervalYM

pytestmark = pytest.mark.interop

_NO_BIND = object()  # the peer cannot bind this Python type


@dataclass(frozen=True)
class XCase:
    """One value of one column type, as each driver binds and reads it.

    ours:      what ifxwire must read back (and binds, unless ``ours_bind`` is given).
    ours_bind: what ifxwire binds when that differs (``ifxwire.Text`` for TEXT).
    peer:      what informix_db must read (defaults to ``ours``).
    peer_bind: what informix_db binds (defaults to ``peer``); a string when informix_db has no
               parameter type for the value (it converts on the server, as Informix does).
    """

    name: str
    sql_type: str
    ours: Any
    peer: Any = None
    peer_bind: Any = None
    ours_bind: Any = None

    @property
    def ours_param(self) -> Any:
        return self.ours if self.ours_bind is None else self.ours_bind

    @property
    def peer_value(self) -> Any:
        return self.ours if self.peer is None else self.peer

    @property
    def peer_param(self) -> Any:
        return self.peer_value if self.peer_bind is None else self.peer_bind


_D32 = Decimal("9" * 32)
_BYTES = bytes(range(256)) * 400 + b"\x7f"
_TEXT = "TEXT caf\u00e9 " + "0123456789" * 7000
_TD_MAX = dt.timedelta(days=999_999_999, hours=23, minutes=59, seconds=59, microseconds=999990)

CASES: tuple[XCase, ...] = (
    XCase("smallint_max", "SMALLINT", 32767),
    XCase("smallint_min", "SMALLINT", -32767),
    XCase("integer_max", "INTEGER", 2147483647),
    XCase("integer_min", "INTEGER", -2147483647),
    XCase("int8_max", "INT8", 2**63 - 1),
    XCase("int8_min", "INT8", -(2**63 - 1)),
    XCase("bigint_max", "BIGINT", 2**63 - 1),
    XCase("bigint_min", "BIGINT", -(2**63 - 1)),
    XCase("serial", "SERIAL", 2147483647),
    XCase("serial8", "SERIAL8", 2**63 - 1),
    XCase("bigserial", "BIGSERIAL", 2**63 - 1),
    XCase("smallfloat", "SMALLFLOAT", 3.4028234663852886e38),
    XCase("smallfloat_tiny", "SMALLFLOAT", 1.401298464324817e-45),
    XCase("float_max", "FLOAT", 1.7976931348623157e308),
    XCase("float_pi", "FLOAT", 3.141592653589793),
    XCase("decimal_32_0", "DECIMAL(32,0)", _D32),
    XCase("decimal_32_0_neg", "DECIMAL(32,0)", Decimal("-" + "9" * 32)),
    XCase("decimal_32_16", "DECIMAL(32,16)", Decimal("1234567890123456.1234567890123456")),
    XCase("decimal_16_float", "DECIMAL(16)", Decimal("1234.5678")),
    XCase("decimal_32_float", "DECIMAL(32)", Decimal("12345678901234567890123456789012")),
    XCase("money", "MONEY(16,2)", Decimal("-12345678901234.56")),
    XCase("char", "CHAR(10)", "abc"),
    XCase("char_full", "CHAR(5)", "abcde"),
    XCase("nchar", "NCHAR(10)", "xyz"),
    XCase("varchar_blanks", "VARCHAR(50)", "ab  "),
    XCase("varchar_empty", "VARCHAR(50)", ""),
    XCase("varchar_255", "VARCHAR(255)", "v" * 255),
    XCase("nvarchar_latin1", "NVARCHAR(50)", "café ñandú"),
    XCase("lvarchar", "LVARCHAR(3000)", "x" * 2001),
    XCase("date_min", "DATE", dt.date(1, 1, 1)),
    XCase("date_max", "DATE", dt.date(9999, 12, 31)),
    XCase(
        "datetime_fraction5",
        "DATETIME YEAR TO FRACTION(5)",
        dt.datetime(9999, 12, 31, 23, 59, 59, 999990),
    ),
    XCase("datetime_year_to_second", "DATETIME YEAR TO SECOND", dt.datetime(1, 1, 1, 0, 0, 0)),
    XCase("datetime_year_to_day", "DATETIME YEAR TO DAY", dt.date(2024, 2, 29)),
    XCase(
        "datetime_hour_to_second",
        "DATETIME HOUR TO SECOND",
        dt.time(23, 59, 59),
        peer_bind="23:59:59",  # informix_db binds no datetime.time
    ),
    XCase(
        "datetime_month_to_day",
        "DATETIME MONTH TO DAY",
        DateTimeFields(2, 4, month=12, day=31),
        peer=dt.date(1, 12, 31),  # informix_db fills the missing year with 1
        peer_bind="12-31",
    ),
    XCase("interval_day9_fraction5", "INTERVAL DAY(9) TO FRACTION(5)", _TD_MAX),
    XCase(
        "interval_day9_fraction5_neg",
        "INTERVAL DAY(9) TO FRACTION(5)",
        dt.timedelta(days=-999_999_999),
    ),
    XCase(
        "interval_hour_to_second",
        "INTERVAL HOUR TO SECOND",
        dt.timedelta(hours=99, minutes=59, seconds=59),
    ),
    XCase(
        "interval_year9_to_month",
        "INTERVAL YEAR(9) TO MONTH",
        IntervalYM.of(999_999_999, 11),
        peer=informix_db.IntervalYM(999_999_999 * 12 + 11),
    ),
    XCase(
        "interval_year9_to_month_neg",
        "INTERVAL YEAR(9) TO MONTH",
        IntervalYM.of(-999_999_999, -11),
        peer=informix_db.IntervalYM(-(999_999_999 * 12 + 11)),
    ),
    XCase("boolean_true", "BOOLEAN", True),
    XCase("boolean_false", "BOOLEAN", False),
    # BYTE/TEXT: many SQ_BLOB chunks both ways, an odd length (padding), empty versus NULL.
    XCase("byte", "BYTE", _BYTES),
    XCase("byte_empty", "BYTE", b""),
    XCase(
        "text",
        "TEXT",
        _TEXT,
        ours_bind=ifxwire.Text(_TEXT),
        peer_bind=_TEXT.encode("iso-8859-1"),  # informix_db binds bytes (BYTE) only
    ),
    XCase("text_from_str", "TEXT", "bound as CHAR", peer_bind=b"bound as CHAR"),
)

IDS = [c.name for c in CASES]


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    with start_target() as t:
        yield t


@pytest.fixture(scope="module")
def xdb(target: Target) -> str:
    """One logged database for the module, created by ifxwire."""
    name = "xclient_types"
    with ifxwire.connect(
        host=target.host,
        port=target.port,
        user=target.user,
        password=target.password,
        server=target.server_name,
        autocommit=True,
    ) as c:
        c.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
    return name


@pytest.fixture(scope="module")
def ours(target: Target, xdb: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(
        host=target.host,
        port=target.port,
        user=target.user,
        password=target.password,
        server=target.server_name,
        database=xdb,
        autocommit=True,
    )
    try:
        yield c
    finally:
        c.close()


@pytest.fixture()
def peer(target: Target, xdb: str) -> Iterator[informix_db.Connection]:
    c = connect(target, xdb)
    try:
        yield c
    finally:
        c.close()


def _fresh_table(ours: ifxwire.Connection, table: str, sql_type: str) -> None:
    cur = ours.cursor()
    with contextlib.suppress(ifxwire.DatabaseError):
        cur.execute(f"DROP TABLE {table}")
    cur.execute(f"CREATE TABLE {table} (id INTEGER NOT NULL, v {sql_type})")


def _has_null(case: XCase) -> bool:
    return "SERIAL" not in case.sql_type


def _check_rows(rows: list[Any], want: Any, case: XCase) -> None:
    expected = [(1, want)] + ([(2, None)] if _has_null(case) else [])
    assert len(rows) == len(expected), rows
    for got, exp in zip(rows, expected, strict=True):
        assert got[0] == exp[0]
        if exp[1] is None:
            assert got[1] is None, (case.name, got)
        else:
            assert same_value(got[1], exp[1]), (case.name, got[1], exp[1])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_ifxwire_writes_informix_driver_reads(
    case: XCase, ours: ifxwire.Connection, peer: informix_db.Connection
) -> None:
    table = f"xo_{case.name}"
    _fresh_table(ours, table, case.sql_type)
    rows: list[tuple[int, Any]] = [(1, case.ours)]
    if _has_null(case):
        rows.append((2, None))
    rows[0] = (1, case.ours_param)
    ours.cursor().executemany(f"INSERT INTO {table} (id, v) VALUES (?, ?)", rows)
    _check_rows(query(peer, f"SELECT id, v FROM {table} ORDER BY id"), case.peer_value, case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_informix_driver_writes_ifxwire_reads(
    case: XCase, ours: ifxwire.Connection, peer: informix_db.Connection
) -> None:
    table = f"xp_{case.name}"
    _fresh_table(ours, table, case.sql_type)
    run(peer, f"INSERT INTO {table} (id, v) VALUES (?, ?)", (1, case.peer_param))
    if _has_null(case):
        run(peer, f"INSERT INTO {table} (id, v) VALUES (?, ?)", (2, None))
    cur = ours.cursor()
    cur.execute(f"SELECT id, v FROM {table} ORDER BY id")
    _check_rows(cur.fetchall(), case.ours, case)


# --------------------------------------------------------------------------------------------
# IBM JDBC: xclient_read_types / xclient_write_types (IfxCheck.XCOLS holds the same values)
# --------------------------------------------------------------------------------------------

XCLIENT_CHECKS = ("xclient_read_types", "xclient_write_types")

# (column suffix, type, value): row 1 of xc_read / xc_write; row 2 is NULL (serials: 1).
XCOLS: tuple[tuple[str, str, Any], ...] = (
    ("smallint", "SMALLINT", 32767),
    ("smallint_min", "SMALLINT", -32767),
    ("integer", "INTEGER", -2147483647),
    ("int8", "INT8", -(2**63 - 1)),
    ("bigint", "BIGINT", 2**63 - 1),
    ("serial", "SERIAL", 2147483647),
    ("bigserial", "BIGSERIAL", 2**63 - 1),
    ("smallfloat", "SMALLFLOAT", 3.4028234663852886e38),
    ("float", "FLOAT", -1.7976931348623157e308),
    ("dec32_16", "DECIMAL(32,16)", Decimal("1234567890123456.1234567890123456")),
    ("dec32_0", "DECIMAL(32,0)", Decimal("-" + "9" * 32)),
    ("decfloat", "DECIMAL(16)", Decimal("1234.5678")),
    ("money", "MONEY(16,2)", Decimal("-12345678901234.56")),
    ("char", "CHAR(10)", "abc"),
    ("nchar", "NCHAR(10)", "nchar"),
    ("varchar", "VARCHAR(255)", "ab  "),
    ("varchar_empty", "VARCHAR(10)", ""),
    ("nvarchar", "NVARCHAR(50)", "café ñandú"),
    ("lvarchar", "LVARCHAR(3000)", "x" * 2001),
    ("date", "DATE", dt.date(9999, 12, 31)),
    ("dt_f5", "DATETIME YEAR TO FRACTION(5)", dt.datetime(9999, 12, 31, 23, 59, 59, 999990)),
    ("dt_hs", "DATETIME HOUR TO SECOND", dt.time(23, 59, 59)),
    ("dt_yd", "DATETIME YEAR TO DAY", dt.date(2024, 2, 29)),
    ("dt_md", "DATETIME MONTH TO DAY", DateTimeFields(2, 4, month=12, day=31)),
    ("iv_df", "INTERVAL DAY(9) TO FRACTION(5)", _TD_MAX),
    # IBM's IntervalYM holds months in an int: -2147483647 months is its boundary.
    ("iv_ym", "INTERVAL YEAR(9) TO MONTH", IntervalYM(-2147483647)),
    ("iv_hs", "INTERVAL HOUR TO SECOND", dt.timedelta(hours=99, minutes=59, seconds=59)),
    ("boolean", "BOOLEAN", True),
    ("byte", "BYTE", bytes(255 - i % 256 for i in range(3 * 1024 + 77))),  # IfxCheck.XC_BYTES
    ("text", "TEXT", "TEXT " + "0123456789" * 500),  # IfxCheck.XC_TEXT
)

JDBC_VARIANTS = [(v, m) for v in JDBC_VERSIONS for m in LOCALE_MODES]
JDBC_IDS = [f"{v}-{m}" for v, m in JDBC_VARIANTS]


def _row(n: int, bind: bool = False) -> tuple[Any, ...]:
    """Row n of xc_read/xc_write; ``bind``: as ifxwire binds it (TEXT values as Text)."""
    if n == 1:
        return (1, *(ifxwire.Text(v) if bind and t == "TEXT" else v for _, t, v in XCOLS))
    return (2, *(1 if "SERIAL" in t else None for _, t, _ in XCOLS))


def _jdbc_connect(t: JdbcTarget, database: str | None = None) -> ifxwire.Connection:
    return ifxwire.connect(
        host=t.host,
        port=t.port,
        user=t.user,
        password=t.password,
        server=t.server_name,
        database=database,
        autocommit=True,
    )


_jdbc_runs: dict[tuple[str, str], Any] = {}


@pytest.fixture()
def xclient_run(
    request: pytest.FixtureRequest, ifxcheck: IfxCheckRunner, interop_target: JdbcTarget
) -> Any:
    """Prepare xc_read/xc_write with ifxwire, run both JDBC checks once per variant."""
    version, mode = request.param
    key = (version, mode)
    if key not in _jdbc_runs:
        db = "xcj_" + "".join(ch if ch.isalnum() else "_" for ch in f"{version}_{mode}")
        cols = ", ".join(f"c_{n} {t}" for n, t, _ in XCOLS)
        with _jdbc_connect(interop_target) as c:
            c.cursor().execute(f"CREATE DATABASE {db} WITH LOG")
        with _jdbc_connect(interop_target, db) as c:
            cur = c.cursor()
            for table in ("xc_read", "xc_write"):
                cur.execute(f"CREATE TABLE {table} (id INTEGER NOT NULL, {cols})")
            marks = ", ".join("?" * (len(XCOLS) + 1))
            cur.executemany(f"INSERT INTO xc_read VALUES ({marks})", [_row(1, bind=True), _row(2)])
        run_ = ifxcheck(
            version,
            mode,
            list(XCLIENT_CHECKS),
            database=db,
            create=False,
            label=f"xclient-{version}-{mode}",
        )
        _jdbc_runs[key] = (run_, db)
    return _jdbc_runs[key]


@pytest.mark.parametrize("xclient_run", JDBC_VARIANTS, ids=JDBC_IDS, indirect=True)
def test_ifxwire_writes_jdbc_reads(xclient_run: Any) -> None:
    run_, _ = xclient_run
    result = run_.results.get("xclient_read_types")
    assert result is not None, run_.diagnostics()
    assert result.passed, result.reason


@pytest.mark.parametrize("xclient_run", JDBC_VARIANTS, ids=JDBC_IDS, indirect=True)
def test_jdbc_writes_ifxwire_reads(xclient_run: Any, interop_target: JdbcTarget) -> None:
    run_, db = xclient_run
    result = run_.results.get("xclient_write_types")
    assert result is not None, run_.diagnostics()
    assert result.passed, result.reason
    with _jdbc_connect(interop_target, db) as c:
        rows = c.cursor().execute("SELECT * FROM xc_write ORDER BY id").fetchall()
    assert len(rows) == 2
    for n, row in enumerate(rows, 1):
        want = _row(n)
        problems = [
            (name, got, exp)
            for (name, _, _), got, exp in zip(XCOLS, row[1:], want[1:], strict=True)
            if not (got == exp and type(got) is type(exp))
        ]
        assert row[0] == n
        assert not problems, problems


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_xclient_registry_matches(
    version: str, java_tools: dict[str, str], ifxcheck_classpaths: dict[str, str]
) -> None:
    """IfxCheck's on-demand checks (``--list-on-demand``) are exactly XCLIENT_CHECKS."""
    proc = subprocess.run(
        [java_tools["java"], "-cp", ifxcheck_classpaths[version], "IfxCheck", "--list-on-demand"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    from test_lob_interop import LOB_CHECKS

    assert sorted(proc.stdout.split()) == sorted(XCLIENT_CHECKS + LOB_CHECKS)
