"""Instructions per write statement of the whole server process (issues 23 and 26).

    python bench/server_write_instructions.py --src BASE/src --src src [--case insert|update]
        [--few 200] [--many 1000]

Why: libsqli waits 1 ms for an EXECUTE's reply on one path (docs/PROTOCOL.md §6, "libsqli's
1 ms EOT wait"), and issue 26's 8 writers pay the row-lock write unit per transaction; on
this shared 2-core machine timings move by tens of per cent, and its perf has no hardware
counters, so valgrind counts the server's instructions (as bench/server_instructions.py does
for select_one_row). Each tree's ifxwire-server (``--row-locks``) runs under ``valgrind
--tool=cachegrind --cache-sim=no`` twice; a client outside valgrind creates ``CREATE
DATABASE wx WITH LOG`` and a table, then runs the case ``--few`` and then ``--many`` times:

* ``insert``: libsqli's bytes (tests/integration/rawclient.py): one PREPARE of
  ``INSERT INTO t (id, c) VALUES (?, ?)``, then ``ID 0 BIND (INTEGER, VARCHAR) EXECUTE EOT``
  per statement, autocommitted (libsqli's case, its must-type suite);
* ``update``: this tree's ifxwire driver, ``UPDATE t SET v = v + 1 WHERE id = ?`` (its
  statement cached) between BEGIN WORK and COMMIT WORK (``autocommit=False``), one
  transaction per statement, over 100 rows.

(many − few) / (many − few) is the server's instructions per statement (per transaction
for ``update``): every thread, the interpreter, the sqlite3 module and SQLite; start-up,
login and the set-up cancel out. Slow (a minute or two per tree and case).
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench import valgrind_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "integration"))

PREPARE, NDESCRIBE, WANTDONE, EOT, ID, BIND, EXECUTE = 2, 22, 49, 12, 4, 5, 7
INSERT = "INSERT INTO t (id, c) VALUES (?, ?)"
UPDATE = "UPDATE t SET v = v + 1 WHERE id = ?"


def _prepare(sql: str) -> bytes:
    """libsqli's PREPARE NDESCRIBE WANTDONE EOT."""
    text = sql.encode()
    return (struct.pack(">HHI", PREPARE, 2, len(text)) + text + b"\0" * (len(text) & 1)
            + struct.pack(">HHH", NDESCRIBE, WANTDONE, EOT))


def _execute(value: int) -> bytes:
    """libsqli's ID 0 BIND (INTEGER, VARCHAR) EXECUTE EOT."""
    text = b"prep_string"
    return (struct.pack(">HhHH", ID, 0, BIND, 2) + struct.pack(">hhhi", 2, 0, 0, value)
            + struct.pack(">hhhh", 13, 0, len(text), len(text)) + text + b"\0"
            + struct.pack(">HH", EXECUTE, EOT))


def _insert(port: int, statements: int) -> None:
    from rawclient import RawClient

    from ifxwire.protocol import messages as m
    from ifxwire.protocol.wire import Writer

    c = RawClient("127.0.0.1", port)
    try:
        w = Writer()
        m.put_dbopen(w, b"wx")
        assert c.send(w).errors == []
        c.sock.sendall(_prepare(INSERT))
        assert c.read_reply().errors == []
        for i in range(statements):
            c.sock.sendall(_execute(i))
            assert c.read_reply().errors == []
    finally:
        c.close()


def _update(port: int, statements: int) -> None:
    import ifxwire

    conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           database="wx", autocommit=False)
    cur = conn.cursor()
    for i in range(statements):
        cur.execute(UPDATE, (i % 100,))
        conn.commit()
    conn.close()


def _setup(port: int) -> None:
    import ifxwire

    conn = ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           autocommit=True)
    cur = conn.cursor()
    cur.execute("CREATE DATABASE wx WITH LOG")
    cur.execute("CREATE TABLE t (id INTEGER, c VARCHAR(40), v INTEGER)")
    cur.executemany("INSERT INTO t (id, c, v) VALUES (?, 'x', 0)", [(i,) for i in range(100)])
    conn.close()


def _count(src: str, case: str, statements: int) -> int:
    """valgrind's I refs of one server run that served ``statements`` of ``case``."""
    srv, port = valgrind_server.start(src, ["--row-locks"], "ifxwire-winstr-")
    _setup(port)
    (_insert if case == "insert" else _update)(port, statements)
    return valgrind_server.stop_and_count(srv)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--src", action="append", default=[],
                   help="a tree's src directory (repeat; default: this tree)")
    p.add_argument("--case", choices=("insert", "update"), action="append", default=[])
    p.add_argument("--few", type=int, default=200)
    p.add_argument("--many", type=int, default=1000)
    args = p.parse_args(argv)
    for case in args.case or ["insert", "update"]:
        for src in args.src or [str(ROOT / "src")]:
            few = _count(src, case, args.few)
            many = _count(src, case, args.many)
            per = (many - few) / (args.many - args.few)
            print(f"{case} {src}: {per:,.0f} instructions per statement "
                  f"({few:,} for {args.few}, {many:,} for {args.many})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
