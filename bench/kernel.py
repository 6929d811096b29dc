"""The kernel's part of a worker's client CPU: system time and minor page faults.

Why it is reported: at 100k rows a fetchall builds some 30 MB of new Python objects, and
CPython's allocator takes them from fresh 1 MiB arenas, which it gives back to the system when
the rows are dropped; the next fetch faults every page in again, and the kernel zeroes each one.
On the bench machines that is a few microseconds a page, a quarter of pure Python's CPU at 100k
rows and as much of pickle's floor, while a warmed-up JVM reuses its heap. The report shows the
faults per operation and the system share next to every driver, so that figure is measured in
each run rather than argued (docs/BENCHMARKS.md, *What bounds the 100k-row fetch*).

``getrusage(RUSAGE_SELF)`` covers every thread of the process. The JDBC worker reports the
faults from /proc/self/stat (its system time is not separable from its CPU counter there).
"""

from __future__ import annotations

import resource

__all__ = ["sample", "since"]


def sample() -> tuple[float, int]:
    """The process's system CPU seconds and minor faults so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_stime, r.ru_minflt


def since(start: tuple[float, int]) -> dict[str, float]:
    """What ``sample()`` grew by since ``start``: ``sys`` seconds and ``minflt`` faults."""
    now = sample()
    return {"sys": now[0] - start[0], "minflt": float(now[1] - start[1])}
