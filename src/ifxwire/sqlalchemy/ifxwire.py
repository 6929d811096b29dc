"""``informix+ifxwire://`` (and the default ``informix://``): the dialect on the sync driver.

URL: ``informix+ifxwire://user:password@host:port/database?server=name&DBDATE=Y4MD-``. The
query takes ``ifxwire.connect`` keywords; upper-case names go to the server as environment
variables. Without host and port the driver resolves ``server`` (or ``$INFORMIXSERVER``)
through sqlhosts, as ``ifxwire.connect`` does.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from sqlalchemy.engine import URL

from .base import InformixDialect

#: Sent with every connection: SQLAlchemy quotes identifiers with double quotes, which
#: Informix reads as identifiers only with DELIMIDENT set (otherwise they are strings).
SESSION_ENV = {"DELIMIDENT": "y"}


def connect_url(url: URL) -> str:
    """The driver's own ``informix://`` URL for a SQLAlchemy URL."""
    return url.set(drivername="informix").render_as_string(hide_password=False)


class InformixDialect_ifxwire(InformixDialect):
    driver = "ifxwire"
    supports_statement_cache = True

    @classmethod
    def import_dbapi(cls) -> ModuleType:
        import ifxwire

        return ifxwire

    def create_connect_args(self, url: URL) -> Any:
        return [connect_url(url)], {"env": dict(SESSION_ENV)}

    def do_ping(self, dbapi_connection: Any) -> bool:
        from ..client.pool import ping

        return ping(dbapi_connection)

    def is_disconnect(self, e: Any, connection: Any, cursor: Any) -> bool:
        if connection is not None and isinstance(e, self.loaded_dbapi.Error):
            return bool(getattr(connection, "closed", False)
                        or getattr(connection, "broken", False))
        return False

    def do_executemany(self, cursor: Any, statement: str, parameters: Any,
                       context: Any = None) -> None:
        # Pipelined on the wire: every row is sent before the replies are read.
        cursor.executemany(statement, parameters)


dialect = InformixDialect_ifxwire
