"""DDL inside a transaction reads the catalogue once per statement, not once per name looked
up: after the first DDL of a transaction the session kept no schema at all and reloaded the
whole catalogue at every lookup, so each ALTER TABLE ... ADD CONSTRAINT FOREIGN KEY of
Django's migrate (hundreds of tables in one transaction) cost several full loads and the run
took minutes. A rolled-back DDL or savepoint must still not leave a stale schema behind."""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire
from ifxwire.server.engine.schema import catalog as cat


def _connect(server: Any) -> Any:
    return ifxwire.connect(host=server.host, port=server.port, user="informix",
                           password="in4mix", database="d_ddl_schema_cache")


@pytest.fixture(scope="module")
def db(server: Any) -> None:
    with ifxwire.connect(host=server.host, port=server.port, user="informix",
                         password="in4mix", autocommit=True) as c:
        c.execute("CREATE DATABASE d_ddl_schema_cache WITH LOG")


def test_alter_in_a_transaction_loads_the_catalogue_once_per_statement(
        server: Any, db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = []
    real = cat.load_schema

    def counting(*args: Any, **kw: Any) -> Any:
        loads.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(cat, "load_schema", counting)
    with _connect(server) as conn:
        cur = conn.cursor()
        for i in range(6):
            cur.execute(f"CREATE TABLE sc_t{i} (id SERIAL PRIMARY KEY, p INT, n VARCHAR(10))")
        loads.clear()
        for i in range(1, 6):
            cur.execute(f"ALTER TABLE sc_t{i} ADD CONSTRAINT FOREIGN KEY (p) "
                        f"REFERENCES sc_t{i - 1} (id) CONSTRAINT sc_fk{i}")
        # one load for each statement's DDL context; before: 3-4 per ALTER
        assert len(loads) <= 5 + 1
        cur.execute("INSERT INTO sc_t0 (n) VALUES ('a')")
        cur.execute("INSERT INTO sc_t1 (p, n) VALUES (1, 'b')")
        with pytest.raises(ifxwire.IntegrityError):
            cur.execute("INSERT INTO sc_t2 (p, n) VALUES (99, 'c')")
        conn.rollback()


def test_rollback_to_savepoint_after_ddl_forgets_the_schema(server: Any, db: None) -> None:
    with _connect(server) as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE sp_keep (a INT)")
        conn.execute("SAVEPOINT s1")
        cur.execute("CREATE TABLE sp_gone (a INT)")
        cur.execute("SELECT * FROM sp_gone")
        conn.execute("ROLLBACK TO SAVEPOINT s1")
        # the schema version is back where it was; a different table at the same version
        cur.execute("CREATE TABLE sp_other (b INT)")
        with pytest.raises(ifxwire.ProgrammingError):
            cur.execute("SELECT * FROM sp_gone")
        cur.execute("SELECT b FROM sp_other")
        conn.rollback()
