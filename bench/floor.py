"""The floor: the CPU CPython needs just to build the rows a driver returns, or to serialise
the rows it is given, with no wire protocol in between.

Read scenarios: ``pickle.loads`` of the rows one operation returned (the driver's own tuples of
ints, strs, floats, Decimals, dates..., pickled once, untimed, right after a real fetch), then
dropping them, as the bench body drops what ``fetchall`` returned. Write scenarios:
``pickle.dumps`` of each row one operation sends. Both run in the driver's worker process right
after each of its measured rounds, so the floor and the driver share the interpreter, its heap
and the machine's state of the moment (docs/BENCHMARKS.md, *The floor*).

Why pickle: its loader is C code that does little more than call the constructors (one
``PyLong``, ``PyUnicode``, ``PyFloat`` per value, one tuple per row, one list), from a
compact byte stream that was prepared for exactly that. A driver has to do the same
allocations and, besides, parse a protocol that was not designed for it; so ``pickle.loads``
is a practical lower bound for a driver's client CPU. It is not an absolute one: pickle has
its own framing (opcodes, a memo, ``Decimal`` rebuilt from its string), and a driver may
share equal objects pickle would memoise the same way.
"""

from __future__ import annotations

import gc
import pickle
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench import kernel

PROTOCOL = pickle.HIGHEST_PROTOCOL


def freeze(rows: Sequence[Any]) -> bytes:
    """The pickle of one operation's rows (untimed). Rows that are tuple subclasses stay what
    they are: the floor builds the objects the driver built."""
    return pickle.dumps(list(rows), protocol=PROTOCOL)


Body = Callable[[], None]


#: Floor measurements per round; the round's floor is their median (docs/BENCHMARKS.md).
REPEAT = 3


def timed(body: Body, ops: int, repeat: int = REPEAT) -> dict[str, Any]:
    """One floor round: ``repeat`` measurements of ``body``, each after a full collection
    (untimed, as before every bench round), reduced to their median CPU and median wall.

    The kernel's part (system time, minor faults: bench/kernel.py) is the median of each too.

    A single measurement swings with what the machine does in those milliseconds (issue 16's
    run measured 26 ms for rows whose floor was 47 ms in the other worker); the median of
    three right after the same driver round keeps the floor what it is, pickle's cost for
    these rows in this worker, without one lucky or unlucky sample deciding a ratio.
    """
    cpus: list[float] = []
    walls: list[float] = []
    kernels: list[dict[str, float]] = []
    for _ in range(max(1, repeat)):
        gc.collect()
        k0 = kernel.sample()
        c0, t0 = time.process_time(), time.perf_counter()
        body()
        t1, c1 = time.perf_counter(), time.process_time()
        kernels.append(kernel.since(k0))
        cpus.append(c1 - c0)
        walls.append(t1 - t0)
    return {
        "ok": True,
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "ops": ops,
        "cpu_samples": cpus,
        **{k: statistics.median(x[k] for x in kernels) for k in kernels[0]},
    }


def loads_body(blob: bytes, ops: int) -> Body:
    """``ops`` times: materialise one operation's rows and drop them."""
    loads = pickle.loads

    def body() -> None:
        for _ in range(ops):
            rows = loads(blob)
            del rows

    return body


def dumps_body(per_op: Sequence[Sequence[Any]], ops: int) -> Body:
    """``ops`` times: serialise each row one operation sends (``per_op[i % len]``), one
    ``pickle.dumps`` per row, as the driver sends each row's parameters in a message of its
    own. (One ``dumps`` of the whole list costs about 1.6 times more here, most of it pickle's
    memo of every string and tuple; a memo-less ``Pickler.fast`` dump about a third: see
    docs/BENCHMARKS.md, *The floor*.)"""
    dumps = pickle.dumps
    n = len(per_op)

    def body() -> None:
        for i in range(ops):
            for row in per_op[i % n]:
                data = dumps(row, PROTOCOL)
                del data

    return body


def loads_round(blob: bytes, ops: int) -> dict[str, Any]:
    return {**timed(loads_body(blob, ops), ops), "bytes": len(blob)}


def dumps_round(per_op: Sequence[Sequence[Any]], ops: int) -> dict[str, Any]:
    return timed(dumps_body(per_op, ops), ops)
