"""The driver's structure (issue 24): the asyncio modules use the sync core through its named
session API, and no import circle comes back inside client/ or aio/.

Imports are read from the source with ``ast``: every ``from . import`` / ``from .. import`` of a
sibling module counts, at module level, inside a function or under ``TYPE_CHECKING`` alike (a
type-only import ties two modules' design as much as a run-time one).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from test_layers import _components  # the import circles (Tarjan), issue 26's test

SRC = Path(__file__).resolve().parents[2] / "src" / "ifxwire"
PACKAGES = ("client", "aio")


def _modules() -> dict[str, Path]:
    return {f"{pkg}/{p.stem}": p for pkg in PACKAGES for p in sorted((SRC / pkg).glob("*.py"))}


def _edges(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        pkg = name.split("/")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or node.level not in (1, 2):
                continue
            parts = (node.module or "").split(".") if node.module else []
            if node.level == 1:
                targets = [f"{pkg}/{parts[0]}"] if parts else [
                    f"{pkg}/{a.name}" for a in node.names]
            elif parts and parts[0] in PACKAGES:
                targets = [f"{parts[0]}/{parts[1]}"] if len(parts) > 1 else [
                    f"{parts[0]}/{a.name}" for a in node.names]
            else:
                targets = []
            edges[name].update(t for t in targets if t in mods and t != name)
    return edges


def _circles(edges: dict[str, set[str]]) -> list[set[str]]:
    return _components({(a, b) for a, targets in edges.items() for b in targets})


def test_aio_reads_no_private_member_of_the_session_core() -> None:
    found = []
    for path in sorted((SRC / "aio").glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bcore\._[a-z]", line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert not found, "use Connection's session API:\n" + "\n".join(found)


def test_no_import_circle_inside_client_or_aio() -> None:
    """Issue 24: "the import circles inside client/ and aio/ are gone". They were 13 files
    when the sync/async core was merged, then 7 (client) and 4 (aio), then three each:
    connection -> (scroll ->) cursor -> connection, closed by ``Cursor.connection``'s
    type-only import of the connection class. The cursors now run on the session class below
    the connection (``Cursor.session``: ``StatementSession``; ``AsyncSession``) and name the
    connection their user sees by a Protocol (client/dbapi.py), so no cursor module imports a
    connection module at all, type-only imports included (docs/ARCHITECTURE.md, "Import
    order")."""
    edges = _edges(_modules())
    assert _circles(edges) == [], _circles(edges)
    for below in ("client/cursor", "client/cursorstate", "client/scroll", "client/dbapi",
                  "client/fastpath", "client/routines", "client/lob", "client/blobstream",
                  "aio/cursor", "aio/scroll", "aio/lob", "aio/arrow"):
        # (client/awaiting, the asyncio loop, names client/connection: the sync core it
        # drives, one way only)
        assert f"{below.split('/')[0]}/connection" not in edges[below], below
    # The shared core, the asyncio loop included (client/awaiting.py), imports nothing of
    # aio/: the awaitable surface sits on top of it.
    up = sorted(f"{a} -> {b}" for a, targets in edges.items() if a.startswith("client/")
                for b in targets if b.startswith("aio/"))
    assert not up, up


def test_the_circle_test_reads_type_only_and_function_level_imports() -> None:
    """The test above would pass on a tree with the old circle if ``_edges`` skipped
    ``TYPE_CHECKING`` blocks or imports inside functions: it finds both."""
    tree = {"client/a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from .b import B\n",
            "client/b": "def f():\n    from . import a\n"}
    tmp = Path(__import__("tempfile").mkdtemp())
    mods = {}
    for name, text in tree.items():
        path = tmp / (name.split("/")[1] + ".py")
        path.write_text(text)
        mods[name] = path
    assert _circles(_edges(mods)) == [{"client/a", "client/b"}]


def test_the_session_and_cursor_layers_stay_small() -> None:
    """Connection and Cursor are chains of base classes, one module per job (wire,
    lifecycle, login, connection; cursorstate, cursor): each stays under the house's ~800
    lines (connection.py was 1,421 and cursor.py 1,118 before the split; lob.py 887 before
    its value pieces and parameter decisions went to lobpieces.py and lobparams.py)."""
    for name in ("wire", "lifecycle", "login", "connection", "cursorstate", "cursor", "lob",
                 "lobparams", "lobpieces"):
        lines = len((SRC / "client" / f"{name}.py").read_text().splitlines())
        assert lines <= 800, f"client/{name}.py has {lines} lines"
    from ifxwire.client.connection import Connection
    from ifxwire.client.cursor import Cursor
    from ifxwire.client.cursorstate import CursorState
    from ifxwire.client.lifecycle import StatementSession
    from ifxwire.client.login import LoginSession
    from ifxwire.client.wire import WireSession

    assert Connection.__mro__[1:4] == (LoginSession, StatementSession, WireSession)
    assert Cursor.__mro__[1] is CursorState


def test_the_sans_io_vocabulary_imports_nothing_of_the_driver() -> None:
    edges = _edges(_modules())
    assert edges["client/steps"] == set()


def test_asyncio_cursors_use_the_cursor_api_not_the_row_buffer() -> None:
    """aio/cursor.py and aio/scroll.py reach the sync cursor's row buffer, result state,
    execute hooks and scroll moves through named methods (``take``, ``take_one``, ``ended``,
    ``fetch_op``, ``execute_op``, ``fetchone_moves``, ...), no private member of it."""
    banned = re.compile(r"\bcur\._[a-z]")
    found = []
    for name in ("cursor.py", "scroll.py"):
        for n, line in enumerate((SRC / "aio" / name).read_text().splitlines(), 1):
            if banned.search(line):
                found.append(f"{name}:{n}: {line.strip()}")
    assert not found, "use the sync cursor's cursor API:\n" + "\n".join(found)


def test_one_connect_loop_and_one_goodbye() -> None:
    """The connect loop's decisions (redirect, next member, give up) and the goodbye's
    acknowledgement are written once: neither driver calls the pieces itself."""
    for path in (SRC / "aio" / "connection.py", SRC / "client" / "connection.py"):
        text = path.read_text()
        for piece in ("member_params(", "follow_redirect(", "unreachable(", "EXIT_MESSAGE"):
            assert piece not in text, f"{path.name} uses {piece} (client/failover.py, goodbye.py)"


def test_both_connections_carry_the_pep249_exception_attributes() -> None:
    """PEP 249's optional extension, written once (``errors.ExceptionAttributes``)."""
    from ifxwire import errors
    from ifxwire.aio.connection import AsyncConnection
    from ifxwire.client.connection import Connection

    names = ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
             "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
             "NotSupportedError")
    for cls in (Connection, AsyncConnection):
        for name in names:
            assert getattr(cls, name) is getattr(errors, name), (cls, name)


def test_aio_reads_no_private_member_of_another_module() -> None:
    """The asyncio modules use the core's named API: a private name read on anything but
    ``self`` must be one that aio/ defines itself (its own connection's lock, loops, the
    sync cursor it holds); ``self._x`` is theirs or their base classes' (PoolBase,
    LocatorBase, SavepointState: the shared state they extend), and so is ``Base._x`` in a
    class whose base ``Base`` is (``read = awaiting_method(LocatorBase._read_bytes_op)``)."""
    trees = {p.name: ast.parse(p.read_text()) for p in sorted((SRC / "aio").glob("*.py"))}
    own: set[str] = set()
    bases = {base.id for tree in trees.values() for node in ast.walk(tree)
             if isinstance(node, ast.ClassDef) for base in node.bases
             if isinstance(base, ast.Name)}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own.add(node.name)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id == "self"):
                own.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                own.add(node.target.id)
    found = [f"{name}:{node.lineno}: {ast.unparse(node)}"
             for name, tree in trees.items() for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr.startswith("_")
             and not node.attr.startswith("__") and node.attr not in own
             and not (isinstance(node.value, ast.Name) and node.value.id in {"self", *bases})]
    assert not found, "use the core's named API:\n" + "\n".join(found)


def test_one_connect_signature() -> None:
    """``ifxwire.aio.connect`` takes ``ifxwire.connect``'s arguments (written once), and a
    wrong call fails as a wrong call does, before any I/O."""
    import asyncio
    import inspect

    import pytest

    import ifxwire
    import ifxwire.aio

    ours = inspect.signature(ifxwire.aio.connect)
    assert ours.parameters == inspect.signature(ifxwire.connect).parameters
    assert ours.return_annotation == "AsyncConnection"
    with pytest.raises(TypeError, match="no_such_option"):
        asyncio.run(ifxwire.aio.connect(no_such_option=1))  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        asyncio.run(ifxwire.aio.connect("h", 1, "u", "p", "d", "s", "one too many"))  # type: ignore[misc]


def test_one_cursor_signature() -> None:
    """``AsyncConnection.cursor`` takes ``Connection.cursor``'s arguments (written once,
    ``client.facade.same_method_arguments``; branch core13), returning its own cursor."""
    import inspect

    import ifxwire
    import ifxwire.aio

    ours = inspect.signature(ifxwire.aio.AsyncConnection.cursor)
    assert ours.parameters == inspect.signature(ifxwire.Connection.cursor).parameters
    assert ours.return_annotation == "AsyncCursor"



def test_no_module_outside_aio_reaches_into_its_private_members() -> None:
    """Issue 24: what uses ifxwire.aio from outside it (otel, sqlalchemy, cdc, ...) uses its
    public names only: no ``from ..aio.x import _name``, no ``alias._name`` on an imported aio
    module or class, no ``setattr``/patch of one by a private name (branch core13: otel
    wrapped ``aio.connection._connect_to``; the asyncio connect's step is ``connect_to`` now)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("aio/"):
            continue
        tree = ast.parse(path.read_text())
        aliases: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and "aio" in (node.module or "").split("."):
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        found.append(f"{rel}: imports {node.module}.{a.name}")
                    aliases.add(a.asname or a.name)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                found.append(f"{rel}: {node.value.id}.{node.attr}")
            if (isinstance(node, ast.Call) and len(node.args) >= 2
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in aliases
                    and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str)
                    and node.args[1].value.startswith("_")
                    and not node.args[1].value.startswith("__")):
                found.append(f"{rel}: {node.args[0].id}, {node.args[1].value!r}")
    assert not found, found

def test_shared_decisions_are_not_copied_into_aio() -> None:
    """Decisions written once in client/ and run by both drivers (branch core7): fetchmany's
    size on a scroll cursor (``ScrollCursor.fetchmany_moves``), the savepoint statements and
    their checks (``SavepointState.action_op`` / ``exit_op``), commit and rollback
    (``StatementSession.commit_op``), a BYTE/TEXT or LOB column's fetch settings
    (``Cursor.fetch_blobs_op``), a reader's close (``BlobReader.close_steps``), the stream's
    failure texts (``transport.receive_failed`` / ``send_failed``) and the kind of cursor
    made (``Connection.cursor``); since branch core10 also the out-of-band cancel, a
    statement timeout's re-sends and the in-flight state (``Connection.cancel``,
    ``statement_timed_out``, ``exchange_begun``/``ended``/``interrupted``), and the plans of
    ``adbc_ingest`` and ``call_function`` (their operations); since branch core13 the
    attribute forwarding and the copied signature (``client.facade``), the blocking Arrow
    stream's bridge onto the loop (``arrowfetch.blocking_reader``), a change stream's close
    (``Capture.close_calls``) and the LOB objects' pieces (``lob.apieces``); since branch
    core14 the asyncio loop itself (client/awaiting.py: the stream's reads and writes, its
    opening, the cancellation drain, the goodbye, the pool's ping) and what an abandoned
    acquirer was given (``PoolBase._pass_on``). aio/ names none of their pieces again."""
    pieces = (r"\bcount_arg\b", r"\bsavepoint_sql\b", r"\b_live\(", r"COMMIT_GROUP",
              r"ROLLBACK_GROUP", r"blob_stream if", r"lob_materialize_limit if",
              r"closed_on_purpose", r"\bScrollCursor\(", r"\bCursor\(", r"is None else size",
              r"receive failed", r"send failed", r"server closed the connection",
              r"\bsend_interrupt\b", r"\bRESEND_", r"\b_in_flight\b", r"exchange was interrupted",
              r"\bplan_ingest\b", r"\bsignature_of\b", r"class Forward\b",
              r"run_coroutine_threadsafe", r"run_until_complete", r"\bunhook_cancel\b",
              r"\bdiscard\(\)", r"short_ends and", r"__signature__",
              r"open_connection", r"StreamReader", r"\bCANCEL_DRAIN\b", r"\bping_op\b",
              r"goodbye_steps", r"login_steps", r"_hand_over\(", r"steps\.throw")
    found = [f"{p.name}: {piece}" for p in sorted((SRC / "aio").glob("*.py"))
             for piece in pieces if re.search(piece, p.read_text())]
    assert not found, found


def test_the_pools_share_what_follows_each_decision() -> None:
    """Dropping, discarding, handing over and taking back a connection, counting and freeing
    a slot: ``PoolBase``'s, under the sync pool's lock (the asyncio pool has none); so are the
    constructor, the opening of ``min_size`` (``_open_calls``), the acquire sequence
    (``_acquire_calls``: claim, health check, ping, reconnect, check out), which each pool
    runs with ``call_each`` / ``await_each``, and what a failed reset on release means
    (``_reset_failed``); each pool adds only how it waits (``_waiter``, ``_wait``),
    connects (``_open_slot``), pings, resets and closes (``_close_soon``)."""
    import inspect

    from ifxwire.aio.pool import AsyncConnectionPool
    from ifxwire.client.pool import ConnectionPool, PoolBase

    for name in ("_drop", "_discard", "_hand_over", "_returned", "_count", "_free_slot",
                 "__init__", "_open_calls", "_acquire_calls", "_claim_or_queue", "_health",
                 "_checked_out", "_reset_failed"):
        assert name in PoolBase.__dict__, name
        for pool in (ConnectionPool, AsyncConnectionPool):
            assert name not in pool.__dict__, (pool.__name__, name)
    for pool in (ConnectionPool, AsyncConnectionPool):
        for own in ("_close_soon", "_waiter", "_wait", "_open_slot", "_ping", "_connect",
                    "_start"):
            assert own in pool.__dict__, (pool.__name__, own)
        # the sequence's decisions are not spelt again in the pools
        text = inspect.getsource(pool)
        for piece in ("_health(", "_checked_out(", "_drop(", '_count("timeouts")',
                      "_claim_now(", "_expire_idle(", "_queue(", "except Error"):
            assert piece not in text, (pool.__name__, piece)


def test_no_module_outside_the_core_reads_the_cursors_or_connections_privates() -> None:
    """The Arrow fetch (client/arrowfetch.py, both drivers) uses the cursor's named API
    (``decoded``, ``take_decoded``, ``add_received``, ``raw_fetches``, ``fetch_more``...);
    ifxwire.cdc and aio/cdc.py the connections' ``run`` / ``drive``; the asyncio cursor the
    session's ``run_cursor_op``. None of them reads a private member of a cursor or a
    connection (they did: ``cur._raw``, ``acur._more``, ``conn._lock``, ``conn._run``...)."""
    banned = re.compile(r"\b(cur|acur|conn|aconn|wire|core|connection)\._[a-z]")
    files = [SRC / "client" / "arrowfetch.py", SRC / "cdc.py", *sorted((SRC / "aio").glob("*.py"))]
    found = [f"{p.name}:{n}: {line.strip()}" for p in files
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if banned.search(line) and not line.lstrip().startswith(("#", '"'))]
    assert not found, "use the named API:\n" + "\n".join(found)


#: aio/'s lines: 1,850 before branch core7, 1,761 after it, 1,707 after branch core8 (the
#: pools' constructor, opening, acquire and release sequences written once), 1,724 with
#: branch cdc10's awaited close of a change stream with reads in flight (its cancel and
#: resend are ``Capture.cut_short_steps``, shared; what aio/ adds is the awaiting; branch
#: cdc11's ``Connection.cancel()`` of an open stream is ``Capture.on_cancel``, shared too), 1,672
#: after branch core9 (forwarding methods made of their operations, the connect loop and the
#: forward-only scroll as shared Calls sequences; aio/cdc.py's 93 lines are counted, as is),
#: 1,670 after branch core9b (the cursors name no connection module: the asyncio connection
#: imports its cursor classes at module level), 1,647 after branch core10 (cancel, interrupt
#: and the statement timer are the core's; adbc_ingest and call_function made of their
#: operations), 1,358 after branch core13 (Forward, the blocking Arrow bridge, a change
#: stream's close, the LOB pieces and the cursor's signature in client/; docstrings that
#: repeated the sync side now point to it), with arrow13's ``cursor.collections`` forwarded
#: (surface only) and core12's pool fast paths 1,357, 999 after branch core14 (the asyncio
#: loop, the stream's opening and closing and the pool's ping in client/awaiting.py, beside
#: the sync loop's session core; the pools' hand-on of what an abandoned acquirer was given
#: is ``PoolBase._pass_on``). Issue 24's target, 1,000, is met (docs/ARCHITECTURE.md, "The
#: two loops in client/"); 993 after branch core16 (``AsyncSmartLob``'s seven forwarding
#: methods listed once on ``LocatorBase``).
AIO_LINES = 993


def test_aio_does_not_grow_back() -> None:
    """A ratchet: what aio/ keeps is the awaitable surface (docs/ARCHITECTURE.md, "The two
    loops in client/"); a new decision, and the asyncio loop, belong in client/."""
    total = sum(len(p.read_text().splitlines()) for p in (SRC / "aio").glob("*.py"))
    assert total <= AIO_LINES, f"aio/ has {total} lines"


def test_every_integration_module_runs_on_both_drivers_or_says_why() -> None:
    """Issue 24: every driver integration test not about one API runs on both drivers. A
    module opts in (``both_drivers``) or is named, with its reason, in
    tests/integration/_aio_facade.py's docstring (``test_x*.py`` patterns count)."""
    import fnmatch

    folder = SRC.parents[1] / "tests" / "integration"
    doc = ast.get_docstring(ast.parse((folder / "_aio_facade.py").read_text())) or ""
    named = set(re.findall(r"test_[\w*]+\.py", doc))
    missing = [p.name for p in sorted(folder.glob("test_*.py"))
               if "both_drivers" not in p.read_text()
               and not any(fnmatch.fnmatch(p.name, n) for n in named)]
    assert not missing, missing


#: Pairs of a sync class and its asyncio twin whose forwarding methods are made of the same
#: operations (client/steps.py ``blocking_method`` / ``awaiting_method``).
_TWINS = (("ifxwire.client.lob", "SmartLob", "ifxwire.aio.lob", "AsyncSmartLob"),
          ("ifxwire.client.lob", "Blob", "ifxwire.aio.lob", "AsyncBlob"),
          ("ifxwire.client.lob", "Clob", "ifxwire.aio.lob", "AsyncClob"),
          ("ifxwire.client.scroll", "ScrollCursor", "ifxwire.aio.scroll", "AsyncScrollCursor"),
          ("ifxwire.client.cursor", "Cursor", "ifxwire.aio.cursor", "AsyncCursor"),
          ("ifxwire.client.connection", "Connection", "ifxwire.aio.connection",
           "AsyncConnection"))


def test_forwarding_methods_are_declared_once_for_both_drivers() -> None:
    """A method that only runs an operation is one declaration per driver, made of the
    operation: same parameters, same docstring (the asyncio LOB and scroll methods had none),
    its own name and qualified name (help(), tracebacks), a coroutine function on asyncio."""
    import importlib
    import inspect

    made = 0
    for smod, sname, amod, aname in _TWINS:
        sync = getattr(importlib.import_module(smod), sname)
        aio = getattr(importlib.import_module(amod), aname)
        for attr, fn in vars(sync).items():
            if not inspect.isfunction(fn) or fn.__code__.co_filename != _STEPS_FILE:
                continue
            made += 1
            twin = vars(aio).get(attr)
            assert twin is not None, (aname, attr)
            assert inspect.iscoroutinefunction(twin) and not inspect.iscoroutinefunction(fn)
            assert inspect.signature(twin) == inspect.signature(fn), attr
            assert twin.__doc__ and twin.__doc__ == fn.__doc__, attr
            assert (fn.__qualname__, twin.__qualname__) == (f"{sname}.{attr}",
                                                           f"{aname}.{attr}")
            assert twin.__code__.co_name == fn.__code__.co_name == attr
            assert twin.__module__ == amod and fn.__module__ == smod
    assert made >= 19, made  # (adbc_ingest, call_function: branch core10)


_STEPS_FILE = str(SRC / "client" / "steps.py")


def test_a_made_method_reads_as_a_written_one() -> None:
    """help() shows the operation's parameters without the wrapper's ``*args``, the result
    without ``Op[...]``, and a traceback through the method names it."""
    import asyncio
    import inspect
    import pydoc
    import traceback

    from ifxwire.client.steps import Op, awaiting_method, blocking_method

    class Thing:
        def _do(self, op: Op[int]) -> int:
            try:
                next(op)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            raise AssertionError

        def _twice_op(self, n: int, *, fail: bool = False) -> Op[int]:
            """Twice ``n``."""
            if fail:
                raise ValueError(n)
            return 2 * n
            yield

        twice = blocking_method(_twice_op)

    class AsyncThing(Thing):
        async def _do(self, op: Op[int]) -> int:  # type: ignore[override]
            return Thing._do(self, op)

        twice = awaiting_method(Thing._twice_op)  # type: ignore[assignment]

    assert Thing().twice(3) == 6 and asyncio.run(AsyncThing().twice(4)) == 8  # type: ignore[arg-type]
    text = pydoc.render_doc(Thing, renderer=pydoc.plaintext)
    assert "twice(self, n: 'int', *, fail: 'bool' = False) -> 'int'" in text, text
    assert "Twice ``n``." in text
    assert str(inspect.signature(AsyncThing.twice)).endswith("-> 'int'")
    try:
        AsyncThing().twice(1, fail=True).send(None)
    except ValueError as exc:
        names = [f.name for f in traceback.extract_tb(exc.__traceback__)]
    assert names[1:] == ["twice", "_do", "_do", "_twice_op"], names
