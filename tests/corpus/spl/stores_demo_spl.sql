-- Models: the procedures and triggers of IBM's stores_demo database and of the Guide to SQL:
-- Tutorial chapter "Create and use triggers" (the upqty_i / up_price / log triggers on
-- items and stock, triggers that call SPL routines, WHEN conditions, REFERENCING OLD/NEW),
-- over a trimmed stores_demo schema (customer, orders, stock, items) with a few rows of its
-- data. The full stores_demo schema is the SQL corpus's (tests/corpus/stores_demo/); this
-- file creates only the columns its routines use. The statements are ours.

CREATE TABLE customer (customer_num SERIAL(101), fname CHAR(15), lname CHAR(15),
    company CHAR(20));
CREATE TABLE orders (order_num SERIAL(1001), order_date DATE, customer_num INTEGER,
    ship_charge MONEY(6), paid_date DATE);
CREATE TABLE stock (stock_num SMALLINT, manu_code CHAR(3), description CHAR(15),
    unit_price MONEY(6), unit CHAR(4), PRIMARY KEY (stock_num, manu_code));
CREATE TABLE items (item_num SMALLINT, order_num INTEGER, stock_num SMALLINT,
    manu_code CHAR(3), quantity SMALLINT, total_price MONEY(8));
CREATE TABLE warn_tab (stock_num SMALLINT, manu_code CHAR(3), old_price MONEY(6),
    new_price MONEY(6), changed_by CHAR(32));
CREATE TABLE log_record (item_num SMALLINT, ord_num INTEGER, username CHAR(32),
    old_qty SMALLINT, new_qty SMALLINT);

INSERT INTO customer VALUES (0, 'Ludwig', 'Pauli', 'All Sports Supplies');
INSERT INTO customer VALUES (0, 'Carole', 'Sadler', 'Sports Spot');
INSERT INTO stock VALUES (1, 'HRO', 'baseball gloves', 250.00, 'case');
INSERT INTO stock VALUES (1, 'HSK', 'baseball gloves', 800.00, 'case');
INSERT INTO stock VALUES (4, 'HSK', 'football', 960.00, 'case');
INSERT INTO stock VALUES (6, 'SMT', 'tennis ball', 36.00, 'case');

-- The price of a line, used by the items trigger and by add_item.
CREATE FUNCTION line_price(snum SMALLINT, mcode CHAR(3), qty SMALLINT) RETURNING MONEY(8);
    DEFINE p MONEY(6);
    SELECT unit_price INTO p FROM stock WHERE stock_num = snum AND manu_code = mcode;
    RETURN p * qty;
END FUNCTION;

-- stores_demo style order entry: a new order and its first item; the SERIAL comes back
-- through DBINFO('sqlca.sqlerrd1') after the INSERT.
CREATE FUNCTION add_order(cnum INT, snum SMALLINT, mcode CHAR(3), qty SMALLINT)
    RETURNING INT;
    DEFINE onum INT;
    IF NOT EXISTS (SELECT 1 FROM customer WHERE customer_num = cnum) THEN
        RAISE EXCEPTION -746, 0, 'no customer ' || cnum;
    END IF;
    INSERT INTO orders (order_num, order_date, customer_num, ship_charge)
        VALUES (0, '2024-05-20', cnum, 0);
    LET onum = DBINFO('sqlca.sqlerrd1');
    INSERT INTO items VALUES (1, onum, snum, mcode, qty, line_price(snum, mcode, qty));
    RETURN onum;
END FUNCTION;
EXECUTE FUNCTION add_order(101, 1, 'HRO', 2);
-- @rows: [(1001,)]
EXECUTE FUNCTION add_order(102, 6, 'SMT', 10);
-- @rows: [(1002,)]
EXECUTE FUNCTION add_order(999, 6, 'SMT', 1);
-- @error: -746 0
SELECT order_num, customer_num FROM orders ORDER BY 1;
-- @rows: [(1001, 101), (1002, 102)]

-- The tutorial's item triggers: a quantity change is logged with the user's name, and the
-- line total is recomputed for the row by a routine (EXECUTE FUNCTION ... INTO column).
CREATE TRIGGER upqty_i UPDATE OF quantity ON items
    REFERENCING OLD AS pre_upd NEW AS post_upd
    FOR EACH ROW
        (INSERT INTO log_record VALUES (pre_upd.item_num, pre_upd.order_num, USER,
            pre_upd.quantity, post_upd.quantity),
         EXECUTE FUNCTION line_price(post_upd.stock_num, post_upd.manu_code,
            post_upd.quantity) INTO total_price);
UPDATE items SET quantity = quantity + 1;
-- @count: 2
SELECT order_num, quantity, total_price FROM items ORDER BY 1;
-- @rows: [(1001, 3, Decimal('750.00')), (1002, 11, Decimal('396.00'))]
SELECT ord_num, username, old_qty, new_qty FROM log_record ORDER BY 1;
-- @rows: [(1001, 'informix', 2, 3), (1002, 'informix', 10, 11)]

-- The tutorial's price watch: only increases of more than 100% are recorded.
CREATE TRIGGER up_price UPDATE OF unit_price ON stock
    REFERENCING OLD AS pre NEW AS post
    FOR EACH ROW WHEN (post.unit_price > pre.unit_price * 2)
        (INSERT INTO warn_tab VALUES (pre.stock_num, pre.manu_code, pre.unit_price,
            post.unit_price, USER));
UPDATE stock SET unit_price = unit_price * 2.5 WHERE stock_num = 1;
UPDATE stock SET unit_price = unit_price * 1.5 WHERE stock_num = 4;
SELECT stock_num, manu_code, old_price, new_price FROM warn_tab ORDER BY 2;
-- @rows: [(1, 'HRO', Decimal('250.00'), Decimal('625.00')), (1, 'HSK', Decimal('800.00'), Decimal('2000.00'))]

-- A trigger that calls a procedure with the row: a shipment charge for new orders.
CREATE PROCEDURE ship_rule() REFERENCING NEW AS n FOR orders;
    IF n.ship_charge IS NULL OR n.ship_charge = 0 THEN
        LET n.ship_charge = 15.00;
    END IF;
END PROCEDURE;
CREATE TRIGGER ins_order INSERT ON orders REFERENCING NEW AS new_ord
    FOR EACH ROW (EXECUTE PROCEDURE ship_rule() WITH TRIGGER REFERENCES);
EXECUTE FUNCTION add_order(101, 4, 'HSK', 1);
-- @rows: [(1003,)]
INSERT INTO orders (order_num, order_date, customer_num, ship_charge)
    VALUES (0, '2024-05-21', 102, 42.50);
SELECT order_num, ship_charge FROM orders WHERE order_num > 1002 ORDER BY 1;
-- @rows: [(1003, Decimal('15.00')), (1004, Decimal('42.50'))]

-- Statement triggers: BEFORE and AFTER actions run once, even for no rows.
CREATE TABLE del_audit (what CHAR(10), n INT);
CREATE TRIGGER del_items DELETE ON items
    BEFORE (INSERT INTO del_audit VALUES ('before', (SELECT COUNT(*) FROM items)))
    AFTER (INSERT INTO del_audit VALUES ('after', (SELECT COUNT(*) FROM items)));
DELETE FROM items WHERE order_num = 1001;
-- @count: 1
DELETE FROM items WHERE order_num = 9999;
-- @count: 0
SELECT what, n FROM del_audit;
-- @rows: [('before', 3), ('after', 2), ('before', 2), ('after', 2)]

-- A per-customer summary streamed from a cursor loop.
CREATE FUNCTION order_summary(cnum INT) RETURNING INT, INT, MONEY(8);
    DEFINE onum, nitems INT;
    DEFINE total MONEY(8);
    FOREACH SELECT order_num INTO onum FROM orders WHERE customer_num = cnum
            ORDER BY order_num
        SELECT COUNT(*), NVL(SUM(total_price), 0) INTO nitems, total FROM items
            WHERE order_num = onum;
        RETURN onum, nitems, total WITH RESUME;
    END FOREACH;
END FUNCTION;
EXECUTE FUNCTION order_summary(101);
-- @rows: [(1001, 0, Decimal('0.00')), (1003, 1, Decimal('1440.00'))]

-- An error raised by a trigger's routine undoes the whole statement.
CREATE PROCEDURE no_free_goods(price MONEY(8))
    IF price <= 0 THEN RAISE EXCEPTION -746, 0, 'items must have a price'; END IF;
END PROCEDURE;
CREATE TRIGGER chk_items INSERT ON items REFERENCING NEW AS n
    FOR EACH ROW (EXECUTE PROCEDURE no_free_goods(n.total_price));
INSERT INTO items SELECT 2, order_num, 6, 'SMT', 1, 0 FROM orders;
-- @error: -746 0
SELECT COUNT(*) FROM items;
-- @rows: [(Decimal('2'),)]
SELECT trigname, event FROM systriggers ORDER BY trigname;
-- @rows: [('chk_items', 'I'), ('del_items', 'D'), ('ins_order', 'I'), ('up_price', 'U'), ('upqty_i', 'U')]
