"""What the object-mode bookkeeping adds to every DDL statement (twenty-eighth session).

``features/object_modes.sync`` runs after each DDL statement, beside ``objstate.sync``. With
nothing filtering it reads sysobjstate's F, G and disabled-index rows and sysviolations'
first row. This measures both syncs' CPU time per call on a database of N tables (each
with a primary key, a unique index and a NOT NULL constraint: three sysobjstate rows and
more), so the added cost is seen next to what every DDL statement already pays, then the
same with one table filtering (its two triggers made again on each call).

    nice -n 10 python bench/object_modes_sync.py [N]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from ifxwire.server.engine import Engine
from ifxwire.server.engine.features import object_modes, objstate


def _cpu_per_call(fn: object, calls: int) -> float:
    assert callable(fn)
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory(dir="/dev/shm") as tmp:
        eng = Engine(Path(tmp) / "data")
        s = eng.session("informix", {})

        def run(sql: str) -> None:
            s.execute(s.prepare(sql), [])

        run("CREATE DATABASE omb WITH LOG")
        run("DATABASE omb")
        for i in range(n):
            run(f"CREATE TABLE t{i} (id INT PRIMARY KEY, k INT NOT NULL, v CHAR(10))")
            run(f"CREATE UNIQUE INDEX u{i} ON t{i} (k)")
        dc = s._ddl_context()  # (the context every DDL statement gets)
        calls = 200
        base = _cpu_per_call(lambda: objstate.sync(dc.conn), calls)
        added = _cpu_per_call(lambda: object_modes.sync(dc), calls)
        print(f"{n} tables: objstate.sync {base:.0f} us/call, object_modes.sync "
              f"{added:.0f} us/call ({added / base:.1%} of it), nothing filtering")
        run("START VIOLATIONS TABLE FOR t0")
        run("SET INDEXES u0 FILTERING")
        dc = s._ddl_context()  # (the context every DDL statement gets)
        filt = _cpu_per_call(lambda: object_modes.sync(dc), calls)
        print(f"{n} tables: object_modes.sync {filt:.0f} us/call with one table filtering")
        s.close()
        eng.close()


if __name__ == "__main__":
    main()
