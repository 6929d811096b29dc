"""The listening socket, one thread per session, and the Python API for test fixtures.

Threads rather than asyncio because every session spends its time inside SQLite, which blocks;
a thread per connection keeps each session's engine calls simple and isolated, and SQLite
releases the GIL while it works. Session threads are reused: the thread that accepts a
connection serves it and then goes back to accept(), so a cold connect does not pay for
starting a thread (see Server._accept_loop).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
from collections.abc import Mapping
from types import TracebackType

from ..protocol.codes import SERVER_PROTOCOLS
from .defences import Limits, LoginThrottle
from .engine import Engine
from .interrupt import InterruptWatcher
from .pam import pam_conversation
from .session import Session
from .tls import server_context, wrap_accepted
from .trace import describe_reply

log = logging.getLogger("ifxwire.server")
trace_log = logging.getLogger("ifxwire.server.trace")

DEFAULT_USERS = {"informix": "in4mix"}
DEFAULT_VERSION = "IBM Informix Dynamic Server Version 14.10.FC9"
# The login response's version field.  The witnesses disagree: informix-driver saw the internal
# version alone there on real servers ("9.56" on 12.10, "9.59" on 14.10; peer report 1.2/4),
# while both JDBC jars parse "<product> Version <version>" and JDBC 4.50's
# getDatabaseProductVersion() throws StringIndexOutOfBoundsException on a bare "9.59"
# (tests/interop metadata_product).  The default keeps every client working; pass
# login_version="9.59" to reproduce what informix-driver observed.  The product part has no
# "IBM ": JDBC's getDatabaseProductName() (the text before "Version") is "Informix Dynamic
# Server" on a real 14.10.FC7W1DE (issue 23's schema-inspection comparison), and Flyway's
# Informix support (flyway-database-informix 10.20.1, InformixDatabaseType) accepts a database
# only when that name starts with "Informix": with "IBM Informix ..." it stops at "Unsupported
# Database".  DBINFO('version', 'full') keeps DEFAULT_VERSION.
DEFAULT_LOGIN_VERSION = "Informix Dynamic Server Version 14.10.FC9"
#: Session threads kept waiting in accept() between sessions (see Server._accept_loop).
MAX_IDLE_ACCEPTORS = 2


class Server:
    """An Informix-compatible SQLI server.

    >>> with Server(port=0, data=":memory:") as srv:   # doctest: +SKIP
    ...     conn = ifxwire.connect(host=srv.host, port=srv.port, user="informix",
    ...                            password="in4mix")

    ``data`` is a directory where databases persist, or ``":memory:"`` for a private temporary
    directory removed on stop.  ``users`` maps user names to passwords.  The keywords from
    ``login_timeout`` on are the limits of ``defences.Limits`` (docs/SERVER.md, "Limits").
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 9088,
        data: str | os.PathLike[str] = ":memory:",
        *,
        server_name: str = "informix",
        users: Mapping[str, str] | None = None,
        trace: bool = False,
        strict: bool = True,
        version: str = DEFAULT_VERSION,
        login_version: str = DEFAULT_LOGIN_VERSION,
        protocols: bytes = SERVER_PROTOCOLS,
        trace_dir: str | os.PathLike[str] | None = None,
        login_timeout: float = Limits.login_timeout,
        max_sessions: int = Limits.max_sessions,
        max_message_bytes: int = Limits.max_message_bytes,
        max_statement_bytes: int = Limits.max_statement_bytes,
        max_blob_bytes: int = Limits.max_blob_bytes,
        max_statements: int = Limits.max_statements,
        failed_login_limit: int = Limits.failed_login_limit,
        statement_timeout: float | None = Limits.statement_timeout,
        send_timeout: float = Limits.send_timeout,
        tls_cert: str | os.PathLike[str] | None = None,
        tls_key: str | os.PathLike[str] | None = None,
        pam: object = None,
        redirect_to: tuple[str, str, int] | None = None,
        row_locks: bool | None = None,
    ) -> None:
        self.host = host
        #: (server name, host, port): answer every login with a redirect there, as an
        #: Informix Connection Manager in redirect mode does (docs/SERVER.md, *Redirect*).
        self.redirect_to = redirect_to
        self.port = port
        self.server_name = server_name
        self.users = dict(DEFAULT_USERS if users is None else users)
        self.trace = trace
        self.strict = strict
        self.version = version
        self.login_version = login_version
        self.protocols = protocols
        self.limits = Limits(
            login_timeout=login_timeout,
            max_sessions=max_sessions,
            max_message_bytes=max_message_bytes,
            max_statement_bytes=max_statement_bytes,
            max_blob_bytes=max_blob_bytes,
            max_statements=max_statements,
            failed_login_limit=failed_login_limit,
            statement_timeout=statement_timeout,
            send_timeout=send_timeout,
        )
        self.throttle = LoginThrottle(failed_login_limit)
        #: TLS on every connection when a certificate is given (server/tls.py).
        self.tls = None if tls_cert is None else server_context(tls_cert, tls_key)
        #: PAM challenge/response login instead of the password (server/pam.py).
        self.pam = pam_conversation(pam, self.users)
        #: Notices clients' cancels (TCP urgent bytes) on every session (server/interrupt.py).
        self.interrupts = InterruptWatcher()
        data_dir = None if str(data) == ":memory:" else os.fspath(data)
        self.engine = Engine(data_dir, server_name=server_name, version=version,
                             trace_dir=trace_dir,
                             statement_timeout=statement_timeout,
                             max_statement_bytes=max_statement_bytes,
                             row_locks=row_locks)
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._sessions: set[Session] = set()
        self._lock = threading.Lock()
        self.request_groups = 0
        #: Of those, groups answered by a batched INSERT (Session._batch_inserts).
        self.batched_groups = 0
        #: Of those, groups whose rows one bound call converted: the compiled decoder
        #: (server/bindbatch.py) or without the accelerator its Python twin (purerun.py).
        self.bound_groups = 0
        #: Of those, query groups matched and served in one step (Session._query_group).
        self.one_step_groups = 0
        self.sessions_served = 0
        #: Sessions past their login (bounded by max_sessions); guarded by _lock.
        self.logged_in = 0
        #: Threads waiting in (or about to enter) accept(); guarded by _lock.
        self._acceptors = 0

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Server:
        """Bind and start accepting in a background thread; returns when the port is ready."""
        sock = socket.create_server((self.host, self.port), reuse_port=False, backlog=128)
        self._sock = sock
        self.host, self.port = sock.getsockname()[:2]
        self._acceptors = 1
        self._thread = threading.Thread(
            target=self._accept_loop, name="ifxwire-accept", daemon=True
        )
        self._thread.start()
        log.info("ifxwire-server listening on %s:%d", self.host, self.port)
        return self

    def serve_forever(self) -> None:
        if self._sock is None:
            self.start()
        self._stopping.wait()

    def stop(self) -> None:
        self._stopping.set()
        if self._sock is not None:
            # shutdown() wakes a thread blocked in accept(); close() alone does not on Linux.
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self._sock.close()
        with self._lock:
            sessions = list(self._sessions)
        for s in sessions:
            with contextlib.suppress(OSError):
                s.sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.interrupts.stop()
        self.engine.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    # ------------------------------------------------------------------ sessions

    def _accept_loop(self) -> None:
        """One of the session threads: accept a connection, serve it, then accept again.

        Threads are reused instead of started per connection: a thread start costs a clone()
        and a handshake with the new thread on every cold connect. The thread that accepts
        serves the session itself (no hand-off); before it does, it starts a replacement only
        if no other thread is left waiting in accept(). After a session, a thread goes back to
        accept() unless MAX_IDLE_ACCEPTORS already wait there, in which case it ends.
        """
        sock = self._sock
        assert sock is not None
        stopping = self._stopping
        lock = self._lock
        while not stopping.is_set():
            try:
                conn, addr = sock.accept()
            except OSError:
                if stopping.is_set():
                    break
                continue
            with lock:
                self._acceptors -= 1
                spare = self._acceptors == 0
                if spare:
                    self._acceptors += 1
            if spare:
                self._spawn_acceptor()
            self._serve_connection(conn, addr)
            with lock:
                if self._acceptors >= MAX_IDLE_ACCEPTORS:
                    return
                self._acceptors += 1
        with lock:
            self._acceptors -= 1

    def _spawn_acceptor(self) -> None:
        # The caller has already counted the new thread in _acceptors.
        threading.Thread(target=self._accept_loop, name="ifxwire-accept", daemon=True).start()

    def _serve_connection(self, conn: socket.socket, addr: tuple[str, int]) -> None:
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.tls is not None:
                try:
                    conn = wrap_accepted(self.tls, conn, self.limits.login_timeout)
                except (OSError, ValueError) as exc:
                    log.info("TLS handshake with %s:%d failed: %s", addr[0], addr[1], exc)
                    with contextlib.suppress(OSError):
                        conn.close()
                    return
            session = Session(conn, self, f"{addr[0]}:{addr[1]}")
        except Exception:
            log.exception("could not set up a session for %s:%d", addr[0], addr[1])
            with contextlib.suppress(OSError):
                conn.close()
            return
        with self._lock:
            self._sessions.add(session)
            self.sessions_served += 1
        self._run_session(session)

    def _run_session(self, session: Session) -> None:
        try:
            session.run()
        except Exception:  # Session.run handles its own errors; never lose the thread
            log.exception("session %s: unexpected error", session.peer)
        finally:
            with self._lock:
                self._sessions.discard(session)

    def admit(self) -> bool:
        """Count one more logged-in session, unless max_sessions are already in."""
        with self._lock:
            if self.logged_in >= self.limits.max_sessions:
                return False
            self.logged_in += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self.logged_in -= 1

    def count_group(self) -> None:
        # Plain increments under the GIL are good enough for a statistic read by tests.
        self.request_groups += 1

    # ------------------------------------------------------------------ tracing

    def trace_in(self, session: Session, name: str, detail: str) -> None:
        if self.trace:
            trace_log.info("%s <- %s %s", session.peer, name, detail)

    def trace_out(self, session: Session, data: bytes | bytearray) -> None:
        if self.trace:
            trace_log.info("%s -> %s", session.peer, describe_reply(data, session.layout))
