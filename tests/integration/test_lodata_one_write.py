"""An SQ_LODATA read's reply leaves the server as every other reply does (docs/PROTOCOL.md,
"Every reply leaves the server in one write"): a read of at most 256 KiB is built whole and
sent in one write with the group's end (server/lobwire.py ``_WHOLE_READ``); a larger one is
streamed, its header going out in the same ``sendmsg`` as its first data
(server/wireio.py ``_send_parts``). Both were three writes (header, data, end): a client
that takes the end of a packet for the end of a reply (libsqli) would read it in pieces, and
every smart-LOB read and change-capture read paid two more system calls."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.both_drivers

VALUE = bytes(range(256)) * 4000  # 1,024,000 bytes


def _recorded_read(monkeypatch: pytest.MonkeyPatch, blob: Any, n: int) -> tuple[bytes, list[str]]:
    from ifxwire.server import wireio

    writes: list[str] = []
    flush, gathered = wireio.WireIO._flush, wireio.send_parts
    wait = wireio.WireIO._await_request

    def flushing_wait(self: Any) -> None:
        # _await_request sends what is pending without calling _flush (inlined, issue 26):
        # sent through _flush here, so it is recorded; it then finds nothing pending.
        self._flush()
        wait(self)

    def recording_flush(self: Any) -> None:
        if self.pending:
            writes.append("sendall")
        flush(self)

    def recording_send_parts(sock: Any, parts: Any) -> None:
        writes.append("sendmsg")
        gathered(sock, parts)

    monkeypatch.setattr(wireio.WireIO, "_flush", recording_flush)
    monkeypatch.setattr(wireio.WireIO, "_await_request", flushing_wait)
    monkeypatch.setattr(wireio, "send_parts", recording_send_parts)
    try:
        got = blob.read(n)
    finally:
        monkeypatch.undo()
    return got, writes


def test_lodata_read_replies_leave_whole(driver: Any, connect_kwargs: dict[str, Any],
                                         dbname: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with driver.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("DROP TABLE IF EXISTS lo_one")
        c.execute("CREATE TABLE lo_one (b BLOB)")
        c.execute("INSERT INTO lo_one VALUES (?)", (VALUE,))
        blob = c.execute("SELECT b FROM lo_one").fetchone()[0]
        assert blob.read(10) == VALUE[:10]  # opened (fast path), first read done
        got, writes = _recorded_read(monkeypatch, blob, 5000)
        assert got == VALUE[10:5010]
        assert len(writes) == 1, writes
        got, writes = _recorded_read(monkeypatch, blob, 600_000)
        assert got == VALUE[5010:605010]
        assert writes[0] == "sendmsg", writes  # the header with the first data
