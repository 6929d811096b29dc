"""ifxwire.otel against the real embedded server, seen through the OpenTelemetry SDK's
in-memory span exporter and metric reader: the attributes of the database semantic
conventions, errors, no parameter values unless asked, executemany and callproc, connects,
uninstrument, the opentelemetry-instrument entry point. Pools and asyncio:
test_otel_pool_aio.py."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from _otel import Telemetry, only
from opentelemetry.trace import SpanKind, StatusCode

import ifxwire
import ifxwire.otel
from ifxwire.client.connection import Connection
from ifxwire.client.cursor import Cursor


@pytest.fixture()
def otel() -> Iterator[Telemetry]:
    t = Telemetry()
    t.instrument()
    try:
        yield t
    finally:
        ifxwire.otel.uninstrument()


@pytest.fixture()
def db(connect_kwargs: dict[str, Any], dbname: str) -> Iterator[Connection]:
    c = ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True)
    try:
        yield c
    finally:
        c.close()


def test_a_select_with_parameters_makes_one_client_span(
    db: Connection, otel: Telemetry, dbname: str, server: Any
) -> None:
    sql = "SELECT tabname FROM systables WHERE tabid = ?"
    assert db.cursor().execute(sql, (1,)).fetchall() == [("systables",)]
    span = only(otel.spans())
    assert span.name == "SELECT systables"  # the query summary
    assert span.kind is SpanKind.CLIENT
    assert span.status.status_code is StatusCode.UNSET
    assert dict(span.attributes or {}) == {
        "db.system.name": "ibm.informix",
        "db.namespace": dbname,
        "db.operation.name": "SELECT",
        "db.query.summary": "SELECT systables",
        "db.query.text": sql,  # run with parameters: as written
        "server.address": server.host,
        "server.port": server.port,
    }
    assert span.instrumentation_scope is not None
    assert span.instrumentation_scope.name == "ifxwire"
    assert span.instrumentation_scope.schema_url == ifxwire.otel.SCHEMA_URL


def test_parameter_values_are_recorded_only_when_asked(
    db: Connection, otel: Telemetry
) -> None:
    db.cursor().execute("SELECT tabname FROM systables WHERE tabname = ?", ("s3cret",))
    attrs = dict(only(otel.spans()).attributes or {})
    assert not any(k.startswith("db.query.parameter") for k in attrs)
    assert "s3cret" not in repr(attrs)

    otel.clear()
    otel.instrument(capture_parameters=True)
    db.cursor().execute("SELECT tabname FROM systables WHERE tabname = ? AND tabid > ?",
                        ("s3cret", 0))
    attrs = dict(only(otel.spans()).attributes or {})
    assert attrs["db.query.parameter.0"] == "s3cret"
    assert attrs["db.query.parameter.1"] == "0"

    otel.clear()
    db.cursor().execute("SELECT tabname FROM systables WHERE tabid = :id", {"id": 1})
    assert dict(only(otel.spans()).attributes or {})["db.query.parameter.id"] == "1"


def test_literals_of_text_run_without_parameters_are_masked(
    db: Connection, otel: Telemetry
) -> None:
    db.cursor().execute(
        "SELECT tabname FROM systables WHERE tabname = 'pass''word' AND tabid < 987654"
    )
    attrs = dict(only(otel.spans()).attributes or {})
    assert attrs["db.query.text"] == "SELECT tabname FROM systables WHERE tabname = ? AND tabid < ?"
    # six digits: no substring of the server's port (it failed when the port was 42541)
    assert "pass" not in repr(attrs) and "987654" not in repr(attrs)

    otel.clear()
    otel.instrument(query_text=False)
    db.cursor().execute("SELECT tabname FROM systables WHERE tabid = 1")
    assert "db.query.text" not in dict(only(otel.spans()).attributes or {})


def test_a_server_error_sets_error_type_to_the_sqlcode(
    db: Connection, otel: Telemetry, dbname: str
) -> None:
    with pytest.raises(ifxwire.ProgrammingError) as err:
        db.cursor().execute("SELECT * FROM otel_no_such_table")
    assert err.value.sqlcode == -206
    span = only(otel.spans())
    assert span.status.status_code is StatusCode.ERROR
    attrs = dict(span.attributes or {})
    assert attrs["error.type"] == "-206"
    assert attrs["db.response.status_code"] == "-206"
    assert attrs["ibm.informix.isam_code"] == err.value.isamcode != 0
    assert any(e.name == "exception" for e in span.events)
    # The operation duration histogram carries the error too.
    points = otel.points("db.client.operation.duration")
    failed = [p for p in points if p.attributes.get("error.type") == "-206"]
    assert failed and failed[0].count == 1
    assert failed[0].attributes["db.namespace"] == dbname
    assert "db.query.text" not in failed[0].attributes  # opt-in on the metric


def test_operation_duration_metric(db: Connection, otel: Telemetry) -> None:
    cur = db.cursor()
    for _ in range(3):
        cur.execute("SELECT tabid FROM systables WHERE tabid = ?", (1,))
    (point,) = [p for p in otel.points("db.client.operation.duration")
                if p.attributes["db.operation.name"] == "SELECT"]
    assert point.count == 3
    assert point.sum > 0
    assert point.explicit_bounds[:3] == (0.001, 0.005, 0.01)
    assert point.attributes["db.system.name"] == "ibm.informix"


def test_executemany_is_one_batch_span_without_values(
    db: Connection, otel: Telemetry, dbname: str
) -> None:
    cur = db.cursor()
    cur.execute("CREATE TEMP TABLE otel_many (a INT, b VARCHAR(20))")
    otel.clear()
    otel.instrument(capture_parameters=True)  # never on batches
    sql = "INSERT INTO otel_many VALUES (?, ?)"
    cur.executemany(sql, [(1, "x"), (2, "y"), (3, "z")])
    span = only(otel.spans())
    assert span.name == "BATCH INSERT otel_many"
    attrs = dict(span.attributes or {})
    assert attrs["db.operation.name"] == "BATCH INSERT"
    assert attrs["db.query.summary"] == "BATCH INSERT otel_many"
    assert attrs["db.operation.batch.size"] == 3
    assert attrs["db.query.text"] == sql
    assert not any(k.startswith("db.query.parameter") for k in attrs)

    otel.clear()  # an iterator: counted as the driver takes the sets
    cur.executemany(sql, ((i, "g") for i in range(5)))
    assert dict(only(otel.spans()).attributes or {})["db.operation.batch.size"] == 5

    otel.clear()  # one set is a plain operation
    cur.executemany(sql, iter([(9, "one")]))
    span = only(otel.spans())
    assert span.name == "INSERT otel_many"
    attrs = dict(span.attributes or {})
    assert attrs["db.operation.name"] == "INSERT"
    assert attrs["db.query.summary"] == "INSERT otel_many"
    assert "db.operation.batch.size" not in attrs
    assert cur.execute("SELECT COUNT(*) FROM otel_many").fetchone() == (9,)

    otel.clear()  # a failing row: the span fails with its sqlcode
    cur.execute("CREATE TEMP TABLE otel_strict (a INT NOT NULL)")
    otel.clear()
    with pytest.raises(ifxwire.IntegrityError) as err:
        cur.executemany("INSERT INTO otel_strict VALUES (?)", [(1,), (None,)])
    span = only(otel.spans())
    assert dict(span.attributes or {})["error.type"] == str(err.value.sqlcode)


def test_callproc_is_one_span_naming_the_procedure(
    db: Connection, otel: Telemetry
) -> None:
    cur = db.cursor()
    cur.execute("CREATE PROCEDURE otel_add(a INT, b INT) RETURNING INT; RETURN a + b; "
                "END PROCEDURE")
    otel.clear()
    cur.callproc("otel_add", (2, 3))
    assert cur.fetchone() == (5,)
    span = only(otel.spans())  # the EXECUTE PROCEDURE it runs has no span of its own
    assert span.name == "EXECUTE PROCEDURE otel_add"
    attrs = dict(span.attributes or {})
    assert attrs["db.operation.name"] == "EXECUTE PROCEDURE"
    assert attrs["db.stored_procedure.name"] == "otel_add"
    assert attrs["db.query.summary"] == "EXECUTE PROCEDURE otel_add"
    assert "db.query.text" not in attrs

    otel.clear()
    with pytest.raises(ifxwire.DatabaseError) as err:
        cur.callproc("otel_missing", (1,))
    span = only(otel.spans())
    assert dict(span.attributes or {})["error.type"] == str(err.value.sqlcode)
    assert span.status.status_code is StatusCode.ERROR


def test_connect_span(otel: Telemetry, connect_kwargs: dict[str, Any], dbname: str,
                      server: Any) -> None:
    c = ifxwire.connect(**connect_kwargs, database=dbname)
    c.close()
    span = only(otel.spans())
    assert span.name == "connect"
    assert span.kind is SpanKind.CLIENT
    assert dict(span.attributes or {}) == {
        "db.system.name": "ibm.informix",
        "db.namespace": dbname,
        "server.address": server.host,
        "server.port": server.port,
    }


def test_a_failed_connect_span_names_the_error_not_the_password(
    otel: Telemetry, connect_kwargs: dict[str, Any]
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ifxwire.OperationalError):
        ifxwire.connect(host="127.0.0.1", port=port, user="informix",
                        password="hunter2-secret", connect_timeout=2)
    span = only(otel.spans())
    assert span.status.status_code is StatusCode.ERROR
    assert dict(span.attributes or {})["error.type"] == "ifxwire.errors.OperationalError"
    assert "hunter2" not in repr(span.to_json())

    otel.clear()  # a refused login: the server's sqlcode
    with pytest.raises(ifxwire.OperationalError) as err:
        ifxwire.connect(**{**connect_kwargs, "password": "wrong-hunter2"})
    span = only(otel.spans())
    assert dict(span.attributes or {})["error.type"] == str(err.value.sqlcode)
    assert "hunter2" not in repr(span.to_json())


def test_uninstrument_restores_the_drivers_own_methods(
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    own = (Cursor.execute, Cursor.executemany, Cursor.callproc, Connection.__init__)
    t = Telemetry()
    t.instrument()
    assert ifxwire.otel.is_instrumented()
    assert Cursor.execute is not own[0]
    t.instrument()  # again: replaces, does not wrap twice
    assert Cursor.execute.__wrapped__ is own[0]  # type: ignore[attr-defined]
    ifxwire.otel.uninstrument()
    assert not ifxwire.otel.is_instrumented()
    assert (Cursor.execute, Cursor.executemany, Cursor.callproc, Connection.__init__) == own
    c = ifxwire.connect(**connect_kwargs, database=dbname)
    try:
        c.cursor().execute("SELECT 1 FROM systables WHERE tabid = 1")
    finally:
        c.close()
    assert t.spans() == []
    ifxwire.otel.uninstrument()  # twice is harmless


def test_a_method_bound_while_instrumented_stops_tracing_after_uninstrument(
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    t = Telemetry()
    t.instrument()
    c = ifxwire.connect(**connect_kwargs, database=dbname)
    try:
        run = c.cursor().execute
        ifxwire.otel.uninstrument()
        t.clear()
        run("SELECT 1 FROM systables WHERE tabid = 1")
        assert t.spans() == []
    finally:
        c.close()


def test_spans_nest_under_the_callers_span(db: Connection, otel: Telemetry) -> None:
    tracer = otel.tracer_provider.get_tracer("app")
    with tracer.start_as_current_span("request") as parent:
        db.cursor().execute("SELECT 1 FROM systables WHERE tabid = 1")
    spans = {s.name: s for s in otel.spans()}
    child = next(s for n, s in spans.items() if n.startswith("SELECT"))
    assert child.parent is not None
    assert child.parent.span_id == parent.get_span_context().span_id


def test_the_entry_point_opentelemetry_instrument_loads(
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    from importlib.metadata import entry_points

    (ep,) = [e for e in entry_points(group="opentelemetry_instrumentor") if e.name == "ifxwire"]
    cls = ep.load()
    from opentelemetry.instrumentation.instrumentor import BaseInstrumentor

    assert issubclass(cls, BaseInstrumentor)
    t = Telemetry()
    # As the auto-instrumentation loader calls it (opentelemetry.instrumentation.distro).
    cls().instrument(skip_dep_check=True, tracer_provider=t.tracer_provider,
                     meter_provider=t.meter_provider)
    try:
        c = ifxwire.connect(**connect_kwargs, database=dbname)
        c.cursor().execute("SELECT 1 FROM systables WHERE tabid = 1")
        c.close()
        assert [s.name for s in t.spans()] == ["connect", "SELECT systables"]
    finally:
        cls().uninstrument()
    assert not ifxwire.otel.is_instrumented()


@pytest.mark.parametrize("disabled", [False, True])
def test_opentelemetry_instrument_instruments_ifxwire(disabled: bool) -> None:
    """The real command: its loader finds our entry point (and honours the disable list)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    command = Path(sys.executable).with_name("opentelemetry-instrument")
    assert command.exists(), command
    env = {**os.environ, "OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none",
           "OTEL_LOGS_EXPORTER": "none"}
    if disabled:
        env["OTEL_PYTHON_DISABLED_INSTRUMENTATIONS"] = "ifxwire"
    out = subprocess.run(
        [str(command), sys.executable, "-c",
         "import ifxwire.otel; print(ifxwire.otel.is_instrumented())"],
        env=env, capture_output=True, text=True, timeout=120, check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == str(not disabled)
