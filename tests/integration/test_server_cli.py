"""The ``ifxwire-server`` command: --version, the message when the [server] extra is missing,
and what --log-level DEBUG logs (sessions, statements, errors)."""

from __future__ import annotations

import subprocess
import sys

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
