"""DDL statements inside transactions over a large catalogue (issue 26; Django's migrations).

    python bench/ddl_in_transactions.py [--tables 600] [--ddl 90] [--src DIR]

Why: Django runs every migration in a transaction, and its test suite builds a database of
about 1,800 tables that way; each DDL statement's own work used to grow with the size of the
catalogue (every catalogue row read before and after it for its undo entries; SQLite's
RENAME, which parses the whole schema again, for every ALTER TABLE's rebuild), so building
the database cost the square of its size. This makes ``--tables`` tables (a primary key, a
foreign key to the one before, an index), then runs ``--ddl`` statements in transactions of
nine (three each of CREATE TABLE, CREATE INDEX and ALTER TABLE ... ADD, the last on tables
of the first phase) through ifxwire over a socket to an ifxwire-server of its own, row locks
on, and prints the milliseconds per DDL statement of that second phase. ``--src`` runs the
tree at DIR (its ``src``) in a child process: two trees side by side.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run(tables: int, ddl: int) -> float:
    import ifxwire
    from ifxwire.server import Server

    with tempfile.TemporaryDirectory() as data, Server(
            port=0, host="127.0.0.1", data=data, row_locks=True) as srv:
        c = ifxwire.connect(host=srv.host, port=srv.port, user="informix",
                            password="in4mix", autocommit=True)
        c.execute("CREATE DATABASE bench WITH LOG")
        c.execute("DATABASE bench")
        for n in range(tables):
            ref = f", p INT REFERENCES t{n - 1} (id)" if n else ""
            c.execute(f"CREATE TABLE t{n} (id SERIAL PRIMARY KEY, v VARCHAR(20){ref})")
            c.execute(f"CREATE INDEX t{n}_v ON t{n} (v)")
        started = time.perf_counter()
        done = 0
        while done < ddl:
            c.execute("BEGIN WORK")
            for _ in range(3):
                k = done
                c.execute(f"CREATE TABLE m{k} (id SERIAL PRIMARY KEY, w INT, x CHAR(8))")
                c.execute(f"CREATE INDEX m{k}_w ON m{k} (w)")
                c.execute(f"ALTER TABLE t{k % tables} ADD (extra{k} INT)")
                done += 3
            c.execute("COMMIT WORK")
        elapsed = time.perf_counter() - started
        c.close()
        return elapsed / done * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=600)
    ap.add_argument("--ddl", type=int, default=90)
    ap.add_argument("--src", help="run the tree at DIR/src in a child process")
    args = ap.parse_args()
    if args.src:
        env = {**os.environ, "PYTHONPATH": str(Path(args.src).resolve() / "src")}
        subprocess.run([sys.executable, __file__, "--tables", str(args.tables), "--ddl",
                        str(args.ddl)], env=env, check=True)
        return
    ms = _run(args.tables, args.ddl)
    print(f"{args.tables} tables: {ms:.1f} ms per DDL statement in a transaction "
          f"({args.ddl} statements)")


if __name__ == "__main__":
    main()
