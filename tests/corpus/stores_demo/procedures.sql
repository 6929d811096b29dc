-- stores_demo's routines and triggers, as our corpus has them.
--
-- Models: the SPL routines and triggers the Informix Guide to SQL: Tutorial builds on
-- stores_demo (chapters "Create and use SPL routines" and "Create and use triggers":
-- read_address, the upqty_i trigger that logs quantity changes of items and reprices the
-- line, the up_price trigger that records price increases of more than 100% in warn_tab, a
-- trigger routine that fills a column of the new row), order entry with the SERIAL read back
-- through DBINFO('sqlca.sqlerrd1'), a cursor loop that reprices a manufacturer's stock WHERE
-- CURRENT OF, statement-level BEFORE/AFTER actions, an INSTEAD OF trigger on custview, and a
-- trigger whose routine rejects a row so that the whole INSERT is undone. The statements
-- are ours; they run on a fresh copy of schema.sql + data.sql (tests/corpus/test_spl_corpus.py
-- checks each `-- @rows` / `-- @count` / `-- @error` line; the loader skips them).

create procedure read_address (lastname char(15))
    returning char(15), char(15), char(20), char(15), char(2), char(5);
    define p_fname, p_city char(15);
    define p_add char(20);
    define p_state char(2);
    define p_zip char(5);
    select fname, address1, city, state, zipcode
        into p_fname, p_add, p_city, p_state, p_zip
        from customer
        where lname = lastname;
    return p_fname, lastname, p_add, p_city, p_state, p_zip;
end procedure
document 'This procedure takes the last name of a customer as',
    'its only argument. It returns the full name and address.';
execute procedure read_address('Currie');
-- @rows: [('Philip', 'Currie', '654 Poplar', 'Palo Alto', 'CA', '94303')]

-- the price of an order line, used by order entry and by the items trigger
create function line_price(snum smallint, mcode char(3), qty smallint) returning money(8,2);
    define p money(6,2);
    select unit_price into p from stock where stock_num = snum and manu_code = mcode;
    return p * qty;
end function;

create function add_order(cnum integer, snum smallint, mcode char(3), qty smallint)
    returning integer;
    define onum integer;
    if not exists (select 1 from customer where customer_num = cnum) then
        raise exception -746, 0, 'no customer ' || cnum;
    end if;
    insert into orders (order_num, order_date, customer_num, ship_charge)
        values (0, '2024-05-20', cnum, 0);
    let onum = dbinfo('sqlca.sqlerrd1');
    insert into items values (1, onum, snum, mcode, qty, line_price(snum, mcode, qty));
    return onum;
end function;
execute function add_order(101, 6, 'SMT', 2);
-- @rows: [(1024,)]
select o.customer_num, i.stock_num, i.quantity, i.total_price
    from orders o, items i where o.order_num = i.order_num and o.order_num = 1024;
-- @rows: [(101, 6, 2, Decimal('72.00'))]
execute function add_order(999, 6, 'SMT', 1);
-- @error: -746 0
select count(*) from orders;
-- @rows: [(Decimal('24'),)]

-- Higgins' orders, one row each, streamed from the routine.
create function order_summary(cnum integer) returning integer, integer, money(8,2);
    define onum, nitems integer;
    define total money(8,2);
    foreach select order_num into onum from orders where customer_num = cnum
            order by order_num
        select count(*), nvl(sum(total_price), 0) into nitems, total from items
            where order_num = onum;
        return onum, nitems, total with resume;
    end foreach;
end function;
execute function order_summary(104);
-- @rows: [(1001, 1, Decimal('250.00')), (1003, 3, Decimal('959.00')), (1011, 1, Decimal('99.00')), (1013, 4, Decimal('143.80'))]

-- The tutorial's items trigger: log the change, reprice the line for the new quantity.
create table log_record (item_num smallint, ord_num integer, username char(32),
    old_qty smallint, new_qty smallint);
create trigger upqty_i update of quantity on items
    referencing old as pre_upd new as post_upd
    for each row
        (insert into log_record values (pre_upd.item_num, pre_upd.order_num, user,
            pre_upd.quantity, post_upd.quantity),
         execute function line_price(post_upd.stock_num, post_upd.manu_code,
            post_upd.quantity) into total_price);
update items set quantity = quantity + 1 where order_num = 1004;
-- @count: 4
select item_num, quantity, total_price from items where order_num = 1004 order by 1;
-- @rows: [(1, 2, Decimal('500.00')), (2, 2, Decimal('252.00')), (3, 2, Decimal('480.00')), (4, 2, Decimal('1600.00'))]
select count(*), min(old_qty), max(new_qty), max(username) from log_record;
-- @rows: [(Decimal('4'), 1, 2, 'informix')]
update items set total_price = 0 where order_num = 1004;
select count(*) from log_record;
-- @rows: [(Decimal('4'),)]

-- The tutorial's price watch: increases of more than 100% are recorded.
create table warn_tab (stock_num smallint, manu_code char(3), old_price money(6,2),
    new_price money(6,2), changed_by char(32));
create trigger up_price update of unit_price on stock
    referencing old as pre new as post
    for each row when (post.unit_price > pre.unit_price * 2)
        (insert into warn_tab values (pre.stock_num, pre.manu_code, pre.unit_price,
            post.unit_price, user));
update stock set unit_price = unit_price * 2.5 where manu_code = 'HRO' and stock_num <= 2;
-- @count: 2
select stock_num, manu_code, old_price, new_price from warn_tab order by 1;
-- @rows: [(1, 'HRO', Decimal('250.00'), Decimal('625.00')), (2, 'HRO', Decimal('126.00'), Decimal('315.00'))]

-- Reprice one manufacturer's stock in a cursor loop, row by row (WHERE CURRENT OF); the
-- price watch fires for each row and records none of these 10% rises.
create procedure raise_prices(mcode char(3), pct decimal(5,2))
    define snum smallint;
    define price money(6,2);
    foreach price_cursor for
        select stock_num, unit_price into snum, price from stock where manu_code = mcode
        update stock set unit_price = price * (1 + pct / 100) where current of price_cursor;
    end foreach;
end procedure;
execute procedure raise_prices('ANZ', 10);
select count(*), sum(unit_price) from stock where manu_code = 'ANZ';
-- @rows: [(Decimal('11'), Decimal('2164.58'))]
select count(*) from warn_tab;
-- @rows: [(Decimal('2'),)]

-- A trigger routine: new orders without a shipping charge get the flat rate.
create procedure ship_rule() referencing new as n for orders;
    if n.ship_charge is null or n.ship_charge = 0 then
        let n.ship_charge = 15.00;
    end if;
end procedure;
create trigger ins_order insert on orders referencing new as new_ord
    for each row (execute procedure ship_rule() with trigger references);
insert into orders (order_num, order_date, customer_num) values (0, '2024-05-21', 105);
insert into orders (order_num, order_date, customer_num, ship_charge)
    values (0, '2024-05-21', 106, 42.50);
execute function add_order(102, 5, 'ANZ', 3);
-- @rows: [(1027,)]
select order_num, customer_num, ship_charge from orders where order_num > 1024 order by 1;
-- @rows: [(1025, 105, Decimal('15.00')), (1026, 106, Decimal('42.50')), (1027, 102, Decimal('15.00'))]
select total_price from items where order_num = 1027;
-- @rows: [(Decimal('65.34'),)]

-- Statement actions run once, even when no row is deleted.
create table del_audit (what char(10), n integer);
create trigger del_items delete on items
    before (insert into del_audit values ('before', (select count(*) from items)))
    after (insert into del_audit values ('after', (select count(*) from items)));
delete from items where order_num = 1024;
-- @count: 1
delete from items where order_num = 9999;
-- @count: 0
select what, n from del_audit;
-- @rows: [('before', 69), ('after', 68), ('before', 68), ('after', 68)]

-- custview is WITH CHECK OPTION; an INSTEAD OF trigger decides what an UPDATE of it means.
create trigger custview_upd instead of update on custview
    referencing old as o new as n
    for each row (update customer set company = n.company
        where fname = o.firstname and lname = o.lastname);
update custview set company = 'Redwood Athletics' where lastname = 'Jaeger';
-- @count: 1
select company from customer where lname = 'Jaeger';
-- @rows: [('Redwood Athletics',)]

-- A row the routine rejects undoes the whole INSERT ... SELECT.
create procedure no_free_goods(price money(8,2))
    if price <= 0 then raise exception -746, 0, 'items must have a price'; end if;
end procedure;
create trigger chk_items insert on items referencing new as n
    for each row (execute procedure no_free_goods(n.total_price));
insert into items select 9, order_num, 6, 'SMT', 1, 36.00 - 36.00 * (order_num - 1001)
    from orders where order_num < 1003;
-- @error: -746 0
select count(*) from items;
-- @rows: [(Decimal('68'),)]
select trigname, event from systriggers order by trigname;
-- @rows: [('chk_items', 'I'), ('custview_upd', 'u'), ('del_items', 'D'), ('ins_order', 'I'), ('up_price', 'U'), ('upqty_i', 'U')]
