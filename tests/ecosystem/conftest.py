"""Fixtures for the SQLAlchemy, Alembic and pandas tests: one embedded server per session and a
fresh logged database per test module, reached through a SQLAlchemy engine."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

sqlalchemy = pytest.importorskip("sqlalchemy")


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:") as srv:
        yield srv


def make_database(server: Any, name: str) -> str:
    with ifxwire.connect(host=server.host, port=server.port, user="informix",
                         password="in4mix", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} WITH LOG")
    return f"informix+ifxwire://informix:in4mix@{server.host}:{server.port}/{name}"


@pytest.fixture(scope="module")
def url(request: pytest.FixtureRequest, server: Any) -> str:
    name = re.sub(r"[^a-z0-9_]", "_", request.module.__name__.rsplit(".", 1)[-1].lower())
    return make_database(server, ("e_" + name)[:60])


@pytest.fixture()
def engine(url: str) -> Iterator[Any]:
    eng = sqlalchemy.create_engine(url)
    try:
        yield eng
    finally:
        eng.dispose()
