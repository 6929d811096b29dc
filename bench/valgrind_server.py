"""ifxwire-server under valgrind's instruction counter, for the benches that count a
statement's server instructions (server_instructions.py, server_write_instructions.py).

Why one place: each bench starts a tree's server under ``valgrind --tool=cachegrind
--cache-sim=no``, talks to it, stops it and reads valgrind's ``I refs`` total; the stop must
ask again when the first SIGTERM is missed (seen twice in six runs under valgrind, the
server's threads waiting on a futex).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence


def start(src: str, extra: Sequence[str] = (), prefix: str = "ifxwire-instr-"
          ) -> tuple[subprocess.Popen[str], int]:
    """The server of the tree whose ``src`` directory is given, under valgrind, on a free
    port of 127.0.0.1 with a fresh data directory; its port. ``IFXWIRE_PURE`` is not passed
    on (the tree's accelerator, if built, is used)."""
    env = dict(os.environ, PYTHONPATH=src)
    env.pop("IFXWIRE_PURE", None)
    srv = subprocess.Popen(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-m", "ifxwire.server", "--port", "0", *extra, "--data",
         tempfile.mkdtemp(prefix=prefix), "--log-level", "WARNING"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert srv.stdout is not None
    return srv, int(srv.stdout.readline().strip().rsplit(":", 1)[1])


def stop_and_count(srv: subprocess.Popen[str]) -> int:
    """Stop the server (asking again until it is gone) and return valgrind's I refs."""
    assert srv.stderr is not None
    while True:
        srv.send_signal(signal.SIGTERM)
        try:
            srv.wait(timeout=20)
            break
        except subprocess.TimeoutExpired:
            continue
    err = srv.stderr.read()
    found = re.search(r"I\s+refs:\s+([\d,]+)", err)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{err[-2000:]}")
    return int(found.group(1).replace(",", ""))
