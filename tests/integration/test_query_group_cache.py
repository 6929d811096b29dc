"""What the server keeps between executions of one query stays right when things change.

Session._query_group remembers the bytes of a prepared query's group by statement id and
matches the next group against them (issue 26, select_one_row); the engine keeps compiled
statements by SQL text (EngineSession.prepare's cache, keyed by the schema version). Each
test here runs the same group bytes, or the same SQL text, twice with a change in between:
the schema (ALTER/DROP from another session), the statement behind a reused id, the bound
values, the fetch size, the protocol layout of another session. The answer must follow the
change, never come from what was kept.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server, onestep
from ifxwire.types.bind import encode_bind_params


@pytest.fixture(params=["compiled", "python"])
def server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Each test with the compiled one-step path (ifxwire._groupstep, where built and not
    IFXWIRE_PURE) and with the Python one (_query_group alone)."""
    if request.param == "compiled":
        if onestep.serve_compiled is None:
            pytest.skip("ifxwire._groupstep not built, or IFXWIRE_PURE")
    else:
        monkeypatch.setattr(onestep, "serve_compiled", None)
    with Server(port=0, data=":memory:") as srv:
        yield srv


def _prepare(c: RawClient, sql: str) -> int:
    w = Writer()
    m.put_prepare(w, sql.encode(), sql.count("?"), c.layout)
    reply = c.send(w)
    assert reply.errors == [], reply.errors
    return reply.describes[0].stmt_id


def _query(sid: int, *params: object, fetch: int = 4096) -> Writer:
    w = Writer()
    m.put_id(w, sid)
    m.put_curname(w, b"cq")
    if params:
        w.u16(Msg.BIND).raw(encode_bind_params(params, "iso-8859-1"))
    w.u16(Msg.OPEN)
    m.put_id(w, sid)
    m.put_nfetch(w, fetch)
    return w


def _close(c: RawClient, sid: int, release: bool = False) -> None:
    w = Writer()
    m.put_id(w, sid)
    w.u16(Msg.RELEASE if release else Msg.CLOSE)
    assert c.send(w).errors == []


def _ints(tuples: list[bytes]) -> list[tuple[int, ...]]:
    """INT columns of each tuple."""
    return [struct.unpack(f">{len(t) // 4}i", t) for t in tuples]


def _setup(srv: Any, db: str) -> tuple[RawClient, RawClient]:
    a = RawClient(srv.host, srv.port)
    assert a.command(f"create database {db} with log").errors == []
    assert a.command("create table t (a int, b int)").errors == []
    for i in range(1, 4):
        assert a.command(f"insert into t values ({i}, {i * 10})").errors == []
    b = RawClient(srv.host, srv.port)
    w = Writer()
    m.put_dbopen(w, db.encode())
    assert b.send(w).errors == []
    return a, b


def test_alter_between_two_runs_of_one_group(server: Any) -> None:
    """The same group bytes after another session altered the table: -710 (the statement
    must be prepared again), then the same SQL text prepared again sees the new column."""
    a, b = _setup(server, "qgc_alter")
    try:
        sql = "select * from t where a = ?"
        sid = _prepare(a, sql)
        for _ in range(2):  # the second run is matched against the first one's bytes
            reply = a.send(_query(sid, 2))
            assert reply.errors == [] and _ints(reply.tuples) == [(2, 20)]
            _close(a, sid)
        assert b.command("alter table t add c int").errors == []
        assert b.command("update t set c = a * 100").errors == []
        reply = a.send(_query(sid, 2))
        assert [e.sqlcode for e in reply.errors] == [-710]
        _close(a, sid, release=True)
        sid = _prepare(a, sql)
        reply = a.send(_query(sid, 2))
        assert reply.errors == [] and _ints(reply.tuples) == [(2, 20, 200)]
        assert server.one_step_groups >= 3  # the groups above took Session._query_group
    finally:
        a.close()
        b.close()


def test_drop_and_recreate_between_runs(server: Any) -> None:
    """DROP TABLE and CREATE TABLE of the same name with other columns between two
    executions of one SQL text: the second answer is the new table's."""
    a, b = _setup(server, "qgc_drop")
    try:
        sql = "select * from t where a >= ? order by a"
        sid = _prepare(a, sql)
        assert len(a.send(_query(sid, 1)).tuples) == 3
        _close(a, sid)
        assert b.command("drop table t").errors == []
        assert b.command("create table t (a int)").errors == []
        assert b.command("insert into t values (7)").errors == []
        reply = a.send(_query(sid, 1))
        assert reply.errors and reply.errors[0].sqlcode in (-710, -206)
        _close(a, sid, release=True)
        sid = _prepare(a, sql)
        reply = a.send(_query(sid, 1))
        assert reply.errors == [] and _ints(reply.tuples) == [(7,)]
    finally:
        a.close()
        b.close()


def test_reused_statement_id_runs_the_new_statement(server: Any) -> None:
    """A statement released and another prepared under the same id: the same group bytes
    now run the new statement (what is kept is bytes, never the statement)."""
    a, b = _setup(server, "qgc_reuse")
    try:
        first = _prepare(a, "select a from t where a = ?")
        assert _ints(a.send(_query(first, 3)).tuples) == [(3,)]
        _close(a, first)
        assert _ints(a.send(_query(first, 3)).tuples) == [(3,)]
        _close(a, first, release=True)
        second = _prepare(a, "select b from t where a = ?")
        if second != first:
            pytest.skip("the server gave the new statement another id")
        reply = a.send(_query(second, 3))
        assert reply.errors == [] and _ints(reply.tuples) == [(30,)]
        assert server.one_step_groups >= 3
    finally:
        a.close()
        b.close()


def test_values_and_fetch_size_change_between_runs(server: Any) -> None:
    """Other bound values and another fetch size in the same group shape: each run answers
    its own values, and a fetch buffer too small for the rows leaves the cursor open."""
    a, b = _setup(server, "qgc_values")
    try:
        sid = _prepare(a, "select a from t where a >= ? order by a")
        for low, want in ((1, [1, 2, 3]), (2, [2, 3]), (3, [3]), (4, [])):
            reply = a.send(_query(sid, low))
            assert reply.errors == [] and [r[0] for r in _ints(reply.tuples)] == want
            assert [d.rows for d in reply.dones] == [len(want)]
            _close(a, sid)
        # 1 byte asked: the server's minimum fetch size applies; all three rows fit in it.
        reply = a.send(_query(sid, 1, fetch=1))
        assert [r[0] for r in _ints(reply.tuples)] == [1, 2, 3]
        _close(a, sid)
    finally:
        a.close()
        b.close()


def test_values_kept_or_let_go_after_a_one_step_run(server: Any) -> None:
    """The one-step path lets a run's bound values go as _open does (statements.after_run):
    small values stay, and the same group without its SQ_BIND runs with them again; values
    over KEEP_BIND_BYTES (here 260 VARCHARs of 255 characters, all plain binds) are let go,
    and that group is then -254 until a new SQ_BIND."""
    a, b = _setup(server, "qgc_release")
    try:
        assert a.command("create table u (a int, s varchar(255))").errors == []
        assert a.command("insert into u values (1, 'x')").errors == []
        n = 260
        sid = _prepare(a, f"select a from u where s not in ({', '.join('?' * n)}) order by a")
        small = tuple(f"v{i}" for i in range(n))
        big = tuple(chr(65 + i % 26) * 255 for i in range(n))  # 66,300 characters
        slow = Writer()
        m.put_command(slow, b"insert into u select 2, 'y' from systables x, systables y,"
                      b" systables z where x.tabid + y.tabid + z.tabid < 0", a.layout)
        m.put_eot(slow)
        # One run of the large values first: the session's receive buffer grows to hold
        # such a group (until then it arrives in two receives and takes the message loop).
        assert a.send(_query(sid, *big)).errors == []
        _close(a, sid)
        for values, want in ((small, []), (small, []), ((), []),
                             (big, []), ((), [-254]), (big, []), ((), [-254])):
            before = server.one_step_groups  # (the slow group is no query group)
            if values == big:
                # A group this long arrives whole in one receive only when it waits in the
                # socket while the server is busy: behind a slow statement's group.
                a.sock.sendall(slow.getvalue())
                time.sleep(0.005)  # (the slow statement takes ~25 ms)
                query = _query(sid, *values)
                m.put_eot(query)
                a.sock.sendall(query.getvalue())
                assert a.read_reply().errors == []
                reply = a.read_reply()
            else:
                reply = a.send(_query(sid, *values))
            assert [e.sqlcode for e in reply.errors] == want, values[:1]
            if not want:
                assert _ints(reply.tuples) == [(1,)]
            assert server.one_step_groups - before == 1  # it took Session._query_group
            _close(a, sid)
    finally:
        a.close()
        b.close()


def test_driver_same_text_across_ddl(server: Any) -> None:
    """Through the driver's statement cache: the same SQL text before and after another
    connection added a column gives the new row shape (the driver prepares again on -710)
    or the error, never the old shape with stale values."""
    kw: dict[str, Any] = {"host": server.host, "port": server.port, "user": "informix",
                          "password": "in4mix", "autocommit": True}
    setup = ifxwire.connect(**kw)
    setup.cursor().execute("create database qgc_drv with log")
    setup.close()
    one = ifxwire.connect(**kw, database="qgc_drv")
    two = ifxwire.connect(**kw, database="qgc_drv")
    try:
        cur = one.cursor()
        cur.execute("create table t (a int)")
        cur.execute("insert into t values (5)")
        sql = "select * from t where a = ?"
        for _ in range(3):
            cur.execute(sql, (5,))
            assert cur.fetchall() == [(5,)]
        two.cursor().execute("alter table t add b int")
        two.cursor().execute("update t set b = 6")
        try:
            cur.execute(sql, (5,))
        except ifxwire.DatabaseError as exc:
            assert "-710" in str(exc) or getattr(exc, "sqlcode", None) == -710
            cur.execute(sql, (5,))
        assert cur.fetchall() == [(5, 6)]
        assert server.one_step_groups >= 2  # the driver's cached executions were matched
    finally:
        one.close()
        two.close()


def test_same_text_under_two_dbdates(server: Any) -> None:
    """One SQL text with a date literal, run repeatedly by two sessions whose DBDATE differ:
    each reads the literal its own way (the compiled statement is kept per DBDATE), and a
    DATE column's values are sent the same in both."""
    kw: dict[str, Any] = {"host": server.host, "port": server.port, "user": "informix",
                          "password": "in4mix", "autocommit": True}
    setup = ifxwire.connect(**kw)
    setup.cursor().execute("create database qgc_dates with log")
    setup.close()
    mdy = ifxwire.connect(**kw, database="qgc_dates", env={"DBDATE": "MDY4/"})
    dmy = ifxwire.connect(**kw, database="qgc_dates", env={"DBDATE": "DMY4/"})
    try:
        mdy.cursor().execute("create table t (id int, d date)")
        mdy.cursor().execute("insert into t values (1, '01/02/2020')")  # 2 January 2020
        sql = "select id, d from t where d = '01/02/2020' and id = ?"
        for _ in range(3):
            for conn, want in ((mdy, 1), (dmy, 0), (mdy, 1)):
                cur = conn.cursor()
                cur.execute(sql, (1,))
                assert len(cur.fetchall()) == want
        cur = dmy.cursor()
        cur.execute("select d from t where id = ?", (1,))
        assert [r[0].isoformat() for r in cur.fetchall()] == ["2020-01-02"]
    finally:
        mdy.close()
        dmy.close()


def test_fetch_replies_up_to_16_mib(server: Any) -> None:
    """A fetch reply holds tuples up to the size the client asks for, up to 16 MiB (the
    server's ceiling, raised from 4 MiB for fetch_arrow_table's 16 MiB replies): the first
    reply of the query group (built by the handlers on the first run, by the one-step path
    on the second), an NFETCH asking more than the ceiling, and the end's SQ_DONE."""
    width = 30000
    kw: dict[str, Any] = {"host": server.host, "port": server.port, "user": "informix",
                          "password": "in4mix", "autocommit": True}
    with ifxwire.connect(**kw) as setup:
        cur = setup.cursor()
        cur.execute("create database qgc_big")
        cur.execute("database qgc_big")
        cur.execute(f"create table big (k int, c char({width}))")
        cur.executemany("insert into big values (?, ?)",
                        [(k, f"{k:05d}" * (width // 5)) for k in range(900)])
    a = RawClient(server.host, server.port)
    try:
        w = Writer()
        m.put_dbopen(w, b"qgc_big")
        assert a.send(w).errors == []
        sid = _prepare(a, "select k, c from big order by k")
        each = 8 + 4 + width  # SQ_TUPLE header, the INT, the CHAR: every reply stops at the
        # first tuple that reaches the budget (handlers._fetch, tuples.write_tuples)

        def fetched(reply: Any, first: int, budget: int) -> int:
            assert reply.errors == []
            n = len(reply.tuples)
            assert n == -(-budget // each), (n, budget)
            for i, t in enumerate(reply.tuples):
                k = struct.unpack(">i", t[:4])[0]
                assert k == first + i and t[4:] == (f"{k:05d}" * (width // 5)).encode()
            return n

        for _ in range(2):  # the second run takes the one-step path (Session._query_group)
            reply = a.send(_query(sid, fetch=8 << 20))
            got = fetched(reply, 0, 8 << 20)
            assert got > (4 << 20) // each + 1 and reply.dones == []
            w = Writer()
            m.put_id(w, sid)
            m.put_nfetch(w, 64 << 20)  # more than the ceiling: 16 MiB
            reply = a.send(w)
            got += fetched(reply, got, 16 << 20)
            assert reply.dones == [] and got < 900
            w = Writer()
            m.put_id(w, sid)
            m.put_nfetch(w, 64 << 20)
            reply = a.send(w)
            assert [d.rows for d in reply.dones] == [900] and len(reply.tuples) == 900 - got
            _close(a, sid)
        assert server.one_step_groups >= 1
    finally:
        a.close()
