"""CURSOR STABILITY's form of a query (``RowLockReads.rl_stability_plan``): the query again
with its table's rowid as a hidden last column, compiled at the first OPEN under that level
and kept on the plan, which the engine shares between sessions.

REVIEW-locks F5: the form was compiled against whatever the schema was at that OPEN and
kept whatever came out. A table changed since the plan was compiled (a DDL committed after
the OPEN's -710 check) gave a form one column wider than the plan's description, kept on
the plan; the form is now kept only when its tables have the plan's shape. F6: a query
whose result row is no one table row (an aggregate, a view) gets no form.
"""

from __future__ import annotations

from .conftest import Sql, session_on


def test_a_form_compiled_against_a_changed_table_is_not_kept(db: Sql) -> None:
    db.run("CREATE TABLE t (a INT, b INT)")
    p = db.s.prepare("SELECT * FROM t")
    other = session_on(db.s.engine, "testdb")
    try:
        other.run("ALTER TABLE t ADD c INT")  # between the plan's compile and the form's
    finally:
        other.s.close()
    assert db.s.rl_stability_plan(p.plan) is None
    assert p.plan.stability is None and not p.plan.stability_done  # tried again next OPEN
    p = db.s.prepare("SELECT * FROM t")  # the new schema's plan: its form is made
    variant = db.s.rl_stability_plan(p.plan)
    assert variant is not None and p.plan.stability_done
    assert p.plan.stability is not None and p.plan.stability[1] == "t"


def test_no_form_for_aggregates_and_views(db: Sql) -> None:
    db.run("CREATE TABLE t (a INT, b INT)")
    db.run("CREATE VIEW v AS SELECT a, b FROM t")
    for sql in ("SELECT COUNT(*) FROM t", "SELECT MAX(a) + 1 FROM t WHERE b > 0",
                "SELECT 1 FROM t HAVING COUNT(*) > 1", "SELECT a FROM v"):
        p = db.s.prepare(sql)
        assert db.s.rl_stability_plan(p.plan) is None, sql
        assert p.plan.stability_done, sql
    for sql in ("SELECT a, (SELECT COUNT(*) FROM t) FROM t",
                "SELECT a, SUM(b) OVER (PARTITION BY a) FROM t"):
        p = db.s.prepare(sql)
        assert db.s.rl_stability_plan(p.plan) is not None, sql
