"""A cached query's group served by the compiled one-step path, and by its pure twin.

``ifxwire._groupstep.serve`` (issue 26, eleventh round) is OneStepGroups._query_group's
plain-cursor branch in C: Session._serve gives it every group first, and it answers a
repeated query's group in one call or hands the group, unchanged, to the Python paths.
Each test here runs twice, with the compiled step ("compiled": as the accelerated server
runs) and without it ("python": as under IFXWIRE_PURE), over real sockets, and the client
must see the same thing. tests/integration/test_query_group_cache.py runs its changes
between two runs (DDL, reused ids, released values) under both paths too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire.server import Server, onestep
from ifxwire.server.onestep import OneStepGroups

KW = {"user": "informix", "password": "in4mix"}


@pytest.fixture(params=["compiled", "python"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "compiled":
        if onestep.serve_compiled is None:
            pytest.skip("ifxwire._groupstep not built, or IFXWIRE_PURE: the pure path only")
    else:
        monkeypatch.setattr(onestep, "serve_compiled", None)
    return str(request.param)


@pytest.fixture()
def served_in_python(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Groups the Python _query_group answered (it returns True), one entry each."""
    served: list[int] = []
    original = OneStepGroups._query_group

    def counting(self: OneStepGroups) -> bool:
        done = original(self)
        if done:
            served.append(1)
        return done

    monkeypatch.setattr(OneStepGroups, "_query_group", counting)
    return served


@pytest.fixture()
def server(path: str) -> Iterator[Any]:
    with Server(port=0, data=":memory:") as srv:
        yield srv


def test_repeated_groups_take_the_compiled_step(
        server: Any, path: str, served_in_python: list[int]) -> None:
    """After the first run of each statement (which keeps its group's template), every
    run is answered by the compiled step when there is one, by _query_group otherwise;
    the rows are the same."""
    with ifxwire.connect(host=server.host, port=server.port, database="sysmaster",
                         autocommit=True, **KW) as c:
        cur = c.cursor()
        before = server.one_step_groups
        for _ in range(20):
            cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
            assert cur.fetchall() == [(1,)]
        for k in (1, 2, 3, 1, 2, 3) * 3:
            cur.execute("SELECT tabid FROM systables WHERE tabid = ?", (k,))
            assert cur.fetchall() == [(k,)]
        one_step = server.one_step_groups - before
    assert one_step >= 36  # both statements, from their second run on
    if path == "compiled":
        assert len(served_in_python) <= 2, served_in_python
    else:
        assert len(served_in_python) == one_step


def test_a_row_the_client_code_set_cannot_carry(
        server: Any, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A UTF-8 database's 'Ω' read by a Latin-1 client: the row cannot be sent, the
    statement fails at each run (its cursor stopped), and the session goes on; the
    compiled step answers the writer's error as _query_group does."""
    handed: list[bool] = []
    original = OneStepGroups._one_step_error

    def counting(self: OneStepGroups, st: Any, out: Any, exc: BaseException,
                 writing: bool) -> None:
        handed.append(writing)
        original(self, st, out, exc, writing)

    monkeypatch.setattr(OneStepGroups, "_one_step_error", counting)
    kw = {"host": server.host, "port": server.port, **KW}
    with ifxwire.connect(**kw, client_locale="en_US.utf8", db_locale="en_US.utf8",
                         autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE cs_omega")
        c.cursor().execute("DATABASE cs_omega")
        c.cursor().execute("CREATE TABLE t (v VARCHAR(10), n INT)")
        c.cursor().execute("INSERT INTO t VALUES ('\u03a9', 1)")
        c.cursor().execute("INSERT INTO t VALUES ('a', 2)")
    with ifxwire.connect(**kw, database="cs_omega", autocommit=True) as c:
        cur = c.cursor()
        codes = []
        for _ in range(4):
            with pytest.raises(ifxwire.Error) as info:
                cur.execute("SELECT v FROM t WHERE n = ?", (1,))
                cur.fetchall()
            codes.append(getattr(info.value, "sqlcode", None))
            cur.execute("SELECT v FROM t WHERE n = ?", (2,))
            assert cur.fetchall() == [("a",)]
        assert codes == [-1260] * 4, codes
    # (the first run parses the group: the Python path; the later ones are the step's)
    assert handed == ([True] * 3 if path == "compiled" else []), handed


def test_a_property_set_on_the_session_class_is_read_from_then_on(
        server: Any, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled step reads the session's attributes from its ``__dict__`` only while the
    session's class has no data descriptor of those names (issue 26, twelfth round). A
    property set on the class while a session runs (its version tag changes) is what the
    step reads from then on, as Python's attribute lookup does: here ``_tails`` becomes an
    empty dict, so every run's SQ_DONE/SQ_COST tail is made again by ``_done_cost``."""
    from ifxwire.server.session import Session

    made: list[int] = []
    original = OneStepGroups._done_cost

    def counting(self: OneStepGroups, count: int) -> bytes:
        made.append(count)
        return original(self, count)

    monkeypatch.setattr(OneStepGroups, "_done_cost", counting)
    with ifxwire.connect(host=server.host, port=server.port, database="sysmaster",
                         autocommit=True, **KW) as c:
        cur = c.cursor()
        for _ in range(4):
            cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
            assert cur.fetchall() == [(1,)]
        kept = len(made)  # the tail is kept after the first run
        before = server.one_step_groups
        monkeypatch.setattr(Session, "_tails", property(lambda self: {}, lambda self, v: None),
                            raising=False)
        for _ in range(5):
            cur.execute("SELECT 1 FROM systables WHERE tabid = 1")
            assert cur.fetchall() == [(1,)]
        assert server.one_step_groups - before == 5
    assert kept <= 1
    assert made[kept:] == [1] * 5, made
