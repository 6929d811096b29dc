"""IBM JDBC's ResultSetMetaData of built-in functions' results (issue 23, the seventeenth
manual round): the types the Guide to SQL: Syntax gives a function's result, as a JDBC tool
sees them through getColumnType, getColumnTypeName and getPrecision.
tests/interop/jdbc/ColumnTypesCheck.java, one JVM per jar and statement.

The pages name the result's Informix type; the JDBC number and name are the driver's own
mapping of the type our server describes, so a wrong description shows as a wrong name.

Run:  pytest -m interop tests/interop/test_jdbc_function_types.py
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import JAVA_OPTS, JDBC_VERSIONS, compile_for_each_jar

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "ColumnTypesCheck.java"
USER, PASSWORD = "informix", "in4mix"
FROM = " FROM ft WHERE id = 1"


@pytest.fixture(scope="session")
def columns_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with ColumnTypesCheck compiled against that jar."""
    return compile_for_each_jar(java_tools, jdbc_jars, SOURCE, "coltypes")


@pytest.fixture(scope="module")
def types_server() -> Iterator[Any]:
    """A server with a one-row table of the column types the functions are given."""
    from ifxwire.server import Server

    with Server(port=0) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            cur = c.cursor()
            cur.execute("CREATE DATABASE jfunc WITH LOG")
            cur.execute("CREATE TABLE ft (id INTEGER, nc NCHAR(8), lv LVARCHAR(40), "
                        "ch CHAR(10), unit CHAR(4), amount DECIMAL(8,2), day DATE)")
            cur.execute("INSERT INTO ft VALUES (1, 'Pauli', '  memo  ', 'Ludwig', 'each', "
                        "-1234.56, '07/05/2024')")
        srv.url = (f"jdbc:informix-sqli://{srv.host}:{srv.port}/jfunc:INFORMIXSERVER="
                   f"{srv.server_name};user={USER};password={PASSWORD}")
        yield srv


Column = tuple[int, str, int, int, str]


def described(java_tools: dict[str, str], classpath: str, url: str, sql: str) -> list[Column]:
    """(getColumnType, getColumnTypeName, getPrecision, getScale, value) of each column."""
    proc = subprocess.run([java_tools["java"], *JAVA_OPTS, "-cp", classpath, "ColumnTypesCheck",
                           url, sql], capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    assert "DONE" in lines, proc.stdout[-2000:] + proc.stderr[-3000:]
    out: list[Column] = []
    for line in lines:
        assert not line.startswith("ERR"), line
        if line.startswith("COL "):
            _, _, jtype, name, prec, scale, value = line.split(" ", 6)
            out.append((int(jtype), name, int(prec), int(scale), value))
    return out


# (expression, (getColumnType, getColumnTypeName, getPrecision, getScale, value), page). The
# JDBC numbers are the driver's mapping: 1 CHAR, 12 VARCHAR, -1 LONGVARCHAR, 3 DECIMAL.
CASES: list[tuple[str, Column, str]] = [
    ("nc || 'x'", (12, "nvarchar", 9, 0, "[Pauli   x]"),
     "ids_sqs_2001: NCHAR with a character type is NVARCHAR below 255 bytes"),
    ("TRIM(lv)", (-1, "lvarchar", 40, 0, "[memo]"),
     "ids_sqs_1556: TRIM of an LVARCHAR returns an LVARCHAR"),
    ("TRIM(nc)", (12, "nvarchar", 8, 0, "[Pauli]"),
     "ids_sqs_1556: TRIM of an NCHAR returns an NVARCHAR"),
    ("REVERSE(ch)", (1, "char", 10, 0, "[    giwduL]"),
     "ids_sqs_0573: same data type and length as the source string"),
    ("REPLACE(unit, 'each', 'item')", (1, "char", 4, 0, "[item]"),
     "ids_sqs_1562: the return type is the source_string's"),
    ("UPPER(nc)", (1, "nchar", 8, 0, "[PAULI   ]"),
     "ids_sqt_135: a value of the same data type as the argument"),
    ("LPAD(ch, 12, '*')", (12, "varchar", 255, 0, "[**Ludwig    ]"),
     "ids_sqt_141: a CHAR source's blanks count; the length is our bound [inference]"),
    ("TO_CHAR(amount, '-$$,$$$.&&')", (12, "varchar", 255, 0, "[-$1,234.56]"),
     "ids_sqs_1542 + ids_dapip_0128: the numeric mask; VARCHAR(255) [inference]"),
    ("TO_CHAR(amount)", (12, "varchar", 255, 0, "[-1234.56]"),
     "ids_sqs_1542: no mask, the number's own character form"),
    ("TO_CHAR(day, '%iY-%m-%d')", (12, "varchar", 255, 0, "[2024-07-05]"),
     "ids_sqs_1542 + ids_gug_079: a DATE with GL_DATE directives"),
    ("TO_NUMBER('$100.00')", (3, "decimal", 32, 255, "[100]"),
     "ids_sqs_1544: a DECIMAL (floating: scale 255), the currency symbol discarded"),
]


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_function_result_types(java_tools: dict[str, str], columns_classpaths: dict[str, str],
                               types_server: Any, version: str) -> None:
    """One statement with every case as a column; each column as the page types it."""
    sql = "SELECT " + ", ".join(expr for expr, _, _ in CASES) + FROM
    cols = described(java_tools, columns_classpaths[version], types_server.url, sql)
    assert len(cols) == len(CASES)
    for (expr, want, page), got in zip(CASES, cols, strict=True):
        assert got == want, f"JDBC {version}: {expr} ({page})"
