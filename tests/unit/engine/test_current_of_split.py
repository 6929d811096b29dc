"""``WHERE CURRENT OF`` recognition (engine/current_of.py), including its cost on huge texts."""

from __future__ import annotations

from ifxwire.server.engine.sql.current_of import split_current_of


def test_forms() -> None:
    assert split_current_of("UPDATE t SET a = 1 WHERE CURRENT OF c1") == (
        "UPDATE t SET a = 1", "c1")
    assert split_current_of("delete from t\nwhere  current\tof My_Cur ;  ") == (
        "delete from t", "my_cur")
    assert split_current_of('DELETE FROM t WHERE CURRENT OF "Mixed"') == (
        "DELETE FROM t", "Mixed")
    assert split_current_of("UPDATE t SET a = 1 WHERE id = 3") is None
    assert split_current_of("SELECT 'WHERE CURRENT OF x' FROM t") is None


def test_long_runs_of_blanks_cost_linear_time() -> None:
    # A search over the whole text backtracked quadratically on trailing blanks: a statement
    # padded with 600 000 blanks kept a session thread busy for minutes.
    text = "select count(*) from systables where tabid = 1" + " " * 2_000_000
    assert split_current_of(text) is None
    got = split_current_of("UPDATE t SET a = 1" + " " * 2_000_000 + "WHERE CURRENT OF c")
    assert got is not None and got[1] == "c" and got[0].rstrip() == "UPDATE t SET a = 1"
