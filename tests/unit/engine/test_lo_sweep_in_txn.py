"""The smart-LO store's first sweep of a database (LoSession.store, once per server process)
commits by itself (run_write_alone). Under row locks inside a client's transaction it used to
escalate and commit the transaction's own held statements with it, leaving the session marked
escalated: a ROLLBACK WORK then undid nothing, and a COMMIT WORK logged the transaction to
the change stream as rolled back (seen as test_cdc_crash's "committed but not streamed", the
first store of a restarted server made at a PREPARE inside BEGIN WORK)."""

from __future__ import annotations

from pathlib import Path

from ifxwire.server.engine import Engine
from ifxwire.server.engine.features.lobs import lo_session

from .conftest import Sql


def _session(tmp_path: Path) -> tuple[Engine, Sql]:
    eng = Engine(tmp_path / "d", row_locks=True)
    s = Sql(eng.session("informix", {}))
    s.run("create database losweep with log")
    s.run("create table t (a int)")
    return eng, s


def test_a_rollback_after_the_first_lo_store_inside_a_transaction_undoes_its_rows(
        tmp_path: Path) -> None:
    eng, s = _session(tmp_path)
    s.run("begin work")
    s.run("insert into t values (1)")
    lo_session._swept.discard(eng.path("losweep"))  # this process has not swept it yet
    s.s.lo._store = None  # nor has this session made its store
    s.s.lo.store()
    s.run("rollback work")
    assert s.one("select count(*) from t") == 0
    s.s.close()
    eng.close()


def test_the_first_lo_store_inside_a_transaction_leaves_it_open(tmp_path: Path) -> None:
    eng, s = _session(tmp_path)
    s.run("begin work")
    s.run("insert into t values (1)")
    lo_session._swept.discard(eng.path("losweep"))
    s.s.lo._store = None
    s.s.lo.store()
    assert not getattr(s.s, "_rl_escalated", False) or s.s._sql_txn
    s.run("insert into t values (2)")
    s.run("commit work")
    assert s.one("select count(*) from t") == 2
    s.s.close()
    eng.close()
