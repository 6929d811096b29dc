"""The ``ifxwire`` command (also ``python -m ifxwire``)."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from .. import Error, __version__, connect
from ..client.dsn import parse_url
from .output import FORMATS
from .session import Settings, ShellSession

EPILOG = """\
Without a URL or host, the server is found the way the driver finds it: INFORMIXSERVER and
the sqlhosts file (INFORMIXSQLHOSTS or $INFORMIXDIR/etc/sqlhosts).
Exit status: 0 when every statement succeeded, 1 when one failed, 2 when the connection or
the command line did.
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ifxwire", description="Interactive SQL shell for Informix (ifxwire driver).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url", nargs="?",
                   help="informix://user:password@host:port/database?option=value")
    p.add_argument("-H", "--host")
    p.add_argument("-p", "--port", type=int)
    p.add_argument("-U", "--user")
    p.add_argument("-P", "--password", help="(prompted for when a user is given without one)")
    p.add_argument("-d", "--database")
    p.add_argument("-s", "--server", help="INFORMIXSERVER name (default $INFORMIXSERVER)")
    p.add_argument("-e", "--execute", action="append", default=[], metavar="SQL",
                   help="run SQL (repeatable) and exit")
    p.add_argument("-f", "--file", action="append", default=[], metavar="FILE",
                   help="run the statements in FILE ('-' for standard input) and exit")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")
    p.add_argument("-x", "--vertical", action="store_true", help="vertical output")
    p.add_argument("--timing", action="store_true", help="print each statement's time")
    p.add_argument("--null", default="", metavar="TEXT", help="how NULL is printed")
    p.add_argument("--echo", action="store_true", help="print each statement before it runs")
    p.add_argument("--keep-going", action="store_true",
                   help="in scripts, run the remaining statements after an error")
    p.add_argument("--progress-after", type=float, default=1.0, metavar="SECONDS",
                   help="show fetch progress on stderr after this long (default 1)")
    p.add_argument("--history", metavar="FILE",
                   help="history file (default $IFXWIRE_HISTFILE or ~/.ifxwire_history)")
    p.add_argument("--version", action="version", version=f"ifxwire {__version__}")
    return p


def open_connection(args: argparse.Namespace) -> Any:
    password = args.password
    user = args.user
    if args.url:
        given = parse_url(args.url)
        user = user or given.get("user")
        password = password if password is not None else given.get("password")
    if user and password is None and sys.stdin.isatty():
        password = getpass.getpass(f"Password for {user}: ")
    # keywords override what the URL says; the URL takes the host argument's place
    return connect(args.url or args.host, port=args.port, user=args.user,
                   password=password, database=args.database, server=args.server,
                   autocommit=True)


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.url and args.host:
        p.error("give the host in the URL or with --host, not both")
    try:
        conn = open_connection(args)
    except Error as exc:
        print(f"ifxwire: cannot connect: {exc}", file=sys.stderr)
        return 2
    settings = Settings(format="vertical" if args.vertical else args.format,
                        timing=args.timing, null=args.null, echo=args.echo,
                        progress_after=args.progress_after)
    shell = ShellSession(conn, settings)
    try:
        scripted = bool(args.execute or args.file) or not sys.stdin.isatty()
        if scripted:
            sources = _read_sources(args)
            if sources is None:
                return 2
            return 0 if _run_scripts(shell, sources, args.keep_going) else 1
        try:
            from .app import history_path, interact
        except ImportError as exc:
            print(f"ifxwire: the interactive shell needs prompt_toolkit and Pygments "
                  f"({exc.name} is missing): pip install \"ifxwire[shell]\"", file=sys.stderr)
            return 2
        return interact(shell, Path(args.history) if args.history else history_path())
    finally:
        conn.close()


def _read_sources(args: argparse.Namespace) -> list[str] | None:
    """The script texts, in order: -e arguments, -f files, else piped standard input."""
    sources: list[str] = list(args.execute)
    for name in args.file:
        try:
            sources.append(sys.stdin.read() if name == "-" else
                           Path(name).read_text(encoding="utf-8"))
        except OSError as exc:
            print(f"ifxwire: cannot read {name}: {exc.strerror}", file=sys.stderr)
            return None
    if not args.execute and not args.file:
        sources.append(sys.stdin.read())
    return sources


def _run_scripts(shell: ShellSession, sources: list[str], keep_going: bool) -> bool:
    ok = True
    for text in sources:
        if not shell.run_text(text, keep_going=keep_going):
            ok = False
            if not keep_going:
                break
        if shell.quit:
            break
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
