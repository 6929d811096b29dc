-- Models: the schema file a `dbexport` writes (stores_dbexport.exp/stores_dbexport.sql):
-- `{ unload file name = … }` banners in braces, tables owned by "informix", and the built-in
-- opaque types written owner-qualified (`"informix".boolean`, `"informix".lvarchar(n)`).
-- Written by us in that format; replayed unchanged (the .unl data files are not part of it).

{ DATABASE stores_dbexport  delimiter | }

grant dba to "informix";
grant connect to "public";

{ TABLE "informix".call_type row size = 31 number of columns = 2 index size = 6 }
{ unload file name = call_00100.unl number of rows = 5 }

create table "informix".call_type
  (
    call_code char(1),
    code_descr char(30),
    primary key (call_code)  constraint "informix".u100_1
  );

revoke all on "informix".call_type from "public" as "informix";

{ TABLE "informix".flags row size = 212 number of columns = 4 index size = 0 }
{ unload file name = flags00101.unl number of rows = 0 }

create table "informix".flags
  (
    flag_id serial not null ,
    active "informix".boolean,
    notes "informix".lvarchar(200),
    call_code char(1) default 'O',
    unique (flag_id)  constraint "informix".u101_2
  );

revoke all on "informix".flags from "public" as "informix";

alter table "informix".flags add constraint (foreign key (call_code)
    references "informix".call_type  on delete cascade constraint "informix".r101_3);

grant select on "informix".call_type to "public" as "informix";
grant select on "informix".flags to "public" as "informix";
