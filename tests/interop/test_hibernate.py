"""Hibernate ORM over IBM JDBC against ifxwire-server: one test per scenario.

tests/interop/hibernate/HibernateCheck.java maps an entity model (sequences, many-to-one and
many-to-many foreign keys, joined inheritance, a @Version column) with hibernate-core and the
InformixDialect of hibernate-community-dialects (versions in hibernate/pom.xml, fetched from
Maven Central into the cache by maven_apps.py), lets Hibernate export the schema, and runs
CRUD, batch inserts, HQL with paging (SKIP ? FIRST ?), a bulk mutation through Hibernate's temp
table, an optimistic-locking conflict, constraint violations (kind and name read from the
message), pessimistic locks in two sessions (HibernateLocks.java: PESSIMISTIC_WRITE and _READ,
a lock timeout, NO_WAIT, a waiter released, SKIP LOCKED) and the schema drop (DROP TABLE ...
CASCADE).

Run:  pytest tests/interop/test_hibernate.py
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import pytest
from maven_apps import AppRun, BuildError, maven_classpath, run_checks

pytestmark = pytest.mark.interop

JDBC_VERSION = "15.0.0.1"
# In the order HibernateCheck runs them.
SCENARIOS = (
    "schema_export",
    "crud",
    "batch_insert",
    "hql_paging",
    "hql_queries",
    "bulk_mutation_temp_table",
    "optimistic_lock",
    "constraint_violations",
    "pessimistic_write",
    "pessimistic_read",
    "lock_timeout",
    "lock_wait_released",
    "skip_locked",
    "schema_drop",
)


@pytest.fixture(scope="module")
def hibernate_run(java_tools: dict[str, str], jdbc_jars: dict[str, Path],
                  interop_target: Any) -> AppRun:
    try:
        classpath = maven_classpath(java_tools, "hibernate", jdbc_jars[JDBC_VERSION])
    except BuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    t = interop_target
    return run_checks(java_tools, classpath, "HibernateCheck", [
        f"host={t.host}", f"port={t.port}", f"server={t.server_name}",
        f"database=hb_{secrets.token_hex(3)}", f"user={t.user}", f"password={t.password}",
    ], timeout=float(os.environ.get("IFXWIRE_JDBC_TIMEOUT", "240")))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_hibernate(hibernate_run: AppRun, scenario: str) -> None:
    if scenario not in hibernate_run.results:
        pytest.fail(f"no CHECK line for {scenario}: {hibernate_run.diagnostics()}", pytrace=False)
    passed, reason = hibernate_run.results[scenario]
    assert passed, reason


def test_hibernate_run_completed(hibernate_run: AppRun) -> None:
    """Every scenario printed its line, none unknown to this file, and the JVM ended cleanly."""
    assert hibernate_run.done and hibernate_run.returncode == 0, hibernate_run.diagnostics()
    assert tuple(hibernate_run.results) == SCENARIOS
