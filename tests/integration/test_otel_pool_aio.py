"""ifxwire.otel on the asyncio driver and on both pools, against the real embedded server:
statement, connect and acquire spans, and the pool metrics of the database semantic
conventions (db.client.connection.count by state, .max, .pending_requests, .timeouts,
.wait_time, .use_time) read through the SDK's in-memory metric reader."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from _otel import Telemetry
from opentelemetry.trace import SpanKind, StatusCode

import ifxwire
import ifxwire.aio
import ifxwire.otel
from ifxwire.aio.cursor import AsyncCursor

STATE = "db.client.connection.state"
POOL = "db.client.connection.pool.name"


@pytest.fixture()
def otel() -> Iterator[Telemetry]:
    t = Telemetry()
    t.instrument()
    try:
        yield t
    finally:
        ifxwire.otel.uninstrument()


def by_state(t: Telemetry, pool_name: str) -> dict[str, int]:
    return {p.attributes[STATE]: p.value for p in t.points("db.client.connection.count")
            if p.attributes[POOL] == pool_name}


def test_asyncio_statements_connect_executemany_callproc_and_errors(
    otel: Telemetry, connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    async def main() -> None:
        conn = await ifxwire.aio.connect(**connect_kwargs, database=dbname, autocommit=True)
        try:
            cur = conn.cursor()
            await cur.execute("SELECT tabname FROM systables WHERE tabid = ?", (1,))
            assert await cur.fetchall() == [("systables",)]
            await cur.execute("CREATE TEMP TABLE otel_aio (a INT)")
            await cur.executemany("INSERT INTO otel_aio VALUES (?)", [(1,), (2,)])
            await cur.execute("CREATE PROCEDURE otel_aio_one() RETURNING INT; RETURN 1; "
                              "END PROCEDURE")
            await cur.callproc("otel_aio_one")
            assert await cur.fetchone() == (1,)
            with pytest.raises(ifxwire.ProgrammingError):
                await cur.execute("SELECT * FROM otel_aio_missing")
        finally:
            await conn.close()

    asyncio.run(main())
    spans = otel.spans()
    assert [s.name for s in spans] == [
        "connect",  # the version query a connect may run has no span of its own
        "SELECT systables",
        "CREATE otel_aio",
        "BATCH INSERT otel_aio",
        "CREATE otel_aio_one",
        "EXECUTE PROCEDURE otel_aio_one",
        "SELECT otel_aio_missing",
    ]
    assert all(s.kind is SpanKind.CLIENT for s in spans)
    connect, select = spans[0], spans[1]
    assert dict(connect.attributes or {}) == {
        "db.system.name": "ibm.informix", "db.namespace": dbname,
        "server.address": server.host, "server.port": server.port,
    }
    assert dict(select.attributes or {}) == {
        "db.system.name": "ibm.informix", "db.namespace": dbname,
        "db.operation.name": "SELECT", "db.query.summary": "SELECT systables",
        "db.query.text": "SELECT tabname FROM systables WHERE tabid = ?",
        "server.address": server.host, "server.port": server.port,
    }
    assert dict(spans[3].attributes or {})["db.operation.batch.size"] == 2
    assert dict(spans[5].attributes or {})["db.stored_procedure.name"] == "otel_aio_one"
    failed = spans[6]
    assert failed.status.status_code is StatusCode.ERROR
    assert dict(failed.attributes or {})["error.type"] == "-206"


def test_asyncio_spans_nest_under_the_tasks_span(
    otel: Telemetry, connect_kwargs: dict[str, Any], dbname: str
) -> None:
    tracer = otel.tracer_provider.get_tracer("app")

    async def one(conn: ifxwire.aio.AsyncConnection, name: str) -> int:
        with tracer.start_as_current_span(name) as parent:
            await asyncio.sleep(0)
            cur = await conn.execute("SELECT tabid FROM systables WHERE tabid = 1")
            await cur.fetchall()
            return parent.get_span_context().span_id

    async def main() -> dict[str, int]:
        a = await ifxwire.aio.connect(**connect_kwargs, database=dbname)
        b = await ifxwire.aio.connect(**connect_kwargs, database=dbname)
        try:
            ids = await asyncio.gather(one(a, "task-a"), one(b, "task-b"))
        finally:
            await a.close()
            await b.close()
        return {"task-a": ids[0], "task-b": ids[1]}

    parents = asyncio.run(main())
    selects = [s for s in otel.spans() if s.name.startswith("SELECT")]
    assert sorted(s.parent.span_id for s in selects if s.parent) == sorted(parents.values())


def test_sync_pool_spans_and_metrics(
    otel: Telemetry, connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    pool = ifxwire.ConnectionPool(**connect_kwargs, database=dbname, min_size=1, max_size=2,
                                  ping_after=None)
    name = f"{server.host}:{server.port}/{dbname}"
    try:
        assert by_state(otel, name) == {"idle": 1, "used": 0}
        a = pool.acquire()
        b = pool.acquire()  # opens the second connection: its connect span is a child
        assert by_state(otel, name) == {"idle": 0, "used": 2}
        (mx,) = [p for p in otel.points("db.client.connection.max")
                 if p.attributes[POOL] == name]
        assert mx.value == 2
        with pytest.raises(ifxwire.PoolTimeout):
            pool.acquire(timeout=0.05)
        (timeouts,) = otel.points("db.client.connection.timeouts")
        assert timeouts.value == 1 and timeouts.attributes == {POOL: name}
        pool.release(a)
        pool.release(b)
        assert by_state(otel, name) == {"idle": 2, "used": 0}
        with pool.connection() as c:
            c.cursor().execute("SELECT 1 FROM systables WHERE tabid = 1")
    finally:
        pool.close()
    (wait,) = otel.points("db.client.connection.wait_time")
    assert wait.count == 3 and wait.attributes == {POOL: name}  # the timeout is not a wait
    (use,) = otel.points("db.client.connection.use_time")
    assert use.count == 3
    spans = otel.spans()
    acquires = [s for s in spans if s.name == "acquire"]
    assert len(acquires) == 4
    assert all(s.kind is SpanKind.INTERNAL for s in acquires)
    assert dict(acquires[0].attributes or {}) == {"db.system.name": "ibm.informix",
                                                 POOL: name}
    assert acquires[2].status.status_code is StatusCode.ERROR
    assert dict(acquires[2].attributes or {})["error.type"] == "ifxwire.client.pool.PoolTimeout"
    connects = [s for s in spans if s.name == "connect"]
    assert len(connects) == 2  # min_size's, then the second acquire's, its child (the pool
    # connects in a helper thread, run in the acquiring caller's context)
    assert connects[0].parent is None
    assert connects[1].parent is not None
    assert connects[1].parent.span_id == acquires[1].context.span_id
    # A closed pool is no longer reported.
    assert by_state(otel, name) == {}


def test_two_pools_to_one_target_get_distinct_names(
    otel: Telemetry, connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    p1 = ifxwire.ConnectionPool(**connect_kwargs, database=dbname)
    p2 = ifxwire.ConnectionPool(**connect_kwargs, database=dbname)
    p3 = ifxwire.ConnectionPool(factory=lambda: ifxwire.connect(**connect_kwargs))
    try:
        names = {p.attributes[POOL] for p in otel.points("db.client.connection.count")}
        base = f"{server.host}:{server.port}/{dbname}"
        assert {base, base + "#2"} <= names
        assert any(n.startswith("ifxwire-pool-") for n in names)
    finally:
        for p in (p1, p2, p3):
            p.close()


def test_asyncio_pool_spans_and_metrics(
    otel: Telemetry, connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    name = f"{server.host}:{server.port}/{dbname}"

    async def main() -> None:
        pool = await ifxwire.aio.create_pool(**connect_kwargs, database=dbname, min_size=1,
                                             max_size=1, ping_after=None)
        try:
            assert by_state(otel, name) == {"idle": 1, "used": 0}
            conn = await pool.acquire()
            assert by_state(otel, name) == {"idle": 0, "used": 1}
            waiter = asyncio.ensure_future(pool.acquire(timeout=5))
            await asyncio.sleep(0.05)
            (pending,) = [p for p in otel.points("db.client.connection.pending_requests")
                          if p.attributes[POOL] == name]
            assert pending.value == 1
            await pool.release(conn)
            second = await waiter
            await pool.release(second)
            with pytest.raises(ifxwire.aio.PoolTimeout):
                held = await pool.acquire()
                try:
                    await pool.acquire(timeout=0.05)
                finally:
                    await pool.release(held)
        finally:
            await pool.close()

    asyncio.run(main())
    (wait,) = otel.points("db.client.connection.wait_time")
    assert wait.count == 3
    assert wait.max >= 0.04  # the second acquire waited for the release
    (timeouts,) = otel.points("db.client.connection.timeouts")
    assert timeouts.value == 1
    (use,) = otel.points("db.client.connection.use_time")
    assert use.count == 3
    acquires = [s for s in otel.spans() if s.name == "acquire"]
    assert len(acquires) == 4
    assert acquires[-1].status.status_code is StatusCode.ERROR


def test_asyncio_cursor_methods_are_restored(otel: Telemetry) -> None:
    assert AsyncCursor.execute.__wrapped__ is not None  # type: ignore[attr-defined]
    ifxwire.otel.uninstrument()
    assert not hasattr(AsyncCursor.execute, "__wrapped__")
    assert not hasattr(ifxwire.aio.connection.connect_to, "__wrapped__")
