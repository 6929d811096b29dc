"""INSERT, UPDATE and DELETE through views (engine/views.py): simple views write to their base
table, WITH CHECK OPTION refuses rows the view would not show (-385), other views -384."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ifxwire.server.engine import Engine

from .conftest import Sql, codes


@pytest.fixture
def t(db: Sql) -> Sql:
    db.run("CREATE TABLE item (id SERIAL, name CHAR(10), price MONEY(8,2), cat INT)")
    for name, price, cat in (("a", 1, 1), ("b", 20, 1), ("c", 300, 2)):
        db.run("INSERT INTO item (name, price, cat) VALUES (?, ?, ?)", name, price, cat)
    db.run("CREATE VIEW cheap AS SELECT id, name, price FROM item WHERE price < 100 "
           "WITH CHECK OPTION")
    db.run("CREATE VIEW doubled (ident, nm, dbl) AS SELECT id, name, price * 2 FROM item "
           "WHERE cat = 1")
    return db


def _items(t: Sql) -> list[tuple[object, ...]]:
    return t.rows("SELECT id, name, price, cat FROM item ORDER BY id")


def test_insert_update_delete_reach_the_base_table(t: Sql) -> None:
    assert t.run("INSERT INTO cheap (name, price) VALUES ('d', 5)").rowcount == 1
    assert t.rows("SELECT id, name FROM cheap ORDER BY id")[-1] == (4, "d")  # serial given
    assert t.run("UPDATE cheap SET price = price + 1 WHERE name = 'a'").rowcount == 1
    # only the rows the view shows: c (300) is not touched
    assert t.run("UPDATE cheap SET name = 'z'").rowcount == 3
    assert t.run("DELETE FROM doubled WHERE dbl > 30").rowcount == 1  # b (20 * 2)
    assert _items(t) == [(1, "z", Decimal("2.00"), 1), (3, "c", Decimal("300.00"), 2),
                         (4, "z", Decimal("5.00"), None)]
    # an alias on the view, and a view column named in SET and WHERE
    t.run("UPDATE doubled x SET x.nm = 'q' WHERE x.ident = 1")
    assert t.one("SELECT name FROM item WHERE id = 1") == "q"


def test_with_check_option(t: Sql) -> None:
    before = _items(t)
    assert codes(t.err("INSERT INTO cheap (name, price) VALUES ('e', 500)")) == (-385, 0)
    assert codes(t.err("UPDATE cheap SET price = 1000 WHERE name = 'a'"))[0] == -385
    assert codes(t.err("INSERT INTO cheap (name) VALUES ('n')"))[0] == -385  # NULL price
    assert _items(t) == before  # the statement left nothing behind
    # the text kept in sysviews names the option, as Informix keeps the whole statement
    assert "with check option" in "".join(r[0] for r in t.rows(
        "SELECT viewtext FROM sysviews v, systables t WHERE v.tabid = t.tabid "
        "AND t.tabname = 'cheap' ORDER BY seqno"))


def test_view_on_view_checks_the_views_below(t: Sql) -> None:
    t.run("CREATE VIEW named AS SELECT id, name FROM cheap WHERE name <> 'x'")
    t.run("UPDATE named SET name = 'y' WHERE id = 2")
    assert t.one("SELECT name FROM item WHERE id = 2") == "y"
    assert t.run("DELETE FROM named WHERE id = 3").rowcount == 0  # c is not in cheap
    # cheap's check option applies to a row written through a view built on it
    assert codes(t.err("INSERT INTO named (name) VALUES ('w')"))[0] == -385
    t.run("CREATE VIEW star AS SELECT * FROM item WHERE cat = 2 WITH CHECK OPTION")
    t.run("INSERT INTO star VALUES (0, 'k', 7, 2)")
    assert codes(t.err("INSERT INTO star VALUES (0, 'k', 7, 3)"))[0] == -385


@pytest.mark.parametrize("view", [
    "SELECT i.id, j.name FROM item i, item j WHERE i.id = j.id",
    "SELECT id, name FROM item UNION SELECT id, name FROM item",
    "SELECT DISTINCT id, name FROM item",
    "SELECT UNIQUE id, name FROM item",
    "SELECT cat id, COUNT(*) name FROM item GROUP BY cat",
    "SELECT MAX(id) id, MAX(name) name FROM item",
])
def test_non_simple_views_are_refused(t: Sql, view: str) -> None:
    t.run(f"CREATE VIEW nv (id, name) AS {view}")
    for sql in ("INSERT INTO nv VALUES (9, 'x')", "UPDATE nv SET name = 'x'",
                "DELETE FROM nv WHERE id = 1"):
        assert codes(t.err(sql))[0] == -384, sql


def test_derived_columns(t: Sql) -> None:
    assert codes(t.err("INSERT INTO doubled (ident, nm) VALUES (9, 'x')"))[0] == -384
    assert codes(t.err("UPDATE doubled SET dbl = 5"))[0] == -384
    assert t.run("UPDATE doubled SET nm = 'r' WHERE dbl = 2").rowcount == 1
    assert codes(t.err("UPDATE doubled SET nosuch = 1"))[0] == -217


def test_instead_of_trigger_takes_precedence(t: Sql) -> None:
    t.run("CREATE TABLE log (what CHAR(10))")
    t.run("CREATE TRIGGER cheap_ins INSTEAD OF INSERT ON cheap REFERENCING NEW AS n "
          "FOR EACH ROW (INSERT INTO log VALUES (n.name))")
    t.run("INSERT INTO cheap (name, price) VALUES ('big', 999)")  # no check: the trigger runs
    assert t.rows("SELECT what FROM log") == [("big",)]
    assert t.one("SELECT COUNT(*) FROM item") == 3


def test_base_table_triggers_fire(t: Sql) -> None:
    t.run("CREATE TABLE audit (id INT, price MONEY(8,2))")
    t.run("CREATE TRIGGER item_upd UPDATE OF price ON item REFERENCING NEW AS n "
          "FOR EACH ROW (INSERT INTO audit VALUES (n.id, n.price))")
    t.run("UPDATE cheap SET price = 3 WHERE id = 1")
    assert t.rows("SELECT * FROM audit") == [(1, Decimal("3.00"))]
    assert codes(t.err("UPDATE cheap SET price = 500 WHERE id = 1"))[0] == -385
    assert t.rows("SELECT * FROM audit") == [(1, Decimal("3.00"))]  # rolled back with it


def test_privileges_are_the_views(t: Sql, engine: Engine) -> None:
    t.run("REVOKE ALL ON item FROM public")
    t.run("REVOKE ALL ON cheap FROM public")
    joe = engine.session("joe", {})
    joe.open_database("testdb")
    j = Sql(joe)
    assert codes(j.err("INSERT INTO cheap (name, price) VALUES ('j', 1)"))[0] == -275
    t.run("GRANT INSERT, SELECT ON cheap TO joe")
    j.run("INSERT INTO cheap (name, price) VALUES ('j', 1)")  # no privilege on item needed
    assert codes(j.err("DELETE FROM cheap"))[0] == -274
    assert codes(j.err("SELECT * FROM item"))[0] == -272
    joe.close()


def test_view_column_list_of_another_length_is_382(db: Sql) -> None:
    """The catalogue's code for a view whose column list and SELECT list differ (was -236)."""
    db.run("CREATE TABLE vc (a INT, b INT)")
    assert codes(db.err("CREATE VIEW vc2 (x) AS SELECT a, b FROM vc"))[0] == -382
