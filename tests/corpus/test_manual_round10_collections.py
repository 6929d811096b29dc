"""Collections (SET, MULTISET, LIST) and ROW types of IBM's published material, tenth round
(issue 23), through the real driver and the embedded server over sockets.

Each case names its page: HCL Informix 14.10 Guide to SQL: Tutorial (``ids_sqt_NNN``, at
https://help.hcl-software.com/hclinformix/1410/sqt/), Guide to SQL: Syntax (``ids_sqs_NNNN``,
.../sqs/) or Reference (``ids_sqr_NNN``, .../sqr/). The statements are ours, modelled on the
pages' examples (their tables: the tutorial's ``manager``, the Syntax guide's ``tab_coll``,
``tab5`` and ``tab1``/``tab2``); where a page prints a result the case compares with it, where
it states a rule the case checks the rule. Each case runs in a database of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire import Multiset, Row

from .manual import fresh_database, rows, sqlcode

_rows = rows
_code = sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "coll10") as conn:
        yield conn.cursor()


def _ints(cur: ifxwire.Cursor) -> None:
    """tab1 of the collection-subquery pages (ids_sqt_186/187): INT values, one repeated."""
    cur.execute("CREATE TABLE tab1 (int_col INT)")
    for v in (3, 1, 3, 12):
        cur.execute("INSERT INTO tab1 VALUES (?)", [v])


# ---- literal collections (ids_sqs_1597, ids_sqs_1599, ids_sqs_1383) ---------------------------
def test_nested_collection_literal_in_doubled_quotes(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1599 ("Nested Quotation Marks"): a nested collection literal doubles the
    quotes at each level, as in its tab5 insert of a SET of SETs written between double
    quotes; single quotes double the same way. The inner literal was taken for a string and
    refused with -1260."""
    cur.execute("CREATE TABLE tab5 (set_col SET(SET(INT NOT NULL) NOT NULL))")
    cur.execute('INSERT INTO tab5 VALUES ("SET{""SET{34, 56, 23, 33}""}")')
    cur.execute("INSERT INTO tab5 VALUES ('SET{''SET{2, 2}'', ''SET{7}''}')")
    got = _rows(cur, "SELECT set_col FROM tab5 ORDER BY CARDINALITY(set_col)")
    assert got == [({frozenset({23, 33, 34, 56})},), ({frozenset({2}), frozenset({7})},)]
    assert _rows(cur, "SELECT COUNT(*) FROM tab5 WHERE SET{7} IN set_col") == [(1,)]


def test_in_on_collection_columns_page_fragments(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1383 ("Using the IN operator with collection data types"): its tab_coll
    fragments — an element IN a SET column (also cast, and NOT IN a quoted one), a SET
    column IN a list of quoted SETs, a quoted SET IN a LIST of SETs, and a LIST of SETs IN a
    list of quoted LITS whose inner SETs are in doubled quotes (the insert of such a LIST was
    -1260)."""
    cur.execute("CREATE TABLE tab_coll (id INT, set_num SET(INT NOT NULL), "
                "list_name LIST(SET(CHAR(10) NOT NULL) NOT NULL))")
    cur.execute("INSERT INTO tab_coll VALUES (1, SET{5, 6}, LIST{SET{'john', 'sally', 'bill'}})")
    cur.execute('INSERT INTO tab_coll VALUES (2, "SET{1,2,3}", '
                '"LIST{""SET{\'bill\',\'usha\'}"", ""SET{\'ann\', \'moshi\'}""}")')
    assert _rows(cur, "SELECT id FROM tab_coll WHERE 5 IN set_num") == [(1,)]
    assert _rows(cur, "SELECT id FROM tab_coll WHERE 5.0::INT IN set_num") == [(1,)]
    assert _rows(cur, 'SELECT id FROM tab_coll WHERE "5" NOT IN set_num') == [(2,)]
    assert _rows(cur, 'SELECT id FROM tab_coll WHERE set_num IN ("SET{1,2,3}", "SET{7,8,9}")'
                 ) == [(2,)]
    assert _rows(cur, "SELECT id FROM tab_coll WHERE \"SET{'john', 'sally', 'bill'}\" "
                      "IN list_name") == [(1,)]
    assert _rows(cur, "SELECT id FROM tab_coll WHERE list_name IN ("
                      "\"LIST{\"\"SET{'bill','usha'}\"\", \"\"SET{'ann', 'moshi'}\"\"}\", "
                      "\"LIST{\"\"SET{'bob','ramesh'}\"\", \"\"SET{'bomani', 'ann'}\"\"}\")"
                 ) == [(2,)]
    (lst,) = _rows(cur, "SELECT list_name FROM tab_coll WHERE id = 2")[0]
    # a LIST keeps its order; CHAR(10) elements come as the driver gives CHAR, unpadded
    assert [sorted(s) for s in lst] == [["bill", "usha"], ["ann", "moshi"]]


# ---- the tutorial's manager table (ids_sqt_226, ids_sqt_104, ids_sqt_131) ----------------------
def _manager(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE manager (mgr_name VARCHAR(30), department VARCHAR(12), "
                "direct_reports SET(VARCHAR(30) NOT NULL), projects LIST(ROW(pro_name "
                "VARCHAR(15), pro_members SET(VARCHAR(20) NOT NULL)) NOT NULL))")
    cur.execute("INSERT INTO manager VALUES ('Sayles', 'marketing', \"SET{'Smith', 'Waters', "
                "'Adams', 'Davis', 'Kurasawa'}\", \"LIST{ROW('voyager_project', "
                "SET{'Ross', 'Lope', 'Lewis', 'Wade'})}\")")
    cur.execute("INSERT INTO manager VALUES ('Lyman', 'publications', SET{'Ann', 'Bo', 'Cy', "
                "'Di'}, LIST{ROW('manuals', SET{'Ann'}), ROW('web', SET{'Bo', 'Cy'})})")


def test_in_keyword_returns_the_whole_collection(cur: ifxwire.Cursor) -> None:
    """ids_sqt_104: 'Adams' IN direct_reports finds Sayles of marketing, and the query
    returns the complete collection, "not a particular element"."""
    _manager(cur)
    assert _rows(cur, "SELECT mgr_name, department FROM manager WHERE 'Adams' IN "
                      "direct_reports") == [("Sayles", "marketing")]
    assert _rows(cur, "SELECT mgr_name, direct_reports FROM manager WHERE 'Adams' IN "
                      "direct_reports") == [
        ("Sayles", {"Smith", "Waters", "Adams", "Davis", "Kurasawa"})]
    (projects,) = _rows(cur, "SELECT projects FROM manager WHERE mgr_name = 'Lyman'")[0]
    assert [p.pro_name for p in projects] == ["manuals", "web"]  # a LIST keeps its order


def test_cardinality_per_row_printed(cur: ifxwire.Cursor) -> None:
    """ids_sqt_131: CARDINALITY(direct_reports) per row (marketing 5; publications 4, as
    the page prints for that department), and in a predicate (< 6)."""
    _manager(cur)
    assert _rows(cur, "SELECT department, CARDINALITY(direct_reports) FROM manager "
                      "ORDER BY department") == [("marketing", 5), ("publications", 4)]
    assert _rows(cur, "SELECT department FROM manager WHERE CARDINALITY(direct_reports) < 5"
                 ) == [("publications",)]


# ---- collection subqueries (ids_sqs_1374, ids_sqt_185-188) -------------------------------------
def test_collection_subquery_without_item_is_a_multiset_of_rows(cur: ifxwire.Cursor) -> None:
    """ids_sqt_186: without ITEM the collection subquery is a MULTISET of unnamed ROWs, which
    matches a MULTISET(ROW(a INT) NOT NULL) column: stored by INSERT, compared with = in
    WHERE (the page's query), assigned by UPDATE (ids_sqs_1374 lists VALUES and SET). It was
    -674 (no routine "multiset"). No row gives an empty MULTISET."""
    _ints(cur)
    cur.execute("CREATE TABLE tab2 (id_num INT, ms_col MULTISET(ROW(a INT) NOT NULL))")
    cur.execute("INSERT INTO tab2 VALUES (1, MULTISET(SELECT int_col FROM tab1))")
    cur.execute("INSERT INTO tab2 VALUES (2, MULTISET(SELECT int_col FROM tab1 "
                "WHERE int_col > 100))")
    assert _rows(cur, "SELECT id_num FROM tab2 WHERE ms_col = (MULTISET(SELECT int_col "
                      "FROM tab1))") == [(1,)]
    (first,), (second,) = _rows(cur, "SELECT ms_col FROM tab2 ORDER BY id_num")
    assert sorted(tuple(r) for r in first) == [(1,), (3,), (3,), (12,)]
    assert isinstance(second, Multiset) and len(second) == 0
    cur.execute("UPDATE tab2 SET ms_col = MULTISET(SELECT int_col + 1 FROM tab1 "
                "WHERE int_col < 10) WHERE id_num = 2")
    assert _rows(cur, "SELECT CARDINALITY(ms_col) FROM tab2 WHERE id_num = 2") == [(3,)]
    cur.execute("SELECT MULTISET(SELECT int_col, int_col * 2 FROM tab1 WHERE int_col = 1) "
                "FROM tab2 WHERE id_num = 1")
    assert cur.description is not None
    assert cur.description[0][1].type_name == (  # type: ignore[attr-defined]
        "MULTISET(ROW(int_col integer, f2 integer) not null)")
    assert cur.fetchall() == [(Multiset([Row((1, 2), ("int_col", "f2"))]),)]


def test_collection_subquery_with_item(cur: ifxwire.Cursor) -> None:
    """ids_sqt_187: with ITEM "the database server does not put a row wrapper around the
    projection list": int_col values BETWEEN 1 AND 10 make a MULTISET(INT NOT NULL); a
    collection subquery stands wherever a collection expression does (ids_sqs_1374):
    CARDINALITY, IN, correlated in a projection, TABLE(…) in FROM. SELECT ITEM was -217."""
    _ints(cur)
    cur.execute("SELECT MULTISET(SELECT ITEM int_col FROM tab1 WHERE int_col BETWEEN 1 "
                "AND 10) FROM tab1 WHERE int_col = 12")
    assert cur.description is not None
    assert cur.description[0][1].type_name == (  # type: ignore[attr-defined]
        "MULTISET(integer not null)")
    assert cur.fetchall() == [(Multiset([1, 3, 3]),)]
    assert _rows(cur, "SELECT CARDINALITY(MULTISET(SELECT ITEM int_col FROM tab1)) "
                      "FROM tab1 WHERE int_col = 1") == [(4,)]
    assert _rows(cur, "SELECT DISTINCT int_col FROM tab1 WHERE int_col + 9 IN "
                      "MULTISET(SELECT ITEM int_col FROM tab1)") == [(3,)]
    assert _rows(cur, "SELECT t.int_col, MULTISET(SELECT ITEM int_col * 2 FROM tab1 "
                      "WHERE int_col = t.int_col) FROM tab1 t ORDER BY 1") == [
        (1, Multiset([2])), (3, Multiset([6, 6])), (3, Multiset([6, 6])),
        (12, Multiset([24]))]
    assert _rows(cur, "SELECT * FROM TABLE(MULTISET(SELECT ITEM int_col FROM tab1)) "
                      "AS v(n) ORDER BY n") == [(1,), (3,), (3,), (12,)]


def test_collection_subquery_restrictions(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1374: the subquery "Cannot contain the ORDER BY clause", and SELECT ITEM
    "supports only one expression in the projection list": syntax errors (-201)."""
    _ints(cur)
    assert _code(cur, "SELECT MULTISET(SELECT int_col FROM tab1 ORDER BY int_col) "
                      "FROM tab1") == -201
    assert _code(cur, "SELECT MULTISET(SELECT ITEM int_col, int_col FROM tab1) "
                      "FROM tab1") == -201


def test_collection_subqueries_and_derived_tables_in_from(cur: ifxwire.Cursor) -> None:
    """ids_sqt_188: two TABLE(MULTISET(SELECT SUM(c1) … GROUP BY …)) joined in FROM, and the
    "logically equivalent" ANSI form with two derived tables, give the same rows; an
    unnamed aggregate of a derived table was lost (-217 on sqlglot's _col_0)."""
    cur.execute("CREATE TABLE t1 (c1 INT, c2 INT)")
    cur.execute("CREATE TABLE t2 (c1 INT, c2 INT)")
    for a, b in ((1, 1), (1, 2), (2, 2)):
        cur.execute("INSERT INTO t1 VALUES (?, ?)", [a, b])
        cur.execute("INSERT INTO t2 VALUES (?, ?)", [a * 10, b])
    ext = _rows(cur, "SELECT * FROM TABLE(MULTISET(SELECT SUM(c1) FROM t1 GROUP BY c1)), "
                     "TABLE(MULTISET(SELECT SUM(c1) FROM t2 GROUP BY c2))")
    ansi = _rows(cur, "SELECT * FROM (SELECT SUM(c1) FROM t1 GROUP BY c1), "
                      "(SELECT SUM(c1) FROM t2 GROUP BY c2)")
    assert sorted(ext) == sorted(ansi) == sorted(
        (Decimal(a), Decimal(b)) for a in (2, 2) for b in (10, 30))
    cur.execute("SELECT * FROM (SELECT c1 + 1 FROM t1 WHERE c2 = 1)")
    assert cur.fetchall() == [(2,)]
    assert cur.description is not None and cur.description[0][0] == "(expression)"


# ---- ROW types (ids_sqr_134, ids_sqs_1469) ---------------------------------------------------
def test_named_row_types_of_different_names_are_never_equal(cur: ifxwire.Cursor) -> None:
    """ids_sqr_134: name_t and emp_t of the same structure are not equal; "a Boolean
    equality condition (such as name_t = emp_t) always evaluates to FALSE". It was TRUE.
    The same named type, and a named type against an unnamed ROW, compare by value."""
    cur.execute("CREATE ROW TYPE name_t (lname CHAR(15), initial CHAR(1), fname CHAR(15))")
    cur.execute("CREATE ROW TYPE emp_t (lname CHAR(15), initial CHAR(1), fname CHAR(15))")
    cur.execute("CREATE TABLE people (id INT, n name_t, e emp_t)")
    cur.execute("INSERT INTO people VALUES (1, ROW('Lee', 'A', 'Ann')::name_t, "
                "ROW('Lee', 'A', 'Ann')::emp_t)")
    assert _rows(cur, "SELECT COUNT(*) FROM people WHERE n = e") == [(0,)]
    assert _rows(cur, "SELECT COUNT(*) FROM people WHERE n != e") == [(1,)]
    assert _rows(cur, "SELECT COUNT(*) FROM people WHERE n = ROW('Lee', 'A', 'Ann')::name_t "
                      "AND e = ROW('Lee', 'A', 'Ann')") == [(1,)]


def test_row_constructors_of_any_expression(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1469: ROW constructors of literals, functions and columns (ROW(5, 6.77,
    'HMO'), ROW(col1.x, …)) into a named ROW column (cast) and an unnamed one; fields read
    back with dot notation."""
    cur.execute("CREATE ROW TYPE row_t (x INT, y INT)")
    cur.execute("CREATE TABLE new_tab (col1 row_t, col2 ROW(a CHAR(2), b INT))")
    cur.execute("INSERT INTO new_tab VALUES (ROW(32, 65)::row_t, ROW('CA', 34))")
    assert _rows(cur, "SELECT col1.x + col1.y, col2.a, ROW(col1.y, col2.b) FROM new_tab") == [
        (97, "CA", (65, 34))]
    assert _rows(cur, "SELECT ROW(5, 6.77, 'HMO') FROM new_tab") == [
        ((5, Decimal("6.77"), "HMO"),)]


def test_collection_and_row_refuse_concatenation(cur: ifxwire.Cursor) -> None:
    """A collection or ROW has no character value: ``||`` on one is refused as arithmetic on
    one is (-1260); it returned the server's JSON storage text."""
    cur.execute("CREATE TABLE numbers (id INT, evens LIST(INT NOT NULL), r ROW(a INT))")
    cur.execute("INSERT INTO numbers VALUES (1, LIST{2, 4}, ROW(1))")
    assert _code(cur, "SELECT evens || 'x' FROM numbers") == -1260
    assert _code(cur, "SELECT 'x' || r FROM numbers") == -1260
    assert _code(cur, "SELECT evens + 1 FROM numbers") == -1260


def test_asterisk_notation_projects_every_field(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1435: ``rect.*`` is the same as naming every field of the ROW column, in the
    projection list; ids_sqt_101 selects ``address.*`` of the employee table and inserts
    fields projected so into another table. It was -217 (no table "address")."""
    cur.execute("CREATE ROW TYPE address_t (street VARCHAR(20), city VARCHAR(20), "
                "state CHAR(2), zip VARCHAR(9))")
    cur.execute("CREATE TABLE employee (name VARCHAR(30), address address_t, salary INT)")
    cur.execute("INSERT INTO employee VALUES ('John Bryant', ROW('10 Bay Street', 'Madera', "
                "'CA', 95400)::address_t, 55000)")
    want = ("10 Bay Street", "Madera", "CA", "95400")
    cur.execute("SELECT address.* FROM employee WHERE address.city = 'Madera'")
    assert cur.fetchall() == [want]
    assert cur.description is not None
    assert [d[0] for d in cur.description] == ["street", "city", "state", "zip"]
    assert _rows(cur, "SELECT e.address.*, name FROM employee e") == [(*want, "John Bryant")]
    assert _rows(cur, "SELECT employee.address.* FROM employee") == [want]
    cur.execute("CREATE TABLE addresses (street VARCHAR(20), city VARCHAR(20), state CHAR(2), "
                "zip VARCHAR(9))")
    cur.execute("INSERT INTO addresses SELECT address.* FROM employee")
    assert _rows(cur, "SELECT * FROM addresses") == [want]


def test_typed_table_takes_a_row_constructor(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1438 fills the typed table tab1 (OF TYPE row_t) with ``INSERT INTO tab1
    VALUES (ROW(1,7))``: a typed table's row is an instance of its type (ids_ddi_109). It
    was -236. A ROW of another field count, or into an untyped table, stays -236."""
    cur.execute("CREATE ROW TYPE row_t (part_id INT, amt INT)")
    cur.execute("CREATE TABLE tab1 OF TYPE row_t")
    cur.execute("INSERT INTO tab1 VALUES (ROW(1, 7))")
    cur.execute("INSERT INTO tab1 VALUES (ROW(2, 10)::row_t)")
    assert _rows(cur, "SELECT part_id, amt FROM tab1 ORDER BY part_id") == [(1, 7), (2, 10)]
    assert _code(cur, "INSERT INTO tab1 VALUES (ROW(3))") == -236
    cur.execute("CREATE TABLE plain (a INT, b INT)")
    assert _code(cur, "INSERT INTO plain VALUES (ROW(1, 7))") == -236


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT id FROM numbers ORDER BY primes", -9926),
    ("SELECT id, evens FROM numbers ORDER BY 2", -9926),
    ("SELECT id FROM numbers ORDER BY r", -9926),
    ("SELECT DISTINCT evens FROM numbers", -9926),
    ("SELECT UNIQUE r FROM numbers", -9926),
    ("SELECT evens FROM numbers UNION SELECT evens FROM numbers", -9926),
    ("SELECT r FROM numbers INTERSECT SELECT r FROM numbers", -9926),
    ("SELECT COUNT(*) FROM numbers GROUP BY evens", -9606),
    ("SELECT ROW(COUNT(*), MAX(id)) FROM numbers", -9952),
])
def test_rows_and_collections_have_no_order(cur: ifxwire.Cursor, sql: str, code: int) -> None:
    """The message catalogue in IBM's JDBC jar has a text for each: -9926 "row-type or
    collection columns were referenced in ORDER BY, DISTINCT, UNIQUE, INDEX, UNION,
    INTERSECT, or MINUS specifications", -9606 collections in "group by", -9952 "Aggregate
    within a ROW in a SELECT projection list". All were answered (ordered by the server's
    storage text). Ordering by a field or CARDINALITY, UNION ALL, and an aggregate inside a
    collection subquery's ROW stay allowed."""
    cur.execute("CREATE TABLE numbers (id INT, primes SET(INT NOT NULL), "
                "evens LIST(INT NOT NULL), r ROW(a INT, b INT))")
    cur.execute("INSERT INTO numbers VALUES (99, SET{3, 5, 7}, LIST{2, 4, 6}, ROW(1, 2))")
    cur.execute("INSERT INTO numbers VALUES (100, SET{2}, LIST{2, 4}, ROW(3, 4))")
    assert _code(cur, sql) == code
    assert _rows(cur, "SELECT id FROM numbers ORDER BY r.a DESC") == [(100,), (99,)]
    assert _rows(cur, "SELECT id FROM numbers ORDER BY CARDINALITY(evens)") == [(100,), (99,)]
    assert len(_rows(cur, "SELECT evens FROM numbers UNION ALL SELECT evens FROM numbers")
               ) == 4
    assert _rows(cur, "SELECT CARDINALITY(MULTISET(SELECT COUNT(*), MAX(id) FROM numbers)) "
                      "FROM numbers WHERE id = 99") == [(1,)]


def test_literal_collection_of_rows_as_a_table(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1631 (Collection-Derived Table): only a collection not of a ROW type is
    limited to one derived column, so a collection of ROWs gives one column per field, as a
    ROW column's collection already did; a literal one gave a single ROW column (and its
    second derived column name was lost). A SET drops the repeated ROW; a LIST keeps order."""
    cur.execute("SELECT * FROM TABLE(SET{ROW(1, 'a'), ROW(1, 'a'), ROW(2, 'b')}) AS t(x, y) "
                "ORDER BY x")
    assert cur.fetchall() == [(1, "a"), (2, "b")]
    assert cur.description is not None and [d[0] for d in cur.description] == ["x", "y"]
    assert _rows(cur, "SELECT f2, f1 FROM TABLE(LIST{ROW(3, 'c'), ROW(1, 'a')}) t") == [
        ("c", 3), ("a", 1)]
    assert _code(cur, "SELECT * FROM TABLE(SET{ROW(1, 'a')}) AS t(x)") == -9621


@pytest.mark.parametrize(("sql", "code"), [
    ("CREATE INDEX ix_s ON holder (s)", -9604),
    ("CREATE INDEX ix_r ON holder (r)", -9926),
    ("CREATE TABLE bad (s SET(INT NOT NULL) PRIMARY KEY)", -9926),
    ("CREATE TABLE bad (s LIST(INT NOT NULL), UNIQUE (s))", -9926),
    ("CREATE TABLE bad (r ROW(a INT) PRIMARY KEY)", -9926),
    ("CREATE TABLE bad (s SET(SERIAL NOT NULL))", -9930),
    ("CREATE TABLE bad (s LIST(ROW(a INT, b BIGSERIAL) NOT NULL))", -9908),
    ("CREATE TABLE bad (r ROW(a INT, n ROW(b SERIAL8)))", -9908),
    ("CREATE TABLE bad (r ROW(a INT, a CHAR(2)))", -9806),
])
def test_column_definitions_of_rows_and_collections(cur: ifxwire.Cursor, sql: str, code: int
                                                    ) -> None:
    """ids_sqr_161: a collection element may be any type "except BYTE, TEXT, SERIAL, SERIAL8,
    or BIGSERIAL"; the catalogue's texts [jcat]: -9604 "Index not allowed on collections.",
    -9926 (INDEX, primary key and unique constraints over ROW or collection columns), -9930
    (such elements), -9908 (such ROW fields), -9806 (a field name twice in an unnamed ROW).
    All were accepted. A typed table's SERIAL field (a column) stays allowed."""
    cur.execute("CREATE TABLE holder (id INT, s SET(INT NOT NULL), r ROW(a INT))")
    assert _code(cur, sql, fetch=False) == code
    cur.execute("CREATE ROW TYPE counted_t (n SERIAL, label CHAR(5))")
    cur.execute("CREATE TABLE counted OF TYPE counted_t")
    cur.execute("INSERT INTO counted VALUES (0, 'a')")
    assert _rows(cur, "SELECT n FROM counted") == [(1,)]
