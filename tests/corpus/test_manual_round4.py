"""SQL of IBM's published material, fourth round (issue 23): built-in functions and statement
forms of the Guide to SQL: Syntax, checked on our stores_demo corpus through the real driver
and the embedded server over sockets.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN``, at
https://help.hcl-software.com/hclinformix/1410/sqs/) or the Tutorial. Where the page prints a
result (ADD_MONTHS, TRUNC of MONEY, the SUBSTR start rules) the case compares with it; where it
states a rule (UPDATE ``SET *``, DELETE without FROM, the operators CURRENT_USER/CURRENT_ROLE/
DEFAULT_ROLE, ALTER INDEX, -294) the case checks the rule on rows we count from data.sql.
The statements are ours, modelled on the pages; every change is rolled back.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

_rows = rows
_code = sqlcode

D = Decimal
SQS = "https://help.hcl-software.com/hclinformix/1410/sqs/"
ONE = " FROM systables WHERE tabid = 1"


# ---- scalar functions: (SELECT list, expected row, page) --------------------------------------
SCALARS: list[tuple[str, tuple[Any, ...], str]] = [
    # Time functions (ids_sqs_1530) and their pages
    ("WEEKDAY(MDY(12, 25, 2020)), DAY(MDY(12, 25, 2020)), MONTH(MDY(12, 25, 2020)), "
     "YEAR(MDY(12, 25, 2020)), QUARTER(MDY(12, 25, 2020))", (5, 25, 12, 2020, 4),
     "ids_sqs_1530: WEEKDAY counts Sunday as 0"),
    ("DATE(365), DATE('12/25/2020')", (dt.date(1900, 12, 31), dt.date(2020, 12, 25)),
     "ids_sqs_1530 DATE: an integer counts days from 12/31/1899; DBDATE MDY4/"),
    ("EXTEND(MDY(12, 25, 2020), YEAR TO MINUTE)", (dt.datetime(2020, 12, 25, 0, 0),),
     "ids_sqs_1530 EXTEND: new trailing fields get their lowest value"),
    ("EXTEND(DATETIME(2020-12-25 10:30:00) YEAR TO SECOND, HOUR TO MINUTE)",
     (dt.time(10, 30),), "ids_sqs_1530 EXTEND: a smaller qualifier drops fields"),
    ("CAST(DATETIME(2020-12-25 10:30:00) YEAR TO SECOND AS DATETIME MONTH TO DAY) = "
     "DATETIME(12-25) MONTH TO DAY", (True,), "ids_sqs_1530 EXTEND rules for a cast"),
    ("LAST_DAY(MDY(2, 10, 2020)), NEXT_DAY(MDY(12, 25, 2020), 'MON')",
     (dt.date(2020, 2, 29), dt.date(2020, 12, 28)), "ids_sqs_1530 LAST_DAY, NEXT_DAY"),
    ("ADD_MONTHS(MDY(1, 31, 2020), 1), MONTHS_BETWEEN(MDY(3, 31, 2020), MDY(1, 31, 2020))",
     (dt.date(2020, 2, 29), D(2)),
     "ids_sqs_1531: a shorter month gives its last day; both last days: whole months"),
    ("TRUNC(MDY(12, 25, 2020), 'MONTH'), ROUND(MDY(12, 25, 2020), 'YEAR'), "
     "TRUNC(MDY(12, 25, 2020), 'DAY')",
     (dt.date(2020, 12, 1), dt.date(2021, 1, 1), dt.date(2020, 12, 20)),
     "ids_sqs_1481 TRUNC/ROUND formats: 'DAY' goes back to the Sunday"),
    ("TRUNC(DATETIME(2020-12-25 10:31:45) YEAR TO SECOND, 'HH'), "
     "ROUND(DATETIME(2020-12-25 10:31:45) YEAR TO SECOND, 'MI')",
     (dt.datetime(2020, 12, 25, 10, 0), dt.datetime(2020, 12, 25, 10, 32)),
     "ids_sqs_1481 TRUNC/ROUND of a DATETIME"),
    ("TO_CHAR(MDY(12, 25, 2020), '%Y-%m-%d'), "
     "TO_CHAR(DATETIME(2020-12-25 10:30:05) YEAR TO SECOND, '%A %B %d, %Y %R')",
     ("2020-12-25", "Friday December 25, 2020 10:30"), "ids_sqs_1542 TO_CHAR symbols"),
    ("TO_DATE('2020-12-25', '%Y-%m-%d')", (dt.datetime(2020, 12, 25, 0, 0),),
     "ids_sqs_1542 TO_DATE returns a DATETIME YEAR TO FRACTION(5)"),
    # SUBSTR (ids_sqs_1561) and SUBSTRING
    ("SUBSTR('ABCDEFG', 0, 3), SUBSTR('ABCDEFG', 1, 3)", ("ABC", "ABC"),
     "ids_sqs_1561: a start_position of 0 is treated as 1"),
    ("SUBSTR('ABCDEFG', -1), SUBSTR('ABCDEFG', -3, 2)", ("G", "EF"),
     "ids_sqs_1561: a negative start counts back; -1 is the last character"),
    ("SUBSTRING('ABCDEFG' FROM -3 FOR 7), SUBSTRING('ABCDEFG' FROM 3)", ("ABC", "CDEFG"),
     "ids_sqs_1561 contrasts SUBSTRING, which counts positions before the first"),
    ("SUBSTR('abcdef', 2, 3), 'abcdef'[2,3]", ("bcd", "bc"), "ids_sqs_1561; column substring"),
    # String functions
    ("LPAD('abc', 6, '*'), RPAD('abc', 6, '*'), LPAD('abcdef', 3)", ("***abc", "abc***", "abc"),
     "LPAD/RPAD: pad to the length, or cut"),
    ("INSTR('wwwxyzxyz', 'xyz'), INSTR('wwwxyzxyz', 'xyz', 5), INSTR('wwwxyzxyz', 'xyz', 1, 2)",
     (4, 7, 7), "INSTR(string, substring, start, count)"),
    ("CHARINDEX('xyz', 'wwwxyzxyz'), CHARINDEX('xyz', 'wwwxyzxyz', 5)", (4, 7),
     "CHARINDEX(substring, string, start)"),
    ("SUBSTRING_INDEX('www.ibm.com', '.', 2), SUBSTRING_INDEX('www.ibm.com', '.', -2)",
     ("www.ibm", "ibm.com"), "SUBSTRING_INDEX: before the 2nd delimiter, after the 2nd last"),
    ("REPLACE('Mr. Jones', 'Mr.', 'Ms.'), REPLACE('abcabc', 'b')", ("Ms. Jones", "acac"),
     "REPLACE: without the third argument the string is removed"),
    ("TRIM(LEADING '0' FROM '000123'), TRIM(TRAILING 'x' FROM 'abcxx'), TRIM('  z ')",
     ("123", "abc", "z"), "TRIM forms"),
    ("LTRIM('xxab', 'x'), RTRIM('abyy', 'y')", ("ab", "ab"), "LTRIM/RTRIM with a set"),
    ("INITCAP('hello wORLD foo-bar'), UPPER('abc'), LOWER('ABC')",
     ("Hello World Foo-Bar", "ABC", "abc"), "INITCAP: a word starts after a non-letter"),
    ("LENGTH('abc  '), CHAR_LENGTH('abc  '), OCTET_LENGTH('abc  ')", (3, 5, 5),
     "LENGTH drops trailing blanks; CHAR_LENGTH and OCTET_LENGTH count them"),
    ("ASCII('A'), CHR(66), REVERSE('abc'), CONCAT('ab', 'cd'), 'ab' || 'cd'",
     (65, "B", "cba", "abcd", "abcd"), "ASCII, CHR, REVERSE, CONCAT, ||"),
    ("LEFT('abcdef', 2), RIGHT('abcdef', 2), LEN('abc  ')", ("ab", "ef", 3), "LEFT, RIGHT, LEN"),
    # Algebraic functions (ids_sqs_1481 and neighbours)
    ("TRUNC(123.456, 1), ROUND(123.456, 2), ROUND(125.5), TRUNC(125.9)",
     (D("123.4"), D("123.46"), D(126), D(125)), "ROUND/TRUNC of a number"),
    ("ROUND(1234.5, -2), TRUNC(1234.5, -2), ROUND(125.46, -1)", (D(1200), D(1200), D(130)),
     "ids_sqs_1481: negative factors act left of the decimal point"),
    ("MOD(10, 3), POW(2, 10), ROOT(16), ROOT(27, 3), SQRT(16.0), ABS(-3)",
     (1, 1024.0, 4.0, 3.0, 4.0, 3), "MOD, POW, ROOT (default index 2), SQRT, ABS"),
    ("CEIL(1.2), FLOOR(1.8), CEIL(-1.2), FLOOR(-1.8)", (D(2), D(1), D(-1), D(-2)),
     "CEIL, FLOOR"),
    ("HEX(255), HEX(-1)", ("0x000000FF", "0xFFFFFFFF"), "HEX of an INTEGER: 8 hex digits"),
    ("BITAND(12, 10), BITOR(12, 10), BITXOR(12, 10), BITNOT(0), BITANDNOT(12, 10)",
     (8, 14, 6, -1, 4), "bitwise logical functions"),
    ("EXP(0), LOG10(100), LOGN(1), SIN(0), COS(0), ATAN2(0, 1)",
     (1.0, 2.0, 0.0, 0.0, 1.0, 0.0), "exponential, logarithmic and trigonometric functions"),
    # Conditional expressions
    ("NVL(NULL, 'x'), NVL2(NULL, 'a', 'b'), NVL2(1, 'a', 'b')", ("x", "b", "a"), "NVL, NVL2"),
    ("DECODE(2, 1, 'one', 2, 'two', 'other'), DECODE(9, 1, 'one', 'other'), "
     "DECODE(9, 1, 'one')", ("two", "other", None), "DECODE: no match and no default: NULL"),
    ("NULLIF(1, 1), NULLIF(1, 2), COALESCE(NULL, NULL, 3)", (None, 1, 3), "NULLIF, COALESCE"),
    ("CASE WHEN 1 = 1 THEN 'a' ELSE 'b' END, CASE 2 WHEN 1 THEN 'x' WHEN 2 THEN 'y' END",
     ("a", "y"), "generic and linear CASE"),
    # Constant expressions (ids_sqs_0184)
    ("CURRENT_USER, USER, UPPER(USER), LENGTH(USER)", ("informix", "informix", "INFORMIX", 8),
     "ids_sqs_0184: CURRENT_USER is a synonym for USER"),
    ("CURRENT_ROLE, DEFAULT_ROLE", (None, None),
     "ids_sqs_0184 / ids_sqs_1452: no role enabled, no default role: NULL"),
]


@pytest.mark.parametrize(("select", "expected", "page"), SCALARS,
                         ids=[f"scalar{i}" for i in range(len(SCALARS))])
def test_builtin_function(stores: ifxwire.Connection, select: str, expected: tuple[Any, ...],
                          page: str) -> None:
    cur = stores.cursor()
    got = _rows(cur, f"SELECT {select}{ONE}")
    assert got == [expected], page


def test_niladic_operators_inside_function_calls(stores: ifxwire.Connection) -> None:
    """ids_sqs_1530: DAY, MONTH, YEAR, WEEKDAY take any DATE or DATETIME expression, TODAY
    and CURRENT included (a lone TODAY in a call was read as a column: -217)."""
    cur = stores.cursor()
    (today, day, month, year, weekday, cur_month), = _rows(
        cur, "SELECT TODAY, DAY(TODAY), MONTH(TODAY), YEAR(TODAY), WEEKDAY(TODAY), "
             f"MONTH(CURRENT){ONE}")
    assert (day, month, year) == (today.day, today.month, today.year)
    assert weekday == (today.weekday() + 1) % 7 and cur_month == today.month
    assert _rows(cur, f"SELECT DATE(CURRENT) - TODAY, EXTEND(TODAY, YEAR TO DAY) = "
                      f"EXTEND(CURRENT, YEAR TO DAY){ONE}") == [(0, True)]


def test_extend_fills_leading_fields_from_the_clock(stores: ifxwire.Connection) -> None:
    """ids_sqs_1530 EXTEND: a larger qualifier takes its new leading fields from CURRENT."""
    cur = stores.cursor()
    (value, today), = _rows(cur, "SELECT EXTEND(DATETIME(10:30) HOUR TO MINUTE, YEAR TO "
                                 f"MINUTE), TODAY{ONE}")
    assert value == dt.datetime(today.year, today.month, today.day, 10, 30)


def test_add_months_printed_example(stores: ifxwire.Connection) -> None:
    """ids_sqs_1531 prints, for a_serial 7, b_date 07/06/2007 -> 02/06/2008 and c_datetime
    2007-10-06 16:47:49.00000 -> 2008-05-06 16:47:49.00000 (a DATETIME YEAR TO FRACTION(5))."""
    cur = stores.cursor()
    cur.execute("CREATE TABLE mytab (a_serial SERIAL, b_date DATE, "
                "c_datetime DATETIME YEAR TO FRACTION(5))")
    cur.execute("INSERT INTO mytab VALUES (7, '07/06/2007', "
                "DATETIME(2007-10-06 16:47:49.00000) YEAR TO FRACTION(5))")
    cur.execute("SELECT a_serial, b_date, ADD_MONTHS(b_date, a_serial), c_datetime, "
                "ADD_MONTHS(c_datetime, a_serial) FROM mytab WHERE a_serial = 7")
    assert [tuple(r) for r in cur.fetchall()] == [
        (7, dt.date(2007, 7, 6), dt.date(2008, 2, 6), dt.datetime(2007, 10, 6, 16, 47, 49),
         dt.datetime(2008, 5, 6, 16, 47, 49))]
    assert cur.description is not None
    assert cur.description[4][1] == cur.description[3][1]  # both DATETIME


def test_trunc_of_money_keeps_money(stores: ifxwire.Connection) -> None:
    """ids_sqs_1481: "SELECT TRUNC(125.46), TRUNC(total_price) FROM items" truncates 125.46
    to 125 and a MONEY value's fractional part to .00, in a MONEY result; and the page's
    WHERE TRUNC(total_price) = 124.00 finds no item of stores_demo (we count none between
    124 and 125)."""
    cur = stores.cursor()
    cur.execute("SELECT TRUNC(125.46), TRUNC(total_price), ROUND(total_price, 1) FROM items "
                "WHERE order_num = 1004 AND item_num = 1")
    row = cur.fetchone()
    assert row is not None and cur.description is not None
    assert (row[0], str(row[1]), str(row[2])) == (D(125), "250.00", "250.00")
    assert cur.description[1][1] == ifxwire.NUMBER and cur.description[1][5] == 2
    assert _rows(cur, "SELECT order_num, TRUNC(total_price) FROM items "
                      "WHERE TRUNC(total_price) = 124.00") == []


def test_to_char_of_a_number_with_a_mask(stores: ifxwire.Connection) -> None:
    """ids_sqs_1542: a numeric TO_CHAR mask uses the ESQL/C formatting characters; refused
    with -999 until the seventeenth round built them (test_manual_round17_to_char.py), never
    the unformatted number."""
    cur = stores.cursor()
    assert _rows(cur, f"SELECT TO_CHAR(1234.5, '$$,$$$.&&'){ONE}") == [("$1,234.50",)]
    assert _rows(cur, f"SELECT TO_CHAR(123.45){ONE}") == [("123.45",)]


def test_dbinfo_utc_to_datetime(stores: ifxwire.Connection) -> None:
    """DBINFO('utc_to_datetime', seconds): a DATETIME YEAR TO SECOND in the server's zone
    (DBINFO Function, ids_sqs_1207)."""
    cur = stores.cursor()
    epoch = dt.datetime.fromtimestamp(0)
    assert _rows(cur, f"SELECT DBINFO('utc_to_datetime', 0){ONE}") == [(epoch,)]
    assert _rows(cur, "SELECT DBINFO('utc_to_datetime', DBINFO('utc_current')) = "
                      f"CURRENT YEAR TO SECOND{ONE}") in ([(True,)], [(False,)])


def test_aggregates_with_unique_and_range(stores: ifxwire.Connection) -> None:
    """Aggregate Expressions (ids_sqs_1433): UNIQUE is a synonym of DISTINCT inside COUNT,
    SUM and AVG; RANGE is MAX - MIN."""
    cur = stores.cursor()
    codes = {r[0] for r in _rows(cur, "SELECT manu_code FROM stock")}
    nums = {r[0] for r in _rows(cur, "SELECT stock_num FROM stock")}
    assert _rows(cur, "SELECT COUNT(UNIQUE manu_code), COUNT(DISTINCT manu_code), "
                      "SUM(UNIQUE stock_num) FROM stock") == [(len(codes), len(codes),
                                                              sum(nums))]
    (lo, hi), = _rows(cur, "SELECT MIN(unit_price), MAX(unit_price) FROM stock")
    assert _rows(cur, "SELECT RANGE(unit_price) FROM stock") == [(hi - lo,)]


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT customer_num, COUNT(*) FROM orders", -294),
    ("SELECT customer_num, ship_date FROM orders GROUP BY customer_num", -294),
    ("SELECT c.lname, COUNT(*) FROM customer c, orders o "
     "WHERE c.customer_num = o.customer_num GROUP BY c.customer_num", -294),
    ("SELECT c.customer_num, o.order_num FROM customer c, orders o "
     "WHERE c.customer_num = o.customer_num GROUP BY customer_num, order_num", -324),
    ("SELECT nosuch FROM customer", -217),
    ("SELECT * FROM nosuch", -206),
    ("CREATE TABLE customer (x INT)", -310),
    ("SELECT nosuch(1) FROM customer", -674),
    ("SELECT fname, lname FROM customer UNION SELECT fname FROM customer", -317),
    ("INSERT INTO customer (customer_num, fname) VALUES (0)", -236),
    (f"SELECT MDY(2, 30, 2020){ONE}", -1206),
    (f"SELECT MDY(13, 1, 2020){ONE}", -1205),
    (f"SELECT 1 / 0{ONE}", -1202),
])
def test_error_codes(stores: ifxwire.Connection, sql: str, code: int) -> None:
    """-294 "The column (%s) must be in the GROUP BY list" (Tutorial, GROUP BY clause: every
    non-aggregate select-list column is grouped), and the codes of the error-message guide
    for an unknown column/table, a duplicate table, an unknown routine, UNION widths, the
    VALUES count, invalid DATE fields and division by zero."""
    assert _code(stores.cursor(), sql) == code


def test_grouped_queries_that_are_valid(stores: ifxwire.Connection) -> None:
    """The same rule lets through grouped columns, select-number GROUP BY, aggregates over
    expressions, constants and correlated subqueries (Tutorial, GROUP BY and HAVING)."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT customer_num, COUNT(*) FROM orders GROUP BY 1 "
                      "HAVING COUNT(*) > 3") == [(104, D(4))]
    assert _rows(cur, "SELECT COUNT(*), 'x' FROM orders") == [(D(23), "x")]
    assert _rows(cur, "SELECT YEAR(order_date), COUNT(*) FROM orders GROUP BY 1") == [
        (1998, D(23))]
    assert _rows(cur, "SELECT c.customer_num, COUNT(*) FROM customer c, orders o WHERE "
                      "c.customer_num = o.customer_num GROUP BY c.customer_num "
                      "HAVING COUNT(*) > 3") == [(104, D(4))]
    assert _rows(cur, "SELECT o.order_num, (SELECT SUM(total_price) FROM items i WHERE "
                      "i.order_num = o.order_num) FROM orders o WHERE o.order_num = 1001"
                 ) == [(1001, D("250.00"))]


def test_update_set_star_and_multiple_columns(stores: ifxwire.Connection) -> None:
    """ids_sqs_1264, Multiple-Column Format: ``SET (fname, lname) = ('John', 'Doe')`` and
    ``SET * = ('HNT', 'Hunter')``, the star naming every column in order (on a manufact of
    the page's two columns: ours has lead_time too, which the statement would have to set)."""
    cur = stores.cursor()
    cur.execute("UPDATE customer SET (fname, lname) = ('John', 'Doe') WHERE customer_num = 101")
    assert _rows(cur, "SELECT fname, lname FROM customer WHERE customer_num = 101") == [
        ("John", "Doe")]
    cur.execute("CREATE TEMP TABLE mf (manu_code CHAR(3), manu_name CHAR(15))")
    cur.execute("INSERT INTO mf SELECT manu_code, manu_name FROM manufact")
    cur.execute("UPDATE mf SET * = ('HNT', 'Hunter') WHERE manu_code = 'ANZ'")
    assert cur.rowcount == 1
    assert _rows(cur, "SELECT * FROM mf WHERE manu_code IN ('ANZ', 'HNT')") == [
        ("HNT", "Hunter")]
    assert _code(cur, "UPDATE manufact SET * = ('HNT', 'Hunter') WHERE manu_code = 'ANZ'"
                 ) == -236


def test_update_of_a_referenced_key_is_692(stores: ifxwire.Connection) -> None:
    """Changing a primary key that orders still reference is -692 "Key value for constraint
    is still being referenced", as deleting it is; a child's key without a parent is -691."""
    cur = stores.cursor()
    assert _code(cur, "UPDATE customer SET customer_num = 999 WHERE customer_num = 101") == -692
    assert _code(cur, "DELETE FROM customer WHERE customer_num = 101") == -692
    assert _code(cur, "UPDATE orders SET customer_num = 999 WHERE order_num = 1001") == -691


def test_user_operator_examples(stores: ifxwire.Connection) -> None:
    """The USER operator page's statements: INSERT … (221, CURRENT, USER, 'B', …) needs a
    customer 221 (stores_demo has none: -691), then the same for 101, a SELECT … WHERE
    user_id = USER and an UPDATE … SET user_id = USER."""
    cur = stores.cursor()
    assert _code(cur, "INSERT INTO cust_calls VALUES (221, CURRENT, USER, 'B', "
                      "'Decimal point off', NULL, NULL)") == -691
    cur.execute("INSERT INTO cust_calls VALUES (101, CURRENT, USER, 'B', "
                "'Decimal point off', NULL, NULL)")
    assert _rows(cur, "SELECT customer_num, call_code FROM cust_calls "
                      "WHERE user_id = USER") == [(101, "B")]
    cur.execute("UPDATE cust_calls SET user_id = USER WHERE customer_num = 106")
    assert cur.rowcount == len(_rows(cur, "SELECT 1 FROM cust_calls WHERE customer_num = 106"))


def test_delete_without_from(stores: ifxwire.Connection) -> None:
    """ids_sqs_0675, FROM clause: "The FROM keyword that precedes the name of the target
    table is optional"."""
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE dd (a INT)")
    cur.executemany("INSERT INTO dd VALUES (?)", [(1,), (2,), (3,)])
    cur.execute("DELETE dd WHERE a = 1")
    assert cur.rowcount == 1
    cur.execute("DELETE dd")
    assert cur.rowcount == 2


def test_roles_as_operators(stores: ifxwire.Connection) -> None:
    """ids_sqs_0184 and ids_sqs_1452: CURRENT_ROLE is the role SET ROLE enabled, DEFAULT_ROLE
    the user's default role or PUBLIC's (SET ROLE does not change it)."""
    cur = stores.cursor()
    cur.execute("CREATE ROLE engineer")
    cur.execute("GRANT engineer TO informix")
    cur.execute("SET ROLE engineer")
    assert _rows(cur, f"SELECT CURRENT_ROLE, DEFAULT_ROLE{ONE}") == [("engineer", None)]
    cur.execute("GRANT DEFAULT ROLE engineer TO public")
    cur.execute("SET ROLE NONE")
    assert _rows(cur, f"SELECT CURRENT_ROLE, DEFAULT_ROLE{ONE}") == [(None, "engineer")]


def test_alter_index_to_cluster(stores: ifxwire.Connection) -> None:
    """ALTER INDEX statement: CREATE INDEX ix_cust ON orders (customer_num); ALTER INDEX
    ix_cust TO CLUSTER, then TO NOT CLUSTER; sysindexes.clustered says 'C' while clustered.
    CREATE CLUSTER INDEX sets it too; a second clustered index is refused."""
    cur = stores.cursor()
    clustered = "SELECT clustered FROM sysindexes WHERE idxname = ?"
    cur.execute("CREATE INDEX ix_cust ON orders (customer_num)")
    cur.execute("ALTER INDEX ix_cust TO CLUSTER")
    assert _rows(cur, clustered, ("ix_cust",)) == [("C",)]
    cur.execute("ALTER INDEX ix_cust TO NOT CLUSTER")
    assert _rows(cur, clustered, ("ix_cust",))[0][0].strip() == ""
    cur.execute("CREATE CLUSTER INDEX c_ix ON orders (order_date)")
    assert _rows(cur, clustered, ("c_ix",)) == [("C",)]
    assert _code(cur, "ALTER INDEX ix_cust TO CLUSTER") == -999
    assert _code(cur, "ALTER INDEX nosuch TO CLUSTER") == -319


def test_derived_table_column_list(stores: ifxwire.Connection) -> None:
    """Queries in the FROM clause: ``(subquery) AS vt (col, …)`` names the derived columns."""
    cur = stores.cursor()
    sql = ("SELECT * FROM (SELECT customer_num, lname FROM customer WHERE customer_num < 103)"
           " AS vt (cnum, name) ORDER BY cnum")
    assert _rows(cur, sql) == [(101, "Pauli"), (102, "Sadler")]
    assert cur.description is not None and [d[0] for d in cur.description] == ["cnum", "name"]
    assert _rows(cur, "SELECT vt.n FROM (SELECT COUNT(*) FROM orders) vt (n)") == [(D(23),)]


def test_sequence_life_cycle(stores: ifxwire.Connection) -> None:
    """CREATE SEQUENCE (ids_sqs_2020) with its options, NEXTVAL/CURRVAL, ALTER SEQUENCE
    RESTART and INCREMENT, RENAME SEQUENCE, DROP SEQUENCE; the sequence is in systables as
    tabtype 'Q'."""
    cur = stores.cursor()
    cur.execute("CREATE SEQUENCE seq_2 INCREMENT BY 1 START WITH 1 MAXVALUE 30 MINVALUE 0 "
                "NOCYCLE CACHE 10 ORDER")
    assert _rows(cur, f"SELECT seq_2.NEXTVAL, seq_2.CURRVAL{ONE}") == [(1, 1)]
    assert _rows(cur, f"SELECT seq_2.NEXTVAL{ONE}") == [(2,)]
    cur.execute("ALTER SEQUENCE seq_2 INCREMENT BY 2 RESTART WITH 5")
    assert _rows(cur, f"SELECT seq_2.NEXTVAL{ONE}") == [(5,)]
    assert _rows(cur, f"SELECT seq_2.NEXTVAL{ONE}") == [(7,)]
    cur.execute("RENAME SEQUENCE seq_2 TO seq_3")
    assert _rows(cur, "SELECT tabtype FROM systables WHERE tabname = 'seq_3'") == [("Q",)]
    cur.execute("DROP SEQUENCE seq_3")
    assert _rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'seq_3'") == [(D(0),)]


def test_synonyms(stores: ifxwire.Connection) -> None:
    """CREATE [PUBLIC|PRIVATE] SYNONYM (ids_sqs_0472): a synonym reads its table; systables
    lists a public synonym as 'S' and a private one as 'P'; DROP SYNONYM removes it."""
    cur = stores.cursor()
    total = _rows(cur, "SELECT COUNT(*) FROM customer")
    cur.execute("CREATE SYNONYM cust FOR customer")
    cur.execute("CREATE PRIVATE SYNONYM cust_p FOR customer")
    assert _rows(cur, "SELECT COUNT(*) FROM cust") == total
    assert _rows(cur, "SELECT tabname, tabtype FROM systables WHERE tabname IN "
                      "('cust', 'cust_p') ORDER BY 1") == [("cust", "S"), ("cust_p", "P")]
    cur.execute("DROP SYNONYM cust")
    assert _code(cur, "SELECT COUNT(*) FROM cust") == -206


def test_select_into_temp_and_set_operators(stores: ifxwire.Connection) -> None:
    """INTO TEMP … WITH NO LOG (ids_sqs_1079), UNION ALL keeps duplicates, INTERSECT and
    MINUS/EXCEPT (Tutorial, "Set operations")."""
    cur = stores.cursor()
    cur.execute("SELECT customer_num, lname FROM customer WHERE customer_num < 104 "
                "INTO TEMP tc WITH NO LOG")
    assert cur.rowcount == 3
    assert _rows(cur, "SELECT * FROM tc ORDER BY 1") == [(101, "Pauli"), (102, "Sadler"),
                                                        (103, "Currie")]
    assert _rows(cur, "SELECT lname FROM tc WHERE customer_num = 101 UNION ALL "
                      "SELECT lname FROM tc WHERE customer_num = 101") == [("Pauli",)] * 2
    assert _rows(cur, "SELECT customer_num FROM tc INTERSECT SELECT customer_num FROM orders"
                 ) == [(101,)]
    for op in ("MINUS", "EXCEPT"):
        assert _rows(cur, f"SELECT customer_num FROM tc {op} SELECT customer_num FROM orders "
                          "ORDER BY 1") == [(102,), (103,)]


def test_first_skip_limit_and_collection_tables(stores: ifxwire.Connection) -> None:
    """SELECT SKIP/FIRST/LIMIT (Projection clause) and collection-derived tables
    TABLE(LIST{…}) and TABLE(MULTISET(SELECT …)) (ids_sqs_1398)."""
    cur = stores.cursor()
    assert _rows(cur, "SELECT SKIP 2 FIRST 2 customer_num FROM customer ORDER BY 1") == [
        (103,), (104,)]
    assert _rows(cur, "SELECT LIMIT 2 customer_num FROM customer ORDER BY 1") == [
        (101,), (102,)]
    assert _rows(cur, "SELECT * FROM TABLE(LIST{1, 2, 3}) AS t(a) ORDER BY a") == [
        (1,), (2,), (3,)]
    assert _rows(cur, "SELECT * FROM TABLE(MULTISET(SELECT customer_num FROM customer "
                      "WHERE customer_num < 103)) ORDER BY 1") == [(101,), (102,)]


def test_a_new_sequence_does_not_inherit_a_rolled_back_ones_counter(
        stores: ifxwire.Connection) -> None:
    """CREATE SEQUENCE: the first NEXTVAL is START WITH. A sequence created and used in a
    transaction that rolled back leaves its tabid free; the next sequence to get it starts
    afresh (it had continued the dead sequence's values)."""
    cur = stores.cursor()
    cur.execute("CREATE SEQUENCE gone_seq START WITH 40")
    assert _rows(cur, f"SELECT gone_seq.NEXTVAL{ONE}") == [(40,)]
    assert _rows(cur, f"SELECT gone_seq.NEXTVAL{ONE}") == [(41,)]
    stores.rollback()
    cur.execute("CREATE SEQUENCE new_seq")
    assert _rows(cur, f"SELECT new_seq.NEXTVAL{ONE}") == [(1,)]


@pytest.mark.parametrize(("expr", "expected"), [
    ("DATETIME (2000-8-1) YEAR TO DAY + INTERVAL (3-5) YEAR TO MONTH", dt.date(2004, 1, 1)),
    ("EXTEND (DATETIME (2008-8-1) YEAR TO DAY, YEAR TO MINUTE) - INTERVAL (720) MINUTE(3) "
     "TO MINUTE", dt.datetime(2008, 7, 31, 12, 0)),
    ("DATETIME(2020-12-25 10:30) YEAR TO MINUTE - DATETIME(2020-12-24 08:00) YEAR TO MINUTE",
     dt.timedelta(days=1, hours=2, minutes=30)),
    ("MDY(12, 25, 2020) - MDY(1, 1, 2020)", 359),
    ("MDY(12, 25, 2020) + 5 UNITS DAY", dt.date(2020, 12, 30)),
])
def test_datetime_interval_arithmetic(stores: ifxwire.Connection, expr: str,
                                      expected: object) -> None:
    """Guide to SQL: Reference, "Manipulating DATETIME with INTERVAL Values" (ids_sqr_155)
    prints DATETIME (2004-01-01) YEAR TO DAY and DATETIME (2008-07-31 12:00) YEAR TO MINUTE
    for its two examples; DATETIME - DATETIME is an INTERVAL, DATE - DATE a count of days."""
    assert _rows(stores.cursor(), f"SELECT {expr}{ONE}") == [(expected,)]


def test_interval_finer_than_the_datetime_needs_extend(stores: ifxwire.Connection) -> None:
    """ids_sqr_155: "you cannot subtract an INTERVAL MINUTE TO MINUTE value from the DATETIME
    value ... that has a YEAR TO DAY field qualifier" without EXTEND: refused as incompatible
    (-1266); an INTERVAL within the DATETIME's fields is fine."""
    cur = stores.cursor()
    assert _code(cur, "SELECT DATETIME (2008-8-1) YEAR TO DAY - INTERVAL (720) MINUTE(3) "
                      f"TO MINUTE{ONE}") == -1266
    assert _rows(cur, "SELECT DATETIME (2008-8-1) YEAR TO DAY - INTERVAL (2) DAY TO DAY"
                      f"{ONE}") == [(dt.date(2008, 7, 30),)]


def test_select_clauses_and_directive_comments(stores: ifxwire.Connection) -> None:
    """SELECT … FOR READ ONLY (the SELECT statement's FOR READ ONLY clause), FOR UPDATE [OF],
    and the three directive comment styles {+ …}, --+ and /*+ … */ (Optimizer Directives):
    a directive is a comment to a server that does not optimize by them."""
    cur = stores.cursor()
    base = "customer_num FROM customer WHERE customer_num = 101"
    for sql in (f"SELECT {base} FOR READ ONLY", f"SELECT {base} FOR UPDATE",
                f"SELECT {base} FOR UPDATE OF lname", f"SELECT {{+ FULL(customer)}} {base}",
                f"SELECT --+ ORDERED\n {base}", f"SELECT /*+ INDEX(customer) */ {base}"):
        assert _rows(cur, sql) == [(101,)], sql


def test_iterator_function_forms(stores: ifxwire.Connection) -> None:
    """TABLE(FUNCTION iterator(…)) in FROM (Iterator Functions) gives the routine's rows (was
    -999 until the thirty-second session: test_manual_round32_table_functions.py); EXECUTE
    PROCEDURE of the same routine returns them, and INSERT … EXECUTE FUNCTION (INSERT, Execute
    Routine Clause) inserts them (was -999 here until the twenty-third round;
    test_manual_round16_left.py)."""
    cur = stores.cursor()
    cur.execute("CREATE PROCEDURE three() RETURNING INT; RETURN 1 WITH RESUME; "
                "RETURN 2 WITH RESUME; RETURN 3 WITH RESUME; END PROCEDURE")
    assert _rows(cur, "EXECUTE PROCEDURE three()") == [(1,), (2,), (3,)]
    assert _rows(cur, "SELECT * FROM TABLE(FUNCTION three())") == [(1,), (2,), (3,)]
    cur.execute("CREATE TEMP TABLE ef (a INT)")
    cur.execute("INSERT INTO ef EXECUTE FUNCTION three()")
    assert _rows(cur, "SELECT a FROM ef ORDER BY a") == [(1,), (2,), (3,)]


@pytest.mark.parametrize("sql", [
    "SAVE EXTERNAL DIRECTIVES {+AVOID_INDEX(customer)} ACTIVE FOR SELECT * FROM customer",
    "CREATE OPAQUE TYPE circle (INTERNALLENGTH = 24)",
    "UNLOAD TO '/tmp/customer.unl' SELECT * FROM customer",
])
def test_syntax_guide_statements_not_built_are_999(stores: ifxwire.Connection,
                                                   sql: str) -> None:
    """Statements of the Syntax guide the server does not build answer -999 (SERVER.md, "Not
    supported"), never -201 as if Informix had no such statement."""
    cur = stores.cursor()
    *setup, last = sql.split("; ")
    for one in setup:
        cur.execute(one)
    assert _code(cur, last) == -999
