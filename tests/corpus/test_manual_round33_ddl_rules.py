"""CREATE / ALTER TABLE rules the pages state, thirty-third session (issue 23; found by a
sweep of the Guide to SQL: Syntax's DDL pages), through the real driver and the embedded
server over sockets. The statements are ours, modelled on the pages' examples (the SET
statement is ids_sqs_1099's own).

Pages:
* "Restrictions on Referential Constraints" (ids_sqs_0302, ids_sqs_0519): the referenced
  columns need a unique or primary-key constraint, and the referencing columns the same
  type (an integer referencing a serial); codes -297 and -356 [jcat]. Both were accepted by
  CREATE TABLE (the key then failed at its first use), -999 / accepted by ALTER TABLE. A
  second PRIMARY KEY in one CREATE TABLE was accepted: -704, ALTER TABLE's code.
* DEFAULT clause (ids_sqs_0101, ids_sqs_0080): CURRENT_USER and SYSDATE (were -201);
  DBSERVERNAME / SITENAME store the server's name, as the operator gives it (ids_sqs_1453;
  they stored the host's); ALTER TABLE ADD: "the default values are applied to all
  existing rows" (TODAY, USER, CURRENT, DBSERVERNAME left them NULL).
* SET Database Object Mode, table format (ids_sqs_1099): ``SET CONSTRAINTS, INDEXES,
  TRIGGERS FOR cust_subset ENABLED`` (was -201).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "ddlrules33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE customer (customer_num SERIAL PRIMARY KEY, "
                  "lname CHAR(15), code CHAR(3) UNIQUE)")
        c.execute("INSERT INTO customer (lname, code) VALUES ('Pauli', 'a')")
        yield c


@pytest.mark.parametrize(("ddl", "code"), [
    ("CREATE TABLE r1 (a CHAR(10) REFERENCES customer)", -356),
    ("CREATE TABLE r2 (a DECIMAL(10) REFERENCES customer)", -356),
    ("CREATE TABLE r3 (a INT REFERENCES customer (code))", -356),
    ("CREATE TABLE r4 (a CHAR(15) REFERENCES customer (lname))", -297),
    ("CREATE TABLE r5 (a INT, b CHAR(15), FOREIGN KEY (a, b) REFERENCES customer "
     "(customer_num, lname))", -297),
    ("CREATE TABLE c2 (a INT PRIMARY KEY, b INT PRIMARY KEY)", -704),
    ("CREATE TABLE c3 (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))", -704),
])
def test_what_create_table_refuses(cur: ifxwire.Cursor, ddl: str, code: int) -> None:
    assert sqlcode(cur, ddl, fetch=False) == code
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabid > 100") == [(0,)]


def test_the_references_taken(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE k1 (a INT REFERENCES customer)")  # INT to SERIAL
    cur.execute("CREATE TABLE k2 (a INT8 REFERENCES customer (customer_num))")
    cur.execute("CREATE TABLE k6 (a SMALLINT REFERENCES customer)")  # "an integer data type"
    cur.execute("CREATE TABLE k3 (c CHAR(3) REFERENCES customer (code))")  # a unique key
    cur.execute("CREATE TABLE k4 (id SERIAL PRIMARY KEY, up INT REFERENCES k4)")  # itself
    cur.execute("CREATE TABLE k5 (a CHAR(15) REFERENCES customer (lname) DISABLED)")
    cur.execute("INSERT INTO k1 VALUES (1)")
    assert sqlcode(cur, "INSERT INTO k1 VALUES (99)", fetch=False) == -691
    cur.execute("INSERT INTO k4 (up) VALUES (NULL)")
    cur.execute("INSERT INTO k4 (up) VALUES (1)")


def test_what_alter_table_refuses(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE fk1 (a FLOAT, b CHAR(15), c INT)")
    assert sqlcode(cur, "ALTER TABLE fk1 ADD CONSTRAINT FOREIGN KEY (a) REFERENCES "
                        "customer (customer_num)", fetch=False) == -356
    assert sqlcode(cur, "ALTER TABLE fk1 ADD CONSTRAINT FOREIGN KEY (b) REFERENCES "
                        "customer (lname)", fetch=False) == -297
    cur.execute("ALTER TABLE fk1 ADD CONSTRAINT FOREIGN KEY (c) REFERENCES customer")
    assert rows(cur, "SELECT COUNT(*) FROM sysreferences") == [(1,)]


def test_niladic_defaults(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE d1 (a INT, b CHAR(32) DEFAULT CURRENT_USER, "
                "c DATETIME YEAR TO SECOND DEFAULT SYSDATE, "
                "e DATETIME YEAR TO FRACTION(5) DEFAULT SYSDATE YEAR TO FRACTION(5), "
                "s1 CHAR(18) DEFAULT SITENAME, s2 CHAR(18) DEFAULT DBSERVERNAME)")
    cur.execute("INSERT INTO d1 (a) VALUES (1)")
    assert rows(cur, "SELECT b, c IS NOT NULL, e IS NOT NULL, s1 = DBSERVERNAME, "
                     "s2 = SITENAME FROM d1", strip=True) == [
        ("informix", True, True, True, True)]
    assert rows(cur, "SELECT type FROM sysdefaults WHERE tabid = (SELECT tabid FROM "
                     "systables WHERE tabname = 'd1') ORDER BY colno") == [
        ("U",), ("C",), ("C",), ("S",), ("S",)]


def test_alter_add_gives_existing_rows_the_default(cur: ifxwire.Cursor) -> None:
    cur.execute("ALTER TABLE customer ADD (d1 DATE DEFAULT TODAY, d2 CHAR(32) DEFAULT USER, "
                "d3 DATETIME YEAR TO DAY DEFAULT CURRENT YEAR TO DAY, d4 CHAR(10) DEFAULT "
                "'lit', d5 VARCHAR(128) DEFAULT DBSERVERNAME, d6 CHAR(32) DEFAULT CURRENT_USER)")
    assert rows(cur, "SELECT d1 = TODAY, d2, d3 = CURRENT YEAR TO DAY, d4, d5 = DBSERVERNAME, "
                     "d6 FROM customer", strip=True) == [
        (True, "informix", True, "lit", True, "informix")]


def test_several_object_types_in_one_set(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE cust_subset (ssn INT, fname CHAR(10), lname CHAR(10))")
    cur.execute("CREATE UNIQUE INDEX unq_ssn ON cust_subset (ssn)")
    cur.execute("SET CONSTRAINTS, INDEXES, TRIGGERS FOR cust_subset ENABLED")
    cur.execute("SET INDEXES, TRIGGERS FOR cust_subset DISABLED")
    state = ("SELECT state FROM sysobjstate WHERE name = 'unq_ssn'")
    assert rows(cur, state) == [("D",)]
    cur.execute("SET CONSTRAINTS, INDEXES FOR cust_subset ENABLED")
    assert rows(cur, state) == [("E",)]
    # FILTERING is no trigger mode; each type once
    assert sqlcode(cur, "SET CONSTRAINTS, TRIGGERS FOR cust_subset FILTERING",
                   fetch=False) == -201
    assert sqlcode(cur, "SET INDEXES, INDEXES FOR cust_subset ENABLED", fetch=False) == -201


def test_no_default_table_privileges_in_an_ansi_database(connect_kwargs: dict[str, Any]
                                                          ) -> None:
    """CREATE TABLE (ids_sqs_0567): "In an ANSI-compliant database, no default table-level
    privileges exist. You must grant these privileges explicitly." (PUBLIC got 'su-idx--'.)"""
    with ifxwire.connect(**connect_kwargs, autocommit=True) as conn:
        conn.cursor().execute("CREATE DATABASE ansi33 WITH LOG MODE ANSI")
    with ifxwire.connect(**connect_kwargs, database="ansi33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t1 (a INT)")
        c.execute("CREATE TABLE t2 (a INT)")
        c.execute("GRANT SELECT ON t2 TO PUBLIC")
        conn.commit()
        assert rows(c, "SELECT t.tabname, a.grantee, a.tabauth FROM systabauth a, systables t "
                       "WHERE a.tabid = t.tabid AND t.tabid >= 100 ORDER BY 1",
                    strip=True) == [("t2", "public", "s--------")]


def test_colmin_colmax_of_leading_index_columns(cur: ifxwire.Cursor) -> None:
    """SYSCOLUMNS (ids_sqr_028): "if the values in an indexed column are 1, 2, 3, 4, and 5,
    the colmin value is 2 and the colmax value is 4", once UPDATE STATISTICS computed the
    column's distribution (MEDIUM, HIGH; LOW does not). They stayed NULL."""
    cur.execute("CREATE TABLE n (v INT, w INT)")
    cur.execute("CREATE INDEX n_v ON n (v)")
    for v in (1, 2, 3, 4, 5):
        cur.execute("INSERT INTO n VALUES (?, ?)", (v, v))
    query = ("SELECT colname, colmin, colmax FROM syscolumns WHERE tabid = (SELECT tabid "
             "FROM systables WHERE tabname = 'n') ORDER BY colno")
    cur.execute("UPDATE STATISTICS LOW FOR TABLE n")
    assert rows(cur, query) == [("v", None, None), ("w", None, None)]
    cur.execute("UPDATE STATISTICS HIGH FOR TABLE n")
    assert rows(cur, query) == [("v", 2, 4), ("w", None, None)]  # w is not indexed


def test_what_a_check_condition_may_not_hold(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0525: no subqueries, aggregates or (VARIANT) routines: -677 and -9885 [jcat]
    (were -999, -999 and taken). A NOT VARIANT routine is taken (the -9885 text implies it)."""
    assert sqlcode(cur, "CREATE TABLE k7 (a INT CHECK (a IN (SELECT customer_num FROM "
                        "customer)))", fetch=False) == -677
    assert sqlcode(cur, "CREATE TABLE k9 (a INT CHECK (MAX(a) > 0))", fetch=False) == -677
    cur.execute("CREATE FUNCTION f1(x INT) RETURNING INT; RETURN x; END FUNCTION")
    assert sqlcode(cur, "CREATE TABLE k1 (a INT CHECK (f1(a) > 0))", fetch=False) == -9885
    cur.execute("CREATE TABLE k3 (a INT)")
    assert sqlcode(cur, "ALTER TABLE k3 ADD CONSTRAINT CHECK (f1(a) > 0)", fetch=False) == -9885
    cur.execute("CREATE FUNCTION f2(x INT) RETURNING INT WITH (NOT VARIANT); RETURN x; "
                "END FUNCTION")
    cur.execute("CREATE TABLE k2 (a INT CHECK (f2(a) > 0))")
    assert sqlcode(cur, "INSERT INTO k2 VALUES (-5)", fetch=False) == -530
