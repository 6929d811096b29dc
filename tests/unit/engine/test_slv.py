"""Statement-local variables: ``WHERE f(x, v # type)`` then ``v`` elsewhere in the query.

Models the manuals' examples: the DataBlade API guide's ``out_test(title, 'aaa', weight #
INTEGER)`` ("The statement-local variable"), the User-Defined Routines guide's ``my_func(x #
INT, y, z # INT) < 100 AND (x = 3) AND (z = 5)`` ("Statement-local variables (SLVs)"), and
the SPL-function-with-OUT-parameter call with a host variable that Genero's Informix
documentation prints (``proc2(?, r # int) == 1``). Errors: the message catalogue's -978x.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from .conftest import Sql


@pytest.fixture
def t(db: Sql) -> Sql:
    db.run("CREATE TABLE mytab (title CHAR(10), n INT)")
    for title, n in (("aaa", 5), ("bbbb", 7), ("cc", 1)):
        db.run(f"INSERT INTO mytab VALUES ('{title}', {n})")
    db.run("""CREATE FUNCTION out_test(t CHAR(10), want CHAR(10), OUT w INT)
        RETURNING BOOLEAN;
        LET w = LENGTH(t) * 10;
        RETURN t = want;
    END FUNCTION""")
    db.run("""CREATE FUNCTION my_func(a INT, OUT x INT, b INT, OUT z INT) RETURNING INT;
        LET x = a; LET z = b; RETURN a + b;
    END FUNCTION""")
    db.run("""CREATE FUNCTION proc2(i INT, OUT r INT) RETURNING INT;
        LET r = i + 10; RETURN 1;
    END FUNCTION""")
    return db


def test_manual_examples(t: Sql) -> None:
    assert t.rows("SELECT title, weight FROM mytab "
                  "WHERE out_test(title, 'aaa', weight # INTEGER)") == [("aaa", 30)]
    assert t.describe("SELECT title, weight FROM mytab "
                      "WHERE out_test(title, 'aaa', weight # INTEGER)")[1][0] == "weight"
    assert t.rows("SELECT x, z FROM mytab WHERE my_func(n, x # INT, 5, z # INT) < 100 "
                  "AND (x = 7) AND (z = 5)") == [(7, 5)]
    assert t.rows("SELECT r FROM mytab WHERE n = 1 AND proc2(?, r # int) == 1", 33) == [(43,)]


def test_uses_in_where_order_by_and_subqueries(t: Sql) -> None:
    # a use before the declaring call in the WHERE clause still sees this row's value
    assert t.rows("SELECT n, r FROM mytab WHERE r > 11 AND proc2(n, r # INT) = 1 "
                  "ORDER BY r DESC") == [(7, 17), (5, 15)]
    # the declared type converts the OUT value
    assert t.rows("SELECT r FROM mytab WHERE proc2(n, r # DECIMAL(5,1)) = 1 AND n = 5") == [
        (Decimal("15.0"),)]
    # visible in the subqueries of the query that declares it
    assert t.rows("SELECT n FROM mytab WHERE proc2(n, r # INT) = 1 AND EXISTS "
                  "(SELECT 1 FROM mytab m WHERE m.n + 10 = r) ORDER BY n") == [
        (1,), (5,), (7,)]
    # in a join, each row pair gets the value of its own call
    assert t.rows("SELECT a.n, r FROM mytab a, mytab b WHERE proc2(b.n, r # INT) = 1 "
                  "AND a.n + 10 = r ORDER BY 1") == [(1, 11), (5, 15), (7, 17)]


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT r FROM mytab WHERE n IN (SELECT n FROM mytab WHERE proc2(n, r # INT) = 1)",
     -9784),  # used in the enclosing query
    ("SELECT proc2(n, r # INT) FROM mytab", -9780),  # declared outside WHERE
    ("SELECT n FROM mytab WHERE proc2(n, r # INT) = 1 AND proc2(n, r # INT) = 1", -9782),
    ("SELECT n FROM mytab WHERE proc2(n, 5) = 1", -9752),  # the OUT argument is no SLV
    ("SELECT n FROM mytab WHERE proc2(r # INT, 5) = 1", -674),  # an SLV for an IN parameter
    ("EXECUTE FUNCTION proc2(1, r # INT)", -9781),
    ("SELECT n FROM mytab WHERE proc2(n, r # INT) = 1 GROUP BY n, r", -999),
])
def test_refusals(t: Sql, sql: str, code: int) -> None:
    assert t.err(sql).sqlcode == code
    assert t.one("SELECT COUNT(*) FROM mytab") == 3  # the session goes on
