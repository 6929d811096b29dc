"""The ODBC/IfxPy keyword connection string, and the check that a host is a host.

IfxPy (and the Informix ODBC driver, and ``ibm_db``'s Informix mode) take a connection as one
string of ``KEYWORD=value`` pairs separated by ``;``::

    SERVER=ol_informix;DATABASE=stores;HOST=db.example;SERVICE=9088;PROTOCOL=onsoctcp;
    UID=informix;PWD=secret

Applications moving from IfxPy carry such strings in their configuration, so ``connect()``
accepts one where it accepts a URL. Keywords are compared without case; a value may be
enclosed in braces (ODBC's rule, so that it may hold ``;``; ``}}`` inside braces is one
``}``). Unknown keywords are refused, named but never with their value: a mistyped ``PWD``
must not end up sent to the server as an environment variable, nor its value shown.

Before this, such a string was taken for a host name, and the connection error repeated it,
password included. Every error here names keywords only; :func:`check_host` refuses, without
repeating it, any host that is neither a name nor an IP address (a URL missing its scheme, a
``user:password@host``, a keyword string), since only such a value can carry a secret.
"""

from __future__ import annotations

import ipaddress
import re
import socket

from ..errors import InterfaceError

__all__ = [
    "check_host",
    "is_jdbc_url",
    "is_keyword_string",
    "parse_jdbc_url",
    "parse_keyword_string",
]

#: IfxPy's keywords (and the ODBC aliases an IfxPy string may hold) -> connect() keyword.
_KEYWORDS: dict[str, str] = {
    "SERVER": "server",
    "HOST": "host",
    "SERVICE": "port",
    "PORT": "port",
    "PROTOCOL": "protocol",
    "DATABASE": "database",
    "DB": "database",
    "UID": "user",
    "USER": "user",
    "PWD": "password",
    "PASSWORD": "password",
    "CLIENT_LOCALE": "client_locale",
    "DB_LOCALE": "db_locale",
    "AUTOCOMMIT": "autocommit",
}

#: sqlhosts network protocols over TCP (Informix Administrator's Guide, "The sqlhosts
#: information"): the ``ssl`` ones mean TLS. Shared memory and pipes cannot be reached from here.
_TCP_PROTOCOLS = frozenset({"onsoctcp", "ontlitcp", "olsoctcp", "oltlitcp", "sesoctcp"})
_TLS_PROTOCOLS = frozenset({"onsocssl", "olsocssl"})

#: A host name: letters (any script), digits, ``.``, ``-`` and ``_``; nothing that could be
#: (or carry) a password, a URL or a keyword string.
_HOST_NAME = re.compile(r"\w[\w.-]*\Z")


def is_keyword_string(text: str) -> bool:
    """True for ``KEY=value;...`` text: no host name or IP address holds ``=``."""
    return "=" in text and "://" not in text


def _pairs(text: str) -> list[tuple[str, str]]:
    """``(KEY, value)`` pairs of ``text``; raises naming the position, never the text."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in "; \t\r\n":
            i += 1
            continue
        eq = text.find("=", i)
        if eq < 0:
            raise InterfaceError(
                f"connection string: the part at position {i} has no '=' (KEYWORD=value;...)"
            )
        key = text[i:eq].strip().upper()
        i = eq + 1
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == "{":
            chars: list[str] = []
            i += 1
            while True:
                if i >= n:
                    raise InterfaceError(f"connection string: the value of {key} has no '}}'")
                if text[i] == "}":
                    if text.startswith("}}", i):
                        chars.append("}")
                        i += 2
                        continue
                    i += 1
                    break
                chars.append(text[i])
                i += 1
            value = "".join(chars)
            semi = text.find(";", i)
            if text[i : n if semi < 0 else semi].strip():
                raise InterfaceError(f"connection string: text after the '}}' of {key}")
            i = n if semi < 0 else semi + 1
        else:
            semi = text.find(";", i)
            end = n if semi < 0 else semi
            value = text[i:end].strip()
            i = end + 1
        out.append((key, value))
    return out


def _port(service: str) -> int | None:
    """SERVICE's port: a number, or a name from the services database; None if neither."""
    if service.isdigit():
        return int(service)
    if not service or not service.isascii():
        return None
    try:
        return socket.getservbyname(service, "tcp")
    except OSError:
        return None


def _unknown(source: str, word: str, key: str, previous: str | None, password_hint: str,
             known: str) -> InterfaceError:
    """The error for an unknown keyword (or JDBC property), showing no value: right after
    the password it is most likely the rest of a password holding ';' (``PWD=ab;cd=1``), so
    not even the key is shown; otherwise the key only, when it looks like one (its text is
    the caller's, never a password, which is a value)."""
    if previous == "password":
        return InterfaceError(f"{source}: an unknown {word} follows the password{password_hint}")
    shown = key if re.fullmatch(r"[A-Z0-9_]{1,40}", key) else f"a {word}"
    return InterfaceError(f"{source}: unknown {word} {shown}; known: {known}")


def parse_keyword_string(text: str) -> dict[str, object]:
    """connect() keywords from an IfxPy/ODBC connection string (see the module docstring).

    A keyword given twice, an unknown keyword, a SERVICE that is neither a port number nor a
    known service name, or a PROTOCOL that is not TCP is refused with InterfaceError naming the
    keyword; values are never shown (PWD's, or a password mistyped into another keyword).
    """
    out: dict[str, object] = {}
    previous: str | None = None
    for key, value in _pairs(text):
        name = _KEYWORDS.get(key)
        if name is None:
            raise _unknown(
                "connection string", "keyword", key, previous,
                "; a password holding ';' must be written in braces (PWD={...})",
                ", ".join(sorted(_KEYWORDS)))
        previous = name
        if name in out:
            raise InterfaceError(f"connection string: {key} is given twice")
        if name == "port":
            port = _port(value)
            if port is None:
                # Raised here, outside any except block: no chained exception holds the value.
                raise InterfaceError(
                    f"connection string: {key} is neither a port number nor a known service name"
                )
            out[name] = port
        elif name == "protocol":
            proto = value.lower()
            if proto in _TLS_PROTOCOLS:
                out["tls"] = True
            elif proto not in _TCP_PROTOCOLS:
                raise InterfaceError(
                    "connection string: PROTOCOL must be a TCP protocol (onsoctcp, olsoctcp, "
                    "onsocssl, ...); shared memory and stream pipes are local to the server host"
                )
            out[name] = proto
        elif name == "autocommit":
            flag = value.strip().lower()
            if flag not in ("0", "1", "true", "false", "yes", "no", "on", "off"):
                raise InterfaceError(f"connection string: {key} must be 1 or 0")
            out[name] = flag in ("1", "true", "yes", "on")
        else:
            out[name] = value
    out.pop("protocol", None)
    return out


# ------------------------------------------------------------------------------------------
# JDBC URLs
# ------------------------------------------------------------------------------------------

#: IBM JDBC connection properties -> connect() keyword. The driver upper-cases property
#: names (its properties class is com.informix.util.AdvancedUppercaseProperties, and its URL
#: parser looks up USER, PASSWORD, DATABASE, PORTNO), so they are compared without case.
_JDBC_PROPERTIES: dict[str, str] = {
    "INFORMIXSERVER": "server",
    "USER": "user",
    "PASSWORD": "password",
    "DATABASE": "database",
    "IFXHOST": "host",
    "PORTNO": "port",
    "DB_LOCALE": "db_locale",
    "CLIENT_LOCALE": "client_locale",
    "INFORMIXSERVER_SECONDARY": "server_secondary",
    "IFXHOST_SECONDARY": "host_secondary",
    "PORTNO_SECONDARY": "port_secondary",
    "SQLH_FILE": "sqlhosts",
    "SQLH_TYPE": "sqlh_type",
    "INFORMIXCONTIME": "connect_timeout",
    "IFX_SOC_KEEPALIVE": "keepalive",
    "SSLCONNECTION": "tls",
    "FET_BUF_SIZE": "fetch_buffer_size",
}

#: The environment variables IBM JDBC sends at login when a URL or the properties set them
#: (com.informix.asf.SqliConnectionProperties, 15.0.0.1: its primary and secondary lists;
#: docs/PROTOCOL.md "Login environment"), less those mapped above: sent to the server as the
#: ``env`` of connect().
_JDBC_ENVIRONMENT = frozenset({
    "INFORMIXSTACKSIZE", "ONEDB_STACKSIZE", "DBSPACETEMP", "SLABEL", "NODEFDAC", "DELIMIDENT",
    "DBDATE", "GL_DATE", "RASHELP", "STMT_CACHE", "STMT_CACHE_DEBUG", "IFX_LONGID", "DBPATH",
    "DBTIME", "DBMAXPROC", "DBTEMP", "DUMPDIR", "DUMPSHMEM", "GCORE", "PSORT_DBTEMP",
    "PSORT_NPROCS", "SHELL", "TZ", "NOSORTINDEX", "SORTINDEX", "DBUPSPACE", "SUBQCACHESZ",
    "NO_KEYFIRST", "NO_PREDPROMOTE", "NO_SUBQF", "PDQPRIORITY", "IFX_DIRECTIVES",
    "IFX_EXTDIRECTIVES", "IFX_XASTDCOMPLIANCE_XAEND", "IFX_NO_OROPT", "IFX_UPDDESC",
    "IFX_FLAT_UCSQ", "OPTCOMPIND", "INFORMIXCONRETRY", "CONNECT_RETRIES", "INFORMIXOPCACHE",
    "GL_DATETIME", "DBCENTURY", "PLCONFIG", "DBANSIWARN", "PATH", "CR_LOCKBLOB", "LOCKSSFU",
    "LIGHT_SCANS", "SQL_FROM_DBIMPORT", "PLOAD_LO_PATH", "OPT_GOAL", "USE_DTENV",
    "CLIENT_LABEL",
})

_JDBC_PREFIX = "jdbc:informix-sqli:"
#: ``//host:port`` (host a name, an IPv4 address or a bracketed IPv6 one), ``/database``,
#: then ``:`` and the properties; or ``/database:...`` alone (the server from sqlhosts).
_JDBC_URL = re.compile(
    r"(?://(?P<host>\[[^\]/]*\]|[^:/;=\[]*)(?::(?P<port>[^/:;=]*))?)?"
    r"(?:/(?P<database>[^:;=/]*))?(?::(?P<props>.*))?\Z",
    re.DOTALL,
)


def is_jdbc_url(text: str) -> bool:
    return text[:5].lower() == "jdbc:"


def _flag(key: str, value: str) -> bool:
    flag = value.strip().lower()
    if flag in ("1", "true", "yes", "on"):
        return True
    if flag in ("0", "false", "no", "off"):
        return False
    raise InterfaceError(f"JDBC URL: {key} must be true or false")


def parse_jdbc_url(url: str) -> dict[str, object]:
    """connect() keywords from an IBM Informix JDBC URL::

        jdbc:informix-sqli://host:9088/stores:INFORMIXSERVER=ol_x;user=u;password=p;DBDATE=Y4MD-

    Property names are compared without case (as IBM JDBC upper-cases them); the properties
    that map to connect() keywords are in ``_JDBC_PROPERTIES``, the login environment
    variables JDBC knows go to the server as ``env``, anything else is refused naming the
    property. No error shows a value or the URL: it holds the password.
    """
    if url[: len(_JDBC_PREFIX)].lower() != _JDBC_PREFIX:
        raise InterfaceError(
            "JDBC URL: only jdbc:informix-sqli: URLs are understood "
            "(jdbc:informix-sqli://host:port/database:INFORMIXSERVER=name;user=...;password=...)"
        )
    m = _JDBC_URL.match(url, len(_JDBC_PREFIX))
    if m is None:
        raise InterfaceError(
            "JDBC URL: expected //host:port[/database][:NAME=value;...] after "
            "jdbc:informix-sqli: (the URL is not shown, as it may hold a password)"
        )
    out: dict[str, object] = {}
    env: dict[str, str] = {}
    host = m.group("host")
    if host:
        out["host"] = host[1:-1] if host.startswith("[") else host
    if m.group("port") is not None:
        port = m.group("port").strip()
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise InterfaceError("JDBC URL: the port after the host is not a port number")
        out["port"] = int(port)
    if m.group("database"):
        out["database"] = m.group("database")
    previous: str | None = None
    for part in (m.group("props") or "").split(";"):
        if not part.strip():
            continue
        if "=" not in part:
            raise InterfaceError(
                "JDBC URL: a property has no '=' (NAME=value;...); it is not shown, as it may "
                "be part of a password"
            )
        raw, value = part.split("=", 1)
        key = raw.strip().upper()
        name = _JDBC_PROPERTIES.get(key)
        if name is None and key in _JDBC_ENVIRONMENT:
            env[key] = value
            previous = key
            continue
        if name is None:
            raise _unknown(
                "JDBC URL", "property", key, previous,
                " (a JDBC URL cannot hold a password with ';': pass it as password=...)",
                f"{', '.join(sorted(_JDBC_PROPERTIES))} and the login environment variables "
                "(DBDATE, OPTCOMPIND, ...)")
        if name in out:
            raise InterfaceError(f"JDBC URL: {key} is given twice (or in the URL and as a "
                                 "property)")
        previous = name
        value = value.strip() if name != "password" else value
        if name in ("port", "port_secondary", "fetch_buffer_size"):
            if not value.isdigit():
                raise InterfaceError(f"JDBC URL: {key} must be a number")
            out[name] = int(value)
        elif name == "connect_timeout":
            if not value.isdigit():
                raise InterfaceError(f"JDBC URL: {key} must be a number of seconds")
            out[name] = float(value)
        elif name in ("keepalive", "tls"):
            out[name] = _flag(key, value)
        elif name == "sqlh_type":
            if value.upper() != "FILE":
                raise InterfaceError("JDBC URL: SQLH_TYPE must be FILE (LDAP is not supported)")
            out[name] = value
        else:
            out[name] = value
    out.pop("sqlh_type", None)
    if env:
        out["env"] = env
    return out


#: Hosts ``check_host`` accepted, and what it returned for each: a program connects to the
#: same few hosts again and again, and the check (a regular expression, maybe an address
#: parse) is then one dict lookup (issue 24's 3 % check). Only accepted values are kept, at
#: most _CHECKED_MAX; a refused one is checked (and refused) every time.
_CHECKED_HOSTS: dict[str, str] = {}
_CHECKED_MAX = 64


def _checked(host: str, result: str) -> str:
    if type(host) is str and len(_CHECKED_HOSTS) < _CHECKED_MAX:
        _CHECKED_HOSTS[host] = result
    return result


def check_host(host: object, option: str = "host") -> str:
    """``host`` as a str if it is a host name or an IP address (IPv6 with or without
    brackets); else InterfaceError that does not repeat it, since a value that is neither may
    be a URL without its scheme, ``user:password@host`` or a keyword string, password and all."""
    if type(host) is str:
        known = _CHECKED_HOSTS.get(host)
        if known is not None:
            return known
    elif not isinstance(host, str):
        raise InterfaceError(f"{option} must be a str or URL, not {type(host).__name__}")
    text = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if _HOST_NAME.match(text):
        return _checked(host, host)
    try:
        ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        return _checked(host, text)
    hint = (
        " (a URL needs its informix:// scheme)" if "@" in host or ":" in host else ""
    )
    raise InterfaceError(
        f"{option} is not a host name, an IP address, an informix:// URL or a "
        f"KEYWORD=value;... connection string{hint}; it is not shown here, as it may hold "
        "a password"
    )
