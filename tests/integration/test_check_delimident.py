"""A CHECK constraint written under DELIMIDENT keeps working after later ALTER TABLEs.

Every ALTER TABLE rebuilds the table and re-reads each CHECK from its text in ``syschecks``.
That text was re-read without DELIMIDENT, so a check written as Django writes them,
``CHECK ("qty" > 0)``, became a comparison of the string literal 'qty' after the next ALTER
and refused nothing. Informix evaluates a check from its binary-encoded form (the type 'B'
rows of ``syschecks``), never from the text again, so DELIMIDENT at ALTER time cannot change
it; the server records how the text was read in its own 'B' row (docs/SERVER.md, ALTER TABLE).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire


def _connect(connect_kwargs: dict[str, Any], dbname: str, delimident: bool) -> ifxwire.Connection:
    env = {"DELIMIDENT": "y"} if delimident else {}
    return ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True, env=env)


@pytest.fixture()
def conn(connect_kwargs: dict[str, Any], dbname: str) -> Iterator[ifxwire.Connection]:
    c = _connect(connect_kwargs, dbname, True)
    c.execute("DROP TABLE IF EXISTS ck_t")
    yield c
    c.close()


def _refused(conn: ifxwire.Connection, sql: str) -> None:
    with pytest.raises(ifxwire.IntegrityError) as info:
        conn.execute(sql)
    assert info.value.sqlcode == -530  # check constraint failed


def test_create_table_check_survives_alter(conn: ifxwire.Connection) -> None:
    conn.execute('CREATE TABLE ck_t ("id" INT, "qty" INT, CHECK ("qty" > 0) CONSTRAINT "qty_pos")')
    _refused(conn, "INSERT INTO ck_t VALUES (1, 0)")
    conn.execute('ALTER TABLE ck_t ADD ("note" VARCHAR(10))')
    _refused(conn, "INSERT INTO ck_t (id, qty) VALUES (2, -1)")
    conn.execute('ALTER TABLE ck_t MODIFY ("note" VARCHAR(20))')
    _refused(conn, "INSERT INTO ck_t (id, qty) VALUES (3, -1)")
    conn.execute("INSERT INTO ck_t (id, qty) VALUES (4, 5)")
    # syschecks still shows the text as it was written
    text = "".join(r[0] for r in conn.execute(
        "SELECT checktext FROM syschecks k, sysconstraints c WHERE k.constrid = c.constrid "
        "AND c.constrname = 'qty_pos' AND k.type = 'T' ORDER BY seqno").fetchall())
    assert text.strip() == '"qty" > 0'


def test_added_check_survives_alter_from_a_session_without_delimident(
        conn: ifxwire.Connection, connect_kwargs: dict[str, Any], dbname: str) -> None:
    conn.execute('CREATE TABLE ck_t ("id" INT, "qty" INT)')
    conn.execute('ALTER TABLE ck_t ADD CONSTRAINT CHECK ("qty" > 0) CONSTRAINT "qty_pos"')
    conn.execute('ALTER TABLE ck_t ADD ("b" INT)')
    _refused(conn, "INSERT INTO ck_t (id, qty) VALUES (1, 0)")
    # a later session without DELIMIDENT alters the table: the check still reads a column
    with _connect(connect_kwargs, dbname, False) as plain:
        plain.execute("ALTER TABLE ck_t ADD (c INT)")
        _refused(plain, "INSERT INTO ck_t (id, qty) VALUES (2, 0)")
        plain.execute("RENAME COLUMN ck_t.qty TO amount")
        plain.execute("ALTER TABLE ck_t DROP (c)")
        _refused(plain, "INSERT INTO ck_t (id, amount) VALUES (3, 0)")


def test_plain_check_with_a_double_quoted_string_stays_a_string(
        connect_kwargs: dict[str, Any], dbname: str) -> None:
    """Without DELIMIDENT "x" is a string literal, and stays one after a rebuild under a
    session that has DELIMIDENT on."""
    with _connect(connect_kwargs, dbname, False) as plain:
        plain.execute("DROP TABLE IF EXISTS ck_t")
        plain.execute('CREATE TABLE ck_t (code CHAR(3), CHECK (code <> "bad"))')
        _refused(plain, "INSERT INTO ck_t VALUES ('bad')")
    with _connect(connect_kwargs, dbname, True) as delim:
        delim.execute("ALTER TABLE ck_t ADD (n INT)")
        _refused(delim, "INSERT INTO ck_t (code) VALUES ('bad')")
        delim.execute("INSERT INTO ck_t (code) VALUES ('ok')")
        delim.execute("DROP TABLE ck_t")
