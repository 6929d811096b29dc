"""Record IBM JDBC sessions against ifxwire-server into tests/interop/jdbc/captures/.

Run by hand (not part of the tests): ``python scripts/capture_jdbc_sessions.py``. The JDBC jar
must be in the cache (scripts/fetch_jdbc.sh). For each (program, check) below, an in-memory
``Server`` is started, a forwarding proxy put in front of it, and the check run through the
proxy; every TCP read is written as a ``C>``/``S>`` block (captures/README.md). Only the
``C>`` blocks are evidence (the real driver's bytes); ``S>`` blocks are our server's replies
(those over 4 KiB are left out).
The proxy passes the client's urgent byte (JDBC's cancel) on as urgent, and notes it as a
comment. The recorded-request fuzz (tests/integration/test_server_fuzz_recorded.py) replays
the ``C>`` blocks of every ``*session*.hex`` file.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import ifxwire
from ifxwire.server import Server

REPO = Path(__file__).resolve().parents[1]
JDBC = REPO / "tests" / "interop" / "jdbc"
CAPTURES = JDBC / "captures"
CACHE = Path(os.environ.get("IFXWIRE_CACHE", Path.home() / ".cache" / "ifxwire")) / "jdbc"
VERSION = "15.0.0.1"
JAVA_OPTS = ["-Duser.language=en", "-Duser.country=US", "-Dfile.encoding=UTF-8"]
USER, PASSWORD = "informix", "in4mix"
#: IfxCheck checks (LobChecks.java registers the lob_* ones).
IFXCHECK = ("lob_update_delete", "lob_smartblob", "lob_client_files", "scroll_cursor")
#: SessionCheck checks: cancel by the urgent byte, scroll windows, WHERE CURRENT OF.
SESSIONCHECK = ("jdbc_cancel", "jdbc_scroll_random", "jdbc_current_of")


class Proxy:
    """Forwards to ``upstream``; keeps each connection's reads in order, with direction."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.conns: list[list[tuple[str, bytes]]] = []
        self.threads: list[threading.Thread] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            log: list[tuple[str, bytes]] = []
            self.conns.append(log)
            for args in ((client, server, "C>", log), (server, client, "S>", log)):
                t = threading.Thread(target=self._pump, args=args, daemon=True)
                t.start()
                self.threads.append(t)

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, tag: str,
              log: list[tuple[str, bytes]]) -> None:
        with contextlib.suppress(OSError):
            while True:
                readable, _, urgent = select.select([src], [], [src])
                if urgent:
                    with contextlib.suppress(OSError):
                        byte = src.recv(1, socket.MSG_OOB)
                        dst.send(byte, socket.MSG_OOB)
                        log.append(("#", byte))
                if not readable:
                    continue
                data = src.recv(65536)
                if not data:
                    break
                log.append((tag, data))
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.sock.close()
        for t in self.threads:
            t.join(10)


def write_capture(path: Path, title: str, log: list[tuple[str, bytes]]) -> None:
    lines = [
        f"# IBM JDBC {VERSION} session: {title}",
        "# Recorded by scripts/capture_jdbc_sessions.py: a forwarding proxy between the driver",
        "# and ifxwire-server (in-memory). C> blocks are the real driver's bytes (independent",
        "# evidence); S> blocks are OUR server's replies and are NOT evidence of Informix",
        "# behaviour. pid/thread id/host/cwd/jar path in the login PDU vary per run.",
        "",
    ]
    for tag, data in log:
        if tag == "#":
            lines.append(f"# urgent byte (out of band) from the client: {data.hex()}")
            continue
        if tag == "S>" and len(data) > 4096:
            # Our own server's large replies (LOB data) are no evidence: only their size.
            lines += [f"# S> {len(data)} bytes (not kept)", ""]
            continue
        lines.append(f"{tag} {len(data)} bytes")
        hexed = data.hex()
        for i in range(0, len(hexed), 64):
            lines.append(" ".join(hexed[j : j + 2] for j in range(i, min(i + 64, len(hexed)), 2)))
        lines.append("")
    path.write_text("\n".join(lines))


def compile_classes(sources: list[Path], jar: Path, out: Path) -> str:
    subprocess.run(["javac", "-cp", str(jar), "-d", str(out), *map(str, sources)], check=True)
    return os.pathsep.join([str(out), str(jar)])


def prepare(srv: Server, db: str) -> None:
    with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                         autocommit=True) as c:
        cur = c.cursor()
        cur.execute(f"CREATE DATABASE {db} WITH LOG")
        cur.execute("CREATE TABLE n (i INTEGER)")
        cur.executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(1000)])
        cur.execute("CREATE TABLE cur_t (i INTEGER, v INTEGER)")
        cur.executemany("INSERT INTO cur_t VALUES (?, ?)", [(i, 10 * i) for i in range(10)])


def record(name: str, command: list[str]) -> None:
    with Server(port=0, data=":memory:", statement_timeout=60) as srv:
        prepare(srv, "cap")
        proxy = Proxy((srv.host, srv.port))
        cmd = [c.replace("{PORT}", str(proxy.port)) for c in command]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        proxy.close()
    print(name, proc.stdout.strip().splitlines()[-1:] if proc.stdout else proc.stderr[-500:])
    for n, log in enumerate(proxy.conns, 1):
        if not any(tag == "C>" for tag, _ in log):
            continue
        suffix = "" if n == 1 else f"-conn{n}"
        write_capture(CAPTURES / f"jdbc-{VERSION}-session-{name}{suffix}.hex",
                      f"check '{name}' (connection {n})", log)


def main() -> None:
    jar = CACHE / f"jdbc-{VERSION}.jar"
    with tempfile.TemporaryDirectory() as tmp:
        ifx = compile_classes([JDBC / "IfxCheck.java", JDBC / "LobChecks.java"], jar,
                              Path(tmp) / "ifx")
        pam = "pam15" if VERSION.startswith("15") else "pam450"
        sess = compile_classes([JDBC / "SessionCheck.java", JDBC / pam / "PamAnswers.java"], jar,
                               Path(tmp) / "sess")
        for check in IFXCHECK:
            record(check, ["java", *JAVA_OPTS, "-cp", ifx, "IfxCheck", "host=127.0.0.1",
                           "port={PORT}", "server=informix", "database=cap", f"user={USER}",
                           f"password={PASSWORD}", "create=no", check])
        for check in SESSIONCHECK:
            url = (f"jdbc:informix-sqli://127.0.0.1:{{PORT}}/cap:INFORMIXSERVER=informix;"
                   f"user={USER};password={PASSWORD}")
            record(check, ["java", *JAVA_OPTS, "-cp", sess, "SessionCheck", f"{check}={url}"])


if __name__ == "__main__":
    sys.exit(main())
