"""Regression tests for the dialect defects of issue 12 (each failed before its fix)."""

from __future__ import annotations

import datetime as dt

from ifxwire.protocol.codes import TypeCode as T

from .conftest import Sql, codes


def test_case_is_typed_from_all_branches(db: Sql) -> None:
    db.run("CREATE TABLE m (code CHAR(3))")
    db.run("INSERT INTO m VALUES ('HRO')")
    db.run("INSERT INTO m VALUES ('PRC')")
    sql = ("SELECT CASE WHEN code = 'HRO' THEN 'Hero' ELSE 'ProCycle' END FROM m "
           "ORDER BY code")
    assert db.describe(sql) == [("(expression)", T.CHAR, 8)]
    assert db.rows(sql) == [("Hero",), ("ProCycle",)]
    # numbers: the widest branch wins
    assert db.describe("SELECT CASE WHEN code = 'HRO' THEN 1 ELSE 2.75 END FROM m")[0][1] == (
        T.DECIMAL)
    # a varying branch makes the result varying
    db.run("CREATE TABLE v (s VARCHAR(20))")
    assert db.describe("SELECT CASE WHEN 1 = 1 THEN 'ab' ELSE s END FROM v")[0][1:] == (
        T.VARCHAR, 20)
    assert db.describe("SELECT NVL(s, 'a much longer default text') FROM v")[0][1:] == (
        T.VARCHAR, 26)


def test_doubled_quotes_in_literals(db: Sql) -> None:
    db.run("CREATE TABLE q (s VARCHAR(20))")
    db.run("INSERT INTO q VALUES ('it''s')")
    db.run('INSERT INTO q VALUES ("a""b")')
    db.run("""INSERT INTO q VALUES ('say "hi"')""")
    db.run('''INSERT INTO q VALUES ("it's")''')
    assert db.rows("SELECT s FROM q") == [("it's",), ('a"b',), ('say "hi"',), ("it's",)]


def test_doubled_quotes_in_delimited_identifiers(open_db) -> None:  # type: ignore[no-untyped-def]
    db = open_db("logged", {"DELIMIDENT": "y"})
    db.run('CREATE TABLE "a""b" (x INT)')
    db.run('INSERT INTO "a""b" VALUES (1)')
    assert db.rows('SELECT x FROM "a""b"') == [(1,)]
    assert db.one("SELECT tabname FROM systables WHERE tabid >= 100") == 'a"b'


def test_undelimited_names_fold_to_lower_case(db: Sql) -> None:
    db.run("CREATE TABLE US_States (Code CHAR(2), SName CHAR(15))")
    db.run("INSERT INTO us_states VALUES ('CA', 'California')")
    db.run("INSERT INTO US_STATES (CODE, sname) VALUES ('OR', 'Oregon')")
    assert db.rows("SELECT code FROM Us_States ORDER BY CODE") == [("CA",), ("OR",)]
    assert db.one("SELECT tabname FROM systables WHERE tabid >= 100") == "us_states"
    db.run("CREATE INDEX IX_Code ON US_States (Code)")
    db.run("DROP INDEX ix_code")
    db.run("CREATE VIEW My_View AS SELECT Code FROM US_States")
    assert db.rows("SELECT COUNT(*) FROM MY_VIEW") == [(2,)]
    db.run("ALTER TABLE US_STATES ADD (Capital CHAR(20))")
    db.run("UPDATE us_states SET CAPITAL = 'Sacramento' WHERE code = 'CA'")
    assert db.one("SELECT capital FROM US_States WHERE CODE = 'CA'") == "Sacramento"
    db.run("DROP VIEW MY_VIEW")
    db.run("DROP TABLE Us_States")


def test_delimited_names_keep_case(open_db) -> None:  # type: ignore[no-untyped-def]
    db = open_db("logged", {"DELIMIDENT": "y"})
    db.run('CREATE TABLE "US_States" ("Code" CHAR(2))')
    db.run('INSERT INTO "US_States" VALUES (\'CA\')')
    assert db.rows('SELECT "Code" FROM "US_States"') == [("CA",)]
    assert codes(db.err("SELECT * FROM us_states")) == (-206, -111)


def test_owner_qualified_constraint_names(db: Sql) -> None:
    """dbschema prints every constraint as ``constraint "owner".name``."""
    db.run('CREATE TABLE "burnetg".t1 (a INT, b INT, constraint "burnetg".n100_1 check (b > 0),'
           ' primary key (a) constraint "burnetg".n100_2)')
    db.run('CREATE TABLE "burnetg".t2 (a INT, unique (a) constraint "burnetg".u101_3)')
    db.run('ALTER TABLE "burnetg".t2 ADD CONSTRAINT (FOREIGN KEY (a) REFERENCES '
           '"burnetg".t1 constraint "burnetg".r101_4)')
    names = db.rows("SELECT constrname, owner FROM sysconstraints ORDER BY constrname")
    assert [(n, o.rstrip()) for n, o in names] == [
        ("n100_1", "burnetg"), ("n100_2", "burnetg"), ("r101_4", "burnetg"),
        ("u101_3", "burnetg")]
    assert db.one("SELECT owner FROM systables WHERE tabname = 't1'").rstrip() == "burnetg"
    db.run("INSERT INTO burnetg.t1 VALUES (1, 1)")
    db.run('INSERT INTO "burnetg".t2 VALUES (1)')
    assert codes(db.err("INSERT INTO t2 VALUES (2)"))[0] == -691
    assert codes(db.err("SELECT * FROM someoneelse.t1")) == (-206, -111)


def test_owner_qualified_type_names(db: Sql) -> None:
    """dbexport prints built-in opaque types owner-qualified: ``"informix".boolean``."""
    db.run('CREATE TABLE b (f "informix".boolean, l "informix".lvarchar(300), '
           'g informix.boolean)')
    db.run("CREATE TABLE plain (f boolean, l lvarchar(300), g boolean)")
    assert db.describe("SELECT * FROM b") == db.describe("SELECT * FROM plain")
    assert codes(db.err('CREATE TABLE b2 (f "informix".nosuchtype)'))[0] == -9628
    assert codes(db.err("CREATE TABLE b2 (f nosuchtype)"))[0] == -9628


def test_grant_and_revoke_need_the_table(db: Sql) -> None:
    assert codes(db.err("GRANT SELECT ON nosuch TO public")) == (-206, -111)
    assert codes(db.err("REVOKE SELECT ON nosuch FROM public")) == (-206, -111)
    db.run("CREATE TABLE g (a INT)")
    db.run("GRANT SELECT ON g TO public")
    db.run("REVOKE SELECT ON g FROM public")


def test_hex_of_integers(db: Sql) -> None:
    assert db.one("SELECT HEX(255) FROM systables WHERE tabid = 1") == "0x000000FF"
    assert db.one("SELECT HEX(-1) FROM systables WHERE tabid = 1") == "0xFFFFFFFF"
    assert db.one("SELECT HEX(tabid) FROM systables WHERE tabid = 2") == "0x00000002"
    assert db.one("SELECT HEX(4294967296) FROM systables WHERE tabid = 1") == (
        "0x0000000100000000")
    assert db.one("SELECT HEX(NULL::INT) FROM systables WHERE tabid = 1") is None


def test_default_current_with_fraction(db: Sql) -> None:
    db.run("CREATE TABLE d (a INT, t DATETIME YEAR TO FRACTION(3) "
           "DEFAULT CURRENT YEAR TO FRACTION(3))")
    db.run("CREATE TABLE d2 (a INT, t DATETIME HOUR TO SECOND DEFAULT CURRENT HOUR TO SECOND)")
    db.run("INSERT INTO d (a) VALUES (1)")
    value = db.one("SELECT t FROM d")
    assert isinstance(value, dt.datetime) and value.microsecond % 1000 == 0
