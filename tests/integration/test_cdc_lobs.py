"""Large-object and composite columns under change capture, against the real embedded server
(docs/CDC_SERVER.md "Large objects"): BLOB and CLOB rows carry the smart large object's
locator, which opens the object; BYTE, TEXT, ROW and collection columns are refused at
cdc_startcapture."""

from __future__ import annotations

from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
from ifxwire import cdc
from ifxwire.cdc import EventKind as K


@pytest.fixture(scope="module")
def lobdb(connect_kwargs: dict[str, Any]) -> str:
    create_logged_databases(connect_kwargs, "syscdcv1", "cdclob")
    w = ifxwire.connect(**connect_kwargs, database="cdclob", autocommit=True)
    try:
        cur = w.cursor()
        cur.execute("CREATE TABLE docs (id INTEGER, body BLOB, note CLOB, tag VARCHAR(8))")
        cur.execute("CREATE TABLE old (id INTEGER, b BYTE, t TEXT, r ROW(a INT), "
                    "s SET(INT NOT NULL), l LIST(INT NOT NULL))")
    finally:
        w.close()
    return "cdclob"


def test_blob_and_clob_rows_carry_locators_that_open(connect_kwargs: dict[str, Any],
                                                     lobdb: str) -> None:
    w = ifxwire.connect(**connect_kwargs, database=lobdb, autocommit=True)
    r = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        with cdc.open_stream(r, tables=["cdclob:docs"], timeout=1) as st:
            w.cursor().execute("INSERT INTO docs VALUES (?, ?, ?, ?)",
                               (1, b"\x00\x01binary" * 50, "some text", "a"))
            w.cursor().execute("INSERT INTO docs VALUES (2, NULL, NULL, 'b')")
            rows = []
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                if ev.kind is K.INSERT:
                    assert ev.row is not None
                    rows.append(ev.row)
        assert [(x["id"], x["tag"]) for x in rows] == [(1, "a"), (2, "b")]
        assert rows[1]["body"] is None and rows[1]["note"] is None
        body, note = rows[0]["body"], rows[0]["note"]
        assert isinstance(body, bytes) and len(body) == 72 and len(note) == 72
        # the locators are the row's: they open the objects (from the table's database)
        with ifxwire.Blob(w, body).open() as b:
            assert b.read() == b"\x00\x01binary" * 50
        with ifxwire.Clob(w, note).open() as c:
            assert c.read() == "some text"
    finally:
        r.close()
        w.close()


@pytest.mark.parametrize("col", ["b", "t", "r", "s", "l"])
def test_simple_lobs_and_composites_are_refused(connect_kwargs: dict[str, Any], lobdb: str,
                                                col: str) -> None:
    """The guide ("Data for capture"): TEXT and BYTE, user-defined types and SET, MULTISET,
    LIST and ROW "are not supported for data capture"; it names no code: -83799."""
    r = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        with pytest.raises(cdc.StreamError) as e:
            cdc.open_stream(r, tables=["cdclob:old"], columns=["id", col])
        assert e.value.code == -83799
    finally:
        r.close()
