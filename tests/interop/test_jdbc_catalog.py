"""IBM JDBC's DatabaseMetaData over the system catalogue, compared with a real server's.

A schema-inspection tool run through IBM JDBC 4.50.12 against a real 14.10.FC7W1DE reported
these facts about the same schema (issue 23): sysindexes and sysdomains are views; a FLOAT
column's size is 17; a column of a DISTINCT type over INTEGER declared NOT NULL is not
nullable, and a view's column keeps its base column's NOT NULL; a foreign key on columns that
also carry a UNIQUE constraint shares that constraint's index (` <tabid>_<constrid>`); the
owner of a view holds privileges on it. tests/interop/jdbc/CatalogCheck.java reads them here.

Run:  pytest -m interop tests/interop/test_jdbc_catalog.py
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import JAVA_OPTS, JDBC_VERSIONS, compile_for_each_jar

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "CatalogCheck.java"
USER, PASSWORD = "informix", "in4mix"

SCHEMA = (
    "CREATE DISTINCT TYPE cat_dint AS INTEGER",
    "CREATE TABLE cat_base (id INTEGER NOT NULL PRIMARY KEY, f FLOAT, d cat_dint NOT NULL, "
    "e cat_dint, n VARCHAR(20) NOT NULL)",
    "CREATE VIEW cat_view AS SELECT id, f, n FROM cat_base",
    "CREATE TABLE cat_child (k INTEGER NOT NULL, r INTEGER UNIQUE REFERENCES cat_base (id))",
)


@pytest.fixture(scope="module")
def catalog_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with CatalogCheck compiled against that jar."""
    return compile_for_each_jar(java_tools, jdbc_jars, SOURCE, "catalog")


@pytest.fixture(scope="module")
def catalog_url() -> Iterator[str]:
    from ifxwire.server import Server

    with Server(port=0) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.execute("CREATE DATABASE catmd WITH LOG")
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             database="catmd", autocommit=True) as c:
            for sql in SCHEMA:
                c.execute(sql)
        yield (f"jdbc:informix-sqli://{srv.host}:{srv.port}/catmd:INFORMIXSERVER="
               f"{srv.server_name};user={USER};password={PASSWORD}")


def _facts(java: str, classpath: str, url: str) -> dict[str, str]:
    proc = subprocess.run([java, *JAVA_OPTS, "-cp", classpath, "CatalogCheck", url],
                          capture_output=True, text=True, timeout=300)
    assert "DONE" in proc.stdout.splitlines(), proc.stdout + proc.stderr[-3000:]
    facts: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("FACT "):
            key, _, value = line[5:].partition(" ")
            facts[key] = value
    return facts


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_catalogue_through_database_metadata(
    java_tools: dict[str, str], catalog_classpaths: dict[str, str], catalog_url: str,
    version: str,
) -> None:
    facts = _facts(java_tools["java"], catalog_classpaths[version], catalog_url)
    expected = {
        "table_type.sysindexes": "VIEW",
        "table_type.sysdomains": "VIEW",
        "table_type.sysindices": "SYSTEM TABLE",
        "column.cat_base.f.size": "17",
        "column.cat_base.d.nullable": "0",
        "column.cat_base.d.is_nullable": "NO",
        "column.cat_base.e.nullable": "1",
        "column.cat_view.id.nullable": "0",
        "column.cat_view.n.is_nullable": "NO",
        "column.cat_view.f.nullable": "1",
        "column.cat_view.f.size": "17",
    }
    assert {k: facts.get(k) for k in expected} == expected
    # One index for r's UNIQUE constraint and its foreign key, as on a real server.
    (tabid,) = _one(catalog_url, "SELECT tabid FROM systables WHERE tabname = 'cat_child'")
    (constrid,) = _one(catalog_url, "SELECT constrid FROM sysconstraints WHERE tabid = "
                                    f"{tabid} AND constrtype = 'U'")
    # (IBM JDBC trims the leading space of the name)
    assert facts["index.cat_child.r"] == f"[{tabid}_{constrid}]"
    privileges = {k for k in facts if k.startswith("privilege.cat_view.")}
    assert privileges == {f"privilege.cat_view.informix.{p}"
                          for p in ("SELECT", "UPDATE", "INSERT", "DELETE")}, privileges


def _one(url: str, sql: str) -> tuple[Any, ...]:
    host, rest = url.split("//", 1)[1].split(":", 1)
    port = int(rest.split("/", 1)[0])
    with ifxwire.connect(host=host, port=port, user=USER, password=PASSWORD,
                         database="catmd") as c:
        cur = c.cursor()
        cur.execute(sql)
        row = cur.fetchone()
        assert row is not None
        return tuple(row)
