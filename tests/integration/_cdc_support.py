"""What the change-capture tests (test_cdc*.py) share: logged databases that any module may
have made first, and a server in its own process (for kill -9 and RSS measurements)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import ifxwire


def create_logged_databases(kw: dict[str, Any], *names: str) -> None:
    """CREATE DATABASE ... WITH LOG for each name; one that exists already (-330: another
    module of the session made it, syscdcv1 most often) is left as it is."""
    c = ifxwire.connect(**kw)
    try:
        for name in names:
            try:
                c.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
            except ifxwire.DatabaseError as e:
                if e.sqlcode != -330:
                    raise
    finally:
        c.close()


def start_server_process(data: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """``ifxwire-server`` on a free port of 127.0.0.1 over ``data``; (process, port)."""
    proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", "0", "--host",
                             "127.0.0.1", "--data", str(data), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on [\d.]+:(\d+)", line)
        if m:
            # keep draining its output so that the server never blocks on a full pipe
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            return proc, int(m.group(1))
    raise AssertionError("the server did not start")
