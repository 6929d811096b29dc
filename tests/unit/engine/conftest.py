"""Fixtures for driving EngineSession directly (no sockets)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from ifxwire.server.engine import Engine, EngineError, EngineSession, ExecResult


class Sql:
    """A session with one-line helpers: ``run`` executes, ``rows`` fetches, ``err`` expects
    an EngineError and returns it."""

    def __init__(self, session: EngineSession) -> None:
        self.s = session

    def run(self, sql: str, *params: object) -> ExecResult:
        p = self.s.prepare(sql)
        assert not p.is_query, sql
        return self.s.execute(p, list(params))

    def rows(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        p = self.s.prepare(sql)
        assert p.is_query, sql
        return list(self.s.open_cursor(p, list(params)))

    def one(self, sql: str, *params: object) -> object:
        rows = self.rows(sql, *params)
        assert len(rows) == 1 and len(rows[0]) == 1, rows
        return rows[0][0]

    def err(self, sql: str, *params: object) -> EngineError:
        with pytest.raises(EngineError) as info:
            p = self.s.prepare(sql)
            if p.is_query:
                list(self.s.open_cursor(p, list(params)))
            else:
                self.s.execute(p, list(params))
        return info.value

    def describe(self, sql: str) -> list[tuple[str, int, int]]:
        p = self.s.prepare(sql)
        return [(c.name, c.type, c.enclen) for c in p.columns]


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    eng = Engine(tmp_path / "data")
    yield eng
    eng.close()


def _open(engine: Engine, mode: str, env: dict[str, str] | None = None,
          name: str = "testdb") -> Sql:
    s = engine.session("informix", env or {})
    sql = Sql(s)
    clause = {"unlogged": "", "logged": " WITH LOG", "buffered": " WITH BUFFERED LOG",
              "ansi": " WITH LOG MODE ANSI"}[mode]
    sql.run(f"CREATE DATABASE {name}{clause}")
    return sql


@pytest.fixture
def db(engine: Engine) -> Iterator[Sql]:
    """A session on a fresh logged database."""
    sql = _open(engine, "logged")
    yield sql
    sql.s.close()


@pytest.fixture
def open_db(engine: Engine):  # type: ignore[no-untyped-def]
    """Factory: open_db(mode, env=None, name='testdb') -> Sql."""
    made: list[Sql] = []

    def factory(mode: str = "logged", env: dict[str, str] | None = None,
                name: str = "testdb") -> Sql:
        sql = _open(engine, mode, env, name)
        made.append(sql)
        return sql

    yield factory
    for sql in made:
        sql.s.close()


def session_on(engine: Engine, dbname: str, env: dict[str, str] | None = None) -> Sql:
    s = engine.session("informix", env or {})
    s.open_database(dbname)
    return Sql(s)


def codes(e: EngineError) -> tuple[int, int]:
    return e.sqlcode, e.isamcode


def run_all(sql: Sql, statements: Sequence[str]) -> None:
    for st in statements:
        sql.run(st)
