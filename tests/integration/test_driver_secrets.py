"""No password in any exception text, warning, log or trace line, or repr (defect 4).

Every path that can fail or describe a connection runs with one distinctive password, and the
whole text it produced is searched for the password, its URL-quoted form and its hex (trace
lines dump bytes in hex): the exception's ``str``, ``repr`` and ``args``, the formatted
traceback with its chained causes and contexts, every record of the driver's loggers at DEBUG
(with ``trace=True``, so protocol hex dumps are included), warnings, and the reprs of
connections, cursors, pools and parameter objects. Sync and ``ifxwire.aio`` alike.
"""

from __future__ import annotations

import asyncio
import logging
import os
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire.client.dsn import resolve
from ifxwire.protocol.login import ConnectRequest, parse_connect_request

SECRET = "Sw0rdf1sh-Zq7!"
FORMS = (SECRET, quote(SECRET, safe=""), SECRET.encode().hex(), SECRET.lower())
DRIVER_LOGGERS = ("ifxwire.client", "ifxwire.protocol", "ifxwire.pool", "ifxwire.aio")


@pytest.fixture(scope="module")
def alice_server() -> Iterator[Any]:
    """A real server that knows alice and her password."""
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", users={"alice": SECRET, "informix": "in4mix"}) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user="alice", password=SECRET) as c:
            c.execute("CREATE DATABASE alicedb")
        yield srv


class Collected:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, *texts: object) -> None:
        self.texts.extend(str(t) for t in texts)

    def exception(self, exc: BaseException) -> None:
        self.add(str(exc), repr(exc), *exc.args)
        self.add("".join(traceback.format_exception(exc)))
        seen = set()
        e: BaseException | None = exc
        while e is not None and id(e) not in seen:  # also suppressed contexts
            seen.add(id(e))
            self.add(str(e), repr(e))
            e = e.__cause__ or e.__context__

    def check(self) -> None:
        for text in self.texts:
            for form in FORMS:
                assert form not in text and form not in text.lower(), text


class _Capture(logging.Handler):
    def __init__(self, out: Collected) -> None:
        super().__init__(logging.DEBUG)
        self.out = out
        self.setFormatter(logging.Formatter("%(name)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.out.add(self.format(record))


@pytest.fixture()
def seen() -> Iterator[Collected]:
    """Everything the driver says while the test runs; checked at the end."""
    out = Collected()
    handler = _Capture(out)
    loggers = [logging.getLogger(name) for name in DRIVER_LOGGERS]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield out
        out.add(*(str(w.message) for w in caught))
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)
    out.check()


def fails(out: Collected, fn: Callable[[], object]) -> BaseException:
    """Run ``fn``, which must raise a PEP 249 error; collect all its text."""
    with pytest.raises(ifxwire.Error) as info:
        fn()
    out.exception(info.value)
    return info.value


BAD_URLS = [
    f"informix://alice:{SECRET}@db.example:notaport/stores",
    f"informix://alice:{quote(SECRET, safe='')}@db.example:99999/stores",
    f"informix://alice:{SECRET}@[::1/stores",  # unbalanced IPv6 bracket
    f"mysql://alice:{SECRET}@db.example/stores",
    f"informix://alice:{SECRET}@db.example/stores?tls=maybe",
    f"informix://alice:{SECRET}@db.example/stores?read_timeout=soon",
    f"informix://alice:{SECRET}@db.example/stores?fetch_buffer_size=big",
    f"informix://alice:{SECRET}@db.example/stores?nosuchoption=1",
    f"informix://alice:{SECRET}@db.example/stores?fetch_buffer_size=1",
    # No '@': what looks like a port is the password typed in the wrong place.
    f"informix://alice:{SECRET}/stores",
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_url_errors_do_not_show_the_password(url: str, seen: Collected) -> None:
    exc = fails(seen, lambda: ifxwire.connect(url, connect_timeout=1))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)

    async def go() -> None:
        await aio.connect(url, connect_timeout=1)

    aexc = fails(seen, lambda: asyncio.run(go()))
    assert type(aexc) is type(exc)


@pytest.mark.parametrize(
    "kw",
    [
        {"password": SECRET.encode()},  # not a str
        {"password": SECRET + "\u20ac"},  # not encodable in the connection's code set
        {"user": 5},
        {"port": "notaport"},
        {"statement_cache_size": -1},
        {"env": ["DBDATE"]},
    ],
    ids=["bytes", "unencodable", "user", "port", "cache", "env"],
)
def test_argument_errors_do_not_show_the_password(
    kw: dict[str, Any], alice_server: Any, seen: Collected
) -> None:
    args = {"host": alice_server.host, "port": alice_server.port, "user": "alice"}
    args["password"] = SECRET
    args.update(kw)
    exc = fails(seen, lambda: ifxwire.connect(**args, connect_timeout=2))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)


def test_connection_failures_do_not_show_the_password(
    alice_server: Any, fake: Any, seen: Collected, tmp_path: Path
) -> None:
    host = alice_server.host
    # wrong password, refused port, a login that times out, TLS against a plain server
    fails(seen, lambda: ifxwire.connect(host=host, port=alice_server.port, user="alice",
                                        password=SECRET + "x", trace=True))
    fails(seen, lambda: ifxwire.connect(host=host, port=1, user="alice", password=SECRET))
    fake.silent = True
    fails(seen, lambda: ifxwire.connect(**fake.kwargs(password=SECRET, connect_timeout=0.3)))
    fails(seen, lambda: ifxwire.connect(host=host, port=alice_server.port, user="alice",
                                        password=SECRET, tls=True, connect_timeout=2))
    # sqlhosts that cannot be read, or names an unknown service
    hosts = tmp_path / "sqlhosts"
    hosts.write_text("ifx onsoctcp 127.0.0.1 no_such_service_here\n")
    for path in (str(tmp_path / "missing"), str(hosts)):
        saved = os.environ.get("INFORMIXSQLHOSTS")
        os.environ["INFORMIXSQLHOSTS"] = path
        try:
            fails(seen, lambda: ifxwire.connect(server="ifx", user="alice", password=SECRET))
        finally:
            if saved is None:
                del os.environ["INFORMIXSQLHOSTS"]
            else:
                os.environ["INFORMIXSQLHOSTS"] = saved

    async def go() -> None:
        await aio.connect(host=host, port=alice_server.port, user="alice",
                          password=SECRET + "x", trace=True)

    fails(seen, lambda: asyncio.run(go()))


def test_traces_logs_and_reprs_do_not_show_the_password(
    alice_server: Any, seen: Collected
) -> None:
    kw = {"host": alice_server.host, "port": alice_server.port, "user": "alice"}
    kw["database"] = "alicedb"
    where = f"{alice_server.host}:{alice_server.port}/alicedb"
    url = f"informix://alice:{quote(SECRET, safe='')}@{where}"
    with ifxwire.connect(url, trace=True) as conn:
        cur = conn.cursor()
        cur.execute("SELECT COUNT(*) FROM systables").fetchall()
        seen.add(repr(conn), repr(cur), repr(conn._params), str(conn._params))
    params = resolve(url, {})
    seen.add(repr(params))
    request = ConnectRequest(user="alice", password=SECRET, server="informix")
    seen.add(repr(request), str(request))
    from ifxwire.client.handshake import login_request

    packet, _ = login_request(params, "iso-8859-1")
    seen.add(repr(parse_connect_request(packet)))
    with ifxwire.create_pool(url, max_size=1, trace=True) as pool:
        with pool.connection() as pooled:
            seen.add(repr(pool), repr(pooled))
        fails(seen, lambda: [pool.acquire(timeout=0.1) for _ in range(2)])

    async def go() -> None:
        async with await aio.connect(**kw, password=SECRET, trace=True) as aconn:
            acur = await aconn.execute("SELECT COUNT(*) FROM systables")
            await acur.fetchall()
            seen.add(repr(aconn), repr(acur))

    asyncio.run(go())
    assert any("login" in text for text in seen.texts)  # the trace did run


# ------------------------------------------------------------------------------------------
# IfxPy/ODBC keyword connection strings (issue 23): accepted, and never echoed
# ------------------------------------------------------------------------------------------


def _kwstring(srv: Any, password: str = SECRET, **extra: str) -> str:
    fields = {"SERVER": "informix", "HOST": srv.host, "SERVICE": str(srv.port),
              "PROTOCOL": "onsoctcp", "DATABASE": "alicedb", "UID": "alice",
              "PWD": password} | extra
    return ";".join(f"{k}={v}" for k, v in fields.items())


def test_keyword_connection_string_connects(alice_server: Any, seen: Collected) -> None:
    with ifxwire.connect(_kwstring(alice_server), trace=True) as conn:
        assert conn.database == "alicedb"
        assert conn.execute("SELECT COUNT(*) FROM systables").fetchone()[0] > 0
        seen.add(repr(conn), repr(conn._params))
    # lower-case keywords, blanks, a trailing ';' and a braced password
    text = (f" server = informix ; host={alice_server.host};service={alice_server.port};"
            f"uid=alice;pwd={{{SECRET}}};database=alicedb;")
    with ifxwire.connect(text) as conn:
        assert conn.database == "alicedb"
    with ifxwire.create_pool(_kwstring(alice_server), max_size=1, trace=True) as pool:
        with pool.connection() as pooled:
            seen.add(repr(pool), repr(pooled))
        fails(seen, lambda: [pool.acquire(timeout=0.1) for _ in range(2)])

    async def go() -> str | None:
        async with await aio.connect(_kwstring(alice_server)) as aconn:
            return aconn.database

    assert asyncio.run(go()) == "alicedb"


def test_keyword_string_of_the_issue_fails_without_the_password(seen: Collected) -> None:
    """The issue's own string: host 'h' cannot be reached; the error names h, not PWD."""
    exc = fails(seen, lambda: ifxwire.connect(
        f"SERVER=ol;HOST=h.invalid;SERVICE=9088;UID=u;PWD={SECRET}", connect_timeout=2))
    assert isinstance(exc, ifxwire.OperationalError), repr(exc)
    assert "h.invalid" in str(exc)


@pytest.mark.parametrize(
    "text",
    [
        f"SERVER=ol;HOST=h;SERVICE=notaservice_zz;UID=u;PWD={SECRET}",
        f"SERVER=ol;HOST=h;SERVICE=9088;UID=u;PASSWD={SECRET}",  # unknown keyword
        f"SERVER=ol;HOST=h;PWD={SECRET};PWD={SECRET}",  # twice
        f"SERVER=ol;HOST=h;PROTOCOL=onipcshm;PWD={SECRET}",
        f"SERVER=ol;HOST=h;PWD={{{SECRET}",  # no closing brace
        f"SERVER=ol;HOST=h;PWD={{{SECRET}}}tail",
        f"SERVER=ol;HOST=h;AUTOCOMMIT=maybe;PWD={SECRET}",
        f"SERVER=ol;{SECRET};HOST=h",  # a part without '='
        f"SERVER=ol;HOST=h;SERVICE={SECRET};UID=u",  # the password in the wrong keyword
        f"SERVER=ol;HOST=h;SERVICE=99999;PWD={SECRET}",
        f"SERVER=ol;HOST=h;{SECRET}=x",  # the password as a keyword
    ],
)
def test_bad_keyword_strings_are_refused_without_the_password(
    text: str, seen: Collected
) -> None:
    exc = fails(seen, lambda: ifxwire.connect(text, connect_timeout=1))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)

    async def go() -> None:
        await aio.connect(text, connect_timeout=1)

    fails(seen, lambda: asyncio.run(go()))


@pytest.mark.parametrize(
    "host",
    [
        f"alice:{SECRET}@db.example:9088/stores",  # a URL without its scheme
        f"alice:{SECRET}@db.example",
        f"db.example:{SECRET}",
        f"db.example {SECRET}",
        f"db.example;{SECRET}",
        f"//alice:{SECRET}@db.example",
    ],
)
def test_a_host_that_is_no_host_is_refused_without_echoing_it(
    host: str, seen: Collected
) -> None:
    exc = fails(seen, lambda: ifxwire.connect(host, port=9088, connect_timeout=1))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)
    exc = fails(seen, lambda: ifxwire.connect(host=host, connect_timeout=1))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)
    exc = fails(seen, lambda: ifxwire.connect(host="127.0.0.1", host_secondary=host,
                                              connect_timeout=1))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)


def _jdbc(srv: Any, password: str = SECRET, extra: str = "") -> str:
    return (f"jdbc:informix-sqli://{srv.host}:{srv.port}/alicedb:INFORMIXSERVER=informix;"
            f"user=alice;password={password};DBDATE=Y4MD-{extra}")


def test_jdbc_url_connects(alice_server: Any, seen: Collected) -> None:
    with ifxwire.connect(_jdbc(alice_server), trace=True) as conn:
        assert conn.database == "alicedb"
        assert conn.execute("SELECT COUNT(*) FROM systables").fetchone()[0] > 0
        seen.add(repr(conn), repr(conn._params))
    with ifxwire.create_pool(_jdbc(alice_server), max_size=1) as pool, \
            pool.connection() as pooled:
        assert pooled.database == "alicedb"

    async def go() -> str | None:
        async with await aio.connect(_jdbc(alice_server)) as aconn:
            return aconn.database

    assert asyncio.run(go()) == "alicedb"


@pytest.mark.parametrize(
    "url",
    [
        f"jdbc:informix-sqli://h.invalid:9088/db:user=u;password={SECRET};PASSWD={SECRET}",
        f"jdbc:informix-sqli://h.invalid:9088/db:user=u;password={SECRET};password={SECRET}",
        f"jdbc:informix-sqli://h.invalid:{SECRET}/db:user=u",  # the password as the port
        f"jdbc:informix-sqli://h.invalid:9088/db:user=u;{SECRET}",
        f"jdbc:informix-sqli://h.invalid:9088/db:user=u;password=ab;{SECRET}=x",
        f"jdbc:informix-sqli://alice:{SECRET}@h.invalid:9088/db",  # a URL's user:password@
        f"jdbc:informix-sqli://h.invalid:9088/db:user=u;password={SECRET};SQLH_TYPE=LDAP",
        f"jdbc:informix-direct://h.invalid:9088/db:password={SECRET}",
        f"jdbc:informix-sqli://h.invalid:9088/db:PORTNO_SECONDARY={SECRET}",
    ],
)
def test_bad_jdbc_urls_are_refused_without_the_password(url: str, seen: Collected) -> None:
    exc = fails(seen, lambda: ifxwire.connect(url, connect_timeout=1))
    assert isinstance(exc, ifxwire.InterfaceError), repr(exc)

    async def go() -> None:
        await aio.connect(url, connect_timeout=1)

    fails(seen, lambda: asyncio.run(go()))


def test_a_jdbc_url_to_an_unreachable_host_fails_without_the_password(seen: Collected) -> None:
    exc = fails(seen, lambda: ifxwire.connect(
        f"jdbc:informix-sqli://h.invalid:9088/db:INFORMIXSERVER=ol_x;user=u;password={SECRET}",
        connect_timeout=2))
    assert isinstance(exc, ifxwire.OperationalError), repr(exc)
    assert "h.invalid" in str(exc)


def test_a_wrong_password_in_a_jdbc_url_or_a_keyword_string_is_not_shown(
    alice_server: Any, seen: Collected
) -> None:
    wrong = SECRET[::-1]
    for text in (_jdbc(alice_server, wrong), _kwstring(alice_server, wrong)):
        with pytest.raises(ifxwire.OperationalError) as err:
            ifxwire.connect(text)
        # The refused password is the wrong one: ``seen`` looks for SECRET, so show it that.
        assert wrong not in "".join(traceback.format_exception(err.value))
        seen.exception(err.value)
