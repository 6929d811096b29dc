"""Character lengths in the database's code set: CHAR literals, LENGTH, OCTET_LENGTH and
CHAR_LENGTH in a UTF-8 and an ISO-8859-1 database (GLS User's Guide: in a multibyte code set
CHAR/VARCHAR lengths and LENGTH/OCTET_LENGTH count bytes, CHAR_LENGTH counts characters)."""

from __future__ import annotations

from typing import Any

from ifxwire.protocol.codes import TypeCode

UTF8 = {"CLIENT_LOCALE": "en_US.utf8", "DB_LOCALE": "en_US.utf8"}
LATIN1 = {"CLIENT_LOCALE": "en_US.utf8", "DB_LOCALE": "en_US.8859-1"}


def test_a_literal_is_char_of_its_bytes_in_a_utf8_database(open_db: Any) -> None:
    db = open_db("logged", UTF8)
    assert db.describe("select 'ÄÖÜß' from systables where tabid = 1") == [
        ("(constant)", TypeCode.CHAR, 8)]
    assert db.rows("select 'ÄÖÜß' from systables where tabid = 1") == [("ÄÖÜß",)]


def test_lengths_count_bytes_in_a_utf8_database(open_db: Any) -> None:
    db = open_db("logged", UTF8)
    got = db.rows("select length('ÄÖÜß'), octet_length('ÄÖÜß'), char_length('ÄÖÜß'), "
                  "length('ÄÖÜß  '), octet_length('ÄÖ  ') from systables where tabid = 1")
    assert got == [(8, 8, 4, 8, 6)]
    db.run("create table t (c char(8), v varchar(10))")
    db.run("insert into t values ('ÄÖÜß', 'ÄÖÜß')")
    assert db.rows("select length(c), octet_length(c), char_length(v), length(v) from t") == [
        (8, 8, 4, 8)]


def test_lengths_count_bytes_in_a_latin1_database(open_db: Any) -> None:
    db = open_db("logged", LATIN1)
    assert db.describe("select 'ÄÖÜß' from systables where tabid = 1") == [
        ("(constant)", TypeCode.CHAR, 4)]
    assert db.rows("select length('ÄÖÜß'), octet_length('ÄÖÜß'), char_length('ÄÖÜß') "
                   "from systables where tabid = 1") == [(4, 4, 4)]
