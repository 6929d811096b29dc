"""The process-wide statement timer (client/cancel.py): fires, re-fires, forgets."""

from __future__ import annotations

import threading
import weakref

from ifxwire.client.cancel import COMPACT_AT, StatementTimer


def test_fires_once_and_again_when_asked() -> None:
    timer = StatementTimer()
    fired = threading.Event()
    calls: list[int] = []

    def callback() -> float | None:
        calls.append(1)
        if len(calls) == 3:
            fired.set()
            return None
        return 0.01  # call me again

    timer.arm(0.01, callback)
    assert fired.wait(5)
    assert len(calls) == 3


def test_cancelled_handles_do_not_keep_their_callback_or_pile_up() -> None:
    timer = StatementTimer()

    class Owner:
        def hit(self) -> float | None:
            raise AssertionError("a cancelled timer fired")

    owner = Owner()
    ref = weakref.ref(owner)
    handle = timer.arm(3600, owner.hit)
    handle.cancel()
    del owner
    assert ref() is None  # the connection a dead handle pointed at can go
    for _ in range(COMPACT_AT * 3):
        timer.arm(3600, lambda: None).cancel()
    assert len(timer._heap) <= COMPACT_AT * 2 + 2
