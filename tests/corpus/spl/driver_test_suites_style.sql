-- Models: the SPL that client-driver projects put in their own test databases:
-- nukedzn/node-informix (test/support/test-db.sql: a PRIMARY KEY added with ALTER TABLE ...
-- CONSTRAINT, a procedure whose parameters and variable are DEFINEd LIKE table.column that
-- inserts a row and RETURNs DBINFO('sqlca.sqlerrd1'), a one-statement purge procedure) and
-- ibm_db / IfxPy (tests/test_000_PrepareDb.py, the IDS branch: a procedure with an INOUT and an
-- OUT parameter whose body is two named FOREACH cursors over SELECT ... INTO with the loop
-- body following the SELECT without a semicolon; test_146_CallSPINAndOUTParams reads
-- second_name 'TRUE' and weight 12 back for 'Peaches' / 'Rickety Ride'). The drivers read OUT
-- values through their call APIs; here SPL callers pass variables, which is how Informix
-- itself passes OUT/INOUT arguments, and a call from plain SQL is -9752. Tables, data and
-- statements are ours, in those files' style.

create table tclients (
	id       serial,
	fname    varchar(255),
	lname    varchar(255)
);
create unique index iclients_x1 on tclients(id);
alter table tclients add constraint primary key (id)
	constraint cclients_pk;

create procedure pinsclient(
	p_fname like tclients.fname,
	p_lname like tclients.lname
)
returning int;

	define v_id like tclients.id;

	insert into tclients(
		fname,
		lname
	) values (
		p_fname,
		p_lname
	);

	let v_id = DBINFO('sqlca.sqlerrd1');
	return v_id;

end procedure;

create procedure ppurgeclients()
	delete from tclients;
end procedure;

execute procedure pinsclient('Ada', 'Lovelace');
-- @rows: [(1,)]
execute procedure pinsclient('Alan', 'Turing');
-- @rows: [(2,)]
select id, fname, lname from tclients order by id;
-- @rows: [(1, 'Ada', 'Lovelace'), (2, 'Alan', 'Turing')]
-- The constraint name given after the column list is the one the catalog records.
select constrname, constrtype from sysconstraints where constrname = 'cclients_pk';
-- @rows: [('cclients_pk', 'P')]
insert into tclients values (2, 'Grace', 'Hopper');
-- @error: -268
execute procedure ppurgeclients();
select count(*) from tclients;
-- @rows: [(0,)]
-- The serial goes on after the purge.
execute procedure pinsclient('Grace', 'Hopper');
-- @rows: [(3,)]

create table pets (id integer, breed varchar(32), name char(16), weight decimal(7,2));
insert into pets values (0, 'cat', 'Pook', 3.2);
insert into pets values (1, 'dog', 'Peaches', 12.3);
insert into pets values (2, 'horse', 'Smarty', 350.0);
insert into pets values (3, 'gold fish', 'Bubbles', 0.1);
insert into pets values (4, 'budgerigar', 'Gizmo', 0.2);
insert into pets values (5, 'goat', 'Rickety Ride', 9.7);
insert into pets values (6, 'llama', 'Sweater', 150);

CREATE PROCEDURE match_pet(first_name VARCHAR(128), INOUT second_name VARCHAR(128),
        OUT pet_weight DOUBLE PRECISION)
    DEFINE match_name INT;
    LET match_name = 0;

    FOREACH cur_match FOR
        SELECT COUNT(*) INTO match_name FROM pets
                                WHERE name IN (second_name)
        IF (match_name > 0)
            THEN LET second_name = 'TRUE';
        END IF;
    END FOREACH;

    FOREACH cur_weight FOR
        SELECT SUM(weight) INTO pet_weight FROM pets WHERE name in (first_name, second_name)
    END FOREACH;
END PROCEDURE;

-- How the drivers' test reads it back: second_name becomes 'TRUE' (a pet has that name), and
-- the weight is that of the first name alone ('TRUE' matches no pet).
CREATE FUNCTION try_match(a VARCHAR(128), b VARCHAR(128))
        RETURNING VARCHAR(128), VARCHAR(128), DOUBLE PRECISION;
    DEFINE second VARCHAR(128);
    DEFINE w DOUBLE PRECISION;
    LET second = b;
    CALL match_pet(a, second, w);
    RETURN a, second, w;
END FUNCTION;
EXECUTE FUNCTION try_match('Peaches', 'Rickety Ride');
-- @rows: [('Peaches', 'TRUE', 12.3)]
-- No pet has the second name: it is left as it was, and both names are summed.
EXECUTE FUNCTION try_match('Pook', 'Nobody');
-- @rows: [('Pook', 'Nobody', 3.2)]
-- An OUT argument must be a variable, and plain SQL has none to give.
EXECUTE PROCEDURE match_pet('Peaches', 'Rickety Ride', 0);
-- @error: -9752
CREATE PROCEDURE bad_match() DEFINE w DOUBLE PRECISION;
    CALL match_pet('Peaches', 'Smarty', w);
END PROCEDURE;
EXECUTE PROCEDURE bad_match();
-- @error: -9752
SELECT paramname, paramattr FROM sysproccolumns
    WHERE procid = (SELECT procid FROM sysprocedures WHERE procname = 'match_pet')
    ORDER BY paramid;
-- @rows: [('first_name', 1), ('second_name', 2), ('pet_weight', 4)]
