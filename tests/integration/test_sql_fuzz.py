"""A grammar-driven SQL fuzzer against ifxwire-server over real sockets.

A seeded random schema (three tables of random Informix column types) and statements drawn
from a small grammar of the dialect (SELECT with expressions, CASE, functions, subqueries,
ANY/ALL, windows, outer joins; INSERT, UPDATE, DELETE, MERGE; ALTER TABLE). Every statement
must end in a result or an Informix error: never a closed session, never a traceback in the
server log, never the engine's "internal" -999 (a Python exception turned into an error).
Bounded: a fixed number of statements per seed.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

SEEDS = (1, 2, 3)
STATEMENTS = 150

TYPES = ["INTEGER", "SMALLINT", "BIGINT", "DECIMAL(8,2)", "MONEY(10,2)", "FLOAT", "CHAR(6)",
         "VARCHAR(12)", "DATE", "DATETIME YEAR TO SECOND", "INTERVAL DAY TO SECOND",
         "BOOLEAN", "LVARCHAR(40)"]
LITERALS = {
    "INTEGER": ["0", "1", "-7", "2147483647", "NULL"],
    "SMALLINT": ["3", "-32767", "NULL"],
    "BIGINT": ["9007199254740993", "-5", "NULL"],
    "DECIMAL(8,2)": ["1.25", "-999999.99", "0", "NULL"],
    "MONEY(10,2)": ["12.5", "'$3.10'", "NULL"],
    "FLOAT": ["1.5e3", "-0.25", "NULL"],
    "CHAR(6)": ["'abc'", "'it''s'", "''", "NULL"],
    "VARCHAR(12)": ["'x'", "'hello world'", "NULL"],
    "DATE": ["'2024-02-29'", "TODAY", "MDY(1, 2, 2003)", "NULL"],
    "DATETIME YEAR TO SECOND": ["CURRENT YEAR TO SECOND",
                                "DATETIME(2020-01-02 03:04:05) YEAR TO SECOND", "NULL"],
    "INTERVAL DAY TO SECOND": ["INTERVAL(1 02:03:04) DAY TO SECOND", "NULL"],
    "BOOLEAN": ["'t'", "'f'", "NULL"],
    "LVARCHAR(40)": ["'long text'", "NULL"],
}
FUNCS = ["LENGTH({})", "UPPER({})", "NVL({}, {})", "ABS({})", "ROUND({}, 1)", "HEX({})",
         "TRIM({})", "MOD({}, 3)", "DECODE({}, {}, 'a', 'b')", "YEAR({})", "{}[1,2]",
         "COALESCE({}, {})", "TO_CHAR({})", "SUBSTR({}, 1, 2)", "CAST({} AS VARCHAR(20))",
         "NVL2({}, 1, 2)", "ADD_MONTHS({}, 1)", "{}::INTEGER", "LAST_DAY({})"]


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.tables: dict[str, list[tuple[str, str]]] = {}
        for t in ("fa", "fb", "fc"):
            cols = [("id", "INTEGER")] + [
                (f"c{i}", self.r.choice(TYPES)) for i in range(self.r.randint(2, 5))]
            self.tables[t] = cols

    def ddl(self) -> list[str]:
        out = []
        for t, cols in self.tables.items():
            out.append(f"CREATE TABLE {t} (" + ", ".join(f"{c} {ty}" for c, ty in cols) + ")")
        return out

    def col(self, t: str) -> tuple[str, str]:
        return self.r.choice(self.tables[t])

    def lit(self, ty: str | None = None) -> str:
        ty = ty or self.r.choice(TYPES)
        return self.r.choice(LITERALS[ty])

    def expr(self, t: str, depth: int = 0) -> str:
        r = self.r.random()
        if depth > 2 or r < 0.3:
            return f"{t}.{self.col(t)[0]}" if self.r.random() < 0.7 else self.lit()
        if r < 0.5:
            op = self.r.choice(["+", "-", "*", "/", "||"])
            return f"({self.expr(t, depth + 1)} {op} {self.expr(t, depth + 1)})"
        if r < 0.75:
            f = self.r.choice(FUNCS)
            return f.format(*[self.expr(t, depth + 1) for _ in range(f.count("{}"))])
        if r < 0.85:
            return (f"CASE WHEN {self.cond(t, depth + 1)} THEN {self.expr(t, depth + 1)} "
                    f"ELSE {self.expr(t, depth + 1)} END")
        other = self.r.choice(list(self.tables))
        return f"(SELECT MAX({self.col(other)[0]}) FROM {other})"

    def cond(self, t: str, depth: int = 0) -> str:
        r = self.r.random()
        a = self.expr(t, depth + 1)
        if r < 0.5:
            return f"{a} {self.r.choice(['=', '<', '>=', '<>'])} {self.expr(t, depth + 1)}"
        if r < 0.6:
            return f"{a} IS NULL"
        if r < 0.7:
            return f"{a} LIKE 'a%'"
        if r < 0.8:
            other = self.r.choice(list(self.tables))
            q = self.r.choice(["ANY", "ALL", "SOME"])
            return f"{a} > {q} (SELECT {self.col(other)[0]} FROM {other})"
        if r < 0.9:
            return f"{a} IN ({self.lit()}, {self.lit()})"
        return f"EXISTS (SELECT 1 FROM {self.r.choice(list(self.tables))})"

    def statement(self) -> str:
        t = self.r.choice(list(self.tables))
        kind = self.r.random()
        if kind < 0.45:
            projs = ", ".join(self.expr(t) for _ in range(self.r.randint(1, 3)))
            extra = ""
            if self.r.random() < 0.3:
                extra = f", ROW_NUMBER() OVER (ORDER BY {t}.id)"
            if self.r.random() < 0.2:
                o = self.r.choice([x for x in self.tables if x != t])
                return (f"SELECT {projs} FROM {t}, OUTER {o} WHERE {t}.id = {o}.id")
            return f"SELECT {projs}{extra} FROM {t} WHERE {self.cond(t)} ORDER BY 1"
        cols = self.tables[t]
        if kind < 0.65:
            values = ", ".join(self.lit(ty) if self.r.random() < 0.8 else self.lit()
                               for _, ty in cols)
            return f"INSERT INTO {t} VALUES ({values})"
        if kind < 0.78:
            c, _ = self.col(t)
            return f"UPDATE {t} SET {c} = {self.expr(t)} WHERE {self.cond(t)}"
        if kind < 0.85:
            return f"DELETE FROM {t} WHERE {self.cond(t)}"
        if kind < 0.92:
            o = self.r.choice([x for x in self.tables if x != t])
            c, _ = self.col(t)
            return (f"MERGE INTO {t} USING {o} ON {t}.id = {o}.id WHEN MATCHED THEN UPDATE "
                    f"SET {c} = {self.expr(o)}")
        c, _ = self.col(t)
        if c == "id":
            return f"ALTER TABLE {t} ADD (n{self.r.randint(0, 99)} {self.r.choice(TYPES)})"
        new = self.r.choice(TYPES)
        return f"ALTER TABLE {t} MODIFY ({c} {new})"


class TracebackCatcher(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


@pytest.fixture
def log_errors() -> Iterator[TracebackCatcher]:
    handler = TracebackCatcher()
    logger = logging.getLogger("ifxwire.server")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzzed_statements_end_in_a_result_or_an_informix_error(
        seed: int, connect_kwargs: dict[str, Any], log_errors: TracebackCatcher) -> None:
    gen = Gen(seed)
    name = f"fuzz{seed}"
    setup = ifxwire.connect(**connect_kwargs, autocommit=True)
    setup.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
    setup.close()
    conn = ifxwire.connect(**connect_kwargs, database=name, autocommit=True)
    cur = conn.cursor()
    for stmt in gen.ddl():
        cur.execute(stmt)
    outcomes = {"ok": 0, "error": 0}
    internal: list[tuple[str, str]] = []
    for _ in range(STATEMENTS):
        stmt = gen.statement()
        try:
            cur.execute(stmt)
            if cur.description is not None:
                cur.fetchall()
            outcomes["ok"] += 1
        except ifxwire.DatabaseError as e:
            assert e.sqlcode is not None and e.sqlcode < 0, (stmt, e)
            if "internal" in str(e):
                internal.append((stmt, str(e)))
            outcomes["error"] += 1
        # the session must still be usable after every statement
        cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
        assert cur.fetchone() == (1,), stmt
    conn.close()
    assert not log_errors.records, log_errors.records
    assert not internal, internal
    assert outcomes["ok"] > STATEMENTS // 5, outcomes  # the grammar mostly makes valid SQL
