"""Connecting: keywords, URLs, sqlhosts, INFORMIXSERVER, login failures, connection state."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.client.dsn import lookup_sqlhosts, parse_url

pytestmark = pytest.mark.both_drivers


def test_connect_keywords(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    c = driver.connect(**connect_kwargs)
    try:
        assert c.server_version == "14.10.FC9"
        assert "Version" in c.server_version_string
        assert c.server_capabilities  # decoded SQ_PROTOCOLS bits
        assert c.encoding == "iso-8859-1"
        assert c.logging_mode is None and c.database is None
        assert c.autocommit is False
    finally:
        c.close()


def test_connect_url(driver: Any, server: Any, dbname: str) -> None:
    url = (
        f"informix://informix:in4mix@{server.host}:{server.port}/{dbname}"
        "?server=informix&client_locale=en_US.utf8&autocommit=true&DBDATE=DMY4-"
    )
    c = driver.connect(url)
    try:
        assert c.database == dbname
        assert c.logging_mode == "logged"
        assert c.autocommit is True
        assert c.encoding == "utf-8"
    finally:
        c.close()


def test_url_with_keyword_override(driver: Any, server: Any) -> None:
    url = f"informix://informix:wrong@{server.host}:{server.port}"
    c = driver.connect(url, password="in4mix")
    c.close()


def test_url_parsing_quotes_and_options() -> None:
    got = parse_url("informix://us%40er:p%3Ass@db.example:9090/stores?read_timeout=2.5&tls=false")
    assert got == {
        "host": "db.example",
        "port": 9090,
        "user": "us@er",
        "password": "p:ss",
        "database": "stores",
        "read_timeout": 2.5,
        "tls": False,
    }
    with pytest.raises(ifxwire.InterfaceError, match="unknown URL option"):
        parse_url("informix://h/db?colour=blue")
    with pytest.raises(ifxwire.InterfaceError, match="scheme"):
        parse_url("postgres://h/db")


def test_sqlhosts_and_informixserver(driver: Any,
    server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hosts = tmp_path / "sqlhosts"
    hosts.write_text(
        "# comment line\n"
        f"informix onsoctcp {server.host} {server.port}\n"
        "other    onipcshm somehost  nothing\n"
    )
    monkeypatch.setenv("INFORMIXSQLHOSTS", str(hosts))
    monkeypatch.setenv("INFORMIXSERVER", "informix")
    c = driver.connect(user="informix", password="in4mix")
    c.close()


def test_informixserver_names_wrong_server(
    driver: Any, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INFORMIXSERVER", "nosuchserver")
    with pytest.raises(ifxwire.OperationalError) as info:
        driver.connect(host=server.host, port=server.port, user="informix", password="in4mix")
    assert info.value.sqlcode == -761


def test_sqlhosts_groups(tmp_path: Path) -> None:
    hosts = tmp_path / "sqlhosts"
    hosts.write_text(
        "g_main group - - i=1\n"
        "srv_a onsoctcp hosta 9001 g=g_main\n"
        "srv_b onsocssl hostb 9002 g=g_main\n"
        "srv_c onsoctcp hostc 9003\n"
    )
    got = lookup_sqlhosts("g_main", str(hosts))
    assert [(a.host, a.port, a.tls) for a in got] == [("hosta", 9001, False), ("hostb", 9002, True)]
    assert [(a.host, a.port) for a in lookup_sqlhosts("srv_c", str(hosts))] == [("hostc", 9003)]
    assert lookup_sqlhosts("nothere", str(hosts)) == []


def test_bad_password(driver: Any, server: Any) -> None:
    with pytest.raises(ifxwire.OperationalError) as info:
        driver.connect(host=server.host, port=server.port, user="informix", password="nope")
    assert info.value.sqlcode == -951
    assert info.value.sqlstate == "28000"


def test_unknown_database(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    with pytest.raises(ifxwire.DatabaseError) as info:
        driver.connect(**connect_kwargs, database="no_such_db_here")
    assert info.value.sqlcode == -329


def test_refused_port(driver: Any) -> None:
    with pytest.raises(ifxwire.OperationalError) as info:
        driver.connect(host="127.0.0.1", port=1, user="u", password="p", connect_timeout=2)
    assert info.value.sqlstate == "08001"


def test_unknown_locale(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    with pytest.raises(ifxwire.InterfaceError, match="code set"):
        driver.connect(**connect_kwargs, client_locale="en_US.nonsense")


def test_logging_modes(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    c = driver.connect(**connect_kwargs)
    cur = c.cursor()
    for name, clause, mode in (
        ("cm_plain", "", "unlogged"),
        ("cm_logged", " WITH LOG", "logged"),
        ("cm_buffered", " WITH BUFFERED LOG", "logged"),
        ("cm_ansi", " WITH LOG MODE ANSI", "ansi"),
    ):
        name += driver.suffix
        cur.execute(f"CREATE DATABASE {name}{clause}")
        assert c.logging_mode == mode
        assert c.database == name
        c2 = driver.connect(**connect_kwargs, database=name)
        assert c2.logging_mode == mode
        c2.close()
    cur.execute("CLOSE DATABASE")
    assert c.logging_mode is None and c.database is None
    c.close()


def test_database_statement_reports_logging(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    c = driver.connect(**connect_kwargs)
    cur = c.cursor()
    name = f"cm_dbstmt{driver.suffix}"
    cur.execute(f"CREATE DATABASE {name} WITH LOG")
    cur.execute("CLOSE DATABASE")
    # The flags come in the warnings field of the SQ_DONE answering the statement.
    cur.execute(f"DATABASE {name}")
    try:
        assert c.database == name
        assert c.logging_mode == "logged"
    finally:
        c.close()


def test_context_manager_commits_and_closes(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str
) -> None:
    with driver.connect(**connect_kwargs, database=dbname) as c:
        c.execute("CREATE TABLE cm_t (a INT)")
        c.execute("INSERT INTO cm_t VALUES (1)")
    assert c.closed
    with pytest.raises(ZeroDivisionError), driver.connect(**connect_kwargs, database=dbname) as c:
        c.execute("INSERT INTO cm_t VALUES (2)")
        raise ZeroDivisionError
    assert c.closed
    with driver.connect(**connect_kwargs, database=dbname) as c:
        assert c.execute("SELECT a FROM cm_t").fetchall() == [(1,)]


def test_closed_connection_raises_interface_error(
    driver: Any, connect_kwargs: dict[str, Any]
) -> None:
    c = driver.connect(**connect_kwargs)
    cur = c.cursor()
    c.close()
    c.close()  # idempotent
    for call in (c.cursor, c.commit, c.rollback, lambda: cur.execute("SELECT 1 FROM systables")):
        with pytest.raises(ifxwire.InterfaceError):
            call()


def test_exceptions_are_connection_attributes(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    c = driver.connect(**connect_kwargs)
    assert c.ProgrammingError is ifxwire.ProgrammingError
    assert c.Warning is ifxwire.Warning
    c.close()


def test_password_never_logged(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "in4mix"
    with caplog.at_level(logging.DEBUG, logger="ifxwire"):
        c = driver.connect(**connect_kwargs, database=dbname, trace=True)
        c.execute("SELECT tabname FROM systables WHERE tabid = 1").fetchall()
        c.close()
        with pytest.raises(ifxwire.OperationalError):
            driver.connect(**{**connect_kwargs, "password": "sekr1tpw"}, trace=True)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "PROTOCOLS" in text and "systables" in text
    for pw in (secret, "sekr1tpw"):
        assert pw not in text
        assert pw.encode().hex() not in text
    assert "in4mix" not in repr(ifxwire.client.dsn.resolve(None, connect_kwargs))


@pytest.mark.one_driver  # the sync transport's receive buffer
def test_receive_buffer_is_small_until_the_first_result(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    # A connect-and-close (health checks, short scripts) must not zero the 256 KiB result buffer.
    from ifxwire.client.transport import INITIAL_BUFFER, LOGIN_BUFFER

    quick = driver.connect(**connect_kwargs, database=dbname)
    quick.close()  # reading the SQ_EXIT ack does not grow it either
    assert len(quick._transport.buf) == LOGIN_BUFFER
    conn = driver.connect(**connect_kwargs, database=dbname)
    try:
        assert len(conn._transport.buf) == LOGIN_BUFFER
        cur = conn.cursor()
        cur.execute("SELECT tabname FROM systables WHERE tabid < 30")
        assert len(cur.fetchall()) > 10
        assert len(conn._transport.buf) == INITIAL_BUFFER
    finally:
        conn.close()


@pytest.mark.one_driver  # the sync connect's cache of parsed session replies
def test_known_session_replies_are_reused_exactly(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    # The replies to PROTOCOLS/INFO/DBOPEN are parsed once per distinct byte sequence.
    from ifxwire.client import connection as connection_mod
    from ifxwire.client import login as login_mod

    login_mod._KNOWN_SESSION.clear()
    with driver.connect(**connect_kwargs) as admin:
        admin.execute(f"CREATE DATABASE d_known_unlogged{driver.suffix}")
    seen = []
    hits = []
    lookup = connection_mod.Connection._known_session_replies

    def counting(self: ifxwire.Connection, count: int) -> Any:
        found = lookup(self, count)
        hits.append(found is not None)
        return found

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(connection_mod.Connection, "_known_session_replies", counting)
        for db in (dbname, dbname, *[f"d_known_unlogged{driver.suffix}"] * 2):
            with driver.connect(**connect_kwargs, database=db) as c:
                seen.append((c._logging_mode, c.server_protocols, c.server_capabilities))
                row = c.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1").fetchone()
                assert row == (1,)
    assert hits == [False, True, False, True]  # the second connect of each reused the parse
    # One per distinct reply: no database (the admin connection), logged, not logged.
    assert len(login_mod._KNOWN_SESSION) == 3
    assert seen[0] == seen[1] and seen[2] == seen[3]
    assert seen[0][0] != seen[2][0]  # logged vs not logged: the DBOPEN flags were read
    for _ in range(2):  # an error reply is never kept, and is raised every time
        with pytest.raises(ifxwire.OperationalError):
            driver.connect(**connect_kwargs, database="d_known_missing")
    assert len(login_mod._KNOWN_SESSION) == 3
