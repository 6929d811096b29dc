-- Models: the shape `dbschema -d <db> -ss` prints for tables and indexes with storage
-- clauses (Guide to SQL: Syntax, CREATE TABLE storage options ids_sqs_0509/0513, CREATE
-- INDEX storage options ids_sqs_0419/0426): `in <dbspace>`, `fragment by round robin in
-- a , b`, `fragment by expression` with named partitions and a remainder, `fragment by
-- list`, index `fragment by expression`, extent sizes, `lock mode row`, and the
-- `update statistics` lines a schema script ends with. Written by us in that format; the
-- dbspaces are names only (this server places nothing).

{ DATABASE fragdb  delimiter | }

grant dba to "informix";

{ TABLE "informix".events row size = 44 number of columns = 3 index size = 9 }

create table "informix".events
  (
    event_id integer not null ,
    region char(2),
    logged date,
    primary key (event_id)  constraint "informix".pk_events
  )
  fragment by expression
    partition p_east (region IN ('NE' ,'SE' )) in datadbs1 ,
    partition p_west (region IN ('NW' ,'SW' )) in datadbs1 ,
    partition p_rest remainder in datadbs2
  extent size 64 next size 32 lock mode row;

revoke all on "informix".events from "public" as "informix";

{ TABLE "informix".audit_log row size = 260 number of columns = 2 index size = 0 }

create table "informix".audit_log
  (
    seq serial not null ,
    note varchar(255)
  )
  fragment by round robin in datadbs1 , datadbs2
  extent size 16 next size 16 lock mode page;

{ TABLE "informix".codes row size = 8 number of columns = 2 index size = 0 }

create table "informix".codes
  (
    code integer,
    label char(4)
  )
  fragment by list (code)
    partition p_low values (1 ,2 ,3 ) in datadbs1 ,
    partition p_null values (NULL) in datadbs1 ,
    partition p_other remainder in datadbs2
  extent size 16 next size 16 lock mode row;

create index "informix".ix_events_logged on "informix".events (logged desc,region) using btree
  fragment by expression
    (logged < date('01/01/2020' ) ) in idxdbs1 ,
    remainder in idxdbs2;
create index "informix".ix_codes on "informix".codes (code) using btree in idxdbs1;

update statistics medium for table "informix".events (region) resolution 2.50000 0.95000;
update statistics high for table "informix".codes (code);
