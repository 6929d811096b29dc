"""ifxwire: a pure-Python IBM Informix driver (PEP 249) speaking SQLI over plain sockets.

>>> import ifxwire
>>> conn = ifxwire.connect("informix://informix:in4mix@127.0.0.1:9088/stores")  # doctest: +SKIP
>>> cur = conn.execute("SELECT tabname FROM systables WHERE tabid < ?", (5,))  # doctest: +SKIP
>>> rows = cur.fetchall()  # doctest: +SKIP

Parameter markers: ``?`` (native), ``:1`` (numbered; may repeat and appear in any order) and
``:name`` (with a mapping) all work; ``paramstyle`` advertises ``qmark``. See docs/DRIVER.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._accel import accelerated
from ._accel import available as _accelerator_available
from .client.connection import Connection
from .client.cursor import Cursor
from .client.dsn import resolve
from .client.lob import Blob, Clob
from .client.pamauth import PamChallenge
from .client.pool import ConnectionPool, PoolClosed, PoolTimeout, create_pool
from .client.routines import InOutParam, OutParam
from .client.scroll import ScrollCursor
from .dbapi import (
    BINARY,
    BOOLEAN,
    DATETIME,
    NUMBER,
    ROWID,
    STRING,
    Binary,
    Date,
    DateFromTicks,
    Time,
    TimeFromTicks,
    Timestamp,
    TimestampFromTicks,
)
from .errors import (
    DatabaseError,
    DataError,
    Error,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
)
from .types.adapters import AdaptersMap, BindItem, global_adapters
from .types.compositevalues import ComplexTypeCode, List, Multiset, Row, Set
from .types.values import DateTimeFields, IntervalYM, Text

if TYPE_CHECKING:
    import ssl

__all__ = [
    "BINARY",
    "BOOLEAN",
    "DATETIME",
    "NUMBER",
    "ROWID",
    "STRING",
    "AdaptersMap",
    "Binary",
    "BindItem",
    "Blob",
    "Clob",
    "ComplexTypeCode",
    "Connection",
    "ConnectionPool",
    "Cursor",
    "DataError",
    "DatabaseError",
    "Date",
    "DateFromTicks",
    "DateTimeFields",
    "Error",
    "InOutParam",
    "IntegrityError",
    "InterfaceError",
    "InternalError",
    "IntervalYM",
    "List",
    "Multiset",
    "NotSupportedError",
    "OperationalError",
    "OutParam",
    "PamChallenge",
    "PoolClosed",
    "PoolTimeout",
    "ProgrammingError",
    "Row",
    "ScrollCursor",
    "Set",
    "Text",
    "Time",
    "TimeFromTicks",
    "Timestamp",
    "TimestampFromTicks",
    "Warning",
    "__version__",
    "accelerated",
    "accelerator_available",
    "apilevel",
    "connect",
    "create_pool",
    "paramstyle",
    "threadsafety",
]

__version__ = "0.1.0"

#: The global adapter registry (loaders and dumpers); see docs/TYPES.md §6. Connections copy
#: it when they open, cursors copy their connection's on first use.
adapters: AdaptersMap = global_adapters

apilevel = "2.0"
#: Threads may share the module, not connections. A per-connection lock keeps accidental
#: sharing from corrupting the wire, but transaction state is per connection, so sharing one
#: is still a logic error (see docs/DRIVER.md).
threadsafety = 1
#: ``?`` is native; ``:1`` and ``:name`` are accepted too (rewritten to ``?``, never
#: interpolated).
paramstyle = "qmark"


def accelerator_available() -> bool:
    """True when the optional C accelerator was built and imports, even if ``IFXWIRE_PURE=1``
    keeps it unused; :data:`accelerated` says whether it is in use (docs/ACCELERATOR.md)."""
    return _accelerator_available


def connect(
    host: str | None = None,
    port: int | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    server: str | None = None,
    *,
    autocommit: bool | None = None,
    connect_timeout: float | None = None,
    read_timeout: float | None = None,
    statement_timeout: float | None = None,
    keepalive: bool | None = None,
    client_locale: str | None = None,
    db_locale: str | None = None,
    env: Mapping[str, str] | None = None,
    tls: bool | ssl.SSLContext | None = None,
    tls_server_hostname: str | None = None,
    sqlhosts: str | None = None,
    host_secondary: str | None = None,
    port_secondary: int | None = None,
    server_secondary: str | None = None,
    pam_callback: Any = None,
    fetch_buffer_size: int | None = None,
    statement_cache_size: int | None = None,
    lob_materialize_limit: int | None = None,
    keep_char_padding: bool | None = None,
    pipelined_connect: bool | None = None,
    trace: bool | None = None,
    max_redirects: int | None = None,
) -> Connection:
    """Open a connection.

    ``host`` may be an ``informix://user:password@host:port/database?option=value`` URL;
    keyword arguments override what the URL says. Defaults (a ``None`` argument means
    "default"): host 127.0.0.1 and port 9088 unless the sqlhosts file (``INFORMIXSQLHOSTS``)
    names the server; server ``$INFORMIXSERVER`` or "informix"; autocommit False;
    connect_timeout 15 s; no read timeout; client_locale "en_US.8859-1"; fetch_buffer_size
    65536; statement_cache_size 128 (0 disables); pipelined_connect True;
    lob_materialize_limit 0 (BLOB/CLOB values come as Blob/Clob objects; N > 0 fetches those of
    at most N bytes as bytes/str, see docs/DRIVER.md).

    ``statement_timeout`` (seconds) cancels any request that runs longer on the server: the
    statement fails with -213 and the connection stays usable (docs/DRIVER.md, "Cancel").

    ``tls`` is True (system trust store, host name checked) or an ``ssl.SSLContext``.
    ``trace`` logs every message both ways on the ``ifxwire.protocol`` logger (passwords are
    never logged).

    ``max_redirects`` (default 0): how many login redirects to follow. A server (an Informix
    Connection Manager, say) may answer a login with "go to server S at host:port"; IBM JDBC
    follows that silently, ifxwire raises ``OperationalError`` naming the target unless you
    allow it, because the server then picks where your password goes next.
    """
    params = resolve(
        host,
        {
            "port": port,
            "user": user,
            "password": password,
            "database": database,
            "server": server,
            "autocommit": autocommit,
            "connect_timeout": connect_timeout,
            "read_timeout": read_timeout,
        "statement_timeout": statement_timeout,
            "keepalive": keepalive,
            "client_locale": client_locale,
            "db_locale": db_locale,
            "env": env,
            "tls": tls,
            "tls_server_hostname": tls_server_hostname,
        "sqlhosts": sqlhosts,
        "host_secondary": host_secondary,
        "port_secondary": port_secondary,
        "server_secondary": server_secondary,
        "pam_callback": pam_callback,
            "fetch_buffer_size": fetch_buffer_size,
            "statement_cache_size": statement_cache_size,
        "lob_materialize_limit": lob_materialize_limit,
            "keep_char_padding": keep_char_padding,
            "pipelined_connect": pipelined_connect,
            "trace": trace,
            "max_redirects": max_redirects,
        },
    )
    return Connection(params)
