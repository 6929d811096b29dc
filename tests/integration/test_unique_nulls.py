"""A unique key holds one NULL, as Informix has it (issue 23, Hibernate harvest).

"When defining a UNIQUE constraint, Informix allows only one row with a NULL value" (Four Js
Genero's database guide); Hibernate's InformixDialect tests skip nullable unique keys because
"Informix treats two nulls as equal" (UniqueConstraintTest and two more). The server let any
number of NULLs into a unique constraint or unique index (SQLite's rule). docs/SERVER.md,
"Unique keys and NULL".
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)

_SEQ = itertools.count()


@pytest.fixture()
def conn(connect_kwargs: dict[str, Any], dbname: str,
         driver: Any) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    yield c
    c.close()


def _code(conn: ifxwire.Connection, sql: str) -> tuple[int, str]:
    with pytest.raises(ifxwire.IntegrityError) as info:
        conn.execute(sql)
    return info.value.sqlcode, str(info.value)


def test_a_unique_constraint_admits_one_null(conn: ifxwire.Connection) -> None:
    t = f"un_{next(_SEQ)}"
    conn.execute(f"CREATE TABLE {t} (a INT UNIQUE CONSTRAINT {t}_a, b INT)")
    conn.execute(f"INSERT INTO {t} VALUES (NULL, 1)")
    code, text = _code(conn, f"INSERT INTO {t} VALUES (NULL, 2)")
    assert code == -268 and f"informix.{t}_a" in text
    conn.execute(f"INSERT INTO {t} VALUES (1, 3)")
    code, _ = _code(conn, f"UPDATE {t} SET a = NULL WHERE b = 3")
    assert code == -268
    # a rebuilt table (ALTER TABLE ADD) keeps the rule
    conn.execute(f"ALTER TABLE {t} ADD (c INT)")
    assert _code(conn, f"INSERT INTO {t} VALUES (NULL, 4, 4)")[0] == -268
    assert conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone() == (2,)
    # a NOT NULL column's key is SQLite's own index alone
    conn.execute(f"CREATE TABLE {t}_pk (k INT NOT NULL UNIQUE)")
    assert _code(conn, f"INSERT INTO {t}_pk VALUES (NULL)")[0] == -391


def test_a_unique_index_compares_nulls_as_equal(conn: ifxwire.Connection) -> None:
    t = f"un_{next(_SEQ)}"
    conn.execute(f"CREATE TABLE {t} (a INT, b DECIMAL(8, 2))")
    conn.execute(f"CREATE UNIQUE INDEX {t}_i ON {t} (a, b)")
    conn.execute(f"INSERT INTO {t} VALUES (1, NULL)")
    code, text = _code(conn, f"INSERT INTO {t} VALUES (1, NULL)")
    assert code == -239 and f"informix.{t}_i" in text
    conn.execute(f"INSERT INTO {t} VALUES (NULL, 1.5)")
    assert _code(conn, f"INSERT INTO {t} VALUES (NULL, 1.50)")[0] == -239  # numerically equal
    conn.execute(f"INSERT INTO {t} VALUES (2, NULL)")  # another key
    conn.execute(f"INSERT INTO {t} VALUES (1, 1.5)")  # no NULL: the ordinary rule
    conn.execute(f"RENAME INDEX {t}_i TO {t}_j")
    code, text = _code(conn, f"INSERT INTO {t} VALUES (2, NULL)")
    assert code == -239 and f"informix.{t}_j" in text
    conn.execute(f"DROP INDEX {t}_j")
    conn.execute(f"INSERT INTO {t} VALUES (2, NULL)")
    with pytest.raises(ifxwire.IntegrityError) as info:  # the rows now hold two such keys
        conn.execute(f"CREATE UNIQUE INDEX {t}_k ON {t} (a, b)")
    assert info.value.sqlcode == -371
    conn.execute(f"CREATE INDEX {t}_d ON {t} (a, b)")  # a duplicate index allows them


def test_temp_tables_too(conn: ifxwire.Connection) -> None:
    conn.execute("CREATE TEMP TABLE un_tmp (a CHAR(4), UNIQUE (a)) WITH NO LOG")
    conn.execute("INSERT INTO un_tmp VALUES (NULL)")
    assert _code(conn, "INSERT INTO un_tmp VALUES (NULL)")[0] == -268
    conn.execute("DROP TABLE un_tmp")
