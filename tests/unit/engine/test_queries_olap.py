"""Query forms of issue 12: UPDATE SET (list), ANY/ALL, OLAP windows, CTEs, nested OUTER,
the substring operator, MONEY text in arithmetic, MERGE."""

from __future__ import annotations

from decimal import Decimal

import pytest

from .conftest import Sql, codes


@pytest.fixture
def t(db: Sql) -> Sql:
    db.run("CREATE TABLE a (id INT, name CHAR(10), amt MONEY(8,2))")
    db.run("CREATE TABLE b (id INT, x INT)")
    db.run("CREATE TABLE c (id INT, y INT)")
    for row in ("1, 'one', 10.50", "2, 'two', 200", "3, 'three', 30"):
        db.run(f"INSERT INTO a VALUES ({row})")
    db.run("INSERT INTO b VALUES (1, 100)")
    db.run("INSERT INTO b VALUES (2, 50)")
    db.run("INSERT INTO c VALUES (1, 1000)")
    return db


def test_update_set_list(t: Sql) -> None:
    t.run("UPDATE a SET (name, amt) = ('uno', 11) WHERE id = 1")
    t.run("UPDATE a SET (name, amt) = ((SELECT 'b' || x FROM b WHERE b.id = a.id), 5) "
          "WHERE id = 2")
    t.run("UPDATE a SET (name, amt) = (SELECT 'z', b.x FROM b WHERE b.id = a.id) WHERE id = 1")
    assert t.rows("SELECT id, name, amt FROM a ORDER BY id") == [
        (1, "z", Decimal("100.00")), (2, "b50", Decimal("5.00")), (3, "three", Decimal("30.00"))]
    assert codes(t.err("UPDATE a SET (name, amt) = ('x')"))[0] == -236


def test_any_some_all(t: Sql) -> None:
    assert t.rows("SELECT id FROM a WHERE amt > ALL (SELECT x FROM b) ORDER BY 1") == [(2,)]
    assert t.rows("SELECT id FROM a WHERE amt < ANY (SELECT x FROM b) ORDER BY 1") == [(1,), (3,)]
    assert t.rows("SELECT id FROM a WHERE amt < SOME (SELECT x FROM b WHERE b.id = a.id)") == [
        (1,)]
    assert t.rows("SELECT id FROM a WHERE amt > ALL (SELECT x FROM b WHERE x > 999) "
                  "ORDER BY 1") == [(1,), (2,), (3,)]
    assert t.rows("SELECT id FROM a WHERE id = ANY (SELECT id FROM b UNION SELECT 3 FROM b) "
                  "ORDER BY 1") == [(1,), (2,), (3,)]


def test_window_functions(t: Sql) -> None:
    rows = t.rows("SELECT id, ROW_NUMBER() OVER (ORDER BY amt DESC), "
                  "RANK() OVER (ORDER BY amt), DENSE_RANK() OVER (ORDER BY amt), "
                  "SUM(amt) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), "
                  "COUNT(*) OVER (), AVG(amt) OVER (PARTITION BY id) FROM a ORDER BY id")
    assert rows == [
        (1, 3, 1, 1, Decimal("10.50"), 3, Decimal("10.5")),
        (2, 1, 3, 3, Decimal("210.50"), 3, Decimal("200")),
        (3, 2, 2, 2, Decimal("230.00"), 3, Decimal("30")),
    ]


def test_olap_offset_and_distribution_functions(t: Sql) -> None:
    """LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTILE, CUME_DIST, PERCENT_RANK, RATIO_TO_REPORT
    and RANGE over a window (the OLAP functions of the Guide to SQL: Syntax)."""
    assert t.rows("SELECT id, LAG(amt) OVER (ORDER BY id), LEAD(amt, 1, 0) OVER (ORDER BY id) "
                  "FROM a ORDER BY id") == [
        (1, None, Decimal("200.00")), (2, Decimal("10.50"), Decimal("30.00")),
        (3, Decimal("200.00"), Decimal("0.00"))]
    assert t.rows("SELECT id, FIRST_VALUE(amt) OVER (ORDER BY id), LAST_VALUE(amt) OVER ("
                  "ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) "
                  "FROM a ORDER BY id")[0] == (1, Decimal("10.50"), Decimal("30.00"))
    assert t.rows("SELECT id, NTILE(2) OVER (ORDER BY id), CUME_DIST() OVER (ORDER BY id), "
                  "PERCENT_RANK() OVER (ORDER BY id) FROM a ORDER BY id") == [
        (1, 1, 1 / 3, 0.0), (2, 1, 2 / 3, 0.5), (3, 2, 1.0, 1.0)]
    ratio = t.rows("SELECT id, RATIO_TO_REPORT(amt) OVER () FROM a ORDER BY id")[2]
    assert ratio[0] == 3 and round(ratio[1], 6) == Decimal("0.124740")  # 30 / 240.50
    assert t.rows("SELECT id, RANGE(amt) OVER () FROM a ORDER BY id")[0] == (
        1, Decimal("189.50"))
    # ids_sqs_2595: ORDER and frame are optional, the ratio is to the frame's sum; a
    # non-numeric argument is -25862.
    running = t.rows("SELECT id, RATIO_TO_REPORT(amt) OVER (ORDER BY id) FROM a ORDER BY id")
    assert [round(r[1], 4) for r in running] == [1, Decimal("0.9501"), Decimal("0.1247")]
    assert codes(t.err("SELECT RATIO_TO_REPORT(name) OVER () FROM a"))[0] == -25862


def test_cte_and_substring_operator(t: Sql) -> None:
    assert t.rows("WITH big AS (SELECT id, name FROM a WHERE amt > 20) "
                  "SELECT name[1,2], name[3,3] FROM big ORDER BY id") == [("tw", "o"), ("th", "r")]
    assert t.describe("SELECT name[2,4] FROM a")[0][1:] == (0, 3)


def test_cte_column_list(t: Sql) -> None:
    """``WITH name (columns) AS (query)`` names the query's columns (was -217 for them)."""
    assert t.rows("WITH big (k, label) AS (SELECT id, name FROM a WHERE amt > 20) "
                  "SELECT SUM(k), MAX(label) FROM big") == [(5, "two")]
    assert t.rows("WITH u (k) AS (SELECT id FROM a WHERE id = 1 UNION SELECT id + 10 AS x "
                  "FROM a WHERE id = 1) SELECT k FROM u ORDER BY k") == [(1,), (11,)]
    assert codes(t.err("WITH w (k, l) AS (SELECT id FROM a) SELECT k FROM w"))[0] == -382


def test_nested_outer_joins(t: Sql) -> None:
    assert t.rows("SELECT a.id, b.x, c.y FROM a, OUTER (b, c) WHERE a.id = b.id "
                  "AND b.id = c.id ORDER BY 1") == [(1, 100, 1000), (2, None, None),
                                                   (3, None, None)]
    assert t.rows("SELECT a.id, b.x, c.y FROM a, OUTER (b, OUTER c) WHERE a.id = b.id "
                  "AND b.id = c.id ORDER BY 1") == [(1, 100, 1000), (2, 50, None),
                                                   (3, None, None)]


def test_outer_without_comma(t: Sql) -> None:
    """HCL's 14.10 tutorial prints ``FROM customer c OUTER cust_calls u`` (Left outer join,
    Figure 3): the same outer join as ``, OUTER``, with or without aliases, also for groups."""
    comma = t.rows("SELECT a.id, b.x FROM a, OUTER b WHERE a.id = b.id ORDER BY 1")
    assert t.rows("SELECT a.id, b.x FROM a OUTER b WHERE a.id = b.id ORDER BY 1") == comma
    assert t.rows("SELECT p.id, q.x FROM a p OUTER b q WHERE p.id = q.id ORDER BY 1") == comma
    # A filter on the subservient table joins it (applied before the join, not after).
    assert t.rows("SELECT p.id, q.x FROM a p OUTER b q WHERE p.id = q.id AND q.x > 60 "
                  "ORDER BY 1") == [(1, 100), (2, None), (3, None)]
    assert t.rows("SELECT a.id, b.x, c.y FROM a OUTER (b, OUTER c) WHERE a.id = b.id "
                  "AND b.id = c.id ORDER BY 1") == [(1, 100, 1000), (2, 50, None),
                                                   (3, None, None)]


def test_money_text_in_arithmetic(t: Sql) -> None:
    assert t.one("SELECT amt + '$1.50' FROM a WHERE id = 1") == Decimal("12.00")
    assert t.one("SELECT amt * '2' FROM a WHERE id = 1") == Decimal("21.00")
    assert codes(t.err("SELECT amt + 'x' FROM a"))[0] == -1213


def test_merge(t: Sql) -> None:
    t.run("INSERT INTO b VALUES (7, 70)")
    n = t.run("MERGE INTO a t USING b s ON t.id = s.id "
              "WHEN MATCHED THEN UPDATE SET t.amt = s.x "
              "WHEN NOT MATCHED THEN INSERT (id, name, amt) VALUES (s.id, 'new', s.x)").rowcount
    assert n == 3
    assert t.rows("SELECT id, name, amt FROM a ORDER BY id") == [
        (1, "one", Decimal("100.00")), (2, "two", Decimal("50.00")),
        (3, "three", Decimal("30.00")), (7, "new", Decimal("70.00"))]
    assert t.run("MERGE INTO a USING c ON a.id = c.id WHEN MATCHED THEN DELETE").rowcount == 1
    assert t.one("SELECT COUNT(*) FROM a") == 3
    t.run("INSERT INTO c VALUES (2, 1)")
    t.run("INSERT INTO c VALUES (2, 2)")
    assert codes(t.err("MERGE INTO a USING c ON a.id = c.id "
                       "WHEN MATCHED THEN UPDATE SET amt = c.y"))[0] == -284


def test_merge_delete_and_insert_together(t: Sql) -> None:
    """HCL Informix Guide to SQL: Syntax, "MERGE statement": a Delete clause with an Insert
    clause. "Not matched" is judged before the DELETE: a source row whose target row is
    deleted is not inserted again, and the rows inserted are not deleted."""
    t.run("INSERT INTO b VALUES (7, 70)")
    n = t.run("MERGE INTO a t USING b s ON t.id = s.id WHEN MATCHED THEN DELETE "
              "WHEN NOT MATCHED THEN INSERT (id, name, amt) VALUES (s.id, 'new', s.x)").rowcount
    assert n == 3
    assert t.rows("SELECT id, name, amt FROM a ORDER BY id") == [
        (3, "three", Decimal("30.00")), (7, "new", Decimal("70.00"))]
    # the insert-first order also keeps an UPDATE of the join column from inserting again
    t.run("INSERT INTO c VALUES (8, 80)")
    n = t.run("MERGE INTO a USING c ON a.id = c.id WHEN NOT MATCHED THEN "
              "INSERT (id, name, amt) VALUES (c.id, 'c', c.y) "
              "WHEN MATCHED THEN UPDATE SET a.id = a.id + 100").rowcount
    assert n == 2  # (1, 1000) and (8, 80) are new; nothing in a matched before
    assert t.rows("SELECT id, name FROM a ORDER BY id") == [
        (1, "c"), (3, "three"), (7, "new"), (8, "c")]
    n = t.run("MERGE INTO a USING c ON a.id = c.id WHEN MATCHED THEN UPDATE SET a.id = a.id + 100 "
              "WHEN NOT MATCHED THEN INSERT (id, name) VALUES (c.id, 'again')").rowcount
    assert n == 2
    assert t.rows("SELECT id, name FROM a ORDER BY id") == [
        (3, "three"), (7, "new"), (101, "c"), (108, "c")]


def test_merge_compiler_keys_stay_alive(t: Sql) -> None:
    """The compiler keys its typing by id() of sqlglot nodes and scopes, and a MERGE compiles
    several queries with one compiler: a freed key's id() went to a later scope, which then
    found an earlier scope's columns (-217 "Column (id) not found", now and then in CI). Every
    key must stay a live object for the compiler's life."""
    from ifxwire.server.engine.sql.translate import Compiler

    t.run("INSERT INTO b VALUES (7, 70)")
    compiler = Compiler(t.s, t.s._ctx(), False)
    compiler.compile("MERGE INTO a t USING b s ON t.id = s.id WHEN MATCHED THEN DELETE "
                     "WHEN NOT MATCHED THEN INSERT (id, name, amt) VALUES (s.id, 'new', s.x)")
    alive = {id(o) for o in compiler._pinned}
    assert compiler.outputs and set(compiler.outputs) <= alive
    assert compiler.envs and set(compiler.envs) <= alive


@pytest.mark.parametrize("clauses", [
    "WHEN MATCHED AND s.x > 60 THEN DELETE",
    "WHEN NOT MATCHED AND s.x > 60 THEN INSERT (id) VALUES (s.id)",
    "WHEN MATCHED THEN DELETE WHEN MATCHED THEN UPDATE SET amt = s.x",
    "WHEN MATCHED THEN UPDATE SET amt = s.x WHEN MATCHED THEN DELETE",
    "WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id) "
    "WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)",
    "WHEN NOT MATCHED BY SOURCE THEN DELETE",
])
def test_merge_forms_outside_informix_syntax_are_syntax_errors(t: Sql, clauses: str) -> None:
    """Informix's MERGE has no `AND condition` after WHEN, no BY SOURCE, and at most one
    Update or Delete clause and one Insert clause (the MERGE syntax diagram): -201."""
    assert t.err(f"MERGE INTO a t USING b s ON t.id = s.id {clauses}").sqlcode == -201
    assert t.one("SELECT COUNT(*) FROM a") == 3


def test_merge_inside_an_spl_procedure(t: Sql) -> None:
    t.run("CREATE PROCEDURE sync_a() MERGE INTO a USING b ON a.id = b.id "
          "WHEN MATCHED THEN UPDATE SET a.amt = b.x "
          "WHEN NOT MATCHED THEN INSERT (id, amt) VALUES (b.id, b.x); END PROCEDURE")
    t.run("INSERT INTO b VALUES (9, 90)")
    t.run("EXECUTE PROCEDURE sync_a()")
    assert t.rows("SELECT id, amt FROM a ORDER BY id") == [
        (1, Decimal("100.00")), (2, Decimal("50.00")), (3, Decimal("30.00")),
        (9, Decimal("90.00"))]
