"""What IBM JDBC reads of DATETIME − DATETIME and EXTEND: the INTERVAL's qualifier and precision.

Guide to SQL: Reference, "Manipulating DATETIME Values" (ids_sqr_154): "The first DATETIME value
determines the precision of the result, which includes the same time units as the first
operand"; a second operand's extra fields are "ignored in the calculation". A DATE is first a
DATETIME YEAR TO DAY ("Manipulating DATE with DATETIME and INTERVAL Values", ids_sqr_156).
EXTEND's result has the qualifier it names (Guide to SQL: Syntax, "EXTEND Function",
ids_sqs_1540). The first field's precision of a difference, 9, is ours: no page prints it.
tests/interop/jdbc/DescribeCheck.java reads each query's first column through
ResultSetMetaData (getColumnTypeName, getPrecision, getScale) and its value as text.

Run:  pytest -m interop tests/interop/test_jdbc_describe_time.py
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire
from conftest import JAVA_OPTS, JDBC_VERSIONS, compile_for_each_jar

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "DescribeCheck.java"
USER, PASSWORD = "informix", "in4mix"
ONE = " FROM systables WHERE tabid = 1"

# query -> (type name, precision, scale, value as IBM JDBC's getString gives it). IBM JDBC's
# getPrecision of a DATETIME or INTERVAL is its display width, separators counted (DAY(9) TO
# MINUTE is 9 + 1 + 2 + 1 + 2 = 15), where ifxwire's description gives the digits (13).
CASES: dict[str, tuple[str, str, str, str]] = {
    # ids_sqr_154's example, (60 01:30) DAY TO MINUTE
    "SELECT DATETIME (2003-9-30 12:30) YEAR TO MINUTE - DATETIME (2003-8-1 11) YEAR TO HOUR"
    + ONE: ("interval day(9) to minute", "15", "0", "60 01:30"),
    # the second operand's minutes ignored: DAY TO HOUR, 60 01
    "SELECT DATETIME (2003-9-30 12) YEAR TO HOUR - DATETIME (2003-8-1 11:30) YEAR TO MINUTE"
    + ONE: ("interval day(9) to hour", "12", "0", "60 01"),
    # the first operand's units: HOUR TO MINUTE (was DAY(9) TO MINUTE)
    "SELECT DATETIME (12:30) HOUR TO MINUTE - DATETIME (11:00) HOUR TO MINUTE" + ONE:
        ("interval hour(9) to minute", "12", "0", "1:30"),
    # a DATE first: whole days
    "SELECT DATE('05/02/2007') - DATETIME (2007-5-1 23:59) YEAR TO MINUTE" + ONE:
        ("interval day(9) to day", "9", "0", "1"),
    # EXTEND names its qualifier
    "SELECT EXTEND(DATETIME (2008-8-1 10:11) YEAR TO MINUTE, MONTH TO DAY)" + ONE:
        ("datetime month to day", "5", "0", "08-01"),
}


@pytest.fixture(scope="module")
def describe_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with DescribeCheck compiled against that jar."""
    return compile_for_each_jar(java_tools, jdbc_jars, SOURCE, "describe")


@pytest.fixture(scope="module")
def describe_url() -> Iterator[str]:
    from ifxwire.server import Server

    with Server(port=0) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.execute("CREATE DATABASE descmd WITH LOG")
        yield (f"jdbc:informix-sqli://{srv.host}:{srv.port}/descmd:INFORMIXSERVER="
               f"{srv.server_name};user={USER};password={PASSWORD}")


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_datetime_differences_as_ibm_jdbc_describes_them(
    java_tools: dict[str, str], describe_classpaths: dict[str, str], describe_url: str,
    version: str,
) -> None:
    queries = list(CASES)
    proc = subprocess.run([java_tools["java"], *JAVA_OPTS, "-cp", describe_classpaths[version],
                           "DescribeCheck", describe_url, *queries],
                          capture_output=True, text=True, timeout=300)
    assert "DONE" in proc.stdout.splitlines(), proc.stdout + proc.stderr[-3000:]
    got: dict[str, tuple[str, ...]] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("FACT "):
            n, _, rest = line[5:].partition(" ")
            got[queries[int(n)]] = tuple(rest.split("|"))
    assert {q: got.get(q) for q in queries} == CASES
