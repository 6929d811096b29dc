"""A blocking facade over the real asyncio driver, so one test body checks both drivers.

Issue 24 wants every driver integration test that is not about one API to run on the sync
driver and on ``ifxwire.aio``. Writing each test twice would let the two copies drift, as
the drivers did; instead the ``driver`` fixture (tests/integration/conftest.py) hands a test
either ``ifxwire.connect`` or :meth:`AioDriver.connect`, whose connection is this facade: a
thin wrapper over a real :class:`ifxwire.aio.AsyncConnection` on an event loop run by the
calling thread (:class:`BlockingLoop`). Every coroutine the test's call returns is run
there to its end (``loop.run_until_complete``), async iterators become iterators and async
context managers context managers; attributes pass through, and objects of
``ifxwire.aio`` that come back (cursors, savepoints, LOBs) are wrapped the same way. So the
asyncio driver talks over real sockets to the real embedded server; only the test's calls
are made blocking. Nothing here is in ``src/``: it is a test tool, not an API.

Two spellings differ on purpose and are translated here, as documented in
docs/POOL_AND_ASYNC.md: setting ``autocommit`` becomes ``await conn.set_autocommit(v)`` (a
property cannot await the COMMIT that switching it on inside a transaction sends), and
``conn.savepoint(name)`` is awaited at once (the sync method sets the savepoint at once).
A test reading the session's private bookkeeping (``conn._out_routines``) gets the asyncio
connection's core (a sync ``Connection`` that does no I/O), and ``isinstance(v, cls)`` sees
the wrapped object's class (``driver.Blob`` names the class each driver returns).

A module opts in with ``pytestmark = pytest.mark.both_drivers``; its tests that use the
``conn`` or ``driver`` fixture then run twice (ids ``sync`` / ``asyncio``), in the pure run
and in the accelerated run of scripts/test.sh alike.

Left on one driver, and why:
* Already run on both by hand: test_row_factories.py (its own sync/aio ``d`` fixture),
  test_pam.py, test_driver_secrets.py, test_changing_sources.py, test_cancel.py.
* About one API: test_aio.py, test_aio_lobs.py, test_aio_pool.py, test_aio_adapters.py (the
  asyncio spellings: tasks sharing a connection, cancellation, ``async with``/``async for``,
  the asyncio pool's tasks and cancellations); test_driver_threads.py (threads sharing a
  connection); test_orm_clients.py (ORMs drive the sync driver). test_pool.py runs on both
  (``driver.create_pool``/``driver.pool``: the asyncio pool behind the facade), but for its
  tests that wait in other threads.
* The sync socket loop against scripted, recorded or hostile replies, byte-level request
  records and private members: test_driver_goodbye.py, test_driver_hostile.py,
  test_driver_fuzz*.py, test_driver_wire.py, test_bench_replay.py, test_libsqli_groups.py,
  test_first_execute.py (libsqli's PREPARE and EXECUTE bytes sent raw, the server's SQLite
  connection traced), test_autocommit_insert_statements.py (the same: the SQLite statements
  of libsqli's raw EXECUTE),
  test_login_facts.py (login packets and DBOPEN replies sent and read raw),
  test_lob_crash.py (kills the server process mid-write).
* The bench's own commands, run as processes with servers of their own: test_bench_arrow.py.
* The server's answers, for which the driver is only a pipe: test_server_*.py,
  test_sql_*.py, test_sysmaster_env.py, test_temp_table_sessions.py, test_tls_server.py,
  test_open_cursor_cache.py (several users' sessions on servers of its own),
  test_interrupt_wakeups.py (the server's interrupt thread's wake-ups, counted in /proc),
  test_txn_failing_statement.py (the server's statement-level undo inside a transaction,
  152 cases; its driver path is autocommit off, plain execute), test_spl_exception_undo.py
  (the same undo when an SPL handler catches the failing statement, 74 cases).
  Such modules that use the ``conn`` fixture run on both all the same (the asyncio
  cursor's describe, fetch and error paths under the server's whole SQL): test_system_catalog.py,
  test_set_operations.py, test_composite_sql.py, test_hibernate_refusals.py,
  test_unique_nulls.py, test_modify_serial.py, test_delimident_case.py,
  test_date_literals.py, test_cast_describe.py.
* test_arrow.py and test_arrow_tuples.py run on both; ``fetch_record_batch`` (a
  ``pyarrow.RecordBatchReader``) is translated to the asyncio cursor's
  ``fetch_record_batches`` (an async iterator). ``adbc_ingest`` and the blocking Arrow
  PyCapsule stream (``__arrow_c_stream__``, which on the asyncio cursor runs the loop for
  each batch: aio/arrow.py) run on both too (test_arrow_ingest.py). Left on the sync
  driver: test_arrow.py's polars.read_database/duckdb test.
* The server's behaviour under change capture and row locks, catalogue contents, DDL and SQL
  semantics, where the driver is a pipe (test_cdc_*.py: change capture's server side):
  test_cdc_catalog.py, test_cdc_chunks.py,
  test_cdc_crash.py, test_cdc_lobs.py, test_cdc_row_locks.py, test_cdc_txn.py,
  test_cdc_big_statement.py, test_cdc_readahead.py (the capture
  session itself runs on both: test_cdc.py and test_cdc_aio.py, one operation,
  ``cdc.Capture``; test_cdc_cancel.py runs its sync and asyncio cases by hand),
  test_row_locks*.py, test_lock_mode_page.py, test_catalogue_round4.py,
  test_grant_option.py and test_default_roles.py (several users' privileges on servers of
  their own),
  test_check_delimident.py, test_cross_database_schema.py, test_schema_partial_load.py
  (the catalogue loads after DDL, compared with whole ones), test_query_group_cache.py and
  test_query_group_inline.py (a raw client's bytes), test_query_group_compiled.py (the
  server's one-step paths, compiled and pure, behind one sync client).
* Run on both by a suite of its own: test_dbapi20.py (the PEP 249 compliance suite; a
  subclass points it at the asyncio driver behind this facade).
* Sync-only APIs: test_compat_ifxpy*.py
  (IfxPy's API), test_django_backend.py, test_arrow_partitioned.py (``read_partitioned``
  runs sync connections in threads), test_otel.py (test_otel_pool_aio.py has the asyncio
  pool's metrics); test_connect_forms.py calls both connects itself.
* In converted modules, tests marked ``one_driver`` check the sync driver's internals
  (its pipeline, transport buffer, decoder cache, session-reply cache, socket writes).
"""

from __future__ import annotations

import asyncio
import inspect
import socket
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import ifxwire.aio
import ifxwire.client.blobstream


class BlockingLoop:
    """The event loop the facade's connections live on; :meth:`run` blocks on an awaitable.

    The loop runs only while a call is in progress, in the calling (test) thread: a test of
    the sync driver blocks in each call too, and an in-thread ``run_until_complete`` costs
    a few microseconds where a hop to a loop in another thread cost about a hundred (20
    s instead of 1 to iterate 200,000 rows on the shared test machine).
    """

    def __init__(self) -> None:
        #: One facade per live asyncio object, so ``cur.connection is conn`` holds as in
        #: the sync driver (an entry lives as long as its facade, which keeps its target).
        self.facades: weakref.WeakValueDictionary[int, Facade] = weakref.WeakValueDictionary()
        self.loop = asyncio.new_event_loop()

    def run(self, awaitable: Any) -> Any:
        # No timeout of its own (16 us a call instead of 44): a call of the sync driver has
        # none either, and the driver's own read timeouts bound what the server may stall.
        if not inspect.iscoroutine(awaitable):
            awaitable = _awaited(awaitable)
        return self.loop.run_until_complete(awaitable)

    def close(self) -> None:
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _is_aio(value: object) -> bool:
    # (``__aenter__``: the asyncio pool's ``connection()``, an async context manager)
    return (type(value).__module__.startswith("ifxwire.aio") or hasattr(value, "__anext__")
            or hasattr(value, "__aenter__"))


def _unwrap(value: Any) -> Any:
    if isinstance(value, Facade):
        return object.__getattribute__(value, "_target")
    if type(value) is tuple and any(isinstance(v, Facade) for v in value):
        return tuple(_unwrap(v) for v in value)
    if type(value) is list and any(isinstance(v, Facade) for v in value):
        return [_unwrap(v) for v in value]
    return value


def wrap(value: Any, loop: BlockingLoop) -> Any:
    """``value`` as a test of the sync driver would see it: asyncio objects wrapped,
    plain tuples and lists (rows) rebuilt only when an element needs wrapping."""
    if _is_aio(value):
        facade = loop.facades.get(id(value))
        if facade is None:
            facade = loop.facades[id(value)] = Facade(value, loop)
        return facade
    if type(value) in (tuple, list) and any(_is_aio(v) for v in value):
        return type(value)(wrap(v, loop) for v in value)
    if (type(value) is list and value and type(value[0]) is tuple
            and any(_is_aio(v) for row in value for v in row)):
        return [wrap(row, loop) for row in value]
    return value


class Facade:
    """A blocking view of one ``ifxwire.aio`` object (connection, cursor, savepoint, LOB)."""

    __slots__ = ("__weakref__", "_loop", "_target")

    def __init__(self, target: Any, loop: BlockingLoop) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_loop", loop)

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        """The wrapped object's class, so ``isinstance(v, driver.Blob)`` holds."""
        return type(object.__getattribute__(self, "_target"))

    @property
    def aio_object(self) -> Any:
        """The wrapped asyncio object, for the rare assertion about its type."""
        return object.__getattribute__(self, "_target")

    def __getattr__(self, name: str) -> Any:
        target = object.__getattribute__(self, "_target")
        loop: BlockingLoop = object.__getattribute__(self, "_loop")
        if name == "fetch_record_batch" and hasattr(target, "fetch_record_batches"):
            return _record_batch_reader(target, loop)
        try:
            value = getattr(target, name)
        except AttributeError:
            # A test reading the session's bookkeeping (``conn._out_routines``): the asyncio
            # connection keeps it in its core, a sync Connection that does no I/O.
            core = getattr(target, "_core", None)
            if not name.startswith("_") or core is None:
                raise
            value = getattr(core, name)
        if callable(value) and not isinstance(value, type) and not _is_aio(value):
            return _blocking(value, loop)
        return wrap(value, loop)

    def __setattr__(self, name: str, value: Any) -> None:
        target = object.__getattribute__(self, "_target")
        if name == "autocommit" and hasattr(target, "set_autocommit"):
            object.__getattribute__(self, "_loop").run(target.set_autocommit(value))
            return
        setattr(target, name, _unwrap(value))

    def __iter__(self) -> Iterator[Any]:
        target = object.__getattribute__(self, "_target")
        loop: BlockingLoop = object.__getattribute__(self, "_loop")
        it = target.__aiter__()
        while True:
            try:
                item = loop.run(it.__anext__())
            except StopAsyncIteration:
                return
            yield wrap(item, loop)

    def __next__(self) -> Any:
        target = object.__getattribute__(self, "_target")
        loop: BlockingLoop = object.__getattribute__(self, "_loop")
        try:
            return wrap(loop.run(target.__anext__()), loop)
        except StopAsyncIteration:
            raise StopIteration from None

    def __enter__(self) -> Any:
        target = object.__getattribute__(self, "_target")
        loop: BlockingLoop = object.__getattribute__(self, "_loop")
        entered = loop.run(target.__aenter__())
        return self if entered is target else wrap(entered, loop)

    def __exit__(self, *exc: Any) -> Any:
        target = object.__getattribute__(self, "_target")
        return object.__getattribute__(self, "_loop").run(target.__aexit__(*exc))

    def __repr__(self) -> str:
        return f"<blocking {object.__getattribute__(self, '_target')!r}>"

    def __eq__(self, other: object) -> bool:
        return bool(object.__getattribute__(self, "_target") == _unwrap(other))

    def __hash__(self) -> int:
        return hash(object.__getattribute__(self, "_target"))


def _record_batch_reader(target: Any, loop: BlockingLoop) -> Callable[..., Any]:
    """The sync ``fetch_record_batch`` (a ``pyarrow.RecordBatchReader``) over the asyncio
    cursor's ``fetch_record_batches`` (an async iterator), the spelling docs/ARROW.md gives
    each driver. The first batch is taken at the call, so a bad argument or a cursor with no
    result raises there, as the sync method does."""

    def fetch_record_batch(rows_per_batch: int | None = None) -> Any:
        import pyarrow as pa

        from ifxwire.arrow import arrow_schema

        it = target.fetch_record_batches(rows_per_batch)
        try:
            first = [loop.run(it.__anext__())]
        except StopAsyncIteration:
            first = []
        schema = arrow_schema(target._cur._columns)

        def batches() -> Iterator[Any]:
            yield from first
            while True:
                try:
                    yield loop.run(it.__anext__())
                except StopAsyncIteration:
                    return

        return pa.RecordBatchReader.from_batches(schema, batches())

    return fetch_record_batch


def _blocking(method: Callable[..., Any], loop: BlockingLoop) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_unwrap(a) for a in args)
        kwargs = {k: _unwrap(v) for k, v in kwargs.items()}
        result = method(*args, **kwargs)
        if inspect.isawaitable(result):
            result = loop.run(result)
        return wrap(result, loop)

    call.__name__ = getattr(method, "__name__", "call")
    return call


class SyncDriver:
    """The sync driver, as the ``driver`` fixture's "sync" case."""

    name = "sync"
    is_async = False
    Blob = ifxwire.Blob
    BlobReader = ifxwire.client.blobstream.BlobReader
    #: Appended to the name of a database a test creates, so the two runs do not meet.
    suffix = ""

    def connect(self, *args: Any, **kwargs: Any) -> Any:
        return ifxwire.connect(*args, **kwargs)

    def create_pool(self, *args: Any, **kwargs: Any) -> Any:
        return ifxwire.create_pool(*args, **kwargs)

    def pool(self, *args: Any, **kwargs: Any) -> Any:
        """A pool not yet opened (``ConnectionPool(...)``: the sync one opens in its
        constructor)."""
        return ifxwire.ConnectionPool(*args, **kwargs)

    @staticmethod
    def break_socket(conn: Any) -> None:
        """Kill the socket under the driver, as a dead network would."""
        conn._transport.sock.shutdown(socket.SHUT_RDWR)


class AioDriver:
    """The asyncio driver behind the blocking facade, as the fixture's "asyncio" case."""

    name = "asyncio"
    is_async = True
    Blob = ifxwire.aio.AsyncBlob
    BlobReader = ifxwire.aio.AsyncBlobReader
    suffix = "_aio"

    def __init__(self, loop: BlockingLoop) -> None:
        self.loop = loop

    def connect(self, *args: Any, **kwargs: Any) -> Any:
        return wrap(self.loop.run(ifxwire.aio.connect(*args, **kwargs)), self.loop)

    def create_pool(self, *args: Any, **kwargs: Any) -> Any:
        return wrap(self.loop.run(self.pool(*args, **kwargs).aio_object.open()), self.loop)

    def pool(self, *args: Any, configure: Callable[[Any], object] | None = None,
             **kwargs: Any) -> Any:
        """``AsyncConnectionPool``; a test's plain ``configure(conn)`` is called with the
        facade of the new connection from the pool's coroutine (it must not block on the
        loop: ``seen.append`` is fine, a query is not)."""
        if configure is not None:
            plain = configure

            async def configure(conn: Any) -> None:
                plain(wrap(conn, self.loop))

        return wrap(ifxwire.aio.AsyncConnectionPool(*args, configure=configure, **kwargs),
                    self.loop)

    @staticmethod
    def break_socket(conn: Any) -> None:
        conn.aio_object._writer.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
