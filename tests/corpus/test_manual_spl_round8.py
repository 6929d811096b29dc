"""SPL of IBM's published material, eighth round (issue 23): FOR loops, variable scope and
the errors Informix has for misused SPL, run through the driver against the embedded server.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN``, at
https://help.hcl-software.com/hclinformix/1410/sqs/) or Guide to SQL: Tutorial
(``ids_sqt_NNN``). The error codes are the ones the Informix message catalogue gives for each
misuse (IBM's JDBC jar, ``com/informix/msg/sql_en_US.properties``); the rule each breaks is
stated on the page named. The routine texts are ours, written after the pages. Every case
works in its own logged database.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode

_rows = rows
_code = sqlcode


@pytest.fixture()
def db(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    """A fresh logged database, autocommit, one per case."""
    with fresh_database(connect_kwargs, "spl8") as conn:
        yield conn.cursor()


def _strip(got: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [tuple(v.rstrip() if isinstance(v, str) else v for v in r) for r in got]


# ---- printed examples -------------------------------------------------------------------------
def test_begin_end_block_scope_of_local_variables(db: ifxwire.Cursor) -> None:
    """ids_sqs_1754 ("Scope of Reference of SPL Variables and Exception Handlers") logs var1
    before, inside and after a BEGIN … END block that redefines it; the tracker table then
    shows 1, 2 and 1 ("unchanged!"), in the SERIAL order of the inserts."""
    db.execute("CREATE TABLE tracker (who_submitted CHAR(80), value INT, "
               "sequential_order SERIAL)")
    db.execute("""
CREATE PROCEDURE demo_local_var()
DEFINE var1, var2 INT;
   LET var1 = 1;
   LET var2 = 2;
   INSERT INTO tracker (who_submitted, value) VALUES ('before the block', var1);
BEGIN
   DEFINE var1 INT;
   LET var1 = var2;
   INSERT INTO tracker (who_submitted, value) VALUES ('inside the block', var1);
END
INSERT INTO tracker (who_submitted, value) VALUES ('after the block', var1);
END PROCEDURE""")
    db.execute("EXECUTE PROCEDURE demo_local_var()")
    assert _strip(_rows(db, "SELECT sequential_order, who_submitted, value FROM tracker "
                            "ORDER BY sequential_order")) == [
        (1, "before the block", 1), (2, "inside the block", 2), (3, "after the block", 1)]


def test_variable_named_user_hides_the_function_in_its_block(db: ifxwire.Cursor) -> None:
    """ids_sqt_449 ("Variables and SQL functions"): a variable named user, defined in a BEGIN
    block, disables the USER function there; outside the block user is the function again."""
    db.execute("""
CREATE FUNCTION user_test() RETURNING CHAR(15), CHAR(15), CHAR(15);
   DEFINE name, name2, name3 CHAR(15);
   LET name = user;
   BEGIN
      DEFINE user CHAR(15);
      LET user = 'Miller';
      LET name3 = user;
   END
   LET name2 = user;
   RETURN name, name3, name2;
END FUNCTION""")
    assert _strip(_rows(db, "EXECUTE FUNCTION user_test()")) == [
        ("informix", "Miller", "informix")]


def test_for_over_a_character_expression_list(db: ifxwire.Cursor) -> None:
    """ids_sqs_1329 ("Using an Expression List as the Range"): the IN list need not be
    numeric when it has no range; it may hold a subquery's value and variables."""
    db.execute("CREATE TABLE names (name CHAR(10))")
    db.execute("INSERT INTO names VALUES ('middle')")
    db.execute("CREATE TABLE seen (c CHAR(10), n SERIAL)")
    db.execute("""
CREATE PROCEDURE for_chars()
   DEFINE c, v1, v2 CHAR(10);
   LET v1 = 'first var';
   LET v2 = 'second';
   FOR c IN ('hello', (SELECT name FROM names), 'world', v1, v2)
      INSERT INTO seen (c) VALUES (c);
   END FOR;
END PROCEDURE""")
    db.execute("EXECUTE PROCEDURE for_chars()")
    assert [r[0] for r in _strip(_rows(db, "SELECT c FROM seen ORDER BY n"))] == [
        "hello", "middle", "world", "first var", "second"]


def test_for_mixing_ranges_and_expressions(db: ifxwire.Cursor) -> None:
    """ids_sqs_1330's for_ex: an INT loop variable over 1 TO 20, a subquery's value,
    j+20 TO j-20 (counting down by default), a function's value, a constant and
    90 TO 80 STEP -2: 20 + 1 + 41 + 1 + 1 + 6 values."""
    db.execute("CREATE TABLE tab (id INT, c1 INT)")
    db.execute("INSERT INTO tab VALUES (1, 55)")
    db.execute("CREATE TABLE got (i INT)")
    db.execute("CREATE FUNCTION p_get_int(n INT) RETURNING INT; RETURN n; END FUNCTION")
    db.execute("""
CREATE PROCEDURE for_ex()
   DEFINE i, j INT;
   LET j = 10;
   FOR i IN (1 TO 20, (SELECT c1 FROM tab WHERE id = 1), j+20 TO j-20, p_get_int(99), 98,
             90 TO 80 STEP -2)
      INSERT INTO got VALUES (i);
   END FOR;
END PROCEDURE""")
    db.execute("EXECUTE PROCEDURE for_ex()")
    expected = [*range(1, 21), 55, *range(30, -11, -1), 99, 98, *range(90, 79, -2)]
    assert _rows(db, "SELECT COUNT(*), SUM(i) FROM got") == [
        (Decimal(len(expected)), Decimal(sum(expected)))]


def test_for_evaluates_its_range_once_and_defaults_step_by_direction(db: ifxwire.Cursor
                                                                      ) -> None:
    """ids_sqs_1326: "The database server evaluates all expressions before the FOR statement
    executes"; changing a variable of the range inside the loop does not change the count.
    STEP defaults to 1, or -1 when left_expr > right_expr."""
    db.execute("""
CREATE FUNCTION once() RETURNING INT, INT;
   DEFINE i, n, k, s, down INT;
   LET n = 3; LET k = 1; LET s = 0; LET down = 0;
   FOR i = 1 TO n STEP k
      LET n = 10; LET k = 5; LET s = s + 1;
   END FOR;
   FOR i = 5 TO 1
      LET down = down * 10 + i;
   END FOR;
   RETURN s, down;
END FUNCTION""")
    assert _rows(db, "EXECUTE FUNCTION once()") == [(3, 54321)]


# ---- misuse: refused when the routine runs ----------------------------------------------------
@pytest.mark.parametrize(("loop", "code", "rule"), [
    ("FOR i = NULL TO 3", -443, "a NULL bound: 'cannot have a NULL value'"),
    ("FOR i = 1 TO v", -443, "a variable bound that is NULL"),
    ("FOR i = 1 TO 10 STEP 0", -697, "ids_sqs_1326: increment_expr 'Cannot return 0'"),
    ("FOR i = 1 TO 10 STEP -1", -683, "a STEP going away from the end never traverses"),
    ("FOR i IN (1, 2 TO 8 STEP -2)", -683, "the same inside an IN list"),
])
def test_for_range_errors_when_run(db: ifxwire.Cursor, loop: str, code: int,
                                   rule: str) -> None:
    """A NULL bound counted no turn, and STEP 0 was refused as not implemented; both have
    their own codes, as has a STEP that goes away from the end (it counted no turn)."""
    db.execute(f"""
CREATE FUNCTION bad_range() RETURNING INT;
   DEFINE i, s, v INT;
   LET s = 0;
   LET v = NULL;
   {loop}
      LET s = s + 1;
   END FOR;
   RETURN s;
END FUNCTION""")
    assert _code(db, "EXECUTE FUNCTION bad_range()") == code, rule


def test_range_needs_an_integer_loop_variable(db: ifxwire.Cursor) -> None:
    """ids_sqs_1326: a range's bounds "must match SMALLINT or INT data type of loop_var";
    ids_sqs_1329: only an expression list without ranges may hold other types (-666 "must be
    declared INTEGER or SMALLINT"; it was a syntax error)."""
    db.execute("CREATE FUNCTION char_range() RETURNING INT; DEFINE c CHAR(5); "
               "FOR c = 1 TO 3 END FOR; RETURN 1; END FUNCTION")
    assert _code(db, "EXECUTE FUNCTION char_range()") == -666


# ---- misuse: refused when the routine is created ----------------------------------------------
CREATE_ERRORS: list[tuple[str, int, str]] = [
    ("CREATE FUNCTION f() RETURNING INT; DEFINE i INT; FOR i = 1 TO 3 LET i = 5; END FOR; "
     "RETURN i; END FUNCTION", -660, "LET of the loop variable inside its FOR (it ran)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE i, s INT; LET s = 0; FOR i = 1 TO 3 "
     "FOR i = 1 TO 2 LET s = s + 1; END FOR; END FOR; RETURN s; END FUNCTION", -662,
     "a FOR inside a FOR on the same variable (it ran)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE GLOBAL gi INT DEFAULT 0; "
     "FOR gi = 1 TO 3 END FOR; RETURN 1; END FUNCTION", -719,
     "a GLOBAL loop variable (it ran)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE x INT; DEFINE x CHAR(5); RETURN 1; "
     "END FUNCTION", -669, "ids_sqs_1306: 'Must be unique within statement block' (accepted)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE x, x INT; RETURN 1; END FUNCTION", -669,
     "the same within one DEFINE (accepted)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE x INT DEFAULT 1; RETURN x; END FUNCTION",
     -652, "ids_sqs_1306: only GLOBAL variables take a DEFAULT (-201)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE GLOBAL g INT; RETURN g; END FUNCTION", -658,
     "a GLOBAL variable needs its DEFAULT (-201)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE GLOBAL g LIKE systables.tabid; RETURN 1; "
     "END FUNCTION", -653, "LIKE is for local variables only (accepted)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE x SERIAL; RETURN 1; END FUNCTION", -670,
     "ids_sqs_1306: no variable is SERIAL (-201)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE x SERIAL8; RETURN 1; END FUNCTION", -670,
     "nor SERIAL8 (-201)"),
    ("CREATE FUNCTION f() RETURNING INT; RETURN 1, 2; END FUNCTION", -655,
     "RETURN of more values than RETURNING declares (-201)"),
    ("CREATE PROCEDURE p() RETURN 1; END PROCEDURE", -656,
     "RETURN of a value from a routine without RETURNING (-201)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE x TEXT; RETURN 1; END FUNCTION", -201,
     "ids_sqs_1306: a TEXT or BYTE variable is REFERENCES TEXT / BYTE (accepted)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE null INT; RETURN 1; END FUNCTION", -947,
     "a variable named null would hide the NULL value (accepted)"),
    ("CREATE FUNCTION f() RETURNING INT; EXIT FOREACH; RETURN 1; END FUNCTION", -596,
     "EXIT FOREACH outside any FOREACH (-201 when it ran)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE i INT; LET i = 0; WHILE i < 3 "
     "LET i = i + 1; EXIT FOR; END WHILE; RETURN i; END FUNCTION", -596,
     "EXIT FOR inside a WHILE that no FOR encloses (-201 when it ran)"),
    ("CREATE FUNCTION f() RETURNING INT; DEFINE i INT; FOR i = 1 TO 3 CONTINUE WHILE; "
     "END FOR; RETURN i; END FUNCTION", -596, "CONTINUE WHILE inside a FOR (accepted)"),
    ("CREATE FUNCTION f() RETURNING INT; CONTINUE; RETURN 1; END FUNCTION", -596,
     "a bare CONTINUE outside every loop (accepted)"),
]


@pytest.mark.parametrize(("sql", "code", "rule"), CREATE_ERRORS,
                         ids=[f"create{i}" for i in range(len(CREATE_ERRORS))])
def test_misused_spl_is_refused_at_create(db: ifxwire.Cursor, sql: str, code: int,
                                          rule: str) -> None:
    """The rules of DEFINE (ids_sqs_1306), FOR (ids_sqs_1326) and RETURN, each with its
    catalogue code; in brackets, what the server did before. Nothing is created."""
    assert _code(db, sql) == code, rule
    assert _rows(db, "SELECT COUNT(*) FROM sysprocedures WHERE procname IN ('f', 'p')") == [
        (Decimal(0),)]


def test_what_stays_allowed(db: ifxwire.Cursor) -> None:
    """Not misuse: a BEGIN block may define its own variable of the loop variable's name and
    assign it (ids_sqt_456: a block may redefine a variable); an inner FOR may run from the
    outer one's value, equal bounds give one turn; REFERENCES TEXT is a TEXT variable; EXIT
    FOR from a WHILE inside the FOR leaves the FOR."""
    db.execute("""
CREATE FUNCTION allowed() RETURNING INT, INT;
   DEFINE i, j, s, t INT;
   DEFINE blob_ref REFERENCES TEXT;
   LET s = 0; LET t = 0;
   FOR i = 1 TO 3
      BEGIN
         DEFINE i INT;
         LET i = 9;
         LET s = s + i;
      END
   END FOR;
   FOR i = 1 TO 3
      FOR j = i TO 3
         LET t = t + 1;
      END FOR;
   END FOR;
   FOR i = 1 TO 3
      WHILE 1 = 1
         LET t = t + 100;
         EXIT FOR;
      END WHILE;
   END FOR;
   RETURN s, t;
END FUNCTION""")
    assert _rows(db, "EXECUTE FUNCTION allowed()") == [(27, 106)]


def test_error_texts_reach_the_driver(db: ifxwire.Cursor) -> None:
    """The driver has a text and a class for each new code (ProgrammingError: the statement
    is wrong, not the data or the connection)."""
    with pytest.raises(ifxwire.ProgrammingError) as info:
        db.execute("CREATE FUNCTION f() RETURNING INT; DEFINE i INT; FOR i = 1 TO 3 "
                   "LET i = 5; END FOR; RETURN i; END FUNCTION")
    assert "no description" not in str(info.value) and "'i'" in str(info.value)


# ---- TRACE and SET DEBUG FILE (ids_sqs_1362, ids_sqs_1112, ids_sqs_1115, ids_sqt_553) --------
def test_trace_without_a_debug_file_is_687(db: ifxwire.Cursor) -> None:
    """ids_sqs_1362: "If you use the TRACE statement before you specify a DEBUG file to
    contain the output, an error is generated": -687 "Set debug file before tracing SPL
    routines." Every form of TRACE (it was a silent no-op); a routine without TRACE runs."""
    for form in ("TRACE ON;", "TRACE OFF;", "TRACE PROCEDURE;", "TRACE 'begin trace';"):
        db.execute(f"CREATE PROCEDURE traced() {form} END PROCEDURE")
        assert _code(db, "EXECUTE PROCEDURE traced()") == -687, form
        db.execute("DROP PROCEDURE traced")


def test_set_debug_file_outside_a_routine_needs_the_trace_directory(db: ifxwire.Cursor
                                                                      ) -> None:
    """ids_sqs_1115: SET DEBUG FILE TO may be run outside a routine to direct its trace
    output. This server writes trace files only in its --trace-dir: a name outside it is
    refused (-999) as it is inside a routine, and so is every name on a server without one
    (the statement was accepted and dropped)."""
    from ifxwire.server import Server

    assert _code(db, "SET DEBUG FILE TO '/tmp/spl8_elsewhere.trc'") == -999
    with Server(port=0, data=":memory:") as srv, ifxwire.connect(
            host=srv.host, port=srv.port, user="informix", password="in4mix",
            autocommit=True) as conn:
        assert _code(conn.cursor(), "SET DEBUG FILE TO 'session.trc'") == -999


def test_set_debug_file_of_the_session_receives_the_routines_trace(tmp_path: Any) -> None:
    """ids_sqs_1115 / ids_sqs_1112 on a server with a trace directory: the session's SET
    DEBUG FILE names the file, WITH APPEND keeps what it held, and TRACE writes the lines
    ids_sqt_553 prints first ("trace expression :begin trace", "trace on")."""
    from ifxwire.server import Server

    traces = tmp_path / "traces"
    traces.mkdir()
    with Server(port=0, data=":memory:", trace_dir=traces) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        with ifxwire.connect(**kw, autocommit=True) as conn:
            conn.cursor().execute("CREATE DATABASE tr8 WITH LOG")
        with ifxwire.connect(**kw, database="tr8", autocommit=True) as conn:
            cur = conn.cursor()
            cur.execute("CREATE PROCEDURE items_pct() TRACE 'begin trace'; TRACE ON; "
                        "TRACE OFF; END PROCEDURE")
            cur.execute("SET DEBUG FILE TO 'items.trc'")
            cur.execute("EXECUTE PROCEDURE items_pct()")
            cur.execute("SET DEBUG FILE TO 'items.trc' WITH APPEND")
            cur.execute("EXECUTE PROCEDURE items_pct()")
            assert _code(cur, "SET DEBUG FILE TO '../outside.trc'") == -999
    lines = (traces / "items.trc").read_text().splitlines()
    assert lines == ["trace expression :begin trace", "trace on"] * 2
    assert not (tmp_path / "outside.trc").exists()


# ---- named arguments (Guide to SQL: Syntax, "Arguments") -------------------------------------
@pytest.mark.parametrize(("call", "code"), [
    ("EXECUTE FUNCTION one(x = 1, x = 2)", -671),
    ("EXECUTE FUNCTION one(1, x = 2)", -671),
    ("EXECUTE FUNCTION one(x = 1, z = 2)", -695),
])
def test_named_argument_errors(db: ifxwire.Cursor, call: str, code: int) -> None:
    """A parameter named twice (or given by position and by name) is -671 "Routine
    invocation(%s) has duplicate parameter name."; a name that is no parameter is -695
    "Argument is not a parameter of procedure (%s)." (both were -201). Positional then named
    arguments, and named ones in any order, stay allowed."""
    db.execute("CREATE FUNCTION one(x INT, y INT DEFAULT 5) RETURNING INT; RETURN x + y; "
               "END FUNCTION")
    assert _code(db, call) == code
    assert _rows(db, "EXECUTE FUNCTION one(1, y = 2)") == [(3,)]
    assert _rows(db, "EXECUTE FUNCTION one(y = 2, x = 1)") == [(3,)]
