"""WITH GRANT OPTION passed on, the grantor's own REVOKE, and REVOKE's cascade, thirty-third
session (issue 23; both GRANT and REVOKE by a non-owner were -999): over real sockets, one
server, several users, the pages' example run as written.

Pages: Guide to SQL: Syntax, GRANT, "WITH GRANT OPTION keywords" (ids_sqs_0125: mary "uses her
privilege to grant users cathy and paul access"), "AS grantor clause" (ids_sqs_0123: "only
the specified grantor can revoke the effects of the current GRANT operation"), REVOKE,
"Revoking privileges granted WITH GRANT OPTION" (ids_sqs_0149: revoking from mary
"effectively revokes all privileges on the items table from users mary, cathy, and paul").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

USERS = {"informix": "in4mix", "mary": "pw", "cathy": "pw", "paul": "pw", "tom": "pw",
         "joe": "pw"}


@pytest.fixture()
def run(request: pytest.FixtureRequest) -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", users=USERS) as srv:
        def go(user: str, sql: str) -> list[tuple[Any, ...]]:
            with ifxwire.connect(host=srv.host, port=srv.port, user=user,
                                 password=USERS[user], database="gdb", autocommit=True) as c:
                cur = c.cursor()
                cur.execute(sql)
                return [tuple(str(v).strip() for v in r) for r in cur.fetchall()] if (
                    cur.description) else []
        with ifxwire.connect(host=srv.host, port=srv.port, user="informix",
                             password="in4mix", autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE gdb WITH LOG")
        for sql in ("CREATE TABLE items (a INT)", "INSERT INTO items VALUES (1)",
                    "GRANT CONNECT TO PUBLIC", "REVOKE ALL ON items FROM PUBLIC"):
            go("informix", sql)
        yield go


def _auth(run: Any) -> list[tuple[Any, ...]]:
    return list(run("informix", "SELECT grantor, grantee, tabauth FROM systabauth "
                                "WHERE tabid >= 100 ORDER BY 1, 2"))


def _refused(run: Any, user: str, sql: str) -> int:
    with pytest.raises(ifxwire.Error) as e:
        run(user, sql)
    return int(e.value.sqlcode)  # type: ignore[attr-defined]


def test_the_pages_example(run: Any) -> None:
    run("informix", "GRANT SELECT, UPDATE ON items TO mary WITH GRANT OPTION")
    run("mary", "GRANT SELECT, UPDATE ON items TO cathy")
    run("mary", "GRANT SELECT ON items TO paul")
    assert run("paul", "SELECT * FROM items") == [("1",)]
    assert _auth(run) == [("informix", "mary", "SU-------"), ("mary", "cathy", "su-------"),
                          ("mary", "paul", "s--------")]
    # what mary does not hold WITH GRANT OPTION, and what cathy holds without it
    assert _refused(run, "mary", "GRANT INSERT ON items TO paul") == -999
    assert _refused(run, "cathy", "GRANT SELECT ON items TO tom") == -999
    run("informix", "REVOKE SELECT, UPDATE ON items FROM mary")
    assert _auth(run) == []
    assert _refused(run, "paul", "SELECT * FROM items") == -272


def test_only_the_grantor_named_revokes(run: Any) -> None:
    run("informix", "GRANT ALL ON items TO tom WITH GRANT OPTION")
    run("informix", "GRANT SELECT, UPDATE ON items TO joe AS tom")
    run("informix", "REVOKE ALL ON items FROM joe")  # informix granted joe nothing
    assert ("tom", "joe", "su-------") in _auth(run)
    run("tom", "REVOKE ALL ON items FROM joe")
    assert _auth(run) == [("informix", "tom", "SU-IDXAR-")]
