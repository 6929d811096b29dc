"""IBM JDBC driver interop: one test per (driver version, locale mode, check).

The checks themselves live in tests/interop/jdbc/IfxCheck.java; conftest.py fetches the
drivers, compiles the program and runs it against our server.  CHECKS below is the list of
check names we expect a line for: a check that prints nothing fails here instead of passing
silently, and test_jdbc_registry_matches keeps this list and the Java registry in step.

Run:  pytest -m interop tests/interop/test_jdbc.py
      pytest tests/interop/test_jdbc.py -k "15.0.0.1 and default and prepared_params"
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import Any

import pytest

JdbcRunner = Callable[[str, str], Any]  # conftest.jdbc_run: (version, mode) -> JdbcRun

# One prepared_params_<type> check per parameter type (IfxCheck.PARAMS).
PREPARED_PARAM_TYPES: tuple[str, ...] = (
    "smallint",
    "integer",
    "int8",
    "bigint",
    "smallfloat",
    "float",
    "decimal",
    "decimal_float",
    "decimal_double",
    "decimal_large",
    "money",
    "char",
    "nchar",
    "varchar",
    "varchar_latin1",
    "nvarchar",
    "lvarchar",
    "date",
    "datetime",
    "datetime_fraction",
    "time",
    "interval_ds",
    "interval_ym",
    "boolean",
    "string_to_integer",
    "string_to_decimal",
    "string_to_date",
    "string_to_datetime",
)

# In the order IfxCheck runs them (create_database first, drop_database last).
CHECKS: tuple[str, ...] = (
    "create_database",
    "error_database_exists",
    "connect_no_db",
    "connect_db",
    "connect_properties",
    "wrong_password",
    "unknown_user",
    "unknown_database",
    "metadata_product",
    "metadata_tables",
    "metadata_views",
    "metadata_columns",
    "metadata_primary_keys",
    "syscatalog_columns",
    "select_constant",
    "statement_ddl_dml",
    "statement_reuse",
    "select_types",
    "select_types_fixed",
    "select_zero_values",
    "select_nulls",
    "select_edge_values",
    "empty_result",
    "large_result",
    "byte_text",
    "interleaved_cursors",
    "scroll_cursor",
    *(f"prepared_params_{t}" for t in PREPARED_PARAM_TYPES),
    "batch_statement",
    "batch_prepared",
    "batch_error",
    "spl_callable_procedure",
    "spl_callable_result_set",
    "spl_execute_function",
    "spl_statement_local_variable",
    "spl_raise_exception",
    "spl_out_parameters",
    "spl_out_serial8",
    "spl_trigger_batch",
    "spl_metadata_procedures",
    "spl_metadata_procedure_columns",
    "serial_getserial",
    "serial8_getserial8",
    "bigserial_getbigserial",
    "error_syntax",
    "error_unknown_table",
    "error_unknown_column",
    "error_duplicate_key",
    "error_not_null",
    "error_table_exists",
    "error_conversion",
    "error_division_by_zero",
    "error_prepare_unknown_table",
    "autocommit_on",
    "autocommit_off_commit",
    "autocommit_off_rollback",
    "autocommit_toggle_commits",
    "close_rolls_back",
    "is_valid",
    "close",
    "lob_basic",
    "lob_streams",
    "lob_smartblob",
    "lob_update_delete",
    "lob_client_files",
    "lob_errors",
    "drop_database",
)

pytestmark = pytest.mark.interop


# jdbc_variant = (driver version, locale mode) and jdbc_version are parametrized by conftest.py.


@pytest.mark.parametrize("check", CHECKS)
def test_jdbc(check: str, jdbc_variant: tuple[str, str], jdbc_run: JdbcRunner) -> None:
    version, mode = jdbc_variant
    run = jdbc_run(version, mode)
    result = run.results.get(check)
    if result is None:
        pytest.fail(f"no CHECK line for {check}\n{run.diagnostics()}", pytrace=False)
    if not result.passed:
        pytest.fail(f"JDBC {version} ({mode}) {check}: {result.reason}", pytrace=False)


def test_jdbc_run_completed(jdbc_variant: tuple[str, str], jdbc_run: JdbcRunner) -> None:
    """The Java program ran to DONE, exited 0, and printed each known check exactly once."""
    run = jdbc_run(*jdbc_variant)
    problems = []
    if not run.done or run.returncode != 0:
        problems.append(run.diagnostics())
    if run.duplicates:
        problems.append(f"duplicate CHECK lines: {run.duplicates}")
    unknown = sorted(set(run.results) - set(CHECKS))
    if unknown:
        problems.append(f"CHECK lines for names not in CHECKS: {unknown}")
    assert not problems, "\n".join(problems)


def test_jdbc_registry_matches(
    jdbc_version: str, java_tools: dict[str, str], ifxcheck_classpaths: dict[str, str]
) -> None:
    """IfxCheck's registry (``--list``) equals CHECKS, in order."""
    proc = subprocess.run(
        [java_tools["java"], "-cp", ifxcheck_classpaths[jdbc_version], "IfxCheck", "--list"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert tuple(proc.stdout.split()) == CHECKS


# SQ_PROTOCOLS as a real 15.0 answers it (peer report 2.3: byte 8 = 0xff), so large tuples (bit
# 69) and long row ids (bit 70) are on for JDBC 15.0.0.1, which offers both, and off for 4.50.10,
# which offers 8 bytes. Long row ids make BYTE/TEXT descriptors 68 bytes (IfxBlob.fromIfx).
LONG_ROWID_MASK = bytes.fromhex("bdbe9ffe7fb7ffefff")
LONG_ROWID_CHECKS = ("byte_text", "select_types", "large_result")


def test_long_row_ids_server(jdbc_version: str, ifxcheck: Any) -> None:
    """BYTE/TEXT and fixed/variable tuples through a server that enables bits 69 and 70."""
    from conftest import Target, _import_server

    with _import_server()(port=0, data=":memory:", protocols=LONG_ROWID_MASK) as srv:
        target = Target(srv.host, srv.port, srv.server_name, "informix", srv.users["informix"])
        run = ifxcheck(
            jdbc_version,
            "default",
            list(LONG_ROWID_CHECKS),
            label=f"long-rowid-{jdbc_version}",
            target=target,
        )
    for name in LONG_ROWID_CHECKS:
        result = run.results.get(name)
        assert result is not None, run.diagnostics()
        assert result.passed, f"{name}: {result.reason}"
