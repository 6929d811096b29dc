"""The ``ifxwire`` command run as a script runner (``-e``, ``-f``, piped input): output
formats, describe commands, error reports and exit codes. In-process through ``main()``."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ifxwire import __version__
from ifxwire.shell.__main__ import main
from ifxwire.shell.splitter import is_complete, split


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_execute_prints_aligned_table(capsys: Any, url: str) -> None:
    rc, out, _ = run(capsys, url, "-e",
                     "SELECT id, name, balance, vip FROM customer WHERE id <= 2 ORDER BY id")
    assert rc == 0
    assert out.splitlines() == [
        " id | name | balance | vip",
        "----+------+---------+-----",
        "  1 | c0   |    0.00 | t",
        "  2 | c1   |    1.50 | f",
        "(2 rows)",
    ]


def test_several_statements_and_status_lines(capsys: Any, url: str) -> None:
    rc, out, _ = run(capsys, url, "-e", "CREATE TEMP TABLE t (a INT); INSERT INTO t VALUES (1);"
                     " INSERT INTO t SELECT a + 1 FROM t; SELECT COUNT(*) AS n FROM t")
    assert rc == 0
    assert "Create done." in out and out.count("1 row(s) inserted.") == 2
    assert out.rstrip().endswith("(1 row)")


def test_formats(capsys: Any, url: str) -> None:
    sql = "SELECT id, name, balance, joined FROM customer WHERE id <= 2 ORDER BY id"
    rc, out, _ = run(capsys, url, "--format", "csv", "-e", sql)
    assert rc == 0 and list(csv.reader(io.StringIO(out))) == [
        ["id", "name", "balance", "joined"], ["1", "c0", "0.00", "2024-01-01"],
        ["2", "c1", "1.50", "2024-01-02"]]
    rc, out, _ = run(capsys, url, "--format", "json", "-e", sql)
    assert rc == 0 and json.loads(out) == [
        {"id": 1, "name": "c0", "balance": "0.00", "joined": "2024-01-01"},
        {"id": 2, "name": "c1", "balance": "1.50", "joined": "2024-01-02"}]
    rc, out, _ = run(capsys, url, "-x", "--null", "<null>", "-e",
                     "SELECT id, NULL::INT AS nothing FROM customer WHERE id = 1")
    assert rc == 0 and out.splitlines() == [
        "-[ RECORD 1 ]-", "id      | 1", "nothing | <null>", "(1 row)"]


def test_error_has_sqlcode_and_position_and_exit_code(capsys: Any, url: str) -> None:
    rc, out, err = run(capsys, url, "-e", "SELECT 1 FROM customer; SELECT * FORM customer; "
                       "SELECT 2 FROM customer")
    assert rc == 1
    assert "(3000 rows)" in out and "2\n" not in out  # stopped at the error
    lines = err.splitlines()
    assert lines[0].startswith("ERROR -201 [42000]: ")
    caret = next(i for i, line in enumerate(lines) if line.startswith("LINE 1: "))
    assert lines[caret] == "LINE 1: SELECT * FORM customer"
    position = lines[caret + 1].index("^") - len("LINE 1: ")
    assert lines[caret + 1].endswith(f"(position {position})")
    assert "SELECT * FORM customer"[position:].startswith("customer")  # the server's offset
    rc, _, err = run(capsys, url, "--keep-going", "-e",
                     "SELECT nosuch FROM customer; SELECT 1 FROM customer WHERE id = 1")
    assert rc == 1 and "ERROR -217" in err


def test_file_with_a_routine_body(capsys: Any, url: str, tmp_path: Path) -> None:
    script = tmp_path / "s.sql"
    script.write_text(
        "-- a comment; with a semicolon\n"
        "CREATE FUNCTION add_one(a INT) RETURNING INT;\n  RETURN a + 1;\nEND FUNCTION;\n"
        "SELECT add_one(41) AS answer FROM customer WHERE id = 1;\n"
        "DROP FUNCTION add_one;\n")
    rc, out, err = run(capsys, url, "-f", str(script))
    assert rc == 0, err
    assert " answer\n--------\n     42\n(1 row)\n" in out


def test_describe_commands(capsys: Any, url: str) -> None:
    rc, out, _ = run(capsys, url, "-e", "INFO TABLES", "-e", "INFO COLUMNS FOR customer")
    assert rc == 0
    assert " customer | informix | table" in out
    assert " balance | DECIMAL(10,2) | yes   | 0" in out
    assert " name    | VARCHAR(40)   | no    |" in out
    rc, out, _ = run(capsys, url, "-e", "\\d customer")
    assert rc == 0
    assert " ix_customer_name | duplicates | name    |" in out
    assert "primary key" in out
    rc, _, err = run(capsys, url, "-e", "\\d nosuch")
    assert rc == 1 and 'no table or view "nosuch"' in err


def test_connect_by_keywords_and_sqlhosts(capsys: Any, server: Any, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rc, out, _ = run(capsys, "-H", server.host, "-p", str(server.port), "-U", "informix",
                     "-P", "in4mix", "-d", "shop", "-e", "SELECT COUNT(*) AS n FROM customer")
    assert rc == 0 and " 3000" in out
    sqlhosts = tmp_path / "sqlhosts"
    sqlhosts.write_text(f"prod onsoctcp {server.host} {server.port}\n")
    monkeypatch.setenv("INFORMIXSQLHOSTS", str(sqlhosts))
    monkeypatch.setenv("INFORMIXSERVER", "prod")
    # the embedded server calls itself "informix": sqlhosts found it, the name is refused
    rc, _, err = run(capsys, "-U", "informix", "-P", "in4mix", "-d", "shop", "-e", "SELECT 1")
    assert rc == 2 and "cannot connect" in err and "-761" in err
    sqlhosts.write_text(f"informix onsoctcp {server.host} {server.port}\n")
    monkeypatch.setenv("INFORMIXSERVER", "informix")
    rc, out, _ = run(capsys, "-U", "informix", "-P", "in4mix", "-d", "shop", "-e",
                     "SELECT COUNT(*) AS n FROM customer")
    assert rc == 0 and " 3000" in out


def test_connection_failure_exit_code(capsys: Any, url: str) -> None:
    rc, _, err = run(capsys, "informix://informix:wrong@127.0.0.1:1/db", "-e", "SELECT 1")
    assert rc == 2 and err.startswith("ifxwire: cannot connect:")
    rc, _, err = run(capsys, url, "-f", "/nonexistent/script.sql")
    assert rc == 2 and "cannot read /nonexistent/script.sql" in err


def test_version_and_python_dash_m() -> None:
    for cmd in ([sys.executable, "-m", "ifxwire", "--version"],
                [sys.executable, "-m", "ifxwire.shell", "--version"],
                [sys.executable, "-m", "ifxwire.server", "--version"]):
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and __version__ in done.stdout, cmd


def test_piped_input(url: str) -> None:
    done = subprocess.run([sys.executable, "-m", "ifxwire", url, "--format", "csv"],
                          input="SELECT id FROM customer WHERE id < 3\nORDER BY id;\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["id", "1", "2"]


def test_splitter() -> None:
    assert split("select ';' from t; select 2") == (["select ';' from t"], " select 2")
    assert split("select 1 -- ; \n from t;") == (["select 1 -- ; \n from t"], "")
    assert split("select {;} 1 from t /* ; */;")[0] == ["select {;} 1 from t /* ; */"]
    body = "create procedure p()\n  let x = 1;\nend procedure"
    assert split(body + ";\nselect 1;") == ([body, "select 1"], "")
    assert not is_complete("create function f() returning int; return 1;")
    assert is_complete("select 1;  ")


def test_load_and_unload_in_a_script(capsys: Any, url: str, tmp_path: Path) -> None:
    """dbaccess-style LOAD/UNLOAD run from -e; a bad record makes the exit status 1."""
    path = tmp_path / "c.unl"
    rc, out, err = run(capsys, url, "-e", f"UNLOAD TO '{path}' DELIMITER ';' SELECT id, name, "
                       "balance, joined, vip FROM customer WHERE id <= 2 ORDER BY id")
    assert rc == 0 and out == "2 row(s) unloaded.\n", err
    assert path.read_text() == "1;c0;0.00;01/01/2024;t;\n2;c1;1.50;01/02/2024;f;\n"
    rc, out, err = run(capsys, url, "-e", "CREATE TEMP TABLE c2 (id INT, name VARCHAR(40), "
                       "balance DECIMAL(10,2), joined DATE, vip BOOLEAN); "
                       f"LOAD FROM '{path}' DELIMITER ';' INSERT INTO c2; "
                       "SELECT COUNT(*) AS n FROM c2 WHERE joined = '2024-01-02'")
    assert rc == 0 and "2 row(s) loaded." in out and " 1\n" in out, err
    path.write_text("1;c0;0.00;13/45/2024;t;\n")
    rc, out, err = run(capsys, url, "-e", "CREATE TEMP TABLE c3 (id INT, name VARCHAR(40), "
                       "balance DECIMAL(10,2), joined DATE, vip BOOLEAN); "
                       f"LOAD FROM '{path}' DELIMITER ';' INSERT INTO c3")
    assert rc == 1 and "LOAD stopped at line 1" in err
