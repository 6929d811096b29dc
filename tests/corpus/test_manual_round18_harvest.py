"""SQL facts informix-driver recorded on real servers (issue 23's "Harvest", eighteenth
round), through the real driver and the embedded server over sockets.

Source: informix-driver's sdist 2026.9.3 (PyPI; read only), its CHANGELOG releases
2026.08.31 to 2026.09.03 and the tests that check each fact against real 12.10.FC12W1DE,
14.10.FC7W1DE and 15.0.1.0.3DE servers. Each case names the release and the test; the
statements are ours. The wire facts of the same releases are in docs/PROTOCOL.md §17 with
their tests; these are the SQL ones (docs/SERVER.md, "informix-driver's SQL facts").
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal as D
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode

ONE = " FROM systables WHERE tabid = 1"


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "harvest18") as conn:
        yield conn.cursor()


# ---- lexical rules (2026.09.03 "A placeholder rewriter that could not see a string literal";
# test_placeholder_rewrite.py: "measured against all three servers") --------------------------
def test_a_backslash_escapes_nothing(cur: ifxwire.Cursor) -> None:
    """``'a\\'b'`` is an unterminated string on a real server: -282; ``'a\\'`` is a string of
    two characters."""
    assert sqlcode(cur, "SELECT 'a\\'b'" + ONE) == -282
    assert rows(cur, "SELECT 'a\\', LENGTH('a\\')" + ONE) == [("a\\", 2)]


def test_block_comments_do_not_nest(cur: ifxwire.Cursor) -> None:
    """"``/* a /* b */ c */`` is a syntax error on all three servers, so the first ``*/``
    closes the comment" (test_block_comments_do_not_nest)."""
    assert rows(cur, "SELECT /* a /* b */ 1" + ONE) == [(1,)]
    assert sqlcode(cur, "SELECT /* a /* b */ c */ 1" + ONE) == -201


@pytest.mark.parametrize("lead", ["-- daily report\n", "/* daily report */ ",
                                  "{ daily report } ", "(", "/* a */ ("])
def test_queries_behind_comments_and_parentheses(cur: ifxwire.Cursor, lead: str) -> None:
    """2026.09.02 "Five ordinary query forms": a leading comment of each of the three kinds
    (braces are a comment), and a parenthesized SELECT, are queries whose rows come back
    (the server's DESCRIBE says SELECT; informix-driver opened no cursor for them and got
    -260)."""
    sql = lead + "SELECT tabname" + ONE + (")" if lead.rstrip().endswith("(") else "")
    assert rows(cur, sql) == [("systables",)]


def test_union_of_parenthesized_selects_and_with(cur: ifxwire.Cursor) -> None:
    """2026.09.02: ``(SELECT a) UNION (SELECT b)`` and ``WITH cte AS (...) SELECT`` are
    queries (14.10 and 15; 12.10 has no common table expressions, the one skip of its
    suite)."""
    assert rows(cur, "(SELECT tabid" + ONE + ") UNION (SELECT tabid FROM systables "
                     "WHERE tabid = 2) ORDER BY 1") == [(1,), (2,)]
    assert rows(cur, "WITH t AS (SELECT tabid" + ONE + ") SELECT tabid FROM t") == [(1,)]


# ---- values (2026.08.31.2 "Two harness false positives"; test_decimal.py) --------------------
def test_an_over_long_string_is_truncated_silently(cur: ifxwire.Cursor) -> None:
    """"Informix silently truncates over-long strings — a 500-character value into
    VARCHAR(8) stores 8 characters and raises nothing", bound or written as a literal (in a
    database that is not ANSI)."""
    cur.execute("CREATE TABLE trunc (id INT, v VARCHAR(8), c CHAR(4))")
    cur.execute("INSERT INTO trunc VALUES (1, ?, ?)", ("x" * 500, "abcdefg"))
    cur.execute("INSERT INTO trunc VALUES (2, '" + "y" * 500 + "', 'hijklmn')")
    assert rows(cur, "SELECT id, v, c FROM trunc ORDER BY id") == [
        (1, "x" * 8, "abcd"), (2, "y" * 8, "hijk")]


def test_a_bare_parameter_in_the_projection(cur: ifxwire.Cursor) -> None:
    """"Informix also rejects a bare ``?`` in a projection (``SELECT ? FROM t`` is a syntax
    error — no type to infer). ``SELECT ?::INT FROM t`` works." A value the cast cannot hold
    is the server's refusal (test_statement_release.py, out-of-range-int: 2**40), and the
    connection goes on."""
    assert sqlcode(cur, "SELECT ?" + ONE, (1,)) == -201
    assert rows(cur, "SELECT ?::INT" + ONE, (7,)) == [(7,)]
    assert sqlcode(cur, "SELECT ?::INT" + ONE, (2**40,)) == -1215
    assert rows(cur, "SELECT FIRST 1 tabid FROM systables") == [(1,)]


def test_a_string_bound_for_an_integer_is_the_servers_refusal(cur: ifxwire.Cursor) -> None:
    """test_statement_release.py (string-for-int): a string bound where an INT is compared
    encodes cleanly and the server refuses it (-1213), after which the connection works."""
    assert sqlcode(cur, "SELECT tabid FROM systables WHERE tabid = ?", ("not-an-int",)) == -1213
    assert rows(cur, "SELECT FIRST 1 tabid FROM systables") == [(1,)]


def test_count_sum_and_avg_are_decimal(cur: ifxwire.Cursor) -> None:
    """test_decimal.py: "COUNT(*) returns DECIMAL", SUM of an INTEGER column is DECIMAL
    (1 + … + 10 = 55 exactly), AVG a DECIMAL with its fraction (5.5)."""
    (row,) = rows(cur, "SELECT COUNT(*), SUM(tabid), AVG(tabid) FROM systables "
                       "WHERE tabid <= 10")
    assert row == (D(10), D(55), D("5.5"))
    assert all(type(v) is D for v in row)
    assert [d[1] for d in cur.description] == [ifxwire.NUMBER] * 3
