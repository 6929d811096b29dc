"""The ifxwire driver calling SPL routines and firing triggers on the embedded server."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers


def test_callproc_and_execute_function(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE cp_log (id INTEGER, amount DECIMAL(10,2))")
    cur.execute("""CREATE PROCEDURE cp_add(i INTEGER, a DECIMAL(10,2))
        IF a < 0 THEN RAISE EXCEPTION -746, -100, 'no negative amounts'; END IF;
        INSERT INTO cp_log VALUES (i, a);
    END PROCEDURE""")
    assert cur.callproc("cp_add", [1, Decimal("2.50")]) == [1, Decimal("2.50")]
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.callproc("cp_add", [2, Decimal("-1")])
    assert (info.value.sqlcode, info.value.isamcode) == (-746, -100)  # type: ignore[attr-defined]
    assert "no negative amounts" in str(info.value)
    cur.execute("""CREATE FUNCTION cp_rows(n INTEGER) RETURNING INTEGER AS i, DECIMAL(10,2);
        DEFINE k INTEGER;
        FOR k = 1 TO n RETURN k, k / 4 WITH RESUME; END FOR;
    END FUNCTION""")
    cur.execute("EXECUTE FUNCTION cp_rows(?)", [20000])
    assert cur.description is not None and [d[0] for d in cur.description] == [
        "i", "(expression)"]
    n = 0
    for k, v in cur:
        n += 1
        assert (k, v) == (n, Decimal(n) / 4)
    assert n == 20000
    conn.commit()
    cur.execute("SELECT * FROM cp_log")
    assert cur.fetchall() == [(1, Decimal("2.50"))]


def test_executemany_fires_row_triggers_in_a_transaction(conn: ifxwire.Connection,
                                                         server: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE tr_main (id INTEGER, v INTEGER)")
    cur.execute("CREATE TABLE tr_log (id INTEGER, v INTEGER)")
    cur.execute("""CREATE TRIGGER tr_main_ins INSERT ON tr_main REFERENCING NEW AS n
        FOR EACH ROW (INSERT INTO tr_log VALUES (n.id, n.v * 2))""")
    conn.commit()
    cur.execute("INSERT INTO tr_main VALUES (0, 0)")  # the transaction holds the write lock
    before = server.batched_groups
    cur.executemany("INSERT INTO tr_main VALUES (?, ?)", [(i, i) for i in range(1, 501)])
    conn.commit()
    assert server.batched_groups == before  # a table with triggers is never batched
    cur.execute("SELECT COUNT(*), SUM(v) FROM tr_log")
    assert cur.fetchall() == [(Decimal(501), Decimal(250500))]


def test_spl_out_and_inout_parameters(conn: ifxwire.Connection) -> None:
    """OUT/INOUT arguments are SPL variables, passed by reference (Guide to SQL: Syntax, "OUT
    and INOUT parameters"); from SQL, where only statement-local variables could receive
    them, a call is -9752 (was: the OUT argument silently taken as an input)."""
    cur = conn.cursor()
    cur.execute("""CREATE FUNCTION op_split(a INTEGER, OUT twice INTEGER,
                                            INOUT trail VARCHAR(40)) RETURNING INTEGER;
        LET twice = a * 2;
        LET trail = NVL(trail, '') || '+' || a;
        IF a < 0 THEN RAISE EXCEPTION -746, 0, 'negative'; END IF;
        RETURN a + 1;
    END FUNCTION""")
    cur.execute("""CREATE FUNCTION op_caller() RETURNING INTEGER, INTEGER, VARCHAR(40);
        DEFINE r, t INTEGER;
        DEFINE tr VARCHAR(40);
        LET tr = 'start';
        LET r = op_split(5, t, tr);                     -- r 6, t 10, tr start+5
        CALL op_split(r, t, tr) RETURNING r;            -- r 7, t 12, tr start+5+6
        EXECUTE FUNCTION op_split(r, t, tr) INTO r;     -- r 8, t 14, tr start+5+6+7
        BEGIN
            ON EXCEPTION END EXCEPTION WITH RESUME;     -- a failed call leaves t and tr
            LET r = op_split(-1, t, tr);
        END
        RETURN r, t, tr;
    END FUNCTION""")
    cur.execute("EXECUTE FUNCTION op_caller()")
    assert cur.fetchall() == [(8, 14, "start+5+6+7")]
    for sql in ("EXECUTE FUNCTION op_split(1, 2, 'x')",
                "SELECT op_split(tabid, tabid, 'x') FROM systables WHERE tabid = 1"):
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute(sql)
        assert info.value.sqlcode == -9752  # type: ignore[attr-defined]
    cur.execute("""CREATE PROCEDURE op_literal() DEFINE r INTEGER;
        LET r = op_split(1, 2, 'x'); END PROCEDURE""")
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("EXECUTE PROCEDURE op_literal()")
    assert info.value.sqlcode == -9752  # type: ignore[attr-defined]
    cur.execute("SELECT paramname, paramattr FROM sysproccolumns c, sysprocedures p"
                " WHERE c.procid = p.procid AND p.procname = 'op_split' ORDER BY paramid")
    # The unnamed return value's paramname is NULL (issue 23: JDBC getFunctionColumns)
    assert cur.fetchall() == [(None, 5), ("a", 1), ("twice", 4), ("trail", 2)]


def test_out_parameter_prepare_names_the_handle_and_describe_answers(server: Any,
                                                                   dbname: str) -> None:
    """JDBC's path for a routine with OUT parameters: the PREPARE is -9752 whose text is
    ``database:handle:unique`` (what IfxSqli.addException / IfxCallableStatement parse), then
    ``SQ_CFPDESCRIBE EOT EOT`` is answered once, with SQ_IFPDESCRIBE read the way
    IfxSqli.recvIDescribe(true) reads it; the empty group gets no reply and the session goes
    on (PROTOCOL.md §10)."""
    from rawclient import RawClient

    from ifxwire.protocol import messages as m
    from ifxwire.protocol.wire import NeedMore, Reader, Writer

    raw = RawClient(server.host, server.port)
    try:
        assert not raw.command(f"DATABASE {dbname}").errors
        assert not raw.command("CREATE FUNCTION op_raw(a INTEGER, OUT b INTEGER) "
                               "RETURNING INTEGER; LET b = a; RETURN a; END FUNCTION").errors
        w = Writer()
        m.put_prepare(w, b"execute function op_raw(?, ?)", 2, raw.layout)
        (err,) = raw.send(w).errors
        assert err.sqlcode == -9752
        db, handle, unique = err.text.decode().split(":")
        assert (db, unique) == (dbname, "1") and int(handle) >= 0
        w = Writer()
        w.u16(131)
        named = raw.layout.named_params
        if named:
            w.buf.append(1)
        w.charstr(db.encode()).i32(int(handle))
        m.put_eot(w)  # sendCFPDescribe's EOT, then receiveMessage's own one
        m.put_eot(w)
        raw.sock.sendall(w.getvalue())
        while True:
            r = Reader(raw.buf)
            try:
                assert r.u16() == 132
                args = []
                n = r.i16()
                if named and n:
                    assert r.i16() == 1  # argument names follow
                for _ in range(n):
                    name = ""
                    if named:
                        r.u8()
                        name = r.charstr().decode()
                    kind, _xid = r.i16(), r.i32()
                    r.charstr(), r.charstr(), r.i16(), r.i16(), r.i32(), r.i32()
                    args.append((name, kind & 0xFF, r.i16()))
                assert r.u16() == 12  # EOT
            except NeedMore:
                raw._recv()
                continue
            raw.buf = raw.buf[r.pos:]
            break
        assert args == [("a" if named else "", 2, 0), ("b" if named else "", 2, 1)]
        reply = raw.command("CREATE TABLE op_raw_t (a INTEGER)")
        assert not reply.errors and reply.dones
    finally:
        raw.close()


def test_fast_path_call_of_a_routine_with_out_parameters_is_refused(conn: ifxwire.Connection
                                                                    ) -> None:
    """Without SQ_FPARAM the OUT value has nowhere to go: -999, not a call that drops it
    (was: run with the OUT argument taken as an input)."""
    cur = conn.cursor()
    cur.execute("CREATE FUNCTION op_fast(a INTEGER, OUT b INTEGER) RETURNING INTEGER; "
                "LET b = a * 2; RETURN a + 1; END FUNCTION")
    conn.commit()
    with pytest.raises(ifxwire.NotSupportedError) as info:
        conn.call_function("op_fast", 1, 2)
    assert info.value.sqlcode == -999  # type: ignore[attr-defined]
    cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
    assert cur.fetchall() == [(1,)]
