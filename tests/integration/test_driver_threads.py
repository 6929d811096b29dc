"""Threads that share a connection by accident must not corrupt the byte stream."""

from __future__ import annotations

import threading
from typing import Any

import ifxwire


def test_threads_sharing_a_connection(connect_kwargs: dict[str, Any], dbname: str) -> None:
    c = ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True, fetch_buffer_size=4096)
    c.execute("CREATE TABLE th (a INT, b CHAR(52))")
    c.cursor().executemany("INSERT INTO th VALUES (?, ?)", [(i, f"b{i}") for i in range(3000)])
    errors: list[BaseException] = []
    expected = [(i, f"b{i}") for i in range(3000)]

    def reader() -> None:
        try:
            for _ in range(5):
                cur = c.execute("SELECT a, b FROM th ORDER BY a")
                got = [row for row in cur]  # fetches interleave with other threads' calls
                assert got == expected
        except BaseException as exc:
            errors.append(exc)

    def writer(k: int) -> None:
        try:
            cur = c.cursor()
            for i in range(200):
                cur.execute("SELECT COUNT(*) FROM th WHERE a < ?", (i,))
                assert cur.fetchone() == (i,)
                cur.execute("INSERT INTO th_w VALUES (?, ?)", (k, i))
        except BaseException as exc:
            errors.append(exc)

    c.execute("CREATE TABLE th_w (k INT, i INT)")
    threads = [threading.Thread(target=reader) for _ in range(3)]
    threads += [threading.Thread(target=writer, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors[0]
    assert not c.broken
    assert c.execute("SELECT COUNT(*) FROM th_w").fetchone() == (600,)
    c.close()
