-- Flyway migration 3: data, through the procedure and the trigger of migration 2.
INSERT INTO fw_account (owner, opened) VALUES ('alice', MDY(1, 15, 2024));
INSERT INTO fw_account (owner, opened) VALUES ('bob', MDY(2, 29, 2024));
EXECUTE PROCEDURE fw_book(1, 100.00);
EXECUTE PROCEDURE fw_book(1, -25.50);
EXECUTE PROCEDURE fw_book(2, 7.25);
