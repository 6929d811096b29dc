"""Flyway's Informix support over IBM JDBC against ifxwire-server: one test per scenario.

tests/interop/flyway/FlywayCheck.java runs flyway-core with flyway-database-informix (versions
in flyway/pom.xml, fetched from Maven Central into the cache by maven_apps.py) on the
migrations in tests/interop/flyway/migrations (tables, a foreign key, a sequence, an SPL
procedure and a trigger, seed data through them): migrate, info, a second migrate that does
nothing, clean (which drops the procedure with DROP PROCEDURE) and migrate again.

The first run uses Flyway's default, each migration inside a transaction: the migrations' DDL
runs inside the transaction while Flyway's second connection inserts the history row
(docs/SERVER.md, "Flyway's two connections" and "DDL in a transaction"; row locks are the
server's default). The same run again with ``executeInTransaction(false)``
(``flyway_autocommit_run``), which projects set when their migrations hold statements an
Informix transaction refuses, against a server of its own.

Run:  pytest tests/interop/test_flyway.py
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import pytest
from maven_apps import HERE, AppRun, BuildError, maven_classpath, run_checks

pytestmark = pytest.mark.interop

JDBC_VERSION = "4.50.10"
# In the order FlywayCheck runs them.
SCENARIOS = (
    "migrate",
    "migrated_objects_work",
    "info",
    "migrate_again_is_noop",
    "clean",
    "migrate_after_clean",
)


@pytest.fixture(scope="module")
def flyway_run(java_tools: dict[str, str], jdbc_jars: dict[str, Path],
               interop_target: Any) -> AppRun:
    try:
        classpath = maven_classpath(java_tools, "flyway", jdbc_jars[JDBC_VERSION])
    except BuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    t = interop_target
    return run_checks(java_tools, classpath, "FlywayCheck", [
        f"host={t.host}", f"port={t.port}", f"server={t.server_name}",
        f"database=fw_{secrets.token_hex(3)}", f"user={t.user}", f"password={t.password}",
        f"migrations={HERE / 'flyway' / 'migrations'}", "transactional=true",
    ], timeout=float(os.environ.get("IFXWIRE_JDBC_TIMEOUT", "240")))


@pytest.fixture(scope="module")
def flyway_autocommit_run(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> AppRun:
    """``executeInTransaction(false)`` against ``Server(row_locks=True)``."""
    from ifxwire.server import Server

    try:
        classpath = maven_classpath(java_tools, "flyway", jdbc_jars[JDBC_VERSION])
    except BuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    with Server(port=0, host="127.0.0.1", data=":memory:", row_locks=True) as srv:
        user = "informix"
        return run_checks(java_tools, classpath, "FlywayCheck", [
            f"host={srv.host}", f"port={srv.port}", f"server={srv.server_name}",
            f"database=fwt_{secrets.token_hex(3)}", f"user={user}",
            f"password={srv.users[user]}", f"migrations={HERE / 'flyway' / 'migrations'}",
            "transactional=false",
        ], timeout=float(os.environ.get("IFXWIRE_JDBC_TIMEOUT", "240")))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_flyway_without_transactions(flyway_autocommit_run: AppRun, scenario: str) -> None:
    """Each migration statement committed by itself (``executeInTransaction(false)``)."""
    if scenario not in flyway_autocommit_run.results:
        pytest.fail(f"no CHECK line for {scenario}: {flyway_autocommit_run.diagnostics()}",
                    pytrace=False)
    passed, reason = flyway_autocommit_run.results[scenario]
    assert passed, reason


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_flyway(flyway_run: AppRun, scenario: str) -> None:
    """Flyway's default: each migration in one transaction, DDL included, while the history
    row goes in on Flyway's other connection (it failed -271/-107 at V1 when DDL inside a
    transaction escalated to SQLite's database write lock)."""
    if scenario not in flyway_run.results:
        pytest.fail(f"no CHECK line for {scenario}: {flyway_run.diagnostics()}", pytrace=False)
    passed, reason = flyway_run.results[scenario]
    assert passed, reason


def test_flyway_run_completed(flyway_run: AppRun) -> None:
    """Every scenario printed its line, none unknown to this file, and the JVM ended cleanly."""
    assert flyway_run.done and flyway_run.returncode == 0, flyway_run.diagnostics()
    assert tuple(flyway_run.results) == SCENARIOS
