"""Row factories (ifxwire.rows) through the driver, sync and asyncio, against the real server.

Every test runs twice, over ``ifxwire`` and over ``ifxwire.aio`` (the ``drv`` fixture drives
the asyncio API on one event loop and hands back plain values, so one test body checks both).
Run the file with IFXWIRE_PURE=1 and IFXWIRE_PURE=0 for the pure and the accelerated decoder.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import itertools
import pickle
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire import OutParam
from ifxwire.rows import (
    Row,
    args_row,
    class_row,
    dict_row,
    kwargs_row,
    namedtuple_row,
    tuple_row,
)

N = 700  # rows in t; with fetch_buffer_size=1024 they come in many batches
SELECT = "SELECT id, name, qty FROM t ORDER BY id"


def expected(i: int) -> tuple[Any, ...]:
    return (i, f"n{i}", i * 10)


@pytest.fixture(scope="module", autouse=True)
def table(connect_kwargs: dict[str, Any], dbname: str) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), qty INTEGER)")
        c.cursor().executemany("INSERT INTO t VALUES (?, ?, ?)", [expected(i) for i in range(N)])
        c.execute(
            """CREATE FUNCTION rf_split(a INTEGER, OUT twice INTEGER) RETURNING INTEGER AS plus;
                LET twice = a * 2;
                RETURN a + 1;
            END FUNCTION""")
        c.execute(
            """CREATE PROCEDURE rf_rows(n INTEGER) RETURNING INTEGER AS k, VARCHAR(10) AS v;
                DEFINE i INTEGER;
                FOR i = 1 TO n
                    RETURN i, 'v' || i WITH RESUME;
                END FOR;
            END PROCEDURE""")


class Driver:
    """The sync driver, or the asyncio one run on a private loop: ``d(x)`` awaits ``x`` when
    it is awaitable, so a test writes ``d(cur.fetchone())`` for both."""

    def __init__(self, kind: str, kw: dict[str, Any]) -> None:
        self.kind = kind
        self.kw = kw
        self.loop = asyncio.new_event_loop() if kind == "aio" else None
        self.opened: list[Any] = []

    def __call__(self, value: Any) -> Any:
        if self.loop is not None and inspect.isawaitable(value):
            return self.loop.run_until_complete(asyncio.wait_for(value, 30))
        return value

    def connect(self, **extra: Any) -> Any:
        mod = aio if self.loop is not None else ifxwire
        conn = self(mod.connect(**self.kw, **extra))
        self.opened.append(conn)
        return conn

    def pool(self, **extra: Any) -> Any:
        mod = aio if self.loop is not None else ifxwire
        pool = self(mod.create_pool(**self.kw, **extra))
        self.opened.append(pool)
        return pool

    def rows(self, cur: Any, limit: int | None = None) -> list[Any]:
        """Iterate the cursor (``for`` / ``async for``), stopping after ``limit`` rows."""
        if self.loop is None:
            return list(itertools.islice(cur, limit))

        async def collect() -> list[Any]:
            out = []
            async for row in cur:
                out.append(row)
                if len(out) == limit:
                    break
            return out

        return self(collect())  # type: ignore[no-any-return]

    def close(self) -> None:
        for thing in reversed(self.opened):
            self(thing.close())
        if self.loop is not None:
            self.loop.close()


@pytest.fixture(params=["sync", "aio"])
def d(request: pytest.FixtureRequest, connect_kwargs: dict[str, Any],
      dbname: str) -> Iterator[Driver]:
    drv = Driver(request.param, {**connect_kwargs, "database": dbname})
    try:
        yield drv
    finally:
        drv.close()


@dataclasses.dataclass
class Item:
    id: int
    name: str
    qty: int


def _as_tuple(row: Any) -> tuple[Any, ...]:
    if isinstance(row, dict):
        return (row["id"], row["name"], row["qty"])
    if isinstance(row, Item):
        return (row.id, row.name, row.qty)
    return tuple(row)


FACTORIES: list[tuple[str, Any, type]] = [
    ("tuple_row", tuple_row, tuple),
    ("dict_row", dict_row, dict),
    ("namedtuple_row", namedtuple_row, tuple),
    ("Row", Row, Row),
    ("class_row", class_row(Item), Item),
    ("args_row", args_row(lambda *v: list(v)), list),
    ("kwargs_row", kwargs_row(lambda **kw: Item(**kw)), Item),
]


@pytest.mark.parametrize(("name", "factory", "kind"), FACTORIES, ids=[f[0] for f in FACTORIES])
def test_every_fetch_honours_the_factory_across_batches(
        d: Driver, name: str, factory: Any, kind: type) -> None:
    conn = d.connect(fetch_buffer_size=1024)
    cur = conn.cursor(row_factory=factory)
    assert cur.row_factory is factory
    d(cur.execute(SELECT))
    got = [d(cur.fetchone()), d(cur.fetchone())]
    got += d(cur.fetchmany(300))
    got += d.rows(cur, 100)  # iteration, stopped part way through the result
    got += d(cur.fetchall())
    assert cur.batch_size < N  # the result really came in several batches
    assert len(got) == N
    assert all(type(r) is kind or isinstance(r, kind) for r in got)
    assert [_as_tuple(r) for r in got] == [expected(i) for i in range(N)]
    if name in ("tuple_row", "namedtuple_row", "Row"):
        assert got[5] == expected(5)  # tuples, and tuple subclasses, compare as tuples
    d(cur.execute(SELECT))
    assert [_as_tuple(r) for r in d.rows(cur)] == [expected(i) for i in range(N)]


def test_dict_namedtuple_and_row_shapes(d: Driver) -> None:
    conn = d.connect()
    cur = conn.cursor(row_factory=dict_row)
    d(cur.execute("SELECT id, name, qty AS count FROM t WHERE id = 3"))
    assert d(cur.fetchall()) == [{"id": 3, "name": "n3", "count": 30}]
    cur.row_factory = namedtuple_row
    d(cur.execute("SELECT id, COUNT(*), name AS class FROM t WHERE id < 2 GROUP BY 1, 3 "
                  "ORDER BY 1"))
    row = d(cur.fetchone())
    assert row == (0, 1, "n0")
    assert row.id == 0 and row.class_ == "n0"  # a keyword gets a "_"
    assert row._fields[1].isidentifier()  # an expression's name made an identifier
    cur.row_factory = Row
    d(cur.execute("SELECT id, name, qty AS count FROM t WHERE id = 4"))
    row = d(cur.fetchone())
    assert isinstance(row, Row) and row == (4, "n4", 40)
    assert (row[0], row["name"], row.name, row.count, row[-1]) == (4, "n4", "n4", 40, 40)
    assert row._asdict() == {"id": 4, "name": "n4", "count": 40}
    assert repr(row) == "Row(id=4, name='n4', count=40)"
    assert pickle.loads(pickle.dumps(row)) == row
    assert pickle.loads(pickle.dumps(row))._asdict() == row._asdict()
    with pytest.raises(KeyError):
        row["nope"]
    with pytest.raises(AttributeError):
        row.nope  # noqa: B018


def test_connection_and_connect_set_the_default_for_new_cursors(d: Driver) -> None:
    conn = d.connect(row_factory=dict_row)
    assert conn.row_factory is dict_row
    cur = d(conn.execute("SELECT id FROM t WHERE id = 1"))
    assert d(cur.fetchone()) == {"id": 1}
    conn.row_factory = Row
    assert cur.row_factory is dict_row  # a cursor keeps the factory it was made with
    assert d(d(conn.execute("SELECT id FROM t WHERE id = 1")).fetchone()).id == 1
    assert conn.cursor().row_factory is Row
    assert conn.cursor(row_factory=tuple_row).row_factory is tuple_row
    plain = d.connect()
    assert plain.row_factory is tuple_row
    assert d(d(plain.execute("SELECT id FROM t WHERE id = 1")).fetchone()) == (1,)
    with pytest.raises(ifxwire.ProgrammingError):
        plain.cursor().row_factory = 42


def test_the_drivers_own_queries_read_tuples(connect_kwargs: dict[str, Any],
                                            dbname: str) -> None:
    """A 12.10/14.10 server's release is looked up with a SELECT on first use of
    server_version: that query's row is read as a tuple whatever the connection's factory."""
    with ifxwire.connect(**connect_kwargs, database=dbname, row_factory=dict_row) as conn:
        assert conn._lookup_release() == conn.server_version


def test_changing_the_factory_mid_result_applies_to_the_rows_not_fetched_yet(d: Driver) -> None:
    conn = d.connect(fetch_buffer_size=1024)
    cur = conn.cursor()
    d(cur.execute(SELECT))
    assert d(cur.fetchone()) == expected(0)
    cur.row_factory = dict_row  # the current batch is made again from its decoded rows
    assert d(cur.fetchone()) == {"id": 1, "name": "n1", "qty": 10}
    rest = d(cur.fetchmany(400))
    assert rest[-1] == {"id": 401, "name": "n401", "qty": 4010}
    cur.row_factory = tuple_row
    assert d(cur.fetchall()) == [expected(i) for i in range(402, N)]


def test_accelerated_dict_rows_are_made_as_the_rows_are_decoded(d: Driver) -> None:
    """dict_row on the accelerated decoder: the decoder makes each row's dict as it decodes
    the row (Reply.keys, RowDecoder.decode_dicts), the first reply's rows and the later ones,
    with no batch of tuples behind them; the pure path makes the dicts from the tuples.
    Either way, a factory changed mid-batch gets every value of the rows not fetched yet,
    and dict_row again goes back to the decoder's dicts with the next batch."""
    conn = d.connect(fetch_buffer_size=1024)
    cur = conn.cursor(row_factory=dict_row)
    core = getattr(cur, "_cur", cur)  # the asyncio cursor serves its sync cursor's rows
    d(cur.execute(SELECT))
    assert d(cur.fetchone()) == {"id": 0, "name": "n0", "qty": 0}
    assert (type(core._raw[0]) is dict) is ifxwire.accelerated  # the OPEN reply's batch
    got = d(cur.fetchmany(300))
    assert (type(core._raw[0]) is dict) is ifxwire.accelerated  # an NFETCH reply's batch
    assert core._base > 0 and core._pos < len(core._raw)  # in the middle of a later batch
    cur.row_factory = Row
    row = d(cur.fetchone())
    assert isinstance(row, Row) and row == expected(301) and row.qty == 3010
    cur.row_factory = tuple_row
    got += [dict(zip(("id", "name", "qty"), r, strict=True)) for r in d(cur.fetchmany(50))]
    cur.row_factory = dict_row
    got += d(cur.fetchall())
    assert got == [dict(zip(("id", "name", "qty"), expected(i), strict=True))
                   for i in range(1, N) if i != 301]


def test_dict_rows_of_repeated_column_names_keep_every_value_for_a_change(d: Driver) -> None:
    """Repeated column names: a dict keeps the last column of a name (psycopg), so such
    rows are made from the decoded tuples (not by the decoder) and a change of factory
    mid-result still has every column."""
    conn = d.connect(fetch_buffer_size=1024)
    cur = conn.cursor(row_factory=dict_row)
    d(cur.execute("SELECT id, qty AS id, name FROM t ORDER BY 1"))
    assert d(cur.fetchmany(2)) == [{"id": 0, "name": "n0"}, {"id": 10, "name": "n1"}]
    cur.row_factory = tuple_row
    assert d(cur.fetchone()) == (2, 20, "n2")


def test_the_factory_is_called_once_per_shape_not_per_row(d: Driver) -> None:
    calls: list[Any] = []
    made: list[Sequence[Any]] = []

    def counting(cursor: Any) -> Any:
        calls.append(cursor)
        names = [c[0] for c in cursor.description]

        def make(values: Sequence[Any]) -> dict[str, Any]:
            made.append(values)
            return dict(zip(names, values, strict=True))

        return make

    conn = d.connect(fetch_buffer_size=1024)
    cur = conn.cursor(row_factory=counting)
    for _ in range(3):  # the same statement (cached: the same description) on one cursor
        d(cur.execute(SELECT))
        assert len(d(cur.fetchall())) == N
    assert len(calls) == 1 and len(made) == 3 * N
    # The factory is called with the cursor the application holds (asyncio: the AsyncCursor).
    assert calls[0] is cur
    d(cur.execute("SELECT name FROM t WHERE id = 7"))
    assert d(cur.fetchall()) == [{"name": "n7"}]
    assert len(calls) == 2


def test_switching_factories_on_one_cursor_and_statement(d: Driver) -> None:
    """The maker kept for a shape is the one of the factory in use (a dict_row after a
    tuple_row after a dict_row of the same cached statement makes dicts again)."""
    conn = d.connect()
    cur = conn.cursor()
    sql = "SELECT id, name FROM t WHERE id = ?"
    for factory, want in [(dict_row, {"id": 1, "name": "n1"}), (tuple_row, (1, "n1"))] * 2 + [
            (Row, (1, "n1")), (dict_row, {"id": 1, "name": "n1"})]:
        cur.row_factory = factory
        d(cur.execute(sql, (1,)))
        row = d(cur.fetchone())
        assert row == want
        assert (type(row) is tuple) == (factory is tuple_row), (factory, type(row))


def test_a_refusing_factory_fails_the_fetch_not_the_execute(d: Driver) -> None:
    @dataclasses.dataclass
    class Wrong:
        id: int

    conn = d.connect()
    cur = conn.cursor(row_factory=class_row(Wrong))
    d(cur.execute("SELECT id, name FROM t WHERE id < 3 ORDER BY id"))  # no error yet
    for _ in range(2):
        with pytest.raises(TypeError):
            d(cur.fetchone())
    cur.row_factory = dict_row  # the batch is made again: nothing was lost
    assert d(cur.fetchall()) == [{"id": i, "name": f"n{i}"} for i in range(3)]


def test_a_factory_that_fails_when_called_fails_the_fetch_not_the_execute(d: Driver) -> None:
    """The factory itself (not its maker) raises: execute still opens and tracks the result
    (a commit closes it), every fetch raises, and another factory serves the rows."""

    def broken(cursor: Any) -> Any:
        raise LookupError("no maker today")

    conn = d.connect()
    cur = conn.cursor(row_factory=broken)
    d(cur.execute("SELECT id, name FROM t WHERE id < 3 ORDER BY id"))  # no error yet
    with pytest.raises(LookupError):
        d(cur.fetchone())
    cur.row_factory = tuple_row
    assert d(cur.fetchall()) == [(i, f"n{i}") for i in range(3)]
    cur.row_factory = broken
    d(cur.execute("SELECT id FROM t WHERE id = 1"))
    d(conn.commit())  # the open result is known to the connection: closed, not lost
    d(cur.execute("SELECT COUNT(*) FROM t WHERE id = 1"))
    with pytest.raises(LookupError):
        d(cur.fetchall())


def test_scroll_cursor_moves_honour_the_factory(d: Driver) -> None:
    conn = d.connect(fetch_buffer_size=1024)
    cur = conn.cursor(scrollable=True, row_factory=dict_row)

    def item(i: int) -> dict[str, Any]:
        return dict(zip(("id", "name", "qty"), expected(i), strict=True))

    d(cur.execute(SELECT))
    assert d(cur.fetch_last()) == item(N - 1)
    assert d(cur.fetch_first()) == item(0)
    assert d(cur.fetchone()) == item(1)
    assert d(cur.fetch_absolute(500)) == item(500)
    assert d(cur.fetch_prior()) == item(499)
    assert d(cur.fetch_relative(-100)) == item(399)
    d(cur.scroll(10, "absolute"))
    assert d(cur.fetchmany(2)) == [item(10), item(11)]
    cur.row_factory = Row  # the window held is made again
    assert d(cur.fetchone()).qty == 120
    assert d(cur.fetch_absolute(-1)) == expected(N - 1)
    assert d(cur.fetch_absolute(3)).name == "n3"
    assert d(cur.fetchall())[-1] == expected(N - 1)
    hold = conn.cursor(withhold=True, row_factory=namedtuple_row)
    d(hold.execute("SELECT id, name FROM t WHERE id < 2 ORDER BY id"))
    assert [r.name for r in d.rows(hold)] == ["n0", "n1"]


def test_callproc_results_honour_the_factory(d: Driver) -> None:
    conn = d.connect(autocommit=True)
    cur = conn.cursor(row_factory=dict_row)
    assert d(cur.callproc("rf_split", (4, OutParam()))) == [4, 8]
    row = d(cur.fetchone())
    assert isinstance(row, dict) and list(row.values()) == [5]
    d(cur.callproc("rf_rows", (3,)))
    assert d(cur.fetchall()) == [{"k": i, "v": f"v{i}"} for i in (1, 2, 3)]
    cur.row_factory = Row
    d(cur.callproc("rf_rows", (2,)))
    assert [(r.k, r["v"]) for r in d(cur.fetchall())] == [(1, "v1"), (2, "v2")]


def test_a_pool_sets_and_restores_the_factory(d: Driver) -> None:
    pool = d.pool(max_size=1, row_factory=dict_row)
    conn = d(pool.acquire())
    assert conn.row_factory is dict_row
    assert d(d(conn.execute("SELECT id FROM t WHERE id = 2")).fetchone()) == {"id": 2}
    conn.row_factory = tuple_row
    d(pool.release(conn))
    again = d(pool.acquire())
    assert again is conn and again.row_factory is dict_row  # what the pool made it with
    d(pool.release(again))


def test_aio_and_sync_share_one_implementation() -> None:
    """The asyncio cursor has no row-making code of its own: it serves the rows its sync
    cursor made (issue 24: no sync/async twins)."""
    source = inspect.getsource(aio.cursor)
    assert "batch_maker" not in source and "_make_rows" not in source
