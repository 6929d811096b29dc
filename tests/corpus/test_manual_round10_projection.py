"""SKIP, FIRST, LIMIT and ORDER BY in subqueries, tenth round (issue 23), through the real
driver and the embedded server over sockets.

Rule: HCL Informix 14.10 Guide to SQL: Syntax, "Projection Clause" (``ids_sqs_0156``), the
row of its table for the subquery element: "A subquery within the Projection clause cannot
include SKIP, FIRST, INTO TEMP, or ORDER BY clause". The Tutorial's "FIRST clause to select
specific rows" (``ids_sqt_074``) says more (no SKIP, FIRST or LIMIT "in a subquery, except in
the FROM clause of the outer query"), but Hibernate renders FIRST n in WHERE-clause
subqueries for 14.10, so only the Syntax guide's narrower rule is applied to FIRST and LIMIT
(SKIP in any subquery outside FROM was already -944). The code is -944, whose message in the
Informix message catalogue (IBM JDBC 4.50.12) names these keywords: 'Cannot use "first",
"limit" or "skip" in this context.'
"""

from __future__ import annotations

import pytest

import ifxwire

from .manual import rows, sqlcode


@pytest.mark.parametrize("sql", [
    "SELECT (SELECT FIRST 1 stock_num FROM stock) FROM manufact",
    "SELECT manu_code, (SELECT LIMIT 1 description FROM stock s WHERE s.manu_code = "
    "m.manu_code) AS d FROM manufact m",
    "SELECT 1 + (SELECT FIRST 1 stock_num FROM stock ORDER BY 1) FROM manufact",
])
def test_first_in_a_projection_subquery_is_944(stores: ifxwire.Connection, sql: str) -> None:
    """FIRST (and LIMIT, its synonym there) in a subquery of the Projection clause, alone or
    inside an expression, is -944 before anything runs. (Was accepted.)"""
    assert sqlcode(stores.cursor(), sql) == -944


def test_order_by_in_a_projection_subquery_is_refused(stores: ifxwire.Connection) -> None:
    """The same row of the Syntax guide forbids ORDER BY there; the message catalogue has no
    code of its own for it, so it is refused -999 (it was accepted). ORDER BY in a
    WHERE-clause subquery or a derived table stays accepted (see the next case)."""
    assert sqlcode(stores.cursor(), "SELECT (SELECT MAX(stock_num) FROM stock ORDER BY 1) "
                                    "FROM manufact") == -999


def test_first_stays_where_the_syntax_guide_allows_it(stores: ifxwire.Connection) -> None:
    """FIRST in a derived table, in a WHERE-clause subquery (Hibernate's form), and in a
    WHERE-clause subquery nested inside a Projection-clause subquery, stays accepted."""
    cur = stores.cursor()
    assert rows(cur, "SELECT COUNT(*) FROM (SELECT FIRST 3 stock_num FROM stock)") == [(3,)]
    assert rows(cur, "SELECT manu_code FROM manufact WHERE manu_code IN (SELECT FIRST 1 "
                     "manu_code FROM manufact ORDER BY manu_code)") == [("ANZ",)]
    assert rows(cur, "SELECT (SELECT COUNT(*) FROM stock WHERE manu_code IN (SELECT FIRST 1 "
                     "manu_code FROM manufact ORDER BY manu_code)) FROM manufact "
                     "WHERE manu_code = 'ANZ'") == [(11,)]
