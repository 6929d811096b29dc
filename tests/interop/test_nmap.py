"""nmap's Informix scripts against our server: clients written against real servers.

nmap (Debian package ``nmap``; scripts ``informix-brute``, ``informix-query`` and
``informix-tables`` over ``nselib/informix.lua``) reads fixed byte counts where a real server
sent them, so each script that works here checks our replies against what its author met on
IDS 11.50 (docs/PROTOCOL.md §2 "Rejections", §5, §6 "SQ_COST", §3 bits 50 and 63).

scripts/test.sh installs nmap when it is missing. Without nmap these tests fail; set
``IFXWIRE_SKIP_NMAP=1`` to skip them on purpose. Every nmap run has a bounded time: nmap's
own ``--script-timeout`` and a subprocess timeout above it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire
from ifxwire.server import Server

SERVER_NAME = "ol_nmapcheck"
USERS = {"informix": "in4mix", "scott": "tiger"}
#: Seconds nmap may spend on one script; the process gets a little more.
SCRIPT_TIMEOUT = 60
PROCESS_TIMEOUT = SCRIPT_TIMEOUT + 30


@pytest.fixture(scope="module")
def nmap() -> str:
    found = shutil.which("nmap")
    if found is None:
        if os.environ.get("IFXWIRE_SKIP_NMAP") == "1":
            pytest.skip("IFXWIRE_SKIP_NMAP=1: nmap's Informix scripts are not run")
        pytest.fail("nmap is not installed (scripts/test.sh installs it; "
                    "IFXWIRE_SKIP_NMAP=1 skips these tests on purpose)")
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The default failed-login throttle stays on: informix-brute must finish with it.
    with Server(port=0, data=str(tmp_path_factory.mktemp("nmapdata")), server_name=SERVER_NAME,
                users=USERS) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix",
              "server": SERVER_NAME}
        c = ifxwire.connect(**kw)
        try:
            c.cursor().execute("CREATE DATABASE stores WITH LOG")
        finally:
            c.close()
        c = ifxwire.connect(**kw, database="stores")
        try:
            cur = c.cursor()
            cur.execute("CREATE TABLE customer (customer_num SERIAL, fname CHAR(15),"
                        " city VARCHAR(30))")
            cur.executemany("INSERT INTO customer (fname, city) VALUES (?, ?)",
                            [("Ludwig", "Sunnyvale"), ("Carole", "Redwood City")])
            c.commit()
        finally:
            c.close()
        yield srv


def _run(nmap: str, server: Server, script: str, args: str) -> str:
    """One script against the server's port; its report (stdout)."""
    cmd = [
        nmap, "-sT", "-Pn", "-n", "-p", str(server.port), server.host,
        # "+" runs the script although the port is not one of its portrule's (9088, ...).
        "--script", "+" + script, "--script-args", args,
        "--script-timeout", f"{SCRIPT_TIMEOUT}s",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=PROCESS_TIMEOUT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"| {script}:" in out, out
    assert "ERROR" not in out and "TIMEOUT" not in out, out
    return out


def test_informix_brute_finds_the_right_pairs_and_ends(
    nmap: str, server: Server, tmp_path: Path
) -> None:
    """Was: our -761 named the client ("sqli") where nmap reads the server's name, so every
    guess was retried with a wrong name and called valid, and the run never ended."""
    users = tmp_path / "users.txt"
    users.write_text("informix\nscott\nnobody\n")
    passwords = tmp_path / "passwords.txt"
    passwords.write_text("wrong\nin4mix\ntiger\nsecret\n")
    out = _run(nmap, server, "informix-brute", f"userdb={users},passdb={passwords}")
    assert "informix:in4mix - Valid credentials" in out, out
    assert "scott:tiger - Valid credentials" in out, out
    assert out.count("Valid credentials") == 2, out
    assert "Statistics: Performed" in out, out


def test_informix_query_runs_its_default_query(nmap: str, server: Server) -> None:
    out = _run(nmap, server, "informix-query",
               "informix-query.username=informix,informix-query.password=in4mix")
    assert "Database: sysmaster" in out, out
    assert "hostname" in out and "version" in out, out
    assert "IBM Informix Dynamic Server Version" in out, out


def test_informix_query_lists_the_rows_of_a_query(nmap: str, server: Server) -> None:
    # An even-length text: nmap sends it with its C terminator counted in the length.
    query = "SELECT customer_num, fname, city FROM customer ORDER BY customer_num"
    assert len(query) % 2 == 0
    out = _run(nmap, server, "informix-query",
               "informix-query.username=scott,informix-query.password=tiger,"
               f'informix-query.database=stores,informix-query.query="{query}"')
    assert "customer_num" in out and "fname" in out and "city" in out, out
    rows = [line for line in out.splitlines() if "Sunnyvale" in line or "Redwood City" in line]
    assert len(rows) == 2, out
    assert "1" in rows[0] and "Ludwig" in rows[0] and "Sunnyvale" in rows[0], out
    assert "2" in rows[1] and "Carole" in rows[1] and "Redwood City" in rows[1], out


def test_informix_tables_lists_tables_and_columns(nmap: str, server: Server) -> None:
    out = _run(nmap, server, "informix-tables",
               "informix-tables.username=informix,informix-tables.password=in4mix")
    assert "Database: stores" in out, out
    listed = {tuple(line.strip("|_ ").split()[:2]) for line in out.splitlines()
              if "customer" in line}
    assert {("customer", "city"), ("customer", "customer_num"), ("customer", "fname")} <= listed


def test_informix_query_runs_a_statement_then_a_query(nmap: str, server: Server) -> None:
    """nmap sends a statement that is not a SELECT as COMMAND NDESCRIBE EXECUTE RELEASE EOT
    and reads the DESCRIBE, a tag and exactly 26 bytes after an SQ_DONE tag (DONE, COST,
    EOT). Was: DESCRIBE DONE EOT, 10 bytes short, so nmap read on into the next reply and
    the query after the statement timed out (docs/PROTOCOL.md §6)."""
    query = ("UPDATE customer SET city = city WHERE customer_num = 1;"
             "SELECT fname FROM customer WHERE customer_num = 1")
    out = _run(nmap, server, "informix-query",
               "informix-query.username=scott,informix-query.password=tiger,"
               f'informix-query.database=stores,informix-query.query="{query}"')
    assert "Ludwig" in out, out
