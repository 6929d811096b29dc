"""ifxwire-server: an Informix-compatible SQLI server backed by SQLite.

Needs the ``server`` extra (``pip install "ifxwire[server]"``) for sqlglot. The names below are
imported on first use, so ``python -m ifxwire.server`` can say how to install the extra
instead of failing on the import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .listener import DEFAULT_USERS, DEFAULT_VERSION, Server

__all__ = ["DEFAULT_USERS", "DEFAULT_VERSION", "Server"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        # on first use: without the [server] extra (sqlglot) the package still imports
        from . import listener

        return getattr(listener, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
