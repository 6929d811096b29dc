"""The logic of running an operation is written once (issue 24, "duplicates lists no sync/async
twins"): ``client.steps.stepper`` says what each thing an operation yields means, and the two
loops (``call_each`` blocking, ``await_each`` awaiting) only make or await the calls it hands
them. The LOB methods that only run an operation are listed once, on ``LocatorBase``.

The loops are checked here without a server: the same operation, run by each loop over fake
I/O that records what it is asked, must produce the same transcript, the same clean-up on a
failure and the same result. The integration tests (test_aio*, test_smart_lobs, ...) run both
loops against a real server.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from ifxwire.client.steps import Forwarded, Op, await_each, call_each, made_for

SRC = Path(__file__).resolve().parents[2] / "src" / "ifxwire"


def _op(log: list[Any], fail_on: str | None = None) -> Op[str]:
    """An operation using every kind of step: groups, a hook, read steps; it records what it
    got back and what was thrown into it (its clean-up)."""
    try:
        got = yield [(b"group", "reply")]
        log.append(("after exchange", got))
        got = yield ("hook", 1, 2)
        log.append(("after hook", got))
        got = yield _steps()
        log.append(("after drive", got))
    except ValueError as exc:
        log.append(("cleaned up", str(exc)))
        return "recovered"
    return "done"


def _steps() -> Generator[int, int, str]:
    yield 4
    return "steps result"


class _Sync:
    def __init__(self, log: list[Any], fail_on: str | None = None) -> None:
        self.log, self.fail_on = log, fail_on

    def _io(self, what: str, arg: Any) -> Any:
        self.log.append((what, arg))
        if what == self.fail_on:
            raise ValueError(what)
        return f"{what} result"

    def exchange(self, groups: Any) -> None:
        self._io("exchange", groups)

    def hook(self, *args: Any) -> Any:
        return self._io("hook", args)

    def drive(self, steps: Any) -> Any:
        return self._io("drive", type(steps).__name__)


class _Async(_Sync):
    async def exchange(self, groups: Any) -> None:  # type: ignore[override]
        await asyncio.sleep(0)
        super().exchange(groups)

    async def hook(self, *args: Any) -> Any:  # type: ignore[override]
        await asyncio.sleep(0)
        return super().hook(*args)

    async def drive(self, steps: Any) -> Any:  # type: ignore[override]
        await asyncio.sleep(0)
        return super().drive(steps)


@pytest.mark.parametrize("fail_on", [None, "exchange", "hook", "drive"])
def test_both_loops_run_an_operation_alike(fail_on: str | None) -> None:
    """One transcript for both loops: each kind of step goes to the right I/O, its result is
    sent back, a failure is thrown into the operation (whose clean-up runs) and the
    operation's result is the loop's."""
    sync_log: list[Any] = []
    s = _Sync(sync_log, fail_on)
    sync_result = call_each(_op(sync_log), s, s.exchange, s.drive)
    async_log: list[Any] = []
    a = _Async(async_log, fail_on)
    async_result = asyncio.run(await_each(_op(async_log), a, a.exchange, a.drive))
    assert sync_log == async_log
    assert sync_result == async_result == ("done" if fail_on is None else "recovered")
    if fail_on is None:
        assert sync_log == [
            ("exchange", [(b"group", "reply")]), ("after exchange", None),
            ("hook", (1, 2)), ("after hook", "hook result"),
            ("drive", "generator"), ("after drive", "drive result"),
        ]
    else:
        assert sync_log[-1] == ("cleaned up", fail_on)


def test_a_failure_the_operation_does_not_handle_leaves_the_loop() -> None:
    log: list[Any] = []

    def op() -> Op[None]:
        yield ("missing_hook",)

    with pytest.raises(AttributeError):
        call_each(op(), _Sync(log))
    with pytest.raises(AttributeError):
        asyncio.run(await_each(op(), _Async(log)))


def test_an_operation_that_yields_nothing_returns_at_once() -> None:
    def op() -> Op[int]:
        return 7
        yield

    assert call_each(op()) == 7
    assert asyncio.run(await_each(op())) == 7


def _function(path: Path, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    tree = ast.parse(path.read_text())
    cls, _, name = qualname.rpartition(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for child in node.body:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                        child.name == name):
                    return child
    raise AssertionError(f"{qualname} not found in {path}")


def test_the_sessions_loops_are_the_one_loop() -> None:
    """The decisions of running an operation (the kind of each step, throwing a failure in,
    the StopIteration result) are the one loop's (``steps._LOOP``): neither session spells
    them again (each did until issue 24's core16 round). Each session's ``_run`` is a build
    of that text, its I/O (``self._exchange``, ``self._drive``) named in it."""
    from ifxwire.client import steps
    from ifxwire.client.awaiting import AsyncSession
    from ifxwire.client.wire import WireSession

    for cls, awaiting in ((WireSession, False), (AsyncSession, True)):
        run = vars(cls)["_run"]
        assert run.__code__.co_filename == steps.__file__
        assert run.__code__.co_firstlineno == call_each.__code__.co_firstlineno
        assert run.__qualname__ == f"{cls.__name__}._run"
        assert inspect.iscoroutinefunction(run) is awaiting
        assert list(inspect.signature(run).parameters) == ["self", "calls", "hooks"]
        assert {"_exchange", "_drive"} <= set(run.__code__.co_names)
    for path in (SRC / "client" / "wire.py", SRC / "client" / "awaiting.py"):
        text = path.read_text()
        assert "_run = blocking_run(" in text or "_run = awaiting_run(" in text, path.name
        assert "op.throw(" not in text and "op.send(" not in text, path.name


def test_both_loops_are_built_from_one_text() -> None:
    """``call_each`` and ``await_each`` are one source compiled twice (the awaiting build
    adds ``await`` before the three I/O calls, nothing else); a traceback through either
    shows the lines of that text in client/steps.py."""
    import linecache

    from ifxwire.client import steps

    sync, wait = call_each.__code__, await_each.__code__
    assert sync.co_filename == wait.co_filename == steps.__file__
    assert sync.co_firstlineno == wait.co_firstlineno
    assert inspect.iscoroutinefunction(await_each) and not inspect.iscoroutinefunction(call_each)
    first = linecache.getline(steps.__file__, sync.co_firstlineno)
    assert first.startswith("{async_}def {name}({params})"), first
    assert steps._LOOP.count("{await_}") == 3
    assert call_each.__doc__ and await_each.__doc__


def test_a_failure_in_the_loop_names_the_loops_line() -> None:
    import traceback

    def op() -> Op[None]:
        yield ("missing_hook",)

    try:
        call_each(op(), object())
    except AttributeError as exc:
        frames = traceback.extract_tb(exc.__traceback__)
    assert frames[-1].name == "call_each" and "getattr(hooks" in (frames[-1].line or "")


def test_lob_methods_are_listed_once_and_made_for_each_driver() -> None:
    """``close``, ``seek``, ... are declared on ``LocatorBase`` only; each driver's class
    has them as its own functions (blocking or coroutines), named and documented as the
    operation, and neither driver module declares them again."""
    from ifxwire.aio.lob import AsyncBlob, AsyncSmartLob
    from ifxwire.client.lob import Blob, LocatorBase, SmartLob

    listed = {k for k, v in vars(LocatorBase).items() if isinstance(v, Forwarded)}
    assert listed == {"close", "seek", "size", "truncate", "readinto", "write_from",
                      "copy_to"}
    for cls, coroutine in ((SmartLob, False), (AsyncSmartLob, True)):
        for name in listed:
            fn = vars(cls)[name]
            assert inspect.iscoroutinefunction(fn) is coroutine, (cls, name)
            op = vars(LocatorBase)[f"_{name}_op"]
            assert fn.__doc__ == op.__doc__ and fn.__qualname__ == f"{cls.__name__}.{name}"
            assert list(inspect.signature(fn).parameters) == list(
                inspect.signature(op).parameters)
    assert Blob.seek is SmartLob.seek and AsyncBlob.seek is AsyncSmartLob.seek
    for path in (SRC / "client" / "lob.py", SRC / "aio" / "lob.py"):
        text = path.read_text()
        for name in listed:
            assert f"method(LocatorBase._{name}_op" not in text, (path.name, name)


def test_a_forwarded_method_needs_a_runner() -> None:
    """A class without a runner gets nothing made; reading the declaration there says so."""

    class Ops:
        def _twice_op(self, n: int) -> Op[int]:
            """Twice ``n``."""
            return 2 * n
            yield

        twice = Forwarded(_twice_op)

    class Runs(Ops):
        def _do(self, op: Op[int]) -> int:
            return call_each(op)

    made_for(Ops)
    made_for(Runs)
    assert Runs().twice(4) == 8  # type: ignore[misc]
    assert vars(Runs)["twice"].__qualname__.endswith("Runs.twice")
    with pytest.raises(AttributeError, match="no _do"):
        Ops().twice  # type: ignore[misc]  # noqa: B018
