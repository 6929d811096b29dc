"""systables.nindexes counts every index of the table: "Number of indexes on the table"
(Guide to SQL: Reference, SYSTABLES), and sysindexes has one row per index, a unique,
primary-key or referential constraint's included unless it shares one (SYSCONSTRAINTS,
ids_sqr_029). It counted CREATE INDEX only, and DROP INDEX did not take its index off."""

from __future__ import annotations

from .conftest import Sql


def _counts(db: Sql, table: str) -> tuple[int, int]:
    """(systables.nindexes, the table's rows in sysindexes)."""
    nindexes = db.one(f"SELECT nindexes FROM systables WHERE tabname = '{table}'")
    rows = db.one("SELECT COUNT(*) FROM sysindexes WHERE tabid = "
                  f"(SELECT tabid FROM systables WHERE tabname = '{table}')")
    return int(nindexes), int(rows)


def test_constraint_indexes_are_counted(db: Sql) -> None:
    db.run("CREATE TABLE p (id INT PRIMARY KEY, code CHAR(4) UNIQUE, x INT)")
    assert _counts(db, "p") == (2, 2)
    # a referential constraint gets an index of its own; one on the parent's key columns
    # shares the unique constraint's (one sysindexes row)
    db.run("CREATE TABLE c (id INT, pid INT REFERENCES p (id), x INT)")
    assert _counts(db, "c") == (1, 1)
    db.run("CREATE INDEX ix_p ON p (x)")
    assert _counts(db, "p") == (3, 3)


def test_drop_index_and_alter_table_count_again(db: Sql) -> None:
    db.run("CREATE TABLE t (id INT, code CHAR(4), x INT)")
    db.run("CREATE INDEX ix_t ON t (x)")
    assert _counts(db, "t") == (1, 1)
    db.run("DROP INDEX ix_t")
    assert _counts(db, "t") == (0, 0)
    db.run("ALTER TABLE t ADD CONSTRAINT PRIMARY KEY (id)")
    assert _counts(db, "t") == (1, 1)
    db.run("ALTER TABLE t ADD CONSTRAINT UNIQUE (code) CONSTRAINT u_code")
    assert _counts(db, "t") == (2, 2)
    db.run("ALTER TABLE t ADD (y INT)")  # rebuilds the table and its indexes
    assert _counts(db, "t") == (2, 2)
    db.run("ALTER TABLE t DROP CONSTRAINT u_code")
    assert _counts(db, "t") == (1, 1)
