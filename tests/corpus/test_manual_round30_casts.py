"""Expressions obey syscasts for DISTINCT types, thirtieth round (issue 23, fidelity46),
through the real driver and the embedded server over sockets. The statements are ours,
modelled on the pages' examples.

Pages: Guide to SQL: Reference, "DISTINCT data types" (ids_sqr_116: "cannot be compared
directly to its source type"; the built-in casts of the source are not inherited) and "Casts
for distinct types" (ids_sqr_176: the two default casts are explicit; drop them before
making implicit ones); Guide to SQL: Syntax, "Manipulating Distinct Types" (ids_sqs_0375:
an explicit cast to insert or update with the other type, or to compare or add the two);
Database Design and Implementation Guide, "Explicit casts with distinct types" (ids_ddi_337:
``70::num_type`` is an error, ``35::NUMERIC::num_type`` is not), "Cast between a distinct
type and its source type" (ids_ddi_338), "Add and drop casts on a distinct type"
(ids_ddi_339: with implicit casts the two compare without a cast); User-Defined Routines,
"Routine resolution with built-in data types as source" (ids_udr_081: ``4.8 + col1`` fails,
``4.8 + col1::INT`` and ``4.8::FLOAT::inches + col1`` succeed); CREATE CAST (ids_sqs_0362)
and its WITH Clause (ids_sqs_0367: the cast calls the function); DROP CAST (ids_sqs_0711).

Codes: -674 "Routine (%s) can not be resolved." for an operator without a cast [inferred:
Informix resolves operators as routines named equal, plus, …]; -9632 "Value does not match
the type of column (%s)." for an assignment without an implicit cast, and -9634 for a CAST
with no cast (Informix's message list). Before this round every one of these was accepted.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import dollar_accounts, fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "casts30") as conn:
        c = conn.cursor()
        dollar_accounts(c)
        yield c


def test_comparisons_need_a_cast(cur: ifxwire.Cursor) -> None:
    """ids_sqr_116, ids_ddi_338, ids_sqs_0375: a DISTINCT type and its source compare only
    after an explicit cast; no routine ``equal`` takes the pair otherwise (-674)."""
    assert sqlcode(cur, "SELECT id FROM acct WHERE bal = plain") == -674
    assert sqlcode(cur, "SELECT id FROM acct WHERE bal = 12.5") == -674
    assert sqlcode(cur, "SELECT id FROM acct WHERE plain < bal") == -674
    assert sqlcode(cur, "SELECT id FROM acct WHERE bal IN (12.5, 7.25)") == -674
    assert sqlcode(cur, "SELECT id FROM acct WHERE bal BETWEEN 1 AND 20") == -674
    # with the cast, either way round (ids_ddi_338; ids_sqs_0375's (col1::NUMERIC) > col2)
    assert rows(cur, "SELECT id FROM acct WHERE bal = plain::dollars") == [(1,)]
    assert rows(cur, "SELECT id FROM acct WHERE bal::DECIMAL(10,2) > plain") == [(2,)]
    assert rows(cur, "SELECT id FROM acct WHERE bal = 7.25::dollars") == [(2,)]
    # a value of the same DISTINCT type, a parameter and NULL need no cast
    assert rows(cur, "SELECT a.id FROM acct a, acct b WHERE a.bal = b.bal AND b.id = 2") == [
        (2,)]
    assert rows(cur, "SELECT id FROM acct WHERE bal = ?", (Decimal("12.50"),)) == [(1,)]
    assert rows(cur, "SELECT COUNT(*) FROM acct WHERE bal IS NOT NULL") == [(2,)]


def test_arithmetic_needs_a_cast(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0375 (``col1 + col2::dist_type``), ids_udr_081 (``4.8 + col1`` fails; a cast
    of either operand makes it work): -674 naming the operator's routine."""
    assert sqlcode(cur, "SELECT bal + plain FROM acct") == -674
    assert sqlcode(cur, "SELECT 4.8 + bal FROM acct") == -674
    assert sqlcode(cur, "SELECT bal * 2 FROM acct") == -674
    assert rows(cur, "SELECT bal + plain::dollars FROM acct ORDER BY id") == [
        (Decimal("25.00"),), (Decimal("8.25"),)]
    assert rows(cur, "SELECT 4.8 + bal::DECIMAL(10,2) FROM acct ORDER BY id") == [
        (Decimal("17.30"),), (Decimal("12.05"),)]
    assert rows(cur, "SELECT bal + bal FROM acct ORDER BY id") == [
        (Decimal("25.00"),), (Decimal("14.50"),)]


def test_assignments_need_an_implicit_cast(cur: ifxwire.Cursor) -> None:
    """ids_ddi_337 ("to insert into or update a column of a distinct type with values of the
    source type, you must explicitly cast the values"), ids_sqs_0375: -9632 naming the column
    (Informix's message list: automatic conversions require implicit casts)."""
    assert sqlcode(cur, "INSERT INTO acct (id, bal) VALUES (3, 3.5)", fetch=False) == -9632
    assert sqlcode(cur, "UPDATE acct SET bal = plain", fetch=False) == -9632
    assert sqlcode(cur, "UPDATE acct SET plain = bal", fetch=False) == -9632
    assert sqlcode(cur, "INSERT INTO acct (id, bal) SELECT 9, plain FROM acct",
                   fetch=False) == -9632
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("INSERT INTO acct (id, plain) VALUES (3, 1.5::dollars)")
    assert "plain" in str(info.value)
    # the cast written out; a parameter, NULL and a quoted string need none
    cur.execute("INSERT INTO acct (id, bal) VALUES (3, 3.5::dollars)")
    cur.execute("UPDATE acct SET plain = bal::DECIMAL(10,2) WHERE id = 3")
    cur.execute("INSERT INTO acct (id, bal) VALUES (?, ?)", (4, Decimal("4.40")))
    cur.execute("INSERT INTO acct (id, bal) VALUES (5, NULL)")
    cur.execute("INSERT INTO acct (id, bal) VALUES (6, '6.60')")
    cur.execute("INSERT INTO acct (id, bal) SELECT 7, bal FROM acct WHERE id = 1")
    assert rows(cur, "SELECT id, bal, plain FROM acct WHERE id > 2 ORDER BY id") == [
        (3, Decimal("3.50"), Decimal("3.50")), (4, Decimal("4.40"), None), (5, None, None),
        (6, Decimal("6.60"), None), (7, Decimal("12.50"), None)]


def test_explicit_casts_are_not_chained_into_a_distinct_type(cur: ifxwire.Cursor) -> None:
    """ids_ddi_337: no cast from INT to a DISTINCT NUMERIC (-9634), two casts do it;
    ids_udr_081: out of a DISTINCT type, its cast to the source and then a built-in cast
    (``col1::INT``)."""
    cur.execute("CREATE DISTINCT TYPE num_type AS NUMERIC")
    cur.execute("CREATE TABLE tab_x (col1 num_type)")
    assert sqlcode(cur, "INSERT INTO tab_x VALUES (70::num_type)", fetch=False) == -9634
    assert sqlcode(cur, "SELECT CAST(id AS dollars) FROM acct") == -9634
    cur.execute("INSERT INTO tab_x VALUES (35::NUMERIC::num_type)")
    assert rows(cur, "SELECT col1::NUMERIC FROM tab_x") == [(Decimal("35"),)]
    cur.execute("CREATE DISTINCT TYPE inches AS FLOAT")
    cur.execute("CREATE TABLE test (col1 inches)")
    cur.execute("INSERT INTO test VALUES (3.0::FLOAT::inches)")
    assert sqlcode(cur, "SELECT 4.8 + col1 FROM test") == -674
    assert rows(cur, "SELECT 4.8 + col1::INT FROM test") == [(Decimal("7.8"),)]
    assert rows(cur, "SELECT 4.8::FLOAT::inches + col1 FROM test") == [(7.8,)]
    # two DISTINCT types of one source: only a cast between them (none here)
    cur.execute("CREATE DISTINCT TYPE euros AS DECIMAL(10,2)")
    assert sqlcode(cur, "SELECT bal::euros FROM acct") == -9634


def test_implicit_casts_replace_the_default_ones(cur: ifxwire.Cursor) -> None:
    """ids_ddi_339 and ids_sqr_176: drop the two explicit casts, create implicit ones, and
    the types compare and assign without a cast; a DROP CAST is seen by the next statement
    (ids_sqs_0711)."""
    assert rows(cur, "SELECT bal::DECIMAL(10,2) FROM acct") == [
        (Decimal("12.50"),), (Decimal("7.25"),)]
    cur.execute("DROP CAST (dollars AS DECIMAL(10,2))")
    cur.execute("DROP CAST (DECIMAL(10,2) AS dollars)")
    # the same text again: the driver's cached statement gets -710 (its casts changed) and
    # is prepared again, so it meets the cast gone
    assert sqlcode(cur, "SELECT bal::DECIMAL(10,2) FROM acct") == -9634
    assert sqlcode(cur, "SELECT plain::dollars FROM acct") == -9634
    cur.execute("CREATE IMPLICIT CAST (dollars AS DECIMAL(10,2))")
    cur.execute("CREATE IMPLICIT CAST (DECIMAL(10,2) AS dollars)")
    assert rows(cur, "SELECT id FROM acct WHERE bal = plain") == [(1,)]
    assert rows(cur, "SELECT id FROM acct WHERE bal > 10.0") == [(1,)]
    # no chain: INT has no implicit cast to dollars (ids_ddi_337)
    assert sqlcode(cur, "SELECT id FROM acct WHERE bal > 10") == -674
    cur.execute("INSERT INTO acct (id, bal) VALUES (3, 3.5)")
    cur.execute("UPDATE acct SET plain = bal WHERE id = 3")
    assert rows(cur, "SELECT bal, plain FROM acct WHERE id = 3") == [
        (Decimal("3.50"), Decimal("3.50"))]
    # an implicit cast is usable explicitly too
    assert rows(cur, "SELECT plain::dollars FROM acct WHERE id = 3") == [(Decimal("3.50"),)]
    cur.execute("DROP CAST (DECIMAL(10,2) AS dollars)")
    assert sqlcode(cur, "INSERT INTO acct (id, bal) VALUES (4, 4.5)", fetch=False) == -9632
    # the other direction is still implicit: the comparison resolves through it
    assert rows(cur, "SELECT id FROM acct WHERE bal = plain ORDER BY id") == [(1,), (3,)]


def test_a_cast_with_a_function_calls_it(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0362 / ids_sqs_0367: CREATE CAST … WITH function registers the function as
    the cast (syscasts.routine_name, ids_sqr_019); the cast runs it, explicitly (``::``,
    CAST) or, for an IMPLICIT cast, in an assignment."""
    cur.execute("CREATE DISTINCT TYPE pennies AS INT")
    cur.execute("CREATE FUNCTION d2p(d DECIMAL(10,2)) RETURNING INT; "
                "RETURN (d * 100)::INT; END FUNCTION")
    cur.execute("CREATE FUNCTION p2d(p INT) RETURNING DECIMAL(10,2); "
                "DEFINE x DECIMAL(10,2); LET x = p; RETURN x / 100; END FUNCTION")
    cur.execute("CREATE CAST (dollars AS pennies WITH d2p)")
    cur.execute("CREATE IMPLICIT CAST (pennies AS dollars WITH p2d)")
    assert rows(cur, "SELECT routine_name, class FROM syscasts WHERE routine_name IS NOT NULL "
                     "ORDER BY 1") == [("d2p", "E"), ("p2d", "I")]
    assert rows(cur, "SELECT bal::pennies, CAST(bal AS pennies) FROM acct ORDER BY id") == [
        (1250, 1250), (725, 725)]
    # a DISTINCT value passed to a routine of its source type (ids_dmdo_031)
    assert rows(cur, "EXECUTE FUNCTION d2p(12.5::dollars)") == [(1250,)]
    cur.execute("CREATE TABLE purse (id INT, p pennies)")
    cur.execute("INSERT INTO purse SELECT id, bal::pennies FROM acct")
    cur.execute("UPDATE purse SET p = 2050::INT::pennies WHERE id = 1")
    cur.execute("UPDATE acct SET bal = (SELECT p FROM purse WHERE purse.id = acct.id)")
    assert rows(cur, "SELECT id, bal FROM acct ORDER BY id") == [
        (1, Decimal("20.50")), (2, Decimal("7.25"))]
    # an implicit cast through a function inside an operator is not run here (-999)
    assert sqlcode(cur, "SELECT acct.id FROM acct, purse WHERE bal = p") == -999
    # the explicit cast is not implicit: an assignment still needs it written
    assert sqlcode(cur, "INSERT INTO purse VALUES (3, (SELECT bal FROM acct WHERE id = 1))",
                   fetch=False) == -9632


# ---- fidelity48: IN (subquery), routine arguments, CASE branches, trigger INSERTs ----------


def test_in_a_subquery_needs_a_cast(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0375, ids_sqr_116: ``x IN (subquery)`` compares each row as ``=`` does, so a
    DISTINCT value and its source's column need a cast (-674, as an IN list)."""
    assert sqlcode(cur, "SELECT id FROM acct WHERE bal IN (SELECT plain FROM acct)") == -674
    assert sqlcode(cur, "SELECT id FROM acct WHERE plain IN (SELECT bal FROM acct)") == -674
    assert rows(cur, "SELECT id FROM acct WHERE bal IN "
                     "(SELECT plain::dollars FROM acct) ORDER BY id") == [(1,)]
    assert rows(cur, "SELECT id FROM acct WHERE bal IN (SELECT b.bal FROM acct b "
                     "WHERE b.id = 2)") == [(2,)]


def test_routine_arguments_follow_routine_resolution(cur: ifxwire.Cursor) -> None:
    """ids_dmdo_031: "A distinct data type can be passed to all routines defined for the
    source"; ids_udr_074 (precedence list, step 3: for a DISTINCT argument the server checks
    the source data type) and ids_udr_081 (the DISTINCT type does not inherit its source's
    built-in casts): a DISTINCT of DECIMAL reaches a DECIMAL parameter, not an INT or a
    FLOAT one [inferred from the two pages], -674 "Routine (%s) can not be resolved."."""
    cur.execute("CREATE FUNCTION half(d DECIMAL(10,2)) RETURNING DECIMAL(10,2); "
                "DEFINE x DECIMAL(10,2); LET x = d / 2; RETURN x; END FUNCTION")
    cur.execute("CREATE FUNCTION cents(n INT) RETURNING INT; "
                "DEFINE x INT; LET x = n * 100; RETURN x; END FUNCTION")
    cur.execute("CREATE FUNCTION inl(n INT) RETURNING INT; RETURN n + 1; END FUNCTION")
    # the DISTINCT value to a routine of its source type (ids_dmdo_031)
    assert rows(cur, "SELECT half(bal) FROM acct ORDER BY id") == [
        (Decimal("6.25"),), (Decimal("3.63"),)]
    assert rows(cur, "EXECUTE FUNCTION half(12.5::dollars)") == [(Decimal("6.25"),)]
    # not to one of another built-in type: the source's built-in casts are not inherited
    assert sqlcode(cur, "SELECT cents(bal) FROM acct") == -674
    assert sqlcode(cur, "EXECUTE FUNCTION cents(12.5::dollars)") == -674
    assert sqlcode(cur, "SELECT inl(bal) FROM acct") == -674  # inline: expanded as a CAST
    # cast to the source first, then the built-in rules apply
    assert rows(cur, "SELECT cents(bal::DECIMAL(10,2)) FROM acct ORDER BY id") == [
        (1200,), (700,)]
    assert rows(cur, "EXECUTE FUNCTION cents(7::INT)") == [(700,)]


def test_case_branches_and_union_columns_need_compatible_types(cur: ifxwire.Cursor) -> None:
    """Guide to SQL: Syntax, "CASE expressions data type compatibility" (ids_sqs_2105: the
    results "should be of the same data type or be compatible data types ... an error
    occurs" otherwise) with ids_sqr_116 (a DISTINCT type is not its source without a cast):
    -800 "Corresponding data types must be compatible in CASE expression or DECODE
    function." and, for UNION, -308 (Informix's message catalogue) [inferred: no page shows
    a DISTINCT type in a CASE or a UNION; NVL, NVL2 and COALESCE take -800 too]."""
    assert sqlcode(cur, "SELECT CASE WHEN id = 1 THEN bal ELSE plain END FROM acct") == -800
    assert sqlcode(cur, "SELECT CASE WHEN id = 1 THEN bal ELSE 0.5 END FROM acct") == -800
    assert sqlcode(cur, "SELECT NVL(bal, plain) FROM acct") == -800
    assert sqlcode(cur, "SELECT COALESCE(bal, plain) FROM acct") == -800
    assert sqlcode(cur, "SELECT NVL2(id, bal, plain) FROM acct") == -800
    assert sqlcode(cur, "SELECT DECODE(id, 1, bal, plain) FROM acct") == -800
    # a simple CASE or DECODE compares its subject with each WHEN value (ids_sqs_0375)
    assert sqlcode(cur, "SELECT CASE bal WHEN 12.5 THEN 1 END FROM acct") == -674
    assert sqlcode(cur, "SELECT DECODE(bal, 12.5, 1, 0) FROM acct") == -674
    assert sqlcode(cur, "SELECT bal FROM acct UNION SELECT plain FROM acct") == -308
    assert sqlcode(cur, "SELECT plain FROM acct UNION ALL SELECT bal FROM acct") == -308
    # the same type, NULL, or a cast written out
    assert rows(cur, "SELECT CASE WHEN id = 1 THEN bal ELSE plain::dollars END FROM acct "
                     "ORDER BY id") == [(Decimal("12.50"),), (Decimal("1.00"),)]
    assert rows(cur, "SELECT NVL(bal, NULL), CASE WHEN id = 2 THEN NULL ELSE bal END "
                     "FROM acct ORDER BY id") == [
        (Decimal("12.50"), Decimal("12.50")), (Decimal("7.25"), None)]
    assert rows(cur, "SELECT CASE bal WHEN 12.5::dollars THEN 'a' ELSE 'b' END FROM acct "
                     "ORDER BY id") == [("a",), ("b",)]
    assert rows(cur, "SELECT bal FROM acct WHERE id = 1 UNION "
                     "SELECT plain::dollars FROM acct WHERE id = 2 ORDER BY 1") == [
        (Decimal("1.00"),), (Decimal("12.50"),)]
    assert rows(cur, "SELECT bal FROM acct WHERE id = 1 UNION ALL SELECT NULL FROM acct "
                     "WHERE id = 2") == [(Decimal("12.50"),), (None,)]
    # with implicit casts both ways the two mix (ids_ddi_339)
    cur.execute("DROP CAST (dollars AS DECIMAL(10,2))")
    cur.execute("CREATE IMPLICIT CAST (dollars AS DECIMAL(10,2))")
    assert rows(cur, "SELECT NVL(bal, plain) FROM acct ORDER BY id") == [
        (Decimal("12.50"),), (Decimal("7.25"),)]
