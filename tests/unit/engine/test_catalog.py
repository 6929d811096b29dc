"""Catalog rows and their encodings, and how catalog columns are described."""

from __future__ import annotations

from ifxwire.protocol.codes import TypeCode

from .conftest import Sql

T = TypeCode


def test_syscolumns_encodings(db: Sql) -> None:
    db.run("""create table enc (
        a smallint not null, b integer, c int8, d bigint, e serial, f float, g smallfloat,
        h decimal(10,2), i decimal(16), j money(8,2), k char(20), l varchar(100,10),
        m nchar(5), n nvarchar(30), o lvarchar, p date, q datetime year to second,
        r datetime year to fraction(3), s interval day(3) to second, t interval year to month,
        u boolean, v byte, w text, x bigserial(10))""")
    rows = db.rows("select c.colname, c.coltype, c.collength, c.extended_id from syscolumns c, "
                   "systables t where c.tabid = t.tabid and t.tabname = 'enc' order by c.colno")
    got = {name: (coltype, collength, xid) for name, coltype, collength, xid in rows}
    # LVARCHAR and BOOLEAN are the built-in opaque types 40 and 41 with their extended ids, as
    # real servers store them (43 and 45 are client-side codes only; issue 13).
    assert got == {
        "a": (1 + 256, 2, 0), "b": (2, 4, 0), "c": (17, 10, 0), "d": (52, 8, 0),
        "e": (6 + 256, 4, 0), "f": (3, 8, 0), "g": (4, 4, 0), "h": (5, 10 * 256 + 2, 0),
        "i": (5, 16 * 256 + 255, 0), "j": (8, 8 * 256 + 2, 0), "k": (0, 20, 0),
        "l": (13, 10 * 256 + 100, 0), "m": (15, 5, 0), "n": (16, 30, 0), "o": (40, 2048, 1),
        "p": (7, 4, 0), "q": (10, 0x0E0A, 0), "r": (10, 0x110D, 0), "s": (14, 0x094A, 0),
        "t": (14, 0x0602, 0), "u": (41, 1, 5), "v": (11, 56, 0), "w": (12, 56, 0),
        "x": (53 + 256, 8, 0),
    }


def test_systables_row_for_new_table(db: Sql) -> None:
    db.run("create table t1 (a int, b char(10))")
    row = db.rows("select tabname, owner, tabid, ncols, tabtype, rowsize from systables "
                  "where tabname = 't1'")
    assert row == [("t1", "informix", 100, 2, "T", 14)]
    db.run("create table t2 (a int)")
    assert db.one("select tabid from systables where tabname = 't2'") == 101


def test_catalog_columns_describe_like_informix(db: Sql) -> None:
    cols = db.describe("select tabname, owner, systables.tabid, nrows, created, coltype, "
                       "collength "
                       "from systables, syscolumns where systables.tabid = syscolumns.tabid")
    assert cols == [
        ("tabname", T.VARCHAR, 128), ("owner", T.CHAR, 32), ("tabid", T.SERIAL, 4),
        ("nrows", T.FLOAT, 8), ("created", T.DATE, 4), ("coltype", T.SMALLINT, 2),
        ("collength", T.SMALLINT, 2),
    ]


def test_ambiguous_column(db: Sql) -> None:
    e = db.err("select tabid from systables, syscolumns")
    assert (e.sqlcode, e.near) == (-324, "tabid")


def test_catalog_tables_are_described_in_the_catalog(db: Sql) -> None:
    rows = db.rows("select tabid, tabname from systables where tabid < 20 order by tabid")
    assert (1, "systables") in rows and (2, "syscolumns") in rows


def test_indexes_and_constraints_rows(db: Sql) -> None:
    db.run("create table p (id int primary key, code char(4) unique, n int)")
    db.run("create index ix_n on p (n desc)")
    cons = db.rows("select constrname, constrtype, idxname from sysconstraints c, systables t "
                   "where c.tabid = t.tabid and t.tabname = 'p' order by constrtype")
    kinds = sorted(c[1] for c in cons)
    assert kinds == ["N", "P", "U"] or kinds == ["P", "U"]
    pk = next(c for c in cons if c[1] == "P")
    assert pk[0].startswith("u100_") and pk[2].startswith(" 100_")
    assert db.rows("select idxtype, part1, part2 from sysindexes where idxname = 'ix_n'") == [
        ("D", -3, 0)]


def test_views_recorded(db: Sql) -> None:
    db.run("create table base (a int, b varchar(10))")
    db.run("create view vb as select a, b from base where a > 1")
    assert db.one("select tabtype from systables where tabname = 'vb'") == "V"
    text = "".join(r[0] for r in db.rows(
        "select viewtext from sysviews v, systables t where v.tabid = t.tabid and "
        "t.tabname = 'vb' order by seqno"))
    assert "select a, b from base" in text
    assert db.describe("select * from vb") == [("a", T.INTEGER, 4), ("b", T.VARCHAR, 10)]


def test_defaults_recorded(db: Sql) -> None:
    db.run("create table df (a int default 7, b char(5) default 'x', c date default today, "
           "d char(32) default user)")
    rows = db.rows("select colno, type, default from sysdefaults d, systables t where "
                   "d.tabid = t.tabid and t.tabname = 'df' order by colno")
    assert [(r[0], r[1]) for r in rows] == [(1, "L"), (2, "L"), (3, "T"), (4, "U")]
    db.run("insert into df (a) values (1)")
    row = db.rows("select a, b, d from df")
    assert row == [(1, "x", "informix")]


def test_jdbc_get_tables_query(db: Sql) -> None:
    db.run("create table jt (a int)")
    case = ("CASE WHEN tabtype = 'T' AND tabid <= 99 THEN 'SYSTEM TABLE' WHEN tabtype = 'T' "
            "AND tabid > 99 THEN 'TABLE' WHEN tabtype = 'V' THEN 'VIEW' WHEN tabtype = 'S' OR "
            "tabtype = 'P' THEN 'SYNONYM' WHEN tabtype = 'L' THEN 'LOG' WHEN tabtype = 'E' THEN "
            "'TABLE' ELSE 'UNKNOWN' END")
    rows = db.rows(f"select tabname, {case} , owner from testdb:informix.systables where "
                   f"{case} in ('TABLE') and tabname like '%' and owner like '%' order by 2, 3, 1")
    assert rows == [("jt", "TABLE", "informix")]


def test_jdbc_get_columns_helpers(db: Sql) -> None:
    db.run("create table gc (a decimal(10,2) not null, b varchar(20), c serial)")
    rows = db.rows(
        "SELECT c.colname, informix.get_data_type(c.coltype, c.extended_id, 0), "
        "trim(informix.schema_coltypename(c.coltype, c.extended_id)), "
        "informix.schema_precision(c.coltype, c.extended_id, c.collength), "
        "informix.schema_numscale(c.coltype, c.collength), "
        "informix.schema_nullable(c.coltype)::VARCHAR(3), "
        "informix.schema_isautoincr(c.coltype)::VARCHAR(3) "
        "FROM informix.systables t, informix.syscolumns c WHERE t.tabid = c.tabid "
        "AND t.tabname LIKE ? AND c.colname LIKE ? ORDER BY c.colno", "gc", "%")
    assert rows == [("a", 3, "DECIMAL", 10, 2, "NO", "NO"),
                    ("b", 12, "VARCHAR", 20, None, "YES", "NO"),
                    ("c", 4, "SERIAL", 10, 0, "NO", "YES")]


def test_foreign_keys_have_an_index_and_name_the_referenced_constraint(db: Sql) -> None:
    # JDBC's getImportedKeys (15.0.0.1, IfxDatabaseMetaData) joins the foreign key's
    # sysconstraints.idxname to sysindexes for its columns, and sysreferences.primary to the
    # referenced constraint's constrid: a foreign key is backed by an index.
    db.run("create table pa (id int primary key, code int unique)")
    db.run("create table ch (a int, b int references pa (id), "
           "foreign key (a) references pa (code) constraint fk_code)")
    rows = db.rows(
        "select fk.constrname, pk.constrtype, fi.part1, fi.idxtype from sysconstraints fk, "
        "sysreferences r, sysconstraints pk, sysindexes fi, systables t "
        "where t.tabname = 'ch' and fk.tabid = t.tabid and fk.constrtype = 'R' "
        "and r.constrid = fk.constrid and pk.constrid = r.primary "
        "and fi.idxname = fk.idxname and fi.tabid = fk.tabid order by fk.constrname")
    assert rows[0] == ("fk_code", "U", 1, "D")
    assert rows[1][1:] == ("P", 2, "D") and rows[1][0].startswith("r")


def test_owner_named_in_create_is_the_owner(db: Sql) -> None:
    # CREATE TABLE owner.name makes a table owned by that owner (a DBA may create tables for
    # other users); the owner-qualified name then finds it, and another owner does not.
    db.run("create table other.owned (a int)")
    db.run("create view other.owned_v as select a from owned")
    rows = db.rows("select tabname, owner from systables where tabname like 'owned%' "
                   "order by tabname")
    assert rows == [("owned", "other"), ("owned_v", "other")]
    db.run("insert into other.owned values (1)")
    assert db.one("select count(*) from other.owned_v") == 1
    assert db.err("select * from informix.owned").sqlcode == -206


def test_default_current_with_a_qualifier(db: Sql) -> None:
    # DEFAULT CURRENT YEAR TO SECOND is Informix syntax for a DATETIME column default
    db.run("create table dc (a int, b datetime year to second default current year to second)")
    assert db.one("select d.type from sysdefaults d, systables t where d.tabid = t.tabid "
                  "and t.tabname = 'dc'") == "C"
    db.run("insert into dc (a) values (1)")
    assert db.one("select b from dc") is not None
