"""ALTER TABLE (columns, constraints), RENAME, TRUNCATE and constraint modes."""

from __future__ import annotations

from decimal import Decimal

from .conftest import Sql, codes


def _setup(db: Sql) -> None:
    db.run("CREATE TABLE parent (id INT PRIMARY KEY, name CHAR(10))")
    db.run("CREATE TABLE child (id INT, pid INT, qty SMALLINT, note VARCHAR(20))")
    for i in (1, 2, 3):
        db.run(f"INSERT INTO parent VALUES ({i}, 'p{i}')")
    db.run("INSERT INTO child VALUES (10, 1, 5, 'a')")
    db.run("INSERT INTO child VALUES (11, 2, 7, 'b')")


def test_add_column_before_and_drop(db: Sql) -> None:
    _setup(db)
    db.run("ALTER TABLE child ADD (flag CHAR(1) DEFAULT 'Y' BEFORE qty)")
    assert [n for n, _, _ in db.describe("SELECT * FROM child")] == [
        "id", "pid", "flag", "qty", "note"]
    assert db.rows("SELECT id, flag, qty FROM child ORDER BY id") == [
        (10, "Y", 5), (11, "Y", 7)]
    assert db.rows("SELECT colname, colno FROM syscolumns c, systables t WHERE "
                   "c.tabid = t.tabid AND t.tabname = 'child' ORDER BY colno")[2] == ("flag", 3)
    db.run("INSERT INTO child (id) VALUES (12)")
    assert db.one("SELECT flag FROM child WHERE id = 12") == "Y"
    db.run("ALTER TABLE child DROP (flag, note)")
    assert [n for n, _, _ in db.describe("SELECT * FROM child")] == ["id", "pid", "qty"]
    assert codes(db.err("ALTER TABLE child ADD (qty INT)"))[0] == -328
    assert codes(db.err("ALTER TABLE child ADD (z INT BEFORE nosuch)"))[0] == -217
    assert codes(db.err("ALTER TABLE child ADD (z INT NOT NULL)"))[0] == -391


def test_modify_converts_data_or_fails_as_informix(db: Sql) -> None:
    _setup(db)
    db.run("ALTER TABLE child MODIFY (qty DECIMAL(6,2))")
    assert db.rows("SELECT qty FROM child ORDER BY id") == [(Decimal("5"),), (Decimal("7"),)]
    db.run("ALTER TABLE child MODIFY (note CHAR(30) NOT NULL)")
    assert db.describe("SELECT note FROM child")[0][2] == 30
    db.run("INSERT INTO child VALUES (13, 3, 1, 'x12')")
    e = db.err("ALTER TABLE child MODIFY (note INTEGER)")
    assert codes(e)[0] == -1213  # 'a' is no number: the table is unchanged
    assert db.describe("SELECT note FROM child")[0][2] == 30
    db.run("UPDATE child SET qty = 9999")
    assert codes(db.err("ALTER TABLE child MODIFY (qty DECIMAL(3,0))"))[0] == -1226
    assert codes(db.err("ALTER TABLE child MODIFY (nosuch INT)"))[0] == -217


def test_add_and_drop_constraints(db: Sql) -> None:
    _setup(db)
    db.run("ALTER TABLE child ADD CONSTRAINT PRIMARY KEY (id) CONSTRAINT child_pk")
    assert codes(db.err("INSERT INTO child VALUES (10, 1, 1, 'dup')")) == (-268, -100)
    db.run("ALTER TABLE child ADD CONSTRAINT (FOREIGN KEY (pid) REFERENCES parent "
           "ON DELETE CASCADE CONSTRAINT child_fk, CHECK (qty > 0) CONSTRAINT qty_pos)")
    assert codes(db.err("INSERT INTO child VALUES (20, 99, 1, 'x')"))[0] == -691
    assert codes(db.err("INSERT INTO child VALUES (20, 1, 0, 'x')"))[0] == -530
    db.run("DELETE FROM parent WHERE id = 1")  # cascades
    assert db.rows("SELECT id FROM child ORDER BY id") == [(11,)]
    db.run("ALTER TABLE child ADD CONSTRAINT UNIQUE (note) CONSTRAINT note_u")
    kinds = db.rows("SELECT constrtype FROM sysconstraints c, systables t WHERE "
                    "c.tabid = t.tabid AND t.tabname = 'child' ORDER BY constrtype")
    assert [k for (k,) in kinds] == ["C", "P", "R", "U"]
    db.run("ALTER TABLE child DROP CONSTRAINT (child_fk, qty_pos, note_u)")
    db.run("INSERT INTO child VALUES (20, 99, 0, 'free')")
    assert codes(db.err("ALTER TABLE child DROP CONSTRAINT nosuch"))[0] == -623
    assert codes(db.err("ALTER TABLE parent DROP CONSTRAINT nosuch"))[0] == -623
    # a constraint that the data already violates cannot be added
    assert codes(db.err("ALTER TABLE child ADD CONSTRAINT "
                        "(FOREIGN KEY (pid) REFERENCES parent)"))[0] == -691
    assert codes(db.err("ALTER TABLE child ADD CONSTRAINT CHECK (qty > 0)"))[0] == -530
    db.run("INSERT INTO child VALUES (21, 2, 1, 'free')")
    assert codes(db.err("ALTER TABLE child ADD CONSTRAINT UNIQUE (note)"))[0] == -371


def test_parent_rebuild_keeps_children_valid(db: Sql) -> None:
    _setup(db)
    db.run("ALTER TABLE child ADD CONSTRAINT FOREIGN KEY (pid) REFERENCES parent (id)")
    db.run("ALTER TABLE parent ADD (extra INT BEFORE name)")
    assert codes(db.err("DELETE FROM parent WHERE id = 1"))[0] == -692
    assert codes(db.err("INSERT INTO child VALUES (30, 42, 1, 'x')"))[0] == -691
    db.run("ALTER TABLE parent MODIFY (name VARCHAR(40))")
    assert db.rows("SELECT id, name FROM parent ORDER BY id")[0] == (1, "p1")


def test_self_reference_and_rename(db: Sql) -> None:
    db.run("CREATE TABLE emp (id INT PRIMARY KEY, boss INT REFERENCES emp (id))")
    db.run("INSERT INTO emp VALUES (1, NULL)")
    db.run("INSERT INTO emp VALUES (2, 1)")
    db.run("ALTER TABLE emp ADD (name CHAR(10))")
    assert codes(db.err("INSERT INTO emp VALUES (3, 9, 'x')"))[0] == -691
    db.run("RENAME TABLE emp TO staff")
    db.run("RENAME COLUMN staff.name TO fullname")
    assert db.rows("SELECT id, fullname FROM staff ORDER BY id") == [(1, None), (2, None)]
    db.run("CREATE INDEX ix_boss ON staff (boss)")
    db.run("RENAME INDEX ix_boss TO ix_manager")
    assert db.one("SELECT COUNT(*) FROM sysindexes WHERE idxname = 'ix_manager'") == 1
    db.run("DROP INDEX ix_manager")


def test_truncate(db: Sql) -> None:
    _setup(db)
    db.run("TRUNCATE child")
    assert db.one("SELECT COUNT(*) FROM child") == 0
    db.run("TRUNCATE TABLE child REUSE STORAGE")
    assert codes(db.err("TRUNCATE nosuch")) == (-206, -111)


def test_constraint_modes(db: Sql) -> None:
    _setup(db)
    db.run("ALTER TABLE child ADD CONSTRAINT FOREIGN KEY (pid) REFERENCES parent CONSTRAINT fk1")
    db.run("SET CONSTRAINTS fk1 DISABLED")
    db.run("INSERT INTO child VALUES (40, 77, 1, 'orphan')")
    assert db.one("SELECT state FROM sysobjstate WHERE name = 'fk1'") == "D"
    assert codes(db.err("SET CONSTRAINTS fk1 ENABLED"))[0] == -691
    db.run("DELETE FROM child WHERE id = 40")
    db.run("SET CONSTRAINTS fk1 ENABLED")
    assert codes(db.err("INSERT INTO child VALUES (40, 77, 1, 'orphan')"))[0] == -691
    db.run("BEGIN WORK")
    db.run("SET CONSTRAINTS ALL DEFERRED")
    db.run("INSERT INTO child VALUES (41, 50, 1, 'later')")
    db.run("INSERT INTO parent VALUES (50, 'p50')")
    db.run("COMMIT WORK")
    assert db.one("SELECT COUNT(*) FROM child WHERE pid = 50") == 1
    assert codes(db.err("SET CONSTRAINTS nosuch ENABLED"))[0] == -623


def test_alter_table_forms_applications_use(db: Sql) -> None:
    """Guide to SQL: Syntax, ALTER TABLE: ADD … BEFORE, MODIFY with constraints, LOCK MODE,
    MODIFY NEXT SIZE, TYPE (STANDARD); the forms whose objects are not stored here are -999
    (not another code), a second primary key is -704."""
    db.run("CREATE TABLE parent_t (id INT PRIMARY KEY)")
    db.run("INSERT INTO parent_t VALUES (1)")
    db.run("CREATE TABLE al (a INT, b CHAR(5), c INT)")
    db.run("INSERT INTO al VALUES (1, 'x', 1)")
    for sql in ("ALTER TABLE al ADD (d INT DEFAULT 5 NOT NULL BEFORE a, audit CHAR(1))",
                "ALTER TABLE al ADD type INT BEFORE b",  # columns named like the keywords
                "ALTER TABLE al MODIFY a INT NOT NULL PRIMARY KEY CONSTRAINT pk_al",
                "ALTER TABLE al MODIFY c INT CHECK (c > 0) CONSTRAINT ck_al_c",
                "ALTER TABLE al MODIFY c INT REFERENCES parent_t CONSTRAINT fk_al_c",
                "ALTER TABLE al LOCK MODE (ROW)", "ALTER TABLE al MODIFY NEXT SIZE 32",
                "ALTER TABLE al TYPE (STANDARD)", "ALTER TABLE al DROP type"):
        db.run(sql)
    assert db.rows("SELECT colname FROM syscolumns WHERE tabid = (SELECT tabid FROM systables "
                   "WHERE tabname = 'al') ORDER BY colno") == [
        ("d",), ("a",), ("b",), ("c",), ("audit",)]
    assert db.rows("SELECT constrname, constrtype FROM sysconstraints WHERE constrname "
                   "LIKE '%al%' ORDER BY 1") == [("fk_al_c", "R"), ("pk_al", "P")]
    # MODIFY drops the column's check constraint unless restated (MODIFY Clause,
    # ids_sqs_0078: "all attributes previously associated with the column (that is, default
    # value, single-column check constraint, or referential constraint) are dropped"); its
    # sysconstraints row goes with it (twenty-seventh session; it stayed behind)
    db.run("INSERT INTO al (a, b, c) VALUES (2, 'y', 1)")
    assert db.err("INSERT INTO al (a, b, c) VALUES (1, 'y', 1)").sqlcode == -268
    assert db.err("ALTER TABLE al ADD CONSTRAINT PRIMARY KEY (b)").sqlcode == -704
    for form in ("ADD CRCOLS", "DROP CRCOLS", "ADD VERCOLS", "ADD ROWIDS", "ADD AUDIT",
                 "ADD TYPE al_row", "TYPE (RAW)"):
        e = db.err(f"ALTER TABLE al {form}")
        assert e.sqlcode == -999 and form.split()[0] in str(e), form


def test_alter_table_add_serial_numbers_the_rows(db: Sql) -> None:
    """ALTER TABLE ADD of a SERIAL (BIGSERIAL) column: the rows there get numbers from the
    start value, new rows continue after them; a second SERIAL is -362."""
    db.run("CREATE TABLE sr (b CHAR(5))")
    for v in "xyz":
        db.run(f"INSERT INTO sr VALUES ('{v}')")
    db.run("ALTER TABLE sr ADD id SERIAL(100) BEFORE b")
    assert db.rows("SELECT id, b FROM sr ORDER BY id") == [(100, "x"), (101, "y"), (102, "z")]
    assert db.run("INSERT INTO sr (b) VALUES ('w')").serial == 103
    assert db.err("ALTER TABLE sr ADD id2 SERIAL").sqlcode == -362
    db.run("ALTER TABLE sr ADD big BIGSERIAL")
    assert db.rows("SELECT big FROM sr ORDER BY id") == [(1,), (2,), (3,), (4,)]
    assert db.describe("SELECT id, big FROM sr") == [("id", 262, 4), ("big", 309, 8)]


def test_dropped_constraint_leaves_no_catalogue_rows(db: Sql) -> None:
    """DROP CONSTRAINT removes the constraint's sysreferences/syschecks/syscoldepend rows: a
    foreign key's sysreferences row left behind made DROP TABLE parent CASCADE (after the key
    was added again) fail with -623 on the old constraint (Django's schema tests)."""
    _setup(db)
    db.run("ALTER TABLE child ADD CONSTRAINT (FOREIGN KEY (pid) REFERENCES parent "
           "CONSTRAINT child_fk, CHECK (qty > 0) CONSTRAINT qty_pos)")
    db.run("ALTER TABLE child DROP CONSTRAINT (child_fk, qty_pos)")
    assert db.rows("SELECT COUNT(*) FROM sysreferences") == [(0,)]
    assert db.rows("SELECT COUNT(*) FROM syschecks c WHERE NOT EXISTS "
                   "(SELECT 1 FROM sysconstraints s WHERE s.constrid = c.constrid)") == [(0,)]
    db.run("ALTER TABLE child ADD CONSTRAINT FOREIGN KEY (pid) REFERENCES parent "
           "CONSTRAINT child_fk")
    db.run("DROP TABLE parent CASCADE")
    assert db.rows("SELECT COUNT(*) FROM sysconstraints WHERE constrtype = 'R'") == [(0,)]


def test_drop_column_drops_its_constraints_from_the_catalogue(db: Sql) -> None:
    """Dropping a column drops every constraint that uses it (IBM, ALTER TABLE, DROP clause),
    catalogue rows included: a primary key left in sysconstraints made a new PRIMARY KEY on
    another column -704 (Django's schema tests drop the id column and promote a slug)."""
    db.run("CREATE TABLE tag (id SERIAL NOT NULL PRIMARY KEY, slug VARCHAR(50) NOT NULL, "
           "n INT, m INT, UNIQUE (slug), UNIQUE (n, m), CHECK (n > m))")
    db.run("ALTER TABLE tag DROP (id, m)")
    kinds = db.rows("SELECT constrtype FROM sysconstraints c, systables t WHERE "
                    "c.tabid = t.tabid AND t.tabname = 'tag' ORDER BY constrtype")
    assert [k for (k,) in kinds] == ["N", "U"]  # slug's NOT NULL and UNIQUE
    db.run("ALTER TABLE tag ADD CONSTRAINT PRIMARY KEY (slug) CONSTRAINT tag_pk")
    db.run("INSERT INTO tag (slug, n) VALUES ('a', 1)")
    db.run("INSERT INTO tag (slug, n) VALUES ('b', 1)")  # (n, m)'s UNIQUE went with m
    assert codes(db.err("INSERT INTO tag (slug, n) VALUES ('a', 2)"))[0] == -268
