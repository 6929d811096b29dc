"""IBM JDBC (15.0.0.1 and 4.50.10) and ifxwire on the same ROW/collection data (issue 13).

ifxwire writes every collection kind and element type; JDBC reads them with getObject
(binary SENDRECV form) and must see exactly what ifxwire sees; JDBC writes java.util
collections of every element type and named ROWs (SQLData) with setObject and ifxwire must
read those values back; JDBC runs the second round's SQL (DISTINCT types, casts to named
ROWs, nested fields, IN on ROW collections, constructors of columns and parameters,
collection-derived tables, the NULL-collection, NULL-element and size refusals); JDBC's
DatabaseMetaData.getColumns names BOOLEAN, LVARCHAR and the composite columns. (JDBC cannot
write an unnamed ROW with SQLData: setObject looks the type name up among named row types
and fails inside the driver.)
``tests/interop/jdbc/CompositeCheck.java`` is the Java side.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import shutil
import struct
import subprocess
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import JAVA_OPTS, JDBC_VERSIONS, Target, cache_root
from ifxwire import List, Multiset, Row, Set

pytestmark = pytest.mark.interop
SOURCE = Path(__file__).resolve().parent / "jdbc" / "CompositeCheck.java"
UTF8 = {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8"}

READ_COLUMNS = (
    "s_int SET(INT NOT NULL), m_bigint MULTISET(BIGINT NOT NULL), "
    "l_dec LIST(DECIMAL(10,2) NOT NULL), l_float LIST(FLOAT NOT NULL), "
    "s_vc SET(VARCHAR(20) NOT NULL), l_lv LIST(LVARCHAR NOT NULL), l_date LIST(DATE NOT NULL), "
    "l_dt LIST(DATETIME YEAR TO FRACTION(5) NOT NULL), "
    "l_iv LIST(INTERVAL DAY(9) TO FRACTION(5) NOT NULL), l_bool LIST(BOOLEAN NOT NULL), "
    "l_row LIST(ROW(a INT, b VARCHAR(10)) NOT NULL), r ROW(a INT, b LIST(INT NOT NULL), "
    "c ROW(d DATE)), np xc_pt, lnp LIST(xc_pt NOT NULL)"
)
AB = ("a", "b")
FULL = [
    Set({1, -2147483647, 2147483647}),
    Multiset([2**62, 2**62, -(2**63 - 1)]),
    List([Decimal("12345678.90"), Decimal("-0.01")]),
    List([1.5, -2.2250738585072014e-308, 1e300]),
    Set({"é漢字", "it's", ""}),
    List(["x" * 1000, "ü"]),
    List([dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(2024, 2, 29)]),
    List([dt.datetime(2024, 2, 29, 13, 45, 59, 123450), dt.datetime(1, 1, 1)]),
    List([dt.timedelta(days=12, hours=3, microseconds=10), dt.timedelta(seconds=-5)]),
    List([True, False, True]),
    List([Row((1, "x"), AB), Row((None, None), AB)]),
    Row((7, List([1, 2]), Row((dt.date(2000, 1, 1),), ("d",))), ("a", "b", "c")),
    Row((1, "a"), ("x", "y"), "xc_pt"),
    List([Row((2, "b"), ("x", "y"), "xc_pt")]),
]
EMPTY = [Set([], "int"), Multiset([], "bigint"), List([], "decimal(10,2)"),
         List([], "float"), Set([], "varchar(20)"), List([], "lvarchar"), List([], "date"),
         List([], "datetime year to fraction(5)"), List([], "interval day(9) to fraction(5)"),
         List([], "boolean"), List([], "row(a int, b varchar(10))"),
         Row((None, List([], "int"), None), ("a", "b", "c")),
         Row((None, None), ("x", "y"), "xc_pt"), List([], "row(x int, y varchar(5))")]


def canon(v: Any) -> str:
    """The canonical form CompositeCheck.java prints (see its header)."""
    if v is None:
        return "NULL"
    if isinstance(v, Row):
        return "ROW(" + ",".join(canon(x) for x in v) + ")"
    if isinstance(v, Set):
        return "{" + ",".join(sorted(canon(x) for x in v)) + "}"
    if isinstance(v, (List, Multiset)):
        return "[" + ",".join(canon(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, float):
        return "d" + struct.pack(">d", v).hex()
    if isinstance(v, str):
        return f"'{v}'"
    if isinstance(v, dt.datetime):
        return (f"{v.year:04d}-{v.month:02d}-{v.day:02d} {v.hour:02d}:{v.minute:02d}:"
                f"{v.second:02d}.{v.microsecond:06d}")
    if isinstance(v, dt.date):
        return f"{v.year:04d}-{v.month:02d}-{v.day:02d}"
    if isinstance(v, dt.timedelta):
        us = v // dt.timedelta(microseconds=1)
        secs = int(us / 1_000_000)
        return f"{secs} {(us - secs * 1_000_000) * 1000}"
    return str(v)


@pytest.fixture(scope="module")
def composite_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    source = SOURCE.read_bytes()
    out: dict[str, str] = {}
    for version, jar in jdbc_jars.items():
        digest = hashlib.sha256(source + jar.read_bytes()).hexdigest()[:16]
        build = cache_root() / "jdbc" / "build" / f"composite-{version}-{digest}"
        if not (build / "CompositeCheck.class").is_file():
            tmp = build.with_name(build.name + f".tmp{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            proc = subprocess.run([java_tools["javac"], "-cp", str(jar), "-d", str(tmp),
                                   str(SOURCE)], capture_output=True, text=True, timeout=300)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            shutil.rmtree(build, ignore_errors=True)
            tmp.rename(build)
        out[version] = os.pathsep.join([str(build), str(jar)])
    return out


def _connect(t: Target, **kw: Any) -> ifxwire.Connection:
    return ifxwire.connect(host=t.host, port=t.port, user=t.user, password=t.password,
                           server=t.server_name, **UTF8, **kw)


@pytest.fixture(params=JDBC_VERSIONS)
def prepared(request: pytest.FixtureRequest, interop_target: Target) -> Iterator[tuple[str, str]]:
    version = request.param
    db = "xc_comp_" + version.replace(".", "_")
    with _connect(interop_target, autocommit=True) as c:
        c.cursor().execute(f"CREATE DATABASE {db} WITH LOG")
    with _connect(interop_target, database=db, autocommit=True) as c:
        cur = c.cursor()
        cur.execute("CREATE ROW TYPE xc_pt (x INT, y VARCHAR(5))")
        cur.execute(f"CREATE TABLE xc_read (id INT, {READ_COLUMNS})")
        marks = ", ".join("?" * (len(FULL) + 1))
        cur.execute(f"INSERT INTO xc_read VALUES ({marks})", [1, *FULL])
        cur.execute(f"INSERT INTO xc_read VALUES ({marks})", [2, *EMPTY])
        cur.execute("INSERT INTO xc_read (id) VALUES (3)")
        cur.execute("CREATE TABLE xc_meta (b BOOLEAN, lv LVARCHAR(300), s SET(INT NOT NULL), "
                    "m MULTISET(INT NOT NULL), l LIST(INT NOT NULL), r ROW(a INT), bl BLOB, "
                    "cl CLOB)")
        cur.execute("CREATE TABLE xc_write (id INT, si SET(INT NOT NULL), "
                    "lv LIST(VARCHAR(20) NOT NULL), md MULTISET(DECIMAL(5,2) NOT NULL), "
                    "ld LIST(DATE NOT NULL), lb LIST(BOOLEAN NOT NULL), "
                    "lr ROW(a INT, b VARCHAR(10)), mb MULTISET(BIGINT NOT NULL), "
                    "lf LIST(FLOAT NOT NULL), llv LIST(LVARCHAR NOT NULL), "
                    "ldt LIST(DATETIME YEAR TO FRACTION(5) NOT NULL), "
                    "liv LIST(INTERVAL DAY(9) TO FRACTION(5) NOT NULL), np xc_pt, "
                    "lnp LIST(xc_pt NOT NULL), sr SET(xc_pt NOT NULL))")
    yield version, db
    with _connect(interop_target, autocommit=True) as c:
        c.cursor().execute(f"DROP DATABASE {db}")


def test_jdbc_reads_and_writes_composites(
    prepared: tuple[str, str], interop_target: Target, composite_classpaths: dict[str, str],
    java_tools: dict[str, str],
) -> None:
    version, db = prepared
    t = interop_target
    proc = subprocess.run(
        [java_tools["java"], *JAVA_OPTS, "-cp", composite_classpaths[version], "CompositeCheck",
         t.host, str(t.port), t.server_name, db, t.user, t.password],
        capture_output=True, timeout=300,
    )
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0 and out.rstrip().endswith("DONE"), (
        out[-3000:] + proc.stderr.decode("utf-8", "replace")[-3000:])
    lines = out.splitlines()

    # What JDBC read equals what ifxwire reads from the same rows.
    with _connect(t, database=db) as c:
        cur = c.cursor()
        cur.execute("SELECT * FROM xc_read ORDER BY id")
        names = [d[0] for d in cur.description][1:]
        expected = [f"CELL xc_read {row[0]} {n} {canon(v)}" for row in cur.fetchall()
                    for n, v in zip(names, row[1:], strict=True)]
        assert [ln for ln in lines if ln.startswith("CELL ")] == expected
        # and that is what was written (exact values, kinds kept)
        cur.execute("SELECT * FROM xc_read WHERE id = 1")
        got = list(cur.fetchone()[1:])
        assert [sorted(map(repr, v)) if isinstance(v, Multiset) else v for v in got] == [
            sorted(map(repr, v)) if isinstance(v, Multiset) else v for v in FULL]

        rsmd = {ln.split(" ", 2)[1]: ln.split(" ", 2)[2] for ln in lines if ln.startswith("RSMD")}
        assert rsmd["s_int"] == "1111 SET(integer not null)"
        assert rsmd["r"] == "2002 ROW(a integer, b LIST(integer not null), c ROW(d date))"
        assert rsmd["np"] == "2002 xc_pt"  # a named ROW is described by its name
        meta = [ln for ln in lines if ln.startswith("META ")]
        assert meta == ["META b 16 boolean", "META lv 12 lvarchar", "META s 1111 set",
                        "META m 1111 multiset", "META l 1111 list", "META r 2002 row",
                        "META bl 1111 blob", "META cl 1111 clob"]  # BLOB/CLOB: issue 11's

        assert "WROTE 2" in lines
        cur.execute("SELECT si, lv, md, ld, lb, lr, mb, lf, llv, ldt, liv, np, lnp, sr "
                    "FROM xc_write ORDER BY id")
        first, second = cur.fetchall()
        assert first[0] == {3, -7, 2147483647}
        assert first[1] == ["ab", "b"]  # JDBC sends strings as LVARCHAR elements
        assert sorted(first[2]) == [Decimal("-99.99"), Decimal("1.25")]
        assert first[3] == [dt.date(2024, 2, 29), dt.date(1, 1, 1)]
        assert first[4] == [True, False]
        assert first[5] is None
        # every other element type JDBC can write into a collection, and named ROWs (SQLData)
        assert isinstance(first[6], Multiset)
        assert sorted(first[6]) == [-(2**63 - 1), 2**62, 2**62]
        assert first[7] == [1.5, -2.2250738585072014e-308, 1e300]
        assert first[8] == ["x" * 1000, ""]
        leap = dt.datetime(2024, 2, 29, 13, 45, 59, 123450)
        if version == "4.50.10":  # its encoder fails on any Timestamp element, client-side
            assert [ln for ln in lines if ln.startswith("LIMIT ")] == [
                "LIMIT ldt System or internal error"]
            assert first[9] is None
        else:
            assert first[9] == [leap, dt.datetime(1, 1, 1)]
        assert first[10] == [dt.timedelta(days=12, hours=3, microseconds=10),
                             dt.timedelta(seconds=-5)]
        # JDBC's SQLOutput.writeString pads a VARCHAR(5) field to 5 characters on the wire
        # (its bytes: length 5, "five "), and a VARCHAR keeps what it is given.
        assert first[11] == (5, "five ") and first[11].type_name == "xc_pt"
        assert first[12] == [(6, "six  "), (7, None)]
        assert [r.type_name for r in first[12]] == ["xc_pt", "xc_pt"]
        assert first[13] == {Row((8, "e    "), ("x", "y"), "xc_pt")}
        assert second == (None,) * 14

    # second round (docs/SERVER.md): the SQL JDBC sends for these features, answered alike
    sql = {ln.split(" ", 2)[1]: ln.split(" ", 2)[2] for ln in lines if ln.startswith("SQL ")}
    assert sql == {
        "distinct": "1,12.50,13.50 | 2,7.00,8.00",  # CREATE DISTINCT TYPE, casts both ways
        "drop_in_use": "ERR -9630",
        "row_cast": "ROW(3,'c'),ROW(4,'d')",  # Structs of the named type
        "nested_field": "2000-01-01,2000-01-01 | NULL,NULL | NULL,NULL",
        "in_rows": "1",
        "in_rows_param": "1",
        "constructors": "ROW(1,2),[1,9] | ROW(2,4),[2,9] | ROW(3,6),[3,9]",
        "table_column": "1,3 | 2,0",  # TABLE(outer column), correlated
        "table_rows": "NULL,NULL | 1,'x'",  # a ROW collection: one column per field
        "table_null": "ERR -9976",
        "null_element": "ERR -9978",
        "too_large": "ERR -999",  # refused when written, naming its size
        "after": "2",  # and the session went on
    }
