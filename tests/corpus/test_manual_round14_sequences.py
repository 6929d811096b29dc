"""CREATE and ALTER SEQUENCE refusals with their own codes, fourteenth round (issue 23), through
the real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "ALTER SEQUENCE statement" (ids_sqs_0281: step
"Must be a nonzero integer"; each option path used "no more than once"), "RESTART WITH Option"
(ids_sqs_0283: the restart value must be at least the min value of an ascending sequence, at
most the max value of a descending one, when the statement gives them), "CREATE SEQUENCE
statement". The codes are IBM's message catalogue's in the JDBC jar, whose texts name each
case: -8305 "INCREMENT 0 is not allowed in sequences.", -8309 "Cannot RESTART the sequence at a
value less than MINVALUE or greater than MAXVALUE.", -8312 "No options specified for ALTER
SEQUENCE.", -8303 "Duplicate or conflicting (%s) specification in sequence definition.".
Before this round the first two were the general -8302, an ALTER SEQUENCE with no option was
accepted, and a repeated or contradicted option was taken (the last one won).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "seq14") as conn:
        c = conn.cursor()
        c.execute("CREATE SEQUENCE s")
        yield c


def _next(cur: ifxwire.Cursor) -> Any:
    return rows(cur, "SELECT s.NEXTVAL FROM systables WHERE tabid = 1")[0][0]


def test_a_zero_step_is_8305(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "CREATE SEQUENCE z INCREMENT BY 0", fetch=False) == -8305
    assert sqlcode(cur, "ALTER SEQUENCE s INCREMENT BY 0", fetch=False) == -8305
    assert _next(cur) == 1  # s is unchanged


def test_a_restart_outside_the_bounds_is_8309(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "ALTER SEQUENCE s RESTART WITH 10 MAXVALUE 5", fetch=False) == -8309
    assert sqlcode(cur, "ALTER SEQUENCE s RESTART WITH -5 MINVALUE 1", fetch=False) == -8309
    cur.execute("ALTER SEQUENCE s RESTART WITH 50")
    assert _next(cur) == 50
    # other contradictions keep the general code
    assert sqlcode(cur, "CREATE SEQUENCE c MINVALUE 5 MAXVALUE 2", fetch=False) == -8302


def test_alter_sequence_without_an_option_is_8312(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "ALTER SEQUENCE s", fetch=False) == -8312


@pytest.mark.parametrize("sql, word", [
    ("CREATE SEQUENCE d INCREMENT BY 1 INCREMENT BY 2", "INCREMENT"),
    ("CREATE SEQUENCE d CACHE 5 NOCACHE", "NOCACHE"),
    ("CREATE SEQUENCE d MAXVALUE 9 NOMAXVALUE", "NOMAXVALUE"),
    ("ALTER SEQUENCE s CYCLE NOCYCLE", "NOCYCLE"),
    ("ALTER SEQUENCE s MINVALUE 1 MINVALUE 2", "MINVALUE"),
])
def test_an_option_twice_or_with_its_opposite_is_8303(cur: ifxwire.Cursor, sql: str,
                                                     word: str) -> None:
    assert sqlcode(cur, sql, fetch=False) == -8303
    with pytest.raises(ifxwire.Error, match=word):
        cur.execute(sql)


def test_every_option_once_passes(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE SEQUENCE f INCREMENT BY 2 START WITH 5 MINVALUE 1 MAXVALUE 99 "
                "CYCLE CACHE 10 ORDER")
    cur.execute("ALTER SEQUENCE f INCREMENT BY 3 RESTART WITH 7 MAXVALUE 50 MINVALUE 2 "
                "NOCYCLE NOCACHE NOORDER")
    assert rows(cur, "SELECT f.NEXTVAL FROM systables WHERE tabid = 1") == [(7,)]
