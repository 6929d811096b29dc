"""Table and index fragmentation as the manuals describe it (issue 23): schemes without a
REMAINDER refuse a row that fits no fragment (-772), ``sysfragments`` holds a row per fragment,
and ALTER FRAGMENT ADD / DROP / MODIFY change the scheme.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN`` at
https://help.hcl-software.com/hclinformix/1410/sqs/) and Guide to SQL: Reference
(``ids_sqr_040``, SYSFRAGMENTS); error texts are the message catalogue IBM ships in its JDBC
jar (``com/informix/msg/sql_en_US.properties``). The statements are ours, modelled on the
pages' examples and on stores_demo's ``customer`` / ``orders`` columns; they run against the
real embedded server over sockets in a database of their own (``frag23``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = partial(rows, strip=True)
_code = partial(sqlcode, fetch=False)


@pytest.fixture(scope="module")
def db(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Connection]:
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    conn.cursor().execute("CREATE DATABASE frag23 WITH LOG")
    try:
        yield conn
    finally:
        conn.cursor().execute("DATABASE sysmaster")
        conn.cursor().execute("DROP DATABASE frag23")
        conn.close()


@pytest.fixture()
def cur(db: ifxwire.Connection) -> Iterator[ifxwire.Cursor]:
    cur = db.cursor()
    yield cur
    for (name,) in _rows(cur, "SELECT tabname FROM systables WHERE tabid >= 100 AND "
                              "tabtype = 'T'"):
        cur.execute(f"DROP TABLE {name}")


def _frags(cur: ifxwire.Cursor, table: str) -> list[tuple[Any, ...]]:
    return _rows(cur, "SELECT f.fragtype, f.indexname, f.strategy, f.evalpos, f.exprtext, "
                      "f.dbspace, f.partition FROM sysfragments f, systables t WHERE "
                      f"f.tabid = t.tabid AND t.tabname = '{table}' ORDER BY f.fragtype DESC, "
                      "f.indexname, f.evalpos")


# ids_sqs_0513, "Fragmenting by EXPRESSION": "If you do not specify a remainder fragment and a
# row matches none of the expressions, the row is rejected" (-772).
REGIONS = ("CREATE TABLE cust_f (customer_num INTEGER, fname CHAR(15), state CHAR(2)) "
           "FRAGMENT BY EXPRESSION customer_num < 110 IN dbspace1, "
           "customer_num >= 110 AND customer_num < 130 IN dbspace2")


def test_expression_without_remainder_refuses_a_row(cur: ifxwire.Cursor) -> None:
    cur.execute(REGIONS)
    cur.execute("INSERT INTO cust_f VALUES (101, 'Ludwig', 'CA')")
    cur.execute("INSERT INTO cust_f VALUES (128, 'Frank', 'CA')")
    assert _code(cur, "INSERT INTO cust_f VALUES (130, 'Carole', 'CA')") == -772
    assert _code(cur, "INSERT INTO cust_f VALUES (?, ?, ?)", (200, "x", "AZ")) == -772
    assert _rows(cur, "SELECT customer_num FROM cust_f ORDER BY 1") == [(101,), (128,)]


def test_the_error_text_is_the_catalogues(cur: ifxwire.Cursor) -> None:
    cur.execute(REGIONS)
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO cust_f VALUES (999, 'x', 'x')")
    assert info.value.sqlcode == -772  # type: ignore[attr-defined]


def test_a_null_key_fits_no_expression_fragment(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0513: a NULL matches no expression unless one tests IS NULL (or REMAINDER)."""
    cur.execute(REGIONS)
    assert _code(cur, "INSERT INTO cust_f VALUES (NULL, 'n', 'n')") == -772
    cur.execute("CREATE TABLE cust_n (customer_num INTEGER) FRAGMENT BY EXPRESSION "
                "customer_num < 110 IN dbspace1, customer_num IS NULL IN dbspace2")
    cur.execute("INSERT INTO cust_n VALUES (NULL)")
    assert _rows(cur, "SELECT COUNT(*) FROM cust_n WHERE customer_num IS NULL") == [(1,)]


def test_update_that_leaves_every_fragment_fails_and_changes_nothing(
        cur: ifxwire.Cursor) -> None:
    cur.execute(REGIONS)
    cur.execute("INSERT INTO cust_f VALUES (101, 'Ludwig', 'CA')")
    cur.execute("INSERT INTO cust_f VALUES (102, 'Carole', 'CA')")
    cur.execute("UPDATE cust_f SET customer_num = customer_num + 20")  # moves fragments: fine
    assert _code(cur, "UPDATE cust_f SET customer_num = customer_num + 9") == -772
    assert _rows(cur, "SELECT customer_num FROM cust_f ORDER BY 1") == [(121,), (122,)]


def test_insert_select_with_one_misfit_inserts_nothing(cur: ifxwire.Cursor) -> None:
    cur.execute(REGIONS)
    cur.execute("CREATE TABLE src (n INTEGER)")
    cur.execute("INSERT INTO src VALUES (105)")
    cur.execute("INSERT INTO src VALUES (140)")
    assert _code(cur, "INSERT INTO cust_f (customer_num) SELECT n FROM src") == -772
    assert _rows(cur, "SELECT COUNT(*) FROM cust_f") == [(0,)]


def test_executemany_stops_as_a_check_constraint_does(db: ifxwire.Connection) -> None:
    """The failing row is refused like a row failing a CHECK (-530): in a transaction, the
    rows before it stay the transaction's, the failing one and those after are not written."""
    cur = db.cursor()
    cur.execute(REGIONS)
    cur.execute("CREATE TABLE cust_c (customer_num INTEGER CHECK (customer_num < 130), "
                "fname CHAR(15), state CHAR(2))")
    rows = [(101, "a", "CA"), (131, "b", "CA"), (102, "c", "CA")]
    kept = []
    for table, code in (("cust_c", -530), ("cust_f", -772)):
        cur.execute("BEGIN WORK")
        with pytest.raises(ifxwire.Error) as info:
            cur.executemany(f"INSERT INTO {table} VALUES (?, ?, ?)", rows)
        assert info.value.sqlcode == code  # type: ignore[attr-defined]
        kept.append(_rows(cur, f"SELECT customer_num FROM {table} ORDER BY 1"))
        cur.execute("ROLLBACK WORK")
    assert kept[0] == kept[1]
    assert (131,) not in kept[1]
    for table in ("cust_c", "cust_f"):
        cur.execute(f"DROP TABLE {table}")


def test_list_without_remainder(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0513 "Fragmenting by LIST": a NULL fragment takes NULL keys; others fail."""
    cur.execute("CREATE TABLE cust_l (customer_num INTEGER, state CHAR(2)) "
                "FRAGMENT BY LIST (state) PARTITION p_west VALUES ('CA', 'AZ') IN dbspace1, "
                "PARTITION p_east VALUES ('NJ', 'NY') IN dbspace2, "
                "PARTITION p_null VALUES (NULL) IN dbspace2")
    cur.execute("INSERT INTO cust_l VALUES (101, 'CA')")
    cur.execute("INSERT INTO cust_l VALUES (102, 'NY')")
    cur.execute("INSERT INTO cust_l VALUES (103, NULL)")
    assert _code(cur, "INSERT INTO cust_l VALUES (104, 'TX')") == -772
    assert _code(cur, "UPDATE cust_l SET state = 'TX' WHERE customer_num = 103") == -772
    assert _rows(cur, "SELECT COUNT(*) FROM cust_l") == [(3,)]
    cur.execute("CREATE TABLE cust_l2 (state CHAR(2)) FRAGMENT BY LIST (state) "
                "PARTITION p1 VALUES ('CA') IN dbspace1")
    assert _code(cur, "INSERT INTO cust_l2 VALUES (NULL)") == -772  # no NULL fragment


def test_sysfragments_rows_of_an_expression_scheme(cur: ifxwire.Cursor) -> None:
    """ids_sqr_040: one row per fragment; fragtype 'T', strategy 'E', evalpos the position in
    the list, exprtext the expression, partition the PARTITION name or else the dbspace
    (the IBM Redbook "Informix Dynamic Server V10 ... Extended Functionality
    for Modern Business", 10.1.5, whose printed row also shows location 'L', colno 0, flags
    0, levels 0); a fragmented table's systables.partnum is 0."""
    cur.execute("CREATE TABLE orders_f (order_num INTEGER, customer_num INTEGER) "
                "FRAGMENT BY EXPRESSION PARTITION p_low (customer_num < 110) IN dbspace1, "
                "PARTITION p_rest REMAINDER IN dbspace2")
    assert _frags(cur, "orders_f") == [
        ("T", None, "E", 0, "(customer_num < 110)", "dbspace1", "p_low"),
        ("T", None, "E", 1, "remainder", "dbspace2", "p_rest")]
    assert _rows(cur, "SELECT DISTINCT f.location, f.colno, f.flags, f.levels FROM "
                      "sysfragments f, systables t WHERE f.tabid = t.tabid AND "
                      "t.tabname = 'orders_f'") == [("L", 0, 0, 0)]
    assert _rows(cur, "SELECT partnum FROM systables WHERE tabname = 'orders_f'") == [(0,)]
    partns = _rows(cur, "SELECT partn FROM sysfragments ORDER BY 1")
    assert len(set(partns)) == len(partns) and all(p[0] > 0 for p in partns)
    cur.execute("DROP TABLE orders_f")
    assert _rows(cur, "SELECT COUNT(*) FROM sysfragments") == [(0,)]


def test_sysfragments_rows_of_round_robin_and_list(cur: ifxwire.Cursor) -> None:
    """ids_sqr_040: strategy 'R' and 'L'; a LIST scheme has a row of evalpos -3 holding its
    fragment key ("Fragmentation by LIST also uses the -3 value")."""
    cur.execute("CREATE TABLE items_r (item_num SMALLINT) "
                "FRAGMENT BY ROUND ROBIN IN dbspace1, dbspace2")
    assert _frags(cur, "items_r") == [("T", None, "R", 0, None, "dbspace1", "dbspace1"),
                                      ("T", None, "R", 1, None, "dbspace2", "dbspace2")]
    cur.execute("CREATE TABLE cust_l (state CHAR(2)) FRAGMENT BY LIST (state) "
                "PARTITION p1 VALUES ('CA', 'AZ') IN dbspace1, PARTITION p2 REMAINDER IN d2")
    assert _frags(cur, "cust_l") == [
        ("T", None, "L", -3, "state", None, None),
        ("T", None, "L", 0, "VALUES ('CA', 'AZ')", "dbspace1", "p1"),
        ("T", None, "L", 1, "remainder", "d2", "p2")]


def test_index_fragments(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0426 (FRAGMENT BY for indexes): fragtype 'I' rows name the index; a key that
    fits no index fragment fails with -772 (the message names "table/index fragment")."""
    cur.execute("CREATE TABLE cust_i (customer_num INTEGER, lname CHAR(15))")
    cur.execute("INSERT INTO cust_i VALUES (101, 'Pauli')")
    cur.execute("CREATE INDEX ix_lname ON cust_i (lname) FRAGMENT BY EXPRESSION "
                "lname < 'M' IN dbspace1, lname >= 'M' AND lname < 'T' IN dbspace2")
    assert _frags(cur, "cust_i") == [
        ("I", "ix_lname", "E", 0, "lname < 'M'", "dbspace1", "dbspace1"),
        ("I", "ix_lname", "E", 1, "lname >= 'M' AND lname < 'T'", "dbspace2", "dbspace2")]
    assert _code(cur, "INSERT INTO cust_i VALUES (102, 'Watson')") == -772
    cur.execute("RENAME INDEX ix_lname TO ix_name")
    assert {r[1] for r in _frags(cur, "cust_i")} == {"ix_name"}
    assert _code(cur, "INSERT INTO cust_i VALUES (102, 'Watson')") == -772
    cur.execute("DROP INDEX ix_name")
    cur.execute("INSERT INTO cust_i VALUES (102, 'Watson')")
    assert _frags(cur, "cust_i") == []
    # rows already there must fit the new index's fragments
    assert _code(cur, "CREATE INDEX ix2 ON cust_i (lname) FRAGMENT BY EXPRESSION "
                      "lname < 'M' IN dbspace1") == -772


SCHEME_ERRORS = [
    ("FRAGMENT BY EXPRESSION a < 1 IN d1, a > 5 IN d1", -858,
     "-858 Cannot specify the same partition/space name twice"),
    ("FRAGMENT BY EXPRESSION a < 1 IN d1, REMAINDER IN d2, REMAINDER IN d3", -870,
     "-870 Cannot specify duplicate remainder fragments"),
    ("FRAGMENT BY EXPRESSION REMAINDER IN d2, a < 1 IN d1", -871,
     "-871 Remainder fragment must be specified last"),
    ("FRAGMENT BY EXPRESSION a IN (SELECT 1 FROM systables) IN d1, REMAINDER IN d2", -869,
     "ids_sqs_0427: no subqueries; -869"),
    ("FRAGMENT BY EXPRESSION nosuch < 1 IN d1, REMAINDER IN d2", -217, "an unknown column"),
    ("FRAGMENT BY LIST (a) VALUES (1) IN d1", -25802,
     "-25802 The PARTITION clause is mandatory for interval and list fragmentation"),
    ("FRAGMENT BY LIST (a) PARTITION p1 VALUES (NULL) IN d1, PARTITION p2 REMAINDER IN d2",
     -25803, "-25803 at least one non-null, non-remainder fragment"),
    ("FRAGMENT BY LIST (a) PARTITION p1 VALUES (1, NULL) IN d1, PARTITION p2 VALUES (NULL) "
     "IN d2", -25826, "-25826 more than one null fragment"),
    ("FRAGMENT BY LIST (a) PARTITION p1 VALUES (1, 2) IN d1, PARTITION p2 VALUES (2) IN d2",
     -25800, "-25800 overlapping fragment expressions for list fragmentation"),
    ("FRAGMENT BY LIST (a) PARTITION p1 VALUES (b) IN d1", -25815,
     "-25815 the list of values must be a constant"),
]


@pytest.mark.parametrize(("scheme", "code", "why"), SCHEME_ERRORS)
def test_malformed_schemes(cur: ifxwire.Cursor, scheme: str, code: int, why: str) -> None:
    assert _code(cur, f"CREATE TABLE bad (a INT, b INT) {scheme}") == code, why
    assert _rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'bad'") == [(0,)]
    assert _rows(cur, "SELECT COUNT(*) FROM sysfragments") == [(0,)]


def test_alter_fragment_add(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0064 ADD clause: a new expression fragment goes before the REMAINDER, or
    BEFORE / AFTER a named one; it takes rows the old scheme refused."""
    cur.execute(REGIONS)
    assert _code(cur, "INSERT INTO cust_f VALUES (150, 'x', 'x')") == -772
    partns = _rows(cur, "SELECT partn FROM sysfragments ORDER BY evalpos")
    cur.execute("ALTER FRAGMENT ON TABLE cust_f ADD customer_num >= 130 IN dbspace3")
    # the fragments that stay keep their partition numbers
    assert _rows(cur, "SELECT partn FROM sysfragments ORDER BY evalpos")[:2] == partns
    cur.execute("INSERT INTO cust_f VALUES (150, 'x', 'x')")
    cur.execute("ALTER FRAGMENT ON TABLE cust_f ADD PARTITION p_neg customer_num < 0 "
                "IN dbspace1 BEFORE dbspace1")
    cur.execute("ALTER FRAGMENT ON TABLE cust_f ADD REMAINDER IN dbspace4")
    assert [(r[3], r[6]) for r in _frags(cur, "cust_f")] == [
        (0, "p_neg"), (1, "dbspace1"), (2, "dbspace2"), (3, "dbspace3"), (4, "dbspace4")]
    assert _code(cur, "ALTER FRAGMENT ON TABLE cust_f ADD REMAINDER IN dbspace5") == -870
    assert _code(cur, "ALTER FRAGMENT ON TABLE cust_f ADD customer_num = 7 IN dbspace3") == -858


def test_alter_fragment_drop(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0068 DROP clause: the rows of a dropped fragment must move to another one
    (else -776), and a table with only two fragments cannot lose one (-860)."""
    cur.execute("CREATE TABLE acct (acc_num INTEGER) FRAGMENT BY EXPRESSION "
                "acc_num <= 1120 IN dbspace1, acc_num > 1120 AND acc_num < 2000 IN dbspace2, "
                "acc_num >= 1000 IN dbspace3")
    cur.execute("INSERT INTO acct VALUES (1500)")
    cur.execute("INSERT INTO acct VALUES (100)")
    assert _code(cur, "ALTER FRAGMENT ON TABLE acct DROP dbspace1") == -776  # 100: no home
    cur.execute("ALTER FRAGMENT ON TABLE acct DROP dbspace2")  # 1500 fits dbspace3 too
    assert [r[5] for r in _frags(cur, "acct")] == ["dbspace1", "dbspace3"]
    assert _code(cur, "ALTER FRAGMENT ON TABLE acct DROP dbspace3") == -860
    assert _code(cur, "ALTER FRAGMENT ON TABLE acct DROP nosuch") == -775
    assert _rows(cur, "SELECT acc_num FROM acct ORDER BY 1") == [(100,), (1500,)]


def test_alter_fragment_modify(cur: ifxwire.Cursor) -> None:
    """The Guide to Database Design's MODIFY example (ids_ddi_248): "MODIFY dbspace1 TO
    acc_num > 0 AND acc_num <= 1120" without IN keeps the fragment's dbspace."""
    cur.execute("CREATE TABLE account (acc_num INTEGER) FRAGMENT BY EXPRESSION "
                "acc_num <= 1120 IN dbspace1, acc_num > 1120 AND acc_num < 2000 IN dbspace2")
    cur.execute("INSERT INTO account VALUES (5)")
    cur.execute("ALTER FRAGMENT ON TABLE account MODIFY dbspace1 TO acc_num > 0 AND "
                "acc_num <= 1120")
    assert _frags(cur, "account")[0][4:] == ("acc_num > 0 AND acc_num <= 1120", "dbspace1",
                                             "dbspace1")
    assert _code(cur, "INSERT INTO account VALUES (-5)") == -772
    assert _code(cur, "ALTER FRAGMENT ON TABLE account MODIFY dbspace1 TO acc_num > 10 "
                      "IN dbspace1") == -776  # the row 5 would have no fragment
    cur.execute("ALTER FRAGMENT ON TABLE account MODIFY dbspace1 TO acc_num <= 1120 "
                "IN dbspace1, MODIFY dbspace2 TO REMAINDER IN dbspace2")
    cur.execute("INSERT INTO account VALUES (5000)")  # the remainder takes it
    assert _code(cur, "ALTER FRAGMENT ON TABLE account MODIFY dbspace1 TO REMAINDER "
                      "IN dbspace1") == -870  # two remainders


def test_alter_fragment_round_robin_and_index(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE sales (col_a INTEGER) FRAGMENT BY ROUND ROBIN IN dbspace1, "
                "dbspace2, dbspace3")
    cur.execute("ALTER FRAGMENT ON TABLE sales DROP dbspace3")  # ids_ddi_247's example
    cur.execute("ALTER FRAGMENT ON TABLE sales ADD dbspace4")
    assert [r[5] for r in _frags(cur, "sales")] == ["dbspace1", "dbspace2", "dbspace4"]
    # -774 "Cannot specify fragment expressions with a round robin fragmentation."
    assert _code(cur, "ALTER FRAGMENT ON TABLE sales ADD col_a > 1 IN dbspace5") == -774
    cur.execute("CREATE INDEX sales_ix ON sales (col_a) FRAGMENT BY EXPRESSION "
                "col_a < 10 IN dbspace1, col_a >= 10 IN dbspace2")
    cur.execute("ALTER FRAGMENT ON INDEX sales_ix MODIFY dbspace2 TO col_a >= 10 AND "
                "col_a < 20 IN dbspace2")
    assert _code(cur, "INSERT INTO sales VALUES (25)") == -772
    cur.execute("INSERT INTO sales VALUES (15)")


def test_alter_fragment_refusals(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE plain (a INT)")
    # -780 "Table/Index is not fragmented."
    assert _code(cur, "ALTER FRAGMENT ON TABLE plain ADD a > 1 IN dbspace1") == -780
    cur.execute("CREATE TEMP TABLE tmp (a INT)")
    # -781 "Cannot alter fragmentation on a temp table."
    assert _code(cur, "ALTER FRAGMENT ON TABLE tmp DROP dbspace1") == -781
    cur.execute("DROP TABLE tmp")
    assert _code(cur, "ALTER FRAGMENT ON TABLE nosuch DROP dbspace1") == -206
    cur.execute(REGIONS)
    # -773 "Expression required for new fragment."
    assert _code(cur, "ALTER FRAGMENT ON TABLE cust_f ADD dbspace9") == -773
    # ids_sqs_0084: INIT gives the table a new tabid and its constraints new constrids;
    # ATTACH / DETACH consume and make tables: not built
    for clause in ("INIT FRAGMENT BY ROUND ROBIN IN dbspace1, dbspace2",
                   "ATTACH plain AS customer_num >= 200 IN dbspace3", "INIT IN dbspace1"):
        assert _code(cur, f"ALTER FRAGMENT ON TABLE cust_f {clause}") == -999, clause


def test_alter_fragment_detach(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0087 DETACH: the fragment's rows go to a new nonfragmented table with the same
    columns and no indexes or constraints; ids_sqs_0257: detaching one of two fragments
    leaves "Both tables ... nonfragmented". A row lives in the first fragment whose
    expression it satisfies (overlapping expressions), else in the REMAINDER."""
    cur.execute("CREATE TABLE bus_acct (acc_num INTEGER NOT NULL, kind CHAR(1) DEFAULT 'b' "
                "CHECK (kind IN ('a', 'b'))) FRAGMENT BY EXPRESSION acc_num < 100 IN dbsp1, "
                "acc_num < 200 IN dbsp2, REMAINDER IN dbsp3")
    for n in (5, 50, 150, 500, 700):
        cur.execute(f"INSERT INTO bus_acct VALUES ({n}, 'b')")
    cur.execute("ALTER FRAGMENT ON TABLE bus_acct DETACH dbsp2 cli_acct")  # 5, 50 are dbsp1's
    assert _rows(cur, "SELECT acc_num FROM cli_acct") == [(150,)]
    assert _rows(cur, "SELECT acc_num FROM bus_acct ORDER BY 1") == [(5,), (50,), (500,),
                                                                     (700,)]
    assert [r[6] for r in _frags(cur, "bus_acct")] == ["dbsp1", "dbsp3"]
    assert _frags(cur, "cli_acct") == []
    assert _rows(cur, "SELECT COUNT(*) FROM sysconstraints c, systables t WHERE "
                      "c.tabid = t.tabid AND t.tabname = 'cli_acct'") == [(0,)]
    assert _rows(cur, "SELECT COUNT(*) FROM syscolumns c, systables t WHERE "
                      "c.tabid = t.tabid AND t.tabname = 'cli_acct'") == [(2,)]
    cur.execute("INSERT INTO cli_acct VALUES (NULL, 'x')")  # no NOT NULL, no CHECK
    cur.execute("ALTER FRAGMENT ON TABLE bus_acct DETACH dbsp3 old_acct")  # the REMAINDER
    assert _rows(cur, "SELECT acc_num FROM old_acct ORDER BY 1") == [(500,), (700,)]
    assert _frags(cur, "bus_acct") == []  # one fragment left: nonfragmented
    assert _rows(cur, "SELECT partnum > 0 FROM systables WHERE tabname = 'bus_acct'") == [
        (True,)]
    cur.execute("INSERT INTO bus_acct VALUES (900, 'b')")  # no scheme refuses it now
    assert _code(cur, "ALTER FRAGMENT ON TABLE bus_acct DETACH dbsp1 x") == -780
    cur.execute("CREATE TABLE lst (state CHAR(2)) FRAGMENT BY LIST (state) "
                "PARTITION p1 VALUES ('CA') IN d1, PARTITION p2 VALUES ('NY') IN d1, "
                "PARTITION p3 VALUES ('AZ') IN d2")
    cur.execute("INSERT INTO lst VALUES ('NY')")
    cur.execute("ALTER FRAGMENT ON TABLE lst DETACH PARTITION p2 lst_ny")
    assert _rows(cur, "SELECT state FROM lst_ny") == [("NY",)]
    assert _code(cur, "INSERT INTO lst VALUES ('NY')") == -772  # p2 is gone
    assert _code(cur, "ALTER FRAGMENT ON TABLE lst DETACH PARTITION p3 lst_ny") == -310
    cur.execute("CREATE TABLE rr (a INT) FRAGMENT BY ROUND ROBIN IN d1, d2")
    assert _code(cur, "ALTER FRAGMENT ON TABLE rr DETACH d1 rr1") == -999
    # ids_sqs_0087: not with "a detached index"; a primary key's index is one (ids_sqs_1940)
    cur.execute("CREATE TABLE pk (a INT PRIMARY KEY) FRAGMENT BY EXPRESSION a < 5 IN d1, "
                "REMAINDER IN d2")
    assert _code(cur, "ALTER FRAGMENT ON TABLE pk DETACH d1 pk1") == -999
    assert _rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'pk1'") == [(0,)]


def test_alter_table_keeps_the_scheme(cur: ifxwire.Cursor) -> None:
    """ALTER TABLE rebuilds the table here: the fragments' check survives, and dropping a
    column a fragment expression names is -785 ("Cannot drop column because of table or
    index fragmentation."), the table unchanged."""
    cur.execute(REGIONS)
    cur.execute("INSERT INTO cust_f VALUES (101, 'Ludwig', 'CA')")
    cur.execute("ALTER TABLE cust_f ADD (phone CHAR(18))")
    assert _code(cur, "INSERT INTO cust_f VALUES (300, 'x', 'x', 'x')") == -772
    cur.execute("INSERT INTO cust_f VALUES (111, 'x', 'x', '555')")
    assert _code(cur, "ALTER TABLE cust_f DROP customer_num") == -785
    assert _rows(cur, "SELECT COUNT(*) FROM syscolumns c, systables t WHERE c.tabid = t.tabid "
                      "AND t.tabname = 'cust_f'") == [(4,)]
    assert _code(cur, "INSERT INTO cust_f VALUES (300, 'x', 'x', 'x')") == -772
    # ids_sqs_0939 says what RENAME COLUMN does to views and check constraints, not to
    # fragment expressions: refused; a column no fragment names renames
    assert _code(cur, "RENAME COLUMN cust_f.customer_num TO c_num") == -999
    cur.execute("RENAME COLUMN cust_f.fname TO first_name")
    assert _code(cur, "INSERT INTO cust_f VALUES (300, 'x', 'x', 'x')") == -772
    cur.execute("RENAME TABLE cust_f TO cust_g")
    assert _code(cur, "INSERT INTO cust_g VALUES (300, 'x', 'x', 'x')") == -772
    assert len(_frags(cur, "cust_g")) == 2


def test_a_rolled_back_create_leaves_no_fragments(db: ifxwire.Connection) -> None:
    cur = db.cursor()
    cur.execute("BEGIN WORK")
    cur.execute(REGIONS)
    cur.execute("ROLLBACK WORK")
    assert _rows(cur, "SELECT COUNT(*) FROM sysfragments") == [(0,)]
    cur.execute(REGIONS)  # the name is free again
    cur.execute("DROP TABLE cust_f")


def test_create_table_as_select_into_fragments(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0403 puts the storage options (FRAGMENT BY among them) before AS: the query's
    rows must each fit a fragment, else -772 and no table; the fragments are recorded."""
    cur.execute("CREATE TABLE src (n INTEGER)")
    cur.execute("INSERT INTO src VALUES (105)")
    cur.execute("CREATE TABLE low FRAGMENT BY EXPRESSION n < 110 IN dbspace1, n >= 110 AND "
                "n < 120 IN dbspace2 AS SELECT n FROM src")
    assert [r[4] for r in _frags(cur, "low")] == ["n < 110", "n >= 110 AND n < 120"]
    assert _code(cur, "INSERT INTO low VALUES (500)") == -772
    cur.execute("INSERT INTO src VALUES (140)")
    assert _code(cur, "CREATE TABLE low2 FRAGMENT BY EXPRESSION n < 110 IN dbspace1 "
                      "AS SELECT n FROM src") == -772
    assert _rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'low2'") == [(0,)]
    cur.execute("CREATE TABLE rr FRAGMENT BY ROUND ROBIN IN d1, d2 AS SELECT n FROM src")
    assert [r[2] for r in _frags(cur, "rr")] == ["R", "R"]


def test_unique_index_fragments_over_its_key_only(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0429 "Fragmentation of Unique Indexes": columns in the fragment expressions
    must be indexed columns, else -872 "Invalid fragment strategy or expression for the
    unique index." (the Performance Guide's ids_prf_464 example, col2 outside the key). An
    index without FRAGMENT BY or IN dbspace follows the table's scheme (ids_prf_486)."""
    cur.execute("CREATE TABLE tab1 (col1 INTEGER, col2 INTEGER)")
    assert _code(cur, "CREATE UNIQUE INDEX ia ON tab1 (col1) FRAGMENT BY EXPRESSION "
                      "col2 < 10 IN dbsp1, col2 >= 10 AND col2 < 100 IN dbsp2, "
                      "col2 > 100 IN dbsp3") == -872
    cur.execute("CREATE UNIQUE INDEX ib ON tab1 (col1) FRAGMENT BY EXPRESSION "
                "col1 < 10 IN dbsp1, REMAINDER IN dbsp2")
    cur.execute(REGIONS)
    assert _code(cur, "CREATE UNIQUE INDEX ic ON cust_f (fname)") == -872  # attached
    cur.execute("CREATE UNIQUE INDEX ic ON cust_f (fname) IN dbspace1")  # detached: fine
    cur.execute("CREATE UNIQUE INDEX id ON cust_f (customer_num, fname)")  # key has it
    # not unique: fine (DESC: the same key as ic would be -350, ids_sqs_0413)
    cur.execute("CREATE INDEX ie ON cust_f (fname DESC)")
    cur.execute("ALTER TABLE cust_f ADD CONSTRAINT UNIQUE (state)")  # a detached system index
    # a field report of a real server: a unique index attached to a round-robin table
    cur.execute("CREATE TABLE a11 (a INTEGER, b INTEGER) FRAGMENT BY ROUND ROBIN IN d1, d2")
    assert _code(cur, "CREATE UNIQUE INDEX idx_a11_a ON a11 (a)") == -872
    cur.execute("CREATE UNIQUE INDEX idx_a11_a ON a11 (a) IN datadbs1")
    cur.execute("CREATE INDEX idx_a11_b ON a11 (b)")


def test_parenthesised_fragment_list_and_list_add(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0426: "The parentheses around the list of fragment definitions that follow the
    EXPRESSION keyword are optional"; ids_sqs_0064: ADD PARTITION p VALUES (...) IN d for a
    LIST scheme."""
    cur.execute("CREATE TABLE px (a INTEGER)")
    cur.execute("CREATE INDEX px_ix ON px (a) FRAGMENT BY EXPRESSION (PARTITION p1 (a < 10) "
                "IN dbs1, PARTITION p2 (a >= 10) IN dbs1)")
    assert [r[6] for r in _frags(cur, "px")] == ["p1", "p2"]
    cur.execute("CREATE TABLE py (a INTEGER) FRAGMENT BY EXPRESSION (a < 10) IN dbs1, "
                "(a >= 10) IN dbs2")
    assert [r[4] for r in _frags(cur, "py")] == ["(a < 10)", "(a >= 10)"]
    cur.execute("CREATE TABLE cust_l (state CHAR(2)) FRAGMENT BY LIST (state) "
                "PARTITION p1 VALUES ('CA') IN d1, PARTITION p2 VALUES ('NY') IN d1")
    assert _code(cur, "INSERT INTO cust_l VALUES ('TX')") == -772
    cur.execute("ALTER FRAGMENT ON TABLE cust_l ADD PARTITION p3 VALUES ('TX', 'AZ') IN d2")
    cur.execute("INSERT INTO cust_l VALUES ('TX')")
    assert _code(cur, "ALTER FRAGMENT ON TABLE cust_l ADD PARTITION p4 VALUES ('CA') "
                      "IN d2") == -25800  # a value of p1
    assert _code(cur, "ALTER FRAGMENT ON TABLE cust_l ADD VALUES ('UT') IN d2") == -25802
    # -25823 "Cannot specify BEFORE or AFTER clause while adding or attaching a fragment."
    assert _code(cur, "ALTER FRAGMENT ON TABLE cust_l ADD PARTITION p5 VALUES ('UT') IN d2 "
                      "BEFORE p1") == -25823
    cur.execute("CREATE TABLE two (k INT) FRAGMENT BY LIST (k) PARTITION p1 VALUES (1) IN d1, "
                "PARTITION pn VALUES (NULL) IN d1, PARTITION pr REMAINDER IN d2")
    # -25817 "Cannot drop or detach the only remaining non-null, non-remainder fragment."
    assert _code(cur, "ALTER FRAGMENT ON TABLE two DROP PARTITION p1") == -25817
    assert _code(cur, "ALTER FRAGMENT ON TABLE two DETACH PARTITION p1 two_1") == -25817


def test_alter_fragment_on_index_init(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0084 INIT for an index, as the IDS V10 Redbook (10.1) shows it:
    ``ALTER FRAGMENT ON INDEX state_ind INIT FRAGMENT BY EXPRESSION PARTITION az_part
    (state = "AZ") IN dbspace2, ...``; ``INIT IN dbspace`` makes the index nonfragmented."""
    cur.execute("CREATE TABLE cust_s (customer_num INTEGER, state CHAR(2))")
    cur.execute("CREATE INDEX state_ind ON cust_s (state)")
    cur.execute("INSERT INTO cust_s VALUES (101, 'CA')")
    assert _code(cur, "ALTER FRAGMENT ON INDEX state_ind INIT FRAGMENT BY EXPRESSION "
                      "PARTITION az_part (state = 'AZ') IN dbspace2") == -772  # 'CA' row
    cur.execute("ALTER FRAGMENT ON INDEX state_ind INIT FRAGMENT BY EXPRESSION "
                'PARTITION az_part (state = "AZ") IN dbspace2, '
                "PARTITION ca_part (state = 'CA') IN dbspace2, "
                "PARTITION wa_part (state = 'WA') IN dbspace3")
    assert [r[6] for r in _frags(cur, "cust_s")] == ["az_part", "ca_part", "wa_part"]
    assert _code(cur, "INSERT INTO cust_s VALUES (102, 'NY')") == -772
    cur.execute("ALTER FRAGMENT ON INDEX state_ind INIT IN dbspace1")
    assert _frags(cur, "cust_s") == []
    cur.execute("INSERT INTO cust_s VALUES (102, 'NY')")
    cur.execute("CREATE UNIQUE INDEX num_ind ON cust_s (customer_num)")
    assert _code(cur, "ALTER FRAGMENT ON INDEX num_ind INIT FRAGMENT BY EXPRESSION "
                      "state = 'CA' IN d1, REMAINDER IN d2") == -872


def test_temp_table_fragments(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0509's temp table options include FRAGMENT BY: the same refusal of a row that
    fits no fragment; a temp table's fragments are in no catalogue (sysfragments holds none)."""
    cur.execute("CREATE TEMP TABLE tf (a INT) FRAGMENT BY EXPRESSION a < 10 IN t1, "
                "a IS NULL IN t2 WITH NO LOG")
    cur.execute("INSERT INTO tf VALUES (5)")
    cur.execute("INSERT INTO tf VALUES (NULL)")
    assert _code(cur, "INSERT INTO tf VALUES (50)") == -772
    assert _code(cur, "UPDATE tf SET a = 50 WHERE a = 5") == -772
    assert _rows(cur, "SELECT COUNT(*) FROM sysfragments") == [(0,)]
    assert _code(cur, "CREATE TEMP TABLE tg (a INT) FRAGMENT BY EXPRESSION a < 1 IN t1, "
                      "a < 2 IN t1") == -858
    cur.execute("CREATE TEMP TABLE tg (a INT)")  # nothing was left of the refused one
    cur.execute("DROP TABLE tg")
    cur.execute("DROP TABLE tf")
    cur.execute("CREATE TEMP TABLE tf (a INT)")  # the guard went with the table
    cur.execute("INSERT INTO tf VALUES (50)")
    cur.execute("DROP TABLE tf")
