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

__all__ = ["check_host", "is_keyword_string", "parse_keyword_string"]

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
            if previous == "password":
                # Most likely the rest of a password holding ';' (PWD=ab;cd=1): never shown.
                raise InterfaceError(
                    "connection string: an unknown keyword follows the password; a password "
                    "holding ';' must be written in braces (PWD={...})"
                )
            # The key only: its text is the caller's (never a password, which is a value).
            shown = key if re.fullmatch(r"[A-Z0-9_]{1,40}", key) else "a keyword"
            raise InterfaceError(
                f"connection string: unknown keyword {shown}; known: {', '.join(sorted(_KEYWORDS))}"
            )
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


def check_host(host: object, option: str = "host") -> str:
    """``host`` as a str if it is a host name or an IP address (IPv6 with or without
    brackets); else InterfaceError that does not repeat it, since a value that is neither may
    be a URL without its scheme, ``user:password@host`` or a keyword string, password and all."""
    if not isinstance(host, str):
        raise InterfaceError(f"{option} must be a str or URL, not {type(host).__name__}")
    text = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if _HOST_NAME.match(text):
        return host
    try:
        ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        return text
    hint = (
        " (a URL needs its informix:// scheme)" if "@" in host or ":" in host else ""
    )
    raise InterfaceError(
        f"{option} is not a host name, an IP address, an informix:// URL or a "
        f"KEYWORD=value;... connection string{hint}; it is not shown here, as it may hold "
        "a password"
    )
