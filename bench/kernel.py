"""The kernel's part of a worker's client CPU: system time and minor page faults.

    python bench/kernel.py [--rows 100000] [--rounds 9]

run alone, measures what a fresh page costs on this machine and the kernel's part of decoding
one select_scaling result in pure Python against ``pickle.loads`` of the same rows (the
report's figures come from the bench workers themselves).

Why it is reported: at 100k rows a fetchall builds some 30 MB of new Python objects, and
CPython's allocator takes them from fresh 1 MiB arenas, which it gives back to the system when
the rows are dropped; the next fetch faults every page in again, and the kernel zeroes each one.
On the bench machines that is a few microseconds a page, a quarter of pure Python's CPU at 100k
rows and as much of pickle's floor, while a warmed-up JVM reuses its heap. The report shows the
faults per operation and the system share next to every driver, so that figure is measured in
each run rather than argued (docs/BENCHMARKS.md, *What bounds the 100k-row fetch*).

``getrusage(RUSAGE_SELF)`` covers every thread of the process. Its fault count is exact; its
split of CPU time into user and system is sampled at the scheduler's tick, so the system share
of one short operation is coarse (the report's medians over rounds smooth it). The JDBC worker
reports the faults from /proc/self/stat (its system time is not separable from its CPU
counter there).
"""

from __future__ import annotations

import argparse
import gc
import mmap
import os
import pickle
import resource
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["sample", "since"]


def sample() -> tuple[float, int]:
    """The process's system CPU seconds and minor faults so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_stime, r.ru_minflt


def since(start: tuple[float, int]) -> dict[str, float]:
    """What ``sample()`` grew by since ``start``: ``sys`` seconds and ``minflt`` faults."""
    now = sample()
    return {"sys": now[0] - start[0], "minflt": float(now[1] - start[1])}


def page_cost(mib: int = 32) -> tuple[float, int]:
    """(CPU seconds per page fault, faults): touch every page of a new anonymous mapping, with
    transparent huge pages refused for it, so each fault is one base page as for the arenas."""
    pages = mmap.mmap(-1, mib << 20)
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        pages.madvise(mmap.MADV_NOHUGEPAGE)
    start = sample()
    cpu0 = _cpu()
    for i in range(0, len(pages), mmap.PAGESIZE):
        pages[i] = 1
    cpu = _cpu() - cpu0
    faults = int(since(start)["minflt"])
    pages.close()
    return cpu / max(1, faults), faults


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(body: Callable[[], Any], rounds: int) -> dict[str, float]:
    """User, system and faults of the round (of ``rounds``, each after a collection) whose
    CPU is the median."""
    got: list[tuple[float, float, float]] = []
    for _ in range(rounds):
        gc.collect()
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        body()
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        got.append((r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime,
                    float(r1.ru_minflt - r0.ru_minflt)))
    got.sort(key=lambda g: g[0] + g[1])
    user, system, faults = got[len(got) // 2]
    return {"user": user, "sys": system, "minflt": faults}


def _decode_bodies(rows: int) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The pure tuple loop over one select_scaling result, in the reply-sized pieces a fetch
    sees, and ``pickle.loads`` of the rows it returns."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from bench.scenarios import row5
    from ifxwire.protocol.columns import ColumnDesc
    from ifxwire.protocol.messages import put_tuple
    from ifxwire.protocol.wire import Writer
    from ifxwire.types.rowcodec import build_row_decoder, build_row_encoder

    cols = [ColumnDesc("a", 2, 4), ColumnDesc("b", 13, 64), ColumnDesc("c", 2, 4),
            ColumnDesc("d", 3, 8), ColumnDesc("e", 13, 32)]  # fmt: skip
    decode = build_row_decoder(cols, "iso-8859-1")
    loop = getattr(decode, "pure", decode).decode_tuples
    encode = build_row_encoder(cols, "iso-8859-1")
    out = Writer()
    for i in range(rows):
        put_tuple(out, encode(row5(i)))
    stream = out.buf
    pieces, pos = [], 0
    while pos < len(stream):  # 64 KiB of whole tuples each, as the fetch replies come
        piece = stream[pos : pos + 65536]
        used, _ = loop(piece, 0, len(piece), [])
        pieces.append(piece[:used])
        pos += used

    def fetch() -> list[Any]:
        out: list[Any] = []
        for piece in pieces:
            loop(piece, 0, len(piece), out)
        return out

    blob = pickle.dumps(fetch(), protocol=pickle.HIGHEST_PROTOCOL)
    return (lambda: len(fetch())), (lambda: len(pickle.loads(blob)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=9)
    args = p.parse_args(argv)
    cost, pages = page_cost()
    print(f"a fresh page: {cost * 1e6:.2f} µs of CPU ({pages} faults touching a new 32 MiB "
          "mapping)")
    fetch, floor = _decode_bodies(args.rows)
    for name, body in (("ifxwire pure tuple loop", fetch), ("pickle.loads (the floor)", floor)):
        m = measure(body, args.rounds)
        total = m["user"] + m["sys"]
        faulting = m["minflt"] * cost  # the system time's own split is tick-sampled: coarse
        print(f"{name:26s} {args.rows} rows: {total / args.rows * 1e9:6.0f} ns/row, "
              f"{m['minflt']:,.0f} faults ≈ {faulting / args.rows * 1e9:4.0f} ns/row "
              f"({faulting / total if total else 0:.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
