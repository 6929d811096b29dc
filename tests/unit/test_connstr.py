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


# ------------------------------------------------------------------------------------------
# JDBC URLs (issue 28): jdbc:informix-sqli://host:port[/database][:NAME=value;...]
# ------------------------------------------------------------------------------------------


def test_jdbc_url_of_the_issue() -> None:
    from ifxwire.client.connstr import parse_jdbc_url

    got = parse_jdbc_url(
        "jdbc:informix-sqli://h:9088/db:INFORMIXSERVER=ol_x;user=u;password=p;"
        "DB_LOCALE=en_US.819;CLIENT_LOCALE=en_US.utf8;DBDATE=Y4MD-;OPTCOMPIND=0"
    )
    assert got == {"host": "h", "port": 9088, "database": "db", "server": "ol_x", "user": "u",
                   "password": "p", "db_locale": "en_US.819", "client_locale": "en_US.utf8",
                   "env": {"DBDATE": "Y4MD-", "OPTCOMPIND": "0"}}


def test_jdbc_url_forms_and_properties_without_case() -> None:
    from ifxwire.client.connstr import parse_jdbc_url

    assert parse_jdbc_url("JDBC:Informix-Sqli://[::1]:1526:informixserver=ol;User=u") == {
        "host": "::1", "port": 1526, "server": "ol", "user": "u"}
    assert parse_jdbc_url("jdbc:informix-sqli://10.1.2.3:9088/stores") == {
        "host": "10.1.2.3", "port": 9088, "database": "stores"}
    assert parse_jdbc_url(
        "jdbc:informix-sqli:/stores:INFORMIXSERVER=ol;SQLH_TYPE=FILE;SQLH_FILE=/etc/sqlh;"
        "IFXHOST_SECONDARY=b.example;PORTNO_SECONDARY=9090;INFORMIXSERVER_SECONDARY=ol2;"
        "INFORMIXCONTIME=7;IFX_SOC_KEEPALIVE=true;SSLCONNECTION=false;FET_BUF_SIZE=32767;"
        "password=a b= c"
    ) == {"database": "stores", "server": "ol", "sqlhosts": "/etc/sqlh",
          "host_secondary": "b.example", "port_secondary": 9090, "server_secondary": "ol2",
          "connect_timeout": 7.0, "keepalive": True, "tls": False, "fetch_buffer_size": 32767,
          "password": "a b= c"}


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("jdbc:informix-sqli://h:9088/d:INFORMIXSERVER=ol;NOSUCHPROP=1", "NOSUCHPROP"),
        ("jdbc:informix-sqli://h:9088/d:IFX_LOCK_MODE_WAIT=10", "IFX_LOCK_MODE_WAIT"),
        ("jdbc:informix-sqli://h:9088/d:user=u;USER=v", "USER"),
        ("jdbc:informix-sqli://h:9088/d:DATABASE=e", "DATABASE"),
        ("jdbc:informix-sqli://h:9088/d:SSLCONNECTION=maybe", "SSLCONNECTION"),
        ("jdbc:informix-sqli://h:9088/d:PORTNO_SECONDARY=x", "PORTNO_SECONDARY"),
        ("jdbc:informix-sqli://h:9088/d:SQLH_TYPE=LDAP", "SQLH_TYPE"),
        ("jdbc:informix-sqli://h:notaport/d", "port"),
        ("jdbc:informix-sqli://h:70000/d", "port"),
        ("jdbc:informix-direct://h:9088/d", "jdbc:informix-sqli:"),
        ("jdbc:informix-sqli://h:9088/d:user", "'='"),
    ],
)
def test_jdbc_refusals_name_the_property(url: str, named: str) -> None:
    from ifxwire.client.connstr import parse_jdbc_url

    with pytest.raises(InterfaceError) as err:
        parse_jdbc_url(url)
    assert named in str(err.value)


def test_resolve_reads_a_jdbc_url_and_keywords_win() -> None:
    params = resolve("jdbc:informix-sqli://db.example:1526/d:INFORMIXSERVER=ol;user=u;"
                     "password=p;DBDATE=DMY4/", {"database": "other", "env": {"X": "1"}})
    assert params.addresses == [Address("db.example", 1526)]
    assert (params.server, params.user, params.password, params.database) == (
        "ol", "u", "p", "other")
    assert params.env["DBDATE"] == "DMY4/" and params.env["X"] == "1"


def test_an_accepted_host_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each connect resolves its host again: a host accepted before costs a dict lookup, not
    the regular expression (issue 24's 3 % check); refusals are never remembered."""
    from ifxwire.client import connstr

    calls: list[str] = []
    pattern = connstr._HOST_NAME

    class Counting:
        def match(self, text: str) -> object:
            calls.append(text)
            return pattern.match(text)

    monkeypatch.setattr(connstr, "_HOST_NAME", Counting())
    monkeypatch.setattr(connstr, "_CHECKED_HOSTS", {})
    for _ in range(3):
        assert resolve("db-once.example", {"port": 9088}).addresses[0].host == "db-once.example"
        assert check_host("[::1]") == "::1"
    assert calls == ["db-once.example", "::1"]
    for _ in range(2):
        with pytest.raises(InterfaceError):
            check_host("user:pw@h")
    assert calls[2:] == ["user:pw@h", "user:pw@h"]


def test_a_plain_host_skips_the_string_formats(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host name or IPv4 address holds neither ``:`` nor ``=``: resolve takes it as the
    host without asking whether it is a JDBC URL, a URL or a keyword string."""
    from ifxwire.client import dsn

    def never(text: str) -> bool:
        raise AssertionError(f"asked about {text!r}")

    monkeypatch.setattr(dsn, "is_jdbc_url", never)
    monkeypatch.setattr(dsn, "is_keyword_string", never)
    assert resolve("10.1.2.3", {"port": 1526}).addresses == [Address("10.1.2.3", 1526)]
    with pytest.raises(AssertionError):
        resolve("SERVER=x;HOST=h;SERVICE=1", {})
