-- stores_demo, as our corpus has it.
--
-- Models: the classic Informix demonstration database "stores_demo" (a sporting-goods
-- distributor: customers, their orders and order items, the stock and its manufacturers,
-- the catalog, customer calls and their call types, US states), as the Informix Guide to SQL
-- (Reference, appendix "The stores_demo Database") describes its tables, columns, keys and
-- referential relationships. The statements are ours: written in the style a `dbschema`
-- would print for it (constraints named where the manual names them, serials with their
-- published start values), not copied from any IBM file.
--
-- What it exercises: SERIAL(n) start values, PRIMARY KEY / FOREIGN KEY (single and
-- composite, named and unnamed), CHECK, DEFAULT USER, NOT NULL, MONEY, INTERVAL and
-- DATETIME columns, TEXT/BYTE and VARCHAR(max, reserve) columns, indexes, and views
-- (one WITH CHECK OPTION).

create table customer
  (
    customer_num serial(101),
    fname char(15),
    lname char(15),
    company char(20),
    address1 char(20),
    address2 char(20),
    city char(15),
    state char(2),
    zipcode char(5),
    phone char(18),
    primary key (customer_num)
  );

create index zip_ix on customer (zipcode);

create table orders
  (
    order_num serial(1001),
    order_date date,
    customer_num integer not null,
    ship_instruct char(40),
    backlog char(1),
    po_num char(10),
    ship_date date,
    ship_weight decimal(8,2),
    ship_charge money(6,2),
    paid_date date,
    primary key (order_num),
    foreign key (customer_num) references customer (customer_num)
  );

create table manufact
  (
    manu_code char(3),
    manu_name char(15),
    lead_time interval day(3) to day,
    primary key (manu_code)
  );

create table stock
  (
    stock_num smallint,
    manu_code char(3),
    description char(15),
    unit_price money(6,2),
    unit char(4),
    unit_descr char(15),
    primary key (stock_num, manu_code),
    foreign key (manu_code) references manufact
  );

create table items
  (
    item_num smallint,
    order_num integer,
    stock_num smallint not null,
    manu_code char(3) not null,
    quantity smallint check (quantity >= 1),
    total_price money(8,2),
    primary key (item_num, order_num),
    foreign key (order_num) references orders (order_num),
    foreign key (stock_num, manu_code) references stock (stock_num, manu_code)
  );

create table state
  (
    code char(2),
    sname char(15),
    primary key (code)
  );

create table call_type
  (
    call_code char(1),
    code_descr char(30),
    primary key (call_code)
  );

create table cust_calls
  (
    customer_num integer,
    call_dtime datetime year to minute,
    user_id char(18) default user,
    call_code char(1),
    call_descr char(240),
    res_dtime datetime year to minute,
    res_descr char(240),
    primary key (customer_num, call_dtime),
    foreign key (customer_num) references customer (customer_num),
    foreign key (call_code) references call_type (call_code)
  );

create table catalog
  (
    catalog_num serial(10001),
    stock_num smallint not null,
    manu_code char(3) not null,
    cat_descr text,
    cat_picture byte,
    cat_advert varchar(255, 65),
    primary key (catalog_num),
    foreign key (stock_num, manu_code) references stock constraint aa
  );

-- The Guide to SQL's custview: the Redwood City customers, WITH CHECK OPTION.
create view custview (firstname, lastname, company, city) as
  select fname, lname, company, city
    from customer
    where city = 'Redwood City'
  with check option;

-- The order totals the tutorial computes again and again, kept as a view.
create view order_totals (order_num, customer_num, nitems, total) as
  select o.order_num, o.customer_num, count(*), sum(i.total_price)
    from orders o, items i
    where o.order_num = i.order_num
    group by o.order_num, o.customer_num;
