"""What the engine keeps or skips at a cached query's OPEN stays right (issue 26, fourth round).

EngineSession.open_cursor now remembers, per plan, that its privilege check passed (on the
session's Privileges object, made again at every schema version: GRANT, REVOKE and DDL move
it), reads a cursor's first batch at OPEN and keeps any error of it for the first fetch,
and takes CURRENT's datetime only when a statement asks for it. Each test runs the same
prepared statement again after a change and checks that the answer follows the change.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server

_USERS = {"informix": "in4mix", "joe": "pw", "ann": "pw"}


@pytest.fixture()
def server() -> Iterator[Any]:
    with Server(port=0, data=":memory:", users=_USERS) as srv:
        yield srv


def _connect(srv: Any, user: str = "informix", db: str | None = None) -> Any:
    return ifxwire.connect(host=srv.host, port=srv.port, user=user, password=_USERS[user],
                           database=db, autocommit=True)


def _sqlcode(exc: BaseException) -> int:
    return int(getattr(exc, "sqlcode", 0))


def _owner_and_joe(srv: Any, db: str) -> tuple[Any, Any]:
    owner = _connect(srv)
    cur = owner.cursor()
    cur.execute(f"create database {db} with log")
    cur.execute("create table p (a int, b varchar(10))")
    cur.execute("insert into p values (1, 'one')")
    cur.execute("revoke all on p from public")
    return owner, _connect(srv, "joe", db)


def test_grant_and_revoke_between_runs_of_one_cursor(server: Any) -> None:
    """The same cached statement of a non-DBA user, run again after another session's GRANT
    and REVOKE: each run is judged by the privileges of that moment, never by a check an
    earlier run passed."""
    owner, joe = _owner_and_joe(server, "occ_grant")
    try:
        sql = "select b from p where a = ?"
        cur = joe.cursor()
        with pytest.raises(ifxwire.Error) as exc:
            cur.execute(sql, (1,))
        assert _sqlcode(exc.value) == -272
        owner.cursor().execute("grant select on p to joe")
        before = server.one_step_groups
        for _ in range(3):  # the later runs pass through the remembered check
            cur.execute(sql, (1,))
            assert cur.fetchall() == [("one",)]
        assert server.one_step_groups >= before + 2  # the cached group's one-step path
        owner.cursor().execute("revoke select on p from joe")
        with pytest.raises(ifxwire.Error) as exc:
            cur.execute(sql, (1,))
        assert _sqlcode(exc.value) == -272
        owner.cursor().execute("grant select on p to joe")
        cur.execute(sql, (1,))
        assert cur.fetchall() == [("one",)]
    finally:
        joe.close()
        owner.close()


def test_set_role_between_runs_of_one_cursor(server: Any) -> None:
    """A role's privileges count while it is set: a check passed under the role is not
    kept once the session sets another role."""
    owner, joe = _owner_and_joe(server, "occ_role")
    try:
        oc = owner.cursor()
        oc.execute("create role readers")
        oc.execute("grant select on p to readers")
        oc.execute("grant readers to joe")
        cur = joe.cursor()
        sql = "select a from p"
        cur.execute("set role readers")
        for _ in range(2):
            cur.execute(sql)
            assert cur.fetchall() == [(1,)]
        cur.execute("set role none")
        with pytest.raises(ifxwire.Error) as exc:
            cur.execute(sql)
        assert _sqlcode(exc.value) == -272
    finally:
        joe.close()
        owner.close()


def test_two_users_do_not_share_a_passed_check(server: Any) -> None:
    """One plan (the engine shares compiled statements by SQL text) run by a user who may
    and then by one who may not read the table: the second is refused."""
    owner, joe = _owner_and_joe(server, "occ_users")
    ann = _connect(server, "ann", "occ_users")
    try:
        owner.cursor().execute("grant select on p to joe")
        sql = "select a from p where a = 1"
        jc = joe.cursor()
        for _ in range(2):
            jc.execute(sql)
            assert jc.fetchall() == [(1,)]
        with pytest.raises(ifxwire.Error) as exc:
            ann.cursor().execute(sql)
        assert _sqlcode(exc.value) == -272
    finally:
        ann.close()
        joe.close()
        owner.close()


@pytest.mark.parametrize("rows", [0, 1, 255, 256, 257, 600])
def test_results_around_one_batch(server: Any, rows: int) -> None:
    """A result read at OPEN in one batch (under 256 rows) and one that goes on after it
    (256 and more): every row, in order, with their loaders applied (DATE, DECIMAL)."""
    conn = _connect(server)
    try:
        cur = conn.cursor()
        cur.execute(f"create database occ_rows{rows}")
        cur.execute("create table r (n int, d date, x decimal(8,2))")
        cur.executemany("insert into r values (?, ?, ?)",
                        [(i, dt.date(2020, 1, 1) + dt.timedelta(days=i), i / 4)
                         for i in range(rows)])
        for _ in range(2):
            cur.execute("select n, d, x from r order by n")
            got = cur.fetchall()
            assert [g[0] for g in got] == list(range(rows))
            if rows:
                assert got[-1][1] == dt.date(2020, 1, 1) + dt.timedelta(days=rows - 1)
                assert float(got[-1][2]) == (rows - 1) / 4
    finally:
        conn.close()


def _group(*parts: tuple[int, Any]) -> Writer:
    w = Writer()
    for code, arg in parts:
        if code == Msg.ID:
            m.put_id(w, arg)
        elif code == Msg.CURNAME:
            m.put_curname(w, arg)
        elif code == Msg.NFETCH:
            m.put_nfetch(w, arg)
        else:
            w.u16(code)
    return w


def test_an_error_of_the_first_batch_comes_at_fetch(server: Any) -> None:
    """OPEN in one group, NFETCH in the next: a division by zero in the second row of the
    result is the fetch's error (-1202), as when the rows were read at the fetch; the OPEN
    itself succeeds."""
    c = RawClient(server.host, server.port)
    try:
        assert c.command("create database occ_err").errors == []
        assert c.command("create table t (a int)").errors == []
        for i in (1, 2, 3):
            assert c.command(f"insert into t values ({i})").errors == []
        w = Writer()
        sql = "select 10 / (a - 2) from t"
        m.put_prepare(w, sql.encode(), 0, c.layout)
        reply = c.send(w)
        assert reply.errors == []
        sid = reply.describes[0].stmt_id
        for _ in range(2):  # the second OPEN is the cached statement's
            opened = c.send(_group((Msg.ID, sid), (Msg.CURNAME, b"ce"), (Msg.OPEN, None)))
            assert opened.errors == [] and opened.tuples == []
            fetched = c.send(_group((Msg.ID, sid), (Msg.NFETCH, 4096)))
            assert [e.sqlcode for e in fetched.errors] == [-1202]
            assert c.send(_group((Msg.ID, sid), (Msg.CLOSE, None))).errors == []
    finally:
        c.close()


def test_current_is_each_statements_own_start(server: Any) -> None:
    """CURRENT of a cached statement run twice: each run its own time, the same for every
    row of one run, within the client's clock around the run."""
    conn = _connect(server, db="sysmaster")
    try:
        cur = conn.cursor()
        sql = "select current year to fraction(5) from systables where tabid <= 5"
        seen = []
        for _ in range(2):
            before = dt.datetime.now()
            cur.execute(sql)
            got = {r[0] for r in cur.fetchall()}
            after = dt.datetime.now()
            assert len(got) == 1
            value = got.pop()
            assert before - dt.timedelta(milliseconds=1) <= value <= after
            seen.append(value)
            time.sleep(0.02)
        assert seen[1] - seen[0] >= dt.timedelta(milliseconds=15)
    finally:
        conn.close()


def _db_with_table(srv: Any, db: str) -> tuple[Any, Any]:
    a = _connect(srv)
    cur = a.cursor()
    cur.execute(f"create database {db} with log")
    cur.execute("create table t (a int)")
    cur.executemany("insert into t values (?)", [(1,), (2,)])
    cur.execute("create sequence sq")
    return a, _connect(srv, db=db)


def test_a_table_dropped_between_runs_is_710_not_206(server: Any) -> None:
    """A plain query is run before its -710 check (the schema version is read inside its
    read transaction); when the table is gone the query itself fails, and the answer is
    still -710, the check's, as when the check came first (raw groups: ifxwire's driver
    would prepare again on -710 and show the -206 of that PREPARE)."""
    c = RawClient(server.host, server.port)
    other = RawClient(server.host, server.port)
    try:
        assert c.command("create database occ_drop").errors == []
        assert c.command("create table t (a int)").errors == []
        assert c.command("insert into t values (2)").errors == []
        w = Writer()
        m.put_prepare(w, b"select a from t where a = 2", 0, c.layout)
        sid = c.send(w).describes[0].stmt_id
        run = ((Msg.ID, sid), (Msg.CURNAME, b"cd"), (Msg.OPEN, None), (Msg.ID, sid),
               (Msg.NFETCH, 4096))
        for _ in range(2):
            reply = c.send(_group(*run))
            assert reply.errors == [] and len(reply.tuples) == 1
            assert c.send(_group((Msg.ID, sid), (Msg.CLOSE, None))).errors == []
        w = Writer()
        m.put_dbopen(w, b"occ_drop")
        assert other.send(w).errors == []
        assert other.command("drop table t").errors == []
        reply = c.send(_group(*run))
        assert [e.sqlcode for e in reply.errors] == [-710]
    finally:
        other.close()
        c.close()


@pytest.mark.parametrize("row_locks", [False, True], ids=["db-lock", "row-locks"])
def test_a_nextval_query_is_checked_before_it_runs(row_locks: bool) -> None:
    """A query with NEXTVAL writes (the sequence moves): it is not run before its -710
    check, so a run refused because the table changed takes no value. Both lock modes:
    under row locks every cached query is checked first, so only the database-lock mode,
    where a plain query runs before its check, shows the rule at work."""
    with Server(port=0, data=":memory:", users=_USERS, row_locks=row_locks) as srv:
        _nextval_run(srv)


def _nextval_run(server: Any) -> None:
    a, b = _db_with_table(server, "occ_seq")
    try:
        cur = a.cursor()
        sql = "select sq.nextval from t where a = 1"
        got = []
        for _ in range(2):
            cur.execute(sql)
            got += [r[0] for r in cur.fetchall()]
        b.cursor().execute("alter table t add (z int)")
        # the server refuses the cached statement (-710); the driver prepares it again
        cur.execute(sql)
        got += [r[0] for r in cur.fetchall()]
        assert got == [got[0], got[0] + 1, got[0] + 2]  # none taken by the refused run
    finally:
        a.close()
        b.close()
