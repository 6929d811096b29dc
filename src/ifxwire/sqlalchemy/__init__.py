"""SQLAlchemy 2 dialect for Informix on ifxwire (extra ``[sqlalchemy]``).

Registered through entry points, so nothing needs importing first::

    engine = create_engine("informix+ifxwire://informix:in4mix@db:9088/stores")
    engine = create_engine("informix://informix:in4mix@db:9088/stores")        # same
    engine = create_async_engine("informix+ifxwire_async://informix:in4mix@db:9088/stores")

See docs/SQLALCHEMY.md for what is compiled how and what reflection reads.
"""

from __future__ import annotations

from sqlalchemy.types import (
    BIGINT,
    BOOLEAN,
    CHAR,
    DATE,
    DECIMAL,
    FLOAT,
    INTEGER,
    SMALLINT,
    VARCHAR,
)

from .types import (
    BIGSERIAL,
    BLOB,
    BYTE,
    CLOB,
    DATETIME,
    INT8,
    INTERVAL,
    LVARCHAR,
    MONEY,
    NCHAR,
    NVARCHAR,
    SERIAL,
    SERIAL8,
    SMALLFLOAT,
    TEXT,
)

__all__ = [
    "BIGINT",
    "BIGSERIAL",
    "BLOB",
    "BOOLEAN",
    "BYTE",
    "CHAR",
    "CLOB",
    "DATE",
    "DATETIME",
    "DECIMAL",
    "FLOAT",
    "INT8",
    "INTEGER",
    "INTERVAL",
    "LVARCHAR",
    "MONEY",
    "NCHAR",
    "NVARCHAR",
    "SERIAL",
    "SERIAL8",
    "SMALLFLOAT",
    "SMALLINT",
    "TEXT",
    "VARCHAR",
]
