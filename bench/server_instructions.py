"""Instructions per select_one_row statement of the whole server process (issue 26).

    python bench/server_instructions.py --src DIR/src [--src DIR2/src ...] [--few 300] [--many 1500]

Why: on the shared, loaded machine every timing of a statement moves by tens of per cent,
and this machine's perf has no hardware counters. valgrind counts instructions exactly,
whatever the load: each tree's ifxwire-server runs under ``valgrind --tool=cachegrind
--cache-sim=no`` twice, one ifxwire client (this tree's, outside valgrind) running ``SELECT 1
FROM systables WHERE tabid = 1`` in sysmaster (execute + fetchall, its statement cached)
``--few`` and then ``--many`` times; the server is stopped and valgrind's total ``I refs``
read. (many − few) / (many − few statements) is the server's instructions per statement:
every thread (the session's receive loop, the interrupt watcher's ticks), the Python
interpreter, the sqlite3 module and SQLite, the system calls' user-space side; start-up and
login cancel out. Slow (a minute or two per tree); the trees run one after the other.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench import valgrind_server

ROOT = Path(__file__).resolve().parent.parent
CONST = "SELECT 1 FROM systables WHERE tabid = 1"


def _count(src: str, statements: int) -> int:
    """valgrind's I refs of one server run that served ``statements`` select_one_row."""
    import ifxwire

    srv, port = valgrind_server.start(src)
    conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database="sysmaster", autocommit=True)
    cur = conn.cursor()
    for _ in range(statements):
        cur.execute(CONST)
        cur.fetchall()
    cur.close()
    conn.close()
    return valgrind_server.stop_and_count(srv)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--src", action="append", default=[],
                   help="a tree's src directory (repeat; default: this tree)")
    p.add_argument("--few", type=int, default=300)
    p.add_argument("--many", type=int, default=1500)
    args = p.parse_args(argv)
    for src in args.src or [str(ROOT / "src")]:
        few = _count(src, args.few)
        many = _count(src, args.many)
        per = (many - few) / (args.many - args.few)
        print(f"{src}: {per:,.0f} instructions per statement "
              f"({few:,} for {args.few}, {many:,} for {args.many})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
