-- superstores, the table hierarchies.
--
-- Models: the two hierarchies of superstores_demo (Reference, ids_sqr_376): retail_customer
-- and whlsale_customer under customer, location_us and location_non_us under location, each
-- subtable typed by a subtype of its supertable's type (Syntax guide, OF TYPE clause,
-- ids_sqs_0099; UNDER clause, ids_sqs_0565). Statements ours.
--
-- Each subtable inherits its supertable's primary key (unique across the hierarchy), check
-- and foreign key (ids_sqs_0565, ids_ddi_122); tests/corpus/test_superstores_inherit.py.

create table location_us of type loc_us_t under location;

create table location_non_us of type loc_non_us_t under location;

create table retail_customer of type retail_t under customer;

create table whlsale_customer of type whlsale_t under customer;
