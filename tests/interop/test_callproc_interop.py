"""OUT parameters through both clients: IBM JDBC's CallableStatement (``registerOutParameter``)
and ifxwire's ``callproc`` with ``OutParam``/``InOutParam`` call the same SPL routines and read
the same values (client/routines.py; docs/PROTOCOL.md §10, §11).

JDBC's checks ``spl_out_parameters`` and ``spl_out_serial8`` create the routines and assert
their values; ifxwire then calls those routines in the same database and must read what JDBC
read: OUT INTEGER, INOUT VARCHAR, a function's return value, OUT DECIMAL(8,2) from a
procedure, and SERIAL8 values (the fast path's type-18 framing) both as OUT and returned.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

import ifxwire
from conftest import JDBC_VERSIONS, IfxCheckRunner, Target
from ifxwire import InOutParam, OutParam

pytestmark = pytest.mark.interop


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_and_ifxwire_read_the_same_out_values(
    version: str, ifxcheck: IfxCheckRunner, interop_target: Target
) -> None:
    db = "xcp_" + "".join(ch if ch.isalnum() else "_" for ch in version)
    run = ifxcheck(version, "default", ["spl_out_parameters", "spl_out_serial8"], database=db,
                   label=f"callproc-{version}")
    for check in ("spl_out_parameters", "spl_out_serial8"):
        result = run.results.get(check)
        assert result is not None, run.diagnostics()
        assert result.passed, result.reason
    t = interop_target
    with ifxwire.connect(host=t.host, port=t.port, user=t.user, password=t.password,
                         server=t.server_name, database=db) as conn:
        cur = conn.cursor()
        for a in (5, 7):  # IfxCheck: twice = a * 2, trail = "start+" + a, returns a + 1
            assert cur.callproc("spl_op", [a, OutParam(), InOutParam("start")]) == [
                a, a * 2, f"start+{a}"]
            assert cur.fetchall() == [(a + 1,)]
        assert cur.callproc("spl_op_proc", (7, OutParam())) == [7, Decimal("3.50")]
        assert cur.description is None
        a = 1 << 40  # IfxCheck: b = a + 1 (OUT SERIAL8), returns a + 2 (SERIAL8)
        assert cur.callproc("spl_op_s8", (a, OutParam())) == [a, a + 1]
        assert cur.fetchall() == [(a + 2,)]
        conn.commit()
