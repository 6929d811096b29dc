"""What a new session's first write costs under row locks in a database of many tables
(docs/SERVER.md, "Lock triggers made at a table's first write").

    python bench/rl_session_start.py [--tables 500] [--sessions 10]

An ifxwire-server with row locks (in this process, 127.0.0.1, a free port), a logged
database of ``--tables`` tables with a primary key each (four lock triggers per table).
Then, over real sockets:

* *fresh*: ``--sessions`` sessions held open together, so each gets a SQLite connection of
  its own (none pooled): connect, DATABASE, one INSERT, measured to the INSERT's end;
* *pooled*: the same one after another, each closed before the next, so the Engine hands
  the previous session's SQLite connection to the next;
* *baseline*: the same with row locks off.

Prints the median milliseconds per session of each. Wall times on a shared machine are rough.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import ifxwire
from ifxwire.server import Server

USER = {"user": "informix", "password": "in4mix"}


def _setup(srv: Server, tables: int) -> None:
    c = ifxwire.connect(host=srv.host, port=srv.port, autocommit=True, **USER)
    c.execute("CREATE DATABASE rlstart WITH LOG")
    c.execute("DATABASE rlstart")
    for n in range(tables):
        c.execute(f"CREATE TABLE t{n} (id SERIAL PRIMARY KEY, v INT)")
    c.close()


def _first_write(srv: Server, n: int) -> tuple[float, ifxwire.Connection]:
    started = time.perf_counter()
    c = ifxwire.connect(host=srv.host, port=srv.port, database="rlstart", autocommit=True,
                        **USER)
    c.execute(f"INSERT INTO t{n} (v) VALUES (1)")
    return (time.perf_counter() - started) * 1000, c


def run(row_locks: bool, tables: int, sessions: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as d, Server(port=0, host="127.0.0.1", data=d,
                                                    row_locks=row_locks) as srv:
        _setup(srv, tables)
        fresh = []
        held = []
        for i in range(sessions):
            ms, c = _first_write(srv, i % tables)
            fresh.append(ms)
            held.append(c)
        for c in held:
            c.close()
        pooled = []
        for i in range(sessions):
            ms, c = _first_write(srv, (i * 7) % tables)
            pooled.append(ms)
            c.close()
        return statistics.median(fresh), statistics.median(pooled)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--sessions", type=int, default=10)
    args = ap.parse_args()
    for label, on in (("row locks", True), ("baseline (row locks off)", False)):
        fresh, pooled = run(on, args.tables, args.sessions)
        print(f"{label}: {args.tables} tables, median of {args.sessions}: "
              f"fresh connection {fresh:.1f} ms, pooled connection {pooled:.1f} ms")


if __name__ == "__main__":
    main()
