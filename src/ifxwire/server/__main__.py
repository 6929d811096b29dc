"""Command line: ``ifxwire-server`` / ``python -m ifxwire.server``."""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import sys

from .. import __version__
from .defences import Limits  # plain Python: importable without the [server] extra

INSTALL_HINT = (
    'ifxwire-server needs the "server" extra ({missing} is not installed):\n'
    '    pip install "ifxwire[server]"'
)


def _parse_users(values: list[str], files: list[str]) -> dict[str, str]:
    users: dict[str, str] = {}
    lines = list(values)
    for path in files:
        with open(path, encoding="utf-8") as fh:
            lines += [ln.strip() for ln in fh if ln.strip() and not ln.startswith("#")]
    for item in lines:
        name, sep, password = item.partition(":")
        if not sep or not name:
            raise SystemExit(f"ifxwire-server: a user must be NAME:PASSWORD, got {item!r}")
        users[name] = password
    return users


def _redirect_target(text: str) -> tuple[str, str, int]:
    """``SERVER@HOST:PORT`` -> (server, host, port), for --redirect-to."""
    server, at, rest = text.partition("@")
    host, colon, port = rest.rpartition(":")
    if not (server and at and host and colon and port.isdigit() and 0 < int(port) < 65536):
        raise argparse.ArgumentTypeError(f"expected SERVER@HOST:PORT, not {text!r}")
    return server, host, int(port)


def _settle_gc() -> None:
    """Move everything the server made at start-up out of the collector's sight.

    Why: Python's cyclic collector runs inside whatever request allocates the object that
    crosses its threshold, and a full (oldest-generation) collection walks every tracked
    object: start-up leaves some 50 000 of them (modules, sqlglot's tables, the engine), which
    live as long as the process. Frozen (``gc.freeze``), they are no longer walked: in six
    must-type runs of libsqli the one full collection took 12.5 ms instead of 40.5 ms, with
    the same server CPU per request (docs/SERVER.md, "Garbage collection"). One collection
    first, so that no start-up garbage is frozen with them. Only the command does this: an
    application that embeds ``Server`` owns its process's collector."""
    gc.collect()
    gc.freeze()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="ifxwire-server", description="An Informix-compatible SQLI server backed by SQLite."
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=9088, help="port (default 9088; 0 = any free)")
    p.add_argument(
        "--data", default=":memory:", help="directory for databases, or :memory: (default)"
    )
    p.add_argument("--server-name", default="informix", help="DBSERVERNAME (default informix)")
    p.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="NAME:PASSWORD",
        help="add a user (repeatable); default informix:in4mix when no user is given",
    )
    p.add_argument(
        "--users-file",
        action="append",
        default=[],
        metavar="FILE",
        help="file of NAME:PASSWORD lines",
    )
    p.add_argument("--trace", action="store_true", help="log every message both ways")
    p.add_argument(
        "--no-strict",
        action="store_true",
        help="accept message groupings outside the documented catalogue",
    )
    p.add_argument(
        "--trace-dir",
        metavar="DIR",
        help="directory where SPL's SET DEBUG FILE may write TRACE output (default: refused)",
    )
    p.add_argument("--log-level", default="INFO",
                   help="INFO (default) or DEBUG: DEBUG logs each session, statement and error")
    p.add_argument("--version", action="version", version=f"ifxwire-server {__version__}")
    p.add_argument("--tls-cert", metavar="PEM",
                   help="serve TLS only, with this certificate chain (docs/SERVER.md, TLS)")
    p.add_argument("--tls-key", metavar="PEM", help="the private key of --tls-cert")
    p.add_argument("--pam", action="store_true",
                   help="log users in with a PAM challenge (\"Password: \") instead of the "
                   "login packet's password (docs/SERVER.md, PAM)")
    d = Limits()
    p.add_argument("--redirect-to", metavar="SERVER@HOST:PORT", type=_redirect_target,
                   help="answer every login with a redirect to that server (a test double of "
                   "a Connection Manager in redirect mode)")
    lim = p.add_argument_group("limits (docs/SERVER.md, Limits)")
    lim.add_argument("--login-timeout", type=float, default=d.login_timeout, metavar="S",
                     help=f"close connections that have not logged in after S seconds "
                     f"(default {d.login_timeout:g}; 0 = never)")
    lim.add_argument("--max-sessions", type=int, default=d.max_sessions, metavar="N",
                     help=f"refuse logins beyond N sessions with -25571 (default {d.max_sessions})")
    lim.add_argument("--max-message-bytes", type=int, default=d.max_message_bytes, metavar="B",
                     help=f"close a session whose request message needs more than B bytes "
                     f"(default {d.max_message_bytes})")
    lim.add_argument("--max-statement-bytes", type=int, default=d.max_statement_bytes,
                     metavar="B", help=f"refuse SQL text over B bytes with -460 "
                     f"(default {d.max_statement_bytes})")
    lim.add_argument("--max-blob-bytes", type=int, default=d.max_blob_bytes, metavar="B",
                     help=f"largest BYTE/TEXT upload, and blob data kept per session "
                     f"(default {d.max_blob_bytes})")
    lim.add_argument("--max-statements", type=int, default=d.max_statements, metavar="N",
                     help=f"refuse a session's PREPARE beyond N statements with -257 "
                     f"(default {d.max_statements})")
    lim.add_argument("--failed-login-limit", type=int, default=d.failed_login_limit,
                     metavar="N", help=f"slow down logins from an address after N failures "
                     f"(default {d.failed_login_limit}; 0 = off)")
    lim.add_argument("--statement-timeout", type=float, default=d.statement_timeout,
                     metavar="S", help=f"interrupt a request after S seconds of engine work "
                     f"with -213 (default {d.statement_timeout:g}; 0 = no limit)")
    lim.add_argument("--send-timeout", type=float, default=d.send_timeout, metavar="S",
                     help=f"close a session whose client reads no reply for S seconds "
                     f"(default {d.send_timeout:g})")
    rl = p.add_mutually_exclusive_group()
    rl.add_argument("--row-locks", dest="row_locks", action="store_true", default=None,
                    help="Informix row locks and isolation levels: writers of different rows "
                    "run at once (docs/SERVER.md, Locks and isolation; without either "
                    "option IFXWIRE_ROW_LOCKS=1|0 says, else the default: on)")
    rl.add_argument("--no-row-locks", dest="row_locks", action="store_false", default=None,
                    help="write conflicts per database, as before row locks (IFXWIRE_ROW_LOCKS"
                    "=0 in the environment does the same)")
    args = p.parse_args(argv)
    try:
        # after argument parsing: --help works without the [server] extra (sqlglot)
        from .listener import DEFAULT_USERS, Server
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("sqlglot"):
            raise
        print(INSTALL_HINT.format(missing=exc.name), file=sys.stderr)
        return 1
    logging.basicConfig(
        level=getattr(logging, args.log_level.upper(), logging.INFO),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    users = _parse_users(args.user, args.users_file) or dict(DEFAULT_USERS)
    srv = Server(
        args.host,
        args.port,
        args.data,
        server_name=args.server_name,
        users=users,
        trace=args.trace,
        strict=not args.no_strict,
        trace_dir=args.trace_dir,
        login_timeout=args.login_timeout,
        max_sessions=args.max_sessions,
        max_message_bytes=args.max_message_bytes,
        max_statement_bytes=args.max_statement_bytes,
        max_blob_bytes=args.max_blob_bytes,
        max_statements=args.max_statements,
        failed_login_limit=args.failed_login_limit,
        statement_timeout=args.statement_timeout or None,
        send_timeout=args.send_timeout,
        row_locks=args.row_locks,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        pam=args.pam,
        redirect_to=args.redirect_to,
    )
    srv.start()
    _settle_gc()
    print(f"ifxwire-server listening on {srv.host}:{srv.port}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: srv._stopping.set())
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
