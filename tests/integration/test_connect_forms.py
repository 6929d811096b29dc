"""connect() as code moving to ifxwire calls it (issue 28): informix-driver's connect()
keywords unchanged, and the IfxPy/ODBC connection string of the issue with every keyword it
names, on the sync and the asyncio driver against the real server. Parsing and refusals:
tests/unit/test_connstr.py; passwords in errors: test_driver_secrets.py."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import informix_db
import informix_db.aio
import pytest

import ifxwire
import ifxwire.aio


def _informix_driver_keywords(server: Any, dbname: str) -> dict[str, Any]:
    """A value for every parameter of informix-driver's connect(), as its users pass them."""
    return {
        "host": server.host, "port": server.port, "user": "informix", "password": "in4mix",
        "database": dbname, "server": "informix", "connect_timeout": 10.0,
        "read_timeout": 30.0, "keepalive": True, "client_locale": "en_US.8859-1",
        "env": {"DBDATE": "Y4MD-"}, "autocommit": True, "row_factory": None, "tls": False,
        "tls_server_hostname": None,
    }


def test_the_keywords_are_informix_drivers_own() -> None:
    """Every keyword informix-driver's connect() takes is one of ifxwire's, for both
    drivers (so the list above cannot go stale unnoticed)."""
    theirs = set(inspect.signature(informix_db.connect).parameters)
    stand_in = type("Srv", (), {"host": "h", "port": 1})()
    assert theirs == set(_informix_driver_keywords(stand_in, ""))
    for ours in (ifxwire.connect, ifxwire.aio.connect):
        assert theirs <= set(inspect.signature(ours).parameters), ours
    # host and port come first, positionally, in both.
    assert list(inspect.signature(informix_db.connect).parameters)[:2] == ["host", "port"]
    assert list(inspect.signature(ifxwire.connect).parameters)[:2] == ["host", "port"]


def test_informix_drivers_connect_call_works_unchanged(server: Any, dbname: str) -> None:
    kw = _informix_driver_keywords(server, dbname)
    with ifxwire.connect(**kw) as conn:
        assert conn.database == dbname and conn.autocommit
        assert conn.execute("SELECT tabid FROM systables WHERE tabid = 1").fetchone() == (1,)
    host, port = kw.pop("host"), kw.pop("port")
    with ifxwire.connect(host, port, **kw) as conn:  # positionally, as informix_db allows
        assert conn.database == dbname

    async def go() -> str | None:
        async with await ifxwire.aio.connect(host, port, **kw) as aconn:
            cur = await aconn.execute("SELECT tabid FROM systables WHERE tabid = 1")
            assert await cur.fetchone() == (1,)
            return aconn.database

    assert asyncio.run(go()) == dbname
    assert inspect.signature(informix_db.aio.connect).parameters  # (*args, **kwargs): same


def test_the_issues_ifxpy_string_with_every_keyword(server: Any, dbname: str) -> None:
    text = (f"SERVER=informix;DATABASE={dbname};HOST={server.host};SERVICE={server.port};"
            "UID=informix;PWD=in4mix;PROTOCOL=onsoctcp;DB_LOCALE=en_US.8859-1;"
            "CLIENT_LOCALE=en_US.8859-1")
    with ifxwire.connect(text) as conn:
        assert conn.database == dbname
        assert conn.encoding in ("latin-1", "iso8859-1", "iso-8859-1", "cp1252")
        assert conn.execute("SELECT tabid FROM systables WHERE tabid = 1").fetchone() == (1,)

    async def go() -> str | None:
        async with await ifxwire.aio.connect(text) as aconn:
            return aconn.database

    assert asyncio.run(go()) == dbname


@pytest.mark.parametrize("form", ["odbc", "jdbc"])
def test_an_unknown_key_is_an_error_naming_it(form: str) -> None:
    text = ("SERVER=ol;HOST=h;FOOBAR=1;SERVICE=9088;UID=u;PWD=p" if form == "odbc" else
            "jdbc:informix-sqli://h:9088/db:INFORMIXSERVER=ol;foobar=1;user=u;password=p")
    with pytest.raises(ifxwire.InterfaceError, match=r"unknown (keyword|property) FOOBAR"):
        ifxwire.connect(text)
    # Right after the password it may be the password's tail (PWD=ab;cd=1): not named.
    with pytest.raises(ifxwire.InterfaceError, match="follows the password"):
        ifxwire.connect(text.replace("FOOBAR=1;", "").replace("foobar=1;", "") + ";FOOBAR=1")
