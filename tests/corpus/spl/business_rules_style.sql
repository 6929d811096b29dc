-- Models: the line-of-business SPL of GEN-CODE-22/ScriptsIFX (a public repository of an LPG
-- distributor's Informix procedures: LiqVta_Verif.sql, InsNotaVta.sql, ConsCteNum.sql):
-- CREATE PROCEDURE ... RETURNING status and message, a long chain of
-- IF EXISTS (SELECT 1 ...) checks with an early RETURN, NVL/SUM/MATCHES over a variable
-- pattern, messages built with || from numbers and dates, SELECT CURRENT INTO ... FROM
-- systables WHERE tabid = 1, an insert guarded by IF NOT EXISTS, helper functions called
-- from LET, and FOREACH cursor FOR ... RETURN ... WITH RESUME of a customer record.
-- The tables, names and data are ours (English); the shapes are theirs.

CREATE TABLE route (route_id CHAR(4) PRIMARY KEY, truck CHAR(7), cell_tracked CHAR(1));
CREATE TABLE price_list (code CHAR(3), valid_from DATE, valid_to DATE, unit_price DECIMAL(8,4));
CREATE TABLE sale_note (
    note_no INTEGER, company CHAR(2), plant CHAR(2), customer CHAR(6), route_id CHAR(4),
    kind CHAR(1), status CHAR(1), liters DECIMAL(10,2), amount DECIMAL(12,2),
    unit_price DECIMAL(8,4), pay_kind CHAR(1), recorded DATETIME YEAR TO MINUTE,
    sold_on DATE, settlement INTEGER
);
CREATE TABLE route_in_use (settlement INTEGER, route_id CHAR(4), user_name CHAR(8));
CREATE TABLE process_log (entry SERIAL, message VARCHAR(200));

INSERT INTO route VALUES ('M003', 'ECO-117', 'S');
INSERT INTO route VALUES ('B003', 'ECO-020', 'N');
INSERT INTO price_list VALUES ('P01', '2023-01-01', '2023-12-31', 9.8500);
INSERT INTO sale_note VALUES (1, '15', '02', '000101', 'M003', 'E', 'A', 100.00, 985.00,
    9.85, 'C', '2023-05-15 08:30', '2023-05-15', 7564);
INSERT INTO sale_note VALUES (2, '15', '02', '000102', 'M003', 'E', 'A', 50.00, 492.50,
    9.85, 'C', '2023-05-15 09:10', '2023-05-15', 7564);
INSERT INTO sale_note VALUES (3, '15', '02', '000103', 'M003', 'E', 'S', 20.00, 197.00,
    9.85, 'K', '2023-05-15 10:00', '2023-05-15', 7564);

-- Price of a route's product on a date: a helper called from LET.
CREATE FUNCTION price_on(code CHAR(3), day DATE) RETURNING DECIMAL(8,4);
    DEFINE p DECIMAL(8,4);
    LET p = 0;
    SELECT NVL(unit_price, 0) INTO p FROM price_list
        WHERE code = price_list.code AND valid_from <= day AND valid_to >= day;
    RETURN p;
END FUNCTION;

-- The settlement check: every rule returns 0 and a message, else 1 and ''.
CREATE PROCEDURE verify_settlement(
    paramFolio  INT,
    paramRoute  CHAR(4),
    paramKind   CHAR(1),
    paramLiters DECIMAL,
    paramAmount DECIMAL
)
RETURNING
    INT,        -- 1 = OK, 0 = rejected
    CHAR(100);  -- the reason

DEFINE vresult  INT;
DEFINE vmessage CHAR(100);
DEFINE vuser    CHAR(8);
DEFINE vpattern CHAR(6);
DEFINE vliters  DECIMAL(10,2);
DEFINE vamount  DECIMAL(12,2);
DEFINE vfolio   INT;

LET vresult = 1;
LET vmessage = '';
LET vpattern = '*';
IF paramKind = 'E' THEN
    LET vpattern = '[KQ]';
END IF;

-- is somebody else working on this settlement?
IF EXISTS (SELECT 1 FROM route_in_use WHERE settlement = paramFolio
           AND route_id = paramRoute) THEN
    SELECT NVL(user_name, '') INTO vuser FROM route_in_use
        WHERE settlement = paramFolio AND route_id = paramRoute;
    LET vresult = 0;
    LET vmessage = 'SETTLEMENT: ' || paramFolio || ' ROUTE: ' || paramRoute
        || ' IN USE BY: ' || vuser;
    RETURN vresult, vmessage;
END IF;

-- notes whose amount does not match liters * price
IF EXISTS (SELECT 1 FROM sale_note WHERE settlement = paramFolio AND route_id = paramRoute
           AND status IN ('A', 'S')
           AND ((amount - liters * unit_price) < -0.1 OR (amount - liters * unit_price) > 0.1))
THEN
    SELECT MIN(note_no) INTO vfolio FROM sale_note
        WHERE settlement = paramFolio AND route_id = paramRoute AND status IN ('A', 'S')
        AND ((amount - liters * unit_price) < -0.1 OR (amount - liters * unit_price) > 0.1);
    LET vresult = 0;
    LET vmessage = 'SETTLEMENT: ' || paramFolio || ' HAS A WRONG PRICE. NOTE: ' || vfolio;
    RETURN vresult, vmessage;
END IF;

-- payment kinds that must not carry an amount for this kind of route
SELECT NVL(SUM(amount), 0) INTO vamount FROM sale_note
    WHERE settlement = paramFolio AND route_id = paramRoute AND status IN ('A', 'S')
    AND pay_kind MATCHES vpattern;
IF vamount > 0 THEN
    LET vresult = 0;
    LET vmessage = 'SETTLEMENT: ' || paramFolio || ' HAS ' || vamount || ' IN KIND ' || vpattern;
    RETURN vresult, vmessage;
END IF;

-- totals against what was counted
SELECT NVL(SUM(liters), 0), NVL(SUM(amount), 0) INTO vliters, vamount FROM sale_note
    WHERE settlement = paramFolio AND route_id = paramRoute AND status IN ('A', 'S');
IF paramLiters <> vliters THEN
    LET vresult = 0;
    LET vmessage = 'SETTLEMENT: ' || paramFolio || ' LITERS COUNTED ' || vliters;
    RETURN vresult, vmessage;
END IF;
IF paramAmount <> vamount THEN
    LET vresult = 0;
    LET vmessage = 'SETTLEMENT: ' || paramFolio || ' AMOUNT DIFFERS';
    RETURN vresult, vmessage;
END IF;

RETURN vresult, vmessage;
END PROCEDURE;

-- note 3 is paid in kind 'K', which an 'E' route must not have
EXECUTE PROCEDURE verify_settlement(7564, 'M003', 'E', 170.00, 1674.50);
-- @rows: [(0, 'SETTLEMENT: 7564 HAS 197.00 IN KIND [KQ]')]
UPDATE sale_note SET pay_kind = 'C' WHERE note_no = 3;
-- @count: 1
EXECUTE PROCEDURE verify_settlement(7564, 'M003', 'E', 170.00, 1674.50);
-- @rows: [(1, '')]
EXECUTE PROCEDURE verify_settlement(7564, 'M003', 'E', 171, 1674.50);
-- @rows: [(0, 'SETTLEMENT: 7564 LITERS COUNTED 170.00')]
EXECUTE PROCEDURE verify_settlement(7564, 'M003', 'E', 170, 1674);
-- @rows: [(0, 'SETTLEMENT: 7564 AMOUNT DIFFERS')]
UPDATE sale_note SET amount = 500.00 WHERE note_no = 2;
EXECUTE PROCEDURE verify_settlement(7564, 'M003', 'E', 170.00, 1674.50);
-- @rows: [(0, 'SETTLEMENT: 7564 HAS A WRONG PRICE. NOTE: 2')]
INSERT INTO route_in_use VALUES (7564, 'M003', 'ana');
EXECUTE PROCEDURE verify_settlement(7564, 'M003', 'E', 170.00, 1674.50);
-- @rows: [(0, 'SETTLEMENT: 7564 ROUTE: M003 IN USE BY: ana')]

-- Insert a note once: the clock read from systables, the price from the helper, a log line.
CREATE PROCEDURE insert_note(
    paramNote INT, paramCompany CHAR(2), paramPlant CHAR(2), paramCustomer CHAR(6),
    paramRoute CHAR(4), paramLiters DECIMAL(10,2), paramDay DATE
)
DEFINE stamp DATETIME YEAR TO MINUTE;
DEFINE unit DECIMAL(8,4);
DEFINE tracked CHAR(1);
DEFINE vlog VARCHAR(200);
DEFINE folio CHAR(10);

SELECT CURRENT INTO stamp FROM systables WHERE tabid = 1;
LET unit = price_on('P01', paramDay);
IF NOT EXISTS (SELECT 1 FROM sale_note WHERE note_no = paramNote
               AND company = paramCompany AND plant = paramPlant) THEN
    INSERT INTO sale_note (note_no, company, plant, customer, route_id, kind, status, liters,
        amount, unit_price, pay_kind, recorded, sold_on, settlement)
    VALUES (paramNote, paramCompany, paramPlant, paramCustomer, paramRoute, 'E', 'P',
        paramLiters, paramLiters * unit, unit, 'C', stamp, paramDay, NULL);
    LET vlog = 'INSERTED NOTE[' || paramNote || '] CUSTOMER[' || paramCustomer || ']';
ELSE
    LET vlog = 'NOTE[' || paramNote || '] ALREADY EXISTS';
END IF;
LET folio = paramCompany || paramPlant || LPAD(paramNote, 6, '0');
SELECT cell_tracked INTO tracked FROM route WHERE route_id = paramRoute;
IF tracked = 'S' THEN
    LET vlog = vlog || ' ROUTE FOLIO ' || folio || ' ' || TO_CHAR(paramDay, '%d%m%y');
END IF;
INSERT INTO process_log (message) VALUES (vlog);
END PROCEDURE;

EXECUTE PROCEDURE insert_note(40, '15', '02', '000200', 'M003', 12.5, '2023-06-01');
EXECUTE PROCEDURE insert_note(40, '15', '02', '000200', 'M003', 12.5, '2023-06-01');
EXECUTE PROCEDURE insert_note(41, '15', '02', '000201', 'B003', 1, '2024-06-01');
SELECT note_no, amount, unit_price, status, sold_on FROM sale_note WHERE note_no >= 40
    ORDER BY 1;
-- @rows: [(40, Decimal('123.13'), Decimal('9.8500'), 'P', date(2023, 6, 1)), (41, Decimal('0.00'), Decimal('0.0000'), 'P', date(2024, 6, 1))]
SELECT message FROM process_log ORDER BY entry;
-- @rows: [('INSERTED NOTE[40] CUSTOMER[000200] ROUTE FOLIO 1502000040 010623',), ('NOTE[40] ALREADY EXISTS ROUTE FOLIO 1502000040 010623',), ('INSERTED NOTE[41] CUSTOMER[000201]',)]
SELECT COUNT(*) FROM sale_note WHERE recorded IS NULL;
-- @rows: [(Decimal('0'),)]

-- A lookup that returns a whole record per matching customer, FOREACH cursor FOR style.
CREATE PROCEDURE notes_of(paramCustomer CHAR(6))
RETURNING
    INTEGER,
    CHAR(4),
    DECIMAL(10,2),
    DECIMAL(12,2),
    CHAR(30);
DEFINE num INTEGER;
DEFINE rte CHAR(4);
DEFINE lts DECIMAL(10,2);
DEFINE amt DECIMAL(12,2);
DEFINE label CHAR(30);
FOREACH cursor_notes FOR
    SELECT note_no,
           route_id,
           liters,
           amount,
           CASE WHEN status = 'S' THEN 'SETTLED ' || settlement
                WHEN status = 'A' THEN 'ACCEPTED'
                ELSE 'PENDING' END
    INTO num, rte, lts, amt, label
    FROM sale_note
    WHERE customer MATCHES paramCustomer
    ORDER BY note_no
    RETURN num, rte, lts, amt, label
    WITH RESUME;
END FOREACH;
END PROCEDURE;
EXECUTE PROCEDURE notes_of('00010*');
-- @rows: [(1, 'M003', Decimal('100.00'), Decimal('985.00'), 'ACCEPTED'), (2, 'M003', Decimal('50.00'), Decimal('500.00'), 'ACCEPTED'), (3, 'M003', Decimal('20.00'), Decimal('197.00'), 'SETTLED 7564')]
