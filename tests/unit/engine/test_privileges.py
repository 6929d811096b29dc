"""Privileges are enforced: database level (CONNECT/RESOURCE/DBA), table level, roles."""

from __future__ import annotations

import pytest

from ifxwire.server.engine import Engine, EngineError

from .conftest import Sql, codes


def _as(engine: Engine, user: str) -> Sql:
    s = engine.session(user, {})
    s.open_database("testdb")
    return Sql(s)


def test_table_privileges(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE p (a INT, b INT)")
    db.run("INSERT INTO p VALUES (1, 2)")
    db.run("REVOKE ALL ON p FROM public")
    joe = _as(engine, "joe")
    assert codes(joe.err("SELECT * FROM p")) == (-272, 0)
    assert codes(joe.err("INSERT INTO p VALUES (3, 4)"))[0] == -275
    assert codes(joe.err("UPDATE p SET a = 5"))[0] == -273
    assert codes(joe.err("DELETE FROM p"))[0] == -274
    db.run("GRANT SELECT, INSERT ON p TO joe")
    assert joe.rows("SELECT a FROM p") == [(1,)]
    joe.run("INSERT INTO p VALUES (3, 4)")
    assert codes(joe.err("UPDATE p SET a = 5 WHERE a = 1"))[0] == -273
    assert codes(joe.err("INSERT INTO p SELECT * FROM q_nosuch"))[0] == -206
    db.run("REVOKE SELECT ON p FROM joe")
    assert codes(joe.err("SELECT * FROM p"))[0] == -272
    # a role's privileges count once the role is set
    db.run("CREATE ROLE readers")
    db.run("GRANT SELECT ON p TO readers")
    db.run("GRANT readers TO joe")
    assert codes(joe.err("SELECT * FROM p"))[0] == -272
    joe.run("SET ROLE readers")
    assert len(joe.rows("SELECT * FROM p")) == 2
    joe.s.close()


def test_database_privileges(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE owned (a INT)")
    joe = _as(engine, "joe")  # PUBLIC has CONNECT
    assert codes(joe.err("CREATE TABLE mine (a INT)"))[0] == -388
    joe.run("CREATE TEMP TABLE scratch (a INT)")
    assert codes(joe.err("CREATE ROLE r1"))[0] == -389
    assert codes(joe.err("GRANT CONNECT TO ann"))[0] == -389
    assert codes(joe.err("DROP TABLE owned"))[0] == -999
    assert codes(joe.err("ALTER TABLE owned ADD (b INT)"))[0] == -999
    db.run("GRANT RESOURCE TO joe")
    joe.run("CREATE TABLE mine (a INT)")
    joe.run("INSERT INTO mine VALUES (1)")
    joe.run("ALTER TABLE mine ADD (b INT)")
    db.run("GRANT ALTER ON owned TO joe")
    joe.run("ALTER TABLE owned ADD (b INT)")
    joe.s.close()
    db.run("REVOKE CONNECT FROM public")
    with pytest.raises(EngineError) as info:
        _as(engine, "ann")
    assert info.value.sqlcode == -387
