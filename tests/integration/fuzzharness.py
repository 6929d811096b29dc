"""Running mutated replies against a driver scenario (shared by the driver fuzz suites).

``fuzz`` replays a recorded ``Session`` (fuzzreplay.py) to a scenario once unmutated (the
harness itself must be sound), then once per mutation, and judges each case: nothing but PEP
249 errors may escape, no case may outlast ``case_limit`` seconds, and the peak allocation
(tracemalloc, started by ``guarded``) stays under ``memory_bound``. Seeds are fixed, so a
failure names a case that can be rerun.
"""

from __future__ import annotations

import contextlib
import faulthandler
import random
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

from fuzzreplay import Recorder, ReplayServer, Script, Session, mutations

import ifxwire

#: If a whole run ever wedges, dump every thread's stack and stop (CI must not hang).
WATCHDOG = 600

Scenario = Callable[[dict[str, Any]], None]


def record(scenario: Scenario, kw: dict[str, Any]) -> Session:
    """Run ``scenario`` once against the real server through a recording proxy."""
    rec = Recorder(kw["host"], kw["port"])
    scenario({**kw, "host": rec.host, "port": rec.port})
    (session,) = rec.sessions()
    return session


def run_case(
    replay: ReplayServer, scenario: Scenario, script: Script, kw: dict[str, Any]
) -> tuple[BaseException | None, float, int]:
    """(what escaped, seconds taken, peak bytes allocated by it) for one case."""
    replay.script = script
    # A failed case leaves its exception, traceback and frames (and the buffers they hold)
    # in reference cycles until the collector runs (collecting before every case would
    # cost more than the cases): the peak is counted above what is held when a case starts.
    tracemalloc.reset_peak()
    held = tracemalloc.get_traced_memory()[0]
    started = time.monotonic()
    escaped: BaseException | None = None
    try:
        scenario(kw)
    except BaseException as exc:  # judged by the caller
        escaped = exc
    took = time.monotonic() - started
    return escaped, took, tracemalloc.get_traced_memory()[1] - held


def judge(
    label: str,
    escaped: BaseException | None,
    took: float,
    peak: int,
    case_limit: float,
    memory_bound: int,
) -> str | None:
    if escaped is not None and not isinstance(escaped, ifxwire.Error):
        return f"{label}: {type(escaped).__name__}: {escaped}"
    if took > case_limit:
        return f"{label}: took {took:.1f} s (limit {case_limit} s)"
    if peak > memory_bound:
        return f"{label}: allocated {peak} bytes at its peak (bound {memory_bound})"
    return None


@contextlib.contextmanager
def guarding() -> Iterator[None]:
    """tracemalloc on, a watchdog that dumps the stacks if the run wedges, and afterwards no
    thread left behind."""
    threads = threading.active_count()
    tracemalloc.start()
    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        tracemalloc.stop()
    # Replay connections are served by daemon threads that end with their sockets.
    deadline = time.monotonic() + 10
    while threading.active_count() > threads + 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= threads + 2


def fuzz(
    label: str,
    scenario: Scenario,
    session: Session,
    cases: int,
    replay: ReplayServer,
    seed: int,
    *,
    case_limit: float,
    memory_bound: int,
) -> dict[str, int]:
    """Every mutation case of one scenario; the outcome counts by exception class name."""
    kw = replay.kwargs(database="fuzzdb")
    escaped, _, _ = run_case(replay, scenario, Script(session), kw)
    assert escaped is None, f"the plain replay failed: {escaped!r}"
    failures: list[str] = []
    outcomes: dict[str, int] = {}
    rng = random.Random(seed)
    for n, mut in enumerate(mutations(session, rng, cases)):
        case = f"{label} seed={seed} case {n}: {mut.describe()}"
        escaped, took, peak = run_case(replay, scenario, Script(session, mut), kw)
        problem = judge(case, escaped, took, peak, case_limit, memory_bound)
        if problem:
            failures.append(problem)
        key = "ok" if escaped is None else type(escaped).__name__
        outcomes[key] = outcomes.get(key, 0) + 1
        # Its traceback holds the failed case's buffers: not to be counted in the next peak.
        escaped = None
    assert not failures, "\n".join(failures[:20])
    print(f"{label}: {cases} cases, outcomes {outcomes}")
    return outcomes
