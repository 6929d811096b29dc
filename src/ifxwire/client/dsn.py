"""Where to connect and how: keyword arguments, ``informix://`` URLs, IfxPy/ODBC keyword
connection strings (client/connstr.py), the sqlhosts file.

Informix users already describe servers in two places: the ``INFORMIXSERVER`` variable names a
server, and the sqlhosts file (``INFORMIXSQLHOSTS``) maps server names to host and port. A
driver that ignores them makes every application carry a second copy of that configuration, so
``connect()`` falls back on them when host and port are not given. sqlhosts groups (a
``group`` line and members marked ``g=<group>``) become an ordered list of addresses to try.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

from ..errors import InterfaceError
from .connstr import (
    check_host,
    is_jdbc_url,
    is_keyword_string,
    parse_jdbc_url,
    parse_keyword_string,
)
from .sqlhosts import Address, lookup_sqlhosts, sqlhosts_path

if TYPE_CHECKING:
    import ssl

__all__ = [
    "Address",
    "ConnectParams",
    "lookup_sqlhosts",
    "member_params",
    "parse_url",
    "redirected_params",
    "resolve",
    "unreachable",
]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9088
DEFAULT_SERVER = "informix"


@dataclass(slots=True)
class ConnectParams:
    """Every connection setting after URL, keywords, environment and sqlhosts are merged."""

    addresses: list[Address]
    user: str | None = None
    password: str | None = None
    database: str | None = None
    server: str = DEFAULT_SERVER
    autocommit: bool = False
    connect_timeout: float | None = 15.0
    read_timeout: float | None = None
    #: Seconds each request may run on the server before the driver cancels it (-213).
    statement_timeout: float | None = None
    keepalive: bool = False
    client_locale: str = "en_US.8859-1"
    db_locale: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    tls: bool | ssl.SSLContext = False
    tls_server_hostname: str | None = None
    fetch_buffer_size: int = 65536
    statement_cache_size: int = 128
    lob_materialize_limit: int = 0
    keep_char_padding: bool = False
    pipelined_connect: bool = True
    trace: bool = False
    #: The sqlhosts file to read (JDBC's SQLH_FILE); None: $INFORMIXSQLHOSTS and so on.
    sqlhosts: str | None = None
    #: JDBC's HA pair (IFXHOST_SECONDARY, PORTNO_SECONDARY, INFORMIXSERVER_SECONDARY):
    #: tried after the primary's addresses when those cannot be reached.
    host_secondary: str | None = None
    port_secondary: int | None = None
    server_secondary: str | None = None
    #: Answers the server's PAM challenges (client/pamauth.py); None: no PAM.
    pam_callback: Any = None
    #: How many login redirects (SL type 13) to follow; 0 raises them (docs/DRIVER.md §16).
    max_redirects: int = 0

    def __repr__(self) -> str:
        # Never show the password, not even in a debugger or a log of the params object.
        shown = replace(self, password="***" if self.password is not None else None)
        return (
            "ConnectParams("
            + ", ".join(f"{name}={getattr(shown, name)!r}" for name in self.__slots__)
            + ")"
        )


_BOOL_TRUE = frozenset({"1", "true", "yes", "on"})
_BOOL_FALSE = frozenset({"0", "false", "no", "off"})
_BOOL_OPTIONS = frozenset(
    {"autocommit", "keepalive", "tls", "keep_char_padding", "pipelined_connect", "trace"}
)
_FLOAT_OPTIONS = frozenset({"connect_timeout", "read_timeout", "statement_timeout"})
_INT_OPTIONS = frozenset(
    {"fetch_buffer_size", "statement_cache_size", "lob_materialize_limit", "port_secondary",
     "max_redirects"}
)
_STR_OPTIONS = frozenset(
    {"server", "client_locale", "db_locale", "tls_server_hostname", "sqlhosts",
     "host_secondary", "server_secondary"}
)


def _to_bool(name: str, value: str) -> bool:
    v = value.strip().lower()
    if v in _BOOL_TRUE:
        return True
    if v in _BOOL_FALSE:
        return False
    raise InterfaceError(f"URL option {name}={value!r} is not a boolean (use true or false)")


def _redacted(url: str) -> str:
    """The URL as an error may show it: no user information (it holds the password), no
    query, and without an ``@`` nothing after the host's ``:``, which is then as likely a
    misplaced password as a mistyped port."""
    scheme, sep, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    if "@" in authority:
        authority = "***@" + authority.rpartition("@")[2]
    elif ":" in authority:
        authority = authority.partition(":")[0] + ":***"
    return f"{scheme}{sep}{authority}{slash}{path.partition('?')[0]}"


def parse_url(url: str) -> dict[str, object]:
    """Split ``informix://user:pass@host:port/db?option=value&...`` into keyword arguments.

    Options are the keyword names of ``connect()``; an option spelled in upper case (DBDATE,
    OPTCOMPIND, ...) is passed to the server as an environment variable. Errors never show
    the password (see ``_redacted``), and are raised outside ``except`` blocks so that no
    chained exception carries the URL either.
    """
    malformed = False
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        malformed = True
    if malformed:
        raise InterfaceError(f"invalid host or port in URL {_redacted(url)!r}")
    if parts.scheme.lower() not in ("informix", "ifx", "ifxwire"):
        raise InterfaceError(f"unsupported URL scheme {parts.scheme!r}; use informix://")
    out: dict[str, object] = {}
    if parts.hostname:
        out["host"] = parts.hostname
    if port is not None:
        out["port"] = port
    if parts.username:
        out["user"] = unquote(parts.username)
    if parts.password is not None:
        out["password"] = unquote(parts.password)
    db = unquote(parts.path.lstrip("/"))
    if db:
        out["database"] = db
    env: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name in _BOOL_OPTIONS:
            out[name] = _to_bool(name, value)
        elif name in _FLOAT_OPTIONS:
            try:
                out[name] = float(value) if value else None
            except ValueError:
                raise InterfaceError(f"URL option {name}={value!r} is not a number") from None
        elif name in _INT_OPTIONS:
            try:
                out[name] = int(value)
            except ValueError:
                raise InterfaceError(f"URL option {name}={value!r} is not an integer") from None
        elif name in _STR_OPTIONS:
            out[name] = value
        elif name.isupper():
            env[name] = value
        else:
            raise InterfaceError(
                f"unknown URL option {name!r}; options are connect() keywords, and upper-case "
                "names are sent as environment variables"
            )
    if env:
        out["env"] = env
    return out


def resolve(dsn_or_host: str | None, given: Mapping[str, object]) -> ConnectParams:
    """Merge a URL (if any), explicit keywords (non-None wins), environment and sqlhosts."""
    if dsn_or_host is not None and not isinstance(dsn_or_host, str):
        raise InterfaceError(f"host must be a str or URL, not {type(dsn_or_host).__name__}")
    values: dict[str, object] = {}
    if dsn_or_host is None:
        pass
    elif ":" not in dsn_or_host and "=" not in dsn_or_host:
        # A host name or an IPv4 address (the common case): no URL, JDBC URL, keyword string
        # or IPv6 address is without both, so the three format checks below are skipped.
        values["host"] = dsn_or_host
    elif is_jdbc_url(dsn_or_host):
        values.update(parse_jdbc_url(dsn_or_host))
    elif "://" in dsn_or_host:
        values.update(parse_url(dsn_or_host))
    elif is_keyword_string(dsn_or_host):
        values.update(parse_keyword_string(dsn_or_host))
    else:
        values["host"] = dsn_or_host
    env: dict[str, str] = {}
    url_env = values.pop("env", None)
    if isinstance(url_env, dict):
        env.update(url_env)
    # A comprehension, not a loop with branches: connect() passes every keyword, most None.
    values.update({key: value for key, value in given.items() if value is not None})
    given_env = values.pop("env", None)
    if given_env is not None:
        if not isinstance(given_env, Mapping):
            raise InterfaceError("env must be a mapping of variable names to values")
        env.update({str(k): str(v) for k, v in given_env.items()})
    named = values.pop("server", None) or os.environ.get("INFORMIXSERVER")
    server = named or DEFAULT_SERVER
    host = values.pop("host", None)
    if host is not None:
        host = check_host(host)
    if values.get("host_secondary") is not None:
        values["host_secondary"] = check_host(values["host_secondary"], "host_secondary")
    port = values.pop("port", None)
    tls = values.get("tls")
    sqlhosts = values.get("sqlhosts")
    if sqlhosts is not None and not isinstance(sqlhosts, str):
        raise InterfaceError(f"sqlhosts must be a str, not {type(sqlhosts).__name__}")
    if not isinstance(server, str):
        raise InterfaceError(f"server must be a str, not {type(server).__name__}")
    addresses: list[Address]
    if host is None and port is None:
        addresses = lookup_sqlhosts(server, sqlhosts)
        if not addresses:
            path = sqlhosts_path(sqlhosts)
            if path is not None or named:
                # A server the configuration does not know is an error, never a guess.
                where = (f"the sqlhosts file {path!r}" if path is not None else
                         "no sqlhosts file (set INFORMIXSQLHOSTS or the sqlhosts option)")
                raise InterfaceError(
                    f"server {server!r} is not in {where}; give host and port, or add it"
                )
            addresses = [Address(DEFAULT_HOST, DEFAULT_PORT)]
    else:
        if port is not None and not isinstance(port, int):
            try:
                port = int(str(port))
            except ValueError:
                raise InterfaceError(f"port must be an integer, not {port!r}") from None
        addresses = [
            Address(
                DEFAULT_HOST if host is None else str(host), DEFAULT_PORT if port is None else port
            )
        ]
    addresses += _secondary(values, sqlhosts)
    if tls is None:
        for a in addresses:  # a loop, not any(<generator>): cheaper for the one address
            if a.tls:
                values["tls"] = True
                break
    for key, value in values.items():
        if key not in _OPTIONS:
            raise InterfaceError(f"unknown connection option {key!r}")
        kind = _KINDS.get(key)
        if kind is not None and (type(value) not in kind[0] or kind is _SECONDS):
            _check_option(key, value, kind)
    params = ConnectParams(addresses=addresses, server=server, env=env, **values)  # type: ignore[arg-type]
    for addr in addresses:
        if not 0 < addr.port < 65536:
            raise InterfaceError(f"port must be between 1 and 65535, not {addr.port}")
    if params.pam_callback is not None and not callable(params.pam_callback):
        raise InterfaceError("pam_callback must be callable (a PamChallenge in, a str out)")
    if params.fetch_buffer_size < 1024:
        raise InterfaceError("fetch_buffer_size must be at least 1024 bytes")
    if params.statement_cache_size < 0:
        raise InterfaceError("statement_cache_size must be 0 (off) or positive")
    if params.lob_materialize_limit < 0:
        raise InterfaceError("lob_materialize_limit must be 0 (off) or positive")
    if params.max_redirects < 0:
        raise InterfaceError("max_redirects must be 0 (none followed) or positive")
    return params


def _secondary(values: Mapping[str, object], sqlhosts: object) -> list[Address]:
    """JDBC's secondary server (ENABLE_HDRSWITCH): an address of its own, or the sqlhosts
    entries of ``server_secondary``."""
    host = values.get("host_secondary")
    port = values.get("port_secondary")
    name = values.get("server_secondary")
    if host is None and port is None and name is None:
        return []
    if name is not None and not isinstance(name, str):
        raise InterfaceError(f"server_secondary must be a str, not {type(name).__name__}")
    if host is None and port is None:
        found = lookup_sqlhosts(str(name), sqlhosts if isinstance(sqlhosts, str) else None)
        if not found:
            raise InterfaceError(f"server_secondary {name!r} is not in the sqlhosts file")
        return found
    if port is not None and type(port) is not int:
        raise InterfaceError(f"port_secondary must be an int, not {type(port).__name__}")
    return [Address(DEFAULT_HOST if host is None else str(host),
                    DEFAULT_PORT if port is None else port, server=name)]


#: The types an option must have (a value of a listed exact type skips the check, except for
#: timeouts, whose range is checked too), and how to say so. Values are never shown: one of
#: them is the password.
_STR = ((str,), "a str")
_SECONDS = ((float, int), "a number of seconds or None")
_COUNT = ((int,), "an int")
_FLAG = ((bool, int), "a bool")  # a str such as "no" would otherwise count as true
_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "autocommit": _FLAG,
    "keepalive": _FLAG,
    "keep_char_padding": _FLAG,
    "pipelined_connect": _FLAG,
    "trace": _FLAG,
    "user": _STR,
    "password": _STR,
    "database": _STR,
    "client_locale": _STR,
    "db_locale": _STR,
    "tls_server_hostname": _STR,
    "sqlhosts": _STR,
    "host_secondary": _STR,
    "server_secondary": _STR,
    "port_secondary": _COUNT,
    "connect_timeout": _SECONDS,
    "read_timeout": _SECONDS,
    "statement_timeout": _SECONDS,
    "fetch_buffer_size": _COUNT,
    "statement_cache_size": _COUNT,
    "max_redirects": _COUNT,
}


#: The options resolve() takes from its caller (addresses are its own result).
_OPTIONS = frozenset(ConnectParams.__slots__) - {"addresses"}


def _check_option(name: str, value: object, kind: tuple[tuple[type, ...], str]) -> None:
    """Raise InterfaceError unless ``value`` suits option ``name`` (a subclass may; bool does
    not count as a number), naming the option, never the value."""
    types, want = kind
    if (isinstance(value, bool) and kind is not _FLAG) or not isinstance(value, types):
        raise InterfaceError(f"{name} must be {want}, not {type(value).__name__}")
    if kind is _SECONDS:
        seconds = float(value)  # type: ignore[arg-type]
        if not (seconds > 0 and math.isfinite(seconds)):
            raise InterfaceError(f"{name} must be positive and finite (None: none), not {value}")


def member_params(params: ConnectParams) -> list[tuple[Address, ConnectParams]]:
    """Each address to try, with the connection settings to log in there: a group member
    (or the secondary server) is logged in to with its own server name."""
    return [
        (addr, params if addr.server is None or addr.server == params.server
         else replace(params, server=addr.server))
        for addr in params.addresses
    ]


def redirected_params(
    params: ConnectParams, server: str, host: str, port: int
) -> tuple[Address, ConnectParams]:
    """Where to log in after a redirect: the target's address, logged in to with the target's
    server name, with one redirect fewer left (so a loop of redirects ends)."""
    return Address(host, port, server=server), replace(
        params, server=server, max_redirects=params.max_redirects - 1)


def unreachable(exc: BaseException) -> bool:
    """A failure that makes the next address worth trying: the server could not be
    reached, did not answer in time, or dropped the connection (SQLSTATE 08001/08006/08S01).
    A refused login (a wrong password, an unknown server name) is final."""
    return getattr(exc, "sqlcode", None) in (None, 0) and getattr(exc, "sqlstate", "") in (
        "08001", "08006", "08S01")
