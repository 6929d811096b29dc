-- Flyway migration 1 (ifxwire interop): two tables, a foreign key, an index, a sequence.
CREATE TABLE fw_account (
    id      SERIAL NOT NULL PRIMARY KEY,
    owner   VARCHAR(60) NOT NULL,
    balance DECIMAL(12,2) DEFAULT 0 NOT NULL,
    opened  DATE
);

CREATE TABLE fw_entry (
    id         SERIAL NOT NULL PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES fw_account (id),
    amount     DECIMAL(12,2) NOT NULL,
    booked     DATETIME YEAR TO SECOND DEFAULT CURRENT YEAR TO SECOND
);

CREATE INDEX fw_entry_account ON fw_entry (account_id);

CREATE SEQUENCE fw_ref_seq START WITH 1000 INCREMENT BY 1;
