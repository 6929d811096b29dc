"""IBM JDBC's DatabaseMetaData as a schema-inspection tool reads it (issue 23, where IBM JDBC
4.50.12 against a real 14.10.FC7W1DE and against ifxwire-server disagreed):
tests/interop/jdbc/MetaCheck.java, one JVM per jar.

Run:  pytest -m interop tests/interop/test_jdbc_metadata.py
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import CHECK_LINE, JAVA_OPTS, JDBC_VERSIONS, compile_for_each_jar

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "MetaCheck.java"
USER, PASSWORD = "informix", "in4mix"
CHECKS = ("meta_table_types", "meta_catalogs", "meta_product_name", "meta_procedure_columns",
          "meta_function_columns", "meta_parallel_temp_tables")


@pytest.fixture(scope="session")
def metacheck_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with MetaCheck compiled against that jar."""
    return compile_for_each_jar(java_tools, jdbc_jars, SOURCE, "meta")


@pytest.fixture(scope="module")
def schema_server() -> Iterator[Any]:
    """A server holding the schema the checks inspect."""
    from ifxwire.server import Server

    with Server(port=0) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            cur = c.cursor()
            cur.execute("CREATE DATABASE jmeta WITH LOG")
            cur.execute("CREATE TABLE jm_parent (id INTEGER PRIMARY KEY, name VARCHAR(40))")
            cur.execute("CREATE TABLE jm_child (id SERIAL, pid INTEGER REFERENCES jm_parent, "
                        "note CHAR(10))")
            cur.execute("CREATE INDEX jm_child_note ON jm_child (note)")
            # a functional index (catalogue only, part<n> 0 for its function): getIndexInfo
            # on jm_child reads its sysindexes row too (thirty-third session)
            cur.execute("CREATE FUNCTION jm_key(x INTEGER) RETURNING INTEGER WITH (NOT "
                        "VARIANT); RETURN x; END FUNCTION")
            cur.execute("CREATE INDEX jm_child_key ON jm_child (id, jm_key(pid))")
            cur.execute("CREATE INDEX jm_child_fn ON jm_child (jm_key(pid))")
            cur.execute("CREATE VIEW jm_view AS SELECT id, name FROM jm_parent")
            cur.execute("CREATE SYNONYM jm_syn FOR jm_parent")
            cur.execute("CREATE PROCEDURE jm_proc(a VARCHAR(50), b DECIMAL(8,2), c INTEGER) "
                        "END PROCEDURE")
            cur.execute("CREATE FUNCTION jm_func(x VARCHAR(50), y INTEGER) RETURNING INTEGER; "
                        "RETURN y; END FUNCTION")
        srv.url = (f"jdbc:informix-sqli://{srv.host}:{srv.port}/jmeta:INFORMIXSERVER="
                   f"{srv.server_name};user={USER};password={PASSWORD}")
        yield srv


@pytest.fixture(scope="module")
def meta_results(java_tools: dict[str, str], metacheck_classpaths: dict[str, str],
                 schema_server: Any) -> dict[str, dict[str, tuple[str, str]]]:
    """version -> {check: (PASS|FAIL, reason)}: one JVM run per jar."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for version in JDBC_VERSIONS:
        proc = subprocess.run(
            [java_tools["java"], *JAVA_OPTS, "-cp", metacheck_classpaths[version], "MetaCheck",
             schema_server.url, *CHECKS], capture_output=True, text=True, timeout=600)
        results: dict[str, tuple[str, str]] = {}
        for line in proc.stdout.splitlines():
            m = CHECK_LINE.match(line)
            if m:
                results[m.group(1)] = (m.group(2), m.group(3) or "")
        if "DONE" not in proc.stdout.splitlines():
            results["(run)"] = ("FAIL", proc.stdout[-2000:] + proc.stderr[-3000:])
        out[version] = results
    return out


@pytest.mark.parametrize("version", JDBC_VERSIONS)
@pytest.mark.parametrize("check", CHECKS)
def test_jdbc_metadata(meta_results: dict[str, dict[str, tuple[str, str]]], version: str,
                       check: str) -> None:
    results = meta_results[version]
    assert "(run)" not in results, results["(run)"][1]
    assert check in results, f"no CHECK line for {check}: {results}"
    status, reason = results[check]
    assert status == "PASS", f"JDBC {version} {check}: {reason}"
