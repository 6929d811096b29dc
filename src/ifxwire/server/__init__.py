"""ifxwire-server: an Informix-compatible SQLI server backed by SQLite.

Needs the ``server`` extra (``pip install "ifxwire[server]"``) for sqlglot.
"""

from __future__ import annotations

from .listener import DEFAULT_USERS, DEFAULT_VERSION, Server

__all__ = ["DEFAULT_USERS", "DEFAULT_VERSION", "Server"]
