"""Default roles are active from the connection on, thirty-third session (issue 23; found by
a sweep of the GRANT pages): over real sockets, one server, several users.

Pages: Guide to SQL: Syntax, GRANT, "Granting a Default Role" (ids_sqs_0841): "A default role
is activated when the user connects to the database. The SET ROLE statement is not
required"; "If the role has not previously been granted to a user, it is granted as part of
setting the default role"; SET ROLE (ids_sqs_1187): "When a user is assigned to the default
role, an implicit connection to the database is granted to the user". Before: GRANT DEFAULT
ROLE to a user without a sysusers row recorded nothing, and no default role was enabled.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USERS = {"informix": "in4mix", "mary": "pw", "joe": "pw", "bob": "pw"}


@pytest.fixture()
def srv() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", users=USERS) as server:
        with ifxwire.connect(host=server.host, port=server.port, user="informix",
                             password="in4mix", autocommit=True) as c:
            cur = c.cursor()
            cur.execute("CREATE DATABASE rdb WITH LOG")
            cur.execute("DATABASE rdb")
            cur.execute("CREATE TABLE secret (a INT)")
            cur.execute("INSERT INTO secret VALUES (1)")
            cur.execute("REVOKE ALL ON secret FROM PUBLIC")
            cur.execute("CREATE ROLE accounting")
            cur.execute("GRANT SELECT ON secret TO accounting")
        yield server


def _as(srv: Any, user: str) -> ifxwire.Connection:
    return ifxwire.connect(host=srv.host, port=srv.port, user=user, password=USERS[user],
                           database="rdb", autocommit=True)


def _dba(srv: Any, sql: str) -> None:
    with _as(srv, "informix") as c:
        c.cursor().execute(sql)


def _roles(c: ifxwire.Connection) -> tuple[Any, ...]:
    cur = c.cursor()
    cur.execute("SELECT CURRENT_ROLE, DEFAULT_ROLE FROM systables WHERE tabid = 1")
    return tuple(cur.fetchone() or ())


def test_a_default_role_is_granted_and_active_at_connect(srv: Any) -> None:
    _dba(srv, "GRANT DEFAULT ROLE accounting TO mary")  # mary had no sysusers row
    with _as(srv, "mary") as mary:
        assert _roles(mary) == ("accounting", "accounting")
        assert list(mary.cursor().execute("SELECT * FROM secret").fetchall()) == [(1,)]
        mary.cursor().execute("SET ROLE NONE")  # given up for the session
        with pytest.raises(ifxwire.Error) as e:
            mary.cursor().execute("SELECT * FROM secret")
        assert e.value.sqlcode == -272  # type: ignore[attr-defined]
    with _as(srv, "informix") as dba:
        cur = dba.cursor()
        cur.execute("SELECT rolename, grantee FROM sysroleauth ORDER BY 2")
        assert [tuple(str(v).strip() for v in r) for r in cur.fetchall()] == [
            ("accounting", "mary")]


def test_publics_default_role_and_revoke(srv: Any) -> None:
    _dba(srv, "GRANT CONNECT TO joe")
    _dba(srv, "GRANT DEFAULT ROLE accounting TO PUBLIC")
    with _as(srv, "bob") as bob:  # no row of his own: PUBLIC's default
        assert _roles(bob) == ("accounting", "accounting")
        assert list(bob.cursor().execute("SELECT * FROM secret").fetchall()) == [(1,)]
    _dba(srv, "REVOKE DEFAULT ROLE FROM PUBLIC")
    with _as(srv, "bob") as bob:
        assert _roles(bob) == (None, None)
        with pytest.raises(ifxwire.Error) as e:
            bob.cursor().execute("SELECT * FROM secret")
        assert e.value.sqlcode == -272  # type: ignore[attr-defined]
