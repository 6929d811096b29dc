-- Models: the output of `dbschema -d stores_demo -ss` from a server where user "burnetg"
-- owns the schema: the `{ TABLE … }` banners, owner-qualified table, index and constraint
-- names (`constraint "burnetg".u100_1`), `extent size … lock mode page`, the REVOKE/GRANT
-- pairs dbschema prints for each table, `using btree` indexes, ALTER TABLE … ADD CONSTRAINT
-- for the foreign keys, views as dbschema rewrites them (x0 aliases), a sequence, a synonym
-- and a role. Written by us in that format for our stores_demo corpus; replayed unchanged.

{ DATABASE stores_dbschema  delimiter | }

grant dba to "burnetg";
grant connect to "public";
create role "clerk" ;
grant "clerk" to "burnetg" ;

{ TABLE "burnetg".customer row size = 134 number of columns = 10 index size = 7 }

create table "burnetg".customer
  (
    customer_num serial not null ,
    fname char(15),
    lname char(15),
    company char(20),
    address1 char(20),
    address2 char(20),
    city char(15),
    state char(2),
    zipcode char(5),
    phone char(18),
    primary key (customer_num)  constraint "burnetg".u100_1
  ) extent size 16 next size 16 lock mode page;

revoke all on "burnetg".customer from "public" as "burnetg";

{ TABLE "burnetg".orders row size = 80 number of columns = 10 index size = 16 }

create table "burnetg".orders
  (
    order_num serial not null ,
    order_date date,
    customer_num integer not null ,
    ship_instruct char(40),
    backlog char(1),
    po_num char(10),
    ship_date date,
    ship_weight decimal(8,2),
    ship_charge money(6,2),
    paid_date date,
    primary key (order_num)  constraint "burnetg".u101_2
  ) extent size 16 next size 16 lock mode page;

revoke all on "burnetg".orders from "public" as "burnetg";

{ TABLE "burnetg".manufact row size = 24 number of columns = 3 index size = 8 }

create table "burnetg".manufact
  (
    manu_code char(3),
    manu_name char(15),
    lead_time interval day(3) to day,
    primary key (manu_code)  constraint "burnetg".u102_3
  ) extent size 16 next size 16 lock mode page;

revoke all on "burnetg".manufact from "public" as "burnetg";

{ TABLE "burnetg".stock row size = 49 number of columns = 6 index size = 17 }

create table "burnetg".stock
  (
    stock_num smallint,
    manu_code char(3),
    description char(15),
    unit_price money(6,2),
    unit char(4),
    unit_descr char(15),
    primary key (stock_num,manu_code)  constraint "burnetg".u103_4
  ) extent size 16 next size 16 lock mode page;

revoke all on "burnetg".stock from "public" as "burnetg";

{ TABLE "burnetg".items row size = 18 number of columns = 6 index size = 32 }

create table "burnetg".items
  (
    item_num smallint,
    order_num integer,
    stock_num smallint not null ,
    manu_code char(3) not null ,
    quantity smallint,
    total_price money(8,2),

    check (quantity >= 1 ) constraint "burnetg".c104_5,
    primary key (item_num,order_num)  constraint "burnetg".u104_6
  ) extent size 16 next size 16 lock mode page;

revoke all on "burnetg".items from "public" as "burnetg";

{ TABLE "burnetg".state row size = 17 number of columns = 2 index size = 7 }

create table "burnetg".state
  (
    code char(2),
    sname char(15),
    primary key (code)  constraint "burnetg".u105_7
  ) extent size 16 next size 16 lock mode page;

revoke all on "burnetg".state from "public" as "burnetg";

create index "burnetg".zip_ix on "burnetg".customer (zipcode) using btree ;
create index "burnetg".ix_ord_date on "burnetg".orders (order_date desc) using btree ;

grant select on "burnetg".customer to "public" as "burnetg";
grant update on "burnetg".customer to "public" as "burnetg";
grant insert on "burnetg".customer to "public" as "burnetg";
grant delete on "burnetg".customer to "public" as "burnetg";
grant index on "burnetg".customer to "public" as "burnetg";
grant select on "burnetg".orders to "public" as "burnetg";
grant select on "burnetg".state to "clerk" as "burnetg";
grant select (code, sname) on "burnetg".state to "public" as "burnetg";

alter table "burnetg".orders add constraint (foreign key (customer_num)
    references "burnetg".customer  constraint "burnetg".r101_8);
alter table "burnetg".stock add constraint (foreign key (manu_code)
    references "burnetg".manufact  constraint "burnetg".r103_9);
alter table "burnetg".items add constraint (foreign key (order_num)
    references "burnetg".orders  constraint "burnetg".r104_10);
alter table "burnetg".items add constraint (foreign key (stock_num,
    manu_code) references "burnetg".stock  constraint "burnetg".r104_11);

create view "burnetg".custview (firstname,lastname,company,city) as
  select x0.fname ,x0.lname ,x0.company ,x0.city from "burnetg".customer
    x0 where (x0.city = 'Redwood City' ) with check option;

create sequence "burnetg".ord_seq increment by 1 start with 1001 maxvalue
    9223372036854775807 minvalue 1 cache 20 order;

create synonym "burnetg".clients for "burnetg".customer;
