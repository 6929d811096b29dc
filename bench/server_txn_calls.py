"""SQLite statements and GIL-releasing calls per row-lock transaction (issue 26 §3).

    PYTHONPATH=src python bench/server_txn_calls.py [--transactions 50] [--updates 5]
                                                    [--sessions 1]

Why: with 8 runnable session threads every place a session thread lets go of the GIL (a
``sqlite3_step``/``prepare`` inside the sqlite3 module, a socket ``recv``/``send``, a lock
wait) is a chance for a switch and a wait to get it back (docs/BENCHMARKS.md, "Row locks,
quiet"), so these counts, not wall time, say what a change to the write path saves. The
counts are exact and the same on a loaded machine.

An in-process server with row locks, a table of bench/server_locks.py's shape (``LOCK MODE
ROW``) and ``--sessions`` clients (threads of this process, each with its own rows; only
the first is counted); each runs ``--transactions`` of BEGIN WORK, ``--updates`` single-row
UPDATEs, COMMIT WORK. Printed per counted transaction:

* the SQLite statements of the session's connection, by text (SQLite's trace callback; a
  lock trigger's firing shows as its statement's text again and is left out);
* the C calls the session's server thread makes that release the GIL: ``execute`` (one
  step, and a prepare when the statement is not cached), ``fetchone`` (one more step),
  ``executemany`` (one step per row), socket ``recv_into``/``recv``/``send``/``sendall``,
  lock ``acquire`` (counted through ``threading.setprofile``'s ``c_call`` events).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD = "informix", "in4mix"
UPDATE = "UPDATE t SET v = v + 1 WHERE id = ?"
_RELEASING = {"execute", "executemany", "fetchone", "fetchall", "recv_into", "recv", "send",
              "sendall", "acquire"}


def _shape(sql: str) -> str:
    return re.sub(r"'[^']*'|\b\d+\b", "?", sql)[:70]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--transactions", type=int, default=50)
    ap.add_argument("--updates", type=int, default=5)
    ap.add_argument("--sessions", type=int, default=1)
    args = ap.parse_args()
    import ifxwire
    from ifxwire.server import Server

    calls: collections.Counter[str] = collections.Counter()
    counted: set[int] = set()  # the counted session's server thread

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "c_call" and threading.get_ident() in counted:
            name = getattr(arg, "__name__", "")
            if name in _RELEASING:
                calls[name] += 1

    def connect(port: int) -> Any:
        c = ifxwire.connect(host="127.0.0.1", port=port, user=USER, password=PASSWORD,
                            database="locks", autocommit=True)
        c.cursor().execute("SET LOCK MODE TO WAIT")
        return c

    # before the server starts: its threads (a pool may serve the sessions) get the profile
    threading.setprofile(profile)
    with tempfile.TemporaryDirectory() as d, \
            Server(port=0, host="127.0.0.1", data=d, row_locks=True) as srv:
        c = ifxwire.connect(host="127.0.0.1", port=srv.port, user=USER, password=PASSWORD,
                            autocommit=True)
        c.cursor().execute("CREATE DATABASE locks WITH LOG")
        c.close()
        c = connect(srv.port)
        c.cursor().execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) LOCK MODE ROW")
        c.cursor().executemany("INSERT INTO t VALUES (?, 0)",
                               [(i,) for i in range(100 * args.sessions)])
        c.close()
        clients = [connect(srv.port) for _ in range(args.sessions)]
        me = clients[0]
        host, port = me._transport.sock.getsockname()[:2]
        (session,) = [s for s in list(srv._sessions) if s.peer == f"{host}:{port}"]
        conn = session.engine.conn
        stop = threading.Event()

        def other(k: int) -> None:
            cur = clients[k].cursor()
            n = 0
            while not stop.is_set():
                cur.execute("BEGIN WORK")
                for _ in range(args.updates):
                    cur.execute(UPDATE, (100 * k + n % 100,))
                    n += 1
                cur.execute("COMMIT WORK")

        others = [threading.Thread(target=other, args=(k,)) for k in range(1, args.sessions)]
        for th in others:
            th.start()
        cur = me.cursor()
        cur.execute("BEGIN WORK")  # warm: the statement cached, the triggers made
        cur.execute("UPDATE t SET v = v + 1 WHERE id = 0")
        cur.execute("COMMIT WORK")
        seen: list[str] = []
        last = [""]

        def trace(sql: str) -> None:
            # a trigger's firing repeats its statement's text: one statement, not three
            if sql != last[0] or not sql.startswith(("UPDATE", "INSERT", "DELETE")):
                seen.append(sql)
            last[0] = sql

        counted.add(session_thread(srv, session))
        conn.set_trace_callback(trace)
        calls.clear()
        for _ in range(args.transactions):
            for sql, values in ([("BEGIN WORK", ())]
                                + [(UPDATE, (k,)) for k in range(args.updates)]
                                + [("COMMIT WORK", ())]):
                last[0] = ""
                cur.execute(sql, values)
        conn.set_trace_callback(None)
        counted.clear()
        stop.set()
        for th in others:
            th.join()
        for x in clients:
            x.close()
    n = args.transactions
    print(f"{args.sessions} session(s), {n} transactions of BEGIN WORK, {args.updates} "
          f"UPDATEs, COMMIT WORK: per transaction")
    by = collections.Counter(_shape(q) for q in seen)
    print(f"  SQLite statements: {len(seen) / n:.2f}")
    for text, k in by.most_common():
        print(f"    {k / n:6.2f}  {text}")
    print(f"  GIL-releasing calls of the session thread: {sum(calls.values()) / n:.2f}")
    for name, k in calls.most_common():
        print(f"    {k / n:6.2f}  {name}")


def session_thread(srv: Any, session: Any) -> int:
    """The ident of the server thread serving ``session`` (the one in its ``_serve``)."""
    for ident, frame in sys._current_frames().items():
        f = frame
        while f is not None:
            if f.f_code.co_name == "_serve" and f.f_locals.get("self") is session:
                return ident
            f = f.f_back
    raise SystemExit("the session's thread was not found")


if __name__ == "__main__":
    main()
