"""SQL text and character values travel in the database locale's code set (the client's
DB_LOCALE, which defaults to its CLIENT_LOCALE), not the client locale's: IBM JDBC encodes SQL
text with its dbEncoding (IfxSqli.getJavaToIfxCharBytes), libsqli converts it client ->
DB_LOCALE (sqli_conn_encode_client_to_db), CSDK does the same (GLS User's Guide). See
docs/PROTOCOL.md §2 "Code set"."""

from __future__ import annotations

from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer

pytestmark = pytest.mark.both_drivers

WORD = "ÄÖÜß"


def _select_one(c: RawClient, sql: bytes) -> bytes:
    w = Writer()
    m.put_prepare(w, sql, 0, c.layout)
    reply = c.send(w)
    assert reply.errors == [], reply.errors
    sid = reply.describes[0].stmt_id
    w = Writer()
    m.put_id(w, sid)
    m.put_curname(w, b"c1")
    w.u16(Msg.OPEN)
    m.put_id(w, sid)
    m.put_nfetch(w, 4096)
    reply = c.send(w)
    assert reply.errors == [], reply.errors
    c.send(Writer().u16(Msg.ID).i16(sid).u16(Msg.RELEASE))
    return reply.tuples[0]


def test_sql_text_in_the_db_locale_code_set(driver: Any, server: Any) -> None:
    # libsqli's must-type suite with CLIENT_LOCALE en_US.utf8 and DB_LOCALE en_US.8859-1: the
    # INSERT's text arrives in ISO-8859-1 and used to be decoded as UTF-8 (four U+FFFD).
    env = {"CLIENT_LOCALE": "en_US.utf8", "DB_LOCALE": "en_US.8859-1"}
    c = RawClient(server.host, server.port, env=env)
    try:
        assert c.command(f"create database cs_latin1{driver.suffix} with log").errors == []
        assert c.command("create table t (v varchar(20))").errors == []
        sql = f"insert into t values ('{WORD}')".encode("iso-8859-1")
        w = Writer()
        w.u16(Msg.COMMAND).u16(0)
        m.put_sql(w, sql, c.layout)
        w.u16(Msg.NDESCRIBE).u16(Msg.EXECUTE).u16(Msg.RELEASE)
        assert c.send(w).errors == []
        row = _select_one(c, f"select v, length(v) from t where v = '{WORD}'".encode("latin-1"))
        assert row[:5] == b"\x04" + WORD.encode("iso-8859-1")  # VARCHAR: length byte, bytes
    finally:
        c.close()
    with driver.connect(host=server.host, port=server.port, user="informix",
                         password="in4mix", database=f"cs_latin1{driver.suffix}",
                         client_locale="en_US.utf8", db_locale="en_US.8859-1") as conn:
        cur = conn.cursor()
        cur.execute("select v, length(v) from t")
        assert cur.fetchall() == [(WORD, 4)]
        cur.execute(f"select count(*) from t where v = '{WORD}'")
        assert cur.fetchone() == (1,)


def test_driver_without_db_locale_uses_its_client_locale(driver: Any, server: Any) -> None:
    kwargs = {"host": server.host, "port": server.port, "user": "informix",
              "password": "in4mix", "client_locale": "en_US.utf8"}
    with driver.connect(**kwargs) as conn:
        assert conn.encoding == "utf-8"
        conn.cursor().execute(f"create database cs_utf8{driver.suffix} with log")
        cur = conn.cursor()
        cur.execute("select dbs_collate from sysmaster:sysdbslocale where dbs_dbsname = ?",
                    (f"cs_utf8{driver.suffix}",))
        assert cur.fetchone() == ("en_US.utf8",)
        cur.execute("create table t (c char(8))")
        cur.execute("insert into t values (?)", (WORD,))
        cur.execute(f"select c, length(c), char_length(c), '{WORD}' from t")
        assert cur.fetchall() == [(WORD, 8, 4, WORD)]
        conn.commit()


def test_a_client_declaring_another_code_set_is_not_decoded_in_the_databases(
    driver: Any, server: Any
) -> None:
    """A default-locale client (DB_LOCALE en_US.8859-1) in a UTF-8 database: its text and its
    parameters are in ISO-8859-1 as it declared; decoding them as the database's UTF-8 stored
    U+FFFD and refused 'Ö' with -1260 (review of the merged code sets change)."""
    kw = {"host": server.host, "port": server.port, "user": "informix", "password": "in4mix"}
    with driver.connect(**kw, client_locale="en_US.utf8", db_locale="en_US.utf8",
                         autocommit=True) as conn:
        conn.cursor().execute(f"CREATE DATABASE cs_mixed{driver.suffix} WITH LOG")
        conn.cursor().execute(f"DATABASE cs_mixed{driver.suffix}")
        conn.cursor().execute("CREATE TABLE t (v VARCHAR(10), n INT)")
    with driver.connect(**kw, database=f"cs_mixed{driver.suffix}", autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("INSERT INTO t VALUES ('Ä', 1)")
        cur.execute("INSERT INTO t VALUES (?, 2)", ("Ö",))
        cur.execute("SELECT v FROM t ORDER BY n")
        assert cur.fetchall() == [("Ä",), ("Ö",)]
    with driver.connect(**kw, database=f"cs_mixed{driver.suffix}", client_locale="en_US.utf8",
                         db_locale="en_US.utf8") as conn:
        cur = conn.cursor()
        cur.execute("SELECT v, OCTET_LENGTH(v) FROM t ORDER BY n")
        assert cur.fetchall() == [("Ä", 2), ("Ö", 2)]  # stored as UTF-8, two bytes each
