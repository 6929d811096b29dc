"""Fixtures for the corpus tests: one server per session, stores_demo loaded once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .loader import create_database


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The corpus server; its trace directory lets SPL's SET DEBUG FILE TO name a file
    (TRACE without one is -687)."""
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", trace_dir=tmp_path_factory.mktemp("traces")) as srv:
        yield srv


@pytest.fixture(scope="session")
def connect_kwargs(server: Any) -> dict[str, Any]:
    return {"host": server.host, "port": server.port, "user": "informix",
            "password": "in4mix"}


@pytest.fixture(scope="session")
def stores_demo(connect_kwargs: dict[str, Any]) -> str:
    """A logged stores_demo database with its data; tests must leave it as they found it
    (roll back what they change)."""
    return create_database(connect_kwargs, "stores_demo")


@pytest.fixture()
def stores(connect_kwargs: dict[str, Any], stores_demo: str) -> Iterator[ifxwire.Connection]:
    conn = ifxwire.connect(**connect_kwargs, database=stores_demo)
    try:
        yield conn
    finally:
        conn.rollback()
        conn.close()
