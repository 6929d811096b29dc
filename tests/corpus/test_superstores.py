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

from .loader import CORPUS, run_script, statements

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


def test_table_hierarchies_are_refused(ss: ifxwire.Connection) -> None:
    """CREATE TABLE ... UNDER (ids_sqs_0565) makes SELECT/UPDATE/DELETE on the supertable
    reach the subtables (ids_sqs_1017, ids_sqs_0676): not built, so refused (-999) rather
    than made a table the supertable does not see."""
    cur = ss.cursor()
    for stmt in statements((SUPERSTORES / "hierarchy.sql").read_text(encoding="utf-8")):
        with pytest.raises(ifxwire.NotSupportedError) as info:
            cur.execute(stmt)
        assert _code(info) == -999


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
