"""A release of the row-lock latch wakes one waiter, not all (features/locks/latch.py).

Why: with 8 writers back to back every release woke every waiter (notify_all), each to find
the latch taken again by whichever ran first: about six waits per acquire, each a thread
switch and a GIL hand-over (docs/BENCHMARKS.md, "Row locks: 8 writers of one table"). What a
test can see of a wake-up is the woken thread's context switch (Linux counts them per thread
in /proc): after one release with several waiters asleep, only the one that takes the latch
may have run. ``test_one_release_wakes_one_waiter`` fails on the notify_all latch; the others
check what must stay as it was (time-outs, a parked owner's flush, a reader's flush).
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections import deque

import pytest

from ifxwire.server.engine.features.locks.latch import Latch


def _switches(tid: int) -> int:
    """Voluntary context switches of thread ``tid`` of this process so far."""
    with open(f"/proc/self/task/{tid}/status") as f:
        for line in f:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])
    raise AssertionError("no voluntary_ctxt_switches line")


def _waiting(latch: Latch, n: int) -> None:
    """Wait until ``n`` sessions wait for ``latch``, asleep."""
    end = time.monotonic() + 5
    while latch._waiters < n:
        assert time.monotonic() < end, "the waiters did not come"
        time.sleep(0.001)
    time.sleep(0.05)  # (from counting themselves to sleeping in the condition's wait)


def _asleep(tids: list[int]) -> dict[int, int]:
    """The switch counts of threads ``tids`` once every one is asleep (state S) and none has
    switched for 0.1 s: on a loaded machine a waiter counted by the latch may not have
    reached its sleep yet, which would count as a wake-up."""
    end = time.monotonic() + 20
    last: dict[int, int] = {}
    while time.monotonic() < end:
        now = {tid: _switches(tid) for tid in tids}
        states = set()
        for tid in tids:
            with open(f"/proc/self/task/{tid}/stat") as f:
                states.add(f.read().rsplit(")", 1)[1].split()[0])
        if now == last and states == {"S"}:
            return now
        last = now
        time.sleep(0.1)
    raise AssertionError("the waiters did not settle asleep")


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="Linux /proc")
def test_one_release_wakes_one_waiter() -> None:
    latch = Latch()
    holder = object()
    assert latch.acquire(holder)
    go = threading.Event()
    owners: list[int] = []
    tids: list[int] = []
    lock = threading.Lock()

    def waiter() -> None:
        with lock:
            tids.append(threading.get_native_id())
        me = object()
        assert latch.acquire(me, 30)
        owners.append(threading.get_native_id())
        go.wait(30)  # holds the latch until the test has counted
        latch.release(me)

    threads = [threading.Thread(target=waiter) for _ in range(5)]
    for t in threads:
        t.start()
    _waiting(latch, 5)
    before = _asleep(tids)
    latch.release(holder)
    end = time.monotonic() + 5
    while not owners:
        assert time.monotonic() < end
        time.sleep(0.001)
    time.sleep(0.2)  # time for every thread that was woken to run and sleep again
    woken = [tid for tid in tids if _switches(tid) != before[tid]]
    go.set()
    for t in threads:
        t.join(30)
    assert len(owners) == 5  # every waiter had it in the end
    assert woken == [owners[0]], f"{len(woken)} waiters woke for one release"


def test_a_waiter_that_times_out_gives_up_and_the_next_one_gets_it() -> None:
    latch = Latch()
    holder, late, next_one = object(), object(), object()
    assert latch.acquire(holder)
    started = time.monotonic()
    assert not latch.acquire(late, 0.05)
    assert time.monotonic() - started >= 0.04
    got: list[bool] = []
    t = threading.Thread(target=lambda: got.append(latch.acquire(next_one, 5)))
    t.start()
    _waiting(latch, 1)
    latch.release(holder)
    t.join(5)
    assert got == [True]
    latch.release(next_one)
    assert latch.acquire(late, 0)


def test_a_parked_owner_is_flushed_when_free_and_every_waiter_gets_the_latch() -> None:
    latch = Latch()
    parker = object()
    use = threading.Lock()
    flushed: list[int] = []
    assert latch.acquire(parker)
    use.acquire()  # the parked session is busy: waiters look again every few ms
    assert latch.park(parker, lambda: flushed.append(1), use)
    got: list[int] = []

    def run(i: int) -> None:
        me = object()
        assert latch.acquire(me, 10)
        got.append(i)
        latch.release(me)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    _waiting(latch, 4)
    assert flushed == [] and got == []
    use.release()
    for t in threads:
        t.join(10)
    assert flushed == [1] and sorted(got) == [0, 1, 2, 3]
    # a parked owner takes its own latch back at once, without a flush
    assert latch.acquire(parker)
    assert latch.park(parker, lambda: flushed.append(2), threading.Lock())
    assert latch.acquire(parker, 0)
    latch.release(parker)
    assert flushed == [1]


def test_a_reader_flushes_a_parked_owner_and_a_waiter_then_gets_the_latch() -> None:
    latch = Latch()
    parker, reader, writer = object(), object(), object()
    use = threading.Lock()
    use.acquire()
    flushed: list[int] = []
    assert latch.acquire(parker)
    assert latch.park(parker, lambda: flushed.append(1), use)
    started = time.monotonic()
    latch.flush_parked(reader, patience=0.05)  # busy: the reader gives up
    assert flushed == [] and time.monotonic() - started >= 0.04
    got: list[bool] = []
    t = threading.Thread(target=lambda: got.append(latch.acquire(writer, 10)))
    use.release()
    latch.flush_parked(reader)
    assert flushed == [1] and not latch.parked
    t.start()
    t.join(10)
    assert got == [True]


def test_waiters_with_and_without_time_outs_all_get_through_one_at_a_time() -> None:
    """The doorbell wake-up (latch.py ``_Waiter``): 8 threads, some giving up after a few
    milliseconds, take the latch 100 times each; none sleeps on while it is free (every run
    ends), and no two hold it at once."""
    latch = Latch()
    inside: list[int] = []
    errors: list[str] = []
    taken = [0] * 8

    def work(n: int) -> None:
        me = object()
        for i in range(100):
            timeout = 0.002 if (n + i) % 3 == 0 else None
            if not latch.acquire(me, timeout):
                continue
            try:
                inside.append(n)
                if len(inside) != 1:
                    errors.append(f"{len(inside)} inside")
                time.sleep(0.0002 if i % 7 == 0 else 0)
                inside.pop()
                taken[n] += 1
            finally:
                latch.release(me)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a waiter slept on"
    assert errors == []
    assert all(n >= 66 for n in taken), taken  # the ones without a time-out all got in
    assert latch._queue == deque() and latch._waiters == 0


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="Linux /proc")
def test_a_threads_doorbell_is_closed_with_the_thread() -> None:
    latch = Latch()
    owner = object()
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        latch.acquire(owner)
        threads = [threading.Thread(target=lambda: latch.acquire(object(), 0.01))
                   for _ in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        latch.release(owner)
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) <= before + 2
