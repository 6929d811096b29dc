"""IBM JDBC and DBMONEY (issue 23, eighteenth round): a ``DBMONEY=`` URL property does not
reach the session.

The server reads DBMONEY from the login's environment list (core/money.py), where our driver's
``env=`` puts it. IBM JDBC sends in that list only the variables of its own property table
(com.informix.asf.SqliConnectionProperties: DBDATE, GL_DATE, DBTIME, CLIENT_LOCALE, DBPATH,
... in 4.50.10 and 15.0.0.1; neither jar has DBMONEY in it), and the login it sends with
``;DBMONEY=DM,`` in the URL carries DBPATH, CLIENT_LOCALE and DBDATE only (witnessed against
the server, 15.0.0.1). So a JDBC session keeps the default locale's notation ``$ . ,``
(ids_sqr_218), whatever the URL says: TO_CHAR's '$' stays '$' (ids_gug_237) and TO_NUMBER
discards '$' (ids_sqs_1544). Read through tests/interop/jdbc/ColumnTypesCheck.java against
each jar. Our driver's ``env={"DBMONEY": ...}`` is tested in
tests/corpus/test_manual_round18_dbmoney.py.

Run:  pytest -m interop tests/interop/test_jdbc_dbmoney.py
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_jdbc_function_types import described

import ifxwire
from conftest import JDBC_VERSIONS, compile_for_each_jar

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "ColumnTypesCheck.java"
USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="session")
def money_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with ColumnTypesCheck compiled against that jar."""
    return compile_for_each_jar(java_tools, jdbc_jars, SOURCE, "dbmoney")


@pytest.fixture(scope="module")
def money_server() -> Iterator[Any]:
    """A server with a one-row MONEY table."""
    from ifxwire.server import Server

    with Server(port=0) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            cur = c.cursor()
            cur.execute("CREATE DATABASE jmoney WITH LOG")
            cur.execute("CREATE TABLE mt (id INTEGER, amt MONEY(10,2))")
            cur.execute("INSERT INTO mt VALUES (1, 1234.5)")
        srv.url = (f"jdbc:informix-sqli://{srv.host}:{srv.port}/jmoney:INFORMIXSERVER="
                   f"{srv.server_name};user={USER};password={PASSWORD}")
        yield srv


SQL = ("SELECT TO_CHAR(amt, '$$,$$$.&&'), TO_CHAR(1234, '$$,$$$.$$'), "
       "TO_NUMBER('DM100,50') FROM mt WHERE id = 1")


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_dbmoney_in_the_url(java_tools: dict[str, str], money_classpaths: dict[str, str],
                            money_server: Any, version: str) -> None:
    """``DBMONEY=DM,`` in the URL is a property IBM JDBC does not send: the server formats
    and reads in the default notation, and 'DM100,50' is no number (-1213)."""
    url = money_server.url + ";DBMONEY=DM,"
    cols = described(java_tools, money_classpaths[version], url,
                     SQL.replace("'DM100,50'", "'$100.50'"))
    assert [c[4] for c in cols] == ["[$1,234.50]", "[$1,234.00]", "[100.5]"], version
    with pytest.raises(AssertionError, match="ERR -1213"):
        described(java_tools, money_classpaths[version], url, SQL)


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_no_dbmoney_default_notation(java_tools: dict[str, str],
                                     money_classpaths: dict[str, str], money_server: Any,
                                     version: str) -> None:
    """A URL without DBMONEY gets the default locale's $ . , (ids_sqr_218); before this
    round the '$' right of the point printed as itself ('$1,234.$$', ids_gug_237)."""
    cols = described(java_tools, money_classpaths[version], money_server.url,
                     SQL.replace("'DM100,50'", "'$100.50'"))
    assert [c[4] for c in cols] == ["[$1,234.50]", "[$1,234.00]", "[100.5]"], version
