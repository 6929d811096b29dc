"""superstores (modelled on IBM's superstores_demo) loads into ifxwire-server and answers as
the manuals describe typed tables, named ROW types and their inheritance.

Sources (docs/SERVER.md, "superstores_demo, typed tables and inheritance (issue 23)"): the
Reference's table list and hierarchies of superstores_demo (ids_sqr_354, ids_sqr_376) and its
SYSINHERITS page (ids_sqr_043); the Syntax guide's OF TYPE and UNDER clauses (ids_sqs_0099,
ids_sqs_0565, ids_sqs_0566), DROP ROW TYPE (ids_sqs_0729); the Database Design guide on
dropping types and tables of a hierarchy (ids_ddi_121, ids_ddi_318)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire

from .loader import CORPUS, run_script
from .manual import fresh_database

SUPERSTORES = CORPUS / "superstores"


@pytest.fixture(scope="module")
def superstores_db(connect_kwargs: dict[str, Any]) -> str:
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    try:
        conn.cursor().execute("CREATE DATABASE superstores WITH LOG")
        run_script(conn, SUPERSTORES / "schema.sql")
        run_script(conn, SUPERSTORES / "data.sql")
    finally:
        conn.close()
    return "superstores"


@pytest.fixture()
def ss(connect_kwargs: dict[str, Any], superstores_db: str) -> Iterator[ifxwire.Connection]:
    conn = ifxwire.connect(**connect_kwargs, database=superstores_db)
    try:
        yield conn
    finally:
        conn.rollback()
        conn.close()


@pytest.fixture()
def scratch(connect_kwargs: dict[str, Any], request: pytest.FixtureRequest,
            ) -> Iterator[ifxwire.Connection]:
    """A fresh unlogged database of its own, for DDL that must not touch superstores."""
    name = "ss_" + request.node.name.replace("test_", "")[:12]
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    conn.cursor().execute(f"CREATE DATABASE {name}")
    try:
        yield conn
    finally:
        conn.cursor().execute("DATABASE sysmaster")
        conn.cursor().execute(f"DROP DATABASE {name}")
        conn.close()


def _code(info: pytest.ExceptionInfo[ifxwire.Error]) -> int:
    return int(info.value.sqlcode)


def test_every_corpus_file_says_what_it_models() -> None:
    for path in SUPERSTORES.glob("*.sql"):
        assert "Models:" in path.read_text(encoding="utf-8"), path


def test_typed_tables_take_their_columns_from_the_row_type(ss: ifxwire.Connection) -> None:
    """ids_sqs_0099: a typed table's columns are its named ROW type's fields, in order."""
    cur = ss.cursor()
    cur.execute("SELECT * FROM customer WHERE customer_num = 1")
    assert [d[0] for d in cur.description] == [
        "customer_num", "customer_type", "customer_name", "customer_loc", "contact_dates",
        "credit_status"]
    row = cur.fetchone()
    assert row[0] == 1 and row[1] == "R"
    assert (row[2].first, row[2].last) == ("Ludwig", "Pauli")
    assert list(row[4]) == [dt.date(2026, 1, 5), dt.date(2026, 3, 17)]
    cur.execute("SELECT customer_name.last FROM customer ORDER BY 1")
    assert [r[0] for r in cur.fetchall()] == ["Currie", "Pauli", "Sadler"]


def test_typed_table_rows_and_collections(ss: ifxwire.Connection) -> None:
    cur = ss.cursor()
    cur.execute("SELECT COUNT(*) FROM location")
    assert cur.fetchone() == (3,)
    cur.execute("SELECT street_addr FROM location WHERE location_id = 2")
    assert list(cur.fetchone()[0]) == ["785 Geary St", "Suite 2"]
    cur.execute("SELECT CARDINALITY(sales_targets), states FROM region WHERE region_num = 1")
    n, states = cur.fetchone()
    assert n == 3 and set(states) == {"CA", "OR", "WA"}


def test_insert_into_typed_table_keeps_its_constraints(ss: ifxwire.Connection) -> None:
    """A field declared NOT NULL gives a NOT NULL column; the table's own constraints (primary
    key, foreign key, check in the OF TYPE clause's constraint list) hold."""
    cur = ss.cursor()
    cur.execute("INSERT INTO customer VALUES (0, 'R', ROW('Ann', 'Lee')::name_t, 1, "
                "LIST{'2026-04-01'}, 'A')")
    cur.execute("SELECT MAX(customer_num) FROM customer")
    assert cur.fetchone() == (4,)
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO customer (customer_num, customer_type) VALUES (0, NULL)")
    assert _code(info) == -391
    with pytest.raises(ifxwire.IntegrityError):
        cur.execute("INSERT INTO customer (customer_num, customer_type, customer_loc) "
                    "VALUES (0, 'R', 99)")
    with pytest.raises(ifxwire.IntegrityError):
        cur.execute("INSERT INTO customer (customer_num, customer_type) VALUES (0, 'X')")
    with pytest.raises(ifxwire.IntegrityError):
        cur.execute("INSERT INTO customer (customer_num, customer_type) VALUES (1, 'R')")


def test_catalogue_of_typed_tables_and_row_types(ss: ifxwire.Connection) -> None:
    """systables.type_xid names a typed table's ROW type (sysxtdtypes.extended_id), 0 for an
    untyped table; sysinherits has one row per subtype, class 't' for named ROW types
    (ids_sqr_043)."""
    cur = ss.cursor()
    cur.execute("SELECT t.tabname, x.name FROM systables t, sysxtdtypes x "
                "WHERE t.type_xid = x.extended_id AND t.tabid >= 100 ORDER BY 1")
    assert cur.fetchall() == [("customer", "customer_t"), ("location", "location_t")]
    cur.execute("SELECT type_xid FROM systables WHERE tabname = 'region'")
    assert cur.fetchone() == (0,)
    cur.execute("SELECT c.name, p.name, i.class FROM sysinherits i, sysxtdtypes c, "
                "sysxtdtypes p WHERE i.child = c.extended_id AND i.parent = p.extended_id "
                "ORDER BY 1")
    assert cur.fetchall() == [("loc_non_us_t", "location_t", "t"),
                              ("loc_us_t", "location_t", "t"),
                              ("retail_t", "customer_t", "t"),
                              ("whlsale_t", "customer_t", "t")]


# The Tutorial's hierarchy (ids_sqt_105): person_t > employee_t > sales_rep_t, one table each.
TUTORIAL_HIERARCHY = [
    "CREATE ROW TYPE person_t (name VARCHAR(30), soc_sec CHAR(9))",
    "CREATE ROW TYPE employee_t (salary INTEGER) UNDER person_t",
    "CREATE ROW TYPE sales_rep_t (rep_num SERIAL8, region_num INTEGER) UNDER employee_t",
    "CREATE TABLE person OF TYPE person_t",
    "CREATE TABLE employee OF TYPE employee_t UNDER person",
    "CREATE TABLE sales_rep OF TYPE sales_rep_t UNDER employee",
    "INSERT INTO person VALUES ('Rogers, J.', '454849344')",
    "INSERT INTO employee VALUES ('Sallie, A.', '348441214', 60000)",
    "INSERT INTO sales_rep VALUES ('Walker', '275129837', 50000, 0, 7)",
]


@pytest.fixture()
def hierarchy(scratch: ifxwire.Connection) -> ifxwire.Connection:
    cur = scratch.cursor()
    for stmt in TUTORIAL_HIERARCHY:
        cur.execute(stmt)
    return scratch


def test_select_on_supertable_reads_subtables_in_its_columns(
        hierarchy: ifxwire.Connection) -> None:
    """ids_sqt_106 / ids_sqs_1017: rows of the supertable and of its subtables, in the
    supertable's columns only; an alias works as for any table (ids_sqt_108)."""
    cur = hierarchy.cursor()
    cur.execute("SELECT * FROM person ORDER BY name")
    assert [d[0] for d in cur.description] == ["name", "soc_sec"]
    assert cur.fetchall() == [("Rogers, J.", "454849344"), ("Sallie, A.", "348441214"),
                              ("Walker", "275129837")]
    cur.execute("SELECT * FROM employee ORDER BY name")
    assert [d[0] for d in cur.description] == ["name", "soc_sec", "salary"]
    assert cur.fetchall() == [("Sallie, A.", "348441214", 60000),
                              ("Walker", "275129837", 50000)]
    cur.execute("SELECT p.name FROM person p WHERE p.soc_sec < '4' ORDER BY 1")
    assert cur.fetchall() == [("Sallie, A.",), ("Walker",)]
    cur.execute("SELECT COUNT(*) FROM person")
    assert cur.fetchone()[0] == 3


def test_only_limits_a_query_to_the_supertable(hierarchy: ifxwire.Connection) -> None:
    """ids_sqt_107 / ids_sqs_1017: FROM ONLY(person) reads person's own rows."""
    cur = hierarchy.cursor()
    cur.execute("SELECT * FROM ONLY(person)")
    assert cur.fetchall() == [("Rogers, J.", "454849344")]
    cur.execute("SELECT name FROM ONLY(employee)")
    assert cur.fetchall() == [("Sallie, A.",)]
    cur.execute("SELECT name FROM ONLY(sales_rep)")  # a table without subtables
    assert cur.fetchall() == [("Walker",)]


def test_update_and_delete_reach_subtables_unless_only(hierarchy: ifxwire.Connection) -> None:
    """UPDATE and DELETE on a supertable change its subtables' rows too; ONLY(...) limits
    them to the supertable (ids_sqs_0676, ids_sqt_211)."""
    cur = hierarchy.cursor()
    cur.execute("UPDATE person SET soc_sec = 'x' WHERE name <> 'Rogers, J.'")
    assert cur.rowcount == 2
    cur.execute("UPDATE ONLY(person) SET soc_sec = 'y'")
    assert cur.rowcount == 1
    cur.execute("SELECT name, soc_sec FROM person ORDER BY 1")
    assert cur.fetchall() == [("Rogers, J.", "y"), ("Sallie, A.", "x"), ("Walker", "x")]
    cur.execute("DELETE FROM ONLY(employee)")
    assert cur.rowcount == 1
    cur.execute("DELETE FROM person WHERE name = 'Walker'")
    assert cur.rowcount == 1
    cur.execute("SELECT name FROM person")
    assert cur.fetchall() == [("Rogers, J.",)]
    cur.execute("DELETE FROM person")
    assert cur.rowcount == 1


def test_catalogue_of_a_table_hierarchy(hierarchy: ifxwire.Connection) -> None:
    """sysinherits: one row per subtable, class 'T', child and parent systables.tabid; one
    per subtype, class 't', extended_ids (ids_sqr_043)."""
    cur = hierarchy.cursor()
    cur.execute("SELECT c.tabname, p.tabname FROM sysinherits i, systables c, systables p "
                "WHERE i.class = 'T' AND c.tabid = i.child AND p.tabid = i.parent ORDER BY 1")
    assert cur.fetchall() == [("employee", "person"), ("sales_rep", "employee")]
    cur.execute("SELECT COUNT(*) FROM sysinherits WHERE class = 't'")
    assert cur.fetchone()[0] == 2
    cur.execute("SELECT t.tabname FROM systables t, sysxtdtypes x WHERE t.type_xid = "
                "x.extended_id AND x.name = 'sales_rep_t'")
    assert cur.fetchall() == [("sales_rep",)]


def test_under_refusals(hierarchy: ifxwire.Connection) -> None:
    """UNDER needs an existing typed table (-206 for none), whose type is the new type's
    supertype (-9808), and no second table of one type in a hierarchy (ids_sqs_0099,
    ids_sqs_0566: -9975); codes and texts from the message catalogue in IBM's JDBC jar."""
    cur = hierarchy.cursor()
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("CREATE TABLE e2 OF TYPE employee_t UNDER nosuch")
    assert _code(info) == -206
    for stmt, code in (("CREATE TABLE e2 OF TYPE employee_t UNDER person", -9975),
                       ("CREATE TABLE e2 OF TYPE sales_rep_t UNDER person", -9808)):
        with pytest.raises(ifxwire.Error) as info:
            cur.execute(stmt)
        assert _code(info) == code
    cur.execute("CREATE TABLE plain (a INT)")
    with pytest.raises(ifxwire.NotSupportedError):
        cur.execute("CREATE TABLE e2 OF TYPE employee_t UNDER plain")


def test_drop_in_a_table_hierarchy(hierarchy: ifxwire.Connection) -> None:
    """A type that types a table is in use (-9990, ids_ddi_318); DROP TABLE of a supertable
    is CASCADE by default and drops its subtables too (ids_sqs_0738); RESTRICT fails for a
    supertable (ids_sqs_0739; code unknown, -999)."""
    cur = hierarchy.cursor()
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("DROP ROW TYPE sales_rep_t RESTRICT")
    assert _code(info) == -9990
    with pytest.raises(ifxwire.NotSupportedError):
        cur.execute("DROP TABLE employee RESTRICT")
    cur.execute("DROP TABLE employee")
    cur.execute("SELECT tabname FROM systables WHERE tabid >= 100")
    assert cur.fetchall() == [("person",)]
    cur.execute("SELECT COUNT(*) FROM sysinherits WHERE class = 'T'")
    assert cur.fetchone()[0] == 0
    cur.execute("SELECT * FROM person")
    assert cur.fetchall() == [("Rogers, J.", "454849344")]
    cur.execute("DROP ROW TYPE sales_rep_t RESTRICT")
    cur.execute("DROP ROW TYPE employee_t RESTRICT")


def test_of_type_with_unknown_type_or_column_list(scratch: ifxwire.Connection) -> None:
    """A name that is no type is -9628; OF TYPE declares no columns of its own
    (ids_sqs_0099: only multiple-column constraints may follow the type name)."""
    cur = scratch.cursor()
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("CREATE TABLE t OF TYPE nosuch_t")
    assert _code(info) == -9628
    cur.execute("CREATE ROW TYPE p_t (a INT, b CHAR(2))")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("CREATE TABLE t OF TYPE p_t (c INT)")
    assert _code(info) == -201


def test_drop_order_of_types_and_tables(scratch: ifxwire.Connection) -> None:
    """A named ROW type cannot be dropped while a table is typed by it or while it is the
    supertype of another (ids_sqs_0729, ids_ddi_121): -9990; drop the table first, then the
    subtypes, then the supertype (ids_ddi_318)."""
    cur = scratch.cursor()
    cur.execute("CREATE ROW TYPE person_t (name VARCHAR(30), soc_sec CHAR(9))")
    cur.execute("CREATE ROW TYPE employee_t (salary INTEGER) UNDER person_t")
    cur.execute("CREATE TABLE person OF TYPE person_t")
    cur.execute("INSERT INTO person VALUES ('Rogers, J.', '454849344')")
    for name in ("person_t", "employee_t"):
        if name == "employee_t":
            cur.execute("DROP TABLE person")
        with pytest.raises(ifxwire.Error) as info:
            cur.execute("DROP ROW TYPE person_t RESTRICT")
        assert _code(info) == -9990
        if name == "employee_t":
            cur.execute("DROP ROW TYPE employee_t RESTRICT")
    cur.execute("DROP ROW TYPE person_t RESTRICT")
    cur.execute("SELECT COUNT(*) FROM sysinherits")
    assert cur.fetchone() == (0,)


def test_corpus_has_every_kind_of_statement_the_brief_names() -> None:
    text = "\n".join(p.read_text(encoding="utf-8").lower()
                     for p in sorted(Path(SUPERSTORES).glob("*.sql")))
    for needle in (") under location_t", "of type customer_t", "under customer;",
                   "set(", "multiset(", "list("):
        assert needle in text, needle


def test_row_type_inheritance_alone(scratch: ifxwire.Connection) -> None:
    """Without any table: CREATE ROW TYPE ... UNDER records class 't' in sysinherits (a named
    ROW type; 'T' is a table, ids_sqr_043), and a supertype with a subtype is in use
    (ids_sqs_0729): -9990 until the subtype is dropped (ids_ddi_121)."""
    cur = scratch.cursor()
    cur.execute("CREATE ROW TYPE person_t (name VARCHAR(30))")
    cur.execute("CREATE ROW TYPE employee_t (salary INTEGER) UNDER person_t")
    cur.execute("SELECT class FROM sysinherits")
    assert cur.fetchall() == [("t",)]
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("DROP ROW TYPE person_t RESTRICT")
    assert _code(info) == -9990
    cur.execute("DROP ROW TYPE employee_t RESTRICT")
    cur.execute("DROP ROW TYPE person_t RESTRICT")


def test_what_a_supertable_would_pass_on_is_refused(hierarchy: ifxwire.Connection) -> None:
    """ALTER TABLE adds no column to a typed table (ids_sqs_0099). Constraints, indexes and
    triggers of a supertable (Select triggers too) are inherited
    (test_superstores_inherit.py)."""
    cur = hierarchy.cursor()
    with pytest.raises(ifxwire.NotSupportedError):
        cur.execute("ALTER TABLE sales_rep ADD (bonus INTEGER)")
    cur.execute("CREATE INDEX ix_rep ON sales_rep (region_num)")  # no subtables: allowed
    cur.execute("CREATE INDEX ix_person ON person (name)")


def test_truncate_of_a_supertable_empties_its_subtables(hierarchy: ifxwire.Connection) -> None:
    """TRUNCATE of a typed table removes its subtables' rows too; it has no ONLY (Tutorial,
    ids_sqt_206)."""
    cur = hierarchy.cursor()
    cur.execute("TRUNCATE employee")
    cur.execute("SELECT name FROM person")
    assert cur.fetchall() == [("Rogers, J.",)]
    cur.execute("SELECT COUNT(*) FROM ONLY(sales_rep)")
    assert cur.fetchone()[0] == 0


@pytest.mark.parametrize("ddl", ["TRUNCATE person", "DROP TABLE person"])
def test_ddl_on_a_supertable_rolls_back_with_its_subtables(connect_kwargs: dict[str, Any],
                                                           ddl: str) -> None:
    """TRUNCATE and DROP of a supertable change its subtables too: ROLLBACK WORK brings all of
    them back, rows included, with row locks (the server's default) as without."""
    with fresh_database(connect_kwargs, "ss_rb") as conn:
        cur = conn.cursor()
        for stmt in TUTORIAL_HIERARCHY:
            cur.execute(stmt)
        cur.execute("BEGIN WORK")
        cur.execute(ddl)
        cur.execute("ROLLBACK WORK")
        cur.execute("SELECT name FROM person ORDER BY 1")
        assert cur.fetchall() == [("Rogers, J.",), ("Sallie, A.",), ("Walker",)]
        cur.execute("SELECT COUNT(*) FROM ONLY(sales_rep)")
        assert cur.fetchone()[0] == 1


def test_a_prepared_query_on_a_supertable_sees_a_later_subtable(
        connect_kwargs: dict[str, Any], hierarchy: ifxwire.Connection) -> None:
    """A subtable created after a query on its supertable was prepared: the next run of that
    statement reads its rows too (the plan depends on the hierarchy, as on the columns)."""
    cur = hierarchy.cursor()
    sql = "SELECT name FROM person ORDER BY 1"
    cur.execute(sql)
    assert len(cur.fetchall()) == 3
    cur.execute("SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")
    name = cur.fetchone()[0].strip()
    with ifxwire.connect(**connect_kwargs, database=name, autocommit=True) as other:
        ocur = other.cursor()
        ocur.execute("CREATE ROW TYPE visitor_t (host VARCHAR(20)) UNDER person_t")
        ocur.execute("CREATE TABLE visitor OF TYPE visitor_t UNDER person")
        ocur.execute("INSERT INTO visitor VALUES ('Zed', '1', 'lab')")
    cur.execute(sql)
    assert cur.fetchall()[-1] == ("Zed",)


def test_row_type_rows_of_an_earlier_release_are_read_as_type_rows(tmp_path: Path) -> None:
    """An earlier release wrote CREATE ROW TYPE ... UNDER's sysinherits row with class 'T'
    (a table's, ids_sqr_043); such a database file is mended when opened, so UNDER finds the
    supertype and DROP ROW TYPE still refuses a supertype (-9990)."""
    import sqlite3

    from ifxwire.server import Server

    data = tmp_path / "data"
    kw: dict[str, Any] = {"user": "informix", "password": "in4mix", "autocommit": True}
    with Server(port=0, host="127.0.0.1", data=str(data)) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, **kw) as c:
            c.cursor().execute("CREATE DATABASE oldrt")
        with ifxwire.connect(host=srv.host, port=srv.port, database="oldrt", **kw) as c:
            c.cursor().execute("CREATE ROW TYPE a_t (x INT)")
            c.cursor().execute("CREATE ROW TYPE b_t (y INT) UNDER a_t")
            c.cursor().execute("CREATE TABLE a OF TYPE a_t")
    raw = sqlite3.connect(next(data.glob("oldrt*.ifxdb")))
    raw.execute("UPDATE sysinherits SET class = 'T' WHERE class = 't'")  # as it was written
    raw.commit()
    raw.close()
    with Server(port=0, host="127.0.0.1", data=str(data)) as srv, ifxwire.connect(
            host=srv.host, port=srv.port, database="oldrt", **kw) as c:
        cur = c.cursor()
        cur.execute("SELECT class FROM sysinherits")
        assert cur.fetchall() == [("t",)]
        cur.execute("CREATE TABLE b OF TYPE b_t UNDER a")
        with pytest.raises(ifxwire.Error) as info:
            cur.execute("DROP ROW TYPE a_t RESTRICT")
        assert _code(info) == -9990


def test_hierarchy_in_another_database(connect_kwargs: dict[str, Any],
                                       hierarchy: ifxwire.Connection) -> None:
    """db:supertable reads and changes that database's subtables, not same-named tables of
    the current database."""
    cur = hierarchy.cursor()
    cur.execute("SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")
    name = cur.fetchone()[0].strip()
    other = ifxwire.connect(**connect_kwargs, autocommit=True)
    ocur = other.cursor()
    ocur.execute("CREATE DATABASE ss_other")
    try:
        for table in ("person", "employee", "sales_rep"):  # same names, other rows
            ocur.execute(f"CREATE TABLE {table} (name VARCHAR(30), soc_sec CHAR(9))")
            ocur.execute(f"INSERT INTO {table} VALUES ('local {table}', '0')")
        ocur.execute(f"SELECT name FROM {name}:person ORDER BY 1")
        assert [r[0] for r in ocur.fetchall()] == ["Rogers, J.", "Sallie, A.", "Walker"]
        ocur.execute(f"UPDATE {name}:person SET soc_sec = '1'")
        assert ocur.rowcount == 3
        ocur.execute("SELECT COUNT(*) FROM person WHERE soc_sec = '0'")
        assert ocur.fetchone()[0] == 1
    finally:
        ocur.execute("DATABASE sysmaster")
        ocur.execute("DROP DATABASE ss_other")
        other.close()


def test_a_new_or_dropped_subtable_changes_what_a_repeated_query_reads(
        hierarchy: ifxwire.Connection) -> None:
    """Statements compiled before a subtable was added or dropped are not reused as they were
    (the server's and the driver's statement caches)."""
    cur = hierarchy.cursor()
    cur.execute("CREATE ROW TYPE boss_t (bonus INTEGER) UNDER sales_rep_t")
    for _ in range(2):
        cur.execute("SELECT COUNT(*) FROM person")
        assert cur.fetchone()[0] == 3
    cur.execute("CREATE TABLE boss OF TYPE boss_t UNDER sales_rep")
    cur.execute("INSERT INTO boss VALUES ('Grant', '1', 1, 0, 1, 5)")
    cur.execute("SELECT COUNT(*) FROM person")
    assert cur.fetchone()[0] == 4
    cur.execute("DROP TABLE boss")
    cur.execute("SELECT COUNT(*) FROM person")
    assert cur.fetchone()[0] == 3


def test_a_table_named_only_is_still_a_table(scratch: ifxwire.Connection) -> None:
    cur = scratch.cursor()
    cur.execute("CREATE TABLE only (a INTEGER)")
    cur.execute("INSERT INTO only (a) VALUES (1)")
    cur.execute("SELECT a FROM only")
    assert cur.fetchall() == [(1,)]
    cur.execute("SELECT a FROM ONLY(only)")
    assert cur.fetchall() == [(1,)]
