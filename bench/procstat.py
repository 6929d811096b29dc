"""Process accounting from /proc (Linux), without psutil.

CPU time of another process (the server, the replay server) comes from ``/proc/<pid>/stat``
(utime + stime, clock ticks: 10 ms resolution at the usual 100 Hz), so it is only meaningful
over rounds of tens of milliseconds or more. Memory figures come from ``/proc/self/status``;
``reset_peak_rss`` clears VmHWM so a later ``peak_rss`` is the peak since the reset.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds used so far by ``pid`` (all its threads); None if unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            data = fh.read()
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses: split after its ')'.
    fields = data[data.rindex(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / _TICKS


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def rss_bytes() -> int | None:
    """Current resident set size of this process."""
    kb = _status_kb("VmRSS")
    return None if kb is None else kb * 1024


def peak_rss_bytes() -> int | None:
    """Peak resident set size (VmHWM) since process start or the last ``reset_peak_rss``."""
    kb = _status_kb("VmHWM")
    return None if kb is None else kb * 1024


def reset_peak_rss() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False when the kernel refuses."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
    except OSError:
        return False
    return True


class RssGuard:
    """Stops the main thread (KeyboardInterrupt, through SIGINT) once this process's RSS has
    grown ``limit`` bytes past ``base``; ``why`` then says so. ``limit`` 0: never.

    Why: a driver that reads the whole result before returning a row (informix-driver) would
    take several GB for the 10M-row stream; the bench stops it at a stated bound instead of
    letting it eat a shared machine's memory, and reports that it stopped. The interrupt is
    sent again every ``RESEND`` seconds until the guarded block has ended, because one can be
    lost (raised in a finalizer, Python only prints it): in two full runs (b718cc8, 9a91c27)
    informix-driver was not stopped and went on to 3.2 GB.
    """

    INTERVAL = 0.02
    RESEND = 0.25

    def __init__(self, base: int, limit: int) -> None:
        self.base = base
        self.limit = limit
        self.why: str | None = None
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._main = threading.main_thread().ident
        self._thread: threading.Thread | None = None
        self._t0 = 0.0
        #: SIGINT's handler before the guard installed Python's (only when it was SIG_IGN).
        self._saved_sigint: Any = None

    def __enter__(self) -> RssGuard:
        if self.limit > 0:
            if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
                # Started as a background job of a non-interactive shell (`cmd &`, nohup),
                # the process ignores SIGINT and Python installs no KeyboardInterrupt for it:
                # the guard's interrupt would be dropped and the driver left to grow.
                self._saved_sigint = signal.signal(signal.SIGINT, signal.default_int_handler)
            self._t0 = time.perf_counter()
            self._thread = threading.Thread(target=self._watch, daemon=True)
            self._thread.start()
        return self

    def _watch(self) -> None:
        while not self._done.wait(self.INTERVAL):
            growth = (rss_bytes() or 0) - self.base
            if growth <= self.limit:
                continue
            with self._lock:
                if self._done.is_set():
                    return
                self.why = (
                    f"stopped at {growth / 2**20:.0f} MB of RSS growth (bound "
                    f"{self.limit / 2**20:.0f} MB) after {time.perf_counter() - self._t0:.1f} s"
                )
            while True:
                with self._lock:
                    if self._done.is_set():
                        return
                    assert self._main is not None
                    signal.pthread_kill(self._main, signal.SIGINT)
                if self._done.wait(self.RESEND):
                    return

    def __exit__(self, *exc: object) -> None:
        self.finish()

    def finish(self) -> None:
        """End the guard (``__exit__``): no interrupt is sent after it returns, and one of its
        own still pending is taken here. A caller that met the guard's interrupt on the way
        into ``__exit__`` itself (raised at the call's entry, before any of its code ran:
        bench/worker.py) calls it again."""
        try:
            while True:
                try:
                    self._stop()
                    return
                except KeyboardInterrupt:
                    # Once the guard has fired, a pending interrupt can also be raised at
                    # _stop's own entry, before its try (a make bench run of the 24th
                    # session: the worker died "exited (code None)" with the traceback
                    # ending at `def _stop`): it is one of the guard's, taken here.
                    if self.why is None:
                        raise
        finally:
            if self._saved_sigint is not None:
                signal.signal(signal.SIGINT, self._saved_sigint)
                self._saved_sigint = None

    def _stop(self) -> None:
        # A SIGINT sent just before _done was set can still be pending when the main thread
        # leaves the lock: Python raises it at its next check, which was after the guarded
        # block, where nothing caught it, and the worker died with code -2 ("exited (code
        # -2)", the whole `make bench` failing on a rival stopped at its bound as designed).
        # So once the guard has fired, an interrupt met here is one of its own and is taken.
        while True:
            try:
                with self._lock:
                    self._done.set()
                if self._thread is not None:
                    self._thread.join()
                if self.why is not None:
                    _run_pending_signal_handlers()
                return
            except KeyboardInterrupt:
                if self.why is None:
                    raise


def _run_pending_signal_handlers() -> None:
    """A loop's backward jump: CPython runs pending signal handlers there."""
    for _ in range(2):
        pass
