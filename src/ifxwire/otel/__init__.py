"""OpenTelemetry for ifxwire: ``ifxwire.otel.instrument()`` (extra ``[otel]``).

>>> import ifxwire.otel
>>> ifxwire.otel.instrument()  # doctest: +SKIP

Spans and metrics follow OpenTelemetry's database semantic conventions (docs/TRACING.md
lists every attribute and where the convention says it): one CLIENT span per
``execute``, ``executemany`` and ``callproc`` of the sync and the asyncio cursors, one per
connect, one per pool ``acquire``; the ``db.client.operation.duration`` histogram and the
connection pool metrics (``db.client.connection.count`` by state, ``.max``,
``.pending_requests``, ``.timeouts``, ``.wait_time``, ``.use_time``).

Why the driver has no tracing code of its own: ``instrument()`` wraps the public methods of
the driver's classes (``Cursor.execute``, ``AsyncCursor.execute``, ``ConnectionPool.acquire``,
...) in place and ``uninstrument()`` puts the originals back. Not instrumented, ifxwire runs
exactly the code it runs without this module, so tracing costs nothing measurable then
(bench/otel_overhead.py measures it), and the core keeps zero dependencies.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from contextvars import ContextVar
from functools import wraps
from typing import Any

try:
    from opentelemetry import context as _context
    from opentelemetry import metrics as _metrics
    from opentelemetry import trace as _trace
    from opentelemetry.trace import SpanKind, Status, StatusCode
except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
    raise ImportError(
        "ifxwire.otel needs opentelemetry-api: pip install 'ifxwire[otel]'"
    ) from exc

from .. import __version__
from ..aio import connection as _aio_connection
from ..aio.cursor import AsyncCursor
from ..aio.pool import AsyncConnectionPool
from ..client.connection import Connection
from ..client.cursor import Cursor
from ..client.pool import ConnectionPool, PoolBase, PoolTimeout
from ..errors import Error
from ._sql import describe

__all__ = ["SCHEMA_URL", "instrument", "is_instrumented", "uninstrument"]

#: The semantic conventions release these spans and metrics were checked against.
SCHEMA_URL = "https://opentelemetry.io/schemas/1.44.0"
SYSTEM = "ibm.informix"
#: Bucket boundaries the conventions advise for db.client.operation.duration and the pool
#: time histograms (seconds).
_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0]

_CLIENT = SpanKind.CLIENT
_INTERNAL = SpanKind.INTERNAL
_POOL_NAME = "db.client.connection.pool.name"


def _histogram(meter: _metrics.Meter, name: str, description: str) -> _metrics.Histogram:
    """A histogram in seconds with the bucket boundaries the conventions advise (an API
    older than the advisory parameter gets its default buckets)."""
    try:
        return meter.create_histogram(name, unit="s", description=description,
                                      explicit_bucket_boundaries_advisory=_BUCKETS)
    except TypeError:
        return meter.create_histogram(name, unit="s", description=description)


class _Telemetry:
    """One instrumentation: its tracer, its instruments and its options."""

    def __init__(
        self,
        tracer_provider: Any,
        meter_provider: Any,
        capture_parameters: bool,
        query_text: bool,
    ) -> None:
        self.tracer = _trace.get_tracer(
            "ifxwire", __version__, tracer_provider, schema_url=SCHEMA_URL
        )
        meter = _metrics.get_meter("ifxwire", __version__, meter_provider, schema_url=SCHEMA_URL)
        self.capture_parameters = capture_parameters
        self.query_text = query_text
        self.duration = _histogram(
            meter, "db.client.operation.duration",
            "Duration of database client operations.",
        )
        self.wait_time = _histogram(
            meter, "db.client.connection.wait_time",
            "The time it took to obtain an open connection from the pool.",
        )
        self.use_time = _histogram(
            meter, "db.client.connection.use_time",
            "The time between borrowing a connection and returning it to the pool.",
        )
        self.timeouts = meter.create_counter(
            "db.client.connection.timeouts", unit="{timeout}",
            description="The number of connection timeouts that have occurred trying to "
            "obtain a connection from the pool.",
        )
        meter.create_observable_up_down_counter(
            "db.client.connection.count", [self._observe_count], unit="{connection}",
            description="The number of connections that are currently in state described "
            "by the state attribute.",
        )
        meter.create_observable_up_down_counter(
            "db.client.connection.max", [self._observe_max], unit="{connection}",
            description="The maximum number of open connections allowed.",
        )
        meter.create_observable_up_down_counter(
            "db.client.connection.pending_requests", [self._observe_pending],
            unit="{request}",
            description="The number of current pending requests for an open connection.",
        )
        #: Pools seen (made or used while instrumented) and their names.
        self.pools: weakref.WeakKeyDictionary[PoolBase, str] = weakref.WeakKeyDictionary()
        self._pool_seq = 0
        #: When each pooled connection was handed out (for use_time).
        self.borrowed: weakref.WeakKeyDictionary[object, float] = weakref.WeakKeyDictionary()

    # ------------------------------------------------------------------ pools

    def pool_name(self, pool: PoolBase, args: Sequence[Any] = (),
                  kwargs: Mapping[str, Any] | None = None) -> str:
        """The pool's ``db.client.connection.pool.name``: ``host:port/database`` of what it
        connects to, as the conventions advise for pools without a name of their own
        (``#2``, ``#3`` follow when several pools share a target), else ``ifxwire-pool-N``."""
        name = self.pools.get(pool)
        if name is not None:
            return name
        base = _pool_target(args, kwargs or {})
        if base is None:
            self._pool_seq += 1
            base = f"ifxwire-pool-{self._pool_seq}"
        taken = set(self.pools.values())
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}#{n}"
        self.pools[pool] = name
        return name

    def _live_pools(self) -> list[tuple[PoolBase, str]]:
        if _state is not self:  # uninstrumented: instruments cannot be unregistered
            return []
        return [(p, n) for p, n in list(self.pools.items()) if not p.closed]

    def _observe_count(self, options: Any) -> Iterator[_metrics.Observation]:
        for pool, name in self._live_pools():
            yield _metrics.Observation(
                pool.idle_count, {_POOL_NAME: name, "db.client.connection.state": "idle"}
            )
            yield _metrics.Observation(
                pool.in_use_count, {_POOL_NAME: name, "db.client.connection.state": "used"}
            )

    def _observe_max(self, options: Any) -> Iterator[_metrics.Observation]:
        for pool, name in self._live_pools():
            yield _metrics.Observation(pool.max_size, {_POOL_NAME: name})

    def _observe_pending(self, options: Any) -> Iterator[_metrics.Observation]:
        for pool, name in self._live_pools():
            yield _metrics.Observation(pool.waiting, {_POOL_NAME: name})

    # ------------------------------------------------------------------ spans

    def start(self, name: str, kind: SpanKind, attrs: dict[str, Any]) -> _Call:
        span = self.tracer.start_span(name, kind=kind, attributes=attrs)
        token = _context.attach(_trace.set_span_in_context(span))
        return _Call(self, span, token, attrs)


class _Call:
    """One traced call: its span (current while the call runs) and its start time."""

    __slots__ = ("attrs", "span", "started", "t", "token")

    def __init__(self, t: _Telemetry, span: _trace.Span, token: object,
                 attrs: dict[str, Any]) -> None:
        self.t = t
        self.span = span
        self.token = token
        self.attrs = attrs
        self.started = time.perf_counter()

    def end(self, exc: BaseException | None, metric: bool = True) -> float:
        """End the span (``error.type`` and an ERROR status when ``exc``), record the
        operation duration when ``metric``; returns the seconds the call took."""
        elapsed = time.perf_counter() - self.started
        span = self.span
        attrs = self.attrs
        try:
            if exc is not None:
                error_type, code = _error_type(exc)
                span.set_attribute("error.type", error_type)
                attrs = {**attrs, "error.type": error_type}
                if code is not None:
                    span.set_attribute("db.response.status_code", code)
                    attrs["db.response.status_code"] = code
                    isam = getattr(exc, "isamcode", 0)
                    if isam:
                        span.set_attribute("ibm.informix.isam_code", isam)
                span.record_exception(exc)
                span.set_status(Status(StatusCode.ERROR, f"{type(exc).__name__}: {exc}"))
            if metric:
                self.t.duration.record(elapsed, {k: v for k, v in attrs.items()
                                                 if k in _METRIC_KEYS})
        finally:
            _context.detach(self.token)  # type: ignore[arg-type]
            span.end()
        return elapsed


#: The span attributes db.client.operation.duration carries (db.query.text is opt-in there,
#: parameters never).
_METRIC_KEYS = frozenset({
    "db.system.name", "db.namespace", "db.operation.name", "db.stored_procedure.name",
    "db.query.summary",
    "server.address", "server.port", "error.type", "db.response.status_code",
})


def _error_type(exc: BaseException) -> tuple[str, str | None]:
    """``error.type`` and ``db.response.status_code``: the Informix sqlcode (as text, e.g.
    ``-206``) for a server error, else the exception's qualified class name."""
    code = getattr(exc, "sqlcode", None)
    if isinstance(exc, Error) and isinstance(code, int) and code:
        return str(code), str(code)
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__, None
    return f"{cls.__module__}.{cls.__qualname__}", None


def _pool_target(args: Sequence[Any], kwargs: Mapping[str, Any]) -> str | None:
    """``host:port/database`` of what a pool connects to (its connect arguments resolved
    as ``ifxwire.connect`` resolves them), or None when a factory makes its connections."""
    if kwargs.get("factory") is not None:
        return None
    from ..client.dsn import resolve

    names = ("port", "user", "password", "database", "server")
    given = {k: v for k, v in zip(names, args[1:], strict=False) if v is not None}
    given.update((k, v) for k, v in kwargs.items()
                 if k not in _POOL_OPTIONS and k != "row_factory" and v is not None)
    try:
        params = resolve(args[0] if args else kwargs.get("host"), given)
    except Exception:
        return None
    if not params.addresses:
        return None
    first = params.addresses[0]
    target = f"{first.host}:{first.port}"
    return f"{target}/{params.database}" if params.database else target


_POOL_OPTIONS = frozenset({"min_size", "max_size", "timeout", "max_lifetime", "max_idle",
                           "ping_after", "factory", "configure", "host"})


# ------------------------------------------------------------------------------------------
# What a span says
# ------------------------------------------------------------------------------------------


def _base(conn: Any) -> dict[str, Any]:
    """The connection's attributes: system, database (the current one, which the driver
    tracks as DATABASE statements change it), server address and port."""
    attrs: dict[str, Any] = {"db.system.name": SYSTEM}
    db = conn.database
    if db:
        attrs["db.namespace"] = db
    addr = conn.address
    if addr:
        attrs["server.address"], attrs["server.port"] = addr[0], addr[1]
    return attrs


def _target(attrs: Mapping[str, Any]) -> str | None:
    """The span name's ``{target}``: the procedure, the database, or address:port."""
    for key in ("db.stored_procedure.name", "db.namespace"):
        if key in attrs:
            return str(attrs[key])
    if "server.address" in attrs:
        return f"{attrs['server.address']}:{attrs['server.port']}"
    return None


def _span_name(op: str | None, attrs: Mapping[str, Any]) -> str:
    target = _target(attrs)
    if op and target:
        return f"{op} {target}"
    return op or target or SYSTEM


def _has_values(parameters: object) -> bool:
    if parameters is None:
        return False
    return not isinstance(parameters, Sized) or len(parameters) > 0


def _statement_attrs(t: _Telemetry, conn: Any, operation: str,
                     parameters: object) -> tuple[str, dict[str, Any]]:
    attrs = _base(conn)
    text = operation if isinstance(operation, str) else ""
    op, summary, masked = describe(text)
    if op:
        attrs["db.operation.name"] = op
    if summary:
        attrs["db.query.summary"] = summary
    parameterized = _has_values(parameters)
    if t.query_text and text:
        # Text run with parameters is recorded as written; text without them has its
        # literals masked (the conventions' "Sanitization of db.query.text").
        attrs["db.query.text"] = text if parameterized else masked
    if t.capture_parameters and parameterized:
        if isinstance(parameters, Mapping):
            for key, value in parameters.items():
                attrs[f"db.query.parameter.{key}"] = str(value)
        elif isinstance(parameters, Sequence) and not isinstance(parameters, (str, bytes)):
            for i, value in enumerate(parameters):
                attrs[f"db.query.parameter.{i}"] = str(value)
    return summary or _span_name(op, attrs), attrs


def _batch_attrs(t: _Telemetry, conn: Any, operation: str,
                 size: int | None) -> tuple[str, dict[str, Any]]:
    """executemany: ``BATCH INSERT`` with ``db.operation.batch.size`` when it runs two or
    more parameter sets (or none), as a plain statement for one; parameters never."""
    attrs = _base(conn)
    text = operation if isinstance(operation, str) else ""
    op, summary, _ = describe(text)
    if size != 1:
        op = f"BATCH {op}" if op else "BATCH"
        summary = f"BATCH {summary}" if summary else None
        if size is not None:
            attrs["db.operation.batch.size"] = size
    if op:
        attrs["db.operation.name"] = op
    if summary:
        attrs["db.query.summary"] = summary
    if t.query_text and text:
        attrs["db.query.text"] = text
    return summary or _span_name(op, attrs), attrs


def _proc_attrs(conn: Any, procname: str) -> tuple[str, dict[str, Any]]:
    """callproc: the operation and the procedure; the summary is the two, as the
    conventions' example for a driver's stored-procedure API (``EXECUTE proc``)."""
    attrs = _base(conn)
    attrs["db.operation.name"] = "EXECUTE PROCEDURE"
    if isinstance(procname, str):
        attrs["db.stored_procedure.name"] = procname
    name = _span_name("EXECUTE PROCEDURE", attrs)
    attrs["db.query.summary"] = name
    return name, attrs


class _Counted:
    """executemany's parameter sets, counted as the driver takes them (the count is the
    batch size when the sets come from an iterator whose length is unknown beforehand)."""

    def __init__(self, sets: Iterable[object]) -> None:
        self.sets = sets
        self.n = 0

    def __iter__(self) -> Iterator[object]:
        from ..client.placeholders import param_rows

        for row in param_rows(self.sets):
            self.n += 1
            yield row


def _settle_batch(call: _Call, size: int | None, counted: _Counted, operation: str) -> None:
    """For sets of unknown number: the batch size once known; one set is a plain call."""
    if size is not None:
        return
    n = counted.n
    if n == 1:
        op, summary, _ = describe(operation if isinstance(operation, str) else "")
        for key, value in (("db.operation.name", op), ("db.query.summary", summary)):
            if value:
                call.attrs[key] = value
                call.span.set_attribute(key, value)
        call.span.update_name(summary or _span_name(op, call.attrs))
    else:
        call.span.set_attribute("db.operation.batch.size", n)


def _sized(sets: object) -> int | None:
    if isinstance(sets, Sized) and not isinstance(sets, (str, bytes, bytearray)):
        return len(sets)
    return None


# ------------------------------------------------------------------------------------------
# The wrappers
# ------------------------------------------------------------------------------------------

#: The one slot: the current instrumentation, or None.
_state: _Telemetry | None = None
#: (owner, attribute name, original) for every wrapped attribute, in wrapping order.
_patched: list[tuple[Any, str, Any]] = []
#: Set inside a traced call whose own statements are its business (callproc runs
#: ``execute``, a connect may query the server's version): they get no spans of their own.
_inside: ContextVar[bool] = ContextVar("ifxwire_otel_inside", default=False)

_F = Callable[..., Any]


def _patch(owner: Any, name: str, make: Callable[[_F], _F]) -> None:
    original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    wrapper = make(original)
    wraps(original)(wrapper)
    wrapper.__ifxwire_otel_original__ = original  # type: ignore[attr-defined]
    setattr(owner, name, wrapper)
    _patched.append((owner, name, original))


class _Traced:
    """One traced call's span as a ``with`` block, shared by the sync and asyncio wrappers.

    Why a context manager: the sync and the asyncio wrapper of an operation differ only in
    ``await``; everything around the call (ending the span with the exception that left the
    block, resetting ``_inside`` for calls whose own statements get no spans, settling a
    batch's size) lives here once, so the two cannot drift."""

    __slots__ = ("call", "metric", "settle", "token")

    def __init__(self, call: _Call, *, inner: bool = False, metric: bool = True,
                 settle: Callable[[], None] | None = None) -> None:
        self.call = call
        self.metric = metric
        self.settle = settle
        self.token = _inside.set(True) if inner else None

    def __enter__(self) -> _Call:
        return self.call

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if self.token is not None:
            _inside.reset(self.token)
        if self.settle is not None:
            self.settle()
        self.call.end(exc, metric=self.metric)


def _execute_span(t: _Telemetry, cur: Cursor | AsyncCursor, operation: str,
                  parameters: object) -> _Traced:
    name, attrs = _statement_attrs(t, cur.connection, operation, parameters)
    return _Traced(t.start(name, _CLIENT, attrs))


def _batch_span(t: _Telemetry, cur: Cursor | AsyncCursor, operation: str,
                seq_of_parameters: Iterable[object]) -> tuple[_Traced, Iterable[object]]:
    """The span of an executemany and the sets to pass on (counted when their number is not
    known in advance: the span's batch size is set when the call ends)."""
    size = _sized(seq_of_parameters)
    counted = _Counted(seq_of_parameters)
    name, attrs = _batch_attrs(t, cur.connection, operation, size)
    call = t.start(name, _CLIENT, attrs)
    traced = _Traced(call, settle=lambda: _settle_batch(call, size, counted, operation))
    return traced, (counted if size is None else seq_of_parameters)


def _proc_span(t: _Telemetry, cur: Cursor | AsyncCursor, procname: str) -> _Traced:
    name, attrs = _proc_attrs(cur.connection, procname)
    return _Traced(t.start(name, _CLIENT, attrs), inner=True)


def _sync_execute(orig: _F) -> _F:
    def execute(self: Cursor, operation: str, parameters: object = None) -> Any:
        t = _state
        if t is None or _inside.get():
            return orig(self, operation, parameters)
        with _execute_span(t, self, operation, parameters):
            return orig(self, operation, parameters)
    return execute


def _async_execute(orig: _F) -> _F:
    async def execute(self: AsyncCursor, operation: str, parameters: object = None) -> Any:
        t = _state
        if t is None or _inside.get():
            return await orig(self, operation, parameters)
        with _execute_span(t, self, operation, parameters):
            return await orig(self, operation, parameters)
    return execute


def _sync_executemany(orig: _F) -> _F:
    def executemany(self: Cursor, operation: str, seq_of_parameters: Iterable[object]) -> Any:
        t = _state
        if t is None or _inside.get():
            return orig(self, operation, seq_of_parameters)
        traced, sets = _batch_span(t, self, operation, seq_of_parameters)
        with traced:
            return orig(self, operation, sets)
    return executemany


def _async_executemany(orig: _F) -> _F:
    async def executemany(self: AsyncCursor, operation: str,
                          seq_of_parameters: Iterable[object]) -> Any:
        t = _state
        if t is None or _inside.get():
            return await orig(self, operation, seq_of_parameters)
        traced, sets = _batch_span(t, self, operation, seq_of_parameters)
        with traced:
            return await orig(self, operation, sets)
    return executemany


def _sync_callproc(orig: _F) -> _F:
    def callproc(self: Cursor, procname: str, parameters: Sequence[object] = ()) -> Any:
        t = _state
        if t is None or _inside.get():
            return orig(self, procname, parameters)
        with _proc_span(t, self, procname):
            return orig(self, procname, parameters)
    return callproc


def _async_callproc(orig: _F) -> _F:
    async def callproc(self: AsyncCursor, procname: str,
                       parameters: Sequence[object] = ()) -> Any:
        t = _state
        if t is None or _inside.get():
            return await orig(self, procname, parameters)
        with _proc_span(t, self, procname):
            return await orig(self, procname, parameters)
    return callproc


def _connect_span(t: _Telemetry, host: str | None, port: int | None,
                  database: str | None) -> _Traced:
    attrs: dict[str, Any] = {"db.system.name": SYSTEM}
    if database:
        attrs["db.namespace"] = database
    if host:
        attrs["server.address"] = host
        if port:
            attrs["server.port"] = port
    return _Traced(t.start("connect", _CLIENT, attrs), inner=True, metric=False)


def _sync_connect(orig: _F) -> _F:
    """``Connection.__init__``: the whole connect (every address tried, the login)."""
    def __init__(self: Connection, params: Any) -> None:
        t = _state
        if t is None or _inside.get():
            orig(self, params)
            return
        first = params.addresses[0] if params.addresses else None
        with _connect_span(t, first and first.host, first and first.port,
                           params.database) as call:
            orig(self, params)
            if self.address:
                call.span.set_attribute("server.address", self.address[0])
                call.span.set_attribute("server.port", self.address[1])
    return __init__


def _async_connect(orig: _F) -> _F:
    """``ifxwire.aio.connection.connect_to``: one address's connect and login."""
    async def connect_to(params: Any, addr: Any) -> Any:
        t = _state
        if t is None or _inside.get():
            return await orig(params, addr)
        with _connect_span(t, addr.host, addr.port, params.database):
            return await orig(params, addr)
    return connect_to


def _pool_init(orig: _F) -> _F:
    def __init__(self: PoolBase, *args: Any, **kwargs: Any) -> None:
        t = _state
        if t is not None:
            t.pool_name(self, args, kwargs)
        orig(self, *args, **kwargs)
    return __init__


class _Acquire:
    """A pool acquire's span as a ``with`` block (sync and asyncio): the wait time on
    success, a timeout counted on PoolTimeout."""

    __slots__ = ("call", "conn", "metric_attrs", "t")

    def __init__(self, t: _Telemetry, pool: PoolBase) -> None:
        self.t = t
        self.metric_attrs = {_POOL_NAME: t.pool_name(pool)}
        self.call = t.start("acquire", _INTERNAL, {"db.system.name": SYSTEM,
                                                   **self.metric_attrs})
        self.conn: object = None

    def __enter__(self) -> _Acquire:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        t = self.t
        if isinstance(exc, PoolTimeout):
            t.timeouts.add(1, self.metric_attrs)
        waited = self.call.end(exc, metric=False)
        if exc is None:
            t.wait_time.record(waited, self.metric_attrs)
            t.borrowed[self.conn] = time.perf_counter()


def _released(t: _Telemetry, pool: PoolBase, conn: object) -> None:
    since = t.borrowed.pop(conn, None)
    if since is not None:
        t.use_time.record(time.perf_counter() - since, {_POOL_NAME: t.pool_name(pool)})


def _sync_acquire(orig: _F) -> _F:
    def acquire(self: ConnectionPool, *args: Any, **kwargs: Any) -> Any:
        t = _state
        if t is None:
            return orig(self, *args, **kwargs)
        with _Acquire(t, self) as got:
            got.conn = orig(self, *args, **kwargs)
        return got.conn
    return acquire


def _async_acquire(orig: _F) -> _F:
    async def acquire(self: AsyncConnectionPool, *args: Any, **kwargs: Any) -> Any:
        t = _state
        if t is None:
            return await orig(self, *args, **kwargs)
        with _Acquire(t, self) as got:
            got.conn = await orig(self, *args, **kwargs)
        return got.conn
    return acquire


def _sync_release(orig: _F) -> _F:
    def release(self: ConnectionPool, conn: Any) -> Any:
        t = _state
        if t is not None:
            _released(t, self, conn)
        return orig(self, conn)
    return release


def _async_release(orig: _F) -> _F:
    async def release(self: AsyncConnectionPool, conn: Any) -> Any:
        t = _state
        if t is not None:
            _released(t, self, conn)
        return await orig(self, conn)
    return release


# ------------------------------------------------------------------------------------------
# The switch
# ------------------------------------------------------------------------------------------


def instrument(
    *,
    tracer_provider: Any = None,
    meter_provider: Any = None,
    capture_parameters: bool = False,
    query_text: bool = True,
) -> None:
    """Trace and measure ifxwire from now on (both drivers, every connection and pool).

    ``tracer_provider`` / ``meter_provider``: default the global ones. ``capture_parameters``
    adds each bound value as ``db.query.parameter.<index or name>`` (off by default: values
    may be personal data). ``query_text=False`` leaves ``db.query.text`` out; by default it
    is the statement as written when it runs with parameters, and with its literals replaced
    by ``?`` when it runs without. Calling it again replaces the previous settings.
    """
    global _state
    if _state is not None:
        uninstrument()
    _state = _Telemetry(tracer_provider, meter_provider, capture_parameters, query_text)
    _patch(Cursor, "execute", _sync_execute)
    _patch(Cursor, "executemany", _sync_executemany)
    _patch(Cursor, "callproc", _sync_callproc)
    _patch(AsyncCursor, "execute", _async_execute)
    _patch(AsyncCursor, "executemany", _async_executemany)
    _patch(AsyncCursor, "callproc", _async_callproc)
    _patch(Connection, "__init__", _sync_connect)
    _patch(_aio_connection, "connect_to", _async_connect)
    _patch(PoolBase, "__init__", _pool_init)  # (both pools' constructor)
    _patch(ConnectionPool, "acquire", _sync_acquire)
    _patch(AsyncConnectionPool, "acquire", _async_acquire)
    _patch(ConnectionPool, "release", _sync_release)
    _patch(AsyncConnectionPool, "release", _async_release)


def uninstrument() -> None:
    """Put the driver's own methods back: no spans or measurements from now on."""
    global _state
    while _patched:
        owner, name, original = _patched.pop()
        setattr(owner, name, original)
    _state = None


def is_instrumented() -> bool:
    return _state is not None
