"""A server with a small database for the shell tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

DATABASE = "shop"


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:") as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE} WITH LOG")
            conn.execute(f"DATABASE {DATABASE}")
            conn.execute("CREATE TABLE customer (id SERIAL PRIMARY KEY, name VARCHAR(40) "
                         "NOT NULL, balance DECIMAL(10,2) DEFAULT 0, joined DATE, vip BOOLEAN)")
            conn.execute("CREATE INDEX ix_customer_name ON customer (name)")
            conn.cursor().executemany(
                "INSERT INTO customer (name, balance, joined, vip) VALUES (?, ?, ?, ?)",
                [(f"c{i}", i * 1.5, "2024-01-0" + str(1 + i % 9), i % 2 == 0)
                 for i in range(3000)])
        yield srv


@pytest.fixture(scope="session")
def url(server: Any) -> str:
    return f"informix://informix:in4mix@{server.host}:{server.port}/{DATABASE}"
