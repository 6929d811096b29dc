"""IfxPy/ODBC keyword connection strings and the host check (client/connstr.py, issue 23).

IfxPy documents its connection as ``SERVER=...;DATABASE=...;HOST=...;SERVICE=...;UID=...;
PWD=...;`` (the Informix ODBC driver's keywords); connect() takes the same string where it takes
a URL. Secrets: tests/integration/test_driver_secrets.py.
"""

from __future__ import annotations

import pytest

from ifxwire.client.connstr import check_host, is_keyword_string, parse_keyword_string
from ifxwire.client.dsn import resolve
from ifxwire.client.sqlhosts import Address
from ifxwire.errors import InterfaceError


def test_ifxpy_documented_form() -> None:
    got = parse_keyword_string(
        "SERVER=ids0;DATABASE=db1;HOST=127.0.0.1;SERVICE=9088;UID=informix;PWD=xxxx;"
    )
    assert got == {"server": "ids0", "database": "db1", "host": "127.0.0.1", "port": 9088,
                   "user": "informix", "password": "xxxx"}


def test_keywords_without_case_blanks_braces_and_aliases() -> None:
    got = parse_keyword_string(
        " server = ol ; Host=db.example;port=1526;db=stores;user=u;password={a;b}}c} ;"
        "client_locale=en_US.utf8;DB_LOCALE=en_US.819;autocommit=1;protocol=olsoctcp"
    )
    assert got == {"server": "ol", "host": "db.example", "port": 1526, "database": "stores",
                   "user": "u", "password": "a;b}c", "client_locale": "en_US.utf8",
                   "db_locale": "en_US.819", "autocommit": True}


def test_tls_protocol_and_service_name() -> None:
    got = parse_keyword_string("HOST=h;SERVICE=ftp;PROTOCOL=onsocssl")
    assert got == {"host": "h", "port": 21, "tls": True}


@pytest.mark.parametrize(
    "text",
    ["HOST=h;NOPE=1", "HOST=h;HOST=i", "HOST=h;SERVICE=", "PROTOCOL=onipcshm", "PWD={x",
     "PWD={x}y", "AUTOCOMMIT=maybe", "HOST=h;junk"],
)
def test_refusals(text: str) -> None:
    with pytest.raises(InterfaceError):
        parse_keyword_string(text)


def test_resolve_reads_the_string_and_keywords_win() -> None:
    params = resolve("SERVER=ol;HOST=db.example;SERVICE=1526;UID=u;PWD=p;DATABASE=d",
                     {"database": "other"})
    assert params.addresses == [Address("db.example", 1526)]
    assert (params.server, params.user, params.password, params.database) == (
        "ol", "u", "p", "other")
    assert "p'" not in repr(params)


def test_what_counts_as_a_keyword_string() -> None:
    assert is_keyword_string("HOST=h")
    assert not is_keyword_string("db.example")
    assert not is_keyword_string("informix://u:p@h/d?tls=true")


@pytest.mark.parametrize(
    "host", ["localhost", "db.example.com", "db-1_a", "127.0.0.1", "::1", "[::1]", "fe80::1",
             "bücher.example"],
)
def test_hosts_accepted(host: str) -> None:
    assert check_host(host) in (host, host.strip("[]"))


@pytest.mark.parametrize(
    "host", ["u:p@h", "h:secret", "h;PWD=x", "h p", "//h", "", "h/x", "-h"],
)
def test_hosts_refused_without_being_shown(host: str) -> None:
    with pytest.raises(InterfaceError) as info:
        check_host(host)
    if host:
        assert host not in str(info.value)


@pytest.mark.parametrize("text", ["SERVER=ol;UID=u;PWD=ab;Z9Q=1", "PWD=s3cr;ETXY=2;HOST=h"])
def test_a_password_holding_a_semicolon_is_never_shown(text: str) -> None:
    """Unbraced, ``PWD=ab;Z9Q=1`` splits the password; the 'unknown keyword' that follows is
    the password's tail, so the error does not name it (review finding)."""
    with pytest.raises(InterfaceError) as info:
        parse_keyword_string(text)
    message = str(info.value)
    assert "braces" in message
    for secret_part in ("Z9Q", "ETXY", "s3cr"):
        assert secret_part not in message.upper()
