-- Flyway migration 2: an SPL procedure (its body holds semicolons Flyway must not split on)
-- and a trigger that keeps fw_account.balance in step with fw_entry.
CREATE PROCEDURE fw_book(acc INTEGER, amt DECIMAL(12,2)) RETURNING INTEGER;
    DEFINE n INTEGER;
    IF amt = 0 THEN
        RAISE EXCEPTION -746, 0, 'zero amount';
    END IF;
    INSERT INTO fw_entry (account_id, amount) VALUES (acc, amt);
    SELECT COUNT(*) INTO n FROM fw_entry WHERE account_id = acc;
    RETURN n;
END PROCEDURE;

CREATE TRIGGER fw_entry_ins INSERT ON fw_entry
    REFERENCING NEW AS e
    FOR EACH ROW (UPDATE fw_account SET balance = balance + e.amount WHERE id = e.account_id);
