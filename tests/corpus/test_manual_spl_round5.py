"""SPL routines and triggers of IBM's published material, fifth round (issue 23), run through
the driver against the embedded server over sockets.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``sqs/ids_sqs_NNNN``) or
Guide to SQL: Tutorial (``sqt/ids_sqt_NNN``, "Create and use SPL routines", "Triggers"), at
https://help.hcl-software.com/hclinformix/1410/. Where the page prints a routine and the rows
it gives (``series``, ``read_address``, ``increase_by_pct``) the case runs that routine's shape
and compares with the result the page states; where it states a rule (WITH RESUME handlers,
DEFINE GLOBAL, DBINFO('sqlca.sqlerrd1'), trigger order) the case checks the rule. The routine
texts are ours, written after the pages. Every case works in its own logged database, or in
stores_demo inside a transaction that is rolled back.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows

_rows = rows

D = Decimal


@pytest.fixture()
def db(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    """A fresh logged database, autocommit, one per case."""
    with fresh_database(connect_kwargs, "spl5") as conn:
        yield conn.cursor()


def _code(cur: ifxwire.Cursor, sql: str) -> tuple[int, int]:
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql)
        cur.fetchall()
    err: Any = info.value
    return int(err.sqlcode), int(getattr(err, "isam", 0) or 0)


def _strip(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [tuple(v.rstrip() if isinstance(v, str) else v for v in r) for r in rows]


# ---- RETURN WITH RESUME: sqs/ids_sqs_0063 "WITH RESUME Keyword" -------------------------------
SERIES = """
CREATE FUNCTION series (limit INT, backwards INT) RETURNING INT;
   DEFINE i INT;
   FOR i IN (1 TO limit)
      RETURN i WITH RESUME;
   END FOR;
   IF backwards = 0 THEN
      RETURN;
   END IF;
   FOR i IN (limit TO 1 STEP -1)
      RETURN i WITH RESUME;
   END FOR;
END FUNCTION;
"""


def test_series_with_resume_forwards_and_back(db: ifxwire.Cursor) -> None:
    db.execute(SERIES)
    assert _rows(db, "EXECUTE FUNCTION series(3, 1)") == [(1,), (2,), (3,), (3,), (2,), (1,)]


def test_series_backwards_zero_stops_after_plain_return(db: ifxwire.Cursor) -> None:
    """ids_sqs_0063: "If the variable backwards equals zero (0), no value is returned ... and
    execution of series stops"."""
    db.execute(SERIES)
    assert _rows(db, "EXECUTE FUNCTION series(4, 0)") == [(1,), (2,), (3,), (4,)]


def test_series_called_by_foreach_in_another_udr(db: ifxwire.Cursor) -> None:
    """ids_sqs_0063: a cursor function "must be invoked within a FOREACH loop"."""
    db.execute(SERIES)
    db.execute("""
CREATE FUNCTION sum_series(n INT) RETURNING INT;
   DEFINE v, total INT;
   LET total = 0;
   FOREACH EXECUTE FUNCTION series(n, 1) INTO v
      LET total = total + v;
   END FOREACH;
   RETURN total;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION sum_series(3)") == [(12,)]


# ---- FOR: sqs "FOR" statement ranges and lists ------------------------------------------------
def test_for_in_list_of_ranges_and_values(db: ifxwire.Cursor) -> None:
    """Guide to SQL: Syntax, FOR: "FOR i IN (1 TO 3, 10, 20 TO 26 STEP 3)" visits each
    range in turn, then the single values."""
    db.execute("""
CREATE FUNCTION for_list() RETURNING INT;
   DEFINE i INT;
   FOR i IN (1 TO 3, 10, 20 TO 26 STEP 3)
      RETURN i WITH RESUME;
   END FOR;
END FUNCTION;""")
    assert [r[0] for r in _rows(db, "EXECUTE FUNCTION for_list()")] == [1, 2, 3, 10, 20, 23, 26]


def test_for_to_step_negative(db: ifxwire.Cursor) -> None:
    db.execute("""
CREATE FUNCTION countdown() RETURNING INT;
   DEFINE i, s INT;
   LET s = 0;
   FOR i = 10 TO 1 STEP -3
      LET s = s * 100 + i;
   END FOR;
   RETURN s;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION countdown()") == [(10070401,)]


# ---- CONTINUE / EXIT: sqs "CONTINUE", "EXIT" (ex_cont_ex) -------------------------------------
def test_continue_for_and_exit_for_from_inner_while(db: ifxwire.Cursor) -> None:
    """Guide to SQL: Syntax, EXIT: EXIT FOR inside a WHILE inside a FOR leaves the FOR;
    CONTINUE FOR skips to the next value."""
    db.execute("""
CREATE FUNCTION ex_cont_ex() RETURNING INT, INT;
   DEFINE i, s, j INT;
   LET s = 0;
   FOR j = 1 TO 20
      IF j > 10 THEN
         CONTINUE FOR;
      END IF
      LET i = j;
      WHILE i > 0
         LET i = i - 1;
         LET s = s + 1;
         IF i = 5 THEN
            EXIT FOR;
         END IF
      END WHILE
   END FOR
   RETURN j, s;
END FUNCTION;""")
    # j = 1..5 count down fully (1+2+3+4+5 = 15 steps); j = 6 exits after one step.
    assert _rows(db, "EXECUTE FUNCTION ex_cont_ex()") == [(6, 16)]


def test_loop_exit_when_and_labelled_exit(db: ifxwire.Cursor) -> None:
    """Guide to SQL: Syntax, LOOP and "<<label>>": EXIT LOOP WHEN and EXIT label."""
    db.execute("""
CREATE FUNCTION loops() RETURNING INT, INT;
   DEFINE i, j, n INT;
   LET i = 0;
   LOOP
      LET i = i + 1;
      EXIT LOOP WHEN i >= 7;
   END LOOP;
   LET n = 0;
   <<outer>>
   FOR j = 1 TO 5 LOOP
      WHILE 1 = 1 LOOP
         LET n = n + 1;
         EXIT outer WHEN j = 3;
         EXIT;
      END LOOP;
   END LOOP outer;
   RETURN i, n;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION loops()") == [(7, 3)]


# ---- CASE, IF / ELIF -------------------------------------------------------------------------
def test_case_statement_and_elif(db: ifxwire.Cursor) -> None:
    """Guide to SQL: Syntax, CASE (SPL) and IF ... ELIF ... ELSE."""
    db.execute("""
CREATE FUNCTION grade(k INT) RETURNING CHAR(6), CHAR(4);
   DEFINE a CHAR(6);
   DEFINE b CHAR(4);
   CASE k
      WHEN 1 THEN LET a = 'one';
      WHEN 2 THEN LET a = 'two';
      ELSE LET a = 'many';
   END CASE;
   IF k < 2 THEN LET b = 'low';
   ELIF k < 5 THEN LET b = 'mid';
   ELSE LET b = 'high';
   END IF;
   RETURN a, b;
END FUNCTION;""")
    got = [_strip(_rows(db, f"EXECUTE FUNCTION grade({k})"))[0] for k in (1, 2, 9)]
    assert got == [("one", "low"), ("two", "mid"), ("many", "high")]


def test_case_without_else_no_match_is_26062(db: ifxwire.Cursor) -> None:
    """sqs CASE (SPL), ids_sqs_1304: "If you include no ELSE clause, but no WHEN clause
    ... matches ..., the CASE statement fails with runtime error -26062"."""
    db.execute("""
CREATE PROCEDURE nocase(k INT)
   DEFINE a INT;
   CASE
      WHEN k = 1 THEN LET a = 1;
   END CASE;
END PROCEDURE;""")
    db.execute("EXECUTE PROCEDURE nocase(1)")
    assert _code(db, "EXECUTE PROCEDURE nocase(2)")[0] == -26062


# ---- read_address: sqt "Create and use SPL routines" / returning several values ---------------
READ_ADDRESS = """
CREATE FUNCTION read_address (lastname CHAR(15))
   RETURNING CHAR(15), CHAR(15), CHAR(20), CHAR(15), CHAR(2), CHAR(5);
   DEFINE p_lname, p_fname, p_city CHAR(15);
   DEFINE p_add CHAR(20);
   DEFINE p_state CHAR(2);
   DEFINE p_zip CHAR(5);
   SELECT fname, address1, city, state, zipcode
      INTO p_fname, p_add, p_city, p_state, p_zip
      FROM customer
      WHERE lname = lastname;
   RETURN p_fname, lastname, p_add, p_city, p_state, p_zip;
END FUNCTION;
"""


def test_read_address_returns_six_values(stores: ifxwire.Connection) -> None:
    cur = stores.cursor()
    cur.execute(READ_ADDRESS)
    assert _strip(_rows(cur, "EXECUTE FUNCTION read_address('Miller')")) == [
        ("Jane", "Miller", "Mayfair Mart", "Sunnyvale", "CA", "94086")]


def test_read_address_called_with_call_returning(stores: ifxwire.Connection) -> None:
    """sqs CALL: "CALL read_address('Pauli') RETURNING ..." from another routine."""
    cur = stores.cursor()
    cur.execute(READ_ADDRESS)
    cur.execute("""
CREATE FUNCTION city_of(n CHAR(15)) RETURNING CHAR(15);
   DEFINE f, l, c CHAR(15);
   DEFINE a CHAR(20);
   DEFINE s CHAR(2);
   DEFINE z CHAR(5);
   CALL read_address(n) RETURNING f, l, a, c, s, z;
   RETURN c;
END FUNCTION;""")
    assert _strip(_rows(cur, "EXECUTE FUNCTION city_of('Pauli')")) == [("Sunnyvale",)]


# ---- FOREACH with UPDATE WHERE CURRENT OF: sqt/ids_sqt_458 ------------------------------------
def test_increase_by_pct_where_current_of(db: ifxwire.Cursor) -> None:
    """sqt ids_sqt_458 Figure 2: raise the salaries above 35000 by pct percent."""
    db.execute("CREATE TABLE employee (name CHAR(10), salary INTEGER)")
    db.execute("INSERT INTO employee VALUES ('a', 30000)")
    db.execute("INSERT INTO employee VALUES ('b', 40000)")
    db.execute("INSERT INTO employee VALUES ('c', 50000)")
    db.execute("""
CREATE PROCEDURE increase_by_pct( pct INTEGER )
   DEFINE s INTEGER;
   FOREACH sal_cursor FOR
      SELECT salary INTO s FROM employee WHERE salary > 35000
      LET s = s + s * ( pct/100 );
      UPDATE employee SET salary = s WHERE CURRENT OF sal_cursor;
   END FOREACH;
END PROCEDURE;""")
    db.execute("EXECUTE PROCEDURE increase_by_pct(10)")
    # pct/100 is INTEGER / INTEGER: Informix divides as DECIMAL, so 10/100 = 0.1.
    assert _rows(db, "SELECT name, salary FROM employee ORDER BY name") == [
        ("a", 30000), ("b", 44000), ("c", 55000)]


def test_foreach_with_hold_survives_commit(db: ifxwire.Cursor) -> None:
    """sqs FOREACH: "FOREACH cursor WITH HOLD FOR SELECT ..."; a hold cursor stays open
    across COMMIT WORK (ids_sqs_0667)."""
    db.execute("CREATE TABLE t (k INT)")
    for k in (1, 2, 3):
        db.execute(f"INSERT INTO t VALUES ({k})")
    db.execute("CREATE TABLE seen (k INT)")
    db.execute("""
CREATE PROCEDURE held()
   DEFINE v INT;
   FOREACH c1 WITH HOLD FOR SELECT k INTO v FROM t ORDER BY k
      BEGIN WORK;
      INSERT INTO seen VALUES (v);
      COMMIT WORK;
   END FOREACH;
END PROCEDURE;""")
    db.execute("EXECUTE PROCEDURE held()")
    assert _rows(db, "SELECT k FROM seen ORDER BY k") == [(1,), (2,), (3,)]


# ---- ON EXCEPTION / RAISE EXCEPTION: sqs "ON EXCEPTION", "RAISE EXCEPTION" -------------------
def test_on_exception_in_with_resume_creates_missing_table(db: ifxwire.Cursor) -> None:
    """sqs ON EXCEPTION: a handler for -206 (no such table) that creates the table, then
    WITH RESUME continues after the failing INSERT."""
    db.execute("""
CREATE FUNCTION ins_tab() RETURNING INT;
   DEFINE n INT;
   ON EXCEPTION IN (-206)
      CREATE TABLE temp_tab (k INT);
      INSERT INTO temp_tab VALUES (1);
   END EXCEPTION WITH RESUME;
   INSERT INTO temp_tab VALUES (2);
   SELECT COUNT(*) INTO n FROM temp_tab;
   RETURN n;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION ins_tab()") == [(1,)]
    assert _rows(db, "EXECUTE FUNCTION ins_tab()") == [(2,)]


def test_on_exception_set_sqlcode_isam_text(db: ifxwire.Cursor) -> None:
    """sqs ON EXCEPTION: SET error_var, isam_var, error_data receive the codes and text."""
    db.execute("""
CREATE FUNCTION catch() RETURNING INT, INT, VARCHAR(40);
   DEFINE e, i INT;
   DEFINE t VARCHAR(40);
   ON EXCEPTION SET e, i, t
      RETURN e, i, t;
   END EXCEPTION;
   RAISE EXCEPTION -746, 0, 'custom text';
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION catch()") == [(-746, 0, "custom text")]


def test_raise_exception_reaches_client_with_isam(db: ifxwire.Cursor) -> None:
    """sqs RAISE EXCEPTION: "RAISE EXCEPTION -208, 0" gives the client SQL error -208."""
    db.execute("CREATE PROCEDURE boom() RAISE EXCEPTION -208, 0; END PROCEDURE;")
    assert _code(db, "EXECUTE PROCEDURE boom()")[0] == -208


def test_raise_user_error_746_text(db: ifxwire.Cursor) -> None:
    """sqs RAISE EXCEPTION: -746 carries the routine's own message text to the client."""
    db.execute("CREATE PROCEDURE r746() RAISE EXCEPTION -746, 0, 'Update Not Allowed';"
               " END PROCEDURE;")
    with pytest.raises(ifxwire.Error) as info:
        db.execute("EXECUTE PROCEDURE r746()")
    err: Any = info.value
    assert err.sqlcode == -746
    assert "Update Not Allowed" in str(err)


def test_on_exception_without_resume_leaves_block(db: ifxwire.Cursor) -> None:
    """sqs ON EXCEPTION: without WITH RESUME, control passes to the end of the statement
    block that holds the handler; here the BEGIN ... END block, then the routine goes on."""
    db.execute("""
CREATE FUNCTION blk() RETURNING INT;
   DEFINE x INT;
   LET x = 0;
   BEGIN
      ON EXCEPTION
         LET x = x + 100;
      END EXCEPTION;
      LET x = x + 1;
      RAISE EXCEPTION -1, 0;
      LET x = x + 1000;
   END;
   LET x = x + 10;
   RETURN x;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION blk()") == [(111,)]


# ---- DEFINE GLOBAL: sqt ids_sqt_435 "DEFINE GLOBAL gl_out INT DEFAULT 13" ----------------------
def test_define_global_default_and_shared_between_routines(db: ifxwire.Cursor) -> None:
    """sqs DEFINE GLOBAL: the first DEFINE GLOBAL in a session gives the default; later
    routines see the value the earlier one left."""
    db.execute("""
CREATE FUNCTION gl_get() RETURNING INT;
   DEFINE GLOBAL gl_out INT DEFAULT 13;
   RETURN gl_out;
END FUNCTION;""")
    db.execute("""
CREATE PROCEDURE gl_set(v INT)
   DEFINE GLOBAL gl_out INT DEFAULT 99;
   LET gl_out = v;
END PROCEDURE;""")
    assert _rows(db, "EXECUTE FUNCTION gl_get()") == [(13,)]
    db.execute("EXECUTE PROCEDURE gl_set(42)")
    assert _rows(db, "EXECUTE FUNCTION gl_get()") == [(42,)]


def test_define_global_business_rule_trigger(db: ifxwire.Cursor) -> None:
    """Tutorial (Triggers), modelled: BEFORE saves SUM(quantity) in a global, AFTER
    compares and RAISEs -746; the failed UPDATE is undone."""
    db.execute("CREATE TABLE products (pid INT, quantity INT)")
    db.execute("INSERT INTO products VALUES (1, 10)")
    db.execute("INSERT INTO products VALUES (2, 10)")
    db.execute("""
CREATE PROCEDURE upd_prod_1()
   DEFINE GLOBAL old_qty INT DEFAULT 0;
   LET old_qty = (SELECT SUM(quantity) FROM products);
END PROCEDURE;""")
    db.execute("""
CREATE PROCEDURE upd_prod_2()
   DEFINE GLOBAL old_qty INT DEFAULT 0;
   DEFINE new_qty INT;
   LET new_qty = (SELECT SUM(quantity) FROM products);
   IF new_qty > 1.5 * old_qty THEN
      RAISE EXCEPTION -746, 0, 'Update Not Allowed';
   END IF
END PROCEDURE;""")
    db.execute("""
CREATE TRIGGER upd_prod UPDATE OF quantity ON products
   BEFORE (EXECUTE PROCEDURE upd_prod_1())
   AFTER (EXECUTE PROCEDURE upd_prod_2())""")
    db.execute("UPDATE products SET quantity = 12 WHERE pid = 1")
    assert _code(db, "UPDATE products SET quantity = quantity * 2")[0] == -746
    assert _rows(db, "SELECT SUM(quantity) FROM products") == [(22,)]


# ---- DBINFO in SPL: sqs/ids_sqs_1487 and "sqlca.sqlerrd2" ------------------------------------
def test_dbinfo_sqlerrd1_after_serial_insert(db: ifxwire.Cursor) -> None:
    """ids_sqs_1487: fst_tab / sec_tab; sec_tab gets the last serial inserted into fst_tab."""
    db.execute("CREATE TABLE fst_tab (ordernum SERIAL, partnum INT)")
    db.execute("CREATE TABLE sec_tab (ordernum SERIAL)")
    for p in (1, 4, 6):
        db.execute(f"INSERT INTO fst_tab VALUES (0, {p})")
    db.execute("INSERT INTO sec_tab VALUES (DBINFO('sqlca.sqlerrd1'))")
    assert _rows(db, "SELECT ordernum FROM sec_tab") == [(3,)]


def test_dbinfo_sqlerrd1_and_sqlerrd2_inside_spl(db: ifxwire.Cursor) -> None:
    db.execute("CREATE TABLE ord (n SERIAL, v INT)")
    db.execute("INSERT INTO ord VALUES (100, 0)")
    db.execute("""
CREATE FUNCTION add_and_count() RETURNING INT, INT;
   DEFINE s, c INT;
   INSERT INTO ord VALUES (0, 1);
   LET s = DBINFO('sqlca.sqlerrd1');
   UPDATE ord SET v = v + 1;
   LET c = DBINFO('sqlca.sqlerrd2');
   RETURN s, c;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION add_and_count()") == [(101, 2)]


def test_dbinfo_sqlerrd1_not_set_by_trigger_inserts(db: ifxwire.Cursor) -> None:
    """ids_sqs_1487: "the SQLCA structure does not record serial values that are inserted
    by triggers"."""
    db.execute("CREATE TABLE a (n SERIAL, v INT)")
    db.execute("CREATE TABLE b (n SERIAL, v INT)")
    db.execute("INSERT INTO b VALUES (500, 0)")
    db.execute("CREATE TRIGGER ta INSERT ON a REFERENCING NEW AS nw FOR EACH ROW "
               "(INSERT INTO b VALUES (0, nw.v))")
    db.execute("INSERT INTO a VALUES (0, 7)")
    assert _rows(db, "SELECT DBINFO('sqlca.sqlerrd1') FROM systables WHERE tabid = 1") == [(1,)]


# ---- SYSTEM, TRACE, GOTO ---------------------------------------------------------------------
def test_system_is_refused(db: ifxwire.Cursor) -> None:
    """sqs SYSTEM runs an operating-system command: the embedded server never does."""
    db.execute("CREATE PROCEDURE sh() SYSTEM 'echo hi'; END PROCEDURE;")
    assert _code(db, "EXECUTE PROCEDURE sh()")[0] == -668


def test_trace_statements_are_accepted(db: ifxwire.Cursor) -> None:
    """sqs TRACE (ids_sqs_1362): "If you use the TRACE statement before you specify a DEBUG
    file to contain the output, an error is generated" — -687, "Set debug file before
    tracing SPL routines." (the message catalogue); the routine itself is accepted. (This
    case had taken TRACE without SET DEBUG FILE for a no-op; round 8 corrected it.)"""
    db.execute("""
CREATE FUNCTION traced(k INT) RETURNING INT;
   TRACE ON;
   TRACE 'k is ' || k;
   TRACE OFF;
   RETURN k + 1;
END FUNCTION;""")
    with pytest.raises(ifxwire.Error) as info:
        db.execute("EXECUTE FUNCTION traced(1)")
        db.fetchall()
    assert info.value.sqlcode == -687  # type: ignore[attr-defined]


# ---- reading a variable with no value; SELECT INTO of several rows ----------------------------
def test_select_into_several_rows_is_284(db: ifxwire.Cursor) -> None:
    db.execute("CREATE TABLE t (k INT)")
    db.execute("INSERT INTO t VALUES (1)")
    db.execute("INSERT INTO t VALUES (2)")
    db.execute("CREATE FUNCTION one() RETURNING INT; DEFINE v INT; "
               "SELECT k INTO v FROM t; RETURN v; END FUNCTION;")
    assert _code(db, "EXECUTE FUNCTION one()")[0] == -284


def test_function_in_select_list_per_row(stores: ifxwire.Connection) -> None:
    """sqt "Create and use SPL routines": an SPL function called in a SELECT list."""
    cur = stores.cursor()
    cur.execute("""
CREATE FUNCTION with_tax(p MONEY(8,2)) RETURNING MONEY(8,2);
   RETURN p * 1.1;
END FUNCTION;""")
    rows = _rows(cur, "SELECT stock_num, manu_code, with_tax(unit_price) FROM stock "
                      "WHERE stock_num = 1 ORDER BY manu_code")
    assert rows == [(1, "HRO", D("275.00")), (1, "HSK", D("880.00")),
                    (1, "SMT", D("495.00"))]


# ---- triggers: sqs CREATE TRIGGER, sqt "Triggers" ---------------------------------------------
def test_delete_trigger_cascades_with_old_correlation(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER "REFERENCING OLD AS pre_del FOR EACH ROW (DELETE ...)"."""
    db.execute("CREATE TABLE customers (cid INT)")
    db.execute("CREATE TABLE orders (oid INT, cid INT)")
    db.execute("INSERT INTO customers VALUES (1)")
    db.execute("INSERT INTO customers VALUES (2)")
    for o, c in ((10, 1), (11, 1), (12, 2)):
        db.execute(f"INSERT INTO orders VALUES ({o}, {c})")
    db.execute("CREATE TRIGGER del_cust DELETE ON customers REFERENCING OLD AS pre_del "
               "FOR EACH ROW (DELETE FROM orders WHERE cid = pre_del.cid)")
    db.execute("DELETE FROM customers WHERE cid = 1")
    assert _rows(db, "SELECT oid FROM orders") == [(12,)]


def test_update_trigger_audit_log_old_and_new(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "UPDATE OF quantity ... REFERENCING OLD AS pre_upd NEW AS
    post_upd FOR EACH ROW (INSERT INTO log ...)"."""
    db.execute("CREATE TABLE products (pid INT, quantity INT, price INT)")
    db.execute("INSERT INTO products VALUES (1, 5, 9)")
    db.execute("CREATE TABLE log (pid INT, username CHAR(8), old_qty INT, new_qty INT)")
    db.execute("CREATE TRIGGER upd_prod UPDATE OF quantity ON products "
               "REFERENCING OLD AS pre_upd NEW AS post_upd FOR EACH ROW "
               "(INSERT INTO log VALUES (pre_upd.pid, USER, pre_upd.quantity, "
               "post_upd.quantity))")
    db.execute("UPDATE products SET price = 10")  # not OF quantity: no row
    db.execute("UPDATE products SET quantity = 8")
    assert _strip(_rows(db, "SELECT * FROM log")) == [(1, "informix", 5, 8)]


def test_trigger_when_condition(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "WHEN Condition": the action runs only for rows where true."""
    db.execute("CREATE TABLE t (k INT, v INT)")
    db.execute("CREATE TABLE big (k INT)")
    db.execute("CREATE TRIGGER tw INSERT ON t REFERENCING NEW AS n FOR EACH ROW "
               "WHEN (n.v > 10) (INSERT INTO big VALUES (n.k))")
    for k, v in ((1, 5), (2, 50), (3, 11)):
        db.execute(f"INSERT INTO t VALUES ({k}, {v})")
    assert _rows(db, "SELECT k FROM big ORDER BY k") == [(2,), (3,)]


def test_before_each_row_after_order(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "Action Clause": BEFORE once, FOR EACH ROW per row, AFTER once."""
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE TABLE trail (s SERIAL, what CHAR(6), k INT)")
    db.execute("INSERT INTO t VALUES (1)")
    db.execute("INSERT INTO t VALUES (2)")
    db.execute("CREATE TRIGGER tu UPDATE ON t REFERENCING NEW AS n "
               "BEFORE (INSERT INTO trail VALUES (0, 'before', NULL)) "
               "FOR EACH ROW (INSERT INTO trail VALUES (0, 'row', n.k)) "
               "AFTER (INSERT INTO trail VALUES (0, 'after', NULL))")
    db.execute("UPDATE t SET k = k + 10")
    assert _strip(_rows(db, "SELECT what, k FROM trail ORDER BY s")) == [
        ("before", None), ("row", 11), ("row", 12), ("after", None)]


def test_multiple_insert_triggers_all_fire(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER: "you can define multiple INSERT triggers on the same table"."""
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE TABLE c1 (k INT)")
    db.execute("CREATE TABLE c2 (k INT)")
    db.execute("CREATE TRIGGER t1 INSERT ON t REFERENCING NEW AS n FOR EACH ROW "
               "(INSERT INTO c1 VALUES (n.k))")
    db.execute("CREATE TRIGGER t2 INSERT ON t REFERENCING NEW AS n FOR EACH ROW "
               "(INSERT INTO c2 VALUES (n.k * 2))")
    db.execute("INSERT INTO t VALUES (4)")
    assert _rows(db, "SELECT (SELECT k FROM c1), (SELECT k FROM c2) FROM systables "
                     "WHERE tabid = 1") == [(4, 8)]


def test_instead_of_insert_on_view(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "INSTEAD OF Triggers on Views": the view's INSERT runs the
    trigger's actions on the base tables."""
    db.execute("CREATE TABLE dept (dno INT, dname CHAR(10))")
    db.execute("CREATE TABLE emp (eno INT, dno INT)")
    db.execute("CREATE VIEW v_emp (eno, dno, dname) AS SELECT e.eno, e.dno, d.dname "
               "FROM emp e, dept d WHERE e.dno = d.dno")
    db.execute("CREATE TRIGGER v_ins INSTEAD OF INSERT ON v_emp REFERENCING NEW AS n "
               "FOR EACH ROW (INSERT INTO dept VALUES (n.dno, n.dname), "
               "INSERT INTO emp VALUES (n.eno, n.dno))")
    db.execute("INSERT INTO v_emp VALUES (7, 3, 'sales')")
    assert _strip(_rows(db, "SELECT * FROM v_emp")) == [(7, 3, "sales")]


def test_trigger_routine_sets_new_values(db: ifxwire.Cursor) -> None:
    """sqs CREATE PROCEDURE, "REFERENCING ... FOR table" (trigger routines) called WITH
    TRIGGER REFERENCES; LET n.col changes the row written."""
    db.execute("CREATE TABLE t (k INT, v INT)")
    db.execute("""
CREATE PROCEDURE clamp() REFERENCING OLD AS o NEW AS n FOR t;
   IF n.v > 100 THEN
      LET n.v = 100;
   END IF
END PROCEDURE;""")
    db.execute("CREATE TRIGGER tc INSERT ON t FOR EACH ROW "
               "(EXECUTE PROCEDURE clamp() WITH TRIGGER REFERENCES)")
    db.execute("INSERT INTO t VALUES (1, 500)")
    db.execute("INSERT INTO t VALUES (2, 50)")
    assert _rows(db, "SELECT k, v FROM t ORDER BY k") == [(1, 100), (2, 50)]


def test_failing_trigger_undoes_the_statement(db: ifxwire.Cursor) -> None:
    """sqt Triggers: an error in a triggered action undoes the triggering statement."""
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE PROCEDURE no() RAISE EXCEPTION -746, 0, 'no'; END PROCEDURE;")
    db.execute("CREATE TRIGGER tn INSERT ON t REFERENCING NEW AS n FOR EACH ROW "
               "WHEN (n.k < 0) (EXECUTE PROCEDURE no())")
    db.execute("INSERT INTO t VALUES (1)")
    assert _code(db, "INSERT INTO t VALUES (-1)")[0] == -746
    assert _rows(db, "SELECT k FROM t") == [(1,)]


def test_systriggers_records_event(db: ifxwire.Cursor) -> None:
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE TABLE c (k INT)")
    db.execute("CREATE TRIGGER td DELETE ON t REFERENCING OLD AS o FOR EACH ROW "
               "(INSERT INTO c VALUES (o.k))")
    assert _strip(_rows(db, "SELECT trigname, event, old FROM systriggers")) == [
        ("td", "D", "o")]


def test_drop_trigger_stops_it(db: ifxwire.Cursor) -> None:
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE TABLE c (k INT)")
    db.execute("CREATE TRIGGER ti INSERT ON t REFERENCING NEW AS n FOR EACH ROW "
               "(INSERT INTO c VALUES (n.k))")
    db.execute("INSERT INTO t VALUES (1)")
    db.execute("DROP TRIGGER ti")
    db.execute("INSERT INTO t VALUES (2)")
    assert _rows(db, "SELECT k FROM c") == [(1,)]


# ---- more of the Tutorial, "Create and use SPL routines" ---------------------------------------
def test_explicit_block_redefines_variable(db: ifxwire.Cursor) -> None:
    """sqt "Implicit and explicit statement blocks": the inner BEGIN ... END defines its own
    distance = 2; the RETURN after the block returns the outer one, 37."""
    db.execute("""
CREATE FUNCTION block_demo() RETURNING INT;
   DEFINE distance INT;
   LET distance = 37;
   BEGIN
      DEFINE distance INT;
      LET distance = 2;
   END
   RETURN distance;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION block_demo()") == [(37,)]


def test_returning_a_single_decimal_value(db: ifxwire.Cursor) -> None:
    """sqt "Return a single value": increase_by_pct(amount, pct) RETURNING DECIMAL."""
    db.execute("""
CREATE FUNCTION increase_by_pct(amount DECIMAL, pct DECIMAL) RETURNING DECIMAL;
   DEFINE result DECIMAL;
   LET result = amount + amount * (pct / 100);
   RETURN result;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION increase_by_pct(200, 15)") == [(D(230),)]


def test_instead_of_update_manager_info(db: ifxwire.Cursor) -> None:
    """sqt ids_sqt_550 "INSTEAD OF trigger to update on a view": manager_info over dept and
    emp; the UPDATE of the view runs updtab() instead."""
    db.execute("CREATE TABLE dept (deptno INTEGER PRIMARY KEY, deptname CHAR(20), "
               "manager_num INT)")
    db.execute("CREATE TABLE emp (empno INTEGER PRIMARY KEY, empname CHAR(20), "
               "deptno INTEGER REFERENCES dept(deptno), startdate DATE)")
    db.execute("CREATE VIEW manager_info AS SELECT d.deptno, d.deptname, e.empno, e.empname "
               "FROM emp e, dept d WHERE e.empno = d.manager_num")
    db.execute("""
CREATE PROCEDURE updtab (eno INT, ename CHAR(20), dno INT)
   DEFINE deptcode INT;
   UPDATE dept SET manager_num = eno WHERE deptno = dno;
   SELECT deptno INTO deptcode FROM emp WHERE empno = eno;
   IF dno != deptcode THEN
      UPDATE emp SET deptno = dno WHERE empno = eno;
   END IF;
END PROCEDURE;""")
    db.execute("CREATE TRIGGER manager_info_update INSTEAD OF UPDATE ON manager_info "
               "REFERENCING NEW AS n FOR EACH ROW "
               "(EXECUTE PROCEDURE updtab (n.empno, n.empname, n.deptno))")
    db.execute("INSERT INTO dept VALUES (1, 'sales', NULL)")
    db.execute("INSERT INTO dept VALUES (2, 'labs', NULL)")
    db.execute("INSERT INTO emp VALUES (3000, 'Ann', 1, NULL)")
    db.execute("INSERT INTO emp VALUES (3666, 'Steve', 2, NULL)")
    db.execute("UPDATE dept SET manager_num = 3000 WHERE deptno = 1")
    db.execute("UPDATE manager_info SET empno = 3666, empname = 'Steve' WHERE deptno = 1")
    assert _rows(db, "SELECT deptno, manager_num FROM dept ORDER BY 1") == [(1, 3666), (2, None)]
    assert _rows(db, "SELECT empno, deptno FROM emp ORDER BY 1") == [(3000, 1), (3666, 1)]


def test_trigger_routine_operators_inserting_updating(db: ifxwire.Cursor) -> None:
    """sqt ids_sqt_538 "Trigger routines": the Boolean operators INSERTING, UPDATING,
    DELETING tell a trigger routine which event called it."""
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE TABLE audit (what CHAR(3), k INT)")
    db.execute("""
CREATE PROCEDURE which() REFERENCING OLD AS o NEW AS n FOR t;
   IF INSERTING THEN
      INSERT INTO audit VALUES ('ins', n.k);
   ELIF UPDATING THEN
      INSERT INTO audit VALUES ('upd', n.k);
   ELIF DELETING THEN
      INSERT INTO audit VALUES ('del', o.k);
   END IF
END PROCEDURE;""")
    for ev, ref in (("INSERT", "NEW AS n"), ("UPDATE", "OLD AS o NEW AS n"),
                    ("DELETE", "OLD AS o")):
        db.execute(f"CREATE TRIGGER tr_{ev.lower()} {ev} ON t REFERENCING {ref} FOR EACH ROW "
                   "(EXECUTE PROCEDURE which() WITH TRIGGER REFERENCES)")
    db.execute("INSERT INTO t VALUES (1)")
    db.execute("UPDATE t SET k = 2")
    db.execute("DELETE FROM t")
    assert _rows(db, "SELECT what, k FROM audit") == [("ins", 1), ("upd", 2), ("del", 2)]


def test_call_with_named_arguments(db: ifxwire.Cursor) -> None:
    """sqs CALL / Arguments: "parameter names for the arguments ... CALL p(t = ..., n = ...,
    d = ...)" in any order."""
    db.execute("""
CREATE FUNCTION named(t VARCHAR(10), n VARCHAR(10), d VARCHAR(10)) RETURNING VARCHAR(40);
   RETURN t || '-' || n || '-' || d;
END FUNCTION;""")
    db.execute("""
CREATE FUNCTION caller() RETURNING VARCHAR(40);
   DEFINE r VARCHAR(40);
   CALL named(d = 'c', t = 'a', n = 'b') RETURNING r;
   RETURN r;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION caller()") == [("a-b-c",)]
    # and from the client, positional arguments first (sqs EXECUTE FUNCTION, Arguments)
    assert _rows(db, "EXECUTE FUNCTION named('x', d = 'z', n = 'y')") == [("x-y-z",)]


def test_parameter_default_may_be_omitted(db: ifxwire.Cursor) -> None:
    """sqs "Routine Parameter List": a parameter with DEFAULT may be left out of the call."""
    db.execute("""
CREATE FUNCTION pad(s VARCHAR(10), n INT DEFAULT 3) RETURNING VARCHAR(20);
   RETURN RPAD(s, n, '*');
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION pad('a')") == [("a**",)]
    assert _rows(db, "EXECUTE FUNCTION pad('a', 5)") == [("a****",)]


def test_define_like_column(stores: ifxwire.Connection) -> None:
    """sqt "Declare variables for column data with the LIKE clause"."""
    cur = stores.cursor()
    cur.execute("""
CREATE FUNCTION max_price() RETURNING MONEY(8,2);
   DEFINE p LIKE stock.unit_price;
   SELECT MAX(unit_price) INTO p FROM stock;
   RETURN p;
END FUNCTION;""")
    cur.execute("SELECT MAX(unit_price) FROM stock")
    expect = cur.fetchone()[0]
    assert _rows(cur, "EXECUTE FUNCTION max_price()") == [(expect,)]


def test_while_loop_sums(db: ifxwire.Cursor) -> None:
    """sqt "Add WHILE and FOR loops"."""
    db.execute("""
CREATE FUNCTION tri(n INT) RETURNING INT;
   DEFINE i, s INT;
   LET i, s = 1, 0;
   WHILE i <= n
      LET s = s + i;
      LET i = i + 1;
   END WHILE
   RETURN s;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION tri(10)") == [(55,)]


def test_foreach_select_into_with_exit_foreach(stores: ifxwire.Connection) -> None:
    """sqt "The FOREACH loop to define cursors" and sqs EXIT FOREACH."""
    cur = stores.cursor()
    cur.execute("""
CREATE FUNCTION first_over(limit MONEY(8,2)) RETURNING SMALLINT, CHAR(3);
   DEFINE s SMALLINT;
   DEFINE m CHAR(3);
   DEFINE p MONEY(8,2);
   FOREACH SELECT stock_num, manu_code, unit_price INTO s, m, p FROM stock
           ORDER BY stock_num, manu_code
      IF p > limit THEN
         EXIT FOREACH;
      END IF
   END FOREACH;
   RETURN s, m;
END FUNCTION;""")
    cur.execute("SELECT FIRST 1 stock_num, manu_code FROM stock WHERE unit_price > 500 "
                "ORDER BY stock_num, manu_code")
    expect = tuple(cur.fetchone())
    assert _rows(cur, "EXECUTE FUNCTION first_over(500)") == [expect]


def test_goto_jump_back(db: ifxwire.Cursor) -> None:
    """sqs GOTO (ids_sqs_1340), the jump_back function: GOTO back from inside a FOR loop
    re-runs the labelled LET and the loop after it. The page's fragment leaves the start
    values out ("..."); ours start j at 95 and jump once (n), so: i = 1, 6 make j 101, at
    i = 11 j > 100 jumps back, j = 101 + 11 = 112, the loop starts again (115, 118) and
    returns 118 for i = 11, 16, ..., 51."""
    db.execute("""
CREATE FUNCTION jump_back() RETURNING INT;
   DEFINE i, j, n INT;
   LET i, j, n = 0, 95, 0;
   <<back>>
   LET j = j + i;
   FOR i IN (1 TO 52 STEP 5)
      IF i < 11 THEN
         LET j = j + 3;
         CONTINUE FOR;
      END IF;
      IF j > 100 AND n = 0 THEN
         LET n = 1;
         GOTO back;
      END IF;
      RETURN j WITH RESUME;
   END FOR;
END FUNCTION;""")
    assert [r[0] for r in _rows(db, "EXECUTE FUNCTION jump_back()")] == [118] * 9


def test_goto_forward_skips_statements(db: ifxwire.Cursor) -> None:
    """sqs <<Label>> (ids_sqs_1302): a statement label before any executable statement."""
    db.execute("""
CREATE FUNCTION skip_ahead(k INT) RETURNING INT;
   DEFINE r INT;
   LET r = 0;
   IF k > 0 THEN
      GOTO done;
   END IF
   LET r = r + 100;
   <<done>>
   LET r = r + 1;
   RETURN r;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION skip_ahead(1)") == [(1,)]
    assert _rows(db, "EXECUTE FUNCTION skip_ahead(0)") == [(101,)]


def test_goto_into_a_nested_block_is_refused(db: ifxwire.Cursor) -> None:
    """sqs GOTO: the label "must be within a scope that the GOTO statement can reach"; a
    label inside an IF branch is out of reach (refused at CREATE, -999 here)."""
    assert _code(db, """
CREATE PROCEDURE into_if(k INT)
   GOTO inside;
   IF k > 0 THEN
      <<inside>>
      LET k = 0;
   END IF
END PROCEDURE;""")[0] == -999


def test_goto_in_on_exception_block_is_syntax_error(db: ifxwire.Cursor) -> None:
    """sqs Statement Block: "GOTO and << Label >> are not valid in ON EXCEPTION statement
    blocks"."""
    assert _code(db, """
CREATE PROCEDURE bad_handler()
   DEFINE k INT;
   ON EXCEPTION
      GOTO out;
   END EXCEPTION
   <<out>>
   LET k = 1;
END PROCEDURE;""")[0] == -201


def test_create_database_inside_routine_is_675(db: ifxwire.Cursor) -> None:
    """sqs "Statement Block": CREATE DATABASE and DATABASE are not valid in SPL (refused
    here when the routine runs). -675 "Illegal SQL statement in SPL routine." (the
    catalogue; ids_sqs_1755 names it too); -744 until the twenty-first round."""
    db.execute("CREATE PROCEDURE mkdb() CREATE DATABASE x; END PROCEDURE;")
    assert _code(db, "EXECUTE PROCEDURE mkdb()")[0] == -675


# ---- round 5b: cursor functions, nesting, more trigger forms -----------------------------------
def test_foreach_select_cursor_function_in_select_list(db: ifxwire.Cursor) -> None:
    """sqt "Execute cursor functions from an SPL routine": FOREACH SELECT cur_func1(col)
    INTO spl_var FROM tab1 ... INSERT INTO tab2."""
    db.execute(SERIES)
    db.execute("CREATE TABLE tab1 (col_name INT)")
    db.execute("CREATE TABLE tab2 (v INT)")
    db.execute("INSERT INTO tab1 VALUES (2)")
    db.execute("""
CREATE PROCEDURE fill()
   DEFINE spl_var INT;
   FOREACH EXECUTE FUNCTION series(2, 1) INTO spl_var
      INSERT INTO tab2 VALUES (spl_var);
   END FOREACH
END PROCEDURE;""")
    db.execute("EXECUTE PROCEDURE fill()")
    assert _rows(db, "SELECT v FROM tab2") == [(1,), (2,), (2,), (1,)]


def test_handler_in_caller_catches_callee_exception(db: ifxwire.Cursor) -> None:
    """sqs ON EXCEPTION: an exception a called routine raises and does not handle reaches
    the handler of its caller; SET names the SQL code, ISAM code and text variables in
    that order."""
    db.execute("CREATE PROCEDURE inner_p() RAISE EXCEPTION -746, 0, 'inner'; END PROCEDURE;")
    db.execute("""
CREATE FUNCTION outer_f() RETURNING INT, VARCHAR(20);
   DEFINE e, i INT;
   DEFINE t VARCHAR(20);
   ON EXCEPTION IN (-746, -206) SET e, i, t
      RETURN e, t;
   END EXCEPTION
   CALL inner_p();
   RETURN 0, 'none';
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION outer_f()") == [(-746, "inner")]


def test_exception_not_in_list_is_not_caught(db: ifxwire.Cursor) -> None:
    """sqs ON EXCEPTION IN (list): other errors pass through to the client."""
    db.execute("""
CREATE FUNCTION only_206() RETURNING INT;
   ON EXCEPTION IN (-206)
      RETURN 1;
   END EXCEPTION
   RAISE EXCEPTION -208, 0;
   RETURN 0;
END FUNCTION;""")
    assert _code(db, "EXECUTE FUNCTION only_206()")[0] == -208


def test_dbinfo_sqlerrd2_after_delete_in_spl(stores: ifxwire.Connection) -> None:
    """sqs DBINFO 'sqlca.sqlerrd2': the number of rows the last DELETE/UPDATE/INSERT of the
    routine processed."""
    cur = stores.cursor()
    cur.execute("""
CREATE FUNCTION del_count(m CHAR(18)) RETURNING INT;
   DELETE FROM cust_calls WHERE user_id = m;
   RETURN DBINFO('sqlca.sqlerrd2');
END FUNCTION;""")
    cur.execute("SELECT COUNT(*) FROM cust_calls WHERE user_id = 'maryj'")
    n = cur.fetchone()[0]
    assert n > 0
    assert _rows(cur, "EXECUTE FUNCTION del_count('maryj')") == [(n,)]


def test_trigger_execute_function_into_columns(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "EXECUTE FUNCTION ... INTO column": a FOR EACH ROW action sets
    columns of the triggering row from a function's values."""
    db.execute("CREATE TABLE items (k INT, price DECIMAL(8,2), tax DECIMAL(8,2))")
    db.execute("CREATE FUNCTION tax_of(p DECIMAL(8,2)) RETURNING DECIMAL(8,2); "
               "RETURN p * 0.2; END FUNCTION;")
    db.execute("CREATE TRIGGER ti INSERT ON items REFERENCING NEW AS n FOR EACH ROW "
               "(EXECUTE FUNCTION tax_of(n.price) INTO tax)")
    db.execute("INSERT INTO items (k, price) VALUES (1, 50)")
    assert _rows(db, "SELECT k, price, tax FROM items") == [(1, D("50.00"), D("10.00"))]


def test_for_each_row_on_triggering_table_is_747(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "Rules for triggered actions": a FOR EACH ROW action that
    updates the triggering table is refused (-747)."""
    db.execute("CREATE TABLE t (k INT, v INT)")
    assert _code(db, "CREATE TRIGGER bad UPDATE OF v ON t REFERENCING NEW AS n "
                     "FOR EACH ROW (UPDATE t SET v = 0)")[0] == -747


def test_select_trigger_for_each_row(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "SELECT Event": a query of the table's listed columns activates
    it; the FOR EACH ROW action runs once per row fetched."""
    db.execute("CREATE TABLE secret (k INT, v INT)")
    db.execute("CREATE TABLE reads (k INT)")
    db.execute("INSERT INTO secret VALUES (1, 10)")
    db.execute("INSERT INTO secret VALUES (2, 20)")
    db.execute("CREATE TRIGGER sel SELECT OF v ON secret REFERENCING OLD AS o "
               "FOR EACH ROW (INSERT INTO reads VALUES (o.k))")
    assert _rows(db, "SELECT k FROM secret ORDER BY k") == [(1,), (2,)]  # not OF v
    assert _rows(db, "SELECT COUNT(*) FROM reads") == [(0,)]
    assert _rows(db, "SELECT v FROM secret ORDER BY v") == [(10,), (20,)]
    assert _rows(db, "SELECT k FROM reads ORDER BY k") == [(1,), (2,)]


def test_delete_trigger_calls_procedure_with_old_values(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER: "REFERENCING OLD AS pre ... FOR EACH ROW (EXECUTE PROCEDURE
    p(pre.col))"."""
    db.execute("CREATE TABLE accts (n INT, bal INT)")
    db.execute("CREATE TABLE closed (n INT, bal INT)")
    db.execute("CREATE PROCEDURE keep(a INT, b INT) INSERT INTO closed VALUES (a, b); "
               "END PROCEDURE;")
    db.execute("CREATE TRIGGER tdel DELETE ON accts REFERENCING OLD AS pre FOR EACH ROW "
               "(EXECUTE PROCEDURE keep(pre.n, pre.bal))")
    db.execute("INSERT INTO accts VALUES (1, 5)")
    db.execute("INSERT INTO accts VALUES (2, 7)")
    db.execute("DELETE FROM accts WHERE n = 2")
    assert _rows(db, "SELECT * FROM closed") == [(2, 7)]


def test_function_without_return_value_gives_nothing_or_nulls(db: ifxwire.Cursor) -> None:
    """sqt "Return values from an SPL function": a function that ends without RETURN
    returns no row to EXECUTE FUNCTION in a FOREACH (it is a cursor function with no rows)."""
    db.execute("CREATE FUNCTION empty_f() RETURNING INT; DEFINE i INT; LET i = 1; "
               "END FUNCTION;")
    db.execute("""
CREATE FUNCTION count_rows() RETURNING INT;
   DEFINE v, n INT;
   LET n = 0;
   FOREACH EXECUTE FUNCTION empty_f() INTO v
      LET n = n + 1;
   END FOREACH
   RETURN n;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION count_rows()") == [(0,)]


# ---- SQLCODE (SPL): sqs "SQLCODE Function (SPL)", ids_sqs_1483 ---------------------------------
def test_sqlcode_after_select_into_and_foreach(db: ifxwire.Cursor) -> None:
    """ids_sqs_1483: SQLCODE is sqlca.sqlcode of the routine's last SQL statement: 100 when
    a query found no row or a cursor reached the end of its active set, else 0."""
    db.execute("CREATE TABLE t1 (c1 INT)")
    db.execute("INSERT INTO t1 VALUES (1)")
    db.execute("""
CREATE FUNCTION codes() RETURNING INT, INT, INT, INT;
   DEFINE myc1, a, b, c INT;
   LET a = SQLCODE;
   SELECT c1 INTO myc1 FROM t1 WHERE c1 = 2;
   LET b = SQLCODE;
   SELECT c1 INTO myc1 FROM t1 WHERE c1 = 1;
   LET c = SQLCODE;
   FOREACH SELECT c1 INTO myc1 FROM t1
   END FOREACH;
   RETURN a, b, c, SQLCODE;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION codes()") == [(0, 100, 0, 100)]


def test_sqlcode_drives_a_while_loop(db: ifxwire.Cursor) -> None:
    """ids_sqs_1483's pattern, WHILE (SQLCODE != 100), over SELECT ... INTO of the next key
    (the page's dynamic cursor, PREPARE/DECLARE/FETCH in SPL, is not supported here)."""
    db.execute("CREATE TABLE t1 (c1 INT)")
    for k in (3, 5, 9):
        db.execute(f"INSERT INTO t1 VALUES ({k})")
    db.execute("""
CREATE FUNCTION walk() RETURNING INT;
   DEFINE myc1, total INT;
   LET myc1, total = 0, 0;
   SELECT MIN(c1) INTO myc1 FROM t1 WHERE c1 > myc1 HAVING MIN(c1) IS NOT NULL;
   WHILE (SQLCODE != 100)
      LET total = total + myc1;
      SELECT MIN(c1) INTO myc1 FROM t1 WHERE c1 > myc1 HAVING MIN(c1) IS NOT NULL;
   END WHILE;
   RETURN total;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION walk()") == [(17,)]


def test_sqlcode_is_no_variable_outside_spl(db: ifxwire.Cursor) -> None:
    """ids_sqs_1483: "The database server issues an error if the calling context of the
    built-in SQLCODE function is not an SPL routine"."""
    with pytest.raises(ifxwire.Error):
        db.execute("SELECT SQLCODE FROM systables WHERE tabid = 1")


def test_sqlcode_100_for_delete_of_no_row_in_ansi_database(connect_kwargs: dict[str, Any]
                                                            ) -> None:
    """ESQL/C "NOT FOUND in SQLCODE" (ids_esqlc_0414), Database Design ids_ddi_158: in an
    ANSI-compliant database a DELETE or UPDATE that changes no row is NOT FOUND (100);
    elsewhere it is 0."""
    with ifxwire.connect(**connect_kwargs, autocommit=True) as conn:
        conn.cursor().execute("CREATE DATABASE spl5_ansi WITH LOG MODE ANSI")
    with ifxwire.connect(**connect_kwargs, database="spl5_ansi") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE t1 (c1 INT)")
        cur.execute("""
CREATE FUNCTION del_none() RETURNING INT;
   DELETE FROM t1 WHERE c1 = 1;
   RETURN SQLCODE;
END FUNCTION;""")
        assert _rows(cur, "EXECUTE FUNCTION del_none()") == [(100,)]
        conn.rollback()


def test_sqlcode_0_for_delete_of_no_row_elsewhere(db: ifxwire.Cursor) -> None:
    """ids_ddi_158: "0 if the database is not ANSI-compliant"."""
    db.execute("CREATE TABLE t1 (c1 INT)")
    db.execute("CREATE FUNCTION del_none() RETURNING INT, INT; DEFINE a INT; "
               "UPDATE t1 SET c1 = 2 WHERE c1 = 1; LET a = SQLCODE; "
               "DELETE FROM t1; RETURN a, SQLCODE; END FUNCTION;")
    assert _rows(db, "EXECUTE FUNCTION del_none()") == [(0, 0)]


# ---- round 5c: return names, DOCUMENT, disabled and cascading triggers -------------------------
def test_returning_as_names_the_columns(db: ifxwire.Cursor) -> None:
    """sqt "Adding a return clause": RETURNING INTEGER AS comp_res names the value the
    caller sees."""
    db.execute("""
CREATE FUNCTION val_comp (val1 INTEGER, val2 INTEGER) RETURNING INTEGER AS comp_res;
   IF val1 > val2 THEN RETURN 1; ELIF val1 < val2 THEN RETURN -1; END IF
   RETURN 0;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION val_comp(3, 5)") == [(-1,)]
    assert db.description is not None and db.description[0][0] == "comp_res"


def test_document_clause_kept_in_sysprocbody(db: ifxwire.Cursor) -> None:
    """sqt "Specifying a DOCUMENT clause": the text goes to sysprocbody with datakey 'D'."""
    db.execute("CREATE PROCEDURE documented() END PROCEDURE "
               "DOCUMENT 'Does nothing' WITH LISTING IN '/tmp/none'")
    rows = _rows(db, "SELECT b.data FROM sysprocbody b, sysprocedures p "
                     "WHERE b.procid = p.procid AND p.procname = 'documented' "
                     "AND b.datakey = 'D' ORDER BY b.seqno")
    assert [r[0].rstrip() for r in rows] == ["Does nothing"]


def test_unknown_routine_is_674(db: ifxwire.Cursor) -> None:
    assert _code(db, "EXECUTE PROCEDURE no_such_proc()")[0] == -674


def test_disabled_trigger_does_not_fire(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "Trigger Modes": a trigger created DISABLED does not fire."""
    db.execute("CREATE TABLE t (k INT)")
    db.execute("CREATE TABLE c (k INT)")
    db.execute("CREATE TRIGGER td INSERT ON t REFERENCING NEW AS n FOR EACH ROW "
               "(INSERT INTO c VALUES (n.k)) DISABLED")
    db.execute("INSERT INTO t VALUES (1)")
    assert _rows(db, "SELECT COUNT(*) FROM c") == [(0,)]


def test_cascading_triggers_fire(db: ifxwire.Cursor) -> None:
    """sqt Triggers, "cascading triggers": a triggered action's INSERT fires the triggers of
    the table it inserts into."""
    db.execute("CREATE TABLE a (k INT)")
    db.execute("CREATE TABLE b (k INT)")
    db.execute("CREATE TABLE c (k INT)")
    db.execute("CREATE TRIGGER ta INSERT ON a REFERENCING NEW AS n FOR EACH ROW "
               "(INSERT INTO b VALUES (n.k + 1))")
    db.execute("CREATE TRIGGER tb INSERT ON b REFERENCING NEW AS n FOR EACH ROW "
               "(INSERT INTO c VALUES (n.k * 10))")
    db.execute("INSERT INTO a VALUES (1)")
    assert _rows(db, "SELECT k FROM c") == [(20,)]


def test_update_trigger_when_old_differs_from_new(db: ifxwire.Cursor) -> None:
    """sqs CREATE TRIGGER, "WHEN Condition" with both correlation names."""
    db.execute("CREATE TABLE price (item INT, amount INT)")
    db.execute("CREATE TABLE raised (item INT, before_ INT, after_ INT)")
    db.execute("INSERT INTO price VALUES (1, 10)")
    db.execute("INSERT INTO price VALUES (2, 20)")
    db.execute("CREATE TRIGGER up UPDATE OF amount ON price "
               "REFERENCING OLD AS o NEW AS n FOR EACH ROW WHEN (n.amount > o.amount) "
               "(INSERT INTO raised VALUES (n.item, o.amount, n.amount))")
    db.execute("UPDATE price SET amount = 15")
    assert _rows(db, "SELECT * FROM raised") == [(1, 10, 15)]


def test_let_several_targets_from_function(db: ifxwire.Cursor) -> None:
    """sqs LET: "LET a, b = func(...)" takes a function's several values."""
    db.execute("CREATE FUNCTION two() RETURNING INT, CHAR(3); RETURN 7, 'abc'; "
               "END FUNCTION;")
    db.execute("""
CREATE FUNCTION use_two() RETURNING INT, CHAR(3);
   DEFINE a INT;
   DEFINE b CHAR(3);
   LET a, b = two();
   RETURN a + 1, b;
END FUNCTION;""")
    assert _rows(db, "EXECUTE FUNCTION use_two()") == [(8, "abc")]


def test_up_price_trigger_on_stock(stores: ifxwire.Connection) -> None:
    """sqs CREATE TRIGGER, "Action Clause" / "WHEN Condition": up_price on stock logs an
    update of unit_price that more than doubles it into warn_tab (rolled back)."""
    cur = stores.cursor()
    cur.execute("CREATE TABLE warn_tab (stock_num SMALLINT, manu_code CHAR(3), "
                "old_price MONEY(6,2), new_price MONEY(6,2), at DATETIME YEAR TO SECOND)")
    cur.execute("CREATE TRIGGER up_price UPDATE OF unit_price ON stock "
                "REFERENCING OLD AS pre NEW AS post "
                "FOR EACH ROW WHEN (post.unit_price > pre.unit_price * 2) "
                "(INSERT INTO warn_tab VALUES (pre.stock_num, pre.manu_code, "
                "pre.unit_price, post.unit_price, CURRENT YEAR TO SECOND))")
    before = _rows(cur, "SELECT manu_code, unit_price FROM stock WHERE stock_num = 1 "
                        "ORDER BY manu_code")
    cur.execute("UPDATE stock SET unit_price = unit_price * 3 WHERE stock_num = 1")
    cur.execute("UPDATE stock SET unit_price = unit_price + 1 WHERE stock_num = 2")
    got = _rows(cur, "SELECT manu_code, old_price, new_price FROM warn_tab ORDER BY 1")
    assert got == [(m, p, p * 3) for m, p in before]
    assert _rows(cur, "SELECT COUNT(*) FROM warn_tab WHERE at IS NULL") == [(0,)]


def test_cursor_function_in_foreach_select_list_is_not_supported(db: ifxwire.Cursor) -> None:
    """sqt "Execute cursor functions from an SPL routine" shows FOREACH SELECT cur_func1(col)
    INTO spl_var FROM tab1; its rows are not expanded here, so it is -999 (not -686)."""
    db.execute(SERIES)
    db.execute("CREATE TABLE tab1 (col_name INT)")
    db.execute("INSERT INTO tab1 VALUES (2)")
    db.execute("""
CREATE PROCEDURE via_select()
   DEFINE spl_var INT;
   FOREACH SELECT series(col_name, 0) INTO spl_var FROM tab1
   END FOREACH
END PROCEDURE;""")
    assert _code(db, "EXECUTE PROCEDURE via_select()")[0] == -999
