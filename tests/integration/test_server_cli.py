"""The ``ifxwire-server`` command: --version, the message when the [server] extra is missing,
and what --log-level DEBUG logs (sessions, statements, errors)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ifxwire


def test_version() -> None:
    done = subprocess.run([sys.executable, "-m", "ifxwire.server", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"ifxwire-server {ifxwire.__version__}"


def test_without_the_server_extra_says_how_to_install_it() -> None:
    # sqlglot hidden the way a missing package is: the import fails with its name
    code = ("import sys; sys.modules['sqlglot'] = None\n"
            "from ifxwire.server.__main__ import main\n"
            "raise SystemExit(main(['--port', '0']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert 'pip install "ifxwire[server]"' in done.stderr


def test_debug_log_shows_sessions_statements_and_errors() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--log-level", "DEBUG"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("ifxwire-server listening on "), line
        port = int(line.rsplit(":", 1)[1])
        with ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                             autocommit=True) as conn:
            conn.execute("CREATE DATABASE logged_db WITH LOG")
            conn.execute("SELECT tabname FROM systables WHERE tabid = 1").fetchall()
            with pytest.raises(ifxwire.ProgrammingError):
                conn.execute("SELECT * FROM no_such_table")
            conn.close(wait=True)  # the server has ended the session before it is terminated
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "login of 'informix'" in err
    assert "SELECT tabname FROM systables WHERE tabid = 1" in err
    assert "error -206" in err and "no_such_table" in err
    assert "session" in err and "closed" in err


def test_the_command_freezes_what_start_up_made() -> None:
    """What the server made at start-up is frozen out of the collector's full passes
    (``_settle_gc``, docs/SERVER.md "Garbage collection"); the command still serves."""
    code = ("import gc, sys\n"
            "from ifxwire.server import __main__ as m\n"
            "from ifxwire.server.listener import Server\n"
            "def serve(self):\n"
            "    import ifxwire\n"
            "    with ifxwire.connect(host='127.0.0.1', port=self.port, user='informix',\n"
            "                         password='in4mix', autocommit=True) as conn:\n"
            "        one = conn.execute('SELECT tabname FROM sysmaster:systables '\n"
            "                           'WHERE tabid = 1')\n"
            "        print('rows', one.fetchall(), flush=True)\n"
            "    print('frozen', gc.get_freeze_count(), flush=True)\n"
            "Server.serve_forever = serve\n"
            "raise SystemExit(m.main(['--port', '0']))")
    # the ifxwire under test, not whichever the interpreter would import by itself
    src = str(Path(ifxwire.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (src, os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "rows [('systables',)]" in lines
    frozen = int(next(ln for ln in lines if ln.startswith("frozen ")).split()[1])
    assert frozen > 10_000, frozen
