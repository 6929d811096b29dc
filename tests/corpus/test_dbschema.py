"""dbschema- and dbexport-style schema files replay unchanged (tests/corpus/dbschema)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ifxwire

from .loader import CORPUS, run_script

DBSCHEMA = CORPUS / "dbschema"


def _replay(connect_kwargs: dict[str, Any], path: Path, name: str) -> ifxwire.Connection:
    conn = ifxwire.connect(**connect_kwargs, autocommit=True)
    conn.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
    run_script(conn, path)
    return conn


def test_files_say_what_they_model() -> None:
    for path in DBSCHEMA.glob("*.sql"):
        assert "Models:" in path.read_text(encoding="utf-8"), path


def test_dbschema_output_replays(connect_kwargs: dict[str, Any]) -> None:
    conn = _replay(connect_kwargs, DBSCHEMA / "stores_dbschema.sql", "stores_dbschema")
    cur = conn.cursor()
    cur.execute("SELECT constrname, owner, constrtype FROM sysconstraints ORDER BY constrid")
    rows = [(n, o.rstrip(), k) for n, o, k in cur.fetchall()]
    assert ("u100_1", "burnetg", "P") in rows and ("c104_5", "burnetg", "C") in rows
    assert ("r104_11", "burnetg", "R") in rows
    assert all(o == "burnetg" for _, o, _ in rows)
    cur.execute("SELECT owner FROM systables WHERE tabname = 'customer'")
    assert cur.fetchone()[0].rstrip() == "burnetg"
    cur.execute("INSERT INTO customer (customer_num, lname) VALUES (0, 'Pauli')")
    cur.execute('INSERT INTO "burnetg".orders (order_num, customer_num) VALUES (0, 1)')
    try:
        cur.execute("INSERT INTO burnetg.orders (order_num, customer_num) VALUES (0, 99)")
        raise AssertionError("the foreign key was not enforced")
    except ifxwire.IntegrityError as e:
        assert e.sqlcode == -691
    cur.execute("SELECT ord_seq.NEXTVAL, lname FROM clients")
    assert cur.fetchall() == [(1001, "Pauli")]
    cur.execute("SELECT tabauth FROM systabauth t, systables s WHERE t.tabid = s.tabid AND "
                "s.tabname = 'state' AND t.grantee = 'clerk'")
    assert cur.fetchone()[0].startswith("s")
    cur.execute("SELECT rolename FROM sysroleauth WHERE grantee = 'burnetg'")
    assert cur.fetchone()[0].rstrip() == "clerk"
    conn.close()


def test_dbexport_schema_replays(connect_kwargs: dict[str, Any]) -> None:
    conn = _replay(connect_kwargs, DBSCHEMA / "stores_dbexport.sql", "stores_dbexport")
    cur = conn.cursor()
    cur.execute("INSERT INTO call_type VALUES ('O', 'other')")
    cur.execute("INSERT INTO flags (flag_id, active, notes) VALUES (0, 't', 'x')")
    cur.execute("SELECT active, notes, call_code FROM flags")
    assert cur.fetchone() == (True, "x", "O")
    cur.execute("DELETE FROM call_type WHERE call_code = 'O'")  # cascades
    cur.execute("SELECT COUNT(*) FROM flags")
    assert cur.fetchone()[0] == 0
    conn.close()
