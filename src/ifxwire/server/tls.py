"""TLS listener: ``Server(tls_cert=..., tls_key=...)`` / ``--tls-cert`` / ``--tls-key``.

Informix serves TLS on a listener of its own (nettype ``onsocssl``): the client wraps the
socket in TLS before the first SQLI byte and nothing is negotiated in-band (jdbc-protocol.md
1.1; IBM JDBC's ``encrypt=true`` / ``SSLCONNECTION=true``). So does this server: when a
certificate is configured every accepted connection is wrapped, with the handshake bounded
by ``login_timeout``, before the session reads its login packet. A client's cancel (TCP urgent
byte, docs/PROTOCOL.md §14) travels outside TLS and is still noticed.
"""

from __future__ import annotations

import os
import socket
import ssl

__all__ = ["server_context", "wrap_accepted"]


def server_context(
    cert: str | os.PathLike[str], key: str | os.PathLike[str] | None
) -> ssl.SSLContext:
    """A TLS 1.2+ server context for the certificate chain ``cert`` and its private ``key``
    (PEM files; ``key`` may be None when ``cert`` holds both). Raises ValueError naming the
    file when they cannot be loaded."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(os.fspath(cert), None if key is None else os.fspath(key))
    except (OSError, ssl.SSLError) as exc:
        files = repr(os.fspath(cert)) + ("" if key is None else f" / {os.fspath(key)!r}")
        raise ValueError(f"cannot load the TLS certificate {files}: {exc}") from None
    return ctx


def wrap_accepted(ctx: ssl.SSLContext, conn: socket.socket, timeout: float) -> ssl.SSLSocket:
    """Run the server side of the TLS handshake on an accepted connection within
    ``timeout`` seconds (0: no limit); raises OSError / ssl.SSLError when it fails."""
    conn.settimeout(timeout if timeout > 0 else None)
    return ctx.wrap_socket(conn, server_side=True)
