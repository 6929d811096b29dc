"""What Hibernate ORM and Flyway needed from the server (tests/interop/test_hibernate.py,
test_flyway.py), each pinned here through ifxwire over real sockets.

* DROP TABLE's default mode is CASCADE: the other tables' foreign keys to the dropped table go
  with it (IBM Informix Guide to SQL: Syntax, DROP TABLE).  Hibernate's InformixDialect drops
  its schema with ``drop table if exists t cascade`` in mapping order, parents first.
* DROP PROCEDURE finds a routine created by CREATE PROCEDURE ... RETURNING even when the
  client sent comments before CREATE (Flyway sends a migration's leading ``--`` lines with its
  first statement, then cleans with DROP PROCEDURE).
* The login response's product name starts with "Informix" (JDBC's getDatabaseProductName() on
  a real 14.10 is "Informix Dynamic Server"; Flyway refuses any other).
"""

from __future__ import annotations

import socket
from typing import Any

import pytest

import ifxwire
from ifxwire.protocol.login import (
    ConnectRequest,
    build_connect_request,
    packet_length,
    parse_connect_response,
)


def test_drop_table_cascades_to_foreign_keys_of_other_tables(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE orm_parent (id INTEGER PRIMARY KEY, name VARCHAR(20))")
    cur.execute("CREATE TABLE orm_child (id INTEGER PRIMARY KEY, "
                "parent_id INTEGER REFERENCES orm_parent (id), note VARCHAR(10))")
    cur.execute("INSERT INTO orm_parent VALUES (1, 'p')")
    cur.execute("INSERT INTO orm_child VALUES (10, 1, 'kept')")
    cur.execute("DROP TABLE IF EXISTS orm_parent CASCADE")
    # The child keeps its rows and loses only the foreign key (and its catalogue rows).
    cur.execute("SELECT id, parent_id, note FROM orm_child")
    assert cur.fetchall() == [(10, 1, "kept")]
    cur.execute("SELECT COUNT(*) FROM sysconstraints c, systables t WHERE c.tabid = t.tabid "
                "AND t.tabname = 'orm_child' AND c.constrtype = 'R'")
    assert cur.fetchone()[0] == 0
    cur.execute("INSERT INTO orm_child VALUES (11, 99, 'free')")  # no parent needed any more
    cur.execute("DROP TABLE orm_child")


def test_drop_table_default_mode_is_cascade(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE orm_p2 (id INTEGER PRIMARY KEY)")
    cur.execute("CREATE TABLE orm_c2 (id INTEGER, p INTEGER REFERENCES orm_p2 (id))")
    cur.execute("CREATE TABLE orm_c3 (id INTEGER, p INTEGER REFERENCES orm_p2 (id))")
    cur.execute("INSERT INTO orm_p2 VALUES (5)")
    cur.execute("INSERT INTO orm_c2 VALUES (1, 5)")
    cur.execute("INSERT INTO orm_c3 VALUES (2, 5)")
    cur.execute("DROP TABLE orm_p2")
    cur.execute("SELECT COUNT(*) FROM sysreferences")
    remaining = cur.fetchone()[0]
    cur.execute("SELECT p FROM orm_c2 UNION ALL SELECT p FROM orm_c3")
    assert cur.fetchall() == [(5,), (5,)]
    assert remaining == 0
    cur.execute("DROP TABLE orm_c2")
    cur.execute("DROP TABLE orm_c3")


def test_drop_procedure_after_leading_comments(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("-- a migration's header comment\n-- second line\n"
                "CREATE PROCEDURE orm_count(a INTEGER) RETURNING INTEGER;\n"
                "    RETURN a + 1;\nEND PROCEDURE")
    cur.execute("EXECUTE PROCEDURE orm_count(1)")
    assert cur.fetchall() == [(2,)]
    cur.execute("DROP PROCEDURE orm_count")
    cur.execute("SELECT COUNT(*) FROM sysprocedures WHERE procname = 'orm_count'")
    assert cur.fetchone()[0] == 0


def test_drop_procedure_does_not_drop_a_create_function(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("{ header }\nCREATE FUNCTION orm_fn(a INTEGER) RETURNING INTEGER;\n"
                "    RETURN a;\nEND FUNCTION")
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("DROP PROCEDURE orm_fn")
    assert info.value.sqlcode == -674
    cur.execute("DROP FUNCTION orm_fn")


def test_login_product_name_starts_with_informix(server: Any) -> None:
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(build_connect_request(ConnectRequest("informix", "in4mix", "informix")))
        buf = b""
        while len(buf) < 2 or len(buf) < packet_length(buf):
            chunk = sock.recv(4096)
            assert chunk
            buf += chunk
    resp = parse_connect_response(buf[:packet_length(buf)])
    assert resp.accepted
    product, _, release = resp.version.partition(" Version ")
    assert product == "Informix Dynamic Server"
    assert release == "14.10.FC9"


def test_foreign_key_errors_name_owner_and_constraint(conn: ifxwire.Connection) -> None:
    """-691 and -692 carry ``owner.constraint`` (the referencing table's key for -692), which
    Hibernate's InformixDialect reads back as the violated constraint's name."""
    cur = conn.cursor()
    cur.execute("CREATE TABLE orm_fp (id INTEGER PRIMARY KEY)")
    cur.execute("CREATE TABLE orm_fc (id INTEGER, p INTEGER)")
    cur.execute("ALTER TABLE orm_fc ADD CONSTRAINT FOREIGN KEY (p) REFERENCES orm_fp "
                "CONSTRAINT fk_orm_fc")
    cur.execute("INSERT INTO orm_fp VALUES (1)")
    cur.execute("INSERT INTO orm_fc VALUES (1, 1)")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO orm_fc VALUES (2, 7)")
    assert info.value.sqlcode == -691
    assert "informix.fk_orm_fc" in str(info.value)
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("DELETE FROM orm_fp WHERE id = 1")
    assert info.value.sqlcode == -692
    assert "informix.fk_orm_fc" in str(info.value)
    cur.execute("DROP TABLE orm_fc")
    cur.execute("DROP TABLE orm_fp")
