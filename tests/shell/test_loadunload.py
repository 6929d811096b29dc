"""dbaccess's LOAD and UNLOAD in the shell, against the embedded server: the UNL format
(escapes, NULL, empty strings, values over several lines, DBDATE), round trips of every type,
errors naming the line, the connection usable afterwards; and ``\\dump``."""

from __future__ import annotations

import datetime as dt
import io
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.shell import loadunload, unl
from ifxwire.shell.session import Settings, ShellSession

TYPES = ("a SMALLINT, b INTEGER, c BIGINT, d INT8, e FLOAT, f SMALLFLOAT, g DECIMAL(12,3), "
         "h MONEY(10,2), i DATE, j DATETIME YEAR TO SECOND, k DATETIME YEAR TO FRACTION(3), "
         "l DATETIME HOUR TO MINUTE, m INTERVAL DAY TO SECOND, n CHAR(6), o VARCHAR(30), "
         "p LVARCHAR(200), q BOOLEAN, r BYTE, s TEXT, t NCHAR(4), u NVARCHAR(10)")


@pytest.fixture()
def conn(server: Any) -> Any:
    with ifxwire.connect(host=server.host, port=server.port, user="informix",
                         password="in4mix", database="shop", autocommit=True) as c:
        yield c


def shell(conn: Any) -> tuple[ShellSession, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return ShellSession(conn, Settings(progress_after=None), out, err), out, err


def _text(rng: random.Random) -> str:
    alphabet = "ab|\\\n ;é,'\"x"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def _row(rng: random.Random, k: int) -> tuple[Any, ...]:
    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.15 else value
    return (
        maybe(rng.randint(-32767, 32767)), maybe(rng.randint(-2**31 + 1, 2**31 - 1)),
        maybe(rng.randint(-2**63 + 1, 2**63 - 1)), maybe(rng.randint(-2**40, 2**40)),
        maybe(rng.uniform(-1e10, 1e10)), maybe(float(rng.randint(-1000, 1000)) / 4),
        maybe(Decimal(rng.randint(-10**11, 10**11)) / 1000),
        maybe(Decimal(rng.randint(-10**9, 10**9)) / 100),
        maybe(dt.date(1900, 1, 1) + dt.timedelta(days=rng.randint(0, 60000))),
        maybe(dt.datetime(2024, 5, 6, 7, 8, 9) + dt.timedelta(seconds=rng.randint(0, 10**8))),
        maybe(dt.datetime(2001, 2, 3, 4, 5, 6, rng.randint(0, 999) * 1000)),
        maybe(dt.time(rng.randint(0, 23), rng.randint(0, 59))),
        maybe(dt.timedelta(days=rng.randint(0, 99), seconds=rng.randint(0, 86399))),
        maybe(_text(rng)[:6].rstrip(" ").ljust(6) if k % 3 else "      "),
        maybe(_text(rng)), maybe(_text(rng) * 3), maybe(rng.random() < 0.5),
        maybe(bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))),  # b"" is NULL
        maybe(_text(rng)), maybe("ñ" + _text(rng)[:3]), maybe(_text(rng)),
    )


def test_round_trip_of_every_type(conn: Any, tmp_path: Path) -> None:
    """UNLOAD then LOAD gives equal rows, over random values of every column type (NULLs,
    empty strings, delimiters, backslashes and newlines inside values included)."""
    rng = random.Random(28)
    conn.execute(f"CREATE TEMP TABLE src ({TYPES})")
    conn.execute(f"CREATE TEMP TABLE dst ({TYPES})")
    rows = [_row(rng, k) for k in range(300)] + [(None,) * 21]
    cols = "a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u"
    conn.cursor().executemany(f"INSERT INTO src ({cols}) VALUES ({', '.join('?' * 21)})",
                              rows)
    sh, out, err = shell(conn)
    path = tmp_path / "all.unl"
    assert sh.run_text(f"UNLOAD TO '{path}' SELECT * FROM src ORDER BY b, a;"), err.getvalue()
    assert sh.run_text(f"LOAD FROM '{path}' INSERT INTO dst;"), err.getvalue()
    assert out.getvalue() == f"{len(rows)} row(s) unloaded.\n{len(rows)} row(s) loaded.\n"
    order = "ORDER BY b, a, c"
    before = conn.execute(f"SELECT * FROM src {order}").fetchall()
    after = conn.execute(f"SELECT * FROM dst {order}").fetchall()
    assert after == before


def test_unl_format_facts(conn: Any, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("DBDATE", "DMY4.")
    conn.execute("CREATE TEMP TABLE f (n INT, c CHAR(5), v VARCHAR(20), d DATE, b BYTE, "
                 "m MONEY(8,2), x DATETIME YEAR TO MINUTE)")
    conn.execute("INSERT INTO f VALUES (1, 'ab', 'x|y\\z', '2024-02-03', NULL, 12.5, "
                 "'2024-02-03 04:05')")
    cur = conn.cursor()
    cur.execute("INSERT INTO f VALUES (?, ?, ?, ?, ?, ?, ?)",
                (None, "", "two\nlines", None, b"\x01\xab", None, None))
    sh, _, err = shell(conn)
    path = tmp_path / "f.unl"
    assert sh.run_text(f"UNLOAD TO '{path}' SELECT * FROM f ORDER BY n;"), err.getvalue()
    text = path.read_text(encoding="utf-8")
    assert text == ("|\\ |two\\\nlines||01ab|||\n"
                    "1|ab|x\\|y\\\\z|03.02.2024||12.50|2024-02-03 04:05|\n")
    path2 = tmp_path / "g.unl"
    assert sh.run_text(f"UNLOAD TO '{path2}' DELIMITER ';' SELECT n, v FROM f WHERE n = 1;")
    assert path2.read_text() == "1;x|y\\\\z;\n"
    monkeypatch.setenv("DBDELIMITER", "!")
    assert sh.run_text(f"UNLOAD TO '{path2}' SELECT n, v FROM f WHERE n = 1;")
    assert path2.read_text() == "1!x|y\\\\z!\n"


def test_records_reader() -> None:
    data = "1|a\\|b|\\ ||\n2|x\\\ny\\\\|z|w|\n\n"
    assert list(unl.records(io.StringIO(data), "|")) == [
        (1, ["1", "a|b", "", None]), (2, ["2", "x\ny\\", "z", "w"])]
    with pytest.raises(unl.UnlError, match="line 2"):
        list(unl.records(io.StringIO("1|\n2|b"), "|"))
    with pytest.raises(ValueError):
        unl.delimiter("a")
    assert unl.DateFormat("Y4MD-").format(dt.date(2024, 1, 2)) == "2024-01-02"
    assert unl.DateFormat("MDY2/").parse("01/02/24") == dt.date(2024, 1, 2)


def test_load_error_names_the_line_and_keeps_nothing(conn: Any, tmp_path: Path) -> None:
    conn.execute("CREATE TABLE ld (id INT PRIMARY KEY, name VARCHAR(10))")
    try:
        path = tmp_path / "bad.unl"
        path.write_text("1|one|\n2|two|\n3|three\\\n3|\n2|dup|\n")
        sh, out, err = shell(conn)
        assert not sh.run_text(f"LOAD FROM '{path}' INSERT INTO ld;")
        assert "ERROR -268" in err.getvalue()
        assert "LOAD stopped at line 5 of" in err.getvalue()
        assert "no row of the file was kept" in err.getvalue()
        assert conn.execute("SELECT COUNT(*) FROM ld").fetchone()[0] == 0
        assert not conn.in_transaction
        path.write_text("1|one|\n2|x|y|\n")
        sh, out, err = shell(conn)
        assert not sh.run_text(f"LOAD FROM '{path}' INSERT INTO ld (id, name);")
        assert "line 2" in err.getvalue() and "3 fields for 2 columns" in err.getvalue()
        path.write_text("1|one|\n2|x")
        sh, out, err = shell(conn)
        assert not sh.run_text(f"LOAD FROM '{path}' INSERT INTO ld;")
        assert "line 2" in err.getvalue()
        path.write_text("1|one|\nzz|x|\n")
        sh, out, err = shell(conn)
        assert not sh.run_text(f"LOAD FROM '{path}' INSERT INTO ld;")
        assert "line 2" in err.getvalue()
        # the connection is still usable, and a good file loads
        path.write_text("1|one|\n2|two|\n3|two\\\nlines|\n")
        sh, out, err = shell(conn)
        assert sh.run_text(f"LOAD FROM '{path}' INSERT INTO ld; SELECT name FROM ld "
                           "WHERE id = 3;"), err.getvalue()
        assert "3 row(s) loaded." in out.getvalue()
        assert conn.execute("SELECT name FROM ld WHERE id = 3").fetchone()[0] == "two\nlines"
    finally:
        conn.execute("DROP TABLE ld")


def test_load_streams_in_batches(conn: Any, tmp_path: Path) -> None:
    """A file larger than several batches loads through executemany batches."""
    conn.execute("CREATE TEMP TABLE big (id INT, name VARCHAR(20))")
    path = tmp_path / "big.unl"
    with path.open("w") as f:
        for i in range(5500):
            f.write(f"{i}|name {i}|\n")
    stmt = loadunload.parse(f"LOAD FROM '{path}' INSERT INTO big")
    assert isinstance(stmt, loadunload.Load)
    assert loadunload.load(conn, stmt, batch=1000) == 5500
    assert conn.execute("SELECT COUNT(*), SUM(id) FROM big").fetchone() == (5500, 5500 * 5499 // 2)


def test_syntax_errors_are_explained(conn: Any) -> None:
    sh, _, err = shell(conn)
    assert not sh.run_text("LOAD FROM nofile INSERT INTO t;")
    assert "use LOAD FROM 'file'" in err.getvalue()
    assert not sh.run_text("UNLOAD TO '/nonexistent/dir/x.unl' SELECT 1 FROM customer;")
    assert "cannot open" in err.getvalue()


def test_dump_prints_dbschema_form(conn: Any) -> None:
    conn.execute("CREATE TABLE dp (id SERIAL PRIMARY KEY, code CHAR(3) NOT NULL UNIQUE, "
                 "made DATE DEFAULT TODAY, note VARCHAR(10) DEFAULT 'x')")
    conn.execute("CREATE TABLE dq (id INT, pid INT REFERENCES dp (id), "
                 "amt MONEY(8,2) CHECK (amt > 0))")
    conn.execute("CREATE INDEX iq ON dq (pid, id DESC)")
    try:
        sh, out, err = shell(conn)
        assert sh.run_text("\\dump dq"), err.getvalue()
        text = out.getvalue()
        assert 'create table "informix".dq \n  (\n    id integer,\n    pid integer,\n' in text
        assert "    amt money(8,2),\n    check (amt > 0) constraint" in text
        assert 'alter table "informix".dq add constraint (foreign key (pid) references ' \
               '"informix".dp (id) constraint "informix".' in text
        assert 'create index "informix".iq on "informix".dq (pid, id desc) using btree ;' in text
        sh, out, err = shell(conn)
        assert sh.run_text("\\dump")
        whole = out.getvalue()
        assert "create table \"informix\".customer" in whole and "dp \n" in whole
        assert "    code char(3) not null" in whole and "default today" in whole
        assert "default 'x'" in whole and "primary key (id)" in whole
        # the DDL re-creates the tables in another database
        ddl = whole
        conn.execute("CREATE DATABASE dumpcopy WITH LOG")
        try:
            sh2, _, err2 = shell(conn)
            assert sh2.run_text("DATABASE dumpcopy;\n" + ddl), err2.getvalue()
            assert conn.execute("SELECT COUNT(*) FROM systables WHERE tabname IN "
                                "('dp', 'dq', 'customer')").fetchone()[0] == 3
        finally:
            conn.execute("DATABASE shop")
            conn.execute("DROP DATABASE dumpcopy")
        sh, _, err = shell(conn)
        assert not sh.run_text("\\dump nosuch")
        assert 'no table "nosuch"' in err.getvalue()
    finally:
        conn.execute("DROP TABLE dq")
        conn.execute("DROP TABLE dp")


QUALIFIERS = [
    ("DATETIME YEAR TO DAY", "2024-02-03"), ("DATETIME YEAR TO HOUR", "2024-02-03 04"),
    ("DATETIME YEAR TO YEAR", "2024"), ("DATETIME YEAR TO MONTH", "2024-02"),
    ("DATETIME MONTH TO DAY", "02-03"), ("DATETIME DAY TO HOUR", "03 04"),
    ("DATETIME DAY TO SECOND", "03 04:05:06"), ("DATETIME HOUR TO HOUR", "04"),
    ("DATETIME HOUR TO MINUTE", "04:05"), ("DATETIME HOUR TO SECOND", "04:05:06"),
    ("DATETIME MINUTE TO SECOND", "05:06"), ("DATETIME MINUTE TO FRACTION(2)", "05:06.78"),
    ("DATETIME SECOND TO FRACTION(3)", "06.789"),
    ("DATETIME HOUR TO FRACTION(5)", "04:05:06.78901"),
    ("INTERVAL DAY TO SECOND", "1 02:03:04"), ("INTERVAL DAY(3) TO FRACTION(2)", "100 01:02:03.45"),
    ("INTERVAL HOUR TO MINUTE", "10:11"), ("INTERVAL MINUTE TO SECOND", "12:13"),
    ("INTERVAL HOUR(3) TO SECOND", "100:02:03"), ("INTERVAL DAY(3) TO HOUR", "300 04"),
    ("INTERVAL YEAR(4) TO MONTH", "2024-05"), ("INTERVAL YEAR TO YEAR", "12"),
    ("INTERVAL MINUTE(3) TO FRACTION(3)", "123:45.678"), ("INTERVAL MONTH(3) TO MONTH", "17"),
]


@pytest.mark.parametrize(("qualifier", "literal"), QUALIFIERS)
def test_datetime_and_interval_qualifiers(conn: Any, tmp_path: Path, qualifier: str,
                                          literal: str) -> None:
    """Each DATETIME/INTERVAL qualifier is unloaded as its literal (only its own fields) and
    loads back to the same value."""
    conn.execute(f"CREATE TEMP TABLE q1 (v {qualifier})")
    conn.execute(f"CREATE TEMP TABLE q2 (v {qualifier})")
    try:
        conn.execute(f"INSERT INTO q1 VALUES ('{literal}')")
        sh, _, err = shell(conn)
        path = tmp_path / "q.unl"
        assert sh.run_text(f"UNLOAD TO '{path}' SELECT v FROM q1;"), err.getvalue()
        assert path.read_text() == literal + "|\n"
        assert sh.run_text(f"LOAD FROM '{path}' INSERT INTO q2;"), err.getvalue()
        assert conn.execute("SELECT v FROM q2").fetchall() == \
            conn.execute("SELECT v FROM q1").fetchall()
    finally:
        conn.execute("DROP TABLE q1")
        conn.execute("DROP TABLE q2")


def test_escape_and_read_back_any_fields() -> None:
    """Property: any fields (NULL, empty, delimiters, backslashes, newlines, blanks) written
    with the UNL escapes read back unchanged, for any allowed delimiter."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    field = st.one_of(st.none(), st.text(alphabet="ab |;\\\n\t \r,é", max_size=8))

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.lists(field, min_size=1, max_size=5), min_size=1, max_size=4),
           st.sampled_from(["|", ";", "\t", ","]))  # a blank delimiter: see docs
    def check(rows: list[list[str | None]], delim: str) -> None:
        buf = io.StringIO()
        for row in rows:
            unl.write_record(buf, ["" if v is None else unl.escape(v, delim) for v in row],
                             delim)
        got = [fields for _, fields in unl.records(io.StringIO(buf.getvalue(), newline="\n"),
                                                   delim)]
        assert got == rows

    check()


def test_load_inside_your_transaction_leaves_the_decision_to_you(conn: Any,
                                                                  tmp_path: Path) -> None:
    conn.execute("CREATE TABLE lt (id INT PRIMARY KEY)")
    try:
        path = tmp_path / "t.unl"
        path.write_text("1|\n1|\n")
        sh, _, err = shell(conn)
        assert sh.run_text("BEGIN WORK; INSERT INTO lt VALUES (9);")
        assert not sh.run_text(f"LOAD FROM '{path}' INSERT INTO lt;")
        assert "line 2" in err.getvalue() and "no row of the file was kept" not in err.getvalue()
        assert conn.in_transaction
        assert sh.run_text("ROLLBACK WORK;")
        assert conn.execute("SELECT COUNT(*) FROM lt").fetchone()[0] == 0
    finally:
        conn.execute("DROP TABLE lt")


def test_dump_prints_fragments(conn: Any) -> None:
    """sysfragments printed back in dbschema's layout (the fragment clauses of
    tests/corpus/dbschema/fragmented_dbschema.sql), and the DDL replays."""
    conn.execute("CREATE TABLE fe (a INT, region CHAR(2)) FRAGMENT BY EXPRESSION "
                 "PARTITION p_east (region IN ('NE', 'SE')) IN datadbs1, "
                 "a < 10 IN datadbs2, PARTITION p_rest REMAINDER IN datadbs3")
    conn.execute("CREATE INDEX fe_ix ON fe (a) FRAGMENT BY EXPRESSION a < 5 IN idx1, "
                 "a >= 5 IN idx2")
    conn.execute("CREATE TABLE fl (code INT) FRAGMENT BY LIST (code) "
                 "PARTITION p_low VALUES (1, 2) IN d1, PARTITION p_null VALUES (NULL) IN d1")
    conn.execute("CREATE TABLE fr (a INT) FRAGMENT BY ROUND ROBIN IN d1, d2")
    try:
        sh, out, err = shell(conn)
        for t in ("fe", "fl", "fr"):
            assert sh.run_text(f"\\dump {t}"), err.getvalue()
        text = out.getvalue()
        assert ("  )\n  fragment by expression\n"
                "    partition p_east (region IN ('NE', 'SE')) in datadbs1 ,\n"
                "    (a < 10) in datadbs2 ,\n"
                "    partition p_rest remainder in datadbs3 ;\n") in text
        assert ('using btree\n  fragment by expression\n    (a < 5) in idx1 ,\n'
                '    (a >= 5) in idx2 ;\n') in text
        assert ("  fragment by list (code)\n    partition p_low values (1, 2) in d1 ,\n"
                "    partition p_null values (NULL) in d1 ;\n") in text
        assert "  )\n  fragment by round robin in d1 , d2 ;\n" in text
        conn.execute("CREATE DATABASE fragcopy WITH LOG")
        try:
            sh2, _, err2 = shell(conn)
            assert sh2.run_text("DATABASE fragcopy;\n" + text), err2.getvalue()
            assert conn.execute("SELECT COUNT(*) FROM sysfragments").fetchone()[0] == 10
        finally:
            conn.execute("DATABASE shop")
            conn.execute("DROP DATABASE fragcopy")
    finally:
        for t in ("fe", "fl", "fr"):
            conn.execute(f"DROP TABLE {t}")
