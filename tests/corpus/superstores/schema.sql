-- superstores, as our corpus has it.
--
-- Models: IBM's object-relational demonstration database "superstores_demo" (built by
-- dbaccessdemo_ud), as the Informix Guide to SQL: Reference describes it (appendix "The
-- demonstration databases": its table list, ids_sqr_354, with customer over retail_customer
-- and whlsale_customer and location over location_us and location_non_us; its table
-- hierarchies, ids_sqr_376, where customer refers to location by location_id). The
-- statements and the column lists are ours, written for this corpus and not copied from any
-- IBM file: named ROW types (one nested in another, subtypes declared UNDER their
-- supertypes), typed tables CREATE TABLE ... OF TYPE, and SET / MULTISET / LIST columns.
--
-- The table hierarchies (CREATE TABLE ... UNDER) are in hierarchy.sql, loaded after this
-- file and data.sql (docs/SERVER.md, "superstores_demo, typed tables and inheritance (issue
-- 23)").

create row type name_t
  (
    first varchar(15),
    last varchar(20)
  );

create row type address_t
  (
    street varchar(25),
    city varchar(20)
  );

create row type location_t
  (
    location_id serial,
    loc_type char(2),
    company varchar(20),
    street_addr list(varchar(25) not null),
    city varchar(20),
    country varchar(20)
  );

create row type loc_us_t
  (
    state_code char(2),
    zip integer,
    phone char(18)
  ) under location_t;

create row type loc_non_us_t
  (
    province_code char(3),
    postcode char(9),
    phone char(15)
  ) under location_t;

create row type customer_t
  (
    customer_num serial,
    customer_type char(1) not null,
    customer_name name_t,
    customer_loc integer,
    contact_dates list(date not null),
    credit_status char(1)
  );

create row type retail_t
  (
    credit_num char(19),
    expiration date
  ) under customer_t;

create row type whlsale_t
  (
    resale_license char(15),
    terms_net smallint
  ) under customer_t;

create table location of type location_t
  (
    primary key (location_id)
  );

create table customer of type customer_t
  (
    primary key (customer_num),
    foreign key (customer_loc) references location (location_id),
    check (customer_type in ('R', 'W'))
  );

-- An ordinary table with collection columns of its own.
create table region
  (
    region_num smallint primary key,
    region_name varchar(20) not null,
    states set(char(2) not null),
    sales_targets multiset(integer not null)
  );
