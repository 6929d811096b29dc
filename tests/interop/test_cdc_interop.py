"""IBM JDBC's own CDC client reads ifxwire-server's change stream (docs/CDC.md).

JDBC 15.0.0.1 carries ``com.informix.jdbc.stream.cdc.CDCEngine``, the engine Debezium's
Informix connector drives: it calls the syscdcv1 routines, reads the session with
``IfxSmartBlob.IfxLoRead`` and decodes each record and each column with its own code. So its
printing the rows we wrote, with the sequence numbers, transaction ids and labels, is an
outside witness of the record layout (jdbc/CdcCheck.java does the Java side).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import JAVA_OPTS

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "CdcCheck.java"


def _run(java: str, jar: Path, srv: Any, *extra: str) -> list[str]:
    proc = subprocess.run(
        [java, *JAVA_OPTS, "-cp", str(jar), str(SOURCE), srv.host, str(srv.port),
         srv.server_name, "informix", "in4mix", "cdcj", "t", *extra],
        capture_output=True, text=True, timeout=180)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("REC ")]
    assert lines and lines[-1] == "REC TIMEOUT", (proc.stdout, proc.stderr[-3000:])
    return lines


def test_jdbc_cdc_engine_reads_the_stream(java_tools: dict[str, str],
                                          jdbc_jars: dict[str, Path]) -> None:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:") as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE cdcj WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="cdcj", autocommit=True)
        w.cursor().execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(8,2), "
                           "qty SMALLINT)")
        w.close()
        jar = jdbc_jars["15.0.0.1"]
        first = _run(java_tools["java"], jar, srv)
        # fixed-length columns first, then VARCHAR: the TABSCHEMA order JDBC decodes in
        assert first == [
            "REC METADATA -1 -1 1",
            "REC BEGIN 1 1 null",
            "REC INSERT 2 1 1 id=1 price=2.50 qty=7 name=pen",
            "REC COMMIT 3 1 null",
            "REC BEGIN 4 2 null",
            "REC BEFORE_UPDATE 5 2 1 id=1 price=2.50 qty=7 name=pen",
            "REC AFTER_UPDATE 6 2 1 id=1 price=3.00 qty=7 name=ink",
            "REC COMMIT 7 2 null",
            "REC BEGIN 8 3 null",
            "REC DELETE 9 3 1 id=1 price=3.00 qty=7 name=ink",
            "REC COMMIT 10 3 null",
            "REC BEGIN 11 4 null",
            "REC INSERT 12 4 1 id=2 price=1.25 qty=1 name=cup",
            "REC ROLLBACK 13 4 null",
            "REC BEGIN 14 5 null",
            "REC INSERT 15 5 1 id=3 price=4.00 qty=2 name=mug",
            "REC COMMIT 16 5 null",
            "REC TIMEOUT",
        ]
        # Restart after the update's transaction (its COMMIT was sequence 7): the rest again,
        # nothing before it.
        again = _run(java_tools["java"], jar, srv, "7")
        assert again == ["REC METADATA -1 -1 1", *first[8:]]
