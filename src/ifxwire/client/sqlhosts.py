"""The sqlhosts file: server names to addresses, server groups for failover.

Lines are ``dbservername nettype hostname servicename [options]`` (``#`` starts a comment).
What is read, and where each rule comes from (IBM JDBC 15.0.0.1 bytecode,
``com.informix.jns.FileSqlhosts``, ``com.informix.asf.JnsObject``, ``com.informix.asf.Connection``;
docs/DRIVER.md §16):

* a ``group`` line makes its name stand for its members, the lines whose ``g=`` option names
  the group (compared without case, as ``FileSqlhosts.collectGroups`` does), in file order,
  ending at the member the group's ``e=`` option names; ``c=1`` on the group starts at a
  random member (``JnsObject.getIfOptionC_One``) and goes round;
* each member is tried in turn and logged in to **with its own server name**: a member
  answers a login that names another server with -761 (``asf.Connection`` takes the
  member's name from the group for each attempt);
* a host name's leading ``*`` (listen on every interface) is dropped, and a service name is
  looked up in the services database (``JnsObject.getServiceByName``);
* a nettype ending in ``ssl`` (``onsocssl``) means TLS; shared-memory and stream-pipe entries
  cannot be reached over TCP and are skipped.
"""

from __future__ import annotations

import os
import random
import socket
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import InterfaceError

__all__ = ["Address", "lookup_sqlhosts", "sqlhosts_path"]


class Address(NamedTuple):
    """One address to try. A NamedTuple, not a frozen dataclass: every connect makes one, and
    a frozen dataclass's __init__ costs twice as much."""

    host: str
    port: int
    tls: bool = False
    #: The server name to log in with at this address (a group member's own name); None:
    #: the connection's ``server``.
    server: str | None = None


@dataclass(frozen=True, slots=True)
class _Line:
    name: str
    nettype: str
    host: str
    service: str
    options: dict[str, str]
    where: str


def sqlhosts_path(explicit: str | None = None) -> str | None:
    """The sqlhosts file in use: ``explicit`` (the ``sqlhosts`` option), else
    ``$INFORMIXSQLHOSTS``, else ``$INFORMIXDIR/etc/sqlhosts`` if it exists."""
    if explicit:
        return explicit
    path = os.environ.get("INFORMIXSQLHOSTS")
    if path:
        return path
    home = os.environ.get("INFORMIXDIR")
    if home:
        candidate = os.path.join(home, "etc", "sqlhosts")
        if os.path.exists(candidate):
            return candidate
    return None


def _service_port(service: str, where: str) -> int:
    if service.isdigit():
        return int(service)
    try:
        return socket.getservbyname(service, "tcp")
    except OSError:
        raise InterfaceError(f"{where}: unknown service name {service!r}") from None


def _read(path: str) -> list[_Line]:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError as exc:
        raise InterfaceError(f"cannot read sqlhosts file {path!r}: {exc}") from None
    lines = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        fields = raw.split("#", 1)[0].split()
        if len(fields) < 4:
            continue
        options = dict(
            opt.split("=", 1) for rest in fields[4:] for opt in rest.split(",") if "=" in opt
        )
        lines.append(_Line(fields[0], fields[1].lower(), fields[2], fields[3], options,
                           f"{path}:{lineno}"))
    return lines


def _address(line: _Line) -> Address | None:
    if "shm" in line.nettype or "str" in line.nettype or line.nettype == "group":
        return None
    host = line.host.lstrip("*") or "127.0.0.1"
    return Address(host, _service_port(line.service, line.where), line.nettype.endswith("ssl"),
                   line.name)


def lookup_sqlhosts(server: str, path: str | None = None) -> list[Address]:
    """The addresses to try for ``server``, each with the server name to log in with; empty
    when the file does not name it (or no sqlhosts file is configured)."""
    path = sqlhosts_path(path)
    if not path:
        return []
    lines = _read(path)
    group = next((ln for ln in lines if ln.name == server and ln.nettype == "group"), None)
    if group is None:
        return [a for ln in lines if ln.name == server and (a := _address(ln)) is not None]
    members: list[Address] = []
    last = group.options.get("e")
    for ln in lines:
        if ln.options.get("g", "").lower() != server.lower():
            continue
        addr = _address(ln)
        if addr is not None:
            members.append(addr)
        if last is not None and ln.name.lower() == last.lower():
            break
    if group.options.get("c") == "1" and members:
        start = random.randrange(len(members))
        members = members[start:] + members[:start]
    return members
