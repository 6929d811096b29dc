-- Models: the IBM Informix Guide to SQL: Tutorial, chapter "Create and use SPL routines"
-- (the read_address / table_test / user_test / test_rows / scope() / error-trapping
-- figures) and the SPL statement pages of the Guide to SQL: Syntax (FOR ranges, CASE, LOOP,
-- EXIT and CONTINUE, ON EXCEPTION ... WITH RESUME). The statements are ours, written in the
-- manual's style against a small customer table; the expected rows follow the documented
-- semantics.

CREATE TABLE customer (
    customer_num SERIAL PRIMARY KEY,
    fname CHAR(15),
    lname CHAR(15),
    address1 CHAR(20),
    city CHAR(15),
    state CHAR(2),
    zipcode CHAR(5),
    phone CHAR(18)
);
INSERT INTO customer VALUES (101, 'Ludwig', 'Pauli', '213 Erstwild Court', 'Sunnyvale',
    'CA', '94086', '408-789-8075');
INSERT INTO customer VALUES (0, 'Carole', 'Sadler', '785 Geary St', 'San Francisco', 'CA',
    '94117', '415-822-1289');
INSERT INTO customer VALUES (0, 'Philip', 'Currie', '654 Poplar', 'Palo Alto', 'CA', '94303',
    '415-328-4543');
INSERT INTO customer VALUES (502, 'Jean', 'Miller', '2 Oak Lane', 'Redwood City', 'CA',
    '94062', NULL);

-- A routine that returns one row: SELECT ... INTO and RETURN of several values.
CREATE PROCEDURE read_address (lastname CHAR(15))
    RETURNING CHAR(15), CHAR(15), CHAR(20), CHAR(15), CHAR(2), CHAR(5);
    DEFINE p_fname, p_city CHAR(15);
    DEFINE p_add CHAR(20);
    DEFINE p_state CHAR(2);
    DEFINE p_zip CHAR(5);
    SELECT fname, address1, city, state, zipcode
        INTO p_fname, p_add, p_city, p_state, p_zip
        FROM customer
        WHERE lname = lastname;
    RETURN p_fname, lastname, p_add, p_city, p_state, p_zip;
END PROCEDURE
DOCUMENT 'This procedure takes the last name of a customer as',
    'its only argument. It returns the full name and address.';
EXECUTE PROCEDURE read_address('Pauli');
-- @rows: [('Ludwig', 'Pauli', '213 Erstwild Court', 'Sunnyvale', 'CA', '94086')]
SELECT datakey, seqno FROM sysprocbody WHERE datakey = 'D' AND procid =
    (SELECT procid FROM sysprocedures WHERE procname = 'read_address');
-- @rows: [('D', 1)]

-- A variable hides a column of the same name unless the column is qualified.
CREATE PROCEDURE table_test() RETURNING CHAR(15);
    DEFINE lname CHAR(15);
    LET lname = 'Miller';
    SELECT customer.lname INTO lname FROM customer WHERE customer_num = 502;
    RETURN lname;
END PROCEDURE;
EXECUTE PROCEDURE table_test();
-- @rows: [('Miller',)]

-- A variable named like a built-in function hides it inside its block only.
CREATE FUNCTION user_test() RETURNING CHAR(10), CHAR(10), CHAR(10);
    DEFINE name, name2, inside CHAR(10);
    LET name = user;
    BEGIN
        DEFINE user CHAR(15);
        LET user = 'Miller';
        LET inside = user;
    END
    LET name2 = user;
    RETURN name, inside, name2;
END FUNCTION;
EXECUTE FUNCTION user_test();
-- @rows: [('informix', 'Miller', 'informix')]

-- WHILE: insert the numbers below num.
CREATE TABLE table1 (numbers INT);
CREATE PROCEDURE test_rows(num INT)
    DEFINE i INTEGER;
    LET i = 1;
    WHILE i < num
        INSERT INTO table1 (numbers) VALUES (i);
        LET i = i + 1;
    END WHILE;
END PROCEDURE;
EXECUTE PROCEDURE test_rows(5);
SELECT COUNT(*), SUM(numbers) FROM table1;
-- @rows: [(Decimal('4'), Decimal('10'))]

-- FOREACH ... RETURN WITH RESUME: a routine that returns many rows.
CREATE FUNCTION all_names(st CHAR(2)) RETURNING CHAR(15), CHAR(15);
    DEFINE f, l CHAR(15);
    FOREACH SELECT fname, lname INTO f, l FROM customer WHERE state = st
            ORDER BY lname
        RETURN f, l WITH RESUME;
    END FOREACH;
END FUNCTION;
EXECUTE FUNCTION all_names('CA');
-- @rows: [('Philip', 'Currie'), ('Jean', 'Miller'), ('Ludwig', 'Pauli'), ('Carole', 'Sadler')]

-- FOR with ranges and a list, and the implicit negative step.
CREATE FUNCTION ranges() RETURNING INT;
    DEFINE i INT;
    FOR i IN (12 TO 21 STEP 3, 30, 5 TO 3)
        RETURN i WITH RESUME;
    END FOR;
END FUNCTION;
EXECUTE FUNCTION ranges();
-- @rows: [(12,), (15,), (18,), (21,), (30,), (5,), (4,), (3,)]

-- The tutorial's error-trapping block: the handler creates what is missing, then the
-- statement after the failing one runs (WITH RESUME).
CREATE FUNCTION trap_errors() RETURNING INT;
    DEFINE err_num INT;
    DEFINE c INT;
    ON EXCEPTION IN (-206, -217) SET err_num
        IF err_num = -206 THEN
            CREATE TABLE t (c INT);
            INSERT INTO t VALUES (10);
        ELSE
            ALTER TABLE t ADD (d INT);
            UPDATE t SET d = 20;
        END IF;
    END EXCEPTION WITH RESUME;
    INSERT INTO t VALUES (10);
    LET c = (SELECT d FROM t WHERE c = 10 AND d IS NOT NULL);
    LET c = (SELECT COUNT(*) FROM t);
    RETURN c;
END FUNCTION;
EXECUTE FUNCTION trap_errors();
-- @rows: [(1,)]

-- The scope of ON EXCEPTION: a handler in an inner block, then execution continues after
-- that block (no WITH RESUME).
CREATE FUNCTION scope() RETURNING VARCHAR(40);
    DEFINE msg VARCHAR(40);
    LET msg = 'start';
    BEGIN
        ON EXCEPTION IN (-201, -206)
            LET msg = TRIM(msg) || ' trapped';
        END EXCEPTION;
        LET msg = TRIM(msg) || ' in-block';
        INSERT INTO no_such_table VALUES (1);
        LET msg = TRIM(msg) || ' never';
    END
    LET msg = TRIM(msg) || ' after';
    RETURN msg;
END FUNCTION;
EXECUTE FUNCTION scope();
-- @rows: [('start in-block trapped after',)]

-- CASE, LOOP with a label, EXIT and CONTINUE with WHEN.
CREATE FUNCTION classify(n INT) RETURNING VARCHAR(30);
    DEFINE out VARCHAR(30);
    DEFINE i INT;
    LET out = '';
    LET i = 0;
    <<outer>>
    LOOP
        LET i = i + 1;
        EXIT outer WHEN i > n;
        CONTINUE LOOP WHEN i = 2;
        CASE
            WHEN i = 1 THEN LET out = out || 'one ';
            WHEN i < 4 THEN LET out = out || 'few ';
            ELSE LET out = out || 'many ';
        END CASE;
    END LOOP;
    RETURN TRIM(out);
END FUNCTION;
EXECUTE FUNCTION classify(4);
-- @rows: [('one few many',)]

-- RAISE EXCEPTION from a nested call reaches the client.
CREATE PROCEDURE check_zip(z CHAR(5))
    IF z NOT MATCHES '[0-9][0-9][0-9][0-9][0-9]' THEN
        RAISE EXCEPTION -746, 0, 'bad zip code ' || z;
    END IF;
END PROCEDURE;
CREATE PROCEDURE new_customer(f CHAR(15), l CHAR(15), z CHAR(5))
    CALL check_zip(z);
    INSERT INTO customer (customer_num, fname, lname, zipcode) VALUES (0, f, l, z);
END PROCEDURE;
EXECUTE PROCEDURE new_customer('Anthony', 'Higgins', '94026');
EXECUTE PROCEDURE new_customer('Raymond', 'Vector', '9A026');
-- @error: -746 0
SELECT COUNT(*) FROM customer;
-- @rows: [(Decimal('5'),)]

-- Recursion with an exact DECIMAL result.
CREATE FUNCTION fib(n INT) RETURNING DECIMAL(32,0);
    IF n < 2 THEN RETURN n; END IF;
    RETURN fib(n - 1) + fib(n - 2);
END FUNCTION;
EXECUTE FUNCTION fib(20);
-- @rows: [(Decimal('6765'),)]
SELECT customer_num, fib(customer_num - 99) FROM customer WHERE customer_num < 104
    ORDER BY 1;
-- @rows: [(101, Decimal('1')), (102, Decimal('2')), (103, Decimal('3'))]

DROP PROCEDURE read_address;
EXECUTE PROCEDURE read_address('Pauli');
-- @error: -674
