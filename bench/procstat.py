"""Process accounting from /proc (Linux), without psutil.

CPU time of another process (the server, the replay server) comes from ``/proc/<pid>/stat``
(utime + stime, clock ticks: 10 ms resolution at the usual 100 Hz), so it is only meaningful
over rounds of tens of milliseconds or more. Memory figures come from ``/proc/self/status``;
``reset_peak_rss`` clears VmHWM so a later ``peak_rss`` is the peak since the reset.
"""

from __future__ import annotations

import os

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
