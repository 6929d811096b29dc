"""Transactions in logged, unlogged and ANSI databases; autocommit; what BEGIN costs."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers

_SEQ = itertools.count()


@pytest.fixture(scope="module")
def dbs(driver: Any, connect_kwargs: dict[str, Any]) -> dict[str, str]:
    c = ifxwire.connect(**connect_kwargs)
    x = driver.suffix
    names = {"logged": f"tx_logged{x}", "unlogged": f"tx_plain{x}", "ansi": f"tx_ansi{x}"}
    cur = c.cursor()
    cur.execute(f"CREATE DATABASE tx_logged{x} WITH LOG")
    cur.execute(f"CREATE DATABASE tx_plain{x}")
    cur.execute(f"CREATE DATABASE tx_ansi{x} WITH LOG MODE ANSI")
    c.close()
    return names


@pytest.fixture()
def opener(driver: Any, connect_kwargs: dict[str, Any], dbs: dict[str, str]) -> Iterator[Any]:
    opened: list[ifxwire.Connection] = []

    def open_(mode: str, **kw: Any) -> ifxwire.Connection:
        c = driver.connect(**connect_kwargs, database=dbs[mode], **kw)
        opened.append(c)
        return c

    yield open_
    for c in opened:
        c.close()


def _table(c: ifxwire.Connection) -> str:
    name = f"tx_{next(_SEQ)}"
    c.execute(f"CREATE TABLE {name} (a INT)")
    c.commit()
    return name


def _count(c: ifxwire.Connection, table: str) -> int:
    row = c.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
    assert row is not None
    return int(row[0])


def _ansi_count(c: ifxwire.Connection, table: str) -> int:
    """A count by another session of an ANSI database, which then ends its transaction: its
    REPEATABLE READ (the ANSI default) keeps a share lock on the table it read until then,
    and under row locks that lock stops the writer's next INSERT (-271/-107) as on Informix
    (docs/SERVER.md "Locks and isolation"). COMMIT WORK with none open is allowed in ANSI."""
    n = _count(c, table)
    c.execute("COMMIT WORK")
    return n


def test_logged_select_does_not_begin(opener: Any, server: Any) -> None:
    c = opener("logged")
    t = _table(c)
    g = server.request_groups
    c.execute(f"SELECT a FROM {t}").fetchall()
    assert server.request_groups - g == 2  # PREPARE; OPEN+FETCH. No BEGIN.
    assert not c.in_transaction
    g = server.request_groups
    c.commit()
    c.rollback()
    assert server.request_groups == g  # nothing to end: no traffic


def test_logged_dml_begins_pipelined(opener: Any, server: Any) -> None:
    c = opener("logged")
    other = opener("logged", autocommit=True)
    t = _table(c)
    cur = c.cursor()
    cur.execute(f"INSERT INTO {t} VALUES (?)", (1,))
    assert c.in_transaction
    g = server.request_groups
    cur.execute(f"INSERT INTO {t} VALUES (?)", (2,))
    assert server.request_groups - g == 1  # already in the transaction: one group
    if server.engine.row_locks:
        # Informix: a COMMITTED READ scan meets the uncommitted rows' locks (-244/-107)
        with pytest.raises(ifxwire.OperationalError) as info:
            _count(other, t)
        assert (info.value.sqlcode, info.value.isamcode) == (-244, -107)
    else:
        assert _count(other, t) == 0  # not committed yet: the last committed rows
    c.rollback()
    assert not c.in_transaction
    assert _count(c, t) == 0
    cur.execute(f"INSERT INTO {t} VALUES (?)", (3,))
    c.commit()
    assert _count(other, t) == 1


def test_for_update_and_isolation_begin(opener: Any) -> None:
    c = opener("logged")
    t = _table(c)
    c.execute(f"SELECT a FROM {t} FOR UPDATE").fetchall()
    assert c.in_transaction
    c.rollback()
    c.execute("SET ISOLATION TO REPEATABLE READ")
    assert not c.in_transaction
    c.execute(f"SELECT a FROM {t}").fetchall()
    assert c.in_transaction
    c.commit()
    c.execute("SET ISOLATION TO COMMITTED READ")
    c.execute(f"SELECT a FROM {t}").fetchall()
    assert not c.in_transaction


def test_sql_level_transaction_statements(opener: Any) -> None:
    c = opener("logged", autocommit=True)
    other = opener("logged", autocommit=True)
    t = _table(c)
    c.execute("BEGIN WORK")
    assert c.in_transaction
    c.execute(f"INSERT INTO {t} VALUES (1)")
    c.execute("ROLLBACK WORK")
    assert not c.in_transaction
    c.execute("BEGIN WORK")
    c.execute(f"INSERT INTO {t} VALUES (2)")
    c.execute("COMMIT WORK")
    assert not c.in_transaction
    assert _count(other, t) == 1


def test_autocommit_toggle(opener: Any) -> None:
    c = opener("logged")
    other = opener("logged", autocommit=True)
    t = _table(c)
    c.execute(f"INSERT INTO {t} VALUES (1)")
    assert c.in_transaction
    c.autocommit = True  # commits the open transaction
    assert not c.in_transaction
    assert _count(other, t) == 1
    c.execute(f"INSERT INTO {t} VALUES (2)")
    assert not c.in_transaction
    assert _count(other, t) == 2
    c.autocommit = False
    c.execute(f"INSERT INTO {t} VALUES (3)")
    c.rollback()
    assert _count(other, t) == 2


def test_unlogged_never_begins(opener: Any, server: Any) -> None:
    c = opener("unlogged")
    assert c.logging_mode == "unlogged"
    t = _table(c)
    c.execute(f"INSERT INTO {t} VALUES (1)")
    assert not c.in_transaction
    g = server.request_groups
    c.rollback()  # no-op: there are no transactions
    c.commit()
    assert server.request_groups == g
    assert _count(c, t) == 1


def test_ansi_commit_and_rollback(opener: Any, server: Any) -> None:
    c = opener("ansi")
    other = opener("ansi", autocommit=True)
    assert c.logging_mode == "ansi"
    t = _table(c)
    g = server.request_groups
    c.execute(f"INSERT INTO {t} VALUES (1)")
    assert server.request_groups - g == 2  # PREPARE; EXECUTE. Never a BEGIN in ANSI.
    assert c.in_transaction
    c.rollback()
    assert _ansi_count(other, t) == 0
    c.execute(f"INSERT INTO {t} VALUES (2)")
    g = server.request_groups
    c.commit()
    assert server.request_groups - g == 1
    assert _ansi_count(other, t) == 1


def test_ansi_autocommit_commits_each_statement(opener: Any) -> None:
    c = opener("ansi", autocommit=True)
    other = opener("ansi", autocommit=True)
    t = _table(c)
    c.execute(f"INSERT INTO {t} VALUES (1)")
    assert not c.in_transaction
    assert _ansi_count(other, t) == 1
    c.cursor().executemany(f"INSERT INTO {t} VALUES (?)", [(i,) for i in range(5)])
    assert _ansi_count(other, t) == 6


def test_commit_closes_open_results(opener: Any) -> None:
    c = opener("logged", fetch_buffer_size=4096)
    t = _table(c)
    c.cursor().executemany(f"INSERT INTO {t} VALUES (?)", [(i,) for i in range(2000)])
    c.commit()
    cur = c.execute(f"SELECT a FROM {t}")
    first = cur.fetchmany(10)
    assert len(first) == 10
    c.execute(f"INSERT INTO {t} VALUES (-1)")
    c.commit()
    # The rows already received stay readable; asking the server for more is an error
    # rather than a silently truncated result.
    with pytest.raises(ifxwire.ProgrammingError, match="closed by commit"):
        cur.fetchall()
    assert len(c.execute(f"SELECT a FROM {t}").fetchall()) == 2001


def test_with_block_commits_or_rolls_back_then_closes(opener: Any) -> None:
    """Leaving a connection's ``with`` block (``Connection.leave_op``, both drivers): commit
    after a normal end, roll back after an exception (which goes on), then close."""
    other = opener("logged")
    table = _table(other)
    with opener("logged") as c:
        c.execute(f"INSERT INTO {table} VALUES (1)")
    assert c.closed
    with pytest.raises(ZeroDivisionError), opener("logged") as c:
        c.execute(f"INSERT INTO {table} VALUES (2)")
        1 / 0  # noqa: B018
    assert c.closed
    assert _count(other, table) == 1
    other.commit()
