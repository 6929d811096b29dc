"""The benchmark's replay server, grown results and RSS guard, against the real server.

These are the bench's own tools (bench/replay.py, bench/procstat.py): the smoke run uses them
for every driver, these tests pin the parts whose failure would make a figure wrong rather
than make the run fail.
"""

from __future__ import annotations

import mmap
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ifxwire

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import procstat  # noqa: E402
from bench.replay import Key, fetch_run, tuple_rows  # noqa: E402

ROWS = 3000


@pytest.fixture(scope="module")
def table(connect_kwargs: dict[str, Any], dbname: str) -> str:
    # One transaction: in autocommit each of the 3000 rows was a commit of its own (24 s).
    c = ifxwire.connect(**connect_kwargs, database=dbname)
    cur = c.cursor()
    cur.execute("CREATE TABLE grow_src (a INT, b VARCHAR(40))")
    rows = [(i, f"row {i:06d} " + "x" * (i % 23)) for i in range(ROWS)]
    cur.executemany("INSERT INTO grow_src VALUES (?, ?)", rows)
    c.commit()
    c.close()
    return "grow_src"


def _fetch(conn: ifxwire.Connection, sql: str) -> int:
    cur = conn.cursor()
    cur.execute(sql)
    n = 0
    for _ in cur:
        n += 1
    cur.close()
    return n


def test_grown_result_carries_the_rows_it_announces(
    server: Any, connect_kwargs: dict[str, Any], dbname: str, table: str
) -> None:
    """Record setup, A and B of a real fetch, grow A to 10x its rows: a fresh connection
    streams exactly the announced count, and the repeated turns are plain fetch replies."""
    sql = f"SELECT * FROM {table}"
    key = Key((server.host, server.port))
    try:
        port = key.start_record()
        # A small fetch buffer: the result spans many replies, as 1M rows do in the bench.
        opts = {**connect_kwargs, "port": port, "database": dbname, "fetch_buffer_size": 4096}
        conn = ifxwire.connect(**opts)
        key.mark()
        for _ in range(2):
            assert _fetch(conn, sql) == ROWS
            key.mark()
        conn.close()
        key.stop_record()
        marks = [m for m in key.rec.marks if m is not None]
        i, j = fetch_run(key.rec.turns[marks[0] : marks[1]])
        assert j - i >= 3, "the recording has no run of plain fetch replies"
        grown = key.start_grown(ROWS, 10 * ROWS)
        assert 10 * ROWS <= grown["rows"] < 10 * ROWS + ROWS
        fresh = ifxwire.connect(**{**opts, "port": grown["port"]})
        try:
            assert _fetch(fresh, sql) == grown["rows"]
        finally:
            fresh.close()
        assert key.stats.length_mismatch == 0 and key.stats.exhausted == 0
    finally:
        key.close()


def test_tuple_rows_counts_only_tuple_runs() -> None:
    tup = b"\x00\x0e\x00\x00\x00\x00\x00\x03abc\x00"  # SQ_TUPLE, size 3, padded to even
    eot = b"\x00\x0c"
    assert tuple_rows(tup * 4 + eot) == 4
    assert tuple_rows(eot) is None  # no rows: not a fetch reply worth repeating
    assert tuple_rows(tup + b"\x00\x0f" + eot) is None  # SQ_DONE (15) inside
    assert tuple_rows(tup[:-3]) is None  # truncated
    assert tuple_rows(tup + eot + tup) is None  # EOT must end it


def _resident_mib() -> mmap.mmap:
    """One MiB of fresh anonymous pages, written so they are resident. A bytes object of the
    same size may be carved from heap that earlier tests freed but the allocator kept (already
    resident), so late in a long run the RSS would not grow and the guard never fire."""
    block = mmap.mmap(-1, 2**20)
    block.write(b"x" * 2**20)
    return block


def _grow_until_stopped(base: int) -> procstat.RssGuard:
    """Grow RSS by resident MiB blocks under a 16 MiB guard until it stops the main thread
    (pytest.raises fails the test when it never does); the guard, for its ``why``."""
    hold: list[mmap.mmap] = []
    with procstat.RssGuard(base, 16 * 2**20) as guard, pytest.raises(KeyboardInterrupt):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(hold) < 128:
            hold.append(_resident_mib())
            time.sleep(0.002)
        time.sleep(1)  # the guard samples every 20 ms
    hold.clear()
    return guard


def test_rss_guard_stops_the_main_thread_past_its_bound() -> None:
    base = procstat.rss_bytes()
    if base is None:
        pytest.skip("no /proc/self/status here")
    guard = _grow_until_stopped(base)
    assert guard.why is not None and "stopped at" in guard.why


def test_rss_guard_stops_a_process_that_ignores_sigint() -> None:
    """A benchmark started as a background job (`make bench &`, nohup) inherits SIGINT
    ignored, and Python then installs no KeyboardInterrupt for it: the guard installs one for
    its block and gives the old disposition back. Until the twentieth session the guard's
    interrupt was dropped there (this test's runs and the Ctrl-C stream test failed in a
    fresh-clone CI run started with `nohup ... &`)."""
    base = procstat.rss_bytes()
    if base is None:
        pytest.skip("no /proc/self/status here")
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        guard = _grow_until_stopped(base)
        assert guard.why is not None
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_rss_guard_interrupts_again_when_the_first_is_swallowed() -> None:
    """A driver may lose the first KeyboardInterrupt (one raised in a finalizer is only
    printed): the guard sends another until the guarded block ends."""
    base = procstat.rss_bytes()
    if base is None:
        pytest.skip("no /proc/self/status here")
    hold: list[mmap.mmap] = []
    swallowed = 0
    with procstat.RssGuard(base, 16 * 2**20) as guard, pytest.raises(KeyboardInterrupt):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if len(hold) < 128:
                    hold.append(_resident_mib())
                time.sleep(0.002)
            except KeyboardInterrupt:
                if swallowed:
                    raise
                swallowed += 1  # as a finalizer would: the block goes on
    hold.clear()
    assert swallowed == 1 and guard.why is not None


def _guard_fires_then(stage: Callable[[procstat.RssGuard, int, list[bool]], None]) -> None:
    """Grow RSS under a guard until its interrupt is caught once in the block, then let
    ``stage`` (given the guard, the main thread's id and a list to mark a sent interrupt in)
    arrange a late interrupt of the guard's on its way out; the block must end quietly."""
    base = procstat.rss_bytes()
    if base is None:
        pytest.skip("no /proc/self/status here")
    hold: list[mmap.mmap] = []
    caught = 0
    main = threading.main_thread().ident
    assert main is not None
    sent: list[bool] = []
    with procstat.RssGuard(base, 16 * 2**20) as guard:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not caught:
            try:
                if len(hold) < 128:
                    hold.append(_resident_mib())
                time.sleep(0.002)
            except KeyboardInterrupt:
                caught += 1
        stage(guard, main, sent)
    hold.clear()
    assert caught == 1 and sent and guard.why is not None


def test_rss_guard_takes_its_own_late_interrupt() -> None:
    """An interrupt the guard sent just before the block ended is pending when the main
    thread leaves __exit__'s lock; it must not escape the block (the bench worker died with
    code -2 that way). Staged by sending one from inside __exit__, once."""

    def stage(guard: procstat.RssGuard, main: int, sent: list[bool]) -> None:
        assert guard._thread is not None
        join = guard._thread.join

        def late_join(timeout: float | None = None) -> None:
            if not sent:
                sent.append(True)
                signal.pthread_kill(main, signal.SIGINT)
            join(timeout)

        guard._thread.join = late_join  # type: ignore[method-assign]

    _guard_fires_then(stage)


def test_rss_guard_takes_its_own_interrupt_at_its_stops_entry() -> None:
    """The same interrupt pending one step earlier: raised at the entry of the guard's stop,
    before any code of it ran (a make bench run of the 24th session died so, "exited (code
    None)", its traceback ending at ``def _stop``). Staged by a stop that sends one first."""

    def stage(guard: procstat.RssGuard, main: int, sent: list[bool]) -> None:
        stop = guard._stop

        def late_stop() -> None:
            if not sent:
                sent.append(True)
                signal.pthread_kill(main, signal.SIGINT)
                for _ in range(3):  # a backward jump: the pending interrupt is raised here
                    pass
            stop()

        guard._stop = late_stop  # type: ignore[method-assign]

    _guard_fires_then(stage)


def test_rss_guard_without_a_bound_never_fires() -> None:
    with procstat.RssGuard(0, 0) as guard:
        data = b"x" * (8 * 2**20)
        time.sleep(0.1)
    del data
    assert guard.why is None


def test_connect_floor_runs_and_every_replay_fits() -> None:
    """bench/connect_floor.py (the raw-socket floor of a cold connect, BENCHMARKS.md): its raw
    client's bytes and reply lengths fit the replay of its own recording, and so do both
    drivers' (a misfit prints a warning and would make the floor meaningless)."""
    import subprocess

    out = subprocess.run(
        [sys.executable, "bench/connect_floor.py", "--connects", "5", "--no-pin"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert not [line for line in lines if line.startswith("warning")], out.stdout
    names = [line.split("  ")[0] for line in lines[2:]]
    assert names[0].startswith("raw socket, 3") and names[1].startswith("raw socket, EXIT"), names
    assert names[2].startswith("ifxwire") and names[3].startswith("informix-driver"), names
