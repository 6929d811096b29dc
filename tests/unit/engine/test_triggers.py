"""Triggers run by the engine around INSERT/UPDATE/DELETE/SELECT, and INSTEAD OF on views."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ifxwire.server.engine import Engine

from .conftest import Sql, session_on


@pytest.fixture
def shop(db: Sql) -> Sql:
    db.run("create table item (id int primary key, qty int, price decimal(8,2))")
    db.run("create table audit (ev char(1), id int, old_qty int, new_qty int, who char(32))")
    for i in range(1, 4):
        db.run(f"insert into item values ({i}, {i * 10}, {i}.50)")
    return db


def test_update_of_columns_for_each_row_with_old_and_new(shop: Sql) -> None:
    shop.run("""CREATE TRIGGER item_upd UPDATE OF qty ON item REFERENCING OLD AS o NEW AS n
        FOR EACH ROW (INSERT INTO audit VALUES ('U', n.id, o.qty, n.qty, USER))""")
    assert shop.run("update item set qty = qty + 1 where id >= 2").rowcount == 2
    assert shop.rows("select ev, id, old_qty, new_qty, who from audit order by id") == [
        ("U", 2, 20, 21, "informix"), ("U", 3, 30, 31, "informix")]
    shop.run("update item set price = 0 where id = 1")  # not a column the trigger names
    assert shop.one("select count(*) from audit") == 2


def test_before_each_row_when_and_after_run_in_order(shop: Sql) -> None:
    shop.run("create table seq (n serial, what char(10))")
    shop.run("""CREATE TRIGGER item_del DELETE ON item REFERENCING OLD AS o
        BEFORE (INSERT INTO seq (what) VALUES ('before'))
        FOR EACH ROW WHEN (o.qty > 15) (INSERT INTO seq (what) VALUES ('row ' || o.id)),
                     WHEN (o.qty <= 15) (INSERT INTO seq (what) VALUES ('small'))
        AFTER (INSERT INTO seq (what) VALUES ('after'))""")
    assert shop.run("delete from item").rowcount == 3
    assert [r[0] for r in shop.rows("select what from seq order by n")] == [
        "before", "small", "row 2", "row 3", "after"]


def test_insert_trigger_calls_a_procedure_with_trigger_references(shop: Sql) -> None:
    shop.run("""CREATE PROCEDURE fill_price() REFERENCING NEW AS post FOR item;
        IF post.price IS NULL THEN LET post.price = post.qty * 2; END IF;
    END PROCEDURE""")
    shop.run("""CREATE TRIGGER item_ins INSERT ON item REFERENCING NEW AS n
        FOR EACH ROW (EXECUTE PROCEDURE fill_price() WITH TRIGGER REFERENCES)""")
    shop.run("insert into item (id, qty) values (9, 4)")
    shop.run("insert into item values (10, 4, 1.00)")
    assert shop.rows("select id, price from item where id >= 9 order by id") == [
        (9, Decimal("8.00")), (10, Decimal("1.00"))]
    assert shop.one("select mode from sysprocedures where procname = 'fill_price'") == "T"


def test_execute_procedure_into_sets_columns_of_the_row(shop: Sql) -> None:
    shop.run("CREATE FUNCTION tax(p DECIMAL(8,2)) RETURNING DECIMAL(8,2); "
             "RETURN p * 1.2; END FUNCTION")
    shop.run("""CREATE TRIGGER item_tax INSERT ON item REFERENCING NEW AS n
        FOR EACH ROW (EXECUTE FUNCTION tax(n.price) INTO price)""")
    shop.run("insert into item values (20, 1, 10.00)")
    assert shop.one("select price from item where id = 20") == Decimal("12.00")


def test_an_error_in_a_trigger_rolls_back_the_statement(shop: Sql) -> None:
    shop.run("CREATE PROCEDURE veto(q INT) IF q < 0 THEN "
             "RAISE EXCEPTION -746, 0, 'negative stock'; END IF; END PROCEDURE")
    shop.run("""CREATE TRIGGER item_chk UPDATE OF qty ON item REFERENCING NEW AS n
        BEFORE (INSERT INTO audit VALUES ('B', 0, 0, 0, 'before'))
        FOR EACH ROW (EXECUTE PROCEDURE veto(n.qty))""")
    e = shop.err("update item set qty = qty - 25")
    assert (e.sqlcode, e.near) == (-746, "negative stock")
    assert shop.rows("select qty from item order by id") == [(10,), (20,), (30,)]
    assert shop.one("select count(*) from audit") == 0  # the BEFORE action is undone too
    shop.s.begin()
    shop.run("insert into audit values ('X', 0, 0, 0, 'kept')")
    assert shop.err("update item set qty = -1 where id = 1").sqlcode == -746
    shop.s.commit()  # the transaction survives; only the failed statement was undone
    assert shop.rows("select ev from audit") == [("X",)]


def test_triggers_fire_for_dml_from_routines(shop: Sql) -> None:
    shop.run("""CREATE TRIGGER item_ins2 INSERT ON item REFERENCING NEW AS n
        FOR EACH ROW (INSERT INTO audit VALUES ('I', n.id, NULL, n.qty, 'trg'))""")
    shop.run("""CREATE PROCEDURE restock(n INT)
        DEFINE i INT;
        FOR i = 1 TO n INSERT INTO item VALUES (100 + i, i, 1.00); END FOR;
    END PROCEDURE""")
    shop.run("EXECUTE PROCEDURE restock(3)")
    assert shop.one("select count(*) from audit where ev = 'I'") == 3


def test_batched_inserts_fire_every_row(engine: Engine, shop: Sql) -> None:
    shop.run("""CREATE TRIGGER item_cnt INSERT ON item REFERENCING NEW AS n
        FOR EACH ROW (INSERT INTO audit VALUES ('I', n.id, NULL, n.qty, 'batch'))""")
    shop.s.begin()
    p = shop.s.prepare("insert into item values (?, ?, ?)")
    shop.run("insert into audit values ('-', 0, 0, 0, 'lock')")  # hold the write lock
    assert not shop.s.execute_batch(p, [[200 + i, i, Decimal(1)] for i in range(10)])
    for i in range(10):
        shop.s.execute(p, [200 + i, i, Decimal(1)])
    shop.s.commit()
    assert shop.one("select count(*) from audit where who = 'batch'") == 10


def test_cascading_triggers_stop_at_the_informix_limit(db: Sql) -> None:
    db.run("create table ping (n int)")
    # the routine first: a trigger's routine must exist when it is created (ids_sqs_0618)
    db.run("CREATE PROCEDURE bounce(n INT) INSERT INTO ping VALUES (n + 1); END PROCEDURE")
    db.run("""CREATE TRIGGER ping_again INSERT ON ping REFERENCING NEW AS x
        FOR EACH ROW (EXECUTE PROCEDURE bounce(x.n))""")
    e = db.err("insert into ping values (1)")
    assert e.sqlcode == -748
    assert db.one("select count(*) from ping") == 0


def test_instead_of_triggers_on_views(shop: Sql) -> None:
    shop.run("create view stock (id, qty) as select id, qty from item")
    shop.run("""CREATE TRIGGER stock_ins INSTEAD OF INSERT ON stock REFERENCING NEW AS n
        FOR EACH ROW (INSERT INTO item VALUES (n.id, n.qty, 0))""")
    shop.run("""CREATE TRIGGER stock_upd INSTEAD OF UPDATE ON stock
        REFERENCING OLD AS o NEW AS n
        FOR EACH ROW (UPDATE item SET qty = n.qty WHERE id = o.id)""")
    shop.run("""CREATE TRIGGER stock_del INSTEAD OF DELETE ON stock REFERENCING OLD AS o
        FOR EACH ROW (DELETE FROM item WHERE id = o.id)""")
    assert shop.run("insert into stock values (50, 5)").rowcount == 1
    assert shop.run("update stock set qty = qty * 10 where id >= 3").rowcount == 2
    assert shop.run("delete from stock where id = 1").rowcount == 1
    assert shop.rows("select id, qty from item order by id") == [(2, 20), (3, 300), (50, 50)]
    assert shop.rows("select event from systriggers where trigname like 'stock%' "
                     "order by trigname") == [("d",), ("i",), ("u",)]


def test_select_triggers_run_their_statement_actions(shop: Sql) -> None:
    shop.run("create table reads (n int)")
    shop.run("""CREATE TRIGGER item_sel SELECT ON item
        BEFORE (INSERT INTO reads VALUES (1)) AFTER (INSERT INTO reads VALUES (2))""")
    assert len(shop.rows("select * from item")) == 3
    assert shop.rows("select n from reads order by n") == [(1,), (2,)]


def test_select_trigger_for_each_row_actions(shop: Sql) -> None:
    """Guide to SQL: Tutorial, "Stand-alone SELECT statements" (the hits_trig example): a
    FOR EACH ROW action runs for each row instance the query returns, with OLD naming it;
    Syntax, "Circumstances When a Select Trigger Is Not Activated"."""
    shop.run("create table hits (id int, qty int, n serial)")
    shop.run("""CREATE TRIGGER hits_trig SELECT OF qty ON item REFERENCING OLD AS hit
        BEFORE (INSERT INTO hits (id) VALUES (0))
        FOR EACH ROW (INSERT INTO hits (id, qty) VALUES (hit.id, hit.qty))
        AFTER (INSERT INTO hits (id) VALUES (-1))""")

    def hits() -> list[tuple[object, ...]]:
        got = shop.rows("select id, qty from hits order by n")
        shop.run("delete from hits")
        return got

    # the hidden rowid is not part of the row; actions run as the rows are fetched
    assert shop.rows("select qty from item where id >= 2 order by id") == [(20,), (30,)]
    assert hits() == [(0, None), (2, 20), (3, 30), (-1, None)]
    assert shop.describe("select qty from item") == [("qty", 2, 4)]
    assert len(shop.rows("select * from item")) == 3
    assert len(hits()) == 5
    # a row joined twice runs the actions twice
    assert len(shop.rows("select i.qty from item i, item j where i.id = 1 and j.id <= 2")) == 2
    assert hits() == [(0, None), (1, 10), (1, 10), (-1, None)]
    # not activated: no triggering column projected, an aggregate, DISTINCT, a set
    # operator, the table only in a WHERE subquery, a derived table
    for sql in ("select id from item", "select max(qty) from item",
                "select distinct qty from item", "select qty from item union select 1 from item",
                "select id from audit where id in (select qty from item)",
                "select a.qty from (select qty from item) a"):
        shop.rows(sql)
        assert hits() == [], sql
    # a Select trigger's actions may not change the triggering table (-747)
    assert shop.err("CREATE TRIGGER bad SELECT ON item REFERENCING OLD AS o "
                    "FOR EACH ROW (DELETE FROM item WHERE id = o.id)").sqlcode == -747


def test_catalog_rows_and_drop(engine: Engine, shop: Sql) -> None:
    text = ("CREATE TRIGGER item_upd2 UPDATE ON item REFERENCING OLD AS pre NEW AS post\n"
            "    FOR EACH ROW (INSERT INTO audit VALUES ('U', post.id, pre.qty, post.qty, "
            "'x'))")
    shop.run(text)
    row = shop.rows("select t.trigname, t.event, t.old, t.new, s.tabname from systriggers t, "
                    "systables s where s.tabid = t.tabid")
    assert row == [("item_upd2", "U", "pre", "post", "item")]
    body = shop.rows("select datakey, data from systrigbody order by datakey desc, seqno")
    assert "".join(str(d) for _, d in body) == text
    assert [k for k, _ in body] == ["D", "A"]
    assert shop.err(text).sqlcode == -743
    other = session_on(engine, "testdb")
    other.run("update item set qty = 0 where id = 1")  # another session's DML fires it
    assert shop.one("select count(*) from audit") == 1
    other.s.close()
    shop.run("drop trigger item_upd2")
    assert shop.one("select count(*) from systriggers") == 0
    assert shop.err("drop trigger item_upd2").sqlcode == -634
    shop.run("""CREATE TRIGGER gone DELETE ON item BEFORE (DELETE FROM audit)""")
    shop.run("drop table item")
    assert shop.one("select count(*) from systriggers") == 0


def test_row_actions_may_not_modify_the_triggering_table(shop: Sql) -> None:
    e = shop.err("""CREATE TRIGGER loop_back UPDATE ON item REFERENCING NEW AS n
        FOR EACH ROW (UPDATE item SET qty = 0 WHERE id = n.id)""")
    assert e.sqlcode == -747
