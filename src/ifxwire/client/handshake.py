"""Login and session setup, sans-I/O: the bytes to send and the checks on what comes back.

Kept apart from the connection so an asyncio connection can run the same handshake with its
own I/O. The order and content follow JDBC (jdbc-protocol.md 1-2); see docs/DRIVER.md §1 for
what is deliberately different (no PAM claim, no database in the login packet).
"""

from __future__ import annotations

import getpass
import os
import socket
import threading
from functools import lru_cache

from .. import errors as _e
from ..errors import InterfaceError, OperationalError
from ..protocol import messages as m
from ..protocol.codes import CLIENT_PROTOCOLS
from ..protocol.login import (
    ConnectRequest,
    ConnectResponse,
    RedirectTarget,
    build_connect_request,
    parse_redirect,
)
from ..protocol.wire import Writer
from .dsn import Address, ConnectParams, redirected_params

__all__ = [
    "CAP_TWO_GB_FETCH",
    "Redirected",
    "check_login",
    "follow_redirect",
    "login_request",
    "session_groups",
    "version_number",
]

#: SQ_PROTOCOLS bit 63: the server takes NFETCH buffer sizes beyond 32 KiB.
CAP_TWO_GB_FETCH = 63
#: SQ_PROTOCOLS bit 44: a PAM conversation follows the capability exchange (JDBC
#: ``IfxSqliConnect.isPAMAuthentication``).
CAP_PAM = 44
#: The secondary environment JDBC sends (jdbc-protocol.md 2.3), plus OPTOFC=1 so the server
#: closes exhausted cursors itself and the driver never pays a CLOSE for them.
SESSION_ENV = [(b"DBTEMP", b"/tmp"), (b"SUBQCACHESZ", b"10"), (b"OPTOFC", b"1")]


def _safe_cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return "/"


def login_request(params: ConnectParams, encoding: str) -> tuple[bytes, str]:
    """The connection request packet and the user name it carries."""
    env = _login_env(
        params.client_locale,
        params.db_locale,
        params.pam_callback is not None,
        tuple(params.env.items()) if params.env else (),
    )
    user = params.user if params.user is not None else getpass.getuser()
    pid = os.getpid()
    try:
        packet = _connect_packet(
            user,
            params.password,
            params.server,
            env,
            pid,
            threading.get_ident() & 0x7FFFFFFF,
            socket.gethostname(),
            _safe_cwd(),
            encoding,
        )
    except UnicodeEncodeError:
        packet = b""  # raised below, outside this block: no chained error holds the value
    if not packet:
        raise InterfaceError(_unencodable(params, user, dict(env), encoding))
    return packet, user


@lru_cache(maxsize=32)
def _login_env(
    client_locale: str, db_locale: str | None, pam: bool, extra: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    """The environment the login packet carries; cached, as every connect repeats it."""
    env = {
        "CLIENT_LOCALE": client_locale,
        "DBDATE": "Y4MD-",
        "NODEFDAC": "no",
        "DBPATH": ".",
        "IFX_UPDDESC": "1",
    }
    # A client without DB_LOCALE sets it to its client locale (GLS User's Guide, "Set a
    # nondefault locale"), and character data travels in that code set (PROTOCOL.md §2).
    env["DB_LOCALE"] = db_locale or client_locale
    if pam:
        env["CLNT_PAM_CAPABLE"] = "1"  # JDBC always sends it; we only when we can do PAM
    env.update(extra)
    return tuple(env.items())


def _unencodable(params: ConnectParams, user: str, env: dict[str, str], encoding: str) -> str:
    """Which login field the code set cannot carry, without showing the password."""
    fields = [("the password", params.password), (f"the user name {user!r}", user)]
    fields.append((f"the server name {params.server!r}", params.server))
    fields += [(f"the environment variable {k!r}", f"{k}{v}") for k, v in env.items()]
    what = "the host name or working directory"
    for label, value in fields:
        try:
            (value or "").encode(encoding)
        except UnicodeEncodeError:
            what = label
            break
    return (
        f"{what} cannot be encoded in the connection's code set ({encoding}); "
        "choose a client_locale whose code set has its characters"
    )


@lru_cache(maxsize=32)
def _connect_packet(
    user: str,
    password: str | None,
    server: str,
    env: tuple[tuple[str, str], ...],
    pid: int,
    thread_id: int,
    hostname: str,
    cwd: str,
    encoding: str,
) -> bytes:
    """The connection request for these values; cached, as reconnects repeat them exactly."""
    req = ConnectRequest(
        user=user,
        password=password,
        server=server,
        database=None,  # a name here makes a real server's DBOPEN fail with -759
        env=dict(env),
        pid=pid,
        thread_id=thread_id,
        hostname=hostname,
        cwd=cwd,
        app_name=f"ifxwire@pid{pid}",
    )
    return build_connect_request(req, encoding)


class Redirected(OperationalError):
    """The server answered the login with a redirect (SL type 13) to ``target``.

    Raised to the caller when ``max_redirects`` is spent (0 by default): a redirect makes the
    client connect where the *server* says, so following it is the caller's choice
    (docs/DRIVER.md §16). ``near`` holds the target as ``server@host:port``.
    """

    target: RedirectTarget | None = None


def follow_redirect(member: ConnectParams, exc: Redirected) -> tuple[Address, ConnectParams]:
    """Where to log in next after ``exc`` (sync and asyncio connect alike): the target under
    its own server name, one redirect fewer left; ``exc`` itself when none may be followed."""
    target = exc.target
    if member.max_redirects <= 0 or target is None:
        raise exc
    return redirected_params(member, target.server, target.host, target.port)


def check_login(resp: ConnectResponse) -> None:
    """Raise the PEP 249 error for a refused or redirected login."""
    if resp.redirect is not None:
        try:
            target = parse_redirect(resp.redirect)
        except ValueError as exc:
            raise _e.protocol_error(f"login redirect: {exc}") from None
        where = f"{target.server}@{target.host}:{target.port}"
        err = Redirected(
            f"the server redirects this login to server {target.server!r} at "
            f"{target.host}:{target.port}; pass max_redirects=N to follow redirects",
            sqlstate="08004",
            near=where,
        )
        err.target = target
        raise err
    if not resp.accepted:
        code = resp.svc_error or -951
        base = _e.error_from_server(code, resp.os_error)
        raise OperationalError(
            f"login rejected: {base.message}",
            sqlcode=code,
            isamcode=base.isamcode,
            sqlstate="28000" if code == -951 else "08004",
        )


def version_number(version: str) -> str:
    """``"IBM Informix Dynamic Server Version 14.10.FC9"`` -> ``"14.10.FC9"``."""
    return version.split("Version", 1)[1].strip() if "Version" in version else version


def is_internal_version(number: str) -> bool:
    """Whether a login version number is Informix's internal protocol version rather than the
    release: real 12.10 servers announce 9.56 and 14.10 servers 9.59 in the login reply, 15
    its release (informix-driver CHANGELOG 2026.08.31 and 2026.08.27, its
    ``test_capabilities.py::test_server_version_reports_release_not_protocol_version``)."""
    major = number.split(".", 1)[0]
    return major.isdigit() and int(major) < 10


def session_groups(database: str | None, encoding: str) -> list[bytes]:
    """PROTOCOLS, INFO and (with a database) DBOPEN, each its own group, in JDBC's order."""
    return list(_session_groups(database, encoding))


@lru_cache(maxsize=32)
def _session_groups(database: str | None, encoding: str) -> tuple[bytes, ...]:
    # Cached: the same bytes on every connect to the same database.
    groups: list[bytes] = []
    w = Writer()
    m.put_protocols(w, CLIENT_PROTOCOLS)
    m.put_eot(w)
    groups.append(bytes(w.buf))
    w = Writer()
    m.put_info_env(w, SESSION_ENV)
    m.put_eot(w)
    groups.append(bytes(w.buf))
    if database:
        w = Writer()
        m.put_dbopen(w, database.encode(encoding))
        m.put_eot(w)
        groups.append(bytes(w.buf))
    return tuple(groups)
