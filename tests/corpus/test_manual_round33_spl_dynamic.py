"""Dynamic SQL in SPL routines: PREPARE, DECLARE, OPEN … USING, FETCH … INTO, CLOSE and FREE,
thirty-third session (issue 23; a PREPARE in a routine was -201 at CREATE), through the real
driver and the embedded server over sockets. The statements are ours, modelled on the pages'
examples, except ``test_the_pages_order_city_example``, which runs the routine of ids_sqs_1881
as the page prints it and compares with the page's printed output.

Pages: Guide to SQL: Syntax, "Example of a PREPARE statement in an SPL routine" (ids_sqs_1881:
the order_city routine and its dbaccess output), PREPARE (ids_sqs_0927: in SPL one SELECT,
EXECUTE FUNCTION or EXECUTE PROCEDURE, from a character expression), "Declaring a Dynamic
Cursor in an SPL Routine" (ids_sqs_0117: a cursor for a statement PREPAREd in the same
routine; names unique among its cursors, statements and variables), "Cursor Characteristics"
(ids_sqs_0119: "In SPL routines, all cursors are sequential cursors, but only Select cursors
can be hold cursors"), "Checking the Result of FETCH" (ids_sqs_0790: no row leaves the current
row unchanged) and "SQLCODE Function (SPL)" (ids_sqs_1483: 100 at the end of the active set).

Codes: the message catalogue's texts for -26051 … -26059 name each case (sqlcodes.py);
-26064 for a statement of another kind is our judgement [guess].
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "spldyn33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE cities (id INT, city_name CHAR(50))")
        for num, name in ((1, "Chicago"), (2, "New York"), (3, "San Francisco"),
                          (4, "Atlanta")):
            c.execute("INSERT INTO cities VALUES (?, ?)", (num, name))
        yield c


# The routine as ids_sqs_1881 prints it (its comment, double-quoted text with its own ';',
# a bare EXIT and an END IF without ';' included).
ORDER_CITY = """CREATE PROCEDURE order_city() -- defines a UDR
RETURNING INT, CHAR(50);
DEFINE c_num INT;
DEFINE c_name CHAR(50);
DEFINE c_query VARCHAR(250);
LET c_query =
 "SELECT id, city_name FROM cities ORDER BY city_name;";

PREPARE c_stmt FROM c_query;
DECLARE c_cur CURSOR FOR c_stmt;

OPEN c_cur ;
while (1 = 1)
  FETCH c_cur INTO c_num, c_name;
  IF (SQLCODE != 100) THEN
    RETURN c_num, c_name WITH RESUME;
  ELSE
    EXIT;
  END IF
END WHILE

CLOSE c_cur;
FREE c_cur;
FREE c_stmt;

END PROCEDURE;
"""


def test_the_pages_order_city_example(cur: ifxwire.Cursor) -> None:
    cur.execute("UPDATE STATISTICS HIGH")
    cur.execute(ORDER_CITY)
    assert rows(cur, "EXECUTE PROCEDURE order_city()", strip=True) == [
        (4, "Atlanta"), (1, "Chicago"), (2, "New York"), (3, "San Francisco")]
    # a second call has a namespace of its own: the names are free again
    assert len(rows(cur, "EXECUTE PROCEDURE order_city()")) == 4


def test_open_using_gives_the_placeholders_the_variables_values(cur: ifxwire.Cursor) -> None:
    cur.execute("""CREATE FUNCTION names_between(lo INT, hi INT) RETURNING VARCHAR(200);
        DEFINE n CHAR(50); DEFINE out VARCHAR(200); DEFINE a, b INT;
        LET out = '';
        PREPARE s FROM 'SELECT city_name FROM cities WHERE id BETWEEN ? AND ? ORDER BY id';
        DECLARE c CURSOR FOR s;
        LET a = lo; LET b = hi;
        OPEN c USING a, b;
        LET a = 0;  -- OPEN took the values: the active set stays
        FETCH c INTO n;
        WHILE SQLCODE = 0
            LET out = out || TRIM(n) || ';';
            FETCH c INTO n;
        END WHILE
        CLOSE c;
        OPEN c USING b, b;  -- open again, other values: another active set
        FETCH c INTO n;
        LET out = out || '|' || TRIM(n);
        RETURN out;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION names_between(2, 3)") == [
        ("New York;San Francisco;|San Francisco",)]
    assert rows(cur, "EXECUTE FUNCTION names_between(4, 1)") == [("|Chicago",)]


def test_fetch_past_the_end_keeps_the_variables(cur: ifxwire.Cursor) -> None:
    cur.execute("""CREATE FUNCTION last_id() RETURNING INT, INT, INT;
        DEFINE v, first_code, end_code INT;
        PREPARE s FROM 'SELECT id FROM cities WHERE id > 3';
        DECLARE c CURSOR FOR s;
        OPEN c;
        FETCH c INTO v; LET first_code = SQLCODE;
        FETCH c INTO v; LET end_code = SQLCODE;
        FETCH c INTO v;
        RETURN v, first_code, end_code;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION last_id()") == [(4, 0, 100)]


def test_a_function_cursor(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE FUNCTION upto(n INT) RETURNING INT; DEFINE i INT; "
                "FOR i = 1 TO n RETURN i WITH RESUME; END FOR; END FUNCTION")
    cur.execute("""CREATE FUNCTION summed(k INT) RETURNING INT;
        DEFINE v, total INT;
        LET total = 0;
        PREPARE s FROM 'EXECUTE FUNCTION upto(?)';
        DECLARE c CURSOR FOR s;
        OPEN c USING k;
        LOOP
            FETCH c INTO v;
            IF SQLCODE = 100 THEN EXIT LOOP; END IF
            LET total = total + v;
        END LOOP
        CLOSE c; FREE c; FREE s;
        RETURN total;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION summed(4)") == [(10,)]


def test_statement_text_built_at_run_time(cur: ifxwire.Cursor) -> None:
    cur.execute("""CREATE FUNCTION count_of(tab VARCHAR(40)) RETURNING INT;
        DEFINE n INT;
        PREPARE s FROM 'SELECT COUNT(*) FROM ' || tab;
        DECLARE c CURSOR FOR s;
        OPEN c; FETCH c INTO n; CLOSE c; FREE c; FREE s;
        RETURN n;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION count_of('cities')") == [(4,)]
    assert rows(cur, "EXECUTE FUNCTION count_of('systables WHERE tabid = 1')") == [(1,)]
    # the table is looked up at PREPARE, as a client's PREPARE does
    assert sqlcode(cur, "EXECUTE FUNCTION count_of('nowhere')") == -206


def test_a_hold_cursor_outlives_the_transaction_a_plain_one_does_not(
        cur: ifxwire.Cursor) -> None:
    for name, hold in (("held", "WITH HOLD "), ("plain", "")):
        cur.execute(f"""CREATE FUNCTION {name}() RETURNING INT;
            DEFINE v INT;
            PREPARE s FROM 'SELECT id FROM cities ORDER BY id';
            DECLARE c CURSOR {hold}FOR s;
            OPEN c;
            BEGIN WORK; COMMIT WORK;
            FETCH c INTO v;
            RETURN v;
            END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION held()") == [(1,)]
    assert sqlcode(cur, "EXECUTE FUNCTION plain()") == -26053


def _refused(cur: ifxwire.Cursor, body: str) -> int:
    cur.execute("DROP FUNCTION IF EXISTS probe")
    cur.execute(f"CREATE FUNCTION probe() RETURNING INT; DEFINE v INT; {body} "
                "RETURN 1; END FUNCTION")
    return sqlcode(cur, "EXECUTE FUNCTION probe()")


@pytest.mark.parametrize(("body", "code"), [
    ("PREPARE s FROM NULL;", -26051),
    ("EXECUTE IMMEDIATE NULL;", -26051),
    ("PREPARE s FROM 'SELECT id FROM cities'; DECLARE c CURSOR FOR s; OPEN c; OPEN c;",
     -26052),
    ("PREPARE s FROM 'SELECT id FROM cities'; DECLARE c CURSOR FOR s; FETCH c INTO v;",
     -26053),
    ("PREPARE s FROM 'SELECT id FROM cities'; DECLARE c CURSOR FOR s; CLOSE c;", -26053),
    ("PREPARE s FROM 'SELECT id FROM cities'; DECLARE c CURSOR FOR s; OPEN c; FREE c;",
     -26054),
    ("DECLARE c CURSOR FOR nothing;", -26055),
    ("OPEN nothing;", -26055),
    ("FREE nothing;", -26055),
    ("PREPARE s FROM 'EXECUTE FUNCTION dbinfo(''dbname'')'; "
     "DECLARE c CURSOR WITH HOLD FOR s;", -674),
    ("PREPARE s FROM 'SELECT id FROM cities'; PREPARE s FROM 'SELECT 2 FROM cities';",
     -26057),
    ("PREPARE v FROM 'SELECT id FROM cities';", -26057),  # the name of a variable
    ("PREPARE s FROM 'SELECT id FROM cities'; DECLARE s CURSOR FOR s;", -26057),
    ("PREPARE s FROM 'SELECT 1 FROM cities; SELECT 2 FROM cities';", -26058),
    ("EXECUTE IMMEDIATE 'DELETE FROM cities WHERE id = 8; DELETE FROM cities';", -26058),
    ("PREPARE s FROM 42;", -26059),
    ("PREPARE s FROM 'DELETE FROM cities';", -26064),
    ("PREPARE s FROM 'SELECT id FROM cities INTO TEMP t2';", -26064),
    ("PREPARE s FROM 'SELECT id FROM cities FOR UPDATE';", -26064),
    ("PREPARE s FROM 'SELECT id INTO v FROM cities';", -26064),
    ("PREPARE s FROM 'SELECT id FROM cities'; DECLARE c CURSOR FOR s; OPEN c; "
     "FETCH PRIOR c INTO v;", -482),
    ("PREPARE s FROM 'SELECT id FROM cities WHERE id = ?'; DECLARE c CURSOR FOR s; OPEN c;",
     -254),
    ("PREPARE s FROM 'SELECT id, id FROM cities'; DECLARE c CURSOR FOR s; OPEN c; "
     "FETCH c INTO v;", -254),
])
def test_refusals(cur: ifxwire.Cursor, body: str, code: int) -> None:
    assert _refused(cur, body) == code
    # nothing ran: the table is as it was, the session usable
    assert rows(cur, "SELECT COUNT(*) FROM cities") == [(4,)]


def test_a_function_cursor_with_hold(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE FUNCTION one() RETURNING INT; RETURN 1; END FUNCTION")
    assert _refused(cur, "PREPARE s FROM 'EXECUTE FUNCTION one()'; "
                         "DECLARE c CURSOR WITH HOLD FOR s;") == -26056


def test_scroll_is_a_syntax_error(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "CREATE FUNCTION f() RETURNING INT; DEFINE v INT; "
                        "PREPARE s FROM 'SELECT id FROM cities'; "
                        "DECLARE c SCROLL CURSOR FOR s; RETURN 1; END FUNCTION",
                   fetch=False) == -201
    # an INTO variable that is not defined is the CREATE's error, as for FOREACH
    assert sqlcode(cur, "CREATE FUNCTION f() RETURNING INT; "
                        "PREPARE s FROM 'SELECT id FROM cities'; DECLARE c CURSOR FOR s; "
                        "OPEN c; FETCH c INTO nowhere; RETURN 1; END FUNCTION",
                   fetch=False) == -217


def test_an_open_cursor_closes_with_its_routine(cur: ifxwire.Cursor) -> None:
    cur.execute("""CREATE FUNCTION leave_open() RETURNING INT;
        DEFINE v INT;
        PREPARE s FROM 'SELECT id FROM cities ORDER BY id';
        DECLARE c CURSOR FOR s;
        OPEN c; FETCH c INTO v;
        RETURN v;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION leave_open()") == [(1,)]
    cur.execute("DROP TABLE cities")  # no statement of the routine holds the table
    assert sqlcode(cur, "EXECUTE FUNCTION leave_open()") == -206


def test_dynamic_statements_inside_a_foreach(cur: ifxwire.Cursor) -> None:
    """A FOREACH query has no ';' of its own: the first dynamic statement of its body ends
    it, as any SPL statement does, while columns named OPEN or CLOSE stay columns."""
    cur.execute("CREATE TABLE quotes (open INT, close INT)")
    cur.execute("INSERT INTO quotes VALUES (1, 2)")
    cur.execute("""CREATE FUNCTION inside() RETURNING INT;
        DEFINE o, c, n INT;
        LET n = 0;
        FOREACH SELECT open, close INTO o, c FROM quotes
          PREPARE s FROM 'SELECT COUNT(*) FROM cities';
          DECLARE cc CURSOR FOR s;
          OPEN cc;
          FETCH cc INTO n;
          CLOSE cc;
          FREE cc;
          FREE s;
        END FOREACH;
        RETURN n + o + c;
        END FUNCTION""")
    assert rows(cur, "EXECUTE FUNCTION inside()") == [(7,)]
