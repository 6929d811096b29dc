"""IBM JDBC's own CDC client reads ifxwire-server's change stream (docs/CDC.md).

JDBC 15.0.0.1 carries ``com.informix.jdbc.stream.cdc.CDCEngine``, the engine Debezium's
Informix connector drives: it calls the syscdcv1 routines, reads the session with
``IfxSmartBlob.IfxLoRead`` and decodes each record and each column with its own code. So its
printing the rows we wrote, with the sequence numbers, transaction ids and labels, is an
outside witness of the record layout (jdbc/CdcCheck.java does the Java side).

IBM's change-stream client (``com.ibm.informix:ifx-changestream-client`` 1.1.5 on IBM JDBC
4.50.12, fetched by scripts/fetch_changestream.sh into the cache, never the repository) is the
same design under ``com.informix.stream.cdc``; jdbc/StreamClientCheck.java drives it with
``maxRecords(4)`` and ``getRecords()``, so it also reads several records per smart-LO read.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import JAVA_OPTS, cache_root

pytestmark = pytest.mark.interop

HERE = Path(__file__).resolve().parent
SOURCES = {"jdbc15": HERE / "jdbc" / "CdcCheck.java",
           "changestream": HERE / "jdbc" / "StreamClientCheck.java"}
FETCH = HERE.parents[1] / "scripts" / "fetch_changestream.sh"


@pytest.fixture(scope="module")
def changestream_classpath() -> str:
    proc = subprocess.run(["bash", str(FETCH)], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "IFXWIRE_CACHE": str(cache_root())})
    if proc.returncode != 0:
        pytest.fail(f"{FETCH.name} failed:\n{proc.stderr[-4000:]}", pytrace=False)
    return proc.stdout.strip()


def _run(java: str, client: str, classpath: str, srv: Any, *extra: str) -> list[str]:
    proc = subprocess.run(
        [java, *JAVA_OPTS, "-cp", classpath, str(SOURCES[client]), srv.host, str(srv.port),
         srv.server_name, "informix", "in4mix", "cdcj", "t", *extra],
        capture_output=True, text=True, timeout=180)
    lines = [x for x in proc.stdout.splitlines() if x.startswith(("REC ", "READ "))]
    assert lines and lines[-1] == "REC TIMEOUT", (proc.stdout, proc.stderr[-3000:])
    return lines


@pytest.mark.parametrize("client", ["jdbc15", "changestream"])
def test_ibm_cdc_clients_read_the_stream(client: str, java_tools: dict[str, str],
                                         request: pytest.FixtureRequest) -> None:
    from ifxwire.server import Server

    if client == "jdbc15":
        classpath = str(request.getfixturevalue("jdbc_jars")["15.0.0.1"])
    else:
        classpath = request.getfixturevalue("changestream_classpath")

    with Server(port=0, data=":memory:") as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE cdcj WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="cdcj", autocommit=True)
        w.cursor().execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(8,2), "
                           "qty SMALLINT, ok BOOLEAN, note LVARCHAR(100))")
        w.close()
        lines = _run(java_tools["java"], client, classpath, srv)
        first = [x for x in lines if x.startswith("REC ")]
        # fixed-length columns first (BOOLEAN is 2 bytes), then VARCHAR and LVARCHAR: the
        # TABSCHEMA order JDBC decodes in
        assert first == [
            "REC METADATA -1 -1 1",
            "REC BEGIN 1 1 null",
            "REC INSERT 2 1 1 id=1 price=2.50 qty=7 ok=true name=pen note=first",
            "REC COMMIT 3 1 null",
            "REC BEGIN 4 2 null",
            "REC BEFORE_UPDATE 5 2 1 id=1 price=2.50 qty=7 ok=true name=pen note=first",
            "REC AFTER_UPDATE 6 2 1 id=1 price=3.00 qty=7 ok=true name=ink note=first",
            "REC COMMIT 7 2 null",
            "REC BEGIN 8 3 null",
            "REC DELETE 9 3 1 id=1 price=3.00 qty=7 ok=true name=ink note=first",
            "REC COMMIT 10 3 null",
            "REC BEGIN 11 4 null",
            "REC INSERT 12 4 1 id=2 price=1.25 qty=1 ok=false name=cup note=x",
            "REC ROLLBACK 13 4 null",
            "REC BEGIN 14 5 null",
            "REC INSERT 15 5 1 id=3 price=4.00 qty=2 ok=null name=mug note=null",
            "REC COMMIT 16 5 null",
            "REC TIMEOUT",
        ]
        # Restart after the update's transaction (its COMMIT was sequence 7): the rest again,
        # nothing before it.
        again = _run(java_tools["java"], client, classpath, srv, "7")
        assert [x for x in again if x.startswith("REC ")] == ["REC METADATA -1 -1 1", *first[8:]]
    if client == "changestream":  # maxRecords(4): whole records, several per read
        assert "READ 4" in lines


@pytest.mark.parametrize("client", ["jdbc15", "changestream"])
def test_ibm_cdc_clients_read_a_chunked_transaction(client: str, java_tools: dict[str, str],
                                                    request: pytest.FixtureRequest,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A transaction spilled in chunks of 3 (docs/CDC_SERVER.md "Chunked capture"; the server runs
    in this process, so the test sets hub.CHUNK), with a savepoint rolled back over two
    chunks and an UPDATE after it, read from sequence 1 by both IBM clients: every change in
    order with consecutive sequence numbers, nothing rolled back, one COMMIT."""
    from ifxwire.server import Server
    from ifxwire.server.engine.features.cdc import hub as hubmod

    monkeypatch.setattr(hubmod, "CHUNK", 3)
    if client == "jdbc15":
        classpath = str(request.getfixturevalue("jdbc_jars")["15.0.0.1"])
    else:
        classpath = request.getfixturevalue("changestream_classpath")
    with Server(port=0, data=":memory:") as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE cdcj WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="cdcj")  # a transaction
        cur = w.cursor()
        cur.execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(8,2), "
                    "qty SMALLINT, ok BOOLEAN, note LVARCHAR(100))")
        w.commit()
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('cdcj:t', 1)")
        m.close()
        cur.executemany("INSERT INTO t VALUES (?, ?, 1.50, 1, 't', 'n')",
                        [(i, f"r{i}") for i in range(1, 8)])
        cur.execute("SAVEPOINT s")
        cur.executemany("INSERT INTO t VALUES (?, 'gone', 9, 9, 'f', NULL)",
                        [(i,) for i in range(50, 57)])
        cur.execute("ROLLBACK TO SAVEPOINT s")
        cur.execute("UPDATE t SET qty = 2 WHERE id = 2")
        w.commit()
        w.close()
        logged = hubmod.hub_of(srv.engine).db.execute(
            "SELECT COUNT(*) FROM txchunk WHERE begin_seq = 1").fetchone()[0]
        assert logged >= 3  # it was logged by chunk
        lines = [x for x in _run(java_tools["java"], client, classpath, srv, "1")
                 if x.startswith("REC ")]
    want = ["REC METADATA -1 -1 1", "REC BEGIN 1 1 null"]
    want += [f"REC INSERT {1 + i} 1 1 id={i} price=1.50 qty=1 ok=true name=r{i} note=n"
             for i in range(1, 8)]
    want += ["REC BEFORE_UPDATE 9 1 1 id=2 price=1.50 qty=1 ok=true name=r2 note=n",
             "REC AFTER_UPDATE 10 1 1 id=2 price=1.50 qty=2 ok=true name=r2 note=n",
             "REC COMMIT 11 1 null", "REC TIMEOUT"]
    assert lines == want


def test_ibm_jdbc_decodes_smart_lob_columns(java_tools: dict[str, str],
                                            request: pytest.FixtureRequest) -> None:
    """BLOB and CLOB columns are 76 fixed-length bytes with the locator 4 bytes in: JDBC 15's
    getData makes an IfxSmBlob of each and finds the columns after them where we put them."""
    from ifxwire.server import Server

    classpath = str(request.getfixturevalue("jdbc_jars")["15.0.0.1"])
    with Server(port=0, data=":memory:") as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE cdcl WITH LOG")
        c.close()
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        w = ifxwire.connect(**kw, database="cdcl", autocommit=True)
        w.cursor().execute("CREATE TABLE d (id INTEGER, body BLOB, note CLOB, tag VARCHAR(8))")
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('cdcl:d', 1)")
        w.cursor().execute("INSERT INTO d VALUES (?, ?, ?, ?)", (1, b"\x01\x02" * 40, "t", "a"))
        w.cursor().execute("INSERT INTO d VALUES (2, NULL, NULL, 'b')")
        w.close()
        m.close()
        proc = subprocess.run(
            [java_tools["java"], *JAVA_OPTS, "-cp", classpath,
             str(HERE / "jdbc" / "CdcLobCheck.java"), srv.host, str(srv.port), srv.server_name,
             "informix", "in4mix", "cdcl", "d"], capture_output=True, text=True, timeout=180)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("REC ")]
    assert lines == [
        "REC METADATA",
        "REC BEGIN",
        "REC INSERT id=1 body=IfxSmBlob note=IfxSmBlob tag=a",
        "REC COMMIT",
        "REC BEGIN",
        "REC INSERT id=2 body=IfxSmBlob note=IfxSmBlob tag=b",
        "REC COMMIT",
        "REC TIMEOUT",
    ], (proc.stdout, proc.stderr[-3000:])
