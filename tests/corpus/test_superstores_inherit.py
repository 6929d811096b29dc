"""What a subtable inherits from its supertable: superstores' hierarchies load, and their keys,
checks, foreign keys, indexes and SERIAL counter hold across the whole hierarchy.

Sources (docs/SERVER.md, "superstores_demo, typed tables and inheritance (issue 23)"): Syntax
guide, "Using the UNDER Clause" (ids_sqs_0565) and "System Catalog Information" (ids_sqs_0569);
Database Design guide, "Inheritance of table behavior in a table hierarchy" (ids_ddi_117),
"SERIAL types in a table hierarchy" (ids_ddi_120), "Add indexes to tables in a table
hierarchy" (ids_ddi_122), "Constraints on tables in a table hierarchy" (ids_ddi_125); the
codes from the Informix message catalogue in IBM's JDBC jar (-704)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .loader import CORPUS, run_script
from .manual import fresh_database

SUPERSTORES = CORPUS / "superstores"


@pytest.fixture()
def ss(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Connection]:
    """superstores with its hierarchies, a fresh logged database per test (the tests write)."""
    with fresh_database(connect_kwargs, "ss_inh") as conn:
        cur = conn.cursor()
        cur.execute("SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")
        run_script(conn, SUPERSTORES / "schema.sql")
        run_script(conn, SUPERSTORES / "data.sql")
        run_script(conn, SUPERSTORES / "hierarchy.sql")
        yield conn


def _code(info: pytest.ExceptionInfo[ifxwire.Error]) -> int:
    return int(info.value.sqlcode)


US = "INSERT INTO location_us VALUES ({}, 'US', 'Gym', LIST{{'1 Main St'}}, 'Reno', 'USA', " \
     "'NV', 89501, '775')"
NON_US = "INSERT INTO location_non_us VALUES ({}, 'NU', 'Club', LIST{{'2 Rue'}}, 'Paris', " \
         "'France', '75', '75001', '33')"


def test_hierarchy_ddl_loads_and_the_catalogue_keeps_to_the_supertables(
        ss: ifxwire.Connection) -> None:
    """hierarchy.sql loads (it was refused, -999); constraints and indexes are recorded for the
    supertable only, not for the subtables that inherit them (ids_sqs_0569)."""
    cur = ss.cursor()
    cur.execute("SELECT c.tabname, p.tabname FROM sysinherits i, systables c, systables p "
                "WHERE i.class = 'T' AND c.tabid = i.child AND p.tabid = i.parent ORDER BY 1")
    assert cur.fetchall() == [("location_non_us", "location"), ("location_us", "location"),
                              ("retail_customer", "customer"), ("whlsale_customer", "customer")]
    # (a NOT NULL field of the subtable's own type keeps its 'N' row, as before)
    for cat, only in (("sysconstraints", "constrtype <> 'N' AND "), ("sysindices", "")):
        cur.execute(f"SELECT COUNT(*) FROM {cat} c, systables t WHERE c.tabid = t.tabid AND "
                    f"{only}t.tabname IN ('location_us', 'location_non_us', "
                    "'retail_customer', 'whlsale_customer')")
        assert cur.fetchone()[0] == 0, cat


def test_primary_key_is_unique_across_the_hierarchy(ss: ifxwire.Connection) -> None:
    """ids_ddi_122: a key of the supertable is unique across it and all its subtables; the
    duplicate is -268 naming the supertable's constraint, as for the supertable alone."""
    cur = ss.cursor()
    cur.execute("SELECT c.owner, constrname FROM sysconstraints c, systables t WHERE "
                "c.tabid = t.tabid AND t.tabname = 'location' AND constrtype = 'P'")
    owner, name = cur.fetchone()
    for stmt in (US.format(2),                      # a supertable row's key
                 NON_US.format(1)):
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute(stmt)
        assert _code(info) == -268
        assert f"{owner.strip()}.{name}" in str(info.value)
    cur.execute(US.format(10))
    for stmt in (NON_US.format(10),                 # a sibling's key
                 "INSERT INTO location (location_id, loc_type) VALUES (10, 'US')"):
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute(stmt)
        assert _code(info) == -268
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("UPDATE location_us SET location_id = 3")
    assert _code(info) == -268
    cur.execute("INSERT INTO location (location_id, loc_type) VALUES (11, 'US')")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("UPDATE ONLY(location) SET location_id = 10 WHERE location_id = 11")
    assert _code(info) == -268
    cur.execute("UPDATE location_us SET city = 'Elko' WHERE location_id = 10")  # same key
    assert cur.rowcount == 1
    cur.execute("SELECT location_id FROM location ORDER BY 1")
    assert [r[0] for r in cur.fetchall()] == [1, 2, 3, 10, 11]


def test_one_serial_counter_for_the_hierarchy(ss: ifxwire.Connection) -> None:
    """ids_ddi_120: 0 into the SERIAL column of any table of the hierarchy takes the next value
    of one counter, whichever table takes the row."""
    cur = ss.cursor()
    cur.execute(US.format(0))
    cur.execute(NON_US.format(0))
    cur.execute("INSERT INTO location (location_id, loc_type) VALUES (0, 'US')")
    cur.execute("SELECT location_id FROM location ORDER BY 1")
    assert [r[0] for r in cur.fetchall()] == [1, 2, 3, 4, 5, 6]
    cur.execute(US.format(20))
    cur.execute(NON_US.format(0))
    cur.execute("SELECT MAX(location_id) FROM ONLY(location_non_us)")
    assert cur.fetchone()[0] == 21


def test_check_and_not_null_hold_for_subtables(ss: ifxwire.Connection) -> None:
    """customer's CHECK (customer_type IN ('R', 'W')) holds for retail_customer's rows (-530
    naming it); its primary key's column is NOT NULL there too (syscolumns); a NULL in it is
    -703, as for the supertable's key (test_null_in_a_primary_key_is_703)."""
    cur = ss.cursor()
    cur.execute("SELECT constrname FROM sysconstraints c, systables t WHERE c.tabid = t.tabid "
                "AND t.tabname = 'customer' AND constrtype = 'C'")
    check = cur.fetchone()[0]
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO retail_customer (customer_num, customer_type) VALUES (0, 'X')")
    assert _code(info) == -530
    assert check in str(info.value)
    cur.execute("INSERT INTO whlsale_customer (customer_num, customer_type, terms_net) "
                "VALUES (0, 'W', 30)")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("UPDATE whlsale_customer SET customer_type = 'Q'")
    assert _code(info) == -530
    cur.execute("UPDATE customer SET credit_status = 'C' WHERE customer_type = 'W'")
    assert cur.rowcount == 3
    cur.execute("SELECT colname, coltype FROM syscolumns c, systables t WHERE "
                "c.tabid = t.tabid AND t.tabname = 'retail_customer' AND colno = 1")
    name, coltype = cur.fetchone()
    assert name == "customer_num" and coltype & 0x100


def test_not_null_of_an_inherited_key(connect_kwargs: dict[str, Any]) -> None:
    with fresh_database(connect_kwargs, "ss_nn") as conn:
        cur = conn.cursor()
        cur.execute("CREATE ROW TYPE person_t (name VARCHAR(30), soc_sec CHAR(9))")
        cur.execute("CREATE ROW TYPE employee_t (salary INTEGER) UNDER person_t")
        cur.execute("CREATE TABLE person OF TYPE person_t (PRIMARY KEY (name))")
        cur.execute("CREATE TABLE employee OF TYPE employee_t (CHECK (salary > 34000)) "
                    "UNDER person")
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("INSERT INTO employee VALUES (NULL, '1', 50000)")
        assert _code(info) == -703
        with pytest.raises(ifxwire.IntegrityError) as info:  # its own check (ids_ddi_117)
            cur.execute("INSERT INTO employee VALUES ('Ann', '1', 100)")
        assert _code(info) == -530
        cur.execute("INSERT INTO employee VALUES ('Ann', '1', 50000)")
        cur.execute("INSERT INTO person VALUES ('Bob', '2')")
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("INSERT INTO person VALUES ('Ann', '3')")
        assert _code(info) == -268


def test_a_second_primary_key_in_a_hierarchy_is_704(ss: ifxwire.Connection) -> None:
    """"You cannot define more than one primary key across a table hierarchy" (ids_ddi_122):
    -704, "Primary key already exists on the table." (message catalogue)."""
    cur = ss.cursor()
    cur.execute("DROP TABLE location_us")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("CREATE TABLE location_us OF TYPE loc_us_t (PRIMARY KEY (zip)) "
                    "UNDER location")
    assert _code(info) == -704
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("ALTER TABLE location_non_us ADD CONSTRAINT PRIMARY KEY (postcode)")
    assert _code(info) == -704
    cur.execute("ALTER TABLE location_non_us ADD CONSTRAINT UNIQUE (postcode)")
    cur.execute(NON_US.format(0))
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute(NON_US.format(0))
    assert _code(info) == -268
    cur.execute("INSERT INTO location (location_id, loc_type) VALUES (0, 'US')")


def test_references_to_a_supertable_see_its_subtables(ss: ifxwire.Connection) -> None:
    """customer.customer_loc refers to location's key, which spans location_us and
    location_non_us; retail_customer inherits the foreign key (ids_sqs_0565)."""
    cur = ss.cursor()
    cur.execute(US.format(40))
    cur.execute("INSERT INTO customer (customer_num, customer_type, customer_loc) "
                "VALUES (0, 'R', 40)")
    cur.execute("INSERT INTO retail_customer (customer_num, customer_type, customer_loc) "
                "VALUES (0, 'R', 40)")
    for table in ("customer", "retail_customer"):
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute(f"INSERT INTO {table} (customer_num, customer_type, customer_loc) "
                        "VALUES (0, 'R', 41)")
        assert _code(info) == -691
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("UPDATE retail_customer SET customer_loc = 41")
    assert _code(info) == -691
    for stmt in ("DELETE FROM location WHERE location_id = 40",
                 "DELETE FROM location_us",
                 "UPDATE location_us SET location_id = 41"):
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute(stmt)
        assert _code(info) == -692
    cur.execute("DELETE FROM customer WHERE customer_loc = 40")
    assert cur.rowcount == 2
    cur.execute("DELETE FROM location_us WHERE location_id = 40")
    assert cur.rowcount == 1
    cur.execute("INSERT INTO retail_customer (customer_num, customer_type, customer_loc) "
                "VALUES (0, 'R', NULL)")  # a NULL key refers to nothing


def test_on_delete_cascade_reaches_subtables(connect_kwargs: dict[str, Any]) -> None:
    with fresh_database(connect_kwargs, "ss_casc") as conn:
        cur = conn.cursor()
        cur.execute("CREATE ROW TYPE part_t (id INTEGER, name VARCHAR(20))")
        cur.execute("CREATE ROW TYPE bolt_t (size INTEGER) UNDER part_t")
        cur.execute("CREATE TABLE part OF TYPE part_t (PRIMARY KEY (id))")
        cur.execute("CREATE TABLE bolt OF TYPE bolt_t UNDER part")
        cur.execute("CREATE TABLE stock (part_id INTEGER REFERENCES part ON DELETE CASCADE, "
                    "n INTEGER)")
        cur.execute("INSERT INTO part VALUES (1, 'nut')")
        cur.execute("INSERT INTO bolt VALUES (2, 'M6', 6)")
        cur.execute("INSERT INTO stock VALUES (1, 10)")
        cur.execute("INSERT INTO stock VALUES (2, 20)")
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("INSERT INTO stock VALUES (3, 1)")
        assert _code(info) == -691
        cur.execute("DELETE FROM part WHERE id = 2")
        cur.execute("SELECT part_id FROM stock")
        assert cur.fetchall() == [(1,)]


def test_an_index_on_a_supertable_spans_its_subtables(ss: ifxwire.Connection) -> None:
    """ids_ddi_122: an index on a supertable spans its subtables; a unique one keeps its key
    unique across them (-239 naming it), and is refused over duplicates there (-371); the
    catalogue holds it for the supertable only (ids_sqs_0569)."""
    cur = ss.cursor()
    cur.execute("CREATE INDEX ix_city ON location (city)")
    cur.execute(US.format(0))
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("CREATE UNIQUE INDEX ux_type ON location (loc_type)")
    assert _code(info) == -371
    cur.execute("CREATE UNIQUE INDEX ux_co ON location (company)")
    cur.execute("SELECT t.tabname FROM sysindices i, systables t WHERE i.tabid = t.tabid AND "
                "i.idxname IN ('ix_city', 'ux_co')")
    assert cur.fetchall() == [("location",), ("location",)]
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO location_non_us VALUES (0, 'NU', 'Gym', LIST{'x'}, 'Oslo', "
                    "'Norway', 'OS', '0150', '47')")
    assert _code(info) == -239
    assert "ux_co" in str(info.value)
    cur.execute("DROP INDEX ux_co")
    cur.execute("INSERT INTO location_non_us VALUES (0, 'NU', 'Gym', LIST{'x'}, 'Oslo', "
                "'Norway', 'OS', '0150', '47')")


def test_constraints_of_a_dropped_subtable_or_constraint_go(ss: ifxwire.Connection) -> None:
    """Dropping a subtable leaves its supertable and siblings working; a constraint dropped
    from the supertable no longer holds for the subtables (ids_ddi_125: one alters or drops
    a constraint in the table that defines it)."""
    cur = ss.cursor()
    cur.execute("DROP TABLE location_us")
    cur.execute("INSERT INTO location (location_id, loc_type) VALUES (0, 'US')")
    cur.execute(NON_US.format(0))
    cur.execute("SELECT constrname FROM sysconstraints c, systables t WHERE c.tabid = t.tabid "
                "AND t.tabname = 'customer' AND constrtype = 'C'")
    cur.execute(f"ALTER TABLE customer DROP CONSTRAINT {cur.fetchone()[0]}")
    cur.execute("INSERT INTO retail_customer (customer_num, customer_type) VALUES (0, 'X')")
    cur.execute("DROP TABLE location")  # the foreign keys to it go (DROP TABLE CASCADE)
    cur.execute("INSERT INTO retail_customer (customer_num, customer_type, customer_loc) "
                "VALUES (0, 'R', 99)")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO whlsale_customer (customer_num, customer_type) VALUES (1, 'W')")
    assert _code(info) == -268


@pytest.mark.parametrize("row_locks", [True, False])
def test_a_rolled_back_subtable_leaves_no_guard_behind(row_locks: bool) -> None:
    """CREATE TABLE ... UNDER inside a transaction, rolled back: the supertable's rows go in
    as before (no check of a table that is gone), with row locks (the default) as without;
    a second session meets the hierarchy's key while the subtable exists."""
    from ifxwire.server import Server

    kw: dict[str, Any] = {"user": "informix", "password": "in4mix"}
    with Server(port=0, host="127.0.0.1", data=":memory:", row_locks=row_locks) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, autocommit=True, **kw) as conn:
            conn.cursor().execute("CREATE DATABASE rbk WITH LOG")
        with ifxwire.connect(host=srv.host, port=srv.port, database="rbk", **kw) as conn:
            cur = conn.cursor()
            cur.execute("CREATE ROW TYPE a_t (id INTEGER)")
            cur.execute("CREATE ROW TYPE b_t (x INTEGER) UNDER a_t")
            cur.execute("CREATE TABLE a OF TYPE a_t (PRIMARY KEY (id))")
            conn.commit()
            cur.execute("CREATE TABLE b OF TYPE b_t UNDER a")
            cur.execute("INSERT INTO b VALUES (1, 1)")
            with pytest.raises(ifxwire.IntegrityError):
                cur.execute("INSERT INTO a VALUES (1)")
            conn.rollback()
            cur.execute("INSERT INTO a VALUES (1)")
            cur.execute("SELECT id FROM a")
            assert cur.fetchall() == [(1,)]
            cur.execute("CREATE TABLE b OF TYPE b_t UNDER a")
            conn.commit()
            with ifxwire.connect(host=srv.host, port=srv.port, database="rbk",
                                 autocommit=True, **kw) as other:
                with pytest.raises(ifxwire.IntegrityError) as info:
                    other.cursor().execute("INSERT INTO b VALUES (1, 2)")
                assert _code(info) == -268


TUTORIAL_TYPES = [
    "CREATE ROW TYPE person_t (name VARCHAR(30), soc_sec CHAR(9))",
    "CREATE ROW TYPE employee_t (salary INTEGER) UNDER person_t",
    "CREATE ROW TYPE sales_rep_t (rep_num INTEGER, region_num INTEGER) UNDER employee_t",
    "CREATE TABLE person OF TYPE person_t",
    "CREATE TABLE employee OF TYPE employee_t UNDER person",
    "CREATE TABLE audit (who VARCHAR(30), what CHAR(12))",
]


def _audit(cur: Any) -> list[tuple[str, str]]:
    cur.execute("SELECT who, what FROM audit ORDER BY 2, 1")
    rows = [(w, what.strip()) for w, what in cur.fetchall()]
    cur.execute("DELETE FROM audit")
    return rows


def test_triggers_of_a_supertable_fire_for_its_subtables(
        connect_kwargs: dict[str, Any]) -> None:
    """ids_sqs_0588: a trigger on a typed table is inherited by all its subtables, also by a
    subtable created after it; a subtable's own trigger for the same event fires as well (no
    override since 11.10) and has no effect on its supertable; the catalogue holds the
    trigger for the supertable only (ids_sqs_0569)."""
    with fresh_database(connect_kwargs, "ss_trg") as conn:
        cur = conn.cursor()
        for stmt in TUTORIAL_TYPES:
            cur.execute(stmt)
        cur.execute("CREATE TRIGGER t_person INSERT ON person REFERENCING NEW AS n "
                    "FOR EACH ROW (INSERT INTO audit VALUES (n.name, 'person ins'))")
        cur.execute("CREATE TABLE sales_rep OF TYPE sales_rep_t UNDER employee")
        cur.execute("CREATE TRIGGER t_emp INSERT ON employee REFERENCING NEW AS n "
                    "FOR EACH ROW (INSERT INTO audit VALUES (n.name, 'emp ins'))")
        cur.execute("INSERT INTO person VALUES ('Pat', '1')")
        assert _audit(cur) == [("Pat", "person ins")]
        cur.execute("INSERT INTO employee VALUES ('Eve', '2', 50000)")
        assert _audit(cur) == [("Eve", "emp ins"), ("Eve", "person ins")]
        cur.execute("INSERT INTO sales_rep VALUES ('Sam', '3', 40000, 1, 7)")
        assert _audit(cur) == [("Sam", "emp ins"), ("Sam", "person ins")]
        cur.execute("SELECT t.tabname FROM systriggers g, systables t WHERE g.tabid = t.tabid "
                    "ORDER BY 1")
        assert cur.fetchall() == [("employee",), ("person",)]
        # disabling the subtable's triggers leaves the inherited one (ids_sqs_0588)
        cur.execute("SET TRIGGERS FOR employee DISABLED")
        cur.execute("INSERT INTO employee VALUES ('Ed', '4', 50000)")
        assert _audit(cur) == [("Ed", "person ins")]
        cur.execute("DROP TRIGGER t_person")
        cur.execute("INSERT INTO sales_rep VALUES ('Sue', '5', 40000, 2, 7)")
        assert _audit(cur) == []


def test_a_statement_on_a_supertable_runs_statement_actions_once(
        connect_kwargs: dict[str, Any]) -> None:
    """UPDATE and DELETE on a supertable reach its subtables' rows: an inherited trigger's
    FOR EACH ROW action runs for each row of each table, its BEFORE and AFTER actions once
    for the statement (our reading for a statement that reaches several tables)."""
    with fresh_database(connect_kwargs, "ss_trs") as conn:
        cur = conn.cursor()
        for stmt in TUTORIAL_TYPES:
            cur.execute(stmt)
        cur.execute("CREATE TABLE sales_rep OF TYPE sales_rep_t UNDER employee")
        cur.execute("INSERT INTO person VALUES ('Pat', '1')")
        cur.execute("INSERT INTO employee VALUES ('Eve', '2', 50000)")
        cur.execute("INSERT INTO sales_rep VALUES ('Sam', '3', 40000, 1, 7)")
        cur.execute("CREATE TRIGGER t_upd UPDATE OF soc_sec ON person REFERENCING OLD AS o "
                    "BEFORE (INSERT INTO audit VALUES ('-', 'before')) "
                    "FOR EACH ROW (INSERT INTO audit VALUES (o.name, 'row')) "
                    "AFTER (INSERT INTO audit VALUES ('-', 'after'))")
        cur.execute("UPDATE person SET soc_sec = 'x'")
        assert cur.rowcount == 3
        assert _audit(cur) == [("-", "after"), ("-", "before"), ("Eve", "row"), ("Pat", "row"),
                               ("Sam", "row")]
        cur.execute("UPDATE ONLY(employee) SET soc_sec = 'y'")
        assert _audit(cur) == [("-", "after"), ("-", "before"), ("Eve", "row")]
        cur.execute("UPDATE person SET name = name")  # not OF soc_sec
        assert _audit(cur) == []
        cur.execute("CREATE TRIGGER t_del DELETE ON employee REFERENCING OLD AS o "
                    "FOR EACH ROW (INSERT INTO audit VALUES (o.name, 'gone'))")
        cur.execute("DELETE FROM person")
        assert cur.rowcount == 3
        assert _audit(cur) == [("Eve", "gone"), ("Sam", "gone")]  # not person's own row


def test_a_constraint_added_to_a_supertable_holds_for_its_subtables(
        connect_kwargs: dict[str, Any]) -> None:
    """ids_sqs_0565: attributes added to a supertable after its subtables were created are
    inherited by them; ALTER TABLE ADD CONSTRAINT on the supertable is how (ids_ddi_115). Rows
    already there must keep it: a check they fail is -530, a key they repeat -371."""
    with fresh_database(connect_kwargs, "ss_add") as conn:
        cur = conn.cursor()
        for stmt in TUTORIAL_TYPES:
            cur.execute(stmt)
        cur.execute("INSERT INTO person VALUES ('Pat', '1')")
        cur.execute("INSERT INTO employee VALUES ('Eve', '1', 20000)")
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("ALTER TABLE person ADD CONSTRAINT UNIQUE (soc_sec)")
        assert _code(info) == -371
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("ALTER TABLE person ADD CONSTRAINT CHECK (soc_sec < '1')")
        assert _code(info) == -530
        cur.execute("ALTER TABLE person ADD CONSTRAINT PRIMARY KEY (name)")
        cur.execute("ALTER TABLE person ADD CONSTRAINT CHECK (soc_sec >= '1') "
                    "CONSTRAINT ck_ssn")
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("INSERT INTO employee VALUES ('Pat', '2', 1)")
        assert _code(info) == -268
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("INSERT INTO employee VALUES (NULL, '2', 1)")
        assert _code(info) == -703
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("INSERT INTO employee VALUES ('Al', '0', 1)")
        assert _code(info) == -530
        assert "ck_ssn" in str(info.value)
        cur.execute("INSERT INTO employee VALUES ('Al', '2', 1)")
        with pytest.raises(ifxwire.Error) as info:  # only where it is defined (ids_ddi_125)
            cur.execute("ALTER TABLE employee DROP CONSTRAINT ck_ssn")
        assert _code(info) == -9961
        cur.execute("ALTER TABLE person DROP CONSTRAINT ck_ssn")
        cur.execute("INSERT INTO employee VALUES ('Bo', '0', 1)")


def test_a_key_another_session_holds_in_another_table_is_271() -> None:
    """Row locks (the server's default): inserting a key that another session's uncommitted
    row holds is that row's lock (-271, ISAM -107), as for one table
    (tests/integration/test_row_locks.py), also when the row is in another table of the
    hierarchy; once that session rolls back, the key is free."""
    from ifxwire.server import Server

    kw: dict[str, Any] = {"user": "informix", "password": "in4mix"}
    with Server(port=0, host="127.0.0.1", data=":memory:", row_locks=True) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, autocommit=True, **kw) as conn:
            conn.cursor().execute("CREATE DATABASE lk WITH LOG")
        a = ifxwire.connect(host=srv.host, port=srv.port, database="lk", **kw)
        b = ifxwire.connect(host=srv.host, port=srv.port, database="lk", **kw)
        try:
            cur = a.cursor()
            cur.execute("CREATE ROW TYPE a_t (id INTEGER)")
            cur.execute("CREATE ROW TYPE b_t (x INTEGER) UNDER a_t")
            cur.execute("CREATE ROW TYPE c_t (y INTEGER) UNDER a_t")
            cur.execute("CREATE TABLE a OF TYPE a_t (PRIMARY KEY (id))")
            cur.execute("CREATE TABLE b OF TYPE b_t UNDER a")
            cur.execute("CREATE TABLE c OF TYPE c_t UNDER a")
            a.commit()
            cur.execute("INSERT INTO b VALUES (1, 1)")  # uncommitted
            for stmt in ("INSERT INTO c VALUES (1, 2)", "INSERT INTO a VALUES (1)"):
                with pytest.raises(ifxwire.Error) as info:
                    b.cursor().execute(stmt)
                assert (_code(info), info.value.isamcode) == (-271, -107)
            a.rollback()
            b.cursor().execute("INSERT INTO c VALUES (1, 2)")
            b.commit()
            with pytest.raises(ifxwire.IntegrityError) as info:
                cur.execute("INSERT INTO b VALUES (1, 1)")
            assert _code(info) == -268
        finally:
            a.close()
            b.close()


def test_select_triggers_are_inherited(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqs_0604 and ids_sqs_0598: a Select trigger of a supertable is inherited by its
    subtables; a SELECT on the supertable activates it for the supertable's rows and the
    inherited one for the subtables' rows; a subtable's own Select trigger adds to the
    inherited one (both fire for its rows) and does nothing for the supertable's rows. A
    query on the subtable alone fires the inherited trigger too. (Refused with -999 before;
    a subtable made after the trigger inherits it as well.)"""
    with fresh_database(connect_kwargs, "ss_sel") as conn:
        cur = conn.cursor()
        for stmt in TUTORIAL_TYPES:
            cur.execute(stmt)
        cur.execute("CREATE TRIGGER trig1 SELECT OF name ON person REFERENCING OLD AS o "
                    "FOR EACH ROW (INSERT INTO audit VALUES (o.name, 'trig1'))")
        cur.execute("CREATE TABLE sales_rep OF TYPE sales_rep_t UNDER employee")
        cur.execute("INSERT INTO person VALUES ('Pat', '1')")
        cur.execute("INSERT INTO employee VALUES ('Eve', '2', 50000)")
        cur.execute("INSERT INTO sales_rep VALUES ('Sam', '3', 40000, 1, 7)")
        cur.execute("SELECT name FROM person ORDER BY name")
        assert [r[0] for r in cur.fetchall()] == ["Eve", "Pat", "Sam"]
        assert _audit(cur) == [("Eve", "trig1"), ("Pat", "trig1"), ("Sam", "trig1")]
        cur.execute("CREATE TRIGGER trig2 SELECT OF name ON employee REFERENCING OLD AS o "
                    "BEFORE (INSERT INTO audit VALUES ('-', 'before2')) "
                    "FOR EACH ROW (INSERT INTO audit VALUES (o.name, 'trig2'))")
        cur.execute("SELECT p.name FROM person p WHERE p.soc_sec > '0'")
        assert len(cur.fetchall()) == 3
        assert _audit(cur) == [("-", "before2"), ("Eve", "trig1"), ("Pat", "trig1"),
                               ("Sam", "trig1"), ("Eve", "trig2"), ("Sam", "trig2")]
        cur.execute("SELECT soc_sec FROM person")  # not OF name: activates nothing
        cur.fetchall()
        assert _audit(cur) == []
        cur.execute("SELECT name FROM ONLY(employee)")
        assert cur.fetchall() == [("Eve",)]
        assert _audit(cur) == [("-", "before2"), ("Eve", "trig1"), ("Eve", "trig2")]
        cur.execute("SELECT * FROM sales_rep")  # a table without subtables
        assert len(cur.fetchall()) == 1
        assert _audit(cur) == [("-", "before2"), ("Sam", "trig1"), ("Sam", "trig2")]
        cur.execute("SET TRIGGERS FOR employee DISABLED")  # leaves the inherited one
        cur.execute("SELECT name FROM employee")
        cur.fetchall()
        assert _audit(cur) == [("Eve", "trig1"), ("Sam", "trig1")]
        cur.execute("SELECT DISTINCT name FROM person")  # DISTINCT activates none (ids_sqs_0599)
        cur.fetchall()
        assert _audit(cur) == []


def test_the_under_privilege() -> None:
    """The Under privilege on a named ROW type and on a typed table: granted to PUBLIC when
    either is created outside an ANSI database (Design guide ids_ddi_265, ids_ddi_099), taken
    by REVOKE UNDER and given by GRANT UNDER ON [ROW] TYPE / ON table (Syntax ids_sqs_0128,
    ids_sqs_0833, ids_sqs_0129); without it CREATE ROW TYPE … UNDER and CREATE TABLE … UNDER
    are -9653; UNDER on a built-in type is -9638, on a distinct type -9639, on an untyped table
    -9652 (message catalogue of IBM JDBC); ALL on an untyped table leaves Under out
    (ids_sqs_0829). (GRANT UNDER ON TYPE was -201 and nothing was checked before.)"""
    from ifxwire.server import Server

    users = {"informix": "in4mix", "kathy": "k1", "joe": "j1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        def as_(user: str) -> ifxwire.Connection:
            return ifxwire.connect(host=srv.host, port=srv.port, database="und",
                                   user=user, password=users[user], autocommit=True)

        with ifxwire.connect(host=srv.host, port=srv.port, user="informix",
                             password="in4mix", autocommit=True) as conn:
            conn.cursor().execute("CREATE DATABASE und WITH LOG")
        with as_("informix") as dba, as_("kathy") as kathy, as_("joe") as joe:
            cur, kcur, jcur = dba.cursor(), kathy.cursor(), joe.cursor()
            cur.execute("GRANT RESOURCE TO kathy, joe")
            cur.execute("CREATE ROW TYPE rtype1 (cola INT, colb INT)")
            cur.execute("SELECT a.grantee, a.auth FROM sysxtdtypeauth a, sysxtdtypes x "
                        "WHERE a.type = x.extended_id AND x.name = 'rtype1'")
            assert cur.fetchall() == [("public", "-n")]
            kcur.execute("CREATE ROW TYPE rtype2 (colc INT) UNDER rtype1")  # PUBLIC's
            cur.execute("REVOKE UNDER ON TYPE rtype1 FROM public")
            cur.execute("GRANT UNDER ON ROW TYPE rtype1 TO kathy")
            with pytest.raises(ifxwire.Error) as info:
                jcur.execute("CREATE ROW TYPE rtype3 (cold INT) UNDER rtype1")
            assert _code(info) == -9653
            kcur.execute("CREATE ROW TYPE rtype3 (cold INT) UNDER rtype1")
            cur.execute("REVOKE UNDER ON TYPE rtype1 FROM kathy")
            with pytest.raises(ifxwire.Error) as info:
                kcur.execute("CREATE ROW TYPE rtype4 (cole INT) UNDER rtype1")
            assert _code(info) == -9653
            cur.execute("CREATE ROW TYPE rtype5 (colf INT) UNDER rtype1")  # the owner's
            cur.execute("CREATE TABLE t1 OF TYPE rtype1")
            cur.execute("SELECT grantee, tabauth FROM systabauth a, systables t WHERE "
                        "a.tabid = t.tabid AND t.tabname = 't1'")
            assert cur.fetchall() == [("public", "su-idx--n")]
            cur.execute("REVOKE UNDER ON t1 FROM public")
            with pytest.raises(ifxwire.Error) as info:
                jcur.execute("CREATE TABLE t2 OF TYPE rtype2 UNDER t1")
            assert _code(info) == -9653
            cur.execute("GRANT UNDER ON t1 TO joe")
            jcur.execute("CREATE TABLE t2 OF TYPE rtype2 UNDER t1")
            cur.execute("CREATE TABLE plain (a INT)")
            cur.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
            for stmt, code in (("GRANT UNDER ON plain TO joe", -9652),
                               ("REVOKE UNDER ON plain FROM public", -9652),
                               ("GRANT UNDER ON TYPE integer TO joe", -9638),
                               ("GRANT UNDER ON TYPE dollars TO joe", -9639),
                               ("GRANT UNDER ON TYPE nosuch_t TO joe", -9628)):
                with pytest.raises(ifxwire.Error) as info:
                    cur.execute(stmt)
                assert _code(info) == code, stmt
            cur.execute("GRANT ALL ON plain TO kathy")
            cur.execute("GRANT ALL ON t1 TO kathy")
            cur.execute("SELECT t.tabname, tabauth FROM systabauth a, systables t WHERE "
                        "a.tabid = t.tabid AND grantee = 'kathy' ORDER BY 1")
            assert cur.fetchall() == [("plain", "su-idxar-"), ("t1", "su-idxarn")]
            cur.execute("CREATE ROW TYPE gone_t (x INT)")
            cur.execute("SELECT extended_id FROM sysxtdtypes WHERE name = 'gone_t'")
            xid = cur.fetchone()[0]
            cur.execute("DROP ROW TYPE gone_t RESTRICT")  # its grants go with it
            cur.execute("SELECT COUNT(*) FROM sysxtdtypeauth WHERE type = ?", (xid,))
            assert cur.fetchone()[0] == 0


def test_null_in_a_primary_key_is_703(connect_kwargs: dict[str, Any]) -> None:
    """A NULL into a column that is NOT NULL only as part of the primary key is -703 naming
    the table (an 11.70 session in a Stack Overflow answer, question 11437845: SERIAL8
    PRIMARY KEY -703; SERIAL8 NOT NULL and a plain SERIAL8 -391, so a NULL into a SERIAL is
    refused, not numbered); a subtable's inherited key too; ALTER TABLE ADD CONSTRAINT
    PRIMARY KEY over NULL keys, of the table or of a subtable (was -391 / -999)."""
    with fresh_database(connect_kwargs, "ss_703") as conn:
        cur = conn.cursor()
        cases = [
            ("CREATE TABLE t1 (s8 SERIAL8 PRIMARY KEY, v1 CHAR(8) NOT NULL)",
             "INSERT INTO t1 (s8, v1) VALUES (NULL, 'works?')", -703, "t1"),
            ("CREATE TABLE t2 (s8 SERIAL8 NOT NULL, v1 CHAR(8) NOT NULL)",
             "INSERT INTO t2 (s8, v1) VALUES (NULL, 'works?')", -391, "s8"),
            ("CREATE TABLE t3 (s8 SERIAL8, v1 CHAR(8) NOT NULL)",
             "INSERT INTO t3 (s8, v1) VALUES (NULL, 'works?')", -391, "s8"),
            ("CREATE TABLE t4 (a INT, b INT, PRIMARY KEY (a, b))",
             "INSERT INTO t4 VALUES (1, NULL)", -703, "t4"),
            ("CREATE TABLE t5 (a INT NOT NULL, b INT, PRIMARY KEY (a))",
             "INSERT INTO t5 VALUES (NULL, 1)", -391, "a"),
        ]
        for ddl, dml, code, near in cases:
            cur.execute(ddl)
            with pytest.raises(ifxwire.IntegrityError) as info:
                cur.execute(dml)
            assert _code(info) == code, dml
            assert f"'{near}'" in str(info.value), dml
        cur.execute("INSERT INTO t3 (v1) VALUES ('next')")  # not given: the next value
        cur.execute("INSERT INTO t3 VALUES (0, 'next')")
        cur.execute("SELECT s8 FROM t3 ORDER BY 1")
        assert cur.fetchall() == [(1,), (2,)]
        cur.execute("INSERT INTO t4 VALUES (1, 1)")
        with pytest.raises(ifxwire.IntegrityError) as info:
            cur.execute("UPDATE t4 SET b = NULL")
        assert _code(info) == -703
        cur.execute("CREATE TABLE t6 (a INT, b INT)")
        cur.execute("INSERT INTO t6 VALUES (NULL, 1)")
        with pytest.raises(ifxwire.Error) as info:
            cur.execute("ALTER TABLE t6 ADD CONSTRAINT PRIMARY KEY (a)")
        assert _code(info) == -703 and "t6" in str(info.value)
        for stmt in TUTORIAL_TYPES:
            cur.execute(stmt)
        cur.execute("INSERT INTO employee VALUES (NULL, '1', 50000)")
        with pytest.raises(ifxwire.Error) as info:
            cur.execute("ALTER TABLE person ADD CONSTRAINT PRIMARY KEY (name)")
        assert _code(info) == -703 and "employee" in str(info.value)
        cur.execute("DELETE FROM employee")
        cur.execute("ALTER TABLE person ADD CONSTRAINT PRIMARY KEY (name)")
        with pytest.raises(ifxwire.IntegrityError) as info:  # the guard of an older subtable
            cur.execute("INSERT INTO employee VALUES (NULL, '1', 50000)")
        assert _code(info) == -703 and "employee" in str(info.value)


@pytest.mark.parametrize("row_locks", [True, False])
def test_deferred_foreign_keys_of_a_hierarchy_wait_for_commit(row_locks: bool) -> None:
    """SET CONSTRAINTS … DEFERRED defers the foreign keys that typed tables keep by triggers
    as it defers any other here: checked when the transaction commits, which rolls the
    transaction back when a row breaks one (Syntax, "Transaction-Level Checking",
    ids_sqs_0033); before, they were checked at once whatever the mode. A child row may
    precede its parent in a subtable; a parent may go before its children do."""
    from ifxwire.server import Server

    kw: dict[str, Any] = {"user": "informix", "password": "in4mix"}
    with Server(port=0, host="127.0.0.1", data=":memory:", row_locks=row_locks) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, autocommit=True, **kw) as conn:
            conn.cursor().execute("CREATE DATABASE dfk WITH LOG")
        with ifxwire.connect(host=srv.host, port=srv.port, database="dfk", **kw) as conn:
            cur = conn.cursor()
            cur.execute("CREATE ROW TYPE part_t (id INTEGER, name VARCHAR(20))")
            cur.execute("CREATE ROW TYPE bolt_t (size INTEGER) UNDER part_t")
            cur.execute("CREATE TABLE part OF TYPE part_t (PRIMARY KEY (id))")
            cur.execute("CREATE TABLE bolt OF TYPE bolt_t UNDER part")
            cur.execute("CREATE TABLE stock (part_id INTEGER REFERENCES part, n INTEGER)")
            conn.commit()
            cur.execute("SET CONSTRAINTS ALL DEFERRED")
            cur.execute("INSERT INTO stock VALUES (2, 20)")  # its parent comes next
            cur.execute("INSERT INTO bolt VALUES (2, 'M6', 6)")
            conn.commit()
            cur.execute("SELECT part_id FROM stock")
            assert cur.fetchall() == [(2,)]
            with pytest.raises(ifxwire.IntegrityError) as info:  # immediate again
                cur.execute("INSERT INTO stock VALUES (3, 1)")
            assert _code(info) == -691
            conn.rollback()
            cur.execute("SET CONSTRAINTS ALL DEFERRED")
            cur.execute("DELETE FROM part WHERE id = 2")  # its child goes next
            cur.execute("DELETE FROM stock WHERE part_id = 2")
            conn.commit()
            cur.execute("INSERT INTO bolt VALUES (4, 'M8', 8)")
            conn.commit()
            cur.execute("SET CONSTRAINTS ALL DEFERRED")
            cur.execute("INSERT INTO stock VALUES (4, 1)")
            cur.execute("INSERT INTO stock VALUES (5, 1)")  # no part 5 by COMMIT
            with pytest.raises(ifxwire.NotSupportedError) as info:  # still deferred
                cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
            assert _code(info) == -999
            with pytest.raises(ifxwire.Error) as info:
                conn.commit()
            assert _code(info) == -999
            cur.execute("SELECT COUNT(*) FROM stock")  # rolled back
            assert cur.fetchone()[0] == 0
            conn.rollback()
