"""SPL statements the pages print that the server refused or ran otherwise, thirty-third
session (issue 23; found by a sweep of the Guide to SQL: Syntax and Tutorial's SPL pages),
through the real driver and the embedded server over sockets. The routines of the nested
block, mixed LET, routine-name and ROW-variable tests follow the pages' own examples; the
others are ours.

Pages:
* Tutorial, "RAISE EXCEPTION to exit nested code" (ids_sqt_519): "a BEGIN…END block is a
  single statement. If an error occurs somewhere inside a block and the trap is outside the
  block, the rest of the block is skipped when execution resumes" (the function returns -10;
  the server resumed inside the inner block and returned 1).
* Syntax, LET: "Using a SELECT Statement in a LET Statement" (ids_sqs_1348: ``LET a,b,c =
  (SELECT c1,c2 FROM t WHERE id = 1), 15``) and "Calling a Function in a LET Statement"
  (ids_sqs_1349: ``LET a, b, c = 7, func2('orange', 'green')``): both were -201 at CREATE.
* Tutorial, "Subscripts with variables" (ids_sqt_446): ``LET name[4,7] = 'Ream'`` and
  ``SELECT fname[1,3] INTO name[1,3] …`` (-201 at CREATE).
* Tutorial, "Dynamic routine-name specification" (ids_sqt_501, ids_sqt_502): ``EXECUTE
  PROCEDURE salesperson_proc (…)`` where salesperson_proc is a variable holding the name
  (-674), "even if a built-in function of the same name exists" (EXECUTE FUNCTION).
* Tutorial, "Update a row-type expression" (ids_sqt_468, emp_raise) and "The LET statement"
  (ids_sqt_452: ``LET a.zip.z_code = 32601``); Syntax, "Declaring ROW Variables"
  (ids_sqs_1318): fields of ROW variables read and written (-217 / -201 / -999 before).
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "splst33") as conn:
        yield conn.cursor()


def test_nested_block_is_one_statement(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE t (aa INT)")
    cur.execute("INSERT INTO t VALUES (5)")
    cur.execute("INSERT INTO t VALUES (-3)")
    cur.execute("""CREATE FUNCTION nested_exit() RETURNING INT;
        DEFINE i, v INT;
        BEGIN
          ON EXCEPTION IN (1)
          END EXCEPTION WITH RESUME
          BEGIN
            FOR i IN (1 TO 1000)
              FOREACH SELECT aa INTO v FROM t
                IF v < 0 THEN RAISE EXCEPTION 1; END IF
              END FOREACH
            END FOR
            RETURN 1;
          END
          RETURN -10;
        END
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION nested_exit()") == [(-10,)]
    cur.execute("CREATE TABLE tlog (seq SERIAL, i INT)")
    cur.execute("""CREATE PROCEDURE resume_outer()
        DEFINE x INT;
        BEGIN
          ON EXCEPTION IN (-1202) INSERT INTO tlog (i) VALUES (-1); END EXCEPTION WITH RESUME
          BEGIN
            INSERT INTO tlog (i) VALUES (1);
            LET x = 1/0;
            INSERT INTO tlog (i) VALUES (2);
          END
          INSERT INTO tlog (i) VALUES (3);
        END
        END PROCEDURE""")
    cur.execute("EXECUTE PROCEDURE resume_outer()")
    assert rows(cur, "SELECT i FROM tlog ORDER BY seq") == [(1,), (-1,), (3,)]


def test_a_handler_of_the_block_itself_resumes_inside_it(cur: ifxwire.Cursor) -> None:
    """The unchanged case: the trap is the failing statement's own block's."""
    cur.execute("CREATE TABLE tlog (seq SERIAL, i INT)")
    cur.execute("""CREATE PROCEDURE resume_here()
        DEFINE x INT;
        ON EXCEPTION IN (-1202) INSERT INTO tlog (i) VALUES (-1); END EXCEPTION WITH RESUME
        INSERT INTO tlog (i) VALUES (1);
        LET x = 1/0;
        INSERT INTO tlog (i) VALUES (2);
        END PROCEDURE""")
    cur.execute("EXECUTE PROCEDURE resume_here()")
    assert rows(cur, "SELECT i FROM tlog ORDER BY seq") == [(1,), (-1,), (2,)]


def test_mixed_let_lists(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE t (id INT, c1 INT, c2 INT)")
    cur.execute("INSERT INTO t VALUES (1, 10, 20)")
    cur.execute("""CREATE FUNCTION let3() RETURNING INT, INT, INT;
        DEFINE a, b, c INT;
        LET a,b,c = (SELECT c1,c2 FROM t WHERE id = 1), 15;
        RETURN a, b, c;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION let3()") == [(10, 20, 15)]
    cur.execute("CREATE FUNCTION func2(x CHAR(10), y CHAR(10)) RETURNING INT, INT; "
                "RETURN LENGTH(x), LENGTH(y); END FUNCTION")
    cur.execute("""CREATE FUNCTION let1() RETURNING INT, INT, INT;
        DEFINE a, b, c INT;
        LET a, b, c = 7, func2('orange', 'green');
        RETURN a, b, c;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION let1()") == [(7, 6, 5)]
    # a subquery of no row gives NULLs, as LET a, b = (SELECT …) does
    cur.execute("""CREATE FUNCTION let4() RETURNING INT, INT, INT, INT;
        DEFINE a, b, c, d INT;
        LET a, b, c, d = func2('ab', 'c'), (SELECT c2, c1 FROM t WHERE id = 2);
        RETURN a, b, c, d;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION let4()") == [(2, 1, None, None)]
    # more values than targets, and fewer
    cur.execute("""CREATE FUNCTION let5() RETURNING INT;
        DEFINE a, b INT;
        LET a, b = 7, 8, func2('orange', 'green');
        RETURN a;
        END FUNCTION""")
    assert sqlcode(cur, "EXECUTE FUNCTION let5()") == -201
    cur.execute("""CREATE FUNCTION let6() RETURNING INT;
        DEFINE a, b, c, d INT;
        LET a, b, c, d = 7, func2('orange', 'green');
        RETURN a;
        END FUNCTION""")
    assert sqlcode(cur, "EXECUTE FUNCTION let6()") == -201


def test_assigning_a_substring(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE customer (fname CHAR(15), lname CHAR(15))")
    cur.execute("INSERT INTO customer VALUES ('Charles', 'Ream')")
    cur.execute("""CREATE FUNCTION subs() RETURNING CHAR(15);
        DEFINE name CHAR(15);
        LET name[4,7] = 'Ream';
        SELECT fname[1,3] INTO name[1,3] FROM customer WHERE lname = 'Ream';
        RETURN name;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION subs()", strip=True) == [("ChaReam",)]
    cur.execute("""CREATE FUNCTION subs2() RETURNING VARCHAR(15), CHAR(6);
        DEFINE v VARCHAR(15); DEFINE c CHAR(6);
        LET v = 'abcdefgh';
        LET v[2,3] = 'XYZ';
        LET c = 'hello';
        LET c[6] = '!';
        RETURN v, c;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION subs2()") == [("aXYdefgh", "hello!")]
    cur.execute("CREATE FUNCTION subs3() RETURNING INT; DEFINE i INT; "
                "LET i[1,2] = 5; RETURN i; END FUNCTION")
    assert sqlcode(cur, "EXECUTE FUNCTION subs3()") == -201  # only characters have one
    assert sqlcode(cur, "CREATE FUNCTION subs4() RETURNING INT; DEFINE n CHAR(5); "
                        "FOREACH SELECT fname INTO n[1,2] FROM customer END FOREACH; "
                        "RETURN 1; END FUNCTION", fetch=False) == -201
    assert sqlcode(cur, "CREATE FUNCTION subs5() RETURNING INT; DEFINE n CHAR(5); "
                        "LET n[3,2] = 'x'; RETURN 1; END FUNCTION", fetch=False) == -201


def test_routine_named_by_a_variable(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE company_tbl (n INT, q SMALLINT, amt MONEY, "
                "cust VARCHAR(50), sp VARCHAR(30))")
    cur.execute("CREATE TABLE tbl_sales (n INT, q SMALLINT, amt MONEY, cust VARCHAR(50))")
    cur.execute("CREATE PROCEDURE bill_proc(n INT, q SMALLINT, amt MONEY, cust VARCHAR(50)) "
                "INSERT INTO tbl_sales VALUES (n, q, amt, cust); END PROCEDURE")
    cur.execute("""CREATE PROCEDURE company_proc (no_of_items INT, itm_quantity SMALLINT,
           sale_amount MONEY, customer VARCHAR(50), sales_person VARCHAR(30))
        DEFINE salesperson_proc VARCHAR(60);
        INSERT INTO company_tbl VALUES (no_of_items, itm_quantity, sale_amount, customer,
            sales_person);
        LET salesperson_proc = sales_person || "_proc";
        EXECUTE PROCEDURE salesperson_proc (no_of_items, itm_quantity, sale_amount, customer);
        END PROCEDURE""")
    cur.execute("EXECUTE PROCEDURE company_proc(1, 2, 3.50, 'cust', 'bill')")
    assert rows(cur, "SELECT * FROM tbl_sales") == [(1, 2, Decimal("3.50"), "cust")]
    assert sqlcode(cur, "EXECUTE PROCEDURE company_proc(1, 2, 3.50, 'cust', 'nobody')",
                   fetch=False) == -674
    # the routine the variable names runs, not the built-in function of that name
    cur.execute("CREATE FUNCTION upper(s VARCHAR(10)) RETURNING VARCHAR(10); "
                "RETURN 'mine'; END FUNCTION")
    cur.execute("""CREATE FUNCTION callit() RETURNING VARCHAR(10);
        DEFINE f VARCHAR(20); DEFINE r VARCHAR(10);
        LET f = 'upper';
        EXECUTE FUNCTION f('abc') INTO r;
        RETURN r;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION callit()") == [("mine",)]


def test_row_variable_fields(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE ROW TYPE salary_t(base MONEY(9,2), bonus MONEY(9,2))")
    cur.execute("CREATE TABLE emp_info (emp_name VARCHAR(30), salary salary_t)")
    cur.execute("INSERT INTO emp_info VALUES ('Jo', ROW(1000, 100)::salary_t)")
    cur.execute("""CREATE PROCEDURE emp_raise( name VARCHAR(30), pct DECIMAL(3,2) )
           DEFINE row_var salary_t;
           SELECT salary INTO row_var FROM emp_info WHERE emp_name = name;
           LET row_var.base = row_var.base * pct;
           UPDATE emp_info SET salary = row_var WHERE emp_name = name;
        END PROCEDURE""")
    cur.execute("EXECUTE PROCEDURE emp_raise('Jo', 1.5)")
    assert rows(cur, "SELECT salary.base, salary.bonus FROM emp_info") == [
        (Decimal("1500.00"), Decimal("100.00"))]
    cur.execute("CREATE ROW TYPE zip_t ( z_code CHAR(5), z_suffix CHAR(4) )")
    cur.execute("CREATE ROW TYPE address_t ( street VARCHAR(20), city VARCHAR(20), "
                "state CHAR(2), zip zip_t )")
    cur.execute("""CREATE FUNCTION letrow() RETURNING CHAR(5), VARCHAR(20), CHAR(4);
        DEFINE a address_t;
        LET a = ROW ('A Street', 'Nowhere', 'AA', ROW(NULL, NULL))::address_t;
        LET a.zip.z_code = 32601;
        RETURN a.zip.z_code, a.city, a.zip.z_suffix;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION letrow()") == [("32601", "Nowhere", None)]
    cur.execute("""CREATE FUNCTION genrow() RETURNING INT, CHAR(10);
        DEFINE area ROW ( x int, y char(10) );
        LET area = ROW(5, 'abc');
        LET area.x = area.x + 1;
        RETURN area.x, area.y;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION genrow()", strip=True) == [(6, "abc")]
    cur.execute("CREATE FUNCTION badfield() RETURNING INT; DEFINE a address_t; "
                "LET a.nosuch = 1; RETURN 1; END FUNCTION")
    assert sqlcode(cur, "EXECUTE FUNCTION badfield()") == -217
    # a named ROW type as a return value stays refused (its catalogue rows are not written)
    assert sqlcode(cur, "CREATE FUNCTION retrow() RETURNING address_t; DEFINE a address_t; "
                        "RETURN a; END FUNCTION", fetch=False) == -999
