"""Python's cyclic garbage collector run between a session's requests, not inside them.

Why: CPython collects its youngest generation whenever 700 container objects more were made
than freed, wherever that happens, so a collection lands inside a request now and then. In
the server a young collection took about 0.3 ms and a middle one 1-27 ms (measured with
``gc.callbacks`` over libsqli's must-type suite: 25 young collections per run of 42 checks);
libsqli takes the end of an EXECUTE's reply for granted when no byte comes within 1 ms of
its request (docs/PROTOCOL.md §6), and every client waits for them. ``install`` raises the
automatic threshold to a backstop that only a long request reaches, and a session that has
sent its reply and is about to wait for the next request collects what is due
(``collect_when_idle``), at CPython's own cadence: the youngest generation past 700, the
middle one every 10 of those, the oldest every 10 of those when, as CPython asks, the objects
that reached it since its last collection are more than a quarter of those it had then (a
full collection costs tens of ms in a server holding many plans and schemas).

Only the ``ifxwire-server`` command installs it: a server embedded in another program (the
tests, a user's) leaves that program's collector as it is, and ``collect_when_idle`` does
nothing there.
"""

from __future__ import annotations

import gc

#: Young objects that make a collection due at the next idle point (CPython's threshold 0).
IDLE_YOUNG = 700
#: The automatic threshold while installed: a request that makes this many container objects
#: (a long fetch, a large executemany) is still collected in its course.
BACKSTOP = 100_000

_saved: tuple[int, int, int] | None = None
_middle = 10
_old = 10
#: Objects in the oldest generation after its last collection (CPython's long_lived_total).
_long_lived = 0


def install() -> None:
    """Collect between requests from now on (the process-wide collector's thresholds)."""
    global _saved, _middle, _old
    if _saved is None:
        _saved = gc.get_threshold()
        _, _middle, _old = _saved
        gc.set_threshold(BACKSTOP, _middle, _old)


def uninstall() -> None:
    """The thresholds as before ``install`` (tests)."""
    global _saved
    if _saved is not None:
        gc.set_threshold(*_saved)
        _saved = None


def installed() -> bool:
    return _saved is not None


def collect_when_idle() -> None:
    """Called by a session between requests, its reply sent: collect the generations due."""
    if _saved is None:
        return
    global _long_lived
    young, middle, old = gc.get_count()
    if young < IDLE_YOUNG:
        return
    # (when the oldest is due but skipped, its count stays: asked again at each middle one)
    if old >= _old and len(gc.get_objects(2)) - _long_lived > _long_lived // 4:
        gc.collect(2)
        _long_lived = len(gc.get_objects(2))
        return
    gc.collect(1 if middle >= _middle else 0)
